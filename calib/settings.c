/* goref calib: the settings file. See settings.h. */
#include "settings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"

enum {
	K_DEVICE, K_FRAME_SIZE, K_FORMAT, K_STRIDE, K_FPS, K_BOARD, K_CORNERS, K_ROTATE, K_CAMERA,
	K_DISTORTION, K_STILL, K_KOMI, K_PERSIST, K_REPETITION, K_JOURNAL, K_SGF, K_EVENTS, K_HTTP, K_PIN,
	K_MQTT, K_MQTT_USER, K_MQTT_PASSWORD, K_MQTT_CAFILE, K_HALL, K_BOARD_ID, K_CONTROL_USER, K_PAGE_URL, K_COUNT
};

const char *const gc_settings_keys[] = {
	"device", "frame_size", "format", "stride", "fps", "board", "corners", "rotate", "camera",
	"distortion", "still", "komi", "persist", "repetition", "journal", "sgf", "events", "http", "pin",
	"mqtt", "mqtt_user", "mqtt_password", "mqtt_cafile", "hall", "board_id", "control_user", "page_url", NULL,
};

/* The comment written above each key by gc_settings_write. */
static const char *const key_help[K_COUNT] = {
	"The camera: a V4L2 device such as /dev/video0, or - for raw frames on\n"
	"# standard input (rpicam-vid -t 0 -n --codec yuv420 -o - | goref watch).",
	"WIDTHxHEIGHT asked of the camera (the raw frames' size with -);\n"
	"# empty: the camera's own.",
	"Raw frames with -: rgb24, yuv420 (full range) or yuv420-limited.",
	"Bytes from one raw row to the next (0: rows not padded).",
	"Frames per second (0.1 to 1000).",
	"Lines of the board: 9, 13 or 19.",
	"The grid's four corners, x y in pixels, clockwise from the top-left of the\n"
	"# image (of the undistorted image when camera is set); empty: found by\n"
	"# itself. Written by goref calibrate board.",
	"Clockwise turns (0, 90, 180, 270) that bring the camera's view to the\n"
	"# players' view, Black's side at the bottom (a camera on White's side: 180).",
	"The lens: fx fy cx cy in pixels; empty: none. Written by goref calibrate lens.",
	"Lens distortion k1 k2 p1 p2 [k3] (OpenCV's model; needs camera).",
	"Seconds the board must be still before it is read (0 to 60).",
	"Komi in stones that Black gives (-400 to 400).",
	"Observations a change to earlier stones must last before a ruling (1 to 1000).",
	"What a whole-board repetition other than a ko does: forbid, draw, replay\n"
	"# or no-result.",
	"The observation log, written as it is made; empty: none.",
	"The game record (SGF); empty: none.",
	"The events (JSON lines), written as they happen; empty: none.",
	"The referee's web page: [ADDR:]PORT to serve it on (8080 is 127.0.0.1:8080,\n"
	"# this machine only; 0.0.0.0:8080 the whole network); empty: no page.",
	"The operator's PIN for the page's buttons; empty: a new one at each start,\n"
	"# printed then.",
	"A hall of boards: the MQTT broker HOST[:PORT] every event is published to\n"
	"# (goref/HALL/BOARD/events); empty: none.",
	"The board's user on the broker.",
	"The board's password on the broker.",
	"TLS to the broker: the CA file that signed its certificate; empty: plain.",
	"The hall's name on the broker (a topic level).",
	"This board's id in the hall (a topic level).",
	"The broker user whose end, count and accept this board takes (the\n"
	"# director); empty: none.",
	"This board's own page, for the director's tile to link to; empty: none.",
};

/* The string a text key's value goes to, or NULL for other keys. */
static char *str_slot(gc_settings *s, int k)
{
	switch (k) {
	case K_DEVICE: return s->device;
	case K_JOURNAL: return s->journal;
	case K_SGF: return s->sgf;
	case K_EVENTS: return s->events;
	case K_MQTT: return s->mqtt;
	case K_MQTT_USER: return s->mqtt_user;
	case K_MQTT_PASSWORD: return s->mqtt_password;
	case K_MQTT_CAFILE: return s->mqtt_cafile;
	case K_HALL: return s->hall;
	case K_BOARD_ID: return s->board_id;
	case K_CONTROL_USER: return s->control_user;
	case K_PAGE_URL: return s->page_url;
	default: return NULL;
	}
}

