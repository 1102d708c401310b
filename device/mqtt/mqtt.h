/*
 * goref program: a hall of boards over MQTT (issue 16).
 *
 * Every board (a Pi under one board) publishes to one broker (Mosquitto):
 *
 *   goref/HALL/BOARD/events     each event, QoS 1: the referee's JSON object
 *                               with its event number first: {"n":12,...}
 *   goref/HALL/BOARD/position   the position as the referee knows it, QoS 1,
 *                               retained: {"n":12,"moves":..,...} (n: the last
 *                               event it includes)
 *   goref/HALL/BOARD/status     "online", retained; "offline" as the broker's
 *                               last will (and on a clean stop)
 *
 * and listens to
 *
 *   goref/HALL/BOARD/control/USER   the director's actions, {"action":"end"}
 *                               (end, count, accept): only the USER that the
 *                               board's settings name is listened to, and the
 *                               broker's ACL lets a user write only under its
 *                               own name (pattern write goref/+/+/control/%u),
 *                               so the action comes from that broker user
 *   goref/HALL/BOARD/resend     {"from":N}: a subscriber that saw a gap asks
 *                               for the events from N again
 *
 * Nothing lost, nothing twice: the board keeps every event of the game (the
 * journal gives them all again after a restart, with the same numbers) and
 * publishes them in order through a window of unacknowledged messages; after
 * a lost connection it publishes again from the first one the broker did not
 * acknowledge. A subscriber applies an event only when its number is the
 * next one: a repeat is dropped, a gap is asked for again (resend).
 *
 * Library code: nothing printed, nothing exits; what happens goes to the
 * trace callback. The board's side has no thread of its own: its owner calls
 * gm_board_poll from its loop (each frame), which reads and writes the
 * connection without waiting (a thread woken for every event cost more CPU
 * than the rest of the publishing; only a connection attempt, which may
 * wait for the broker's name lookup, runs on a short-lived thread, and the
 * trace callback is still called from gm_board_poll). The hall's side runs
 * libmosquitto's network thread; its callbacks run there.
 */
#ifndef GOREF_DEVICE_MQTT_H
#define GOREF_DEVICE_MQTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { GM_OK = 0, GM_EINVAL = -1, GM_ENOMEM = -2, GM_EMQTT = -3 };

/* What the trace says: level 0 a fact (connected, resent), 1 a refusal or a
 * failure that the library gets over (a refused message, a lost broker). */
typedef void (*gm_trace_cb)(void *ud, int level, const char *msg);

/* The broker and who we are on it. */
typedef struct gm_conn_opts {
	const char *host;       /* default "127.0.0.1" */
	int port;               /* default 1883, 8883 with cafile */
	const char *username;   /* NULL: anonymous */
	const char *password;
	const char *cafile;     /* TLS when set: the CA that signed the broker's certificate */
	int keepalive;          /* seconds, default 10 */
	gm_trace_cb trace;
	void *trace_ud;
} gm_conn_opts;

void gm_conn_opts_init(gm_conn_opts *o);

/* "HOST", "HOST:PORT", "[V6]:PORT" into host (cap bytes) and *port (left as
 * it is when none is given). 0, or GM_EINVAL. */
int gm_parse_hostport(const char *s, char *host, size_t cap, int *port);

/* A name usable as one topic level: 1 to 64 of [A-Za-z0-9_.-]. */
bool gm_name_ok(const char *s);

/* ---- the board's side ---- */

typedef enum gm_action {
	GM_ACT_END = 0,
	GM_ACT_COUNT,
	GM_ACT_ACCEPT,
} gm_action;

/* "end", "count", "accept"; parse gives -1. */
const char *gm_action_name(gm_action a);
int gm_action_parse(const char *s);

typedef struct gm_board gm_board;

typedef struct gm_board_opts {
	gm_conn_opts conn;
	const char *hall;          /* a topic level */
	const char *board;         /* a topic level */
	const char *control_user;  /* the broker user whose actions are taken (NULL: none) */
	int window;                /* events published and not yet acknowledged, at most (default 64) */
	uint64_t game;             /* the game's id (0: none): each event carries it as "game", right
	                              after "n"; a newer game's id is larger (a start time) */
	double position_interval;  /* seconds: the position is published at most this often (default 5;
	                              the events carry the news, the position serves late subscribers) */
} gm_board_opts;

void gm_board_opts_init(gm_board_opts *o);

/* A board's publisher: connects (and again whenever the broker is lost,
 * after 1 to 8 s) from gm_board_poll; the game goes on meanwhile. 0, GM_EINVAL (a bad name or
 * option, message in err), GM_ENOMEM or GM_EMQTT. */
int gm_board_new(gm_board **out, const gm_board_opts *o, char *err, size_t cap);
/* Says "offline" (when connected), waits up to wait_ms for the events not
 * yet acknowledged, disconnects and frees. A connection attempt still in
 * its name lookup is waited for (up to the resolver's timeout, the DNS
 * down) before the connection is closed. */
