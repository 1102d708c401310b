/* device/source: frame sources behind one interface. A folder of PNG and
 * JPEG files (name and numeric order, times.txt and its errors, fps
 * timing), raw rgb24 and yuv420 frames on a stream (padding, a frame cut
 * short, short reads from a pipe, known colours), and a caller's table of
 * functions. Files are written into a fresh temporary folder per test. */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cvwrap.h"
#include "png.h"
#include "source.h"

/* ---- a temporary folder -------------------------------------------- */

typedef struct tmp {
	char dir[64];
	char path[512];
} tmp;

static int tmp_setup(void **state)
{
	tmp *t = calloc(1, sizeof *t);
	assert_non_null(t);
	snprintf(t->dir, sizeof t->dir, "/tmp/goref_source_XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	*state = t;
	return 0;
}

/* Removes the folder and everything in it (one level of subfolders). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[512];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (unlink(p) != 0)
			remove_tree(p);
	}
	closedir(d);
	rmdir(dir);
}

static int tmp_teardown(void **state)
{
	tmp *t = *state;
	remove_tree(t->dir);
	free(t);
	return 0;
}

static const char *at(tmp *t, const char *name)
{
	snprintf(t->path, sizeof t->path, "%s/%s", t->dir, name);
	return t->path;
}

static void write_text(tmp *t, const char *name, const char *text)
{
	FILE *f = fopen(at(t, name), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A flat photo of colour (v, 255 - v, 7): PNG, or JPEG when the name says
 * so (quality 100: a flat colour comes back within a level or two). */
static void write_photo(tmp *t, const char *name, int v)
{
	gv_image img;
	assert_int_equal(gv_image_alloc(&img, 8, 6, 3), 0);
	for (int y = 0; y < img.height; y++)
		for (int x = 0; x < img.width; x++) {
			unsigned char *p = gv_px(&img, x, y);
			p[0] = (unsigned char)v;
			p[1] = (unsigned char)(255 - v);
			p[2] = 7;
		}
	char err[256];
	const char *dot = strrchr(name, '.');
	int rc = !strcmp(dot, ".png") ? gv_png_write(at(t, name), &img, err, sizeof err)
	                              : gv_imwrite(at(t, name), &img, 100, err, sizeof err);
	if (rc)
		fail_msg("%s", err);
	gv_image_free(&img);
}

/* The v of a frame written by write_photo (checking the whole frame). */
static int photo_value(const gv_image *img)
{
	assert_int_equal(img->channels, 3);
	assert_int_equal(img->width, 8);
	assert_int_equal(img->height, 6);
	assert_int_equal(img->stride, 24);
	int v = gv_px(img, 3, 3)[0];
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++) {
			const unsigned char *p = gv_px(img, x, y);
			assert_true(abs(p[0] - v) <= 2 && abs(p[1] - (255 - v)) <= 2 && abs(p[2] - 7) <= 2);
		}
	return v;
}

static gd_source *open_dir_ok(tmp *t, const char *times, double fps)
{
	gd_source *s = NULL;
	char err[256];
	int rc = gd_source_open_dir(&s, t->dir, times, fps, err, sizeof err);
	if (rc)
		fail_msg("open_dir: %d %s", rc, err);
	assert_non_null(s);
	return s;
}

static void expect_frame(gd_source *s, int v, double t, const char *name)
{
	gv_image *img = NULL;
	double when = -1;
	char err[256] = "";
	int rc = gd_source_next(s, &img, &when, err, sizeof err);
	if (rc != 1)
		fail_msg("next: %d %s (expected %s)", rc, err, name);
	int got = photo_value(img);
	if (abs(got - v) > 2)
		fail_msg("%s: frame of %d, %d expected", name, got, v);
	assert_true(fabs(when - t) < 1e-12);
	assert_string_equal(gd_source_name(s), name);
}

static void expect_end(gd_source *s)
{
	gv_image *img = (gv_image *)1;
	double when = -1;
	char err[64];
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 0);
	assert_null(img);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 0);
}

