/*
 * goref vision: the stone classifier. See classify.h.
 *
 * Everything is measured in board coordinates and mapped through H, so the
 * perspective (nearer stones look bigger) is taken care of by the mapping;
 * pixels are read with bilinear interpolation. No OpenCV.
 *
 * 1. The board: the centre of every square (half a cell from each line) is
 *    seldom covered by a stone standing on its point (a stone's radius is
 *    about half a cell, the centre 0.7 cell away). A robust quadratic fit
 *    (Tukey's biweight) over those centres gives the board's brightness and
 *    yellowness everywhere (light gradients, coloured light); squares that
 *    agree with the fit give the local value.
 * 2. Each point: four small patches, one in each quadrant around a candidate
 *    stone centre (off the grid lines and the star point), brightness as a
 *    log ratio to the local board and yellowness as a difference to it. The
 *    candidate centres: a small grid around where a stone's middle appears
 *    (a stone's body stands above the board: seen at an angle it looks
 *    displaced away from the camera, which is recovered from H), never off
 *    the grid's outer lines. Black evidence: the third darkest quadrant's
 *    darkness (a highlight may spoil one quadrant); white evidence: the
 *    second least white quadrant's whiteness (brighter and greyer than the
 *    wood: stones are unsaturated, wood is yellow). And the contrast of the
 *    grid line arms leaving the point: seen on an empty point, hidden by a
 *    stone.
 * 3. The decision: per-photo thresholds (at least a base that holds across
 *    cameras; for patches with the wood's hue, i.e. shadows, a share of this
 *    photo's clear stones' darkness), line contrast lowering whiteness, a
 *    point dark at its own centre taken as black first, and one stone
 *    claimed once: a point that reached a neighbour's stone by looking off
 *    its centre, with clearly weaker evidence, yields.
 */
#include "classify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "sortf.h"
#include "tuning.h"

enum { C_EMPTY = 0, C_BLACK = 1, C_WHITE = 2 };

/* Line contrast (over the board's brightness) above which a point cannot
 * hold a white (black) stone. */
#define LINE_WHITE 0.8f
#define LINE_BLACK 0.6f
/* ... but not where the point's own centre is darker than this (log
 * brightness over the board's): there the "line" is a black stone's dark
 * body between its glare spots, or between the wood and its own shadow,
 * seen steeply under a coloured light (gobanwatcher/1 through its clicked
 * corners: 22 black points with line contrast over LINE_BLACK, their
 * centres -0.06 to -2.97, median -1.36, all read empty). The lines darken
 * an empty point's centre only a little: over the shared photos the empty
 * points with line contrast over LINE_BLACK lie at -0.30 and brighter
 * (twice DARK_CENTRE here); a shadow's lines show against the board's
 * brightness around it, so faintly. -DLINE_BLACK_DARK=-1e9f: the rule as
 * before (the line alone rules black out). */
#ifndef LINE_BLACK_DARK
#define LINE_BLACK_DARK (-0.6f)
#endif
/* Whiteness lost per unit of the least white of the squares around the
 * point: glare or a hand whitens the squares too, a stone never all of them. */
#define AROUND 1.0f
/* Darkness (minus the log ratio to the board, less the line penalty) a
 * black stone has at least, and the penalty per unit of line contrast. */
#define BLACK_BASE 0.35f
#define BLACK_LINE_PENALTY 0.5f
/* Line contrast under which the lines count as hidden, and the whiteness
 * that earns at most. */
#define LINE_HIDDEN 0.1f
#define HIDDEN_BONUS 1.0f
/* ... where the point is no darker than this (log ratio to the board): a
 * point with its lines hidden and darker is no wood either, and read
 * empty, not sure. */
#define HIDDEN_DARK (-0.1f)
/* Line contrast under which a point's lines are hidden enough for a white
 * stone standing out over the margin (a sliver of the inner arm shows;
 * empty edge points on real photos show 0.3 and more where the margin is
 * bright enough to pass for a stone). */
#define LINE_OUT 0.2f
/* Whiteness lost per unit of line contrast. */
#define LINE_PENALTY 6.0f
/* Log brightness ratio under which a point's own centre is dark enough to
 * be black whatever else it looks like. */
#define DARK_CENTRE (-0.3f)
/* Two placements closer than this (cells) are one stone: the point that
 * reached it by moving off-centre towards its neighbour's stone yields. */
#define CLASH 0.75
/* ... and only when its evidence is clearly weaker than the neighbour's
 * (two touching stones look alike; a stone and its shadow do not). */
#define CLASH_WEAKER 0.75f
/* Line contrast over which a point's lines show through where a white
 * stone was found only off it (half of LINE_OUT, a sliver of line beside
 * a stone leaning over the margin; white stones read on their points show
 * 0.05 and less). By reasoning. */
#define WHITE_OFF_LINE 0.1f
#ifndef WHITE_OFF_CAP
#define WHITE_OFF_CAP 1
#endif
/* A black read whose centre is this share as dark as the photo's black
 * stones' (log brightness over the board's, the median of the points read
 * black with twice their threshold) keeps its stone against a neighbour's
 * claim. Chosen on gobanwatcher/1 (clicked) and /3 among 0.5, 0.6, 0.7
 * (gobanwatcher/3 the same with each; gobanwatcher/1 best at 0.5); the
 * other sources the same with each: gomrade/1/11's long shadows, the
 * darkest non-stones seen, are at most 0.39 as dark as its stones (that
 * photo darkened, transform_photos.py's dark row: one more read black). */
#define STONE_DARK_SHARE 0.5f
/* A dark patch at least this yellow relative to the board (the wood's hue,
 * within noise) may be a shadow: it must be as dark as this photo's clear
 * stones (a share of them) to be a stone. */
#define SHADOW_HUE (-0.05f)
/* A point's centre this close to the board's brightness (log), with the
 * wood's hue, shows the wood: no black stone stands on it. A tenth: the
 * wood's own grain and light vary by about as much (the empty points'
 * brightness over the board around them, through the grids found on the
 * shared photos: 5th percentile -0.05 on gobanwatcher, -0.085 imago,
 * -0.095 gomrade). */
#ifndef WOOD_CENTRE
#define WOOD_CENTRE 0.1f
#endif
/* Height of a stone's middle over the board, in cells (a stone is about
 * 0.4 cell thick). */
#ifndef STONE_MIDDLE
#define STONE_MIDDLE 0.2
#endif

typedef struct sampler {
	const gv_image *im;
	const double *H;
} sampler;

/* RGB at board point (u, v). */
static void bd_rgb(const sampler *s, double u, double v, float out[3])
{
	double x = 0, y = 0;
	if (!gv_h_apply(s->H, u, v, &x, &y)) {
		out[0] = out[1] = out[2] = 0;
		return;
	}
	gv_px_rgb(s->im, x, y, out);
}

static float lum(const float c[3])
{
	return (c[0] + c[1] + c[2]) * (1.0f / 3.0f);
}

/* Yellowness of a colour: (R + G - 2B) / (R + G + B); wood is clearly
 * positive, grey (stones, under the same light) lower. */
static float yel(const float c[3])
{
	float s = c[0] + c[1] + c[2];
	return s > 1 ? (c[0] + c[1] - 2 * c[2]) / s : 0;
}

/* Robust quadratic surface z(u, v) (u, v in [-1, 1]) through n samples:
 * iteratively reweighted least squares with Tukey's biweight. coef gets 6
 * numbers; *sigma the robust spread of the residuals. */
