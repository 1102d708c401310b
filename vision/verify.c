/* goref vision: proof that a grid is the board's. See verify.h. */
#include "verify.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "geom.h"
#include "sortf.h"
#include "tuning.h"

/* Whether a line shows on the span from (i, j) along the unit step (di, dj):
 * at each sample along it, the darkest of a few places across the line
 * against the brighter side a little further out (both: the darker, a
 * ridge; the board's edge, a step from wood to table, is no line). -1 when
 * it cannot be judged (off the image). A sample is lined where its
 * contrast reaches thr; contrast, when given, gets the GV_PROOF_SAMPLES
 * samples' contrasts. */
static int span_lined_at(const gv_image *img, const double H[9], double u, double v, int di, int dj, bool both,
                         double thr, double *contrast)
{
	int lined = 0, judged = 0;
	for (int s = 1; s <= GV_PROOF_SAMPLES; s++) {
		double t = (double)s / (GV_PROOF_SAMPLES + 1);
		double c, side;
		/* across the line: the perpendicular step */
		if (!gv_line_contrast(img, H, u + di * t, v + dj * t, dj, di, GV_PROOF_SLACK, 1, GV_PROOF_SIDE, both, &c,
		                      &side))
			return -1;
		judged++;
		lined += side > 1 && c >= thr;
		if (contrast)
			contrast[s - 1] = c;
	}
	return 2 * lined >= judged;
}

static int span_lined(const gv_image *img, const double H[9], int i, int j, int di, int dj, bool both)
{
	return span_lined_at(img, H, i, j, di, dj, both, GV_PROOF_CONTRAST, NULL);
}

/* The other family's lines going on one cell beyond the outer line `outer`
 * of family dir (0: rows, 1: columns) toward `step` (-1 or 1), from the
 * outer line's points read empty (and, where beyond is given, read empty
 * on the line beyond too): *judged spans judged, *lined of them lined. */
static void cross_spans(const gv_image *img, const double H[9], int size, const unsigned char *cells, int dir,
                        int outer, int step, const unsigned char *beyond, int *judged, int *lined)
{
	*judged = *lined = 0;
	for (int s = 0; s < size; s++) {
		int i = dir ? outer : s, j = dir ? s : outer;
		if (cells[j * size + i] || (beyond && beyond[s]))
			continue;
		int r = span_lined(img, H, i, j, dir ? step : 0, dir ? 0 : step, true);
		if (r < 0)
			continue;
		(*judged)++;
		*lined += r;
	}
}

/* The control: the ridge test's contrast half a cell off the lattice, along
 * the middles of squares whose four corners are empty (plain wood, where no
 * line shows on the board's own lattice), at GV_PROOF_SAMPLES places a span,
 * both families. The contrast a grid line must reach: GV_PROOF_CONTRAST, or
 * the control's GV_PROOF_CONTROL_Q quantile where that is higher (a grainy
 * picture, where the test finds a "line" anywhere). *share gets the share of
 * the control's spans that pass GV_PROOF_CONTRAST. */
static double control_threshold(const gv_image *img, const double H[9], int size, const unsigned char *cells,
                                 double *share)
{
	double *c = malloc(sizeof *c * 2 * 18 * 18 * GV_PROOF_SAMPLES);
	int n = 0, spans = 0, lined = 0;
	*share = 0;
	if (!c)
		return GV_PROOF_CONTRAST;
	for (int dir = 0; dir < 2; dir++)
		for (int line = 0; line + 1 < size; line++)
			for (int s = 0; s + 1 < size; s++) {
				int i = dir ? line : s, j = dir ? s : line;
				if (cells[j * size + i] || cells[j * size + i + 1] || cells[(j + 1) * size + i] ||
				    cells[(j + 1) * size + i + 1])
					continue;
				int r = span_lined_at(img, H, i + (dir ? 0.5 : 0), j + (dir ? 0 : 0.5), dir ? 0 : 1, dir ? 1 : 0,
				                      false, GV_PROOF_CONTRAST, &c[n]);
				if (r < 0)
					continue;
				n += GV_PROOF_SAMPLES;
				spans++;
				lined += r;
			}
	double thr = GV_PROOF_CONTRAST;
	if (spans >= GV_PROOF_MIN_SPANS) {
		*share = (double)lined / spans;
		qsort(c, (size_t)n, sizeof *c, gv_cmp_double);
		double q = c[(int)(GV_PROOF_CONTROL_Q * (n - 1))];
		if (q > thr)
			thr = q;
	}
	free(c);
	return thr;
}

