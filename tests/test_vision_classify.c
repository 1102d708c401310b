/*
 * vision/classify: empty, black or white on every point of a located grid.
 *
 * (a) Boards this test draws itself, seen through a perspective homography:
 *     wood with grain and a light gradient, grid lines, star points, black
 *     stones with a highlight, white stones with a highlight and a shaded
 *     side, cast shadows, stones off their points and touching, coloured
 *     light. Every point must be right.
 * (b) The real photos of ../shared/datasets with the hand-made grid corners
 *     of tests/fixtures/vision/corners.tsv: per-point and per-board accuracy
 *     printed with every wrong point; fails below what the classifier
 *     reached when it was written. Skipped (with a message) when the
 *     datasets are absent.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "classify.h"
#include "cvwrap.h"
#include "geom.h"
#include "testdraw.h"

/* What the real photos must reach with the hand corners (measured when the
 * classifier was written: 24896 of 24909 points, 63 of 69 boards; 24181 of
 * 24187, 64 of 67 since two labels were set aside as disputed; all the
 * remaining errors are doubtful labels and a hand or a sheet over the board, see the
 * report printed by the test). */
#define MIN_POINTS_PER_10000 9990
#define MIN_BOARDS 62

/* ------------------------------------------------------------------ */
/* drawn boards */

/* Classifies a drawn scene and asserts every point; prints the wrong ones. */
static void check_scene(const scene *sc, const double corners[8], int w, int h)
{
	int n = sc->size;
	double H[9];
	assert_true(gv_h_from_corners(corners, n, H));
	gv_image img;
	td_render(sc, H, w, h, &img);
	unsigned char cells[361], want[361];
	float conf[361];
	memset(want, 0, sizeof want);
	for (int k = 0; k < sc->nstones; k++)
		want[sc->stones[k].j * n + sc->stones[k].i] = (unsigned char)sc->stones[k].colour;
	/* GOREF_CLASSIFY_DUMP=DIR writes the drawn images there (PPM) */
	const char *dump = getenv("GOREF_CLASSIFY_DUMP");
	if (dump) {
		char path[512];
		snprintf(path, sizeof path, "%s/drawn_%d_%u.ppm", dump, n, sc->seed);
		FILE *f = fopen(path, "wb");
		if (f) {
			fprintf(f, "P6\n%d %d\n255\n", w, h);
			for (int y = 0; y < h; y++)
				fwrite(gv_px(&img, 0, y), 1, (size_t)w * 3, f);
			fclose(f);
		}
	}
	assert_int_equal(gv_classify(&img, H, n, cells, conf), 0);
	int wrong = 0;
	for (int k = 0; k < n * n; k++) {
		assert_true(conf[k] >= 0 && conf[k] <= 1);
		if (cells[k] != want[k]) {
			printf("  drawn board: (%d,%d) is %c, read %c\n", k % n, k / n, ".BW"[want[k]], ".BW"[cells[k]]);
			wrong++;
		}
	}
	gv_image_free(&img);
	assert_int_equal(wrong, 0);
}

static const double wood[3] = {222, 178, 112};

/* Renders the scene through the grid the corners span (w x h, into img,
 * which the caller frees) and classifies it into cells and conf. */
static void classify_drawn(const scene *sc, const double corners[8], int w, int h, gv_image *img,
                           unsigned char cells[361], float conf[361])
{
	double H[9];
	assert_true(gv_h_from_corners(corners, sc->size, H));
	td_render(sc, H, w, h, img);
	assert_int_equal(gv_classify(img, H, sc->size, cells, conf), 0);
}