static void robust_quad(const float *u, const float *v, const float *z, int n, double coef[6], double *sigma,
                        float *w, float *res)
{
	for (int k = 0; k < n; k++)
		w[k] = 1;
	memset(coef, 0, 6 * sizeof *coef);
	double sig = 0;
	for (int it = 0; it < 6; it++) {
		double A[36] = {0}, b[6] = {0};
		for (int k = 0; k < n; k++) {
			double f[6] = {1, u[k], v[k], u[k] * u[k], u[k] * v[k], v[k] * v[k]};
			for (int r = 0; r < 6; r++) {
				for (int c = 0; c < 6; c++)
					A[r * 6 + c] += w[k] * f[r] * f[c];
				b[r] += w[k] * f[r] * z[k];
			}
		}
		for (int r = 0; r < 6; r++)
			A[r * 6 + r] += 1e-6 * (A[0] + 1);
		/* Gaussian elimination (the matrix is symmetric positive definite) */
		for (int c = 0; c < 6; c++) {
			double piv = A[c * 6 + c];
			if (fabs(piv) < 1e-12)
				piv = 1e-12;
			for (int r = c + 1; r < 6; r++) {
				double f = A[r * 6 + c] / piv;
				for (int k = c; k < 6; k++)
					A[r * 6 + k] -= f * A[c * 6 + k];
				b[r] -= f * b[c];
			}
		}
		for (int c = 5; c >= 0; c--) {
			double s = b[c];
			for (int k = c + 1; k < 6; k++)
				s -= A[c * 6 + k] * coef[k];
			double piv = fabs(A[c * 6 + c]) < 1e-12 ? 1e-12 : A[c * 6 + c];
			coef[c] = s / piv;
		}
		for (int k = 0; k < n; k++) {
			double m = coef[0] + coef[1] * u[k] + coef[2] * v[k] + coef[3] * u[k] * u[k] +
			           coef[4] * u[k] * v[k] + coef[5] * v[k] * v[k];
			res[k] = (float)fabs(z[k] - m);
		}
		float *tmp = w; /* w is rebuilt below: use it as scratch for the median */
		memcpy(tmp, res, (size_t)n * sizeof *tmp);
		sig = 1.4826 * gv_medianf(tmp, n);
		double floor_ = 1e-3 * (fabs(coef[0]) + 1);
		if (sig < floor_)
			sig = floor_;
		for (int k = 0; k < n; k++) {
			double t = res[k] / (4.685 * sig);
			w[k] = t < 1 ? (float)((1 - t * t) * (1 - t * t)) : 0;
		}
	}
	*sigma = sig;
}

static double quad_at(const double c[6], double u, double v)
{
	return c[0] + c[1] * u + c[2] * v + c[3] * u * u + c[4] * u * v + c[5] * v * v;
}

/* Whether the board box [u0, u1] x [v0, v1] lies on the image (within half a
 * pixel): its image is a convex quadrilateral, inside when its corners are. */
static bool box_inside(const gv_image *im, const double H[9], double u0, double u1, double v0, double v1)
{
	for (int c = 0; c < 4; c++) {
		double x = 0, y = 0;
		if (!gv_h_apply(H, c & 1 ? u1 : u0, c & 2 ? v1 : v0, &x, &y) ||
		    !(x >= -0.5 && y >= -0.5 && x <= im->width - 0.5 && y <= im->height - 0.5))
			return false;
	}
	return true;
}

/* The arguments every classifier takes, but where the grid lies. */
static bool args_ok(const gv_image *rgb, const double H[9], int size)
{
	return rgb && rgb->data && H && size >= 2 && size <= 19 && rgb->width >= 2 && rgb->height >= 2 &&
	       (rgb->channels == 3 || rgb->channels == 1);
}

int gv_classify_check(const gv_image *rgb, const double H[9], int size)
{
	if (!args_ok(rgb, H, size))
		return GV_EINVAL;
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++)
			if (!box_inside(rgb, H, i, i, j, j))
				return GV_EINVAL;
	return 0;
}

/* gv_classify_doubt over the points f does not mark outside (every point
 * when f is NULL): the points beyond the image are not read, and are no
 * doubt about the ones that are. */
static void cap_doubt(float *conf, int n, const gv_point_features *f)
{
	/* a photo where many points are in doubt is one the model does not
	 * fit (stones packed so that the wood hardly shows, a light that
	 * makes stones and wood alike): nothing in it is sure */
	int doubt = 0, in = 0;
	for (int k = 0; k < n; k++)
		if (!f || !f[k].outside) {
			in++;
			doubt += conf[k] < 0.5f;
		}
	if (doubt > GV_DOUBT_SHARE * in)
		for (int k = 0; k < n; k++)
			if (conf[k] > GV_DOUBT_CAP)
				conf[k] = GV_DOUBT_CAP;
}

void gv_classify_doubt(float *conf, int n)
{
	cap_doubt(conf, n, NULL);
}

/* The board's brightness and yellowness, everywhere: a robust quadratic fit
 * over the squares' centres, corrected locally by the squares that agree with
 * it (bilinear between square centres). */
typedef struct board_model {
	int n;        /* squares per side (size - 1) */
	float *l, *y; /* per square: the local value (its own when it agrees with the fit) */
} board_model;

static void board_at(const board_model *m, double u, double v, double *L, double *Y)
{
	double a = u - 0.5, b = v - 0.5;
	if (a < 0)
		a = 0;
	if (b < 0)
		b = 0;
	if (a > m->n - 1)
		a = m->n - 1;
	if (b > m->n - 1)
		b = m->n - 1;
	int i = (int)a, j = (int)b;
	if (i > m->n - 2)
		i = m->n - 2 < 0 ? 0 : m->n - 2;
	if (j > m->n - 2)
		j = m->n - 2 < 0 ? 0 : m->n - 2;
	double fa = a - i, fb = b - j;
	int i1 = i + 1 < m->n ? i + 1 : i, j1 = j + 1 < m->n ? j + 1 : j;
	const float *l = m->l, *y = m->y;
	int n = m->n;
	*L = (1 - fb) * ((1 - fa) * l[j * n + i] + fa * l[j * n + i1]) + fb * ((1 - fa) * l[j1 * n + i] + fa * l[j1 * n + i1]);
	*Y = (1 - fb) * ((1 - fa) * y[j * n + i] + fa * y[j * n + i1]) + fb * ((1 - fa) * y[j1 * n + i] + fa * y[j1 * n + i1]);
}

/* Four quadrant patches around board point (cu, cv): log brightness over
 * the board's and yellowness minus the board's; rgb (may be NULL) the mean
 * colour of the four. */
