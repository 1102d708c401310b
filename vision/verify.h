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
#include "geom.h"

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
	double control_share; /* the most lined share, of the two families, of
	                         the spans half a cell off the lattice (through
	                         the middles of squares with four empty corners:
	                         plain wood, where no line may show) */
	int goes_on;         /* families of lines (of 2) whose lattice goes on,
	                        on wood, a cell beyond one of its outer lines:
	                        a lattice a line short of the grid */
	int goes_on_step[2]; /* then, for each family (0 rows, 1 columns): the
	                        side it goes on, -1 (before line 0) or 1
	                        (beyond line N-1); 0 where it does not */
	double strip_share[4]; /* the lined share of the spans between each
	                        outer line and its neighbour in (left, top,
	                        right, bottom: the first and last span of
	                        each row or column); 1 where fewer than
	                        GV_PROOF_MIN_SPANS are judged */
	double cross_share[4]; /* the lined share of the other family's
	                        lines one cell beyond each outer line (left,
	                        top, right, bottom), from the outer line's
	                        empty points: the margin is plain wood, so
	                        the grid's own lines do not go on there; a
	                        lattice short of the grid, or of the wrong
	                        pitch, has the grid's lines going on beyond
	                        it. 0 where fewer than GV_PROOF_MIN_SPANS
	                        are judged */
	int cross_on;        /* sides whose cross_share is over
	                        GV_PROOF_MAX_CROSS_SHARE */
	int strip_missing;   /* sides whose strip shows a line on less than
	                        GV_PROOF_MIN_STRIP_SHARE: a lattice a line over,
	                        its outer line on the board's edge, has
	                        the margin's plain wood there */
	int outer_missing;   /* outer lines judged that do not show */
	int outer_judged;    /* outer lines judged (of 4): the others are under
	                        stones or off the photo */
	int outer_seen;      /* which: bit 2 * family + end (family 0 the
	                        rows, 1 the columns; end 0 line 0, 1 line N-1) */
	int by_beyond;       /* 1: passed the first way with outer lines hidden,
	                        bounded by empty points a line beyond them
	                        (detect.c) */
	int by_edge;         /* 1: ... bounded by the board's edge found
	                        beside the grid (gv_edge_margins, detect.c) */
	int unbounded;       /* 1: failed with outer lines hidden and nothing
	                        to bound it, the rest of the proof passed
	                        (detect.c) */
	int ok;           /* 1: the grid passes (see GV_PROOF_* in tuning.h), 0: it fails */
	/* The second way to pass (gv_prove_by_outline), where the lines are
	 * few or faint (a dense endgame, a coloured light): */
	double margin[4];    /* the board's outline beyond the outer lines, in
	                        cells, left, top, right, bottom (the least of
	                        each side's two ends); 0 when no outline */
	int stones;          /* points read as stones */
	double stone_off;    /* their median distance (cells) from where the
	                        camera's angle puts a stone's middle */
	int by_stones;       /* 1: passed the second way */
	int by_outline;      /* 1: passed the first way with outer lines hidden,
	                        and the board's outline bounds it (detect.c) */
	int doubt;           /* then: points read with a confidence under 0.5 */
	/* Proved grids where GV_PROOF_EVEN_STONES of the points read as
	 * stones (detect.c): */
	double evenness;     /* gv_stone_evenness through the grid (stonefit.h;
	                        0: not measured) */
	int off_stones;      /* 1: failed for it, under GV_PROOF_EVEN_MIN: the
	                        lattice does not lie on the stones */
} gv_proof;

/* Grey at (x, y), bilinear, the mean of R, G, B of a colour image; -1
 * outside the image. */
static inline double gv_grey_at(const gv_image *img, double x, double y)
{
	if (!(x >= 0 && y >= 0 && x <= img->width - 1.001 && y <= img->height - 1.001))
		return -1;
	int x0 = (int)x, y0 = (int)y;
	double fx = x - x0, fy = y - y0;
	double v[4];
	/* the four pixels from the first one's address */
	const unsigned char *p = gv_px(img, x0, y0), *q = p + img->stride;
	if (img->channels == 3) {
		v[0] = (p[0] + p[1] + p[2]) / 3.0;
		v[1] = (p[3] + p[4] + p[5]) / 3.0;
		v[2] = (q[0] + q[1] + q[2]) / 3.0;
		v[3] = (q[3] + q[4] + q[5]) / 3.0;
	} else {
		v[0] = p[0];
		v[1] = p[1];
		v[2] = q[0];
		v[3] = q[1];
	}
	return (v[0] * (1 - fx) + v[1] * fx) * (1 - fy) + (v[2] * (1 - fx) + v[3] * fx) * fy;
}

