/*
 * goref calib: the settings file that `goref watch` reads and `goref
 * calibrate` writes.
 *
 * One human-readable text file, one `key = value` a line. A line whose first
 * non-blank character is `#` is a comment, and so is the rest of a line from
 * a `#` that follows a blank (`fps = 10  # the camera's rate`); blank lines
 * are ignored; spaces around the key and the value are not part of them. An
 * empty value (`corners =`) means the default. Every key at most once; an
 * unknown key is an error (a misspelt setting must not be silently ignored).
 *
 *   key         value                                         default
 *   device      a V4L2 device, or - for raw frames on stdin     /dev/video0
 *   frame_size  WIDTHxHEIGHT (the camera's size, or the raw     (the camera's)
 *               frames' size with -)
 *   format      rgb24 | yuv420 | yuv420-limited (raw frames)    rgb24
 *   stride      bytes from one raw row to the next              (not padded)
 *   fps         frames per second, 0.1 to 1000                  10
 *   board       9 | 13 | 19                                     19
 *   corners     8 numbers: the grid's corners x y in pixels,    (found by itself)
 *               clockwise from the top-left of the image (of the
 *               undistorted image when camera is set)
 *   rotate      0 | 90 | 180 | 270: clockwise turns that bring   0
 *               the camera's view to the players' (Black's side
 *               at the bottom)
 *   camera      fx fy cx cy (pixels)                            (none)
 *   distortion  k1 k2 p1 p2 [k3] (OpenCV's model; needs camera) (none)
 *   still       seconds of stillness before a reading, 0 to 60  0.3
 *   komi        stones, -400 to 400                             3.75
 *   persist     observations a change must last, 1 to 1000      2
 *   repetition  forbid | draw | replay | no-result              forbid
 *   journal     path of the observation log written as made     (none)
 *   sgf         path of the game record                         (none)
 *   events      path of the events (JSON lines)                 (none)
 *   http        [ADDR:]PORT of the web page (goref watch)       (no page)
 *   pin         the operator's PIN for the page's buttons       (one made at start)
 *   mqtt        a hall's MQTT broker, HOST[:PORT] (issue 16)     (none)
 *   mqtt_user, mqtt_password   the board's login on the broker  (none)
 *   mqtt_cafile the CA of the broker's certificate: TLS         (plain)
 *   hall        the hall's name (a topic level)                 (none)
 *   board_id    this board's id in the hall (a topic level)     (none)
 *   control_user the broker user whose actions are taken        (none)
 *   page_url    this board's page, for the director's tile      (none)
 *
 * Pure C11 (rules/ only, no OpenCV). Like rules/, nothing here prints.
 */
#ifndef GOREF_CALIB_SETTINGS_H
#define GOREF_CALIB_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "util.h"

#define GC_PATH_CAP 512 /* bytes of a path value, with its NUL */

typedef enum gc_format {
	GC_FORMAT_RGB24 = 0,
	GC_FORMAT_YUV420,         /* full range */
	GC_FORMAT_YUV420_LIMITED, /* 16..235 */
} gc_format;

typedef struct gc_settings {
	char device[GC_PATH_CAP];   /* "/dev/video0", or "-" */
	int width, height;          /* frame_size; 0 and 0: the camera's default */
	gc_format format;
	int stride;                 /* 0: rows not padded */
	double fps;
	int board;                  /* 9, 13 or 19 */
	bool has_corners;
	double corners[8];          /* x y clockwise from the top-left */
	int rotate;                 /* degrees: 0, 90, 180 or 270 */
	bool has_camera;
	double camera[4];           /* fx fy cx cy */
	int ndist;                  /* 0 (none), 4 or 5 */
	double dist[5];             /* k1 k2 p1 p2 k3 (k3 0 when ndist is 4) */
	double still;               /* seconds */
	double komi;                /* stones */
	int persist;
	gr_repetition_rule repetition;
	char journal[GC_PATH_CAP];  /* "" = none */
	char sgf[GC_PATH_CAP];
	char events[GC_PATH_CAP];
	char http[64];              /* "" = no web page */
	char pin[64];               /* "" = one made at start */
	char mqtt[GC_PATH_CAP];          /* "" = no hall */
	char mqtt_user[GC_PATH_CAP];
	char mqtt_password[GC_PATH_CAP];
	char mqtt_cafile[GC_PATH_CAP];
	char hall[GC_PATH_CAP];
	char board_id[GC_PATH_CAP];
	char control_user[GC_PATH_CAP];
	char page_url[GC_PATH_CAP];
} gc_settings;

/* Fills s with the defaults. */
void gc_settings_init(gc_settings *s);

/* Reads a settings file's text (not NUL-terminated; len bytes) into s, over
 * what s holds: call gc_settings_init first for the defaults, and keys
 * absent from the text keep their value. Returns 0, or GR_EPARSE with
 * err->line the line at fault, err->column where its value starts, and a
 * message that names the key ("still: must be a number of seconds from 0 to
 * 60, not 'abc'"), an unknown key, or a key given twice. On error s may be
 * partly changed. */
int gc_settings_parse(gc_settings *s, const char *text, size_t len, gr_error *err);

/* The names of the keys, in the order of the table above; NULL-terminated. */
extern const char *const gc_settings_keys[];

/* Writes the value of one key as it appears in a file (no newline) into
 * buf[0..cap), NUL-terminated when cap > 0. Returns the length of the full
 * value (as snprintf: cut short when >= cap), or (size_t)-1 when key is
 * unknown. */
size_t gc_settings_format_value(const gc_settings *s, const char *key, char *buf, size_t cap);

/* Writes a whole settings file for s: every key, each with a comment that
 * says what it is, so that gc_settings_parse reads the same values back.
 * Returns the length of the full text (as snprintf: cut short when >= cap),
 * or 0 when s holds a path that a file cannot carry (a line break, a '#'
 * after a blank, blanks at either end). */
size_t gc_settings_write(const gc_settings *s, char *buf, size_t cap);

/* Rewrites an existing file's text with the values of the nkeys keys named
 * from s, and every other line as it was (comments, other keys, the order):
 * a key's line gets its new value (a comment at its end is kept), and a key
 * the text lacks is added at the end. Returns the length of the full new
 * text (as snprintf), or 0 when a key is unknown or a value cannot be
 * carried (see gc_settings_write). */
size_t gc_settings_update(const char *text, size_t len, const gc_settings *s, const char *const *keys, int nkeys,
                          char *buf, size_t cap);

/* The 3x3 camera matrix (row-major) of s->camera. */
void gc_settings_camera_matrix(const gc_settings *s, double K[9]);

/* "rgb24", "yuv420", "yuv420-limited". */
const char *gc_format_name(gc_format f);

#endif
