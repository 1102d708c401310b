/* goref vision: finding the board's grid in a photo. See locate.h. */
#include "locate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"
#include "hough.h"
#include "png.h"
#include "sortf.h"
#include "tuning.h"
#include "trace.h"

#define MAX_SEGS 6000
#define NBINS 1200

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct seg {
	double x0, y0, x1, y1; /* working-scale pixels */
	double len;
	double ang;            /* direction in [0, 180) degrees */
	int fam;               /* -1 none, 0 or 1 */
} seg;

static void set_err(char *err, size_t cap, const char *msg)
{
	if (err && cap)
		snprintf(err, cap, "%s", msg);
}

/* Thin dark lines: how much darker a pixel is than both its neighbours d
 * pixels away across (horizontally or vertically), the best d of 1..3;
 * thinned to the pixels that beat their two neighbours across the line. */
/* How much darker c is than both a and b (0 when not). */
static inline int dip(int a, int b, int c)
{
	int m = (a < b ? a : b) - c;
	return m > 0 ? m : 0;
}

static int ridge(const gv_image *g, gv_image *bin, int thresh)
{
	int w = g->width, h = g->height;
	unsigned char *r = calloc((size_t)w * h, 2);
	if (!r)
		return GV_ENOMEM;
	unsigned char *dir = r + (size_t)w * h;
	for (int y = 0; y < h; y++) {
		/* the rows d = 1..nv above and below (all of them inside) */
		const unsigned char *row = gv_px(g, 0, y), *up[3], *dn[3];
		int nv = 0;
		while (nv < 3 && y >= nv + 1 && y + nv + 1 < h) {
			up[nv] = gv_px(g, 0, y - nv - 1);
			dn[nv] = gv_px(g, 0, y + nv + 1);
			nv++;
		}
		unsigned char *ro = r + (size_t)y * w, *dr = dir + (size_t)y * w;
		if (nv == 3 && w > 6) {
			/* the inside: every d on both axes, no branch but min and max */
			const unsigned char *u1 = up[0], *u2 = up[1], *u3 = up[2], *d1 = dn[0], *d2 = dn[1], *d3 = dn[2];
			int x = 3;
#ifdef __SSE2__
			/* sixteen pixels at a time in bytes: dip is min(a, b) - c
			 * saturated at 0, the same values as below */
#define GV_LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define GV_DIP(a, b) _mm_subs_epu8(_mm_min_epu8(GV_LD(a), GV_LD(b)), c)
			for (; x + 16 <= w - 3; x += 16) {
				__m128i c = GV_LD(row + x);
				__m128i bh = _mm_max_epu8(_mm_max_epu8(GV_DIP(row + x - 1, row + x + 1), GV_DIP(row + x - 2, row + x + 2)),
				                          GV_DIP(row + x - 3, row + x + 3));
				__m128i bv = _mm_max_epu8(_mm_max_epu8(GV_DIP(u1 + x, d1 + x), GV_DIP(u2 + x, d2 + x)), GV_DIP(u3 + x, d3 + x));
				__m128i m = _mm_max_epu8(bh, bv);
				_mm_storeu_si128((__m128i *)(void *)(ro + x), m);
				/* 0 where bh >= bv (the larger is bh), else 1 */
				_mm_storeu_si128((__m128i *)(void *)(dr + x), _mm_andnot_si128(_mm_cmpeq_epi8(m, bh), _mm_set1_epi8(1)));
			}
#undef GV_DIP
#undef GV_LD
#endif
			for (; x < w - 3; x++) {
				int c = row[x];
				int bh = dip(row[x - 1], row[x + 1], c), bv = dip(u1[x], d1[x], c);
				int m = dip(row[x - 2], row[x + 2], c);
				bh = m > bh ? m : bh;
				m = dip(row[x - 3], row[x + 3], c);
				bh = m > bh ? m : bh;
				m = dip(u2[x], d2[x], c);
				bv = m > bv ? m : bv;
				m = dip(u3[x], d3[x], c);
				bv = m > bv ? m : bv;
				ro[x] = (unsigned char)(bh > bv ? bh : bv);
				dr[x] = bh >= bv ? 0 : 1;
			}
		}
		/* the rest (the margins three pixels wide): the d that fit */
		for (int k = 0; k < w; k++) {
			if (nv == 3 && w > 6 && k == 3)
				k = w - 3;
			int c = row[k], bh = 0, bv = 0;
			for (int d = 1; d <= 3 && k >= d && k + d < w; d++) {
				int m = dip(row[k - d], row[k + d], c);
				bh = m > bh ? m : bh;
			}
			for (int d = 0; d < nv; d++) {
				int m = dip(up[d][k], dn[d][k], c);
				bv = m > bv ? m : bv;
			}
			ro[k] = (unsigned char)(bh > bv ? bh : bv);
			dr[k] = bh >= bv ? 0 : 1;
		}
	}
	for (int y = 0; y < h; y++) {
		unsigned char *o = gv_px(bin, 0, y);
		for (int x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			int v = r[i];
			o[x] = 0;
			if (v < thresh)
				continue;
			if (dir[i] == 0) {
				if ((x > 0 && r[i - 1] > v) || (x + 1 < w && r[i + 1] >= v))
					continue;
			} else {
				if ((y > 0 && r[i - w] > v) || (y + 1 < h && r[i + w] >= v))
					continue;
			}
			o[x] = 255;
		}
	}
	free(r);
	return 0;
}

/* Smallest eigenvector of a symmetric 3x3 matrix (Jacobi). */
static void min_eigvec(const double M[9], double v[3])
{
	double a[9], V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
	memcpy(a, M, sizeof a);
	for (int sweep = 0; sweep < 30; sweep++) {
		double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
		if (off < 1e-15)
			break;
		for (int p = 0; p < 2; p++)
			for (int q = p + 1; q < 3; q++) {
				double apq = a[p * 3 + q];
				if (fabs(apq) < 1e-18)
					continue;
				double app = a[p * 3 + p], aqq = a[q * 3 + q];
				double theta = (aqq - app) / (2 * apq);
				double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
				double c = 1 / sqrt(t * t + 1), s = t * c;
				for (int k = 0; k < 3; k++) {
					double akp = a[k * 3 + p], akq = a[k * 3 + q];
					a[k * 3 + p] = c * akp - s * akq;
					a[k * 3 + q] = s * akp + c * akq;
				}
				for (int k = 0; k < 3; k++) {
					double apk = a[p * 3 + k], aqk = a[q * 3 + k];
					a[p * 3 + k] = c * apk - s * aqk;
					a[q * 3 + k] = s * apk + c * aqk;
				}
				for (int k = 0; k < 3; k++) {
					double vkp = V[k * 3 + p], vkq = V[k * 3 + q];
					V[k * 3 + p] = c * vkp - s * vkq;
					V[k * 3 + q] = s * vkp + c * vkq;
				}
			}
	}
	int m = 0;
	for (int k = 1; k < 3; k++)
		if (a[k * 3 + k] < a[m * 3 + m])
			m = k;
	for (int k = 0; k < 3; k++)
		v[k] = V[k * 3 + m];
}

