#ifndef AQUAVATE_CTIMEX_SHIM_H
#define AQUAVATE_CTIMEX_SHIM_H
// adjtimex(2): the kernel's NTP state (Glibc's Swift module leaves sys/timex.h out).
#include <sys/timex.h>
#endif
