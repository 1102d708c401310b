/*
 * goref-render: the plan of a game as played on a physical board, with
 * injected violations (see plan.h).
 */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "referee.h"
#include "scene.h"

const char *const rp_inj_names[INJ_KINDS] = {
	"double_move", "missed_capture", "wrong_removal", "takeback", "moved_stone", "disturbed",
};

int rp_inj_parse(const char *name)
{
	for (int i = 0; i < INJ_KINDS; i++)
		if (!strcmp(name, rp_inj_names[i]))
			return i;
	return -1;
}

/* Whether the violation costs its player a warning (article 24). */
static bool warns(int kind)
{
	return kind == INJ_DOUBLE_MOVE || kind == INJ_MISSED_CAPTURE || kind == INJ_WRONG_REMOVAL || kind == INJ_TAKEBACK;
}

/* ---- building */

typedef struct builder {
	rp_plan *p;
	int n;
	unsigned char phys[19 * 19]; /* what lies on the board */
	rs_rng rng;
	bool oom;
} builder;

static void *grow(void *a, int *cap, int need, size_t sz, bool *oom)
{
	if (need <= *cap)
		return a;
	int nc = *cap ? *cap * 2 : 256;
	while (nc < need)
		nc *= 2;
	void *b = realloc(a, (size_t)nc * sz);
	if (!b) {
		*oom = true;
		return NULL;
	}
	*cap = nc;
	return b;
}

