/* The board and the game: captures, suicide, ko, repetition. Positions come
 * from diagram fixtures in tests/fixtures/rules/. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* Loads "before" (and "after", after a line "---", when after is not NULL). */
static void load_pair(const char *name, gr_board *before, gr_board *after)
{
	size_t len;
	char *text = tu_read_file(tu_fixture(name), &len);
	if (!text)
		fail_msg("cannot read %s", tu_fixture(name));
	char *sep = strstr(text, "\n---\n");
	if (sep)
		*sep = 0;
	gr_error err = {0};
	if (gr_diagram_parse(before, NULL, text, strlen(text), 0, &err) != 0)
		fail_msg("%s:%d: %s", name, err.line, err.message);
	if (after) {
		if (!sep)
			fail_msg("%s has no '---' section", name);
		const char *t2 = sep + 5;
		if (gr_diagram_parse(after, NULL, t2, strlen(t2), 0, &err) != 0)
			fail_msg("%s (after ---):%d: %s", name, err.line, err.message);
	}
	free(text);
}

static void play_ok(gr_board *b, gr_color c, const char *pt)
{
	gr_legality l = gr_board_play(b, c, tu_pt(b, pt));
	if (l != GR_LEGAL)
		fail_msg("%s %s: %s", c == GR_BLACK ? "B" : "W", pt, gr_legality_name(l));
	assert_true(gr_board_consistent(b));
}

static void expect_board(const gr_board *got, const gr_board *want)
{
	char a[512], b[512];
	if (!gr_board_same(got, want)) {
		gr_diagram_write(got, NULL, a, sizeof a);
		gr_diagram_write(want, NULL, b, sizeof b);
		fail_msg("expected:\n%s\ngot:\n%s", b, a);
	}
	assert_int_equal(got->hash, want->hash);
	assert_int_equal(got->stones[GR_BLACK], want->stones[GR_BLACK]);
	assert_int_equal(got->stones[GR_WHITE], want->stones[GR_WHITE]);
}

static void test_capture_corner(void **s)
{
	(void)s;
	gr_board b, want;
	load_pair("rules/capture_corner.txt", &b, &want);
	play_ok(&b, GR_BLACK, "A4");
	expect_board(&b, &want);
	assert_int_equal(b.last_captures, 1);
	assert_int_equal(b.captured[GR_BLACK], 1);
}

static void test_capture_edge(void **s)
{
	(void)s;
	gr_board b, want;
	load_pair("rules/capture_edge.txt", &b, &want);
	play_ok(&b, GR_BLACK, "F7");
	expect_board(&b, &want);
	assert_int_equal(b.last_captures, 3);
}

static void test_capture_four_groups(void **s)
{
	(void)s;
	gr_board b, want;
	load_pair("rules/capture_many.txt", &b, &want);
	play_ok(&b, GR_WHITE, "D5");
	expect_board(&b, &want);
	assert_int_equal(b.last_captures, 4);
	assert_int_equal(b.ko, GR_NONE); /* four stones taken: no ko */
}

static void test_capture_two_groups_in_corner(void **s)
{
	(void)s;
	gr_board b, want;
	load_pair("rules/capture_groups_corner.txt", &b, &want);
	/* B1 has no liberty of its own: legal only because it captures */
	assert_int_equal(gr_board_check(&b, GR_BLACK, tu_pt(&b, "B1"), NULL), GR_LEGAL);
	play_ok(&b, GR_BLACK, "B1");
	expect_board(&b, &want);
	assert_int_equal(b.last_captures, 7);
	assert_int_equal(gr_board_liberties(&b, tu_pt(&b, "B1"), NULL), 10);
}

static void test_suicide(void **s)
{
	(void)s;
	gr_board b, copy;
	load_pair("rules/suicide.txt", &b, NULL);
	copy = b;
	assert_int_equal(gr_board_play(&b, GR_WHITE, tu_pt(&b, "A1")), GR_SUICIDE);
	assert_int_equal(gr_board_play(&b, GR_BLACK, tu_pt(&b, "E4")), GR_SUICIDE);
	expect_board(&b, &copy); /* untouched */
	/* the same points are fine for the other colour */
	assert_int_equal(gr_board_check(&b, GR_BLACK, tu_pt(&b, "A1"), NULL), GR_LEGAL);
	assert_int_equal(gr_board_check(&b, GR_WHITE, tu_pt(&b, "E4"), NULL), GR_LEGAL);
	/* and occupied points are occupied */
	assert_int_equal(gr_board_check(&b, GR_WHITE, tu_pt(&b, "E5"), NULL), GR_OCCUPIED);
	assert_int_equal(gr_board_check(&b, GR_WHITE, GR_PASS, NULL), GR_OCCUPIED);
}

