/*
 * Cross-check of goref's rules core against GNU Go (the oracle of
 * /work/shared/NOTES.md, "GNU Go as an oracle").
 *
 * GNU Go runs as a child process speaking GTP:
 *   gnugo --mode gtp --chinese-rules --komi 7.5 --situational-superko --level 0
 * (GOREF_GNUGO in the environment names another binary). When it is not
 * installed the whole program is skipped with exit code 77; once it is
 * there, any disagreement fails.
 *
 * 1. Random legal games, played in goref (gr_game) and in GNU Go in lockstep
 *    with fixed seeds. Every turn the legality of a set of points is asked
 *    of both sides (gr_game_check against "is_legal"): the move about to be
 *    played, 10 random points, the points next to the last move and the ko
 *    point for both colours, and on boards of 9 lines or fewer every point
 *    for both colours. Ko and repetition (GR_KO, GR_REPETITION) and suicide
 *    are all "illegal" for the comparison, as in GNU Go's situational
 *    superko mode. Now and then an illegal move (suicide, ko, repetition or
 *    an occupied point) is actually played in both, and both must refuse
 *    it. After every move the stones ("list_stones black|white") and the
 *    captures ("captures black|white") are compared with gr_game_board().
 * 2. When a game ends with two passes (moves are chosen the way
 *    gr_playout chooses them: random legal, never filling a one-point eye of
 *    one's own), the stones GNU Go calls dead ("final_status_list dead") are
 *    marked dead, gr_count_board (komi 3.75 stones) counts, and the result in
 *    points must equal GNU Go's "final_score" (komi 7.5 points) exactly when
 *    goref's count has no dame. With dame, final_score plays them out
 *    (NOTES.md), so each dame point, half to each side in goref's count, may
 *    go wholly to one side in GNU Go's: the results may then differ by at
 *    most one point per dame point. NOTES.md says "by one point"; that holds
 *    for one dame point, but with two GNU Go can give both to one side: 7x7
 *    seed 7023 ends with dame G1 G2 next to a weak black F1, GNU Go fills
 *    both for White and says B+3.5 where goref's static count says B+5.5.
 *    The test prints how many counts fell in each case.
 * 3. Set pieces where situational and positional superko differ ("send two,
 *    return one"), simple ko, suicide: goref's exact legality code is checked
 *    and GNU Go (situational superko) must agree on legal / illegal; a second
 *    GNU Go with --positional-superko must call the return move illegal.
 *
 * A mismatch fails with the seed, the move number, the point, both answers,
 * the diagram and the moves of the game so far (enough to replay it).
 *
 * GNU Go's superko check breaks after 500 moves (found by this test, GNU Go
 * 3.8 as packaged in Debian 12). GNU Go keeps at most 500 moves of history
 * (MAX_MOVE_HISTORY); on the 501st it folds the oldest 51 into its initial
 * position, and from then on it misses repetitions, even of positions a few
 * moves old. In the game of tests/fixtures/gnugo/fold-19019.txt (19x19 seed
 * 19019 of an earlier version of this test), B Q12 at move 505 recreates the
 * position after move 499 (B pass), White to move; GNU Go's is_legal says 1
 * after the whole game, 0 when the position is loaded with only the last 105
 * or 54 moves as history (test_gnugo_history_fold checks the latter). (Its fold replays the first moves to rebuild the initial
 * position, restores the board by copying it back, and apparently leaves the
 * position hash of the replay in place, so every hash after that is off.)
 * So past move 500 of a game, and only there, "goref: repetition, GNU Go:
 * legal" is not a failure when the test confirms the repetition on its own,
 * by comparing the whole board after the move with every earlier position
 * with the same side to move; such cases are counted and printed, and no
 * repetition is then actually played at GNU Go. Every other disagreement
 * past move 500 still fails.
 *
 * gtp.c is compiled into this program by the #include below: it is not a
 * test_*.c file (tests/CMakeLists.txt makes one program of each of those)
 * and it is not part of the goref_testutil library.
 */
#include "gtp.c"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#include "count.h"
#include "diagram.h"
#include "game.h"
#include "playout.h"

#define GNUGO_DEFAULT "/usr/games/gnugo"
#define GNUGO_HISTORY 500 /* MAX_MOVE_HISTORY in GNU Go 3.8: see the top of this file */

static const char *gnugo_path(void)
{
	const char *p = getenv("GOREF_GNUGO");
	return p && *p ? p : GNUGO_DEFAULT;
}

/* ------------------------------------------------------------------------ */
/* Statistics, printed at the end of each test */

typedef struct stats {
	int games, games_ended, games_capped;
	long moves, stones, passes, max_game_moves;
	long queries, query_legal;
	long positional_only; /* legal queries whose stones occurred before, other side to move */
	long fold_misses;     /* repetitions GNU Go missed past move 500, confirmed by the test */
	long goref_codes[5];       /* goref's answers to the queries, by gr_legality */
	long attempts, attempt_codes[5];
	long stone_checks;
	int count_no_dame, count_no_dame_equal;
	int count_dame, count_dame_equal, count_dame_one_off, count_dame_more_off;
	long dead_stones;
} stats;

static stats g_total;

static void stats_add(stats *t, const stats *s)
{
	t->games += s->games;
	t->games_ended += s->games_ended;
	t->games_capped += s->games_capped;
	t->moves += s->moves;
	t->stones += s->stones;
	t->passes += s->passes;
	if (s->max_game_moves > t->max_game_moves)
		t->max_game_moves = s->max_game_moves;
	t->queries += s->queries;
	t->query_legal += s->query_legal;
	t->positional_only += s->positional_only;
	t->fold_misses += s->fold_misses;
	for (int i = 0; i < 5; i++) {
		t->goref_codes[i] += s->goref_codes[i];
		t->attempt_codes[i] += s->attempt_codes[i];
	}
	t->attempts += s->attempts;
	t->stone_checks += s->stone_checks;
	t->count_no_dame += s->count_no_dame;
	t->count_no_dame_equal += s->count_no_dame_equal;
	t->count_dame += s->count_dame;
	t->count_dame_equal += s->count_dame_equal;
	t->count_dame_one_off += s->count_dame_one_off;
	t->count_dame_more_off += s->count_dame_more_off;
	t->dead_stones += s->dead_stones;
}