/* Whether the lattice goes on one cell beyond the outer line `outer` of
 * family dir (0: rows, 1: columns) toward `step` (-1 or 1) as the board's
 * own grid would: the line there shows on more than
 * GV_PROOF_MAX_BEYOND_SHARE of its spans, on wood (both its sides at least
 * GV_PROOF_BEYOND_WOOD of the board's brightness just inside the outer
 * line), as strongly as a grid line (its median contrast at least
 * GV_PROOF_BEYOND_LIKE of the outer line's, on the spans open there). A
 * board's margin is plain wood or the board's edge; a lattice a line short
 * of the grid finds the grid's real outer line there. */
static bool lattice_goes_on(const gv_image *img, const double H[9], int size, const unsigned char *cells, int dir,
                            int outer, int step, const unsigned char *beyond)
{
	int judged = 0, lined = 0, n = 0;
	double c_out[19], c_far[19], g_in[19], g_out[19];
	for (int s = 0; s + 1 < size; s++) {
		int i = dir ? outer : s, j = dir ? s : outer;
		int fi = dir ? outer + step : s, fj = dir ? s : outer + step;
		int di = dir ? 0 : 1, dj = dir ? 1 : 0;
		/* with the line beyond read: its spans between two empty points */
		if (beyond && (beyond[s] || beyond[s + 1]))
			continue;
		int r = span_lined(img, H, fi, fj, di, dj, true);
		if (r < 0)
			continue;
		judged++;
		lined += r;
		int i2 = i + di, j2 = j + dj;
		if (cells[j * size + i] || cells[j2 * size + i2])
			continue;
		/* the middle of the span, across: the outer line, the line
		 * beyond, its two sides, and the board just inside */
		double mu = i + 0.5 * di, mv = j + 0.5 * dj, nu = dj * step, nv = di * step;
		double co, cf, side;
		if (!gv_line_contrast(img, H, mu, mv, nu, nv, GV_PROOF_SLACK, 1, GV_PROOF_SIDE, true, &co, &side) ||
		    !gv_line_contrast(img, H, mu + nu, mv + nv, nu, nv, GV_PROOF_SLACK, 1, GV_PROOF_SIDE, true, &cf, &side))
			continue;
		double in = gv_grey_board(img, H, mu - nu * GV_PROOF_SIDE, mv - nv * GV_PROOF_SIDE);
		double a = gv_grey_board(img, H, mu + nu * (1 - GV_PROOF_SIDE), mv + nv * (1 - GV_PROOF_SIDE));
		double b = gv_grey_board(img, H, mu + nu * (1 + GV_PROOF_SIDE), mv + nv * (1 + GV_PROOF_SIDE));
		if (!(in > 0) || a < 0 || b < 0)
			continue;
		c_out[n] = co;
		c_far[n] = cf;
		g_in[n] = a / in;
		g_out[n] = b / in;
		n++;
	}
	if (judged < GV_PROOF_MIN_SPANS || n < GV_PROOF_MIN_SPANS || lined <= GV_PROOF_MAX_BEYOND_SHARE * judged)
		return false;
#ifndef GV_NO_BEYOND_CROSS
	/* the other family's lines go on across the strip to it, from the
	 * outer line's empty points: a lattice a line short has the grid's
	 * own lines there; between an outer line and the board's edge (a
	 * thin board's bevel, its shadow a dark line a cell out on a pale
	 * floor) lies plain wood */
	int cj, cl;
	cross_spans(img, H, size, cells, dir, outer, step, beyond, &cj, &cl);
	if (cj >= GV_PROOF_MIN_SPANS && cl < GV_PROOF_BEYOND_CROSS * cj)
		return false;
#endif
	qsort(c_out, (size_t)n, sizeof *c_out, gv_cmp_double);
	qsort(c_far, (size_t)n, sizeof *c_far, gv_cmp_double);
	qsort(g_in, (size_t)n, sizeof *g_in, gv_cmp_double);
	qsort(g_out, (size_t)n, sizeof *g_out, gv_cmp_double);
	double co = c_out[n / 2], cf = c_far[n / 2];
	return co > 0 && cf >= GV_PROOF_BEYOND_LIKE * co && g_in[n / 2] >= GV_PROOF_BEYOND_WOOD &&
	       g_out[n / 2] >= GV_PROOF_BEYOND_WOOD;
}

