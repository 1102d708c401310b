/* calib/lens and calib/board: a chessboard drawn at several poses through a
 * known pinhole camera and radial distortion, calibrated back; the players'
 * A1 for every rotation, on the grid and on the snapshot. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_board.h"
#include "cvwrap.h"
#include "geom.h"
#include "lens.h"
#include "png.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The true camera. */
#define IMG_W 640
#define IMG_H 480
static const double FX = 620, FY = 610, CX = 330, CY = 235, K1 = -0.3, K2 = 0.12;

/* The chessboard: 10 x 7 squares of 25 mm (9 x 6 inner corners), a white
 * margin of one square, on a grey table. */
#define SQ 25.0
#define NX 10
#define NY 7

/* The undistorted normalised point seen at the distorted one. */
static void undistort_norm(double xd, double yd, double *xu, double *yu)
{
	double x = xd, y = yd;
	for (int it = 0; it < 30; it++) {
		double r2 = x * x + y * y, s = 1 + K1 * r2 + K2 * r2 * r2;
		x = xd / s;
		y = yd / s;
	}
	*xu = x;
	*yu = y;
}

static double shade(double X, double Y)
{
	if (X < -SQ || Y < -SQ || X > (NX + 1) * SQ || Y > (NY + 1) * SQ)
		return 120;
	if (X < 0 || Y < 0 || X >= NX * SQ || Y >= NY * SQ)
		return 235;
	int i = (int)floor(X / SQ), j = (int)floor(Y / SQ);
	return (i + j) % 2 ? 235 : 25;
}

/* The board turned by ax, ay, az degrees about x, y, z, its middle at
 * (tx, ty, tz) mm from the camera. */
static void draw_pose(gv_image *img, double ax, double ay, double az, double tx, double ty, double tz)
{
	double a = ax * M_PI / 180, b = ay * M_PI / 180, c = az * M_PI / 180;
	double Rx[9] = {1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)};
	double Ry[9] = {cos(b), 0, sin(b), 0, 1, 0, -sin(b), 0, cos(b)};
	double Rz[9] = {cos(c), -sin(c), 0, sin(c), cos(c), 0, 0, 0, 1};
	double R[9];
	gv_h_mul(Rz, Ry, R);
	gv_h_mul(R, Rx, R);
	/* the plane (X, Y) -> normalised image: [r1 r2 t - mid] */
	double mx = NX * SQ / 2, my = NY * SQ / 2;
	double Hn[9];
	for (int r = 0; r < 3; r++) {
		double t = r == 0 ? tx : r == 1 ? ty : tz;
		Hn[3 * r] = R[3 * r];
		Hn[3 * r + 1] = R[3 * r + 1];
		Hn[3 * r + 2] = t - mx * R[3 * r] - my * R[3 * r + 1];
	}
	double Hinv[9];
	assert_true(gv_h_invert(Hn, Hinv));
	assert_int_equal(gv_image_alloc(img, IMG_W, IMG_H, 1), 0);
	for (int y = 0; y < IMG_H; y++)
		for (int x = 0; x < IMG_W; x++) {
			double acc = 0;
			for (int s = 0; s < 4; s++) {
				double u = x - 0.25 + 0.5 * (s & 1), v = y - 0.25 + 0.5 * (s >> 1), xu, yu, X, Y;
				undistort_norm((u - CX) / FX, (v - CY) / FY, &xu, &yu);
				gv_h_apply(Hinv, xu, yu, &X, &Y);
				acc += shade(X, Y) / 4;
			}
			*gv_px(img, x, y) = (unsigned char)(acc + 0.5);
		}
}

static const double poses[][6] = {
	{0, 0, 0, 0, 0, 500},          {20, 0, 5, -90, -55, 520},    {-20, 10, -5, 90, 55, 520},
	{0, 25, 0, 90, -55, 540},      {15, -25, 10, -90, 55, 540},  {-25, -15, 0, 0, 50, 480},
	{10, 20, -10, -60, -50, 470},  {0, 0, 30, 60, 20, 560},      {30, 0, 0, 0, -40, 520},
};