/* Opening fails with rc and a message holding every one of the words. */
static void expect_open_error(tmp *t, const char *times, int rc, const char *w1, const char *w2)
{
	gd_source *s = (gd_source *)1;
	char err[256] = "";
	assert_int_equal(gd_source_open_dir(&s, t->dir, times, 0, err, sizeof err), rc);
	assert_null(s);
	if (!strstr(err, w1) || (w2 && !strstr(err, w2)))
		fail_msg("message '%s' lacks '%s' / '%s'", err, w1, w2 ? w2 : "");
}

/* ---- folders ----------------------------------------------------------- */

static void test_dir_numeric_order(void **state)
{
	tmp *t = *state;
	/* written out of order, PNG and JPEG of any case, and what is not a
	 * frame: another file, a hidden photo, a folder named like a photo */
	const char *names[12] = {"7.png", "0.png", "11.jpg", "2.JPG", "10.jpeg", "1.png",
	                         "3.PNG", "9.png", "4.png", "5.Jpeg", "6.png", "8.png"};
	for (int k = 0; k < 12; k++)
		write_photo(t, names[k], 20 * atoi(names[k]));
	write_text(t, "notes.txt", "not a frame\n");
	write_photo(t, ".hidden.png", 1);
	assert_int_equal(mkdir(at(t, "12.png"), 0700), 0);

	gd_source *s = open_dir_ok(t, NULL, 0);
	assert_int_equal(gd_source_count(s), 12);
	assert_string_equal(gd_source_name(s), t->dir);
	const char *order[12] = {"0.png", "1.png", "2.JPG", "3.PNG", "4.png", "5.Jpeg",
	                         "6.png", "7.png", "8.png", "9.png", "10.jpeg", "11.jpg"};
	for (int k = 0; k < 12; k++)
		expect_frame(s, 20 * k, k / 10.0, order[k]); /* fps 0: 10 */
	expect_end(s);
	gd_source_free(s);
}

static void test_dir_name_order(void **state)
{
	tmp *t = *state;
	/* one prefix: numeric; leading zeros count as the same number, strcmp
	 * breaks the tie */
	write_photo(t, "frame_10.png", 10);
	write_photo(t, "frame_2.png", 2);
	write_photo(t, "frame_02.png", 3);
	write_photo(t, "frame_1.png", 1);
	gd_source *s = open_dir_ok(t, NULL, 4);
	expect_frame(s, 1, 0, "frame_1.png");
	expect_frame(s, 3, 0.25, "frame_02.png");
	expect_frame(s, 2, 0.5, "frame_2.png");
	expect_frame(s, 10, 0.75, "frame_10.png");
	expect_end(s);
	gd_source_free(s);

	/* another prefix (or a name without a number): plain strcmp */
	write_photo(t, "shot_3.png", 30);
	s = open_dir_ok(t, NULL, 1);
	expect_frame(s, 3, 0, "frame_02.png");
	expect_frame(s, 1, 1, "frame_1.png");
	expect_frame(s, 10, 2, "frame_10.png");
	expect_frame(s, 2, 3, "frame_2.png");
	expect_frame(s, 30, 4, "shot_3.png");
	expect_end(s);
	gd_source_free(s);
}

static void test_dir_grey_png(void **state)
{
	tmp *t = *state;
	gv_image grey;
	assert_int_equal(gv_image_alloc(&grey, 5, 3, 1), 0);
	for (int k = 0; k < 15; k++)
		grey.data[k] = (unsigned char)(k * 10);
	char err[256];
	assert_int_equal(gv_png_write(at(t, "g.png"), &grey, err, sizeof err), 0);
	gd_source *s = open_dir_ok(t, NULL, 0);
	gv_image *img;
	double when;
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	assert_int_equal(img->channels, 3);
	assert_int_equal(img->width, 5);
	assert_int_equal(img->height, 3);
	for (int k = 0; k < 15; k++)
		for (int c = 0; c < 3; c++)
			assert_int_equal(img->data[3 * k + c], k * 10);
	gd_source_free(s);
	gv_image_free(&grey);
}

