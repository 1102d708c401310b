/* The area count: dame, dead stones, komi thresholds, warnings, wording. */
#include "testutil.h"

#include <string.h>

#include "count.h"

static void test_dame_split(void **s)
{
	(void)s;
	gr_board b;
	gr_count c;
	tu_load_diagram(&b, NULL, "rules/dame.txt");
	assert_int_equal(gr_count_board(&c, &b, NULL, 0, 0, 0), 0);
	assert_int_equal(c.black_stones, 8);
	assert_int_equal(c.white_stones, 8);
	assert_int_equal(c.black_territory, 2);
	assert_int_equal(c.white_territory, 2);
	assert_int_equal(c.dame, 5);
	assert_true(c.black == 12.5 && c.white == 12.5);
	assert_int_equal(c.winner, GR_EMPTY);
	assert_string_equal(c.result, "Draw");
	assert_string_equal(c.result_points, "0");
	/* komi 3.75: White by 3 3/4 stones */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0);
	assert_int_equal(c.winner, GR_WHITE);
	assert_string_equal(c.result, "W+3.75");
	assert_string_equal(c.result_points, "W+7.5");
	char words[64];
	assert_string_equal(gr_count_words(&c, words, sizeof words), "White wins by 3 3/4 stones");
}

static void test_dead_stones_are_taken_off(void **s)
{
	(void)s;
	gr_board b;
	bool dead[GR_MAX_POINTS];
	gr_count c;
	tu_load_diagram(&b, dead, "rules/count_dead.txt");
	gr_board before = b;
	assert_int_equal(gr_count_board(&c, &b, dead, GR_KOMI_DEFAULT, 0, 0), 0);
	assert_true(gr_board_same(&b, &before)); /* the board itself is not changed */
	assert_int_equal(c.black_dead, 1);
	assert_int_equal(c.white_dead, 2);
	assert_true(c.black == 45 && c.white == 36);
	assert_int_equal(c.dame, 0);
	assert_int_equal(c.winner, GR_BLACK);
	assert_string_equal(c.result, "B+0.75");
	assert_string_equal(c.result_points, "B+1.5");
	char words[64];
	assert_string_equal(gr_count_words(&c, words, sizeof words), "Black wins by 3/4 stone");
	/* counted as alive instead, the dead stones change everything */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0);
	/* the white stones touch Black's whole area, the black one White's */
	assert_int_equal(c.black_territory, 0);
	assert_int_equal(c.white_territory, 0);
	assert_int_equal(c.dame, 34 + 26);
}

/* A 19x19 board whose first nb points (row by row) are black, then `gap`
 * empty points, then white to the end. */
static void split_board(gr_board *b, int nb, int gap)
{
	gr_board_init(b, 19);
	for (int i = 0; i < 361; i++) {
		int pt = gr_pt(b, i % 19, i / 19);
		b->color[pt] = i < nb ? GR_BLACK : i < nb + gap ? GR_EMPTY : GR_WHITE;
	}
	gr_board_recompute(b);
}

static void test_komi_thresholds(void **s)
{
	(void)s;
	gr_board b;
	gr_count c;
	char words[64];
	struct {
		int nb, gap;
		const char *result, *points, *words;
	} cases[] = {
		{185, 0, "B+0.75", "B+1.5", "Black wins by 3/4 stone"},
		{184, 1, "B+0.25", "B+0.5", "Black wins by 1/4 stone"}, /* 184.5 > 184.25 */
		{184, 0, "W+0.25", "W+0.5", "White wins by 1/4 stone"}, /* White 177 > 176.75 */
		{183, 1, "W+0.75", "W+1.5", "White wins by 3/4 stone"},
		{190, 0, "B+5.75", "B+11.5", "Black wins by 5 3/4 stones"},
		{180, 0, "W+4.25", "W+8.5", "White wins by 4 1/4 stones"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		split_board(&b, cases[i].nb, cases[i].gap);
		assert_int_equal(gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0), 0);
		assert_true(c.black + c.white == 361);
		assert_string_equal(c.result, cases[i].result);
		assert_string_equal(c.result_points, cases[i].points);
		assert_string_equal(gr_count_words(&c, words, sizeof words), cases[i].words);
	}
	/* the older edition's komi of 2 3/4 stones: 184 now wins by 3/4 */
	split_board(&b, 184, 0);
	gr_count_board(&c, &b, NULL, GR_KOMI_OLD_EDITION, 0, 0);
	assert_string_equal(c.result, "B+0.75");
	/* without komi, exactly half is a draw */
	split_board(&b, 180, 1);
	gr_count_board(&c, &b, NULL, 0, 0, 0);
	assert_string_equal(c.result, "Draw");
}

static void test_warnings(void **s)
{
	(void)s;
	gr_board b;
	gr_count c;
	char words[80];
	split_board(&b, 185, 0); /* B+0.75 without warnings */
	/* one warning to Black costs a stone: White wins by 1/4 */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 1, 0);
	assert_string_equal(c.result, "W+0.25");
	/* one each: as without */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 1, 1);
	assert_string_equal(c.result, "B+0.75");
	/* one to White: Black by 1 3/4 */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 1);
	assert_string_equal(c.result, "B+1.75");
	assert_string_equal(gr_count_words(&c, words, sizeof words), "Black wins by 1 3/4 stones");
	/* a second warning loses, whatever the count */
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 2, 0);
	assert_true(c.by_warnings);
	assert_int_equal(c.winner, GR_WHITE);
	assert_string_equal(c.result, "W+F");
	assert_string_equal(gr_count_words(&c, words, sizeof words), "White wins: Black has a second warning");
}

/* A seki: the stones all live and the liberty they share is dame; each
 * side's eye in the seki is its own (area counting). */
static void test_seki(void **s)
{
	(void)s;
	gr_board b;
	gr_count c;
	tu_load_diagram(&b, NULL, "dead/seki.txt");
	assert_int_equal(gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0), 0);
	assert_int_equal(c.dame, 1); /* C9 */
	assert_int_equal(c.black_stones, 22);
	assert_int_equal(c.white_stones, 18);
	assert_int_equal(c.black_territory, 1 + 11); /* A9, the top right */
	assert_int_equal(c.white_territory, 1 + 27); /* E9, the bottom three rows */
	assert_true(c.black == 34.5 && c.white == 46.5);
	assert_string_equal(c.result, "W+9.75"); /* 34.5 - 40.5 - 3.75 */
}

static void test_small_boards(void **s)
{
	(void)s;
	gr_board b;
	gr_count c;
	/* 9x9: half is 40.5; 13x13: 84.5 */
	gr_board_init(&b, 9);
	for (int i = 0; i < 45; i++)
		b.color[gr_pt(&b, i % 9, i / 9)] = GR_BLACK;
	for (int i = 45; i < 81; i++)
		b.color[gr_pt(&b, i % 9, i / 9)] = GR_WHITE;
	gr_board_recompute(&b);
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0);
	assert_string_equal(c.result, "B+0.75");
	gr_board_init(&b, 13);
	gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0);
	assert_int_equal(c.dame, 169); /* an empty board is all dame */
	assert_string_equal(c.result, "W+3.75");
	assert_int_equal(gr_count_board(NULL, &b, NULL, 0, 0, 0), GR_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dame_split),
		cmocka_unit_test(test_dead_stones_are_taken_off),
		cmocka_unit_test(test_komi_thresholds),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_seki),
		cmocka_unit_test(test_small_boards),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
