/* goref program: a board's publisher to the hall's broker (issue 16). See
 * mqtt.h for the topics and how nothing is lost. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

#include "mqtt.h"
#include "mqtt_int.h"

enum { GM_TOPIC_CAP = 400, GM_CONTROL_QUEUE = 32, GM_CONTROL_MAX = 512, GM_ATTEMPT_LOG = 4 };

typedef struct flight {
	int mid;
	uint64_t n;  /* 0: the position */
	long poll;   /* published after this poll (gm_board.polls) */
} flight;

struct gm_board {
	gm_board_opts o;
	char host[256], hall[65], board[65], user[128], pass[256], cafile[1024], control_user[128];
	char t_events[GM_TOPIC_CAP], t_position[GM_TOPIC_CAP], t_status[GM_TOPIC_CAP];
	char t_control[GM_TOPIC_CAP], t_resend[GM_TOPIC_CAP];
	struct mosquitto *m;
	pthread_mutex_t mu;      /* recursive: callbacks run inside mosquitto_loop, from gm_board_poll */
	bool sock_up;            /* a connection is open or being opened */
	bool ever_started;       /* the first connection was tried */
	/* The connection attempt, on a thread of its own (see start_attempt):
	 * while att_running, b->m is that thread's and the loop does not touch
	 * it. att_running and att_first are the loop's (set before the thread
	 * starts, cleared after the join); att_rc and att_log are the thread's,
	 * read by the loop only once att_done is seen set (release/acquire)
	 * and the thread joined. */
	pthread_t att;
	bool att_running;        /* started, not joined yet */
	bool att_first;          /* mosquitto_connect_async (else mosquitto_reconnect_async) */
	atomic_bool att_done;    /* att_rc is there */
	int att_rc;
	char att_log[GM_ATTEMPT_LOG][256]; /* libmosquitto's warnings meanwhile, traced after the join */
	int att_nlog;
	double retry_at;         /* when to try again (monotonic s) */
	double backoff;          /* seconds, 1 to 8 */
	double next_poll;        /* when an idle board is polled next */
	long polls;              /* gm_board_poll's calls */
	/* the events: ev[i] is event number i + 1, {"n":N, then the referee's fields */
	char **ev;
	size_t *evlen;
	uint64_t count, cap;
	uint64_t next;           /* the number of the next event to publish */
	uint64_t acked_hi;       /* the highest number acknowledged */
	flight *fl;              /* published, not yet acknowledged, in order */
	int nfl;
	char *pos;               /* the latest position, and whether it is still to publish */
	size_t poslen;
	uint64_t pos_n;
	bool pos_dirty;
	double pos_due;          /* not before this (monotonic s): one at most every position_interval */
	bool connected;
	int last_connack;        /* the last refusal traced (not again while it repeats) */
	bool lost_traced;
	int offline_mid;
	bool offline_acked;
	bool stopped;
	uint64_t game;           /* the game's id, in every event (0: none) */
	gm_action ctl[GM_CONTROL_QUEUE];
	int ctl_head, ctl_len;
	gm_board_stats st;
};

void gm_board_opts_init(gm_board_opts *o)
{
	memset(o, 0, sizeof *o);
	gm_conn_opts_init(&o->conn);
	o->window = 64;
	o->position_interval = 5;
}

