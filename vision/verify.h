/*
 * goref vision: proof that a grid is the board's before it is reported.
 *
 * The locator fits a lattice to the lines it found; a lattice fitted to the
 * wrong lines (half a cell apart, a table's grain, the lines of only part of
 * the board) can still look tidy. The proof uses evidence the fit did not:
 * on every span of grid line between two points read empty, a thin dark line
 * must show where the lattice puts it. A real grid shows its lines on nearly
 * every open span; a lattice half a cell off, or twice too dense, or running
 * off the board, finds no line on a large share of them.
 */
#ifndef GOREF_VISION_VERIFY_H
#define GOREF_VISION_VERIFY_H

#include <stdbool.h>

#include "image.h"

typedef struct gv_proof {
	int spans;        /* spans judged: both ends read empty, inside the image */
	int spans_lined;  /* of them, those where a line shows */
	int lines;        /* grid lines (of 2N) with at least GV_PROOF_MIN_SPANS judged spans */
	int lines_shown;  /* of them, those with most of their judged spans lined */
	double span_share;/* spans_lined / spans, the lower of the two families of
	                     lines (1 when nothing could be judged) */
	double line_share;/* lines_shown / lines, the lower of the two families */
	double beyond_share; /* the most lined share of spans one cell beyond an
	                        outer line, of the four sides */
	int outer_missing;   /* outer lines judged that do not show */
	int ok;           /* 1: the grid passes (see GV_PROOF_* in tuning.h), 0: it fails */
} gv_proof;

/* How much a thin dark line shows at board point (u, v) of the plane H maps
 * (board -> image pixels), seen across the unit vector (nu, nv) of the
 * plane: the darkest of 2 reach + 1 places `slack` apart across it against
 * its sides `side` away, the brighter of the two, or with both the darker (a
 * ridge: a step such as the board's edge is no line). *contrast gets
 * (sides - line) / sides, *side_grey the sides' grey (0..255; grey is the
 * mean of R, G, B). False when a place falls off the image. */
bool gv_line_contrast(const gv_image *img, const double H[9], double u, double v, double nu, double nv,
                      double slack, int reach, double side, bool both, double *contrast, double *side_grey);

/* Checks the grid H (board (i, j) -> pixels, size lines) against rgb (3
 * channels) with what the classifier read (cells[j * size + i], 0 empty).
 * Returns 0 or GV_EINVAL. */
int gv_prove_grid(const gv_image *rgb, const double H[9], int size, const unsigned char *cells, gv_proof *out);

#endif
