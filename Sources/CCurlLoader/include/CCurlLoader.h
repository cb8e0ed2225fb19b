// One HTTP POST through libcurl, which is loaded with dlopen the first time it is needed
// (Sources/Sinks/Push/CurlTransport.swift says why): a bridge without HTTP push never maps
// libcurl and the ~30 libraries it brings (TLS, Kerberos, LDAP, …).
#ifndef AQUAVATE_CCURLLOADER_H
#define AQUAVATE_CCURLLOADER_H

#include <stddef.h>

/// How a POST ended.
typedef enum {
    AQ_HTTP_ANSWERED = 0,       ///< the server answered: `status` (and `location` for a redirect)
    AQ_HTTP_NO_LIBRARY = 1,     ///< libcurl.so.4 could not be loaded: `error` says why
    AQ_HTTP_TIMED_OUT = 2,
    AQ_HTTP_REFUSED = 3,        ///< connection refused
    AQ_HTTP_HOST_NOT_FOUND = 4,
    AQ_HTTP_CANCELLED = 5,      ///< aq_http_cancel_fire was called
    AQ_HTTP_FAILED = 6,         ///< anything else: `error` is libcurl's message
} aq_http_outcome;

typedef struct {
    long status;
    char location[512];         ///< the Location of a 3xx answer, "" otherwise (truncated)
    char error[256];
} aq_http_result;

/// A flag that makes every POST given it end (within about a second), now and later.
typedef struct aq_http_cancel aq_http_cancel;
aq_http_cancel *aq_http_cancel_create(void);
void aq_http_cancel_fire(aq_http_cancel *cancel);
void aq_http_cancel_destroy(aq_http_cancel *cancel);

/// POSTs `body` to `url` with `headers` ("Name: value"), no redirect followed, http and https
/// only, at most `timeout_seconds` in all. Blocks the calling thread.
aq_http_outcome aq_http_post(const char *url, const char *const *headers, int header_count,
                             const char *body, size_t body_length, long timeout_seconds,
                             aq_http_cancel *cancel, aq_http_result *result);

#endif
