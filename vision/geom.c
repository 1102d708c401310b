/* goref vision: plane geometry of the board. See geom.h. */
#include "geom.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Solves A x = b for an n x n system (n <= 9) in place, partial pivoting. */
static bool solve(double *A, double *b, int n)
{
	for (int c = 0; c < n; c++) {
		int p = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(A[r * n + c]) > fabs(A[p * n + c]))
				p = r;
		if (fabs(A[p * n + c]) < 1e-12)
			return false;
		if (p != c) {
			for (int k = 0; k < n; k++) {
				double t = A[c * n + k];
				A[c * n + k] = A[p * n + k];
				A[p * n + k] = t;
			}
			double t = b[c];
			b[c] = b[p];
			b[p] = t;
		}
		for (int r = c + 1; r < n; r++) {
			double f = A[r * n + c] / A[c * n + c];
			for (int k = c; k < n; k++)
				A[r * n + k] -= f * A[c * n + k];
			b[r] -= f * b[c];
		}
	}
	for (int c = n - 1; c >= 0; c--) {
		double s = b[c];
		for (int k = c + 1; k < n; k++)
			s -= A[c * n + k] * b[k];
		b[c] = s / A[c * n + c];
	}
	return true;
}

/* Similarity that moves the points' centroid to 0 and their mean distance
 * to sqrt(2) (Hartley's normalisation). T is 3x3. */
static void normaliser(const double *p, int n, double T[9])
{
	double cx = 0, cy = 0, d = 0;
	for (int i = 0; i < n; i++) {
		cx += p[2 * i];
		cy += p[2 * i + 1];
	}
	cx /= n;
	cy /= n;
	for (int i = 0; i < n; i++)
		d += hypot(p[2 * i] - cx, p[2 * i + 1] - cy);
	d /= n;
	double s = d > 1e-12 ? sqrt(2.0) / d : 1;
	double t[9] = {s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1};
	memcpy(T, t, sizeof t);
}

void gv_h_mul(const double A[9], const double B[9], double C[9])
{
	double R[9];
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			R[r * 3 + c] = A[r * 3] * B[c] + A[r * 3 + 1] * B[3 + c] + A[r * 3 + 2] * B[6 + c];
	memcpy(C, R, sizeof R);
}

bool gv_h_invert(const double H[9], double Hinv[9])
{
	double a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7], i = H[8];
	double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
	double det = a * A + b * B + c * C;
	if (fabs(det) < 1e-15)
		return false;
	double R[9] = {A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d),
	               C, -(a * h - b * g), a * e - b * d};
	for (int k = 0; k < 9; k++)
		Hinv[k] = R[k] / det;
	if (fabs(Hinv[8]) > 1e-15) {
		double s = Hinv[8];
		for (int k = 0; k < 9; k++)
			Hinv[k] /= s;
	}
	return true;
}

bool gv_h_fit(const double *src, const double *dst, int n, double H[9])
{
	if (n < 4)
		return false;
	double Ts[9], Td[9];
	normaliser(src, n, Ts);
	normaliser(dst, n, Td);
	/* normal equations of the 2n x 8 system with h33 = 1 */
	double AtA[64] = {0}, Atb[8] = {0};
	for (int i = 0; i < n; i++) {
		/* the normalisers are affine: they never send a point to infinity */
		double x = 0, y = 0, u = 0, v = 0;
		gv_h_apply(Ts, src[2 * i], src[2 * i + 1], &x, &y);
		gv_h_apply(Td, dst[2 * i], dst[2 * i + 1], &u, &v);
		double r1[8] = {x, y, 1, 0, 0, 0, -u * x, -u * y};
		double r2[8] = {0, 0, 0, x, y, 1, -v * x, -v * y};
		for (int a = 0; a < 8; a++) {
			for (int b = 0; b < 8; b++)
				AtA[a * 8 + b] += r1[a] * r1[b] + r2[a] * r2[b];
			Atb[a] += r1[a] * u + r2[a] * v;
		}
	}
	if (!solve(AtA, Atb, 8))
		return false;
	double Hn[9] = {Atb[0], Atb[1], Atb[2], Atb[3], Atb[4], Atb[5], Atb[6], Atb[7], 1};
	double Tdi[9];
	if (!gv_h_invert(Td, Tdi))
		return false;
	double T1[9];
	gv_h_mul(Tdi, Hn, T1);
	gv_h_mul(T1, Ts, H);
	if (fabs(H[8]) < 1e-15)
		return false;
	double s = H[8];
	for (int k = 0; k < 9; k++)
		H[k] /= s;
	return true;
}

bool gv_h_from_4(const double src[8], const double dst[8], double H[9])
{
	/* no three points on a line, on either side */
	for (int side = 0; side < 2; side++) {
		const double *p = side ? dst : src;
		for (int a = 0; a < 4; a++) {
			int b = (a + 1) % 4, c = (a + 2) % 4;
			double cross = (p[2 * b] - p[2 * a]) * (p[2 * c + 1] - p[2 * a + 1]) -
			               (p[2 * b + 1] - p[2 * a + 1]) * (p[2 * c] - p[2 * a]);
			double scale = fabs(p[2 * b] - p[2 * a]) + fabs(p[2 * b + 1] - p[2 * a + 1]) +
			               fabs(p[2 * c] - p[2 * a]) + fabs(p[2 * c + 1] - p[2 * a + 1]);
			if (fabs(cross) <= 1e-9 * (scale * scale + 1))
				return false;
		}
	}
	return gv_h_fit(src, dst, 4, H);
}