static void quadrants(const sampler *s, const board_model *m, double cu, double cv, float qb[4], float qy[4],
                      float *rgb)
{
	double bl = 0, by = 0;
	board_at(m, cu, cv, &bl, &by);
	if (bl < 1)
		bl = 1;
	static const double off[3] = {0.1, 0.16, 0.22};
	/* the 36 samples lie on 6 columns and 6 rows: H's products with each
	 * taken once (gv_h_apply's sums, in its order: the same pixels) */
	const double *H = s->H;
	double hu[2][3][3], hv[2][3][3]; /* [side][offset][x, y, w] */
	for (int side = 0; side < 2; side++)
		for (int a = 0; a < 3; a++) {
			double u = cu + (side ? 1 : -1) * off[a], v = cv + (side ? 1 : -1) * off[a];
			hu[side][a][0] = H[0] * u;
			hu[side][a][1] = H[3] * u;
			hu[side][a][2] = H[6] * u;
			hv[side][a][0] = H[1] * v;
			hv[side][a][1] = H[4] * v;
			hv[side][a][2] = H[7] * v;
		}
#ifdef __SSE2__
	if (s->im->channels == 3) {
		/* the same sums, the three channels at once (gv_px_rgb_sse) */
		for (int q = 0; q < 4; q++) {
			int su = q & 1, sv = (q & 2) >> 1;
			__m128 acc = _mm_setzero_ps();
			for (int b = 0; b < 3; b++)
				for (int a = 0; a < 3; a++) {
					const double *pu = hu[su][a], *pv = hv[sv][b];
					double w = pu[2] + pv[2] + H[8];
					/* a point at infinity adds nothing (the sums are
					 * never below zero: adding +0 would change none) */
					if (fabs(w) >= 1e-12)
						acc = _mm_add_ps(acc, gv_px_rgb_sse(s->im, (pu[0] + pv[0] + H[2]) / w,
						                                    (pu[1] + pv[1] + H[5]) / w));
				}
			float c[4];
			_mm_storeu_ps(c, _mm_div_ps(acc, _mm_set1_ps(9.0f)));
			qb[q] = (float)log((lum(c) + 1) / (bl + 1));
			qy[q] = (float)(yel(c) - by);
			if (rgb)
				for (int t = 0; t < 3; t++)
					rgb[t] = (q ? rgb[t] : 0) + 0.25f * c[t];
		}
		return;
	}
#endif
	for (int q = 0; q < 4; q++) {
		int su = q & 1, sv = (q & 2) >> 1;
		float acc[3] = {0, 0, 0};
		for (int b = 0; b < 3; b++)
			for (int a = 0; a < 3; a++) {
				float c[3] = {0, 0, 0};
				const double *pu = hu[su][a], *pv = hv[sv][b];
				double w = pu[2] + pv[2] + H[8];
				if (fabs(w) >= 1e-12)
					gv_px_rgb(s->im, (pu[0] + pv[0] + H[2]) / w, (pu[1] + pv[1] + H[5]) / w, c);
				for (int t = 0; t < 3; t++)
					acc[t] += c[t];
			}
		for (int t = 0; t < 3; t++)
			acc[t] /= 9.0f;
		qb[q] = (float)log((lum(acc) + 1) / (bl + 1));
		qy[q] = (float)(yel(acc) - by);
		if (rgb)
			for (int t = 0; t < 3; t++)
				rgb[t] = (q ? rgb[t] : 0) + 0.25f * acc[t];
	}
}

static void sort4(float v[4])
{
	for (int a = 1; a < 4; a++)
		for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
			float t = v[b];
			v[b] = v[b - 1];
			v[b - 1] = t;
		}
}

/* Whiteness of a patch: brighter and greyer than the wood (each capped, so
 * that glare alone does not make a stone). */
static float whiteness(float b, float y, float lam)
{
	float bb = b > 0.5f ? 0.5f : b, yy = -y > 0.3f ? 0.3f : -y;
	return bb / 0.12f + lam * yy / 0.05f;
}

/* How far this photo's white stones are greyer than its wood, as a weight
 * for the hue in whiteness (0..1): in daylight or lamplight they are (1);
 * under a coloured light that the camera clips (a blue or violet lamp: the
 * wood as blue as it can be, the stones less) the stones look yellower than
 * the wood, and only their brightness tells them (0). Judged on the points
 * that are clearly brighter than the board around them (the photo's own
 * white stones; glare too, which is as grey). */
static float white_hue_weight(const sampler *s, const board_model *m, int size, const float *eu, const float *ev,
                              const bool *out)
{
	int n = 0;
	float ys[361];
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			if (out && out[j * size + i])
				continue;
			float qb[4], qy[4];
			quadrants(s, m, i + eu[j * size + i], j + ev[j * size + i], qb, qy, NULL);
			sort4(qb);
			sort4(qy);
			if (qb[0] > WHITE_HUE_BRIGHT)
				ys[n++] = 0.5f * (qy[1] + qy[2]);
		}
	if (n < WHITE_HUE_MIN_STONES)
		return 1;
	float y = gv_medianf(ys, n);
	float lam = (-y - WHITE_HUE_NONE) / (WHITE_HUE_FULL - WHITE_HUE_NONE);
	return lam < 0 ? 0 : lam > 1 ? 1 : lam;
}


/* Where the middle of a stone standing on point (u, v) appears, as an offset
 * in board coordinates: seen at an angle, a stone's body stands above the
 * board and looks displaced away from the camera. The camera is recovered
 * from H alone (pinhole, principal point at the image centre, square
 * pixels: the focal length from the two constraints on H's rotation); when
 * that fails (a view from straight above gives no focal length), no offset.
 * height is in cells. */
/* The squared focal length from H's columns (a: H with the principal point
 * taken out; the second column divided by the cells' aspect A, so the
 * board's coordinates are lengths), from the two constraints on a rotation,
 * each weighted by how well it is determined; 0 when neither gives one.
 * *agree: how far the two estimates differ (|log f1/f2|, or a large value
 * when one is missing). */
static double focal2(const double a0[9], double A, double *agree)
{
	double a[9];
	memcpy(a, a0, sizeof a);
	for (int r = 0; r < 3; r++)
		a[r * 3 + 1] /= A;
	double h1x = a[0], h1y = a[3], h1z = a[6], h2x = a[1], h2y = a[4], h2z = a[7];
	double f2 = 0, wsum = 0, fa = 0, fb = 0;
	double d1 = h1z * h2z, d2 = h1z * h1z - h2z * h2z;
	if (fabs(d1) > 1e-18) {
		double f = -(h1x * h2x + h1y * h2y) / d1;
		if (f > 0) {
			fa = f;
			f2 += f * fabs(d1);
			wsum += fabs(d1);
		}
	}
	if (fabs(d2) > 1e-18) {
		double f = (h2x * h2x + h2y * h2y - h1x * h1x - h1y * h1y) / d2;
		if (f > 0) {
			fb = f;
			f2 += f * fabs(d2);
			wsum += fabs(d2);
		}
	}
	*agree = fa > 0 && fb > 0 ? fabs(log(fa / fb)) : 1e9;
	return wsum > 0 ? f2 / wsum : 0;
}

