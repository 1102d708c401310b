/*
 * The dead-stone proposal (rules/dead.h) on hand-made positions: the
 * diagrams in tests/fixtures/dead/, where 'x' / 'o' mark the stones that are
 * dead (the expected answer, checked against GNU Go 3.8 at level 10 when the
 * fixtures were written). GNU Go's self-play games are test_dead_gnugo's.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "count.h"
#include "dead.h"

/* Fails, printing both diagrams, unless the proposal for the fixture is its
 * marks exactly. Runs with seeds 1..3 so that a pass is not luck. */
static void expect_fixture(const char *name, gr_color to_move, gr_dead_result *out)
{
	gr_board b;
	bool want[GR_MAX_POINTS];
	tu_load_diagram(&b, want, name);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		gr_dead_options o;
		gr_dead_options_init(&o);
		o.seed = seed;
		gr_dead_result r;
		assert_int_equal(gr_dead_analyse(&r, &b, to_move, &o), 0);
		bool same = true;
		for (int p = 0; p < GR_MAX_POINTS; p++)
			if (gr_on_board(&b, p) && b.color[p] != GR_EMPTY && r.dead[p] != want[p])
				same = false;
		if (!same) {
			char got[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1], exp[sizeof got];
			gr_diagram_write(&b, r.dead, got, sizeof got);
			gr_diagram_write(&b, want, exp, sizeof exp);
			fail_msg("%s, seed %d: proposed\n%s\nexpected\n%s", name, (int)seed, got, exp);
		}
		if (seed == 1 && out)
			*out = r;
	}
}

static int count_marks(const bool *m)
{
	int n = 0;
	for (int p = 0; p < GR_MAX_POINTS; p++)
		n += m[p];
	return n;
}

/* The analysis with a single playout: what the board itself shows (Benson,
 * the two-group seki rule) must not depend on the playouts. */
static void analyse_one_playout(gr_dead_result *r, const gr_board *b, gr_color to_move)
{
	gr_dead_options o;
	gr_dead_options_init(&o);
	o.playouts = 1;
	assert_int_equal(gr_dead_analyse(r, b, to_move, &o), 0);
}

static void test_dead_in_territory(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/territory.txt", GR_BLACK, &r);
	expect_fixture("dead/territory.txt", GR_WHITE, NULL);
	assert_int_equal(r.dead_black, 1);
	assert_int_equal(r.dead_white, 1);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/territory.txt");
	assert_int_equal(r.reason[tu_pt(&b, "B3")], GR_DEAD_PLAYOUTS);
	assert_int_equal(r.reason[tu_pt(&b, "G6")], GR_DEAD_PLAYOUTS);
	assert_false(r.dead[tu_pt(&b, "D5")]);
	assert_true(r.ownership[tu_pt(&b, "B3")] > 0.5f);  /* Black's */
	assert_true(r.ownership[tu_pt(&b, "G6")] < -0.5f); /* White's */
	assert_true(gr_dead_finished(&r, &b, NULL));
	/* the count with the proposal: 36 points each side of the walls, 45 */
	gr_count c;
	assert_int_equal(gr_count_board(&c, &b, r.dead, GR_KOMI_DEFAULT, 0, 0), 0);
	assert_int_equal(c.black_dead, 1);
	assert_int_equal(c.white_dead, 1);
	assert_int_equal(c.dame, 0);
	assert_true(c.black == 36 && c.white == 45);
}

static void test_two_eyes_live(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/two_eyes.txt", GR_BLACK, &r);
	expect_fixture("dead/two_eyes.txt", GR_WHITE, NULL);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/two_eyes.txt");
	/* two one-point eyes: alive unconditionally (Benson), whoever moves */
	assert_int_equal(r.reason[tu_pt(&b, "B9")], GR_DEAD_BENSON);
	assert_int_equal(r.reason[tu_pt(&b, "A8")], GR_DEAD_BENSON);
	assert_false(r.dead[tu_pt(&b, "E8")]);
	assert_true(r.dead[tu_pt(&b, "H2")]);
}