/* A line of the search's trace (gv_locate_opts.trace), when one is set. */
#define ltr(o, ...) gv_tracef((o) ? (o)->trace : NULL, (o) ? (o)->trace_ud : NULL, __VA_ARGS__)

/* Appends a formatted number to a trace line being built. */
static void lcat(char *line, size_t cap, const char *fmt, double v)
{
	size_t at = strlen(line);
	if (at + 1 < cap)
		snprintf(line + at, cap - at, fmt, v);
}

static double angdiff(double a, double b)
{
	double d = fmod(fabs(a - b), 180.0);
	return d > 90 ? 180 - d : d;
}

/* Normalised image coordinates: centred, half the longer side = 1. */
typedef struct frame {
	double cx, cy, S;
} frame;

/* Vanishing point (homogeneous, normalised coordinates) of the segments of
 * family f, weighted by length. */
static void fit_vp(const seg *s, int n, int f, const frame *fr, double v[3])
{
	double M[9] = {0};
	for (int k = 0; k < n; k++) {
		if (s[k].fam != f)
			continue;
		double ax = (s[k].x0 - fr->cx) / fr->S, ay = (s[k].y0 - fr->cy) / fr->S;
		double bx = (s[k].x1 - fr->cx) / fr->S, by = (s[k].y1 - fr->cy) / fr->S;
		double l[3] = {ay - by, bx - ax, ax * by - ay * bx};
		double nn = hypot(l[0], l[1]);
		if (nn < 1e-12)
			continue;
		for (int i = 0; i < 3; i++)
			l[i] /= nn;
		double w = s[k].len;
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				M[i * 3 + j] += w * l[i] * l[j];
	}
	min_eigvec(M, v);
}

/* Angle (degrees) between segment k and the direction from its middle to v. */
static double vp_error(const seg *s, const frame *fr, const double v[3])
{
	double mx = ((s->x0 + s->x1) / 2 - fr->cx) / fr->S, my = ((s->y0 + s->y1) / 2 - fr->cy) / fr->S;
	double dx = v[0] - mx * v[2], dy = v[1] - my * v[2];
	if (hypot(dx, dy) < 1e-12)
		return 90;
	double a = atan2(dy, dx) * 180 / M_PI;
	if (a < 0)
		a += 180;
	if (a >= 180)
		a -= 180;
	return angdiff(a, s->ang);
}

/* Each segment (of those in[k] marks, where in is given) to the family of
 * the nearer of the vanishing points vp where it points at it within its
 * tolerance (its own direction's uncertainty, 3 px over its length, and
 * extra degrees), else to none (-1). */
static void take_by_vps(seg *s, int n, const frame *fr, const double vp[2][3], double extra,
                        const unsigned char *in)
{
	for (int k = 0; k < n; k++) {
		s[k].fam = -1;
		if (in && !in[k])
			continue;
		double tol = atan2(3, s[k].len) * 180 / M_PI + extra;
		double e0 = vp_error(&s[k], fr, vp[0]), e1 = vp_error(&s[k], fr, vp[1]);
		if (e0 < tol && e0 <= e1)
			s[k].fam = 0;
		else if (e1 < tol)
			s[k].fam = 1;
	}
}

/* A vanishing point for the segments within 20 degrees of the direction
 * peak (degrees): the intersection of two of them that the most segment
 * length squared agrees with (power 2: long lines count most, a patterned
 * table's short marks do not outvote the grid), or the most length (power
 * 1: a floor's few long seams do not outvote a crowded board's many short
 * pieces of line). Deterministic. */
