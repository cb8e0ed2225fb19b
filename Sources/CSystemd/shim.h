#ifndef AQUAVATE_CSYSTEMD_SHIM_H
#define AQUAVATE_CSYSTEMD_SHIM_H
/* sd_notify and sd_watchdog_enabled: the service manager's readiness and watchdog protocol. */
#include <systemd/sd-daemon.h>
#endif
