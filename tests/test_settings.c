/* The settings file (calib/settings.h): defaults, good files read right,
 * every kind of bad file named by line, key and value, the written file
 * read back to the same values, and an update that keeps the other lines. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

static int parse(gc_settings *s, const char *text, gr_error *err)
{
	gc_settings_init(s);
	memset(err, 0, sizeof *err);
	return gc_settings_parse(s, text, strlen(text), err);
}

static void test_defaults(void **state)
{
	(void)state;
	gc_settings s;
	gr_error err;
	assert_int_equal(parse(&s, "", &err), 0);
	assert_string_equal(s.device, "/dev/video0");
	assert_int_equal(s.width, 0);
	assert_int_equal(s.height, 0);
	assert_int_equal(s.format, GC_FORMAT_RGB24);
	assert_int_equal(s.stride, 0);
	assert_true(s.fps == 10);
	assert_int_equal(s.board, 19);
	assert_false(s.has_corners);
	assert_int_equal(s.rotate, 0);
	assert_false(s.has_camera);
	assert_int_equal(s.ndist, 0);
	assert_true(s.still == 0.3);
	assert_true(s.komi == 3.75);
	assert_int_equal(s.persist, 2);
	assert_int_equal(s.repetition, GR_REP_FORBID);
	assert_string_equal(s.journal, "");
	assert_string_equal(s.sgf, "");
	assert_string_equal(s.events, "");
}

static const char good[] =
	"# a camera on White's side\n"
	"\n"
	"device = -\r\n"
	"  frame_size=1280x720   # the Pi camera\n"
	"format = yuv420-limited\n"
	"stride = 1344\n"
	"fps = 7.5\n"
	"board = 13\n"
	"corners = 407 45.5, 939 55 991 643 329 621.25\n"
	"rotate = 180\n"
	"camera = 1000 1001.5 640 360\n"
	"distortion = -0.2 0.05 0.001 -0.002\n"
	"still = 0.5\n"
	"komi = 2.75\n"
	"persist = 3\n"
	"repetition = no-result\n"
	"journal = /var/lib/goref/game#1.log\n"
	"sgf = games/today.sgf\n"
	"http = 0.0.0.0:8080\n"
	"pin = 4711  # the operator's\n"
	"\tevents\t=\tevents.jsonl";

static void test_good(void **state)
{
	(void)state;
	gc_settings s;
	gr_error err;
	assert_int_equal(parse(&s, good, &err), 0);
	assert_string_equal(s.device, "-");
	assert_int_equal(s.width, 1280);
	assert_int_equal(s.height, 720);
	assert_int_equal(s.format, GC_FORMAT_YUV420_LIMITED);
	assert_int_equal(s.stride, 1344);
	assert_true(s.fps == 7.5);
	assert_int_equal(s.board, 13);
	assert_true(s.has_corners);
	const double c[8] = {407, 45.5, 939, 55, 991, 643, 329, 621.25};
	for (int k = 0; k < 8; k++)
		assert_true(s.corners[k] == c[k]);
	assert_int_equal(s.rotate, 180);
	assert_true(s.has_camera);
	assert_true(s.camera[1] == 1001.5);
	assert_int_equal(s.ndist, 4);
	assert_true(s.dist[0] == -0.2 && s.dist[3] == -0.002 && s.dist[4] == 0);
	assert_true(s.still == 0.5);
	assert_true(s.komi == 2.75);
	assert_int_equal(s.persist, 3);
	assert_int_equal(s.repetition, GR_REP_NO_RESULT);
	assert_string_equal(s.journal, "/var/lib/goref/game#1.log"); /* a '#' inside a word is no comment */
	assert_string_equal(s.sgf, "games/today.sgf");
	assert_string_equal(s.events, "events.jsonl");
	assert_string_equal(s.http, "0.0.0.0:8080");
	assert_string_equal(s.pin, "4711");
	double K[9];
	gc_settings_camera_matrix(&s, K);
	assert_true(K[0] == 1000 && K[2] == 640 && K[4] == 1001.5 && K[5] == 360 && K[8] == 1);

	/* an empty value is the default, over an earlier value in s */
	const char empties[] = "corners =\nfps = # default\ndevice=\n";
	assert_int_equal(gc_settings_parse(&s, empties, strlen(empties), &err), 0);
	assert_false(s.has_corners);
	assert_true(s.fps == 10);
	assert_string_equal(s.device, "/dev/video0");
	assert_int_equal(s.board, 13); /* absent: kept */
}