static void ransac_vp(seg *s, int n, const frame *fr, int peak, const int *others, int nothers, int power,
                      double v[3])
{
	int *idx = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
	int m = 0;
	if (idx)
		for (int k = 0; k < n; k++) {
			double d = angdiff(s[k].ang, peak);
			if (d >= 20)
				continue;
			/* a segment nearer another direction's peak is that one's (a
			 * floor's seams a few degrees off the board's rows) */
			bool nearer = false;
			for (int q = 0; q < nothers && !nearer; q++)
				nearer = others[q] != peak && angdiff(s[k].ang, others[q]) < d;
			if (!nearer)
				idx[m++] = k;
		}
	/* fallback: the direction of the peak itself, at infinity */
	v[0] = cos(peak * M_PI / 180);
	v[1] = sin(peak * M_PI / 180);
	v[2] = 0;
	if (m < 2) {
		free(idx);
		return;
	}
	/* the longest segments first: candidates are pairs among the top 30 */
	int top = m < 30 ? m : 30;
	for (int a = 0; a < top; a++) {
		int bi = a;
		for (int b = a + 1; b < m; b++)
			if (s[idx[b]].len > s[idx[bi]].len)
				bi = b;
		int t = idx[a];
		idx[a] = idx[bi];
		idx[bi] = t;
	}
	/* a segment agrees with a candidate when the angle between it and the
	 * direction from its middle to the candidate is under its tolerance
	 * (its own direction's uncertainty, 2 px over its length, and half a
	 * degree): tested as the sine squared (the cross product of the unit
	 * direction of the segment with that direction, squared, over that
	 * direction's length squared), each segment's direction, middle and
	 * tolerance taken once */
	double *pre = malloc(sizeof(double) * 5 * (size_t)m);
	if (!pre) {
		free(idx);
		return;
	}
	for (int k = 0; k < m; k++) {
		const seg *g = &s[idx[k]];
		double tol = atan2(2, g->len) * 180 / M_PI + 0.5;
		double *q = pre + 5 * k;
		q[0] = cos(g->ang * M_PI / 180);
		q[1] = sin(g->ang * M_PI / 180);
		q[2] = ((g->x0 + g->x1) / 2 - fr->cx) / fr->S;
		q[3] = ((g->y0 + g->y1) / 2 - fr->cy) / fr->S;
		double st = tol >= 90 ? 1 : sin(tol * M_PI / 180);
		q[4] = st * st;
	}
	double best = -1;
	double lines[30][3];
	for (int a = 0; a < top; a++) {
		const seg *g = &s[idx[a]];
		double ax = (g->x0 - fr->cx) / fr->S, ay = (g->y0 - fr->cy) / fr->S;
		double bx = (g->x1 - fr->cx) / fr->S, by = (g->y1 - fr->cy) / fr->S;
		lines[a][0] = ay - by;
		lines[a][1] = bx - ax;
		lines[a][2] = ax * by - ay * bx;
	}
	for (int a = 0; a < top; a++)
		for (int b = a + 1; b < top; b++) {
			const double *p = lines[a], *q = lines[b];
			double c[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
			double nn = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
			if (nn < 1e-15)
				continue;
			for (int i = 0; i < 3; i++)
				c[i] /= nn;
			double sc = 0;
			for (int k = 0; k < m; k++) {
				const double *q = pre + 5 * k;
				double dx = c[0] - q[2] * c[2], dy = c[1] - q[3] * c[2];
				double cr = q[0] * dy - q[1] * dx;
				if (cr * cr < q[4] * (dx * dx + dy * dy)) {
					const seg *g = &s[idx[k]];
					sc += power == 1 ? g->len : g->len * g->len;
				}
			}
			if (sc > best) {
				best = sc;
				memcpy(v, c, sizeof c);
			}
		}
	free(pre);
	free(idx);
}

/* The rectification: image (normalised) -> plane where family 0 runs along x
 * and family 1 along y. R is a 3x3 homography. */
static bool rectifier(const double v0[3], const double v1[3], double R[9])
{
	double h[3] = {v0[1] * v1[2] - v0[2] * v1[1], v0[2] * v1[0] - v0[0] * v1[2], v0[0] * v1[1] - v0[1] * v1[0]};
	double hn = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
	if (hn < 1e-12 || fabs(h[2]) < 0.3 * hn) /* the horizon may not come near the image */
		return false;
	for (int i = 0; i < 3; i++)
		h[i] /= h[2];
	/* directions of the two families after sending the horizon to infinity */
	double d0x = v0[0], d0y = v0[1], d1x = v1[0], d1y = v1[1];
	double n0 = hypot(d0x, d0y), n1 = hypot(d1x, d1y);
	if (n0 < 1e-12 || n1 < 1e-12)
		return false;
	d0x /= n0, d0y /= n0, d1x /= n1, d1y /= n1;
	double det = d0x * d1y - d1x * d0y;
	if (fabs(det) < 0.2)
		return false;
	/* A = [d0 d1]^-1 */
	double A[4] = {d1y / det, -d1x / det, -d0y / det, d0x / det};
	double Ha[9] = {1, 0, 0, 0, 1, 0, h[0], h[1], 1};
	double Am[9] = {A[0], A[1], 0, A[2], A[3], 0, 0, 0, 1};
	gv_h_mul(Am, Ha, R);
	return true;
}

/* Profile value at a fractional bin, linear interpolation, 0 outside. */
static double prof_at(const double *P, double x)
{
	if (x < 0 || x > NBINS - 1)
		return 0;
	int i = (int)x;
	double f = x - i;
	if (i >= NBINS - 1)
		return P[NBINS - 1];
	return P[i] * (1 - f) + P[i + 1] * f;
}

/* Fits N equally spaced lines to a profile: best offset o and spacing sp (in
 * bins). Returns the score (<= 0: nothing found). Built a second time for
 * AVX2 (image.h): its loops over the offsets take four doubles at a time. */
GV_CLONES_AVX2
static double fit_lines(const double *P, int N, double smin, double smax, double *o_out, double *sp_out)
{
	/* Scores: the log of each line's response (plus a floor), so that one
	 * missing line costs more than strong lines elsewhere earn: all N lines
	 * must be there. The profile is max-filtered by a few per cent of the
	 * spacing, which absorbs a slightly wrong rectification (the positions
	 * are then refined on the lines themselves). */
	enum { MAXW = 8 };
	static double L[MAXW + 1][NBINS + 1]; /* one past the end: a line at the last bin */
	double top = 0;
	for (int i = 0; i < NBINS; i++)
		top = fmax(top, P[i]);
	*o_out = 0;
	*sp_out = 0;
	if (top <= 0)
		return 0;
	double eps = 0.03 * top;
	/* the log of each bin once (lp[NBINS]: of nothing); each window then
	 * takes its largest bin's (the same value, without a log a window) */
	double lp[NBINS + 1];
	for (int i = 0; i < NBINS; i++)
		lp[i] = P[i] > 0 ? log(eps + P[i]) : 0;
	lp[NBINS] = log(eps);
	for (int w = 0; w <= MAXW; w++)
		for (int i = 0; i < NBINS; i++) {
			double m = 0;
			int at = NBINS;
			for (int d = -w; d <= w; d++)
				if (i + d >= 0 && i + d < NBINS && P[i + d] > m) {
					m = P[i + d];
					at = i + d;
				}
			L[w][i] = lp[at];
		}
	for (int w = 0; w <= MAXW; w++)
		L[w][NBINS] = L[w][NBINS - 1];
	double floor_out = log(eps); /* beyond the profile: nothing */
	double best = -1e300;
	for (int pass = 0; pass < 2; pass++) {
		double s0 = *sp_out, o0 = *o_out;
		double slo = pass ? s0 - 0.5 : smin, shi = pass ? s0 + 0.5 : smax;
		for (double sp = slo; sp <= shi; sp += pass ? 0.05 : (sp < 20 ? 0.25 : 0.5)) {
			int w = (int)lround(0.06 * sp);
			if (w > MAXW)
				w = MAXW;
			const double *Lw = L[w];
			double span = sp * (N - 1);
			if (!pass) {
				/* whole offsets: the N lines' places in the profile are
				 * the same sum of two neighbouring bins at every offset,
				 * shifted, so all offsets at once, a line at a time */
				int no = (int)floor(NBINS - 1 - span) + 1;
				if (no <= 0)
					continue;
				double acc[NBINS];
				for (int o = 0; o < no; o++)
					acc[o] = 0;
				for (int k = 0; k < N; k++) {
					double x = k * sp;
					int b = (int)x;
					double fr = x - b;
					const double *l0 = Lw + b, *l1 = Lw + b + 1;
					for (int o = 0; o < no; o++)
						acc[o] += l0[o] * (1 - fr) + l1[o] * fr;
				}
				for (int o = 0; o < no; o++) {
					double sc = acc[o];
					double a = o - sp, b = o + span + sp;
					sc -= a >= 0 ? prof_at(Lw, a) : floor_out;
					sc -= b <= NBINS - 1 ? prof_at(Lw, b) : floor_out;
					if (sc > best) {
						best = sc;
						*o_out = o;
						*sp_out = sp;
					}
				}
				continue;
			}
			double olo = o0 - 1, ohi = o0 + 1;
			for (double o = olo; o <= ohi; o += 0.1) {
				if (o < 0 || o + span > NBINS - 1)
					continue;
				double sc = 0;
				for (int k = 0; k < N; k++)
					sc += prof_at(Lw, o + k * sp);
				double a = o - sp, b = o + span + sp;
				sc -= a >= 0 ? prof_at(Lw, a) : floor_out;
				sc -= b <= NBINS - 1 ? prof_at(Lw, b) : floor_out;
				if (sc > best) {
					best = sc;
					*o_out = o;
					*sp_out = sp;
				}
			}
		}
	}
	return best > -1e300 ? 1 : 0;
}

/* fit_lines' answers for the profiles it was given in one search: a pair
 * of directions tried again with the lines clipped to each other's reach
 * gives a family that lost no segment the same profile, whose fit is then
 * taken from here (the same answer, found once). */
#define FIT_MEMO 4
typedef struct fit_memo {
	int n, next;
	struct {
		int N;
		double smin, smax, o, sp, score;
		double Q[NBINS];
	} e[FIT_MEMO];
} fit_memo;

static double fit_lines_memo(fit_memo *m, const double *Q, int N, double smin, double smax, double *o_out,
                             double *sp_out)
{
	if (m)
		for (int k = 0; k < m->n; k++)
			if (m->e[k].N == N && m->e[k].smin == smin && m->e[k].smax == smax &&
			    !memcmp(m->e[k].Q, Q, sizeof m->e[k].Q)) {
				*o_out = m->e[k].o;
				*sp_out = m->e[k].sp;
				return m->e[k].score;
			}
	double sc = fit_lines(Q, N, smin, smax, o_out, sp_out);
	if (m) {
		int k = m->next;
		m->next = (k + 1) % FIT_MEMO;
		if (m->n < FIT_MEMO)
			m->n++;
		m->e[k].N = N;
		m->e[k].smin = smin;
		m->e[k].smax = smax;
		m->e[k].o = *o_out;
		m->e[k].sp = *sp_out;
		m->e[k].score = sc;
		memcpy(m->e[k].Q, Q, sizeof m->e[k].Q);
	}
	return sc;
}

/* Total least squares line through weighted points: a x + b y + c = 0,
 * a^2 + b^2 = 1. */
typedef struct linefit {
	double sw, sx, sy, sxx, sxy, syy;
} linefit;

static void lf_add(linefit *l, double x, double y, double w)
{
	l->sw += w;
	l->sx += w * x;
	l->sy += w * y;
	l->sxx += w * x * x;
	l->sxy += w * x * y;
	l->syy += w * y * y;
}

static bool lf_solve(const linefit *l, double line[3])
{
	if (l->sw <= 0)
		return false;
	double mx = l->sx / l->sw, my = l->sy / l->sw;
	double cxx = l->sxx / l->sw - mx * mx, cxy = l->sxy / l->sw - mx * my, cyy = l->syy / l->sw - my * my;
	/* direction = main eigenvector; normal = the other */
	double th = 0.5 * atan2(2 * cxy, cxx - cyy);
	double dx = cos(th), dy = sin(th);
	line[0] = -dy;
	line[1] = dx;
	line[2] = -(line[0] * mx + line[1] * my);
	return true;
}

/* One refinement pass: segments assigned to grid lines through the current
 * H (work scale), lines fitted, intersections to a new H. Returns false when
 * too little supports the grid. */
static bool refine(const seg *s, int n, int N, double H[9], double *support, double *resid, double *resid_trim)
{
	double Hi[9];
	if (!gv_h_invert(H, Hi))
		return false;
	linefit lf[2][19];
	double cover[2][19];
	memset(lf, 0, sizeof lf);
	memset(cover, 0, sizeof cover);
	for (int k = 0; k < n; k++) {
		double u0, v0, u1, v1;
		if (!gv_h_apply(Hi, s[k].x0, s[k].y0, &u0, &v0) || !gv_h_apply(Hi, s[k].x1, s[k].y1, &u1, &v1))
			continue;
		/* constant u: a line i = const ("vertical" in the board); constant v: j = const */
		double du = fabs(u1 - u0), dv = fabs(v1 - v0);
		int dir = du < dv ? 0 : 1; /* 0: column line (u const), 1: row line (v const) */
		double a = dir == 0 ? u0 : v0, b = dir == 0 ? u1 : v1;
		double along0 = dir == 0 ? v0 : u0, along1 = dir == 0 ? v1 : u1;
		int ka = (int)lround(a), kb = (int)lround(b);
		if (ka != kb || ka < 0 || ka >= N || fabs(a - ka) > 0.25 || fabs(b - kb) > 0.25)
			continue;
		/* the segment must lie on the grid, not run beyond it */
		if (fmin(along0, along1) < -0.6 || fmax(along0, along1) > N - 1 + 0.6)
			continue;
		double w = s[k].len;
		lf_add(&lf[dir][ka], s[k].x0, s[k].y0, w);
		lf_add(&lf[dir][ka], s[k].x1, s[k].y1, w);
		lf_add(&lf[dir][ka], (s[k].x0 + s[k].x1) / 2, (s[k].y0 + s[k].y1) / 2, w);
		cover[dir][ka] += fabs(along1 - along0);
	}
	double lines[2][19][3];
	bool ok[2][19];
	int nok = 0;
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < N; k++) {
			ok[d][k] = cover[d][k] >= 1.0 && lf_solve(&lf[d][k], lines[d][k]);
			nok += ok[d][k];
		}
	*support = nok / (2.0 * N);
	double src[19 * 19 * 2], dst[19 * 19 * 2];
	int m = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			if (!ok[0][i] || !ok[1][j])
				continue;
			const double *p = lines[0][i], *q = lines[1][j];
			double w = p[0] * q[1] - p[1] * q[0];
			if (fabs(w) < 1e-9)
				continue;
			src[2 * m] = i;
			src[2 * m + 1] = j;
			dst[2 * m] = (p[1] * q[2] - p[2] * q[1]) / w;
			dst[2 * m + 1] = (p[2] * q[0] - p[0] * q[2]) / w;
			m++;
		}
	if (m < 8)
		return false;
	double Hn[9];
	if (!gv_h_fit(src, dst, m, Hn))
		return false;
	memcpy(H, Hn, sizeof Hn);
	/* residual: the supported lines' distance from the new grid (each
	 * line's mean square at its two ends) */
	double perl[2 * 19];
	int npl = 0;
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < N; k++) {
			if (!ok[d][k])
				continue;
			double ax, ay, bx, by;
			if (d == 0) {
				gv_h_apply(H, k, 0, &ax, &ay);
				gv_h_apply(H, k, N - 1, &bx, &by);
			} else {
				gv_h_apply(H, 0, k, &ax, &ay);
				gv_h_apply(H, N - 1, k, &bx, &by);
			}
			const double *l = lines[d][k];
			double ea = l[0] * ax + l[1] * ay + l[2], eb = l[0] * bx + l[1] * by + l[2];
			perl[npl++] = (ea * ea + eb * eb) / 2;
		}
	double t = 0;
	for (int q = 0; q < npl; q++)
		t += perl[q];
	*resid = npl ? sqrt(t / npl) : 0;
	/* the same without the worst tenth of the lines (GV_LOCATE_RESID_TRIM) */
	*resid_trim = *resid;
	if (npl >= 10) {
		qsort(perl, (size_t)npl, sizeof *perl, gv_cmp_double);
		int keep = npl - (int)(npl * GV_LOCATE_RESID_TRIM);
		t = 0;
		for (int q = 0; q < keep; q++)
			t += perl[q];
		*resid_trim = sqrt(t / keep);
	}
	return true;
}

