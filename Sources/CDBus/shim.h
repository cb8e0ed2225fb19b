#ifndef AQUAVATE_CDBUS_SHIM_H
#define AQUAVATE_CDBUS_SHIM_H
#include <dbus/dbus.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <poll.h>

/* Swift cannot import DBUS_TYPE_* (they are `((int) 's')` macros, docs/swift-linux.md P1):
   re-export them as constants. */
static const int CDBUS_TYPE_INVALID = DBUS_TYPE_INVALID;
static const int CDBUS_TYPE_BYTE = DBUS_TYPE_BYTE;
static const int CDBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int CDBUS_TYPE_INT16 = DBUS_TYPE_INT16;
static const int CDBUS_TYPE_UINT16 = DBUS_TYPE_UINT16;
static const int CDBUS_TYPE_INT32 = DBUS_TYPE_INT32;
static const int CDBUS_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int CDBUS_TYPE_INT64 = DBUS_TYPE_INT64;
static const int CDBUS_TYPE_UINT64 = DBUS_TYPE_UINT64;
static const int CDBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE;
static const int CDBUS_TYPE_STRING = DBUS_TYPE_STRING;
static const int CDBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH;
static const int CDBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE;
static const int CDBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD;
static const int CDBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int CDBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int CDBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT;
static const int CDBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;
static const int CDBUS_TIMEOUT_USE_DEFAULT = DBUS_TIMEOUT_USE_DEFAULT;
static const int CDBUS_TIMEOUT_INFINITE = DBUS_TIMEOUT_INFINITE;

/* The owner thread's wake-up descriptor (an eventfd), non-blocking and close-on-exec:
   the EFD_* flags are macros of macros that Swift does not import reliably. */
static inline int cdbus_make_wakeup_fd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

/* The owner thread's time-out clock (a timerfd on CLOCK_MONOTONIC), non-blocking and
   close-on-exec: a thread that adds a libdbus time-out while the owner sleeps in poll() arms it,
   instead of waking the owner to shorten its poll. */
static inline int cdbus_make_timer_fd(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

/* Arms `fd` to fire at `deadline_ns` on CLOCK_MONOTONIC (absolute), or disarms it for 0. */
static inline int cdbus_arm_timer_fd(int fd, unsigned long long deadline_ns) {
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000ULL);
    spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000ULL);
    return timerfd_settime(fd, deadline_ns == 0 ? 0 : TFD_TIMER_ABSTIME, &spec, NULL);
}
#endif
