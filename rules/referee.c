/* goref rules core: the referee. See referee.h. */
#include "referee.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_SEARCH_STONES 8 /* missed moves the referee tries to order */
/* Positions the order search may visit for one observation: with many new
 * stones the orders are up to 8! * 8!, and a hostile or unlucky observation
 * must still be answered at once (issue 17). 20000 positions take about
 * 5 ms on one core of the development machine (README). */
#define SEARCH_BUDGET 20000

typedef enum phase {
	PH_PLAYING = 0,
	PH_ENDED,    /* "end" said: lifted stones are dead */
	PH_FINISHED, /* a result is known */
} phase;

/* A ruling made about points of the board, and what the board showed then. */
typedef struct ruling {
	gr_event_type type;
	int npoints;
	int points[GR_MAX_POINTS];
	uint8_t seen[GR_MAX_POINTS]; /* per point: 1 + the colour seen when ruled, 0 if not ruled */
	bool active;
} ruling;

struct gr_referee {
	int size;
	gr_referee_options opt;
	gr_event_cb cb;
	void *ud;
	gr_game *game;
	gr_record *rec;
	phase ph;
	bool have_t;
	double t;
	int warnings[3];
	char result[24];
	gr_count count;
	bool counted;

	int last_move_pt;    /* the last stone accepted, or GR_NONE */
	gr_color last_mover; /* its colour */

	/* the last capture: stones off the record, some maybe still on the board */
	uint8_t capture_color[GR_MAX_POINTS]; /* per point: colour still allowed there, or 0 */
	int cap_list[GR_MAX_POINTS], ncap_list;
	bool cap_open; /* not all of it is off the board yet */
	gr_color capturer;
	int capture_move;
	/* void stones (illegal, double move) and missed captures that must come off */
	uint8_t lift_color[GR_MAX_POINTS];
	int nlift; /* how many lift marks are set */

	/* a change that is not (yet) a ruling: how long it has lasted, and who
	 * had moved last when it was first seen */
	uint64_t pending_sig;
	int pending_count;
	gr_color pending_mover;

	ruling last; /* the last ruling that asked for the board to be put right */

	bool dead[GR_MAX_POINTS];
	unsigned char cells[GR_MAX_POINTS]; /* the last observation, by point */
	bool observed;

	/* options.setup: the handicap stones being put down on an empty board
	 * (hc_cells: the last position seen with black stones only, row by row,
	 * hc_n times in a row since hc_t; hc_t0: the empty board's time) */
	bool hc_wait, hc_done;
	double hc_t0, hc_t;
	int hc_n;
	unsigned char hc_cells[GR_MAX_POINTS];
};

bool gr_event_is_ruling(gr_event_type t)
{
	return t == GR_EV_ILLEGAL || t == GR_EV_DOUBLE_MOVE || t == GR_EV_MISSED_CAPTURE ||
	       t == GR_EV_WRONG_REMOVAL || t == GR_EV_TAKEBACK || t == GR_EV_MOVED_STONE || t == GR_EV_DISTURBED;
}