/* A bad file: the error's line and a message with each piece in it. */
static void bad(const char *text, int line, const char *m1, const char *m2)
{
	gc_settings s;
	gr_error err;
	int rc = parse(&s, text, &err);
	if (rc != GR_EPARSE || err.line != line || !strstr(err.message, m1) || (m2 && !strstr(err.message, m2))) {
		print_error("for %s: rc %d, line %d, '%s' (wanted line %d, '%s', '%s')\n", text, rc, err.line,
		            err.message, line, m1, m2 ? m2 : "");
		fail();
	}
}

static void test_bad(void **state)
{
	(void)state;
	bad("fps = 10\n\n# x\n\n\n\nstill = abc\n", 7, "still: must be a number of seconds from 0 to 60, not 'abc'", NULL);
	bad("still = 61\n", 1, "still: ", "'61'");
	bad("still = -1\n", 1, "still: ", NULL);
	bad("fps = 0\n", 1, "fps: must be", "'0'");
	bad("fps = nan\n", 1, "fps: ", NULL);
	bad("fps = 10 12\n", 1, "fps: ", "'10 12'");
	bad("board = 15\n", 1, "board: must be 9, 13 or 19, not '15'", NULL);
	bad("board = 19x19\n", 1, "board: ", NULL);
	bad("rotate = 45\n", 1, "rotate: must be 0, 90, 180 or 270", NULL);
	bad("rotate = 360\n", 1, "rotate: ", NULL);
	bad("format = mjpeg\n", 1, "format: must be rgb24, yuv420 or yuv420-limited, not 'mjpeg'", NULL);
	bad("frame_size = 1280\n", 1, "frame_size: must be WIDTHxHEIGHT", "'1280'");
	bad("frame_size = 1280x\n", 1, "frame_size: ", NULL);
	bad("frame_size = 8x8\n", 1, "frame_size: ", NULL);
	bad("stride = -4\n", 1, "stride: ", NULL);
	bad("corners = 1 2 3 4 5 6 7\n", 1, "corners: must be 8 numbers", "'1 2 3 4 5 6 7'");
	bad("corners = 1 2 3 4 5 6 7 8 9\n", 1, "corners: ", NULL);
	bad("corners = 1 2 3 4 5 6 7 eight\n", 1, "corners: ", NULL);
	bad("camera = 1000 1000 640\n", 1, "camera: must be 4 numbers", NULL);
	bad("camera = 0 1000 640 360\n", 1, "camera: ", NULL);
	bad("camera = 100 100 1 1\ndistortion = 1 2 3\n", 2, "distortion: must be 4 or 5 numbers", NULL);
	/* no real lens (issue 17: 1e-300 was taken, and watch saw nothing) */
	bad("camera = 1e-300 1e-300 320 240\n", 1, "camera: must be 4 numbers fx fy cx cy in pixels (fx and fy from 10", NULL);
	bad("camera = 1000 1000 640 360\ndistortion = 1e9 0 0 0\n", 2, "distortion: must be 4 or 5 numbers k1 k2 p1 p2 [k3], each within 1000", NULL);
	bad("board = 9\n\ndistortion = 0.1 0 0 0\n", 3, "distortion: needs camera", NULL);
	bad("komi = 500\n", 1, "komi: ", NULL);
	bad("persist = 0\n", 1, "persist: ", NULL);
	bad("persist = 2.5\n", 1, "persist: ", NULL);
	bad("repetition = superko\n", 1, "repetition: must be forbid, draw, replay or no-result", NULL);
	bad("http = localhost:8080\n", 1, "http: must be [ADDR:]PORT such as 8080 or 0.0.0.0:8080", NULL);
	bad("pin = 12 34\n", 1, "pin: must be letters and digits, no blanks", NULL);
	bad("fps = 10\nfsp = 10\n", 2, "unknown setting 'fsp'", NULL);
	bad("fps = 10\nboard = 9\nfps = 12\n", 3, "fps: given twice (first on line 1)", NULL);
	bad("fps 10\n", 1, "expected 'key = value'", NULL);
	bad("= 10\n", 1, "expected 'key = value'", NULL);

	/* the column points at the value */
	gc_settings s;
	gr_error err;
	gc_settings_init(&s);
	assert_int_equal(gc_settings_parse(&s, "device = x\n\0\n", 13, &err), GR_EPARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(parse(&s, "  still =  abc\n", &err), GR_EPARSE);
	assert_int_equal(err.column, 12);

	/* a long path */
	char *text = malloc(GC_PATH_CAP + 32);
	assert_non_null(text);
	strcpy(text, "sgf = ");
	memset(text + 6, 'a', GC_PATH_CAP);
	strcpy(text + 6 + GC_PATH_CAP, "\n");
	bad(text, 1, "sgf: must be a path shorter than", NULL);
	free(text);
}

static void assert_same(const gc_settings *a, const gc_settings *b)
{
	/* every field compared (the struct has no padding worth trusting memcmp with) */
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->width, b->width);
	assert_int_equal(a->height, b->height);
	assert_int_equal(a->format, b->format);
	assert_int_equal(a->stride, b->stride);
	assert_true(a->fps == b->fps);
	assert_int_equal(a->board, b->board);
	assert_int_equal(a->has_corners, b->has_corners);
	for (int k = 0; k < 8; k++)
		assert_true(a->corners[k] == b->corners[k]);
	assert_int_equal(a->rotate, b->rotate);
	assert_int_equal(a->has_camera, b->has_camera);
	for (int k = 0; k < 4; k++)
		assert_true(a->camera[k] == b->camera[k]);
	assert_int_equal(a->ndist, b->ndist);
	for (int k = 0; k < 5; k++)
		assert_true(a->dist[k] == b->dist[k]);
	assert_true(a->still == b->still);
	assert_true(a->komi == b->komi);
	assert_int_equal(a->persist, b->persist);
	assert_int_equal(a->repetition, b->repetition);
	assert_string_equal(a->journal, b->journal);
	assert_string_equal(a->sgf, b->sgf);
	assert_string_equal(a->events, b->events);
	assert_string_equal(a->http, b->http);
	assert_string_equal(a->pin, b->pin);
}

