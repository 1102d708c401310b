/*
 * goref calib: the lens, from photos of a chessboard.
 *
 * Print a chessboard (9x6 inner corners: 10 by 7 squares, the usual OpenCV
 * pattern), glue it flat, and take a dozen photos with the camera that will
 * watch the games, at its working size: the pattern near the middle and
 * near every corner and edge of the view, straight on and tilted. Each photo
 * is searched for the pattern (findChessboardCorners, refined with
 * cornerSubPix); OpenCV's calibrateCamera fits the pinhole camera matrix and
 * the distortion coefficients to every photo in which it was found.
 *
 * A calibration is built one photo at a time (a photo need not be kept in
 * memory after gc_lens_add). Built only with vision/.
 */
#ifndef GOREF_CALIB_LENS_H
#define GOREF_CALIB_LENS_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

#define GC_LENS_MIN_VIEWS 3 /* photos with the pattern found, at least */

typedef struct gc_lens_opts {
	int cols, rows;  /* the pattern's inner corners across and down (0: 9 and 6) */
	double square;   /* a square's side in mm (0: 25); the lens does not depend on it */
	bool k3;         /* fit k3 too (wide lenses); else k1 k2 p1 p2, k3 held at 0 */
} gc_lens_opts;

typedef struct gc_lens {
	int width, height;  /* the photos' size: the calibration holds for it */
	double K[9];        /* camera matrix, row-major: fx 0 cx / 0 fy cy / 0 0 1 */
	double dist[5];     /* k1 k2 p1 p2 k3 */
	int ndist;          /* 4, or 5 with k3 */
	double rms;         /* RMS reprojection error, pixels */
	int views;          /* photos used */
} gc_lens;

typedef struct gc_lens_views gc_lens_views;

/* A calibration with no photo yet (opts NULL: the defaults). Returns 0,
 * GV_EINVAL (a pattern under 2x2 or over 100x100) or GV_ENOMEM. */
int gc_lens_views_new(gc_lens_views **out, const gc_lens_opts *opts);
void gc_lens_views_free(gc_lens_views *v);

/* Looks for the pattern in one photo (RGB or grey) and keeps its corners.
 * Returns 1 when it was found, 0 when not, GV_EINVAL when the photo's size
 * differs from the first photo's (the message gives both), or GV_ENOMEM /
 * GV_ECV; a message in err[0..cap) on error. */
int gc_lens_add(gc_lens_views *v, const gv_image *img, char *err, size_t cap);

/* Photos given so far, and those in which the pattern was found. */
int gc_lens_count(const gc_lens_views *v);
int gc_lens_found(const gc_lens_views *v);

/* Fits the lens to the photos with the pattern. Returns 0, GV_ENOTFOUND
 * when fewer than GC_LENS_MIN_VIEWS photos show it, or GV_ECV (OpenCV could
 * not fit: the views are too alike), with a message in err[0..cap). */
int gc_lens_solve(const gc_lens_views *v, gc_lens *out, char *err, size_t cap);

#endif