void gm_board_free(gm_board *b, int wait_ms);
/* The same without freeing (the stats can still be read); free after. */
void gm_board_stop(gm_board *b, int wait_ms);

/* Reads and writes what the connection has, without waiting: call it from
 * the owner's loop, at least a few times a second (each frame will do). It
 * connects, reconnects, publishes what waits, takes acknowledgements and
 * control messages, and sends the keepalive. A connection attempt runs on a
 * short-lived thread of its own (the broker's name lookup blocks), seen
 * done by a later poll. */
void gm_board_poll(gm_board *b);

/* Event number n (1, 2, ... in the order the referee gave them; a resumed
 * game gives the same numbers again from 1) with the referee's JSON object
 * json[0..len). Kept, and published in order. n must be the next number:
 * a number already given is ignored (returns 0), a gap is GM_EINVAL. */
int gm_board_event(gm_board *b, uint64_t n, const char *json, size_t len);

/* A new game (ids grow: a start time): the events kept are forgotten, the
 * numbers start again from 1, and every event carries the new id, so that a
 * subscriber starts the board's tile again rather than take the new game's
 * events for repeats. */
void gm_board_new_game(gm_board *b, uint64_t game);

/* The position as the referee knows it (a JSON object, which must carry
 * the number of the last event it includes as "n"): published, retained,
 * after the events before it, at most every position_interval (and at every
 * connection and the stop); a newer one replaces one not yet sent. */
int gm_board_position(gm_board *b, const char *json, size_t len);

/* The next control action waiting (read by gm_board_poll): true and *a, or
 * false when none waits. */
bool gm_board_next_control(gm_board *b, gm_action *a);

typedef struct gm_board_stats {
	uint64_t events;     /* given */
	uint64_t published;  /* publish calls of events (repeats included) */
	uint64_t acked;      /* events the broker acknowledged (first time) */
	uint64_t resends;    /* times the window went back (lost connection, resend asked) */
	uint64_t refused;    /* messages the broker refused (not authorised) */
	uint64_t controls;   /* control actions taken */
	uint64_t bad_controls; /* control messages refused as malformed */
	bool connected;
} gm_board_stats;

void gm_board_get_stats(gm_board *b, gm_board_stats *st);

/* ---- the hall's side ---- */

/* What the hall knows of one board. */
typedef struct gm_tile {
	char board[65];
	uint64_t n;           /* the last event applied */
	uint64_t game;        /* the game's id (0: none given) */
	bool online;
	bool has_status;
	int moves;            /* the last move number seen */
	int warnings[2];      /* Black, White */
	char last_ruling[256];/* the words of the last ruling */
	char last_type[24];   /* the type of the last event applied */
	char result[32];      /* "" until there is one */
	char page[256];       /* the board's own page, when its position names one */
	double last_wall;     /* when the last event was applied (CLOCK_REALTIME s) */
} gm_tile;

typedef enum gm_update {
	GM_UP_EVENT = 0,  /* an event was applied: json is the event (with its "n") */
	GM_UP_POSITION,   /* the retained position came: json is it */
	GM_UP_STATUS,     /* online or offline */
} gm_update;

/* Called on the network thread for each change, with the board's tile after
 * it. json lives only during the call (NULL for a status). */
typedef void (*gm_hall_cb)(void *ud, gm_update what, const gm_tile *tile, const char *json, size_t len);

typedef struct gm_hall_opts {
	gm_conn_opts conn;
	const char *hall;
	const char *client_id;   /* default "goref-hall-HALL"; the session is kept by the broker */
	gm_hall_cb on_update;
	void *ud;
} gm_hall_opts;

void gm_hall_opts_init(gm_hall_opts *o);

typedef struct gm_hall gm_hall;

int gm_hall_new(gm_hall **out, const gm_hall_opts *o, char *err, size_t cap);
void gm_hall_free(gm_hall *h);

/* A director's action to a board: published to goref/HALL/BOARD/control/USER
 * (USER: the hall's broker user). 0, GM_EINVAL or GM_EMQTT. */
int gm_hall_control(gm_hall *h, const char *board, gm_action a);

/* The tiles, sorted by board name: up to cap into out; returns how many
 * boards there are. */
int gm_hall_tiles(gm_hall *h, gm_tile *out, int cap);

typedef struct gm_hall_stats {
	uint64_t applied;    /* events applied */
	uint64_t repeats;    /* events dropped as repeats */
	uint64_t gaps;       /* events dropped because one before was missing */
	uint64_t resend_asks;/* resends asked for */
	uint64_t malformed;  /* messages that were not what their topic says */
	bool connected;
} gm_hall_stats;

void gm_hall_get_stats(gm_hall *h, gm_hall_stats *st);

#endif
