/* vision/imgio and vision/png: image files read and written without
 * OpenCV, and the bounds on any input. Interlaced PNGs read right; a PNG
 * chunk claiming more than the chunk limit, an image over the pixel or side
 * bound, a JPEG cut short and files that are no image are refused with the
 * path and the reason; a large JPEG is decoded at a DCT scale when a
 * maximum size is asked. Files go into a fresh temporary folder. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
/* libpng's own header: vision/png.h shadows <png.h> on the include path */
#include <libpng16/png.h>
#include <zlib.h>

#include "image.h"
#include "imgio.h"
#include "png.h"
#include "cvwrap.h"

/* ---- a temporary folder -------------------------------------------- */

static char dir[64];
static char pathbuf[512];

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/goref_imgio_XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char p[600];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			if (unlink(p) != 0)
				rmdir(p);
		}
		closedir(d);
	}
	rmdir(dir);
	return 0;
}

static const char *at(const char *name)
{
	snprintf(pathbuf, sizeof pathbuf, "%s/%s", dir, name);
	return pathbuf;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static unsigned char *read_bytes(const char *path, size_t *n)
{
	char *b = tu_read_file(path, n);
	assert_non_null(b);
	return (unsigned char *)b;
}

/* A picture with texture in every channel (JPEG-hard, exact for PNG). */
static void pattern(gv_image *img, int w, int h, int channels)
{
	assert_int_equal(gv_image_alloc(img, w, h, channels), 0);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			for (int c = 0; c < channels; c++)
				gv_px(img, x, y)[c] = (unsigned char)((x * (7 + c) + y * (3 + 2 * c) + ((x ^ y) & 8) * 9) & 255);
}

/* Expects a refusal GV_EREAD whose message names the path and says what. */
static void expect_refused(int rc, const char *err, const char *path, const char *what)
{
	if (rc != GV_EREAD)
		fail_msg("%s: %d (%s), refusal expected", path, rc, err);
	if (!strstr(err, path) || !strstr(err, what))
		fail_msg("message '%s' should name %s and say '%s'", err, path, what);
}

/* ---- PNG chunks by hand ---------------------------------------------- */

typedef struct buf {
	unsigned char b[4096];
	size_t n;
} buf;

static void put32(buf *o, uint32_t v)
{
	o->b[o->n++] = (unsigned char)(v >> 24);
	o->b[o->n++] = (unsigned char)(v >> 16);
	o->b[o->n++] = (unsigned char)(v >> 8);
	o->b[o->n++] = (unsigned char)v;
}

/* A chunk whose length field says claim (data holds n bytes of it). */
static void chunk(buf *o, const char *type, const void *data, size_t n, uint32_t claim)
{
	put32(o, claim);
	size_t start = o->n;
	memcpy(o->b + o->n, type, 4);
	o->n += 4;
	memcpy(o->b + o->n, data, n);
	o->n += n;
	put32(o, (uint32_t)crc32(0, o->b + start, (uInt)(o->n - start)));
}

static void png_head(buf *o, uint32_t w, uint32_t h, int colour_type)
{
	o->n = 0;
	memcpy(o->b, "\x89PNG\r\n\x1a\n", 8);
	o->n = 8;
	unsigned char ihdr[13] = {(unsigned char)(w >> 24), (unsigned char)(w >> 16), (unsigned char)(w >> 8),
	                          (unsigned char)w, (unsigned char)(h >> 24), (unsigned char)(h >> 16),
	                          (unsigned char)(h >> 8), (unsigned char)h, 8, (unsigned char)colour_type, 0, 0, 0};
	chunk(o, "IHDR", ihdr, 13, 13);
}

/* ---- PNG ---------------------------------------------------------------- */

/* Writes img as an Adam7-interlaced PNG with libpng itself. */
static void write_interlaced(const char *path, const gv_image *img)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(p);
	assert_non_null(info);
	if (setjmp(png_jmpbuf(p)))
		fail_msg("libpng could not write %s", path);
	png_init_io(p, f);
	png_set_IHDR(p, info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
	             img->channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_bytep rows[256];
	assert_true(img->height <= 256);
	for (int y = 0; y < img->height; y++)
		rows[y] = img->data + (size_t)y * img->stride;
	png_write_info(p, info);
	png_write_image(p, rows); /* all seven passes */
	png_write_end(p, NULL);
	png_destroy_write_struct(&p, &info);
	assert_int_equal(fclose(f), 0);
}

static void test_interlaced_png(void **st)
{
	(void)st;
	for (int channels = 1; channels <= 3; channels += 2) {
		gv_image a, b;
		pattern(&a, 37, 23, channels);
		const char *path = at(channels == 1 ? "interlaced_grey.png" : "interlaced_rgb.png");
		write_interlaced(path, &a);
		char err[300] = "";
		int rc = gv_png_read(path, &b, err, sizeof err);
		if (rc)
			fail_msg("%s", err);
		assert_int_equal(b.width, 37);
		assert_int_equal(b.height, 23);
		assert_int_equal(b.channels, channels);
		for (int y = 0; y < 23; y++)
			assert_memory_equal(gv_px(&a, 0, y), gv_px(&b, 0, y), 37 * (size_t)channels);
		gv_image_free(&b);
		/* and through gv_imread: RGB, grey spread over the three */
		assert_int_equal(gv_imread(&b, path, err, sizeof err), 0);
		assert_int_equal(b.channels, 3);
		for (int y = 0; y < 23; y++)
			for (int x = 0; x < 37; x++)
				for (int c = 0; c < 3; c++)
					assert_int_equal(gv_px(&b, x, y)[c], gv_px(&a, x, y)[channels == 3 ? c : 0]);
		gv_image_free(&b);
		gv_image_free(&a);
	}
}

/* An iTXt chunk of 9 MB (a real one, written by libpng; over the 8 MB chunk
 * limit): skipped, not loaded, and the picture read right. */
static void test_png_large_text_chunk(void **st)
{
	(void)st;
	const char *path = at("text.png");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(p);
	assert_non_null(info);
	size_t big = 9u << 20;
	char *text = malloc(big + 1);
	assert_non_null(text);
	memset(text, 'a', big);
	text[big] = 0;
	if (setjmp(png_jmpbuf(p)))
		fail_msg("libpng could not write %s", path);
	png_init_io(p, f);
	png_set_IHDR(p, info, 4, 1, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	             PNG_FILTER_TYPE_DEFAULT);
	png_text t = {.compression = PNG_ITXT_COMPRESSION_NONE, .key = "Comment", .text = text, .itxt_length = big};
	png_set_text(p, info, &t, 1);
	png_write_info(p, info);
	unsigned char row[4] = {1, 2, 3, 4};
	png_write_row(p, row);
	png_write_end(p, NULL);
	png_destroy_write_struct(&p, &info);
	assert_int_equal(fclose(f), 0);
	free(text);
	size_t n;
	free(read_bytes(path, &n));
	assert_true(n > big);
	gv_image img;
	char err[300] = "";
	if (gv_png_read(path, &img, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(img.width, 4);
	assert_memory_equal(img.data, row, 4);
	gv_image_free(&img);
}

/* The largest resident memory, in MB, of a child that reads path with
 * gv_png_read, above what this process had; *rc its result, err its message. */
static long child_read_mb(const char *path, int *rc, char *err, size_t cap)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	struct rusage before;
	getrusage(RUSAGE_SELF, &before);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		gv_image img;
		char msg[300] = "";
		int r = gv_png_read(path, &img, msg, sizeof msg);
		if (write(fd[1], &r, sizeof r) != sizeof r || write(fd[1], msg, sizeof msg) != sizeof msg)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	char msg[300] = "";
	*rc = 1;
	if (read(fd[0], rc, sizeof *rc) != sizeof *rc || read(fd[0], msg, sizeof msg) != sizeof msg)
		fail_msg("%s: the reading child said nothing", path);
	close(fd[0]);
	snprintf(err, cap, "%s", msg);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the largest of the children so far: each must stay under the bound */
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (ru.ru_maxrss - before.ru_maxrss) / 1024;
}

/* An ancillary chunk claiming 2 GB (the file ends right after its header):
 * refused at once, with what happened, and with no 2 GB buffer (it took
 * 2.1 GB and 3 s). Text, palette, profile, calibration and unknown chunks. */
static void test_png_huge_chunk_claim(void **st)
{
	(void)st;
	const char *types[] = {"tEXt", "iTXt", "zTXt", "sPLT", "iCCP", "pCAL", "eXIf", "quIt"};
	for (int k = 0; k < 8; k++) {
		buf o;
		png_head(&o, 16, 16, 0);
		chunk(&o, types[k], "Comment\0", 8, 0x7FFFFFF0u);
		const char *path = at("claim.png");
		write_bytes(path, o.b, o.n);
		int rc;
		char err[300] = "";
		long mb = child_read_mb(path, &rc, err, sizeof err);
		expect_refused(rc, err, path, "the file ends early");
		if (mb > 100)
			fail_msg("%s: %ld MB to refuse a %s chunk", path, mb, types[k]);
	}
}

/* 20000 x 20000 (400 megapixels) is over the 100 MP bound; 40000 x 10 is
 * over the 32768 a side: both refused at the header. */
static void test_png_over_the_pixel_bound(void **st)
{
	(void)st;
	buf o;
	png_head(&o, 20000, 20000, 2);
	chunk(&o, "IDAT", "\x78\x9c", 2, 2);
	chunk(&o, "IEND", "", 0, 0);
	const char *path = at("huge.png");
	write_bytes(path, o.b, o.n);
	gv_image img;
	char err[300] = "";
	expect_refused(gv_png_read(path, &img, err, sizeof err), err, path, "100 megapixels");
	expect_refused(gv_imread(&img, path, err, sizeof err), err, path, "100 megapixels");
	png_head(&o, 40000, 10, 0);
	chunk(&o, "IEND", "", 0, 0);
	write_bytes(path, o.b, o.n);
	expect_refused(gv_png_read(path, &img, err, sizeof err), err, path, "exceeds user limit");
}

/* ---- JPEG --------------------------------------------------------------- */

static double mean_abs_diff(const gv_image *a, const gv_image *b)
{
	assert_int_equal(a->width, b->width);
	assert_int_equal(a->height, b->height);
	double s = 0;
	for (int y = 0; y < a->height; y++)
		for (int x = 0; x < a->width; x++)
			for (int c = 0; c < 3; c++)
				s += abs(gv_px(a, x, y)[c] - gv_px(b, x, y)[c]);
	return s / (3.0 * a->width * a->height);
}

static void test_jpeg_round_trip(void **st)
{
	(void)st;
	gv_image a, b;
	assert_int_equal(gv_image_alloc(&a, 160, 120, 3), 0);
	for (int y = 0; y < 120; y++)
		for (int x = 0; x < 160; x++)
			for (int c = 0; c < 3; c++)
				gv_px(&a, x, y)[c] = (unsigned char)(40 + x + c * 20 + y / 2);
	char err[300] = "";
	const char *path = at("a.jpg");
	assert_int_equal(gv_imwrite(path, &a, 95, err, sizeof err), 0);
	assert_int_equal(gv_imread(&b, path, err, sizeof err), 0);
	assert_int_equal(b.channels, 3);
	assert_true(mean_abs_diff(&a, &b) < 1.5);
	gv_image_free(&b);
	gv_image_free(&a);
	/* grey: written as a grey JPEG, read back as three equal channels */
	pattern(&a, 40, 30, 1);
	for (int k = 0; k < 40 * 30; k++)
		a.data[k] = 200;
	path = at("grey.JPEG");
	assert_int_equal(gv_imwrite(path, &a, 0, err, sizeof err), 0);
	assert_int_equal(gv_imread(&b, path, err, sizeof err), 0);
	for (int y = 0; y < 30; y++)
		for (int x = 0; x < 40; x++)
			for (int c = 0; c < 3; c++)
				assert_true(abs(gv_px(&b, x, y)[c] - 200) <= 1);
	gv_image_free(&b);
	/* an extension neither .png nor .jpg is not written */
	assert_int_equal(gv_imwrite(at("a.bmp"), &a, 0, err, sizeof err), GV_EWRITE);
	assert_non_null(strstr(err, "unknown extension"));
	assert_int_equal(access(at("a.bmp"), F_OK), -1);
	gv_image_free(&a);
}

/* A JPEG cut to 40% and to 60% of its length is refused (libjpeg would show
 * the rest grey with only a warning), with the path and the reason. */
static void test_jpeg_cut_short(void **st)
{
	(void)st;
	gv_image a, b;
	pattern(&a, 320, 240, 3);
	char err[300] = "";
	assert_int_equal(gv_imwrite(at("whole.jpg"), &a, 90, err, sizeof err), 0);
	gv_image_free(&a);
	size_t n;
	unsigned char *bytes = read_bytes(at("whole.jpg"), &n);
	const int percent[] = {40, 60, 99};
	for (int k = 0; k < 3; k++) {
		char name[32];
		snprintf(name, sizeof name, "cut%d.jpg", percent[k]);
		char path[512];
		snprintf(path, sizeof path, "%s", at(name));
		write_bytes(path, bytes, n * (size_t)percent[k] / 100);
		expect_refused(gv_imread(&b, path, err, sizeof err), err, path, "cut-short JPEG");
		assert_null(b.data);
		expect_refused(gv_imread_max(&b, path, 100, err, sizeof err), err, path, "cut-short JPEG");
	}
	/* only the header: not a JPEG libjpeg-turbo can read */
	write_bytes(at("head.jpg"), bytes, 3);
	expect_refused(gv_imread(&b, at("head.jpg"), err, sizeof err), err, at("head.jpg"), "not a JPEG");
	free(bytes);
}

/* A JPEG whose frame header says 20000 x 20000 is refused before decoding. */
static void test_jpeg_over_the_pixel_bound(void **st)
{
	(void)st;
	gv_image a, b;
	pattern(&a, 16, 16, 3);
	char err[300] = "";
	assert_int_equal(gv_imwrite(at("small.jpg"), &a, 90, err, sizeof err), 0);
	gv_image_free(&a);
	size_t n;
	unsigned char *bytes = read_bytes(at("small.jpg"), &n);
	size_t sof = 0;
	for (size_t i = 2; i + 9 < n; i++)
		if (bytes[i] == 0xFF && bytes[i + 1] == 0xC0) {
			sof = i;
			break;
		}
	assert_true(sof > 0);
	/* FF C0, length (2), precision (1), height (2), width (2) */
	bytes[sof + 5] = 20000 >> 8;
	bytes[sof + 6] = 20000 & 255;
	bytes[sof + 7] = 20000 >> 8;
	bytes[sof + 8] = 20000 & 255;
	write_bytes(at("huge.jpg"), bytes, n);
	free(bytes);
	expect_refused(gv_imread(&b, at("huge.jpg"), err, sizeof err), err, at("huge.jpg"), "100 megapixels");
	expect_refused(gv_imread_max(&b, at("huge.jpg"), 500, err, sizeof err), err, at("huge.jpg"), "100 megapixels");
}

/* With a maximum size a JPEG is decoded at a DCT scale: 400 x 200 into at
 * most 120 is 1/4 (100 x 50; 3/8 would be 150), at most 300 is 3/4; a PNG
 * is shrunk after reading (120 x 60); no maximum, or a larger one, is the
 * full size. */
static void test_read_at_a_maximum_size(void **st)
{
	(void)st;
	gv_image a, b, full;
	assert_int_equal(gv_image_alloc(&a, 400, 200, 3), 0);
	for (int y = 0; y < 200; y++)
		for (int x = 0; x < 400; x++) {
			unsigned char *p = gv_px(&a, x, y);
			p[0] = x < 200 ? 200 : 40;
			p[1] = 90;
			p[2] = y < 100 ? 30 : 220;
		}
	char err[300] = "";
	assert_int_equal(gv_imwrite(at("big.jpg"), &a, 95, err, sizeof err), 0);
	assert_int_equal(gv_png_write(at("big.png"), &a, err, sizeof err), 0);
	assert_int_equal(gv_imread_max(&full, at("big.jpg"), 0, err, sizeof err), 0);
	assert_int_equal(full.width, 400);
	assert_int_equal(full.height, 200);
	assert_int_equal(gv_imread_max(&b, at("big.jpg"), 400, err, sizeof err), 0);
	assert_int_equal(b.width, 400);
	assert_memory_equal(b.data, full.data, 400 * 200 * 3);
	gv_image_free(&b);
	gv_image_free(&full);
	const char *files[] = {"big.jpg", "big.png"};
	const int w[] = {100, 120}, h[] = {50, 60};
	for (int k = 0; k < 2; k++) {
		assert_int_equal(gv_imread_max(&b, at(files[k]), 120, err, sizeof err), 0);
		assert_int_equal(b.width, w[k]);
		assert_int_equal(b.height, h[k]);
		/* the quarters keep their colours (away from the edges between them) */
		const int qx[] = {b.width / 4, 3 * b.width / 4}, qy[] = {b.height / 4, 3 * b.height / 4};
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++) {
				const unsigned char *p = gv_px(&b, qx[i], qy[j]);
				assert_true(abs(p[0] - (i == 0 ? 200 : 40)) <= 4);
				assert_true(abs(p[1] - 90) <= 4);
				assert_true(abs(p[2] - (j == 0 ? 30 : 220)) <= 4);
			}
		gv_image_free(&b);
	}
	/* at most 300: 3/4 */
	assert_int_equal(gv_imread_max(&b, at("big.jpg"), 300, err, sizeof err), 0);
	assert_int_equal(b.width, 300);
	assert_int_equal(b.height, 150);
	gv_image_free(&b);
	assert_int_equal(gv_imread_max(&b, at("big.jpg"), -1, err, sizeof err), GV_EINVAL);
	/* gv_imread_work: the smallest of 1/8, 1/4, 1/2 keeping min_side
	 * (400 x 200: 120 -> 1/2, 100 -> 1/4, 50 -> 1/8, 201 -> whole), within
	 * max_side; a PNG as gv_imread_max_size reads it; the file's size told */
	const int mins[] = {120, 100, 50, 201, 0}, ws[] = {200, 100, 50, 400, 400};
	for (int k = 0; k < 5; k++) {
		int fw = 0, fh = 0;
		assert_int_equal(gv_imread_work(&b, at("big.jpg"), mins[k], 0, &fw, &fh, err, sizeof err), 0);
		assert_int_equal(b.width, ws[k]);
		assert_int_equal(b.height, ws[k] / 2);
		assert_int_equal(fw, 400);
		assert_int_equal(fh, 200);
		gv_image_free(&b);
	}
	assert_int_equal(gv_imread_work(&b, at("big.jpg"), 120, 150, NULL, NULL, err, sizeof err), 0);
	assert_int_equal(b.width, 150); /* 1/2 over 150, 1/4 under 120: the largest scale within 150 (3/8) */
	gv_image_free(&b);
	assert_int_equal(gv_imread_work(&b, at("big.jpg"), 120, 30, NULL, NULL, err, sizeof err), 0);
	assert_int_equal(b.width, 30); /* no scale fits: as gv_imread_max reads it */
	gv_image_free(&b);
	assert_int_equal(gv_imread_work(&b, at("big.png"), 100, 0, NULL, NULL, err, sizeof err), 0);
	assert_int_equal(b.width, 400);
	gv_image_free(&b);
	assert_int_equal(gv_imread_work(&b, at("big.jpg"), -1, 0, NULL, NULL, err, sizeof err), GV_EINVAL);
	gv_image_free(&a);
}

/* A PNG (plain and interlaced) or PGM/PPM over the maximum size is shrunk
 * as its rows come (no full-size buffer): shrunk by exactly 4, each pixel is
 * the rounded mean of its 4x4 block of the random picture; the file's own
 * size is reported; an interlaced one over its bound is refused. */
static void test_shrunk_while_read(void **st)
{
	(void)st;
	gv_image a, b;
	assert_int_equal(gv_image_alloc(&a, 400, 200, 3), 0);
	srand(17);
	for (size_t k = 0; k < a.stride * 200; k++)
		a.data[k] = (unsigned char)(rand() & 255);
	char err[300] = "";
	assert_int_equal(gv_png_write(at("rand.png"), &a, err, sizeof err), 0);
	write_interlaced(at("rand_i.png"), &a);
	FILE *f = fopen(at("rand.ppm"), "wb");
	assert_non_null(f);
	fprintf(f, "P6\n# a comment\n400 200\n255\n");
	assert_int_equal(fwrite(a.data, 1, a.stride * 200, f), a.stride * 200);
	fclose(f);
	const char *files[] = {"rand.png", "rand_i.png", "rand.ppm"};
	for (int k = 0; k < 3; k++) {
		int fw = 0, fh = 0;
		int rc = gv_imread_max_size(&b, at(files[k]), 100, &fw, &fh, err, sizeof err);
		if (rc)
			fail_msg("%s: %s", files[k], err);
		assert_int_equal(fw, 400);
		assert_int_equal(fh, 200);
		assert_int_equal(b.width, 100);
		assert_int_equal(b.height, 50);
		for (int y = 0; y < 50; y++)
			for (int x = 0; x < 100; x++)
				for (int c = 0; c < 3; c++) {
					int sum = 0;
					for (int j = 0; j < 4; j++)
						for (int i = 0; i < 4; i++)
							sum += gv_px(&a, 4 * x + i, 4 * y + j)[c];
					if (gv_px(&b, x, y)[c] != (sum + 8) / 16)
						fail_msg("%s: (%d,%d,%d) = %d, the block's mean %d", files[k], x, y, c,
						         gv_px(&b, x, y)[c], (sum + 8) / 16);
				}
		gv_image_free(&b);
		/* not over: the picture as it is */
		assert_int_equal(gv_imread_max_size(&b, at(files[k]), 400, &fw, &fh, err, sizeof err), 0);
		assert_int_equal(b.width, 400);
		assert_memory_equal(b.data, a.data, a.stride * 200);
		gv_image_free(&b);
	}
	/* an uneven shrink: every row and column of the output is filled (a
	 * one-colour picture stays that colour) */
	for (size_t k = 0; k < a.stride * 200; k++)
		a.data[k] = (unsigned char)(k % 3 == 0 ? 200 : k % 3 == 1 ? 90 : 30);
	assert_int_equal(gv_png_write(at("flat.png"), &a, err, sizeof err), 0);
	assert_int_equal(gv_imread_max(&b, at("flat.png"), 137, err, sizeof err), 0);
	assert_int_equal(b.width, 137);
	assert_int_equal(b.height, 69);
	for (int y = 0; y < b.height; y++)
		for (int x = 0; x < b.width; x++)
			assert_memory_equal(gv_px(&b, x, y), ((const unsigned char[]){200, 90, 30}), 3);
	gv_image_free(&b);
	gv_image_free(&a);
}

/* A PGM/PPM whose file is too short for the samples its header declares is
 * refused from its size, before the picture is allocated (the long fuzz
 * run's slowest input: a 144-byte plain PPM declaring 5436x3655 made a
 * 60 MB image, 0.25 s under ASan); one exactly long enough is read. */
/* gv_shrink_area gives the pixels OpenCV's INTER_AREA gives, to the bit,
 * grey and colour, for whole and broken ratios (the locator's working copy
 * was OpenCV's; its figures must not move). */
static void test_shrink_area_as_opencv(void **st)
{
	(void)st;
	static const int sizes[][4] = {
	    {1280, 960, 800, 600}, {1280, 720, 800, 450}, {977, 733, 800, 600}, {640, 480, 320, 240},
	    {123, 97, 37, 29},     {50, 50, 49, 1},      {7, 3, 7, 3},          {1001, 1, 800, 1},    {1200, 900, 400, 300},
	    {1600, 1200, 800, 600}, {96, 64, 24, 32},
	};
	unsigned seed = 12345;
	for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++)
		for (int cn = 1; cn <= 3; cn += 2) {
			gv_image src, a, b;
			assert_int_equal(gv_image_alloc(&src, sizes[t][0], sizes[t][1], cn), 0);
			/* a smooth pattern with noise and hard edges */
			for (int y = 0; y < src.height; y++)
				for (int x = 0; x < src.width * cn; x++) {
					seed = seed * 1103515245u + 12345u;
					int v = (x * 7 + y * 3) % 256 + (int)((seed >> 16) % 21) - 10;
					if ((x / 13 + y / 11) % 5 == 0)
						v = 255 - v;
					src.data[(size_t)y * src.stride + (size_t)x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
				}
			char err[200];
			assert_int_equal(gv_cv_resize(&src, &a, sizes[t][2], sizes[t][3], err, sizeof err), 0);
			assert_int_equal(gv_shrink_area(&src, &b, sizes[t][2], sizes[t][3]), 0);
			assert_int_equal(a.width, b.width);
			assert_int_equal(a.height, b.height);
			long differ = 0;
			for (int y = 0; y < a.height; y++)
				differ += memcmp(gv_px(&a, 0, y), gv_px(&b, 0, y), (size_t)a.width * (size_t)cn) != 0;
			if (differ)
				fprintf(stderr, "%dx%d -> %dx%d, %d channels: %ld rows differ\n", sizes[t][0], sizes[t][1],
				        sizes[t][2], sizes[t][3], cn, differ);
			assert_int_equal(differ, 0);
			gv_image_free(&src);
			gv_image_free(&a);
			gv_image_free(&b);
		}
	gv_image src = {0}, out;
	assert_int_equal(gv_image_alloc(&src, 10, 10, 1), 0);
	assert_int_equal(gv_shrink_area(&src, &out, 11, 10), GV_EINVAL); /* no growing */
	assert_int_equal(gv_shrink_area(&src, &out, 0, 10), GV_EINVAL);
	assert_null(out.data);
	gv_image_free(&src);
}

/* gv_grey against OpenCV's cvtColor (gv_cv_grey): every one of the 2^24
 * colours, on rows of a width a multiple of 16 and of one that is not
 * (OpenCV's vector loop and its tail; the AVX2 build of the row and the
 * plain one); a grey image copied. */
static void test_grey_as_opencv(void **st)
{
	(void)st;
	static const int widths[] = {4096, 4093};
	for (int wi = 0; wi < 2; wi++) {
		int w = widths[wi], h = (int)(((1L << 24) + w - 1) / w);
		gv_image im, a, b;
		assert_int_equal(gv_image_alloc(&im, w, h, 3), 0);
		for (long i = 0; i < (long)w * h; i++) {
			long c = i & ((1L << 24) - 1);
			unsigned char *p = im.data + (size_t)(i / w) * im.stride + (size_t)(i % w) * 3;
			p[0] = (unsigned char)(c & 255);
			p[1] = (unsigned char)((c >> 8) & 255);
			p[2] = (unsigned char)(c >> 16);
		}
		char err[200];
		assert_int_equal(gv_grey(&im, &a), 0);
		assert_int_equal(gv_cv_grey(&im, &b, err, sizeof err), 0);
		assert_int_equal(a.width, w);
		assert_int_equal(a.height, h);
		long differ = 0;
		for (int y = 0; y < h; y++)
			differ += memcmp(a.data + (size_t)y * a.stride, b.data + (size_t)y * b.stride, (size_t)w) != 0;
		assert_int_equal(differ, 0);
		/* grey in: a copy */
		gv_image g2;
		assert_int_equal(gv_grey(&a, &g2), 0);
		assert_memory_equal(g2.data, a.data, (size_t)w * (size_t)h);
		gv_image_free(&g2);
		gv_image_free(&im);
		gv_image_free(&a);
		gv_image_free(&b);
	}
	gv_image none = {0}, out;
	assert_int_equal(gv_grey(&none, &out), GV_EINVAL);
	assert_null(out.data);
}

static void test_pnm_shorter_than_declared(void **st)
{
	(void)st;
	const char *path = at("short.ppm");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fprintf(f, "P3\n5436 3655\n535\n1 2 3 4\n");
	fclose(f);
	gv_image b;
	char err[300] = "";
	expect_refused(gv_imread(&b, path, err, sizeof err), err, path, "cut short (25 bytes for 5436x3655)");
	const char *raw = at("short.pgm");
	f = fopen(raw, "wb");
	assert_non_null(f);
	fprintf(f, "P5\n4 3\n65535\n");
	for (int k = 0; k < 23; k++)
		fputc(k, f); /* 24 bytes needed */
	fclose(f);
	expect_refused(gv_imread(&b, raw, err, sizeof err), err, raw, "cut short");
	f = fopen(raw, "ab");
	fputc(9, f);
	fclose(f);
	assert_int_equal(gv_imread(&b, raw, err, sizeof err), 0);
	assert_int_equal(b.width, 4);
	gv_image_free(&b);
}

/* ---- anything else -------------------------------------------------- */

static void test_not_images(void **st)
{
	(void)st;
	gv_image b;
	char err[300] = "";
	write_bytes(at("empty.jpg"), "", 0);
	expect_refused(gv_imread(&b, at("empty.jpg"), err, sizeof err), err, at("empty.jpg"), "empty file");
	assert_int_equal(mkdir(at("folder.png"), 0700), 0);
	expect_refused(gv_imread(&b, at("folder.png"), err, sizeof err), err, at("folder.png"), "a folder");
	write_bytes(at("text.jpg"), "not an image\n", 13);
	expect_refused(gv_imread(&b, at("text.jpg"), err, sizeof err), err, at("text.jpg"), "not a JPEG, PNG");
	expect_refused(gv_imread(&b, at("none.jpg"), err, sizeof err), err, at("none.jpg"), "No such file");
	assert_null(b.data);
	/* PGM/PPM: plain and raw; cut short; over the bound */
	write_bytes(at("a.pgm"), "P2\n# c\n3 1\n4\n0 2 4\n", 20);
	assert_int_equal(gv_imread(&b, at("a.pgm"), err, sizeof err), 0);
	assert_int_equal(b.width, 3);
	assert_int_equal(gv_px(&b, 1, 0)[2], 128);
	assert_int_equal(gv_px(&b, 2, 0)[0], 255);
	gv_image_free(&b);
	write_bytes(at("a.ppm"), "P6 2 1 255\n\1\2\3\4\5\6", 17);
	assert_int_equal(gv_imread(&b, at("a.ppm"), err, sizeof err), 0);
	assert_int_equal(gv_px(&b, 1, 0)[2], 6);
	gv_image_free(&b);
	write_bytes(at("cut.ppm"), "P6 2 1 255\n\1\2\3\4\5", 16);
	expect_refused(gv_imread(&b, at("cut.ppm"), err, sizeof err), err, at("cut.ppm"), "cut short");
	write_bytes(at("huge.pgm"), "P5 20000 20000 255\n", 19);
	expect_refused(gv_imread(&b, at("huge.pgm"), err, sizeof err), err, at("huge.pgm"), "100 megapixels");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interlaced_png),
		cmocka_unit_test(test_png_large_text_chunk),
		cmocka_unit_test(test_png_huge_chunk_claim),
		cmocka_unit_test(test_png_over_the_pixel_bound),
		cmocka_unit_test(test_jpeg_round_trip),
		cmocka_unit_test(test_jpeg_cut_short),
		cmocka_unit_test(test_jpeg_over_the_pixel_bound),
		cmocka_unit_test(test_read_at_a_maximum_size),
		cmocka_unit_test(test_shrunk_while_read),
		cmocka_unit_test(test_pnm_shorter_than_declared),
		cmocka_unit_test(test_not_images),
		cmocka_unit_test(test_shrink_area_as_opencv),
		cmocka_unit_test(test_grey_as_opencv),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