static void test_seki_one_eye_each(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/seki.txt", GR_BLACK, &r);
	expect_fixture("dead/seki.txt", GR_WHITE, NULL);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/seki.txt");
	assert_int_equal(count_marks(r.dead), 0);
	assert_int_equal(r.reason[tu_pt(&b, "B9")], GR_DEAD_SEKI);
	assert_int_equal(r.reason[tu_pt(&b, "A7")], GR_DEAD_SEKI);
	assert_true(r.seki[tu_pt(&b, "C9")]);  /* the shared liberty */
	assert_false(r.seki[tu_pt(&b, "A9")]); /* an eye, not shared */
	assert_false(r.seki[tu_pt(&b, "G9")]);
	assert_int_equal(r.seki_groups, 2);
	assert_true(gr_dead_finished(&r, &b, NULL));
	/* found on the board itself, not by the playouts */
	analyse_one_playout(&r, &b, GR_BLACK);
	assert_int_equal(r.reason[tu_pt(&b, "B9")], GR_DEAD_SEKI);
	assert_int_equal(r.reason[tu_pt(&b, "A7")], GR_DEAD_SEKI);
	assert_true(r.seki[tu_pt(&b, "C9")]);
	/* C9 is dame; A9 is Black's eye and E9 White's */
	gr_count c;
	assert_int_equal(gr_count_board(&c, &b, r.dead, GR_KOMI_DEFAULT, 0, 0), 0);
	assert_int_equal(c.dame, 1);
}

static void test_seki_no_eyes(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/seki_no_eyes.txt", GR_BLACK, &r);
	expect_fixture("dead/seki_no_eyes.txt", GR_WHITE, NULL);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/seki_no_eyes.txt");
	assert_int_equal(count_marks(r.dead), 0);
	assert_int_equal(r.reason[tu_pt(&b, "C5")], GR_DEAD_SEKI);
	assert_int_equal(r.reason[tu_pt(&b, "B5")], GR_DEAD_SEKI);
	assert_true(r.seki[tu_pt(&b, "A9")]);
	assert_true(r.seki[tu_pt(&b, "B8")]);
	assert_int_equal(r.seki_groups, 2);
	gr_count c;
	assert_int_equal(gr_count_board(&c, &b, r.dead, GR_KOMI_DEFAULT, 0, 0), 0);
	assert_int_equal(c.dame, 2);
	analyse_one_playout(&r, &b, GR_WHITE);
	assert_int_equal(r.reason[tu_pt(&b, "C5")], GR_DEAD_SEKI);
	assert_int_equal(r.reason[tu_pt(&b, "B5")], GR_DEAD_SEKI);
}

static void test_big_dead_group(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/big_dead.txt", GR_BLACK, &r);
	expect_fixture("dead/big_dead.txt", GR_WHITE, NULL);
	assert_int_equal(r.dead_black, 11);
	assert_int_equal(r.dead_white, 0);
}

static void test_nakade(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/nakade.txt", GR_BLACK, &r);
	expect_fixture("dead/nakade.txt", GR_WHITE, NULL);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/nakade.txt");
	/* two groups sharing their two liberties, but no seki: a nakade */
	assert_false(r.seki[tu_pt(&b, "G1")]);
	analyse_one_playout(&r, &b, GR_BLACK);
	assert_int_not_equal(r.reason[tu_pt(&b, "G1")], GR_DEAD_SEKI);
	assert_int_not_equal(r.reason[tu_pt(&b, "F2")], GR_DEAD_SEKI);
	expect_fixture("dead/nakade.txt", GR_BLACK, &r);
	assert_false(r.dead[tu_pt(&b, "G1")]);
	assert_int_equal(r.dead_black, 7);
}

static void test_no_dead(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/no_dead.txt", GR_BLACK, &r);
	expect_fixture("dead/no_dead.txt", GR_WHITE, NULL);
	assert_int_equal(count_marks(r.dead), 0);
	assert_int_equal(r.seki_groups, 0);
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/no_dead.txt");
	assert_true(gr_dead_finished(&r, &b, NULL));
}

static void test_game_9x9(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/game9.txt", GR_WHITE, &r);
	assert_int_equal(r.dead_white, 9);
}

static void test_game_13x13(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("dead/game13.txt", GR_WHITE, &r);
	assert_int_equal(r.dead_black, 5);
	assert_int_equal(r.dead_white, 5);
}

/* Opponent stones in a small region of an unconditionally alive group are
 * dead without a playout's say. */
static void test_enclosed_by_benson(void **state)
{
	(void)state;
	gr_board b;
	tu_diagram(&b, NULL,
	           ".O.X.\n"
	           "XXXX.\n"
	           ".....\n"
	           ".....\n"
	           ".....\n");
	gr_dead_options o;
	gr_dead_options_init(&o);
	o.playouts = 1; /* the playouts alone could not tell */
	static gr_dead_result r;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_WHITE, &o), 0);
	/* Black's top row: regions {A5, B5, C5} (B5 White's) and {E5, ...}: the
	 * first is small (A5 and C5 are liberties) but the second is not, so the
	 * black stones are not unconditionally alive */
	assert_int_not_equal(r.reason[tu_pt(&b, "B5")], GR_DEAD_ENCLOSED);

	tu_diagram(&b, NULL,
	           ".O.X.\n"
	           "XXXXX\n"
	           ".....\n"
	           ".....\n"
	           ".....\n");
	assert_int_equal(gr_dead_analyse(&r, &b, GR_WHITE, &o), 0);
	/* now E5 is an eye: two small regions, Black lives unconditionally */
	assert_int_equal(r.reason[tu_pt(&b, "D5")], GR_DEAD_BENSON);
	assert_int_equal(r.reason[tu_pt(&b, "B5")], GR_DEAD_ENCLOSED);
	assert_true(r.dead[tu_pt(&b, "B5")]);
	assert_false(r.dead[tu_pt(&b, "A4")]);
}

