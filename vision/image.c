/* goref vision: an image in memory. See image.h. */
#include "image.h"

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