static void stats_print(const char *label, const stats *s)
{
	printf("[ gnugo    ] %s: %d games (%d ended by two passes, %d stopped at the move cap), "
	       "%ld moves (%ld stones, %ld passes, longest game %ld)\n",
	       label, s->games, s->games_ended, s->games_capped, s->moves, s->stones, s->passes,
	       s->max_game_moves);
	printf("[ gnugo    ] %s: %ld legality queries agreed (%ld legal; goref's illegal ones: "
	       "%ld occupied, %ld suicide, %ld ko, %ld repetition)\n",
	       label, s->queries, s->query_legal, s->goref_codes[GR_OCCUPIED],
	       s->goref_codes[GR_SUICIDE], s->goref_codes[GR_KO], s->goref_codes[GR_REPETITION]);
	printf("[ gnugo    ] %s: %ld of the legal ones recreate earlier stones with the other side "
	       "to move (legal under situational superko, not under positional)\n",
	       label, s->positional_only);
	if (s->fold_misses)
		printf("[ gnugo    ] %s: %ld repetitions past move %d that GNU Go missed and the test "
		       "confirmed on its own (GNU Go's history fold, see the top of the file)\n",
		       label, s->fold_misses, GNUGO_HISTORY);
	printf("[ gnugo    ] %s: %ld illegal moves refused by both (%ld occupied, %ld suicide, "
	       "%ld ko, %ld repetition); %ld stone/capture comparisons agreed\n",
	       label, s->attempts, s->attempt_codes[GR_OCCUPIED], s->attempt_codes[GR_SUICIDE],
	       s->attempt_codes[GR_KO], s->attempt_codes[GR_REPETITION], s->stone_checks);
	printf("[ gnugo    ] %s: counts: %d without dame (%d equal to final_score), "
	       "%d with dame (%d equal, %d one point off, %d more but within one point per dame "
	       "point); %ld stones GNU Go called dead\n",
	       label, s->count_no_dame, s->count_no_dame_equal, s->count_dame, s->count_dame_equal,
	       s->count_dame_one_off, s->count_dame_more_off, s->dead_stones);
	fflush(stdout);
}

/* ------------------------------------------------------------------------ */
/* The engine, shared by all tests */

static gtp_engine *g_engine;