/* Coverage (board units of length) of the grid line k (may lie outside
 * 0..N-1) in direction dir (0: i = k, 1: j = k) by the segments. */
static void coverage(const seg *s, int n, int N, const double Hi[9], int lo, int hi, double cover[2][32])
{
	memset(cover, 0, sizeof(double) * 2 * 32);
	for (int k = 0; k < n; k++) {
		double u0, v0, u1, v1;
		if (!gv_h_apply(Hi, s[k].x0, s[k].y0, &u0, &v0) || !gv_h_apply(Hi, s[k].x1, s[k].y1, &u1, &v1))
			continue;
		int dir = fabs(u1 - u0) < fabs(v1 - v0) ? 0 : 1;
		double a = dir == 0 ? u0 : v0, b = dir == 0 ? u1 : v1;
		double p0 = dir == 0 ? v0 : u0, p1 = dir == 0 ? v1 : u1;
		int ka = (int)lround(a), kb = (int)lround(b);
		if (ka != kb || ka < lo || ka > hi || fabs(a - ka) > 0.1 || fabs(b - kb) > 0.1)
			continue;
		double amin = fmax(fmin(p0, p1), -0.5), amax = fmin(fmax(p0, p1), N - 0.5);
		if (amax > amin)
			cover[dir][ka - lo] += amax - amin;
	}
}

