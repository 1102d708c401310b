/* goref vision: the grid from the board's outline. See outline.h. */
#include "outline.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cvwrap.h"
#include "geom.h"
#include "tuning.h"
#include "trace.h"
#include "verify.h"

/* How much a line shows at (u, v), seen across (nu, nv): a ridge (darker
 * than both its sides, verify.h), up to the cap; 0 when none shows, on a
 * dark place, or off the image. */
static double ridge(const gv_image *g, const double H[9], double u, double v, double nu, double nv, int reach)
{
	double r, s;
	if (!gv_line_contrast(g, H, u, v, nu, nv, GV_OUTLINE_SLACK, reach, GV_OUTLINE_SIDE, true, &r, &s) || s < 8)
		return 0;
	return r < 0 ? 0 : r > GV_OUTLINE_RIDGE_CAP ? GV_OUTLINE_RIDGE_CAP : r;
}

/* ridge() along a line of the lattice, its products with H taken once:
 * the places across a line of family fam (1: the column u = c, seen across
 * u; 0: the row v = c) at c - slack, c, c + slack, c + side, c - side (as
 * gv_line_contrast puts them), and the coordinate along it. Each place's
 * sums are gv_line_contrast's, term for term in its order (the coordinate
 * along is the same at every place: v + 0 * slack * o is v), so the same
 * values to the bit. On a grey image; ridge() itself on a colour one. */
typedef struct axis_across {
	double c;        /* the line's coordinate */
	double t[5][3];  /* per place: its coordinate times H's column (x, y, w) */
} axis_across;

static void across_at(const double H[9], int fam, double c, axis_across *a)
{
	a->c = c;
	double q[5];
	for (int o = -1; o <= 1; o++)
		q[o + 1] = c + 1.0 * GV_OUTLINE_SLACK * o;
	q[3] = c + 1.0 * GV_OUTLINE_SIDE;
	q[4] = c - 1.0 * GV_OUTLINE_SIDE;
	int col = fam ? 0 : 1; /* H's column for the coordinate across: u's 0, v's 1 */
	for (int k = 0; k < 5; k++) {
		a->t[k][0] = H[col] * q[k];
		a->t[k][1] = H[3 + col] * q[k];
		a->t[k][2] = H[6 + col] * q[k];
	}
}

static double ridge_axis(const gv_image *g, const double H[9], int fam, const axis_across *a, double along)
{
	if (g->channels != 1)
		return fam ? ridge(g, H, a->c, along, 1, 0, 1) : ridge(g, H, along, a->c, 0, 1, 1);
	int col = fam ? 1 : 0; /* H's column for the coordinate along */
	double l0 = H[col] * along, l1 = H[3 + col] * along, l2 = H[6 + col] * along;
	double w[5], px[5], py[5], gr[5];
	for (int k = 0; k < 5; k++) {
		w[k] = a->t[k][2] + l2 + H[8];
		px[k] = (a->t[k][0] + l0 + H[2]) / w[k];
		py[k] = (a->t[k][1] + l1 + H[5]) / w[k];
	}
	bool off = false;
	double xmax = g->width - 1.001, ymax = g->height - 1.001;
	for (int k = 0; k < 5; k++)
		off |= fabs(w[k]) < 1e-12 || !(px[k] >= 0 && py[k] >= 0 && px[k] <= xmax && py[k] <= ymax);
	if (off)
		return 0;
	gv_grey5_at(g, px, py, gr);
	double on1 = gr[0] < gr[1] ? gr[0] : gr[1];
	on1 = gr[2] < on1 ? gr[2] : on1;
	/* both: the darker side */
	double s = gr[3] > gr[4] ? gr[4] : gr[3];
	double r = s > 0 ? (s - on1) / s : 0;
	if (s < 8)
		return 0;
	return r < 0 ? 0 : r > GV_OUTLINE_RIDGE_CAP ? GV_OUTLINE_RIDGE_CAP : r;
}

