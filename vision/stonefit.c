/* goref vision: a grid moved onto the stones. See stonefit.h. */
#include "stonefit.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "tuning.h"

/* At most this many samples in a disc (the committed radius and step take
 * 57; a finer step is cut to the first MAX_DISC rows of its lattice). */
enum { MAX_DISC = 400 };

typedef struct fit_ctx {
	const gv_image *grey; /* the working copy */
	int size;
	double scale;         /* img's pixels to grey's */
	int nd;               /* the disc's samples: offsets in cells along */
	double da[MAX_DISC], db[MAX_DISC]; /* the grid's two directions */
} fit_ctx;

/* Bilinear grey at (x, y), clamped to the image (gv_px_bilinear). */
static inline double grey_at(const gv_image *g, double x, double y)
{
	float fx, fy;
	const unsigned char *p = gv_px_bilinear(g, x, y, &fx, &fy), *q = p + g->stride;
	return (p[0] + (p[1] - p[0]) * (double)fx) * (1 - (double)fy) + (q[0] + (q[1] - q[0]) * (double)fx) * fy;
}

/* The mean over the points of the grey's variance within their discs,
 * through corners c in grey's pixels; -1 when c spans no grid. */
static double spread_at(const fit_ctx *f, const double c[8])
{
	double H[9];
	if (!gv_h_from_corners(c, f->size, H))
		return -1;
	double sum = 0;
	int n = 0;
	for (int j = 0; j < f->size; j++)
		for (int i = 0; i < f->size; i++) {
			double w = H[6] * i + H[7] * j + H[8];
			if (fabs(w) < 1e-12)
				return -1;
			double x = (H[0] * i + H[1] * j + H[2]) / w, y = (H[3] * i + H[4] * j + H[5]) / w;
			/* the grid's two directions at the point, in pixels a cell */
			double xu = (H[0] - x * H[6]) / w, xv = (H[1] - x * H[7]) / w;
			double yu = (H[3] - y * H[6]) / w, yv = (H[4] - y * H[7]) / w;
			double s = 0, s2 = 0;
			for (int k = 0; k < f->nd; k++) {
				double g = grey_at(f->grey, x + f->da[k] * xu + f->db[k] * xv, y + f->da[k] * yu + f->db[k] * yv);
				s += g;
				s2 += g * g;
			}
			s /= f->nd;
			sum += s2 / f->nd - s * s;
			n++;
		}
	return n ? sum / n : -1;
}

/* The context for img and corners (img's pixels): the working copy (into
 * own when made here) and the disc. */
static int ctx_begin(fit_ctx *f, const gv_image *img, const gv_image *grey_work, int size, const double corners[8],
                     gv_image *own, char *err, size_t cap)
{
	memset(f, 0, sizeof *f);
	*own = (gv_image){0};
	double H[9];
	if (!img || !img->data || !corners || size < 2 || size > 19 || !gv_h_from_corners(corners, size, H)) {
		snprintf(err, cap, "stone fit: bad argument");
		return GV_EINVAL;
	}
	int rc = gv_work_grey_use(img, grey_work, GV_OUTLINE_WORK_PX, own, &f->grey);
	if (rc) {
		snprintf(err, cap, "stone fit: %s", rc == GV_ENOMEM ? "out of memory" : "bad image");
		return rc;
	}
	f->size = size;
	f->scale = (double)f->grey->width / img->width;
	const double r = GV_STONEFIT_RADIUS, st = GV_STONEFIT_STEP;
	int m = (int)floor(r / st + 1e-9);
	for (int b = -m; b <= m; b++)
		for (int a = -m; a <= m; a++)
			if ((a * st) * (a * st) + (b * st) * (b * st) <= r * r + 1e-9 && f->nd < MAX_DISC) {
				f->da[f->nd] = a * st;
				f->db[f->nd] = b * st;
				f->nd++;
			}
	return 0;
}

/* ctx_begin for a measure, with no message: the corners in grey's pixels
 * into c; false when it cannot begin (nothing to free then). */