static void copy_opt(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

/* Publishes what waits, in order, while the window has room. mu held. */
static void pump(gm_board *b)
{
	while (b->connected && b->nfl < b->o.window && b->next <= b->count) {
		uint64_t n = b->next;
		int mid = 0;
		int rc = mosquitto_publish(b->m, &mid, b->t_events, (int)b->evlen[n - 1], b->ev[n - 1], 1, false);
		if (rc != MOSQ_ERR_SUCCESS) {
			if (rc != MOSQ_ERR_NO_CONN)
				gm_tracef(&b->o.conn, 1, "publishing event %" PRIu64 ": %s", n, mosquitto_strerror(rc));
			return;
		}
		b->fl[b->nfl++] = (flight){mid, n, b->polls};
		b->next++;
		b->st.published++;
	}
	if (b->connected && b->pos_dirty && b->pos && b->pos_n < b->next && b->nfl < b->o.window) {
		double now = gm_mono_s();
		if (now < b->pos_due)
			return;
		b->pos_due = now + b->o.position_interval;
		int mid = 0;
		int rc = mosquitto_publish(b->m, &mid, b->t_position, (int)b->poslen, b->pos, 1, true);
		if (rc == MOSQ_ERR_SUCCESS) {
			b->pos_dirty = false;
			b->fl[b->nfl++] = (flight){mid, 0, b->polls};
		}
	}
}

/* The window goes back to the first event not acknowledged. mu held. */
static void rewind_window(gm_board *b)
{
	uint64_t first = b->next;
	for (int i = 0; i < b->nfl; i++) {
		if (b->fl[i].n && b->fl[i].n < first)
			first = b->fl[i].n;
		if (b->fl[i].n == 0)
			b->pos_dirty = true;
	}
	if (first < b->next) {
		b->next = first;
		b->st.resends++;
	}
	b->nfl = 0;
}

static void on_log(struct mosquitto *m, void *obj, int level, const char *str);

static void on_connect(struct mosquitto *m, void *obj, int rc, int flags, const mosquitto_property *props)
{
	(void)flags;
	(void)props;
	gm_board *b = obj;
	if (rc != 0) {
		pthread_mutex_lock(&b->mu);
		bool again = rc == b->last_connack;
		b->last_connack = rc;
		pthread_mutex_unlock(&b->mu);
		if (!again)
			gm_tracef(&b->o.conn, 1, "the broker refused board %s of hall %s: %s (trying again)", b->board,
			          b->hall, gm_connack_words(MQTT_PROTOCOL_V5, rc));
		return;
	}
	/* While connected, no log callback: with one, libmosquitto formats every
	 * line it logs (a malloc and a vsnprintf for each packet sent and read,
	 * most of the user-space work of an event) for us to drop all but its
	 * warnings and errors; a connection's errors come back as return codes
	 * (traced as the broker lost), and the callback is set again for the
	 * next connection's. */
	mosquitto_log_callback_set(m, NULL);
	mosquitto_publish(m, NULL, b->t_status, 6, "online", 1, true);
	mosquitto_subscribe(m, NULL, b->t_resend, 1);
	if (b->control_user[0])
		mosquitto_subscribe(m, NULL, b->t_control, 1);
	pthread_mutex_lock(&b->mu);
	b->connected = true;
	b->last_connack = 0;
	b->lost_traced = false;
	b->pos_dirty = b->pos != NULL; /* the broker may have lost it */
	b->pos_due = 0;
	uint64_t from = b->next;
	pump(b);
	pthread_mutex_unlock(&b->mu);
	gm_tracef(&b->o.conn, 0, "connected to the broker as board %s of hall %s (publishing from event %" PRIu64 ")",
	          b->board, b->hall, from);
}

static void on_disconnect(struct mosquitto *m, void *obj, int rc, const mosquitto_property *props)
{
	(void)m;
	(void)props;
	gm_board *b = obj;
	mosquitto_log_callback_set(b->m, on_log);
	pthread_mutex_lock(&b->mu);
	bool was = b->connected;
	b->connected = false;
	rewind_window(b);
	bool trace = !b->lost_traced && rc != 0;
	b->lost_traced = true;
	pthread_mutex_unlock(&b->mu);
	if (trace && was)
		gm_tracef(&b->o.conn, 1, "lost the broker (%s): the game goes on, the events wait for it",
		          mosquitto_reason_string(rc));
}

static void on_publish(struct mosquitto *m, void *obj, int mid, int reason, const mosquitto_property *props)
{
	(void)m;
	(void)props;
	gm_board *b = obj;
	uint64_t refused_n = UINT64_MAX;
	pthread_mutex_lock(&b->mu);
	if (mid == b->offline_mid)
		b->offline_acked = true;
	for (int i = 0; i < b->nfl; i++) {
		if (b->fl[i].mid != mid)
			continue;
		uint64_t n = b->fl[i].n;
		memmove(b->fl + i, b->fl + i + 1, (size_t)(b->nfl - i - 1) * sizeof *b->fl);
		b->nfl--;
		if (n > b->acked_hi) {
			b->acked_hi = n;
			b->st.acked++;
		}
		if (reason >= 0x80) {
			b->st.refused++;
			refused_n = n;
		}
		break;
	}
	pump(b);
	pthread_mutex_unlock(&b->mu);
	if (refused_n != UINT64_MAX && refused_n > 0)
		gm_tracef(&b->o.conn, 1, "the broker refused event %" PRIu64 " on %s: %s", refused_n, b->t_events,
		          mosquitto_reason_string(reason));
	else if (refused_n == 0)
		gm_tracef(&b->o.conn, 1, "the broker refused the position on %s: %s", b->t_position,
		          mosquitto_reason_string(reason));
}

static void take_control(gm_board *b, const struct mosquitto_message *msg)
{
	const char *why = NULL;
	int act = -1;
	if (msg->payloadlen <= 0 || msg->payloadlen > GM_CONTROL_MAX) {
		why = "empty or too long";
	} else {
		cJSON *j = cJSON_ParseWithLength(msg->payload, (size_t)msg->payloadlen);
		cJSON *a = j ? cJSON_GetObjectItemCaseSensitive(j, "action") : NULL;
		if (!j || !cJSON_IsObject(j))
			why = "not a JSON object";
		else if (!cJSON_IsString(a))
			why = "no \"action\" string";
		else if ((act = gm_action_parse(a->valuestring)) < 0)
			why = "the action is none of end, count, accept";
		cJSON_Delete(j);
	}
	pthread_mutex_lock(&b->mu);
	if (!why && b->ctl_len == GM_CONTROL_QUEUE)
		why = "too many actions waiting";
	if (why) {
		b->st.bad_controls++;
	} else {
		b->ctl[(b->ctl_head + b->ctl_len) % GM_CONTROL_QUEUE] = (gm_action)act;
		b->ctl_len++;
		b->st.controls++;
	}
	pthread_mutex_unlock(&b->mu);
	if (why)
		gm_tracef(&b->o.conn, 1, "refused a control message on %s: %s", msg->topic, why);
	else
		gm_tracef(&b->o.conn, 0, "control from %s: %s", b->control_user, gm_action_name((gm_action)act));
}

static void take_resend(gm_board *b, const struct mosquitto_message *msg)
{
	long long from = -1;
	if (msg->payloadlen > 0 && msg->payloadlen <= GM_CONTROL_MAX) {
		cJSON *j = cJSON_ParseWithLength(msg->payload, (size_t)msg->payloadlen);
		cJSON *f = j ? cJSON_GetObjectItemCaseSensitive(j, "from") : NULL;
		if (cJSON_IsNumber(f) && f->valuedouble >= 1 && f->valuedouble < 9e15)
			from = (long long)f->valuedouble;
		cJSON_Delete(j);
	}
	if (from < 1) {
		gm_tracef(&b->o.conn, 1, "refused a resend message on %s: not {\"from\":N}", msg->topic);
		return;
	}
	pthread_mutex_lock(&b->mu);
	bool back = (uint64_t)from < b->next && (uint64_t)from <= b->count;
	if (back) {
		b->next = (uint64_t)from;
		b->st.resends++;
		pump(b);
	}
	pthread_mutex_unlock(&b->mu);
	if (back)
		gm_tracef(&b->o.conn, 0, "events from %lld asked for again: publishing them", from);
}

static void on_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg,
                       const mosquitto_property *props)
{
	(void)m;
	(void)props;
	gm_board *b = obj;
	if (!strcmp(msg->topic, b->t_resend))
		take_resend(b, msg);
	else if (b->control_user[0] && !strcmp(msg->topic, b->t_control))
		take_control(b, msg);
}