static void parallax(const double H[9], int w, int h, int size, double height, float *eu, float *ev)
{
	int n = size * size;
	for (int k = 0; k < n; k++)
		eu[k] = ev[k] = 0;
	double cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
	double a[9];
	for (int c = 0; c < 3; c++) {
		a[0 * 3 + c] = H[0 * 3 + c] - cx * H[6 + c];
		a[1 * 3 + c] = H[1 * 3 + c] - cy * H[6 + c];
		a[2 * 3 + c] = H[6 + c];
	}
	/* a board's cells are longer from player to player than across
	 * (article 32): which of the grid's two directions is the long one is
	 * the one under which the two estimates of the focal length agree */
	double A = 1, agree = 0, best = 1e18, f2 = 0;
	static const double aspects[3] = {1.0, GV_CELL_ASPECT, 1.0 / GV_CELL_ASPECT};
	for (int k = 0; k < 3; k++) {
		double g = focal2(a, aspects[k], &agree);
		if (g > 0 && (f2 <= 0 || agree < best)) {
			f2 = g;
			best = agree;
			A = aspects[k];
		}
	}
	if (f2 <= 0)
		return;
	for (int r = 0; r < 3; r++)
		a[r * 3 + 1] /= A;
	double h1x = a[0], h1y = a[3], h1z = a[6], h2x = a[1], h2y = a[4], h2z = a[7];
	double f = sqrt(f2), dim = w > h ? w : h;
	if (!(f > 0.3 * dim && f < 5 * dim))
		return;
	double r1[3] = {h1x / f, h1y / f, h1z}, r2[3] = {h2x / f, h2y / f, h2z}, t[3] = {a[2] / f, a[5] / f, a[8]};
	double n1 = sqrt(r1[0] * r1[0] + r1[1] * r1[1] + r1[2] * r1[2]);
	double n2 = sqrt(r2[0] * r2[0] + r2[1] * r2[1] + r2[2] * r2[2]);
	double lam = 2 / (n1 + n2);
	if (t[2] * lam < 0)
		lam = -lam;
	for (int c = 0; c < 3; c++) {
		r1[c] *= lam;
		r2[c] *= lam;
		t[c] *= lam;
	}
	double r3[3] = {r1[1] * r2[2] - r1[2] * r2[1], r1[2] * r2[0] - r1[0] * r2[2], r1[0] * r2[1] - r1[1] * r2[0]};
	/* the camera's side of the board: C = -R^T t, its height C_z = -r3.t */
	double cz = -(r3[0] * t[0] + r3[1] * t[1] + r3[2] * t[2]);
	double up = cz > 0 ? height : -height;
	double Hi[9];
	if (!gv_h_invert(H, Hi))
		return;
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			double X[3];
			for (int c = 0; c < 3; c++)
				X[c] = i * r1[c] + j * A * r2[c] + up * r3[c] + t[c];
			if (X[2] <= 1e-9)
				continue;
			double x = f * X[0] / X[2] + cx, y = f * X[1] / X[2] + cy, u = 0, v = 0;
			if (!gv_h_apply(Hi, x, y, &u, &v))
				continue;
			double du = u - i, dv = v - j;
			/* never more than half a cell: beyond, the model is not to be trusted */
			double m = sqrt(du * du + dv * dv);
			if (m > 0.5) {
				du *= 0.5 / m;
				dv *= 0.5 / m;
			}
			eu[j * size + i] = (float)du;
			ev[j * size + i] = (float)dv;
		}
}

int gv_classify_features(const gv_image *rgb, const double H[9], int size, gv_point_features *feat)
{
	return gv_classify_features_update(rgb, H, size, feat, NULL);
}

static int features(const gv_image *rgb, const double H[9], int size, gv_point_features *feat, const bool *redo,
                    bool within);

int gv_classify_features_update(const gv_image *rgb, const double H[9], int size, gv_point_features *feat,
                                const bool *redo)
{
	return features(rgb, H, size, feat, redo, false);
}

int gv_classify_features_within(const gv_image *rgb, const double H[9], int size, gv_point_features *feat,
                                const bool *redo)
{
	return features(rgb, H, size, feat, redo, true);
}

