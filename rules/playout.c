/* goref rules core: random legal games. See playout.h. */
#include "playout.h"

#include <string.h>


void gr_rng_seed(gr_rng *r, uint64_t seed)
{
	/* one round of splitmix so that nearby seeds give unrelated streams */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z ? z : 0x2545f4914f6cdd1dULL;
}

uint64_t gr_rng_next(gr_rng *r)
{
	uint64_t x = r->s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static bool table_has(const gr_playout *p, uint64_t h)
{
	for (unsigned i = (unsigned)h & (GR_PLAYOUT_TABLE - 1);; i = (i + 1) & (GR_PLAYOUT_TABLE - 1)) {
		if (p->seen[i] == h)
			return true;
		if (!p->seen[i])
			return false;
	}
}

static void table_add(gr_playout *p, uint64_t h)
{
	unsigned i = (unsigned)h & (GR_PLAYOUT_TABLE - 1);
	while (p->seen[i] && p->seen[i] != h)
		i = (i + 1) & (GR_PLAYOUT_TABLE - 1);
	if (!p->seen[i]) {
		if (p->nused < GR_PLAYOUT_TABLE / 2)
			p->used[p->nused++] = (uint16_t)i;
		else
			p->clean = 0; /* a slot not listed: clear all next time */
	}
	p->seen[i] = h;
}

/* Empties the table: only the slots the last playout filled, unless the
 * struct was never cleared by a playout (then all of it; 32 KB cost about
 * as much as 70 moves). */
static void table_clear(gr_playout *p)
{
	if (p->clean != GR_PLAYOUT_CLEAN) {
		memset(p->seen, 0, sizeof p->seen);
		p->clean = GR_PLAYOUT_CLEAN;
	} else {
		for (int k = 0; k < p->nused; k++)
			p->seen[p->used[k]] = 0;
	}
	p->nused = 0;
}

/* gr_board_is_eyelike for an empty point, inlined: at a game's end most
 * points are tried and refused here. */
_Static_assert(GR_BLACK == 1 && GR_WHITE == 2 && GR_OFFBOARD == 3 && GR_EMPTY == 0, "eyelike's bit test");

static inline bool eyelike(const gr_board *b, int pt, gr_color c)
{
	const uint8_t *col = b->color;
	const int s = b->stride;
	/* c is one bit (GR_BLACK 1, GR_WHITE 2) and GR_OFFBOARD both, GR_EMPTY
	 * neither: a neighbour is c or off the board exactly when it has c's
	 * bit, so one AND tests all four without a branch */
	return (col[pt - 1] & col[pt + 1] & col[pt - s] & col[pt + s] & (uint8_t)c) != 0;
}

/* Tries the empty points in a random rotation of list[0..n). */
static int pick_from(gr_playout *p, const gr_board *b, gr_color c, const int16_t *list, int n)
{
	if (n == 0)
		return GR_PASS;
	int start = (int)gr_rng_below(&p->rng, (uint32_t)n);
	for (int k = 0; k < n; k++) {
		int i = start + k;
		if (i >= n)
			i -= n;
		int pt = list[i];
		if (eyelike(b, pt, c))
			continue;
		uint64_t after;
		if (gr_board_check_point(b, c, pt, &after) != GR_LEGAL)
			continue;
		if (table_has(p, gr_position_key(after, gr_other(c))))
			continue;
		return pt;
	}
	return GR_PASS;
}

/* Lists the empty points; idx[pt] is a point's place in the list, -1 for
 * every point not in it. */
static int collect_empty(const gr_board *b, int16_t *list, int16_t *idx)
{
	int n = 0;
	for (int i = 0; i < b->stride * b->stride; i++)
		idx[i] = -1;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] == GR_EMPTY) {
				idx[pt] = (int16_t)n;
				list[n++] = (int16_t)pt;
			}
		}
	return n;
}

int gr_playout_pick(gr_playout *p, const gr_board *b, gr_color c)
{
	int16_t list[GR_MAX_POINTS], idx[GR_MAX_POINTS];
	int n = collect_empty(b, list, idx);
	return pick_from(p, b, c, list, n);
}

int gr_playout_run(gr_playout *p, gr_board *b, gr_color to_move, int *record, int record_cap)
{
	int16_t list[GR_MAX_POINTS], idx[GR_MAX_POINTS];
	int n = collect_empty(b, list, idx);
	int max = p->max_moves > 0 ? p->max_moves : 3 * b->size * b->size;
	if (max > GR_PLAYOUT_TABLE / 2 - 1)
		max = GR_PLAYOUT_TABLE / 2 - 1; /* the table must never fill */
	table_clear(p);
	table_add(p, gr_position_key(b->hash, to_move));
	int moves = 0, passes = 0, stones = 0;
	gr_color c = to_move;
	while (moves < max && passes < 2) {
		int pt = pick_from(p, b, c, list, n);
		if (pt == GR_PASS) {
			gr_board_pass(b);
			passes++;
		} else {
			gr_board_play_legal(b, c, pt);
			passes = 0;
			stones++;
			int i = idx[pt];
			list[i] = list[--n];
			idx[list[i]] = (int16_t)i;
			idx[pt] = -1;
			if (b->last_captures) {
				/* the captured groups' stone lists survive their removal:
				 * walk them from each neighbour that was just emptied */
				const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
				for (int k = 0; k < 4; k++) {
					if (b->color[nb[k]] != GR_EMPTY || idx[nb[k]] >= 0)
						continue;
					int s = nb[k];
					do {
						idx[s] = (int16_t)n;
						list[n++] = (int16_t)s;
						s = b->next[s];
					} while (s != nb[k]);
				}
			}
		}
		if (record && moves < record_cap)
			record[moves] = pt;
		moves++;
		c = gr_other(c);
		if (moves * 2 < GR_PLAYOUT_TABLE)
			table_add(p, gr_position_key(b->hash, c));
	}
	p->moves = moves;
	p->stones_played = stones;
	return moves;
}