static void test_ko(void **s)
{
	(void)s;
	gr_board b;
	load_pair("rules/ko.txt", &b, NULL);
	play_ok(&b, GR_BLACK, "C4");
	assert_int_equal(b.last_captures, 1);
	assert_int_equal(b.ko, tu_pt(&b, "B4"));
	assert_int_equal(gr_board_play(&b, GR_WHITE, tu_pt(&b, "B4")), GR_KO);
	/* a threat and its answer, then the retake is legal */
	play_ok(&b, GR_WHITE, "E1");
	play_ok(&b, GR_BLACK, "E2");
	play_ok(&b, GR_WHITE, "B4");
	assert_int_equal(b.last_captures, 1);
	/* and now Black may not retake at once */
	assert_int_equal(gr_board_check(&b, GR_BLACK, tu_pt(&b, "C4"), NULL), GR_KO);
	/* a pass clears the ko too */
	gr_board_pass(&b);
	assert_int_equal(gr_board_check(&b, GR_BLACK, tu_pt(&b, "C4"), NULL), GR_LEGAL);
}

static void test_snapback_is_not_ko(void **s)
{
	(void)s;
	gr_board b, want;
	load_pair("rules/snapback.txt", &b, &want);
	play_ok(&b, GR_WHITE, "B1");
	play_ok(&b, GR_BLACK, "A1");
	assert_int_equal(b.last_captures, 1);
	assert_int_equal(b.ko, GR_NONE);
	play_ok(&b, GR_WHITE, "B1");
	assert_int_equal(b.last_captures, 5);
	expect_board(&b, &want);
}

static gr_game *game_from(const char *fixture)
{
	gr_board b;
	load_pair(fixture, &b, NULL);
	gr_game *g;
	assert_int_equal(gr_game_new(&g, b.size), 0);
	for (int y = 0; y < b.size; y++)
		for (int x = 0; x < b.size; x++) {
			int pt = gr_pt(&b, x, y);
			if (b.color[pt] != GR_EMPTY)
				assert_int_equal(gr_game_setup(g, (gr_color)b.color[pt], pt), 0);
		}
	return g;
}

static void game_ok(gr_game *g, gr_color c, const char *name)
{
	int pt = tu_pt(gr_game_board(g), name);
	gr_legality l = gr_game_play(g, c, pt);
	if (l != GR_LEGAL)
		fail_msg("%s %s: %s", c == GR_BLACK ? "B" : "W", name, gr_legality_name(l));
}

static void test_triple_ko_is_repetition(void **s)
{
	(void)s;
	gr_game *g = game_from("rules/triple_ko.txt");
	gr_board start = *gr_game_board(g);
	game_ok(g, GR_BLACK, "C8");
	game_ok(g, GR_WHITE, "B5");
	game_ok(g, GR_BLACK, "C2");
	game_ok(g, GR_WHITE, "B8");
	game_ok(g, GR_BLACK, "C5");
	int b2 = tu_pt(gr_game_board(g), "B2");
	/* not the simple ko of the last move, but the whole board comes back */
	assert_int_equal(gr_board_check(gr_game_board(g), GR_WHITE, b2, NULL), GR_LEGAL);
	assert_int_equal(gr_game_check(g, GR_WHITE, b2), GR_REPETITION);
	/* forbid (the default): void, nothing changes */
	gr_board before = *gr_game_board(g);
	assert_int_equal(gr_game_play(g, GR_WHITE, b2), GR_REPETITION);
	expect_board(gr_game_board(g), &before);
	assert_int_equal(gr_game_state_of(g), GR_PLAYING);
	assert_int_equal(gr_game_to_move(g), GR_WHITE);
	/* the void move counts as a pass (article 19): Black to move */
	gr_game_pass(g, GR_WHITE);
	assert_int_equal(gr_game_to_move(g), GR_BLACK);
	gr_game_free(g);

	/* a tournament that rules such cycles a draw: the move stands, the game ends */
	g = game_from("rules/triple_ko.txt");
	gr_game_set_repetition_rule(g, GR_REP_DRAW);
	game_ok(g, GR_BLACK, "C8");
	game_ok(g, GR_WHITE, "B5");
	game_ok(g, GR_BLACK, "C2");
	game_ok(g, GR_WHITE, "B8");
	game_ok(g, GR_BLACK, "C5");
	assert_int_equal(gr_game_play(g, GR_WHITE, b2), GR_REPETITION);
	assert_int_equal(gr_game_state_of(g), GR_ENDED_REPETITION);
	expect_board(gr_game_board(g), &start);
	assert_int_equal(gr_game_play(g, GR_BLACK, tu_pt(gr_game_board(g), "H1")), GR_OCCUPIED);
	gr_game_free(g);
}