static int cmp_uchar(const void *a, const void *b)
{
	return (int)*(const unsigned char *)a - (int)*(const unsigned char *)b;
}

int gv_proof_picture(const gv_image *rgb, const double H[9], int size, gv_image *out)
{
	if (!rgb || !rgb->data || rgb->channels != 3 || !H || !out || size < 2 || size > 19)
		return GV_EINVAL;
	unsigned char v[3][18 * 18];
	int n = 0;
	for (int j = 0; j + 1 < size; j++)
		for (int i = 0; i + 1 < size; i++) {
			double x, y;
			if (!gv_h_apply(H, i + 0.5, j + 0.5, &x, &y) || !(x >= 0 && y >= 0 && x < rgb->width && y < rgb->height))
				continue;
			const unsigned char *p = gv_px(rgb, (int)x, (int)y);
			for (int c = 0; c < 3; c++)
				v[c][n] = p[c];
			n++;
		}
	if (n == 0)
		return 0;
	bool live[3];
	int nlive = 0;
	for (int c = 0; c < 3; c++) {
		qsort(v[c], (size_t)n, 1, cmp_uchar);
		int med = v[c][n / 2];
		live[c] = med > GV_CHANNEL_DARK && med < GV_CHANNEL_CLIPPED;
		nlive += live[c];
	}
	if (nlive == 0 || nlive == 3)
		return 0;
	int rc = gv_image_alloc(out, rgb->width, rgb->height, 1);
	if (rc)
		return rc;
	for (int y = 0; y < rgb->height; y++) {
		const unsigned char *p = rgb->data + (size_t)y * rgb->stride;
		unsigned char *q = out->data + (size_t)y * out->stride;
		for (int x = 0; x < rgb->width; x++, p += 3) {
			int sum = 0;
			for (int c = 0; c < 3; c++)
				sum += live[c] ? p[c] : 0;
			q[x] = (unsigned char)((sum + nlive / 2) / nlive);
		}
	}
	return 1;
}

/* The reading of the line a line beyond side b (2 * family + end) of the
 * grid H: the grid moved a line that way and read (f and cells: size *
 * size of room); line[s] the colour of its s-th point (0 empty, 1 black,
 * 2 white), BEYOND_OUTSIDE for a point beyond the photo. GV_OK, GV_EINVAL
 * (too little of the moved grid in the photo) or GV_ENOMEM. */
#define BEYOND_OUTSIDE 3
static int beyond_line(const gv_image *rgb, const double H[9], int size, int b, gv_point_features *f,
                       unsigned char *cells, unsigned char line[19])
{
	int dir = b / 2, end = b % 2, step = end ? 1 : -1;
	/* board (i, j) of the moved grid is (i, j + step) of H (the rows,
	 * family 0) or (i + step, j) (the columns) */
	double T[9] = {1, 0, dir ? step : 0, 0, 1, dir ? 0 : step, 0, 0, 1}, H2[9];
	gv_h_mul(H, T, H2);
	int rc = gv_classify_features_within(rgb, H2, size, f, NULL);
	if (rc == GV_OK)
		rc = gv_classify_decide(f, size, cells, NULL);
	if (rc == GV_OK) {
		int at = end ? size - 1 : 0;
		for (int t = 0; t < size; t++) {
			int k = dir ? t * size + at : at * size + t;
			line[t] = f[k].outside ? BEYOND_OUTSIDE : cells[k];
		}
	}
	return rc;
}

