/* goref program: what the board's and the hall's sides of MQTT share
 * (issue 16). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include <mosquitto.h>

#include "mqtt.h"
#include "mqtt_int.h"

void gm_conn_opts_init(gm_conn_opts *o)
{
	memset(o, 0, sizeof *o);
	o->keepalive = 10;
}

int gm_parse_hostport(const char *s, char *host, size_t cap, int *port)
{
	if (!s || !*s || cap == 0)
		return GM_EINVAL;
	const char *colon = NULL, *end = s + strlen(s);
	const char *h = s, *hend;
	if (*s == '[') { /* [v6]:port */
		const char *close = strchr(s, ']');
		if (!close)
			return GM_EINVAL;
		h = s + 1;
		hend = close;
		if (close[1] == ':')
			colon = close + 1;
		else if (close[1])
			return GM_EINVAL;
	} else {
		colon = strrchr(s, ':');
		if (colon && strchr(s, ':') != colon) /* a bare v6 address */
			colon = NULL;
		hend = colon ? colon : end;
	}
	size_t n = (size_t)(hend - h);
	if (n == 0 || n >= cap)
		return GM_EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)h[i] <= ' ' || h[i] == '/' || h[i] == '#' || h[i] == '+')
			return GM_EINVAL;
	if (colon) {
		char *e = NULL;
		long p = strtol(colon + 1, &e, 10);
		if (!colon[1] || *e || p < 1 || p > 65535)
			return GM_EINVAL;
		*port = (int)p;
	}
	memcpy(host, h, n);
	host[n] = '\0';
	return GM_OK;
}

bool gm_name_ok(const char *s)
{
	if (!s)
		return false;
	size_t n = strlen(s);
	if (n < 1 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}

static const char *const action_names[] = {"end", "count", "accept"};

const char *gm_action_name(gm_action a)
{
	return (unsigned)a < sizeof action_names / sizeof action_names[0] ? action_names[a] : "?";
}

int gm_action_parse(const char *s)
{
	for (int i = 0; i < (int)(sizeof action_names / sizeof action_names[0]); i++)
		if (s && !strcmp(s, action_names[i]))
			return i;
	return -1;
}

void gm_tracef(const gm_conn_opts *o, int level, const char *fmt, ...)
{
	if (!o->trace)
		return;
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	o->trace(o->trace_ud, level, msg);
}

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
	mosquitto_lib_init();
}

struct mosquitto *gm_client_new(const char *id, bool clean, int protocol, const gm_conn_opts *o, void *obj,
                                char *err, size_t cap)
{
	pthread_once(&lib_once, lib_init);
	struct mosquitto *m = mosquitto_new(id, clean, obj);
	if (!m) {
		snprintf(err, cap, "cannot make an MQTT client (out of memory or a bad client id)");
		return NULL;
	}
	int rc = mosquitto_int_option(m, MOSQ_OPT_PROTOCOL_VERSION, protocol);
	if (rc == MOSQ_ERR_SUCCESS && o->username)
		rc = mosquitto_username_pw_set(m, o->username, o->password);
	if (rc == MOSQ_ERR_SUCCESS && o->cafile && *o->cafile)
		rc = mosquitto_tls_set(m, o->cafile, NULL, NULL, NULL, NULL);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_reconnect_delay_set(m, 1, 4, true);
	if (rc != MOSQ_ERR_SUCCESS) {
		snprintf(err, cap, "MQTT client settings: %s", mosquitto_strerror(rc));
		mosquitto_destroy(m);
		return NULL;
	}
	return m;
}

const char *gm_conn_host(const gm_conn_opts *o)
{
	return o->host && *o->host ? o->host : "127.0.0.1";
}

int gm_conn_port(const gm_conn_opts *o)
{
	return o->port > 0 ? o->port : (o->cafile && *o->cafile ? 8883 : 1883);
}

int gm_client_start(struct mosquitto *m, const gm_conn_opts *o, char *err, size_t cap)
{
	const char *host = gm_conn_host(o);
	int port = gm_conn_port(o);
	/* an unreachable broker is no failure: the network thread tries again */
	int rc = mosquitto_connect_async(m, host, port, o->keepalive > 0 ? o->keepalive : 10);
	if (rc != MOSQ_ERR_SUCCESS && rc != MOSQ_ERR_ERRNO && rc != MOSQ_ERR_NO_CONN && rc != MOSQ_ERR_CONN_REFUSED) {
		snprintf(err, cap, "MQTT %s:%d: %s", host, port, mosquitto_strerror(rc));
		return GM_EMQTT;
	}
	if (rc != MOSQ_ERR_SUCCESS)
		gm_tracef(o, 1, "the broker %s:%d cannot be reached yet (%s): trying again in the background", host, port,
		          mosquitto_strerror(rc));
	rc = mosquitto_loop_start(m);
	if (rc != MOSQ_ERR_SUCCESS) {
		snprintf(err, cap, "MQTT: cannot start the network thread: %s", mosquitto_strerror(rc));
		return GM_EMQTT;
	}
	return GM_OK;
}

const char *gm_connack_words(int protocol, int rc)
{
	if (protocol == MQTT_PROTOCOL_V5)
		return mosquitto_reason_string(rc);
	return mosquitto_connack_string(rc);
}

double gm_mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double gm_wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