/* Grey at board point (u, v); -1 outside the image. */
static inline double gv_grey_board(const gv_image *img, const double H[9], double u, double v)
{
	double x, y;
	if (!gv_h_apply(H, u, v, &x, &y))
		return -1;
	return gv_grey_at(img, x, y);
}

/* The grey of a one-channel image at five places inside it, bilinear:
 * gv_grey_at's sums, each place's in its order (a loop the compiler runs on
 * vectors). */
static inline void gv_grey5_at(const gv_image *img, const double px[5], const double py[5], double g[5])
{
	double v0[5], v1[5], v2[5], v3[5], fx[5], fy[5];
	for (int k = 0; k < 5; k++) {
		int x0 = (int)px[k], y0 = (int)py[k];
		fx[k] = px[k] - x0;
		fy[k] = py[k] - y0;
		const unsigned char *p = gv_px(img, x0, y0), *q = p + img->stride;
		v0[k] = p[0];
		v1[k] = p[1];
		v2[k] = q[0];
		v3[k] = q[1];
	}
	for (int k = 0; k < 5; k++)
		g[k] = (v0[k] * (1 - fx[k]) + v1[k] * fx[k]) * (1 - fy[k]) + (v2[k] * (1 - fx[k]) + v3[k] * fx[k]) * fy[k];
}

/* How much a thin dark line shows at board point (u, v) of the plane H maps
 * (board -> image pixels), seen across the unit vector (nu, nv) of the
 * plane: the darkest of 2 reach + 1 places `slack` apart across it against
 * its sides `side` away, the brighter of the two, or with both the darker (a
 * ridge: a step such as the board's edge is no line). *contrast gets
 * (sides - line) / sides, *side_grey the sides' grey (0..255; grey is the
 * mean of R, G, B). False when a place falls off the image. Inline, as
 * the two above: the outline's search calls it hundreds of thousands of
 * times a photo. */
static inline bool gv_line_contrast(const gv_image *img, const double H[9], double u, double v, double nu,
                                    double nv, double slack, int reach, double side, bool both, double *contrast,
                                    double *side_grey)
{
	if (reach == 1) {
		/* the common case, its five places mapped together (a loop the
		 * compiler runs on vectors: each place's own operations in the
		 * same order, so the same values to the bit) */
		double x[5], y[5], w[5], px[5], py[5], g[5];
		for (int o = -1; o <= 1; o++) {
			x[o + 1] = u + nu * slack * o;
			y[o + 1] = v + nv * slack * o;
		}
		x[3] = u + nu * side;
		y[3] = v + nv * side;
		x[4] = u - nu * side;
		y[4] = v - nv * side;
		for (int k = 0; k < 5; k++) {
			w[k] = H[6] * x[k] + H[7] * y[k] + H[8];
			px[k] = (H[0] * x[k] + H[1] * y[k] + H[2]) / w[k];
			py[k] = (H[3] * x[k] + H[4] * y[k] + H[5]) / w[k];
		}
		bool off = false;
		double xmax = img->width - 1.001, ymax = img->height - 1.001;
		for (int k = 0; k < 5; k++)
			off |= fabs(w[k]) < 1e-12 || !(px[k] >= 0 && py[k] >= 0 && px[k] <= xmax && py[k] <= ymax);
		if (off)
			return false;
		if (img->channels == 1) {
			gv_grey5_at(img, px, py, g);
		} else {
			for (int k = 0; k < 5; k++)
				g[k] = gv_grey_at(img, px[k], py[k]);
		}
		double on1 = g[0] < g[1] ? g[0] : g[1];
		on1 = g[2] < on1 ? g[2] : on1;
		double s = (g[3] > g[4]) != both ? g[3] : g[4];
		*side_grey = s;
		*contrast = s > 0 ? (s - on1) / s : 0;
		return true;
	}
	double on = 1e9;
	for (int o = -reach; o <= reach; o++) {
		double g = gv_grey_board(img, H, u + nu * slack * o, v + nv * slack * o);
		if (g < 0)
			return false;
		if (g < on)
			on = g;
	}
	double a = gv_grey_board(img, H, u + nu * side, v + nv * side);
	double b = gv_grey_board(img, H, u - nu * side, v - nv * side);
	if (a < 0 || b < 0)
		return false;
	double s = (a > b) != both ? a : b;
	*side_grey = s;
	*contrast = s > 0 ? (s - on) / s : 0;
	return true;
}

