/*
 * goref vision: line segments in a binary image, the progressive
 * probabilistic Hough transform (Matas, Galambos and Kittler 2000) as
 * OpenCV's HoughLinesP does it: the same random order (OpenCV's RNG with
 * its seed), the same fixed-point walk along a line, the same segments, in
 * the same order (test_vision_locate compares the two on drawn and real
 * line images). Written out in C so that the vote, most of its cost, runs
 * four angles at a time; and so that the locator needs no OpenCV for it.
 */
#ifndef GOREF_VISION_HOUGH_H
#define GOREF_VISION_HOUGH_H

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Segments of the set pixels of bin (1 channel, non-zero = set): rho and
 * theta the accumulator's steps (pixels, radians), threshold the votes a
 * line needs, min_len the shortest segment kept, max_gap the longest run of
 * unset pixels a segment bridges (both rounded to whole pixels, as OpenCV).
 * Writes at most max segments x0 y0 x1 y1 into segs and their number into
 * *count (more are found and dropped, as cvwrap's gv_cv_hough did). Returns
 * 0, GV_EINVAL or GV_ENOMEM. */
int gv_hough_segments(const gv_image *bin, double rho, double theta, int threshold, double min_len, double max_gap,
                      float *segs, int max, int *count);

#ifdef __cplusplus
}
#endif

#endif
