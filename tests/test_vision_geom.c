/* vision/geom: homographies between the board grid and the image. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "image.h"
#include "sortf.h"
#include "tuning.h"

static void test_four_corners_round_trip(void **s)
{
	(void)s;
	/* a 19x19 grid seen at an angle: a trapezoid, rotated a little */
	double corners[8] = {112.5, 80.25, 530, 95, 600.75, 455, 40, 430};
	double H[9];
	assert_true(gv_h_from_corners(corners, 19, H));
	double back[8];
	gv_h_corners(H, 19, back);
	for (int k = 0; k < 8; k++)
		assert_true(fabs(back[k] - corners[k]) < 1e-9);
	/* the inverse takes image points back to the grid */
	double Hi[9], x, y, u, v;
	assert_true(gv_h_invert(H, Hi));
	for (int j = 0; j < 19; j += 6)
		for (int i = 0; i < 19; i += 6) {
			assert_true(gv_h_apply(H, i, j, &x, &y));
			assert_true(gv_h_apply(Hi, x, y, &u, &v));
			assert_true(fabs(u - i) < 1e-9 && fabs(v - j) < 1e-9);
		}
	/* straight lines stay straight: the middle line's points are collinear */
	double ax, ay, bx, by, cx, cy;
	gv_h_apply(H, 0, 9, &ax, &ay);
	gv_h_apply(H, 7, 9, &bx, &by);
	gv_h_apply(H, 18, 9, &cx, &cy);
	assert_true(fabs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) < 1e-6);
}

static void test_fit_many_points_with_rectangular_cells(void **s)
{
	(void)s;
	/* cells 2.35 cm across by 2.5 cm along (article 32), as a true grid in cm */
	double G[9] = {0.9, -0.1, 300, 0.05, 1.1, 200, 0.0004, 0.0002, 1};
	double src[2 * 361], dst[2 * 361];
	int n = 0;
	for (int j = 0; j < 19; j++)
		for (int i = 0; i < 19; i++) {
			src[2 * n] = i;
			src[2 * n + 1] = j;
			gv_h_apply(G, i * 23.5, j * 25.0, &dst[2 * n], &dst[2 * n + 1]);
			n++;
		}
	double H[9];
	assert_true(gv_h_fit(src, dst, n, H));
	for (int k = 0; k < n; k++) {
		double x, y;
		gv_h_apply(H, src[2 * k], src[2 * k + 1], &x, &y);
		assert_true(fabs(x - dst[2 * k]) < 1e-6 && fabs(y - dst[2 * k + 1]) < 1e-6);
	}
}

static void test_degenerate(void **s)
{
	(void)s;
	double H[9];
	double line[8] = {0, 0, 1, 1, 2, 2, 3, 3.0000000001};
	double sq[8] = {0, 0, 1, 0, 1, 1, 0, 1};
	assert_false(gv_h_from_4(sq, line, H));
	assert_false(gv_h_fit(sq, sq, 3, H));
	double zero[9] = {0};
	assert_false(gv_h_invert(zero, H));
}

/* Medians without sorting (sortf.h): gv_selectf gives the k-th smallest
 * and gv_medianf the median exactly as a full sort, on arrays of every
 * length up to 300, with many repeats and with none, every k of some. */
