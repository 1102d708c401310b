/* goref vision: an image in memory. See image.h. */
#include "image.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int gv_image_alloc(gv_image *img, int width, int height, int channels)
{
	if (!img)
		return GV_EINVAL;
	memset(img, 0, sizeof *img);
	if (width <= 0 || height <= 0 || (channels != 1 && channels != 3) || width > 1 << 15 || height > 1 << 15)
		return GV_EINVAL;
	size_t stride = (size_t)width * (size_t)channels;
	img->data = calloc((size_t)height, stride);
	if (!img->data)
		return GV_ENOMEM;
	img->width = width;
	img->height = height;
	img->channels = channels;
	img->stride = stride;
	return 0;
}

void gv_image_free(gv_image *img)
{
	if (!img)
		return;
	free(img->data);
	memset(img, 0, sizeof *img);
}

/* One row (a loop the compiler vectorizes where the CPU can gather the
 * three channels: AVX2, NEON). */
GV_CLONES_AVX2
static void grey_row(const unsigned char *restrict s, unsigned char *restrict d, int n)
{
	for (int x = 0; x < n; x++)
		d[x] = (unsigned char)(((unsigned)s[3 * x] * 9798u + (unsigned)s[3 * x + 1] * 19235u +
		                        (unsigned)s[3 * x + 2] * 3735u + (1u << 14)) >> 15);
}

int gv_grey(const gv_image *src, gv_image *out)
{
	if (!out)
		return GV_EINVAL;
	memset(out, 0, sizeof *out);
	if (!src || !src->data || (src->channels != 1 && src->channels != 3))
		return GV_EINVAL;
	int rc = gv_image_alloc(out, src->width, src->height, 1);
	if (rc)
		return rc;
	for (int y = 0; y < src->height; y++) {
		const unsigned char *s = src->data + (size_t)y * src->stride;
		unsigned char *d = out->data + (size_t)y * out->stride;
		if (src->channels == 1) {
			memcpy(d, s, (size_t)src->width);
			continue;
		}
		grey_row(s, d, src->width);
	}
	return GV_OK;
}

int gv_work_grey(const gv_image *src, int max_side, gv_image *out)
{
	gv_image grey;
	int rc = gv_grey(src, &grey);
	if (rc) {
		if (out)
			memset(out, 0, sizeof *out);
		return rc;
	}
	int w, h;
	gv_fit_size(src->width, src->height, max_side, &w, &h);
	if (w == src->width && h == src->height) {
		*out = grey; /* small enough already */
		return GV_OK;
	}
	rc = gv_shrink_area(&grey, out, w, h);
	gv_image_free(&grey);
	return rc;
}

int gv_work_grey_use(const gv_image *src, const gv_image *shared, int max_side, gv_image *own,
                     const gv_image **use)
{
	*own = (gv_image){0};
	*use = own;
	if (!src)
		return GV_EINVAL;
	int w, h;
	gv_fit_size(src->width, src->height, max_side, &w, &h);
	if (shared && shared->data && shared->channels == 1 && shared->width == w && shared->height == h) {
		*use = shared;
		return GV_OK;
	}
	return gv_work_grey(src, max_side, own);
}

void gv_fit_size(int w, int h, int max_side, int *fw, int *fh)
{
	*fw = w;
	*fh = h;
	if (max_side <= 0 || (w <= max_side && h <= max_side))
		return;
	double s = (double)max_side / (w > h ? w : h);
	long x = lround(w * s), y = lround(h * s);
	*fw = x < 1 ? 1 : (int)x;
	*fh = y < 1 ? 1 : (int)y;
}

int gv_shrink_begin(gv_shrink *s, gv_image *out, int sw, int sh, int dw, int dh, int channels)
{
	memset(s, 0, sizeof *s);
	if (!out || sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 || dw > sw || dh > sh)
		return GV_EINVAL;
	int rc = gv_image_alloc(out, dw, dh, channels);
	if (rc)
		return rc;
	s->sum = calloc((size_t)dw * (size_t)channels, sizeof *s->sum);
	s->xcount = calloc((size_t)dw, sizeof *s->xcount);
	if (!s->sum || !s->xcount) {
		free(s->sum);
		free(s->xcount);
		gv_image_free(out);
		memset(s, 0, sizeof *s);
		return GV_ENOMEM;
	}
	for (int x = 0; x < sw; x++)
		s->xcount[(long long)x * dw / sw]++;
	s->sw = sw;
	s->sh = sh;
	s->dw = dw;
	s->dh = dh;
	s->channels = channels;
	s->out = out;
	return 0;
}