/* beyond_line with its own room. */
static int beyond_line_alloc(const gv_image *rgb, const double H[9], int size, int b, unsigned char line[19])
{
	gv_point_features *f = malloc(sizeof *f * (size_t)size * size);
	unsigned char *cells = malloc((size_t)size * size);
	int rc = f && cells ? beyond_line(rgb, H, size, b, f, cells, line) : GV_ENOMEM;
	free(f);
	free(cells);
	return rc;
}

int gv_prove_grid(const gv_image *rgb, const double H[9], int size, const unsigned char *cells, gv_proof *out)
{
	if (!rgb || !rgb->data || !H || !cells || !out || size < 2 || size > 19)
		return GV_EINVAL;
	memset(out, 0, sizeof *out);
	out->span_share = out->line_share = 1;
	/* the contrast a grid line must show: no less than the control's */
	double thr = control_threshold(rgb, H, size, cells, &out->control_share);
	/* the spans of each side's outer strip: judged, lined */
	int strip_j[4] = {0}, strip_l[4] = {0};
	for (int dir = 0; dir < 2; dir++) {
		int spans = 0, spans_lined = 0, lines = 0, lines_shown = 0;
		for (int line = 0; line < size; line++) {
			int judged = 0, lined = 0;
			for (int s = 0; s + 1 < size; s++) {
				/* dir 0: row `line`, from column s to s + 1; dir 1: column `line` */
				int i = dir ? line : s, j = dir ? s : line;
				int i2 = dir ? i : i + 1, j2 = dir ? j + 1 : j;
				if (cells[j * size + i] || cells[j2 * size + i2])
					continue;
				int r = span_lined_at(rgb, H, i, j, dir ? 0 : 1, dir ? 1 : 0, false, thr, NULL);
				if (r < 0)
					continue;
				judged++;
				lined += r;
				/* dir 0 (rows): s = 0 the left strip, size - 2 the
				 * right; dir 1 (columns): the top, the bottom */
				if (s == 0 || s == size - 2) {
					int side = dir + 2 * (s == size - 2);
					strip_j[side]++;
					strip_l[side] += r;
				}
			}
			spans += judged;
			spans_lined += lined;
			if (judged >= GV_PROOF_MIN_SPANS) {
				lines++;
				lines_shown += 2 * lined > judged;
				/* the outer lines bound the grid: each one that can be
				 * judged must show (a lattice a line off has one of its
				 * outer lines on the margin) */
				if ((line == 0 || line == size - 1) && 2 * lined <= judged)
					out->outer_missing++;
				if (line == 0 || line == size - 1) {
					out->outer_judged++;
					out->outer_seen |= 1 << (2 * dir + (line == size - 1));
				}
			}
		}
		/* each family of lines on its own: a lattice twice too dense one
		 * way is right the other way */
		double ss = spans ? (double)spans_lined / spans : 1, ls = lines ? (double)lines_shown / lines : 1;
		if (ss < out->span_share)
			out->span_share = ss;
		if (ls < out->line_share)
			out->line_share = ls;
		/* one cell beyond each outer line of the family: the margin, where
		 * no line may continue (a lattice short of the grid by a line or
		 * two finds the real outer lines there). Every span is judged:
		 * what stands there was not read. */
		double near_share[2] = {0, 0};
		for (int side = 0; side < 2; side++) {
			/* one line beyond may be a printed frame: two in a row are the grid */
			double share = 1;
			for (int far = 1; far <= 2; far++) {
				int line = side ? size - 1 + far : -far, judged = 0, lined = 0;
				for (int s = 0; s + 1 < size; s++) {
					int i = dir ? line : s, j = dir ? s : line;
					int r = span_lined(rgb, H, i, j, dir ? 0 : 1, dir ? 1 : 0, true);
					if (r < 0)
						continue;
					judged++;
					lined += r;
				}
				double sh = judged >= GV_PROOF_MIN_SPANS ? (double)lined / judged : 0;
				if (sh < share)
					share = sh;
				if (far == 1)
					near_share[side] = sh;
			}
			if (share > out->beyond_share)
				out->beyond_share = share;
		}
		/* a lattice a line short on one side: the grid goes on there on
		 * wood, not on the other side (a frame printed round the grid
		 * a cell out would show on both) */
		bool on0 = lattice_goes_on(rgb, H, size, cells, dir, 0, -1, NULL);
		bool on1 = lattice_goes_on(rgb, H, size, cells, dir, size - 1, 1, NULL);
		/* where the line beyond one side shows on a good part of its
		 * spans (GV_PROOF_BEYOND_SUSPECT) but not on most: a real outer
		 * line with stones on it would show so (its spans under the
		 * stones show none). Read it (the grid moved a line that way)
		 * and judge its open spans alone */
		for (int side = 0; side < 2; side++) {
			bool *on = side ? &on1 : &on0;
			if (*on || near_share[side] < GV_PROOF_BEYOND_SUSPECT)
				continue;
			unsigned char line_cells[19];
			if (beyond_line_alloc(rgb, H, size, 2 * dir + side, line_cells) == GV_OK)
				*on = lattice_goes_on(rgb, H, size, cells, dir, side ? size - 1 : 0, side ? 1 : -1, line_cells);
		}
		if (on0 != on1) {
			out->goes_on++;
			out->goes_on_step[dir] = on0 ? -1 : 1;
		}
		out->spans += spans;
		out->spans_lined += spans_lined;
		out->lines += lines;
		out->lines_shown += lines_shown;
	}
	/* the other family's lines one cell on beyond each outer line: side
	 * 0 (left) and 2 (right) beyond the outer columns, 1 (top) and 3
	 * (bottom) beyond the outer rows */
	for (int side = 0; side < 4; side++) {
		int end = side >> 1, cj, cl;
		cross_spans(rgb, H, size, cells, !(side & 1), end ? size - 1 : 0, end ? 1 : -1, NULL, &cj, &cl);
		out->cross_share[side] = cj >= GV_PROOF_MIN_SPANS ? (double)cl / cj : 0;
		out->cross_on += out->cross_share[side] > GV_PROOF_MAX_CROSS_SHARE;
	}
	for (int side = 0; side < 4; side++) {
		out->strip_share[side] = strip_j[side] >= GV_PROOF_MIN_SPANS ? (double)strip_l[side] / strip_j[side] : 1;
		out->strip_missing += out->strip_share[side] < GV_PROOF_MIN_STRIP_SHARE;
	}
	out->ok = out->span_share >= GV_PROOF_MIN_SPAN_SHARE && out->line_share >= GV_PROOF_MIN_LINE_SHARE &&
	          out->beyond_share <= GV_PROOF_MAX_BEYOND_SHARE && out->outer_missing == 0 && !out->goes_on &&
	          out->strip_missing == 0 && out->cross_on == 0;
	return GV_OK;
}

