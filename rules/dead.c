/* goref rules core: the dead-stone proposal. See dead.h. */
#include "dead.h"

#include <string.h>

#include "playout.h"
#include "util.h"

void gr_dead_options_init(gr_dead_options *o)
{
	if (!o)
		return;
	o->playouts = GR_DEAD_PLAYOUTS_DEFAULT;
	o->seed = GR_DEAD_SEED_DEFAULT;
	o->threshold = GR_DEAD_THRESHOLD_DEFAULT;
	o->max_moves = 0;
}

const char *gr_dead_reason_name(gr_dead_reason r)
{
	switch (r) {
	case GR_DEAD_NONE: return "";
	case GR_DEAD_BENSON: return "benson";
	case GR_DEAD_ENCLOSED: return "enclosed";
	case GR_DEAD_SEKI: return "seki";
	case GR_DEAD_PLAYOUTS: return "playouts";
	case GR_DEAD_SURVIVES: return "survives";
	}
	return "?";
}

static inline bool is_stone(uint8_t c) { return c == GR_BLACK || c == GR_WHITE; }

static inline void neighbours(const gr_board *b, int pt, int nb[4])
{
	nb[0] = pt - 1;
	nb[1] = pt + 1;
	nb[2] = pt - b->stride;
	nb[3] = pt + b->stride;
}

/* Adds the liberties of group g other than `except` to libs[0..*n), without
 * duplicates, until there are `want`. */
static void add_group_libs(const gr_board *b, int g, int except, int *libs, int *n, int want)
{
	int s = g;
	do {
		int nb[4];
		neighbours(b, s, nb);
		for (int k = 0; k < 4; k++) {
			int p = nb[k];
			if (b->color[p] != GR_EMPTY || p == except)
				continue;
			int j;
			for (j = 0; j < *n && libs[j] != p; j++)
				;
			if (j == *n) {
				libs[(*n)++] = p;
				if (*n >= want)
					return;
			}
		}
		s = b->next[s];
	} while (s != g);
}

/* True liberties of group g, at most cap of them written to libs; returns
 * min(count, cap). */
static int group_libs(const gr_board *b, int g, int *libs, int cap)
{
	int n = 0;
	add_group_libs(b, g, GR_NONE, libs, &n, cap);
	return n;
}

/* ------------------------------------------------------------------------ */
/* Playouts                                                                  */

/* The sizes of self-atari the playouts refuse: a self-atari (no capture, one
 * liberty left) of SA_MAX_STONES stones or more, or one whose last liberty is
 * the mover's own eye. Smaller ones stay allowed: they are how nakade kill. */
#define SA_MAX_STONES 4

/* What c at pt (empty) would leave: returns 3 when it captures, else the
 * number of liberties of the stone's group, 0, 1 or 2 (2 meaning two or
 * more). *stones receives the size of the group when it does not capture,
 * and *last its liberty when it has exactly one. */
static int after_move(const gr_board *b, gr_color c, int pt, int *stones, int *last)
{
	int nb[4];
	neighbours(b, pt, nb);
	int libs[4], n = 0;
	for (int k = 0; k < 4; k++)
		if (b->color[nb[k]] == GR_EMPTY)
			libs[n++] = nb[k]; /* distinct: four different points */
	const gr_color opp = gr_other(c);
	int own[4], nown = 0;
	for (int k = 0; k < 4; k++) {
		uint8_t col = b->color[nb[k]];
		if (!is_stone(col))
			continue;
		int g = b->group[nb[k]];
		if (col == opp) {
			/* a capture: pt is the group's only liberty */
			int adj = 0;
			for (int j = 0; j < 4; j++)
				adj += b->color[nb[j]] == opp && b->group[nb[j]] == g;
			if (b->libs[g] == adj)
				return 3;
		} else {
			int j;
			for (j = 0; j < nown && own[j] != g; j++)
				;
			if (j == nown)
				own[nown++] = g;
		}
	}
	if (n >= 2)
		return 2;
	int count = 1;
	for (int j = 0; j < nown; j++) {
		count += b->gsize[own[j]];
		add_group_libs(b, own[j], pt, libs, &n, 2);
		if (n >= 2)
			return 2;
	}
	*stones = count;
	if (n == 1)
		*last = libs[0];
	return n;
}

