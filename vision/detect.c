/* goref vision: a photo in, the board as seen out. See detect.h. */
#include "detect.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "cnn.h"
#include "geom.h"
#include "sortf.h"
#include "stonefit.h"
#include "cvwrap.h"
#include "undistort.h"
#include "locate.h"
#include "outline.h"
#include "tuning.h"
#include "trace.h"
#include "verify.h"

/* A line of the trace (gv_detect_opts.trace), when one is set. */
#define dtr(o, ...) gv_tracef((o) ? (o)->trace : NULL, (o) ? (o)->trace_ud : NULL, __VA_ARGS__)

/* Whether the board's outline, its margins m (cells beyond the outer lines,
 * left, top, right, bottom: gv_outline_margins) around a grid, says that
 * grid is a line or more off: the outline is taken for the board's when
 * each pair of opposite margins adds up to two margins a board may have
 * (GV_PROOF_MARGIN_MIN to _MAX each: a lattice moved whole keeps the sum),
 * and then a pair differing by more than GV_OUTLINE_OFF_ASYM cells is a
 * lattice off (one line off changes the difference by two). An outline of
 * a floor or a table, far out, says nothing; *board (when not NULL) gets
 * whether it was taken for the board's. */
static bool margins_say_off(const double m[4], bool *board)
{
	bool is_board = true, off = false;
	for (int k = 0; k < 2; k++) {
		double sum = m[k] + m[k + 2], lines = fabs(m[k] - m[k + 2]) / 2;
		is_board = is_board && sum >= 2 * GV_PROOF_MARGIN_MIN && sum <= 2 * GV_PROOF_MARGIN_MAX;
		/* off by a whole number of lines, give or take
		 * GV_OUTLINE_OFF_SLACK: an outline astray (a shadow or a sleeve
		 * over one side) puts it anywhere */
		off = off || (2 * lines > GV_OUTLINE_OFF_ASYM && fabs(lines - floor(lines + 0.5)) <= GV_OUTLINE_OFF_SLACK);
	}
	if (board)
		*board = is_board;
	return is_board && off;
}

/* Whether the board's edge, found beside the grid H (gv_edge_margins),
 * bounds it where its outer lines are hidden: on both sides of each family
 * of lines with an outer line the proof could not judge (not in
 * outer_seen), an edge GV_PROOF_MARGIN_MIN to _MAX cells beyond the outer
 * line, the two alike within GV_PROOF_MARGIN_ASYM (a lattice a line off
 * makes them differ by two cells). m gets the margins found (GV_EDGE_NONE
 * none).
 * 1 bounded, 0 not, GV_ENOMEM. */
static int edge_bounds(const gv_image *img, const double H[9], int size, int outer_seen, const gv_detect_opts *opts,
                       double m[4])
{
	double share[4];
	int rc = gv_edge_margins(img, H, size, 0, GV_EDGE_SEARCH_MAX, m, share);
	if (rc)
		return rc == GV_ENOMEM ? GV_ENOMEM : 0;
	dtr(opts, "detect: the board's edge beside the grid: %.2f %.2f %.2f %.2f cells (on %.2f %.2f %.2f %.2f of each side)",
	    m[0], m[1], m[2], m[3], share[0], share[1], share[2], share[3]);
	for (int fam = 0; fam < 2; fam++) {
		/* outer_seen: bit 2 * family + end (family 0 the rows: their
		 * ends the top and bottom sides, 1 and 3; the columns' the
		 * left and right, 0 and 2) */
		if ((outer_seen >> (2 * fam) & 3) == 3)
			continue;
		if (!(fam ? gv_margins_alike(m[0], m[2]) : gv_margins_alike(m[1], m[3])))
			return 0;
	}
	return 1;
}

/* Reads the board through grid g into out (cells, confidences, proof).
 * GV_ENOTFOUND when the grid reaches beyond the photo, or (prove) when it
 * fails its proof; message in err. pre: the points' features through g
 * already taken (gv_classify_features), or NULL. */
static int read_grid_at(const gv_image *img, const gv_grid *g, int size, bool prove, const gv_point_features *pre,
                        const gv_detect_opts *opts, const gv_image *coarse, gv_detection *out, char *err,
                        size_t cap);

/* Clicked grid corners c polished on the lines near them, within reach
 * cells (gv_refine_corners_shared, on grey, the photo's grey working copy
 * at GV_OUTLINE_WORK_PX), from the clicks and from four starts
 * GV_REFINE_JITTER cell to each side: c becomes the five landings' median
 * (each coordinate's), unless a landing lies more than GV_REFINE_AGREE of
 * the cell at its corner from it; then c is kept as clicked. Where the
 * lines hardly show (a dense endgame seen steeply) the score is flat and
 * grainy and the landings scatter (gobanwatcher/1's green_2: clicks moved
 * by 0.05 px polished to corners a cell apart); where they show, the
 * landings lie a fifth or a quarter of a cell apart round the truth (a
 * 4-corner grid on a lens's curved lines, a stone's shadow on a line), and
 * their median is nearer it than any click a few tenths of a cell off. */