const char *gr_event_type_name(gr_event_type t)
{
	static const char *names[] = {
		"move", "capture", "illegal", "double_move", "missed_capture", "wrong_removal",
		"takeback", "moved_stone", "disturbed", "restored", "warning", "pass", "resign",
		"end", "dead", "count", "result", "ambiguous", "accepted", "lifted", "unexplained",
		"error",
	};
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

int gr_event_type_parse(const char *name)
{
	for (int t = GR_EV_MOVE; t <= GR_EV_ERROR; t++)
		if (name && !strcmp(name, gr_event_type_name((gr_event_type)t)))
			return t;
	return -1;
}

const char *gr_command_name(gr_command c)
{
	static const char *names[] = {"pass", "resign", "end", "count", "accept", "restore"};
	return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "unknown";
}

int gr_command_parse(const char *s)
{
	for (int c = GR_CMD_PASS; c <= GR_CMD_RESTORE; c++)
		if (s && !strcmp(s, gr_command_name((gr_command)c)))
			return c;
	return -1;
}

void gr_referee_options_init(gr_referee_options *o)
{
	memset(o, 0, sizeof *o);
	o->komi = GR_KOMI_DEFAULT;
	o->persist = 2;
	o->repetition = GR_REP_FORBID;
	o->disturbed_threshold = 4;
}

static const char *color_word(gr_color c) { return c == GR_BLACK ? "Black" : c == GR_WHITE ? "White" : "?"; }

static const gr_board *rboard(const gr_referee *r) { return gr_game_board(r->game); }

int gr_referee_new(gr_referee **out, int size, const gr_referee_options *opt, gr_event_cb cb, void *ud)
{
	if (!out)
		return GR_EINVAL;
	*out = NULL;
	if (size < GR_MIN_SIZE || size > GR_MAX_SIZE)
		return GR_ERANGE;
	gr_referee *r = gr_malloc(sizeof *r);
	if (!r)
		return GR_ENOMEM;
	memset(r, 0, sizeof *r);
	r->size = size;
	if (opt)
		r->opt = *opt;
	else
		gr_referee_options_init(&r->opt);
	if (r->opt.persist < 1)
		r->opt.persist = 1;
	if (r->opt.disturbed_threshold < 2)
		r->opt.disturbed_threshold = 2;
	r->cb = cb;
	r->ud = ud;
	int rc = gr_game_new(&r->game, size);
	if (rc == 0)
		rc = gr_record_new(&r->rec, size);
	if (rc != 0) {
		gr_referee_free(r);
		return rc;
	}
	gr_game_set_repetition_rule(r->game, r->opt.repetition);
	gr_record_set_komi(r->rec, r->opt.komi * 2);
	r->last_move_pt = GR_NONE;
	*out = r;
	return 0;
}

void gr_referee_free(gr_referee *r)
{
	if (!r)
		return;
	gr_game_free(r->game);
	gr_record_free(r->rec);
	gr_free(r);
}

int gr_referee_setup(gr_referee *r, gr_color c, int pt)
{
	if (r->observed || gr_record_move_count(r->rec) > 0)
		return GR_EINVAL;
	int rc = gr_game_setup(r->game, c, pt);
	if (rc == 0 && c != GR_EMPTY)
		rc = gr_record_add_setup(r->rec, c, pt);
	if (rc == 0 && gr_record_setup_count(r->rec) > 0) {
		/* a handicap game: White moves first */
		gr_game_set_to_move(r->game, GR_WHITE);
		gr_record_set_first_player(r->rec, GR_WHITE);
	}
	return rc;
}

const gr_record *gr_referee_record(const gr_referee *r) { return r->rec; }
const gr_board *gr_referee_board(const gr_referee *r) { return rboard(r); }
gr_color gr_referee_to_move(const gr_referee *r) { return gr_game_to_move(r->game); }
int gr_referee_warnings(const gr_referee *r, gr_color c)
{
	return (c == GR_BLACK || c == GR_WHITE) ? r->warnings[c] : 0;
}
bool gr_referee_finished(const gr_referee *r) { return r->ph == PH_FINISHED; }

/* ---- events */

static void emit(gr_referee *r, gr_event *e)
{
	e->t = r->t;
	if (r->cb)
		r->cb(e, r->ud);
}

static gr_event new_event(gr_event_type type)
{
	gr_event e;
	memset(&e, 0, sizeof e);
	e.type = type;
	e.point = GR_NONE;
	e.to = GR_NONE;
	return e;
}

/* Adds a ruling's words to the record: to the last move's comment. */
static void note(gr_referee *r, const char *msg)
{
	gr_record_append_comment(r->rec, gr_record_move_count(r->rec) - 1, msg);
}

static int move_number(const gr_referee *r) { return gr_record_move_count(r->rec); }

static void finish(gr_referee *r, const char *result, const char *msg)
{
	r->ph = PH_FINISHED;
	snprintf(r->result, sizeof r->result, "%s", result);
	gr_record_set_prop(r->rec, "RE", result);
	gr_event e = new_event(GR_EV_RESULT);
	e.result = r->result;
	e.message = msg;
	e.count = r->counted ? &r->count : NULL;
	note(r, msg);
	emit(r, &e);
}

static void warn(gr_referee *r, gr_color c, const char *why, const char *article)
{
	r->warnings[c]++;
	gr_record_set_warnings(r->rec, c, r->warnings[c]);
	char msg[256];
	snprintf(msg, sizeof msg, "Warning to %s (%s): %s. %s", color_word(c),
	         r->warnings[c] == 1 ? "first" : "second", why,
	         r->warnings[c] == 1 ? "Each warning costs a stone in the count; a second loses the game."
	                             : "A second warning loses the game (article 24.2).");
	gr_event e = new_event(GR_EV_WARNING);
	e.color = c;
	e.warnings = r->warnings[c];
	e.article = article;
	e.message = msg;
	note(r, msg);
	emit(r, &e);
	if (r->warnings[c] >= 2 && r->ph != PH_FINISHED) {
		char m2[128];
		snprintf(m2, sizeof m2, "%s has a second warning and loses the game (article 24.2).", color_word(c));
		finish(r, c == GR_BLACK ? "W+F" : "B+F", m2);
	}
}

static void points_text(const gr_board *b, const int *pts, int n, char *buf, size_t cap)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && k + 8 < cap; i++) {
		char name[8];
		int w = snprintf(buf + k, cap - k, "%s%s", i ? " " : "", gr_point_name(b, pts[i], name));
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

/* An event about a list of points, its message the prefix and the points. */
static void emit_points(gr_referee *r, gr_event_type type, gr_color c, int move, const int *pts, int n,
                        const char *prefix)
{
	char list[512], msg[700];
	points_text(rboard(r), pts, n, list, sizeof list);
	snprintf(msg, sizeof msg, "%s%s.", prefix, list);
	gr_event e = new_event(type);
	e.color = c;
	e.move = move;
	e.points = pts;
	e.npoints = n;
	e.message = msg;
	emit(r, &e);
}

/* The capture event: the stones a move took are off the board. */
static void emit_capture(gr_referee *r, gr_color c, int move, const int *pts, int n)
{
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%s took off %d stone%s: ", color_word(c), n, n == 1 ? "" : "s");
	emit_points(r, GR_EV_CAPTURE, c, move, pts, n, prefix);
}

/* ---- judging observations */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

typedef struct diff {
	int add[GR_MAX_POINTS], nadd;   /* empty in the record, a stone seen */
	int rem[GR_MAX_POINTS], nrem;   /* a stone in the record, empty seen */
	int swap[GR_MAX_POINTS], nswap; /* a stone in the record, the other colour seen */
	uint64_t sig;
} diff;

/* Compares what was seen with the record, leaving out the points where what
 * is seen is allowed for now (captures not yet lifted, void stones not yet
 * lifted). */
static void compute_diff(const gr_referee *r, const unsigned char *seen, diff *d)
{
	const gr_board *b = rboard(r);
	d->nadd = d->nrem = d->nswap = 0;
	d->sig = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			uint8_t want = b->color[pt], got = seen[pt];
			if (want == got)
				continue;
			if (got != GR_EMPTY && (got == r->capture_color[pt] || got == r->lift_color[pt]))
				continue;
			if (r->last.active && r->last.seen[pt] == got + 1)
				continue; /* ruled on already: waiting for it to be put right */
			if (want == GR_EMPTY)
				d->add[d->nadd++] = pt;
			else if (got == GR_EMPTY)
				d->rem[d->nrem++] = pt;
			else
				d->swap[d->nswap++] = pt;
			d->sig = mix(d->sig, (uint64_t)pt * 4 + got);
		}
}

/* Asks for the stone of colour c at pt to come off the board; it is allowed
 * there until it does (track_lifting reports it then). */
static void ask_lift(gr_referee *r, int pt, gr_color c)
{
	if (!r->lift_color[pt])
		r->nlift++;
	r->lift_color[pt] = (uint8_t)c;
}

/* Lifts, captures taken off: updates the "allowed for now" marks from what
 * is seen and reports what came off. */
static void track_lifting(gr_referee *r, const unsigned char *seen)
{
	const gr_board *b = rboard(r);
	if (r->cap_open) {
		/* the marks stay until all of it is off: a stone dropped back
		 * while lifting is still part of the capture */
		int left = 0;
		/* a captured point showing the other colour is not lifted either
		 * (a stone swapped, or played there early): it is judged as a
		 * change, and the capture stays open until the point is empty */
		for (int i = 0; i < r->ncap_list; i++)
			left += seen[r->cap_list[i]] != GR_EMPTY;
		if (!left) {
			/* all of the last capture is off the board */
			r->cap_open = false;
			for (int i = 0; i < r->ncap_list; i++)
				r->capture_color[r->cap_list[i]] = 0;
			emit_capture(r, r->capturer, r->capture_move, r->cap_list, r->ncap_list);
		}
	}
	int lift_pts[GR_MAX_POINTS], lifted = 0;
	for (int y = 0; y < b->size && r->nlift > 0; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (r->lift_color[pt] && seen[pt] != r->lift_color[pt]) {
				r->lift_color[pt] = 0;
				r->nlift--;
				lift_pts[lifted++] = pt;
			}
		}
	if (lifted)
		emit_points(r, GR_EV_LIFTED, GR_EMPTY, 0, lift_pts, lifted, "Off the board as asked: ");
}

