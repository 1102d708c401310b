/*
 * goref rules core: replaying a game record under the rules.
 *
 * The record's setup stones and first player are applied, then each move in
 * turn. A move that breaks the rules is reported and treated as the rules
 * say: void, and the turn is forfeited (articles 17.2, 19, 20). The replay
 * never stops early: a record that goes on after two passes resumes the game
 * (article 21.1).
 */
#ifndef GOREF_RULES_REPLAY_H
#define GOREF_RULES_REPLAY_H

#include "game.h"
#include "record.h"

/* Why a recorded move was void. */
typedef enum gr_violation_kind {
	GR_V_OCCUPIED = 0, /* a stone on a point that holds one (article 2) */
	GR_V_SUICIDE,      /* article 5, ruled under 19 */
	GR_V_KO,           /* immediate ko retake, article 20.1 */
	GR_V_REPETITION,   /* whole-board repetition, articles 6 and 20.3 */
	GR_V_DOUBLE_MOVE,  /* the same colour twice in a row without a pass, 17.2 */
} gr_violation_kind;

typedef struct gr_violation {
	int move;        /* 1 = the first move of the record */
	gr_color color;
	int pt;
	gr_violation_kind kind;
} gr_violation;

/* "occupied", "suicide", "ko", "repetition", "double_move". */
const char *gr_violation_name(gr_violation_kind k);
/* The article(s) that rule it, e.g. "20.1". */
const char *gr_violation_article(gr_violation_kind k);

typedef void (*gr_violation_cb)(const gr_violation *v, const gr_game *g, void *ud);

/* Replays r into g (reset first; g must have the record's size and carries
 * its own repetition rule). cb, if not NULL, is called for each void move
 * with the game as it stands before the move. Returns the number of void
 * moves, or GR_EINVAL when the sizes differ. Under a repetition rule other
 * than forbid the game may end at a repetition: the rest of the record is
 * then not played (check gr_game_state_of). */
int gr_replay(gr_game *g, const gr_record *r, gr_violation_cb cb, void *ud);

#endif