/* Whether c at pt (legal, not c's own eye) is a self-atari the playouts
 * refuse. */
static bool bad_self_atari(const gr_board *b, gr_color c, int pt)
{
	int stones = 0, last = GR_NONE;
	int r = after_move(b, c, pt, &stones, &last);
	if (r != 1 && r != 0)
		return false;
	/* one liberty left (none is suicide, which is not legal anyway) */
	if (stones >= SA_MAX_STONES)
		return true;
	if (r == 1) {
		/* the last liberty is c's own eye once pt is filled */
		int lnb[4];
		neighbours(b, last, lnb);
		for (int k = 0; k < 4; k++) {
			uint8_t col = b->color[lnb[k]];
			if (lnb[k] != pt && col != c && col != GR_OFFBOARD)
				return false;
		}
		return true;
	}
	return false;
}

/* The only liberty of group g, or GR_NONE when it has more than one. */
static int atari_lib(const gr_board *b, int g)
{
	int libs[2], n = 0;
	add_group_libs(b, g, GR_NONE, libs, &n, 2);
	return n == 1 ? libs[0] : GR_NONE;
}

static void add_cand(int *cand, int *n, int pt)
{
	for (int i = 0; i < *n; i++)
		if (cand[i] == pt)
			return;
	if (*n < 16)
		cand[(*n)++] = pt;
}

/* An answer to the last move, as a player would give it: capture the last
 * move's stones when they are in atari, or save c's own stones it put in
 * atari (by capturing a neighbour of theirs in atari or by extending to two
 * liberties or more). One of these at random; GR_PASS when there is none. */
static int answer_last(const gr_board *b, gr_color c, int last, gr_rng *rng)
{
	if (last <= 0 || !is_stone(b->color[last]))
		return GR_PASS;
	const gr_color opp = gr_other(c);
	int cand[16], n = 0;
	int l = atari_lib(b, b->group[last]);
	if (l != GR_NONE)
		add_cand(cand, &n, l);
	int nb[4];
	neighbours(b, last, nb);
	for (int k = 0; k < 4; k++) {
		if (b->color[nb[k]] != c)
			continue;
		int g = b->group[nb[k]];
		int esc = atari_lib(b, g);
		if (esc == GR_NONE)
			continue;
		/* capture a neighbour of g that is in atari */
		int s = g;
		do {
			int sn[4];
			neighbours(b, s, sn);
			for (int j = 0; j < 4; j++)
				if (b->color[sn[j]] == opp) {
					int cl = atari_lib(b, b->group[sn[j]]);
					if (cl != GR_NONE)
						add_cand(cand, &n, cl);
				}
			s = b->next[s];
		} while (s != g);
		int stones, lastlib;
		if (after_move(b, c, esc, &stones, &lastlib) >= 2)
			add_cand(cand, &n, esc);
	}
	while (n > 0) {
		int i = (int)gr_rng_below(rng, (uint32_t)n);
		int pt = cand[i];
		if (gr_board_check(b, c, pt, NULL) == GR_LEGAL && !gr_board_is_eyelike(b, pt, c))
			return pt;
		cand[i] = cand[--n];
	}
	return GR_PASS;
}

typedef struct playout_state {
	int16_t list[GR_MAX_POINTS]; /* empty points */
	int16_t idx[GR_MAX_POINTS];  /* position of a point in list */
	int n;
} playout_state;

static void collect_empty(const gr_board *b, playout_state *ps)
{
	ps->n = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] == GR_EMPTY) {
				ps->idx[pt] = (int16_t)ps->n;
				ps->list[ps->n++] = (int16_t)pt;
			}
		}
}