static int polish_within(const gv_image *img, const gv_image *grey, int size, const unsigned char *empty,
                         double reach, double c[8], char *err, size_t cap)
{
	enum { STARTS = 5 };
	static const int side[STARTS][2] = {{0, 0}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
	double land[STARTS][8], cell = gv_corners_cell_min(c, size);
	for (int s = 0; s < STARTS; s++) {
		for (int k = 0; k < 4; k++) {
			land[s][2 * k] = c[2 * k] + side[s][0] * GV_REFINE_JITTER * cell;
			land[s][2 * k + 1] = c[2 * k + 1] + side[s][1] * GV_REFINE_JITTER * cell;
		}
		int rc = gv_refine_corners_shared(img, grey, size, empty, land[s], reach, err, cap);
		if (rc)
			return rc;
	}
	double med[8];
	for (int j = 0; j < 8; j++) {
		double v[STARTS];
		for (int s = 0; s < STARTS; s++)
			v[s] = land[s][j];
		qsort(v, STARTS, sizeof v[0], gv_cmp_double);
		med[j] = v[STARTS / 2];
	}
	for (int k = 0; k < 4; k++) {
		double at = gv_corners_cell_at(c, size, k);
		for (int s = 0; s < STARTS; s++)
			if (hypot(land[s][2 * k] - med[2 * k], land[s][2 * k + 1] - med[2 * k + 1]) > GV_REFINE_AGREE * at)
				return 0; /* c as clicked */
	}
	memcpy(c, med, sizeof med);
	return 0;
}

/* polish_within GV_REFINE_REACH of the clicks; where its landings scatter
 * (c kept as clicked), again within GV_REFINE_REACH2, where fewer places
 * of a flat score compete. */
static int polish_clicks(const gv_image *img, const gv_image *grey, int size, const unsigned char *empty, double c[8],
                         char *err, size_t cap)
{
	double o[8];
	memcpy(o, c, sizeof o);
	int rc = polish_within(img, grey, size, empty, GV_REFINE_REACH, c, err, cap);
	if (!rc && GV_REFINE_REACH2 > 0 && !memcmp(o, c, sizeof o))
		rc = polish_within(img, grey, size, empty, GV_REFINE_REACH2, c, err, cap);
	return rc;
}

/* The mean of the confidences gv_classify gives the points through corners
 * c into *mean: 0, or gv_classify's error (GV_EINVAL: the grid reaches
 * beyond the photo). */
static int mean_confidence(const gv_image *img, int size, const double c[8], double *mean)
{
	double H[9];
	unsigned char cells[19 * 19];
	float conf[19 * 19];
	if (!gv_h_from_corners(c, size, H))
		return GV_EINVAL;
	int rc = gv_classify(img, H, size, cells, conf);
	if (rc)
		return rc;
	double m = 0;
	for (int k = 0; k < size * size; k++)
		m += conf[k];
	*mean = m / (size * size);
	return 0;
}

/* Clicked corners c settled: polished on the lines (polish_clicks), or
 * moved onto the stones from the clicks (gv_fit_stones, within
 * GV_STONEFIT_REACH), whichever the classifier reads the more surely
 * (the mean confidence; the lines' on a tie). Where the lines show the
 * stones' fit is a fifth of a cell rough and reads less surely; where a
 * crowd of stones hides them (gobanwatcher/1) and the clicks are a half
 * cell off (the polish lands a cell aside) it is the nearer. Both work
 * on grey, the photo's grey working copy at GV_OUTLINE_WORK_PX. */
static int settle_clicks(const gv_image *img, const gv_image *grey, int size, const unsigned char *empty,
                         const gv_detect_opts *opts, double c[8], char *err, size_t cap)
{
	double f[8];
	memcpy(f, c, sizeof f);
	int rc = polish_clicks(img, grey, size, empty, c, err, cap);
	if (rc || !(GV_STONEFIT_REACH > 0))
		return rc;
	/* a fit that fails (but for memory) leaves the polish */
	rc = gv_fit_stones(img, grey, size, f, GV_STONEFIT_REACH, err, cap);
	if (rc)
		return rc == GV_ENOMEM ? rc : 0;
	double mc = 0, mf = 0;
	rc = mean_confidence(img, size, c, &mc);
	if (rc == GV_ENOMEM)
		return rc;
	int rf = mean_confidence(img, size, f, &mf);
	if (rf == GV_ENOMEM)
		return rf;
	/* a grid that reaches beyond the photo loses */
	bool stones = !rf && (rc || mf > mc);
	dtr(opts, "corners: polished on the lines (mean confidence %.3f) or moved onto the stones (%.3f): %s", mc, mf,
	    stones ? "the stones" : "the lines");
	if (stones)
		memcpy(c, f, sizeof f);
	return 0;
}

/* read_grid_at with the lines judged on the photo as it is. */
static int read_grid(const gv_image *img, const gv_grid *g, int size, bool prove, const gv_point_features *pre,
                     const gv_detect_opts *opts, gv_detection *out, char *err, size_t cap)
{
	return read_grid_at(img, g, size, prove, pre, opts, NULL, out, err, cap);
}

/* The proof's lines judged on coarse, a smaller copy of the photo img
 * (NULL: on img itself): a grid found on a coarse copy is proved at the
 * scale its lines showed at (a blurred line is a faint, wide ridge at the
 * photo's own size). */
static int prove_at(const gv_image *img, const double H[9], int size, const unsigned char *cells,
                    const gv_image *coarse, gv_proof *proof)
{
	const gv_image *pimg = coarse ? coarse : img;
	double Hp[9];
	memcpy(Hp, H, sizeof Hp);
	if (coarse) {
		double sx = (double)coarse->width / img->width, sy = (double)coarse->height / img->height;
		for (int k = 0; k < 3; k++) {
			Hp[k] *= sx;
			Hp[3 + k] *= sy;
		}
	}
	gv_image live = {0};
	int rc = gv_proof_picture(pimg, Hp, size, &live);
	if (rc >= 0) {
		rc = gv_prove_grid(rc == 1 ? &live : pimg, Hp, size, cells, proof);
		gv_image_free(&live);
	}
	return rc;
}

static int read_grid_at(const gv_image *img, const gv_grid *g, int size, bool prove, const gv_point_features *pre,
                        const gv_detect_opts *opts, const gv_image *coarse, gv_detection *out, char *err,
                        size_t cap)
{
	memset(out, 0, sizeof *out);
	out->size = size;
	memcpy(out->H, g->H, sizeof g->H);
	memcpy(out->corners, g->corners, sizeof g->corners);
	out->support = g->support;
	out->residual = g->residual;
	if (prove) {
		/* cells no camera could see as a board's (a lattice twice too
		 * dense in one family) fail before they are read */
		double lo, hi;
		gv_h_cell_aspects(g->H, img->width, img->height, &lo, &hi);
		double a = lo > 1 ? lo : hi < 1 ? 1 / hi : 1;
		if (a > GV_PROOF_ASPECT_MAX) {
			if (err && cap)
				snprintf(err, cap,
				         "no board found: the grid found cannot be a board's (its cells would be %.2f times as "
				         "long one way as the other)",
				         a);
			return GV_ENOTFOUND;
		}
	}
	gv_point_features *f = malloc(sizeof *f * (size_t)size * size);
	if (!f) {
		if (err && cap)
			snprintf(err, cap, "classify: out of memory");
		return GV_ENOMEM;
	}
	int rc = 0;
	if (pre)
		memcpy(f, pre, sizeof *f * (size_t)size * size);
	else
		rc = gv_classify_features(img, g->H, size, f);
	if (!rc)
		rc = gv_classify_decide(f, size, out->cells, out->conf);
	/* the learned classifier, alone or with the hand-made one */
	int mode = opts && opts->classifier ? opts->classifier : GV_CLASSIFIER;
	if (!rc && mode != GV_CLASSIFIER_RULES) {
		const gv_cnn *m = opts && opts->cnn ? opts->cnn : &gv_cnn_builtin;
		unsigned char cells[19 * 19];
		float conf[19 * 19], probs[19 * 19 * 3];
		rc = gv_cnn_classify(m, img, g->H, size, cells, conf, probs);
		if (!rc && mode == GV_CLASSIFIER_CNN) {
			memcpy(out->cells, cells, sizeof cells);
			memcpy(out->conf, conf, sizeof conf);
		} else if (!rc) {
			gv_cnn_combine(size, out->cells, out->conf, probs);
		}
	}
	if (rc == GV_EINVAL) {
		free(f);
		if (err && cap)
			snprintf(err, cap, "no board found: the grid found reaches beyond the photo");
		return GV_ENOTFOUND;
	}
	if (rc) {
		free(f);
		if (err && cap)
			snprintf(err, cap, "classify: out of memory");
		return rc;
	}
	/* judged on the live channels where a coloured light kills one */
	rc = prove_at(img, g->H, size, out->cells, coarse, &out->proof);
	/* where the lines fail it, a grid inside the board's outline may pass
	 * on the outline's margins and the stones */
	if (!rc && !out->proof.ok && g->has_outline) {
		rc = gv_prove_by_outline(g->H, size, g->outline, out->cells, f, &out->proof);
		/* faint lines are the classifier's evidence too: no point of such
		 * a board is sure; and a reading the classifier itself doubts (more
		 * than GV_DOUBT_SHARE of the points under 0.5: its model of the
		 * board does not fit, as on a lattice squeezed into a piece of the
		 * board) cannot be the stones' evidence */
		if (!rc && out->proof.by_stones) {
			int doubt = 0;
			for (int k = 0; k < size * size; k++)
				doubt += out->conf[k] < 0.5f;
			out->proof.doubt = doubt;
			if (doubt > GV_DOUBT_SHARE * size * size)
				out->proof.ok = out->proof.by_stones = 0;
		}
	}
	/* a grid that stands (given, or proved): a second look at its
	 * reading by this photo's own stones and wood (the hand-made
	 * classifier's alone; the points it read surely hold the two kinds
	 * of colour in place) */
	if (!rc && (!prove || out->proof.ok) && mode == GV_CLASSIFIER_RULES)
		rc = gv_classify_colours(f, size, out->cells, out->conf);
	/* then no point of a board passed by its stones is sure */
	if (!rc && out->proof.by_stones)
		for (int k = 0; k < size * size; k++)
			if (out->conf[k] > GV_DOUBT_CAP)
				out->conf[k] = GV_DOUBT_CAP;
	free(f);
	/* a grid whose outer lines are not all seen (under stones, off the
	 * photo) may be a line or two off with nothing in the proof to tell:
	 * the board's outline must then lie a margin beyond them, alike on
	 * opposite sides (no outline found: no board). So must a grid found
	 * from the outline: in a dense endgame the lines beyond a lattice a
	 * line short are under stones too, while its outer lines show. */
	if (!rc && prove && out->proof.ok && !out->proof.by_stones && (out->proof.outer_judged < 4 || g->has_outline)) {
		double quad[8];
		const double *ol = g->outline;
		int r2 = GV_OK;
		if (!g->has_outline) {
			char e2[200];
			r2 = gv_board_outline(img, quad, e2, sizeof e2);
			if (r2 == GV_ENOMEM || r2 == GV_ECV) {
				if (err && cap)
					snprintf(err, cap, "%s", e2);
				return r2;
			}
			ol = quad;
		}
		bool mok = false, said_off = false;
		int beyond = 0, edge = 0;
		double edge_m[4];
		if (r2 == GV_OK && gv_outline_margins(g->H, size, ol, out->proof.margin, &mok) == GV_OK && mok) {
			out->proof.by_outline = 1;
		} else if (!g->has_outline && !(said_off = r2 == GV_OK && margins_say_off(out->proof.margin, NULL)) &&
		           (beyond = gv_beyond_empty(img, g->H, size, out->proof.outer_seen)) == 1) {
			/* no board's edge to bound it (a grid drawn on a table, a
			 * board filling the photo): the points a line beyond each
			 * hidden outer line are empty; but not where the board's
			 * outline says the grid is a line or more off (a lattice two
			 * columns over, its outer column on the table beyond the
			 * board, reads empty points a line beyond that too) */
			out->proof.by_beyond = 1;
		} else if (beyond == GV_ENOMEM) {
			if (err && cap)
				snprintf(err, cap, "classify: out of memory");
			return GV_ENOMEM;
		} else if (!g->has_outline && !said_off &&
		           (edge = edge_bounds(img, g->H, size, out->proof.outer_seen, opts, edge_m)) == 1) {
			/* no outline bounds it and the points beyond are not
			 * empty (a floor of the wood's colour taken in with the
			 * board, a margin under a cell wide): the board's own
			 * edge, found beside the grid, lies a margin beyond the
			 * hidden outer lines, alike across */
			out->proof.by_edge = 1;
			memcpy(out->proof.margin, edge_m, sizeof edge_m);
		} else if (edge == GV_ENOMEM) {
			if (err && cap)
				snprintf(err, cap, "detect: out of memory");
			return GV_ENOMEM;
		} else {
			out->proof.ok = 0;
			out->proof.unbounded = 1;
			if (err && cap)
				snprintf(err, cap,
				         "no board found: %d of the grid's outer lines are hidden and the board's edge does not "
				         "bound it (margins %.2f %.2f %.2f %.2f cells)",
				         4 - out->proof.outer_judged, out->proof.margin[0], out->proof.margin[1],
				         out->proof.margin[2], out->proof.margin[3]);
			return GV_ENOTFOUND;
		}
	}
	/* a board most of whose points hold stones: the lattice must lie on
	 * them (a seam lattice of a bamboo board, its lines fitted with the
	 * board's a row or a column over, passes the rest) */
	if (!rc && prove && out->proof.ok) {
		int stones = 0;
		for (int k = 0; k < size * size; k++)
			stones += out->cells[k] == 1 || out->cells[k] == 2;
		if (stones >= GV_PROOF_EVEN_STONES * size * size) {
			double e = gv_stone_evenness(img, NULL, size, g->corners);
			out->proof.evenness = e;
			if (e >= 0 && e < GV_PROOF_EVEN_MIN) {
				out->proof.ok = 0;
				out->proof.off_stones = 1;
				if (err && cap)
					snprintf(err, cap,
					         "no board found: the grid found fails its proof (%d of its %d points hold stones, "
					         "and the discs round its points are no more even than half a cell off them: "
					         "%.2f; the lattice does not lie on the stones)",
					         stones, size * size, e);
				return GV_ENOTFOUND;
			}
		}
	}
	if (!rc && prove && !out->proof.ok && out->proof.goes_on) {
		if (err && cap)
			snprintf(err, cap,
			         "no board found: the grid found stops a line short (beyond one of its outer lines the "
			         "board's lines go on, on the wood)");
		rc = GV_ENOTFOUND;
	}
	/* the strips alone turned it down */
	if (!rc && prove && !out->proof.ok && out->proof.strip_missing && !out->proof.outer_missing &&
	    out->proof.span_share >= GV_PROOF_MIN_SPAN_SHARE && out->proof.line_share >= GV_PROOF_MIN_LINE_SHARE &&
	    out->proof.beyond_share <= GV_PROOF_MAX_BEYOND_SHARE) {
		double least = 1;
		for (int side = 0; side < 4; side++)
			if (out->proof.strip_share[side] < least)
				least = out->proof.strip_share[side];
		if (err && cap)
			snprintf(err, cap,
			         "no board found: the grid found fails its proof (from an outer line to the next, a line "
			         "shows on %.0f%% of the open spans: its outer line on the board's edge, a line over)",
			         100 * least);
		rc = GV_ENOTFOUND;
	}
	if (!rc && prove && !out->proof.ok) {
		if (err && cap)
			snprintf(err, cap,
			         "no board found: the grid found fails its proof (a line shows on %.0f%% of the open spans "
			         "of one family of lines, on %.0f%% of its lines; %.0f%% of the margin continues the "
			         "lattice)",
			         100 * out->proof.span_share, 100 * out->proof.line_share, 100 * out->proof.beyond_share);
		rc = GV_ENOTFOUND;
	}
	return rc;
}

/* The grid moved du columns and dv rows of its own (board (i, j) of the
 * moved grid is (i + du, j + dv) of the old), its corners with it. */
static void move_grid(gv_grid *g, int size, int du, int dv)
{
	double T[9] = {1, 0, du, 0, 1, dv, 0, 0, 1}, H2[9];
	gv_h_mul(g->H, T, H2);
	memcpy(g->H, H2, sizeof H2);
	gv_h_corners(g->H, size, g->corners);
}

/* A second candidate grid g2 read and proved (r2, d2, its message e2):
 * taken into *out and *g when proved (GV_OK); an error other than "no
 * board" is the detection's, its message into err; GV_ENOTFOUND leaves
 * them. Returns r2. */
static int take_candidate(int r2, const gv_detection *d2, const gv_grid *g2, const char *e2, gv_detection *out,
                          gv_grid *g, char *err, size_t cap)
{
	if (r2 == GV_OK) {
		*out = *d2;
		*g = *g2;
	} else if (r2 != GV_ENOTFOUND && err && cap) {
		snprintf(err, cap, "%s", e2);
	}
	return r2;
}

/* Grid g moved (du, dv) lines, read and proved on its own (what: its name
 * in the trace; by: what says to move it): take_candidate's codes, into out
 * and *gbest when proved. */
static int read_moved(const gv_image *img, const gv_grid *g, int size, int du, int dv, const gv_detect_opts *opts,
                      const char *what, const char *by, gv_detection *out, gv_grid *gbest, char *err, size_t cap)
{
	gv_grid gs = *g;
	move_grid(&gs, size, du, dv);
	gv_detection d2;
	char e2[300];
	int r2 = read_grid(img, &gs, size, true, NULL, opts, &d2, e2, sizeof e2);
	dtr(opts, "detect: %s moved (%d, %d) as %s: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f: %s", what, du, dv, by,
	    gs.corners[0], gs.corners[1], gs.corners[2], gs.corners[3], gs.corners[4], gs.corners[5], gs.corners[6],
	    gs.corners[7], r2 ? e2 : "proved");
	return take_candidate(r2, &d2, &gs, e2, out, gbest, err, cap);
}

/* Where grid g (read into d) failed its proof for want of a bound, its
 * outer lines hidden, and the board's outline says it is a whole number of
 * lines off (margins_say_off on d's margins: the two across differ by
 * about twice that), g moved that many lines toward the wider margin in
 * each family, read and proved on its own (what: its name in the trace).
 * GV_OK into out and *gbest, GV_ENOTFOUND (nothing touched), or an error
 * with its message in err. */
static int outline_move(const gv_image *img, const gv_grid *g, const gv_detection *d, int size,
                        const gv_detect_opts *opts, const char *what, gv_detection *out, gv_grid *gbest, char *err,
                        size_t cap)
{
	if (!margins_say_off(d->proof.margin, NULL))
		return GV_ENOTFOUND;
	/* margin 0 left, 2 right; 1 top, 3 bottom; an outline that puts the
	 * grid more than GV_SHIFT_MAX_LINES off is astray (and its margins
	 * may be anything) */
	double mu = (d->proof.margin[2] - d->proof.margin[0]) / 2, mv = (d->proof.margin[3] - d->proof.margin[1]) / 2;
	if (!(fabs(mu) <= GV_SHIFT_MAX_LINES + 0.5 && fabs(mv) <= GV_SHIFT_MAX_LINES + 0.5))
		return GV_ENOTFOUND;
	int du = (int)lround(mu), dv = (int)lround(mv);
	if (!du && !dv)
		return GV_ENOTFOUND;
	return read_moved(img, g, size, du, dv, opts, what, "its outline's margins say", out, gbest, err, cap);
}

/* Where grid g (read into d) failed for want of a bound (its outer lines
 * hidden, the rest of its proof passed), the board's edge looked for
 * within GV_EDGE_MOVE_REACH cells either way of each outer line
 * (gv_edge_margins): where both sides of a family find it and the grid
 * moved a whole number of lines would have them a margin out
 * (GV_PROOF_MARGIN_MIN to _MAX) and alike (GV_PROOF_MARGIN_ASYM), and some
 * family is so a line or more off, g moved so, read and proved on its own
 * (what: its name in the trace). GV_OK into out and *gbest, GV_ENOTFOUND
 * (nothing touched), or an error with its message in err. */
static int edge_move(const gv_image *img, const gv_grid *g, const gv_detection *d, int size,
                     const gv_detect_opts *opts, const char *what, gv_detection *out, gv_grid *gbest, char *err,
                     size_t cap)
{
	if (!d->proof.unbounded)
		return GV_ENOTFOUND;
	double m[4], sh[4];
	int rc = gv_edge_margins(img, g->H, size, -GV_EDGE_MOVE_REACH, GV_EDGE_MOVE_REACH, m, sh);
	if (rc == GV_ENOMEM) {
		if (err && cap)
			snprintf(err, cap, "detect: out of memory");
		return GV_ENOMEM;
	}
	if (rc)
		return GV_ENOTFOUND;
	/* mv[0] the columns' move (margins 0 left, 2 right), mv[1] the rows'
	 * (1 top, 3 bottom) */
	int mv[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		double lo = m[k], hi = m[k + 2];
		if (lo == GV_EDGE_NONE || hi == GV_EDGE_NONE)
			continue; /* no edge on a side: nothing to move by */
		int t = (int)lround((hi - lo) / 2);
		if (!gv_margins_alike(lo + t, hi - t))
			return GV_ENOTFOUND;
		mv[k] = t;
	}
	dtr(opts, "detect: %s: the board's edge within %.1f cells: %.2f %.2f %.2f %.2f (on %.2f %.2f %.2f %.2f of each side): a move of (%d, %d)",
	    what, GV_EDGE_MOVE_REACH, m[0], m[1], m[2], m[3], sh[0], sh[1], sh[2], sh[3], mv[0], mv[1]);
	if (!mv[0] && !mv[1])
		return GV_ENOTFOUND;
	return read_moved(img, g, size, mv[0], mv[1], opts, what, "the board's edge says", out, gbest, err, cap);
}

/* A grid that failed for want of a bound moved as the board's outline
 * says (outline_move), or else as its own edges say (edge_move). */
static int bound_move(const gv_image *img, const gv_grid *g, const gv_detection *d, int size,
                      const gv_detect_opts *opts, const char *what, gv_detection *out, gv_grid *gbest, char *err,
                      size_t cap)
{
	int r = outline_move(img, g, d, size, opts, what, out, gbest, err, cap);
	if (r == GV_ENOTFOUND)
		r = edge_move(img, g, d, size, opts, what, out, gbest, err, cap);
	return r;
}

/* A lattice gn that failed its proof polished on the lines between the
 * points it read empty (dn->cells), as clicked corners are
 * (gv_refine_corners, on the photo's grey working copy grey_work when
 * there is one: a lattice moved whole keeps the slant of the wrong
 * lines it was fitted to, a third of a cell off at a far corner), then
 * read and proved again (on coarse when not NULL): that reading into gn
 * and dn when it is not GV_ENOTFOUND, or is but stops a line short (its
 * proof's goes_on: the caller moves it on), an error's message into en.
 * Returns it. */
static int read_polished(const gv_image *img, const gv_image *grey_work, gv_grid *gn, int size,
                         const gv_detect_opts *opts, const gv_image *coarse, gv_detection *dn, char *en, size_t cap)
{
	unsigned char empty[19 * 19];
	for (int k = 0; k < size * size; k++)
		empty[k] = dn->cells[k] == 0;
	double c[8];
	memcpy(c, gn->corners, sizeof c);
	char why[200], e2[300];
	gv_grid g2;
	int r2 = gv_refine_corners_shared(img, grey_work, size, empty, c, GV_REFINE_REACH, e2, sizeof e2);
	if (r2 == GV_ENOMEM || r2 == GV_ECV) {
		snprintf(en, cap, "%s", e2);
		return r2;
	}
	if (r2 != GV_OK || gv_grid_from_corners(c, size, img->width, img->height, &g2, why, sizeof why) != GV_OK ||
	    !memcmp(g2.H, gn->H, sizeof g2.H))
		return GV_ENOTFOUND;
	gv_detection d2;
	r2 = read_grid_at(img, &g2, size, true, NULL, opts, coarse, &d2, e2, sizeof e2);
	dtr(opts, "detect: polished: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f; proof spans %.2f lines %.2f beyond %.2f: %s",
	    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], d2.proof.span_share, d2.proof.line_share,
	    d2.proof.beyond_share, r2 ? e2 : "proved");
	if (r2 != GV_ENOTFOUND || d2.proof.goes_on) {
		*gn = g2;
		*dn = d2;
		if (r2 != GV_OK)
			snprintf(en, cap, "%s", e2);
	}
	return r2;
}