static void on_log(struct mosquitto *m, void *obj, int level, const char *str)
{
	(void)m;
	gm_board *b = obj;
	if (!(level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING)))
		return;
	/* During an attempt only its thread uses b->m, so this is that thread:
	 * the line is kept for the loop (the trace callback is the owner's, on
	 * the owner's thread). */
	if (b->att_running) {
		if (b->att_nlog < GM_ATTEMPT_LOG)
			snprintf(b->att_log[b->att_nlog++], sizeof b->att_log[0], "%s", str);
		return;
	}
	gm_tracef(&b->o.conn, 1, "mqtt: %s", str);
}

int gm_board_new(gm_board **out, const gm_board_opts *o, char *err, size_t cap)
{
	*out = NULL;
	if (!gm_name_ok(o->hall) || !gm_name_ok(o->board)) {
		snprintf(err, cap, "the hall and the board id must be 1 to 64 of A-Z a-z 0-9 _ . - (not '%s', '%s')",
		         o->hall ? o->hall : "", o->board ? o->board : "");
		return GM_EINVAL;
	}
	if (o->control_user && *o->control_user && !gm_name_ok(o->control_user)) {
		snprintf(err, cap, "the control user must be 1 to 64 of A-Z a-z 0-9 _ . - (not '%s')", o->control_user);
		return GM_EINVAL;
	}
	gm_board *b = calloc(1, sizeof *b);
	if (!b) {
		snprintf(err, cap, "out of memory");
		return GM_ENOMEM;
	}
	b->o = *o;
	if (b->o.window < 1 || b->o.window > 1000)
		b->o.window = 64;
	if (!(b->o.position_interval >= 0 && b->o.position_interval <= 3600))
		b->o.position_interval = 5;
	copy_opt(b->host, sizeof b->host, o->conn.host);
	copy_opt(b->hall, sizeof b->hall, o->hall);
	copy_opt(b->board, sizeof b->board, o->board);
	copy_opt(b->user, sizeof b->user, o->conn.username);
	copy_opt(b->pass, sizeof b->pass, o->conn.password);
	copy_opt(b->cafile, sizeof b->cafile, o->conn.cafile);
	copy_opt(b->control_user, sizeof b->control_user, o->control_user);
	b->o.conn.host = b->host[0] ? b->host : NULL;
	b->o.conn.username = o->conn.username ? b->user : NULL;
	b->o.conn.password = o->conn.password ? b->pass : NULL;
	b->o.conn.cafile = b->cafile[0] ? b->cafile : NULL;
	snprintf(b->t_events, sizeof b->t_events, "goref/%s/%s/events", b->hall, b->board);
	snprintf(b->t_position, sizeof b->t_position, "goref/%s/%s/position", b->hall, b->board);
	snprintf(b->t_status, sizeof b->t_status, "goref/%s/%s/status", b->hall, b->board);
	snprintf(b->t_control, sizeof b->t_control, "goref/%s/%s/control/%s", b->hall, b->board, b->control_user);
	snprintf(b->t_resend, sizeof b->t_resend, "goref/%s/%s/resend", b->hall, b->board);
	b->next = 1;
	b->game = o->game;
	b->offline_mid = -1;
	b->fl = calloc((size_t)b->o.window + 1, sizeof *b->fl);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&b->mu, &ma);
	pthread_mutexattr_destroy(&ma);
	b->backoff = 1;
	if (!b->fl) {
		gm_board_free(b, 0);
		snprintf(err, cap, "out of memory");
		return GM_ENOMEM;
	}
	char id[160];
	snprintf(id, sizeof id, "goref-%s-%s", b->hall, b->board);
	b->m = gm_client_new(id, true, MQTT_PROTOCOL_V5, &b->o.conn, b, err, cap);
	if (!b->m) {
		gm_board_free(b, 0);
		return GM_EMQTT;
	}
	mosquitto_will_set(b->m, b->t_status, 7, "offline", 1, true);
	mosquitto_connect_v5_callback_set(b->m, on_connect);
	mosquitto_disconnect_v5_callback_set(b->m, on_disconnect);
	mosquitto_publish_v5_callback_set(b->m, on_publish);
	mosquitto_message_v5_callback_set(b->m, on_message);
	mosquitto_log_callback_set(b->m, on_log);
	/* no network thread: gm_board_poll, from the owner's loop, does it all
	 * (no thread to wake for each event) */
	gm_board_poll(b);
	*out = b;
	return GM_OK;
}