/* The mean ridge along the lines of one family of an n-line grid in board
 * coordinates (H: board -> image): fam 0 the rows (lines j = const), fam 1
 * the columns; sampled between the crossings. Plus the weaker of the two
 * outer lines' means: the grid's bounds must be lines too (a lattice a line
 * off puts one of them on the margin or the table). */
static double family_score(const gv_image *g, const double H[9], int n, int fam, int reach)
{
	double sum = 0, outer = 1e9;
	for (int line = 0; line < n; line++) {
		double ls = 0;
		/* a wide reach looks at the middle of each span only */
		int per = reach > 1 ? 1 : 3;
		axis_across ac;
		across_at(H, fam, line, &ac);
		for (int s = 0; s + 1 < n; s++)
			for (int t = 1; t <= per; t++) {
				double a = s + (double)t / (per + 1);
				double u = fam ? line : a, v = fam ? a : line;
				ls += reach == 1 ? ridge_axis(g, H, fam, &ac, a) : ridge(g, H, u, v, fam ? 1 : 0, fam ? 0 : 1, reach);
			}
		ls /= per * (n - 1);
		sum += ls;
		if ((line == 0 || line == n - 1) && ls < outer)
			outer = ls;
	}
	return sum / n + outer;
}

/* The mean ridge over the spans of grid line between two points that
 * empty[] marks (what a first reading found empty: a stone's rim or the
 * shadow under it is a dark ridge too, and steeply seen, stones cover the
 * lines' places): both families, each weighed alike. */
static double open_score(const gv_image *g, const double H[9], int n, const unsigned char *empty, int per)
{
	double tot = 0;
	for (int fam = 0; fam < 2; fam++) {
		double sum = 0;
		int cnt = 0;
		for (int line = 0; line < n; line++) {
			axis_across ac;
			across_at(H, fam, line, &ac);
			for (int s = 0; s + 1 < n; s++) {
				int k0 = fam ? s * n + line : line * n + s, k1 = fam ? (s + 1) * n + line : line * n + s + 1;
				if (!empty[k0] || !empty[k1])
					continue;
				for (int t = 1; t <= per; t++) {
					double a = s + (double)t / (per + 1);
					sum += ridge_axis(g, H, fam, &ac, a);
					cnt++;
				}
			}
		}
		tot += cnt ? sum / cnt : 0;
	}
	return tot;
}

/* The grid inside the quad Q (the unit square (0,0)-(1,1) -> image) with
 * margins, in cells, left, top, right, bottom: board -> image. */
static void grid_in_quad(const double Q[9], int n, const double m[4], double H[9])
{
	double w = n - 1 + m[0] + m[2], h = n - 1 + m[1] + m[3];
	/* board (i, j) -> unit square ((i + ml) / w, (j + mt) / h) */
	double A[9] = {1 / w, 0, m[0] / w, 0, 1 / h, m[1] / h, 0, 0, 1};
	gv_h_mul(Q, A, H);
}

/* Best margins for one family (fam 1: left and right, fam 0: top and bottom)
 * with the other family's at m's values (side near, where it is one of
 * them, held to at least the other less GV_OUTLINE_NEAR_SLACK; near -1:
 * none): every pair of margins on steps of
 * GV_OUTLINE_FINE cells over the whole range (a coarse-to-fine search fell
 * into the wrong basin: the score's peak is a few hundredths of a cell
 * wide), scored on a profile of the ridge across the quad measured once:
 * prof[k] the mean ridge along the family's line at the fraction
 * k / (GV_OUTLINE_PROF - 1) of the quad, sampled in the spans of the other
 * family's lattice as it stands. */
