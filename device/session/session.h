/*
 * goref program: the game session that the operator's controllers drive.
 *
 * One game, several controllers (the keys of `goref watch`, the web page of
 * device/http/) and several viewers (the page, an MQTT bridge). None of them
 * touches the referee: the frame loop owns it, in one thread. The session is
 * the meeting point between that thread and the others:
 *
 *   controllers --gd_session_request--> a bounded queue --gd_session_take-->
 *       the loop (applies each request to the game, in its own thread)
 *   the loop --gd_session_event (pending), gd_session_publish (state, SGF,
 *       and the pending events made visible together)--> viewers, who copy
 *       them out with gd_session_read / gd_session_state / gd_session_sgf
 *
 * Events are the JSON objects of `--events` (gr_event_json), numbered from 1
 * in the order they happened (the number is the SSE `id:`). They sit in a
 * ring of bounded size: a reader that falls more than the ring behind is
 * told to resync (GD_SESSION_RESYNC: read the state again, go on from its
 * event number); the loop never waits for a reader. Every function is
 * thread-safe; the loop's side (take, event, publish, frame) belongs to one
 * thread and never blocks on a viewer for longer than a copy under a mutex
 * (the frame copy not even that: it is skipped when a viewer holds the lock).
 *
 * Pure C (rules/ and POSIX threads); nothing here prints.
 */
#ifndef GOREF_DEVICE_SESSION_H
#define GOREF_DEVICE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "referee.h"

/* What a controller asks of the game. */
typedef enum gd_action {
	GD_ACT_PASS = 0,
	GD_ACT_END,
	GD_ACT_COUNT,
	GD_ACT_ACCEPT,
	GD_ACT_RESTORE,
	GD_ACT_RESIGN_BLACK,
	GD_ACT_RESIGN_WHITE,
	GD_ACT_NEW_GAME, /* the game so far is set aside; a new one starts */
	GD_ACT_CORNERS,  /* the grid's corners given by hand (corners of the request) */
	GD_ACT_COUNT_OF  /* the number of actions, not an action */
} gd_action;

/* "pass", "end", "count", "accept", "restore", "resign-black",
 * "resign-white", "new-game", "corners"; parse gives -1 for another name. */
const char *gd_action_name(gd_action a);
int gd_action_parse(const char *name);
/* The referee's command for an action (resign's colour in *color), or -1
 * for new-game and corners, which are the session's, not the referee's. */
int gd_action_command(gd_action a, gr_color *color);

typedef struct gd_request {
	gd_action action;
	double corners[8]; /* GD_ACT_CORNERS: x y clockwise from the top-left, in pixels */
	char who[32];      /* which controller asked ("keys", "web 192.0.2.7"): for the log */
} gd_request;

/* Returned by the functions below, with 0 and positive lengths. */
#define GD_SESSION_ENOMEM (-1)
#define GD_SESSION_EFULL (-2)   /* the request queue is full: try again */
#define GD_SESSION_EINVAL (-3)
#define GD_SESSION_RESYNC (-4)  /* the reader fell behind the ring (or is ahead of it) */
#define GD_SESSION_ETOOBIG (-5) /* an event longer than the cap given */

typedef struct gd_session_opts {
	int ring;          /* events kept for readers (default 4096) */
	size_t event_max;  /* bytes of one event, longer ones are cut to a resync (default 16384) */
	int queue;         /* requests waiting (default 16) */
} gd_session_opts;

void gd_session_opts_init(gd_session_opts *o);

typedef struct gd_session gd_session;

/* o NULL: defaults. Returns 0, GD_SESSION_EINVAL or GD_SESSION_ENOMEM. */
int gd_session_new(gd_session **out, const gd_session_opts *o);
void gd_session_free(gd_session *s);

/* --- controllers, any thread --- */

/* Queues a request (r->who may be empty). Returns 0 or GD_SESSION_EFULL. */
int gd_session_request(gd_session *s, const gd_request *r);
/* The same for an action with no corners. */
int gd_session_act(gd_session *s, gd_action a, const char *who);

/* --- the loop, one thread --- */

/* Takes the oldest request into *r: 1, or 0 when none waits. */
int gd_session_take(gd_session *s, gd_request *r);
/* An event (n bytes of JSON, no newline) numbered and kept pending, not yet
 * visible to readers. Returns its number, or GD_SESSION_ENOMEM. */
long gd_session_event(gd_session *s, const char *json, size_t n);
/* Makes the pending events visible, with the state (a JSON object, copied;
 * NULL keeps the last) and the SGF (copied; NULL keeps the last), and wakes
 * the readers waiting in gd_session_wait. Returns 0 or GD_SESSION_ENOMEM
 * (then the state and SGF are the old ones, the events visible all the same). */
int gd_session_publish(gd_session *s, const char *state, const char *sgf);
/* Forgets what the state keeps of the game (its count and result): a new
 * game begins. The events and their numbers go on. */
void gd_session_forget_game(gd_session *s);
/* Builds the state object of a game: the board as the record says it is
 * (rows from the top, "." "X" "O"), the side to move, the moves with their
 * times, warnings, whether it is finished and its result, the event number,
 * and the grid's corners and the frame's size (corners NULL: none known).
 * ref NULL: no board seen yet. Returns a malloc'd string, or NULL (no memory). */
char *gd_session_state_json(gd_session *s, const gr_referee *ref, const double *corners, int width, int height);
/* Offers the latest camera frame (RGB, 3 bytes a pixel): copied when a
 * viewer asked for one in the last 10 s (gd_session_frame_copy) and the
 * last copy is 1 s old or more (CLOCK_MONOTONIC); skipped, never waited
 * for, when a viewer is copying it out. Returns true when copied. */
bool gd_session_frame(gd_session *s, const unsigned char *rgb, int width, int height, size_t stride);

/* --- viewers, any thread --- */

/* The number of the last visible event (0: none yet). */
long gd_session_last(gd_session *s);
/* Copies the first visible event after number `after` into buf (NUL
 * terminated) and its number into *id. Returns its length, 0 when there is
 * none yet, GD_SESSION_RESYNC when events after `after` are no longer in the
 * ring (or `after` is past the last event: a reader of an older process),
 * GD_SESSION_ETOOBIG when cap is too small. */
int gd_session_read(gd_session *s, long after, char *buf, size_t cap, long *id);
/* Waits until an event after `after` is visible or timeout_ms passed;
 * true when one is. */
bool gd_session_wait(gd_session *s, long after, int timeout_ms);
/* malloc'd copies of the last state and SGF (NULL when none yet or no
 * memory), length in *len when len is not NULL. */
char *gd_session_state(gd_session *s, size_t *len);
char *gd_session_sgf(gd_session *s, size_t *len);
/* Marks that a viewer wants frames, then copies the last frame offered
 * into *rgb (malloc'd, width*3 bytes a row; the caller frees it). Returns
 * true, or false when there is none yet (or no memory). *serial counts the
 * frames copied in by gd_session_frame (a viewer can keep what it made of
 * the same one). With rgb NULL only *serial and the size are given. */
bool gd_session_frame_copy(gd_session *s, unsigned char **rgb, int *width, int *height, long *serial);

#endif