static int pick(const gr_board *b, gr_color c, gr_rng *rng, const playout_state *ps, int last)
{
	int answer = answer_last(b, c, last, rng);
	if (answer != GR_PASS)
		return answer;
	int n = ps->n;
	if (n == 0)
		return GR_PASS;
	int start = (int)gr_rng_below(rng, (uint32_t)n);
	for (int k = 0; k < n; k++) {
		int i = start + k;
		if (i >= n)
			i -= n;
		int pt = ps->list[i];
		if (gr_board_is_eyelike(b, pt, c))
			continue;
		if (gr_board_check(b, c, pt, NULL) != GR_LEGAL)
			continue;
		if (bad_self_atari(b, c, pt))
			continue;
		return pt;
	}
	return GR_PASS;
}

/* One random game on b (changed) from c to move. */
static void playout(gr_board *b, gr_color c, gr_rng *rng, int max_moves, playout_state *ps)
{
	collect_empty(b, ps);
	int passes = 0, last = GR_NONE;
	for (int moves = 0; moves < max_moves && passes < 2; moves++, c = gr_other(c)) {
		int pt = pick(b, c, rng, ps, last);
		last = pt;
		if (pt == GR_PASS) {
			gr_board_pass(b);
			passes++;
			continue;
		}
		passes = 0;
		gr_board_play(b, c, pt);
		if (b->last_captures) {
			collect_empty(b, ps);
		} else {
			int i = ps->idx[pt];
			ps->list[i] = ps->list[--ps->n];
			ps->idx[ps->list[i]] = (int16_t)i;
		}
	}
}

/* Who a point belongs to at the end of a playout: its stone, or the colour of
 * all its neighbours, or GR_EMPTY. */
static gr_color final_owner(const gr_board *b, int pt)
{
	uint8_t col = b->color[pt];
	if (is_stone(col))
		return (gr_color)col;
	int nb[4];
	neighbours(b, pt, nb);
	int seen = 0;
	for (int k = 0; k < 4; k++)
		if (is_stone(b->color[nb[k]]))
			seen |= b->color[nb[k]];
	return seen == GR_BLACK || seen == GR_WHITE ? (gr_color)seen : GR_EMPTY;
}

/* ------------------------------------------------------------------------ */
/* Benson's algorithm                                                        */

typedef struct benson_work {
	int16_t region[GR_MAX_POINTS];  /* region index per non-c point, -1 otherwise */
	int16_t gidx[GR_MAX_POINTS];    /* group index per group id */
	int16_t stamp[GR_MAX_POINTS];   /* per group index: last region seen */
	int16_t adj[GR_MAX_POINTS];     /* per group index: empty points of the region it touches */
	int16_t stack[GR_MAX_POINTS];
	/* (region, group, vital) pairs */
	int16_t pr[4 * GR_MAX_POINTS], pg[4 * GR_MAX_POINTS];
	bool pv[4 * GR_MAX_POINTS];
	bool region_ok[GR_MAX_POINTS];
	bool vital_region[GR_MAX_POINTS];
	bool alive[GR_MAX_POINTS]; /* per group index */
	int16_t vital[GR_MAX_POINTS];
} benson_work;

/* Marks alive[pt] for the stones of c's unconditionally alive groups and
 * enclosed[pt] for the opponent stones standing in a region of theirs whose
 * every empty point is a liberty of one of them. */