static int group_setup(void **state)
{
	(void)state;
	char *argv[] = {(char *)gnugo_path(), "--mode", "gtp", "--chinese-rules", "--komi", "7.5",
	                "--situational-superko", "--level", "0", "--seed", "1", NULL};
	char err[512];
	g_engine = gtp_start(argv, 120000, err, sizeof err);
	if (!g_engine) {
		fprintf(stderr, "cannot start GNU Go: %s\n", err);
		return -1;
	}
	const char *r;
	if (gtp_command(g_engine, &r, "name") != GTP_OK || !strstr(r, "GNU Go")) {
		fprintf(stderr, "%s does not answer GTP \"name\" as GNU Go: %s%s\n", gnugo_path(), r,
		        gtp_error(g_engine));
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	int status = gtp_close(g_engine);
	g_engine = NULL;
	stats_print("all games", &g_total);
	if (status != 0)
		fprintf(stderr, "GNU Go exited with status %d\n", status);
	return 0;
}

/* A command that must succeed; returns its reply. */
static const char *must(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

static const char *must(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	const char *r;
	int rc = gtp_command(g_engine, &r, "%s", cmd);
	if (rc == GTP_EIO)
		fail_msg("GNU Go: %s", gtp_error(g_engine));
	if (rc != GTP_OK)
		fail_msg("GNU Go refused \"%s\": %s", cmd, r);
	return r;
}

static const char *color_word(gr_color c) { return c == GR_BLACK ? "black" : "white"; }
static char color_letter(gr_color c) { return c == GR_BLACK ? 'B' : 'W'; }

/* ------------------------------------------------------------------------ */
/* The game in lockstep */

#define MAX_GAME 2048

typedef struct lockstep {
	gr_game *g;
	int size;
	uint64_t seed;
	const char *label;
	int hist_pt[MAX_GAME];
	gr_color hist_c[MAX_GAME];
	int nhist;
	uint64_t stones_seen[MAX_GAME + 1]; /* gr_board hash of every position so far */
	uint8_t colors_seen[MAX_GAME + 1][GR_MAX_POINTS]; /* and its whole board */
	gr_color to_move_seen[MAX_GAME + 1];              /* and the side to move */
	int nseen;
	stats st;
} lockstep;

static void remember_stones(lockstep *ls)
{
	if (ls->nseen < MAX_GAME + 1) {
		const gr_board *b = gr_game_board(ls->g);
		ls->stones_seen[ls->nseen] = b->hash;
		memcpy(ls->colors_seen[ls->nseen], b->color, sizeof b->color);
		ls->to_move_seen[ls->nseen] = gr_game_to_move(ls->g);
		ls->nseen++;
	}
}

/* The earlier position that c at pt recreates with the same side to move
 * (the other colour), found by comparing whole boards, not hashes; -1 if
 * there is none. */
static int find_repetition(const lockstep *ls, gr_color c, int pt)
{
	gr_board after = *gr_game_board(ls->g);
	if (gr_board_play(&after, c, pt) != GR_LEGAL)
		return -1;
	size_t n = (size_t)after.stride * (size_t)after.stride;
	for (int i = 0; i < ls->nseen; i++)
		if (ls->to_move_seen[i] == gr_other(c) && !memcmp(ls->colors_seen[i], after.color, n))
			return i;
	return -1;
}

/* Whether c at pt (legal) recreates stones seen before: with the same side to
 * move that would be a repetition, so here with the other side to move. */
static bool recreates_stones(const lockstep *ls, gr_color c, int pt)
{
	uint64_t after;
	if (gr_board_check(gr_game_board(ls->g), c, pt, &after) != GR_LEGAL)
		return false;
	for (int i = 0; i < ls->nseen; i++)
		if (ls->stones_seen[i] == after)
			return true;
	return false;
}

/* Prints what is needed to replay a failing game, then fails the test. */
static void fail_game(const lockstep *ls, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void fail_game(const lockstep *ls, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	const gr_board *b = gr_game_board(ls->g);
	char diagram[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
	gr_diagram_write(b, NULL, diagram, sizeof diagram);
	fprintf(stderr, "%s game, %dx%d, seed %" PRIu64 ", after %d moves, %s to move\n", ls->label,
	        ls->size, ls->size, ls->seed, ls->nhist,
	        gr_game_to_move(ls->g) == GR_BLACK ? "Black" : "White");
	fprintf(stderr, "goref's board:\n%s", diagram);
	fprintf(stderr, "moves (GTP):");
	char name[8];
	for (int i = 0; i < ls->nhist && i < MAX_GAME; i++)
		fprintf(stderr, "%s%c %s", i % 16 ? " " : "\n  ", color_letter(ls->hist_c[i]),
		        gr_point_name(b, ls->hist_pt[i], name));
	fprintf(stderr, "\n");
	if (ls->nhist > GNUGO_HISTORY)
		fprintf(stderr, "note: past move %d GNU Go's superko check is not reliable (see the "
		                "top of this file)\n",
		        GNUGO_HISTORY);
	fail_msg("%s game %dx%d seed %" PRIu64 " move %d: %s", ls->label, ls->size, ls->size,
	         ls->seed, ls->nhist + 1, what);
}

typedef struct query {
	gr_color c;
	int pt;
} query;

/* Asks GNU Go about every query (pipelined) and compares with goref. */
static void check_legality(lockstep *ls, const query *q, int nq)
{
	const gr_board *b = gr_game_board(ls->g);
	char name[8];
	for (int i = 0; i < nq; i++)
		if (gtp_send(g_engine, "is_legal %s %s", color_word(q[i].c),
		             gr_point_name(b, q[i].pt, name)))
			fail_game(ls, "GNU Go: %s", gtp_error(g_engine));
	for (int i = 0; i < nq; i++) {
		const char *r;
		int rc = gtp_recv(g_engine, &r);
		if (rc == GTP_EIO)
			fail_game(ls, "GNU Go: %s", gtp_error(g_engine));
		if (rc != GTP_OK || (strcmp(r, "0") && strcmp(r, "1")))
			fail_game(ls, "GNU Go's answer to is_legal %s %s: \"%s\"", color_word(q[i].c),
			          gr_point_name(b, q[i].pt, name), r);
		gr_legality l = gr_game_check(ls->g, q[i].c, q[i].pt);
		bool gnugo_legal = r[0] == '1';
		if (l == GR_REPETITION && gnugo_legal && ls->nhist > GNUGO_HISTORY &&
		    find_repetition(ls, q[i].c, q[i].pt) >= 0) {
			ls->st.fold_misses++; /* GNU Go's history fold: see the top of the file */
			ls->st.queries++;
			ls->st.goref_codes[l]++;
			continue;
		}
		if ((l == GR_LEGAL) != gnugo_legal)
			fail_game(ls, "%s at %s: goref says %s, GNU Go's is_legal says %s",
			          color_word(q[i].c), gr_point_name(b, q[i].pt, name), gr_legality_name(l),
			          gnugo_legal ? "legal (1)" : "illegal (0)");
		ls->st.queries++;
		ls->st.query_legal += l == GR_LEGAL;
		if (l == GR_LEGAL && recreates_stones(ls, q[i].c, q[i].pt))
			ls->st.positional_only++;
		ls->st.goref_codes[l]++;
	}
}

/* Reads a list of vertices ("A1 B2 ...", several lines allowed) into a
 * colour array; fails on a vertex that is not on the board. */
static void read_vertices(lockstep *ls, const char *text, gr_color c, uint8_t *col,
                          const char *what)
{
	const gr_board *b = gr_game_board(ls->g);
	char tok[16];
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		size_t n = 0;
		while (p[n] && p[n] != ' ' && p[n] != '\n' && p[n] != '\t')
			n++;
		if (!n)
			break;
		if (n >= sizeof tok)
			fail_game(ls, "%s: bad vertex in \"%s\"", what, text);
		memcpy(tok, p, n);
		tok[n] = 0;
		p += n;
		int pt = gr_point_parse(b, tok);
		if (pt == GR_NONE || pt == GR_PASS)
			fail_game(ls, "%s: \"%s\" is not a point of the board", what, tok);
		col[pt] = (uint8_t)c;
	}
}

/* Compares GNU Go's stones, and its captures unless the position was loaded
 * in the middle of a game (captures then count from the load), with goref's
 * board. */
static void check_stones_opt(lockstep *ls, bool captures)
{
	const gr_board *b = gr_game_board(ls->g);
	if (gtp_send(g_engine, "list_stones black") || gtp_send(g_engine, "list_stones white") ||
	    gtp_send(g_engine, "captures black") || gtp_send(g_engine, "captures white"))
		fail_game(ls, "GNU Go: %s", gtp_error(g_engine));
	uint8_t col[GR_MAX_POINTS];
	memset(col, GR_EMPTY, sizeof col);
	int caps[3] = {0, 0, 0};
	for (int k = 0; k < 4; k++) {
		const char *r;
		gr_color c = k % 2 ? GR_WHITE : GR_BLACK;
		int rc = gtp_recv(g_engine, &r);
		if (rc != GTP_OK)
			fail_game(ls, "GNU Go: %s %s", rc == GTP_EIO ? gtp_error(g_engine) : "refused:", r);
		if (k < 2)
			read_vertices(ls, r, c, col, "list_stones");
		else
			caps[c] = atoi(r);
	}
	char name[8];
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (col[pt] != b->color[pt]) {
				static const char *what[] = {"empty", "black", "white", "?"};
				fail_game(ls, "stones differ at %s: goref has %s, GNU Go has %s",
				          gr_point_name(b, pt, name), what[b->color[pt]], what[col[pt]]);
			}
		}
	for (int c = GR_BLACK; c <= GR_WHITE; c++)
		if (captures && caps[c] != b->captured[c])
			fail_game(ls, "%s has captured %d stones in goref, %d in GNU Go",
			          color_word((gr_color)c), b->captured[c], caps[c]);
	if (!gr_board_consistent(b))
		fail_game(ls, "goref's board is not consistent");
	ls->st.stone_checks++;
}

static void check_stones(lockstep *ls) { check_stones_opt(ls, true); }

static void record_move(lockstep *ls, gr_color c, int pt)
{
	if (ls->nhist < MAX_GAME) {
		ls->hist_c[ls->nhist] = c;
		ls->hist_pt[ls->nhist] = pt;
	}
	ls->nhist++;
}

/* Plays a legal move (or a pass) in both. */
static void play_both(lockstep *ls, gr_color c, int pt)
{
	const gr_board *b = gr_game_board(ls->g);
	char name[8];
	gr_point_name(b, pt, name);
	if (pt == GR_PASS) {
		gr_game_pass(ls->g, c);
		ls->st.passes++;
	} else {
		gr_legality l = gr_game_play(ls->g, c, pt);
		if (l != GR_LEGAL)
			fail_game(ls, "goref refused %s %s (%s) after gr_game_check said legal",
			          color_word(c), name, gr_legality_name(l));
		ls->st.stones++;
	}
	const char *r;
	int rc = gtp_command(g_engine, &r, "play %s %s", color_word(c), name);
	if (rc == GTP_EIO)
		fail_game(ls, "GNU Go: %s", gtp_error(g_engine));
	if (rc != GTP_OK)
		fail_game(ls, "%s at %s: goref played it, GNU Go's play refused it: \"%s\"",
		          color_word(c), name, r);
	record_move(ls, c, pt);
	remember_stones(ls);
	ls->st.moves++;
}

/* Plays a move goref calls illegal in both: both must refuse it and goref's
 * game must not change. */
static void attempt_illegal(lockstep *ls, gr_color c, int pt)
{
	const gr_board *b = gr_game_board(ls->g);
	char name[8];
	gr_point_name(b, pt, name);
	gr_legality want = gr_game_check(ls->g, c, pt);
	uint64_t hash = gr_game_position_hash(ls->g);
	int moves = gr_game_moves_played(ls->g);
	gr_color to_move = gr_game_to_move(ls->g);
	gr_legality l = gr_game_play(ls->g, c, pt);
	if (l != want || l == GR_LEGAL)
		fail_game(ls, "%s at %s: gr_game_check said %s, gr_game_play said %s", color_word(c),
		          name, gr_legality_name(want), gr_legality_name(l));
	if (gr_game_position_hash(ls->g) != hash || gr_game_moves_played(ls->g) != moves ||
	    gr_game_to_move(ls->g) != to_move || gr_game_state_of(ls->g) != GR_PLAYING)
		fail_game(ls, "%s at %s (%s): goref's game changed on an illegal move", color_word(c),
		          name, gr_legality_name(l));
	const char *r;
	int rc = gtp_command(g_engine, &r, "play %s %s", color_word(c), name);
	if (rc == GTP_EIO)
		fail_game(ls, "GNU Go: %s", gtp_error(g_engine));
	if (rc == GTP_OK) {
		record_move(ls, c, pt); /* GNU Go played it: show it in the record */
		fail_game(ls, "%s at %s: goref says %s, GNU Go's play accepted it", color_word(c), name,
		          gr_legality_name(l));
	}
	if (!strstr(r, "illegal move"))
		fail_game(ls, "%s at %s: GNU Go refused with \"%s\", not \"illegal move\"",
		          color_word(c), name, r);
	ls->st.attempts++;
	ls->st.attempt_codes[l]++;
}

/* The move a playout would make: random, legal, not filling a one-point eye
 * of one's own; GR_PASS when there is none. gr_playout_pick proposes one (it
 * knows simple ko but, with its position table left empty, not the game's
 * earlier positions); when it proposes a repetition, a move is drawn from all
 * the legal non-eye points instead. When it passes, there must be none. */
static int choose_move(lockstep *ls, gr_playout *po, gr_rng *rng, gr_color c)
{
	const gr_board *b = gr_game_board(ls->g);
	char name[8];
	int pt = gr_playout_pick(po, b, c);
	if (pt != GR_PASS) {
		if (!gr_on_board(b, pt) || gr_board_check(b, c, pt, NULL) != GR_LEGAL ||
		    gr_board_is_eyelike(b, pt, c))
			fail_game(ls, "gr_playout_pick chose %s %s: not a legal non-eye move",
			          color_word(c), gr_point_name(b, pt, name));
		if (gr_game_check(ls->g, c, pt) == GR_LEGAL)
			return pt;
	}
	int cand[GR_MAX_POINTS], n = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int p = gr_pt(b, x, y);
			if (b->color[p] == GR_EMPTY && !gr_board_is_eyelike(b, p, c) &&
			    gr_game_check(ls->g, c, p) == GR_LEGAL)
				cand[n++] = p;
		}
	if (pt == GR_PASS && n > 0)
		fail_game(ls, "gr_playout_pick passed for %s with %d legal non-eye moves (e.g. %s)",
		          color_word(c), n, gr_point_name(b, cand[0], name));
	return n ? cand[gr_rng_below(rng, (uint32_t)n)] : GR_PASS;
}

/* A point goref calls illegal for c, GR_NONE if there is none (an empty
 * board). Half the time the rarest kind there is (repetition, then ko, then
 * suicide, then occupied), else any of them. */
static int choose_illegal(const lockstep *ls, gr_rng *rng, gr_color c)
{
	const gr_board *b = gr_game_board(ls->g);
	static int pts[5][GR_MAX_POINTS];
	int n[5] = {0, 0, 0, 0, 0}, all = 0;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int p = gr_pt(b, x, y);
			gr_legality l = gr_game_check(ls->g, c, p);
			if (l == GR_REPETITION && ls->nhist >= GNUGO_HISTORY)
				continue; /* GNU Go may accept it: see the top of the file */
			if (l != GR_LEGAL) {
				pts[l][n[l]++] = p;
				all++;
			}
		}
	if (!all)
		return GR_NONE;
	if (gr_rng_below(rng, 2)) {
		static const gr_legality rarest[] = {GR_REPETITION, GR_KO, GR_SUICIDE, GR_OCCUPIED};
		for (int k = 0; k < 4; k++)
			if (n[rarest[k]])
				return pts[rarest[k]][gr_rng_below(rng, (uint32_t)n[rarest[k]])];
	}
	int i = (int)gr_rng_below(rng, (uint32_t)all);
	for (int l = GR_OCCUPIED; l <= GR_REPETITION; l++) {
		if (i < n[l])
			return pts[l][i];
		i -= n[l];
	}
	return GR_NONE;
}

