/* goref vision: a photo in, the board as seen out. See detect.h. */
#include "detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "cvwrap.h"
#include "geom.h"
#include "locate.h"
#include "verify.h"

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
	gv_locate_opts lo = {.size = size, .work_px = opts ? opts->work_px : 0};
	gv_grid g;
	int rc;
	if (opts && opts->corners) {
		memset(&g, 0, sizeof g);
		g.size = size;
		g.support = 1;
		memcpy(g.corners, opts->corners, sizeof g.corners);
		char why[200];
		if (!gv_corners_check(g.corners, img->width, img->height, why, sizeof why) ||
		    !gv_h_from_corners(g.corners, size, g.H)) {
			if (err && cap)
				snprintf(err, cap, "bad corners: %s", why);
			gv_image_free(&undist);
			return GV_EINVAL;
		}
		rc = GV_OK;
	} else {
		rc = gv_locate(img, &lo, &g, err, cap);
	}
	if (rc == 0) {
		out->size = size;
		memcpy(out->H, g.H, sizeof g.H);
		memcpy(out->corners, g.corners, sizeof g.corners);
		out->support = g.support;
		out->residual = g.residual;
		gv_point_features *f = malloc(sizeof *f * (size_t)(size * size));
		rc = f ? gv_classify_features(img, g.H, size, f) : GV_ENOMEM;
		if (!rc)
			rc = gv_classify_decide(f, size, out->cells, out->conf);
		free(f);
		if (rc && err && cap)
			snprintf(err, cap, "%s", rc == GV_ENOMEM ? "classify: out of memory" : "no board found: the grid found reaches beyond the photo");
		if (rc == GV_EINVAL) /* the grid reaches beyond the photo: not a usable board */
			rc = GV_ENOTFOUND;
		if (!rc) {
			rc = gv_prove_grid(img, g.H, size, out->cells, &out->proof);
			if (!rc && !out->proof.ok && !(opts && opts->corners)) {
				if (err && cap)
					snprintf(err, cap,
					         "no board found: the grid found fails its proof (a line shows on %.0f%% of "
					         "the open spans of one family of lines, on %.0f%% of its lines; %.0f%% of the "
					         "margin continues the lattice)",
					         100 * out->proof.span_share, 100 * out->proof.line_share,
					         100 * out->proof.beyond_share);
				rc = GV_ENOTFOUND;
			}
		}
	}
	gv_image_free(&undist);
	return rc;
}