/* The connection is lost (or refused): the window goes back, and again
 * later. */
static void lost(gm_board *b, int rc, double now)
{
	mosquitto_log_callback_set(b->m, on_log);
	pthread_mutex_lock(&b->mu);
	bool was = b->connected;
	b->connected = false;
	rewind_window(b);
	bool trace = was && !b->lost_traced;
	b->lost_traced = true;
	pthread_mutex_unlock(&b->mu);
	if (trace)
		gm_tracef(&b->o.conn, 1, "lost the broker (%s): the game goes on, the events wait for it",
		          mosquitto_strerror(rc));
	b->sock_up = false;
	b->retry_at = now + b->backoff;
	b->backoff = b->backoff * 2 > 8 ? 8 : b->backoff * 2;
}

/* Waits ms (gm_board_stop's turns, where mosquitto_loop would wait). */
static void nap_ms(int ms)
{
	if (ms > 0)
		nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000}, NULL);
}

/* Opens the connection without waiting for it, except for the name lookup
 * (libmosquitto's getaddrinfo, blocking: up to the resolver's timeout, 5 s
 * or more, while the hall's DNS is down). The host name itself goes to
 * libmosquitto, resolved there: TLS checks the certificate against it. */
static int connect_call(gm_board *b, bool first)
{
	if (!first)
		return mosquitto_reconnect_async(b->m);
	return mosquitto_connect_async(b->m, gm_conn_host(&b->o.conn), gm_conn_port(&b->o.conn),
	                               b->o.conn.keepalive > 0 ? b->o.conn.keepalive : 10);
}