static void benson(const gr_board *b, gr_color c, bool *alive_pt, bool *enclosed, benson_work *w)
{
	const int npts = b->stride * b->stride;
	int ng = 0;
	for (int p = 0; p < npts; p++) {
		w->region[p] = -1;
		if (b->color[p] == c && b->group[p] == p) {
			w->gidx[p] = (int16_t)ng;
			w->stamp[ng] = -1;
			w->alive[ng] = true;
			ng++;
		}
	}
	if (ng == 0)
		return;
	int nr = 0, np = 0;
	for (int p = 0; p < npts; p++) {
		if (!gr_on_board(b, p) || b->color[p] == c || w->region[p] >= 0)
			continue;
		/* flood fill region nr */
		int sp = 0, empties = 0;
		w->stack[sp++] = (int16_t)p;
		w->region[p] = (int16_t)nr;
		int first_pair = np;
		while (sp) {
			int s = w->stack[--sp];
			bool empty = b->color[s] == GR_EMPTY;
			empties += empty;
			int nb[4];
			neighbours(b, s, nb);
			int seen_here[4], nseen = 0;
			for (int k = 0; k < 4; k++) {
				int q = nb[k];
				uint8_t col = b->color[q];
				if (col == GR_OFFBOARD)
					continue;
				if (col == c) {
					int gi = w->gidx[b->group[q]];
					if (w->stamp[gi] != nr) {
						w->stamp[gi] = (int16_t)nr;
						w->adj[gi] = 0;
						w->pr[np] = (int16_t)nr;
						w->pg[np] = (int16_t)gi;
						np++;
					}
					if (empty) {
						int j;
						for (j = 0; j < nseen && seen_here[j] != gi; j++)
							;
						if (j == nseen) {
							seen_here[nseen++] = gi;
							w->adj[gi]++;
						}
					}
				} else if (w->region[q] < 0) {
					w->region[q] = (int16_t)nr;
					w->stack[sp++] = (int16_t)q;
				}
			}
		}
		for (int i = first_pair; i < np; i++)
			w->pv[i] = w->adj[w->pg[i]] == empties;
		w->region_ok[nr] = true;
		nr++;
	}
	bool changed = true;
	while (changed) {
		changed = false;
		for (int i = 0; i < np; i++)
			if (w->region_ok[w->pr[i]] && !w->alive[w->pg[i]]) {
				w->region_ok[w->pr[i]] = false;
				changed = true;
			}
		for (int g = 0; g < ng; g++)
			w->vital[g] = 0;
		for (int i = 0; i < np; i++)
			if (w->pv[i] && w->region_ok[w->pr[i]])
				w->vital[w->pg[i]]++;
		for (int g = 0; g < ng; g++)
			if (w->alive[g] && w->vital[g] < 2) {
				w->alive[g] = false;
				changed = true;
			}
	}
	for (int p = 0; p < npts; p++) {
		if (b->color[p] == c) {
			if (w->alive[w->gidx[b->group[p]]])
				alive_pt[p] = true;
		}
	}
	/* opponent stones in a region vital to a living group (region_ok now
	 * means: every group around it is alive) */
	bool *small = w->vital_region;
	for (int r = 0; r < nr; r++)
		small[r] = false;
	for (int i = 0; i < np; i++)
		if (w->pv[i] && w->region_ok[w->pr[i]] && w->alive[w->pg[i]])
			small[w->pr[i]] = true;
	for (int p = 0; p < npts; p++)
		if (w->region[p] >= 0 && small[w->region[p]] && b->color[p] == gr_other(c))
			enclosed[p] = true;
}

/* ------------------------------------------------------------------------ */
/* Seki                                                                      */

/* True if pt is empty and all its neighbours on the board are c stones. */
static bool eye_of(const gr_board *b, int pt, gr_color c) { return gr_board_is_eyelike(b, pt, c); }

/* Filling shared liberty s by the colour of group g (libs exactly {s, other})
 * is a self-atari that captures nothing; would the opponent's capture (by
 * group h) leave h alive? Yes when h has an eye of its own or the captured
 * group is large enough not to be a nakade. */
static bool fill_is_bad(const gr_board *b, int g, int h, const int *hlibs, int nh)
{
	if (b->gsize[g] + 1 >= SA_MAX_STONES)
		return true;
	gr_color hc = (gr_color)b->color[h];
	for (int i = 0; i < nh; i++)
		if (eye_of(b, hlibs[i], hc))
			return true;
	return false;
}

