// A wall clock some whole days ahead, for the processes of a simulated day in the Home Assistant
// tests (FakeDays.swift): preloaded (LD_PRELOAD) with AQUAVATE_DAYS_AHEAD=N, it adds N days to
// what CLOCK_REALTIME (and its coarse form), gettimeofday and time say. Nothing else changes:
// monotonic clocks, timers and sleeps run as they do (libfaketime, tried first, also moves the
// absolute deadlines of libdispatch's timers, and a Swift program's every sleep then lasts a day).
//
// The symbols carry glibc's versions (the version script FakeDays.swift links with): libraries link against
// clock_gettime@GLIBC_2.17, and an unversioned definition would not be bound to them.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

// Read at each call (no constructor, no setenv: the Swift runtime finds argv by walking back
// from environ, which must not move).
static long shift(void) {
    const char *days = getenv("AQUAVATE_DAYS_AHEAD");
    return days ? atol(days) * 86400L : 0;
}

int clock_gettime(clockid_t clock, struct timespec *value) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, value);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) value->tv_sec += shift();
    return result;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(value, zone);
    if (result == 0) value->tv_sec += shift();
    return result;
}

time_t time(time_t *value) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (value) *value = now.tv_sec;
    return now.tv_sec;
}