static void *attempt_main(void *arg)
{
	gm_board *b = arg;
	b->att_rc = connect_call(b, b->att_first);
	atomic_store_explicit(&b->att_done, true, memory_order_release);
	return NULL;
}

/* The connection call on a short-lived thread, so that the owner's loop
 * never waits for the name lookup: until it is done (attempt_over), b->m
 * is the thread's (pump publishes only while connected, which it is not
 * meanwhile; the callbacks run only inside mosquitto_loop, not called
 * meanwhile). The thread takes no signal (the owner's handlers stay on its
 * own threads). false when no thread could be started. */
static bool start_attempt(gm_board *b, bool first)
{
	b->att_first = first;
	b->att_nlog = 0;
	atomic_store_explicit(&b->att_done, false, memory_order_relaxed);
	b->att_running = true;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&b->att, NULL, attempt_main, b);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		b->att_running = false;
		return false;
	}
	return true;
}

/* true when no attempt is in flight (any more): a finished one is joined
 * and what libmosquitto logged meanwhile traced. wait: join even a running
 * one (up to the resolver's timeout). */
static bool attempt_over(gm_board *b, bool wait)
{
	if (!b->att_running)
		return true;
	if (!wait && !atomic_load_explicit(&b->att_done, memory_order_acquire))
		return false;
	pthread_join(b->att, NULL);
	b->att_running = false;
	for (int i = 0; i < b->att_nlog; i++)
		gm_tracef(&b->o.conn, 1, "mqtt: %s", b->att_log[i]);
	b->att_nlog = 0;
	return true;
}

/* What a connection call gave: the socket is being opened (true), or again
 * after the backoff (traced the first time). */
static bool opened(gm_board *b, bool first, int rc, double now)
{
	if (first && rc != MOSQ_ERR_SUCCESS)
		gm_tracef(&b->o.conn, 1, "the broker %s:%d cannot be reached yet (%s): trying again", gm_conn_host(&b->o.conn),
		          gm_conn_port(&b->o.conn), mosquitto_strerror(rc));
	b->ever_started = true;
	if (rc != MOSQ_ERR_SUCCESS) {
		b->retry_at = now + b->backoff;
		b->backoff = b->backoff * 2 > 8 ? 8 : b->backoff * 2;
		return false;
	}
	b->sock_up = true;
	return true;
}

/* One turn of the connection: open it when it is due, else read and write
 * what is there. While connected (timeout_ms 0) no readiness test: what
 * waits to be written is written, and the socket is read only when read
 * says, so that a turn costs a system call only for something to do
 * (libmosquitto's mosquitto_loop_read reads packets, three reads for an
 * acknowledgement, until a read finds nothing or it has read as many as
 * it has messages in flight). Else (connecting, stopping) mosquitto_loop,
 * waiting up to timeout_ms.
 *
 * libmosquitto writes a byte to its wake-up pipe (for a network thread's
 * select) at every packet, thread or not; only mosquitto_loop reads it, a
 * byte a call. So while connected nobody reads it: after some 280 packets
 * it is full (its kernel memory bounded by the socket's send buffer) and
 * each write fails at once, which costs less than a write that goes
 * through; a later mosquitto_loop takes a byte a call and returns without
 * waiting until it is empty (gm_board_stop turns a few hundred times
 * more). */