/* A capture that was not taken off when the opponent played (18.2). */
static void judge_missed_capture(gr_referee *r, const unsigned char *seen)
{
	if (!r->cap_open)
		return;
	r->cap_open = false;
	int pts[GR_MAX_POINTS], n = 0;
	const gr_board *b = rboard(r);
	for (int i = 0; i < r->ncap_list; i++) {
		int pt = r->cap_list[i];
		if (r->capture_color[pt] && seen[pt] == r->capture_color[pt]) {
			pts[n++] = pt;
			ask_lift(r, pt, (gr_color)r->capture_color[pt]);
		}
		r->capture_color[pt] = 0;
	}
	if (!n) {
		/* all of it off the board after all (a point played on as it was
		 * lifted): the capture is done */
		emit_capture(r, r->capturer, r->capture_move, r->cap_list, r->ncap_list);
		return;
	}
	gr_color who = r->capturer;
	char list[512], msg[700];
	points_text(b, pts, n, list, sizeof list);
	snprintf(msg, sizeof msg,
	         "%s did not take off the captured stone%s %s before %s played (article 18.2): "
	         "lift %s now.",
	         color_word(who), n == 1 ? "" : "s", list, color_word(gr_other(who)), n == 1 ? "it" : "them");
	gr_event e = new_event(GR_EV_MISSED_CAPTURE);
	e.color = who;
	e.move = r->capture_move;
	e.points = pts;
	e.npoints = n;
	e.article = "18.2";
	e.message = msg;
	note(r, msg);
	emit(r, &e);
	warn(r, who, "captured stones left on the board", "18.2");
}

/* Plays an accepted move into the game and the record; marks its captures
 * as allowed until they are lifted. */
static void accept_move(gr_referee *r, gr_color c, int pt, const unsigned char *seen)
{
	const gr_board *b = rboard(r);
	const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
	bool was_opp[4];
	for (int k = 0; k < 4; k++)
		was_opp[k] = b->color[nb[k]] == gr_other(c);
	if (gr_game_state_of(r->game) == GR_ENDED_PASSES)
		gr_game_resume(r->game);
	gr_legality l = gr_game_play(r->game, c, pt);
	gr_record_add_move(r->rec, c, pt, r->t, NULL);
	r->last_move_pt = pt;
	r->last_mover = c;
	/* the captured groups: their stone lists outlive them (board.h) */
	int caps[GR_MAX_POINTS], ncap = 0, still = 0;
	for (int k = 0; k < 4; k++) {
		if (!was_opp[k] || b->color[nb[k]] != GR_EMPTY)
			continue;
		bool listed = false;
		for (int i = 0; i < ncap && !listed; i++)
			listed = caps[i] == nb[k];
		if (listed)
			continue;
		int s = nb[k];
		do {
			caps[ncap++] = s;
			if (seen[s] == gr_other(c)) {
				r->capture_color[s] = (uint8_t)gr_other(c);
				still++;
			}
			s = b->next[s];
		} while (s != nb[k]);
	}
	/* in board order, top row first */
	for (int i = 1; i < ncap; i++)
		for (int j = i; j > 0 && caps[j - 1] > caps[j]; j--) {
			int t = caps[j];
			caps[j] = caps[j - 1];
			caps[j - 1] = t;
		}
	if (ncap) {
		r->capturer = c;
		r->capture_move = move_number(r);
		if (still) {
			r->cap_open = true;
			r->ncap_list = ncap;
			memcpy(r->cap_list, caps, sizeof(int) * (size_t)ncap);
		}
	}
	char name[8], msg[256];
	snprintf(msg, sizeof msg, "%s %s.%s", color_word(c), gr_point_name(b, pt, name),
	         ncap ? (still ? " It captures: take the stones off." : "") : "");
	gr_event e = new_event(GR_EV_MOVE);
	e.color = c;
	e.point = pt;
	e.move = move_number(r);
	e.points = ncap ? caps : NULL;
	e.npoints = ncap;
	e.message = msg;
	emit(r, &e);
	if (ncap && !still)
		emit_capture(r, c, move_number(r), caps, ncap);
	if (l == GR_REPETITION) {
		/* a repetition under draw / replay / no-result ends the game */
		const char *res = r->opt.repetition == GR_REP_DRAW     ? "Draw"
		                  : r->opt.repetition == GR_REP_REPLAY ? "Replay"
		                                                       : "Void";
		char m3[200];
		snprintf(m3, sizeof m3,
		         "The whole board repeats (article 20.3): by this tournament's rule the game %s.",
		         r->opt.repetition == GR_REP_DRAW     ? "is a draw"
		         : r->opt.repetition == GR_REP_REPLAY ? "is to be replayed"
		                                              : "has no result");
		finish(r, res, m3);
	}
}

static const char *illegal_article(gr_legality l)
{
	switch (l) {
	case GR_SUICIDE: return "19";
	case GR_KO: return "20.1";
	case GR_REPETITION: return "20";
	default: return "2";
	}
}

/* A single stone of the side to move that the rules do not allow. */
static void void_move(gr_referee *r, gr_color c, int pt, gr_legality l)
{
	char name[8], msg[300];
	const gr_board *b = rboard(r);
	const char *why = l == GR_SUICIDE ? "a stone may not be played where it has no liberty and captures nothing"
	                  : l == GR_KO    ? "a ko may not be retaken at once: a threat must come first"
	                  : l == GR_REPETITION ? "the move would repeat an earlier whole-board position"
	                                       : "the point is taken";
	snprintf(msg, sizeof msg, "%s %s is void: %s (article %s). Lift the stone; %s to play.", color_word(c),
	         gr_point_name(b, pt, name), why, illegal_article(l), color_word(gr_other(c)));
	/* void: counts as a pass for the record (article 19) */
	gr_game_forfeit(r->game, c);
	gr_record_add_move(r->rec, c, GR_PASS, r->t, NULL);
	ask_lift(r, pt, c);
	gr_event e = new_event(GR_EV_ILLEGAL);
	e.color = c;
	e.point = pt;
	e.move = move_number(r);
	e.rule = gr_legality_name(l);
	e.article = illegal_article(l);
	e.message = msg;
	note(r, msg);
	emit(r, &e);
	if (l == GR_KO)
		warn(r, c, "ko retaken without a threat", "18.3");
}

static void double_move(gr_referee *r, gr_color c, int pt)
{
	char name[8], msg[300];
	if (r->last_move_pt == GR_NONE && move_number(r) == 0)
		snprintf(msg, sizeof msg, "%s played out of turn: %s is void (article 17.2). Lift it; %s to play.",
		         color_word(c), gr_point_name(rboard(r), pt, name), color_word(gr_other(c)));
	else
		snprintf(msg, sizeof msg, "%s played twice in a row: %s is void (article 17.2). Lift it; %s to play.",
		         color_word(c), gr_point_name(rboard(r), pt, name), color_word(gr_other(c)));
	ask_lift(r, pt, c);
	gr_event e = new_event(GR_EV_DOUBLE_MOVE);
	e.color = c;
	e.point = pt;
	e.move = move_number(r);
	e.article = "17.2";
	e.message = msg;
	note(r, msg);
	emit(r, &e);
	warn(r, c, "a second move in a row", "17.2");
}

