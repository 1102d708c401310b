/*
 * vision/pipeline: frames in, stable hand-free positions out.
 *
 * The frames are drawn here: a board in mild perspective (wood, grid, stones
 * with a rim) and a hand (a skin-coloured arm and palm from the bottom edge
 * of the picture). The clock is the frames' own: 10 frames a second.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "pipeline.h"

#define W 640
#define HT 480
#define N 19

typedef struct hand {
	bool on;
	double u, v; /* where the fingertips are, in board coordinates */
	bool wood;   /* of the wood's own colour (a tanned hand on a pale board) */
	bool top;    /* a finger from the top of the picture instead: its tip
	                pale over the point, violet above it (as the real
	                video's at 709 s, in the light of that day) */
} hand;

/* A point drawn without its grid lines (a worn spot), or -1. */
static int blank = -1;

static const double corners[8] = {150, 40, 500, 48, 540, 440, 110, 432};
/* The picture moved by this many pixels (a camera that moved). */
static double shift_x, shift_y;
/* The camera's noise: each channel of each pixel off by up to this many
 * grey levels, evenly (3: a clean camera; 17: a grainy one, sigma about 10,
 * a dim room's). */
static int grain = 3;

/* Draws the board with stones (cells[j * N + i]) and maybe a hand. */
static void draw(gv_image *img, const unsigned char *cells, const hand *hd, unsigned seed)
{
	double H[9], Hi[9], c[8];
	for (int k = 0; k < 8; k++)
		c[k] = corners[k] + (k % 2 ? shift_y : shift_x);
	assert_true(gv_h_from_corners(c, N, H));
	assert_true(gv_h_invert(H, Hi));
	for (int y = 0; y < HT; y++)
		for (int x = 0; x < W; x++) {
			double u, v, c[3] = {70, 60, 55};
			gv_h_apply(Hi, x, y, &u, &v);
			if (u > -0.9 && v > -0.9 && u < N - 0.1 && v < N - 0.1) {
				double g = 1 + 0.04 * sin(v * 5.1 + sin(u * 1.3));
				c[0] = 220 * g, c[1] = 175 * g, c[2] = 110 * g;
				double fu = fabs(u - floor(u + 0.5)), fv = fabs(v - floor(v + 0.5));
				bool inside = u > -0.05 && v > -0.05 && u < N - 0.95 && v < N - 0.95;
				int i = (int)floor(u + 0.5), j = (int)floor(v + 0.5);
				bool worn = blank >= 0 && i == blank % N && j == blank / N && fu < 0.4 && fv < 0.4;
				if (inside && (fu < 0.05 || fv < 0.05) && !worn)
					c[0] = c[1] = c[2] = 40;
				if (i >= 0 && j >= 0 && i < N && j < N && cells[j * N + i]) {
					double d = hypot(u - i, v - j);
					if (d < 0.46) {
						double edge = d > 0.38 ? 0.8 : 1;
						double s = cells[j * N + i] == 1 ? 30 : 235;
						c[0] = c[1] = c[2] = s * edge;
					}
				}
			}
			if (hd && hd->on && hd->top) {
				double hx, hy, hx1, hy1;
				gv_h_apply(H, hd->u, hd->v, &hx, &hy);
				gv_h_apply(H, hd->u + 1, hd->v, &hx1, &hy1);
				double r = 0.45 * hypot(hx1 - hx, hy1 - hy);
				if (hypot(x - hx, y - hy) < r)
					c[0] = 232, c[1] = 228, c[2] = 228;
				else if (y < hy && fabs(x - hx) < 1.4 * r)
					c[0] = 112, c[1] = 108, c[2] = 172;
			} else if (hd && hd->on) {
				/* an arm from the bottom of the picture up to the fingertips */
				double hx, hy;
				gv_h_apply(H, hd->u, hd->v, &hx, &hy);
				double dx = x - hx, dy = y - hy;
				bool palm = (dx * dx) / (40.0 * 40) + ((dy - 45) * (dy - 45)) / (60.0 * 60) < 1;
				bool arm = y > hy + 60 && fabs(dx) < 38;
				if (palm || arm) {
					double s = palm ? 1.0 : 0.9;
					if (hd->wood)
						c[0] = 214 * s, c[1] = 170 * s, c[2] = 107 * s;
					else
						c[0] = 225 * s, c[1] = 160 * s, c[2] = 135 * s;
				}
			}
			unsigned char *p = gv_px(img, x, y);
			for (int k = 0; k < 3; k++) {
				seed = seed * 1103515245u + 12345u;
				double val = c[k] + (double)((seed >> 16) % (unsigned)(2 * grain + 1)) - grain;
				p[k] = (unsigned char)(val < 0 ? 0 : val > 255 ? 255 : val);
			}
		}
}