/* Parses a result in points: "B+1.5" -> 1.5, "W+3" -> -3, "0" -> 0. */
static bool parse_result(const char *s, double *out)
{
	char *end;
	if (!strcmp(s, "0")) {
		*out = 0;
		return true;
	}
	if ((s[0] != 'B' && s[0] != 'W') || s[1] != '+')
		return false;
	double v = strtod(s + 2, &end);
	if (end == s + 2 || *end)
		return false;
	*out = s[0] == 'B' ? v : -v;
	return true;
}

/* The count of a finished game against GNU Go's final_score. */
static void check_count(lockstep *ls)
{
	const gr_board *b = gr_game_board(ls->g);
	const char *r = must("final_status_list dead");
	uint8_t col[GR_MAX_POINTS];
	memset(col, GR_EMPTY, sizeof col);
	read_vertices(ls, r, GR_BLACK, col, "final_status_list dead");
	bool dead[GR_MAX_POINTS];
	int ndead = 0;
	char name[8];
	for (int i = 0; i < GR_MAX_POINTS; i++) {
		dead[i] = col[i] != GR_EMPTY;
		if (dead[i]) {
			if (b->color[i] != GR_BLACK && b->color[i] != GR_WHITE)
				fail_game(ls, "GNU Go calls %s dead but goref has no stone there",
				          gr_point_name(b, i, name));
			ndead++;
		}
	}
	gr_count cnt;
	if (gr_count_board(&cnt, b, dead, GR_KOMI_DEFAULT, 0, 0) != 0)
		fail_game(ls, "gr_count_board failed");
	char score[64];
	snprintf(score, sizeof score, "%s", must("final_score"));
	double mine = 0, theirs = 0;
	if (!parse_result(cnt.result_points, &mine) || !parse_result(score, &theirs))
		fail_game(ls, "cannot read the results: goref \"%s\", GNU Go \"%s\"", cnt.result_points,
		          score);
	ls->st.dead_stones += ndead;
	char diagram[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
	if (cnt.dame == 0) {
		ls->st.count_no_dame++;
		if (strcmp(cnt.result_points, score)) {
			gr_diagram_write(b, dead, diagram, sizeof diagram);
			fail_game(ls, "count without dame: goref %s (B %g, W %g, %d dead), GNU Go final_score "
			          "%s\n%s",
			          cnt.result_points, cnt.black, cnt.white, ndead, score, diagram);
		}
		ls->st.count_no_dame_equal++;
	} else {
		ls->st.count_dame++;
		double diff = fabs(mine - theirs);
		if (diff > cnt.dame) {
			gr_diagram_write(b, dead, diagram, sizeof diagram);
			fail_game(ls, "count with %d dame: goref %s (B %g, W %g, %d dead), GNU Go final_score "
			          "%s: more than one point per dame point apart\n%s",
			          cnt.dame, cnt.result_points, cnt.black, cnt.white, ndead, score, diagram);
		}
		if (diff == 0)
			ls->st.count_dame_equal++;
		else if (diff == 1)
			ls->st.count_dame_one_off++;
		else
			ls->st.count_dame_more_off++;
	}
}

typedef struct game_spec {
	int size;
	uint64_t seed;
} game_spec;

static void play_random_game(const game_spec *spec, stats *total, const char *label)
{
	static lockstep ls; /* large: keep it off the stack */
	static gr_playout po;
	memset(&ls, 0, sizeof ls);
	memset(&po, 0, sizeof po); /* an empty position table: see choose_move */
	ls.size = spec->size;
	ls.seed = spec->seed;
	ls.label = label;
	assert_int_equal(gr_game_new(&ls.g, spec->size), 0);
	gr_rng rng;
	gr_rng_seed(&rng, spec->seed);
	gr_rng_seed(&po.rng, spec->seed ^ 0x5eedULL);

	must("boardsize %d", spec->size);
	must("clear_board");
	must("komi 7.5");
	remember_stones(&ls);

	const int n = spec->size;
	const int cap = 4 * n * n < MAX_GAME ? 4 * n * n : MAX_GAME;
	const bool every_point = n <= 9;
	query q[2 * GR_MAX_POINTS + 64];
	int last = GR_NONE;
	while (gr_game_state_of(ls.g) == GR_PLAYING && ls.nhist < cap) {
		const gr_board *b = gr_game_board(ls.g);
		gr_color c = gr_game_to_move(ls.g);
		int move = choose_move(&ls, &po, &rng, c);
		int bad = gr_rng_below(&rng, 6) == 0 ? choose_illegal(&ls, &rng, c) : GR_NONE;

		int nq = 0;
		if (move != GR_PASS)
			q[nq++] = (query){c, move};
		if (bad != GR_NONE)
			q[nq++] = (query){c, bad};
		if (b->ko != GR_NONE) {
			q[nq++] = (query){GR_BLACK, b->ko};
			q[nq++] = (query){GR_WHITE, b->ko};
		}
		if (last > 0) {
			const int nb[4] = {last - 1, last + 1, last - b->stride, last + b->stride};
			for (int k = 0; k < 4; k++)
				if (gr_on_board(b, nb[k])) {
					q[nq++] = (query){GR_BLACK, nb[k]};
					q[nq++] = (query){GR_WHITE, nb[k]};
				}
		}
		for (int k = 0; k < 10; k++)
			q[nq++] = (query){c, gr_pt(b, (int)gr_rng_below(&rng, (uint32_t)n),
			                          (int)gr_rng_below(&rng, (uint32_t)n))};
		if (every_point)
			for (int y = 0; y < n; y++)
				for (int x = 0; x < n; x++) {
					q[nq++] = (query){GR_BLACK, gr_pt(b, x, y)};
					q[nq++] = (query){GR_WHITE, gr_pt(b, x, y)};
				}
		check_legality(&ls, q, nq);

		if (bad != GR_NONE)
			attempt_illegal(&ls, c, bad);
		play_both(&ls, c, move);
		check_stones(&ls);
		last = move;
	}
	ls.st.games = 1;
	if (ls.nhist > ls.st.max_game_moves)
		ls.st.max_game_moves = ls.nhist;
	if (gr_game_state_of(ls.g) == GR_ENDED_PASSES) {
		ls.st.games_ended = 1;
		check_count(&ls);
	} else {
		ls.st.games_capped = 1;
	}
	gr_game_free(ls.g);
	stats_add(total, &ls.st);
}

static void run_games(const char *label, int size, int count, uint64_t first_seed)
{
	stats s;
	memset(&s, 0, sizeof s);
	time_t t0 = time(NULL);
	for (int i = 0; i < count; i++) {
		game_spec spec = {size, first_seed + (uint64_t)i};
		play_random_game(&spec, &s, label);
	}
	char l[64];
	snprintf(l, sizeof l, "%s (%ld s)", label, (long)(time(NULL) - t0));
	stats_print(l, &s);
	stats_add(&g_total, &s);
}

static void test_random_games_5x5(void **state)
{
	(void)state;
	run_games("5x5", 5, 100, 5000);
}

static void test_random_games_7x7(void **state)
{
	(void)state;
	run_games("7x7", 7, 30, 7000);
}

static void test_random_games_9x9(void **state)
{
	(void)state;
	run_games("9x9", 9, 10, 9000);
}

static void test_random_games_13x13(void **state)
{
	(void)state;
	run_games("13x13", 13, 6, 13000);
}

static void test_random_games_19x19(void **state)
{
	(void)state;
	run_games("19x19", 19, 20, 19000);
}

/* ------------------------------------------------------------------------ */
/* Set pieces */

typedef struct step {
	char color;         /* 'B' or 'W' */
	const char *vertex; /* GTP vertex or "pass" */
	gr_legality want;   /* goref's exact answer; GNU Go must agree on legal / illegal */
} step;

/* Writes the position of b as an SGF file GNU Go can loadsgf. */
static void write_sgf(const char *path, const gr_board *b, gr_color to_move)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s", path);
	fprintf(f, "(;GM[1]FF[4]SZ[%d]KM[7.5]RU[Chinese]PL[%c]", b->size, color_letter(to_move));
	for (int c = GR_BLACK; c <= GR_WHITE; c++) {
		if (!b->stones[c])
			continue;
		fprintf(f, "%s", c == GR_BLACK ? "AB" : "AW");
		for (int y = 0; y < b->size; y++)
			for (int x = 0; x < b->size; x++)
				if (b->color[gr_pt(b, x, y)] == c)
					fprintf(f, "[%c%c]", 'a' + x, 'a' + y);
	}
	fprintf(f, ")\n");
	fclose(f);
}