/* A grid proved by its lines (what: its name in the trace) against the
 * board's outline (gv_board_outline_shared, on grey_work when not NULL),
 * which it was not fitted to (margins_say_off). GV_ENOTFOUND when the
 * outline says it is off, GV_OK when nothing contradicts it (no outline
 * found is no contradiction), or GV_ENOMEM / GV_ECV with the outline's
 * message in err. */
static int outline_contradicts(const gv_image *img, const gv_image *grey_work, const gv_grid *g, int size,
                               const gv_detect_opts *opts, const char *what, char *err, size_t cap)
{
	double quad[8], m[4];
	char e2[200];
	bool mok, board;
	int r = gv_board_outline_shared(img, grey_work, quad, e2, sizeof e2);
	if (r == GV_ENOMEM || r == GV_ECV) {
		if (err && cap)
			snprintf(err, cap, "%s", e2);
		return r;
	}
	if (r != GV_OK || gv_outline_margins(g->H, size, quad, m, &mok) != GV_OK)
		return GV_OK;
	bool off = margins_say_off(m, &board);
	dtr(opts, "detect: %s against the outline: margins %.2f %.2f %.2f %.2f: %s", what, m[0], m[1], m[2], m[3],
	    off ? "a line off" : board ? "no contradiction" : "not the board's outline");
	return off ? GV_ENOTFOUND : GV_OK;
}