/* Orders of the new stones, alternating from the side to move, that legal
 * moves explain so that the board becomes what is seen (captured stones may
 * still be on it). */
typedef struct search {
	const gr_referee *r;
	const unsigned char *seen;
	int stones[2][MAX_SEARCH_STONES]; /* [0]: the side to move's, [1]: the other's */
	int n[2];
	int order[MAX_SEARCH_STONES * 2];
	int best[MAX_SEARCH_STONES * 2];
	int total;
	int found;
	bool differ;    /* two orders found that leave the game in different states */
	bool best_ko;   /* the kept order ends with a ko to wait on */
	uint64_t end_hash; /* the first order's end: its stones and its ko */
	int end_ko;
	uint8_t end_ko_color;
	long nodes;     /* positions visited so far */
	bool exhausted; /* the budget ran out before the search ended */
	bool allow_missing; /* earlier stones may be missing (judged apart) */
	bool used[2][MAX_SEARCH_STONES];
} search;

static bool matches_seen(const search *s, const gr_board *start, const gr_board *b)
{
	const gr_referee *r = s->r;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			uint8_t got = s->seen[pt], want = b->color[pt];
			if (got == want)
				continue;
			/* a stone taken in these moves, or by the move before, not yet lifted */
			if (want == GR_EMPTY && got != GR_EMPTY &&
			    (start->color[pt] == got || got == r->capture_color[pt] || got == r->lift_color[pt]))
				continue;
			/* ruled on already, still waiting to be put right */
			if (r->last.active && r->last.seen[pt] == got + 1 && start->color[pt] == want)
				continue;
			/* an earlier stone missing: not the moves' doing, judged apart */
			if (s->allow_missing && got == GR_EMPTY && start->color[pt] == want)
				continue;
			return false;
		}
	return true;
}

static void search_orders(search *s, const gr_board *b, gr_color c, int depth)
{
	/* once two orders differ, the search goes on only for an order that
	 * ends with no ko to wait on (below) */
	if ((s->differ && !s->best_ko) || s->exhausted)
		return;
	if (++s->nodes > SEARCH_BUDGET) {
		s->exhausted = true;
		return;
	}
	if (depth == s->total) {
		if (matches_seen(s, rboard(s->r), b)) {
			if (s->found++ == 0) {
				memcpy(s->best, s->order, sizeof(int) * (size_t)depth);
				s->end_hash = b->hash;
				s->end_ko = b->ko;
				s->end_ko_color = b->ko_color;
				s->best_ko = b->ko != GR_NONE;
			} else if (b->hash != s->end_hash || b->ko != s->end_ko ||
			           (b->ko != GR_NONE && b->ko_color != s->end_ko_color)) {
				s->differ = true;
				/* the order kept is one of several: of those, one that
				 * leaves no ko to wait on. Kept with a ko capture last, a
				 * ko retaken later in the true order (legal there) would
				 * be ruled an illegal retake: a false ruling against a
				 * player; the other way, a true retake at once after such
				 * a batch goes unruled (the players are asked to check
				 * the order either way) */
				if (s->best_ko && b->ko == GR_NONE) {
					memcpy(s->best, s->order, sizeof(int) * (size_t)depth);
					s->best_ko = false;
				}
			}
		}
		return;
	}
	int side = depth % 2;
	for (int i = 0; i < s->n[side]; i++) {
		if (s->used[side][i])
			continue;
		int pt = s->stones[side][i];
		uint64_t after;
		if (gr_board_check(b, c, pt, &after) != GR_LEGAL)
			continue;
		if (gr_game_has_position(s->r->game, gr_position_key(after, gr_other(c))))
			continue;
		gr_board next = *b;
		gr_board_play_legal(&next, c, pt);
		s->used[side][i] = true;
		s->order[depth] = pt;
		search_orders(s, &next, gr_other(c), depth + 1);
		s->used[side][i] = false;
	}
}

/* Announces a ruling about earlier stones and remembers it, so that the
 * board's return to the record is seen ("restored") and "accept" knows what
 * to let stand. */
static void rule_on(gr_referee *r, gr_event *e, const diff *d, const unsigned char *seen)
{
	if (!r->last.active) {
		memset(r->last.seen, 0, sizeof r->last.seen);
		r->last.npoints = 0;
	}
	r->last.type = e->type;
	r->last.active = true;
	const int *lists[3] = {d->add, d->rem, d->swap};
	int ns[3] = {d->nadd, d->nrem, d->nswap};
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < ns[k]; i++) {
			int pt = lists[k][i];
			if (!r->last.seen[pt])
				r->last.points[r->last.npoints++] = pt;
			r->last.seen[pt] = (uint8_t)(seen[pt] + 1);
		}
	r->pending_count = 0;
	note(r, e->message);
	emit(r, e);
}

static bool persists(gr_referee *r, const diff *d)
{
	if (r->pending_count > 0 && r->pending_sig == d->sig) {
		r->pending_count++;
	} else {
		r->pending_sig = d->sig;
		r->pending_count = 1;
		r->pending_mover = r->last_move_pt != GR_NONE ? r->last_mover : GR_EMPTY;
	}
	return r->pending_count == r->opt.persist;
}

static void judge_leftover(gr_referee *r, const unsigned char *seen, const diff *d);

/* New stones: moves when legal moves explain them (stones they capture may
 * be gone or still there); else a void stone or a double move. Returns true
 * when the new stones were dealt with; what else differs is then judged on
 * its own. */
