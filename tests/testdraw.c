/* Boards drawn for the vision tests. See testdraw.h. */
#include "testdraw.h"

#include "testutil.h"

#include <math.h>

#include "geom.h"

unsigned td_lcg(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

static int is_star(int size, int i, int j)
{
	if (size != 19)
		return 0;
	return (i == 3 || i == 9 || i == 15) && (j == 3 || j == 9 || j == 15);
}

/* Colour of board point (u, v) (continuous board coordinates). */
static void scene_colour(const scene *sc, double u, double v, double out[3])
{
	int n = sc->size;
	const double margin = 0.8, r = 0.47;
	/* the table */
	if (u < -margin || v < -margin || u > n - 1 + margin || v > n - 1 + margin) {
		out[0] = 60;
		out[1] = 70;
		out[2] = 95;
		return;
	}
	/* stones first: the nearest one that covers the point */
	for (int k = 0; k < sc->nstones; k++) {
		const stone *s = &sc->stones[k];
		double cu = s->i + s->du, cv = s->j + s->dv;
		double du = u - cu, dv = v - cv, d = sqrt(du * du + dv * dv);
		if (d >= r)
			continue;
		if (s->colour == 1) {
			double hl = hypot(du + 0.15, dv + 0.15);
			double g = hl < 0.07 ? 190 : 28 + 12 * (1 - d / r);
			out[0] = g;
			out[1] = g;
			out[2] = g + 4;
		} else {
			/* shaded on the lower right, a highlight on the upper left */
			double shade = 1 - 0.25 * fmax(0, (du + dv) / (1.4 * r));
			double hl = hypot(du + 0.14, dv + 0.14);
			double g = hl < 0.08 ? 255 : 232 * shade;
			out[0] = g;
			out[1] = g;
			out[2] = g * 0.98;
		}
		return;
	}
	/* the wood, with grain */
	double grain = 1 + 0.05 * sin(v * 7.3 + 2 * sin(u * 0.9)) + 0.03 * sin(v * 23.0 + u * 1.7);
	for (int c = 0; c < 3; c++)
		out[c] = sc->wood[c] * grain;
	/* grid lines and star points */
	double lw = 0.035;
	int onl = 0;
	if (u > -lw && v > -lw && u < n - 1 + lw && v < n - 1 + lw) {
		double fu = fabs(u - floor(u + 0.5)), fv = fabs(v - floor(v + 0.5));
		if ((fu < lw && v > -lw && v < n - 1 + lw) || (fv < lw && u > -lw && u < n - 1 + lw))
			onl = 1;
		int si = (int)floor(u + 0.5), sj = (int)floor(v + 0.5);
		if (is_star(n, si, sj) && hypot(u - si, v - sj) < 0.09)
			onl = 1;
	}
	if (onl)
		for (int c = 0; c < 3; c++)
			out[c] = 35;
	/* glare: the light's own colour over the wood and its lines */
	if (sc->glare[2] > 0) {
		double d2 = (u - sc->glare[0]) * (u - sc->glare[0]) + (v - sc->glare[1]) * (v - sc->glare[1]);
		double g = 0.75 * exp(-d2 / (sc->glare[2] * sc->glare[2]));
		for (int c = 0; c < 3; c++)
			out[c] = out[c] * (1 - g) + 255 * g;
	}
	/* cast shadows: down and to the right of each stone */
	for (int k = 0; k < sc->nstones; k++) {
		const stone *s = &sc->stones[k];
		double cu = s->i + s->du + sc->shadow[0], cv = s->j + s->dv + sc->shadow[1];
		if (hypot(u - cu, v - cv) < r) {
			for (int c = 0; c < 3; c++)
				out[c] *= sc->shadow[2];
			break;
		}
	}
}

/* Renders the scene through H (board to image) into a w x h RGB image,
 * 3x3 supersampled, with the light's tint and gradient and a little noise. */
void td_render(const scene *sc, const double H[9], int w, int h, gv_image *img)
{
	assert_int_equal(gv_image_alloc(img, w, h, 3), 0);
	double Hi[9];
	assert_true(gv_h_invert(H, Hi));
	unsigned seed = sc->seed;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double acc[3] = {0, 0, 0};
			for (int sy = 0; sy < 3; sy++)
				for (int sx = 0; sx < 3; sx++) {
					double u = 0, v = 0, c[3];
					gv_h_apply(Hi, x + (sx - 1) / 3.0, y + (sy - 1) / 3.0, &u, &v);
					scene_colour(sc, u, v, c);
					for (int k = 0; k < 3; k++)
						acc[k] += c[k] / 9;
				}
			double light = 1 - sc->gradient * x / (double)w;
			unsigned char *p = gv_px(img, x, y);
			for (int k = 0; k < 3; k++) {
				double val = acc[k] * light * sc->tint[k] + (double)((int)td_lcg(&seed) % 9 - 4);
				p[k] = (unsigned char)(val < 0 ? 0 : val > 255 ? 255 : val + 0.5);
			}
		}
}