static void turn(gm_board *b, int timeout_ms, bool read)
{
	double now = gm_mono_s();
	if (b->att_running) {
		/* an attempt in flight: b->m is its thread's until it is done */
		if (!attempt_over(b, false)) {
			nap_ms(timeout_ms);
			return;
		}
		if (!opened(b, b->att_first, b->att_rc, now))
			return;
	} else if (!b->sock_up) {
		if (now < b->retry_at) {
			/* not yet: gm_board_stop waits here rather than turn round */
			double left_ms = (b->retry_at - now) * 1000 + 1;
			nap_ms(left_ms < timeout_ms ? (int)left_ms : timeout_ms);
			return;
		}
		bool first = !b->ever_started;
		if (start_attempt(b, first))
			return; /* a later turn sees it done */
		if (!opened(b, first, connect_call(b, first), now)) /* no thread: inline, as before */
			return;
	}
	pthread_mutex_lock(&b->mu);
	bool connected = b->connected;
	pthread_mutex_unlock(&b->mu);
	int rc = MOSQ_ERR_SUCCESS;
	if (connected && timeout_ms == 0) {
		if (mosquitto_want_write(b->m))
			rc = mosquitto_loop_write(b->m, 1);
		if (rc == MOSQ_ERR_SUCCESS && read)
			rc = mosquitto_loop_read(b->m, 1);
		if (rc == MOSQ_ERR_SUCCESS)
			rc = mosquitto_loop_misc(b->m); /* the keepalive */
	} else {
		rc = mosquitto_loop(b->m, timeout_ms, 1);
	}
	if (rc != MOSQ_ERR_SUCCESS)
		lost(b, rc, now);
	else if (connected)
		b->backoff = 1;
}

void gm_board_poll(gm_board *b)
{
	if (!b || b->stopped)
		return;
	double now = gm_mono_s();
	pthread_mutex_lock(&b->mu);
	long poll = ++b->polls;
	/* The acknowledgements are read when every message in flight was
	 * published before the last poll: the owner polls right after giving an
	 * event, when its acknowledgement cannot be there yet; a poll (a frame)
	 * later it is, and they are read with no read in vain. When events come
	 * every frame, at the idle poll (twice a second: one read in vain for
	 * the latest) or with the window half full. */
	int old = 0;
	while (old < b->nfl && b->fl[old].poll < poll - 1)
		old++;
	bool acks = b->nfl > 0 && (old == b->nfl || b->nfl >= b->o.window / 2);
	bool waiting = b->connected && b->next <= b->count; /* the window was full */
	bool pos_due = b->connected && b->pos_dirty && now >= b->pos_due;
	bool connecting = b->sock_up && !b->connected;
	bool attempt = b->att_running; /* turn looks at its flag each poll (an atomic load) */
	if (pos_due)
		pump(b);
	pthread_mutex_unlock(&b->mu);
	/* idle: twice a second (control messages, resends, the keepalive, a
	 * lost connection) */
	bool idle = now >= b->next_poll;
	if (!acks && !waiting && !pos_due && !connecting && !attempt && !idle)
		return;
	if (idle)
		b->next_poll = now + 0.5;
	turn(b, 0, acks || idle || connecting || attempt);
}

void gm_board_stop(gm_board *b, int wait_ms)
{
	if (!b || !b->m || b->stopped)
		return;
	double until = gm_mono_s() + (wait_ms > 0 ? wait_ms : 0) / 1000.0;
	/* the events still to go, then "offline" (a clean stop sends no will) */
	bool offline_sent = false;
	while (wait_ms > 0 && gm_mono_s() < until) {
		pthread_mutex_lock(&b->mu);
		b->pos_due = 0;
		pump(b);
		bool connected = b->connected, done = b->next > b->count && b->nfl == 0 && !b->pos_dirty;
		if (connected && done && !offline_sent) {
			offline_sent = mosquitto_publish(b->m, &b->offline_mid, b->t_status, 7, "offline", 1, true) == 0;
		}
		bool acked = b->offline_acked;
		pthread_mutex_unlock(&b->mu);
		if (acked || (!connected && b->ever_started && !b->sock_up && gm_mono_s() >= until))
			break;
		turn(b, 10, true);
	}
	/* An attempt still in flight is waited for before b->m is touched: up
	 * to the resolver's timeout when its name lookup hangs (the DNS down),
	 * at the very end. */
	if (b->att_running) {
		attempt_over(b, true);
		b->ever_started = true;
		b->sock_up = b->att_rc == MOSQ_ERR_SUCCESS;
	}
	b->stopped = true;
	mosquitto_disconnect(b->m);
	for (int i = 0; i < 5 && b->sock_up && mosquitto_loop(b->m, 5, 1) == MOSQ_ERR_SUCCESS; i++)
		;
}