/* Whether every fill of a liberty shared by the two groups (liberties al[0..2)
 * and hl[0..2)), by either colour, leaves the filler with one liberty and
 * captures nothing (or is not legal at all). */
static bool fills_are_self_atari(const gr_board *b, const int *al, const int *hl)
{
	for (int x = 0; x < 2; x++) {
		if (al[x] != hl[0] && al[x] != hl[1])
			continue;
		for (int k = 0; k < 2; k++) {
			const gr_color c = k ? GR_WHITE : GR_BLACK;
			int stones, last;
			if (gr_board_check(b, c, al[x], NULL) != GR_LEGAL)
				continue;
			if (after_move(b, c, al[x], &stones, &last) != 1)
				return false;
		}
	}
	return true;
}

/* Two-group seki (dead.h): marks both groups and their shared liberties. */
static void find_seki(const gr_board *b, bool *seki)
{
	const int npts = b->stride * b->stride;
	for (int p = 0; p < npts; p++) {
		if (b->color[p] != GR_BLACK || b->group[p] != p)
			continue;
		int al[3];
		if (group_libs(b, p, al, 3) != 2)
			continue;
		/* white groups next to a liberty of p */
		for (int i = 0; i < 2; i++) {
			int nb[4];
			neighbours(b, al[i], nb);
			for (int k = 0; k < 4; k++) {
				if (b->color[nb[k]] != GR_WHITE)
					continue;
				int h = b->group[nb[k]];
				int hl[3];
				if (group_libs(b, h, hl, 3) != 2)
					continue;
				int shared = 0;
				for (int x = 0; x < 2; x++)
					for (int y = 0; y < 2; y++)
						shared += al[x] == hl[y];
				bool is_seki = false;
				if (shared == 2) {
					is_seki = fill_is_bad(b, p, h, hl, 2) && fill_is_bad(b, h, p, al, 2);
				} else if (shared == 1) {
					int ae = al[0] == hl[0] || al[0] == hl[1] ? al[1] : al[0];
					int he = hl[0] == al[0] || hl[0] == al[1] ? hl[1] : hl[0];
					is_seki = eye_of(b, ae, GR_BLACK) && eye_of(b, he, GR_WHITE);
				}
				if (!is_seki || !fills_are_self_atari(b, al, hl))
					continue;
				int pts[GR_MAX_POINTS];
				int n = gr_board_group_points(b, p, pts);
				for (int j = 0; j < n; j++)
					seki[pts[j]] = true;
				n = gr_board_group_points(b, h, pts);
				for (int j = 0; j < n; j++)
					seki[pts[j]] = true;
				for (int x = 0; x < 2; x++)
					for (int y = 0; y < 2; y++)
						if (al[x] == hl[y])
							seki[al[x]] = true;
			}
		}
	}
}

/* After the decision: a live group that is not unconditionally alive, has
 * fewer than two one-point eyes, and whose every liberty is either such an eye
 * or shared with a live opposite group lives in seki (the playouts kept it
 * alive without two eyes). Marks it and the shared liberties. */
static void label_seki(gr_dead_result *out, const gr_board *b)
{
	const int npts = b->stride * b->stride;
	for (int p = 0; p < npts; p++) {
		if (!is_stone(b->color[p]) || b->group[p] != p || out->dead[p])
			continue;
		gr_dead_reason why = (gr_dead_reason)out->reason[p];
		if (why == GR_DEAD_BENSON)
			continue;
		gr_color c = (gr_color)b->color[p];
		int libs[8];
		int n = group_libs(b, p, libs, 8);
		if (n == 0 || n >= 8)
			continue;
		int eyes = 0, shared = 0;
		for (int i = 0; i < n; i++) {
			int nb[4];
			neighbours(b, libs[i], nb);
			bool live_opp = false, eye = true;
			for (int k = 0; k < 4; k++) {
				uint8_t col = b->color[nb[k]];
				if (col == gr_other(c) && !out->dead[nb[k]])
					live_opp = true;
				if (col != c && col != GR_OFFBOARD)
					eye = false;
			}
			if (eye)
				eyes++;
			else if (live_opp)
				shared++;
			else
				break;
		}
		if (eyes + shared != n || shared == 0 || eyes >= 2)
			continue;
		int pts[GR_MAX_POINTS];
		int m = gr_board_group_points(b, p, pts);
		for (int j = 0; j < m; j++) {
			out->seki[pts[j]] = true;
			out->reason[pts[j]] = GR_DEAD_SEKI;
		}
		for (int i = 0; i < n; i++)
			if (!gr_board_is_eyelike(b, libs[i], c))
				out->seki[libs[i]] = true;
	}
}

