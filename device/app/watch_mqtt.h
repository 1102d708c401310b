/* goref watch's part in a hall of boards (issue 16): every event to the
 * broker with its number, the position retained, the director's actions
 * back. Built when libmosquitto is there (GOREF_HAVE_MQTT). */
#ifndef GOREF_DEVICE_WATCH_MQTT_H
#define GOREF_DEVICE_WATCH_MQTT_H

#include <stdbool.h>
#include <stddef.h>

#include "referee.h"
#include "session.h"

typedef struct watch_mqtt watch_mqtt;

typedef struct watch_mqtt_opts {
	const char *mqtt;         /* HOST[:PORT]; NULL or "": no hall */
	const char *hall, *board_id;
	const char *user, *password, *cafile;
	const char *control_user; /* NULL or "": no actions taken */
	const char *page_url;     /* this board's page, for the tile */
	const char *journal;      /* the game's journal: its id is kept beside it, in JOURNAL.game */
} watch_mqtt_opts;

/* Starts publishing (in the background; an unreachable broker is no
 * failure). 0, or EXIT_USAGE / EXIT_INPUT after saying why on stderr. */
int watch_mqtt_start(watch_mqtt **out, const watch_mqtt_opts *o);
/* The next event (numbered here: 1, 2, ... from the journal's first). */
void watch_mqtt_event(watch_mqtt *w, const gr_event *e, const char *json, size_t len);
/* The position after the events so far (call when they changed it). */
void watch_mqtt_position(watch_mqtt *w, const gr_referee *ref, int size);
/* A new game (the journal was set aside): a new id, numbers from 1. */
void watch_mqtt_new_game(watch_mqtt *w);
/* Reads and writes the connection, without waiting: call it each frame. */
void watch_mqtt_poll(watch_mqtt *w);
/* The director's next action (end, count, accept) for the session: true
 * when one waits. */
bool watch_mqtt_control(watch_mqtt *w, gd_action *act);
void watch_mqtt_stop(watch_mqtt *w);

#endif