void gv_shrink_row(gv_shrink *s, const unsigned char *row)
{
	if (!s->out || s->y >= s->sh)
		return;
	const int ch = s->channels;
	for (int x = 0; x < s->sw; x++) {
		unsigned long long *d = s->sum + (size_t)((long long)x * s->dw / s->sw) * (size_t)ch;
		for (int c = 0; c < ch; c++)
			d[c] += row[(size_t)x * (size_t)ch + (size_t)c];
	}
	s->rows++;
	int dy = (int)((long long)s->y * s->dh / s->sh);
	s->y++;
	if (s->y == s->sh || (long long)s->y * s->dh / s->sh != dy) {
		unsigned char *o = s->out->data + (size_t)dy * s->out->stride;
		for (int x = 0; x < s->dw; x++) {
			unsigned long long n = (unsigned long long)s->xcount[x] * (unsigned long long)s->rows;
			for (int c = 0; c < ch; c++) {
				size_t k = (size_t)x * (size_t)ch + (size_t)c;
				o[k] = (unsigned char)((s->sum[k] + n / 2) / n);
				s->sum[k] = 0;
			}
		}
		s->rows = 0;
	}
}

void gv_shrink_end(gv_shrink *s)
{
	free(s->sum);
	free(s->xcount);
	memset(s, 0, sizeof *s);
}

/* One axis of an area shrink: for every source pixel that an output pixel's
 * box covers, the pair (output, source) and the share of the box it
 * covers (OpenCV's computeResizeAreaTab, so that the result is the same as
 * cv::resize with INTER_AREA, to the bit). Returns the number of entries
 * (at most 2 * ssize). */
typedef struct area_tap {
	int di, si;
	float alpha;
} area_tap;

static int area_tab(int ssize, int dsize, double scale, area_tap *tab)
{
	int k = 0;
	for (int dx = 0; dx < dsize; dx++) {
		double fs1 = dx * scale, fs2 = fs1 + scale;
		double cell = fmin(scale, ssize - fs1);
		int s1 = (int)ceil(fs1), s2 = (int)floor(fs2);
		if (s2 > ssize - 1)
			s2 = ssize - 1;
		if (s1 > s2)
			s1 = s2;
		if (s1 - fs1 > 1e-3)
			tab[k++] = (area_tap){dx, s1 - 1, (float)((s1 - fs1) / cell)};
		for (int sx = s1; sx < s2; sx++)
			tab[k++] = (area_tap){dx, sx, (float)(1.0 / cell)};
		if (fs2 - s2 > 1e-3)
			tab[k++] = (area_tap){dx, s2, (float)(fmin(fmin(fs2 - s2, 1.), cell) / cell)};
	}
	return k;
}

/* A grey row's horizontal sums: each output pixel's T taps from its first
 * source pixel on (inline with a constant T, the loop unrolled). */
static inline void taps_row(const unsigned char *S, const int *first, const float *wt, int dw, int T, float *buf)
{
	for (int d = 0; d < dw; d++) {
		const unsigned char *p = S + first[d];
		const float *w = wt + (size_t)d * (size_t)T;
		float acc = 0;
		for (int t = 0; t < T; t++)
			acc += p[t] * w[t];
		buf[d] = acc;
	}
}

/* A whole ratio: plain sums of kx x ky pixels, rounded as OpenCV's fast
 * path rounds them (2 x 2: add 2 and shift; else times the reciprocal in
 * float, to the nearest even). */
static void shrink_whole(const gv_image *src, gv_image *out, int kx, int ky)
{
	int cn = src->channels;
	float rec = 1.f / (float)(kx * ky);
	for (int y = 0; y < out->height; y++) {
		unsigned char *D = out->data + (size_t)y * out->stride;
		for (int x = 0; x < out->width; x++)
			for (int c = 0; c < cn; c++) {
				int sum = 0;
				for (int v = 0; v < ky; v++) {
					const unsigned char *S = src->data + (size_t)(y * ky + v) * src->stride;
					for (int u = 0; u < kx; u++)
						sum += S[(x * kx + u) * cn + c];
				}
				D[x * cn + c] = (unsigned char)(kx == 2 && ky == 2 ? (sum + 2) >> 2 : (int)gv_lrintf((float)sum * rec));
			}
	}
}