/* ------------------------------------------------------------------------ */

int gr_dead_analyse(gr_dead_result *out, const gr_board *b, gr_color to_move,
                    const gr_dead_options *opt)
{
	if (!out || !b || (to_move != GR_BLACK && to_move != GR_WHITE))
		return GR_EINVAL;
	gr_dead_options o;
	gr_dead_options_init(&o);
	if (opt) {
		if (opt->playouts < 0 || opt->playouts > GR_DEAD_PLAYOUTS_MAX || opt->max_moves < 0 ||
		    !(opt->threshold >= 0.0 && opt->threshold < 1.0))
			return GR_ERANGE;
		if (opt->playouts)
			o.playouts = opt->playouts;
		if (opt->seed)
			o.seed = opt->seed;
		if (opt->threshold > 0.0)
			o.threshold = opt->threshold;
		o.max_moves = opt->max_moves;
	}
	int max_moves = o.max_moves ? o.max_moves : 3 * b->size * b->size;
	if (max_moves < 64)
		max_moves = 64;
	memset(out, 0, sizeof *out);
	const int npts = b->stride * b->stride;

	/* 1. Benson */
	bool benson_alive[GR_MAX_POINTS], enclosed[GR_MAX_POINTS];
	memset(benson_alive, 0, sizeof benson_alive);
	memset(enclosed, 0, sizeof enclosed);
	{
		benson_work w;
		benson(b, GR_BLACK, benson_alive, enclosed, &w);
		benson(b, GR_WHITE, benson_alive, enclosed, &w);
	}

	/* 2. playouts */
	int owned[3][GR_MAX_POINTS];
	memset(owned, 0, sizeof owned);
	{
		gr_rng rng;
		gr_rng_seed(&rng, o.seed);
		gr_board scratch;
		playout_state ps;
		for (int i = 0; i < o.playouts; i++) {
			scratch = *b;
			playout(&scratch, to_move, &rng, max_moves, &ps);
			for (int p = 0; p < npts; p++)
				if (gr_on_board(b, p))
					owned[final_owner(&scratch, p)][p]++;
		}
	}
	out->playouts = o.playouts;
	for (int p = 0; p < npts; p++)
		if (gr_on_board(b, p))
			out->ownership[p] = (float)(owned[GR_BLACK][p] - owned[GR_WHITE][p]) / (float)o.playouts;

	/* 3. seki on the board itself */
	find_seki(b, out->seki);

	/* the decision, group by group */
	for (int p = 0; p < npts; p++) {
		if (!is_stone(b->color[p]) || b->group[p] != p)
			continue;
		gr_color c = (gr_color)b->color[p];
		gr_color opp = gr_other(c);
		int pts[GR_MAX_POINTS];
		int n = gr_board_group_points(b, p, pts);
		gr_dead_reason why;
		if (benson_alive[p]) {
			why = GR_DEAD_BENSON;
		} else if (enclosed[p]) {
			why = GR_DEAD_ENCLOSED;
		} else if (out->seki[p]) {
			why = GR_DEAD_SEKI;
		} else {
			long lost = 0;
			for (int j = 0; j < n; j++)
				lost += owned[opp][pts[j]];
			double share = (double)lost / ((double)o.playouts * (double)n);
			why = share > o.threshold ? GR_DEAD_PLAYOUTS : GR_DEAD_SURVIVES;
			if (share > o.threshold - GR_DEAD_UNCERTAIN && share < o.threshold + GR_DEAD_UNCERTAIN)
				for (int j = 0; j < n; j++)
					out->uncertain[pts[j]] = true;
		}
		bool dead = why == GR_DEAD_ENCLOSED || why == GR_DEAD_PLAYOUTS;
		for (int j = 0; j < n; j++) {
			out->reason[pts[j]] = (uint8_t)why;
			out->dead[pts[j]] = dead;
		}
		if (dead) {
			if (c == GR_BLACK)
				out->dead_black += n;
			else
				out->dead_white += n;
		}
	}
	label_seki(out, b);
	out->seki_groups = 0;
	for (int p = 0; p < npts; p++)
		if (is_stone(b->color[p]) && b->group[p] == p && out->reason[p] == GR_DEAD_SEKI)
			out->seki_groups++;
	return 0;
}

