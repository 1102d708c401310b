/*
 * goref rules core: the dead-stone proposal for a finished game.
 *
 * Before the players lift the dead stones, the referee proposes which stones
 * are dead so that it can show the count at once; the players confirm or
 * correct it. Built in, no engine: three parts.
 *
 *  1. Benson's algorithm: groups that are alive unconditionally (they cannot
 *     be captured even if their owner passes for ever) are never dead, and
 *     opponent stones standing in one of their small enclosed regions (every
 *     empty point of it a liberty of the living group) are always dead.
 *  2. Ownership by playouts: many games are played from copies of the
 *     position, to_move first, by a policy of this module's own (not
 *     playout.h's, which plays blindly): answer the last move when it left
 *     stones in atari (capture them) or put the mover's stones in atari
 *     (capture a neighbour in atari, or extend to two liberties or more);
 *     otherwise a uniformly random legal move that does not fill the mover's
 *     own one-point eye and is not a self-atari (no capture, one liberty
 *     left) of four stones or more, nor one whose last liberty is the
 *     mover's own eye. Small self-ataris stay allowed: they are how nakade
 *     kill. A game ends after two passes or max_moves moves; simple ko is
 *     respected, longer cycles are cut by max_moves. Where each point ends
 *     (a stone, or an empty point all of whose neighbours are one colour) is
 *     tallied. A group is dead when its stones, on average, end as the
 *     opponent's in more than `threshold` of the playouts: decided per group,
 *     never per stone. A share within GR_DEAD_UNCERTAIN of the threshold
 *     marks the group uncertain.
 *  3. Seki. Filling a shared liberty of a seki is just such a self-atari, so
 *     the playouts keep most seki alive. Two-group seki are also recognised
 *     on the board itself, whatever the playouts say: a black and a white
 *     group with two liberties each, either both shared, or one shared and
 *     the other a one-point eye of each group's own; and, when both are
 *     shared, filling one is a self-atari the opponent answers by a capture
 *     that leaves it alive (it has a one-point eye, or it takes four stones
 *     or more: not a nakade, which kills). Finally, a live group that is not
 *     unconditionally alive, has fewer than two one-point eyes and whose
 *     every liberty is either such an eye or shared with a live opposite
 *     group is labelled seki. Stones in seki are alive; the empty points
 *     between them touch both colours, so the count makes them dame.
 *
 * The proposal is a proposal: it can be wrong where random play misjudges
 * (fights left unsettled at the end, large nakade, seki of three groups or
 * more), which is why the players confirm it; the uncertain stones and
 * gr_dead_finished say where to look. On GNU Go's own finished self-play
 * games it gives GNU Go's count in 47 of 49 (tests/test_dead_gnugo.c), and
 * in all of those gr_dead_finished accepts. 1000 playouts take about 0.03 s
 * on 9x9, 0.09 s on 13x13 and 0.2 s on 19x19 on one x86-64 core.
 *
 * The result depends only on the position, the side to move and the
 * options: the same seed gives the same answer on every machine. No I/O, no
 * allocation: everything lives on the stack (about 40 KB).
 */
#ifndef GOREF_RULES_DEAD_H
#define GOREF_RULES_DEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

#define GR_DEAD_PLAYOUTS_DEFAULT 1000
#define GR_DEAD_PLAYOUTS_MAX 100000
#define GR_DEAD_SEED_DEFAULT 1
#define GR_DEAD_THRESHOLD_DEFAULT 0.5
#define GR_DEAD_UNCERTAIN 0.15 /* see gr_dead_result.uncertain */
#define GR_DEAD_TERRITORY 0.6f /* see gr_dead_finished */

typedef struct gr_dead_options {
	int playouts;     /* random games to play: 1..GR_DEAD_PLAYOUTS_MAX; 0 = default */
	uint64_t seed;    /* seed of the playouts' generator; 0 = GR_DEAD_SEED_DEFAULT */
	double threshold; /* share of playouts, in (0, 1), in which a group must end
	                     as the opponent's to be dead; 0 = default (0.5) */
	int max_moves;    /* moves per playout; 0 = 3 * N * N (and at least 64) */
} gr_dead_options;

/* Fills o with the defaults (the values a NULL options pointer means). */
void gr_dead_options_init(gr_dead_options *o);

/* Why a stone is what the proposal says it is, per point. */
typedef enum gr_dead_reason {
	GR_DEAD_NONE = 0,   /* an empty point */
	GR_DEAD_BENSON,     /* alive: unconditionally alive group (Benson) */
	GR_DEAD_ENCLOSED,   /* dead: inside a small region of an unconditionally alive group */
	GR_DEAD_SEKI,       /* alive: in seki */
	GR_DEAD_PLAYOUTS,   /* dead: owned by the opponent in most playouts */
	GR_DEAD_SURVIVES,   /* alive: its own in most playouts */
} gr_dead_reason;

/* Everything the analysis finds. Arrays are indexed by point (gr_pt). */
typedef struct gr_dead_result {
	bool dead[GR_MAX_POINTS];     /* the proposal: true at every dead stone */
	bool seki[GR_MAX_POINTS];     /* stones in seki and the liberties they share */
	bool uncertain[GR_MAX_POINTS];/* stones whose group was lost in a share of the
	                                 playouts within GR_DEAD_UNCERTAIN of the
	                                 threshold: a coin toss, to be confirmed */
	uint8_t reason[GR_MAX_POINTS];/* gr_dead_reason per stone, GR_DEAD_NONE elsewhere */
	/* Ownership at the end of the playouts, from Black's side: +1 black in
	 * every playout, -1 white in every playout, near 0 for dame or unsettled
	 * points. On the board only; 0 elsewhere. */
	float ownership[GR_MAX_POINTS];
	int playouts;                 /* playouts made */
	int dead_black, dead_white;   /* dead stones per colour */
	int seki_groups;              /* groups found in seki */
} gr_dead_result;

/* Proposes the dead stones of b, with to_move the side that would move next
 * (after the two passes: the side that passed first). dead must hold
 * GR_MAX_POINTS entries and receives true at every dead stone, false
 * elsewhere. opt may be NULL (defaults). Returns 0, GR_EINVAL for a NULL
 * argument or a to_move that is not BLACK or WHITE, or GR_ERANGE for options
 * out of range. */
int gr_dead_estimate(bool *dead, const gr_board *b, gr_color to_move, const gr_dead_options *opt);

/* The same, with the whole analysis in out. */
int gr_dead_analyse(gr_dead_result *out, const gr_board *b, gr_color to_move,
                    const gr_dead_options *opt);

/* Whether the analysed position looks finished. With the proposed dead
 * stones lifted, every empty point must be either territory (its empty
 * region touches one colour only) that the playouts give to that colour
 * clearly: ownership, from the owner's side, of 2 * GR_DEAD_TERRITORY - 1 or
 * more (the owner's in about 60% of the playouts); or dame that touches live
 * stones of both colours itself (seki liberties included). And no stone may
 * be uncertain. An open border (an empty point of a region touching both
 * colours that does not touch both itself), a territory that random play
 * still invades, or a coin-toss group make it unfinished. unsettled
 * (GR_MAX_POINTS entries, may be NULL) receives true at the points at fault.
 * Returns false for NULL r or b. r must come from gr_dead_analyse on b. */
bool gr_dead_finished(const gr_dead_result *r, const gr_board *b, bool *unsettled);

/* The short name of a reason: "", "benson", "enclosed", "seki", "playouts",
 * "survives". */
const char *gr_dead_reason_name(gr_dead_reason r);

#endif
