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

_Static_assert(GR_BLACK == 1 && GR_WHITE == 2 && GR_OFFBOARD == 3 && GR_EMPTY == 0, "the eye bits");

/* The lowest set bit of a non-zero 4-bit mask. */
static inline int ctz4(unsigned m)
{
#if defined(__GNUC__)
	return __builtin_ctz(m);
#else
	return (m & 1) ? 0 : (m & 2) ? 1 : (m & 4) ? 2 : 3;
#endif
}

_Static_assert(GR_PLAYOUT_NOWHERE + 1 <= GR_MAX_POINTS + 16 && GR_PLAYOUT_NOWHERE >= GR_MAX_POINTS + 8,
               "the eye bytes' spare slot lies beyond any list and the 8 bytes read past it");

/* A point's eye bits: c is one bit (GR_BLACK 1, GR_WHITE 2) and GR_OFFBOARD
 * both, GR_EMPTY neither, so bit c of the AND of the four neighbours is set
 * exactly when every one is c or off the board (gr_board_is_eyelike). */
static inline uint8_t eye_bits(const uint8_t *col, int pt, int s)
{
	return (uint8_t)(col[pt - 1] & col[pt + 1] & col[pt - s] & col[pt + s] & 3);
}

static void zobrist_fill(gr_playout *p)
{
	if (p->zobrist_ready == GR_PLAYOUT_CLEAN)
		return;
	for (int pt = 0; pt < GR_MAX_POINTS; pt++) {
		p->zobrist[0][pt] = gr_zobrist(GR_BLACK, pt);
		p->zobrist[1][pt] = gr_zobrist(GR_WHITE, pt);
	}
	p->zobrist_ready = GR_PLAYOUT_CLEAN;
}

void gr_playout_start(gr_playout *p, const gr_board *b)
{
	zobrist_fill(p);
	for (int i = 0; i < GR_MAX_POINTS; i++)
		p->idx[i] = GR_PLAYOUT_NOWHERE;
	memset(p->eyes, 3, sizeof p->eyes);
	int n = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] == GR_EMPTY) {
				p->idx[pt] = (int16_t)n;
				p->eyes[n] = eye_bits(b->color, pt, b->stride);
				p->list[n++] = (int16_t)pt;
			}
		}
	p->n = n;
}

/* Four neighbours at once, one in each 16-bit lane of a uint64_t (all the
 * values put in lanes are below 0x8000, so no lane carries into the next). */
#define LANE_ONES 0x0001000100010001ULL
#define LANE_LOW 0x7fff7fff7fff7fffULL
#define LANE_HIGH 0x8000800080008000ULL

static inline uint64_t lanes(unsigned a, unsigned b, unsigned c, unsigned d)
{
	return (uint64_t)a | (uint64_t)b << 16 | (uint64_t)c << 32 | (uint64_t)d << 48;
}

/* Bit 15 of each lane set where the lane is zero. */
static inline uint64_t lane_zero(uint64_t v)
{
	return ~(v + LANE_LOW) & LANE_HIGH;
}

/* The lanes turned by k: lane i gets lane (i + k) mod 4. */
static inline uint64_t lane_turn(uint64_t v, int k)
{
	return v >> (16 * k) | v << (64 - 16 * k);
}

typedef enum quick_answer { QUICK_SUICIDE, QUICK_LEGAL, QUICK_TAKES } quick_answer;

/* The legality test for an empty point pt, without a branch: suicide, legal
 * taking nothing, or something taken (then check_taking tells the rest).
 * The group entry of every point is a valid index (empty and off-board
 * points keep a stale or zero one), so it is read whatever the colour and
 * keyed with the colour. A group's pseudo-liberties count its stone/empty
 * adjacencies: pt is its last liberty exactly when they equal the number of
 * its stones next to pt, the neighbours with its key. own and opp are
 * LANE_ONES times the mover's colour and the opponent's. */
