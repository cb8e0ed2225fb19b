#ifndef AQUAVATE_CMOSQUITTO_SHIM_H
#define AQUAVATE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
