/*
 * goref rules core: the game record.
 *
 * What an SGF file holds and what goref writes: the board size, komi, the
 * handicap and setup stones, the moves (stones and passes, each with its
 * time and comment), warnings per player, and root properties (players,
 * date, result, rules, a game comment). A record is data: it does not apply
 * the rules (gr_game does), so an illegal game can be read and checked.
 *
 * A gr_record owns its memory: make one with gr_record_new, free it with
 * gr_record_free. Strings handed in are copied; strings handed out stay
 * valid until the record changes or is freed.
 */
#ifndef GOREF_RULES_RECORD_H
#define GOREF_RULES_RECORD_H

#include "board.h"
#include "util.h"

typedef struct gr_move {
	gr_color color;      /* GR_BLACK or GR_WHITE */
	int pt;              /* a point of a gr_board of the record's size, or GR_PASS */
	double time;         /* seconds since the start of the game, or -1 when unknown */
	const char *comment; /* NULL, or owned by the record */
} gr_move;

typedef struct gr_record gr_record;

/* A new empty record for a board of size lines (2..19), komi 7.5 points,
 * Chinese rules. Returns 0, GR_ERANGE or GR_ENOMEM. */
int gr_record_new(gr_record **out, int size);
void gr_record_free(gr_record *r);

int gr_record_size(const gr_record *r);

/* Komi in points, as SGF's KM (7.5 points = 3.75 stones). */
double gr_record_komi(const gr_record *r);
void gr_record_set_komi(gr_record *r, double points);

int gr_record_handicap(const gr_record *r);
void gr_record_set_handicap(gr_record *r, int stones);

/* Setup stones (SGF AB / AW on the root), placed before the first move. */
int gr_record_add_setup(gr_record *r, gr_color c, int pt);
int gr_record_setup_count(const gr_record *r);
/* The i-th setup stone; returns 0 or GR_ERANGE. */
int gr_record_setup(const gr_record *r, int i, gr_color *c, int *pt);

/* Who moves first when the record says (SGF PL); GR_EMPTY when it does not. */
gr_color gr_record_first_player(const gr_record *r);
void gr_record_set_first_player(gr_record *r, gr_color c);

/* The most moves a record holds (issue 17: a 64 MB SGF of passes made 11
 * million, 296 MB and 22 s in `goref check`). No game comes near: a move a
 * second for 11 days; a 64 MB journal holds at most about 170,000
 * positions, so the referee never meets it. */
#define GR_MAX_MOVES 1000000

/* Appends a move (pt a point or GR_PASS; time in seconds or -1; comment may
 * be NULL). Returns 0, GR_EINVAL, GR_ERANGE (GR_MAX_MOVES reached) or
 * GR_ENOMEM. */
int gr_record_add_move(gr_record *r, gr_color c, int pt, double time, const char *comment);
int gr_record_move_count(const gr_record *r);
/* The i-th move (0-based), or NULL when out of range. */
const gr_move *gr_record_move(const gr_record *r, int i);
/* Adds text to the comment of move i (i = -1: the root, before any move),
 * on a new line after what is there. Returns 0, GR_ERANGE or GR_ENOMEM. */
int gr_record_append_comment(gr_record *r, int i, const char *text);
/* The root comment (SGF C on the root), or NULL. */
const char *gr_record_root_comment(const gr_record *r);

/* Warnings per player (article 24). */
int gr_record_warnings(const gr_record *r, gr_color c);
void gr_record_set_warnings(gr_record *r, gr_color c, int n);

/* Root properties by SGF name ("PB", "PW", "DT", "EV", "RE", "RU", "GN", ...),
 * other than the ones above. Get returns NULL when absent; set with a NULL
 * value removes. Returns 0, GR_ENOMEM, or GR_EINVAL for a name that is not 1
 * to 32 capital letters or that has its own field or is the SGF writer's
 * (FF GM CA AP SZ KM HA AB AW AE PL B W C GRTIME GRWARNB GRWARNW). */
const char *gr_record_prop(const gr_record *r, const char *name);
int gr_record_set_prop(gr_record *r, const char *name, const char *value);
/* The root properties present, in the order they were first set (a writer
 * needs them all): their number, and the name of the i-th (NULL when out of
 * range). */
int gr_record_prop_count(const gr_record *r);
const char *gr_record_prop_name(const gr_record *r, int i);

#endif