static inline quick_answer quick_check(const gr_board *b, uint64_t own, uint64_t opp, int pt)
{
	const uint8_t *col = b->color;
	const int16_t *group = b->group;
	const int s = b->stride;
	const int g0 = group[pt - 1], g1 = group[pt + 1], g2 = group[pt - s], g3 = group[pt + s];
	const uint64_t c = lanes(col[pt - 1], col[pt + 1], col[pt - s], col[pt + s]);
	const uint64_t key = lanes((unsigned)g0, (unsigned)g1, (unsigned)g2, (unsigned)g3) << 2 | c;
	const uint64_t libs = lanes((uint16_t)b->libs[g0], (uint16_t)b->libs[g1], (uint16_t)b->libs[g2],
	                            (uint16_t)b->libs[g3]) & LANE_LOW;
	/* per lane: 1 + the other neighbours with the same key */
	const uint64_t cnt = LANE_ONES + (lane_zero(key ^ lane_turn(key, 1)) >> 15) +
	                     (lane_zero(key ^ lane_turn(key, 2)) >> 15) + (lane_zero(key ^ lane_turn(key, 3)) >> 15);
	const uint64_t last = lane_zero(libs ^ cnt);
	const uint64_t takes = lane_zero(c ^ opp) & last;
	const uint64_t lives = lane_zero(c ^ own) & ~last;
	const uint64_t empty = lane_zero(c);
	return takes ? QUICK_TAKES : (empty | lives) ? QUICK_LEGAL : QUICK_SUICIDE;
}

/* The rest of the legality test where quick_check found something taken:
 * each group taken once (a group next to pt twice has the same key at both
 * and is counted at the first), without a branch a neighbour. A ko only when
 * one stone is taken. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static gr_legality check_taking(const uint64_t *zc, const gr_board *b, gr_color c, int pt, uint64_t *hash_after)
{
	const int s = b->stride;
	const uint8_t *col = b->color;
	const int nb[4] = {pt - 1, pt + 1, pt - s, pt + s};
	const int o = 3 - (int)c;
	int g[4], key[4], takes[4];
	for (int i = 0; i < 4; i++) {
		g[i] = b->group[nb[i]];
		key[i] = g[i] * 4 + col[nb[i]];
	}
	for (int i = 0; i < 4; i++) {
		const int cnt = (key[0] == key[i]) + (key[1] == key[i]) + (key[2] == key[i]) + (key[3] == key[i]);
		takes[i] = (col[nb[i]] == o) & (b->libs[g[i]] == cnt);
	}
	int captures = 0;
	uint64_t h = b->hash ^ zc[pt];
	for (int i = 0; i < 4; i++) {
		int again = 0;
		for (int j = 0; j < i; j++)
			again |= takes[j] & (key[j] == key[i]);
		const int t = takes[i] & !again;
		captures += t * b->gsize[g[i]];
		h ^= b->ghash[g[i]] & (0 - (uint64_t)t);
	}
	*hash_after = h;
	return ((captures == 1) & (pt == b->ko) & ((int)c == b->ko_color)) ? GR_KO : GR_LEGAL;
}

gr_legality gr_playout_check(const gr_playout *p, const gr_board *b, gr_color c, int pt, uint64_t *hash_after)
{
	if (pt <= 0 || pt >= GR_MAX_POINTS || b->color[pt] != GR_EMPTY)
		return GR_OCCUPIED;
	uint64_t h = 0;
	gr_legality l = GR_LEGAL;
	switch (quick_check(b, LANE_ONES * (unsigned)c, LANE_ONES * (unsigned)(3 - c), pt)) {
	case QUICK_SUICIDE:
		return GR_SUICIDE;
	case QUICK_LEGAL:
		h = b->hash ^ p->zobrist[c - 1][pt];
		break;
	case QUICK_TAKES:
		l = check_taking(p->zobrist[c - 1], b, c, pt, &h);
		break;
	}
	if (l == GR_LEGAL && hash_after)
		*hash_after = h;
	return l;
}

/* gr_board.c's merge_groups, the same way (the stone lists' order decides
 * where captured points come back into the list, so the games). */
static inline void merge(gr_board *b, int a, int g)
{
	if (a == g)
		return;
	if (b->gsize[a] < b->gsize[g]) {
		int t = a;
		a = g;
		g = t;
	}
	int s = g;
	do {
		b->group[s] = (int16_t)a;
		s = b->next[s];
	} while (s != g);
	int16_t t = b->next[a];
	b->next[a] = b->next[g];
	b->next[g] = t;
	b->libs[a] += b->libs[g];
	b->gsize[a] += b->gsize[g];
	b->ghash[a] ^= b->ghash[g];
}