static rp_step *add_step(builder *b, int kind, int who)
{
	rp_plan *p = b->p;
	void *ns = grow(p->steps, &p->capsteps, p->nsteps + 1, sizeof *p->steps, &b->oom);
	if (!ns)
		return NULL;
	p->steps = ns;
	rp_step *s = &p->steps[p->nsteps++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->who = who;
	s->act0 = p->nacts;
	s->ev0 = p->nevents;
	s->hx = s->hy = -1;
	return s;
}

static void add_act(builder *b, int kind, int pt, int color)
{
	rp_plan *p = b->p;
	void *na = grow(p->acts, &p->capacts, p->nacts + 1, sizeof *p->acts, &b->oom);
	if (!na)
		return;
	p->acts = na;
	rp_act *a = &p->acts[p->nacts++];
	a->kind = kind;
	a->x = pt % b->n;
	a->y = pt / b->n;
	a->color = color;
	a->du = a->dv = 0;
	if (kind == ACT_PLACE) {
		/* a little off its point, up to about 2 mm */
		double r = 2.0 * rs_uniform(&b->rng, 0, 1), t = rs_uniform(&b->rng, 0, 6.283185307179586);
		a->du = r * cos(t);
		a->dv = r * sin(t);
	}
	b->phys[pt] = kind == ACT_PLACE ? (unsigned char)color : 0;
	p->steps[p->nsteps - 1].nact++;
}

static rp_event *add_event(builder *b, int type, int kind, int color, int pt)
{
	rp_plan *p = b->p;
	void *ne = grow(p->events, &p->capevents, p->nevents + 1, sizeof *p->events, &b->oom);
	if (!ne)
		return NULL;
	p->events = ne;
	rp_event *e = &p->events[p->nevents++];
	memset(e, 0, sizeof *e);
	e->type = type;
	e->kind = kind;
	e->color = color;
	e->pt = pt;
	e->to = -1;
	p->steps[p->nsteps - 1].nev++;
	return e;
}

static void sort_pts(int *a, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
			int t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

static int dist(int n, int a, int b)
{
	int dx = a % n - b % n, dy = a / n - b / n;
	return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

/* The on-board neighbours of pt. */
static int neighbours(int n, int pt, int out[4])
{
	int x = pt % n, y = pt / n, k = 0;
	if (x > 0)
		out[k++] = pt - 1;
	if (x < n - 1)
		out[k++] = pt + 1;
	if (y > 0)
		out[k++] = pt - n;
	if (y < n - 1)
		out[k++] = pt + n;
	return k;
}

static int empty_neighbour(builder *b, int pt, const int *avoid, int navoid)
{
	int nb[4], k = neighbours(b->n, pt, nb), c[4], m = 0;
	for (int i = 0; i < k; i++) {
		bool ok = !b->phys[nb[i]];
		for (int j = 0; j < navoid && ok; j++)
			ok = nb[i] != avoid[j];
		if (ok)
			c[m++] = nb[i];
	}
	return m ? c[rs_int(&b->rng, m)] : -1;
}

/* A random point among those that pass ok(), preferring ones within 4 of near. */
typedef bool (*pt_ok)(builder *b, int pt, const void *ud);
static int choose(builder *b, int near, pt_ok ok, const void *ud)
{
	int cand[361], nc = 0, far[361], nf = 0;
	for (int pt = 0; pt < b->n * b->n; pt++) {
		if (!ok(b, pt, ud))
			continue;
		if (near >= 0 && dist(b->n, pt, near) <= 4)
			cand[nc++] = pt;
		else
			far[nf++] = pt;
	}
	if (nc)
		return cand[rs_int(&b->rng, nc)];
	return nf ? far[rs_int(&b->rng, nf)] : -1;
}

static bool ok_lonely(builder *b, int pt, const void *ud)
{
	const int *avoid = ud;
	if (b->phys[pt] || pt == *avoid)
		return false;
	int nb[4], k = neighbours(b->n, pt, nb);
	for (int i = 0; i < k; i++)
		if (b->phys[nb[i]])
			return false;
	return true;
}

static bool ok_colour(builder *b, int pt, const void *ud)
{
	const int *c = ud;
	return b->phys[pt] == c[0] && pt != c[1];
}

static bool ok_movable(builder *b, int pt, const void *ud)
{
	const int *avoid = ud;
	if (!b->phys[pt] || pt == *avoid)
		return false;
	int nb[4], k = neighbours(b->n, pt, nb);
	for (int i = 0; i < k; i++)
		if (!b->phys[nb[i]])
			return true;
	return false;
}

static int gpt_to_idx(const gr_board *g, int pt) { return gr_x(g, pt) + gr_y(g, pt) * g->size; }

int rp_plan_build(rp_plan *p, const gr_record *rec, int nmoves, const rp_inject *inj, int ninj, int bump,
                  uint64_t seed, char *err, size_t cap)
{
	memset(p, 0, sizeof *p);
	builder b;
	memset(&b, 0, sizeof b);
	b.p = p;
	b.n = p->size = gr_record_size(rec);
	p->nmoves = nmoves;
	b.rng.s = rs_hash(seed, 0x91a4);
	gr_board g;
	gr_board_init(&g, b.n);
	for (int i = 0; i < gr_record_setup_count(rec); i++) {
		gr_color c;
		int pt;
		gr_record_setup(rec, i, &c, &pt);
		gr_board_set(&g, pt, c);
		b.phys[gpt_to_idx(&g, pt)] = (unsigned char)c;
	}
	memcpy(p->start, b.phys, sizeof p->start);
	int warned[3] = {0, 0, 0};
	for (int i = 0; i < ninj; i++) {
		if (inj[i].move < 1 || inj[i].move > nmoves) {
			snprintf(err, cap, "%s@%d: no such move (1..%d)", rp_inj_names[inj[i].kind], inj[i].move, nmoves);
			return -1;
		}
		if (warns(inj[i].kind)) {
			const gr_move *m = gr_record_move(rec, inj[i].move - 1);
			if (warned[m->color]++) {
				snprintf(err, cap, "%s@%d: a second warning to %s would lose the game", rp_inj_names[inj[i].kind],
				         inj[i].move, m->color == GR_BLACK ? "Black" : "White");
				return -1;
			}
		}
	}
	int missed[361], nmissed = 0, missed_by = 0, missed_move = 0;
	for (int i = 0; i < nmoves; i++) {
		const gr_move *m = gr_record_move(rec, i);
		int M = i + 1, c = m->color, o = 3 - c;
		int kind = -1;
		for (int k = 0; k < ninj; k++)
			if (inj[k].move == M)
				kind = inj[k].kind;
		b.rng.s = rs_hash(seed ^ 0x1a7ec7, (uint64_t)M * 16 + (uint64_t)(kind + 1));
		const char *kname = kind >= 0 ? rp_inj_names[kind] : "";
		if (m->pt == GR_PASS) {
			if (nmissed) {
				snprintf(err, cap, "missed_capture@%d: move %d is a pass", missed_move, M);
				return -1;
			}
			if (kind >= 0) {
				snprintf(err, cap, "%s@%d: move %d is a pass", kname, M, M);
				return -1;
			}
			rp_step *s = add_step(&b, STEP_PASS, c);
			if (!s)
				return -2;
			s->move = M;
			add_event(&b, EV_PASS, 0, c, -1);
			gr_board_pass(&g);
			if (bump == M)
				s->bump = true;
			continue;
		}
		int pt = gpt_to_idx(&g, m->pt);
		gr_board before = g;
		gr_legality l = gr_board_play(&g, (gr_color)c, m->pt);
		if (l != GR_LEGAL) {
			snprintf(err, cap, "move %d (%s) is not legal: %s", M, c == GR_BLACK ? "B" : "W", gr_legality_name(l));
			return -1;
		}
		int caps[361], ncaps = 0;
		for (int y = 0; y < b.n; y++)
			for (int x = 0; x < b.n; x++) {
				int q = gr_pt(&g, x, y);
				if (before.color[q] == o && g.color[q] == GR_EMPTY)
					caps[ncaps++] = x + y * b.n;
			}
		if (nmissed) {
			for (int k = 0; k < nmissed; k++)
				if (missed[k] == pt) {
					snprintf(err, cap, "missed_capture@%d: move %d is played where a captured stone lies", missed_move, M);
					return -1;
				}
		}
		rp_step *s = add_step(&b, STEP_VISIT, c);
		if (!s)
			return -2;
		s->move = M;
		if (bump == M)
			s->bump = true;
		if (nmissed) {
			rp_event *e = add_event(&b, EV_RULING, INJ_MISSED_CAPTURE, missed_by, -1);
			if (!e)
				return -2;
			e->move = missed_move;
			for (int k = 0; k < nmissed && k < RP_MAXPTS; k++)
				e->pts[e->npts++] = missed[k];
		}
		add_act(&b, ACT_PLACE, pt, c);
		rp_event *me = add_event(&b, EV_MOVE, 0, c, pt);
		if (!me)
			return -2;
		me->move = M;
		if (kind == INJ_MISSED_CAPTURE) {
			if (!ncaps) {
				snprintf(err, cap, "missed_capture@%d: move %d captures nothing", M, M);
				return -1;
			}
			if (M >= nmoves || gr_record_move(rec, M)->pt == GR_PASS) {
				snprintf(err, cap, "missed_capture@%d: needs a next move that is a stone", M);
				return -1;
			}
		} else {
			/* lift the captured stones, nearest first */
			bool done[361] = {false};
			int at = pt;
			for (int k = 0; k < ncaps; k++) {
				int best = -1;
				for (int j = 0; j < ncaps; j++)
					if (!done[j] && (best < 0 || dist(b.n, at, caps[j]) < dist(b.n, at, caps[best])))
						best = j;
				done[best] = true;
				at = caps[best];
				add_act(&b, ACT_LIFT, at, 0);
			}
		}
		if (nmissed) {
			/* the arbiter takes off what was left */
			add_step(&b, STEP_VISIT, WHO_ARBITER);
			for (int k = 0; k < nmissed; k++)
				add_act(&b, ACT_LIFT, missed[k], 0);
			nmissed = 0;
		}
		if (kind == INJ_MISSED_CAPTURE) {
			memcpy(missed, caps, sizeof(int) * (size_t)ncaps);
			nmissed = ncaps;
			missed_by = c;
			missed_move = M;
		} else if (kind == INJ_DOUBLE_MOVE) {
			int next = M < nmoves && gr_record_move(rec, M)->pt != GR_PASS ? gpt_to_idx(&g, gr_record_move(rec, M)->pt) : -1;
			int q = choose(&b, pt, ok_lonely, &next);
			if (q < 0) {
				snprintf(err, cap, "double_move@%d: no free point", M);
				return -1;
			}
			add_step(&b, STEP_VISIT, c);
			add_act(&b, ACT_PLACE, q, c);
			rp_event *e = add_event(&b, EV_RULING, INJ_DOUBLE_MOVE, c, q);
			if (e)
				e->move = M;
			add_step(&b, STEP_VISIT, WHO_ARBITER);
			add_act(&b, ACT_LIFT, q, 0);
		} else if (kind == INJ_WRONG_REMOVAL) {
			int want[2] = {o, -1};
			int q = choose(&b, pt, ok_colour, want);
			if (q < 0) {
				snprintf(err, cap, "wrong_removal@%d: no %s stone to lift", M, o == GR_BLACK ? "black" : "white");
				return -1;
			}
			add_act(&b, ACT_LIFT, q, 0); /* in the same visit as the move */
			rp_step *h = add_step(&b, STEP_VISIT, o);
			if (h)
				h->hx = q % b.n, h->hy = q / b.n;
			rp_event *e = add_event(&b, EV_RULING, INJ_WRONG_REMOVAL, c, -1);
			if (e)
				e->pts[e->npts++] = q;
			add_step(&b, STEP_VISIT, WHO_ARBITER);
			add_act(&b, ACT_PLACE, q, o);
		} else if (kind == INJ_TAKEBACK) {
			if (ncaps) {
				snprintf(err, cap, "takeback@%d: move %d captures", M, M);
				return -1;
			}
			int q = empty_neighbour(&b, pt, NULL, 0);
			if (q < 0) {
				snprintf(err, cap, "takeback@%d: no free point next to the stone", M);
				return -1;
			}
			add_step(&b, STEP_VISIT, c);
			add_act(&b, ACT_LIFT, pt, 0);
			add_act(&b, ACT_PLACE, q, c);
			rp_step *h = add_step(&b, STEP_VISIT, o);
			if (h)
				h->hx = q % b.n, h->hy = q / b.n;
			rp_event *e = add_event(&b, EV_RULING, INJ_TAKEBACK, c, pt);
			if (e)
				e->to = q, e->move = M;
			add_step(&b, STEP_VISIT, WHO_ARBITER);
			add_act(&b, ACT_LIFT, q, 0);
			add_act(&b, ACT_PLACE, pt, c);
		} else if (kind == INJ_MOVED_STONE || kind == INJ_DISTURBED) {
			int want = kind == INJ_MOVED_STONE ? 1 : 3;
			int from[3], to[3], got = 0, colour[3];
			int avoid[6];
			for (int tries = 0; tries < 50 && got < want; tries++) {
				int q = choose(&b, tries < 10 ? (got ? from[0] : pt) : -1, ok_movable, &pt);
				if (q < 0)
					break;
				bool used = false;
				for (int k = 0; k < got; k++)
					used |= from[k] == q || to[k] == q;
				if (used)
					continue;
				int na = 0;
				for (int k = 0; k < got; k++)
					avoid[na++] = from[k], avoid[na++] = to[k];
				int t = empty_neighbour(&b, q, avoid, na);
				if (t < 0)
					continue;
				from[got] = q;
				to[got] = t;
				colour[got] = b.phys[q];
				got++;
			}
			if (got < want) {
				snprintf(err, cap, "%s@%d: not enough stones to move", kname, M);
				return -1;
			}
			add_step(&b, STEP_VISIT, o);
			for (int k = 0; k < got; k++) {
				add_act(&b, ACT_LIFT, from[k], 0);
				add_act(&b, ACT_PLACE, to[k], colour[k]);
			}
			rp_step *h = add_step(&b, STEP_VISIT, c);
			if (h)
				h->hx = to[0] % b.n, h->hy = to[0] / b.n;
			rp_event *e = add_event(&b, EV_RULING, kind, kind == INJ_MOVED_STONE ? colour[0] : 0,
			                        kind == INJ_MOVED_STONE ? from[0] : -1);
			if (e) {
				if (kind == INJ_MOVED_STONE) {
					e->to = to[0];
				} else {
					for (int k = 0; k < got; k++)
						e->pts[e->npts++] = from[k], e->pts[e->npts++] = to[k];
					sort_pts(e->pts, e->npts);
				}
			}
			add_step(&b, STEP_VISIT, WHO_ARBITER);
			for (int k = 0; k < got; k++) {
				add_act(&b, ACT_LIFT, to[k], 0);
				add_act(&b, ACT_PLACE, from[k], colour[k]);
			}
		}
		if (b.oom)
			return -2;
	}
	return b.oom ? -2 : 0;
}

void rp_plan_free(rp_plan *p)
{
	free(p->steps);
	free(p->acts);
	free(p->events);
	memset(p, 0, sizeof *p);
}

/* ---- checking with the referee */

typedef struct vctx {
	int size;
	char got[4096];
	size_t len;
	bool bad;
} vctx;

static void key(char *buf, size_t cap, size_t *len, const char *type, int color, int pt, int to, const int *pts, int n)
{
	if (*len + 64 + (size_t)n * 5 >= cap)
		return;
	*len += (size_t)snprintf(buf + *len, cap - *len, "%s %d %d %d", type, color, pt, to);
	for (int i = 0; i < n; i++)
		*len += (size_t)snprintf(buf + *len, cap - *len, " %d", pts[i]);
	*len += (size_t)snprintf(buf + *len, cap - *len, "; ");
}

static void on_event(const gr_event *e, void *ud)
{
	vctx *v = ud;
	gr_board g;
	gr_board_init(&g, v->size);
	switch (e->type) {
	case GR_EV_CAPTURE:
	case GR_EV_WARNING:
	case GR_EV_RESTORED:
	case GR_EV_LIFTED:
		return;
	default:
		break;
	}
	int pt = e->point > 0 ? gpt_to_idx(&g, e->point) : -1;
	int to = e->to > 0 ? gpt_to_idx(&g, e->to) : -1;
	int pts[RP_MAXPTS], n = 0;
	bool listed = e->type == GR_EV_MISSED_CAPTURE || e->type == GR_EV_WRONG_REMOVAL || e->type == GR_EV_DISTURBED;
	for (int i = 0; listed && i < e->npoints && n < RP_MAXPTS; i++)
		pts[n++] = gpt_to_idx(&g, e->points[i]);
	sort_pts(pts, n);
	key(v->got, sizeof v->got, &v->len, gr_event_type_name(e->type), e->color, e->type == GR_EV_DISTURBED ? -1 : pt,
	    to, pts, n);
}

static void want_key(const rp_plan *p, const rp_event *e, char *buf, size_t cap, size_t *len)
{
	if (e->type == EV_MOVE)
		key(buf, cap, len, "move", e->color, e->pt, -1, NULL, 0);
	else if (e->type == EV_PASS)
		key(buf, cap, len, "pass", e->color, -1, -1, NULL, 0);
	else
		key(buf, cap, len, rp_inj_names[e->kind], e->color, e->pt, e->to, e->pts, e->npts);
	(void)p;
}

bool rp_plan_verify(const rp_plan *p, char *err, size_t cap)
{
	vctx v;
	memset(&v, 0, sizeof v);
	v.size = p->size;
	gr_referee *r;
	if (gr_referee_new(&r, p->size, NULL, on_event, &v) != 0) {
		snprintf(err, cap, "out of memory");
		return false;
	}
	unsigned char cells[19 * 19];
	memcpy(cells, p->start, sizeof cells);
	gr_board g;
	gr_board_init(&g, p->size);
	for (int i = 0; i < p->size * p->size; i++)
		if (cells[i])
			gr_referee_setup(r, (gr_color)cells[i], gr_pt(&g, i % p->size, i / p->size));
	gr_referee_observe(r, 0, cells);
	bool ok = true;
	if (v.len) {
		snprintf(err, cap, "at the start the referee says: %s", v.got);
		ok = false;
	}
	for (int i = 0; i < p->nsteps && ok; i++) {
		const rp_step *s = &p->steps[i];
		v.len = 0;
		v.got[0] = 0;
		if (s->kind == STEP_PASS) {
			gr_referee_command(r, i + 1, GR_CMD_PASS, GR_EMPTY);
		} else {
			for (int k = 0; k < s->nact; k++) {
				const rp_act *a = &p->acts[s->act0 + k];
				cells[a->x + a->y * p->size] = a->kind == ACT_PLACE ? (unsigned char)a->color : 0;
			}
			gr_referee_observe(r, i + 1, cells);
		}
		char want[4096];
		size_t wl = 0;
		want[0] = 0;
		for (int k = 0; k < s->nev; k++)
			want_key(p, &p->events[s->ev0 + k], want, sizeof want, &wl);
		if (strcmp(want, v.got)) {
			snprintf(err, cap, "step %d (move %d): the referee says [%s], the plan [%s]", i + 1, s->move, v.got, want);
			ok = false;
		}
	}
	gr_referee_free(r);
	return ok;
}

int rp_pick_injections(const gr_record *rec, int nmoves, int n, int bump, uint64_t seed, rp_inject *out)
{
	int got = 0;
	rs_rng g = {rs_hash(seed, 0x91c4)};
	int warned[3] = {0, 0, 0};
	char err[256];
	for (int tries = 0; tries < 400 && got < n && nmoves >= 4; tries++) {
		/* a kind among the least used so far, so that they come in turn */
		int used[INJ_KINDS] = {0}, least = 1 << 30, pool[INJ_KINDS], np = 0;
		for (int k = 0; k < got; k++)
			used[out[k].kind]++;
		for (int k = 0; k < INJ_KINDS; k++)
			least = used[k] < least ? used[k] : least;
		for (int k = 0; k < INJ_KINDS; k++)
			if (used[k] == least || tries > 200)
				pool[np++] = k;
		rp_inject c = {pool[rs_int(&g, np)], 2 + rs_int(&g, nmoves - 3)};
		const gr_move *m = gr_record_move(rec, c.move - 1);
		if (warns(c.kind) && warned[m->color])
			continue;
		bool close = c.move == bump;
		for (int k = 0; k < got; k++)
			close |= abs(out[k].move - c.move) < 4;
		if (close)
			continue;
		rp_inject all[64];
		int na = 0;
		for (int k = 0; k < got; k++)
			all[na++] = out[k];
		all[na++] = c;
		for (int i = 1; i < na; i++)
			for (int j = i; j > 0 && all[j - 1].move > all[j].move; j--) {
				rp_inject t = all[j];
				all[j] = all[j - 1];
				all[j - 1] = t;
			}
		rp_plan p;
		int rc = rp_plan_build(&p, rec, nmoves, all, na, bump, seed, err, sizeof err);
		bool ok = rc == 0 && rp_plan_verify(&p, err, sizeof err);
		rp_plan_free(&p);
		if (!ok)
			continue;
		memcpy(out, all, sizeof(rp_inject) * (size_t)na);
		got = na;
		if (warns(c.kind))
			warned[m->color] = 1;
	}
	return got;
}
