/*
 * vision/cnn: the learned stone classifier, with the real weights (the
 * built-in model, vision/cnn_weights.c, as samples/train_classifier.sh
 * wrote them).
 *
 * (a) Boards this test draws itself (the drawing of test_vision_classify:
 *     wood with grain, lines, stones with highlights and shadows, seen in
 *     perspective, coloured light): the network must read every point; an
 *     untrained network or one read wrongly (a layer's order, the patch's
 *     orientation, the board's colour) reads many wrong.
 * (b) The file format: the built-in model written to a file as
 *     samples/train_classifier.py writes one, read back by gv_cnn_load,
 *     gives the same probabilities; a cut or wrong file is refused.
 * (c) gv_patch: the rectified patch of a known image through a known H.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cnn.h"
#include "geom.h"
#include "testdraw.h"

static const double wood[3] = {222, 178, 112};

/* Reads a drawn scene with model m; returns the points read wrong (printed)
 * and checks the confidences. probs (may be NULL) gets the probabilities. */
static int read_scene(const gv_cnn *m, const scene *sc, const double corners[8], int w, int h, float *probs)
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
	assert_int_equal(gv_cnn_classify(m, &img, H, n, cells, conf, probs), 0);
	int wrong = 0;
	for (int k = 0; k < n * n; k++) {
		assert_true(conf[k] >= 0 && conf[k] <= 1);
		if (cells[k] != want[k]) {
			printf("  drawn board: (%d,%d) is %c, read %c (%.2f)\n", k % n, k / n, ".BW"[want[k]], ".BW"[cells[k]],
			       conf[k]);
			wrong++;
		}
	}
	gv_image_free(&img);
	return wrong;
}

static const stone perspective_stones[] = {
    {3, 3, 0, 0, 1}, {4, 3, 0.05, -0.03, 1}, {15, 15, 0, 0, 1}, {10, 10, 0.15, -0.1, 1},
    {0, 0, 0, 0, 1}, {18, 9, -0.08, 0.05, 1}, {6, 12, -0.12, 0.12, 1}, {7, 12, 0.1, 0, 1},
    {3, 15, 0, 0, 2}, {16, 3, 0.1, 0.05, 2}, {16, 4, -0.05, 0.1, 2}, {9, 9, -0.12, 0.1, 2},
    {0, 18, 0, 0, 2}, {9, 0, 0.05, 0, 2}, {11, 10, 0.05, 0.05, 2}, {5, 3, 0, 0.12, 2},
    {12, 6, -0.15, -0.12, 2}, {18, 18, 0, 0, 2}, {8, 12, 0.08, -0.05, 2},
};
static const double perspective_corners[8] = {190, 70, 560, 82, 650, 470, 95, 455};