/* Loads the position into engine e with loadsgf; fails on error. */
static void load_position(gtp_engine *e, const gr_board *start, gr_color to_move)
{
	char path[] = "/tmp/goref-gnugo-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		fail_msg("mkstemp: %s", strerror(errno));
	close(fd);
	write_sgf(path, start, to_move);
	const char *r;
	int rc = gtp_command(e, &r, "loadsgf %s", path);
	unlink(path);
	if (rc != GTP_OK)
		fail_msg("GNU Go: loadsgf: %s%s", r, gtp_error(e));
	if (strcmp(r, color_word(to_move)))
		fail_msg("GNU Go: loadsgf says %s to move, the set piece says %s", r,
		         color_word(to_move));
	if (gtp_command(e, &r, "komi 7.5") != GTP_OK)
		fail_msg("GNU Go: komi: %s%s", r, gtp_error(e));
}

/* Plays steps[0..k) in a GNU Go with positional superko and checks that
 * steps[k], legal under situational superko, is illegal there. */
static void check_positional_differs(const gr_board *start, gr_color to_move, const step *steps,
                                     int k)
{
	char *argv[] = {(char *)gnugo_path(), "--mode", "gtp", "--chinese-rules", "--komi", "7.5",
	                "--positional-superko", "--level", "0", NULL};
	char err[512];
	gtp_engine *psk = gtp_start(argv, 120000, err, sizeof err);
	if (!psk)
		fail_msg("cannot start GNU Go: %s", err);
	load_position(psk, start, to_move);
	const char *r;
	for (int i = 0; i < k; i++) {
		const char *c = steps[i].color == 'B' ? "black" : "white";
		if (steps[i].want != GR_LEGAL)
			continue;
		if (gtp_command(psk, &r, "play %s %s", c, steps[i].vertex) != GTP_OK)
			fail_msg("GNU Go (positional superko) refused step %d, %s %s: %s%s", i + 1, c,
			         steps[i].vertex, r, gtp_error(psk));
	}
	const char *c = steps[k].color == 'B' ? "black" : "white";
	if (gtp_command(psk, &r, "is_legal %s %s", c, steps[k].vertex) != GTP_OK)
		fail_msg("GNU Go (positional superko): is_legal: %s%s", r, gtp_error(psk));
	if (strcmp(r, "0"))
		fail_msg("step %d, %s %s: expected illegal under positional superko, GNU Go says %s",
		         k + 1, c, steps[k].vertex, r);
	gtp_close(psk);
}