static void test_dir_times(void **state)
{
	tmp *t = *state;
	write_photo(t, "1.png", 1);
	write_photo(t, "2.png", 2);
	write_photo(t, "my frame.png", 3); /* a name with a space: not numeric */
	write_text(t, "times.txt",
	           "# frames and seconds\n"
	           "\n"
	           "2.png 1.5\r\n"
	           "   # an indented comment\n"
	           "my frame.png\t2.5\n"
	           "1.png 0.25   \n"
	           "\t\n");
	gd_source *s = open_dir_ok(t, NULL, 30);
	assert_int_equal(gd_source_count(s), 3);
	expect_frame(s, 1, 0.25, "1.png");
	expect_frame(s, 2, 1.5, "2.png");
	expect_frame(s, 3, 2.5, "my frame.png");
	expect_end(s);
	gd_source_free(s);

	/* a times file given by path wins over DIR/times.txt; equal times are
	 * not going back */
	char other[600];
	snprintf(other, sizeof other, "%s/other-times", t->dir);
	write_text(t, "other-times", "1.png 7\n2.png 7\nmy frame.png 1e1\n");
	s = open_dir_ok(t, other, 0);
	expect_frame(s, 1, 7, "1.png");
	expect_frame(s, 2, 7, "2.png");
	expect_frame(s, 3, 10, "my frame.png");
	expect_end(s);
	gd_source_free(s);
}

static void test_dir_times_errors(void **state)
{
	tmp *t = *state;
	write_photo(t, "0.png", 0);
	write_photo(t, "1.png", 1);
	write_photo(t, "2.png", 2);

	write_text(t, "times.txt", "0.png 0\n# 1.png forgotten\n2.png 2\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt: no time for '1.png'", NULL);

	write_text(t, "times.txt", "0.png 0\n1.png 2\n2.png 1.5\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:3:", "goes back");

	write_text(t, "times.txt", "0.png 0\n\n1.png 1,5\n2.png 2\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:3: bad time '1,5'", NULL);

	write_text(t, "times.txt", "0.png nan\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:1: bad time", NULL);

	write_text(t, "times.txt", "0.png 0\n1.png 1\n3.png 2\n2.png 3\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:3: no frame named '3.png'", NULL);

	write_text(t, "times.txt", "0.png 0\n1.png 1\n0.png 2\n2.png 3\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:3: '0.png' timed twice (first on line 1)", NULL);

	write_text(t, "times.txt", "0.png 0\n1.png\n");
	expect_open_error(t, NULL, GD_EFORMAT, "times.txt:2: expected NAME SECONDS", NULL);

	/* a times file named but missing */
	expect_open_error(t, "/nonexistent/times", GV_EREAD, "/nonexistent/times", NULL);
}

static void test_dir_errors(void **state)
{
	tmp *t = *state;
	write_text(t, "readme.txt", "no photos here\n");
	expect_open_error(t, NULL, GD_EEMPTY, t->dir, "no .png, .jpg or .jpeg");

	gd_source *s = (gd_source *)1;
	char err[256] = "";
	assert_int_equal(gd_source_open_dir(&s, "/nonexistent/frames", NULL, 0, err, sizeof err),
	                 GV_EREAD);
	assert_null(s);
	assert_non_null(strstr(err, "/nonexistent/frames"));
	assert_int_equal(gd_source_open_dir(&s, t->dir, NULL, -1, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_dir(&s, t->dir, NULL, NAN, NULL, 0), GV_EINVAL);

	/* a file that is not a photo after all: an error of next, given again */
	write_photo(t, "0.png", 0);
	write_text(t, "1.png", "not a png");
	write_photo(t, "2.png", 2);
	s = open_dir_ok(t, NULL, 0);
	gv_image *img;
	double when;
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GV_EREAD);
	assert_null(img);
	assert_non_null(strstr(err, "1.png"));
	char first[256];
	snprintf(first, sizeof first, "%s", err);
	err[0] = '\0';
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GV_EREAD);
	assert_string_equal(err, first);
	gd_source_free(s);

	/* a photo of another size */
	remove_tree(t->dir);
	assert_int_equal(mkdir(t->dir, 0700), 0);
	write_photo(t, "0.png", 0);
	gv_image big;
	assert_int_equal(gv_image_alloc(&big, 9, 6, 3), 0);
	assert_int_equal(gv_png_write(at(t, "1.png"), &big, err, sizeof err), 0);
	gv_image_free(&big);
	s = open_dir_ok(t, NULL, 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GD_EFORMAT);
	assert_non_null(strstr(err, "9x6"));
	gd_source_free(s);

	/* a photo over the largest frame (GD_MAX_FRAME_SIDE): an error naming
	 * its size and the bound */
	remove_tree(t->dir);
	assert_int_equal(mkdir(t->dir, 0700), 0);
	assert_int_equal(gv_image_alloc(&big, GD_MAX_FRAME_SIDE + 1, 2, 3), 0);
	assert_int_equal(gv_png_write(at(t, "0.png"), &big, err, sizeof err), 0);
	gv_image_free(&big);
	s = open_dir_ok(t, NULL, 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GV_EREAD);
	assert_non_null(strstr(err, "4097x2"));
	assert_non_null(strstr(err, "largest frame"));
	gd_source_free(s);
}