/* The picture the proof judges lines on: where a channel of the board's
 * wood is dead (its median over the squares' middles through H at most
 * GV_CHANNEL_DARK or at least GV_CHANNEL_CLIPPED: a coloured light that
 * clips red and leaves green at 0), the mean of the live channels as a
 * one-channel image in *out, and 1; a clipped or black channel shows no
 * line and only dilutes the others' contrast. 0 (out untouched) when every
 * channel is live or none is: then rgb itself. GV_ENOMEM, GV_EINVAL. */
int gv_proof_picture(const gv_image *rgb, const double H[9], int size, gv_image *out);

/* Checks the grid H (board (i, j) -> pixels, size lines) against rgb (3
 * channels, or the one gv_proof_picture made) with what the classifier
 * read (cells[j * size + i], 0 empty). Returns 0 or GV_EINVAL. */
int gv_prove_grid(const gv_image *rgb, const double H[9], int size, const unsigned char *cells, gv_proof *out);

/* The second way to pass, for a grid that failed gv_prove_grid (out holds
 * its result; out->ok is set when this passes): the board's outline
 * (outline[8], the top face's corners clockwise from the top-left, as in
 * gv_grid) lies a margin outside the outer lines on all four sides, alike
 * on opposite sides (GV_PROOF_MARGIN_*: a lattice half a cell or a line
 * off puts an outer line on the margin or beyond the outline, and makes
 * opposite margins differ by a cell or more); at least GV_PROOF_MIN_STONES
 * stones are read (cells[k] 1 or 2, with what the classifier measured in
 * f[k]) and stand near where stones on the points would; and a line shows
 * on at least GV_PROOF_STONE_SPAN_SHARE of the open spans. f is a
 * gv_point_features array (classify.h). Returns 0, GV_EINVAL or GV_ENOMEM. */
struct gv_point_features;
/* The board's outline (outline[8], as above) beyond the outer lines of the
 * grid H: margin[4] in cells (left, top, right, bottom, each side's lesser
 * end), *ok whether they are within GV_PROOF_MARGIN_MIN..MAX and alike
 * across (GV_PROOF_MARGIN_ASYM). Returns 0 or GV_EINVAL. */
int gv_outline_margins(const double H[9], int size, const double outline[8], double margin[4], bool *ok);

/* Whether a and b, a board's margins on two opposite sides (cells beyond
 * the outer lines), are each within GV_PROOF_MARGIN_MIN..MAX and alike
 * within GV_PROOF_MARGIN_ASYM: the rule for the outline's margins and the
 * edge's (detect.c). */
bool gv_margins_alike(double a, double b);

/* Whether the grid H (size lines, of a 3-channel rgb) is bounded on every
 * side whose outer line the proof could not judge (not in outer_seen,
 * gv_proof) by a line of empty points beyond it: the grid moved a line
 * that way and read (gv_classify_features_within, gv_classify_decide), its
 * new outer line (the old one's neighbour out) lies inside the photo and
 * holds no stone. A lattice a line short of the board, its last lines
 * under stones, finds the board's outer line's stones there (a lattice a
 * line too wide has its own outer line on the margin, empty, so judged).
 * For a board with no edge of its own to bound it (a grid drawn on a
 * table, a board filling the photo). 1 bounded, 0 not (or a side beyond
 * the photo), GV_ENOMEM. */
int gv_beyond_empty(const gv_image *rgb, const double H[9], int size, int outer_seen);

/* The board's own edge beside each side of the grid H (size lines, of rgb:
 * 3 channels or 1), found with no outline: margin[4] the offset in cells
 * out from the outer line (left, top, right, bottom; negative: inside it),
 * between from and to (at most 2 GV_EDGE_MOVE_REACH apart), of a straight
 * step in the grey all along the side (GV_EDGE_* in tuning.h), GV_EDGE_NONE
 * where none shows; share[4] the share of the side's places that step there.
 * Returns 0, GV_EINVAL or GV_ENOMEM. */
#define GV_EDGE_NONE (-1e9)
int gv_edge_margins(const gv_image *rgb, const double H[9], int size, double from, double to, double margin[4],
                    double share[4]);
int gv_prove_by_outline(const double H[9], int size, const double outline[8], const unsigned char *cells,
                        const struct gv_point_features *f, gv_proof *out);

#endif