typedef struct run {
	gv_pipeline *p;
	gv_image img;
	double t;
	unsigned seed;
	int nobs;
	gv_observation last;
} run;

/* stuck_s 0: the default */
static void run_init(run *r, bool stills, double stuck_s)
{
	memset(r, 0, sizeof *r);
	gv_pipeline_opts o;
	gv_pipeline_opts_init(&o);
	o.stills = stills;
	if (stuck_s > 0)
		o.stuck_s = stuck_s;
	assert_int_equal(gv_pipeline_new(&r->p, &o), 0);
	assert_int_equal(gv_image_alloc(&r->img, W, HT, 3), 0);
}

static void run_free(run *r)
{
	gv_pipeline_free(r->p);
	gv_image_free(&r->img);
}

/* Feeds n frames of the same scene; returns how many observations came. */
static int feed(run *r, const unsigned char *cells, const hand *hd, int n)
{
	int got = 0;
	char err[256];
	for (int k = 0; k < n; k++) {
		draw(&r->img, cells, hd, ++r->seed);
		gv_observation obs;
		int rc = gv_pipeline_feed(r->p, &r->img, r->t, &obs, err, sizeof err);
		if (rc < 0)
			fail_msg("pipeline: %s", err);
		if (rc == 1) {
			r->last = obs;
			r->nobs++;
			got++;
		}
		r->t += 0.1;
	}
	return got;
}

/* A hand comes in from the bottom over four frames, its fingertips ending
 * at row v: nothing may be read while it moves. */
static void hand_comes_in(run *r, const unsigned char *cells, hand *hd, double v)
{
	for (int k = 3; k >= 0; k--) {
		hd->v = v + k;
		assert_int_equal(feed(r, cells, hd, 1), 0);
	}
}

static void expect_cells(const gv_observation *o, const unsigned char *cells)
{
	int wrong = 0;
	for (int k = 0; k < N * N; k++)
		if (o->cells[k] != cells[k]) {
			printf("  (%d,%d) is %c, read %c%s\n", k % N, k / N, ".BW"[cells[k]], ".BW"[o->cells[k]],
			       o->held[k] ? " (held)" : "");
			wrong++;
		}
	assert_int_equal(wrong, 0);
}

static void test_still_board_is_read_after_the_window_then_each_second(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	cells[3 * N + 3] = 1;
	cells[15 * N + 15] = 2;
	/* the window opens at the first frame: read at 0.3 s, then again once a
	 * second while nothing moves (a change that lasts is seen to last) */
	assert_int_equal(feed(&r, cells, NULL, 3), 0);
	assert_int_equal(feed(&r, cells, NULL, 1), 1);
	assert_true(fabs(r.last.t - 0.3) < 1e-9);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	assert_int_equal(feed(&r, cells, NULL, 20), 2);
	assert_true(fabs(r.last.t - 2.3) < 1e-9);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	assert_true(st.located);
	assert_int_equal(st.frames, 24);
	assert_int_equal(st.observations, 3);
	for (int k = 0; k < 4; k++)
		assert_true(fabs(st.corners[2 * k] - corners[2 * k]) < 2 && fabs(st.corners[2 * k + 1] - corners[2 * k + 1]) < 2);
	run_free(&r);
}