/* ---- raw frames ----------------------------------------------------------- */

static void test_parse(void **state)
{
	(void)state;
	assert_int_equal(gd_format_parse("rgb24"), GD_RGB24);
	assert_int_equal(gd_format_parse("yuv420"), GD_YUV420);
	assert_int_equal(gd_format_parse("i420"), GD_YUV420);
	assert_int_equal(gd_format_parse("yuv420-limited"), GD_YUV420_LIMITED);
	assert_int_equal(gd_format_parse("RGB"), GV_EINVAL);
	assert_int_equal(gd_format_parse(""), GV_EINVAL);
	assert_int_equal(gd_format_parse(NULL), GV_EINVAL);

	int w = -1, h = -1;
	assert_int_equal(gd_size_parse("1280x720", &w, &h), 0);
	assert_int_equal(w, 1280);
	assert_int_equal(h, 720);
	assert_int_equal(gd_size_parse("640X480", &w, &h), 0);
	assert_int_equal(w, 640);
	assert_int_equal(h, 480);
	const char *bad[] = {"", "1280", "1280x", "x720", "1280x720 ", " 1280x720", "-1x5", "0x5",
	                     "5x0", "1280*720", "32769x2", "1x99999999999999999999", "1x2x3"};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		w = h = 7;
		assert_int_equal(gd_size_parse(bad[k], &w, &h), GV_EINVAL);
		assert_int_equal(w, 7);
		assert_int_equal(h, 7);
	}
	assert_int_equal(gd_size_parse("32768x1", &w, &h), 0);
}

/* A temporary file holding n bytes of data, rewound. */
static FILE *stream_of(const unsigned char *data, size_t n)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	rewind(f);
	return f;
}