static bool measure_begin(fit_ctx *f, const gv_image *img, const gv_image *grey_work, int size,
                          const double corners[8], gv_image *own, double c[8])
{
	char err[100];
	if (ctx_begin(f, img, grey_work, size, corners, own, err, sizeof err))
		return false;
	for (int k = 0; k < 8; k++)
		c[k] = corners[k] * f->scale;
	return true;
}

double gv_stone_spread(const gv_image *img, const gv_image *grey_work, int size, const double corners[8])
{
	fit_ctx f;
	gv_image own;
	double c[8];
	if (!measure_begin(&f, img, grey_work, size, corners, &own, c))
		return -1;
	double s = spread_at(&f, c);
	gv_image_free(&own);
	return s;
}

double gv_stone_evenness(const gv_image *img, const gv_image *grey_work, int size, const double corners[8])
{
	fit_ctx f;
	gv_image own;
	double c[8], H[9];
	if (!measure_begin(&f, img, grey_work, size, corners, &own, c))
		return -1;
	double at = spread_at(&f, c), least = -1;
	if (at > 0 && gv_h_from_corners(c, size, H)) {
		static const double moves[4][2] = {{0.5, 0}, {-0.5, 0}, {0, 0.5}, {0, -0.5}};
		const double m = size - 1, board[8] = {0, 0, m, 0, m, m, 0, m};
		for (int t = 0; t < 4; t++) {
			double s[8];
			for (int k = 0; k < 4; k++)
				gv_h_apply(H, board[2 * k] + moves[t][0], board[2 * k + 1] + moves[t][1], &s[2 * k],
				           &s[2 * k + 1]);
			double sp = spread_at(&f, s);
			if (sp >= 0 && (least < 0 || sp < least))
				least = sp;
		}
	}
	gv_image_free(&own);
	return least < 0 || !(at > 0) ? -1 : least / at;
}

int gv_fit_stones(const gv_image *img, const gv_image *grey_work, int size, double corners[8], double reach,
                  char *err, size_t cap)
{
	fit_ctx f;
	gv_image own;
	int rc = ctx_begin(&f, img, grey_work, size, corners, &own, err, cap);
	if (rc)
		return rc;
	double c[8], c0[8];
	for (int k = 0; k < 8; k++)
		c0[k] = c[k] = corners[k] * f.scale;
	double best = spread_at(&f, c);
	if (best < 0) {
		gv_image_free(&own);
		snprintf(err, cap, "stone fit: the corners span no grid");
		return GV_EINVAL;
	}
	/* each corner in turn on a 7 x 7 window of steps, the window narrowed
	 * round the best (GV_STONEFIT_STEPS); the corners again with the
	 * first step left out (GV_STONEFIT_ROUNDS) */
	static const double steps[] = GV_STONEFIT_STEPS;
	const int nsteps = (int)(sizeof steps / sizeof steps[0]);
	for (int round = 0; round < GV_STONEFIT_ROUNDS; round++)
		for (int k = 0; k < 4; k++) {
			double cell = gv_corners_cell_at(c0, size, k), lim = reach * cell;
			for (int l = round ? 1 : 0; l < nsteps; l++) {
				double st = steps[l] * cell, bx = c[2 * k], by = c[2 * k + 1];
				for (int dy = -3; dy <= 3; dy++)
					for (int dx = -3; dx <= 3; dx++) {
						if (!dx && !dy)
							continue;
						double t[8];
						memcpy(t, c, sizeof t);
						t[2 * k] = bx + dx * st;
						t[2 * k + 1] = by + dy * st;
						if (hypot(t[2 * k] - c0[2 * k], t[2 * k + 1] - c0[2 * k + 1]) > lim)
							continue;
						double s = spread_at(&f, t);
						if (s >= 0 && s < best) {
							best = s;
							c[2 * k] = t[2 * k];
							c[2 * k + 1] = t[2 * k + 1];
						}
					}
			}
		}
	for (int k = 0; k < 8; k++)
		corners[k] = c[k] / f.scale;
	gv_image_free(&own);
	return 0;
}