static double best_margins(const gv_image *g, const double Q[9], int n, int fam, double m[4], const double maxm[4],
                           int near)
{
	int lo = fam ? 0 : 1, hi = fam ? 2 : 3;
	double H[9];
	grid_in_quad(Q, n, m, H);
	double ext = n - 1 + m[lo] + m[hi];
	static const int per = 3;
	double prof[GV_OUTLINE_PROF];
	for (int k = 0; k < GV_OUTLINE_PROF; k++) {
		double pos = (double)k / (GV_OUTLINE_PROF - 1) * ext - m[lo], sum = 0;
		axis_across ac;
		across_at(H, fam, pos, &ac);
		for (int s = 0; s + 1 < n; s++)
			for (int t = 1; t <= per; t++) {
				double a = s + (double)t / (per + 1);
				sum += ridge_axis(g, H, fam, &ac, a);
			}
		prof[k] = sum / (per * (n - 1));
	}
	double best = -1, bl = m[lo], bh = m[hi];
	int sa = (int)lround((maxm[lo] - GV_OUTLINE_MIN_MARGIN) / GV_OUTLINE_FINE);
	int sb = (int)lround((maxm[hi] - GV_OUTLINE_MIN_MARGIN) / GV_OUTLINE_FINE);
	for (int ia = 0; ia <= sa; ia++)
		for (int ib = 0; ib <= sb; ib++) {
			double a = GV_OUTLINE_MIN_MARGIN + ia * GV_OUTLINE_FINE, b = GV_OUTLINE_MIN_MARGIN + ib * GV_OUTLINE_FINE;
			if ((near == lo && a < b - GV_OUTLINE_NEAR_SLACK) || (near == hi && b < a - GV_OUTLINE_NEAR_SLACK))
				continue; /* near < 0: untied */
			double sum = 0, outer = 1e9;
			for (int line = 0; line < n; line++) {
				double x = (line + a) / (n - 1 + a + b) * (GV_OUTLINE_PROF - 1);
				int i = (int)x;
				double f = x - i, r = i + 1 < GV_OUTLINE_PROF ? prof[i] * (1 - f) + prof[i + 1] * f : prof[i];
				sum += r;
				if ((line == 0 || line == n - 1) && r < outer)
					outer = r;
			}
			double sc = sum / n + outer;
			if (sc > best) {
				best = sc;
				bl = a;
				bh = b;
			}
		}
	m[lo] = bl;
	m[hi] = bh;
	return best;
}

/* Coordinate descent on the eight corner coordinates (pixels of g),
 * maximising both families' line score. */
static double grid_score(const gv_image *g, const double H[9], int n, const unsigned char *empty)
{
	return empty ? open_score(g, H, n, empty, 3) : family_score(g, H, n, 0, 1) + family_score(g, H, n, 1, 1);
}

/* The corners already scored in one polish, with their scores: a round
 * that moves nothing tries again many of the last round's corners (those
 * tried after its last move), and a score is the same every time. */
#define POLISH_MEMO 512
typedef struct polish_memo {
	int n;
	double c[POLISH_MEMO][8];
	double score[POLISH_MEMO];
} polish_memo;

static double memo_score(polish_memo *m, const gv_image *g, int n, const double c[8], const unsigned char *empty)
{
	for (int i = m->n - 1; i >= 0; i--)
		if (!memcmp(m->c[i], c, sizeof m->c[i]))
			return m->score[i];
	double H[9], sc = -1;
	if (gv_h_from_corners(c, n, H))
		sc = grid_score(g, H, n, empty);
	if (m->n < POLISH_MEMO) {
		memcpy(m->c[m->n], c, sizeof m->c[m->n]);
		m->score[m->n++] = sc;
	}
	return sc;
}