static void test_send_two_return_one(void **s)
{
	(void)s;
	gr_game *g = game_from("rules/send_two_return_one.txt");
	gr_board start = *gr_game_board(g);
	game_ok(g, GR_BLACK, "C5");
	game_ok(g, GR_WHITE, "A5");
	assert_int_equal(gr_game_board(g)->last_captures, 2);
	/* same stones as at the start, but White to move: situational repetition
	 * allows it (positional superko would not) */
	game_ok(g, GR_BLACK, "B5");
	expect_board(gr_game_board(g), &start);
	assert_int_equal(gr_game_to_move(g), GR_WHITE);
	/* if White now passes, Black's C5 would bring back the position after
	 * Black's first C5 with White to move: that one is a repetition */
	gr_game_pass(g, GR_WHITE);
	assert_int_equal(gr_game_check(g, GR_BLACK, tu_pt(gr_game_board(g), "C5")), GR_REPETITION);
	/* while a move elsewhere by White makes it new again */
	gr_game_free(g);
	g = game_from("rules/send_two_return_one.txt");
	game_ok(g, GR_BLACK, "C5");
	game_ok(g, GR_WHITE, "A5");
	game_ok(g, GR_BLACK, "B5");
	game_ok(g, GR_WHITE, "E1");
	assert_int_equal(gr_game_check(g, GR_BLACK, tu_pt(gr_game_board(g), "C5")), GR_LEGAL);
	gr_game_free(g);
}

static void test_passes_end_the_game(void **s)
{
	(void)s;
	gr_game *g;
	assert_int_equal(gr_game_new(&g, 9), 0);
	gr_game_pass(g, GR_BLACK);
	assert_int_equal(gr_game_state_of(g), GR_PLAYING);
	game_ok(g, GR_WHITE, "E5");
	gr_game_pass(g, GR_BLACK);
	gr_game_pass(g, GR_WHITE);
	assert_int_equal(gr_game_state_of(g), GR_ENDED_PASSES);
	assert_int_equal(gr_game_moves_played(g), 4);
	gr_game_free(g);

	assert_int_equal(gr_game_new(&g, 13), 0);
	gr_game_resign(g, GR_WHITE);
	assert_int_equal(gr_game_state_of(g), GR_ENDED_RESIGN);
	assert_int_equal(gr_game_resign_winner(g), GR_BLACK);
	gr_game_free(g);
	assert_int_equal(gr_game_new(&g, 20), GR_ERANGE);
	assert_null(g);
}

static void test_points_and_sizes(void **s)
{
	(void)s;
	gr_board b;
	char buf[8];
	assert_int_equal(gr_board_init(&b, 1), -1);
	assert_int_equal(gr_board_init(&b, 20), -1);
	assert_int_equal(gr_board_init(&b, 19), 0);
	assert_string_equal(gr_point_name(&b, gr_pt(&b, 0, 0), buf), "A19");
	assert_string_equal(gr_point_name(&b, gr_pt(&b, 18, 18), buf), "T1");
	assert_string_equal(gr_point_name(&b, gr_pt(&b, 8, 9), buf), "J10");
	assert_int_equal(gr_point_parse(&b, "j10"), gr_pt(&b, 8, 9));
	assert_int_equal(gr_point_parse(&b, "I5"), GR_NONE);
	assert_int_equal(gr_point_parse(&b, "A20"), GR_NONE);
	assert_int_equal(gr_point_parse(&b, "A0"), GR_NONE);
	assert_int_equal(gr_point_parse(&b, "PASS"), GR_PASS);
	assert_int_equal(gr_point_parse(&b, "A1x"), GR_NONE);
	assert_int_equal(gr_board_init(&b, 9), 0);
	assert_string_equal(gr_point_name(&b, gr_pt(&b, 8, 0), buf), "J9");
	assert_int_equal(gr_point_parse(&b, "K9"), GR_NONE);
	assert_int_equal(gr_board_init(&b, 13), 0);
	assert_string_equal(gr_point_name(&b, gr_pt(&b, 12, 12), buf), "N1");
}