static void test_lens_recovered(void **st)
{
	(void)st;
	gc_lens_views *v = NULL;
	gc_lens_opts o = {.cols = 9, .rows = 6, .square = SQ};
	assert_int_equal(gc_lens_views_new(&v, &o), 0);
	char err[300] = "";
	int n = (int)(sizeof poses / sizeof poses[0]);
	for (int k = 0; k < n; k++) {
		gv_image img;
		draw_pose(&img, poses[k][0], poses[k][1], poses[k][2], poses[k][3], poses[k][4], poses[k][5]);
		if (getenv("GOREF_TEST_DUMP")) {
			char path[300];
			snprintf(path, sizeof path, "%s/chess%d.png", getenv("GOREF_TEST_DUMP"), k);
			gv_png_write(path, &img, NULL, 0);
		}
		int rc = gc_lens_add(v, &img, err, sizeof err);
		if (rc < 0)
			fail_msg("pose %d: %s", k, err);
		if (!rc)
			print_message("pose %d: no pattern found\n", k);
		gv_image_free(&img);
	}
	assert_int_equal(gc_lens_count(v), n);
	assert_true(gc_lens_found(v) >= n - 1);
	gc_lens L;
	if (gc_lens_solve(v, &L, err, sizeof err))
		fail_msg("%s", err);
	print_message("fx %.2f fy %.2f cx %.2f cy %.2f k1 %.4f k2 %.4f p1 %.5f p2 %.5f, rms %.3f px over %d views\n",
	              L.K[0], L.K[4], L.K[2], L.K[5], L.dist[0], L.dist[1], L.dist[2], L.dist[3], L.rms, L.views);
	assert_int_equal(L.width, IMG_W);
	assert_int_equal(L.height, IMG_H);
	assert_int_equal(L.ndist, 4);
	assert_true(fabs(L.K[0] - FX) < 0.01 * FX);
	assert_true(fabs(L.K[4] - FY) < 0.01 * FY);
	assert_true(fabs(L.K[2] - CX) < 4);
	assert_true(fabs(L.K[5] - CY) < 4);
	assert_true(fabs(L.dist[0] - K1) < 0.03);
	assert_true(fabs(L.dist[2]) < 0.003 && fabs(L.dist[3]) < 0.003);
	assert_true(L.rms < 0.3);
	assert_true(L.dist[4] == 0);
	gc_lens_views_free(v);
}

static void test_lens_errors(void **st)
{
	(void)st;
	gc_lens_views *v = NULL;
	assert_int_equal(gc_lens_views_new(&v, NULL), 0); /* 9x6 */
	char err[300] = "";
	gv_image blank, other, chess;
	assert_int_equal(gv_image_alloc(&blank, IMG_W, IMG_H, 3), 0);
	memset(blank.data, 200, blank.stride * (size_t)IMG_H);
	assert_int_equal(gc_lens_add(v, &blank, err, sizeof err), 0);
	assert_int_equal(gv_image_alloc(&other, 320, 240, 3), 0);
	assert_int_equal(gc_lens_add(v, &other, err, sizeof err), GV_EINVAL);
	assert_non_null(strstr(err, "320x240"));
	assert_non_null(strstr(err, "640x480"));
	draw_pose(&chess, 0, 0, 0, 0, 0, 500);
	assert_int_equal(gc_lens_add(v, &chess, err, sizeof err), 1);
	assert_int_equal(gc_lens_count(v), 2);
	assert_int_equal(gc_lens_found(v), 1);
	gc_lens L;
	assert_int_equal(gc_lens_solve(v, &L, err, sizeof err), GV_ENOTFOUND);
	assert_non_null(strstr(err, "found in 1 photo of 2"));
	gc_lens_views_free(v);
	/* a 7x7 pattern is not in a 9x6 board */
	gc_lens_opts o = {.cols = 7, .rows = 7};
	assert_int_equal(gc_lens_views_new(&v, &o), 0);
	assert_int_equal(gc_lens_add(v, &chess, err, sizeof err), 0);
	gc_lens_views_free(v);
	o.cols = 1;
	assert_int_equal(gc_lens_views_new(&v, &o), GV_EINVAL);
	gv_image_free(&blank);
	gv_image_free(&other);
	gv_image_free(&chess);
}

/* The players' A1 for each rotation: bottom-left as seen with 0, then, a
 * quarter turn clockwise at a time, bottom-right, top-right, top-left. */