/* Counts exactly N lines: the grid is moved by up to two lines each way
 * when that puts strong lines inside and weak ones just outside. Returns
 * true when H changed. */
static bool shift_check(const seg *s, int n, int N, double H[9], const gv_locate_opts *o)
{
	double Hi[9], cover[2][32];
	if (!gv_h_invert(H, Hi))
		return false;
	coverage(s, n, N, Hi, -3, N + 2, cover);
	int shift[2] = {0, 0};
	for (int d = 0; d < 2; d++) {
		double best = -1e300;
		for (int sh = -2; sh <= 2; sh++) {
			double sc = 0;
			for (int k = sh; k < sh + N; k++)
				sc += sqrt(cover[d][k + 3]);
			sc -= 1.5 * (sqrt(cover[d][sh - 1 + 3]) + sqrt(cover[d][sh + N + 3]));
			if (sc > best + 1e-9) {
				best = sc;
				shift[d] = sh;
			}
		}
	}
	if (o && o->trace)
		for (int d = 0; d < 2; d++) {
			char line[600];
			snprintf(line, sizeof line, "cover %d (shift %d):", d, shift[d]);
			for (int k = 0; k < N + 6; k++)
				lcat(line, sizeof line, " %.1f", cover[d][k]);
			ltr(o, "%s", line);
		}
	if (!shift[0] && !shift[1])
		return false;
	double T[9] = {1, 0, shift[0], 0, 1, shift[1], 0, 0, 1};
	gv_h_mul(H, T, H);
	return true;
}

/* A lattice twice too dense in one family (fitted to a board whose lines
 * show in short pieces between stones, every other line of the lattice
 * falls between the board's): its lines of one parity hold at most
 * GV_LOCATE_HALF_EMPTY of the segments' length the other parity holds,
 * over at least three lines. Then its spacing in that family is doubled
 * on the strong parity. Returns true when H changed. */
static bool density_check(const seg *s, int n, int N, double H[9], const gv_locate_opts *o)
{
	double Hi[9], cover[2][32];
	if (!gv_h_invert(H, Hi))
		return false;
	coverage(s, n, N, Hi, 0, N - 1, cover);
	bool changed = false;
	for (int d = 0; d < 2; d++) {
		double par[2] = {0, 0};
		int lit[2] = {0, 0};
		for (int k = 0; k < N; k++) {
			par[k % 2] += cover[d][k];
			lit[k % 2] += cover[d][k] > 0;
		}
		int p = par[0] >= par[1] ? 0 : 1;
		if (lit[p] < 3 || par[1 - p] > GV_LOCATE_HALF_EMPTY * par[p])
			continue;
		/* board coordinate c (u for d 0, v for d 1) -> 2c + p */
		double T[9] = {d == 0 ? 2 : 1, 0, d == 0 ? p : 0, 0, d == 1 ? 2 : 1, d == 1 ? p : 0, 0, 0, 1};
		gv_h_mul(H, T, H);
		ltr(o, "locate: family %d twice too dense (lines of parity %d: %.1f, the others %.1f): spacing doubled", d,
		    p, par[p], par[1 - p]);
		changed = true;
	}
	return changed;
}

/* Reorders board coordinates so that row 0 is the edge nearest the top of
 * the image and column 0 the one nearest its left. */
static void orient(double H[9], int N)
{
	double m = N - 1;
	/* new (i, j) -> old board coordinates, as 3x3 affine maps */
	const double T[8][9] = {
		{1, 0, 0, 0, 1, 0, 0, 0, 1},   {-1, 0, m, 0, 1, 0, 0, 0, 1},
		{1, 0, 0, 0, -1, m, 0, 0, 1},  {-1, 0, m, 0, -1, m, 0, 0, 1},
		{0, 1, 0, 1, 0, 0, 0, 0, 1},   {0, -1, m, 1, 0, 0, 0, 0, 1},
		{0, 1, 0, -1, 0, m, 0, 0, 1},  {0, -1, m, -1, 0, m, 0, 0, 1},
	};
	int best = 0;
	double bestv = 1e300;
	for (int t = 0; t < 8; t++) {
		double Ht[9];
		gv_h_mul(H, T[t], Ht);
		double x, y, top, left, right, sc;
		gv_h_apply(Ht, m / 2, 0, &x, &top);
		double other = 1e300;
		gv_h_apply(Ht, m / 2, m, &x, &y);
		other = fmin(other, y);
		gv_h_apply(Ht, 0, m / 2, &left, &y);
		other = fmin(other, y);
		gv_h_apply(Ht, m, m / 2, &right, &y);
		other = fmin(other, y);
		/* top edge must be the highest; then left before right */
		sc = top - other;
		if (sc > 0)
			sc += 1e6;
		if (left > right)
			sc += 1e5;
		if (sc < bestv) {
			bestv = sc;
			best = t;
		}
	}
	gv_h_mul(H, T[best], H);
}

/* A segment's ends through Rw (working pixels -> the rectified plane);
 * false when either falls at infinity. */
static bool rect_ends(const double Rw[9], const seg *sg, double *ax, double *ay, double *bx, double *by)
{
	return gv_h_apply(Rw, sg->x0, sg->y0, ax, ay) && gv_h_apply(Rw, sg->x1, sg->y1, bx, by);
}

/* What every pair of directions is tried on in one search (gv_locate):
 * the options, the fits' memo, the segments (their families set by each
 * try), the frame, the directions' peaks (degrees), the board's lines and
 * the power of the segments' length that weighs the vanishing points. */
typedef struct pair_search {
	const gv_locate_opts *o;
	fit_memo *memo;
	seg *s;
	int nseg;
	const frame *fr;
	const int *pk;
	int npk;
	int N;
	int power;
} pair_search;

/* A pair's grid (board -> working pixels), the share of its lines seen,
 * the lines' residual (all, and without the worst tenth), or why none. */
typedef struct pair_fit {
	double H[9];
	double support, resid, trim;
	const char *why;
} pair_fit;

/* The grid from the segments, given the two peaks p0, p1 of their
 * directions (degrees), with each family's lines only within the other's
 * reach where clip is 1, and not beside the other's outer lines either,
 * the vanishing points fitted again, where it is 2. False with out->why
 * set when no grid fits. */