/* A grid g that failed its proof stopping a line short (d: its reading,
 * d->proof.goes_on: the board's lines go on, on wood, beyond one of its
 * outer lines): moved a line that way, read and proved on its own (on
 * coarse when not NULL), and again while it stops short, up to
 * GV_PROOF_SHIFTS times (what: its name in the trace). *g and *d get the
 * last grid and reading; returns that reading's code, its message (when
 * not 0) in en. */
static int follow_goes_on(const gv_image *img, gv_grid *g, int size, const gv_detect_opts *opts,
                          const gv_image *coarse, const char *what, gv_detection *d, char *en, size_t cap)
{
	int rn = GV_ENOTFOUND;
	for (int t = 0; rn == GV_ENOTFOUND && d->proof.goes_on && t < GV_PROOF_SHIFTS; t++) {
		int du = d->proof.goes_on_step[1], dv = d->proof.goes_on_step[0];
		move_grid(g, size, du, dv);
		rn = read_grid_at(img, g, size, true, NULL, opts, coarse, d, en, cap);
		dtr(opts,
		    "detect: %s moved a line (%d, %d) where the lines go on: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f; proof "
		    "spans %.2f lines %.2f beyond %.2f (goes on %d), outer lines %d judged %d missing: %s",
		    what, du, dv, g->corners[0], g->corners[1], g->corners[2], g->corners[3], g->corners[4], g->corners[5],
		    g->corners[6], g->corners[7], d->proof.span_share, d->proof.line_share, d->proof.beyond_share,
		    d->proof.goes_on, d->proof.outer_judged, d->proof.outer_missing, rn ? en : "proved");
	}
	return rn;
}

/* An error other than "no board" (rn) of a reading in shift_search: its
 * message en into err. Returns rn. */
static int shift_error(int rn, const char *en, char *err, size_t cap)
{
	if (err && cap)
		snprintf(err, cap, "%s", en);
	return rn;
}

/* A lattice of shift_search read (rn: its reading's code) passes: proved,
 * with the line a cell beyond each outer line showing on under
 * GV_PROOF_BEYOND_SUSPECT of its spans (more: maybe a line short). */
static bool moved_passes(int rn, const gv_detection *d)
{
	return rn == GV_OK && d->proof.beyond_share < GV_PROOF_BEYOND_SUSPECT;
}

