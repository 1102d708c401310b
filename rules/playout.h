/*
 * goref rules core: random legal games, for the benchmark, the oracle tests
 * and the dead-stone proposal.
 *
 * A playout plays uniformly random legal moves (simple ko and situational
 * whole-board repetition respected) for both sides, never filling a point
 * whose every neighbour is a stone of the mover's own colour, until both
 * sides pass in a row or max_moves moves have been made.
 *
 * The playouts play on a fast board of their own (gr_playout_start and the
 * functions after it): the gr_board itself, played on by a routine that
 * also keeps a list of its empty points with their eye bits, so that the
 * move generator skips one's own eyes eight points at a time. The games are
 * the ones gr_board_check_point and gr_board_play_legal would give.
 */
#ifndef GOREF_RULES_PLAYOUT_H
#define GOREF_RULES_PLAYOUT_H

#include <stdint.h>

#include "board.h"

/* xorshift64* state; any non-zero seed. */
typedef struct gr_rng {
	uint64_t s;
} gr_rng;

void gr_rng_seed(gr_rng *r, uint64_t seed);
uint64_t gr_rng_next(gr_rng *r);
/* Uniform in 0..n-1 (n > 0). */
static inline uint32_t gr_rng_below(gr_rng *r, uint32_t n)
{
	return (uint32_t)(((gr_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

#define GR_PLAYOUT_TABLE 4096

/* The slot of the fast board's eye bytes where points not in its list write
 * (beyond any list and its padding). */
#define GR_PLAYOUT_NOWHERE (GR_MAX_POINTS + 8)

typedef struct gr_playout {
	gr_rng rng;
	int max_moves;       /* default 3 * N * N when 0; at most GR_PLAYOUT_TABLE / 2 - 1 */
	int moves;           /* out: moves made (stones and passes) */
	int stones_played;   /* out: stones placed */
	/* scratch: positions seen in this playout, and the slots they fill (so
	 * that the next playout clears only those) */
	uint64_t seen[GR_PLAYOUT_TABLE];
	uint16_t used[GR_PLAYOUT_TABLE / 2];
	int nused;
	uint32_t clean;      /* GR_PLAYOUT_CLEAN once a playout has cleared seen[] whole */
	/* scratch: the fast board's view of the gr_board being played on (see
	 * gr_playout_start): its empty points in a list, each point's place in
	 * it (GR_PLAYOUT_NOWHERE when not listed), and per place the point's
	 * eye bits (bit c set: every neighbour is c or off the board); the
	 * places from n on hold 3 */
	int n;
	int16_t list[GR_MAX_POINTS];
	int16_t idx[GR_MAX_POINTS];
	uint8_t eyes[GR_MAX_POINTS + 16];
	/* the Zobrist keys gr_zobrist gives, looked up: [c - 1][pt] */
	uint64_t zobrist[2][GR_MAX_POINTS];
	uint32_t zobrist_ready; /* GR_PLAYOUT_CLEAN once zobrist[] is filled */
} gr_playout;

#define GR_PLAYOUT_CLEAN 0x60ef0001u

/* Plays a random game from b with to_move to play. If record is not NULL it
 * receives each move's point (GR_PASS for a pass) up to record_cap entries.
 * Returns the number of moves made. */
int gr_playout_run(gr_playout *p, gr_board *b, gr_color to_move, int *record, int record_cap);

/* Chooses one random legal move for c on b that does not fill a one-point
 * eye of c's own, avoiding the positions in p's table; GR_PASS if none. */
int gr_playout_pick(gr_playout *p, const gr_board *b, gr_color c);

/* The playouts' fast board, exposed for its tests (tests/test_playout.c
 * replays random games on it and on gr_board_play and compares them move by
 * move). It is a gr_board played on by gr_playout_play, which keeps p's list
 * of empty points and their eye bits up to date as it places and captures.
 *
 * gr_playout_start: builds p's view of b (before a playout). */
void gr_playout_start(gr_playout *p, const gr_board *b);
/* gr_board_check's answer (and hash_after) for pt on b, computed another way. */
gr_legality gr_playout_check(const gr_playout *p, const gr_board *b, gr_color c, int pt, uint64_t *hash_after);
/* gr_board_play_legal for a move gr_playout_check found legal, keeping p's
 * view of b; the same board, groups and stone lists as gr_board_play_legal. */
void gr_playout_play(gr_playout *p, gr_board *b, gr_color c, int pt);
/* True when p's list, places and eye bits describe b exactly. */
bool gr_playout_consistent(const gr_playout *p, const gr_board *b);

#endif