static double polish(const gv_image *g, int n, double c[8], double start, const unsigned char *empty)
{
	double H[9];
	if (!gv_h_from_corners(c, n, H))
		return 0;
	polish_memo m; /* 36 KB */
	m.n = 0;
	double best = memo_score(&m, g, n, c, empty);
	for (double step = start; step >= 0.25; step /= 2) {
		bool moved = true;
		for (int it = 0; moved && it < 6; it++) {
			moved = false;
			for (int k = 0; k < 8; k++)
				for (int sgn = -1; sgn <= 1; sgn += 2) {
					double keep = c[k];
					c[k] += sgn * step;
					double sc = memo_score(&m, g, n, c, empty);
					if (sc > best) {
						best = sc;
						moved = true;
					} else {
						c[k] = keep;
					}
				}
		}
	}
	return best;
}

/* A line of the trace (gv_locate_opts.trace), when one is set. */
#define otr(o, ...) gv_tracef((o) ? (o)->trace : NULL, (o) ? (o)->trace_ud : NULL, __VA_ARGS__)

/* The photo in grey at the outline's working size (GV_OUTLINE_WORK_PX on
 * the longer side, never enlarged, gv_work_grey): shared when the caller
 * made it (of that size), else made into own; *small points to it, and
 * *scale gets the scale from the photo's pixels to it. 0, GV_EINVAL or
 * GV_ENOMEM, with a message; own is freed by the caller either way. */
static int work_grey(const gv_image *img, const gv_image *shared, gv_image *own, const gv_image **small,
                     double *scale, char *err, size_t cap)
{
	int longer = img->width > img->height ? img->width : img->height;
	*scale = longer > GV_OUTLINE_WORK_PX ? (double)GV_OUTLINE_WORK_PX / longer : 1;
	int rc = gv_work_grey_use(img, shared, GV_OUTLINE_WORK_PX, own, small);
	if (rc)
		snprintf(err, cap, "outline: %s", rc == GV_ENOMEM ? "out of memory" : "bad image");
	return rc;
}

/* The checks and the working copy every entry below starts with: GV_EINVAL
 * ("WHAT: bad argument") unless args_ok and img has pixels; else
 * work_grey's. */
static int work_copy(const gv_image *img, const gv_image *shared, bool args_ok, const char *what, gv_image *own,
                     const gv_image **small, double *scale, char *err, size_t cap)
{
	*own = (gv_image){0};
	if (!args_ok || !img || !img->data) {
		snprintf(err, cap, "%s: bad argument", what);
		return GV_EINVAL;
	}
	return work_grey(img, shared, own, small, scale, err, cap);
}

/* Where the quadrilateral quad (the working copy's pixels, width x
 * height) meets the photo's border, within 2 pixels: 2 where both ends of
 * one of its sides lie along the same edge of the photo, 1 where a corner
 * does, else 0. */
static int on_border(const double quad[8], int width, int height)
{
	int at[4]; /* per corner: bits 1 left, 2 top, 4 right, 8 bottom */
	for (int k = 0; k < 4; k++) {
		double x = quad[2 * k], y = quad[2 * k + 1];
		at[k] = (x < 2) | (y < 2) << 1 | (x > width - 3) << 2 | (y > height - 3) << 3;
	}
	int found = 0;
	for (int k = 0; k < 4; k++) {
		if (at[k] & at[(k + 1) % 4])
			return 2;
		if (at[k])
			found = 1;
	}
	return found;
}

int gv_outline_near_side(const double quad[8])
{
	int near = 0;
	double longest = 0;
	for (int k = 0; k < 4; k++) {
		int a = (k + 3) % 4;
		double len = hypot(quad[2 * k] - quad[2 * a], quad[2 * k + 1] - quad[2 * a + 1]);
		if (len > longest) {
			longest = len;
			near = k;
		}
	}
	return near;
}

/* on_border of a quadrilateral in photo pixels, seen at the working scale */
static int on_border_scaled(const double photo_quad[8], double scale, int w, int h)
{
	double q[8];
	for (int k = 0; k < 8; k++)
		q[k] = photo_quad[k] * scale;
	return on_border(q, w, h);
}