/* Where the line through board points a and b crosses the line
 * (fam 1) u = c, or (fam 0) v = c: the other coordinate. */
static double cross_at(const double a[2], const double b[2], int fam, double c)
{
	int k = fam ? 0 : 1;
	double d = b[k] - a[k];
	if (fabs(d) < 1e-12)
		return 1e9;
	double t = (c - a[k]) / d;
	return a[1 - k] + t * (b[1 - k] - a[1 - k]);
}

bool gv_margins_alike(double a, double b)
{
	/* a board's two margins across are alike: a lattice half a cell or a
	 * line off makes them differ by a cell or two */
	return a >= GV_PROOF_MARGIN_MIN && a <= GV_PROOF_MARGIN_MAX && b >= GV_PROOF_MARGIN_MIN &&
	       b <= GV_PROOF_MARGIN_MAX && fabs(a - b) <= GV_PROOF_MARGIN_ASYM;
}

int gv_outline_margins(const double H[9], int size, const double outline[8], double margin[4], bool *ok)
{
	if (!H || !outline || !margin || !ok || size < 2 || size > 19)
		return GV_EINVAL;
	double Hi[9], q[4][2];
	if (!gv_h_invert(H, Hi))
		return GV_EINVAL;
	for (int k = 0; k < 4; k++)
		if (!gv_h_apply(Hi, outline[2 * k], outline[2 * k + 1], &q[k][0], &q[k][1]))
			return GV_EINVAL;
	/* each side of the outline, a line in board coordinates too: how far
	 * beyond the outer line it runs, at both ends of that line */
	double n1 = size - 1;
	*ok = true;
	for (int side = 0; side < 4; side++) {
		/* side 0 left (corners 3, 0), 1 top (0, 1), 2 right (1, 2), 3 bottom (2, 3) */
		const double *a = q[(side + 3) % 4], *b = q[side];
		int fam = side == 0 || side == 2 ? 0 : 1; /* the coordinate along the side: v for left/right */
		double m = 1e9;
		for (int end = 0; end < 2; end++) {
			double x = cross_at(a, b, fam, end ? n1 : 0); /* u (left/right) or v (top/bottom) there */
			double d = side == 0 || side == 1 ? -x : x - n1;
			if (d < m)
				m = d;
		}
		margin[side] = m;
	}
	*ok = gv_margins_alike(margin[0], margin[2]) && gv_margins_alike(margin[1], margin[3]);
	return GV_OK;
}

