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

#include <stdbool.h>

#include "image.h"

/* cells[j * size + i] receives GR_EMPTY (0), GR_BLACK (1) or GR_WHITE (2)
 * for intersection (i, j); conf[j * size + i] (may be NULL) a confidence in
 * [0, 1] (1: sure). rgb is a 3-channel image. Returns 0, GV_EINVAL for a bad
 * argument (size not 2..19, H that sends the grid off the image), or
 * GV_ENOMEM. */
int gv_classify(const gv_image *rgb, const double H[9], int size, unsigned char *cells, float *conf);

/* The arguments every classifier takes (classify.c, cnn.c): a 1- or
 * 3-channel image, size 2..19, and H sending every intersection into the
 * image (within half a pixel). 0 or GV_EINVAL. */
int gv_classify_check(const gv_image *rgb, const double H[9], int size);
/* A photo with more than GV_DOUBT_SHARE of its n points under 0.5 has no
 * sure point: every confidence is capped at GV_DOUBT_CAP (tuning.h). */
void gv_classify_doubt(float *conf, int n);

/* What gv_classify measures at one intersection, all relative to the board
 * around it (for diagnostics and tests). */
typedef struct gv_point_features {
	float bright; /* log of the point's brightness over the local board's */
	float dark;   /* log brightness of the second darkest quadrant over the board's */
	float line;   /* contrast of the grid lines through the point (over the board's brightness) */
	float yellow; /* the point's yellowness minus the board's (wood is yellow, stones are grey) */
	float board;  /* the local board brightness (0..255) */
	/* The best placement of a stone near the point (stones stand a little
	 * off their points; seen at an angle, their tops more so): */
	float black;  /* black evidence: minus the log brightness ratio of the third darkest quadrant */
	float white;  /* white evidence: the second least white quadrant's whiteness */
	float black0, white0; /* the same with the stone right on the point */
	float pu, pv; /* where a stone's middle is expected from the camera's angle (offset in cells) */
	float around; /* least whiteness of the centres of the squares touching the point (glare, a hand) */
	float beyond; /* an edge point: the white evidence past the board's edge, GV_BEYOND_CELLS out (a hand
	                 or a sleeve reaching over the edge goes on there, a stone does not); 0 elsewhere */
	float bu, bv; /* offset (in cells) of the best black placement */
	float wu, wv; /* offset of the best white placement */
	float wc[3];  /* the colour at the best white placement (the mean of its four patches), channel
	                 by channel (R, G, B): the log of its ratio to the board's colour there (a
	                 coloured light's cast cancels; gv_classify_colours judges them against this
	                 photo's own stones and wood) */
	bool outside; /* gv_classify_features_within: a stone here would reach beyond the image;
	                 nothing above is measured (gv_classify_decide reads it empty, confidence 0) */
} gv_point_features;

/* The features of every intersection (f[j * size + i]); same errors as
 * gv_classify. */
int gv_classify_features(const gv_image *rgb, const double H[9], int size, gv_point_features *f);
/* The same for the points where redo[j * size + i] is true only (all when
 * redo is NULL); the others keep the features feat holds (the caller's
 * from an earlier frame with the same grid). The board's model is measured
 * anew each time, so a few points cost a fraction of the whole. */
int gv_classify_features_update(const gv_image *rgb, const double H[9], int size, gv_point_features *f,
                                const bool *redo);
/* The same for a grid that may reach beyond the image (a camera that moved
 * the board partly out of the frame): a point whose stone would reach
 * beyond the image gets outside set and nothing measured, and the board's
 * colour is judged on the squares inside only. GV_EINVAL when fewer than
 * GV_INSIDE_MIN of the points lie inside (tuning.h), or for the other bad
 * arguments of gv_classify_features_update. With every point inside, the
 * same features as gv_classify_features_update. */
int gv_classify_features_within(const gv_image *rgb, const double H[9], int size, gv_point_features *f,
                                const bool *redo);
/* gv_classify's decision from the features gv_classify_features measured
 * (gv_classify is the two in a row): for a caller that looks at the
 * features too. GV_EINVAL for a bad argument, or GV_ENOMEM. */
int gv_classify_decide(const gv_point_features *f, int size, unsigned char *cells, float *conf);

/* A second look at a reading of gv_classify_decide (cells, conf) by the
 * photo's own white stones and wood, told apart by colour: the colour of
 * each point's best white placement (f[].wc, three channels) over the
 * points read white or empty is taken for a mixture of two normal
 * populations, each with its own spread (expectation-maximisation from
 * that reading, at most GV_PHOTO_ROUNDS rounds; a point read surely, 0.9
 * or more, holds its kind throughout, so the photo's sure stones and wood
 * anchor the two). Every point read white or empty that is not sure then
 * takes the kind more likely for its colour, only where its colour is
 * typical of that kind (within GV_PHOTO_TYPICAL, a squared distance in the
 * kind's own spread: glare on the wood is whiter than the white stones,
 * and no wood either), and not where it looks like glare (a point read
 * empty with GV_PHOTO_HOLD or more beside squares as white as a stone,
 * whose lines show more than on every white stone read surely, with
 * GV_PHOTO_MIN of those). Under a coloured light the channel that tells
 * stones from wood is the light's own (blue, green, the red of pink...),
 * and packed white stones seen at an angle, whose bodies cover the squares
 * around them (gv_classify_decide doubts them), are as white as the
 * photo's other stones; where a third of the open points are first read
 * white (blue or violet light), the mixture still finds the two kinds,
 * which a cut fitted to that reading's own examples did not. A point
 * whose colour changes keeps the smaller of its confidence and the
 * mixture's (how much likelier the kind it takes: 0 even, 1 sure): no
 * point becomes sure. Where fewer than GV_PHOTO_MIN points are read
 * white and the lines show plainly on those read empty, the points whose
 * lines are hidden count among the white ones at first. Nothing changes
 * with fewer than GV_PHOTO_MIN points of either kind then, or two kinds
 * closer than GV_PHOTO_APART (their
 * Bhattacharyya distance). Black points, points outside, and points whose
 * colour is not a finite number are left as they are.
 *
 * For a grid known to be the board's only (given corners, a grid that
 * passed its proof): on a lattice off the board's lines its examples are
 * no wood and no stones, and what it decides makes a wrong lattice read
 * tidier (the proof reads through gv_classify_decide alone). gv_detect
 * applies it (the hand-made classifier alone); the frame pipeline does not
 * yet (README: the photo's own colours). 0, or GV_EINVAL for a bad
 * argument. */
int gv_classify_colours(const gv_point_features *f, int size, unsigned char *cells, float *conf);

#endif
