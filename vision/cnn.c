/* goref vision: the learned stone classifier. See cnn.h. Plain C, no
 * library: the network is small (a few thousand weights). */
#include "cnn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "geom.h"
#include "sortf.h"
#include "tuning.h"

/* ---- the patch ---- */

void gv_patch(const gv_image *rgb, const double H[9], double u, double v, int n, double span, float *out)
{
	double d = span / n;
	/* the photo's pixels per patch pixel here: samples enough to cover
	 * them (a 2048 px photo has 80 px a cell, the patch 12) */
	double x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0;
	int sub = 1;
	if (gv_h_apply(H, u, v, &x0, &y0) && gv_h_apply(H, u + 1, v, &x1, &y1) && gv_h_apply(H, u, v + 1, &x2, &y2)) {
		double det = fabs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0));
		double px = sqrt(det) * d;
		sub = (int)ceil(px);
		sub = sub < 1 ? 1 : sub > 4 ? 4 : sub;
	}
	float inv = 1.0f / (float)(sub * sub);
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			float acc[3] = {0, 0, 0};
			double cu = u + (x + 0.5 - n / 2.0) * d, cv = v + (y + 0.5 - n / 2.0) * d;
			for (int b = 0; b < sub; b++)
				for (int a = 0; a < sub; a++) {
					double su = cu + ((a + 0.5) / sub - 0.5) * d, sv = cv + ((b + 0.5) / sub - 0.5) * d;
					double px = 0, py = 0;
					float c[3] = {0, 0, 0};
					if (gv_h_apply(H, su, sv, &px, &py))
						gv_px_rgb(rgb, px, py, c);
					for (int k = 0; k < 3; k++)
						acc[k] += c[k];
				}
			for (int k = 0; k < 3; k++)
				out[(y * n + x) * 3 + k] = acc[k] * inv;
		}
}

int gv_board_colour(const gv_image *rgb, const double H[9], int size, float colour[3])
{
	if (gv_classify_check(rgb, H, size) || !colour)
		return GV_EINVAL;
	int nc = (size - 1) * (size - 1);
	float *v = malloc(sizeof *v * (size_t)nc * 3);
	if (!v)
		return GV_ENOMEM;
	for (int j = 0; j + 1 < size; j++)
		for (int i = 0; i + 1 < size; i++) {
			float acc[3] = {0, 0, 0};
			for (int b = -1; b <= 1; b++)
				for (int a = -1; a <= 1; a++) {
					double x = 0, y = 0;
					float c[3] = {0, 0, 0};
					if (gv_h_apply(H, i + 0.5 + 0.14 * a, j + 0.5 + 0.14 * b, &x, &y))
						gv_px_rgb(rgb, x, y, c);
					for (int k = 0; k < 3; k++)
						acc[k] += c[k] / 9.0f;
				}
			int s = j * (size - 1) + i;
			for (int k = 0; k < 3; k++)
				v[k * nc + s] = acc[k];
		}
	for (int k = 0; k < 3; k++) {
		colour[k] = gv_medianf(v + k * nc, nc);
	}
	free(v);
	return GV_OK;
}

/* ---- the network ---- */

/* The largest map a layer holds, in floats (padded input, output). */
size_t gv_cnn_scratch(const gv_cnn *m)
{
	size_t big = (size_t)m->patch * m->patch * 3;
	int s = m->patch;
	for (int l = 0; l < m->nconv; l++) {
		size_t p = (size_t)m->conv[l].nin * (size_t)(s + 2) * (size_t)(s + 2);
		size_t o = (size_t)m->conv[l].nout * (size_t)s * (size_t)s;
		big = p > big ? p : big;
		big = o > big ? o : big;
		s /= 2;
	}
	for (int l = 0; l < m->ndense; l++) {
		big = (size_t)m->dense[l].nin > big ? (size_t)m->dense[l].nin : big;
		big = (size_t)m->dense[l].nout > big ? (size_t)m->dense[l].nout : big;
	}
	return 3 * big;
}

