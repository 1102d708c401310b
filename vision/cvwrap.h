/*
 * goref vision: the one door to OpenCV.
 *
 * vision/cvwrap.cpp is the vision's only C++ file (the lens calibration has
 * its own, calib/cvcalib.cpp, for calib3d: cvcalib.h). Every function here
 * catches every exception OpenCV (or the C++ library) may raise and returns a
 * GV_E* code (image.h) with a message copied into err[0..cap) (err may be
 * NULL); no exception ever crosses into C. Images are gv_image buffers,
 * wrapped without a copy. Output images are allocated with malloc inside the
 * wrapper (free them with gv_image_free) unless said otherwise; on failure an
 * output image is left zeroed.
 */
#ifndef GOREF_VISION_CVWRAP_H
#define GOREF_VISION_CVWRAP_H

#include <stddef.h>

#include "image.h"
/* gv_imread and gv_imwrite, which were here while OpenCV read the files */
#include "imgio.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenCV's worker threads: n = 1 keeps every call on the calling thread
 * (what "one core" means in the figures). Returns 0 or GV_ECV. */
int gv_cv_threads(int n, char *err, size_t cap);

/* Resizes src (1 or 3 channels) to width x height (area averaging when
 * shrinking, bilinear when enlarging). No vision code shrinks through it
 * any more (gv_shrink_area, image.h, gives the same pixels without
 * OpenCV): test_vision_imgio keeps it as that function's reference. */
int gv_cv_resize(const gv_image *src, gv_image *out, int width, int height, char *err, size_t cap);

/* RGB to grey (1 channel). A grey src is copied. */
int gv_cv_grey(const gv_image *src, gv_image *out, char *err, size_t cap);

/* Gaussian blur with the given sigma (kernel size from sigma); any channels. */
int gv_cv_blur(const gv_image *src, gv_image *out, double sigma, char *err, size_t cap);

/* Canny edges of a grey image (255 on an edge, 0 elsewhere). */
int gv_cv_canny(const gv_image *grey, gv_image *out, double lo, double hi, char *err, size_t cap);

/* Probabilistic Hough segments of a binary image: up to max segments as
 * x0 y0 x1 y1 (floats) into segs; *count receives how many. */
int gv_cv_hough(const gv_image *edges, double rho, double theta, int threshold, double min_len,
                double max_gap, float *segs, int max, int *count, char *err, size_t cap);

/* out(x, y) = src(M^-1 (x, y)) for the homography M (3x3 row-major) that
 * takes src pixels to out pixels; out is width x height with src's channels,
 * bilinear, the outside black. */
int gv_cv_warp(const gv_image *src, const double M[9], gv_image *out, int width, int height,
               char *err, size_t cap);

/* Resamples src into out (allocated, of src's channels) through a map in
 * remap's fixed point, one entry per pixel of out: xy[2 * p], xy[2 * p + 1]
 * the whole pixel of src, frac[p] its 1/32 fractions (y * 32 + x); bilinear,
 * 0 outside src. undistort.c makes the maps. */
int gv_cv_remap(const gv_image *src, const short *xy, const unsigned short *frac, gv_image *out, char *err,
                size_t cap);

/* Drawing on img in place (1 or 3 channels; rgb[0..2], grey uses rgb[0]),
 * anti-aliased, thickness in pixels (-1 fills a circle). */
int gv_cv_line(gv_image *img, double x0, double y0, double x1, double y1, const unsigned char rgb[3],
               int thickness, char *err, size_t cap);
int gv_cv_circle(gv_image *img, double x, double y, double radius, const unsigned char rgb[3],
                 int thickness, char *err, size_t cap);

/* Draws text (ASCII, OpenCV's simplex font) centred on (x, y), capitals
 * height pixels tall, on img in place (1 or 3 channels), anti-aliased. */
int gv_cv_text(gv_image *img, double x, double y, const char *text, double height, const unsigned char rgb[3],
               int thickness, char *err, size_t cap);

/* The largest bright region of a grey image (Otsu's threshold, small holes
 * closed) as a quadrilateral: its convex hull simplified to four corners,
 * clockwise from the one nearest the top-left; *share (may be NULL) its area
 * over the image's. GV_ENOTFOUND when it is no quadrilateral. With pieces
 * > 0 the hull takes in every other bright region of at least that share
 * of the largest one's area too, and there is none: GV_ENOTFOUND. mode 0,
 * or one of GV_QUAD_DARK and GV_QUAD_DARK_TOP, with GV_QUAD_SIDES added or
 * not. */
int gv_cv_bright_quad(const gv_image *grey, double pieces, int mode, double quad[8], double *share, char *err,
                      size_t cap);
/* The same round the largest region darker than Otsu's threshold (a board
 * darker than the floor or table it lies on, with its front face). */
#define GV_QUAD_DARK 1
/* The same round the largest part of that region (filled) brighter than
 * Otsu's threshold over its own pixels (the board's top, its front face in
 * shade cut away). */
#define GV_QUAD_DARK_TOP 2
/* Each side of the quadrilateral again the longest straight run of the
 * region's edge near it (a bowl or a lid touching the region bulges its
 * hull, not the board's edge); GV_ENOTFOUND where a side has none over a
 * third of its length. */
#define GV_QUAD_SIDES 4

#ifdef __cplusplus
}
#endif

#endif