static void test_diagram_forms(void **s)
{
	(void)s;
	gr_board a, b;
	bool dead[GR_MAX_POINTS];
	tu_diagram(&a, dead, "# a comment\nX . O\n\n. x .\no . .\n");
	assert_int_equal(a.size, 3);
	assert_true(dead[gr_pt(&a, 1, 1)]);
	assert_true(dead[gr_pt(&a, 0, 2)]);
	assert_false(dead[gr_pt(&a, 0, 0)]);
	tu_diagram(&b, NULL, "X.O\r\n.X.\r\nO..\r\n");
	assert_true(gr_board_same(&a, &b));
	char out[64];
	gr_diagram_write(&a, dead, out, sizeof out);
	assert_string_equal(out, "X.O\n.x.\no..\n");
	/* the dataset form */
	tu_diagram(&b, NULL, "B . W\n. B .\nW . .\n");
	assert_true(gr_board_same(&a, &b));
}

static void test_diagram_errors(void **s)
{
	(void)s;
	gr_board b;
	gr_error err;
	const char *bad[][2] = {
		{"X.O\n.Z.\nO..\n", "2:2"},     /* stray character */
		{"X.O\n..\nO..\n", "2:3"},      /* short row */
		{"X.O\n...\n", "2:1"},          /* too few rows */
		{"X.O\n...\n...\n...\n", "4:1"}, /* too many rows */
		{"", "1:1"},
		{"X\n", "1:1"},                 /* size 1 */
		{"XBO\n...\n...\n", "1:2"},     /* B only in the spaced form */
		{"X . O\n. .  .\nO . .\n", "2:5"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&err, 0, sizeof err);
		int rc = gr_diagram_parse(&b, NULL, bad[i][0], strlen(bad[i][0]), 0, &err);
		char where[32];
		snprintf(where, sizeof where, "%d:%d", err.line, err.column);
		if (rc != GR_EPARSE || strcmp(where, bad[i][1]) != 0)
			fail_msg("case %zu: rc %d at %s (want %s): %s", i, rc, where, bad[i][1], err.message);
		assert_true(strlen(err.message) > 0);
	}
	/* a 20-wide row */
	const char *wide = "....................\n";
	assert_int_equal(gr_diagram_parse(&b, NULL, wide, strlen(wide), 0, &err), GR_EPARSE);
	/* size expected */
	assert_int_equal(gr_diagram_parse(&b, NULL, "...\n...\n...\n", 12, 9, &err), GR_EPARSE);
}

/* Random games: after every move the incremental structures must equal a
 * rebuild from the colours alone. */
static void test_random_games_stay_consistent(void **s)
{
	(void)s;
	for (int size = 5; size <= 19; size += 7) {
		for (uint64_t seed = 1; seed <= 20; seed++) {
			gr_board b;
			gr_board_init(&b, size);
			uint64_t x = seed * 0x9e3779b97f4a7c15ULL;
			gr_color c = GR_BLACK;
			for (int m = 0; m < size * size * 2; m++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				int pt = gr_pt(&b, (int)(x % (unsigned)size), (int)((x >> 20) % (unsigned)size));
				gr_board before = b;
				uint64_t predicted = 0;
				gr_legality l = gr_board_check(&b, c, pt, &predicted);
				assert_int_equal(gr_board_play(&b, c, pt), l);
				if (l == GR_LEGAL) {
					assert_int_equal(predicted, b.hash);
					c = gr_other(c);
				} else {
					assert_true(gr_board_same(&b, &before));
				}
				if (!gr_board_consistent(&b))
					fail_msg("size %d seed %llu move %d: inconsistent", size,
					         (unsigned long long)seed, m);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_corner),
		cmocka_unit_test(test_capture_edge),
		cmocka_unit_test(test_capture_four_groups),
		cmocka_unit_test(test_capture_two_groups_in_corner),
		cmocka_unit_test(test_suicide),
		cmocka_unit_test(test_ko),
		cmocka_unit_test(test_snapback_is_not_ko),
		cmocka_unit_test(test_triple_ko_is_repetition),
		cmocka_unit_test(test_send_two_return_one),
		cmocka_unit_test(test_passes_end_the_game),
		cmocka_unit_test(test_points_and_sizes),
		cmocka_unit_test(test_diagram_forms),
		cmocka_unit_test(test_diagram_errors),
		cmocka_unit_test(test_random_games_stay_consistent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
