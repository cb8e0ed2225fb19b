// libmosquitto, loaded with dlopen the first time an MQTT client is made, instead of linked.
//
// Why: libmosquitto.so.1 brings libssl.so.3 and libcrypto.so.3, and a linked library is mapped
// and relocated at every start of the bridge, including `--version`, `run --once` and every
// command that never talks MQTT. Measured on the build machine with two tiny C programs
// (`perf stat -r 200`, `/usr/bin/time -f %M`): linking -lmosquitto costs about 1.0 ms of CPU and
// 1.5 MiB of resident memory per process start. The release bridge's `--version` (-static-stdlib),
// linked: 19 libraries (ldd) and 9,020 symbol relocations (LD_DEBUG=statistics); loaded at first
// use: 16 and 4,961, and a peak RSS 1.6 MiB lower. A bridge without `mqtt.url` now pays nothing; one with
// it loads the three libraries once, at its first MQTT client. HTTP push does the same with
// libcurl (CCurlLoader).
//
// mosquitto.h still gives every type and constant (nothing is copied by hand); only the
// functions are reached through pointers looked up once with dlsym. Each `aq_mosquitto_X` below
// is `mosquitto_X` with the same parameters: call `aq_mosquitto_load` (successfully) first.
#ifndef AQUAVATE_CMOSQUITTOLOADER_H
#define AQUAVATE_CMOSQUITTOLOADER_H

#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <stdbool.h>
#include <stddef.h>

/// The library the bridge loads (the soname of Debian's libmosquitto1).
#define AQ_MOSQUITTO_LIBRARY "libmosquitto.so.1"

/// Loads AQ_MOSQUITTO_LIBRARY and calls mosquitto_lib_init, once per process (pthread_once;
/// later calls give the first call's answer). NULL when loaded; else why not, in one line
/// (dlerror's text, or the function the library lacks), valid for the life of the process.
const char *aq_mosquitto_load(void);

/// What loading `library` would say, without keeping it: the same lookups as aq_mosquitto_load
/// (without mosquitto_lib_init). True when the library has every function; otherwise false with
/// why not in `why` (truncated to `size`). For tests of the failure path.
bool aq_mosquitto_check(const char *library, char *why, size_t size);

const char *aq_mosquitto_strerror(int code);
const char *aq_mosquitto_connack_string(int code);
const char *aq_mosquitto_reason_string(int code);

struct mosquitto *aq_mosquitto_new(const char *id, bool clean_session, void *user_data);
void aq_mosquitto_destroy(struct mosquitto *mosq);
int aq_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded);
int aq_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value);
int aq_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int aq_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
int aq_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                         const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
void aq_mosquitto_user_data_set(struct mosquitto *mosq, void *user_data);

void aq_mosquitto_connect_with_flags_callback_set(struct mosquitto *mosq,
                                                  void (*on_connect)(struct mosquitto *, void *, int, int));
void aq_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int));
void aq_mosquitto_message_callback_set(struct mosquitto *mosq,
                                       void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
void aq_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int));

int aq_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int aq_mosquitto_connect_bind_v5(struct mosquitto *mosq, const char *host, int port, int keepalive,
                                 const char *bind_address, const mosquitto_property *properties);
int aq_mosquitto_reconnect_async(struct mosquitto *mosq);
int aq_mosquitto_disconnect(struct mosquitto *mosq);
int aq_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets);
int aq_mosquitto_socket(struct mosquitto *mosq);

int aq_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
                         int qos, bool retain);
int aq_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos);
int aq_mosquitto_subscribe_v5(struct mosquitto *mosq, int *mid, const char *sub, int qos, int options,
                              const mosquitto_property *properties);
int aq_mosquitto_unsubscribe(struct mosquitto *mosq, int *mid, const char *sub);

int aq_mosquitto_property_add_int32(mosquitto_property **proplist, int identifier, uint32_t value);
void aq_mosquitto_property_free_all(mosquitto_property **properties);

#endif