/* Removes the group holding from, walking its stones from
 * there, and lists its points as empty in that order (the order in which the
 * playouts always listed them). Returns the stones taken. */
static inline int take(gr_playout *p, gr_board *b, int from)
{
	const int s = b->stride, g = b->group[from];
	uint8_t *col = b->color;
	int q = from, n = p->n;
	do {
		col[q] = GR_EMPTY;
		p->idx[q] = (int16_t)n;
		p->eyes[n] = 0; /* set by the caller once all is taken */
		p->list[n++] = (int16_t)q;
		const int nb[4] = {q - 1, q + 1, q - s, q + s};
		for (int i = 0; i < 4; i++) {
			/* without a branch: a stone of another group gains a
			 * liberty; anything else adds 0 at a valid index */
			const int c = col[nb[i]], h = b->group[nb[i]];
			b->libs[h] = (int16_t)(b->libs[h] + (((c == GR_BLACK) | (c == GR_WHITE)) & (h != g)));
		}
		q = b->next[q];
	} while (q != from);
	p->n = n;
	b->hash ^= b->ghash[g];
	return b->gsize[g];
}

/* gr_board_play_legal, keeping p's view of b. The neighbours' colours and
 * groups are read once, before anything is written (a store through a
 * uint8_t pointer could be any of them). */