int gv_locate_outline(const gv_image *img, const gv_locate_opts *opts, gv_grid *out, char *err, size_t cap)
{
	int size = opts && opts->size ? opts->size : 19;
	if (!img || !img->data || !out || (size != 9 && size != 13 && size != 19)) {
		snprintf(err, cap, "outline: bad argument");
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	gv_image own;
	const gv_image *small;
	double scale = 1;
	int rc = work_grey(img, opts ? opts->grey_work : NULL, &own, &small, &scale, err, cap);
	double quad[8], share = 0;
	if (!rc) {
		if (opts && opts->bright_known && !opts->outline_pieces && !opts->outline_dark && !opts->outline_sides) {
			/* the quadrilateral the caller found already (photo
			 * pixels; its code 0 or GV_ENOTFOUND) */
			rc = opts->bright_rc;
			share = opts->bright_share;
			for (int k = 0; k < 8; k++)
				quad[k] = opts->bright_quad[k] * scale;
		} else if (opts && opts->outline_sides && !opts->outline_dark && opts->bright_known &&
		           (opts->bright_rc ||
		            on_border_scaled(opts->bright_quad, scale, small->width, small->height) == 2)) {
			/* the straight sides of a region the outline turned down
			 * already (none, or a side of it the photo's edge): the
			 * same region, not worth its edge's search */
			rc = GV_ENOTFOUND;
		} else {
			rc = gv_cv_bright_quad(small, opts && opts->outline_pieces ? GV_OUTLINE_PIECE_SHARE : 0,
			                       (opts ? opts->outline_dark : 0) | (opts && opts->outline_sides ? GV_QUAD_SIDES : 0),
			                       quad, &share, err, cap);
		}
		if (!rc)
			otr(opts, "outline: bright quad %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f (photo px), %.2f of the photo",
			    quad[0] / scale, quad[1] / scale, quad[2] / scale, quad[3] / scale, quad[4] / scale,
			    quad[5] / scale, quad[6] / scale, quad[7] / scale, share);
		if (rc == GV_ENOTFOUND || (!rc && share < GV_OUTLINE_MIN_SHARE)) {
			snprintf(err, cap, "no board found: no board-like bright quadrilateral in the photo");
			rc = GV_ENOTFOUND;
		}
		/* the pieces together must be a whole board in view: a corner on
		 * the photo's border is a board running on beyond it (whose
		 * outline bounds nothing), and not worth the search */
		int border = rc ? 0 : on_border(quad, small->width, small->height);
		if (border && opts && opts->outline_pieces) {
			snprintf(err, cap, "no board found: the bright pieces run to the photo's edge");
			rc = GV_ENOTFOUND;
		} else if (border == 2) {
			/* nor is a region one of whose sides is the photo's
			 * border: the frame cuts it there (the brightest region the
			 * whole photo: a floor as bright as the board; a crowded
			 * board filling the photo, cut by its black stones and the
			 * frame), and the margins sought from that side would be
			 * measured from no edge of the board */
			snprintf(err, cap, "no board found: a side of the bright region is the photo's edge");
			rc = GV_ENOTFOUND;
		}
	}
	if (!rc) {
		double Q[9];
		const double unit[8] = {0, 0, 1, 0, 1, 1, 0, 1};
		if (!gv_h_from_4(unit, quad, Q)) {
			snprintf(err, cap, "no board found: the bright region is no quadrilateral");
			rc = GV_ENOTFOUND;
		} else {
			double m[4] = {0.6, 0.6, 0.6, 0.6};
			/* the side of the quad nearest the camera (the longest seen)
			 * may show the board's front face below its top: a wider
			 * margin there. Sides: 0 left (corner 3 to 0), 1 top (0 to
			 * 1), 2 right (1 to 2), 3 bottom (2 to 3). */
			double maxm[4];
			int near = gv_outline_near_side(quad);
			for (int k = 0; k < 4; k++)
				maxm[k] = k == near ? GV_OUTLINE_MAX_MARGIN_NEAR : GV_OUTLINE_MAX_MARGIN;
			/* each family's margins with the other's as they stand; twice */
			for (int pass = 0; pass < 2; pass++) {
				best_margins(small, Q, size, 1, m, maxm, opts && opts->near_tied ? near : -1);
				best_margins(small, Q, size, 0, m, maxm, opts && opts->near_tied ? near : -1);
			}
			otr(opts, "outline: margins l %.2f t %.2f r %.2f b %.2f", m[0], m[1], m[2], m[3]);
			double H[9], c[8];
			grid_in_quad(Q, size, m, H);
			gv_h_corners(H, size, c);
			/* a quarter of a cell as the first step */
			double cell = hypot(c[2] - c[0], c[3] - c[1]) / (size - 1);
			double sc = polish(small, size, c, cell / 4, NULL);
			for (int k = 0; k < 8; k++)
				out->corners[k] = c[k] / scale;
			if (!gv_h_from_corners(out->corners, size, out->H)) {
				snprintf(err, cap, "no board found: the grid from the outline is degenerate");
				rc = GV_ENOTFOUND;
			}
			out->size = size;
			out->support = sc;
			/* the darker region takes in the board's front face (on
			 * the side nearest the camera, in shade): its margins
			 * there bound nothing, so the grid is proved as one
			 * found without an outline (the board's own edge) */
			out->has_outline = !(opts && opts->outline_dark);
			for (int k = 0; k < 8; k++)
				out->outline[k] = quad[k] / scale;
			out->residual = 0;
		}
	}
	gv_image_free(&own);
	return rc;
}

int gv_board_outline(const gv_image *img, double quad[8], char *err, size_t cap)
{
	return gv_board_outline_shared(img, NULL, quad, err, cap);
}

int gv_bright_quad(const gv_image *img, const gv_image *grey_work, double quad[8], double *share, char *err,
                   size_t cap)
{
	if (!img || !img->data || !quad || !share) {
		snprintf(err, cap, "outline: bad argument");
		return GV_EINVAL;
	}
	gv_image own;
	const gv_image *small;
	double scale = 1;
	*share = 0;
	int rc = work_grey(img, grey_work, &own, &small, &scale, err, cap);
	if (!rc)
		rc = gv_cv_bright_quad(small, 0, 0, quad, share, err, cap);
	if (!rc)
		for (int k = 0; k < 8; k++)
			quad[k] /= scale;
	gv_image_free(&own);
	return rc;
}

int gv_board_outline_shared(const gv_image *img, const gv_image *grey_work, double quad[8], char *err, size_t cap)
{
	double share = 0;
	int rc = gv_bright_quad(img, grey_work, quad, &share, err, cap);
	if (rc == GV_ENOTFOUND || (!rc && share < GV_OUTLINE_MIN_SHARE)) {
		snprintf(err, cap, "no board found: no board-like bright quadrilateral in the photo");
		rc = GV_ENOTFOUND;
	}
	return rc;
}

int gv_refine_corners(const gv_image *img, int size, const unsigned char *empty, double corners[8], char *err,
                      size_t cap)
{
	return gv_refine_corners_within(img, size, empty, corners, GV_REFINE_REACH, err, cap);
}

int gv_refine_corners_within(const gv_image *img, int size, const unsigned char *empty, double corners[8],
                             double reach, char *err, size_t cap)
{
	return gv_refine_corners_shared(img, NULL, size, empty, corners, reach, err, cap);
}

int gv_refine_corners_shared(const gv_image *img, const gv_image *grey_work, int size, const unsigned char *empty,
                             double corners[8], double reach, char *err, size_t cap)
{
	gv_image own;
	const gv_image *small;
	double scale = 1;
	int rc = work_copy(img, grey_work, corners && size >= 2 && size <= 19, "refine corners", &own, &small, &scale,
	                   err, cap);
	if (rc)
		return rc;
	double c[8], H[9];
	for (int k = 0; k < 8; k++)
		c[k] = corners[k] * scale;
	if (gv_h_from_corners(c, size, H)) {
		double start = grid_score(small, H, size, empty);
		/* the cell's size at its smallest side of the grid */
		double cell = gv_corners_cell_min(c, size);
		double p[8];
		memcpy(p, c, sizeof p);
		/* each corner in turn over a window around the click, the others
		 * held (one sample a span); twice over (with no window, the click
		 * is the window's only place); then the polish */
		int nstep = (int)floor(reach / GV_REFINE_GRID + 1e-9);
		for (int round = 0; nstep > 0 && round < 2; round++)
			for (int k = 0; k < 4; k++) {
				double bx = p[2 * k], by = p[2 * k + 1], best = -1;
				for (int b = -nstep; b <= nstep; b++)
					for (int a = -nstep; a <= nstep; a++) {
						double q[8];
						memcpy(q, p, sizeof q);
						q[2 * k] = c[2 * k] + a * GV_REFINE_GRID * cell;
						q[2 * k + 1] = c[2 * k + 1] + b * GV_REFINE_GRID * cell;
						double Hq[9];
						if (!gv_h_from_corners(q, size, Hq))
							continue;
						double sc = empty ? open_score(small, Hq, size, empty, 1) : grid_score(small, Hq, size, NULL);
						if (sc > best) {
							best = sc;
							bx = q[2 * k];
							by = q[2 * k + 1];
						}
					}
				p[2 * k] = bx;
				p[2 * k + 1] = by;
			}
		double sc = polish(small, size, p, cell * GV_REFINE_STEP, empty);
		bool near = true;
		for (int k = 0; k < 4; k++)
			if (hypot(p[2 * k] - c[2 * k], p[2 * k + 1] - c[2 * k + 1]) > (reach + 0.1) * cell)
				near = false;
		if (near && sc > start * (1 + GV_REFINE_GAIN))
			for (int k = 0; k < 8; k++)
				corners[k] = p[k] / scale;
	}
	gv_image_free(&own);
	return 0;
}

/* The tracker's score of the grid H: the mean ridge over the spans between
 * two empty points (both families alike), plus the weakest of the outer
 * lines' means over their open spans (a lattice a whole cell off shows its
 * lines inside as well, but one of its outer lines lies beyond the
 * grid's). Outer lines with fewer than two open spans are not judged. */
static double track_score(const gv_image *g, const double H[9], int n, const unsigned char *empty, int reach)
{
	double tot = 0, outer = 1e9;
	for (int fam = 0; fam < 2; fam++) {
		double sum = 0;
		int cnt = 0;
		for (int line = 0; line < n; line++) {
			double ls = 0;
			int lc = 0;
			for (int s = 0; s + 1 < n; s++) {
				int k0 = fam ? s * n + line : line * n + s, k1 = fam ? (s + 1) * n + line : line * n + s + 1;
				if (!empty[k0] || !empty[k1])
					continue;
				double u = fam ? line : s + 0.5, v = fam ? s + 0.5 : line;
				ls += ridge(g, H, u, v, fam ? 1 : 0, fam ? 0 : 1, reach);
				lc++;
			}
			sum += ls;
			cnt += lc;
			if ((line == 0 || line == n - 1) && lc >= 2 && ls / lc < outer)
				outer = ls / lc;
		}
		tot += cnt ? sum / cnt : 0;
	}
	return tot + (outer < 1e9 ? outer : 0);
}

/* The corners c moved by (dx, dy) pixels into s, and their grid into H. */
static bool shifted_grid(const double c[8], int n, double dx, double dy, double s[8], double H[9])
{
	for (int k = 0; k < 4; k++) {
		s[2 * k] = c[2 * k] + dx;
		s[2 * k + 1] = c[2 * k + 1] + dy;
	}
	return gv_h_from_corners(s, n, H);
}

int gv_track_grid(const gv_image *img, int size, const unsigned char *empty, double corners[8], double reach,
                  double *before, double *after, char *err, size_t cap)
{
	gv_image own;
	const gv_image *small;
	double scale = 1;
	int rc = work_copy(img, NULL, empty && corners && size >= 2 && size <= 19 && reach > 0, "track grid", &own, &small,
	                   &scale, err, cap);
	if (rc)
		return rc;
	double c[8], H[9], s[8];
	for (int k = 0; k < 8; k++)
		c[k] = corners[k] * scale;
	double cell = gv_corners_cell(c, size);
	double b = gv_h_from_corners(c, size, H) ? track_score(small, H, size, empty, 1) : 0;
	/* coarse: every shift on steps of GV_TRACK_COARSE cells, each line
	 * looked for within half a step either way; the best few kept */
	enum { KEEP = 3 };
	double best[KEEP] = {-1, -1, -1}, bx[KEEP] = {0}, by[KEEP] = {0};
	int steps = (int)ceil(reach / GV_TRACK_COARSE - 1e-9);
	/* half a coarse step in places GV_OUTLINE_SLACK apart: how far either
	 * way a line is looked for at the coarse shifts, and how far the fine
	 * search goes around each kept one */
	int half = (int)ceil(GV_TRACK_COARSE / 2 / GV_OUTLINE_SLACK - 1e-9);
	for (int iy = -steps; iy <= steps; iy++)
		for (int ix = -steps; ix <= steps; ix++) {
			double dx = ix * GV_TRACK_COARSE * cell, dy = iy * GV_TRACK_COARSE * cell;
			if (!shifted_grid(c, size, dx, dy, s, H))
				continue;
			double sc = track_score(small, H, size, empty, half);
			/* one of the kept ones near it (within two steps) is replaced
			 * when worse; otherwise the worst kept */
			int slot = -1;
			for (int k = 0; k < KEEP; k++)
				if (best[k] >= 0 && fabs(bx[k] - dx) <= 2 * GV_TRACK_COARSE * cell + 1e-9 &&
				    fabs(by[k] - dy) <= 2 * GV_TRACK_COARSE * cell + 1e-9)
					slot = k;
			if (slot < 0) {
				slot = 0;
				for (int k = 1; k < KEEP; k++)
					if (best[k] < best[slot])
						slot = k;
			}
			if (sc > best[slot]) {
				best[slot] = sc;
				bx[slot] = dx;
				by[slot] = dy;
			}
		}
	/* fine: around each kept shift, on steps of a line's slack */
	double top = -1, tx = 0, ty = 0;
	for (int k = 0; k < KEEP; k++) {
		if (best[k] < 0)
			continue;
		for (int iy = -half; iy <= half; iy++)
			for (int ix = -half; ix <= half; ix++) {
				double dx = bx[k] + ix * GV_OUTLINE_SLACK * cell, dy = by[k] + iy * GV_OUTLINE_SLACK * cell;
				if (!shifted_grid(c, size, dx, dy, s, H))
					continue;
				double sc = track_score(small, H, size, empty, 1);
				if (sc > top) {
					top = sc;
					tx = dx;
					ty = dy;
				}
			}
	}
	double a = b;
	if (top > 0 && shifted_grid(c, size, tx, ty, s, H)) {
		polish(small, size, s, GV_OUTLINE_SLACK * cell, empty);
		/* taken only when its lines show more than the grid given's */
		double sa = gv_h_from_corners(s, size, H) ? track_score(small, H, size, empty, 1) : 0;
		if (sa > b) {
			a = sa;
			for (int k = 0; k < 8; k++)
				corners[k] = s[k] / scale;
		}
	}
	if (before)
		*before = b;
	if (after)
		*after = a;
	gv_image_free(&own);
	return 0;
}
