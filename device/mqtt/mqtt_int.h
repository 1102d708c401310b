/* goref program: inside device/mqtt/ (not for its users). */
#ifndef GOREF_DEVICE_MQTT_INT_H
#define GOREF_DEVICE_MQTT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "mqtt.h"

struct mosquitto;

#if defined(__GNUC__)
#define GM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GM_PRINTF(a, b)
/* Seconds on the monotonic clock, and on the wall clock. */
double gm_mono_s(void);
double gm_wall_s(void);

#endif

void gm_tracef(const gm_conn_opts *o, int level, const char *fmt, ...) GM_PRINTF(3, 4);

/* A client with the options o (user, password, TLS, reconnect delays). NULL
 * with a message. */
struct mosquitto *gm_client_new(const char *id, bool clean, int protocol, const gm_conn_opts *o, void *obj,
                                char *err, size_t cap);
/* Connects in the background and starts the network thread. */
int gm_client_start(struct mosquitto *m, const gm_conn_opts *o, char *err, size_t cap);
/* The broker's address as the options give it: the host (127.0.0.1 when
 * none) and the port (1883, or 8883 with a CA file, when none). */
const char *gm_conn_host(const gm_conn_opts *o);
int gm_conn_port(const gm_conn_opts *o);
/* The words of a CONNACK code. */
const char *gm_connack_words(int protocol, int rc);

/* Seconds on the monotonic clock, and on the wall clock. */
double gm_mono_s(void);
double gm_wall_s(void);

#endif