static void test_raw_rgb24(void **state)
{
	(void)state;
	/* 3 frames of 4x2, then half a frame */
	enum { W = 4, H = 2, FRAME = W * H * 3 };
	unsigned char data[3 * FRAME + FRAME / 2];
	for (size_t k = 0; k < sizeof data; k++)
		data[k] = (unsigned char)(k * 7 + 3);
	FILE *f = stream_of(data, 3 * FRAME);
	gd_source *s = NULL;
	char err[256];
	/* over the largest frame: refused when opened */
	assert_int_equal(gd_source_open_raw(&s, f, GD_MAX_FRAME_SIDE + 1, H, GD_RGB24, 0, 25, err, sizeof err),
	                 GV_EINVAL);
	assert_null(s);
	assert_non_null(strstr(err, "largest frame"));
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_RGB24, 0, 25, err, sizeof err), 0);
	assert_int_equal(gd_source_count(s), -1);
	assert_string_equal(gd_source_name(s), "stream");
	gv_image *img;
	double when;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
		assert_int_equal(img->width, W);
		assert_int_equal(img->height, H);
		assert_int_equal(img->channels, 3);
		assert_memory_equal(img->data, data + i * FRAME, FRAME);
		assert_true(fabs(when - i / 25.0) < 1e-12);
	}
	expect_end(s);
	gd_source_free(s);
	fclose(f);

	/* the input ends inside frame 3 */
	f = stream_of(data, sizeof data);
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_RGB24, 0, 0, err, sizeof err), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
		assert_true(fabs(when - i / 10.0) < 1e-12);
	}
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GD_EFORMAT);
	if (!strstr(err, "input ended inside frame 3"))
		fail_msg("%s", err);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GD_EFORMAT);
	gd_source_free(s);
	fclose(f);

	/* rows padded to 16 bytes: the padding is dropped */
	unsigned char padded[2 * 16];
	memset(padded, 0xEE, sizeof padded);
	for (int y = 0; y < 2; y++)
		for (int b = 0; b < 12; b++)
			padded[y * 16 + b] = (unsigned char)(y * 12 + b);
	f = stream_of(padded, sizeof padded);
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_RGB24, 16, 0, err, sizeof err), 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	assert_int_equal(img->stride, 12);
	for (int k = 0; k < 24; k++)
		assert_int_equal(img->data[k], k);
	expect_end(s);
	gd_source_free(s);
	fclose(f);

	/* bad arguments */
	f = stream_of(data, 1);
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_RGB24, 11, 0, err, sizeof err), GV_EINVAL);
	assert_null(s);
	assert_int_equal(gd_source_open_raw(&s, f, 0, H, GD_RGB24, 0, 0, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_raw(&s, f, W, H, (gd_format)9, 0, 0, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_raw(&s, f, 5, 4, GD_YUV420, 0, 0, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_raw(&s, f, 4, 4, GD_YUV420, 5, 0, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_RGB24, 0, -5, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_raw(&s, NULL, W, H, GD_RGB24, 0, 0, err, sizeof err), GV_EINVAL);
	fclose(f);
}

/* An I420 frame of w x h with stride bytes a row (padding 0xEE), every
 * pixel of colour (y, u, v), into buf; returns its size. */
static size_t i420_flat(unsigned char *buf, int w, int h, int stride, int y, int u, int v)
{
	size_t ysize = (size_t)stride * (size_t)h, csize = (size_t)(stride / 2) * (size_t)(h / 2);
	memset(buf, 0xEE, ysize + 2 * csize);
	for (int j = 0; j < h; j++)
		memset(buf + (size_t)j * (size_t)stride, y, (size_t)w);
	for (int j = 0; j < h / 2; j++) {
		memset(buf + ysize + (size_t)j * (size_t)(stride / 2), u, (size_t)w / 2);
		memset(buf + ysize + csize + (size_t)j * (size_t)(stride / 2), v, (size_t)w / 2);
	}
	return ysize + 2 * csize;
}

static void expect_flat(const gv_image *img, int r, int g, int b, int tol)
{
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++) {
			const unsigned char *p = gv_px(img, x, y);
			if (abs(p[0] - r) > tol || abs(p[1] - g) > tol || abs(p[2] - b) > tol)
				fail_msg("(%d,%d) is %d %d %d, not %d %d %d", x, y, p[0], p[1], p[2], r, g, b);
		}
}

static void test_raw_yuv420(void **state)
{
	(void)state;
	/* 6x4 with rows padded to 10 bytes (chroma rows to 5): grey, then pure
	 * red as full-range BT.601 gives it, then a frame cut short */
	enum { W = 6, H = 4, STRIDE = 10, FRAME = STRIDE * H * 3 / 2 };
	unsigned char data[3 * FRAME];
	assert_int_equal(i420_flat(data, W, H, STRIDE, 128, 128, 128), FRAME);
	i420_flat(data + FRAME, W, H, STRIDE, 76, 85, 255);
	i420_flat(data + 2 * FRAME, W, H, STRIDE, 0, 0, 0);
	FILE *f = stream_of(data, 2 * FRAME + FRAME - 1);
	gd_source *s = NULL;
	char err[256];
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_YUV420, STRIDE, 30, err, sizeof err), 0);
	gv_image *img;
	double when;
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	assert_int_equal(img->width, W);
	assert_int_equal(img->height, H);
	assert_int_equal(img->stride, W * 3);
	expect_flat(img, 128, 128, 128, 0);
	assert_true(when == 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	expect_flat(img, 255, 0, 0, 3);
	assert_true(fabs(when - 1 / 30.0) < 1e-12);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GD_EFORMAT);
	assert_non_null(strstr(err, "input ended inside frame 2"));
	gd_source_free(s);
	fclose(f);

	/* limited range: 16 is black, 235 white, and the same red */
	i420_flat(data, W, H, W, 16, 128, 128);
	i420_flat(data + W * H * 3 / 2, W, H, W, 235, 128, 128);
	i420_flat(data + W * H * 3, W, H, W, 81, 90, 240);
	f = stream_of(data, 3 * (W * H * 3 / 2));
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_YUV420_LIMITED, 0, 0, err, sizeof err), 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	expect_flat(img, 0, 0, 0, 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	expect_flat(img, 255, 255, 255, 0);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
	expect_flat(img, 255, 0, 0, 3);
	expect_end(s);
	gd_source_free(s);
	fclose(f);
}