void gm_board_free(gm_board *b, int wait_ms)
{
	if (!b)
		return;
	if (b->m) {
		gm_board_stop(b, wait_ms); /* joins an attempt in flight */
		attempt_over(b, true);
		mosquitto_destroy(b->m);
	}
	for (uint64_t i = 0; i < b->count; i++)
		free(b->ev[i]);
	free(b->ev);
	free(b->evlen);
	free(b->fl);
	free(b->pos);
	pthread_mutex_destroy(&b->mu);
	free(b);
}

int gm_board_event(gm_board *b, uint64_t n, const char *json, size_t len)
{
	if (!b || !json || len < 2 || json[0] != '{' || len > 1u << 20)
		return GM_EINVAL;
	pthread_mutex_lock(&b->mu);
	if (n <= b->count) {
		pthread_mutex_unlock(&b->mu);
		return GM_OK; /* given already (a resumed game gives them again) */
	}
	if (n != b->count + 1) {
		pthread_mutex_unlock(&b->mu);
		return GM_EINVAL;
	}
	if (b->count == b->cap) {
		uint64_t nc = b->cap ? b->cap * 2 : 256;
		char **ev = realloc(b->ev, nc * sizeof *ev);
		if (ev)
			b->ev = ev;
		size_t *el = ev ? realloc(b->evlen, nc * sizeof *el) : NULL;
		if (el)
			b->evlen = el;
		if (!ev || !el) {
			pthread_mutex_unlock(&b->mu);
			return GM_ENOMEM;
		}
		b->cap = nc;
	}
	/* {"n":N, and the object's fields (or just {"n":N} for an empty one) */
	char head[64];
	bool empty = len == 2;
	int hl = b->game ? snprintf(head, sizeof head, "{\"n\":%" PRIu64 ",\"game\":%" PRIu64 "%s", n, b->game,
	                            empty ? "}" : ",")
	                 : snprintf(head, sizeof head, "{\"n\":%" PRIu64 "%s", n, empty ? "}" : ",");
	size_t total = (size_t)hl + (empty ? 0 : len - 1);
	char *p = malloc(total + 1);
	if (!p) {
		pthread_mutex_unlock(&b->mu);
		return GM_ENOMEM;
	}
	memcpy(p, head, (size_t)hl);
	if (!empty)
		memcpy(p + hl, json + 1, len - 1);
	p[total] = '\0';
	b->ev[b->count] = p;
	b->evlen[b->count] = total;
	b->count++;
	b->st.events++;
	pump(b);
	pthread_mutex_unlock(&b->mu);
	return GM_OK;
}

int gm_board_position(gm_board *b, const char *json, size_t len)
{
	if (!b || !json || len < 2 || len > 1u << 20)
		return GM_EINVAL;
	const char *np = strstr(json, "\"n\":");
	if (!np || (size_t)(np - json) >= len)
		return GM_EINVAL;
	uint64_t n = strtoull(np + 4, NULL, 10);
	char *p = malloc(len + 1);
	if (!p)
		return GM_ENOMEM;
	memcpy(p, json, len);
	p[len] = '\0';
	pthread_mutex_lock(&b->mu);
	free(b->pos);
	b->pos = p;
	b->poslen = len;
	b->pos_n = n;
	b->pos_dirty = true;
	pump(b);
	pthread_mutex_unlock(&b->mu);
	return GM_OK;
}

void gm_board_new_game(gm_board *b, uint64_t game)
{
	pthread_mutex_lock(&b->mu);
	for (uint64_t i = 0; i < b->count; i++)
		free(b->ev[i]);
	b->count = 0;
	b->next = 1;
	b->acked_hi = 0;
	b->nfl = 0; /* late acknowledgements of the last game find nothing */
	free(b->pos);
	b->pos = NULL;
	b->pos_dirty = false;
	b->game = game;
	pthread_mutex_unlock(&b->mu);
}

bool gm_board_next_control(gm_board *b, gm_action *a)
{
	bool got = false;
	pthread_mutex_lock(&b->mu);
	if (b->ctl_len > 0) {
		*a = b->ctl[b->ctl_head];
		b->ctl_head = (b->ctl_head + 1) % GM_CONTROL_QUEUE;
		b->ctl_len--;
		got = true;
	}
	pthread_mutex_unlock(&b->mu);
	return got;
}

void gm_board_get_stats(gm_board *b, gm_board_stats *st)
{
	pthread_mutex_lock(&b->mu);
	*st = b->st;
	st->connected = b->connected;
	pthread_mutex_unlock(&b->mu);
}
