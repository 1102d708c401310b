/*
 * goref vision: a photo in, the board as seen out.
 *
 * gv_detect = gv_locate (locate.h: the grid, no clicks) + gv_classify
 * (classify.h: what stands on every point). When a calibration is given
 * (camera matrix K and distortion coefficients), the photo is undistorted
 * first and the corners and H refer to the undistorted image. With corners
 * given (clicked by a person) the locator is not run: the classifier reads
 * the grid they span. A grid the locator found is reported only when it
 * passes its proof (verify.h): GV_ENOTFOUND otherwise.
 */
#ifndef GOREF_VISION_DETECT_H
#define GOREF_VISION_DETECT_H

#include <stddef.h>

#include "image.h"
#include "verify.h"

struct gv_grid;

/* A point that cannot be seen (a hand, a sleeve, a sheet of paper over it):
 * the value a reader of cells must expect besides the three colours; never
 * counted as a colour. (gv_detect does not yet report it: telling a covered
 * point from an empty one in a single photo failed on steep views, where
 * neighbouring stones hide an empty point's lines too.) */
#define GV_UNKNOWN 3

typedef struct gv_detect_opts {
	int size;           /* 9, 13 or 19 (0 means 19) */
	int work_px;        /* the locator's working size (0: its default) */
	const double *K;    /* 3x3 camera matrix, row-major, or NULL */
	const double *dist; /* ndist distortion coefficients (OpenCV's model) */
	int ndist;
	const double *corners; /* the grid's four corners given by a person (x y
	                          clockwise from the top-left, in the image after
	                          undistortion), or NULL to locate the grid */
	int keep_corners;      /* nonzero: read the grid the corners span as
	                          given; 0: polish them first on the lines near
	                          them (gv_refine_corners, outline.h) */
	int classifier;        /* GV_CLASSIFIER_RULES, _CNN or _BOTH (cnn.h); 0:
	                          GV_CLASSIFIER (tuning.h) */
	const struct gv_cnn *cnn; /* the network's weights, NULL: the built-in */
	void (*trace)(const char *line, void *ud); /* the locator's steps, or NULL */
	void *trace_ud;
	const char *dump_png;  /* the locator's line image written there, or NULL */
	struct gv_grid *located; /* when not NULL: the line locator's grid as it
	                            found it, before any proof (what gv_locate
	                            returns, for a caller that would run it
	                            next), its size 0 when the locator found
	                            none or did not run (corners given) */
} gv_detect_opts;

typedef struct gv_detection {
	int size;
	double H[9];              /* board (i, j) -> pixels (geom.h) */
	double corners[8];        /* grid corners clockwise from the top-left */
	unsigned char cells[19 * 19]; /* cells[j * size + i]: 0 empty, 1 black, 2 white,
	                                 GV_UNKNOWN: not seen (under a hand, a sheet) */
	float conf[19 * 19];      /* confidence per point, 0..1 */
	double support;           /* the locator's share of grid lines seen */
	double residual;          /* the locator's line residual (working pixels) */
	gv_proof proof;           /* the grid checked against lines it was not fitted to */
} gv_detection;

/* Returns 0, GV_EINVAL, GV_ENOMEM, GV_ECV, or GV_ENOTFOUND (no board),
 * with a message in err[0..cap) on failure. rgb has 3 channels. */
int gv_detect(gv_detection *out, const gv_image *rgb, const gv_detect_opts *opts, char *err, size_t cap);

#endif