static void test_a_hand_is_never_read_and_hides_the_board(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	/* the empty board: the first frame is an observation by itself (a
	 * plain empty board, GV_EMPTY_START_CONF), then the still window's */
	assert_int_equal(feed(&r, cells, NULL, 1), 1);
	assert_true(fabs(r.last.t) < 1e-9);
	expect_cells(&r.last, cells);
	assert_int_equal(feed(&r, cells, NULL, 4), 1);
	/* a hand comes in, moving: nothing is read */
	hand hd = {true, 9, 14, false, false};
	hand_comes_in(&r, cells, &hd, 11);
	/* the stone goes down under the hand; the hand rests there: the board
	 * is still but not clear, so it is not read as an observation (what the
	 * hand hides may have changed with what shows) */
	cells[12 * N + 9] = 1;
	assert_int_equal(feed(&r, cells, &hd, 15), 0);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	assert_true(st.hidden_readings >= 3);
	/* the hand leaves: the stone is read 0.3 s after the last frame with motion */
	assert_int_equal(feed(&r, cells, NULL, 1), 0);
	double left = r.t - 0.1;
	assert_int_equal(feed(&r, cells, NULL, 5), 1);
	assert_true(fabs(r.last.t - (left + 0.3)) < 1e-9);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	run_free(&r);
	/* an empty board under a resting hand from the very first frame: no
	 * observation of it by itself (its lines do not show under the hand) */
	run_init(&r, false, 0);
	unsigned char empty[N * N] = {0};
	hand rest = {true, 9, 9, false, false};
	assert_int_equal(feed(&r, empty, &rest, 1), 0);
	run_free(&r);
}

/* A grainy camera (noise of sigma about 10 in every channel of every
 * pixel, as in a dim room): the board is still seen still and read, a
 * hand is still never read and the stone it left is. Before the samples
 * of streaming frames were 3 x 3 pixels' means, some patch changed by more
 * than o.motion between any two frames and no window lasted 0.3 s. */
static void test_a_grainy_camera_is_seen_still(void **s)
{
	(void)s;
	grain = 17;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	cells[3 * N + 3] = 1;
	cells[15 * N + 15] = 2;
	cells[9 * N + 10] = 1;
	assert_int_equal(feed(&r, cells, NULL, 4), 1);
	expect_cells(&r.last, cells);
	hand hd = {true, 9, 14, false, false};
	hand_comes_in(&r, cells, &hd, 11);
	cells[12 * N + 9] = 2;
	assert_int_equal(feed(&r, cells, &hd, 15), 0);
	assert_int_equal(feed(&r, cells, NULL, 1), 0);
	assert_int_equal(feed(&r, cells, NULL, 5), 1);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	assert_int_equal(st.observations, 2);
	run_free(&r);
}

/* The camera clean again after the grainy test, failed or not. */
static int clean_camera(void **s)
{
	(void)s;
	grain = 3;
	return 0;
}

/* A hand the colour of the wood: the square middles cannot tell it from the
 * board (same hue, as bright), and the stones under it read empty. It hides
 * the grid lines, which an empty point shows: the board is not clear while
 * it rests there, and no stone under it is lost. */
static void test_a_hand_of_the_woods_colour_hides_the_board(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	for (int j = 12; j < N; j += 2)
		for (int i = 7; i <= 11; i += 2)
			cells[j * N + i] = (unsigned char)(1 + (i + j) % 2);
	assert_int_equal(feed(&r, cells, NULL, 5), 1);
	expect_cells(&r.last, cells);
	hand hd = {true, 9, 15, true, false};
	hand_comes_in(&r, cells, &hd, 12);
	/* resting for 3 s: read every 0.3 s, never an observation */
	assert_int_equal(feed(&r, cells, &hd, 30), 0);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	assert_true(st.hidden_readings >= 5);
	/* it leaves: the board as it was, read once it is still */
	assert_int_equal(feed(&r, cells, NULL, 5), 1);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	run_free(&r);
}

/* A worn spot where an empty point shows no lines is taken for something
 * over the board at first, then, after the stuck time with nothing
 * moving, for the board's look: the board is read again, the spot held at
 * what it was. */