void gc_settings_init(gc_settings *s)
{
	memset(s, 0, sizeof *s);
	strcpy(s->device, "/dev/video0");
	s->format = GC_FORMAT_RGB24;
	s->fps = 10;
	s->board = 19;
	s->still = 0.3;
	s->komi = GR_KOMI_DEFAULT;
	s->persist = 2;
	s->repetition = GR_REP_FORBID;
}

const char *gc_format_name(gc_format f)
{
	switch (f) {
	case GC_FORMAT_RGB24: return "rgb24";
	case GC_FORMAT_YUV420: return "yuv420";
	case GC_FORMAT_YUV420_LIMITED: return "yuv420-limited";
	}
	return "rgb24";
}

void gc_settings_camera_matrix(const gc_settings *s, double K[9])
{
	double k[9] = {s->camera[0], 0, s->camera[2], 0, s->camera[1], s->camera[3], 0, 0, 1};
	memcpy(K, k, sizeof k);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int key_index(const char *key, size_t n)
{
	for (int k = 0; k < K_COUNT; k++)
		if (strlen(gc_settings_keys[k]) == n && !memcmp(gc_settings_keys[k], key, n))
			return k;
	return -1;
}

/* ---- reading values */

/* Up to max numbers separated by blanks or commas in v; returns how many,
 * or -1 when something is not a finite number or there are more than max. */
static int parse_numbers(const char *v, double *out, int max)
{
	int n = 0;
	const char *p = v;
	for (;;) {
		while (is_blank(*p) || *p == ',')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return -1;
		char *end;
		double x = strtod(p, &end);
		if (end == p || !isfinite(x) || (*end && !is_blank(*end) && *end != ','))
			return -1;
		out[n++] = x;
		p = end;
	}
}

static bool parse_one(const char *v, double lo, double hi, double *out)
{
	double x;
	if (parse_numbers(v, &x, 1) != 1 || x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

static bool parse_int(const char *v, long lo, long hi, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (end == v || *end || x < lo || x > hi)
		return false;
	*out = (int)x;
	return true;
}

static bool parse_size(const char *v, int *w, int *h)
{
	char *end;
	long a = strtol(v, &end, 10);
	if (end == v || (*end != 'x' && *end != 'X'))
		return false;
	const char *p = end + 1;
	long b = strtol(p, &end, 10);
	if (end == p || *end || a < 16 || a > 16384 || b < 16 || b > 16384)
		return false;
	*w = (int)a;
	*h = (int)b;
	return true;
}

/* Sets key k from the value v (NUL-terminated, trimmed, not empty); on a
 * bad value writes the message's "must be ..." part into why. */
static bool set_value(gc_settings *s, int k, const char *v, char *why, size_t cap)
{
	double x[8];
	int n;
	char *dst = str_slot(s, k);
	if (dst) { /* a text key: a path, a name, a URL */
		if (strlen(v) >= GC_PATH_CAP) {
			snprintf(why, cap, "must be a path shorter than %d bytes", GC_PATH_CAP);
			return false;
		}
		strcpy(dst, v);
		return true;
	}
	switch (k) {
	case K_HTTP:
		if (strlen(v) >= sizeof s->http || strspn(v, "0123456789abcdefABCDEF.:[]") != strlen(v)) {
			snprintf(why, cap, "must be [ADDR:]PORT such as 8080 or 0.0.0.0:8080");
			return false;
		}
		strcpy(s->http, v);
		return true;
	case K_PIN:
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c <= ' ' || *c == 0x7f) {
				snprintf(why, cap, "must be letters and digits, no blanks");
				return false;
			}
		if (strlen(v) >= sizeof s->pin) {
			snprintf(why, cap, "must be at most %d characters", (int)sizeof s->pin - 2);
			return false;
		}
		strcpy(s->pin, v);
		return true;
	case K_FRAME_SIZE:
		if (parse_size(v, &s->width, &s->height))
			return true;
		snprintf(why, cap, "must be WIDTHxHEIGHT such as 1280x720 (16 to 16384 each)");
		return false;
	case K_FORMAT:
		for (int f = GC_FORMAT_RGB24; f <= GC_FORMAT_YUV420_LIMITED; f++)
			if (!strcmp(v, gc_format_name((gc_format)f))) {
				s->format = (gc_format)f;
				return true;
			}
		snprintf(why, cap, "must be rgb24, yuv420 or yuv420-limited");
		return false;
	case K_STRIDE:
		if (parse_int(v, 0, 1000000, &s->stride))
			return true;
		snprintf(why, cap, "must be a whole number of bytes from 0 to 1000000");
		return false;
	case K_FPS:
		if (parse_one(v, 0.1, 1000, &s->fps))
			return true;
		snprintf(why, cap, "must be a number of frames per second from 0.1 to 1000");
		return false;
	case K_BOARD: {
		int b;
		if (parse_int(v, 9, 19, &b) && (b == 9 || b == 13 || b == 19)) {
			s->board = b;
			return true;
		}
		snprintf(why, cap, "must be 9, 13 or 19");
		return false;
	}
	case K_CORNERS:
		n = parse_numbers(v, x, 8);
		if (n == 8) {
			memcpy(s->corners, x, sizeof s->corners);
			s->has_corners = true;
			return true;
		}
		snprintf(why, cap, "must be 8 numbers (x y of the grid's corners in pixels, clockwise from the top-left)");
		return false;
	case K_ROTATE: {
		int r;
		if (parse_int(v, 0, 270, &r) && r % 90 == 0) {
			s->rotate = r;
			return true;
		}
		snprintf(why, cap, "must be 0, 90, 180 or 270");
		return false;
	}
	case K_CAMERA:
		n = parse_numbers(v, x, 4);
		/* a real lens: a focal length of 10 to 100000 pixels, the principal
		 * point within 100000 pixels (1e-300 saw nothing and said nothing) */
		if (n == 4 && x[0] >= 10 && x[0] <= 1e5 && x[1] >= 10 && x[1] <= 1e5 && fabs(x[2]) <= 1e5 &&
		    fabs(x[3]) <= 1e5) {
			memcpy(s->camera, x, sizeof s->camera);
			s->has_camera = true;
			return true;
		}
		snprintf(why, cap, "must be 4 numbers fx fy cx cy in pixels (fx and fy from 10 to 100000, cx and cy "
		                   "within 100000)");
		return false;
	case K_DISTORTION:
		n = parse_numbers(v, x, 5);
		for (int k = 0; k < n; k++)
			if (fabs(x[k]) > 1000)
				n = -1; /* no lens bends that much */
		if (n == 4 || n == 5) {
			memset(s->dist, 0, sizeof s->dist);
			memcpy(s->dist, x, sizeof x[0] * (size_t)n);
			s->ndist = n;
			return true;
		}
		snprintf(why, cap, "must be 4 or 5 numbers k1 k2 p1 p2 [k3], each within 1000");
		return false;
	case K_STILL:
		if (parse_one(v, 0, 60, &s->still))
			return true;
		snprintf(why, cap, "must be a number of seconds from 0 to 60");
		return false;
	case K_KOMI:
		if (parse_one(v, -400, 400, &s->komi))
			return true;
		snprintf(why, cap, "must be a number of stones from -400 to 400");
		return false;
	case K_PERSIST:
		if (parse_int(v, 1, 1000, &s->persist))
			return true;
		snprintf(why, cap, "must be a whole number of observations from 1 to 1000");
		return false;
	case K_REPETITION: {
		int r = gr_repetition_rule_parse(v);
		if (r >= 0) {
			s->repetition = (gr_repetition_rule)r;
			return true;
		}
		snprintf(why, cap, "must be forbid, draw, replay or no-result");
		return false;
	}
	}
	return false;
}

/* Sets key k back to its default (an empty value). */
static void set_default(gc_settings *s, int k)
{
	gc_settings d;
	gc_settings_init(&d);
	switch (k) {
	case K_DEVICE: strcpy(s->device, d.device); break;
	case K_FRAME_SIZE: s->width = s->height = 0; break;
	case K_FORMAT: s->format = d.format; break;
	case K_STRIDE: s->stride = 0; break;
	case K_FPS: s->fps = d.fps; break;
	case K_BOARD: s->board = d.board; break;
	case K_CORNERS: s->has_corners = false; memset(s->corners, 0, sizeof s->corners); break;
	case K_ROTATE: s->rotate = 0; break;
	case K_CAMERA: s->has_camera = false; memset(s->camera, 0, sizeof s->camera); break;
	case K_DISTORTION: s->ndist = 0; memset(s->dist, 0, sizeof s->dist); break;
	case K_STILL: s->still = d.still; break;
	case K_KOMI: s->komi = d.komi; break;
	case K_PERSIST: s->persist = d.persist; break;
	case K_REPETITION: s->repetition = d.repetition; break;
	case K_HTTP: s->http[0] = '\0'; break;
	case K_PIN: s->pin[0] = '\0'; break;
	default: str_slot(s, k)[0] = '\0'; break; /* the other text keys */
	}
}

/* One line split: [key_at, key_at + key_len) the key, [val_at, val_end) the
 * value without its comment and blanks, [rest_at, line_len) what follows it
 * (blanks and the comment). kind: 0 blank or comment, 1 key = value, -1 not
 * a setting line. */
typedef struct split_line {
	int kind;
	size_t key_at, key_len, val_at, val_end, rest_at;
} split_line;

static split_line split(const char *line, size_t n)
{
	split_line sl = {0};
	size_t i = 0;
	while (i < n && is_blank(line[i]))
		i++;
	if (i == n || line[i] == '#')
		return sl;
	sl.kind = -1;
	sl.key_at = i;
	while (i < n && !is_blank(line[i]) && line[i] != '=' && line[i] != '#')
		i++;
	sl.key_len = i - sl.key_at;
	while (i < n && is_blank(line[i]))
		i++;
	if (i == n || line[i] != '=' || sl.key_len == 0)
		return sl;
	i++;
	while (i < n && is_blank(line[i]))
		i++;
	sl.val_at = i;
	size_t end = i;
	while (end < n && !(line[end] == '#' && (end == sl.val_at || is_blank(line[end - 1]))))
		end++;
	while (end > sl.val_at && is_blank(line[end - 1]))
		end--;
	sl.val_end = end;
	sl.rest_at = end; /* the blanks before a comment go with it */
	sl.kind = 1;
	return sl;
}

/* 'text' for a message: at most 60 bytes of it. */
static void quote(char *out, size_t cap, const char *s, size_t n)
{
	if (n > 60)
		snprintf(out, cap, "'%.57s...'", s);
	else
		snprintf(out, cap, "'%.*s'", (int)n, s);
}

int gc_settings_parse(gc_settings *s, const char *text, size_t len, gr_error *err)
{
	if (!s || (!text && len))
		return gr_error_set(err, GR_EINVAL, 0, 0, "bad argument");
	int seen[K_COUNT] = {0};
	int lineno = 0;
	size_t pos = 0;
	char value[GC_PATH_CAP + 64], q[80], why[160];
	/* a UTF-8 byte-order mark (some editors write one) is no part of the first key */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n && line[n - 1] == '\r')
			n--;
		if (memchr(line, '\0', n))
			return gr_error_set(err, GR_EPARSE, lineno, 0, "a NUL byte: this is not a settings file");
		split_line sl = split(line, n);
		if (sl.kind == 0)
			continue;
		if (sl.kind < 0) {
			quote(q, sizeof q, line + sl.key_at, n - sl.key_at);
			return gr_error_set(err, GR_EPARSE, lineno, (int)sl.key_at + 1,
			                    "expected 'key = value' (or a # comment), not %s", q);
		}
		int k = key_index(line + sl.key_at, sl.key_len);
		if (k < 0) {
			quote(q, sizeof q, line + sl.key_at, sl.key_len);
			return gr_error_set(err, GR_EPARSE, lineno, (int)sl.key_at + 1,
			                    "unknown setting %s (the settings: device, frame_size, format, stride, fps, "
			                    "board, corners, rotate, camera, distortion, still, komi, persist, "
			                    "repetition, journal, sgf, events, http, pin, mqtt, mqtt_user, mqtt_password, "
			                    "mqtt_cafile, hall, board_id, control_user, page_url)",
			                    q);
		}
		if (seen[k])
			return gr_error_set(err, GR_EPARSE, lineno, (int)sl.key_at + 1,
			                    "%s: given twice (first on line %d)", gc_settings_keys[k], seen[k]);
		seen[k] = lineno;
		size_t vn = sl.val_end - sl.val_at;
		if (vn == 0) {
			set_default(s, k);
			continue;
		}
		if (vn >= sizeof value) {
			return gr_error_set(err, GR_EPARSE, lineno, (int)sl.val_at + 1, "%s: value too long (%zu bytes)",
			                    gc_settings_keys[k], vn);
		}
		memcpy(value, line + sl.val_at, vn);
		value[vn] = '\0';
		if (!set_value(s, k, value, why, sizeof why)) {
			quote(q, sizeof q, value, vn);
			return gr_error_set(err, GR_EPARSE, lineno, (int)sl.val_at + 1, "%s: %s, not %s",
			                    gc_settings_keys[k], why, q);
		}
	}
	if (s->ndist > 0 && !s->has_camera)
		return gr_error_set(err, GR_EPARSE, seen[K_DISTORTION], 0,
		                    "distortion: needs camera (fx fy cx cy) too");
	return GR_OK;
}

