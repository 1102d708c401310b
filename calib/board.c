/* goref calib: the board's place in the view. See board.h. */
#include "calib_board.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cvwrap.h"
#include "undistort.h"
#include "geom.h"
#include "locate.h"

static const char letters[] = "ABCDEFGHJKLMNOPQRST";

const char *gc_corner_name(int corner)
{
	static const char *const names[4] = {"top-left", "top-right", "bottom-right", "bottom-left"};
	return names[corner & 3];
}

void gc_board_seen(int size, int rotate, double ip, double jp, double *i, double *j)
{
	double a = ip, b = jp, n1 = size - 1;
	/* one clockwise turn takes the seen (i, j) to the players' (n-1-j, i);
	 * undo it once per turn */
	for (int q = ((rotate / 90) % 4 + 4) % 4; q > 0; q--) {
		double t = a;
		a = b;
		b = n1 - t;
	}
	*i = a;
	*j = b;
}

static int copy_image(const gv_image *src, gv_image *dst, char *err, size_t cap)
{
	int rc = gv_image_alloc(dst, src->width, src->height, src->channels);
	if (rc) {
		snprintf(err, cap, "out of memory");
		return rc;
	}
	for (int y = 0; y < src->height; y++)
		memcpy(gv_px(dst, 0, y), gv_px(src, 0, y), (size_t)src->width * (size_t)src->channels);
	return GV_OK;
}

int gc_board_find(const gv_image *frame, const gc_settings *s, const double *corners, gc_board *out,
                  gv_image *view, char *err, size_t cap)
{
	memset(out, 0, sizeof *out);
	if (view)
		memset(view, 0, sizeof *view);
	if (!frame || !frame->data || !s || (s->board != 9 && s->board != 13 && s->board != 19) ||
	    s->rotate % 90 || s->rotate < 0 || s->rotate > 270) {
		snprintf(err, cap, "bad argument");
		return GV_EINVAL;
	}
	gv_image und = {0};
	const gv_image *img = frame;
	int rc = GV_OK;
	if (s->has_camera && s->ndist > 0) {
		double K[9];
		gc_settings_camera_matrix(s, K);
		rc = gv_undistort(frame, K, s->dist, s->ndist == 5 ? 5 : 4, &und, err, cap);
		if (rc)
			return rc;
		img = &und;
	}
	gv_locate_opts lo = {.size = s->board};
	gv_grid g;
	if (corners) {
		char why[200];
		rc = gv_grid_from_corners(corners, s->board, img->width, img->height, &g, why, sizeof why);
		if (rc)
			snprintf(err, cap, "bad corners: %s", why);
	} else {
		rc = gv_locate(img, &lo, &g, err, cap);
	}
	if (!rc) {
		out->size = g.size;
		out->rotate = s->rotate;
		memcpy(out->H, g.H, sizeof out->H);
		memcpy(out->corners, g.corners, sizeof out->corners);
		out->support = g.support;
		out->residual = g.residual;
		double i, j;
		gc_board_seen(g.size, s->rotate, 0, g.size - 1, &i, &j);
		bool right = i > 0, bottom = j > 0;
		out->a1 = bottom ? (right ? 2 : 3) : (right ? 1 : 0);
	}
	if (!rc && view) {
		if (img == &und) {
			*view = und;
			und = (gv_image){0};
		} else {
			rc = copy_image(frame, view, err, cap);
		}
	}
	gv_image_free(&und);
	return rc;
}

void gc_board_apply(const gc_board *b, gc_settings *s)
{
	s->board = b->size;
	s->rotate = b->rotate;
	s->has_corners = true;
	for (int k = 0; k < 8; k++)
		s->corners[k] = round(b->corners[k] * 100) / 100;
}

/* The players' point (ip, jp) in pixels. */
static void players_px(const gc_board *b, double ip, double jp, double *x, double *y)
{
	double i, j;
	gc_board_seen(b->size, b->rotate, ip, jp, &i, &j);
	gv_h_apply(b->H, i, j, x, y);
}

/* Text with a dark rim, so that it reads on wood, stones and table alike. */
static int label(gv_image *img, double x, double y, const char *t, double h, const unsigned char rgb[3], char *err,
                 size_t cap)
{
	static const unsigned char dark[3] = {0, 0, 0};
	int th = h > 24 ? 2 : 1;
	int rc = gv_cv_text(img, x, y, t, h, dark, th + 2, err, cap);
	return rc ? rc : gv_cv_text(img, x, y, t, h, rgb, th, err, cap);
}

int gc_board_draw(gv_image *view, const gc_board *b, char *err, size_t cap)
{
	if (!view || !view->data || view->channels != 3 || b->size < 2 || b->size > 19) {
		snprintf(err, cap, "bad argument");
		return GV_EINVAL;
	}
	static const unsigned char green[3] = {0, 230, 0}, red[3] = {255, 30, 30}, white[3] = {255, 255, 255},
	                           yellow[3] = {255, 230, 0};
	int N = b->size;
	int thick = view->width > 1200 ? 2 : 1;
	int rc = GV_OK;
	for (int k = 0; k < N && !rc; k++) {
		double x0, y0, x1, y1;
		int t = k == 0 || k == N - 1 ? thick + 1 : thick;
		gv_h_apply(b->H, k, 0, &x0, &y0);
		gv_h_apply(b->H, k, N - 1, &x1, &y1);
		rc = gv_cv_line(view, x0, y0, x1, y1, green, t, err, cap);
		gv_h_apply(b->H, 0, k, &x0, &y0);
		gv_h_apply(b->H, N - 1, k, &x1, &y1);
		if (!rc)
			rc = gv_cv_line(view, x0, y0, x1, y1, green, t, err, cap);
	}
	/* the size of a cell around a players' point, in pixels */
	double cx, cy, nx, ny;
	players_px(b, (N - 1) / 2.0, (N - 1) / 2.0, &cx, &cy);
	players_px(b, (N - 1) / 2.0 + 1, (N - 1) / 2.0, &nx, &ny);
	double cell = hypot(nx - cx, ny - cy);
	double h = fmax(7, fmin(40, 0.4 * cell));
	char t[16]; /* a letter or a number up to 19 (sized for any int: no truncation warning) */
	/* letters below Black's edge, numbers left of Black's left edge */
	for (int c = 0; c < N && !rc; c++) {
		double x, y;
		players_px(b, c, N - 1 + 0.75, &x, &y);
		snprintf(t, sizeof t, "%c", letters[c]);
		rc = label(view, x, y, t, h, c == 0 ? yellow : white, err, cap);
	}
	for (int r = 0; r < N && !rc; r++) {
		double x, y;
		players_px(b, -0.8, r, &x, &y);
		snprintf(t, sizeof t, "%d", N - r);
		rc = label(view, x, y, t, h, r == N - 1 ? yellow : white, err, cap);
	}
	/* A1 */
	if (!rc) {
		double x, y;
		players_px(b, 0, N - 1, &x, &y);
		rc = gv_cv_circle(view, x, y, fmax(4, 0.3 * cell), red, -1, err, cap);
		if (!rc)
			rc = gv_cv_circle(view, x, y, fmax(7, 0.55 * cell), red, thick + 1, err, cap);
		double lx, ly;
		players_px(b, -1.2, N - 1 + 1.1, &lx, &ly);
		if (!rc)
			rc = label(view, lx, ly, "A1", h * 1.2, red, err, cap);
	}
	return rc;
}
