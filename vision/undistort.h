/*
 * goref vision: undoing the lens's distortion (OpenCV's pinhole model).
 *
 * The map from each pixel of the undistorted picture to the point of the
 * photo it comes from is computed here, in C, the way OpenCV's
 * initUndistortRectifyMap does (the same model and fixed-point form; as
 * OpenCV vectorises the arithmetic, a coordinate might round the other way
 * now and then: on two photos of ../shared/datasets, 1.2 and 0.9 MP, every
 * value came out as cv::undistort's); the picture is then
 * resampled through it with OpenCV's remap (vision/cvwrap.cpp), bilinear, 0
 * outside the photo. So the vision needs no calib3d module: only the lens
 * calibration (calib/cvcalib.cpp) does.
 */
#ifndef GOREF_VISION_UNDISTORT_H
#define GOREF_VISION_UNDISTORT_H

#include <stddef.h>

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The distorted point (photo pixels) that the undistorted pixel (u, v)
 * shows: K is the 3x3 camera matrix (row-major; the same for both
 * pictures), dist the ndist coefficients k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2
 * s3 s4]]] (ndist 4, 5, 8 or 12). */
void gv_distort_point(const double K[9], const double *dist, int ndist, double u, double v, double *x,
                      double *y);

/* Undoes lens distortion: the output keeps src's size and camera matrix.
 * ndist 4, 5, 8 or 12 (OpenCV's 14, a tilted sensor, is not supported:
 * GV_EINVAL with a message). Returns 0, GV_EINVAL, GV_ENOMEM or GV_ECV. */
int gv_undistort(const gv_image *src, const double K[9], const double *dist, int ndist, gv_image *out, char *err,
                 size_t cap);

/* The same for every frame of a camera, fast: the map for width x height
 * frames is made once (new) and applied per frame (apply: out must be
 * allocated, of the frames' size and channels). Returns 0, GV_EINVAL,
 * GV_ENOMEM or GV_ECV. */
typedef struct gv_undistorter gv_undistorter;
int gv_undistorter_new(gv_undistorter **out, const double K[9], const double *dist, int ndist, int width,
                       int height, char *err, size_t cap);
int gv_undistorter_apply(const gv_undistorter *u, const gv_image *src, gv_image *out, char *err, size_t cap);
void gv_undistorter_free(gv_undistorter *u);

#ifdef __cplusplus
}
#endif

#endif
