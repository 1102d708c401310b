/*
 * goref vision: plane geometry of the board.
 *
 * The grid is modelled in board coordinates: the intersection in column i and
 * row j (0..N-1, row 0 the top edge of the image's view, column 0 its left)
 * is the point (i, j). A homography H (3x3, row-major, H[8] normalised to 1)
 * maps board coordinates to image pixels (x right, y down; pixel centres are
 * whole numbers, the top-left pixel's centre is (0, 0), as in OpenCV).
 * Because the grid is fitted through a homography, the
 * real board's rectangular cells (2.3-2.4 cm across by 2.45-2.55 cm along,
 * article 32) and the camera's perspective are both part of H; nothing here
 * assumes square cells.
 */
#ifndef GOREF_VISION_GEOM_H
#define GOREF_VISION_GEOM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* Maps (x, y) through H; returns false (and 0, 0) when the point maps to
 * infinity. */
static inline bool gv_h_apply(const double H[9], double x, double y, double *ox, double *oy)
{
	/* inline: the classifier calls it some 300,000 times a photo */
	double w = H[6] * x + H[7] * y + H[8];
	if (fabs(w) < 1e-12) {
		*ox = *oy = 0; /* defined, for the callers that test only later */
		return false;
	}
	*ox = (H[0] * x + H[1] * y + H[2]) / w;
	*oy = (H[3] * x + H[4] * y + H[5]) / w;
	return true;
}

/* The homography that takes src[k] to dst[k] for four point pairs
 * (src/dst: x0 y0 x1 y1 x2 y2 x3 y3). Returns false when the points are
 * degenerate (three on a line). */
bool gv_h_from_4(const double src[8], const double dst[8], double H[9]);

/* Least squares over n >= 4 point pairs (normalised DLT). Returns false when
 * degenerate. */
bool gv_h_fit(const double *src, const double *dst, int n, double H[9]);

/* C = A B for 3x3 matrices (C may be A or B). */
void gv_h_mul(const double A[9], const double B[9], double C[9]);

/* The inverse of H; false when H is singular. */
bool gv_h_invert(const double H[9], double Hinv[9]);

/* The homography from board coordinates of an N-line grid to the image for
 * four grid corners in the image, clockwise from the top-left:
 * corners = x y of (0,0), (N-1,0), (N-1,N-1), (0,N-1). */
bool gv_h_from_corners(const double corners[8], int size, double H[9]);

/* The four grid corners in the image (clockwise from the top-left) for H. */
void gv_h_corners(const double H[9], int size, double corners[8]);
/* A grid's mean cell side in pixels: its four sides' lengths (corners
 * clockwise, x y each) over 4 (size - 1). */
double gv_corners_cell(const double corners[8], int size);
/* The same at the grid's shortest side: its length over size - 1 (the
 * smallest cells, seen farthest from the camera). */
double gv_corners_cell_min(const double corners[8], int size);
/* The cell at corner k (0 top-left, clockwise) of the grid the corners
 * span: the mean of its two sides from that corner, in pixels (a near
 * corner's cells, seen at an angle, are larger than a far one's). */
double gv_corners_cell_at(const double corners[8], int size, int k);

/* The cells a pinhole camera could see as H (board coordinates in cells to
 * pixels of a width x height photo), the camera's principal point at the
 * photo's centre and its pixels square: a cell a times as long along the
 * rows' direction (v) as across (u), for every a in [*lo, *hi] (*hi may be
 * HUGE_VAL). From the two constraints on the camera's rotation (its
 * columns' equal length and, with the focal length, f^2 = N / D with N and
 * D both linear in 1 / a^2: only where they have one sign). A view from
 * straight above constrains nothing: [0, HUGE_VAL]. A board's cells are
 * 1.07 +- 0.05 (article 32); a lattice twice too dense in one family
 * can only be a board's with a near 2 or 1/2. */
void gv_h_cell_aspects(const double H[9], int width, int height, double *lo, double *hi);

/* Whether four grid corners given by a person (x y clockwise from the
 * top-left, pixels) can be a grid in a width x height photo: numbers, inside
 * the photo, a convex quadrilateral in clockwise order (not crossed), not
 * tiny. False with the reason in err[0..cap). */
bool gv_corners_check(const double c[8], int width, int height, char *err, size_t cap);

#endif