static bool judge_new_stones(gr_referee *r, const unsigned char *seen, const diff *d)
{
	const gr_board *b = rboard(r);
	gr_color to_move = gr_game_to_move(r->game);
	char msg[700], list[512];
	if (d->nadd == 0 || d->nswap != 0 || d->nadd > MAX_SEARCH_STONES * 2)
		return false;
	/* one stone gone and one of its colour come: a stone moved (or taken
	 * back), judged as such rather than as a move plus a removal */
	if (d->nadd == 1 && d->nrem == 1 && seen[d->add[0]] == b->color[d->rem[0]])
		return false;
	/* the common case, one stone of the side to move and nothing gone: a
	 * legal move needs no search (its captures may be on or off) */
	if (d->nadd == 1 && d->nrem == 0 && seen[d->add[0]] == to_move &&
	    gr_game_check(r->game, to_move, d->add[0]) == GR_LEGAL) {
		judge_missed_capture(r, seen);
		if (r->ph == PH_PLAYING)
			accept_move(r, to_move, d->add[0], seen);
		return true;
	}
	{
		search s;
		memset(&s, 0, sizeof s);
		s.r = r;
		s.seen = seen;
		for (int i = 0; i < d->nadd; i++) {
			int pt = d->add[i];
			int side = seen[pt] == to_move ? 0 : 1;
			if (s.n[side] < MAX_SEARCH_STONES)
				s.stones[side][s.n[side]++] = pt;
		}
		s.total = s.n[0] + s.n[1];
		/* a single new stone is a move even when an earlier stone or two
		 * went missing at the same time (judged apart, once it lasts); with
		 * several new stones and stones gone that no capture explains, the
		 * board was more likely disturbed than played on */
		s.allow_missing = d->nadd == 1 && d->nrem < r->opt.disturbed_threshold;
		bool alternates = s.total == d->nadd && (s.n[0] == s.n[1] || s.n[0] == s.n[1] + 1);
		if (alternates) {
			search_orders(&s, b, to_move, 0);
			if (s.found >= 1) {
				/* orders that leave the game otherwise (other stones
				 * captured, another ko to wait on), or the budget ran out
				 * before one could be ruled out. Orders that only differ
				 * in which came first and leave the same board and ko are
				 * no matter for the rules: a camera that sees the board
				 * seconds apart sees that all the time (the record keeps
				 * one of them, and says so in its comment) */
				bool ambiguous = s.differ || s.exhausted;
				if (ambiguous) {
					points_text(b, d->add, d->nadd, list, sizeof list);
					snprintf(msg, sizeof msg,
					         "%d stones appeared at once (%s) and %s: recorded in one of them; check "
					         "the order with the players.",
					         d->nadd, list,
					         s.found > 1 ? "more than one order of moves explains them"
					                     : "an order of moves explains them, too many to check for another");
					gr_event e = new_event(GR_EV_AMBIGUOUS);
					e.points = d->add;
					e.npoints = d->nadd;
					e.message = msg;
					emit(r, &e);
				}
				gr_color c = to_move;
				for (int i = 0; i < s.total && r->ph == PH_PLAYING; i++) {
					judge_missed_capture(r, seen);
					if (r->ph != PH_PLAYING)
						break;
					accept_move(r, c, s.best[i], seen);
					c = gr_other(c);
				}
				if (ambiguous)
					note(r, msg);
				else if (s.found > 1) {
					points_text(b, d->add, d->nadd, list, sizeof list);
					snprintf(msg, sizeof msg,
					         "%d stones appeared at once (%s): recorded in one order; every order "
					         "leaves the same position.", d->nadd, list);
					note(r, msg);
				}
				return true;
			}
			/* the budget ran out with no order found: not taken as moves;
			 * the board is judged as it stands (disturbed, 17.6), once the
			 * change lasts */
		}
		/* a single stone that is not a legal move, and nothing else
		 * changed (with other changes, the whole is judged as one) */
		if (d->nadd == 1) {
			int pt = d->add[0];
			gr_color c = (gr_color)seen[pt];
			if (c == to_move) {
				gr_legality l = gr_game_check(r->game, c, pt);
				if (l == GR_REPETITION && r->opt.repetition != GR_REP_FORBID && s.allow_missing) {
					/* a repetition the tournament does not forbid: the
					 * move stands and ends the game (article 20.3) */
					judge_missed_capture(r, seen);
					if (r->ph == PH_PLAYING)
						accept_move(r, c, pt, seen);
					return true;
				}
				if (l != GR_LEGAL && d->nrem == 0) {
					judge_missed_capture(r, seen);
					if (r->ph == PH_PLAYING)
						void_move(r, c, pt, l);
					return true;
				}
			} else if (d->nrem == 0) {
				double_move(r, c, pt);
				return true;
			}
		}
	}
	return false;
}

static void judge_change(gr_referee *r, const unsigned char *seen, const diff *d)
{
	if (judge_new_stones(r, seen, d)) {
		if (r->ph != PH_PLAYING)
			return;
		/* what the moves do not explain (an earlier stone gone) */
		diff rest;
		compute_diff(r, seen, &rest);
		if (rest.nadd + rest.nrem + rest.nswap == 0)
			r->pending_count = 0;
		else
			judge_leftover(r, seen, &rest);
		return;
	}
	judge_leftover(r, seen, d);
}