static void test_unfinished(void **state)
{
	(void)state;
	gr_board b;
	tu_diagram(&b, NULL,
	           ".........\n"
	           ".........\n"
	           "..X...O..\n"
	           ".........\n"
	           "....X....\n"
	           ".........\n"
	           "..O...X..\n"
	           ".........\n"
	           ".........\n");
	static gr_dead_result r;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, NULL), 0);
	bool unsettled[GR_MAX_POINTS];
	assert_false(gr_dead_finished(&r, &b, unsettled));
	assert_true(unsettled[tu_pt(&b, "E1")]);
	assert_true(count_marks(unsettled) > 40);
	/* an empty board is not finished either, and has nothing dead */
	assert_int_equal(gr_board_init(&b, 9), 0);
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, NULL), 0);
	assert_int_equal(count_marks(r.dead), 0);
	assert_false(gr_dead_finished(&r, &b, NULL));
}

/* A seki from GNU Go's self-play (13x13, seed 107): Black's eight stones
 * H7-N5 and White's five K7-N6 share L6 and M6, GNU Go's seki list. */
static void test_seki_in_a_game(void **state)
{
	(void)state;
	static gr_dead_result r;
	expect_fixture("selfplay/13x13-s0107.txt", GR_BLACK, &r);
	gr_board b;
	tu_load_diagram(&b, NULL, "selfplay/13x13-s0107.txt");
	static const char *const seki[] = {"H7", "J7", "J6", "K6", "K5", "L5", "M5",
	                                   "N5", "K7", "L7", "M7", "N7", "N6", "L6", "M6"};
	for (unsigned i = 0; i < sizeof seki / sizeof *seki; i++)
		assert_true(r.seki[tu_pt(&b, seki[i])]);
	assert_int_equal(r.seki_groups, 2);
	assert_int_equal(r.reason[tu_pt(&b, "H7")], GR_DEAD_SEKI);
	assert_int_equal(r.reason[tu_pt(&b, "N6")], GR_DEAD_SEKI);
}

/* A fight left open at the end (9x9 self-play, seed 13): White's three stones
 * in Black's area live in about half the playouts. GNU Go calls them dead;
 * the proposal says alive but flags them, and the position unfinished. */
static void test_uncertain(void **state)
{
	(void)state;
	gr_board b;
	tu_load_diagram(&b, NULL, "selfplay/9x9-s0013.txt");
	static gr_dead_result r;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_WHITE, NULL), 0);
	assert_true(r.uncertain[tu_pt(&b, "G3")]);
	assert_true(r.uncertain[tu_pt(&b, "H2")]);
	assert_false(r.uncertain[tu_pt(&b, "A1")]);
	bool unsettled[GR_MAX_POINTS];
	assert_false(gr_dead_finished(&r, &b, unsettled));
	assert_true(unsettled[tu_pt(&b, "G3")]);
	/* the clear cases are never uncertain */
	tu_load_diagram(&b, NULL, "dead/territory.txt");
	assert_int_equal(gr_dead_analyse(&r, &b, GR_WHITE, NULL), 0);
	assert_int_equal(count_marks(r.uncertain), 0);
}

