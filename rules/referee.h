/*
 * goref rules core: the referee.
 *
 * The camera never sees a move: it sees a sequence of stable board
 * positions, some half-done (a stone placed, its captures not yet lifted),
 * some wrong (a stone nudged, a stone taken back, two stones of one colour).
 * The referee turns that sequence, and what the operator says, into the game
 * record and into rulings, each citing its article and saying what must be
 * done, the moment the rules are broken.
 *
 * Feed it with gr_referee_observe (a stable position, as seen) and
 * gr_referee_command (pass, resign, end, count, accept, restore); it calls
 * back with each event as it happens. Pure C: no I/O, no clock (times are
 * the caller's, in seconds).
 *
 * How it judges:
 * - The record is the truth. The referee keeps the board the record says
 *   (the expected board) and compares each observation with it.
 * - One new stone of the side to move is a move, accepted at once; if it is
 *   illegal (suicide, ko, repetition) it is void, must be lifted, and the turn
 *   passes. Stones it captures must come off: when they do, a capture event;
 *   if they are still there when the opponent's next stone appears, a missed
 *   capture (article 18.2): warning, and they are taken off the record.
 * - Several new stones at once (the camera missed a move) are explained by
 *   legal alternating moves when that can be done; when more than one order
 *   explains them the referee says so (type "ambiguous") and records one.
 * - Rulings about earlier stones (a moved stone, a wrong removal, a disturbed
 *   board) are called only when the change persists over `persist`
 *   consecutive observations (default 2): a one-off misread is no ruling.
 * - After a ruling that asks for the board to be put right, the referee waits
 *   until the board matches the record again (event "restored"), or until the
 *   operator says "accept" (let the last flagged change stand, when it can:
 *   a moved stone's new point) or "restore".
 * - After "end", stones lifted off are dead ("dead" events); "count" counts
 *   with warnings' penalties and gives the result.
 */
#ifndef GOREF_RULES_REFEREE_H
#define GOREF_RULES_REFEREE_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "count.h"
#include "game.h"
#include "record.h"
#include "util.h"

typedef enum gr_event_type {
	GR_EV_MOVE = 0,        /* a new stone of the side to move, accepted */
	GR_EV_CAPTURE,         /* the stones a move captured are off the board */
	GR_EV_ILLEGAL,         /* a void move (rule: suicide, ko, repetition, occupied) */
	GR_EV_DOUBLE_MOVE,     /* one colour twice in a row (17.2): void, warning */
	GR_EV_MISSED_CAPTURE,  /* captured stones left on when the opponent played (18.2) */
	GR_EV_WRONG_REMOVAL,   /* stones with liberties taken off (18.1): put back, warning */
	GR_EV_TAKEBACK,        /* the last stone lifted and played elsewhere (17.3) */
	GR_EV_MOVED_STONE,     /* an earlier stone shifted from point to to (17.5) */
	GR_EV_DISTURBED,       /* many changes at once (17.6): restore from the record */
	GR_EV_RESTORED,        /* the board matches the record again */
	GR_EV_WARNING,         /* a warning (article 24): color, how many so far */
	GR_EV_PASS,
	GR_EV_RESIGN,
	GR_EV_END,             /* both players agreed the game is over */
	GR_EV_DEAD,            /* stones lifted as dead after the end */
	GR_EV_COUNT,           /* the count (see count field) */
	GR_EV_RESULT,          /* the game's result */
	GR_EV_AMBIGUOUS,       /* several orders explain the missed moves: one was recorded */
	GR_EV_ACCEPTED,        /* the operator let a flagged change stand */
	GR_EV_LIFTED,          /* a void stone, or a stone asked off, is off the board */
	GR_EV_UNEXPLAINED,     /* a change the referee cannot explain, not yet a ruling */
	GR_EV_ERROR,           /* a command that does not fit the game (message says why) */
} gr_event_type;

/* The fixed name of an event type: "move", "capture", "illegal", ... */
const char *gr_event_type_name(gr_event_type t);

/* Whether an event is a ruling on a breach of the rules (illegal, double
 * move, missed capture, wrong removal, takeback, moved stone, disturbed). */
bool gr_event_is_ruling(gr_event_type t);

/* The event type of a name gr_event_type_name gives, or -1. */
int gr_event_type_parse(const char *name);