static void test_a_point_without_lines_stops_hiding_the_board(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 2);
	unsigned char cells[N * N] = {0};
	cells[3 * N + 3] = 1;
	assert_int_equal(feed(&r, cells, NULL, 5), 1);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	long hidden0 = st.hidden_readings;
	blank = 9 * N + 9;
	/* the spot appears: nothing moves, so the readings that classify only
	 * the points that changed read it as before; the next full reading
	 * (GV_RECLASSIFY_EVERY_S) sees its lines gone: hidden readings until
	 * the stuck time has passed, then observations again, the spot held */
	feed(&r, cells, NULL, 15);
	assert_true(feed(&r, cells, NULL, 200) >= 1);
	gv_pipeline_get_stats(r.p, &st);
	assert_true(st.hidden_readings > hidden0);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 1);
	assert_true(r.last.held[9 * N + 9]);
	blank = -1;
	run_free(&r);
}

static void test_stills_read_every_frame(void **s)
{
	(void)s;
	run r;
	run_init(&r, true, 0);
	unsigned char cells[N * N] = {0};
	assert_int_equal(feed(&r, cells, NULL, 1), 1);
	cells[3 * N + 15] = 1;
	assert_int_equal(feed(&r, cells, NULL, 1), 1);
	expect_cells(&r.last, cells);
	cells[4 * N + 15] = 2;
	assert_int_equal(feed(&r, cells, NULL, 1), 1);
	expect_cells(&r.last, cells);
	run_free(&r);
}

/* A camera that moved the board's top edge out of the frame: the grid is
 * followed, the rest of the board is read (a new stone seen), the points
 * beyond the frame are held at what they were (their stones kept), and all
 * of it is read again once the camera is back. */
static void test_board_partly_beyond_the_frame(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	cells[0 * N + 5] = 1;  /* on the top edge: beyond the frame below */
	cells[0 * N + 12] = 2;
	cells[1 * N + 8] = 2;
	cells[9 * N + 9] = 1;
	cells[15 * N + 3] = 2;
	assert_true(feed(&r, cells, NULL, 12) > 0);
	expect_cells(&r.last, cells);
	/* up by 2 cells (about 44 px): the top line about 4 px above the frame */
	shift_y = -44;
	cells[10 * N + 10] = 2;
	int got = feed(&r, cells, NULL, 40);
	shift_y = 0;
	gv_pipeline_stats st;
	gv_pipeline_get_stats(r.p, &st);
	printf("  beyond the frame: %d observations, %ld relocations\n", got, st.relocations);
	assert_true(got > 0);
	assert_true(st.located);
	expect_cells(&r.last, cells);
	int held = 0;
	for (int i = 0; i < N; i++)
		held += r.last.held[i];
	assert_int_equal(held, N); /* the top row: beyond the frame */
	assert_int_equal(r.last.noutside, N);
	assert_int_equal(r.last.nhidden, 0);
	/* back */
	cells[11 * N + 11] = 1;
	got = feed(&r, cells, NULL, 40);
	assert_true(got > 0);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	run_free(&r);
}

/* The camera moves back with a finger over the board's top edge, which
 * comes back into the frame: the squares of the margin there have no look
 * of their own to tell a change by (they were beyond the frame), and the
 * fingertip over the edge point reads as a white stone like the others.
 * Beside a new stone, such squares are judged as hidden ones are: the
 * finger above the tip is neither wood nor stone, so nothing is read while
 * it is there; the board is read again once it has gone. */
static void test_a_finger_over_the_edge_coming_back_into_the_frame(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	cells[0 * N + 5] = 1;
	cells[1 * N + 8] = 2;
	cells[9 * N + 9] = 1;
	cells[15 * N + 3] = 2;
	cells[12 * N + 12] = 2;
	assert_true(feed(&r, cells, NULL, 12) > 0);
	shift_y = -44; /* the top row and its margin beyond the frame */
	assert_true(feed(&r, cells, NULL, 40) > 0);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.noutside, N);
	shift_y = 0;
	hand finger = {true, 10, 0, false, true};
	int got = feed(&r, cells, &finger, 30);
	printf("  back with a finger over the edge: %d observations\n", got);
	if (got)
		expect_cells(&r.last, cells);
	assert_int_equal(feed(&r, cells, NULL, 20) > 0, 1);
	expect_cells(&r.last, cells);
	assert_int_equal(r.last.nheld, 0);
	run_free(&r);
}