/* Plays the steps from the diagram in goref and GNU Go. positional_step, if
 * not negative, is a step legal under situational superko (as goref and the
 * main GNU Go must say) that positional superko forbids. */
static void run_set_piece(const char *name, const char *diagram, gr_color to_move,
                          const step *steps, int nsteps, int positional_step)
{
	static lockstep ls;
	memset(&ls, 0, sizeof ls);
	gr_board start;
	tu_diagram(&start, NULL, diagram);
	ls.size = start.size;
	ls.label = name;
	assert_int_equal(gr_game_new(&ls.g, start.size), 0);
	for (int y = 0; y < start.size; y++)
		for (int x = 0; x < start.size; x++) {
			int pt = gr_pt(&start, x, y);
			if (start.color[pt] != GR_EMPTY)
				assert_int_equal(gr_game_setup(ls.g, (gr_color)start.color[pt], pt), 0);
		}
	assert_int_equal(gr_game_set_to_move(ls.g, to_move), 0);

	if (positional_step >= 0) {
		assert_int_equal(steps[positional_step].want, GR_LEGAL);
		check_positional_differs(&start, to_move, steps, positional_step);
	}
	load_position(g_engine, &start, to_move);
	remember_stones(&ls);
	check_stones(&ls);

	for (int i = 0; i < nsteps; i++) {
		const gr_board *b = gr_game_board(ls.g);
		gr_color c = steps[i].color == 'B' ? GR_BLACK : GR_WHITE;
		int pt = gr_point_parse(b, steps[i].vertex);
		if (pt == GR_NONE)
			fail_msg("%s: step %d: bad vertex %s", name, i + 1, steps[i].vertex);
		if (pt == GR_PASS) {
			play_both(&ls, c, GR_PASS);
			check_stones(&ls);
			continue;
		}
		gr_legality l = gr_game_check(ls.g, c, pt);
		if (l != steps[i].want)
			fail_game(&ls, "set piece step %d: %s at %s: goref says %s, the set piece expects %s",
			          i + 1, color_word(c), steps[i].vertex, gr_legality_name(l),
			          gr_legality_name(steps[i].want));
		if (i == positional_step && !recreates_stones(&ls, c, pt))
			fail_game(&ls, "set piece step %d: %s at %s does not recreate earlier stones", i + 1,
			          color_word(c), steps[i].vertex);
		query q = {c, pt};
		check_legality(&ls, &q, 1);
		if (l == GR_LEGAL)
			play_both(&ls, c, pt);
		else
			attempt_illegal(&ls, c, pt);
		check_stones(&ls);
	}
	gr_game_free(ls.g);
}

/*
 * Send two, return one (Black). Black C1 puts B1-C1 in atari ("sends two"),
 * White A1 takes both, Black B1 takes A1 back ("returns one"): the stones are
 * those of the start again, with White to move instead of Black. Situational
 * superko (goref, GNU Go --situational-superko): legal. Positional superko
 * forbids it: a second GNU Go, started with --positional-superko, is asked
 * too, to show that the set piece does tell the two rules apart. After a
 * White pass it is Black to move in the start position
 * again, and C1 would recreate the position after the first C1 with White to
 * move: a repetition in both.
 */