int gr_dead_estimate(bool *dead, const gr_board *b, gr_color to_move, const gr_dead_options *opt)
{
	if (!dead)
		return GR_EINVAL;
	gr_dead_result r;
	int rc = gr_dead_analyse(&r, b, to_move, opt);
	if (rc)
		return rc;
	memcpy(dead, r.dead, sizeof r.dead);
	return 0;
}

bool gr_dead_finished(const gr_dead_result *r, const gr_board *b, bool *unsettled)
{
	if (!r || !b)
		return false;
	if (unsettled)
		memset(unsettled, 0, GR_MAX_POINTS * sizeof *unsettled);
	const int npts = b->stride * b->stride;
	uint8_t col[GR_MAX_POINTS];
	for (int p = 0; p < npts; p++)
		col[p] = r->dead[p] ? GR_EMPTY : b->color[p];
	/* the colours bordering each empty region, once the dead are lifted */
	int16_t region[GR_MAX_POINTS];
	uint8_t border[GR_MAX_POINTS];
	int stack[GR_MAX_POINTS];
	for (int p = 0; p < npts; p++)
		region[p] = -1;
	int nr = 0;
	for (int p = 0; p < npts; p++) {
		if (col[p] != GR_EMPTY || region[p] >= 0)
			continue;
		int sp = 0;
		stack[sp++] = p;
		region[p] = (int16_t)nr;
		border[nr] = 0;
		while (sp) {
			int s = stack[--sp];
			int sn[4];
			neighbours(b, s, sn);
			for (int k = 0; k < 4; k++) {
				uint8_t c = col[sn[k]];
				if (c == GR_EMPTY && region[sn[k]] < 0) {
					region[sn[k]] = (int16_t)nr;
					stack[sp++] = sn[k];
				} else if (is_stone(c)) {
					border[nr] |= c;
				}
			}
		}
		nr++;
	}
	bool finished = true;
	for (int p = 0; p < npts; p++) {
		if (r->uncertain[p] && is_stone(b->color[p])) {
			finished = false;
			if (unsettled)
				unsettled[p] = true;
		}
		if (col[p] != GR_EMPTY)
			continue;
		int nb[4];
		neighbours(b, p, nb);
		int touch = 0;
		for (int k = 0; k < 4; k++)
			if (is_stone(col[nb[k]]))
				touch |= col[nb[k]];
		bool bad;
		int owner = border[region[p]];
		if (touch == (GR_BLACK | GR_WHITE))
			bad = false; /* dame between live stones of both colours */
		else if (owner == GR_BLACK)
			bad = r->ownership[p] < 2 * GR_DEAD_TERRITORY - 1;
		else if (owner == GR_WHITE)
			bad = r->ownership[p] > 1 - 2 * GR_DEAD_TERRITORY;
		else
			bad = true; /* an open border: dame that is not between both colours */
		if (bad) {
			finished = false;
			if (unsettled)
				unsettled[p] = true;
		}
	}
	return finished;
}
