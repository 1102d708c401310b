/*
 * device/session/withhold: positions read while points of the board lay
 * beyond the frame, withheld until those points are seen again.
 *
 * The case behind it (../shared/datasets/video-9x9-table at 320x240, the
 * camera shifted up to 15 px): White played B9 on the top row while that
 * row was beyond the frame, then Black D3 in view; the reading showed D3
 * with B9 held empty, a position never on the board, Black's second move
 * in a row to a referee. Drawn here on a 9x9 board as the loop sees it.
 */
#include "testutil.h"

#include <string.h>

#include "board.h"
#include "withhold.h"

enum { N = 9 };

/* An observation at t from a diagram of N rows ('X' black, 'O' white),
 * the top row held beyond the frame when top_out. */
static gv_observation obs_from(double t, const char *rows[N], bool top_out)
{
	gv_observation o;
	memset(&o, 0, sizeof o);
	o.t = t;
	o.size = N;
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++) {
			char ch = rows[y][x];
			o.cells[y * N + x] = ch == 'X' ? GR_BLACK : ch == 'O' ? GR_WHITE : GR_EMPTY;
			if (top_out && y == 0) {
				o.outside[y * N + x] = o.held[y * N + x] = 1;
				o.noutside++;
				o.nheld++;
			}
		}
	return o;
}

static void board_from(gr_board *b, const unsigned char *cells)
{
	assert_int_equal(gr_board_init(b, N), 0);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			if (cells[y * N + x])
				gr_board_set(b, gr_pt(b, x, y), (gr_color)cells[y * N + x]);
}

/* Black has just played E5; White to move */
static const char *before[N] = {".........", ".........", ".........", "...X.....", "....X....",
                                "...O.....", ".........", ".........", "........."};
/* White B9 (beyond the frame, unseen), then Black D3 (in view) */
static const char *d3_seen[N] = {".........", ".........", "...X.....", "...X.....", "....X....",
                                 "...O.....", ".........", ".........", "........."};
static const char *b9_back[N] = {".O.......", ".........", "...X.....", "...X.....", "....X....",
                                 "...O.....", ".........", ".........", "........."};

/* The board before (White to move), the position withheld at 10 s (D3
 * seen, the top row beyond the frame) and the next one at 20 s (B9 back
 * in view). */
typedef struct scene {
	gr_board b;
	gv_observation pend, back;
} scene;

static void scene_init(scene *sc)
{
	gv_observation last = obs_from(0, before, false);
	board_from(&sc->b, last.cells);
	sc->pend = obs_from(10, d3_seen, true);
	sc->back = obs_from(20, b9_back, false);
}

/* The withheld position of sc against next, with c to move. */
static gd_withheld_fate settle(const scene *sc, const gv_observation *next, gr_color c, bool seen_before,
                               int *changed)
{
	return gd_withheld_settle(&sc->pend, next, &sc->b, c, seen_before, 15, changed);
}

static void test_withheld_only_when_changed_beyond(void **st)
{
	(void)st;
	gv_observation last = obs_from(0, before, false);
	gv_observation same = obs_from(1, before, true), moved = obs_from(2, d3_seen, true);
	gv_observation plain = obs_from(2, d3_seen, false);
	/* nothing refereed yet: nothing to withhold from */
	assert_false(gd_withhold(&moved, last.cells, 0));
	/* points beyond the frame, the rest as it was: no news, goes on */
	assert_false(gd_withhold(&same, last.cells, N));
	/* changed in view while the top row is beyond the frame: withheld */
	assert_true(gd_withhold(&moved, last.cells, N));
	/* changed with every point in view: goes on */
	assert_false(gd_withhold(&plain, last.cells, N));
}

static void test_dropped_where_the_move_beyond_came_first(void **st)
{
	(void)st;
	scene sc;
	scene_init(&sc);
	int changed = -1;
	/* White to move: the withheld position is Black's second stone in a
	 * row, and White's stone came back where the frame did not reach */
	assert_int_equal(settle(&sc, &sc.back, GR_WHITE, false, &changed), GD_WITHHELD_DROP);
	assert_int_equal(changed, 1);
	/* the same position refereed before (stones put back): it goes out */
	assert_int_equal(settle(&sc, &sc.back, GR_WHITE, true, &changed), GD_WITHHELD_OUT);
	/* no referee yet: never dropped */
	assert_int_equal(gd_withheld_settle(&sc.pend, &sc.back, NULL, GR_WHITE, false, 15, &changed), GD_WITHHELD_OUT);
}

static void test_out_where_it_is_a_plain_move(void **st)
{
	(void)st;
	/* Black to move (White played last, in view): D3 is Black's plain
	 * move, and White's B9 beyond the frame may have come after it */
	scene sc;
	scene_init(&sc);
	int changed = -1;
	assert_int_equal(settle(&sc, &sc.back, GR_BLACK, false, &changed), GD_WITHHELD_OUT);
	assert_int_equal(changed, 1);
	/* the top row back unchanged: out */
	gv_observation alike = obs_from(20, d3_seen, false);
	assert_int_equal(settle(&sc, &alike, GR_WHITE, false, &changed), GD_WITHHELD_OUT);
	assert_int_equal(changed, 0);
}

static void test_repeats_wait_a_while(void **st)
{
	(void)st;
	scene sc;
	scene_init(&sc);
	gv_observation again = obs_from(11, d3_seen, true), late = obs_from(25.5, d3_seen, true);
	gv_observation other = obs_from(12, before, true);
	int changed = -1;
	/* its repeat, the top row still beyond: both kept back */
	assert_int_equal(settle(&sc, &again, GR_WHITE, false, &changed), GD_WITHHELD_WAIT);
	/* but not past 15 s: a camera that stays moved must not stop the game */
	assert_int_equal(settle(&sc, &late, GR_WHITE, false, &changed), GD_WITHHELD_OUT);
	/* another position, still beyond: the withheld one goes out first */
	assert_int_equal(settle(&sc, &other, GR_WHITE, false, &changed), GD_WITHHELD_OUT);
	/* a point beyond the frame that came back held for another reason (a
	 * hand) is not seen: no verdict from it */
	gv_observation hand = obs_from(13, b9_back, false);
	hand.held[1] = 1;
	hand.cells[1] = GR_EMPTY;
	assert_int_equal(settle(&sc, &hand, GR_WHITE, false, &changed), GD_WITHHELD_WAIT);
	assert_int_equal(changed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_withheld_only_when_changed_beyond),
		cmocka_unit_test(test_dropped_where_the_move_beyond_came_first),
		cmocka_unit_test(test_out_where_it_is_a_plain_move),
		cmocka_unit_test(test_repeats_wait_a_while),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