/* Changes to earlier stones: rulings once they last. */
static void judge_leftover(gr_referee *r, const unsigned char *seen, const diff *d)
{
	const gr_board *b = rboard(r);
	char name[8], name2[8], msg[700], list[512];

	/* nothing is ruled until the change has lasted; once it has, there is
	 * always a ruling, and one only: every branch below ends in rule_on */
	if (!persists(r, d))
		return;

	/* the last stone lifted and played elsewhere: a takeback (17.3) */
	if (d->nadd == 1 && d->nrem == 1 && d->nswap == 0 && seen[d->add[0]] == b->color[d->rem[0]]) {
		int from = d->rem[0], to = d->add[0];
		gr_color c = (gr_color)b->color[from];
		bool takeback = from == r->last_move_pt && c == r->last_mover;
		gr_event e = new_event(takeback ? GR_EV_TAKEBACK : GR_EV_MOVED_STONE);
		e.color = c;
		e.point = from;
		e.to = to;
		if (takeback) {
			e.move = move_number(r);
			e.article = "17.3";
			snprintf(msg, sizeof msg,
			         "%s took back the stone at %s and played it at %s (article 17.3): put it back "
			         "at %s.",
			         color_word(c), gr_point_name(b, from, name), gr_point_name(b, to, name2),
			         gr_point_name(b, from, name));
		} else {
			e.article = "17.5";
			snprintf(msg, sizeof msg,
			         "The %s stone at %s has moved to %s (article 17.5): put it back at %s.",
			         c == GR_BLACK ? "black" : "white", gr_point_name(b, from, name),
			         gr_point_name(b, to, name2), gr_point_name(b, from, name));
		}
		e.message = msg;
		rule_on(r, &e, d, seen);
		if (takeback)
			warn(r, c, "a stone taken back and played elsewhere", "17.3");
		return;
	}

	/* the last stone lifted by the player who played it, the opponent not
	 * yet answering: a stone released is played (article 17.3); lifting
	 * it is a takeback begun. It goes back; the warning of 17.3 comes
	 * with playing it elsewhere (above), not with the lifting */
	if (d->nadd == 0 && d->nswap == 0 && d->nrem == 1 && d->rem[0] == r->last_move_pt &&
	    b->color[d->rem[0]] == r->last_mover && r->pending_mover == r->last_mover) {
		int from = d->rem[0];
		gr_event e = new_event(GR_EV_TAKEBACK);
		e.color = r->last_mover;
		e.point = from;
		e.to = GR_NONE;
		e.move = move_number(r);
		e.article = "17.3";
		snprintf(msg, sizeof msg,
		         "%s lifted the stone just played at %s (article 17.3: a stone released from the hand "
		         "is played): put it back at %s.",
		         color_word(r->last_mover), gr_point_name(b, from, name), gr_point_name(b, from, name2));
		e.message = msg;
		rule_on(r, &e, d, seen);
		return;
	}

	int changed = d->nadd + d->nrem + d->nswap;
	/* stones taken off that the rules did not take */
	if (d->nadd == 0 && d->nswap == 0 && d->nrem > 0 && d->nrem < r->opt.disturbed_threshold * 4) {
		gr_color c = (gr_color)b->color[d->rem[0]];
		bool one_colour = true;
		for (int i = 1; i < d->nrem; i++)
			one_colour &= b->color[d->rem[i]] == c;
		if (one_colour) {
			points_text(b, d->rem, d->nrem, list, sizeof list);
			/* who lifted them: the player who had moved last when they
			 * went, when they are that player's opponent's (article 18.1) */
			bool by_opponent = r->pending_mover == gr_other(c);
			snprintf(msg, sizeof msg,
			         "%s stone%s %s %s liberties but %s taken off%s: put %s back.",
			         c == GR_BLACK ? "Black" : "White", d->nrem == 1 ? "" : "s", list,
			         d->nrem == 1 ? "has" : "have", d->nrem == 1 ? "was" : "were",
			         by_opponent ? " (article 18.1)" : "", d->nrem == 1 ? "it" : "them");
			gr_event e = new_event(GR_EV_WRONG_REMOVAL);
			e.color = by_opponent ? gr_other(c) : c;
			e.points = d->rem;
			e.npoints = d->nrem;
			e.article = by_opponent ? "18.1" : NULL;
			e.message = msg;
			rule_on(r, &e, d, seen);
			if (by_opponent)
				warn(r, gr_other(c), "stones with liberties taken off", "18.1");
			return;
		}
	}

	/* anything else that lasts (stones of both colours taken off, stones
	 * come that no move explains, a colour changed, a region slid): the
	 * board is disturbed (17.6), to be restored from the record */
	int pts[GR_MAX_POINTS], n = 0;
	for (int i = 0; i < d->nadd; i++)
		pts[n++] = d->add[i];
	for (int i = 0; i < d->nrem; i++)
		pts[n++] = d->rem[i];
	for (int i = 0; i < d->nswap; i++)
		pts[n++] = d->swap[i];
	/* in board order, top row first */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && pts[j - 1] > pts[j]; j--) {
			int t = pts[j];
			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	/* the board as the record has it, on the points that differ */
	size_t k = 0;
	list[0] = 0;
	for (int i = 0; i < n && k + 16 < sizeof list; i++) {
		uint8_t want = b->color[pts[i]];
		int w = snprintf(list + k, sizeof list - k, "%s%s %s", i ? ", " : "",
		                 want == GR_BLACK ? "black" : want == GR_WHITE ? "white" : "empty",
		                 gr_point_name(b, pts[i], name));
		if (w < 0)
			break;
		k += (size_t)w;
	}
	snprintf(msg, sizeof msg,
	         "The board differs from the record at %d point%s%s (article 17.6): restore it from the "
	         "record: %s.",
	         changed, changed == 1 ? "" : "s", changed >= r->opt.disturbed_threshold ? "" : " that no move explains",
	         list);
	gr_event e = new_event(GR_EV_DISTURBED);
	e.points = pts;
	e.npoints = n;
	e.article = "17.6";
	e.message = msg;
	rule_on(r, &e, d, seen);
}

static void judge_end_phase(gr_referee *r, const unsigned char *seen)
{
	const gr_board *b = rboard(r);
	int pts[GR_MAX_POINTS], n = 0, back[GR_MAX_POINTS], nb = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] == GR_EMPTY)
				continue;
			if (seen[pt] == GR_EMPTY && !r->dead[pt]) {
				r->dead[pt] = true;
				pts[n++] = pt;
			} else if (seen[pt] == b->color[pt] && r->dead[pt]) {
				r->dead[pt] = false;
				back[nb++] = pt;
			}
		}
	if (n)
		emit_points(r, GR_EV_DEAD, GR_EMPTY, 0, pts, n, "Dead stones lifted: ");
	if (nb)
		emit_points(r, GR_EV_UNEXPLAINED, GR_EMPTY, 0, back, nb, "Put back on the board, not dead after all: ");
}

/* options.setup: the waiting for the handicap stones ends (White's first
 * stone, or a command). Two or more black stones waited on are the setup;
 * fewer are no handicap: the empty board and what followed are refereed as
 * they came. Returns 0 or an error of gr_referee_observe. */
static int handicap_end(gr_referee *r)
{
	r->hc_wait = false;
	r->hc_done = true;
	int ncells = r->size * r->size, nblack = 0;
	for (int i = 0; i < ncells; i++)
		nblack += r->hc_cells[i] == GR_BLACK;
	if (nblack >= 2) {
		const gr_board *b = rboard(r);
		for (int i = 0; i < ncells; i++)
			if (r->hc_cells[i] == GR_BLACK)
				gr_referee_setup(r, GR_BLACK, gr_pt(b, i % r->size, i / r->size));
		return 0;
	}
	unsigned char empty[GR_MAX_POINTS];
	memset(empty, GR_EMPTY, sizeof empty);
	r->have_t = false; /* the waiting's own times, earlier than the last one */
	int rc = gr_referee_observe(r, r->hc_t0, empty);
	for (int k = 0; !rc && nblack && k < r->hc_n; k++)
		rc = gr_referee_observe(r, r->hc_t, r->hc_cells);
	return rc;
}

/* A moved stone (17.5) that is back where it stood while a stone of its
 * colour is still where it had gone: a stone does not double, so the moved
 * one went back and the other is a new stone (the next move, played where
 * the moved one had gone, seen in the same observation as its return). The
 * ruling is settled ("restored") before the observation is judged, so that
 * the new stone is judged as any other. */
static void moved_back(gr_referee *r, const unsigned char *seen)
{
	if (!r->last.active || r->last.type != GR_EV_MOVED_STONE || r->last.npoints != 2 || r->ph != PH_PLAYING)
		return;
	const gr_board *b = rboard(r);
	int from = -1, to = -1;
	for (int i = 0; i < 2; i++) {
		int pt = r->last.points[i];
		if (r->last.seen[pt] == GR_EMPTY + 1 && b->color[pt] != GR_EMPTY)
			from = pt;
		else if (r->last.seen[pt] != GR_EMPTY + 1 && b->color[pt] == GR_EMPTY)
			to = pt;
	}
	if (from < 0 || to < 0 || seen[from] != b->color[from] || seen[to] != b->color[from])
		return;
	r->last.active = false;
	gr_event e = new_event(GR_EV_RESTORED);
	e.message = "The moved stone is back; the stone where it had gone is a new one.";
	emit(r, &e);
}

