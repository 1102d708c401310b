/*
 * goref rules core: the observation log, the seam between the camera and the
 * referee.
 *
 *   @ SECONDS            then the board diagram (N lines of . X O): what the
 *                        camera saw as stable at that time; '?' is a point
 *                        not seen (a hand, glare), GR_UNSEEN in cells
 *   @ SECONDS COMMAND    what the operator said: pass, resign B, resign W,
 *                        end, count, accept, restore
 *
 * Blank lines and '#' comment lines are ignored. SECONDS is a decimal number
 * of seconds, never going backwards. Every diagram has the log's size (the
 * first diagram's, or the size given). A bad log (a wrong size, a stray
 * character, time going backwards, an unknown command, a diagram cut short)
 * is an error naming the line.
 *
 * The parser is fed one line at a time (no I/O here), so a log can be read
 * from a file, a pipe or a live pipeline alike.
 */
#ifndef GOREF_RULES_OBSLOG_H
#define GOREF_RULES_OBSLOG_H

#include <stddef.h>

#include "board.h"
#include "referee.h"
#include "util.h"

typedef enum gr_obs_kind {
	GR_OBS_POSITION = 0,
	GR_OBS_COMMAND,
} gr_obs_kind;

typedef struct gr_obs_item {
	gr_obs_kind kind;
	double t;
	int line;            /* the line of the '@' */
	int size;            /* POSITION: the board size */
	unsigned char cells[GR_MAX_SIZE * GR_MAX_SIZE]; /* POSITION: [y * size + x], gr_color or GR_UNSEEN */
	gr_command command;  /* COMMAND */
	gr_color color;      /* COMMAND resign: who resigns */
} gr_obs_item;

typedef struct gr_obslog gr_obslog;

/* A parser for a log of boards of size lines (0: the first diagram's width
 * decides). Returns 0, GR_ERANGE or GR_ENOMEM. */
int gr_obslog_new(gr_obslog **out, int size);
void gr_obslog_free(gr_obslog *p);

/* Feeds one line (no newline; a trailing '\r' is ignored). Returns 1 when
 * *item holds a complete observation or command, 0 when the line was taken
 * and more are needed (or it was blank or a comment), or GR_EPARSE with err
 * naming the line and column. After an error the parser stays usable: the
 * next '@' line starts afresh. */
int gr_obslog_feed(gr_obslog *p, const char *line, size_t len, gr_obs_item *item, gr_error *err);

/* At the end of the input: GR_EPARSE if a diagram was cut short, else 0. */
int gr_obslog_finish(gr_obslog *p, gr_error *err);

/* The size in use (0 before the first diagram when none was given). */
int gr_obslog_size(const gr_obslog *p);

/* Writes "@ T\n" and the diagram, or "@ T COMMAND\n", into buf as snprintf
 * does. T is written with up to three decimals. */
size_t gr_obslog_write_position(double t, int size, const unsigned char *cells, char *buf, size_t cap);
size_t gr_obslog_write_command(double t, gr_command cmd, gr_color color, char *buf, size_t cap);

#endif
