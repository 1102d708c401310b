/* goref calib: the lens from photos of a chessboard. See lens.h. */
#include "lens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvcalib.h"

struct gc_lens_views {
	gc_lens_opts o;
	int width, height;  /* of the first photo */
	int count;          /* photos given */
	int found;          /* photos with the pattern */
	int cap;
	double *pts;        /* found * cols * rows points x y */
};

int gc_lens_views_new(gc_lens_views **out, const gc_lens_opts *opts)
{
	*out = NULL;
	gc_lens_opts o = opts ? *opts : (gc_lens_opts){0};
	if (o.cols == 0 && o.rows == 0) {
		o.cols = 9;
		o.rows = 6;
	}
	if (o.square == 0)
		o.square = 25;
	if (o.cols < 2 || o.rows < 2 || o.cols > 100 || o.rows > 100 || !(o.square > 0))
		return GV_EINVAL;
	gc_lens_views *v = calloc(1, sizeof *v);
	if (!v)
		return GV_ENOMEM;
	v->o = o;
	*out = v;
	return GV_OK;
}

void gc_lens_views_free(gc_lens_views *v)
{
	if (!v)
		return;
	free(v->pts);
	free(v);
}

int gc_lens_count(const gc_lens_views *v)
{
	return v->count;
}

int gc_lens_found(const gc_lens_views *v)
{
	return v->found;
}

int gc_lens_add(gc_lens_views *v, const gv_image *img, char *err, size_t cap)
{
	if (!v || !img || !img->data) {
		snprintf(err, cap, "bad argument");
		return GV_EINVAL;
	}
	if (v->count == 0) {
		v->width = img->width;
		v->height = img->height;
	} else if (img->width != v->width || img->height != v->height) {
		snprintf(err, cap, "the photo is %dx%d but the first was %dx%d: every photo must be taken at the size the "
		         "camera will work at",
		         img->width, img->height, v->width, v->height);
		return GV_EINVAL;
	}
	int n = v->o.cols * v->o.rows;
	if (v->found == v->cap) {
		int nc = v->cap ? 2 * v->cap : 16;
		double *np = realloc(v->pts, sizeof(double) * 2 * (size_t)n * (size_t)nc);
		if (!np) {
			snprintf(err, cap, "out of memory");
			return GV_ENOMEM;
		}
		v->pts = np;
		v->cap = nc;
	}
	int found = 0;
	int rc = gv_cv_chessboard(img, v->o.cols, v->o.rows, v->pts + 2 * (size_t)n * (size_t)v->found, &found, err,
	                          cap);
	if (rc)
		return rc;
	v->count++;
	v->found += found;
	return found;
}

int gc_lens_solve(const gc_lens_views *v, gc_lens *out, char *err, size_t cap)
{
	memset(out, 0, sizeof *out);
	if (v->found < GC_LENS_MIN_VIEWS) {
		snprintf(err, cap, "the %dx%d pattern was found in %d photo%s of %d: at least %d are needed", v->o.cols,
		         v->o.rows, v->found, v->found == 1 ? "" : "s", v->count, GC_LENS_MIN_VIEWS);
		return GV_ENOTFOUND;
	}
	int n = v->o.cols * v->o.rows;
	double *obj = malloc(sizeof(double) * 2 * (size_t)n);
	if (!obj) {
		snprintf(err, cap, "out of memory");
		return GV_ENOMEM;
	}
	/* OpenCV's order: row by row, cols across */
	for (int r = 0; r < v->o.rows; r++)
		for (int c = 0; c < v->o.cols; c++) {
			obj[2 * (r * v->o.cols + c)] = c * v->o.square;
			obj[2 * (r * v->o.cols + c) + 1] = r * v->o.square;
		}
	out->ndist = v->o.k3 ? 5 : 4;
	int rc = gv_cv_calibrate(obj, v->pts, n, v->found, v->width, v->height, out->ndist, out->K, out->dist, &out->rms,
	                         err, cap);
	free(obj);
	if (rc)
		return rc;
	out->width = v->width;
	out->height = v->height;
	out->views = v->found;
	if (!(out->K[0] > 0) || !(out->K[4] > 0)) {
		snprintf(err, cap, "the fit failed (focal length %g x %g): take the photos at more angles", out->K[0],
		         out->K[4]);
		return GV_ECV;
	}
	return GV_OK;
}