int gr_referee_observe(gr_referee *r, double t, const unsigned char *cells)
{
	if (!r || !cells || (r->have_t && t < r->t))
		return GR_EINVAL;
	/* one pass with no branch (vectorised), a second only when a cell is
	 * not a colour */
	int ncells = r->size * r->size;
	unsigned char over = 0;
	for (int i = 0; i < ncells; i++)
		over |= cells[i] > GR_WHITE;
	bool unseen = false;
	for (int i = 0; over && i < ncells; i++)
		if (cells[i] > GR_WHITE) {
			if (cells[i] != GR_UNSEEN)
				return GR_EINVAL;
			unseen = true;
		}
	/* a point not seen: this is no position. It neither plays a move nor
	 * rules, and a change that was lasting goes on lasting through it */
	if (unseen) {
		r->have_t = true;
		r->t = t;
		return 0;
	}
	if (r->opt.setup && !r->hc_done) {
		bool white = false, black = false;
		for (int i = 0; i < ncells; i++) {
			white |= cells[i] == GR_WHITE;
			black |= cells[i] == GR_BLACK;
		}
		if (!r->hc_wait) { /* the first position */
			if (black || white) {
				r->hc_done = true; /* its stones are the setup */
				const gr_board *b = rboard(r);
				for (int i = 0; i < ncells; i++)
					if (cells[i] != GR_EMPTY)
						gr_referee_setup(r, (gr_color)cells[i], gr_pt(b, i % r->size, i / r->size));
			} else {
				r->hc_wait = true;
				r->hc_t0 = r->hc_t = t;
				r->hc_n = 0;
				memset(r->hc_cells, GR_EMPTY, (size_t)ncells);
				r->have_t = true;
				r->t = t;
				return 0;
			}
		} else if (!white) { /* black stones only, or empty again */
			if (memcmp(r->hc_cells, cells, (size_t)ncells) == 0) {
				r->hc_n++;
			} else {
				memcpy(r->hc_cells, cells, (size_t)ncells);
				r->hc_n = 1;
				r->hc_t = t;
			}
			r->t = t;
			return 0;
		} else {
			int rc = handicap_end(r);
			if (rc)
				return rc;
		}
	}
	r->have_t = true;
	r->t = t;
	const gr_board *b = rboard(r);
	unsigned char seen[GR_MAX_POINTS];
	memset(seen, GR_OFFBOARD, sizeof seen);
	for (int y = 0; y < r->size; y++)
		for (int x = 0; x < r->size; x++)
			seen[gr_pt(b, x, y)] = cells[y * r->size + x];
	r->observed = true;
	memcpy(r->cells, seen, sizeof seen);
	if (r->ph == PH_FINISHED)
		return 0;
	if (r->ph == PH_ENDED) {
		judge_end_phase(r, seen);
		return 0;
	}
	track_lifting(r, seen);
	moved_back(r, seen);
	diff d;
	compute_diff(r, seen, &d);
	if (d.nadd + d.nrem + d.nswap == 0)
		r->pending_count = 0;
	else
		judge_change(r, seen, &d);
	/* a ruling waiting for the board to be put right: is it? */
	if (r->last.active && r->ph == PH_PLAYING) {
		const gr_board *now = rboard(r);
		bool back = true;
		for (int i = 0; i < r->last.npoints && back; i++) {
			int pt = r->last.points[i];
			/* captured or void stones still waiting to be lifted are as
			 * the record allows */
			back = seen[pt] == now->color[pt] ||
			       (seen[pt] != GR_EMPTY && (seen[pt] == r->lift_color[pt] || seen[pt] == r->capture_color[pt]));
		}
		if (back) {
			r->last.active = false;
			gr_event e = new_event(GR_EV_RESTORED);
			e.message = "The board matches the record again.";
			emit(r, &e);
		}
	}
	return 0;
}

/* ---- commands */

static void command_error(gr_referee *r, const char *msg)
{
	gr_event e = new_event(GR_EV_ERROR);
	e.message = msg;
	emit(r, &e);
}

static void do_count(gr_referee *r)
{
	gr_count_board(&r->count, rboard(r), r->dead, r->opt.komi, r->warnings[GR_BLACK], r->warnings[GR_WHITE]);
	r->counted = true;
	char words[96], msg[300], num[16], num2[16], num3[16];
	gr_count_words(&r->count, words, sizeof words);
	snprintf(msg, sizeof msg, "Count: Black %s, White %s, komi %s stones. %s.",
	         gr_format_number(r->count.black, num, sizeof num), gr_format_number(r->count.white, num2, sizeof num2),
	         gr_format_number(r->opt.komi, num3, sizeof num3), words);
	int pts[GR_MAX_POINTS], n = 0;
	for (int i = 0; i < GR_MAX_POINTS; i++)
		if (r->dead[i] && rboard(r)->color[i] != GR_EMPTY)
			pts[n++] = i;
	gr_event e = new_event(GR_EV_COUNT);
	e.count = &r->count;
	e.points = pts;
	e.npoints = n;
	e.result = r->count.result;
	e.message = msg;
	note(r, msg);
	emit(r, &e);
	char rmsg[200];
	snprintf(rmsg, sizeof rmsg, "%s (%s).", gr_count_words(&r->count, words, sizeof words), r->count.result);
	finish(r, r->count.result_points, rmsg);
}