static int cmp_plain(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/* The classifiers' bilinear sampler (gv_px_rgb, the three channels at once
 * where SSE2 is) against the scalar formula written out: the same floats to
 * the bit, at random points and at every clamp (the edges, the last row
 * and column, outside the image), on an image whose rows have padding. */
static void ref_px_rgb(const gv_image *im, double x, double y, float out[3])
{
	double mx = im->width - 1.001, my = im->height - 1.001;
	x = x < 0 ? 0 : x > mx ? mx : x;
	y = y < 0 ? 0 : y > my ? my : y;
	int ix = (int)x, iy = (int)y;
	float fx = (float)(x - ix), fy = (float)(y - iy);
	const unsigned char *p = im->data + (size_t)iy * im->stride + (size_t)ix * (size_t)im->channels;
	const unsigned char *q = p + im->stride;
	int c = im->channels;
	for (int k = 0; k < 3; k++) {
		int kk = c == 3 ? k : 0;
		float top = p[kk] + fx * (float)(p[c + kk] - p[kk]);
		float bot = q[kk] + fx * (float)(q[c + kk] - q[kk]);
		out[k] = top + fy * (bot - top);
	}
}

static void test_bilinear_sampler(void **st)
{
	(void)st;
	for (int ch = 1; ch <= 3; ch += 2) {
		int w = 37, h = 23;
		size_t stride = (size_t)w * (size_t)ch + 5; /* padded rows */
		/* exactly the rows: a read past the last pixel would be caught
		 * by the sanitizers */
		unsigned char *buf = malloc(stride * (size_t)(h - 1) + (size_t)w * (size_t)ch);
		assert_non_null(buf);
		unsigned int r = 12345;
		for (size_t i = 0; i < stride * (size_t)(h - 1) + (size_t)w * (size_t)ch; i++) {
			r = r * 1103515245u + 12345u;
			buf[i] = (unsigned char)(r >> 16);
		}
		gv_image im = {.width = w, .height = h, .channels = ch, .stride = stride, .data = buf};
		int n = 0;
		for (int k = 0; k < 20000; k++) {
			double x, y;
			if (k < 400) { /* the edges and beyond */
				static const double e[] = {-3, -0.2, 0, 0.4, 35.5, 35.999, 36, 36.2, 40};
				x = k % 20 < 9 ? e[k % 9] : (k % 37) + 0.25;
				y = k % 7 < 4 ? e[(k / 9) % 9] : 21.9999 + (k % 3) * 0.5;
			} else {
				r = r * 1103515245u + 12345u;
				x = (r >> 8) % 40000 / 1000.0 - 1.5;
				r = r * 1103515245u + 12345u;
				y = (r >> 8) % 26000 / 1000.0 - 1.5;
			}
			float a[3], b[3];
			gv_px_rgb(&im, x, y, a);
			ref_px_rgb(&im, x, y, b);
			n += memcmp(a, b, sizeof a) != 0;
		}
		assert_int_equal(n, 0);
		free(buf);
	}
}

/* A board of cells 2.35 cm across by 2.5 along (article 32) seen by a
 * pinhole camera, its principal point at the photo's centre: H as the
 * corners give it. */
static void camera_view(double tilt_deg, double turn_deg, double f, double dist, double H[9])
{
	const int n = 18, w = 1280, h = 720;
	const double cu = 2.35, cv = 2.5;
	const double pi = 3.14159265358979323846;
	double t = tilt_deg * pi / 180, r = turn_deg * pi / 180;
	double corners[8];
	for (int k = 0; k < 4; k++) {
		int gi = (k == 1 || k == 2) ? n : 0, gj = k >= 2 ? n : 0;
		/* the board centred on the origin in its plane z = 0 */
		double X = (gi - n / 2.0) * cu, Y = (gj - n / 2.0) * cv;
		/* turned about the vertical, then seen from a camera tilted
		 * about its x axis, dist away from the board's centre */
		double xr = X * cos(r) - Y * sin(r), yr = X * sin(r) + Y * cos(r);
		double yc = yr * cos(t), zc = dist + yr * sin(t);
		corners[2 * k] = f * xr / zc + (w - 1) / 2.0;
		corners[2 * k + 1] = f * yc / zc + (h - 1) / 2.0;
	}
	assert_true(gv_h_from_corners(corners, n + 1, H));
}

static void test_cell_aspects(void **st)
{
	(void)st;
	const double tilts[] = {0, 10, 30, 45, 60}, turns[] = {0, 7, 30, 90}, focals[] = {700, 1100, 2000};
	for (size_t a = 0; a < sizeof tilts / sizeof tilts[0]; a++)
		for (size_t b = 0; b < sizeof turns / sizeof turns[0]; b++)
			for (size_t c = 0; c < sizeof focals / sizeof focals[0]; c++) {
				double H[9], lo, hi;
				camera_view(tilts[a], turns[b], focals[c], 75, H);
				gv_h_cell_aspects(H, 1280, 720, &lo, &hi);
				/* the board's own cells (2.5 / 2.35) are among those
				 * the camera could see so */
				assert_true(lo <= 2.5 / 2.35 + 1e-6 && hi >= 2.5 / 2.35 - 1e-6);
				/* a lattice twice too dense across (its cells half as
				 * wide: 2.5 / 1.175 = 2.13 along over across): those
				 * cells are among the camera's too, and where the
				 * board's rows run across the view (not turned a
				 * quarter) at 10 or 30 degrees, no cell near square is */
				double S[9] = {0.5, 0, 0, 0, 1, 0, 0, 0, 1}, H2[9];
				gv_h_mul(H, S, H2);
				gv_h_cell_aspects(H2, 1280, 720, &lo, &hi);
				assert_true(lo <= 2.5 / 1.175 + 1e-6 && hi >= 2.5 / 1.175 - 1e-6);
				if ((tilts[a] == 10 || tilts[a] == 30) && turns[b] != 90)
					assert_true(lo > GV_PROOF_ASPECT_MAX);
				/* straight above nothing is said */
				if (tilts[a] == 0)
					assert_true(lo == 0 && hi == HUGE_VAL);
			}
}

static void test_selection_as_sorting(void **st)
{
	(void)st;
	unsigned seed = 7;
	float v[300], s[300], w[300];
	for (int n = 1; n <= 300; n += n < 40 ? 1 : 13)
		for (int rep = 0; rep < 3; rep++) {
			for (int k = 0; k < n; k++) {
				seed = seed * 1103515245u + 12345u;
				/* rep 0 distinct, 1 a few values repeated, 2 ascending */
				v[k] = rep == 0 ? (float)(seed >> 8) / 65536.0f - 100 : rep == 1 ? (float)((seed >> 16) % 5) : (float)k;
			}
			memcpy(s, v, sizeof(float) * (size_t)n);
			qsort(s, (size_t)n, sizeof *s, cmp_plain);
			for (int k = 0; k < n; k += n > 50 ? 7 : 1) {
				memcpy(w, v, sizeof(float) * (size_t)n);
				assert_true(gv_selectf(w, n, k) == s[k]);
				for (int q = 0; q < n; q++)
					assert_true(q <= k ? w[q] <= s[k] : w[q] >= s[k]);
			}
			memcpy(w, v, sizeof(float) * (size_t)n);
			float med = n % 2 ? s[n / 2] : 0.5f * (s[n / 2 - 1] + s[n / 2]);
			assert_true(gv_medianf(w, n) == med);
			memcpy(w, v, sizeof(float) * (size_t)n);
			gv_sortf(w, n);
			assert_memory_equal(w, s, sizeof(float) * (size_t)n);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_corners_round_trip),
		cmocka_unit_test(test_fit_many_points_with_rectangular_cells),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_selection_as_sorting),
		cmocka_unit_test(test_cell_aspects),
		cmocka_unit_test(test_bilinear_sampler),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