static bool try_pair(const pair_search *ps, int p0, int p1, int clip, pair_fit *out)
{
	const gv_locate_opts *o = ps->o;
	seg *s = ps->s;
	int nseg = ps->nseg, N = ps->N;
	const char **why = &out->why;
	frame fr = *ps->fr;
	int peaks[2] = {p0, p1};
	double vp[2][3];
	for (int f = 0; f < 2; f++)
		ransac_vp(s, nseg, &fr, peaks[f], ps->pk, ps->npk, ps->power, vp[f]);
	/* then least squares on the segments that agree, the tolerance narrowing */
	const double extra[5] = {2.5, 1.5, 1, 1, 1};
	for (int it = 0; it < 5; it++) {
		take_by_vps(s, nseg, &fr, vp, extra[it], NULL);
		if (it < 4) {
			fit_vp(s, nseg, 0, &fr, vp[0]);
			fit_vp(s, nseg, 1, &fr, vp[1]);
		}
	}
	double R[9];
	if (!rectifier(vp[0], vp[1], R)) {
		*why = "no board found: no two families of grid lines";
		return false;
	}
	/* image (work px) -> rectified plane */
	double Nrm[9] = {1 / fr.S, 0, -fr.cx / fr.S, 0, 1 / fr.S, -fr.cy / fr.S, 0, 0, 1};
	double Rw[9];
	gv_h_mul(R, Nrm, Rw);
	/* clip: a family's lines only where the other family's reach (along
	 * them): a floor's long seams beside the board, as near the columns'
	 * direction as to share their vanishing point, lie beyond the ends of
	 * the board's rows (which the floor does not show); a lattice that is
	 * the board's needs no line past the other family's ends. With clip
	 * 2, nor a line wholly beside the other family's lines, past the
	 * first or the last of them: a seam on the floor to the board's side,
	 * a row's direction near enough to be taken among them; the seams cut
	 * had drawn the vanishing points towards their own, so those are
	 * fitted again on the lines kept. */
	if (clip) {
		/* ext: each family's reach along its lines; at: their positions
		 * across (family 0, the rows, runs along x) */
		double ext[2][2] = {{1e300, -1e300}, {1e300, -1e300}}, at[2][2] = {{1e300, -1e300}, {1e300, -1e300}};
		double cut[2] = {0, 0}, kept[2] = {0, 0};
		int ncut[2] = {0, 0};
		for (int k = 0; k < nseg; k++) {
			double ax, ay, bx, by;
			if (s[k].fam < 0 || !rect_ends(Rw, &s[k], &ax, &ay, &bx, &by))
				continue;
			int f = s[k].fam;
			double a0 = f == 0 ? ax : ay, a1 = f == 0 ? bx : by, pos = f == 0 ? (ay + by) / 2 : (ax + bx) / 2;
			ext[f][0] = fmin(ext[f][0], fmin(a0, a1));
			ext[f][1] = fmax(ext[f][1], fmax(a0, a1));
			at[f][0] = fmin(at[f][0], pos);
			at[f][1] = fmax(at[f][1], pos);
		}
		/* the lines kept, for the second fit (without room, none) */
		unsigned char *in = clip == 2 ? calloc((size_t)nseg + 1, 1) : NULL;
		for (int k = 0; k < nseg; k++) {
			double ax, ay, bx, by;
			if (s[k].fam < 0 || !rect_ends(Rw, &s[k], &ax, &ay, &bx, &by))
				continue;
			int f = s[k].fam, g = 1 - f;
			double pos = f == 0 ? (ay + by) / 2 : (ax + bx) / 2;
			double a0 = f == 0 ? ax : ay, a1 = f == 0 ? bx : by;
			double m = (ext[g][1] - ext[g][0]) * GV_LOCATE_CLIP_MARGIN;
			double ma = (at[g][1] - at[g][0]) * GV_LOCATE_CLIP_MARGIN;
			bool past = ext[g][1] > ext[g][0] && (pos < ext[g][0] - m || pos > ext[g][1] + m);
			bool beside = clip == 2 && at[g][1] > at[g][0] &&
			              (fmax(a0, a1) < at[g][0] - ma || fmin(a0, a1) > at[g][1] + ma);
			if (past || beside) {
				cut[f] += s[k].len;
				ncut[f]++;
				s[k].fam = -1;
			} else {
				kept[f] += s[k].len;
				if (in)
					in[k] = 1;
			}
		}
		ltr(o, "clip: cut %d segments (%.0f px) and %d (%.0f px), kept %.0f and %.0f px", ncut[0], cut[0], ncut[1], cut[1], kept[0], kept[1]);
		if (in && ncut[0] + ncut[1] > 0) {
			/* the vanishing points again from the lines kept, each
			 * kept line then taken by the nearer, as above */
			for (int it = 0; it < 3; it++) {
				fit_vp(s, nseg, 0, &fr, vp[0]);
				fit_vp(s, nseg, 1, &fr, vp[1]);
				take_by_vps(s, nseg, &fr, vp, 1, in);
			}
			if (!rectifier(vp[0], vp[1], R)) {
				free(in);
				*why = "no board found: no two families of grid lines";
				return false;
			}
			gv_h_mul(R, Nrm, Rw);
		}
		free(in);
	}
	/* profiles: family 0 runs along x, so its position is y; family 1's is x */
	double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
	for (int k = 0; k < nseg; k++) {
		if (s[k].fam < 0)
			continue;
		double ax, ay, bx, by;
		if (!rect_ends(Rw, &s[k], &ax, &ay, &bx, &by)) {
			s[k].fam = -1;
			continue;
		}
		double pos = s[k].fam == 0 ? (ay + by) / 2 : (ax + bx) / 2;
		lo[s[k].fam] = fmin(lo[s[k].fam], pos);
		hi[s[k].fam] = fmax(hi[s[k].fam], pos);
	}
	double off[2], sp[2], bin0[2], binw[2];
	for (int f = 0; f < 2; f++) {
		if (!(hi[f] > lo[f])) {
			*why = "no board found: no two families of grid lines";
			return false;
		}
		double margin = (hi[f] - lo[f]) * 0.05;
		bin0[f] = lo[f] - margin;
		binw[f] = (hi[f] - lo[f] + 2 * margin) / (NBINS - 1);
		double P[NBINS] = {0}, Q[NBINS];
		for (int k = 0; k < nseg; k++) {
			if (s[k].fam != f)
				continue;
			double ax, ay, bx, by;
			gv_h_apply(Rw, s[k].x0, s[k].y0, &ax, &ay);
			gv_h_apply(Rw, s[k].x1, s[k].y1, &bx, &by);
			double pos = f == 0 ? (ay + by) / 2 : (ax + bx) / 2;
			double len = f == 0 ? fabs(bx - ax) : fabs(by - ay);
			double x = (pos - bin0[f]) / binw[f];
			int i = (int)x;
			double fr2 = x - i;
			if (i >= 0 && i < NBINS - 1) {
				P[i] += len * (1 - fr2);
				P[i + 1] += len * fr2;
			}
		}
		/* smooth: a line's position wanders by about a working pixel */
		for (int i = 0; i < NBINS; i++) {
			double acc = 0;
			for (int d = -2; d <= 2; d++)
				if (i + d >= 0 && i + d < NBINS)
					acc += P[i + d] * (3 - abs(d));
			Q[i] = acc / 9;
		}
		double smax = (NBINS - 1) / (double)(N - 1);
		double smin = fmax(3, smax * 0.12);
		if (fit_lines_memo(ps->memo, Q, N, smin, smax, &off[f], &sp[f]) <= 0) {
			*why = "no board found: no evenly spaced grid lines";
			return false;
		}
		if (o && o->trace) {
			char line[600];
			snprintf(line, sizeof line, "fam %d o %.1f sp %.2f:", f, off[f], sp[f]);
			for (int k = -2; k <= N + 1; k++)
				lcat(line, sizeof line, " %.2f", 100 * prof_at(Q, off[f] + k * sp[f]));
			ltr(o, "%s", line);
		}
	}
	/* board (i, j) -> rectified: x = family 1's positions, y = family 0's */
	double G[9] = {sp[1] * binw[1], 0, bin0[1] + off[1] * binw[1], 0, sp[0] * binw[0], bin0[0] + off[0] * binw[0],
	               0, 0, 1};
	double Rwi[9], H[9];
	if (!gv_h_invert(Rw, Rwi)) {
		*why = "no board found";
		return false;
	}
	gv_h_mul(Rwi, G, H);
	double support = 0, resid = 0, trim = 0;
	for (int it = 0; it < 6; it++) {
		if (it == 2 && o && o->halve_dense)
			density_check(s, nseg, N, H, o);
		if (it >= 2 && !shift_check(s, nseg, N, H, o) && it >= 3)
			break;
		if (!refine(s, nseg, N, H, &support, &resid, &trim)) {
			*why = "no board found: the grid lines do not fit together";
			return false;
		}
	}
	ltr(o, "locate: support %.2f residual %.2f px (%.2f without the worst tenth of the lines)", support, resid, trim);
	out->support = support;
	out->resid = resid;
	out->trim = trim;
	memcpy(out->H, H, sizeof H);
	return true;
}

