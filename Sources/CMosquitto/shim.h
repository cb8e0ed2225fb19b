#ifndef AQUAVATE_CMOSQUITTO_SHIM_H
#define AQUAVATE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