/* The fixed-point conversion against the formulas in double, on every
 * 2x2 block of random Y with random chroma: within one level. */
static void test_yuv_matches_formula(void **state)
{
	(void)state;
	enum { W = 64, H = 64 };
	unsigned char y[W * H], u[W * H / 4], v[W * H / 4];
	srand(12345);
	for (int k = 0; k < W * H; k++)
		y[k] = (unsigned char)(rand() & 255);
	for (int k = 0; k < W * H / 4; k++) {
		u[k] = (unsigned char)(rand() & 255);
		v[k] = (unsigned char)(rand() & 255);
	}
	gv_image img;
	assert_int_equal(gv_image_alloc(&img, W, H, 3), 0);
	for (int limited = 0; limited < 2; limited++) {
		assert_int_equal(gd_yuv420_to_rgb(&img, y, W, u, v, W / 2, limited), 0);
		for (int j = 0; j < H; j++)
			for (int i = 0; i < W; i++) {
				double Y = y[j * W + i], cb = u[(j / 2) * (W / 2) + i / 2] - 128.0,
				       cr = v[(j / 2) * (W / 2) + i / 2] - 128.0;
				if (limited) {
					Y = (Y - 16) * 255.0 / 219.0;
					cb *= 255.0 / 224.0;
					cr *= 255.0 / 224.0;
				}
				double rgb[3] = {Y + 1.402 * cr, Y - 0.344136 * cb - 0.714136 * cr, Y + 1.772 * cb};
				for (int c = 0; c < 3; c++) {
					double want = rgb[c] < 0 ? 0 : rgb[c] > 255 ? 255 : rgb[c];
					assert_true(fabs(gv_px(&img, i, j)[c] - want) <= 1.0);
				}
			}
	}
	gv_image_free(&img);
}

/* The time of one 1280x720 conversion, printed: the mean over 100 frames
 * (after one to fault the pages in) and the fastest. The budget, 2 ms in a
 * Release build, is not checked here: sanitizer builds are several times
 * slower, and so is a loaded machine. */
static double ms_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

static void test_yuv_speed(void **state)
{
	(void)state;
	enum { W = 1280, H = 720, N = 100 };
	unsigned char *yuv = malloc(W * H * 3 / 2);
	assert_non_null(yuv);
	/* a smooth picture with noise, as a camera's */
	for (int j = 0; j < H; j++)
		for (int i = 0; i < W; i++)
			yuv[j * W + i] = (unsigned char)(60 + (i + j) / 20 + ((i * 2654435761u) >> 29));
	for (int k = W * H; k < W * H * 3 / 2; k++)
		yuv[k] = (unsigned char)(110 + k % 40);
	gv_image img;
	assert_int_equal(gv_image_alloc(&img, W, H, 3), 0);
	assert_int_equal(gd_yuv420_to_rgb(&img, yuv, W, yuv + W * H, yuv + W * H * 5 / 4, W / 2, 0), 0);
	double total = 0, best = 1e9;
	for (int k = 0; k < N; k++) {
		struct timespec a;
		clock_gettime(CLOCK_MONOTONIC, &a);
		assert_int_equal(gd_yuv420_to_rgb(&img, yuv, W, yuv + W * H, yuv + W * H * 5 / 4, W / 2, 0), 0);
		double ms = ms_since(&a);
		total += ms;
		best = ms < best ? ms : best;
	}
	printf("# yuv420 to RGB, 1280x720: %.3f ms a frame (mean of %d), fastest %.3f ms\n", total / N, N,
	       best);
	gv_image_free(&img);
	free(yuv);
}