/* ---- writing */

typedef struct out {
	char *buf;
	size_t cap, len;
} out;

static void put(out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void puts_(out *o, const char *s)
{
	put(o, s, strlen(s));
}

static size_t finish(out *o)
{
	if (o->cap)
		o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
	return o->len;
}

/* The shortest %g that reads back as x. */
static void put_number(out *o, double x)
{
	char b[40];
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(b, sizeof b, "%.*g", prec, x);
		if (strtod(b, NULL) == x)
			break;
	}
	puts_(o, b);
}

static void put_numbers(out *o, const double *x, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			puts_(o, " ");
		put_number(o, x[i]);
	}
}

/* A path a file can carry: no line break, no '#' at its start or after a
 * blank, no blank at either end. */
static bool carriable(const char *p)
{
	size_t n = strlen(p);
	if (n && (is_blank(p[0]) || is_blank(p[n - 1]) || p[0] == '#'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\n' || p[i] == '\r' || (p[i] == '#' && i > 0 && is_blank(p[i - 1])))
			return false;
	return true;
}

/* Appends key k's value; false when it cannot be carried. */
static bool put_value(out *o, const gc_settings *s, int k)
{
	char b[64];
	const char *v = str_slot((gc_settings *)s, k);
	if (v) {
		puts_(o, v);
		return carriable(v);
	}
	switch (k) {
	case K_HTTP: puts_(o, s->http); return true;
	case K_PIN: puts_(o, s->pin); return carriable(s->pin);
	case K_FRAME_SIZE:
		if (s->width > 0 && s->height > 0) {
			snprintf(b, sizeof b, "%dx%d", s->width, s->height);
			puts_(o, b);
		}
		return true;
	case K_FORMAT: puts_(o, gc_format_name(s->format)); return true;
	case K_STRIDE: snprintf(b, sizeof b, "%d", s->stride); puts_(o, b); return true;
	case K_FPS: put_number(o, s->fps); return true;
	case K_BOARD: snprintf(b, sizeof b, "%d", s->board); puts_(o, b); return true;
	case K_CORNERS:
		if (s->has_corners)
			put_numbers(o, s->corners, 8);
		return true;
	case K_ROTATE: snprintf(b, sizeof b, "%d", s->rotate); puts_(o, b); return true;
	case K_CAMERA:
		if (s->has_camera)
			put_numbers(o, s->camera, 4);
		return true;
	case K_DISTORTION:
		if (s->ndist > 0)
			put_numbers(o, s->dist, s->ndist == 5 ? 5 : 4);
		return true;
	case K_STILL: put_number(o, s->still); return true;
	case K_KOMI: put_number(o, s->komi); return true;
	case K_PERSIST: snprintf(b, sizeof b, "%d", s->persist); puts_(o, b); return true;
	case K_REPETITION: puts_(o, gr_repetition_rule_name(s->repetition)); return true;
	}
	return false;
}

/* Appends "key = value" ("key =" when the value is empty); false when the
 * value cannot be carried. */
static bool put_setting(out *o, const gc_settings *s, int k)
{
	char v[GC_PATH_CAP + 256];
	out vo = {v, sizeof v, 0};
	bool ok = put_value(&vo, s, k);
	finish(&vo);
	puts_(o, gc_settings_keys[k]);
	puts_(o, vo.len ? " = " : " =");
	puts_(o, v);
	return ok && vo.len < sizeof v;
}

size_t gc_settings_format_value(const gc_settings *s, const char *key, char *buf, size_t cap)
{
	int k = key ? key_index(key, strlen(key)) : -1;
	if (k < 0 || !s)
		return (size_t)-1;
	out o = {buf, cap, 0};
	put_value(&o, s, k);
	return finish(&o);
}

size_t gc_settings_write(const gc_settings *s, char *buf, size_t cap)
{
	out o = {buf, cap, 0};
	puts_(&o, "# goref settings: read by goref watch; goref calibrate writes camera and\n"
	          "# distortion (lens), corners and rotate (board) and keeps every other line.\n"
	          "# One 'key = value' a line; '#' starts a comment; an empty value means the\n"
	          "# default.\n");
	static const int groups[] = {K_DEVICE, K_BOARD, K_CAMERA, K_STILL, K_JOURNAL};
	static const char *const titles[] = {"The frames", "The board", "The lens", "The referee",
	                                     "Where the game goes"};
	int g = 0;
	for (int k = 0; k < K_COUNT; k++) {
		if (g < 5 && groups[g] == k) {
			puts_(&o, "\n# --- ");
			puts_(&o, titles[g]);
			puts_(&o, "\n");
			g++;
		}
		puts_(&o, "# ");
		puts_(&o, key_help[k]);
		puts_(&o, "\n");
		if (!put_setting(&o, s, k)) {
			finish(&o);
			return 0;
		}
		puts_(&o, "\n");
	}
	return finish(&o);
}

size_t gc_settings_update(const char *text, size_t len, const gc_settings *s, const char *const *keys, int nkeys,
                          char *buf, size_t cap)
{
	enum { MAXK = 32 };
	int want[MAXK];
	bool done[MAXK] = {false};
	if (!s || nkeys < 0 || nkeys > MAXK || (!text && len))
		return 0;
	for (int i = 0; i < nkeys; i++) {
		want[i] = keys[i] ? key_index(keys[i], strlen(keys[i])) : -1;
		if (want[i] < 0)
			return 0;
	}
	out o = {buf, cap, 0};
	size_t pos = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		put(&o, text, 3); /* a byte-order mark stays where it is */
		pos = 3;
	}
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		size_t full = n + (nl ? 1 : 0);
		pos += full;
		size_t body = n && line[n - 1] == '\r' ? n - 1 : n;
		split_line sl = split(line, body);
		int hit = -1;
		if (sl.kind == 1) {
			int k = key_index(line + sl.key_at, sl.key_len);
			for (int i = 0; i < nkeys && k >= 0; i++)
				if (want[i] == k && !done[i])
					hit = i;
		}
		if (hit < 0) {
			put(&o, line, full);
			continue;
		}
		done[hit] = true;
		put(&o, line, sl.key_at);
		if (!put_setting(&o, s, want[hit])) {
			finish(&o);
			return 0;
		}
		/* the comment and the line end; an empty value had no blank
		 * before its comment (`key = # note`): one goes between them */
		if (sl.rest_at < full && line[sl.rest_at] == '#')
			put(&o, " ", 1);
		put(&o, line + sl.rest_at, full - sl.rest_at);
	}
	bool first = true;
	for (int i = 0; i < nkeys; i++) {
		if (done[i])
			continue;
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= want[j] == want[i];
		if (dup)
			continue;
		if (first && len && text[len - 1] != '\n')
			puts_(&o, "\n");
		first = false;
		if (!put_setting(&o, s, want[i])) {
			finish(&o);
			return 0;
		}
		puts_(&o, "\n");
	}
	return finish(&o);
}