static void test_drawn_board_in_perspective(void **s)
{
	(void)s;
	static const stone st[] = {
	    /* black: on star points, touching, off-centre, corner, edge */
	    {3, 3, 0, 0, 1}, {4, 3, 0.05, -0.03, 1}, {15, 15, 0, 0, 1}, {10, 10, 0.15, -0.1, 1},
	    {0, 0, 0, 0, 1}, {18, 9, -0.08, 0.05, 1}, {6, 12, -0.12, 0.12, 1}, {7, 12, 0.1, 0, 1},
	    /* white: star points, touching each other and black stones */
	    {3, 15, 0, 0, 2}, {16, 3, 0.1, 0.05, 2}, {16, 4, -0.05, 0.1, 2}, {9, 9, -0.12, 0.1, 2},
	    {0, 18, 0, 0, 2}, {9, 0, 0.05, 0, 2}, {11, 10, 0.05, 0.05, 2}, {5, 3, 0, 0.12, 2},
	    {12, 6, -0.15, -0.12, 2}, {18, 18, 0, 0, 2}, {8, 12, 0.08, -0.05, 2},
	};
	scene sc = {19, st, (int)(sizeof st / sizeof st[0]), {1, 1, 1}, 0.25, {0}, 7, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	/* a 19x19 board seen at an angle: the near (lower) edge wider */
	double corners[8] = {190, 70, 560, 82, 650, 470, 95, 455};
	check_scene(&sc, corners, 760, 540);
}

static void test_drawn_empty_board_in_coloured_light_and_glare(void **s)
{
	(void)s;
	/* no stone at all: nothing may be read as white (a known weakness of
	 * other projects), not even under a lamp's glare, nor a star point as
	 * black */
	scene sc = {19, NULL, 0, {0.8, 0.95, 1.2}, 0.45, {0}, 11, {12.5, 6.3, 1.6}, {0, 0, 1}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {120, 60, 520, 60, 560, 430, 80, 430};
	check_scene(&sc, corners, 640, 480);
}

/* The same board under the lamp's glare: read empty, and where the glare
 * is as white as a stone (the squares around as white as the point) not
 * sure: glare, a hand, or white stones packed so that, seen at an angle,
 * they cover the squares' middles cannot be told apart there. Away from
 * the glare every point stays sure. */
static void test_drawn_glare_is_not_sure(void **s)
{
	(void)s;
	scene sc = {19, NULL, 0, {0.8, 0.95, 1.2}, 0.45, {0}, 11, {12.5, 6.3, 1.6}, {0, 0, 1}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {120, 60, 520, 60, 560, 430, 80, 430};
	gv_image img;
	unsigned char cells[361];
	float conf[361];
	classify_drawn(&sc, corners, 640, 480, &img, cells, conf);
	int sure_in_glare = 0;
	for (int k = 0; k < 361; k++) {
		assert_int_equal(cells[k], 0);
		double du = k % 19 - sc.glare[0], dv = k / 19 - sc.glare[1];
		if (du * du + dv * dv < 1.0 && conf[k] >= 0.9f) {
			printf("  in the glare: (%d,%d) empty, confidence %.2f\n", k % 19, k / 19, conf[k]);
			sure_in_glare++;
		}
	}
	assert_int_equal(sure_in_glare, 0);
	assert_true(conf[15 * 19 + 3] >= 0.9f && conf[2 * 19 + 2] >= 0.9f && conf[16 * 19 + 16] >= 0.9f);
	gv_image_free(&img);
}

static void test_drawn_crowded_corner_and_small_board(void **s)
{
	(void)s;
	/* a 9x9 board with a solid block of touching stones of both colours */
	stone st[40];
	int n = 0;
	for (int j = 0; j < 5; j++)
		for (int i = 0; i < 6; i++)
			st[n++] = (stone){i, j, ((i * 7 + j * 3) % 5 - 2) * 0.03, ((i * 3 + j * 5) % 5 - 2) * 0.03,
			                  (i + 2 * j) % 3 == 0 ? 2 : 1};
	st[n++] = (stone){8, 8, 0, 0, 2};
	st[n++] = (stone){6, 7, 0.1, 0.1, 1};
	scene sc = {9, st, n, {1.1, 1, 0.85}, 0.2, {0}, 5, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {100, 80, 420, 70, 470, 400, 60, 390};
	check_scene(&sc, corners, 540, 460);
}

static void test_drawn_stones_put_down_over_the_margin(void **s)
{
	(void)s;
	/* stones put down carelessly on the edge lines, standing out over the
	 * margin by 0.3 of a cell, on every side; the empty edge points
	 * between them stay empty (the margin beyond them is bright wood) */
	static const stone st[] = {
	    {0, 1, -0.3, 0.05, 2}, {0, 7, -0.3, -0.05, 2}, {18, 4, 0.3, 0, 2}, {18, 12, 0.3, 0.05, 2},
	    {5, 0, 0.05, -0.3, 2}, {13, 0, 0, -0.3, 2}, {8, 18, -0.05, 0.3, 2}, {14, 18, 0, 0.3, 2},
	    {0, 13, -0.25, 0, 1}, {10, 0, 0, -0.25, 1},
	};
	scene sc = {19, st, (int)(sizeof st / sizeof st[0]), {1, 1, 1}, 0.2, {0}, 13, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {150, 70, 560, 78, 610, 470, 110, 460};
	check_scene(&sc, corners, 720, 540);
}

static void test_drawn_long_shadows_in_low_light(void **s)
{
	(void)s;
	/* a low lamp on the left: each stone casts a deep shadow that reaches
	 * half way to the next point on its right; the shadows stay empty */
	static const stone st[] = {
	    {3, 3, 0, 0, 1}, {4, 5, 0, 0, 1}, {10, 4, 0.1, 0, 1}, {15, 15, 0, 0, 1}, {6, 12, 0, 0, 1},
	    {7, 12, 0, 0, 1}, {3, 15, 0, 0, 2}, {12, 9, 0, 0, 2}, {16, 3, 0, 0, 2}, {9, 16, 0, 0, 2},
	    {11, 12, 0, 0, 1}, {2, 8, 0, 0, 2}, {14, 7, 0, 0, 1},
	};
	scene sc = {19, st, (int)(sizeof st / sizeof st[0]), {0.55, 0.6, 0.75}, 0.3, {0}, 3, {0, 0, 0}, {0.5, 0.1, 0.35}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {150, 60, 540, 70, 600, 440, 90, 430};
	check_scene(&sc, corners, 680, 500);
}

/* A board the camera moved partly out of the picture: the points beyond it
 * are not read (outside, confidence 0), the rest are read right; a grid
 * that fits the image whole reads as gv_classify_features does; one mostly
 * beyond it is refused. */
static void test_drawn_board_partly_beyond_the_image(void **s)
{
	(void)s;
	static const stone st[] = {
	    {2, 0, 0, 0, 1}, {6, 0, 0, 0, 2},             /* the top row: beyond */
	    {3, 1, 0, 0, 2}, {4, 1, 0.05, 0, 1}, {0, 4, 0, 0, 2},
	    {8, 8, 0, 0, 1}, {5, 5, -0.05, 0.05, 2}, {1, 7, 0, 0, 1},
	};
	scene sc = {9, st, (int)(sizeof st / sizeof st[0]), {1, 1, 1}, 0.2, {0}, 3, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	/* cells of about 40 px; the top line 6 px above the picture */
	double corners[8] = {100, -6, 420, -10, 450, 310, 80, 314}, H[9];
	assert_true(gv_h_from_corners(corners, 9, H));
	gv_image img;
	td_render(&sc, H, 540, 340, &img);
	gv_point_features f[81];
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_features(&img, H, 9, f), GV_EINVAL);
	assert_int_equal(gv_classify_features_within(&img, H, 9, f, NULL), 0);
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	int wrong = 0;
	for (int k = 0; k < 81; k++) {
		int want = 0;
		for (int q = 0; q < sc.nstones; q++)
			if (st[q].j * 9 + st[q].i == k)
				want = st[q].colour;
		/* the top row only: its stones would reach beyond the picture */
		assert_int_equal(f[k].outside, k < 9);
		if (f[k].outside) {
			assert_int_equal(cells[k], 0);
			assert_true(conf[k] == 0);
		} else if (cells[k] != want) {
			printf("  partly beyond: (%d,%d) is %c, read %c\n", k % 9, k / 9, ".BW"[want], ".BW"[cells[k]]);
			wrong++;
		}
	}
	assert_int_equal(wrong, 0);
	gv_image_free(&img);

	/* whole on the picture: the same reading as gv_classify_features */
	double inside[8] = {100, 30, 420, 26, 450, 310, 80, 314};
	assert_true(gv_h_from_corners(inside, 9, H));
	td_render(&sc, H, 540, 340, &img);
	gv_point_features g[81];
	unsigned char cells2[81];
	float conf2[81];
	assert_int_equal(gv_classify_features(&img, H, 9, g), 0);
	assert_int_equal(gv_classify_decide(g, 9, cells2, conf2), 0);
	assert_int_equal(gv_classify_features_within(&img, H, 9, f, NULL), 0);
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	for (int k = 0; k < 81; k++) {
		assert_false(f[k].outside);
		assert_int_equal(cells[k], cells2[k]);
		assert_true(conf[k] == conf2[k]);
		assert_true(f[k].white == g[k].white && f[k].black == g[k].black && f[k].line == g[k].line);
	}
	/* half of it beyond the picture: refused */
	double half[8] = {100, -160, 420, -164, 450, 156, 80, 160};
	assert_true(gv_h_from_corners(half, 9, H));
	assert_int_equal(gv_classify_features_within(&img, H, 9, f, NULL), GV_EINVAL);
	gv_image_free(&img);
}

/* Seen at a steep angle, a black stone's body leans over the point behind
 * it: a white stone standing on that point shows black evidence too, found
 * by looking off the point towards the black one, and strong enough to
 * clear the threshold (gobanwatcher/3: (8,2) and (10,3) read black under
 * most lights). The colour standing right on the point is read; and the
 * same the other way round. The decision alone, on features made here: a
 * 9x9 board of empty points, clear black and white stones. */
static void set_point(gv_point_features *p, float bright, float line, float yellow, float black, float black0,
                      float white, float white0)
{
	memset(p, 0, sizeof *p);
	p->bright = bright;
	p->dark = bright;
	p->line = line;
	p->yellow = yellow;
	p->board = 120;
	p->black = black;
	p->black0 = black0;
	p->white = white;
	p->white0 = white0;
	p->pv = -0.2f;
	p->around = -1;
}

/* A 9x9 board's features for the decision tests: every point empty (lines
 * showing), clear black stones at packed_blacks, white ones (white evidence
 * white) at packed_whites. */
static const int packed_blacks[] = {13, 40, 49, 58, 20, 29, 42, 51}, packed_whites[] = {10, 19, 28, 46, 55, 64, 66, 75};

static void packed_board(gv_point_features f[81], float white)
{
	for (int k = 0; k < 81; k++)
		set_point(&f[k], 0, 0.5f, 0, -0.05f, -0.05f, -2, -2);
	for (size_t q = 0; q < sizeof packed_blacks / sizeof *packed_blacks; q++)
		set_point(&f[packed_blacks[q]], -2, -0.5f, -0.3f, 1.5f, 1.5f, -10, -10);
	for (size_t q = 0; q < sizeof packed_whites / sizeof *packed_whites; q++)
		set_point(&f[packed_whites[q]], 0.4f, 0.02f, -0.1f, -0.4f, -0.4f, white, white);
}

/* Every clear stone of packed_board read as it stands. */
static void packed_stones_read(const unsigned char cells[81])
{
	for (size_t q = 0; q < sizeof packed_blacks / sizeof *packed_blacks; q++)
		assert_int_equal(cells[packed_blacks[q]], 1);
	for (size_t q = 0; q < sizeof packed_whites / sizeof *packed_whites; q++)
		assert_int_equal(cells[packed_whites[q]], 2);
}

/* packed_board's features f decided: its clear stones read as they stand,
 * its plain empty point (0, 0) empty and sure, point `unsure` empty and not
 * sure, point `sure` (-1: none) empty and sure. */
static void packed_read_empty(const gv_point_features f[81], int unsure, int sure)
{
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	packed_stones_read(cells);
	assert_int_equal(cells[unsure], 0);
	assert_true(conf[unsure] < 0.9f);
	assert_int_equal(cells[0], 0);
	assert_true(conf[0] >= 0.9f);
	if (sure >= 0) {
		assert_int_equal(cells[sure], 0);
		assert_true(conf[sure] >= 0.9f);
	}
}

static void test_the_colour_on_the_point_beats_a_neighbour_leaning_over_it(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	/* (4,3), above the black (4,4): white on the point, black found only
	 * 0.4 cell towards (4,4), stronger than its white by the thresholds */
	set_point(&f[31], 0.03f, 0.03f, -0.13f, 1.2f, -0.3f, 4, 3.5f);
	f[31].bv = 0.4f;
	/* (2,6), beside the whites: black on the point, white found only off it */
	set_point(&f[56], -0.1f, 0.03f, -0.13f, 0.9f, 0.9f, 9, -1);
	f[56].wu = 0.4f;
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[31], 2);
	assert_int_equal(cells[56], 1);
	packed_stones_read(cells);
	assert_int_equal(cells[0], 0);
}

/* gobanwatcher/3 violet_2's (10,3), a white stone packed against the black
 * (9,3): black evidence found only 0.3 cell towards that neighbour, white
 * right on the point clearing the threshold, but a sliver of line beside
 * the stone keeps its white (less the line penalty) under it. Read white,
 * not black (which was read there sure). */
static void test_white_on_the_point_beats_black_found_only_off_it(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	/* (4,3), right of the black (3,3) = 30: the whites' threshold is 2
	 * here (0.4 of their 5); its white 2.6 less 6 x 0.11 of line is 1.94,
	 * under it; on the point 2.3, over it; black 0.58 found 0.15 cell off
	 * the point (the black stone's own placement 0.85 cell away: no clash) */
	set_point(&f[31], -0.12f, 0.11f, -0.1f, 0.58f, -0.28f, 2.6f, 2.3f);
	f[31].bu = -0.15f;
	set_point(&f[30], -2, -0.5f, -0.3f, 1.5f, 1.5f, -10, -10);
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[31], 2);
	assert_int_equal(cells[30], 1);
	/* with no white on the point it stays black: the evidence it had */
	f[31].white0 = 1.5f;
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[31], 1);
	packed_stones_read(cells);
}

/* gobanwatcher/3 cyan_1's (15,17): a white stone dimmer than the photo's
 * others, its own shadow found a quarter cell below it as black evidence,
 * its centre brighter than the board. A black stone standing off its point
 * still covers it: no black there (read empty here, its white too weak). */
static void test_no_black_where_the_point_is_brighter_than_the_board(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	/* (6,7): black 0.6 found a quarter cell below the point, none on it */
	set_point(&f[69], 0.1f, 0.05f, -0.1f, 0.6f, -0.2f, 1.0f, 0.8f);
	f[69].bv = 0.25f;
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[69], 0);
	/* darker than the board at its centre, the same evidence stays black */
	f[69].bright = f[69].dark = -0.05f;
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[69], 1);
	packed_stones_read(cells);
}

/* gobanwatcher/3 orange_2's (17,2): two black stones packed in a far row,
 * seen steeply; the nearer one's best placement leans up onto the farther
 * one's, and its claim (clearer: the farther one has the wood's hue, judged
 * against the stones) came first. A centre half as dark as the photo's
 * black stones keeps its stone; a shadow is not that dark. */
static void test_a_black_as_dark_as_the_stones_keeps_its_stone(void **s)
{
	(void)s;
	gv_point_features f[81];
	for (int k = 0; k < 81; k++)
		set_point(&f[k], 0, 0.5f, 0, -0.05f, -0.05f, -2, -2);
	static const int blacks[] = {13, 49, 58, 20, 29, 51, 60, 70}, whites[] = {10, 19, 28, 46, 55, 64, 66, 75};
	for (size_t q = 0; q < sizeof blacks / sizeof *blacks; q++)
		set_point(&f[blacks[q]], -2, -0.5f, -0.3f, 1.5f, 1.5f, -10, -10);
	for (size_t q = 0; q < sizeof whites / sizeof *whites; q++)
		set_point(&f[whites[q]], 0.4f, 0.02f, -0.1f, -0.4f, -0.4f, 5, 5);
	/* (4,4): clear, its placement 0.2 cell up beyond its lean */
	set_point(&f[40], -2.5f, -0.5f, -0.3f, 3, 0.2f, -10, -10);
	f[40].bv = -0.4f;
	/* (4,3): the wood's hue, so judged against the stones' darkness; its
	 * placement 0.5 cell down, onto (4,4)'s; its centre -1.5 (the stones'
	 * -2) */
	set_point(&f[31], -1.5f, -0.5f, 0, 1.5f, 0.5f, -10, -10);
	f[31].bv = 0.3f;
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[40], 1);
	assert_int_equal(cells[31], 1);
	/* a centre only a quarter as dark as the stones': taken for (4,4)'s */
	f[31].bright = f[31].dark = -0.5f;
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	assert_int_equal(cells[40], 1);
	assert_int_equal(cells[31], 0);
	for (size_t q = 0; q < sizeof blacks / sizeof *blacks; q++)
		assert_int_equal(cells[blacks[q]], 1);
	for (size_t q = 0; q < sizeof whites / sizeof *whites; q++)
		assert_int_equal(cells[whites[q]], 2);
}

