/*
 * goref device: frame sources behind one interface.
 *
 * Every place frames come from (a folder of photos, raw video on a pipe, a
 * camera, a test's fake) is a gd_source, and the frame pipeline sees only
 * this:
 *
 *     gd_source *s = NULL;
 *     char err[256];
 *     if (gd_source_open_dir(&s, "frames", NULL, 0, err, sizeof err) < 0)
 *         ...report err...
 *     gv_image *frame;
 *     double t;
 *     int rc;
 *     while ((rc = gd_source_next(s, &frame, &t, err, sizeof err)) == 1)
 *         ...use frame (RGB, frame->width x frame->height) taken at t s...
 *     if (rc < 0)
 *         ...report err...
 *     gd_source_free(s);
 *
 * Inside, a source is a table of functions (gd_source_ops) and the state
 * they work on, as SQLite's VFS is; gd_source_open_ops makes a source from
 * any such table, which is how the camera module and test fakes plug in.
 *
 * Conventions (as in rules/ and vision/): functions return 0 (or a count)
 * or a negative error code, outputs come first, a message goes into
 * err[0..cap) (err may be NULL); nothing prints, exits or aborts. Frames are
 * numbered from 0, in messages too.
 *
 * Built with vision/ only (GOREF_HAVE_VISION): it reads PNG and JPEG files.
 */
#ifndef GOREF_DEVICE_SOURCE_H
#define GOREF_DEVICE_SOURCE_H

#include <stddef.h>
#include <stdio.h>

#include "image.h"

/* Error codes besides vision's GV_EINVAL, GV_ENOMEM and GV_EREAD (image.h). */
enum {
	GD_EFORMAT = -20, /* input that reads but is wrong: a times file's line,
	                   * a frame cut short, a frame of another size, a time
	                   * going backwards */
	GD_EEMPTY = -21,  /* a folder with no frame in it */
};

/* snprintf into err[0..cap) (nothing when err is NULL or cap 0): the
 * message of an error, for the sources here. */