/* Frames through a pipe written a few bytes at a time: short reads. */
static void test_raw_pipe(void **state)
{
	(void)state;
	enum { W = 8, H = 4, FRAME = W * H * 3 / 2, FRAMES = 3 };
	unsigned char data[FRAMES * FRAME];
	for (int i = 0; i < FRAMES; i++)
		i420_flat(data + i * FRAME, W, H, W, 40 * (i + 1), 128, 128);
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		for (size_t k = 0; k < sizeof data; k += 5) {
			size_t n = sizeof data - k < 5 ? sizeof data - k : 5;
			if (write(fd[1], data + k, n) != (ssize_t)n)
				_exit(1);
			nanosleep(&(struct timespec){0, 200000}, NULL);
		}
		_exit(0);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "rb");
	assert_non_null(f);
	gd_source *s = NULL;
	char err[256];
	assert_int_equal(gd_source_open_raw(&s, f, W, H, GD_YUV420, 0, 0, err, sizeof err), 0);
	gv_image *img;
	double when;
	for (int i = 0; i < FRAMES; i++) {
		int rc = gd_source_next(s, &img, &when, err, sizeof err);
		if (rc != 1)
			fail_msg("frame %d: %d %s", i, rc, err);
		expect_flat(img, 40 * (i + 1), 40 * (i + 1), 40 * (i + 1), 0);
	}
	expect_end(s);
	gd_source_free(s);
	fclose(f);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- a caller's table of functions --------------------------------------- */

typedef struct fake {
	int n, next;
	double times[8];
	int widths[8];
	int channels;     /* of the frames it gives */
	int fail_at;      /* -1 never */
	int calls_after_end;
	int ended;
	int *freed;
	char name[32];
	gv_image img;
} fake;

static int fake_next(void *impl, gv_image **frame, double *t, char *err, size_t cap)
{
	fake *f = impl;
	if (f->ended)
		f->calls_after_end++;
	if (f->next == f->fail_at) {
		f->ended = 1;
		snprintf(err, cap, "fake: camera unplugged at frame %d", f->next);
		return GV_EREAD;
	}
	if (f->next >= f->n) {
		f->ended = 1;
		return 0;
	}
	gv_image_free(&f->img);
	if (gv_image_alloc(&f->img, f->widths[f->next], 2, f->channels))
		return GV_ENOMEM;
	memset(f->img.data, f->next, f->img.stride * 2);
	snprintf(f->name, sizeof f->name, "fake#%d", f->next);
	*frame = &f->img;
	*t = f->times[f->next++];
	return 1;
}

static long fake_count(const void *impl)
{
	return ((const fake *)impl)->n;
}

static const char *fake_name(const void *impl)
{
	const fake *f = impl;
	return f->next ? f->name : NULL;
}

static void fake_free(void *impl)
{
	fake *f = impl;
	gv_image_free(&f->img);
	(*f->freed)++;
	free(f);
}

static const gd_source_ops fake_ops = {GD_SOURCE_OPS_VERSION, fake_next, fake_count, fake_name, fake_free};
static const gd_source_ops bare_ops = {GD_SOURCE_OPS_VERSION, fake_next, NULL, NULL, NULL};

static fake *new_fake(int n, int *freed)
{
	fake *f = calloc(1, sizeof *f);
	assert_non_null(f);
	f->n = n;
	f->channels = 3;
	f->fail_at = -1;
	f->freed = freed;
	for (int i = 0; i < 8; i++) {
		f->times[i] = 0.5 * i;
		f->widths[i] = 4;
	}
	return f;
}

/* Runs a fake to its end: the frames it gives, and the last code. */
static int drain(gd_source *s, int *frames, char *err, size_t cap)
{
	gv_image *img;
	double when;
	int rc;
	*frames = 0;
	while ((rc = gd_source_next(s, &img, &when, err, cap)) == 1)
		(*frames)++;
	return rc;
}