static void test_deterministic(void **state)
{
	(void)state;
	gr_board b;
	tu_load_diagram(&b, NULL, "dead/game13.txt");
	gr_dead_options o;
	gr_dead_options_init(&o);
	o.playouts = 200;
	o.seed = 42;
	static gr_dead_result r1, r2;
	assert_int_equal(gr_dead_analyse(&r1, &b, GR_WHITE, &o), 0);
	assert_int_equal(gr_dead_analyse(&r2, &b, GR_WHITE, &o), 0);
	assert_memory_equal(r1.dead, r2.dead, sizeof r1.dead);
	assert_memory_equal(r1.ownership, r2.ownership, sizeof r1.ownership);
	assert_int_equal(r1.playouts, 200);
	/* NULL options are the defaults */
	gr_dead_options_init(&o);
	assert_int_equal(gr_dead_analyse(&r1, &b, GR_WHITE, NULL), 0);
	assert_int_equal(gr_dead_analyse(&r2, &b, GR_WHITE, &o), 0);
	assert_memory_equal(r1.ownership, r2.ownership, sizeof r1.ownership);
	assert_int_equal(r1.playouts, GR_DEAD_PLAYOUTS_DEFAULT);
	/* gr_dead_estimate gives the same proposal */
	bool dead[GR_MAX_POINTS];
	assert_int_equal(gr_dead_estimate(dead, &b, GR_WHITE, NULL), 0);
	assert_memory_equal(dead, r1.dead, sizeof dead);
	/* the board is not changed */
	gr_board copy = b;
	assert_int_equal(gr_dead_estimate(dead, &b, GR_BLACK, &o), 0);
	assert_memory_equal(&copy, &b, sizeof b);
}

static void test_small_boards(void **state)
{
	(void)state;
	static gr_dead_result r;
	gr_board b;
	for (int size = GR_MIN_SIZE; size <= 5; size++) {
		assert_int_equal(gr_board_init(&b, size), 0);
		gr_board_play(&b, GR_BLACK, gr_pt(&b, 0, 0));
		gr_board_play(&b, GR_WHITE, gr_pt(&b, size - 1, size - 1));
		assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, NULL), 0);
		assert_int_equal(r.playouts, GR_DEAD_PLAYOUTS_DEFAULT);
	}
	tu_diagram(&b, NULL,
	           ".X\n"
	           "X.\n");
	assert_int_equal(gr_dead_analyse(&r, &b, GR_WHITE, NULL), 0);
	assert_int_equal(r.reason[tu_pt(&b, "B2")], GR_DEAD_BENSON);
	assert_int_equal(count_marks(r.dead), 0);
	assert_true(gr_dead_finished(&r, &b, NULL));
}

static void test_arguments(void **state)
{
	(void)state;
	gr_board b;
	assert_int_equal(gr_board_init(&b, 9), 0);
	bool dead[GR_MAX_POINTS];
	static gr_dead_result r;
	assert_int_equal(gr_dead_estimate(NULL, &b, GR_BLACK, NULL), GR_EINVAL);
	assert_int_equal(gr_dead_estimate(dead, NULL, GR_BLACK, NULL), GR_EINVAL);
	assert_int_equal(gr_dead_analyse(NULL, &b, GR_BLACK, NULL), GR_EINVAL);
	assert_int_equal(gr_dead_analyse(&r, &b, GR_EMPTY, NULL), GR_EINVAL);
	assert_int_equal(gr_dead_analyse(&r, &b, GR_OFFBOARD, NULL), GR_EINVAL);
	gr_dead_options o;
	gr_dead_options_init(&o);
	o.playouts = -1;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), GR_ERANGE);
	o.playouts = GR_DEAD_PLAYOUTS_MAX + 1;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), GR_ERANGE);
	gr_dead_options_init(&o);
	o.threshold = 1.0;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), GR_ERANGE);
	o.threshold = -0.1;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), GR_ERANGE);
	gr_dead_options_init(&o);
	o.max_moves = -5;
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), GR_ERANGE);
	/* zeros mean the defaults */
	memset(&o, 0, sizeof o);
	assert_int_equal(gr_dead_analyse(&r, &b, GR_BLACK, &o), 0);
	assert_int_equal(r.playouts, GR_DEAD_PLAYOUTS_DEFAULT);
	assert_false(gr_dead_finished(NULL, &b, NULL));
	assert_false(gr_dead_finished(&r, NULL, NULL));
	gr_dead_options_init(NULL); /* harmless */
	assert_string_equal(gr_dead_reason_name(GR_DEAD_SEKI), "seki");
	assert_string_equal(gr_dead_reason_name(GR_DEAD_BENSON), "benson");
	assert_string_equal(gr_dead_reason_name(GR_DEAD_NONE), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dead_in_territory),
		cmocka_unit_test(test_two_eyes_live),
		cmocka_unit_test(test_seki_one_eye_each),
		cmocka_unit_test(test_seki_no_eyes),
		cmocka_unit_test(test_big_dead_group),
		cmocka_unit_test(test_nakade),
		cmocka_unit_test(test_no_dead),
		cmocka_unit_test(test_game_9x9),
		cmocka_unit_test(test_game_13x13),
		cmocka_unit_test(test_seki_in_a_game),
		cmocka_unit_test(test_uncertain),
		cmocka_unit_test(test_enclosed_by_benson),
		cmocka_unit_test(test_unfinished),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_small_boards),
		cmocka_unit_test(test_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