int gv_shrink_area(const gv_image *src, gv_image *out, int dw, int dh)
{
	if (!out)
		return GV_EINVAL;
	memset(out, 0, sizeof *out);
	if (!src || !src->data || (src->channels != 1 && src->channels != 3) || dw <= 0 || dh <= 0 ||
	    dw > src->width || dh > src->height)
		return GV_EINVAL;
	int cn = src->channels, sw = src->width, sh = src->height;
	int rc = gv_image_alloc(out, dw, dh, cn);
	if (rc)
		return rc;
	/* the scales as cv::resize computes them (the inverse of the inverse) */
	double sx = 1. / ((double)dw / sw), sy = 1. / ((double)dh / sh);
	int kx = (int)lround(sx), ky = (int)lround(sy);
	if (fabs(sx - kx) < DBL_EPSILON && fabs(sy - ky) < DBL_EPSILON) {
		shrink_whole(src, out, kx, ky);
		return GV_OK;
	}
	area_tap *xt = malloc(sizeof *xt * 2 * (size_t)sw), *yt = malloc(sizeof *yt * 2 * (size_t)sh);
	float *buf = malloc(sizeof(float) * (size_t)dw * (size_t)cn);
	float *sum = malloc(sizeof(float) * (size_t)dw * (size_t)cn);
	int T = 0, *first = NULL;
	float *wt = NULL;
	rc = GV_ENOMEM;
	if (!xt || !yt || !buf || !sum)
		goto done;
	int nx = area_tab(sw, dw, sx, xt), ny = area_tab(sh, dh, sy, yt);
	/* grey: each output pixel's taps (contiguous source pixels) as a fixed
	 * number T of them, the missing ones with weight 0, which adds nothing
	 * to a float sum: the same sums in the same order, without a branch */
	if (cn == 1) {
		for (int k = 0, c = 0; k < nx; k++) {
			c = k > 0 && xt[k].di == xt[k - 1].di ? c + 1 : 1;
			if (c > T)
				T = c;
		}
		first = malloc(sizeof(int) * (size_t)dw);
		wt = calloc((size_t)dw * (size_t)T, sizeof(float));
		if (!first || !wt)
			goto done;
		for (int k = 0; k < nx; k++) {
			int d = xt[k].di;
			if (k == 0 || xt[k - 1].di != d)
				first[d] = xt[k].si;
			wt[d * T + (xt[k].si - first[d])] = xt[k].alpha;
		}
		/* the last pixels' taps would read past the row: started earlier,
		 * the weights moved behind zeros (0 + 0 is 0: the sum the same) */
		for (int d = 0; d < dw; d++)
			if (first[d] + T > sw) {
				int shift = first[d] + T - sw;
				float *w = wt + (size_t)d * (size_t)T;
				memmove(w + shift, w, sizeof(float) * (size_t)(T - shift));
				for (int t = 0; t < shift; t++)
					w[t] = 0;
				first[d] -= shift;
			}
	}
	int n = dw * cn, prev = yt[0].di;
	for (int i = 0; i < n; i++)
		sum[i] = 0;
	int have = -1; /* the source row whose horizontal sums buf holds */
	for (int j = 0; j < ny; j++) {
		float beta = yt[j].alpha;
		int dy = yt[j].di;
		const unsigned char *S = src->data + (size_t)yt[j].si * src->stride;
		if (yt[j].si != have) { /* a row shared by two output rows: summed once */
			have = yt[j].si;
			if (cn == 1 && T == 3) /* ratios from 1 to 2 (1280 to 800) */
				taps_row(S, first, wt, dw, 3, buf);
			else if (cn == 1 && T == 4) /* from 2 to 3 (2048 to 800) */
				taps_row(S, first, wt, dw, 4, buf);
			else if (cn == 1)
				taps_row(S, first, wt, dw, T, buf);
			else {
				for (int i = 0; i < n; i++)
					buf[i] = 0;
				for (int k = 0; k < nx; k++) {
					int d = xt[k].di * 3, s = xt[k].si * 3;
					float a = xt[k].alpha;
					buf[d] += S[s] * a;
					buf[d + 1] += S[s + 1] * a;
					buf[d + 2] += S[s + 2] * a;
				}
			}
		}
		if (dy != prev) {
			unsigned char *D = out->data + (size_t)prev * out->stride;
			for (int i = 0; i < n; i++) {
				long v = gv_lrintf(sum[i]);
				D[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
				sum[i] = beta * buf[i];
			}
			prev = dy;
		} else {
			for (int i = 0; i < n; i++)
				sum[i] += beta * buf[i];
		}
	}
	unsigned char *D = out->data + (size_t)prev * out->stride;
	for (int i = 0; i < n; i++) {
		long v = gv_lrintf(sum[i]);
		D[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
	}
	rc = GV_OK;
done:
	free(first);
	free(wt);
	free(xt);
	free(yt);
	free(buf);
	free(sum);
	if (rc)
		gv_image_free(out);
	return rc;
}