bool gv_h_from_corners(const double corners[8], int size, double H[9])
{
	double m = size - 1;
	double board[8] = {0, 0, m, 0, m, m, 0, m};
	return gv_h_from_4(board, corners, H);
}

void gv_h_corners(const double H[9], int size, double corners[8])
{
	double m = size - 1;
	double board[8] = {0, 0, m, 0, m, m, 0, m};
	for (int k = 0; k < 4; k++)
		gv_h_apply(H, board[2 * k], board[2 * k + 1], &corners[2 * k], &corners[2 * k + 1]);
}

double gv_corners_cell(const double corners[8], int size)
{
	double per = 0;
	for (int k = 0; k < 4; k++) {
		int l = (k + 1) % 4;
		per += hypot(corners[2 * l] - corners[2 * k], corners[2 * l + 1] - corners[2 * k + 1]);
	}
	return per / 4 / (size - 1);
}

double gv_corners_cell_min(const double corners[8], int size)
{
	double side = INFINITY;
	for (int k = 0; k < 4; k++) {
		int l = (k + 1) % 4;
		double d = hypot(corners[2 * l] - corners[2 * k], corners[2 * l + 1] - corners[2 * k + 1]);
		if (d < side)
			side = d;
	}
	return side / (size - 1);
}

double gv_corners_cell_at(const double corners[8], int size, int k)
{
	double H[9];
	if (!gv_h_from_corners(corners, size, H))
		return gv_corners_cell_min(corners, size);
	int n = size - 1, gx = (k == 1 || k == 2) ? n : 0, gy = k >= 2 ? n : 0;
	double x0, y0, x1, y1, x2, y2;
	if (!gv_h_apply(H, gx, gy, &x0, &y0) || !gv_h_apply(H, gx + (gx ? -1 : 1), gy, &x1, &y1) ||
	    !gv_h_apply(H, gx, gy + (gy ? -1 : 1), &x2, &y2))
		return gv_corners_cell_min(corners, size);
	return (hypot(x1 - x0, y1 - y0) + hypot(x2 - x0, y2 - y0)) / 2;
}

bool gv_corners_check(const double c[8], int width, int height, char *err, size_t cap)
{
	static const char *const names[4] = {"top-left", "top-right", "bottom-right", "bottom-left"};
	for (int k = 0; k < 8; k++)
		if (!isfinite(c[k])) {
			snprintf(err, cap, "the corners must be numbers");
			return false;
		}
	for (int k = 0; k < 4; k++) {
		double x = c[2 * k], y = c[2 * k + 1];
		if (x < -0.5 || y < -0.5 || x > width - 0.5 || y > height - 0.5) {
			snprintf(err, cap, "the %s corner (%g, %g) is outside the %dx%d photo", names[k], x, y, width,
			         height);
			return false;
		}
	}
	/* convex, and clockwise on the screen (y down): every turn the same way */
	double area = 0;
	for (int k = 0; k < 4; k++) {
		const double *a = c + 2 * k, *b = c + 2 * ((k + 1) % 4), *d = c + 2 * ((k + 2) % 4);
		double cross = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
		if (cross <= 0) {
			snprintf(err, cap,
			         "the corners do not go clockwise around a convex four-sided grid (top-left, top-right, "
			         "bottom-right, bottom-left): they cross or turn back at the %s corner",
			         names[(k + 1) % 4]);
			return false;
		}
		area += a[0] * b[1] - b[0] * a[1];
	}
	if (area / 2 < 100) {
		snprintf(err, cap, "the corners enclose %.0f square pixels: too small for a grid", area / 2);
		return false;
	}
	return true;
}

void gv_h_cell_aspects(const double H[9], int width, int height, double *lo, double *hi)
{
	*lo = 0;
	*hi = HUGE_VAL;
	if (fabs(H[8]) < 1e-15)
		return;
	double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
	/* H's first two columns with the principal point taken out: the
	 * camera's rotation columns r1 and a r2, scaled by f in x and y */
	double z1 = H[6] / H[8], z2 = H[7] / H[8];
	double x1 = H[0] / H[8] - cx * z1, y1 = H[3] / H[8] - cy * z1;
	double x2 = H[1] / H[8] - cx * z2, y2 = H[4] / H[8] - cy * z2;
	double l1 = hypot(x1, y1), l2 = hypot(x2, y2);
	/* no perspective to speak of (under a thousandth of the scale's change
	 * over a hundred cells): nothing constrains a */
	if (!(l1 > 0 && l2 > 0) || (fabs(z1) < 1e-5 && fabs(z2) < 1e-5))
		return;
	/* with s = 1 / a^2: N = s l2^2 - l1^2 and D = z1^2 - s z2^2 share a
	 * sign where s lies between l1^2 / l2^2 and z1^2 / z2^2, so a between
	 * l2 / l1 and |z2 / z1| */
	double ra = l2 / l1, rb = fabs(z1) > 0 ? fabs(z2 / z1) : HUGE_VAL;
	*lo = ra < rb ? ra : rb;
	*hi = ra < rb ? rb : ra;
}
