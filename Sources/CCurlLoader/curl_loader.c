// See include/CCurlLoader.h. The functions are looked up once with dlopen/dlsym; curl.h gives the
// types and option numbers only (nothing of libcurl is linked).
#include "CCurlLoader.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char failure[200];
} curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.failure, sizeof curl.failure, "cannot load libcurl.so.4 (install libcurl4): %s", dlerror());
        return;
    }
#define FIND(field, name) *(void **)(&curl.field) = dlsym(library, name)
    FIND(global_init, "curl_global_init");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_perform, "curl_easy_perform");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_strerror, "curl_easy_strerror");
    FIND(slist_append, "curl_slist_append");
    FIND(slist_free_all, "curl_slist_free_all");
#undef FIND
    if (!curl.global_init || !curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo
        || !curl.easy_cleanup || !curl.easy_strerror || !curl.slist_append || !curl.slist_free_all) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl.so.4 lacks a function the bridge needs");
        curl.easy_init = NULL;
        return;
    }
    // Once, before any thread uses libcurl (pthread_once).
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl could not initialise");
        curl.easy_init = NULL;
    }
}

struct aq_http_cancel { int fired; };

aq_http_cancel *aq_http_cancel_create(void) { return calloc(1, sizeof(aq_http_cancel)); }
void aq_http_cancel_fire(aq_http_cancel *cancel) { __atomic_store_n(&cancel->fired, 1, __ATOMIC_SEQ_CST); }
void aq_http_cancel_destroy(aq_http_cancel *cancel) { free(cancel); }

static int progress(void *data, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a; (void)b; (void)c; (void)d;
    aq_http_cancel *cancel = data;
    return cancel && __atomic_load_n(&cancel->fired, __ATOMIC_SEQ_CST) ? 1 : 0;
}

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}

aq_http_outcome aq_http_post(const char *url, const char *const *headers, int header_count,
                             const char *body, size_t body_length, long timeout_seconds,
                             aq_http_cancel *cancel, aq_http_result *result) {
    memset(result, 0, sizeof *result);
    if (cancel && __atomic_load_n(&cancel->fired, __ATOMIC_SEQ_CST)) return AQ_HTTP_CANCELLED;
    pthread_once(&loaded, load);
    if (!curl.easy_init) {
        snprintf(result->error, sizeof result->error, "%s", curl.failure);
        return AQ_HTTP_NO_LIBRARY;
    }
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(result->error, sizeof result->error, "libcurl could not start a request");
        return AQ_HTTP_FAILED;
    }
    struct curl_slist *list = NULL;
    for (int index = 0; index < header_count; index++) list = curl.slist_append(list, headers[index]);
    // No "Expect: 100-continue" (libcurl adds it above 1 KiB): a server that ignores it costs a second.
    list = curl.slist_append(list, "Expect:");
    char message[CURL_ERROR_SIZE] = "";
    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_POST, 1L);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
    curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(handle, CURLOPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, message);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, cancel);
    CURLcode code = curl.easy_perform(handle);
    aq_http_outcome outcome;
    switch (code) {
    case CURLE_OK: {
        outcome = AQ_HTTP_ANSWERED;
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result->status);
        char *location = NULL;
        if (result->status >= 300 && result->status < 400
            && curl.easy_getinfo(handle, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location)
            snprintf(result->location, sizeof result->location, "%s", location);
        break;
    }
    case CURLE_OPERATION_TIMEDOUT: outcome = AQ_HTTP_TIMED_OUT; break;
    case CURLE_COULDNT_CONNECT: outcome = AQ_HTTP_REFUSED; break;
    case CURLE_COULDNT_RESOLVE_HOST: outcome = AQ_HTTP_HOST_NOT_FOUND; break;
    case CURLE_ABORTED_BY_CALLBACK: outcome = AQ_HTTP_CANCELLED; break;
    default: outcome = AQ_HTTP_FAILED; break;
    }
    if (outcome != AQ_HTTP_ANSWERED)
        snprintf(result->error, sizeof result->error, "%s", message[0] ? message : curl.easy_strerror(code));
    curl.slist_free_all(list);
    curl.easy_cleanup(handle);
    return outcome;
}