static inline void play(gr_playout *p, gr_board *b, gr_color c, int pt)
{
	const int s = b->stride;
	const int n0 = pt - 1, n1 = pt + 1, n2 = pt - s, n3 = pt + s;
	const uint64_t key = p->zobrist[c - 1][pt];
	const int opp = 3 - (int)c;
	uint8_t *col = b->color;
	int16_t *group = b->group, *next = b->next, *libs = b->libs;
	const int c0 = col[n0], c1 = col[n1], c2 = col[n2], c3 = col[n3];
	const int g0 = group[n0], g1 = group[n1], g2 = group[n2], g3 = group[n3];
	/* out of the list: the last entry takes pt's place */
	{
		const int i = p->idx[pt], n = --p->n, last = p->list[n];
		p->list[i] = (int16_t)last;
		p->eyes[i] = p->eyes[n];
		p->eyes[n] = 3;
		p->idx[last] = (int16_t)i;
		p->idx[pt] = GR_PLAYOUT_NOWHERE;
	}
	col[pt] = (uint8_t)c;
	group[pt] = (int16_t)pt;
	next[pt] = (int16_t)pt;
	b->gsize[pt] = 1;
	b->ghash[pt] = key;
	b->hash ^= key;
	b->stones[c]++;
	/* without a branch: an empty or off-board neighbour's group entry is a
	 * valid index that loses nothing */
	libs[g0] = (int16_t)(libs[g0] - ((unsigned)(c0 - 1) < 2u));
	libs[g1] = (int16_t)(libs[g1] - ((unsigned)(c1 - 1) < 2u));
	libs[g2] = (int16_t)(libs[g2] - ((unsigned)(c2 - 1) < 2u));
	libs[g3] = (int16_t)(libs[g3] - ((unsigned)(c3 - 1) < 2u));
	libs[pt] = (int16_t)((c0 == GR_EMPTY) + (c1 == GR_EMPTY) + (c2 == GR_EMPTY) + (c3 == GR_EMPTY));
	const unsigned friends = (unsigned)(c0 == (int)c) | (unsigned)(c1 == (int)c) << 1 |
	                         (unsigned)(c2 == (int)c) << 2 | (unsigned)(c3 == (int)c) << 3;
	unsigned takes = (unsigned)((c0 == opp) & (libs[g0] == 0)) | (unsigned)((c1 == opp) & (libs[g1] == 0)) << 1 |
	                 (unsigned)((c2 == opp) & (libs[g2] == 0)) << 2 | (unsigned)((c3 == opp) & (libs[g3] == 0)) << 3;
	/* join the friendly groups in the order of the neighbours, as
	 * gr_board_play_legal does (merge). The first always joins pt, a lone
	 * stone, to a group: the smaller is relabelled, pt when both are
	 * single, one stone either way. Without a branch: with no friendly
	 * neighbour, "the group" is pt itself and adds nothing. */
	{
		const int gsel[5] = {g0, g1, g2, g3, pt};
		const unsigned has = friends != 0;
		const int g = gsel[ctz4(friends | 16u)];
		const int big = b->gsize[g] > 1;
		const int a = pt ^ ((g ^ pt) & -big), other = g ^ pt ^ a;
		group[other] = (int16_t)a;
		const int16_t t = next[a];
		next[a] = next[other];
		next[other] = t;
		const int16_t la = (int16_t)(libs[pt] + (libs[g] & -(int)has));
		const int16_t sa = (int16_t)((b->gsize[g] & -(int)has) + 1);
		const uint64_t ha = (b->ghash[g] & (0 - (uint64_t)has)) ^ key;
		libs[a] = la;
		b->gsize[a] = sa;
		b->ghash[a] = ha;
	}
	/* the other friendly groups, each once: a neighbour whose group is an
	 * earlier friendly neighbour's was joined already (merge would pass
	 * it by) */
	{
		const unsigned f0 = friends & 1, f1 = friends >> 1 & 1, f2 = friends >> 2 & 1;
		const unsigned dup = (f0 & (g0 == g1)) << 1 | ((f0 & (g0 == g2)) | (f1 & (g1 == g2))) << 2 |
		                     ((f0 & (g0 == g3)) | (f1 & (g1 == g3)) | (f2 & (g2 == g3))) << 3;
		unsigned more = friends & (friends - 1) & ~dup;
		if (more) {
			const int nb[4] = {n0, n1, n2, n3};
			do {
				const int j = ctz4(more);
				more &= more - 1;
				merge(b, group[pt], group[nb[j]]);
			} while (more);
		}
	}
	b->ko = GR_NONE;
	b->last_captures = 0;
	if (takes) {
		const int nb[4] = {n0, n1, n2, n3};
		const int n00 = p->n;
		int captured = 0, cap_pt = GR_NONE;
		do {
			const int i = ctz4(takes);
			takes &= takes - 1;
			/* a group next to pt twice is taken once: its second
			 * neighbour is empty by then */
			if (col[nb[i]] == opp) {
				cap_pt = group[nb[i]];
				captured += take(p, b, nb[i]);
			}
		} while (takes);
		b->stones[opp] -= captured;
		b->captured[c] += captured;
		b->last_captures = captured;
		/* the eye bits of the points taken (their neighbours need none:
		 * a group taken had no liberty, so every neighbour of its stones
		 * is a stone, off the board or taken too) */
		for (int k = n00; k < p->n; k++)
			p->eyes[k] = eye_bits(col, p->list[k], s);
		const int empties = (col[n0] == GR_EMPTY) + (col[n1] == GR_EMPTY) + (col[n2] == GR_EMPTY) +
		                    (col[n3] == GR_EMPTY);
		if (captured == 1 && empties == 1 && b->gsize[group[pt]] == 1) {
			b->ko = cap_pt;
			b->ko_color = (uint8_t)opp;
		}
	}
	/* pt's neighbours: one may have become an eye (all four read before
	 * any is written). pt is c's now, and each diagonal point is next to
	 * two of them. The point two lines above or below pt may lie outside
	 * the array (then the neighbour is off the board, its bits go to the
	 * spare slot, and any point stands in for it). */
	const int up = pt - 2 * s < 0 ? 0 : pt - 2 * s;
	const int down = pt + 2 * s >= GR_MAX_POINTS ? GR_MAX_POINTS - 1 : pt + 2 * s;
	const int ul = col[n2 - 1], ur = col[n2 + 1], dl = col[n3 - 1], dr = col[n3 + 1];
	const uint8_t e0 = (uint8_t)(col[pt - 2] & ul & dl & (int)c), e1 = (uint8_t)(col[pt + 2] & ur & dr & (int)c);
	const uint8_t e2 = (uint8_t)(col[up] & ul & ur & (int)c), e3 = (uint8_t)(col[down] & dl & dr & (int)c);
	const int i0 = p->idx[n0], i1 = p->idx[n1], i2 = p->idx[n2], i3 = p->idx[n3];
	p->eyes[i0] = e0;
	p->eyes[i1] = e1;
	p->eyes[i2] = e2;
	p->eyes[i3] = e3;
}