static int features(const gv_image *rgb, const double H[9], int size, gv_point_features *feat, const bool *redo,
                    bool within)
{
	double x, y;
	if (within ? !args_ok(rgb, H, size) || !gv_h_apply(H, 0, 0, &x, &y) : gv_classify_check(rgb, H, size) != 0)
		return GV_EINVAL;
	if (!feat)
		return GV_EINVAL;
	sampler s = {rgb, H};
	int nc = (size - 1) * (size - 1);
	float *buf = calloc((size_t)nc * 11, sizeof *buf);
	if (!buf)
		return GV_ENOMEM;
	/* within: the squares whose middles lie on the image, and the points
	 * whose stones would (below, once the camera's angle is known) */
	bool sq_in[18 * 18], pt_out[19 * 19];
	int nsq_in = nc;
	for (int k = 0; k < nc; k++) {
		int i = k % (size - 1), j = k / (size - 1);
		sq_in[k] = !within || box_inside(rgb, H, i + 0.3, i + 0.7, j + 0.3, j + 0.7);
		nsq_in -= !sq_in[k];
	}
	/* a quadratic's six coefficients need six squares (all of a small
	 * board's) */
	if (nsq_in < (nc < 6 ? nc : 6)) {
		free(buf);
		return GV_EINVAL;
	}
	float *cu = buf, *cv = buf + nc, *cl = buf + 2 * nc, *cy = buf + 3 * nc, *w = buf + 4 * nc,
	      *res = buf + 5 * nc, *rl = buf + 6 * nc, *ry = buf + 7 * nc, *sqc = buf + 8 * nc;
	double half = (size - 1) / 2.0;
	/* 1. the board at the centre of every square */
	for (int j = 0; j + 1 < size; j++)
		for (int i = 0; i + 1 < size; i++) {
			int k = j * (size - 1) + i;
			float acc[3] = {0, 0, 0}, ls[9];
			int n = 0;
			for (int b = -1; b <= 1; b++)
				for (int a = -1; a <= 1; a++) {
					float c[3];
					bd_rgb(&s, i + 0.5 + 0.14 * a, j + 0.5 + 0.14 * b, c);
					for (int q = 0; q < 3; q++)
						acc[q] += c[q];
					ls[n++] = lum(c);
				}
			for (int q = 0; q < 3; q++)
				acc[q] /= (float)n;
			cu[k] = (float)((i + 0.5 - half) / half);
			cv[k] = (float)((j + 0.5 - half) / half);
			cl[k] = gv_medianf(ls, n);
			cy[k] = yel(acc);
			for (int q = 0; q < 3; q++)
				sqc[q * nc + k] = acc[q];
		}
	double ql[6], qy[6], sl = 0, sy = 0;
	if (nsq_in == nc) {
		robust_quad(cu, cv, cl, nc, ql, &sl, w, res);
		memcpy(rl, res, (size_t)nc * sizeof *rl);
		robust_quad(cu, cv, cy, nc, qy, &sy, w, res);
		memcpy(ry, res, (size_t)nc * sizeof *ry);
	} else {
		/* the fit on the squares inside, gathered into the residuals'
		 * arrays (free until the fit is done) */
		float *gu = rl, *gv = ry, *gz = calloc((size_t)nsq_in * 2, sizeof *gz);
		if (!gz) {
			free(buf);
			return GV_ENOMEM;
		}
		float *gy = gz + nsq_in;
		int m = 0;
		for (int k = 0; k < nc; k++)
			if (sq_in[k]) {
				gu[m] = cu[k];
				gv[m] = cv[k];
				gz[m] = cl[k];
				gy[m] = cy[k];
				m++;
			}
		robust_quad(gu, gv, gz, m, ql, &sl, w, res);
		robust_quad(gu, gv, gy, m, qy, &sy, w, res);
		free(gz);
		/* outside, the fit alone (the residual that makes it so) */
		for (int k = 0; k < nc; k++) {
			rl[k] = sq_in[k] ? (float)fabs(cl[k] - quad_at(ql, cu[k], cv[k])) : 1e9f;
			ry[k] = sq_in[k] ? (float)fabs(cy[k] - quad_at(qy, cu[k], cv[k])) : 1e9f;
		}
	}
	/* each square's whiteness against the fit: no stone covers a square's
	 * centre (much), so white there is glare or something over the board */
	float *sqw = calloc((size_t)nc * 3, sizeof *sqw), *sqb = sqw + nc, *sqy = sqw + 2 * nc;
	if (!sqw) {
		free(buf);
		return GV_ENOMEM;
	}
	for (int k = 0; k < nc; k++) {
		double fl = quad_at(ql, cu[k], cv[k]), fy = quad_at(qy, cu[k], cv[k]);
		if (fl < 1)
			fl = 1;
		sqb[k] = (float)log((cl[k] + 1) / (fl + 1));
		sqy[k] = (float)(cy[k] - fy);
	}
	/* local values: a square's own where it agrees with the fit */
	for (int k = 0; k < nc; k++) {
		double fl = quad_at(ql, cu[k], cv[k]);
		if (rl[k] > 2.5 * sl || ry[k] > 2.5 * sy || fabs(log((cl[k] + 1) / (fl > 0 ? fl + 1 : 1))) > WOOD_LOCAL) {
			cl[k] = (float)quad_at(ql, cu[k], cv[k]);
			cy[k] = (float)quad_at(qy, cu[k], cv[k]);
		}
	}
	board_model m = {size - 1, cl, cy};
	/* the board's colour, channel by channel: the median of the squares'
	 * middles (on the image); scaled to the local brightness where used */
	float wood[3];
	for (int q = 0; q < 3; q++) {
		int n = 0;
		for (int k = 0; k < nc; k++)
			if (sq_in[k])
				w[n++] = sqc[q * nc + k];
		wood[q] = gv_medianf(w, n);
	}
	float wood_l = lum(wood) > 1 ? lum(wood) : 1;
	float *eu = malloc((size_t)size * size * 2 * sizeof *eu);
	if (!eu) {
		free(sqw);
		free(buf);
		return GV_ENOMEM;
	}
	float *ev = eu + size * size;
	parallax(H, rgb->width, rgb->height, size, STONE_MIDDLE, eu, ev);
	int npt_in = size * size;
	for (int k = 0; k < size * size; k++) {
		int i = k % size, j = k / size;
		double pu = eu[k], pv = ev[k], r = GV_INSIDE_REACH;
		pt_out[k] = within && !box_inside(rgb, H, i - r + (pu < 0 ? pu : 0), i + r + (pu > 0 ? pu : 0),
		                                   j - r + (pv < 0 ? pv : 0), j + r + (pv > 0 ? pv : 0));
		npt_in -= pt_out[k];
	}
	if (npt_in < GV_INSIDE_MIN * size * size) {
		free(eu);
		free(sqw);
		free(buf);
		return GV_EINVAL;
	}
	float lam = white_hue_weight(&s, &m, size, eu, ev, npt_in < size * size ? pt_out : NULL);
	for (int k = 0; k < nc; k++)
		sqw[k] = whiteness(sqb[k], sqy[k], lam);

	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			if (redo && !redo[j * size + i])
				continue;
			gv_point_features *f = &feat[j * size + i];
			f->outside = pt_out[j * size + i];
			if (f->outside) {
				/* nothing measured: as an empty point with its lines
				 * showing, which gv_classify_decide reads empty with no
				 * confidence */
				memset(f, 0, sizeof *f);
				f->outside = true;
				f->black = f->white = f->black0 = f->white0 = -1e9f;
				f->line = 1;
				continue;
			}
			double bl = 0, by = 0;
			board_at(&m, i, j, &bl, &by);
			if (bl < 1)
				bl = 1;
			/* 2a. the quadrants around the point itself */
			float qb[4], qyl[4];
			quadrants(&s, &m, i, j, qb, qyl, NULL);
			float sb[4], syl[4];
			memcpy(sb, qb, sizeof sb);
			memcpy(syl, qyl, sizeof syl);
			sort4(sb);
			sort4(syl);
			f->bright = 0.5f * (sb[1] + sb[2]);
			f->dark = sb[1];
			f->yellow = 0.5f * (syl[1] + syl[2]);
			f->board = (float)bl;
			int nsq = 0;
			float wmin = 1e9f;
			for (int dj = -1; dj <= 0; dj++)
				for (int di = -1; di <= 0; di++) {
					int a = i + di, b = j + dj;
					if (a < 0 || b < 0 || a >= size - 1 || b >= size - 1 || !sq_in[b * (size - 1) + a])
						continue;
					nsq++;
					if (sqw[b * (size - 1) + a] < wmin)
						wmin = sqw[b * (size - 1) + a];
				}
			f->around = nsq ? wmin : 0;
			/* past the board's edge, out from an edge point: the white
			 * evidence there (the second least white of four patches,
			 * as a stone's), the larger of the two sides at a corner */
			f->beyond = 0;
			for (int side = 0; side < 4; side++) {
				int du = side == 0 ? -1 : side == 1 ? 1 : 0, dv = side == 2 ? -1 : side == 3 ? 1 : 0;
				bool edge = (du < 0 && i == 0) || (du > 0 && i == size - 1) || (dv < 0 && j == 0) ||
				            (dv > 0 && j == size - 1);
				if (!edge)
					continue;
				double bu = i + du * GV_BEYOND_CELLS, bv = j + dv * GV_BEYOND_CELLS;
				if (within && !box_inside(rgb, H, bu - 0.25, bu + 0.25, bv - 0.25, bv + 0.25))
					continue;
				quadrants(&s, &m, bu, bv, qb, qyl, NULL);
				float wh[4];
				for (int q = 0; q < 4; q++)
					wh[q] = whiteness(qb[q], qyl[q], lam);
				sort4(wh);
				if (wh[1] > f->beyond)
					f->beyond = wh[1];
			}
			/* 2b. the best stone placement within a third of a cell of
			 * where the camera's angle puts a stone's middle */
			double pu = eu[j * size + i], pv = ev[j * size + i];
			f->pu = (float)pu;
			f->pv = (float)pv;
			f->black = -1e9f;
			f->white = -1e9f;
			float wout = -1e9f, wou = 0, wov = 0; /* the best white placement off the outer lines */
			float wrgb[3] = {0, 0, 0};             /* the colour at the best white placement on the board */
			for (int ob = -2; ob <= 2; ob++)
				for (int oa = -2; oa <= 2; oa++) {
					/* off the grid's outer lines lie the board's margin
					 * and the table, as dark as a black stone or as
					 * bright as a white one: only a white stone is
					 * looked for there, and taken only when the point's
					 * own lines are hidden (below) */
					bool outward = (i == 0 && oa < 0) || (i == size - 1 && oa > 0) || (j == 0 && ob < 0) ||
					               (j == size - 1 && ob > 0);
					double du = 0.15 * oa + pu, dv = 0.15 * ob + pv;
					float pen = (float)(0.5 * ((du - pu) * (du - pu) + (dv - pv) * (dv - pv)));
					float rgb[3];
					quadrants(&s, &m, i + du, j + dv, qb, qyl, rgb);
					float d[4], wh[4];
					for (int q = 0; q < 4; q++) {
						d[q] = -qb[q];
						wh[q] = whiteness(qb[q], qyl[q], lam);
					}
					sort4(d);
					sort4(wh);
					float eb = d[1] - pen, ew = wh[1] - 4 * pen;
					if (!oa && !ob) {
						f->black0 = eb;
						f->white0 = ew;
					}
					if (eb > f->black && !outward) {
						f->black = eb;
						f->bu = (float)du;
						f->bv = (float)dv;
					}
					if (outward) {
						if (ew > wout) {
							wout = ew;
							wou = (float)du;
							wov = (float)dv;
						}
					} else if (ew > f->white) {
						f->white = ew;
						f->wu = (float)du;
						f->wv = (float)dv;
						memcpy(wrgb, rgb, sizeof wrgb);
					}
				}
			/* the colour at the best white placement (its four
			 * patches), against the wood's at the local brightness */
			for (int q = 0; q < 3; q++)
				f->wc[q] = (float)log((wrgb[q] + 1) / (wood[q] * bl / wood_l + 1));
			/* 2c. the line arms */
			float arm[4];
			int na = 0;
			for (int d = 0; d < 4; d++) {
				int du = d == 0 ? 1 : d == 1 ? -1 : 0, dv = d == 2 ? 1 : d == 3 ? -1 : 0;
				if (i + du < 0 || i + du >= size || j + dv < 0 || j + dv >= size)
					continue;
				static const double ts[3] = {0.18, 0.26, 0.34};
				double con = 0;
				for (int t = 0; t < 3; t++) {
					double au = i + du * ts[t], av = j + dv * ts[t];
					double nu = dv != 0 ? 1 : 0, nv = du != 0 ? 1 : 0; /* across the arm */
					float on = 1e9f;
					for (int o = -3; o <= 3; o++) {
						float c[3];
						bd_rgb(&s, au + nu * 0.025 * o, av + nv * 0.025 * o, c);
						float l = lum(c);
						if (l < on)
							on = l;
					}
					float c1[3], c2[3];
					bd_rgb(&s, au + nu * 0.2, av + nv * 0.2, c1);
					bd_rgb(&s, au - nu * 0.2, av - nv * 0.2, c2);
					con += 0.5 * (lum(c1) + lum(c2)) - on;
				}
				arm[na++] = (float)(con / 3 / bl);
			}
			f->line = na ? gv_medianf(arm, na) : 0;
			/* a stone put down carelessly on the edge stands out over
			 * the margin; the lines at its point are hidden then. Not
			 * where the white goes on past the board's edge as strongly
			 * (GV_BEYOND_CELLS out): a pale cloth or wall beyond the
			 * board, not a stone (in a small photo the lines at a
			 * corner blur into the wood, and the cloth beside it reads
			 * as a stone standing out) */
			if (wout > f->white && f->line < LINE_OUT && f->beyond < wout) {
				f->white = wout;
				f->wu = wou;
				f->wv = wov;
			}
		}
	free(eu);
	free(sqw);
	free(buf);
	return 0;
}