/* The line segments of the grey working copy small into raw (4 floats a
 * segment, up to MAX_SEGS) and *nseg: its ridge image (written to dump_png
 * when not NULL) and that image's Hough segments. 0, GV_ENOMEM or the
 * Hough transform's code. */
static int find_segments(const gv_image *small, const char *dump_png, float *raw, int *nseg)
{
	gv_image bin = {0};
	int rc = gv_image_alloc(&bin, small->width, small->height, 1);
	if (rc)
		return rc;
	/* dim light scales every contrast down: the line threshold follows the
	 * brightness of the brightest tenth of the picture (the board, as a rule) */
	long hist_g[256] = {0};
	for (int y = 0; y < small->height; y++)
		for (int x = 0; x < small->width; x++)
			hist_g[*gv_px(small, x, y)]++;
	long need = (long)small->width * small->height / 10, acc = 0;
	int p90 = 255;
	while (p90 > 0 && acc + hist_g[p90] < need)
		acc += hist_g[p90--];
	int thresh = (int)lround(12.0 * p90 / 170);
	thresh = thresh < 4 ? 4 : thresh > 12 ? 12 : thresh;
	rc = ridge(small, &bin, thresh);
	if (!rc) {
		if (dump_png)
			gv_png_write(dump_png, &bin, NULL, 0);
		int longw = small->width > small->height ? small->width : small->height;
		rc = gv_hough_segments(&bin, 1, M_PI / 180, 20, fmax(10, longw * 0.02), 2, raw, MAX_SEGS, nseg);
	}
	gv_image_free(&bin);
	return rc;
}

void gv_segments_free(gv_segments *s)
{
	if (s) {
		free(s->raw);
		*s = (gv_segments){0};
	}
}