static void test_drawn_board_in_perspective(void **s)
{
	(void)s;
	scene sc = {19, perspective_stones, (int)(sizeof perspective_stones / sizeof perspective_stones[0]), {1, 1, 1},
	            0.25, {0}, 7, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	assert_int_equal(read_scene(&gv_cnn_builtin, &sc, perspective_corners, 760, 540, NULL), 0);
}

static void test_drawn_crowded_board_in_coloured_light(void **s)
{
	(void)s;
	/* a 19x19 board half covered by touching stones of both colours, under
	 * a bluish light */
	stone st[361];
	int n = 0;
	for (int j = 0; j < 19; j++)
		for (int i = 0; i < 19; i++) {
			int r = (i * 7 + j * 13 + i * j) % 11;
			if (r < 3)
				st[n++] = (stone){i, j, (r - 1) * 0.04, ((i + j) % 3 - 1) * 0.04, 1};
			else if (r < 6)
				st[n++] = (stone){i, j, ((i + 2 * j) % 3 - 1) * 0.04, (r - 4) * 0.04, 2};
		}
	scene sc = {19, st, n, {0.85, 0.95, 1.15}, 0.2, {0}, 9, {0, 0, 0}, {0.08, 0.1, 0.7}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {150, 60, 560, 70, 610, 470, 100, 460};
	assert_int_equal(read_scene(&gv_cnn_builtin, &sc, corners, 720, 540, NULL), 0);
}

static void test_drawn_empty_board_in_glare(void **s)
{
	(void)s;
	scene sc = {19, NULL, 0, {0.8, 0.95, 1.2}, 0.45, {0}, 11, {12.5, 6.3, 1.6}, {0, 0, 1}};
	memcpy(sc.wood, wood, sizeof wood);
	double corners[8] = {120, 60, 520, 60, 560, 430, 80, 430};
	assert_int_equal(read_scene(&gv_cnn_builtin, &sc, corners, 640, 480, NULL), 0);
}

/* Writes model m in the file format of cnn.h. */
static void write_model(const gv_cnn *m, const char *path, long cut)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	long written = 0;
#define PUT(p, n)                                                                                                    \
	do {                                                                                                             \
		size_t n_ = (n);                                                                                             \
		if (cut >= 0 && written + (long)n_ > cut)                                                                    \
			n_ = (size_t)(cut - written > 0 ? cut - written : 0);                                                    \
		fwrite((p), 1, n_, f);                                                                                       \
		written += (long)n_;                                                                                         \
	} while (0)
	int32_t v[3] = {m->patch, 0, m->nconv};
	PUT("GRCNN01\n", 8);
	PUT(&v[0], 4);
	PUT(&m->span, 4);
	PUT(&v[2], 4);
	for (int l = 0; l < m->nconv; l++) {
		int32_t io[2] = {m->conv[l].nin, m->conv[l].nout};
		PUT(io, 8);
		PUT(m->conv[l].w, sizeof(float) * (size_t)io[0] * (size_t)io[1] * 9);
		PUT(m->conv[l].b, sizeof(float) * (size_t)io[1]);
	}
	int32_t nd = m->ndense;
	PUT(&nd, 4);
	for (int l = 0; l < m->ndense; l++) {
		int32_t io[2] = {m->dense[l].nin, m->dense[l].nout};
		PUT(io, 8);
		PUT(m->dense[l].w, sizeof(float) * (size_t)io[0] * (size_t)io[1]);
		PUT(m->dense[l].b, sizeof(float) * (size_t)io[1]);
	}
#undef PUT
	fclose(f);
}

static void test_model_file(void **s)
{
	(void)s;
	const gv_cnn *b = &gv_cnn_builtin;
	/* the built-in model is what cnn.h says: 3 channels in, 3 classes out */
	assert_int_equal(b->conv[0].nin, 3);
	assert_int_equal(b->dense[b->ndense - 1].nout, 3);
	assert_int_equal(b->patch, GV_CNN_PATCH);
	char path[] = "/tmp/goref_cnn_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_model(b, path, -1);
	gv_cnn m;
	char err[300];
	assert_int_equal(gv_cnn_load(&m, path, err, sizeof err), 0);
	scene sc = {19, perspective_stones, (int)(sizeof perspective_stones / sizeof perspective_stones[0]), {1, 1, 1},
	            0.25, {0}, 7, {0, 0, 0}, {0.1, 0.12, 0.62}};
	memcpy(sc.wood, wood, sizeof wood);
	static float p1[361 * 3], p2[361 * 3];
	read_scene(b, &sc, perspective_corners, 760, 540, p1);
	read_scene(&m, &sc, perspective_corners, 760, 540, p2);
	for (int k = 0; k < 361 * 3; k++)
		assert_true(p1[k] == p2[k]);
	gv_cnn_free(&m);
	/* cut short, or one byte more: refused */
	write_model(b, path, 200);
	assert_int_equal(gv_cnn_load(&m, path, err, sizeof err), GV_EINVAL);
	assert_non_null(strstr(err, "not a goref CNN model"));
	write_model(b, path, -1);
	FILE *f = fopen(path, "ab");
	assert_non_null(f);
	fputc(0, f);
	fclose(f);
	assert_int_equal(gv_cnn_load(&m, path, err, sizeof err), GV_EINVAL);
	unlink(path);
	assert_int_equal(gv_cnn_load(&m, "/nonexistent/goref.bin", err, sizeof err), GV_EREAD);
}

static void test_patch_geometry(void **s)
{
	(void)s;
	/* an image whose red is 10 x and green 10 y (x, y < 25), a grid of 10
	 * pixels a cell with (0, 0) at pixel (20, 30): the patch around point
	 * (1, 1) (pixel (30, 40)) spanning 2 cells in 4 pixels samples pixels
	 * 15 + 10 a, 25 + 10 b... */
	gv_image img;
	assert_int_equal(gv_image_alloc(&img, 80, 80, 3), 0);
	for (int y = 0; y < 80; y++)
		for (int x = 0; x < 80; x++) {
			unsigned char *p = gv_px(&img, x, y);
			p[0] = (unsigned char)(x * 3);
			p[1] = (unsigned char)(y * 3);
			p[2] = 7;
		}
	double H[9] = {10, 0, 20, 0, 10, 30, 0, 0, 1};
	float out[4 * 4 * 3];
	gv_patch(&img, H, 1, 1, 4, 2.0, out);
	/* patch pixel (x, y) is board (1 + (x - 1.5) / 2, 1 + (y - 1.5) / 2),
	 * pixel (30 + 5 (x - 1.5), 40 + 5 (y - 1.5)); the mean over its extent
	 * of a linear ramp is its value at the centre */
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			assert_float_equal(out[(y * 4 + x) * 3 + 0], 3 * (30 + 5 * (x - 1.5)), 1e-3);
			assert_float_equal(out[(y * 4 + x) * 3 + 1], 3 * (40 + 5 * (y - 1.5)), 1e-3);
			assert_float_equal(out[(y * 4 + x) * 3 + 2], 7, 1e-3);
		}
	float colour[3];
	double H2[9] = {3, 0, 10, 0, 3, 10, 0, 0, 1};
	assert_int_equal(gv_board_colour(&img, H2, 19, colour), 0);
	assert_float_equal(colour[2], 7, 1e-3);
	unsigned char cells[361];
	assert_int_equal(gv_cnn_classify(&gv_cnn_builtin, &img, H, 19, cells, NULL, NULL), GV_EINVAL); /* off the image */
	assert_int_equal(gv_cnn_classify(&gv_cnn_builtin, &img, H2, 1, cells, NULL, NULL), GV_EINVAL);
	assert_int_equal(gv_cnn_classify(NULL, &img, H2, 19, cells, NULL, NULL), GV_EINVAL);
	assert_int_equal(gv_cnn_classify(&gv_cnn_builtin, &img, H2, 19, cells, NULL, NULL), 0);
	gv_image_free(&img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patch_geometry),
		cmocka_unit_test(test_model_file),
		cmocka_unit_test(test_drawn_board_in_perspective),
		cmocka_unit_test(test_drawn_crowded_board_in_coloured_light),
		cmocka_unit_test(test_drawn_empty_board_in_glare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