/* A per-image threshold: at least base, and at least frac of the upper
 * quartile of the values above strong (the clear stones of this photo), so a
 * photo with very dark stones does not take their shadows for stones. */
static float adapt(const float *v, int n, float base, float strong, float frac, float *tmp)
{
	int m = 0;
	for (int k = 0; k < n; k++)
		if (v[k] > strong)
			tmp[m++] = v[k];
	if (m < 3)
		return base;
	float t = frac * gv_selectf(tmp, m, (3 * m) / 4);
	return t > base ? t : base;
}

int gv_classify(const gv_image *rgb, const double H[9], int size, unsigned char *cells, float *conf)
{
	if (!cells)
		return GV_EINVAL;
	int n = size >= 2 && size <= 19 ? size * size : 1;
	gv_point_features *f = malloc((size_t)n * sizeof *f);
	if (!f)
		return GV_ENOMEM;
	int rc = gv_classify_features(rgb, H, size, f);
	if (rc == 0)
		rc = gv_classify_decide(f, size, cells, conf);
	free(f);
	return rc;
}

/* A black stone hides the lines too: what shows of them counts against its
 * darkness (at its best placement or right on the point). */
static float black_evidence(float dark, float line)
{
	return dark - BLACK_LINE_PENALTY * (line > 0 ? line : 0);
}

/* The inverse Si of a symmetric 3x3 S and its determinant; false when S
 * is singular. */
static bool invert3(const double S[9], double Si[9], double *det)
{
	double a = S[0], b = S[1], c = S[2], e = S[4], g = S[5], i = S[8];
	double A = e * i - g * g, B = c * g - b * i, C = b * g - c * e;
	double d = a * A + b * B + c * C;
	if (!(d > 1e-30))
		return false;
	double E = a * i - c * c, F = b * c - a * g, I = a * e - b * b;
	const double inv[9] = {A, B, C, B, E, F, C, F, I};
	for (int k = 0; k < 9; k++)
		Si[k] = inv[k] / d;
	*det = d;
	return true;
}

/* x' Si x for a symmetric 3x3 Si. */
static double quad3(const double Si[9], const double x[3])
{
	double s = 0;
	for (int a = 0; a < 3; a++)
		for (int b = 0; b < 3; b++)
			s += x[a] * Si[a * 3 + b] * x[b];
	return s;
}

/* One kind of point (the white stones or the wood) as a normal population
 * of the colour f[].wc: its share of the points, mean, spread and the
 * spread's inverse and determinant. */
typedef struct colour_kind {
	double n;      /* the weight of its points */
	double share;  /* n over all points' */
	double m[3];
	double S[9], Si[9], det;
} colour_kind;

/* The kind whose points are pts[0..np) weighed by w[] (a point's chance of
 * being of this kind). false when its weight is under GV_PHOTO_MIN or its
 * spread singular. Each channel's spread is at least GV_PHOTO_SPREAD_MIN. */
static bool fit_kind(const gv_point_features *f, const int *pts, int np, const double *w, colour_kind *k)
{
	memset(k, 0, sizeof *k);
	for (int p = 0; p < np; p++) {
		k->n += w[p];
		for (int q = 0; q < 3; q++)
			k->m[q] += w[p] * f[pts[p]].wc[q];
	}
	if (k->n < GV_PHOTO_MIN)
		return false;
	for (int q = 0; q < 3; q++)
		k->m[q] /= k->n;
	for (int p = 0; p < np; p++) {
		double x[3];
		for (int q = 0; q < 3; q++)
			x[q] = f[pts[p]].wc[q] - k->m[q];
		for (int a = 0; a < 3; a++)
			for (int b = 0; b < 3; b++)
				k->S[a * 3 + b] += w[p] * x[a] * x[b];
	}
	for (int a = 0; a < 9; a++)
		k->S[a] /= k->n;
	for (int q = 0; q < 3; q++)
		k->S[q * 4] += GV_PHOTO_SPREAD_MIN * GV_PHOTO_SPREAD_MIN;
	k->share = k->n / np;
	return invert3(k->S, k->Si, &k->det);
}

/* The log of the chance of colour c in kind k (less a constant). */
static double kind_loglik(const colour_kind *k, const float c[3])
{
	double x[3] = {c[0] - k->m[0], c[1] - k->m[1], c[2] - k->m[2]};
	return log(k->share) - 0.5 * log(k->det) - 0.5 * quad3(k->Si, x);
}

/* How far apart two kinds are: the Bhattacharyya distance of their normal
 * populations (0: the same; the chance of telling a point wrongly is at
 * most exp(-it) times the square root of the shares' product). */
static double kinds_apart(const colour_kind *a, const colour_kind *b)
{
	double S[9], Si[9], det, x[3];
	for (int k = 0; k < 9; k++)
		S[k] = 0.5 * (a->S[k] + b->S[k]);
	if (!invert3(S, Si, &det))
		return 0;
	for (int q = 0; q < 3; q++)
		x[q] = a->m[q] - b->m[q];
	return 0.125 * quad3(Si, x) + 0.5 * log(det / sqrt(a->det * b->det));
}