/* The lines' lattice g0 (d0: its reading, r0: that reading's code)
 * failed its proof though its lines show on most
 * open spans (GV_SHIFT_MIN_SPANS): the lattice moved by one line, or up to
 * reach (1 or 2) lines, each way in each family, each read and proved
 * (about 100 M instructions a reading at 1280x720, the proof's read of a
 * line beyond included); where none passes, the
 * one whose lines show on most open spans, at least GV_SHIFT_REFINE_SPANS,
 * polished and proved again (read_polished); where that fails too, g0
 * itself polished so (on d0's empty points) and proved again (a lattice a few pixels off at one
 * side, its lines missed on a strip of spans, whose moves all fail: its
 * polish was never tried, as a moved one's was). A lattice that passes with
 * the line a cell beyond one of its outer lines showing on
 * GV_PROOF_BEYOND_SUSPECT of its spans or more may be a line short (that
 * line's points under stones, where the proof cannot judge it); one that
 * passes with less is taken, but only when it is the only such of the
 * moves, and none of its own neighbours a line over each way passes so (a
 * moved lattice is a guess the locator did not make). On coarse, when not
 * NULL (coarse_search, with reach 1: its lattices a line off). GV_OK (into out and *g), GV_ENOTFOUND (err
 * untouched), or an error with its message. */
static int shift_search(const gv_image *img, const gv_image *grey_work, const gv_grid *g0,
                        const gv_detection *d0, int r0, int size, int reach, const gv_detect_opts *opts, const gv_image *coarse, gv_detection *out, gv_grid *g, char *err,
                        size_t cap)
{
	static const int moves[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {2, 0}, {-2, 0}, {0, 2}, {0, -2}};
	int nmoves = reach > 1 ? 8 : 4;
	int found = -1, best = -1;
	gv_detection dk, db;
	gv_grid gk, gb;
	char en[300];
	for (int t = 0; t < nmoves; t++) {
		gv_grid gn = *g0;
		move_grid(&gn, size, moves[t][0], moves[t][1]);
		gv_detection dn;
		int rn = read_grid_at(img, &gn, size, true, NULL, opts, coarse, &dn, en, sizeof en);
		dtr(opts, "detect: the lattice moved (%d, %d): proof spans %.2f lines %.2f beyond %.2f: %s", moves[t][0],
		    moves[t][1], dn.proof.span_share, dn.proof.line_share, dn.proof.beyond_share, rn ? en : "proved");
		if (moved_passes(rn, &dn)) {
			if (found >= 0)
				return GV_ENOTFOUND;
			found = t;
			dk = dn;
			gk = gn;
		} else if (rn == GV_ENOTFOUND && dn.proof.span_share >= GV_SHIFT_REFINE_SPANS &&
		           (best < 0 || dn.proof.span_share > db.proof.span_share)) {
			best = t;
			db = dn;
			gb = gn;
		} else if (rn != GV_OK && rn != GV_ENOTFOUND) {
			return shift_error(rn, en, err, cap);
		}
	}
	bool moved_whole = found >= 0; /* found among the moves, not polished */
	/* the moved lattice whose lines show most, polished; then the lattice
	 * as found, polished alike (on its reading's empty points) */
	for (int pass = 0; pass < 2 && found < 0; pass++) {
		if (pass == 0 && best < 0)
			continue;
		gv_grid gp = pass ? *g0 : gb;
		gv_detection dp = pass ? *d0 : db;
		int rn = pass ? r0 : GV_ENOTFOUND;
		if (rn == GV_ENOTFOUND)
			rn = read_polished(img, grey_work, &gp, size, opts, coarse, &dp, en, sizeof en);
		/* polished, it stops a line short (the board's lines go on
		 * beyond one outer line, on wood): moved a line that way, as
		 * the lines' grid is, and read again */
		if (rn == GV_ENOTFOUND && dp.proof.goes_on)
			rn = follow_goes_on(img, &gp, size, opts, coarse, "polished", &dp, en, sizeof en);
		if (pass)
			dtr(opts, "detect: the lattice as found, polished%s: proof spans %.2f lines %.2f beyond %.2f: %s",
			    memcmp(gp.H, g0->H, sizeof gp.H) ? "" : " (its reading as found: the polish kept nothing)",
			    dp.proof.span_share, dp.proof.line_share, dp.proof.beyond_share, rn ? "failed" : "proved");
		if (moved_passes(rn, &dp)) {
			found = pass ? nmoves : best;
			dk = dp;
			gk = gp;
		} else if (rn != GV_OK && rn != GV_ENOTFOUND) {
			return shift_error(rn, en, err, cap);
		}
	}
	if (found < 0)
		return GV_ENOTFOUND;
	if (moved_whole) {
		/* a lattice moved whole that passes keeps the slant of the
		 * wrong lines it was fitted to: polished on its empty points,
		 * and taken so where that passes too */
		gv_grid gp = gk;
		gv_detection dp = dk;
		int rp = read_polished(img, grey_work, &gp, size, opts, coarse, &dp, en, sizeof en);
		if (rp == GV_OK) {
			gk = gp;
			dk = dp;
		} else if (rp != GV_ENOTFOUND) {
			return shift_error(rp, en, err, cap);
		}
	}
	int rq = outline_contradicts(img, grey_work, &gk, size, opts, "the moved lattice", err, cap);
	if (rq != GV_OK)
		return rq;
	for (int t = 0; t < 4; t++) { /* its neighbours: the first four moves */
		gv_grid gn = gk;
		int du = moves[t][0], dv = moves[t][1];
		move_grid(&gn, size, du, dv);
		gv_detection dn;
		int rn = read_grid_at(img, &gn, size, true, NULL, opts, coarse, &dn, en, sizeof en);
		dtr(opts, "detect: the one taken moved (%d, %d): %s", du, dv, rn ? en : "proved too");
		if (moved_passes(rn, &dn))
			return GV_ENOTFOUND;
		if (rn != GV_OK && rn != GV_ENOTFOUND)
			return shift_error(rn, en, err, cap);
	}
	*out = dk;
	*g = gk;
	return GV_OK;
}

/* Nothing found at the working size nor at GV_LOCATE_COARSE_PX: the lines
 * at GV_LOCATE_FINE_PX (the photo's own size when smaller), where a large
 * photo's small cells keep lines long enough to be found, and the grid
 * proved on the photo as at the working size. GV_OK (into out and *g),
 * GV_ENOTFOUND (err untouched), or an error with its message. */
static int fine_search(const gv_image *img, const gv_locate_opts *lo, int size, const gv_detect_opts *opts,
                       gv_detection *out, gv_grid *g, char *err, size_t cap)
{
	int longer = img->width > img->height ? img->width : img->height;
	gv_locate_opts lf = *lo;
	lf.work_px = longer < GV_LOCATE_FINE_PX ? longer : GV_LOCATE_FINE_PX;
	lf.grey_work = NULL;
	lf.dump_png = NULL;
	gv_grid g2;
	char e2[300];
	dtr(opts, "detect: the lines at %d px", lf.work_px);
	int rc = gv_locate(img, &lf, &g2, e2, sizeof e2);
	if (rc == GV_OK) {
		gv_detection d2;
		rc = read_grid(img, &g2, size, true, NULL, opts, &d2, e2, sizeof e2);
		dtr(opts, "detect: the lines' grid at %d px: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f: %s", lf.work_px,
		    g2.corners[0], g2.corners[1], g2.corners[2], g2.corners[3], g2.corners[4], g2.corners[5], g2.corners[6],
		    g2.corners[7], rc ? e2 : "proved");
		if (rc == GV_OK) {
			*out = d2;
			*g = g2;
		} else if (rc == GV_ENOTFOUND) {
			rc = bound_move(img, &g2, &d2, size, opts, "the lines' grid there", out, g, err, cap);
			if (rc != GV_ENOTFOUND)
				return rc;
			/* moved a line or two, or polished on its empty points,
			 * as the lines' grid at the working size is */
			rc = shift_search(img, NULL, &g2, &d2, GV_ENOTFOUND, size, 2, opts, NULL, out, g, err, cap);
			if (rc != GV_ENOTFOUND)
				return rc;
		}
	} else {
		dtr(opts, "detect: at %d px: %s", lf.work_px, e2);
	}
	if (rc != GV_OK && rc != GV_ENOTFOUND && err && cap)
		snprintf(err, cap, "%s", e2);
	return rc;
}

/* Nothing found at the working size (the lines, the lines halved, the
 * outline): the lines at GV_LOCATE_COARSE_PX (a blurred or grainy photo),
 * on a grey copy made from the working one (work800, when there is one)
 * and proved on the photo shrunk alike. The evidence is faint there, so the
 * grid must also be the only one of itself and its neighbours a line over
 * each way to pass (a board's dark edge, blurred, can pass for the outer
 * line of a lattice a line off). GV_OK (into out and *g), GV_ENOTFOUND
 * (err untouched), or an error with its message. */