static void test_send_two_return_one_black(void **state)
{
	(void)state;
	static const char diagram[] = ".....\n"
	                              ".....\n"
	                              "X....\n"
	                              "XOO..\n"
	                              ".X.O.\n";
	static const step steps[] = {
		{'B', "C1", GR_LEGAL},      /* sends two */
		{'W', "A1", GR_LEGAL},      /* takes two */
		{'B', "B1", GR_LEGAL},      /* returns one: the start position, White to move */
		{'W', "A1", GR_SUICIDE},    /* B1 has two liberties now */
		{'W', "pass", GR_LEGAL},
		{'B', "C1", GR_REPETITION}, /* the position after move 1, White to move */
		{'B', "E5", GR_LEGAL},
		{'W', "C1", GR_LEGAL},      /* B1 in atari */
		{'B', "E4", GR_LEGAL},
		{'W', "A1", GR_LEGAL},      /* takes B1: a ko */
		{'B', "B1", GR_KO},
	};
	run_set_piece("send-two-return-one (Black)", diagram, GR_BLACK, steps,
	              (int)(sizeof steps / sizeof steps[0]), 2);
}

/* The same, colours swapped, in the top right corner of a 19x19 board. */
static void test_send_two_return_one_white_19(void **state)
{
	(void)state;
	char text[19 * 20 + 1];
	for (int y = 0; y < 19; y++) {
		memset(text + y * 20, '.', 19);
		text[y * 20 + 19] = '\n';
	}
	text[19 * 20] = 0;
	/* the 5x5 Black case turned round: A -> T, row 1 -> row 19 */
	const struct {
		int x, y; /* column from A, row from the top */
		char c;
	} stones[] = {
		{18, 1, 'O'}, {18, 2, 'O'}, {17, 0, 'O'}, /* White: T18 T17 S19 */
		{17, 1, 'X'}, {16, 1, 'X'}, {15, 0, 'X'}, /* Black: S18 R18 Q19 */
	};
	for (size_t i = 0; i < sizeof stones / sizeof stones[0]; i++)
		text[stones[i].y * 20 + stones[i].x] = stones[i].c;
	static const step steps[] = {
		{'W', "R19", GR_LEGAL},      /* sends two */
		{'B', "T19", GR_LEGAL},      /* takes two */
		{'W', "S19", GR_LEGAL},      /* returns one */
		{'B', "T19", GR_SUICIDE},
		{'B', "pass", GR_LEGAL},
		{'W', "R19", GR_REPETITION},
		{'W', "A1", GR_LEGAL},
		{'B', "R19", GR_LEGAL},
	};
	run_set_piece("send-two-return-one (White, 19x19)", text, GR_WHITE, steps,
	              (int)(sizeof steps / sizeof steps[0]), 2);
}

/*
 * Simple ko: Black takes at C4, White may not take back at once (goref: ko;
 * GNU Go: illegal, its simple ko and its superko agree), may after a ko
 * threat and its answer; then Black may not retake at once either.
 */
static void test_simple_ko(void **state)
{
	(void)state;
	static const char diagram[] = ".XO..\n"
	                              "XO.O.\n"
	                              ".XO..\n"
	                              ".....\n"
	                              ".....\n";
	static const step steps[] = {
		{'B', "C4", GR_LEGAL}, /* takes B4 */
		{'W', "B4", GR_KO},
		{'W', "E1", GR_LEGAL}, /* threat */
		{'B', "E2", GR_LEGAL}, /* answer */
		{'W', "B4", GR_LEGAL}, /* takes back */
		{'B', "C4", GR_KO},
		{'B', "pass", GR_LEGAL},
		{'W', "C4", GR_LEGAL}, /* White ends the ko */
		{'B', "B4", GR_OCCUPIED},
		{'B', "D5", GR_LEGAL},
		{'W', "E5", GR_LEGAL},
	};
	run_set_piece("simple ko", diagram, GR_BLACK, steps, (int)(sizeof steps / sizeof steps[0]),
	              -1);
}

/* Suicide of one stone and of several, and a capture that looks like one. */
static void test_suicide(void **state)
{
	(void)state;
	static const char diagram[] = "XX.O.\n"
	                              "OOO..\n"
	                              ".....\n"
	                              "....O\n"
	                              "...O.\n";
	static const step steps[] = {
		{'B', "C5", GR_SUICIDE}, /* fills the last liberty of A5-B5: three stones */
		{'B', "E1", GR_SUICIDE}, /* one stone */
		{'B', "E3", GR_LEGAL},
		{'W', "C5", GR_LEGAL},   /* takes A5-B5 */
		{'B', "D2", GR_LEGAL},   /* E2 in atari */
		{'W', "A3", GR_LEGAL},
		{'B', "E1", GR_LEGAL},   /* no liberty of its own, but takes E2: a ko */
		{'W', "E2", GR_KO},
		{'W', "pass", GR_LEGAL},
		{'B', "D1", GR_OCCUPIED},
		{'B', "C1", GR_LEGAL},   /* takes D1 */
	};
	run_set_piece("suicide", diagram, GR_BLACK, steps, (int)(sizeof steps / sizeof steps[0]), -1);
}

/*
 * GNU Go's superko check past move 500, pinned down on the game where this
 * test found it (tests/fixtures/gnugo/fold-19019.txt): goref must call B Q12
 * a repetition (confirmed by whole-board comparison) and GNU Go, given only
 * the last 105 moves as history, must agree. What GNU Go says with the whole
 * 504-move history is printed, not checked: 3.8 says legal; a GNU Go that
 * says illegal has had the bug fixed.
 */
