/* goref rules core: a game in progress. See game.h. */
#include "game.h"

#include <string.h>

struct gr_game {
	gr_board board;
	gr_color to_move;
	gr_game_state state;
	gr_color resign_winner;
	gr_repetition_rule rep_rule;
	int moves;         /* stones and passes accepted */
	int passes_in_row;
	/* every position seen: open addressing, 0 = free slot */
	uint64_t *seen;
	size_t seen_cap, seen_used;
};

const char *gr_repetition_rule_name(gr_repetition_rule r)
{
	switch (r) {
	case GR_REP_FORBID: return "forbid";
	case GR_REP_DRAW: return "draw";
	case GR_REP_REPLAY: return "replay";
	case GR_REP_NO_RESULT: return "no-result";
	}
	return "forbid";
}

int gr_repetition_rule_parse(const char *s)
{
	for (int r = GR_REP_FORBID; r <= GR_REP_NO_RESULT; r++)
		if (s && !strcmp(s, gr_repetition_rule_name((gr_repetition_rule)r)))
			return r;
	return -1;
}

static bool seen_has(const gr_game *g, uint64_t h)
{
	size_t mask = g->seen_cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		if (g->seen[i] == h)
			return true;
		if (g->seen[i] == 0)
			return false;
	}
}

static int seen_add(gr_game *g, uint64_t h)
{
	if ((g->seen_used + 1) * 2 > g->seen_cap) {
		size_t ncap = g->seen_cap * 2;
		uint64_t *n = gr_malloc(ncap * sizeof *n);
		if (!n)
			return GR_ENOMEM;
		memset(n, 0, ncap * sizeof *n);
		uint64_t *old = g->seen;
		size_t ocap = g->seen_cap;
		g->seen = n;
		g->seen_cap = ncap;
		g->seen_used = 0;
		for (size_t i = 0; i < ocap; i++)
			if (old[i])
				seen_add(g, old[i]);
		gr_free(old);
	}
	size_t mask = g->seen_cap - 1;
	size_t i = (size_t)h & mask;
	while (g->seen[i] && g->seen[i] != h)
		i = (i + 1) & mask;
	if (!g->seen[i]) {
		g->seen[i] = h;
		g->seen_used++;
	}
	return 0;
}

static void seen_clear(gr_game *g)
{
	memset(g->seen, 0, g->seen_cap * sizeof *g->seen);
	g->seen_used = 0;
}

int gr_game_new(gr_game **out, int size)
{
	if (!out)
		return GR_EINVAL;
	*out = NULL;
	if (size < GR_MIN_SIZE || size > GR_MAX_SIZE)
		return GR_ERANGE;
	gr_game *g = gr_malloc(sizeof *g);
	if (!g)
		return GR_ENOMEM;
	memset(g, 0, sizeof *g);
	g->seen_cap = 1024;
	g->seen = gr_malloc(g->seen_cap * sizeof *g->seen);
	if (!g->seen) {
		gr_free(g);
		return GR_ENOMEM;
	}
	gr_board_init(&g->board, size);
	gr_game_reset(g);
	*out = g;
	return 0;
}

void gr_game_free(gr_game *g)
{
	if (!g)
		return;
	gr_free(g->seen);
	gr_free(g);
}

void gr_game_reset(gr_game *g)
{
	gr_board_init(&g->board, g->board.size);
	g->to_move = GR_BLACK;
	g->state = GR_PLAYING;
	g->resign_winner = GR_EMPTY;
	g->moves = 0;
	g->passes_in_row = 0;
	seen_clear(g);
	seen_add(g, gr_position_key(g->board.hash, g->to_move));
}