int gv_locate(const gv_image *img, const gv_locate_opts *opts, gv_grid *out, char *err, size_t cap)
{
	if (!img || !img->data || !out) {
		set_err(err, cap, "locate: bad argument");
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	int N = opts && opts->size ? opts->size : 19;
	int work = opts && opts->work_px ? opts->work_px : 800;
	if (N < 5 || N > 19 || work < 100) {
		set_err(err, cap, "locate: the size must be 5..19 and the working size at least 100");
		return GV_EINVAL;
	}
	gv_image own = {0};
	seg *s = NULL;
	float *raw = NULL;
	fit_memo *memo = NULL;
	gv_segments *kept = opts ? opts->segments : NULL;
	/* the grey working copy: the caller's when it made one of this size */
	const gv_image *small;
	int rc = gv_work_grey_use(img, opts ? opts->grey_work : NULL, work, &own, &small);
	if (rc)
		goto fail;
	double scale = (double)small->width / img->width;
	int longw = small->width > small->height ? small->width : small->height;
	int nseg = 0;
	s = malloc(sizeof(seg) * MAX_SEGS);
	memo = calloc(1, sizeof *memo);
	if (!s || !memo) {
		rc = GV_ENOMEM;
		goto fail;
	}
	if (kept && kept->raw && kept->width == small->width && kept->height == small->height && !opts->dump_png) {
		/* found before on this copy: the same ridge, the same segments */
		nseg = kept->count;
		raw = kept->raw;
	} else {
		raw = malloc(sizeof(float) * 4 * MAX_SEGS);
		if (!raw) {
			rc = GV_ENOMEM;
			goto fail;
		}
		rc = find_segments(small, opts ? opts->dump_png : NULL, raw, &nseg);
		if (rc)
			goto fail;
		if (kept && !kept->raw) {
			kept->width = small->width;
			kept->height = small->height;
			kept->count = nseg;
			kept->raw = raw;
		}
	}
	ltr(opts, "locate: %dx%d, %d segments", small->width, small->height, nseg);
	/* angle histogram */
	double hist[180] = {0};
	for (int k = 0; k < nseg; k++) {
		seg *g = &s[k];
		g->x0 = raw[4 * k];
		g->y0 = raw[4 * k + 1];
		g->x1 = raw[4 * k + 2];
		g->y1 = raw[4 * k + 3];
		g->len = hypot(g->x1 - g->x0, g->y1 - g->y0);
		double a = atan2(g->y1 - g->y0, g->x1 - g->x0) * 180 / M_PI;
		while (a < 0)
			a += 180;
		while (a >= 180)
			a -= 180;
		g->ang = a;
		g->fam = -1;
		hist[(int)a % 180] += g->len;
	}
	double sm[180];
	for (int a = 0; a < 180; a++) {
		sm[a] = 0;
		for (int d = -3; d <= 3; d++)
			sm[a] += hist[(a + d + 180) % 180] * (4 - abs(d));
	}
	int p0 = 0;
	for (int a = 1; a < 180; a++)
		if (sm[a] > sm[p0])
			p0 = a;
	int p1 = -1;
	for (int a = 0; a < 180; a++)
		if (angdiff(a, p0) >= 30 && (p1 < 0 || sm[a] > sm[p1]))
			p1 = a;
	if (nseg < 8 || p1 < 0 || sm[p1] <= 0) {
		rc = GV_ENOTFOUND;
		set_err(err, cap, "no board found: too few straight lines in the image");
		goto out;
	}
	frame fr = {small->width / 2.0, small->height / 2.0, longw / 2.0};
	/* the two strongest directions first; other pairs of peaks when the grid
	 * fits badly (a striped table may give the strongest direction) */
	int pk[4], npk = 0;
	pk[npk++] = p0;
	pk[npk++] = p1;
	for (int t = 0; t < 2; t++) {
		int q = -1;
		for (int a = 0; a < 180; a++) {
			bool far = true;
			for (int u = 0; u < npk; u++)
				if (angdiff(a, pk[u]) < 12)
					far = false;
			bool peak = sm[a] >= sm[(a + 1) % 180] && sm[a] >= sm[(a + 179) % 180];
			if (far && peak && sm[a] > 0.15 * sm[p0] && (q < 0 || sm[a] > sm[q]))
				q = a;
		}
		if (q >= 0)
			pk[npk++] = q;
	}
	for (int u = 0; u < npk; u++)
		ltr(opts, "peak %d: %d deg (%.0f)", u, pk[u], sm[pk[u]]);
	double H[9], support = 0, resid = 0, best = -1;
	const char *why = "no board found";
	/* each pair's vanishing points by the segments' length squared; where
	 * no pair fits a grid at all, or none on as many of its lines as a
	 * grid is taken on (min_support: the best would be refused), by their
	 * length too, the better fit taken (a floor's long seams a few tens of
	 * degrees off the columns pulled the columns' point to theirs). The
	 * message is the first round's. Not in the search again
	 * for a lattice twice too dense (a lattice fitted before it) nor on
	 * the coarse copy (a second look at a blurred photo), and without the
	 * clipped fit: a photo where nothing fits pays for one more round of
	 * the pairs only (gobanwatcher's, where no board is found, about 8%
	 * more with all three). A photo whose fits all hold too few of their
	 * lines pays for this round and both clipped fits of every pair
	 * (gobanwatcher/1, its lattices on 0.42 of their lines: about 29 ->
	 * 35 ms a megapixel). */
	int last = (opts && opts->halve_dense) || work <= GV_LOCATE_COARSE_PX ? 2 : 1;
	double min_support = opts && opts->min_support > 0 ? opts->min_support : GV_LOCATE_MIN_SUPPORT;
	for (int power = 2; power >= last && (best < -0.5 || support < min_support); power--) {
		pair_search ps = {opts, memo, s, nseg, &fr, pk, npk, N, power};
		if (power == 1)
			ltr(opts, "locate: no pair fits%s: the vanishing points again by the segments' length",
			    best < -0.5 ? "" : " on enough of its lines");
		for (int u = 0; u < npk; u++)
			for (int v = u + 1; v < npk; v++) {
				if (angdiff(pk[u], pk[v]) < 30)
					continue;
				pair_fit pf = {.why = NULL};
				bool ok = try_pair(&ps, pk[u], pk[v], 0, &pf);
				if ((!ok || pf.resid > 3 || pf.support < min_support) && power == 2 && !(opts && opts->halve_dense)) {
					/* again with each family's lines only within the
					 * other's reach (a floor's seams beside the board;
					 * not in the search again for a lattice twice too
					 * dense, which follows a lattice that fitted), and
					 * again with the lines beside the other family's cut
					 * too (a floor's seams near the rows' direction),
					 * where the first fit is no grid, one over 3 px off
					 * its lines or one on too few of them: the first
					 * clip taken over a fit over 3 px off (as it was
					 * before the second), else each taken only where
					 * its score below is the better (the second clip
					 * loses some photos the first finds, and a fit over
					 * 3 px off whose lines but a tenth lie near is a
					 * grid all the same) */
					for (int c = 1; c <= 2; c++) {
						pair_fit pc = {.why = NULL};
						if (try_pair(&ps, pk[u], pk[v], c, &pc) && pc.resid <= 3 &&
						    (!ok || (c == 1 && pf.resid > 3) ||
						     pc.support - 0.05 * pc.resid > pf.support - 0.05 * pf.resid)) {
							ltr(opts, "locate: the lines clipped to each other's reach fit%s",
							    c == 2 ? ", those beside them cut too" : "");
							ok = true;
							pf = pc;
						}
					}
				}
				if (!ok) {
					if (best < 0 && power == 2)
						why = pf.why;
					continue;
				}
				double sup = pf.support, res = pf.resid, trim = pf.trim;
				/* lines that do not meet on a grid: the lines' distance
				 * from it, all but the worst tenth (a few lines' fits
				 * drawn off by a bamboo board's seams or a floor's
				 * beside them do not make the rest irregular) */
				if (trim > 3) {
					if (best < 0 && power == 2)
						why = "no board found: the lines do not form a regular grid";
					continue;
				}
				double q = sup - 0.05 * res;
				if (q > best) {
					best = q;
					memcpy(H, pf.H, sizeof H);
					support = sup;
					resid = res;
				}
				if (sup >= 0.9 && res < 1.5)
					goto found;
			}
	}
found:
	if (best < -0.5) {
		rc = GV_ENOTFOUND;
		set_err(err, cap, why);
		goto out;
	}
	if (support < min_support) {
		out->support = support; /* the caller may ask again with less */
		rc = GV_ENOTFOUND;
		set_err(err, cap, "no board found: too few of the grid's lines are visible");
		goto out;
	}
	orient(H, N);
	/* working pixels -> photo pixels (pixel centres at whole numbers) */
	double Sc[9] = {1 / scale, 0, 0.5 / scale - 0.5, 0, 1 / scale, 0.5 / scale - 0.5, 0, 0, 1};
	gv_h_mul(Sc, H, H);
	for (int k = 0; k < 9; k++)
		H[k] /= H[8];
	out->size = N;
	memcpy(out->H, H, sizeof H);
	gv_h_corners(H, N, out->corners);
	out->support = support;
	out->residual = resid;
	rc = 0;
	goto out;
fail:
	set_err(err, cap, rc == GV_ENOMEM ? "locate: out of memory" : "locate: failed");
out:
	if (!kept || raw != kept->raw)
		free(raw);
	free(memo);
	free(s);
	gv_image_free(&own);
	return rc;
}

int gv_grid_from_corners(const double corners[8], int size, int width, int height, gv_grid *out, char *err,
                         size_t cap)
{
	memset(out, 0, sizeof *out);
	out->size = size;
	out->support = 1;
	memcpy(out->corners, corners, sizeof out->corners);
	char why[200] = "they span no grid";
	if (!gv_corners_check(corners, width, height, why, sizeof why) || !gv_h_from_corners(corners, size, out->H)) {
		if (err && cap)
			snprintf(err, cap, "%s", why);
		return GV_EINVAL;
	}
	return GV_OK;
}