/* See classify.h. */
int gv_classify_colours(const gv_point_features *f, int size, unsigned char *cells, float *conf)
{
	if (!f || !cells || !conf || size < 2 || size > 19)
		return GV_EINVAL;
	/* the points read white or empty, and each one's chance of being white
	 * (at first, 1 for a point read white) */
	int n = size * size, np = 0, pts[19 * 19];
	double r[19 * 19], w[19 * 19];
	bool held[19 * 19]; /* a sure point's chance stays its reading's */
	for (int k = 0; k < n; k++)
		if (!f[k].outside && cells[k] != C_BLACK && isfinite(f[k].wc[0]) && isfinite(f[k].wc[1]) &&
		    isfinite(f[k].wc[2])) {
			r[np] = cells[k] == C_WHITE;
			held[np] = conf[k] >= GV_SURE_CONF;
			pts[np++] = k;
		}
	/* too few read white to judge by (an opening's few white stones
	 * under a lamp that makes them as dark as the wood, all read empty
	 * but these): where the lines show plainly on the points read empty
	 * (their median line contrast at least GV_SEED_LINES_SHOW: not a
	 * photo out of focus, whose lines are faint everywhere), the points
	 * whose lines are hidden (LINE_HIDDEN) count among the white ones at
	 * first, for something stands there; the colours then judge each of
	 * them as any other (-DGV_NO_SEED_HIDDEN leaves it out, for
	 * measuring) */
#ifndef GV_NO_SEED_HIDDEN
	int whites = 0, open = 0;
	float lines_open[19 * 19];
	for (int p = 0; p < np; p++) {
		whites += r[p] > 0;
		if (cells[pts[p]] == C_EMPTY)
			lines_open[open++] = f[pts[p]].line;
	}
	if (whites < GV_PHOTO_MIN && open > 0 && gv_selectf(lines_open, open, open / 2) >= GV_SEED_LINES_SHOW)
		for (int p = 0; p < np; p++)
			if (!held[p] && f[pts[p]].line < LINE_HIDDEN)
				r[p] = 1;
#endif
	/* a mixture of two normal populations fitted to them (expectation-
	 * maximisation from the first reading): each round fits each kind to
	 * the points weighed by their chances, then the chances anew */
	colour_kind white, wood;
	for (int round = 0;; round++) {
		for (int p = 0; p < np; p++)
			w[p] = 1 - r[p];
		if (!fit_kind(f, pts, np, r, &white) || !fit_kind(f, pts, np, w, &wood))
			return 0;
		if (round == GV_PHOTO_ROUNDS)
			break;
		double moved = 0;
		for (int p = 0; p < np; p++) {
			if (held[p])
				continue;
			double lw = kind_loglik(&white, f[pts[p]].wc), le = kind_loglik(&wood, f[pts[p]].wc);
			double c = 1 / (1 + exp(le - lw));
			moved = fmax(moved, fabs(c - r[p]));
			r[p] = c;
		}
		if (moved < 1e-4)
			break;
	}
	if (kinds_apart(&white, &wood) < GV_PHOTO_APART)
		return 0;
	/* glare on the wood is as white as the stones: a point the first
	 * reading found empty fairly surely (GV_PHOTO_HOLD) though the squares
	 * around it are as white as a stone (f->around above 0), and whose
	 * lines show more than on any white stone it read surely, stays empty
	 * (where it read GV_PHOTO_MIN white stones surely) */
	int sure_white = 0;
	float lines = -1e30f;
	for (int k = 0; k < n; k++)
		if (!f[k].outside && cells[k] == C_WHITE && conf[k] >= GV_SURE_CONF) {
			sure_white++;
			lines = fmaxf(lines, f[k].line);
		}
	for (int p = 0; p < np; p++) {
		int k = pts[p];
		if (conf[k] >= GV_SURE_CONF)
			continue;
		double lw = kind_loglik(&white, f[k].wc), le = kind_loglik(&wood, f[k].wc);
		unsigned char c = lw > le ? C_WHITE : C_EMPTY;
		bool glare = c == C_WHITE && sure_white >= GV_PHOTO_MIN && f[k].around > 0 && conf[k] >= GV_PHOTO_HOLD &&
		             f[k].line > lines;
		if (c == cells[k] || glare)
			continue;
		/* only to a kind its colour is typical of (glare on the wood is
		 * whiter than the white stones, and no wood either) */
		const colour_kind *to = c == C_WHITE ? &white : &wood;
		double x[3] = {f[k].wc[0] - to->m[0], f[k].wc[1] - to->m[1], f[k].wc[2] - to->m[2]};
		if (quad3(to->Si, x) > GV_PHOTO_TYPICAL)
			continue;
		/* as sure as the mixture is of it, and no surer than before */
		float sure = (float)fabs(2 / (1 + exp(le - lw)) - 1);
		cells[k] = c;
		if (sure < conf[k])
			conf[k] = sure;
	}
	return 0;
}

