/*
 * goref vision: what stands on each point of a located grid.
 *
 * Given the photo and the homography H from board coordinates to image
 * pixels (geom.h: intersection (i, j) is the board point (i, j), row 0 the
 * edge nearest the top of the image), decide for every intersection whether
 * it is empty, or holds a black or a white stone, with a confidence.
 * Parameters hold across cameras and lights: nothing is tuned per photo.
 */
#ifndef GOREF_VISION_CLASSIFY_H
#define GOREF_VISION_CLASSIFY_H

#include "image.h"

/* cells[j * size + i] receives GR_EMPTY (0), GR_BLACK (1) or GR_WHITE (2)
 * for intersection (i, j); conf[j * size + i] (may be NULL) a confidence in
 * [0, 1] (1: sure). rgb is a 3-channel image. Returns 0, GV_EINVAL for a bad
 * argument (size not 2..19, H that sends the grid off the image), or
 * GV_ENOMEM. */
int gv_classify(const gv_image *rgb, const double H[9], int size, unsigned char *cells, float *conf);

#endif