void gv_cnn_forward(const gv_cnn *m, const float *patch, float probs[3], float *scratch)
{
	size_t big = gv_cnn_scratch(m) / 3;
	float *act = scratch, *pad = scratch + big, *out = scratch + 2 * big;
	int s = m->patch;
	/* interleaved to planes */
	for (int c = 0; c < 3; c++)
		for (int k = 0; k < s * s; k++)
			act[c * s * s + k] = patch[k * 3 + c];
	for (int l = 0; l < m->nconv; l++) {
		const gv_cnn_layer *L = &m->conv[l];
		int sp = s + 2;
		memset(pad, 0, sizeof *pad * (size_t)L->nin * (size_t)sp * (size_t)sp);
		for (int c = 0; c < L->nin; c++)
			for (int y = 0; y < s; y++)
				memcpy(pad + (size_t)c * sp * sp + (size_t)(y + 1) * sp + 1, act + (size_t)c * s * s + (size_t)y * s,
				       sizeof *act * (size_t)s);
		for (int co = 0; co < L->nout; co++) {
			float *o = out + (size_t)co * s * s;
			for (int k = 0; k < s * s; k++)
				o[k] = L->b[co];
			for (int ci = 0; ci < L->nin; ci++) {
				const float *w = L->w + ((size_t)co * L->nin + ci) * 9;
				const float *src = pad + (size_t)ci * sp * sp;
				for (int ky = 0; ky < 3; ky++)
					for (int kx = 0; kx < 3; kx++) {
						float wk = w[ky * 3 + kx];
						for (int y = 0; y < s; y++) {
							const float *r = src + (size_t)(y + ky) * sp + kx;
							float *q = o + (size_t)y * s;
							for (int x = 0; x < s; x++)
								q[x] += wk * r[x];
						}
					}
			}
		}
		/* ReLU and 2x2 max pooling */
		int h = s / 2;
		for (int c = 0; c < L->nout; c++) {
			const float *o = out + (size_t)c * s * s;
			float *a = act + (size_t)c * h * h;
			for (int y = 0; y < h; y++)
				for (int x = 0; x < h; x++) {
					float v = o[2 * y * s + 2 * x];
					float v1 = o[2 * y * s + 2 * x + 1], v2 = o[(2 * y + 1) * s + 2 * x],
					      v3 = o[(2 * y + 1) * s + 2 * x + 1];
					v = v1 > v ? v1 : v;
					v = v2 > v ? v2 : v;
					v = v3 > v ? v3 : v;
					a[y * h + x] = v > 0 ? v : 0;
				}
		}
		s = h;
	}
	/* dense layers: act holds the flattened map */
	for (int l = 0; l < m->ndense; l++) {
		const gv_cnn_layer *L = &m->dense[l];
		for (int o = 0; o < L->nout; o++) {
			float acc = L->b[o];
			const float *w = L->w + (size_t)o * L->nin;
			for (int k = 0; k < L->nin; k++)
				acc += w[k] * act[k];
			out[o] = l + 1 < m->ndense && acc < 0 ? 0 : acc;
		}
		memcpy(act, out, sizeof *out * (size_t)L->nout);
	}
	float mx = act[0] > act[1] ? act[0] : act[1];
	mx = act[2] > mx ? act[2] : mx;
	float e[3], sum = 0;
	for (int c = 0; c < 3; c++)
		sum += e[c] = expf(act[c] - mx);
	for (int c = 0; c < 3; c++)
		probs[c] = e[c] / sum;
}

int gv_cnn_classify(const gv_cnn *m, const gv_image *rgb, const double H[9], int size, unsigned char *cells,
                    float *conf, float *probs)
{
	if (!m || !cells || gv_classify_check(rgb, H, size) || m->patch < 2 || m->ndense < 1 ||
	    m->dense[m->ndense - 1].nout != 3)
		return GV_EINVAL;
	float board[3];
	int rc = gv_board_colour(rgb, H, size, board);
	if (rc)
		return rc;
	size_t np = (size_t)m->patch * m->patch * 3;
	float *buf = malloc(sizeof *buf * (np + gv_cnn_scratch(m)));
	if (!buf)
		return GV_ENOMEM;
	float *scratch = buf + np, inv[3];
	for (int c = 0; c < 3; c++)
		inv[c] = 1.0f / (board[c] > 1 ? board[c] : 1);
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			int k = j * size + i;
			gv_patch(rgb, H, i, j, m->patch, m->span, buf);
			for (size_t t = 0; t < np; t++)
				buf[t] = buf[t] * inv[t % 3] - 1;
			float p[3];
			gv_cnn_forward(m, buf, p, scratch);
			int best = p[1] > p[0] ? 1 : 0;
			best = p[2] > p[best] ? 2 : best;
			cells[k] = (unsigned char)best;
			if (conf)
				conf[k] = p[best];
			if (probs)
				memcpy(probs + 3 * k, p, sizeof p);
		}
	/* as gv_classify: a photo with many points in doubt has no sure point */
	if (conf)
		gv_classify_doubt(conf, size * size);
	free(buf);
	return GV_OK;
}

void gv_cnn_combine(int size, unsigned char *cells, float *conf, const float *probs)
{
	/* the hand-made reading as probabilities: its colour at 1/3 + 2/3 of
	 * its confidence, the rest shared; averaged with the network's. A
	 * point is sure (GV_SURE_CONF or more) only where the two read the same colour
	 * and the hand-made one was sure of it: otherwise at most GV_DOUBT_CAP
	 * (the network alone was sure of wrong points on a source it had not
	 * seen, where the hand-made classifier knew it did not know; README:
	 * the learned classifier) */
	for (int k = 0; k < size * size; k++) {
		int c0 = cells[k];
		float conf0 = conf[k];
		int agree = 0;
		float p[3], q = conf[k] < 0 ? 0 : conf[k] > 1 ? 1 : conf[k];
		int c = cells[k] < 3 ? cells[k] : 0;
		for (int t = 0; t < 3; t++)
			p[t] = t == c ? (1 + 2 * q) / 3 : (1 - (1 + 2 * q) / 3) / 2;
		for (int t = 0; t < 3; t++)
			p[t] = 0.5f * (p[t] + probs[3 * k + t]);
		int best = p[1] > p[0] ? 1 : 0;
		best = p[2] > p[best] ? 2 : best;
		int nbest = probs[3 * k + 1] > probs[3 * k] ? 1 : 0;
		nbest = probs[3 * k + 2] > probs[3 * k + nbest] ? 2 : nbest;
		agree = nbest == c0 && best == c0 && conf0 >= GV_SURE_CONF;
		cells[k] = (unsigned char)best;
		conf[k] = agree || p[best] < GV_DOUBT_CAP ? p[best] : GV_DOUBT_CAP;
	}
}