void gr_playout_play(gr_playout *p, gr_board *b, gr_color c, int pt)
{
	play(p, b, c, pt);
}

bool gr_playout_consistent(const gr_playout *p, const gr_board *b)
{
	int n = 0;
	if (p->n < 0 || p->n > b->size * b->size)
		return false;
	for (int pt = 0; pt < GR_MAX_POINTS; pt++) {
		bool empty = pt < b->stride * b->stride && b->color[pt] == GR_EMPTY;
		int i = p->idx[pt];
		if (!empty) {
			if (i != GR_PLAYOUT_NOWHERE)
				return false;
			continue;
		}
		n++;
		if (i < 0 || i >= p->n || p->list[i] != pt || p->eyes[i] != eye_bits(b->color, pt, b->stride))
			return false;
	}
	if (n != p->n)
		return false;
	for (int i = p->n; i < GR_MAX_POINTS + 16; i++)
		if (i != GR_PLAYOUT_NOWHERE && p->eyes[i] != 3)
			return false;
	return true;
}

/* The first place k in [i, end) whose eye bits lack cbit (c's bit), or end.
 * Eight places at a time: the places from p->n on hold 3, so a read past the
 * list finds nothing there. */
static inline int next_candidate(const uint8_t *eyes, int i, int end, unsigned cbit)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t want = 0x0101010101010101ULL * cbit;
	for (; i < end; i += 8) {
		uint64_t w;
		memcpy(&w, eyes + i, 8);
		uint64_t m = ~w & want;
		if (m) {
			int k = i + __builtin_ctzll(m) / 8;
			return k < end ? k : end;
		}
	}
	return end;
#else
	for (; i < end; i++)
		if (!(eyes[i] & cbit))
			return i;
	return end;
#endif
}

/* Tries the listed points in a random rotation: the first one that does not
 * fill c's own eye, is legal, and makes no earlier position. */
static inline int pick(gr_playout *p, const gr_board *b, gr_color c)
{
	const int n = p->n;
	if (n == 0)
		return GR_PASS;
	const int start = (int)gr_rng_below(&p->rng, (uint32_t)n);
	const uint64_t *zc = p->zobrist[c - 1];
	const unsigned cbit = (unsigned)c;
	const uint64_t own = LANE_ONES * (unsigned)c, opp = LANE_ONES * (unsigned)(3 - c);
	for (int i = start, end = n;;) {
		int k = next_candidate(p->eyes, i, end, cbit);
		if (k == end) {
			if (end == start)
				return GR_PASS;
			i = 0;
			end = start;
			continue;
		}
		int pt = p->list[k];
		i = k + 1;
		uint64_t after;
		quick_answer q = quick_check(b, own, opp, pt);
		if (q == QUICK_SUICIDE)
			continue;
		if (q == QUICK_LEGAL)
			after = b->hash ^ zc[pt];
		else if (check_taking(zc, b, c, pt, &after) != GR_LEGAL)
			continue;
		if (!table_has(p, gr_position_key(after, gr_other(c))))
			return pt;
	}
}

int gr_playout_pick(gr_playout *p, const gr_board *b, gr_color c)
{
	gr_playout_start(p, b);
	return pick(p, b, c);
}

int gr_playout_run(gr_playout *p, gr_board *b, gr_color to_move, int *record, int record_cap)
{
	gr_playout_start(p, b);
	int max = p->max_moves > 0 ? p->max_moves : 3 * b->size * b->size;
	if (max > GR_PLAYOUT_TABLE / 2 - 1)
		max = GR_PLAYOUT_TABLE / 2 - 1; /* the table must never fill */
	table_clear(p);
	table_add(p, gr_position_key(b->hash, to_move));
	int moves = 0, passes = 0, stones = 0;
	gr_color c = to_move;
	while (moves < max && passes < 2) {
		int pt = pick(p, b, c);
		if (pt == GR_PASS) {
			gr_board_pass(b);
			passes++;
		} else {
			play(p, b, c, pt);
			passes = 0;
			stones++;
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