int gv_prove_by_outline(const double H[9], int size, const double outline[8], const unsigned char *cells,
                        const gv_point_features *f, gv_proof *out)
{
	if (!H || !outline || !cells || !f || !out || size < 2 || size > 19)
		return GV_EINVAL;
	bool margins_ok;
	int rc = gv_outline_margins(H, size, outline, out->margin, &margins_ok);
	if (rc)
		return rc;
	double *off = malloc(sizeof(double) * (size_t)size * size);
	if (!off)
		return GV_ENOMEM;
	int ns = 0;
	for (int k = 0; k < size * size; k++) {
		if (cells[k] != 1 && cells[k] != 2)
			continue;
		double du = cells[k] == 1 ? f[k].bu - f[k].pu : f[k].wu - f[k].pu;
		double dv = cells[k] == 1 ? f[k].bv - f[k].pv : f[k].wv - f[k].pv;
		off[ns++] = hypot(du, dv);
	}
	out->stones = ns;
	out->stone_off = 0;
	if (ns) {
		qsort(off, (size_t)ns, sizeof *off, gv_cmp_double);
		out->stone_off = off[ns / 2];
	}
	free(off);
	bool stones_ok = ns >= GV_PROOF_MIN_STONES && out->stone_off <= GV_PROOF_STONE_OFF;
	out->by_stones = margins_ok && stones_ok && out->span_share >= GV_PROOF_STONE_SPAN_SHARE &&
	                 out->beyond_share <= GV_PROOF_MAX_BEYOND_SHARE && !out->goes_on;
	if (out->by_stones)
		out->ok = 1;
	return GV_OK;
}

int gv_beyond_empty(const gv_image *rgb, const double H[9], int size, int outer_seen)
{
	if (!rgb || !rgb->data || rgb->channels != 3 || !H || size < 2 || size > 19)
		return 0;
	gv_point_features *f = malloc(sizeof *f * (size_t)size * size);
	unsigned char *cells = malloc((size_t)size * size);
	if (!f || !cells) {
		free(f);
		free(cells);
		return GV_ENOMEM;
	}
	int bounded = 1;
	for (int b = 0; b < 4 && bounded == 1; b++) {
		if (outer_seen & (1 << b))
			continue;
		unsigned char line[19];
		int rc = beyond_line(rgb, H, size, b, f, cells, line);
		if (rc) {
			bounded = rc == GV_ENOMEM ? GV_ENOMEM : 0;
			break;
		}
		/* a stone, or a point beyond the photo: not bounded */
		for (int t = 0; t < size && bounded == 1; t++)
			if (line[t])
				bounded = 0;
	}
	free(f);
	free(cells);
	return bounded;
}