static void test_gnugo_history_fold(void **state)
{
	(void)state;
	static lockstep ls;
	memset(&ls, 0, sizeof ls);
	ls.size = 19;
	ls.label = "fold-19019";
	assert_int_equal(gr_game_new(&ls.g, 19), 0);
	remember_stones(&ls);
	size_t len;
	char *text = tu_read_file(tu_fixture("gnugo/fold-19019.txt"), &len);
	if (!text)
		fail_msg("cannot read %s", tu_fixture("gnugo/fold-19019.txt"));
	enum { SHORT_FROM = 399 };
	static gr_color cs[MAX_GAME];
	static int pts[MAX_GAME];
	int n = 0;
	gr_board at_short;
	gr_color to_move_short = GR_BLACK;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (gr_diagram_skip_line(line, strlen(line)))
			continue;
		char c, v[8];
		if (sscanf(line, " %c %7s", &c, v) != 2 || (c != 'B' && c != 'W') || n >= MAX_GAME)
			fail_msg("fold-19019.txt: bad line \"%s\"", line);
		if (n == SHORT_FROM) {
			at_short = *gr_game_board(ls.g);
			to_move_short = gr_game_to_move(ls.g);
		}
		cs[n] = c == 'B' ? GR_BLACK : GR_WHITE;
		pts[n] = gr_point_parse(gr_game_board(ls.g), v);
		if (pts[n] == GR_NONE)
			fail_msg("fold-19019.txt: bad vertex \"%s\"", v);
		if (pts[n] == GR_PASS)
			gr_game_pass(ls.g, cs[n]);
		else if (gr_game_play(ls.g, cs[n], pts[n]) != GR_LEGAL)
			fail_msg("fold-19019.txt: move %d (%s) refused by goref", n + 1, line);
		record_move(&ls, cs[n], pts[n]);
		remember_stones(&ls);
		n++;
	}
	free(text);
	assert_int_equal(n, 504);
	int q12 = tu_pt(gr_game_board(ls.g), "Q12");
	assert_int_equal(gr_game_check(ls.g, GR_BLACK, q12), GR_REPETITION);
	assert_int_equal(find_repetition(&ls, GR_BLACK, q12), 499);

	/* GNU Go with the last 105 moves as history */
	load_position(g_engine, &at_short, to_move_short);
	char name[8];
	for (int i = SHORT_FROM; i < n; i++)
		must("play %s %s", color_word(cs[i]), gr_point_name(&at_short, pts[i], name));
	check_stones_opt(&ls, false);
	const char *r = must("is_legal black Q12");
	if (strcmp(r, "0"))
		fail_game(&ls, "GNU Go with %d moves of history: is_legal black Q12 = %s, goref: repetition",
		          n - SHORT_FROM, r);

	/* GNU Go with the whole game as history */
	must("boardsize 19");
	must("clear_board");
	for (int i = 0; i < n; i++)
		must("play %s %s", color_word(cs[i]), gr_point_name(&at_short, pts[i], name));
	check_stones(&ls);
	/* through the check the random games use: a miss confirmed on the side */
	query q = {GR_BLACK, q12};
	check_legality(&ls, &q, 1);
	printf("[ gnugo    ] fold-19019: with all %d moves as history GNU Go says B Q12 is %s\n", n,
	       ls.st.fold_misses ? "legal (the known bug: it is a repetition)"
	                         : "illegal (the bug is gone)");
	gr_game_free(ls.g);
}

/* ------------------------------------------------------------------------ */
/* The GTP client itself */

static void test_gtp_client(void **state)
{
	(void)state;
	const char *r;
	assert_int_equal(gtp_command(g_engine, &r, "protocol_version"), GTP_OK);
	assert_string_equal(r, "2");
	assert_int_equal(gtp_command(g_engine, &r, "no_such_command"), GTP_FAILED);
	assert_string_equal(r, "unknown command");
	assert_int_equal(gtp_command(g_engine, &r, "boardsize 9"), GTP_OK);
	assert_string_equal(r, "");
	assert_int_equal(gtp_command(g_engine, &r, "clear_board"), GTP_OK);
	assert_int_equal(gtp_command(g_engine, &r, "play black E5"), GTP_OK);
	assert_int_equal(gtp_command(g_engine, &r, "play white E5"), GTP_FAILED);
	assert_string_equal(r, "illegal move");
	assert_int_equal(gtp_command(g_engine, &r, "play white Z9"), GTP_FAILED);
	/* pipelined commands come back in order */
	assert_int_equal(gtp_send(g_engine, "is_legal white E5"), 0);
	assert_int_equal(gtp_send(g_engine, "is_legal white D5"), 0);
	assert_int_equal(gtp_send(g_engine, "list_stones black"), 0);
	assert_int_equal(gtp_recv(g_engine, &r), GTP_OK);
	assert_string_equal(r, "0");
	assert_int_equal(gtp_recv(g_engine, &r), GTP_OK);
	assert_string_equal(r, "1");
	assert_int_equal(gtp_recv(g_engine, &r), GTP_OK);
	assert_string_equal(r, "E5");
	/* a multi-line reply keeps its inner newlines */
	assert_int_equal(gtp_command(g_engine, &r, "showboard"), GTP_OK);
	assert_non_null(strchr(r, '\n'));
	/* nothing waiting: an error, not a hang */
	assert_int_equal(gtp_recv(g_engine, &r), GTP_EIO);
	assert_int_equal(gtp_command(g_engine, &r, "bad\ncommand"), GTP_EIO);
}

/* A program that is not there, and one that exits at once. */
static void test_gtp_errors(void **state)
{
	(void)state;
	char err[512];
	char *missing[] = {"/nonexistent/gnugo", "--mode", "gtp", NULL};
	gtp_engine *e = gtp_start(missing, 5000, err, sizeof err);
	if (e) {
		/* posix_spawn may report exec failure only as exit status 127 */
		const char *r;
		assert_int_equal(gtp_command(e, &r, "name"), GTP_EIO);
		assert_int_equal(gtp_close(e), 127);
	} else {
		assert_non_null(strstr(err, "/nonexistent/gnugo"));
	}
	char *quits[] = {"/bin/sh", "-c", "exit 3", NULL};
	e = gtp_start(quits, 5000, err, sizeof err);
	assert_non_null(e);
	const char *r;
	assert_int_equal(gtp_command(e, &r, "name"), GTP_EIO);
	assert_non_null(strstr(gtp_error(e), "closed"));
	assert_int_equal(gtp_close(e), 3);
}

int main(void)
{
	if (access(gnugo_path(), X_OK) != 0) {
		printf("skipped: GNU Go not installed (apt-get install gnugo): %s not found\n",
		       gnugo_path());
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gtp_client),
		cmocka_unit_test(test_gtp_errors),
		cmocka_unit_test(test_send_two_return_one_black),
		cmocka_unit_test(test_send_two_return_one_white_19),
		cmocka_unit_test(test_simple_ko),
		cmocka_unit_test(test_suicide),
		cmocka_unit_test(test_gnugo_history_fold),
		cmocka_unit_test(test_random_games_5x5),
		cmocka_unit_test(test_random_games_7x7),
		cmocka_unit_test(test_random_games_9x9),
		cmocka_unit_test(test_random_games_13x13),
		cmocka_unit_test(test_random_games_19x19),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