typedef struct gr_event {
	gr_event_type type;
	double t;            /* the time of the observation or command */
	gr_color color;      /* the player concerned, or GR_EMPTY */
	int point;           /* a point, or GR_NONE */
	int to;              /* moved_stone: the point the stone went to, else GR_NONE */
	int move;            /* the move number concerned (1 = first), or 0 */
	const int *points;   /* stones concerned (captured, missed, removed, to restore) */
	int npoints;
	const char *rule;    /* illegal: "suicide", "ko", "repetition", "occupied"; else NULL */
	const char *article; /* e.g. "18.2", or NULL */
	int warnings;        /* warning: the player's warnings so far */
	const gr_count *count; /* count: the count; result: the count if counted, else NULL */
	const char *result;  /* result: e.g. "B+0.75", "W+R", "W+F", "Draw" */
	const char *message; /* plain words a referee can read aloud */
} gr_event;

/* Called for each event; everything the event points to lives only during
 * the call. */
typedef void (*gr_event_cb)(const gr_event *e, void *ud);

typedef struct gr_referee_options {
	double komi;                 /* stones; default GR_KOMI_DEFAULT */
	int persist;                 /* observations a change must last before a ruling; default 2 */
	gr_repetition_rule repetition;
	int disturbed_threshold;     /* differing points that make a board disturbed; default 4 */
	bool setup;                  /* a handicap game: the stones of the first position are setup
	                                stones; when that position is empty, the black stones put down
	                                before White's first stone are (two or more: one is Black's first
	                                move). Until White's stone (or a command) they are only waited on:
	                                the record shows no stone yet. Default false */
} gr_referee_options;

/* The defaults above. */
void gr_referee_options_init(gr_referee_options *o);

typedef struct gr_referee gr_referee;

/* A referee for a game on a size x size board (opt NULL: defaults). cb gets
 * every event (may be NULL). Returns 0, GR_ERANGE or GR_ENOMEM. */
int gr_referee_new(gr_referee **out, int size, const gr_referee_options *opt, gr_event_cb cb, void *ud);
void gr_referee_free(gr_referee *r);

/* Setup stones (handicap) before the first observation: they are part of
 * the record. Returns 0 or GR_EINVAL. (Or let the referee take them from the
 * board: options.setup.) */
int gr_referee_setup(gr_referee *r, gr_color c, int pt);

/* A stable position as seen at time t: cells[y * size + x] is GR_EMPTY,
 * GR_BLACK or GR_WHITE, row 0 the top edge. A cell GR_UNSEEN (a point not
 * seen) makes the whole observation no position: nothing is judged, no move
 * is played, and it neither counts for nor breaks a change's persistence.
 * Returns 0, or GR_EINVAL when t goes backwards or a cell is not a colour. */
int gr_referee_observe(gr_referee *r, double t, const unsigned char *cells);

typedef enum gr_command {
	GR_CMD_PASS = 0, /* the side to move passes */
	GR_CMD_RESIGN,   /* color resigns */
	GR_CMD_END,      /* both players agree the game is over */
	GR_CMD_COUNT,    /* dead stones are off: count now */
	GR_CMD_ACCEPT,   /* let the last flagged change stand */
	GR_CMD_RESTORE,  /* the board was put back as asked */
} gr_command;

/* "pass", "resign", "end", "count", "accept", "restore"; parse gives -1. */
const char *gr_command_name(gr_command c);
int gr_command_parse(const char *s);

/* An operator command at time t (color: who resigns; ignored otherwise).
 * Returns 0, or GR_EINVAL when t goes backwards. A command that does not fit
 * (count before end, pass after the end) is an "error" event, not a failure. */
int gr_referee_command(gr_referee *r, double t, gr_command cmd, gr_color color);

/* The record so far: moves, passes, comments with the rulings, warnings,
 * result. Owned by the referee. */
const gr_record *gr_referee_record(const gr_referee *r);
/* The board as the record says it should be. */
const gr_board *gr_referee_board(const gr_referee *r);
gr_color gr_referee_to_move(const gr_referee *r);
int gr_referee_warnings(const gr_referee *r, gr_color c);
/* True once the game has a result (resignation, second warning, count, repetition). */
bool gr_referee_finished(const gr_referee *r);

/* Writes one event as a JSON object on one line (no newline) into buf, as
 * snprintf does; points in GTP coordinates on the referee's board size.
 * Fields: t, type, and where they apply color, point, to, points, move,
 * rule, article, warnings, result, the count's fields, message. */
size_t gr_event_json(const gr_event *e, int size, char *buf, size_t cap);

#endif