/* The grey across one side of the grid (side 0 left, 1 top, 2 right, 3
 * bottom) at offset m cells beyond its outer line and position a along
 * it; -1 off the image. */
static double side_grey(const gv_image *img, const double H[9], int size, int side, double m, double a)
{
	double n1 = size - 1;
	double u = side == 0 ? -m : side == 2 ? n1 + m : a, v = side == 1 ? -m : side == 3 ? n1 + m : a;
	return gv_grey_board(img, H, u, v);
}

int gv_edge_margins(const gv_image *rgb, const double H[9], int size, double from, double to, double margin[4],
                    double share[4])
{
	if (!rgb || !rgb->data || !H || !margin || !share || size < 2 || size > 19 || !(from < to) ||
	    !(to - from <= 2 * GV_EDGE_MOVE_REACH + 1e-9))
		return GV_EINVAL;
	/* offsets m_j = from + GV_EDGE_RES * j out from the outer line; a
	 * step at m_j is judged by the grey hs, 2 hs and 3 hs offsets either
	 * way */
	enum { HS = GV_EDGE_HALF_STEPS };
	int noff = (int)((to - from) / GV_EDGE_RES + 0.5) + 1, nprof = noff + 6 * HS;
	int nalong = (size - 1) * GV_EDGE_PER_CELL + 1;
	double *prof = malloc(sizeof(double) * (size_t)nalong * (size_t)nprof);
	if (!prof)
		return GV_ENOMEM;
	for (int side = 0; side < 4; side++) {
		margin[side] = GV_EDGE_NONE;
		share[side] = 0;
		for (int k = 0; k < nalong; k++) {
			double a = (double)k / GV_EDGE_PER_CELL, *p = prof + (size_t)k * nprof;
			for (int j = 0; j < nprof; j++) /* -1 off the photo */
				p[j] = side_grey(rgb, H, size, side, from + (j - 3 * HS) * GV_EDGE_RES, a);
		}
		/* at each offset, the share of the places along where the grey
		 * steps there: every sample of one side brighter than every
		 * sample of the other by GV_EDGE_STEP (a thin line, a stone's
		 * rim, the wood's grain is no such step at one offset all
		 * along); the steps of the commoner sign counted, among the
		 * places whose samples there lie in the photo (most of the
		 * side's must) */
		double best = 0;
		int bj = -1;
		for (int j = 0; j < noff; j++) {
			int up = 0, down = 0, nvalid = 0, c = j + 3 * HS;
			for (int k = 0; k < nalong; k++) {
				const double *p = prof + (size_t)k * nprof;
				double inmin = 1e9, inmax = -1e9, outmin = 1e9, outmax = -1e9;
				for (int t = 1; t <= 3; t++) {
					double gi = p[c - t * HS], go = p[c + t * HS];
					inmin = gi < inmin ? gi : inmin;
					inmax = gi > inmax ? gi : inmax;
					outmin = go < outmin ? go : outmin;
					outmax = go > outmax ? go : outmax;
				}
				if (inmin < 0 || outmin < 0)
					continue;
				nvalid++;
				up += inmin >= outmax + GV_EDGE_STEP;
				down += inmax + GV_EDGE_STEP <= outmin;
			}
			if (2 * nvalid < nalong)
				continue;
			double sh = (double)(up > down ? up : down) / nvalid;
			if (sh > best) {
				best = sh;
				bj = j;
			}
		}
		share[side] = best;
		if (bj >= 0 && best >= GV_EDGE_SHARE)
			margin[side] = from + bj * GV_EDGE_RES;
	}
	free(prof);
	return GV_OK;
}