int gr_referee_command(gr_referee *r, double t, gr_command cmd, gr_color color)
{
	if (!r || (r->have_t && t < r->t))
		return GR_EINVAL;
	if (r->hc_wait) {
		int rc = handicap_end(r);
		if (rc)
			return rc;
	}
	r->have_t = true;
	r->t = t;
	char msg[300];
	if (r->ph == PH_FINISHED) {
		snprintf(msg, sizeof msg, "'%s' after the game has a result (%s): ignored.", gr_command_name(cmd),
		         r->result);
		command_error(r, msg);
		return 0;
	}
	switch (cmd) {
	case GR_CMD_PASS: {
		if (r->ph != PH_PLAYING) {
			command_error(r, "'pass' after the end of the game: ignored.");
			return 0;
		}
		gr_color c = gr_game_to_move(r->game);
		gr_game_pass(r->game, c);
		gr_record_add_move(r->rec, c, GR_PASS, t, NULL);
		snprintf(msg, sizeof msg, "%s passes; %s to play.", color_word(c), color_word(gr_other(c)));
		gr_event e = new_event(GR_EV_PASS);
		e.color = c;
		e.move = move_number(r);
		e.message = msg;
		emit(r, &e);
		return 0;
	}
	case GR_CMD_RESIGN: {
		if (color != GR_BLACK && color != GR_WHITE) {
			command_error(r, "'resign' needs the colour that resigns: resign B or resign W.");
			return 0;
		}
		gr_game_resign(r->game, color);
		snprintf(msg, sizeof msg, "%s resigns.", color_word(color));
		gr_event e = new_event(GR_EV_RESIGN);
		e.color = color;
		e.message = msg;
		note(r, msg);
		emit(r, &e);
		char m2[100];
		snprintf(m2, sizeof m2, "%s wins by resignation.", color_word(gr_other(color)));
		finish(r, color == GR_BLACK ? "W+R" : "B+R", m2);
		return 0;
	}
	case GR_CMD_END: {
		if (r->ph != PH_PLAYING) {
			command_error(r, "'end' said twice: ignored.");
			return 0;
		}
		r->ph = PH_ENDED;
		memset(r->dead, 0, sizeof r->dead);
		/* stones still owed to the board's edge (void stones, captures) are
		 * off the record already: nothing to count there */
		gr_event e = new_event(GR_EV_END);
		e.message = "The players agree the game is over (article 21). Lift the dead stones, then count.";
		note(r, e.message);
		emit(r, &e);
		return 0;
	}
	case GR_CMD_COUNT:
		if (r->ph != PH_ENDED) {
			command_error(r, "'count' before the players agreed the game is over ('end'): ignored.");
			return 0;
		}
		do_count(r);
		return 0;
	case GR_CMD_ACCEPT: {
		if (!r->last.active || (r->last.type != GR_EV_MOVED_STONE && r->last.type != GR_EV_WRONG_REMOVAL &&
		                        r->last.type != GR_EV_DISTURBED)) {
			command_error(r, "'accept': no flagged change to let stand.");
			return 0;
		}
		/* the board as seen at the ruling becomes the record's */
		for (int i = 0; i < r->last.npoints; i++) {
			int pt = r->last.points[i];
			gr_game_edit(r->game, pt, (gr_color)(r->last.seen[pt] - 1));
		}
		r->last.active = false;
		r->pending_count = 0;
		snprintf(msg, sizeof msg, "The change flagged as %s stands, by the referee's decision.",
		         gr_event_type_name(r->last.type));
		gr_event e = new_event(GR_EV_ACCEPTED);
		e.points = r->last.points;
		e.npoints = r->last.npoints;
		e.message = msg;
		note(r, msg);
		emit(r, &e);
		return 0;
	}
	case GR_CMD_RESTORE: {
		/* the operator says the board was put back: judge afresh from the
		 * next observation */
		r->pending_count = 0;
		if (r->last.active) {
			r->last.active = false;
			gr_event e = new_event(GR_EV_RESTORED);
			e.message = "The operator says the board is restored as the record has it.";
			emit(r, &e);
		}
		return 0;
	}
	}
	command_error(r, "unknown command");
	return 0;
}

/* ---- JSON */

typedef struct jbuf {
	char *buf;
	size_t cap, len;
} jbuf;

static void jputs(jbuf *j, const char *s)
{
	for (; *s; s++) {
		if (j->len + 1 < j->cap)
			j->buf[j->len] = *s;
		j->len++;
	}
}

static void jprintf(jbuf *j, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void jprintf(jbuf *j, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	jputs(j, tmp);
}

static void jstring(jbuf *j, const char *s)
{
	jputs(j, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char tmp[8];
		if (c == '"' || c == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			tmp[2] = 0;
		} else if (c == '\n') {
			strcpy(tmp, "\\n");
		} else if (c < 0x20) {
			snprintf(tmp, sizeof tmp, "\\u%04x", c);
		} else {
			tmp[0] = (char)c;
			tmp[1] = 0;
		}
		jputs(j, tmp);
	}
	jputs(j, "\"");
}

size_t gr_event_json(const gr_event *e, int size, char *buf, size_t cap)
{
	jbuf j = {buf, cap, 0};
	gr_board b;
	gr_board_init(&b, size);
	char name[8], num[16];
	/* the time to the millisecond, without trailing zeros */
	snprintf(num, sizeof num, "%.3f", e->t);
	for (char *z = num + strlen(num) - 1; z > num && (*z == '0' || *z == '.'); z--) {
		char c = *z;
		*z = 0;
		if (c == '.')
			break;
	}
	jprintf(&j, "{\"t\":%s,\"type\":\"%s\"", num, gr_event_type_name(e->type));
	if (e->color == GR_BLACK || e->color == GR_WHITE)
		jprintf(&j, ",\"color\":\"%c\"", e->color == GR_BLACK ? 'B' : 'W');
	if (e->point != GR_NONE)
		jprintf(&j, ",\"point\":\"%s\"", gr_point_name(&b, e->point, name));
	if (e->to != GR_NONE)
		jprintf(&j, ",\"to\":\"%s\"", gr_point_name(&b, e->to, name));
	if (e->npoints > 0 && e->points) {
		jputs(&j, ",\"points\":[");
		for (int i = 0; i < e->npoints; i++)
			jprintf(&j, "%s\"%s\"", i ? "," : "", gr_point_name(&b, e->points[i], name));
		jputs(&j, "]");
	}
	if (e->move > 0)
		jprintf(&j, ",\"move\":%d", e->move);
	if (e->rule)
		jprintf(&j, ",\"rule\":\"%s\"", e->rule);
	if (e->article)
		jprintf(&j, ",\"article\":\"%s\"", e->article);
	if (e->type == GR_EV_WARNING)
		jprintf(&j, ",\"warnings\":%d", e->warnings);
	if (e->result) {
		jputs(&j, ",\"result\":");
		jstring(&j, e->result);
	}
	if (e->count && e->type == GR_EV_COUNT) {
		const gr_count *c = e->count;
		jprintf(&j, ",\"black\":%s", gr_format_number(c->black, num, sizeof num));
		jprintf(&j, ",\"white\":%s", gr_format_number(c->white, num, sizeof num));
		jprintf(&j, ",\"dame\":%d,\"komi\":%s", c->dame, gr_format_number(c->komi, num, sizeof num));
		jprintf(&j, ",\"winner\":\"%s\"", c->winner == GR_BLACK ? "B" : c->winner == GR_WHITE ? "W" : "draw");
		jprintf(&j, ",\"margin\":%s", gr_format_number(c->margin, num, sizeof num));
		jputs(&j, ",\"result_points\":");
		jstring(&j, c->result_points);
		jprintf(&j, ",\"black_warnings\":%d,\"white_warnings\":%d", c->black_warnings, c->white_warnings);
		jputs(&j, ",\"dead\":[");
		for (int i = 0; i < e->npoints; i++)
			jprintf(&j, "%s\"%s\"", i ? "," : "", gr_point_name(&b, e->points[i], name));
		jputs(&j, "]");
	}
	if (e->message) {
		jputs(&j, ",\"message\":");
		jstring(&j, e->message);
	}
	jputs(&j, "}");
	if (cap > 0)
		buf[j.len < cap ? j.len : cap - 1] = 0;
	return j.len;
}