/* A hand reaching over the board's edge, read as a white stone there: not
 * sure (its white goes on past the edge); a white stone on the edge with the
 * table beyond it stays sure. */
static void test_drawn_hand_over_the_edge_is_not_sure(void **s)
{
	(void)s;
	static const stone st[] = {{0, 3, 0, 0, 2}, {0, 14, 0, 0, 1}, {9, 9, 0, 0, 2}, {18, 6, 0, 0, 2}};
	scene sc = {19, st, (int)(sizeof st / sizeof st[0]), {1, 1, 1}, 0.1, {0}, 21, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {160, 40, 600, 40, 600, 480, 160, 480}, H[9];
	gv_image img;
	unsigned char cells[361];
	float conf[361];
	classify_drawn(&sc, corners, 700, 520, &img, cells, conf);
	assert_true(gv_h_from_corners(corners, 19, H));
	assert_int_equal(cells[3 * 19 + 0], 2);
	assert_true(conf[3 * 19 + 0] >= 0.9f);
	assert_int_equal(cells[6 * 19 + 18], 2);
	assert_true(conf[6 * 19 + 18] >= 0.9f);
	/* fingers over the edge points of rows 9 and 10, the hand beyond the
	 * board's edge out to the picture's side: pale skin */
	double x0, y0, x1, y1;
	gv_h_apply(H, 0.45, 8.6, &x1, &y0);
	gv_h_apply(H, 0.45, 10.4, &x1, &y1);
	x0 = 0;
	for (int y = (int)y0; y <= (int)y1; y++)
		for (int x = (int)x0; x <= (int)x1; x++) {
			unsigned char *px = gv_px(&img, x, y);
			px[0] = 238, px[1] = 214, px[2] = 200;
		}
	assert_int_equal(gv_classify(&img, H, 19, cells, conf), 0);
	for (int j = 9; j <= 10; j++)
		if (cells[j * 19] != 0) {
			printf("  the hand at (0,%d): read %c, confidence %.2f\n", j, ".BW"[cells[j * 19]], conf[j * 19]);
			assert_true(conf[j * 19] < 0.9f);
		}
	assert_true(conf[3 * 19 + 0] >= 0.9f);
	gv_image_free(&img);
}

/* A small, hazy picture (12 px a cell, a webcam's 320x240 halved from
 * 640x480) of a board on a pale cloth that comes up to its edges on two
 * sides: at the corner the lines are lost in the blur, and the cloth beside
 * the corner point read as a white stone standing out over the margin (as
 * on imago/t2's photos at half size) until the white going on past the
 * board's edge was seen to be no stone's. The white stones on those edges,
 * on their points, stay white. */
static void test_drawn_small_board_on_a_pale_cloth(void **s)
{
	(void)s;
	static const stone st[] = {{3, 0, 0, 0, 2}, {0, 5, 0, 0, 2}, {9, 9, 0, 0, 2}, {4, 4, 0, 0, 1},
	                           {15, 3, 0, 0, 1}, {14, 14, 0, 0, 2}, {18, 10, 0, 0, 2}, {10, 18, 0, 0, 1}};
	scene sc = {19, st, (int)(sizeof st / sizeof st[0]), {1, 1, 1}, 0.1, {0}, 23, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {62, 24, 282, 28, 292, 226, 52, 222}, big[8], H[9], Hi[9];
	/* drawn at twice the size, then halved as a decoder halves a photo (the
	 * lines a pixel wide, soft) */
	for (int k = 0; k < 8; k++)
		big[k] = 2 * corners[k] + 0.5;
	assert_true(gv_h_from_corners(big, 19, H));
	assert_true(gv_h_invert(H, Hi));
	gv_image full, img;
	td_render(&sc, H, 640, 480, &full);
	/* the cloth: everything beyond the board's top and left edges */
	double wx, wy;
	gv_h_apply(H, 0.5, 0.5, &wx, &wy);
	for (int y = 0; y < 480; y++)
		for (int x = 0; x < 640; x++) {
			double u, v;
			gv_h_apply(Hi, x, y, &u, &v);
			unsigned char *px = gv_px(&full, x, y);
			if ((u < -0.45 && v < 18.8) || (v < -0.45 && u < 18.8))
				px[0] = 226, px[1] = 232, px[2] = 240;
			else if (u < 0.35 && v < 0.35)
				/* the corner's lines lost (in a webcam's blur, as
				 * faint as the wood's grain) */
				memcpy(px, gv_px(&full, (int)wx, (int)wy), 3);
		}
	/* a webcam's haze: faint lines */
	for (int y = 0; y < 480; y++)
		for (int x = 0; x < 640; x++)
			for (int c = 0; c < 3; c++) {
				unsigned char *px = gv_px(&full, x, y) + c;
				*px = (unsigned char)(0.5 * *px + 110);
			}
	assert_int_equal(gv_shrink_area(&full, &img, 320, 240), 0);
	gv_image_free(&full);
	assert_true(gv_h_from_corners(corners, 19, H));
	unsigned char cells[361];
	float conf[361];
	assert_int_equal(gv_classify(&img, H, 19, cells, conf), 0);
	int wrong = 0;
	for (int k = 0; k < 361; k++) {
		int want = 0;
		for (size_t q = 0; q < sizeof st / sizeof st[0]; q++)
			if (st[q].j * 19 + st[q].i == k)
				want = st[q].colour;
		if (cells[k] != want) {
			printf("  on a pale cloth: (%d,%d) is %c, read %c (confidence %.2f)\n", k % 19, k / 19, ".BW"[want],
			       ".BW"[cells[k]], conf[k]);
			wrong++;
		}
	}
	gv_image_free(&img);
	assert_int_equal(wrong, 0);
}

/* A point whose arms show line contrast over LINE_BLACK (a black stone's
 * edge, seen steeply, through a grid a little off the stones' points:
 * gobanwatcher/1 orange_2 through its clicked corners), whose centre is a
 * little dark (-0.45, between DARK_CENTRE and LINE_BLACK_DARK), is read
 * empty, the lines veto black, but not sure: its black alone clears the
 * threshold. An empty point whose lines show and that has no black is
 * sure as before. */
static void test_black_vetoed_by_its_lines_is_not_sure(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	set_point(&f[33], -0.45f, 0.7f, -0.3f, 3.0f, 0.3f, -10, -10);
	packed_read_empty(f, 33, -1);
}

/* The same point with its centre as dark as a stone's (-2.0, under
 * LINE_BLACK_DARK: no empty point of the shared photos whose lines show
 * that much is darker than -0.30) is black: the "line" is the stone's dark
 * body between its glare spots (gobanwatcher/1 under orange light). */
static void test_black_as_dark_as_a_stone_is_not_vetoed_by_its_lines(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	set_point(&f[33], -2.0f, 0.7f, -0.3f, 3.0f, 0.3f, -10, -10);
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	packed_stones_read(cells);
	assert_int_equal(cells[33], 1);
	assert_int_equal(cells[0], 0);
}

/* White found only a third of a cell off a point whose own centre is not
 * white and shows its lines with the wood's hue (gobanwatcher/1 1_jwerth_1
 * through its clicked corners: the empty 4,18 between two white stones,
 * one of them standing off its own point, read white with 1.0): read as
 * before, but not sure. A white stone read the same way whose centre
 * shows no line (a far row's stone leaning over the margin) stays sure. */
static void test_white_found_only_off_a_point_showing_wood_is_not_sure(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	set_point(&f[33], -0.03f, 0.22f, 0.13f, 0.19f, -0.05f, 7.8f, -3.9f);
	f[33].wu = -0.3f;
	set_point(&f[34], 0.3f, 0.01f, -0.1f, -0.4f, -0.4f, 7.8f, -3.9f);
	f[34].wu = 0.3f;
	unsigned char cells[81];
	float conf[81];
	assert_int_equal(gv_classify_decide(f, 9, cells, conf), 0);
	packed_stones_read(cells);
	assert_int_equal(cells[33], 2);
	assert_true(conf[33] < 0.9f);
	assert_int_equal(cells[34], 2);
	assert_true(conf[34] >= 0.9f);
}

/* A point whose lines are hidden and whose centre is darker than the wood,
 * with too little black or white evidence for either stone (a white stone
 * under a yellow lamp, darker than the orange board: samples/eval_scenes.py
 * scene 421, two white stones read empty at 0.98 and 1.0), is read empty
 * but not sure: something stands there. An empty point with its lines
 * hidden but as bright as the wood (faint lines, blur) stays sure. */
static void test_hidden_lines_darker_than_the_wood_are_not_sure(void **s)
{
	(void)s;
	gv_point_features f[81];
	packed_board(f, 5);
	set_point(&f[33], -0.26f, 0.045f, -0.03f, 0.35f, 0.3f, 0.49f, -0.55f);
	set_point(&f[34], -0.02f, 0.045f, -0.03f, 0.1f, 0.1f, -2, -2);
	packed_read_empty(f, 33, 34);
}

/* The second look by the photo's own stones and wood (gv_classify_colours),
 * on a reading made here: a 9x9 board of 40 empty points read sure (the
 * wood: colour 0 in each channel), 12 white stones read sure (brighter
 * than the wood, most in blue: the colours of a white stone on wood), and
 * black stones, each with a grain of up to 0.05 a channel so that no two
 * are alike. */
static void colour_board(gv_point_features f[81], unsigned char cells[81], float conf[81], int whites)
{
	static const float white[3] = {0.3f, 0.6f, 0.9f};
	for (int k = 0; k < 81; k++) {
		memset(&f[k], 0, sizeof f[k]);
		f[k].around = -1;
		int kind = k < whites ? 2 : k < 12 + 40 ? 0 : 1;
		/* lines show on the open points, not under a stone */
		f[k].line = kind == 0 ? 0.4f : 0.02f;
		for (int q = 0; q < 3; q++)
			f[k].wc[q] = (kind == 2 ? white[q] : kind == 1 ? -1.5f : 0) +
			             0.05f * (float)((k * 37 + q * 17) % 11 - 5) / 5;
		cells[k] = (unsigned char)kind;
		conf[k] = 1;
	}
}

static void test_colours_judged_by_the_photos_own_stones(void **s)
{
	(void)s;
	gv_point_features f[81];
	unsigned char cells[81];
	float conf[81];
	colour_board(f, cells, conf, 12);
	/* 60: a white stone read empty, unsure (a packed one, the squares
	 * around it covered); 61: the wood read white, unsure; 62: glare on
	 * the wood read empty, unsure, whiter than any stone; 63: a white
	 * stone read empty, sure; 64: a black stone with a white stone's
	 * colour at its white placement */
	const float stone[3] = {0.32f, 0.58f, 0.93f}, glare[3] = {1.4f, 1.6f, 1.7f}, wood[3] = {0.01f, -0.02f, 0.02f};
	for (int q = 0; q < 3; q++) {
		f[60].wc[q] = stone[q];
		f[61].wc[q] = wood[q];
		f[62].wc[q] = glare[q];
		f[63].wc[q] = stone[q];
		f[64].wc[q] = stone[q];
	}
	cells[60] = 0, conf[60] = 0.8f;
	cells[61] = 2, conf[61] = 0.3f;
	cells[62] = 0, conf[62] = 0.8f;
	cells[63] = 0, conf[63] = 0.95f;
	cells[64] = 1, conf[64] = 0.8f;
	unsigned char before[81];
	memcpy(before, cells, sizeof before);
	assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
	assert_int_equal(cells[60], 2);
	assert_true(conf[60] <= 0.8f && conf[60] > 0.5f);
	assert_int_equal(cells[61], 0);
	assert_true(conf[61] <= 0.3f);
	assert_int_equal(cells[62], 0);
	assert_int_equal(cells[63], 0);
	assert_true(conf[63] == 0.95f);
	assert_int_equal(cells[64], 1);
	for (int k = 0; k < 81; k++)
		if (k < 60 || k > 64)
			assert_int_equal(cells[k], before[k]);
	/* too few white stones read to judge by (a white stone read empty
	 * unsurely, its lines showing): nothing changes */
	colour_board(f, cells, conf, 7);
	for (int q = 0; q < 3; q++)
		f[60].wc[q] = stone[q];
	f[60].line = 0.4f;
	cells[60] = 0, conf[60] = 0.8f;
	assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
	assert_int_equal(cells[60], 0);
	/* an opening under a lamp that makes the white stones as dark as the
	 * wood: five read white surely, three read empty unsurely with their
	 * lines hidden (goref-render's orange-lit 9x9, scene 20208 of
	 * samples/eval_scenes.py --moves 20 --bamboo: five of ten read
	 * empty). Those three count among the white ones at first, and the
	 * colours judge them white; the open points stay as read. With their
	 * lines showing, too few: nothing changes; nor in a photo out of focus,
	 * whose lines are faint on every point (GV_SEED_LINES_SHOW) */
	for (int way = 0; way < 3; way++) {
		colour_board(f, cells, conf, 5);
		if (way == 2)
			for (int k = 0; k < 81; k++)
				f[k].line = 0.08f;
		for (int k = 60; k < 63; k++) {
			for (int q = 0; q < 3; q++)
				f[k].wc[q] = stone[q] + 0.02f * (float)(k - 61);
			f[k].line = way == 1 ? 0.4f : 0.03f;
			cells[k] = 0, conf[k] = 0.7f;
		}
		memcpy(before, cells, sizeof before);
		assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
		for (int k = 0; k < 81; k++)
			assert_int_equal(cells[k], k >= 60 && k < 63 && way == 0 ? 2 : before[k]);
	}
	/* no colours at all (features of a drawn test): nothing changes */
	memset(f, 0, sizeof f);
	colour_board(f, cells, conf, 12);
	for (int k = 0; k < 81; k++)
		memset(f[k].wc, 0, sizeof f[k].wc);
	cells[60] = 0, conf[60] = 0.2f;
	memcpy(before, cells, sizeof before);
	assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
	assert_memory_equal(cells, before, sizeof before);
	assert_int_equal(gv_classify_colours(NULL, 9, cells, conf), GV_EINVAL);
	assert_int_equal(gv_classify_colours(f, 9, cells, NULL), GV_EINVAL);
	assert_int_equal(gv_classify_colours(f, 20, cells, conf), GV_EINVAL);
}

/* A first reading off under a coloured light (gobanwatcher/1 under blue
 * light through its clicked corners: the wood cyan, the white stones bluer,
 * a third of the open points read white and some white stones read empty,
 * nothing sure): the photo's two kinds of colour, found from that reading,
 * set every point right. A 19x19 board: 150 open points of the wood's
 * colour, 120 white stones of their own, black stones on the rest, each
 * with a grain of about 0.1 a channel. */
static float grain(unsigned *seed)
{
	/* about normal, a spread of 0.1: four uniform draws of an LCG */
	float sum = 0;
	for (int i = 0; i < 4; i++) {
		*seed = *seed * 1103515245u + 12345u;
		sum += (float)((*seed >> 16) & 0x7fff) / 32768.0f;
	}
	return 0.17f * (sum - 2);
}

static void off_board(gv_point_features f[361], unsigned char cells[361], float conf[361], unsigned char truth[361])
{
	static const float wood[3] = {-0.6f, 0.35f, 0.2f}, white[3] = {1.5f, 0.5f, 0.4f};
	unsigned seed = 1;
	for (int k = 0; k < 361; k++) {
		memset(&f[k], 0, sizeof f[k]);
		f[k].around = k % 2 ? 1 : -1;
		int kind = k < 150 ? 0 : k < 270 ? 2 : 1;
		for (int q = 0; q < 3; q++)
			f[k].wc[q] = (kind == 2 ? white[q] : kind == 1 ? -1.5f : wood[q]) + grain(&seed);
		truth[k] = (unsigned char)kind;
		/* read: one open point in three white, one white stone in ten
		 * empty; every point unsure */
		cells[k] = kind == 0 && k % 3 == 0 ? 2 : kind == 2 && k % 10 == 0 ? 0 : (unsigned char)kind;
		conf[k] = 0.8f;
	}
}

static void test_colours_found_where_the_first_reading_is_off(void **s)
{
	(void)s;
	gv_point_features f[361];
	unsigned char cells[361], truth[361];
	float conf[361];
	off_board(f, cells, conf, truth);
	int wrong = 0;
	for (int k = 0; k < 361; k++)
		wrong += cells[k] != truth[k];
	assert_int_equal(wrong, 50 + 12);
	assert_int_equal(gv_classify_colours(f, 19, cells, conf), 0);
	for (int k = 0; k < 361; k++) {
		assert_int_equal(cells[k], truth[k]);
		assert_true(conf[k] <= 0.8f);
	}
	/* a point whose colour is not a number (a measure gone wrong) is left
	 * as it was read (points 0 and 3: open, read white), and the others
	 * judged as before */
	off_board(f, cells, conf, truth);
	f[0].wc[1] = NAN;
	f[3].wc[2] = INFINITY;
	assert_int_equal(gv_classify_colours(f, 19, cells, conf), 0);
	for (int k = 0; k < 361; k++)
		assert_int_equal(cells[k], k == 0 || k == 3 ? 2 : truth[k]);
	/* the same colours with no two kinds in them (the white stones of the
	 * wood's colour): nothing changes */
	off_board(f, cells, conf, truth);
	for (int k = 150; k < 270; k++)
		for (int q = 0; q < 3; q++)
			f[k].wc[q] = f[k - 150].wc[q];
	unsigned char before[361];
	memcpy(before, cells, sizeof before);
	assert_int_equal(gv_classify_colours(f, 19, cells, conf), 0);
	assert_memory_equal(cells, before, sizeof before);
}

/* Glare on the wood is as white as a stone: where the first reading is
 * sure of its white stones, a point it read empty fairly surely beside
 * squares as white as a stone, whose lines show more than on any of those
 * stones, stays empty; with its lines hidden as a stone hides them, the
 * colours make it white. */
static void test_glare_read_empty_stays_empty(void **s)
{
	(void)s;
	gv_point_features f[81];
	unsigned char cells[81];
	float conf[81];
	const float stone[3] = {0.32f, 0.58f, 0.93f};
	for (int hidden = 0; hidden < 2; hidden++) {
		colour_board(f, cells, conf, 12);
		for (int k = 0; k < 81; k++)
			f[k].line = cells[k] == 2 ? 0.01f : 0.3f;
		for (int q = 0; q < 3; q++)
			f[60].wc[q] = stone[q];
		f[60].around = 2;
		f[60].line = hidden ? 0.0f : 0.2f;
		cells[60] = 0, conf[60] = 0.8f;
		assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
		assert_int_equal(cells[60], hidden ? 2 : 0);
		/* read empty unsurely: the colours decide */
		colour_board(f, cells, conf, 12);
		for (int q = 0; q < 3; q++)
			f[60].wc[q] = stone[q];
		f[60].around = 2;
		f[60].line = 0.2f;
		cells[60] = 0, conf[60] = 0.3f;
		assert_int_equal(gv_classify_colours(f, 9, cells, conf), 0);
		assert_int_equal(cells[60], 2);
	}
}

static void test_bad_arguments(void **s)
{
	(void)s;
	gv_image img;
	assert_int_equal(gv_image_alloc(&img, 100, 100, 3), 0);
	double corners[8] = {10, 10, 90, 10, 90, 90, 10, 90}, H[9];
	assert_true(gv_h_from_corners(corners, 19, H));
	unsigned char cells[400];
	assert_int_equal(gv_classify(&img, H, 1, cells, NULL), GV_EINVAL);
	assert_int_equal(gv_classify(&img, H, 20, cells, NULL), GV_EINVAL);
	assert_int_equal(gv_classify(NULL, H, 19, cells, NULL), GV_EINVAL);
	assert_int_equal(gv_classify(&img, H, 19, NULL, NULL), GV_EINVAL);
	/* a grid that runs off the image */
	double off[8] = {10, 10, 190, 10, 190, 90, 10, 90};
	assert_true(gv_h_from_corners(off, 19, H));
	assert_int_equal(gv_classify(&img, H, 19, cells, NULL), GV_EINVAL);
	/* the same through gv_classify_features_within: more than a quarter
	 * of it beyond; its bad arguments; a small board wholly inside */
	gv_point_features f[361];
	assert_int_equal(gv_classify_features_within(&img, H, 19, f, NULL), GV_EINVAL);
	assert_int_equal(gv_classify_features_within(&img, H, 20, f, NULL), GV_EINVAL);
	assert_int_equal(gv_classify_features_within(NULL, H, 19, f, NULL), GV_EINVAL);
	assert_int_equal(gv_classify_features_within(&img, H, 19, NULL, NULL), GV_EINVAL);
	double small[8] = {30, 30, 70, 30, 70, 70, 30, 70};
	assert_true(gv_h_from_corners(small, 3, H));
	assert_int_equal(gv_classify_features_within(&img, H, 3, f, NULL), 0);
	for (int k = 0; k < 9; k++)
		assert_false(f[k].outside);
	gv_image_free(&img);
}

/* ------------------------------------------------------------------ */
/* real photos */

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A change of light applied to a photo: each channel times gain[c], after a
 * gamma (1: none). */
typedef struct relight {
	const char *name;
	double gain[3];
	double gamma;
} relight;

static void apply_light(gv_image *img, const relight *l)
{
	unsigned char lut[3][256];
	for (int c = 0; c < 3; c++)
		for (int v = 0; v < 256; v++) {
			double x = 255 * pow(v / 255.0, l->gamma) * l->gain[c];
			lut[c][v] = (unsigned char)(x > 255 ? 255 : x + 0.5);
		}
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++) {
			unsigned char *p = gv_px(img, x, y);
			for (int c = 0; c < 3; c++)
				p[c] = lut[c][p[c]];
		}
}

/* Classifies every photo of corners.tsv (in the light l, or as taken when
 * l is NULL); prints the wrong points and the totals. Returns false when
 * the datasets are absent. */
static bool run_photos(const relight *l, long *points, long *points_ok, int *photos, int *boards_ok)
{
	const char *ds = GOREF_SHARED "/datasets";
	if (access(ds, R_OK) != 0) {
		printf("  %s is absent: the real-photo evaluation is skipped\n", ds);
		return false;
	}
	char *tsv = tu_read_file(tu_fixture("vision/corners.tsv"), NULL);
	assert_non_null(tsv);
	*photos = *boards_ok = 0;
	*points = *points_ok = 0;
	double ms = 0;
	char *save = NULL;
	for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !line[0])
			continue;
		char rel[512];
		double c[8];
		assert_int_equal(sscanf(line, "%511s %lf %lf %lf %lf %lf %lf %lf %lf", rel, &c[0], &c[1], &c[2], &c[3],
		                        &c[4], &c[5], &c[6], &c[7]),
		                 9);
		char path[1024], txt[1024], err[256];
		snprintf(path, sizeof path, "%s/%s", ds, rel);
		snprintf(txt, sizeof txt, "%s", path);
		char *dot = strrchr(txt, '.');
		assert_non_null(dot);
		strcpy(dot, ".txt");
		if (access(txt, R_OK) != 0) {
			/* a label set aside (NAME.disputed.txt, see the datasets' README) */
			if (!l)
				printf("  %s: no label (set aside), not counted\n", rel);
			continue;
		}
		unsigned char truth[361], cells[361];
		float conf[361];
		assert_true(tu_read_label(txt, truth));
		gv_image img;
		int rc = gv_imread(&img, path, err, sizeof err);
		if (rc)
			printf("  %s: %s\n", rel, err);
		assert_int_equal(rc, 0);
		if (l)
			apply_light(&img, l);
		double H[9];
		assert_true(gv_h_from_corners(c, 19, H));
		double t0 = now_ms();
		assert_int_equal(gv_classify(&img, H, 19, cells, conf), 0);
		ms += now_ms() - t0;
		gv_image_free(&img);
		int wrong = 0;
		char list[2048] = "";
		for (int k = 0; k < 361; k++)
			if (cells[k] != truth[k]) {
				wrong++;
				char one[64];
				snprintf(one, sizeof one, " (%d,%d) %c read %c conf %.2f", k % 19, k / 19, ".BW"[truth[k]],
				         ".BW"[cells[k]], conf[k]);
				if (strlen(list) + strlen(one) < sizeof list)
					strcat(list, one);
			}
		if (wrong)
			printf("  %s%s%s: %d wrong:%s\n", l ? l->name : "", l ? ": " : "", rel, wrong, list);
		(*photos)++;
		*points += 361;
		*points_ok += 361 - wrong;
		*boards_ok += wrong == 0;
	}
	free(tsv);
	printf("  real photos%s%s, hand corners: %ld/%ld points right (%.3f%%), %d/%d boards entirely right, "
	       "%.1f ms a board\n",
	       l ? " " : "", l ? l->name : "", *points_ok, *points,
	       100.0 * (double)*points_ok / (double)(*points ? *points : 1), *boards_ok, *photos,
	       *photos ? ms / *photos : 0);
	return true;
}