static void round_trip(const gc_settings *s)
{
	size_t n = gc_settings_write(s, NULL, 0);
	assert_true(n > 0);
	char *buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(gc_settings_write(s, buf, n + 1), n);
	assert_int_equal(strlen(buf), n);
	gc_settings back;
	gr_error err;
	gc_settings_init(&back);
	/* start from other values: the file must set every one */
	assert_int_equal(gc_settings_parse(&back, good, strlen(good), &err), 0);
	if (gc_settings_parse(&back, buf, n, &err)) {
		print_error("line %d: %s\n%s", err.line, err.message, buf);
		fail();
	}
	assert_same(s, &back);
	free(buf);
}

static void test_round_trip(void **state)
{
	(void)state;
	gc_settings s;
	gr_error err;
	gc_settings_init(&s);
	round_trip(&s);
	assert_int_equal(parse(&s, good, &err), 0);
	round_trip(&s);
	/* awkward numbers come back exactly */
	s.corners[0] = 0.1 + 0.2;
	s.camera[0] = 1234.567890123456789;
	s.dist[0] = -1e-7;
	s.ndist = 5;
	s.dist[4] = 0.0123;
	s.fps = 29.97;
	s.komi = -0.5;
	s.board = 9;
	s.rotate = 270;
	s.format = GC_FORMAT_YUV420;
	round_trip(&s);
	/* what the written file looks like: commented, one key a line */
	char buf[8192];
	gc_settings_init(&s);
	size_t n = gc_settings_write(&s, buf, sizeof buf);
	assert_true(n > 0 && n < sizeof buf);
	assert_non_null(strstr(buf, "\ndevice = /dev/video0\n"));
	assert_non_null(strstr(buf, "\ncorners =\n"));
	assert_non_null(strstr(buf, "\nstill = 0.3\n"));
	assert_non_null(strstr(buf, "\nkomi = 3.75\n"));
	assert_non_null(strstr(buf, "\n# Seconds the board must be still"));
	/* cut short like snprintf */
	char small[40];
	assert_int_equal(gc_settings_write(&s, small, sizeof small), n);
	assert_int_equal(strlen(small), sizeof small - 1);
	/* a path a file cannot carry */
	strcpy(s.sgf, "a #b");
	assert_int_equal(gc_settings_write(&s, buf, sizeof buf), 0);
	strcpy(s.sgf, "line\nbreak");
	assert_int_equal(gc_settings_write(&s, buf, sizeof buf), 0);
}