static void test_a1_corner(void **st)
{
	(void)st;
	const int want[4] = {3, 2, 1, 0};
	for (int q = 0; q < 4; q++) {
		double i, j;
		gc_board_seen(19, 90 * q, 0, 18, &i, &j);
		int corner = j > 0 ? (i > 0 ? 2 : 3) : (i > 0 ? 1 : 0);
		assert_int_equal(corner, want[q]);
		/* the players' top-right corner (T19) is opposite A1 */
		gc_board_seen(19, 90 * q, 18, 0, &i, &j);
		corner = j > 0 ? (i > 0 ? 2 : 3) : (i > 0 ? 1 : 0);
		assert_int_equal(corner, (want[q] + 2) % 4);
		/* a quarter turn clockwise of the seen view: the seen top-left
		 * point is the players' top-right with rotate 90 */
	}
	double i, j;
	gc_board_seen(9, 90, 8, 0, &i, &j);
	assert_true(i == 0 && j == 0);
	/* off the board, fractions */
	gc_board_seen(9, 180, -0.5, 8.75, &i, &j);
	assert_true(fabs(i - 8.5) < 1e-12 && fabs(j + 0.75) < 1e-12);
	assert_string_equal(gc_corner_name(3), "bottom-left");
}

static bool reddish(const gv_image *img, double x, double y)
{
	const unsigned char *p = gv_px(img, (int)lround(x), (int)lround(y));
	return p[0] > 200 && p[1] < 90 && p[2] < 90;
}

/* The snapshot marks A1 where the rotation puts it, and only there. */
static void test_snapshot_marks_a1(void **st)
{
	(void)st;
	const double corners[8] = {150, 120, 520, 140, 500, 470, 130, 440};
	for (int q = 0; q < 4; q++) {
		gc_board b = {.size = 9, .rotate = 90 * q};
		memcpy(b.corners, corners, sizeof corners);
		assert_true(gv_h_from_corners(corners, 9, b.H));
		gv_image img;
		assert_int_equal(gv_image_alloc(&img, IMG_W, 560, 3), 0);
		memset(img.data, 180, img.stride * (size_t)img.height);
		char err[300] = "";
		if (gc_board_draw(&img, &b, err, sizeof err))
			fail_msg("%s", err);
		if (getenv("GOREF_TEST_DUMP")) {
			char path[300];
			snprintf(path, sizeof path, "%s/snapshot%d.png", getenv("GOREF_TEST_DUMP"), q);
			gv_png_write(path, &img, NULL, 0);
		}
		int a1 = (3 - q + 4) % 4;
		for (int k = 0; k < 4; k++)
			assert_int_equal(reddish(&img, corners[2 * k], corners[2 * k + 1]), k == a1);
		gv_image_free(&img);
	}
	/* apply: board, rotate, corners to 0.01 pixel */
	gc_board b = {.size = 13, .rotate = 270};
	for (int k = 0; k < 8; k++)
		b.corners[k] = 100.123456 + k;
	gc_settings s;
	gc_settings_init(&s);
	gc_board_apply(&b, &s);
	assert_int_equal(s.board, 13);
	assert_int_equal(s.rotate, 270);
	assert_true(s.has_corners);
	assert_true(fabs(s.corners[7] - 107.12) < 1e-9);
}

/* No grid in a blank frame: GV_ENOTFOUND; bad settings: GV_EINVAL. */
static void test_board_not_found(void **st)
{
	(void)st;
	gv_image img, view;
	assert_int_equal(gv_image_alloc(&img, IMG_W, IMG_H, 3), 0);
	memset(img.data, 150, img.stride * (size_t)IMG_H);
	gc_settings s;
	gc_settings_init(&s);
	gc_board b;
	char err[300] = "";
	assert_int_equal(gc_board_find(&img, &s, NULL, &b, &view, err, sizeof err), GV_ENOTFOUND);
	assert_null(view.data);
	/* with a lens: undistorted first, still nothing */
	s.has_camera = true;
	s.camera[0] = s.camera[1] = 600;
	s.camera[2] = 320;
	s.camera[3] = 240;
	s.ndist = 4;
	s.dist[0] = -0.2;
	assert_int_equal(gc_board_find(&img, &s, NULL, &b, NULL, err, sizeof err), GV_ENOTFOUND);
	s.board = 7;
	assert_int_equal(gc_board_find(&img, &s, NULL, &b, NULL, err, sizeof err), GV_EINVAL);
	gv_image_free(&img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lens_recovered),    cmocka_unit_test(test_lens_errors),
		cmocka_unit_test(test_a1_corner),         cmocka_unit_test(test_snapshot_marks_a1),
		cmocka_unit_test(test_board_not_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
