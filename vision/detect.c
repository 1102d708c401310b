/* goref vision: a photo in, the board as seen out. See detect.h. */
#include "detect.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "geom.h"
#include "cvwrap.h"
#include "locate.h"
#include "outline.h"
#include "verify.h"

/* Reads the board through grid g into out (cells, confidences, proof).
 * GV_ENOTFOUND when the grid reaches beyond the photo, or (prove) when it
 * fails its proof; message in err. */
static int read_grid(const gv_image *img, const gv_grid *g, int size, bool prove, gv_detection *out, char *err,
                     size_t cap)
{
	memset(out, 0, sizeof *out);
	out->size = size;
	memcpy(out->H, g->H, sizeof g->H);
	memcpy(out->corners, g->corners, sizeof g->corners);
	out->support = g->support;
	out->residual = g->residual;
	int rc = gv_classify(img, g->H, size, out->cells, out->conf);
	if (rc == GV_EINVAL) {
		if (err && cap)
			snprintf(err, cap, "no board found: the grid found reaches beyond the photo");
		return GV_ENOTFOUND;
	}
	if (rc) {
		if (err && cap)
			snprintf(err, cap, "classify: out of memory");
		return rc;
	}
	rc = gv_prove_grid(img, g->H, size, out->cells, &out->proof);
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

int gv_detect(gv_detection *out, const gv_image *rgb, const gv_detect_opts *opts, char *err, size_t cap)
{
	if (!out || !rgb || !rgb->data || rgb->channels != 3) {
		if (err && cap)
			snprintf(err, cap, "detect: bad argument (a 3-channel image is needed)");
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	int size = opts && opts->size ? opts->size : 19;
	if (size != 9 && size != 13 && size != 19) {
		if (err && cap)
			snprintf(err, cap, "detect: the size must be 9, 13 or 19");
		return GV_EINVAL;
	}
	gv_image undist = {0};
	const gv_image *img = rgb;
	if (opts && opts->K) {
		int rc = gv_cv_undistort(rgb, opts->K, opts->dist, opts->ndist, &undist, err, cap);
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
			if (!rc)
				rc = gv_refine_corners(img, size, empty, c, err, cap);
			if (!rc && gv_grid_from_corners(c, size, img->width, img->height, &g, why, sizeof why))
				rc = gv_grid_from_corners(opts->corners, size, img->width, img->height, &g, why, sizeof why);
			if (rc == GV_ENOMEM || rc == GV_ECV)
				goto done;
		}
		if (rc) {
			if (err && cap)
				snprintf(err, cap, "bad corners: %s", why);
		} else {
			rc = read_grid(img, &g, size, false, out, err, cap);
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
		rc = gv_locate(img, &lo, &g, err, cap);
		if (!rc)
			rc = read_grid(img, &g, size, true, out, err, cap);
		if (rc == GV_ENOTFOUND) {
			char err2[300];
			int rc2 = gv_locate_outline(img, size, &g, err2, sizeof err2);
			if (!rc2) {
				gv_detection d2;
				rc2 = read_grid(img, &g, size, true, &d2, err2, sizeof err2);
				if (!rc2) {
					*out = d2;
					rc = GV_OK;
				}
			}
		}
	}
done:
	gv_image_free(&undist);
	return rc;
}
