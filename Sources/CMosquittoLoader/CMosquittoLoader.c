// See include/CMosquittoLoader.h (why libmosquitto is loaded, not linked). The pointers' types
// come from mosquitto.h's own declarations (__typeof__), so a wrapper that passed the wrong
// arguments would not compile.
#include "CMosquittoLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Every libmosquitto function the bridge calls.
#define AQ_MOSQUITTO_FUNCTIONS(F)                                                                   \
    F(lib_init) F(strerror) F(connack_string) F(reason_string)                                      \
    F(new) F(destroy) F(threaded_set) F(int_option) F(username_pw_set) F(will_set) F(tls_set)       \
    F(user_data_set) F(connect_with_flags_callback_set) F(disconnect_callback_set)                  \
    F(message_callback_set) F(publish_callback_set)                                                 \
    F(connect_async) F(connect_bind_v5) F(reconnect_async) F(disconnect) F(loop) F(socket)          \
    F(publish) F(subscribe) F(subscribe_v5) F(unsubscribe)                                          \
    F(property_add_int32) F(property_free_all)

struct functions {
#define FIELD(name) __typeof__(mosquitto_##name) *mosquitto_##name;
    AQ_MOSQUITTO_FUNCTIONS(FIELD)
#undef FIELD
};

/// Opens `library` and looks up every function into `into`: the handle, or NULL with why not.
static void *open_library(const char *library, struct functions *into, char *why, size_t size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(why, size, "%s", error ? error : "dlopen failed");
        return NULL;
    }
#define FIND(name)                                                                                   \
    *(void **)(&into->mosquitto_##name) = dlsym(handle, "mosquitto_" #name);                         \
    if (!into->mosquitto_##name) {                                                                   \
        snprintf(why, size, "it has no mosquitto_" #name ": libmosquitto 1.6 or later is needed");   \
        dlclose(handle);                                                                             \
        return NULL;                                                                                 \
    }
    AQ_MOSQUITTO_FUNCTIONS(FIND)
#undef FIND
    return handle;
}

static struct functions api;
static char failure[300];
static const char *failed;  // NULL once loaded
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    if (!open_library(AQ_MOSQUITTO_LIBRARY, &api, failure, sizeof failure)) {
        failed = failure;
        return;
    }
    // Once, before any client exists (libmosquitto's own rule; pthread_once makes it so).
    int code = api.mosquitto_lib_init();
    if (code != MOSQ_ERR_SUCCESS) {
        snprintf(failure, sizeof failure, "mosquitto_lib_init failed: %s", api.mosquitto_strerror(code));
        failed = failure;
        return;
    }
    failed = NULL;
}

const char *aq_mosquitto_load(void) {
    pthread_once(&loaded, load);
    return failed;
}

bool aq_mosquitto_check(const char *library, char *why, size_t size) {
    struct functions scratch;
    void *handle = open_library(library, &scratch, why, size);
    if (!handle) return false;
    dlclose(handle);
    return true;
}

// The wrappers: one call through a pointer each.

const char *aq_mosquitto_strerror(int code) { return api.mosquitto_strerror(code); }
const char *aq_mosquitto_connack_string(int code) { return api.mosquitto_connack_string(code); }
const char *aq_mosquitto_reason_string(int code) { return api.mosquitto_reason_string(code); }

struct mosquitto *aq_mosquitto_new(const char *id, bool clean_session, void *user_data) {
    return api.mosquitto_new(id, clean_session, user_data);
}
void aq_mosquitto_destroy(struct mosquitto *mosq) { api.mosquitto_destroy(mosq); }
int aq_mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) { return api.mosquitto_threaded_set(mosq, threaded); }
int aq_mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return api.mosquitto_int_option(mosq, option, value);
}
int aq_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return api.mosquitto_username_pw_set(mosq, username, password);
}
int aq_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return api.mosquitto_will_set(mosq, topic, payloadlen, payload, qos, retain);
}
int aq_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                         const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return api.mosquitto_tls_set(mosq, cafile, capath, certfile, keyfile, pw_callback);
}
void aq_mosquitto_user_data_set(struct mosquitto *mosq, void *user_data) { api.mosquitto_user_data_set(mosq, user_data); }

void aq_mosquitto_connect_with_flags_callback_set(struct mosquitto *mosq,
                                                  void (*on_connect)(struct mosquitto *, void *, int, int)) {
    api.mosquitto_connect_with_flags_callback_set(mosq, on_connect);
}
void aq_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    api.mosquitto_disconnect_callback_set(mosq, on_disconnect);
}
void aq_mosquitto_message_callback_set(struct mosquitto *mosq,
                                       void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    api.mosquitto_message_callback_set(mosq, on_message);
}
void aq_mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)) {
    api.mosquitto_publish_callback_set(mosq, on_publish);
}

int aq_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return api.mosquitto_connect_async(mosq, host, port, keepalive);
}
int aq_mosquitto_connect_bind_v5(struct mosquitto *mosq, const char *host, int port, int keepalive,
                                 const char *bind_address, const mosquitto_property *properties) {
    return api.mosquitto_connect_bind_v5(mosq, host, port, keepalive, bind_address, properties);
}
int aq_mosquitto_reconnect_async(struct mosquitto *mosq) { return api.mosquitto_reconnect_async(mosq); }
int aq_mosquitto_disconnect(struct mosquitto *mosq) { return api.mosquitto_disconnect(mosq); }
int aq_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets) {
    return api.mosquitto_loop(mosq, timeout, max_packets);
}
int aq_mosquitto_socket(struct mosquitto *mosq) { return api.mosquitto_socket(mosq); }

int aq_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
                         int qos, bool retain) {
    return api.mosquitto_publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}
int aq_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return api.mosquitto_subscribe(mosq, mid, sub, qos);
}
int aq_mosquitto_subscribe_v5(struct mosquitto *mosq, int *mid, const char *sub, int qos, int options,
                              const mosquitto_property *properties) {
    return api.mosquitto_subscribe_v5(mosq, mid, sub, qos, options, properties);
}
int aq_mosquitto_unsubscribe(struct mosquitto *mosq, int *mid, const char *sub) {
    return api.mosquitto_unsubscribe(mosq, mid, sub);
}

int aq_mosquitto_property_add_int32(mosquitto_property **proplist, int identifier, uint32_t value) {
    return api.mosquitto_property_add_int32(proplist, identifier, value);
}
void aq_mosquitto_property_free_all(mosquitto_property **properties) { api.mosquitto_property_free_all(properties); }
