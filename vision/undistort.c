/* goref vision: undoing the lens's distortion. See undistort.h. */
#include "undistort.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvwrap.h"

/* remap's fixed point: 1/32 pixel (OpenCV's INTER_BITS 5) */
#define FRAC_BITS 5
#define FRAC_ONE (1 << FRAC_BITS)

struct gv_undistorter {
	int width, height;
	short *xy;            /* the whole pixel of the photo, x y, per pixel */
	unsigned short *frac; /* its 1/32 fractions: y * 32 + x */
};

static void set_err(char *err, size_t cap, const char *msg)
{
	if (err && cap)
		snprintf(err, cap, "undistort: %s", msg);
}

static int check(const double K[9], const double *dist, int ndist, char *err, size_t cap)
{
	if (!K || !dist) {
		set_err(err, cap, "bad argument");
		return GV_EINVAL;
	}
	if (ndist == 14) {
		set_err(err, cap, "14 distortion coefficients (a tilted sensor) are not supported: 4, 5, 8 or 12");
		return GV_EINVAL;
	}
	if (ndist != 4 && ndist != 5 && ndist != 8 && ndist != 12) {
		set_err(err, cap, "bad argument (4, 5, 8 or 12 distortion coefficients)");
		return GV_EINVAL;
	}
	for (int i = 0; i < ndist; i++)
		if (!isfinite(dist[i])) {
			set_err(err, cap, "a distortion coefficient is not a number");
			return GV_EINVAL;
		}
	for (int i = 0; i < 9; i++)
		if (!isfinite(K[i])) {
			set_err(err, cap, "the camera matrix holds something not a number");
			return GV_EINVAL;
		}
	if (K[0] == 0 || K[4] == 0 || K[3] != 0 || K[6] != 0 || K[7] != 0 || K[8] != 1) {
		set_err(err, cap, "the camera matrix is not fx s cx, 0 fy cy, 0 0 1 with fx, fy not 0");
		return GV_EINVAL;
	}
	return GV_OK;
}

void gv_distort_point(const double K[9], const double *dist, int ndist, double u, double v, double *px,
                      double *py)
{
	double k[12] = {0};
	for (int i = 0; i < ndist && i < 12; i++)
		k[i] = dist[i];
	double k1 = k[0], k2 = k[1], p1 = k[2], p2 = k[3], k3 = k[4], k4 = k[5], k5 = k[6], k6 = k[7];
	double s1 = k[8], s2 = k[9], s3 = k[10], s4 = k[11];
	double fx = K[0], s = K[1], cx = K[2], fy = K[4], cy = K[5];
	/* the normalised point: K's inverse (upper triangular) applied to (u, v, 1) */
	double y = (v - cy) / fy;
	double x = (u - cx - s * y) / fx;
	double x2 = x * x, y2 = y * y, r2 = x2 + y2, xy2 = 2 * x * y;
	double kr = (1 + ((k3 * r2 + k2) * r2 + k1) * r2) / (1 + ((k6 * r2 + k5) * r2 + k4) * r2);
	double xd = x * kr + p1 * xy2 + p2 * (r2 + 2 * x2) + s1 * r2 + s2 * r2 * r2;
	double yd = y * kr + p1 * (r2 + 2 * y2) + p2 * xy2 + s3 * r2 + s4 * r2 * r2;
	/* as OpenCV: the skew is not applied on the way back */
	*px = fx * xd + cx;
	*py = fy * yd + cy;
}

/* a coordinate in 1/32 pixel, rounded to even as OpenCV's cvRound, kept
 * where its whole part fits a short (beyond it is outside any photo) */
static long fixed(double c)
{
	const double lim = (double)SHRT_MAX * FRAC_ONE;
	if (!(c * FRAC_ONE > -lim))
		return -(long)lim;
	if (!(c * FRAC_ONE < lim))
		return (long)lim;
	return lrint(c * FRAC_ONE);
}

int gv_undistorter_new(gv_undistorter **out, const double K[9], const double *dist, int ndist, int width,
                       int height, char *err, size_t cap)
{
	if (!out || width <= 0 || height <= 0 || width > SHRT_MAX || height > SHRT_MAX) {
		set_err(err, cap, "bad argument");
		return GV_EINVAL;
	}
	*out = NULL;
	int rc = check(K, dist, ndist, err, cap);
	if (rc)
		return rc;
	size_t n = (size_t)width * (size_t)height;
	gv_undistorter *u = calloc(1, sizeof *u);
	if (u) {
		u->xy = malloc(2 * n * sizeof *u->xy);
		u->frac = malloc(n * sizeof *u->frac);
	}
	if (!u || !u->xy || !u->frac) {
		gv_undistorter_free(u);
		set_err(err, cap, "out of memory for the map");
		return GV_ENOMEM;
	}
	u->width = width;
	u->height = height;
	for (int j = 0; j < height; j++)
		for (int i = 0; i < width; i++) {
			double x, y;
			gv_distort_point(K, dist, ndist, i, j, &x, &y);
			long ix = fixed(x), iy = fixed(y);
			size_t p = (size_t)j * (size_t)width + (size_t)i;
			/* an arithmetic shift: floor, as OpenCV's >> on int */
			u->xy[2 * p] = (short)(ix >= 0 ? ix >> FRAC_BITS : -((-ix + FRAC_ONE - 1) >> FRAC_BITS));
			u->xy[2 * p + 1] = (short)(iy >= 0 ? iy >> FRAC_BITS : -((-iy + FRAC_ONE - 1) >> FRAC_BITS));
			long fx = ix - (long)u->xy[2 * p] * FRAC_ONE, fy = iy - (long)u->xy[2 * p + 1] * FRAC_ONE;
			u->frac[p] = (unsigned short)(fy * FRAC_ONE + fx);
		}
	*out = u;
	return GV_OK;
}

int gv_undistorter_apply(const gv_undistorter *u, const gv_image *src, gv_image *out, char *err, size_t cap)
{
	if (!u || !src || !out || !src->data || !out->data || src->width != u->width || src->height != u->height ||
	    out->width != u->width || out->height != u->height || out->channels != src->channels) {
		set_err(err, cap, "bad argument (the image's size is not the undistorter's)");
		return GV_EINVAL;
	}
	return gv_cv_remap(src, u->xy, u->frac, out, err, cap);
}

void gv_undistorter_free(gv_undistorter *u)
{
	if (!u)
		return;
	free(u->xy);
	free(u->frac);
	free(u);
}

int gv_undistort(const gv_image *src, const double K[9], const double *dist, int ndist, gv_image *out, char *err,
                 size_t cap)
{
	if (out)
		memset(out, 0, sizeof *out);
	if (!src || !src->data || !out) {
		set_err(err, cap, "bad argument");
		return GV_EINVAL;
	}
	gv_undistorter *u = NULL;
	int rc = gv_undistorter_new(&u, K, dist, ndist, src->width, src->height, err, cap);
	if (rc)
		return rc;
	rc = gv_image_alloc(out, src->width, src->height, src->channels);
	if (rc)
		set_err(err, cap, "cannot allocate the output");
	else
		rc = gv_undistorter_apply(u, src, out, err, cap);
	if (rc)
		gv_image_free(out);
	gv_undistorter_free(u);
	return rc;
}