void gd_errf(char *err, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* The largest frame a source gives, either side (imgio.h's GV_WORK_SIDE):
 * a raw source or a camera of a larger size is refused when opened, a
 * folder's photo over it is an error of gd_source_next (read shrunk, never
 * whole: the error costs no full-size buffer). 48 MB as RGB. */
#define GD_MAX_FRAME_SIDE 4096

/* Frames per second when 0 is given. */
#define GD_DEFAULT_FPS 10.0

typedef struct gd_source gd_source;

/*
 * The next frame. Returns 1 with *frame and *t set, 0 at the end of the
 * input, or a negative code with a message in err.
 *
 * *frame is an RGB image (3 channels, stride == width * 3) owned by the
 * source and valid until the next call of gd_source_next or gd_source_free
 * on s; the caller may change its pixels but not free it. Every frame of a
 * source has the size of the first. *t is the frame's time in seconds,
 * finite and never smaller than the time of the frame before.
 *
 * Once it has returned 0 it keeps returning 0; once it has returned an
 * error it keeps returning that error with the same message (a source does
 * not recover). On 0 or an error *frame is NULL and *t is left alone.
 */
int gd_source_next(gd_source *s, gv_image **frame, double *t, char *err, size_t cap);

/* How many frames the source will give in all, when known (a folder), else
 * -1 (a stream, a camera): for progress reports. */
long gd_source_count(const gd_source *s);

/* What the last frame came from, for messages: a folder's frame's file name
 * (no directory; the folder's path before the first frame), "stdin" or
 * "stream" for raw frames. Valid until the next call on s; never NULL. */
const char *gd_source_name(const gd_source *s);

/* Frees the source and its frame (NULL-safe). It does not close a FILE
 * given to gd_source_open_raw. */
void gd_source_free(gd_source *s);

/*
 * A folder of photos: every regular file whose name ends in .png, .jpg or
 * .jpeg (any case) directly in dir, one frame each. Files starting with a
 * dot are skipped.
 *
 * Order: by strcmp of the file names, except when every name is PREFIX
 * NUMBER EXTENSION with the same PREFIX (possibly empty) and NUMBER all
 * decimal digits ("0.jpg" ... "11.jpg", "frame_2.png", "frame_10.png"):
 * then by the value of NUMBER, and strcmp between equal values
 * ("7.jpg" < "07.jpg" is settled by strcmp).
 *
 * Times, the first that applies:
 *   - times_path (not NULL): that file must exist;
 *   - DIR/times.txt, when it exists;
 *   - frame i at i / fps seconds (fps 0: GD_DEFAULT_FPS).
 * A times file holds one line per frame, "NAME SECONDS": NAME the file name
 * (no directory; it may hold spaces, the last word of the line is the
 * time), SECONDS a finite decimal number. Blank lines and lines whose
 * first non-blank character is '#' are ignored. Every frame must be named
 * exactly once, no other name may appear, and the times must not go
 * backwards in frame order (equal times are allowed). Errors name
 * PATH:LINE (or PATH alone for a frame with no line).
 *
 * PNG files are read with gv_png_read (grey ones become RGB), JPEG files
 * with gv_imread; a file is read when its frame is asked for, so a bad file
 * is an error of gd_source_next (GV_EREAD, naming the file), and so is a
 * photo of another size than the first (GD_EFORMAT).
 *
 * Returns 0, GV_EINVAL (dir NULL, fps negative or not finite), GV_EREAD
 * (dir or times file missing or unreadable), GD_EEMPTY (no photo in dir),
 * GD_EFORMAT (a bad times file) or GV_ENOMEM; *out is NULL on failure.
 */
int gd_source_open_dir(gd_source **out, const char *dir, const char *times_path, double fps,
                       char *err, size_t cap);

/* Layouts of raw frames. */
typedef enum gd_format {
	/* R, G, B bytes, rows stride bytes apart (stride >= width * 3): what
	 * `ffmpeg -f rawvideo -pix_fmt rgb24` writes. */
	GD_RGB24 = 1,
	/* Planar I420 as `rpicam-vid --codec yuv420 -o -` writes: a Y plane of
	 * stride x height bytes, then U then V, each (stride/2) x (height/2);
	 * width, height and stride even, stride >= width. Converted to RGB with
	 * BT.601 full range (Y, U, V all 0..255, as JPEG's sYCC; taken to be
	 * what rpicam-vid's yuv420 output uses, not checked on a Pi yet: if
	 * blacks come out grey, the camera sends limited range):
	 *   R = Y + 1.402 (V-128)
	 *   G = Y - 0.344136 (U-128) - 0.714136 (V-128)
	 *   B = Y + 1.772 (U-128)
	 * in 16-bit fixed point, rounded, clamped to 0..255. */
	GD_YUV420,
	/* The same layout in BT.601 limited range (Y 16..235, U and V 16..240,
	 * as video encoders and many USB cameras use): Y' = 255/219 (Y-16),
	 * chroma scaled by 255/224 before the matrix above. */
	GD_YUV420_LIMITED,
} gd_format;

/* "rgb24" -> GD_RGB24, "yuv420" (or "i420") -> GD_YUV420,
 * "yuv420-limited" -> GD_YUV420_LIMITED; anything else (or NULL) GV_EINVAL. */
int gd_format_parse(const char *s);

/* "WIDTHxHEIGHT" (decimal, 1..32768 each, nothing else; 'X' allowed too)
 * into *width, *height. Returns 0 or GV_EINVAL (outputs untouched). */
int gd_size_parse(const char *s, int *width, int *height);

/*
 * Raw frames of one format and size back to back on f, read until the end
 * of f: frame i at i / fps seconds (fps 0: GD_DEFAULT_FPS). stride is the
 * bytes from one row to the next (0: width * 3 for GD_RGB24, width for the
 * YUV formats; rpicam-vid pads rows), so a frame is stride * height bytes
 * (GD_RGB24) or stride * height + 2 * (stride/2) * (height/2) (YUV). Reading loops over short
 * reads (pipes) and retries when interrupted (EINTR); input that ends
 * inside a frame is a GD_EFORMAT error of gd_source_next ("input ended
 * inside frame N"), a read error GV_EREAD.
 *
 * f stays the caller's: it must stay open while the source is used, and
 * gd_source_free does not close it. gd_source_name says "stdin" when f is
 * stdin, else "stream".
 *
 * Returns 0, GV_EINVAL (f NULL, a bad format, size or stride, fps negative
 * or not finite) or GV_ENOMEM; *out is NULL on failure.
 */
int gd_source_open_raw(gd_source **out, FILE *f, int width, int height, gd_format format,
                       size_t stride, double fps, char *err, size_t cap);

/*
 * A source from a caller's table of functions (the camera module, tests).
 * impl is the implementation's state, handed to every function.
 *
 *   next   required. Returns 1 with *frame (owned by impl, valid until the
 *          next call) and *t, 0 at the end, or a negative code with a
 *          message in err[0..cap) (err is never NULL here, cap > 0). It is
 *          not called again after it returned 0 or an error. gd_source_next
 *          checks what it gives: a frame that is not RGB (3 channels,
 *          stride == width * 3, data not NULL), that changes size, or a
 *          time that is not finite or goes backwards, is an error
 *          (GV_EINVAL for a bad image, GD_EFORMAT otherwise) and ends the
 *          source; a return above 1 is GV_EINVAL.
 *   count  may be NULL (then -1): as gd_source_count.
 *   name   may be NULL (then "source"): as gd_source_name; a NULL return
 *          also gives "source".
 *   free   may be NULL: frees impl and everything it holds.
 *
 * version must be GD_SOURCE_OPS_VERSION; a later version may add functions
 * at the end. The table must outlive the source (a static const table).
 *
 * Returns 0 or GV_EINVAL (a NULL argument, no next, another version),
 * GV_ENOMEM. On success the source owns impl and calls ops->free(impl)
 * from gd_source_free; on failure impl stays the caller's.
 */
#define GD_SOURCE_OPS_VERSION 1

typedef struct gd_source_ops {
	int version;
	int (*next)(void *impl, gv_image **frame, double *t, char *err, size_t cap);
	long (*count)(const void *impl);
	const char *(*name)(const void *impl);
	void (*free)(void *impl);
} gd_source_ops;

int gd_source_open_ops(gd_source **out, const gd_source_ops *ops, void *impl, char *err, size_t cap);

/*
 * Converts one I420 frame to RGB: y is width x height with ystride bytes a
 * row, u and v (width/2) x (height/2) with cstride; width and height even;
 * out is RGB24 of width x height (out->stride any >= width * 3). limited
 * selects BT.601 limited range instead of full range (see GD_YUV420).
 * Exposed for the camera module and for measuring; no checks beyond
 * GV_EINVAL on NULL or mismatched sizes.
 */
int gd_yuv420_to_rgb(gv_image *out, const unsigned char *y, size_t ystride, const unsigned char *u,
                     const unsigned char *v, size_t cstride, int limited);

#endif