static int coarse_search(const gv_image *img, const gv_image *work800, const gv_locate_opts *lo, int size,
                         const gv_detect_opts *opts, gv_detection *out, gv_grid *g, char *err, size_t cap)
{
	int cw, ch;
	gv_fit_size(img->width, img->height, GV_LOCATE_COARSE_PX, &cw, &ch);
	gv_image grey = {0}, colour = {0};
	if (work800 && gv_shrink_area(work800, &grey, cw, ch)) {
		if (err && cap)
			snprintf(err, cap, "detect: out of memory");
		return GV_ENOMEM;
	}
	gv_locate_opts lc = *lo;
	lc.work_px = GV_LOCATE_COARSE_PX;
	lc.grey_work = work800 ? &grey : NULL;
	lc.dump_png = NULL;
	gv_grid g2;
	char e2[300];
	dtr(opts, "detect: the lines at %d px", GV_LOCATE_COARSE_PX);
	int rc = gv_locate(img, &lc, &g2, e2, sizeof e2);
	if (rc == GV_OK && gv_shrink_area(img, &colour, cw, ch)) {
		snprintf(e2, sizeof e2, "detect: out of memory");
		rc = GV_ENOMEM;
	}
	if (rc == GV_OK) {
		gv_detection d2;
		rc = read_grid_at(img, &g2, size, true, NULL, opts, &colour, &d2, e2, sizeof e2);
		int read_rc = rc; /* the reading's own code (a neighbour passing turns rc down) */
		dtr(opts, "detect: the lines' grid at %d px: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f; proof spans %.2f lines %.2f beyond %.2f (goes on %d), outer lines %d judged %d missing: %s",
		    GV_LOCATE_COARSE_PX, g2.corners[0], g2.corners[1], g2.corners[2], g2.corners[3], g2.corners[4],
		    g2.corners[5], g2.corners[6], g2.corners[7], d2.proof.span_share, d2.proof.line_share,
		    d2.proof.beyond_share, d2.proof.goes_on, d2.proof.outer_judged, d2.proof.outer_missing,
		    rc ? e2 : "proved");
		for (int t = 0; rc == GV_OK && t < 4; t++) {
			int du = t == 0 ? 1 : t == 1 ? -1 : 0, dv = t == 2 ? 1 : t == 3 ? -1 : 0;
			gv_grid gn = g2;
			move_grid(&gn, size, du, dv);
			gv_detection dn;
			char en[300];
			int rn = read_grid_at(img, &gn, size, true, NULL, opts, &colour, &dn, en, sizeof en);
			dtr(opts, "detect: at %d px, the grid moved a line (%d, %d): %s", GV_LOCATE_COARSE_PX, du, dv,
			    rn ? en : "proved too");
			if (rn == GV_OK) {
				rc = GV_ENOTFOUND;
				snprintf(e2, sizeof e2, "no board found: at %d px, a grid a line over passes too",
				         GV_LOCATE_COARSE_PX);
			} else if (rn != GV_ENOTFOUND) {
				rc = rn;
				snprintf(e2, sizeof e2, "%s", en);
			}
		}
		if (rc == GV_ENOTFOUND && d2.proof.span_share >= GV_SHIFT_MIN_SPANS) {
			/* the lines' spacing, counted from the wrong line */
			int r3 = shift_search(img, work800, &g2, &d2, read_rc, size, 1, opts, &colour, out, g, err, cap);
			if (r3 != GV_ENOTFOUND) {
				gv_image_free(&grey);
				gv_image_free(&colour);
				return r3;
			}
		}
		rc = take_candidate(rc, &d2, &g2, e2, out, g, err, cap);
	} else if (rc != GV_ENOTFOUND) {
		if (err && cap)
			snprintf(err, cap, "%s", e2);
	} else {
		dtr(opts, "detect: at %d px: %s", GV_LOCATE_COARSE_PX, e2);
	}
	gv_image_free(&grey);
	gv_image_free(&colour);
	return rc;
}

/* Switches for measuring the outline's last resorts (1, on, in the
 * project; -DNAME=0 at build time turns one off): the outline round the
 * darker region on a whole-photo floor, the outline with its sides the
 * straight runs of the region's edge where every search failed, and the
 * same on the darker region. */
#ifndef OUTLINE_DARK
#define OUTLINE_DARK 1
#endif
#ifndef OUTLINE_SIDES
#define OUTLINE_SIDES 1
#endif
#ifndef OUTLINE_DARK_SIDES
#define OUTLINE_DARK_SIDES 1
#endif

/* The grid from the board's outline (gv_locate_outline with lo) into *g,
 * polished on the spans between the points read empty through it, as
 * clicked corners are, within GV_OUTLINE_REFINE_REACH (once: a second and
 * third round moved nothing on gobanwatcher/3), and read and proved into
 * *d (*was_read: d holds a reading). 0 (proved), GV_ENOTFOUND, or
 * GV_ENOMEM / GV_ECV (the outline could not be looked for), with a
 * message in err. */
static int outline_grid(const gv_image *img, const gv_locate_opts *lo, int size, const gv_detect_opts *opts,
                        gv_grid *g, gv_detection *d, bool *was_read, char *err, size_t cap)
{
	*was_read = false;
	int rc = gv_locate_outline(img, lo, g, err, cap);
	if (rc) {
		dtr(opts, "outline: %s", err);
		return rc;
	}
	dtr(opts, "detect: the outline's grid found");
	gv_point_features feat[19 * 19];
	bool same = false; /* the polish kept the grid: its features stand */
	unsigned char cells[19 * 19], empty[19 * 19];
	if (gv_classify_features(img, g->H, size, feat) == GV_OK && gv_classify_decide(feat, size, cells, NULL) == GV_OK) {
		double c[8];
		memcpy(c, g->corners, sizeof c);
		for (int k = 0; k < size * size; k++)
			empty[k] = cells[k] == 0;
		char why[200], e2[200];
		gv_grid g2;
		if (gv_refine_corners_shared(img, lo->grey_work, size, empty, c, GV_OUTLINE_REFINE_REACH, e2, sizeof e2) ==
		        GV_OK &&
		    gv_grid_from_corners(c, size, img->width, img->height, &g2, why, sizeof why) == GV_OK) {
			g2.support = g->support;
			g2.has_outline = g->has_outline;
			memcpy(g2.outline, g->outline, sizeof g2.outline);
			same = !memcmp(g2.H, g->H, sizeof g->H);
			*g = g2;
		}
		dtr(opts, "outline: refined %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f", g->corners[0], g->corners[1],
		    g->corners[2], g->corners[3], g->corners[4], g->corners[5], g->corners[6], g->corners[7]);
	}
	rc = read_grid(img, g, size, true, same ? feat : NULL, opts, d, err, cap);
	*was_read = rc == GV_OK || rc == GV_ENOTFOUND;
	dtr(opts,
	    "outline: corners %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f score %.3f; proof spans %.2f lines %.2f beyond %.2f "
	    "outer missing %d; margins %.2f %.2f %.2f %.2f, %d stones off by %.2f, %d points in doubt: %s%s%s%s",
	    g->corners[0], g->corners[1], g->corners[2], g->corners[3], g->corners[4], g->corners[5], g->corners[6],
	    g->corners[7], g->support, d->proof.span_share, d->proof.line_share, d->proof.beyond_share,
	    d->proof.outer_missing, d->proof.margin[0], d->proof.margin[1], d->proof.margin[2], d->proof.margin[3],
	    d->proof.stones, d->proof.stone_off, d->proof.doubt,
	    d->proof.ok ? (d->proof.by_stones ? "passed by the stones" : "passed") : "failed", rc ? " (" : "",
	    rc ? err : "", rc ? ")" : "");
	return rc;
}

/* outline_grid with lo, taken into *g and *d where it passes (by its
 * stones too only where stones_too): 0; GV_ENOTFOUND (*g, *d as they
 * were); or GV_ENOMEM / GV_ECV with its message in err. */
static int outline_again(const gv_image *img, const gv_locate_opts *lo, int size, const gv_detect_opts *opts,
                         bool stones_too, gv_grid *g, gv_detection *d, char *err, size_t cap)
{
	gv_grid g2;
	gv_detection d2;
	bool was_read = false;
	char e2[300];
	int rc = outline_grid(img, lo, size, opts, &g2, &d2, &was_read, e2, sizeof e2);
	if (rc == GV_ENOMEM || rc == GV_ECV) {
		snprintf(err, cap, "%s", e2);
		return rc;
	}
	if (rc || (d2.proof.by_stones && !stones_too))
		return GV_ENOTFOUND;
	*g = g2;
	*d = d2;
	return 0;
}