const gr_board *gr_game_board(const gr_game *g) { return &g->board; }
gr_color gr_game_to_move(const gr_game *g) { return g->to_move; }
gr_game_state gr_game_state_of(const gr_game *g) { return g->state; }
gr_color gr_game_resign_winner(const gr_game *g) { return g->resign_winner; }
int gr_game_moves_played(const gr_game *g) { return g->moves; }
void gr_game_set_repetition_rule(gr_game *g, gr_repetition_rule r) { g->rep_rule = r; }
gr_repetition_rule gr_game_repetition_rule(const gr_game *g) { return g->rep_rule; }
uint64_t gr_game_position_hash(const gr_game *g) { return gr_position_key(g->board.hash, g->to_move); }

/* Before the first move the position is still being set up: forget the
 * intermediate positions and remember only the current one. */
static void setup_changed(gr_game *g)
{
	seen_clear(g);
	seen_add(g, gr_position_key(g->board.hash, g->to_move));
}

int gr_game_setup(gr_game *g, gr_color c, int pt)
{
	if (g->moves > 0 || !gr_on_board(&g->board, pt) || (c != GR_BLACK && c != GR_WHITE && c != GR_EMPTY))
		return GR_EINVAL;
	gr_board_set(&g->board, pt, c);
	setup_changed(g);
	return 0;
}

int gr_game_set_to_move(gr_game *g, gr_color c)
{
	if (g->moves > 0 || (c != GR_BLACK && c != GR_WHITE))
		return GR_EINVAL;
	g->to_move = c;
	setup_changed(g);
	return 0;
}

gr_legality gr_game_check(const gr_game *g, gr_color c, int pt)
{
	uint64_t after;
	gr_legality l = gr_board_check(&g->board, c, pt, &after);
	if (l != GR_LEGAL)
		return l;
	if (seen_has(g, gr_position_key(after, gr_other(c))))
		return GR_REPETITION;
	return GR_LEGAL;
}

gr_legality gr_game_play(gr_game *g, gr_color c, int pt)
{
	if (g->state != GR_PLAYING)
		return GR_OCCUPIED;
	gr_legality l = gr_game_check(g, c, pt);
	if (l != GR_LEGAL && !(l == GR_REPETITION && g->rep_rule != GR_REP_FORBID))
		return l;
	gr_board_play(&g->board, c, pt);
	g->to_move = gr_other(c);
	g->moves++;
	g->passes_in_row = 0;
	if (l == GR_REPETITION)
		g->state = GR_ENDED_REPETITION;
	else
		seen_add(g, gr_position_key(g->board.hash, g->to_move));
	return l;
}

void gr_game_pass(gr_game *g, gr_color c)
{
	if (g->state != GR_PLAYING)
		return;
	gr_board_pass(&g->board);
	g->to_move = gr_other(c);
	g->moves++;
	if (++g->passes_in_row >= 2)
		g->state = GR_ENDED_PASSES;
	seen_add(g, gr_position_key(g->board.hash, g->to_move));
}

void gr_game_forfeit(gr_game *g, gr_color c)
{
	if (g->state != GR_PLAYING)
		return;
	gr_board_pass(&g->board);
	g->to_move = gr_other(c);
	g->moves++;
	g->passes_in_row = 0;
	seen_add(g, gr_position_key(g->board.hash, g->to_move));
}

void gr_game_resume(gr_game *g)
{
	if (g->state == GR_ENDED_PASSES) {
		g->state = GR_PLAYING;
		g->passes_in_row = 0;
	}
}

void gr_game_resign(gr_game *g, gr_color c)
{
	if (g->state != GR_PLAYING)
		return;
	g->state = GR_ENDED_RESIGN;
	g->resign_winner = gr_other(c);
}

bool gr_game_has_position(const gr_game *g, uint64_t key) { return seen_has(g, key); }

int gr_game_edit(gr_game *g, int pt, gr_color c)
{
	if (!gr_on_board(&g->board, pt) || (c != GR_BLACK && c != GR_WHITE && c != GR_EMPTY))
		return GR_EINVAL;
	gr_board_set(&g->board, pt, c);
	return seen_add(g, gr_position_key(g->board.hash, g->to_move));
}