int gv_classify_decide(const gv_point_features *f, int size, unsigned char *cells, float *conf)
{
	if (!f || !cells || size < 2 || size > 19)
		return GV_EINVAL;
	int n = size * size;
	float *tmp = malloc((size_t)n * 7 * sizeof *tmp);
	int *order = malloc((size_t)n * 2 * sizeof *order);
	if (!tmp || !order) {
		free(tmp);
		free(order);
		return GV_ENOMEM;
	}
	float *eb = tmp + n, *ew = tmp + 2 * n, *score = tmp + 3 * n;
	int *black_ = order + n;
	float *tbk = tmp + 4 * n, *rbk = tmp + 5 * n, *rwk = tmp + 6 * n;
	for (int k = 0; k < n; k++) {
		eb[k] = black_evidence(f[k].black, f[k].line);
		ew[k] = f[k].white;
	}
	/* a point beyond the image (gv_classify_features_within) takes no part
	 * in this photo's thresholds (its evidence is -1e9: under every one) */
	/* a dark patch with the wood's hue is a shadow, unless it is as dark as
	 * this photo's stones */
	float tb0 = BLACK_BASE, tbs = adapt(eb, n, tb0, 0.9f, 0.6f, tmp);
	float tw = adapt(ew, n, 1.8f, 3.0f, 0.4f, tmp);
	/* candidates, strongest first; a stone claimed by a point is not claimed
	 * again by a neighbour whose best placement lands on the same spot */
	int nc = 0;
	for (int k = 0; k < n; k++) {
		/* a white stone hides the grid lines (all but a sliver when it
		 * stands off its point); an empty point shows them */
		/* as white as the squares around it: glare or a hand, not a stone */
		if (f[k].around > 0)
			ew[k] -= AROUND * f[k].around;
		if (f[k].line > LINE_WHITE)
			ew[k] = 0;
		else if (f[k].line > 0)
			ew[k] -= LINE_PENALTY * f[k].line;
		/* lines hidden: something stands there (a white stone on a pale
		 * board, in washed-out light, is hardly whiter than the wood) */
		if (f[k].line < LINE_HIDDEN && f[k].bright > HIDDEN_DARK)
			ew[k] += HIDDEN_BONUS * (LINE_HIDDEN - (f[k].line > 0 ? f[k].line : 0)) / LINE_HIDDEN;
		if (f[k].line > LINE_BLACK && f[k].bright >= LINE_BLACK_DARK)
			eb[k] = 0;
		float tb = f[k].yellow >= SHADOW_HUE ? tbs : tb0;
		tbk[k] = tb;
		float rb = eb[k] / tb, rw = ew[k] / tw;
		rbk[k] = rb;
		rwk[k] = rw;
		cells[k] = C_EMPTY;
		/* a point dark at its centre is black, whatever lies next to it */
		black_[k] = rb > 1 && (f[k].bright < DARK_CENTRE || rb > rw);
		/* each colour's evidence right on the point clears its threshold */
		bool on_b = black_evidence(f[k].black0, f[k].line) > tb;
		bool on_w = f[k].white0 > tw;
		/* both colours clear their thresholds: the one standing right on
		 * the point, where the other was reached only by looking off it
		 * (a neighbour's body leaning over the point at a steep angle) */
		if (rb > 1 && rw > 1 && f[k].bright >= DARK_CENTRE) {
			if (on_w && !on_b)
				black_[k] = 0;
			else if (on_b && !on_w)
				black_[k] = 1;
		}
		score[k] = black_[k] ? rb : rw;
		/* black found only by looking off the point, white right on it,
		 * which alone clears the threshold: a white stone whose lean
		 * leaves a sliver of line showing (the line penalty kept it
		 * under) beside a black neighbour whose edge was found. The
		 * colour on the point, as where both clear their thresholds */
		if (black_[k] && rw <= 1 && f[k].bright >= DARK_CENTRE && on_w && !on_b && f[k].line <= LINE_WHITE) {
			black_[k] = 0;
			score[k] = f[k].white0 / tw;
		}
		/* black found only off the point, whose centre is brighter than
		 * the board, or as bright give or take WOOD_CENTRE and of the
		 * wood's hue: a black stone standing off its point still covers
		 * it (it is a cell wide), so the dark found is something beside
		 * the point (a neighbour's edge, a white stone's own shadow, the
		 * shadow of a black one leaning over it: 3_jwerth_1's R14 read
		 * black at 0.57, its centre 0.03 darker than the wood, as
		 * yellow): the point is read by its white, or empty */
		if (black_[k] && (f[k].bright > 0 || (f[k].bright > -WOOD_CENTRE && f[k].yellow >= SHADOW_HUE)) && !on_b) {
			black_[k] = 0;
			score[k] = rw;
		}
		if (score[k] > 1)
			order[nc++] = k;
	}
	/* how dark this photo's black stones are at their centres: the median
	 * of the points read black with twice their threshold (0 with fewer
	 * than three) */
	float stone_dark = 0;
	{
		int m = 0;
		for (int k = 0; k < n; k++)
			if (black_[k] && score[k] > 2)
				tmp[m++] = f[k].bright;
		if (m >= 3)
			stone_dark = gv_selectf(tmp, m, m / 2);
	}
	for (int a = 1; a < nc; a++)
		for (int b = a; b > 0 && score[order[b - 1]] < score[order[b]]; b--) {
			int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (int a = 0; a < nc; a++) {
		int k = order[a], i = k % size, j = k / size;
		int black = black_[k];
		unsigned char colour = (unsigned char)(black ? C_BLACK : C_WHITE);
		/* a point that holds the stone right on it keeps it; so does a
		 * black one whose centre is at least STONE_DARK_SHARE as dark as
		 * the photo's black stones' (packed in a far row, seen steeply,
		 * a black stone's best placement may lean onto its neighbour's,
		 * whose claim came first; a shadow is not that dark) */
		if (black ? f[k].black0 > tbk[k] || (stone_dark < 0 && f[k].bright <= STONE_DARK_SHARE * stone_dark)
		          : f[k].white0 > tw) {
			cells[k] = colour;
			continue;
		}
		double cu = i + (black ? f[k].bu : f[k].wu), cv = j + (black ? f[k].bv : f[k].wv);
		double ou = cu - i - f[k].pu, ov = cv - j - f[k].pv;
		int clash = 0;
		for (int b = 0; b < a && !clash; b++) {
			int q = order[b];
			if (cells[q] != colour)
				continue;
			int qi = q % size, qj = q / size;
			double qu = qi + (black ? f[q].bu : f[q].wu);
			double qv = qj + (black ? f[q].bv : f[q].wv);
			if (abs(qi - i) <= 1 && abs(qj - j) <= 1 && ou * ou + ov * ov >= 0.2 * 0.2 &&
			    ou * (qi - i) + ov * (qj - j) > 0 && (cu - qu) * (cu - qu) + (cv - qv) * (cv - qv) < CLASH * CLASH &&
			    score[k] < CLASH_WEAKER * score[q])
				clash = 1;
		}
		if (clash)
			score[k] = 0.75f; /* read empty, with little confidence */
		else
			cells[k] = colour;
	}
	/* The confidence: how far the evidence read clears its threshold, and
	 * how far it clears the evidence of what was not read: a point read
	 * empty is only as sure as the stronger colour is short of its
	 * threshold (a black stone judged against a photo's darker stones
	 * stays in doubt), a colour only as sure as it beats the other one
	 * where both clear their thresholds (a white stone in a black
	 * neighbour's shadow). */
	if (conf)
		for (int k = 0; k < n; k++) {
			float c;
			if (cells[k] == C_EMPTY) {
				float r = score[k] > 0.5f ? score[k] : 0.5f;
				float m = rbk[k] > rwk[k] ? rbk[k] : rwk[k];
				if (m > r)
					r = m;
				c = r < 1 ? (1 - r) / 0.5f : 0;
			} else {
				float r = score[k], other = cells[k] == C_BLACK ? rwk[k] : rbk[k];
				c = (r - 1) / 0.5f;
				if (other > 1 && (r / other - 1) / CONF_OVER_OTHER < c)
					c = (r / other - 1) / CONF_OVER_OTHER;
			}
			/* a white stone on the edge whose white goes on past the
			 * board's edge may be a hand or a sleeve reaching over it:
			 * not sure (a stone with a pale wall beyond the board
			 * loses only its sureness) */
			if (cells[k] == C_WHITE && f[k].beyond >= tw && c > GV_BEYOND_CAP)
				c = GV_BEYOND_CAP;
			/* white found only off the point, whose own centre is not
			 * white and shows the grid's lines with the wood's hue: a
			 * white stone covers its point even where it stands off it
			 * (it is a cell wide), so the white found may be a
			 * neighbour's body reaching over (one standing off its own
			 * point): not sure */
			if (WHITE_OFF_CAP && cells[k] == C_WHITE && f[k].white0 < 0 && f[k].line > WHITE_OFF_LINE &&
			    f[k].yellow >= SHADOW_HUE && c > GV_DOUBT_CAP)
				c = GV_DOUBT_CAP;
			/* read empty only because the squares around it are as
			 * white as its white evidence, which alone clears the
			 * threshold: glare or a hand, or white stones packed so
			 * that, seen at an angle, their bodies cover the squares'
			 * middles: either, not sure */
			if (cells[k] == C_EMPTY && f[k].around > 0 && f[k].white > tw && c > GV_DOUBT_CAP)
				c = GV_DOUBT_CAP;
			/* read empty only because its lines show, where its black
			 * alone clears the threshold and its own centre is dark
			 * (lines never darken the quadrants, which lie off them):
			 * a black stone's edge seen steeply through a grid a
			 * little off its points makes arms of line contrast too
			 * (gobanwatcher/1 orange_2 through its clicked corners:
			 * nine black stones read empty with 1.0), so not sure.
			 * Since LINE_BLACK_DARK the lines veto only centres
			 * between it and DARK_CENTRE; a darker one read empty
			 * here was so for another reason (a neighbour's claim),
			 * and is capped alike */
			if (cells[k] == C_EMPTY && f[k].line > LINE_BLACK && f[k].bright < DARK_CENTRE &&
			    black_evidence(f[k].black, f[k].line) > tbk[k] && c > GV_DOUBT_CAP)
				c = GV_DOUBT_CAP;
#ifndef GV_NO_HIDDEN_DARK
			/* read empty where its lines are hidden and its centre is
			 * darker than the wood (HIDDEN_DARK): no wood, and too
			 * light for black. Something stands there, as a white
			 * stone under a yellow lamp, which makes it darker than
			 * the orange board (a scene at 33 degrees: two white
			 * stones read empty at 0.98 and 1.0): not sure
			 * (-DGV_NO_HIDDEN_DARK leaves it out, for measuring) */
			if (cells[k] == C_EMPTY && f[k].line < LINE_HIDDEN && f[k].bright < HIDDEN_DARK && c > GV_DOUBT_CAP)
				c = GV_DOUBT_CAP;
#endif
			conf[k] = f[k].outside ? 0 : c > 1 ? 1 : c < 0 ? 0 : c;
		}
	if (conf)
		cap_doubt(conf, n, f);
	free(tmp);
	free(order);
	return 0;
}
