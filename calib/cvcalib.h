/*
 * goref calib: the door to OpenCV's calib3d module, for the lens
 * calibration only (calib/lens.c). calib/cvcalib.cpp is, with
 * vision/cvwrap.cpp, one of the project's two C++ files, and the only one
 * that needs calib3d (with features2d, flann, LAPACK and BLAS behind it):
 * the vision commands that do not calibrate a lens (goref-detect) do not
 * load it. The same rules as cvwrap.h: every exception caught and returned
 * as a GV_E* code with a message in err[0..cap) (err may be NULL).
 */
#ifndef GOREF_CALIB_CVCALIB_H
#define GOREF_CALIB_CVCALIB_H

#include <stddef.h>

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the inner corners of a chessboard of cols x rows inner corners (a
 * board of (cols+1) x (rows+1) squares; OpenCV's patternSize) in img (1 or 3
 * channels) and refines them to a fraction of a pixel (cornerSubPix). Large
 * photos are searched shrunk and refined at full size. pts receives
 * cols * rows points x y (pixels), row by row in OpenCV's order; *found is 1
 * when the whole pattern was found, 0 (and no error) when it was not. */
int gv_cv_chessboard(const gv_image *img, int cols, int rows, double *pts, int *found, char *err, size_t cap);

/* OpenCV's calibrateCamera over nviews views of a flat pattern of npts
 * points a view: obj[2 * k] x y of point k on the pattern (z = 0, the same in
 * every view), img[2 * (v * npts + k)] its x y in view v; all views width x
 * height pixels. ndist 4 fits k1 k2 p1 p2 (k3 held at 0), 5 fits k3 too.
 * K receives the 3x3 camera matrix (row-major), dist[0..5) k1 k2 p1 p2 k3,
 * *rms the RMS reprojection error in pixels. */
int gv_cv_calibrate(const double *obj, const double *img, int npts, int nviews, int width, int height, int ndist,
                    double K[9], double dist[5], double *rms, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