/* ---- reading a model ---- */

typedef struct reader {
	const unsigned char *p;
	size_t left;
} reader;

static int rd_i32(reader *r, int32_t *v)
{
	if (r->left < 4)
		return 0;
	*v = (int32_t)((uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24);
	r->p += 4;
	r->left -= 4;
	return 1;
}

static int rd_f32(reader *r, float *v)
{
	int32_t i;
	if (!rd_i32(r, &i))
		return 0;
	uint32_t u = (uint32_t)i;
	memcpy(v, &u, sizeof *v);
	return 1;
}

static int rd_floats(reader *r, float *dst, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!rd_f32(r, &dst[k]))
			return 0;
	return 1;
}

void gv_cnn_free(gv_cnn *m)
{
	if (m) {
		free(m->owned);
		memset(m, 0, sizeof *m);
	}
}

int gv_cnn_load(gv_cnn *m, const char *path, char *err, size_t cap)
{
	memset(m, 0, sizeof *m);
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (err && cap)
			snprintf(err, cap, "%s: cannot open", path);
		return GV_EREAD;
	}
	unsigned char *data = NULL;
	size_t len = 0, capb = 0;
	for (;;) {
		if (len == capb) {
			capb = capb ? 2 * capb : 65536;
			unsigned char *nd = realloc(data, capb);
			if (!nd) {
				free(data);
				fclose(f);
				return GV_ENOMEM;
			}
			data = nd;
		}
		size_t got = fread(data + len, 1, capb - len, f);
		len += got;
		if (!got)
			break;
	}
	fclose(f);
	int rc = GV_EINVAL;
	reader r = {data, len};
	int32_t patch = 0, nconv = 0, ndense = 0;
	float span = 0;
	if (len < 8 || memcmp(data, "GRCNN01\n", 8))
		goto bad;
	r.p += 8;
	r.left -= 8;
	if (!rd_i32(&r, &patch) || !rd_f32(&r, &span) || !rd_i32(&r, &nconv) || patch < 2 || patch > 256 ||
	    !(span > 0 && span < 10) || nconv < 0 || nconv > GV_CNN_MAX_LAYERS || (patch >> nconv) < 1)
		goto bad;
	/* the weights take at most what the file holds */
	m->owned = malloc(len);
	if (!m->owned) {
		rc = GV_ENOMEM;
		goto bad;
	}
	float *w = m->owned;
	int chans = 3;
	m->patch = patch;
	m->span = span;
	m->nconv = nconv;
	for (int l = 0; l < nconv; l++) {
		int32_t cin, cout;
		if (!rd_i32(&r, &cin) || !rd_i32(&r, &cout) || cin != chans || cout < 1 || cout > 1024 ||
		    (size_t)cout * (size_t)cin * 9 + (size_t)cout > r.left / 4)
			goto bad;
		size_t nw = (size_t)cout * (size_t)cin * 9;
		m->conv[l] = (gv_cnn_layer){cin, cout, w, w + nw};
		if (!rd_floats(&r, w, nw + (size_t)cout))
			goto bad;
		w += nw + (size_t)cout;
		chans = cout;
	}
	int s = patch >> nconv;
	int nin = chans * s * s;
	if (!rd_i32(&r, &ndense) || ndense < 1 || ndense > GV_CNN_MAX_LAYERS)
		goto bad;
	m->ndense = ndense;
	for (int l = 0; l < ndense; l++) {
		int32_t a, b;
		if (!rd_i32(&r, &a) || !rd_i32(&r, &b) || a != nin || b < 1 || b > 4096 ||
		    (size_t)a * (size_t)b + (size_t)b > r.left / 4)
			goto bad;
		size_t nw = (size_t)a * (size_t)b;
		m->dense[l] = (gv_cnn_layer){a, b, w, w + nw};
		if (!rd_floats(&r, w, nw + (size_t)b))
			goto bad;
		w += nw + (size_t)b;
		nin = b;
	}
	if (nin != 3 || r.left)
		goto bad;
	free(data);
	return GV_OK;
bad:
	if (rc == GV_EINVAL && err && cap)
		snprintf(err, cap, "%s: not a goref CNN model (vision/cnn.h)", path);
	free(data);
	gv_cnn_free(m);
	return rc;
}