/* Watching starts in the endgame (goref watch --resume after a restart):
 * three points in four of every edge hold a stone, so the outer lines show
 * on no span between two empty points, and a lattice a line over finds the
 * lines inside as well (its outer line on the margin, under the stones'
 * rims). Nothing has been observed yet to judge a grid by: the first one
 * must be proved, by the board's outline where the lines cannot. Then the
 * camera moves by a cell: the grid follows (the locator's lattice a line
 * off is judged by the stones read through it). */
static void test_watching_starts_on_a_board_with_crowded_edges(void **s)
{
	(void)s;
	run r;
	run_init(&r, false, 0);
	unsigned char cells[N * N] = {0};
	for (int i = 0; i < N; i++) {
		if (i % 4 == 1)
			continue;
		cells[0 * N + i] = 1 + (i % 2);
		cells[(N - 1) * N + i] = 1 + ((i + 1) % 2);
		cells[i * N + 0] = 1 + ((i / 2) % 2);
		cells[i * N + N - 1] = 1 + ((i / 3) % 2);
	}
	cells[9 * N + 9] = 1;
	cells[4 * N + 6] = 2;
	assert_true(feed(&r, cells, NULL, 12) > 0);
	expect_cells(&r.last, cells);
	shift_y = -22;
	cells[10 * N + 10] = 2;
	int got = feed(&r, cells, NULL, 40);
	shift_y = 0;
	assert_true(got > 0);
	expect_cells(&r.last, cells);
	run_free(&r);
}

static void test_bad_input(void **s)
{
	(void)s;
	gv_pipeline *p = NULL;
	gv_pipeline_opts o;
	gv_pipeline_opts_init(&o);
	o.size = 7;
	assert_int_equal(gv_pipeline_new(&p, &o), GV_EINVAL);
	assert_null(p);
	assert_int_equal(gv_pipeline_new(NULL, NULL), GV_EINVAL);
	assert_int_equal(gv_pipeline_new(&p, NULL), 0);
	gv_image img, small;
	assert_int_equal(gv_image_alloc(&img, 64, 48, 3), 0);
	assert_int_equal(gv_image_alloc(&small, 32, 24, 3), 0);
	gv_observation obs;
	char err[256];
	/* a frame with no board: no observation, no error */
	assert_int_equal(gv_pipeline_feed(p, &img, 1.0, &obs, err, sizeof err), 0);
	assert_int_equal(gv_pipeline_feed(p, &img, 0.5, &obs, err, sizeof err), GV_EINVAL);
	assert_non_null(strstr(err, "backwards"));
	assert_int_equal(gv_pipeline_feed(p, &small, 2.0, &obs, err, sizeof err), GV_EINVAL);
	assert_non_null(strstr(err, "size"));
	assert_int_equal(gv_pipeline_feed(p, NULL, 2.0, &obs, err, sizeof err), GV_EINVAL);
	gv_pipeline_stats st;
	gv_pipeline_get_stats(p, &st);
	assert_false(st.located);
	gv_image_free(&img);
	gv_image_free(&small);
	gv_pipeline_free(p);
	gv_pipeline_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_still_board_is_read_after_the_window_then_each_second),
		cmocka_unit_test(test_a_hand_is_never_read_and_hides_the_board),
		cmocka_unit_test_teardown(test_a_grainy_camera_is_seen_still, clean_camera),
		cmocka_unit_test(test_a_hand_of_the_woods_colour_hides_the_board),
		cmocka_unit_test(test_a_point_without_lines_stops_hiding_the_board),
		cmocka_unit_test(test_stills_read_every_frame),
		cmocka_unit_test(test_board_partly_beyond_the_frame),
		cmocka_unit_test(test_a_finger_over_the_edge_coming_back_into_the_frame),
		cmocka_unit_test(test_watching_starts_on_a_board_with_crowded_edges),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