/* The brightest region (brightest_once) is the whole photo: a floor or a
 * table as bright as the board. */
static bool floor_whole(const gv_locate_opts *lo)
{
	return lo->bright_known && lo->bright_rc == GV_OK && lo->bright_share >= GV_OUTLINE_WHOLE_SHARE;
}

/* The outline round the darker region, then round its brighter part
 * (gv_locate_opts.outline_dark GV_QUAD_DARK, GV_QUAD_DARK_TOP), with lo's other settings (its
 * straight sides or not): outline_again's codes. */
static int outline_darker(const gv_image *img, const gv_locate_opts *lo, int size, const gv_detect_opts *opts,
                          gv_grid *g, gv_detection *d, char *err, size_t cap)
{
	gv_locate_opts ld = *lo;
	int rc = GV_ENOTFOUND;
	for (ld.outline_dark = GV_QUAD_DARK; ld.outline_dark <= GV_QUAD_DARK_TOP && rc == GV_ENOTFOUND; ld.outline_dark++) {
		dtr(opts, "detect: the outline round the darker region%s%s",
		    ld.outline_dark == GV_QUAD_DARK_TOP ? "'s brighter part" : "",
		    ld.outline_sides ? ", its sides straight" : "");
		rc = outline_again(img, &ld, size, opts, true, g, d, err, cap);
	}
	return rc;
}

/* The board's bright quadrilateral looked for once, where lo has the
 * photo's grey working copy, and kept in lo (bright_known: the outline
 * starts from it): where it covers the whole photo (a floor or table as
 * bright as the board, GV_OUTLINE_WHOLE_SHARE), the outline cannot find a
 * crowded board whose lines are hidden, and the lines' searches take a
 * lattice to its proof on fewer of its lines (lo->min_support =
 * GV_LOCATE_LOW_SUPPORT). 0, or GV_ENOMEM / GV_ECV with the message in
 * err. */
static int brightest_once(const gv_image *img, gv_locate_opts *lo, const gv_detect_opts *opts, char *err,
                          size_t cap)
{
	if (lo->bright_known || !lo->grey_work)
		return 0;
	char e2[200];
	int rb = gv_bright_quad(img, lo->grey_work, lo->bright_quad, &lo->bright_share, e2, sizeof e2);
	if (rb == GV_ENOMEM || rb == GV_ECV) {
		if (err && cap)
			snprintf(err, cap, "%s", e2);
		return rb;
	}
	lo->bright_known = rb == GV_OK || rb == GV_ENOTFOUND;
	lo->bright_rc = rb;
	if (!rb && lo->bright_share >= GV_OUTLINE_WHOLE_SHARE) {
		lo->min_support = GV_LOCATE_LOW_SUPPORT;
		dtr(opts, "detect: the brightest region is the whole photo (%.2f): a lattice on %.0f%% of its lines goes to "
		    "its proof",
		    lo->bright_share, 100 * GV_LOCATE_LOW_SUPPORT);
	}
	return 0;
}