static void test_format_value(void **state)
{
	(void)state;
	gc_settings s;
	gc_settings_init(&s);
	char b[64];
	assert_int_equal(gc_settings_format_value(&s, "still", b, sizeof b), 3);
	assert_string_equal(b, "0.3");
	assert_int_equal(gc_settings_format_value(&s, "corners", b, sizeof b), 0);
	assert_string_equal(b, "");
	s.has_camera = true;
	s.camera[0] = 1000.25;
	s.camera[1] = 1000;
	s.camera[2] = 640;
	s.camera[3] = 360;
	gc_settings_format_value(&s, "camera", b, sizeof b);
	assert_string_equal(b, "1000.25 1000 640 360");
	assert_int_equal(gc_settings_format_value(&s, "nope", b, sizeof b), (size_t)-1);
}

static void test_update(void **state)
{
	(void)state;
	const char text[] = "# my settings\n"
	                    "device = -\n"
	                    "  camera = 100 100 1 1   # old lens\r\n"
	                    "\n"
	                    "# the end\n"
	                    "komi = 2.75";
	gc_settings s;
	gr_error err;
	assert_int_equal(parse(&s, text, &err), 0);
	s.camera[0] = 900;
	s.camera[1] = 901;
	s.camera[2] = 320;
	s.camera[3] = 240;
	s.ndist = 5;
	s.dist[0] = -0.25;
	s.dist[1] = 0.125;
	const char *keys[] = {"camera", "distortion"};
	char buf[1024];
	size_t n = gc_settings_update(text, strlen(text), &s, keys, 2, buf, sizeof buf);
	assert_true(n > 0 && n < sizeof buf);
	assert_string_equal(buf, "# my settings\n"
	                         "device = -\n"
	                         "  camera = 900 901 320 240   # old lens\r\n"
	                         "\n"
	                         "# the end\n"
	                         "komi = 2.75\n"
	                         "distortion = -0.25 0.125 0 0 0\n");
	gc_settings back;
	gc_settings_init(&back);
	assert_int_equal(gc_settings_parse(&back, buf, n, &err), 0);
	assert_same(&s, &back);
	/* the same keys again: replaced in place, nothing added */
	char buf2[1024];
	assert_int_equal(gc_settings_update(buf, n, &s, keys, 2, buf2, sizeof buf2), n);
	assert_string_equal(buf, buf2);
	/* an empty file gets the keys */
	assert_true(gc_settings_update("", 0, &s, keys, 1, buf, sizeof buf) > 0);
	assert_string_equal(buf, "camera = 900 901 320 240\n");
	/* an empty value before a comment (issue 17: `corners =  # note` came
	 * back as `corners = ... 452.2# note`, which no longer parsed) */
	const char *empty = "camera =  # to measure\n";
	n = gc_settings_update(empty, strlen(empty), &s, keys, 1, buf, sizeof buf);
	assert_string_equal(buf, "camera = 900 901 320 240 # to measure\n");
	gc_settings_init(&back);
	assert_int_equal(gc_settings_parse(&back, buf, n, &err), 0);
	assert_true(back.has_camera && back.camera[0] == 900);
	/* a byte-order mark: no part of the first key, read or written (issue 17) */
	const char *bom = "\xef\xbb\xbf" "camera = 100 200 3 4\nkomi = 2.75\n";
	gc_settings_init(&back);
	assert_int_equal(gc_settings_parse(&back, bom, strlen(bom), &err), 0);
	assert_true(back.has_camera && back.camera[3] == 4 && back.komi == 2.75);
	n = gc_settings_update(bom, strlen(bom), &s, keys, 1, buf, sizeof buf);
	assert_string_equal(buf, "\xef\xbb\xbf" "camera = 900 901 320 240\nkomi = 2.75\n");
	/* an unknown key */
	const char *nope[] = {"nope"};
	assert_int_equal(gc_settings_update(text, strlen(text), &s, nope, 1, buf, sizeof buf), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),   cmocka_unit_test(test_good),   cmocka_unit_test(test_bad),
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_format_value), cmocka_unit_test(test_update),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