static void test_ops(void **state)
{
	(void)state;
	int freed = 0, frames;
	char err[256];
	gd_source *s = NULL;

	/* a good fake: frames, times, count, name, end, free */
	fake *f = new_fake(3, &freed);
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(gd_source_count(s), 3);
	assert_string_equal(gd_source_name(s), "source");
	gv_image *img;
	double when;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), 1);
		assert_ptr_equal(img, &f->img);
		assert_int_equal(img->data[0], i);
		assert_true(when == 0.5 * i);
		char want[16];
		snprintf(want, sizeof want, "fake#%d", i);
		assert_string_equal(gd_source_name(s), want);
	}
	expect_end(s);
	assert_int_equal(f->calls_after_end, 0);
	gd_source_free(s);
	assert_int_equal(freed, 1);

	/* an error is given again, without asking the fake */
	f = new_fake(5, &freed);
	f->fail_at = 2;
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(drain(s, &frames, err, sizeof err), GV_EREAD);
	assert_int_equal(frames, 2);
	assert_string_equal(err, "fake: camera unplugged at frame 2");
	assert_int_equal(gd_source_next(s, &img, &when, NULL, 0), GV_EREAD);
	assert_int_equal(gd_source_next(s, &img, &when, err, sizeof err), GV_EREAD);
	assert_string_equal(err, "fake: camera unplugged at frame 2");
	assert_int_equal(f->calls_after_end, 0);
	gd_source_free(s);

	/* what the interface checks: time going back, a size change, grey */
	f = new_fake(4, &freed);
	f->times[2] = 0.4;
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(drain(s, &frames, err, sizeof err), GD_EFORMAT);
	assert_int_equal(frames, 2);
	assert_non_null(strstr(err, "fake#2: frame 2 at 0.4 s comes before frame 1 at 0.5 s"));
	gd_source_free(s);

	f = new_fake(4, &freed);
	f->times[1] = INFINITY;
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(drain(s, &frames, err, sizeof err), GD_EFORMAT);
	assert_int_equal(frames, 1);
	gd_source_free(s);

	f = new_fake(4, &freed);
	f->widths[3] = 6;
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(drain(s, &frames, err, sizeof err), GD_EFORMAT);
	assert_int_equal(frames, 3);
	assert_non_null(strstr(err, "6x2"));
	gd_source_free(s);

	f = new_fake(4, &freed);
	f->channels = 1;
	assert_int_equal(gd_source_open_ops(&s, &fake_ops, f, err, sizeof err), 0);
	assert_int_equal(drain(s, &frames, err, sizeof err), GV_EINVAL);
	assert_int_equal(frames, 0);
	assert_non_null(strstr(err, "not an RGB image"));
	gd_source_free(s);
	assert_int_equal(freed, 6);

	/* optional functions left out */
	f = new_fake(1, &freed);
	assert_int_equal(gd_source_open_ops(&s, &bare_ops, f, err, sizeof err), 0);
	assert_int_equal(gd_source_count(s), -1);
	assert_string_equal(gd_source_name(s), "source");
	assert_int_equal(drain(s, &frames, err, sizeof err), 0);
	assert_int_equal(frames, 1);
	gd_source_free(s);
	assert_int_equal(freed, 6); /* no free function: the fake is still ours */

	/* bad tables: nothing taken */
	gd_source_ops v2 = fake_ops;
	v2.version = 2;
	gd_source_ops nonext = fake_ops;
	nonext.next = NULL;
	s = (gd_source *)1;
	assert_int_equal(gd_source_open_ops(&s, &v2, f, err, sizeof err), GV_EINVAL);
	assert_null(s);
	assert_int_equal(gd_source_open_ops(&s, &nonext, f, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_ops(&s, NULL, f, NULL, 0), GV_EINVAL);
	fake_free(f);
	assert_int_equal(freed, 7);

	/* NULL-safe */
	gd_source_free(NULL);
	assert_int_equal(gd_source_count(NULL), -1);
	assert_string_equal(gd_source_name(NULL), "source");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_numeric_order, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_dir_name_order, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_dir_grey_png, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_dir_times, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_dir_times_errors, tmp_setup, tmp_teardown),
		cmocka_unit_test_setup_teardown(test_dir_errors, tmp_setup, tmp_teardown),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_raw_rgb24),
		cmocka_unit_test(test_raw_yuv420),
		cmocka_unit_test(test_yuv_matches_formula),
		cmocka_unit_test(test_yuv_speed),
		cmocka_unit_test(test_raw_pipe),
		cmocka_unit_test(test_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