static void test_real_photos_with_hand_corners(void **s)
{
	(void)s;
	long points, ok;
	int photos, boards;
	if (!run_photos(NULL, &points, &ok, &photos, &boards))
		skip();
	assert_true(photos > 0);
	assert_true(ok * 10000 >= MIN_POINTS_PER_10000 * points);
	assert_true(boards >= MIN_BOARDS);
}

/* The same photos in other light: no setting may depend on the light they
 * happened to be taken in. Reached when written: dim 99.94%/62, bluish
 * 99.93%/60, washed out 99.95%/63, overexposed 99.93%/60 boards of 69;
 * floors a little under: 99.85% and 58 boards. */
static void test_real_photos_in_other_light(void **s)
{
	(void)s;
	static const relight lights[] = {
	    {"dim", {0.4, 0.4, 0.4}, 1},
	    {"bluish", {0.7, 0.85, 1.2}, 1},
	    {"washed out", {1, 1, 1}, 0.6},
	    {"overexposed", {1.3, 1.3, 1.3}, 1},
	};
	for (size_t k = 0; k < sizeof lights / sizeof lights[0]; k++) {
		long points, ok;
		int photos, boards;
		if (!run_photos(&lights[k], &points, &ok, &photos, &boards))
			skip();
		assert_true(ok * 10000 >= 9985 * points);
		assert_true(boards >= 58);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_drawn_board_in_perspective),
	    cmocka_unit_test(test_drawn_empty_board_in_coloured_light_and_glare),
	    cmocka_unit_test(test_drawn_glare_is_not_sure),
	    cmocka_unit_test(test_drawn_crowded_corner_and_small_board),
	    cmocka_unit_test(test_drawn_stones_put_down_over_the_margin),
	    cmocka_unit_test(test_drawn_long_shadows_in_low_light),
	    cmocka_unit_test(test_drawn_board_partly_beyond_the_image),
	    cmocka_unit_test(test_the_colour_on_the_point_beats_a_neighbour_leaning_over_it),
	    cmocka_unit_test(test_white_on_the_point_beats_black_found_only_off_it),
	    cmocka_unit_test(test_no_black_where_the_point_is_brighter_than_the_board),
	    cmocka_unit_test(test_a_black_as_dark_as_the_stones_keeps_its_stone),
	    cmocka_unit_test(test_drawn_hand_over_the_edge_is_not_sure),
	    cmocka_unit_test(test_drawn_small_board_on_a_pale_cloth),
	    cmocka_unit_test(test_black_vetoed_by_its_lines_is_not_sure),
	    cmocka_unit_test(test_black_as_dark_as_a_stone_is_not_vetoed_by_its_lines),
	    cmocka_unit_test(test_white_found_only_off_a_point_showing_wood_is_not_sure),
	    cmocka_unit_test(test_hidden_lines_darker_than_the_wood_are_not_sure),
	    cmocka_unit_test(test_colours_judged_by_the_photos_own_stones),
	    cmocka_unit_test(test_colours_found_where_the_first_reading_is_off),
	    cmocka_unit_test(test_glare_read_empty_stays_empty),
	    cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_real_photos_with_hand_corners),
	    cmocka_unit_test(test_real_photos_in_other_light),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