int gv_detect(gv_detection *out, const gv_image *rgb, const gv_detect_opts *opts, char *err, size_t cap)
{
	if (!out || !rgb || !rgb->data || rgb->channels != 3) {
		if (err && cap)
			snprintf(err, cap, "detect: bad argument (a 3-channel image is needed)");
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	if (opts && opts->located)
		memset(opts->located, 0, sizeof *opts->located);
	int size = opts && opts->size ? opts->size : 19;
	if (size != 9 && size != 13 && size != 19) {
		if (err && cap)
			snprintf(err, cap, "detect: the size must be 9, 13 or 19");
		return GV_EINVAL;
	}
	gv_image undist = {0}, work = {0};
	gv_segments segs = {0}; /* the lines' segments at the working size, for the search again halved */
	const gv_image *img = rgb;
	if (opts && opts->K) {
		int rc = gv_undistort(rgb, opts->K, opts->dist, opts->ndist, &undist, err, cap);
		if (rc)
			return rc;
		img = &undist;
	}
	gv_grid g;
	int rc;
	if (opts && opts->corners) {
		/* corners given by a person: read, not proved */
		char why[200];
		rc = gv_grid_from_corners(opts->corners, size, img->width, img->height, &g, why, sizeof why);
		if (!rc && !opts->keep_corners) {
			/* a click is a few pixels off: snap the grid to the lines
			 * near it (kept as given when they do not show better) */
			double c[8];
			memcpy(c, g.corners, sizeof c);
			unsigned char empty[19 * 19];
			rc = gv_classify(img, g.H, size, out->cells, NULL);
			if (rc == GV_EINVAL) {
				if (err && cap)
					snprintf(err, cap, "bad corners: the grid reaches beyond the photo");
				goto done;
			}
			for (int k = 0; k < size * size; k++)
				empty[k] = out->cells[k] == 0;
			/* the grey working copy, made once for the polish's five
			 * starts (twice over) and the stones' fit */
			if (!rc && (rc = gv_work_grey(img, GV_OUTLINE_WORK_PX, &work)) != 0) {
				if (err && cap)
					snprintf(err, cap, "detect: %s", rc == GV_ENOMEM ? "out of memory" : "bad image");
				goto done;
			}
			if (!rc)
				rc = settle_clicks(img, &work, size, empty, opts, c, err, cap);
			if (!rc && gv_grid_from_corners(c, size, img->width, img->height, &g, why, sizeof why))
				rc = gv_grid_from_corners(opts->corners, size, img->width, img->height, &g, why, sizeof why);
			if (rc == GV_ENOMEM || rc == GV_ECV)
				goto done;
		}
		if (rc) {
			if (err && cap)
				snprintf(err, cap, "bad corners: %s", why);
		} else {
			rc = read_grid(img, &g, size, false, NULL, opts, out, err, cap);
			if (!rc)
				dtr(opts, "corners: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f; proof spans %.2f lines %.2f beyond %.2f outer missing %d",
				    g.corners[0], g.corners[1], g.corners[2], g.corners[3], g.corners[4], g.corners[5], g.corners[6],
				    g.corners[7], out->proof.span_share, out->proof.line_share, out->proof.beyond_share,
				    out->proof.outer_missing);
		}
	} else {
		/* the grid from the lines; when it is not found or fails its
		 * proof, the grid from the board's outline */
		gv_locate_opts lo = {.size = size, .work_px = opts ? opts->work_px : 0};
		if (opts) {
			lo.trace = opts->trace;
			lo.trace_ud = opts->trace_ud;
			lo.dump_png = opts->dump_png;
		}
		/* the grey working copy, made once for the lines, the outline
		 * and its polish when they work at the same size */
		if (!lo.work_px || lo.work_px == GV_OUTLINE_WORK_PX) {
			rc = gv_work_grey(img, GV_OUTLINE_WORK_PX, &work);
			if (rc) {
				if (err && cap)
					snprintf(err, cap, "detect: %s", rc == GV_ENOMEM ? "out of memory" : "bad image");
				goto done;
			}
			lo.grey_work = &work;
		}
		lo.segments = &segs;
		dtr(opts, "detect: the lines");
		rc = gv_locate(img, &lo, &g, err, cap);
		if (rc == GV_ENOTFOUND) {
			/* a lattice fitted on too few of its lines: again with
			 * fewer where the brightest region is the whole photo */
			double sup = g.support;
			int rb = brightest_once(img, &lo, opts, err, cap);
			if (rb) {
				rc = rb;
				goto done;
			}
			if (sup > 0 && lo.min_support > 0 && sup >= lo.min_support) {
				dtr(opts, "detect: the lines again, their lattice on %.0f%% of its lines taken", 100 * sup);
				rc = gv_locate(img, &lo, &g, err, cap);
			}
		}
		bool located = rc == GV_OK;
		if (opts && opts->located && !rc)
			*opts->located = g;
		gv_grid lines_grid = g;
		gv_detection lines_read; /* its reading (before the moves below change out) */
		int lines_rc = rc;
		if (!rc) {
			rc = read_grid(img, &g, size, true, NULL, opts, out, err, cap);
			lines_read = *out;
			lines_rc = rc;
			dtr(opts, "detect: the lines' grid %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f", g.corners[0], g.corners[1],
			    g.corners[2], g.corners[3], g.corners[4], g.corners[5], g.corners[6], g.corners[7]);
			dtr(opts, "detect: the lines' grid read; proof spans %.2f lines %.2f beyond %.2f (goes on %d), strips %.2f %.2f %.2f %.2f, cross %.2f %.2f %.2f %.2f, outer lines %d judged %d missing, margins %.2f %.2f %.2f %.2f%s: %s",
			    out->proof.span_share, out->proof.line_share, out->proof.beyond_share, out->proof.goes_on,
			    out->proof.strip_share[0], out->proof.strip_share[1], out->proof.strip_share[2],
			    out->proof.strip_share[3], out->proof.cross_share[0], out->proof.cross_share[1],
			    out->proof.cross_share[2], out->proof.cross_share[3], out->proof.outer_judged,
			    out->proof.outer_missing, out->proof.margin[0], out->proof.margin[1], out->proof.margin[2],
			    out->proof.margin[3], out->proof.by_outline ? " (the outline bounds it)" : out->proof.by_beyond ? " (empty points beyond bound it)" : out->proof.by_edge ? " (the board's edge bounds it)" : "",
			    rc ? "failed" : "proved");
			/* a lattice a line short: the board's lines go on beyond
			 * one outer line, on wood. The lattice moved a line that
			 * way is the next candidate, and must pass the whole proof
			 * on its own (its far side then shows no line beyond) */
			if (rc == GV_ENOTFOUND && out->proof.goes_on) {
				gv_grid gs = g;
				gv_detection d2 = *out;
				char e2[300];
				int r2 = follow_goes_on(img, &gs, size, opts, NULL, "the lattice", &d2, e2, sizeof e2);
				if (take_candidate(r2, &d2, &gs, e2, out, &g, err, cap) != GV_ENOTFOUND) {
					rc = r2;
					if (rc)
						goto done;
				} /* else the first failure's message stands */
			}
		}
		if (rc == GV_ENOTFOUND) {
			/* the lines' grid failed its proof: the searches below
			 * take a lattice on fewer lines where the brightest region
			 * is the whole photo */
			int rb = brightest_once(img, &lo, opts, err, cap);
			if (rb) {
				rc = rb;
				goto done;
			}
		}
		if (rc == GV_ENOTFOUND && located) {
			/* the lines' lattice failed its proof: the lines again,
			 * a family twice too dense halved (density_check) */
			gv_locate_opts ld = lo;
			ld.halve_dense = 1;
			ld.dump_png = NULL;
			gv_grid g2;
			char e2[300];
			if (gv_locate(img, &ld, &g2, e2, sizeof e2) == GV_OK && memcmp(g2.H, g.H, sizeof g.H)) {
				gv_detection d2;
				int r2 = read_grid(img, &g2, size, true, NULL, opts, &d2, e2, sizeof e2);
				dtr(opts, "detect: the lines' grid, halved: %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f: %s", g2.corners[0],
				    g2.corners[1], g2.corners[2], g2.corners[3], g2.corners[4], g2.corners[5], g2.corners[6],
				    g2.corners[7], r2 ? e2 : "proved");
				if (take_candidate(r2, &d2, &g2, e2, out, &g, err, cap) != GV_ENOTFOUND) {
					rc = r2;
					if (rc)
						goto done;
				} else if ((r2 = bound_move(img, &g2, &d2, size, opts, "the lines' grid, halved,", out, &g, err,
				                            cap)) != GV_ENOTFOUND) {
					rc = r2;
					if (rc)
						goto done;
				}
			}
		}
		if (rc == GV_ENOTFOUND && located && lines_rc == GV_ENOTFOUND) {
			int r2 = bound_move(img, &lines_grid, &lines_read, size, opts, "the lines' grid", out, &g, err, cap);
			if (r2 != GV_ENOTFOUND) {
				rc = r2;
				if (rc)
					goto done;
			}
		}
		if (rc == GV_ENOTFOUND) {
			dtr(opts, "detect: %s", err && cap ? err : "no board found by the lines");
			char err2[300];
			dtr(opts, "detect: the outline");
			gv_detection d2;
			bool was_read = false;
			int rc2 = outline_grid(img, &lo, size, opts, &g, &d2, &was_read, err2, sizeof err2);
			/* failed with its lines on most of its spans (as a grid
			 * passed by its stones must have them), or passed by its
			 * stones alone, with the margin on the side nearest the
			 * camera short of the far one (a grid that side too big,
			 * its stones' rims taken for its lines): again with that
			 * margin held to the far one's */
			if (((rc2 == GV_ENOTFOUND && was_read) || (!rc2 && d2.proof.by_stones)) &&
			    d2.proof.span_share >= GV_PROOF_STONE_SPAN_SHARE) {
				int near = gv_outline_near_side(g.outline);
				if (d2.proof.margin[near] < d2.proof.margin[(near + 2) % 4] - GV_OUTLINE_NEAR_SLACK) {
					gv_locate_opts lt = lo;
					lt.near_tied = 1;
					dtr(opts, "detect: the outline, its near margin held to the far one's");
					int r3 = outline_again(img, &lt, size, opts, false, &g, &d2, err2, sizeof err2);
					if (r3 != GV_ENOTFOUND)
						rc2 = r3;
				}
			}
			/* no board from the outline: the board's quadrilateral
			 * again round every large piece of bright region (a
			 * crowded board that chains of black stones across its
			 * margin cut apart) */
			if (rc2 == GV_ENOTFOUND) {
				gv_locate_opts ll = lo;
				ll.outline_pieces = 1;
				dtr(opts, "detect: the outline round every large bright piece");
				rc2 = outline_again(img, &ll, size, opts, true, &g, &d2, err2, sizeof err2);
			}
			/* nor from the bright pieces, and the brightest region is
			 * the floor (the whole photo): the board may be darker than
			 * it, the outline round the darkest region */
			if (rc2 == GV_ENOTFOUND && OUTLINE_DARK && floor_whole(&lo))
				rc2 = outline_darker(img, &lo, size, opts, &g, &d2, err2, sizeof err2);
			/* found; or not "no board": the outline could not be
			 * looked for (GV_ENOMEM, GV_ECV) */
			if (take_candidate(rc2, &d2, &g, err2, out, &g, err, cap) != GV_ENOTFOUND) {
				rc = rc2;
				if (rc)
					goto done;
			}
		}
		if (rc == GV_ENOTFOUND && located && lines_read.proof.span_share >= GV_SHIFT_MIN_SPANS) {
			/* the lines' spacing, counted from the wrong line (after
			 * the outline, which finds most such boards for less) */
			int r2 = shift_search(img, lo.grey_work, &lines_grid, &lines_read, lines_rc, size, 2, opts, NULL, out, &g,
			                      err, cap);
			if (r2 != GV_ENOTFOUND) {
				rc = r2;
				if (rc)
					goto done;
			}
		}
		int longer = img->width > img->height ? img->width : img->height;
		if (rc == GV_ENOTFOUND && !lo.work_px && longer > GV_LOCATE_COARSE_PX) {
			int r2 = coarse_search(img, lo.grey_work, &lo, size, opts, out, &g, err, cap);
			if (r2 != GV_ENOTFOUND)
				rc = r2;
		}
		if (rc == GV_ENOTFOUND && !lo.work_px && longer >= GV_LOCATE_FINE_MIN) {
			int r2 = fine_search(img, &lo, size, opts, out, &g, err, cap);
			if (r2 != GV_ENOTFOUND)
				rc = r2;
		}
		/* nothing found: the outline once more, each side of the
		 * bright region's quadrilateral the straight run of its edge
		 * (a bowl, a lid or loose stones touching the board's region
		 * bulge its hull, and the corner there lies off the board) */
		if (rc == GV_ENOTFOUND && OUTLINE_SIDES) {
			gv_locate_opts ls = lo;
			ls.outline_sides = 1;
			gv_detection d2;
			char err2[300];
			dtr(opts, "detect: the outline, its sides the straight runs of the region's edge");
			int r2 = outline_again(img, &ls, size, opts, true, &g, &d2, err2, sizeof err2);
			if (r2 == GV_ENOTFOUND && OUTLINE_DARK_SIDES && floor_whole(&lo))
				r2 = outline_darker(img, &ls, size, opts, &g, &d2, err2, sizeof err2);
			if (take_candidate(r2, &d2, &g, err2, out, &g, err, cap) != GV_ENOTFOUND)
				rc = r2;
		}
	}
done:
	gv_segments_free(&segs);
	gv_image_free(&work);
	gv_image_free(&undist);
	return rc;
}
