/* goref vision: the frame pipeline. See pipeline.h. */
#include "pipeline.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "cvwrap.h"
#include "detect.h"
#include "geom.h"
#include "locate.h"
#include "outline.h"
#include "sortf.h"
#include "tuning.h"
#include "trace.h"

/* Samples per patch: a point's patch is PS x PS samples within +-PR of a
 * cell around it; a square's middle QS x QS within +-QR. */
#define PS 4
#define PR 0.3
#define QS 3
#define QR 0.12
#define NPT (19 * 19)
#define NSQ (20 * 20)
/* Seconds between two frames past which each frame is a view by itself
 * (no stillness can be seen between frames this far apart; a streaming
 * camera, even a slow Pi's, delivers several a second). */
#define GV_SPARSE_GAP_S 2.0

typedef struct patch {
	int off[PS * PS]; /* byte offsets of the samples' boxes' middles in the frame; -1 off the image */
	int n;            /* samples on the image */
} patch;

/* A sample is the mean of the 3 x 3 pixels around its place (the middle
 * kept a pixel inside the frame): a camera's noise, pixel by pixel, is
 * three times smaller in it, and the stillness and hidden-square tests
 * below compare samples of frames a tenth of a second apart, hundreds of
 * times a second (with single pixels a grainy camera was never still). On
 * frames seconds apart (sparse, GV_SPARSE_GAP_S: each frame a view by
 * itself, compared once with the last reading) a sample is the pixel
 * itself, as the hidden-square test was set on the real video's frames:
 * there the mean only moved squares at its threshold either way
 * (samples/eval_lowres.sh: 3 labelled positions fewer, one false ruling
 * fewer, over 30 runs of that video shifted or shrunk). */
#define BOX 9

struct gv_pipeline {
	gv_pipeline_opts o;
	int size;
	int width, height;
	size_t stride;
	bool have_t;
	double t;
	/* the grid in use */
	bool located;
	double H[9];
	double corners[8];
	double cell_px;           /* a cell's mean size in pixels */
	double last_try;          /* when the grid was last searched for (before it is found) */
	bool have_try;
	/* a far move of the grid waiting for a second reading */
	bool far_pending;
	double far_corners[8];
	/* a small move of the grid (drift) waiting for a second reading */
	bool drift_pending;
	double drift_corners[8];
	/* sampling */
	patch pt[NPT], sq[NSQ];
	int nsq;                  /* (size + 1)^2 */
	/* still window */
	bool win;                 /* a window is open */
	double win_t;             /* when it opened */
	float win_pt[NPT], win_sq[NSQ];
	bool read_in_window;      /* this still spell was read already */
	double read_t;            /* when */
	bool hidden_reading;      /* that reading had hidden squares: no observation */
	double search_t;          /* when the grid was last searched for */
	bool have_search;
	double align_ref;         /* the lines' contrast at the grid in use after the last search */
	double search_wait;       /* seconds before a search for a drop of that contrast (0: at once) */
	/* the classifier's features of the last reading, kept to classify
	 * again only the points whose patches changed */
	bool have_feat;
	double feat_full_t;       /* when every point was last classified */
	gv_point_features feat[NPT];
	float feat_rgb[NPT][3];   /* each point's patch colour when its features were taken */
	bool doubt[NPT];          /* read hidden, covered or unsure last time: classified again */
	double check_t;           /* when the grid was last searched for by the clock (not by a drop) */
	double empty_t;           /* when the first frame showed an empty board (-1: it did not) */
	/* the last observation */
	bool have_obs;
	unsigned char cells[NPT];
	float ref_sq[NSQ][3];     /* square middles' colour at the last reading */
	long ref_grid[NSQ];       /* the grid (grid_n) through which each was taken */
	long grid_n;              /* grids taken so far (use_grid) */
	double hid_since[NSQ];    /* when a square was first read hidden in a row of readings (-1: not) */
	int hid_spells[NSQ];      /* still spells in a row in which it was read hidden */
	long hid_spell[NSQ];      /* the last still spell counted there */
	long spell;               /* still spells so far (a count of windows opened) */
	double cov_since[NPT];    /* when a point was first read covered in a row of readings (-1: not) */
	int cov_spells[NPT];      /* still spells in a row in which it was read covered */
	long cov_spell[NPT];      /* the last still spell counted there */
	bool have_ref;
	bool debug;               /* a trace callback is set */
	bool box;                 /* samples are 3 x 3 pixels' means (BOX): the frames stream */
	gv_pipeline_stats st;
};

/* One line to the trace callback (printf-style). */
#define tr(p, ...) gv_tracef((p)->o.trace, (p)->o.trace_ud, __VA_ARGS__)

void gv_pipeline_opts_init(gv_pipeline_opts *o)
{
	memset(o, 0, sizeof *o);
	o->size = 19;
	o->still_s = 0.3;
	o->repeat_s = 1.0;
	o->motion = 8;
	o->hidden = 0.025;
	o->unsure = 0.1f;
	o->relocate = true;
	o->stuck_s = 20;
}

int gv_pipeline_new(gv_pipeline **out, const gv_pipeline_opts *opts)
{
	if (!out)
		return GV_EINVAL;
	*out = NULL;
	gv_pipeline_opts o;
	if (opts)
		o = *opts;
	else
		gv_pipeline_opts_init(&o);
	if (o.size == 0)
		o.size = 19;
	if ((o.size != 9 && o.size != 13 && o.size != 19) || !(o.still_s >= 0) || !(o.repeat_s > 0) ||
	    !(o.motion > 0) || !(o.stuck_s > 0) || !(o.hidden > 0) || !(o.unsure >= 0))
		return GV_EINVAL;
	gv_pipeline *p = calloc(1, sizeof *p);
	if (!p)
		return GV_ENOMEM;
	p->o = o;
	p->debug = o.trace != NULL;
	p->size = o.size;
	p->nsq = (o.size + 1) * (o.size + 1);
	p->st.located = false;
	p->empty_t = -1;
	*out = p;
	return 0;
}

void gv_pipeline_free(gv_pipeline *p)
{
	free(p);
}

void gv_pipeline_get_stats(const gv_pipeline *p, gv_pipeline_stats *s)
{
	if (!p || !s)
		return;
	*s = p->st;
	s->located = p->located;
	memcpy(s->corners, p->corners, sizeof s->corners);
}

static void make_patch(const gv_pipeline *p, patch *pa, double u, double v, int n, double r)
{
	pa->n = 0;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			double du = n == 1 ? 0 : -r + 2 * r * b / (n - 1);
			double dv = n == 1 ? 0 : -r + 2 * r * a / (n - 1);
			double x, y;
			int k = a * n + b;
			pa->off[k] = -1;
			if (!gv_h_apply(p->H, u + du, v + dv, &x, &y))
				continue;
			long xi = lround(x), yi = lround(y);
			if (xi < 0 || yi < 0 || xi >= p->width || yi >= p->height || p->width < 3 || p->height < 3)
				continue;
			xi = xi < 1 ? 1 : xi > p->width - 2 ? p->width - 2 : xi;
			yi = yi < 1 ? 1 : yi > p->height - 2 ? p->height - 2 : yi;
			pa->off[k] = (int)((size_t)yi * p->stride + (size_t)xi * 3);
			pa->n++;
		}
}

/* Takes H as the grid in use and makes the sampling tables. */
static void use_grid(gv_pipeline *p, const double H[9])
{
	memcpy(p->H, H, sizeof p->H);
	p->grid_n++;
	gv_h_corners(H, p->size, p->corners);
	p->cell_px = gv_corners_cell(p->corners, p->size);
	int n = p->size;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++)
			make_patch(p, &p->pt[j * n + i], i, j, PS, PR);
	for (int j = 0; j <= n; j++)
		for (int i = 0; i <= n; i++)
			make_patch(p, &p->sq[j * (n + 1) + i], i - 0.5, j - 0.5, QS, QR);
	if (!p->located) {
		p->have_ref = false;
		for (int k = 0; k < NSQ; k++)
			p->hid_since[k] = -1;
		for (int k = 0; k < NPT; k++) {
			p->cov_since[k] = -1;
			p->cov_spells[k] = 0;
		}
	}
	p->located = true;
	p->win = false;
	p->have_feat = false;
}

/* Adds one sample's R, G, B to s: the pixel at byte offset o, or (box)
 * the 3 x 3 pixels around it. */
static inline void add_sample(const gv_image *f, int o, bool box, unsigned s[3])
{
	if (!box) {
		const unsigned char *px = f->data + o;
		s[0] += px[0];
		s[1] += px[1];
		s[2] += px[2];
		return;
	}
	for (int dy = -1; dy <= 1; dy++) {
		const unsigned char *px = f->data + o + (ptrdiff_t)dy * (ptrdiff_t)f->stride - 3;
		for (int dx = 0; dx < 3; dx++, px += 3) {
			s[0] += px[0];
			s[1] += px[1];
			s[2] += px[2];
		}
	}
}

/* Mean grey of a patch, (R + 2G + B) / 4 (-1 when no sample is on the
 * image). */
static float patch_grey(const gv_image *f, const patch *pa, int ns, bool box)
{
	if (pa->n == 0)
		return -1;
	unsigned s[3] = {0, 0, 0};
	for (int k = 0; k < ns; k++)
		if (pa->off[k] >= 0)
			add_sample(f, pa->off[k], box, s);
	return (float)(s[0] + 2u * s[1] + s[2]) / (4.0f * (box ? BOX : 1) * (float)pa->n);
}

static void patch_rgb(const gv_image *f, const patch *pa, int ns, bool box, float out[3])
{
	out[0] = out[1] = out[2] = -1;
	if (pa->n == 0)
		return;
	unsigned s[3] = {0, 0, 0};
	for (int k = 0; k < ns; k++)
		if (pa->off[k] >= 0)
			add_sample(f, pa->off[k], box, s);
	for (int c = 0; c < 3; c++)
		out[c] = (float)s[c] / ((box ? BOX : 1) * (float)pa->n);
}

/* A patch's colour (patch_rgb) as patch_grey's grey, -1 for none. */
static float rgb_grey(const float c[3])
{
	return c[0] < 0 ? -1 : (c[0] + 2 * c[1] + c[2]) / 4;
}

static void sample_all(const gv_pipeline *p, const gv_image *f, float *ptg, float *sqg)
{
	int n = p->size * p->size;
	for (int k = 0; k < n; k++)
		ptg[k] = patch_grey(f, &p->pt[k], PS * PS, p->box);
	for (int k = 0; k < p->nsq; k++)
		sqg[k] = patch_grey(f, &p->sq[k], QS * QS, p->box);
}

/* Whether a square's colour was taken (every channel over 1; a square
 * beyond the frame has -1). */
static bool has_look(const float rgb[3])
{
	return rgb[0] > 1 && rgb[1] > 1 && rgb[2] > 1;
}

/* Whether a point at the corners of square q (points qi-1..qi, qj-1..qj)
 * reads otherwise in cells than in the last observation (came: and reads a
 * stone there, one new since). */
static bool square_changed(const gv_pipeline *p, int q, const unsigned char *cells, bool came)
{
	int n = p->size, qi = q % (n + 1), qj = q / (n + 1);
	for (int a = -1; a <= 0; a++)
		for (int b = -1; b <= 0; b++) {
			int i = qi + b, j = qj + a;
			if (i >= 0 && j >= 0 && i < n && j < n && cells[j * n + i] != p->cells[j * n + i] &&
			    (!came || cells[j * n + i]))
				return true;
		}
	return false;
}

/* Which squares are hidden now, against the colours of the last reading.
 * Returns how many. */
static int hidden_squares(const gv_pipeline *p, const float cur[NSQ][3], bool *hid, bool *strong)
{
	for (int k = 0; k < NSQ; k++)
		hid[k] = strong[k] = false;
	if (!p->have_ref)
		return 0;
	/* the overall light change: the median brightness ratio */
	float ratio[NSQ];
	int nr = 0;
	for (int k = 0; k < p->nsq; k++) {
		float lr = p->ref_sq[k][0] + p->ref_sq[k][1] + p->ref_sq[k][2];
		float lc = cur[k][0] + cur[k][1] + cur[k][2];
		if (lr > 3 && lc >= 0)
			ratio[nr++] = lc / lr;
	}
	if (nr == 0)
		return 0;
	float gain = gv_selectf(ratio, nr, nr / 2);
	gain = gain > 0 ? gain : 1;
	/* and the light's colour: each channel's median ratio (the sun behind
	 * a cloud between two frames seconds apart is bluer; over a second
	 * of video, nothing) */
	float wb[3];
	for (int c = 0; c < 3; c++) {
		int m = 0;
		for (int k = 0; k < p->nsq; k++)
			if (p->ref_sq[k][c] > 1 && cur[k][c] >= 0)
				ratio[m++] = cur[k][c] / p->ref_sq[k][c];
		if (m == 0) {
			wb[c] = 1;
			continue;
		}
		float mid = gv_selectf(ratio, m, m / 2);
		wb[c] = mid > 0 ? mid : 1;
	}
	/* each square's own change of colour, channel by channel */
	int m = p->size + 1;
	float sr[NSQ][3];
	bool sok[NSQ];
	for (int k = 0; k < p->nsq; k++) {
		sok[k] = has_look(p->ref_sq[k]) && cur[k][0] >= 0 && cur[k][1] >= 0 && cur[k][2] >= 0;
		for (int c = 0; c < 3; c++)
			sr[k][c] = sok[k] ? cur[k][c] / p->ref_sq[k][c] : 1;
	}
	int count = 0;
	for (int k = 0; k < p->nsq; k++) {
		float lr = p->ref_sq[k][0] + p->ref_sq[k][1] + p->ref_sq[k][2];
		float lc = cur[k][0] + cur[k][1] + cur[k][2];
		if (lr <= 3 || lc < 0)
			continue;
		/* the light's colour here: sunlight through a window and the shade
		 * beside it change colour apart (seconds between frames); the
		 * median change of the squares around (not this one) takes it
		 * out, a hand or a sleeve smaller than half of them stays */
		float lwb[3] = {wb[0], wb[1], wb[2]};
		int qi = k % m, qj = k / m, nn = 0;
		float nr[3][25];
		for (int a = -GV_HIDDEN_LOCAL; a <= GV_HIDDEN_LOCAL; a++)
			for (int b = -GV_HIDDEN_LOCAL; b <= GV_HIDDEN_LOCAL; b++) {
				int i = qi + b, j = qj + a;
				if ((a == 0 && b == 0) || i < 0 || j < 0 || i >= m || j >= m || !sok[j * m + i])
					continue;
				for (int c = 0; c < 3; c++)
					nr[c][nn] = sr[j * m + i][c];
				nn++;
			}
		if (nn >= 6)
			for (int c = 0; c < 3; c++) {
				float mid = gv_selectf(nr[c], nn, nn / 2);
				lwb[c] = mid > 0 ? mid : wb[c];
			}
		/* a shadow or the light changes the brightness, not the hue: only
		 * a deep darkening counts (an arm's own shadow, a dark sleeve; a
		 * square brighter than before is a shadow gone, never a hand); a
		 * change of hue is something lying there (skin is as bright as
		 * wood, but redder and bluer) */
		float rel = lc / gain / lr;
		float dh = 0, dl = 0;
		for (int pass = 0; pass < 2; pass++) {
			const float *w = pass ? lwb : wb;
			float now[3] = {cur[k][0] / w[0], cur[k][1] / w[1], cur[k][2] / w[2]};
			float lb = now[0] + now[1] + now[2];
			float dm = 0;
			for (int c = 0; c < 3 && lb > 0; c++) {
				float d = fabsf(now[c] / lb - p->ref_sq[k][c] / lr);
				if (d > dm)
					dm = d;
			}
			*(pass ? &dl : &dh) = dm;
		}
		/* hidden: changed against the board's light and against the light
		 * around it; or changed a lot (an arm larger than the squares
		 * around); or deeply darkened */
		float thr = (float)p->o.hidden;
		bool deep = dh > GV_HIDDEN_STRONG * thr || rel < 0.55f;
		if ((dh > thr && dl > thr) || deep) {
			strong[k] = deep;
			if (p->debug)
				tr(p, "  square %d,%d local %.3f hue %.3f rel %.2f gain %.2f ref %.0f,%.0f,%.0f now %.0f,%.0f,%.0f", k % (p->size + 1),
				        k / (p->size + 1), dl, dh, rel, gain, p->ref_sq[k][0], p->ref_sq[k][1], p->ref_sq[k][2], cur[k][0], cur[k][1], cur[k][2]);
			hid[k] = true;
			count++;
		}
	}
	return count;
}

/* A point's colour as chroma: red and blue shares of its patch's mean. */
static void point_chroma(const gv_pipeline *p, const gv_image *f, int k, float ch[2])
{
	float rgb[3];
	patch_rgb(f, &p->pt[k], PS * PS, p->box, rgb);
	float s = rgb[0] + rgb[1] + rgb[2];
	ch[0] = s > 0 ? rgb[0] / s : 0;
	ch[1] = s > 0 ? rgb[2] / s : 0;
}

/* Whether the stone read at point k (new in this reading) looks unlike the
 * stones of its colour that were there before, in this same frame: a
 * finger's tip or a nail read as a white stone is pinker than the white
 * stones beside it, whatever the light. -1: too few stones to judge. */
/* The chroma of the stones of colour c that were there before and are
 * still read so, in this frame: their median (mr, mb) and how far a stone
 * of theirs may be from it (lim). False when too few to judge. */
static bool stone_population(const gv_pipeline *p, const gv_image *f, const unsigned char *cells, unsigned char c,
                             float *mr, float *mb, float *lim)
{
	int n = p->size, m = 0;
	float r[NPT], b[NPT];
	for (int q = 0; q < n * n; q++)
		if (cells[q] == c && p->cells[q] == c) {
			float ch[2];
			point_chroma(p, f, q, ch);
			r[m] = ch[0];
			b[m] = ch[1];
			m++;
		}
	if (m < GV_ALIEN_MIN_STONES)
		return false;
	float rs[NPT], bs[NPT];
	memcpy(rs, r, sizeof r[0] * (size_t)m);
	memcpy(bs, b, sizeof b[0] * (size_t)m);
	*mr = gv_selectf(rs, m, m / 2);
	*mb = gv_selectf(bs, m, m / 2);
	/* their spread: the median deviation (black stones' chroma is noisy,
	 * and one misread stone must not widen the limit) */
	float dev[NPT];
	for (int q = 0; q < m; q++)
		dev[q] = fmaxf(fabsf(r[q] - *mr), fabsf(b[q] - *mb));
	*lim = fmaxf(GV_ALIEN_SPREAD * gv_selectf(dev, m, m / 2), GV_ALIEN_MIN);
	return true;
}

static int alien_stone(const gv_pipeline *p, const gv_image *f, const unsigned char *cells, int k)
{
	float mr, mb, lim;
	if (!stone_population(p, f, cells, cells[k], &mr, &mb, &lim))
		return -1;
	float ch[2];
	point_chroma(p, f, k, ch);
	float d = fmaxf(fabsf(ch[0] - mr), fabsf(ch[1] - mb));
	if (p->debug)
		tr(p, "  new stone %d,%d %s: chroma off by %.3f (limit %.3f)", k % p->size, k / p->size,
		        cells[k] == 1 ? "black" : "white", d, lim);
	return d > lim;
}

/* The distance in chroma from x to the segment from a to b. */
static float seg_dist(const float x[2], const float a[2], const float b[2])
{
	float dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
	float u = len2 > 0 ? ((x[0] - a[0]) * dx + (x[1] - a[1]) * dy) / len2 : 0;
	u = u < 0 ? 0 : u > 1 ? 1 : u;
	float ex = x[0] - (a[0] + u * dx), ey = x[1] - (a[1] + u * dy);
	return sqrtf(ex * ex + ey * ey);
}

static void rgb_chroma(const float rgb[3], float ch[2])
{
	float s = rgb[0] + rgb[1] + rgb[2];
	ch[0] = s > 0 ? rgb[0] / s : 0;
	ch[1] = s > 0 ? rgb[2] / s : 0;
}

/* Whether a square beside a new stone shows something else than what it
 * showed (its reference: wood, or a stone now gone), the new stone (its
 * colour's chroma), the bare wood, or a blend of those (the stone's rim over
 * part of it): its chroma further than GV_ALIEN_SQUARE from the segments
 * between them.
 * A fingertip's violet or pink is none of them. A square with no look of
 * its own yet (beyond the frame until now: has_look false) is judged
 * against the stone and the wood alone. */
static bool alien_square(const float now[3], const float ref[3], const float wood[2], float mr, float mb)
{
	float x[2], a[2], st[2] = {mr, mb};
	rgb_chroma(now, x);
	if (has_look(ref))
		rgb_chroma(ref, a);
	else
		a[0] = wood[0], a[1] = wood[1];
	float d = fminf(seg_dist(x, a, st), fminf(seg_dist(x, wood, st), seg_dist(x, a, wood)));
	return d > GV_ALIEN_SQUARE;
}

/* The bare wood's chroma: the median reference of the squares whose four
 * points are empty, before and now. False when fewer than 4. */
static bool wood_chroma(const gv_pipeline *p, const unsigned char *cells, float wood[2])
{
	int n = p->size, m = n + 1, k = 0;
	float r[NSQ], b[NSQ];
	for (int q = 0; q < p->nsq; q++) {
		int qi = q % m, qj = q / m;
		bool bare = true;
		for (int a = -1; a <= 0 && bare; a++)
			for (int c = -1; c <= 0 && bare; c++) {
				int i = qi + c, j = qj + a;
				if (i >= 0 && j >= 0 && i < n && j < n)
					bare = cells[j * n + i] == 0 && p->cells[j * n + i] == 0;
			}
		if (!bare || !has_look(p->ref_sq[q]))
			continue;
		float ch[2];
		rgb_chroma(p->ref_sq[q], ch);
		r[k] = ch[0];
		b[k] = ch[1];
		k++;
	}
	if (k < 4)
		return false;
	wood[0] = gv_selectf(r, k, k / 2);
	wood[1] = gv_selectf(b, k, k / 2);
	return true;
}

/* How many stones of the last observation cells reads otherwise (stones
 * played since do not count: a grid is not judged by the game going on). */
static int otherwise(const gv_pipeline *p, const unsigned char *cells)
{
	int m = 0;
	for (int k = 0; k < p->size * p->size; k++)
		m += p->cells[k] && cells[k] != p->cells[k];
	return m;
}

/* How many points cells reads otherwise than the last observation. */
static int changed_points(const gv_pipeline *p, const unsigned char *cells)
{
	int m = 0;
	for (int k = 0; k < p->size * p->size; k++)
		m += cells[k] != p->cells[k];
	return m;
}

/* Whether the board read in cells differs from the last observation by one
 * new stone and the stones it captured: every stone lost is of the other
 * colour and joined, through lost stones, to a point beside the new stone,
 * and no stone changed colour. A grid a cell off reads the board shifted
 * (stones lost and new ones all over), not that. */
static bool captured_by_one(const gv_pipeline *p, const unsigned char *cells)
{
	int n = p->size, at = -1;
	for (int k = 0; k < n * n; k++) {
		if (cells[k] == p->cells[k])
			continue;
		if (p->cells[k] && cells[k])
			return false; /* a colour changed */
		if (!p->cells[k]) {
			if (at >= 0)
				return false; /* a second new stone */
			at = k;
		}
	}
	if (at < 0)
		return false;
	/* the lost stones reached from the new stone's neighbours */
	bool reached[NPT] = {false};
	int stack[NPT], sp = 0;
	stack[sp++] = at;
	reached[at] = true;
	while (sp) {
		int k = stack[--sp], i = k % n, j = k / n;
		static const int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
		for (int d = 0; d < 4; d++) {
			int a = i + di[d], b = j + dj[d];
			if (a < 0 || b < 0 || a >= n || b >= n)
				continue;
			int q = b * n + a;
			if (reached[q] || cells[q] || !p->cells[q] || p->cells[q] == cells[at])
				continue;
			reached[q] = true;
			stack[sp++] = q;
		}
	}
	for (int k = 0; k < n * n; k++)
		if (p->cells[k] && !cells[k] && !reached[k])
			return false;
	return true;
}

/* Hidden squares that are no hand:
 *  - a patch through which the board reads as before (no point at its
 *    corners changed) is the light changing there, not something over the
 *    board (a hand over points reads them otherwise, or hides their lines:
 *    covered_points);
 *  - seen at an angle a stone stands into the squares beside its point
 *    (its top is shifted away from the camera): a small patch of changed
 *    squares each of which touches a point where a stone came is that
 *    stone, not a hand, which covers a larger patch; when the frames are
 *    seconds apart several stones may come in one patch, each looking like
 *    the stones of its colour already there (a finger read as a stone does
 *    not);
 *  - a patch wholly on the margin (beyond the outer lines) touching no
 *    point that changed, the board read as before but for one new stone
 *    (two, when the patch is under half a side and no stone there before
 *    reads otherwise), or a small patch beside stones that read as before,
 *    after the camera moved (a stone's side seen from the new angle): it
 *    hides no point; it is marked in rim_only[] and left hidden (for the
 *    references), not counted.
 * Clears the others' squares; returns how many stay hidden. */
#define STONE_PATCH 6
/* The squares around one point: the most a stone's side is seen in. */
#define STONE_SIDE_PATCH 4
static int excuse_patches(const gv_pipeline *p, const gv_image *f, const float cur[NSQ][3],
                          const float look[NSQ][3], bool *hid, const bool *strong, const unsigned char *cells,
                          bool sparse, bool *rim_only)
{
	int n = p->size, m = n + 1;
	int comp[NSQ], stack[NSQ], seen[NPT];
	for (int k = 0; k < p->nsq; k++)
		comp[k] = -1;
	for (int k = 0; k < n * n; k++)
		seen[k] = -1;
	int left = 0, changed = changed_points(p, cells), lost = otherwise(p, cells);
	bool capture = lost > 0 && captured_by_one(p, cells);
	for (int s0 = 0; s0 < p->nsq; s0++) {
		if (!hid[s0] || comp[s0] >= 0)
			continue;
		/* the 8-connected patch of hidden squares from s0 */
		int sp = 0, len = 0, members[NSQ];
		bool all_touch = true, any_touch = false, deep = false;
		/* every square beside a stone that reads as before, its look taken
		 * through another grid or a drift pending (a stone's side, below) */
		bool all_side = true;
		int ncame = 0, came[NPT]; /* the points it touches where a stone came (or changed colour) */
		stack[sp++] = s0;
		comp[s0] = s0;
		while (sp) {
			int q = stack[--sp];
			members[len++] = q;
			deep = deep || strong[q];
			int qi = q % m, qj = q / m;
			/* square (qi, qj) has the points (qi-1..qi, qj-1..qj) at its corners */
			bool touch = false, old_stone = false;
			for (int a = -1; a <= 0; a++)
				for (int b = -1; b <= 0; b++) {
					int i = qi + b, j = qj + a;
					if (i < 0 || j < 0 || i >= n || j >= n)
						continue;
					if (cells[j * n + i] == p->cells[j * n + i]) {
						old_stone = old_stone || p->cells[j * n + i] != 0;
						continue;
					}
					touch = true;
					if (cells[j * n + i] != 0 && seen[j * n + i] != s0) {
						seen[j * n + i] = s0;
						came[ncame++] = j * n + i;
					}
				}
			all_touch = all_touch && touch;
			any_touch = any_touch || touch;
			all_side = all_side && old_stone && (p->ref_grid[q] != p->grid_n || p->drift_pending);
			for (int a = -1; a <= 1; a++)
				for (int b = -1; b <= 1; b++) {
					int i = qi + b, j = qj + a;
					if (i < 0 || j < 0 || i >= m || j >= m)
						continue;
					int r = j * m + i;
					if (hid[r] && comp[r] < 0) {
						comp[r] = s0;
						stack[sp++] = r;
					}
				}
		}
		/* light: frames seconds apart only (a streaming camera sees the
		 * light change slowly, and the reference follows it), a change of
		 * colour light can make, and the board read as before */
		bool excused = sparse && !deep && !any_touch;
		/* the margin alone (the squares beyond the outer lines), no point
		 * under it changed and the board read as before but for one new
		 * stone at most: after the grid followed a moving camera, a margin
		 * square that straddles a sharp edge (the board's, a sheet of
		 * paper's) changes colour with a pixel's difference in where it is
		 * sampled, and would hold every reading back until it became the
		 * board's look. (A grid a whole cell off shows its lines too, and
		 * only its margin tells: it reads the board shifted, many points
		 * otherwise, and stays hidden.) Two new stones too (a move and
		 * its answer, GV_RIM_NEW_STONES) when no stone of the last
		 * observation reads otherwise and the patch is under half of a
		 * side: a camera that wobbles every second or two holds every
		 * reading back with a patch that changes from one spell to the
		 * next, while the moves go on and no longer leave one new stone
		 * (rendered games at drift 15: 12 s without an observation, then
		 * six stones at once). A grid a cell off moves a whole side of
		 * the margin onto or off the board, and reads the stones already
		 * there otherwise. */
		bool rim = true;
		for (int q = 0; q < len && rim; q++) {
			int qi = members[q] % m, qj = members[q] / m;
			rim = qi == 0 || qj == 0 || qi == n || qj == n;
		}
		/* a stone's side: after the camera moved (these squares' looks
		 * were taken through another grid, or the search sees the board
		 * a few pixels off the grid in use, a drift not yet followed), a
		 * stone standing on the board shows its side in the squares
		 * beside it a little otherwise: a small patch, not deeply
		 * changed, each square beside a stone that reads as before */
		bool side = !deep && len <= STONE_SIDE_PATCH && all_side;
		bool quiet = changed <= 1 || capture || (lost == 0 && changed <= GV_RIM_NEW_STONES);
		if (p->debug)
			tr(p, "  patch of %d from %d,%d: deep %d, touches %s, margin %d, side %d, changed %d (lost %d%s), new stones %d",
			   len, s0 % m, s0 / m, deep, all_touch ? "all" : any_touch ? "some" : "none", rim, side, changed, lost,
			   capture ? ", a capture" : "", ncame);
		if (!excused && !any_touch && quiet && ((rim && (changed <= 1 || 2 * len < m)) || side)) {
			/* hides no point, yet its look is not the board's: it stays
			 * hidden for the references (the next reading judges it
			 * against the look from before) */
			for (int k = 0; k < len; k++)
				rim_only[members[k]] = true;
			continue;
		}
		if (!excused && all_touch && ncame >= 1 && len <= STONE_PATCH * ncame) {
			/* one stone comes in a move (captures go); fingers read as
			 * stones come in twos and threes, so more than one only
			 * from frames seconds apart and each looking like a stone */
			int judged = 0, aliens = 0;
			for (int c = 0; c < ncame; c++) {
				int a = alien_stone(p, f, cells, came[c]);
				judged += a >= 0;
				aliens += a > 0;
			}
			excused = aliens == 0 &&
			          (ncame == 1 || (sparse && judged == ncame && ncame <= GV_SPARSE_STONES_AT_ONCE));
			/* and each square shows wood, one of the stones, or a blend */
			float wood[2];
			bool have_wood = excused && wood_chroma(p, cells, wood);
			for (int c = 1; c <= 2 && excused && have_wood; c++) {
				bool came_c = false;
				for (int q = 0; q < ncame; q++)
					came_c = came_c || cells[came[q]] == c;
				float mr, mb, lim;
				if (!came_c || !stone_population(p, f, cells, (unsigned char)c, &mr, &mb, &lim))
					continue;
				for (int q = 0; q < len && excused; q++) {
					/* a square beside a stone of the other colour only */
					bool other_only = true;
					int qi = members[q] % m, qj = members[q] / m;
					for (int a = -1; a <= 0; a++)
						for (int b = -1; b <= 0; b++) {
							int i = qi + b, j = qj + a;
							if (i >= 0 && j >= 0 && i < n && j < n && cells[j * n + i] == c &&
							    p->cells[j * n + i] != c)
								other_only = false;
						}
					if (other_only)
						continue;
					if (alien_square(cur[members[q]], look[members[q]], wood, mr, mb)) {
						excused = false;
						if (p->debug)
							tr(p, "  square %d,%d beside a new stone shows neither wood nor stone",
							        qi, qj);
					}
				}
			}
		}
		if (excused)
			for (int k = 0; k < len; k++)
				hid[members[k]] = false;
		else
			left += len;
	}
	return left;
}

/* An empty point shows its grid lines; one read empty with no lines
 * showing has something over it that is neither wood nor stone to the
 * classifier: a hand or an arm of the wood's own colour, which the square
 * middles' hue cannot tell from the board, and under which the stones read
 * empty. Line contrast under this is no line (empty points on real photos
 * show 0.14 and more, under a hand 0.0 +- 0.05). */
#define COVERED_LINE 0.08f

/* A point read empty, or white but unsure, with no lines showing, alone
 * (none of the eight around it so but white stones already observed) and
 * with none of its four squares hidden, where it is no darker than the
 * board and its white evidence is at least
 * GV_COVERED_WHITE with less black: a white stone the classifier's
 * thresholds missed (under a green lamp a white stone is hardly brighter
 * than the wood, no greyer, and one in a nook of black stones reads white
 * evidence 0.8-1.6 against the 1.8 it needs), not a hand: a hand of the
 * wood's colour covers several points, one of another colour hides the
 * squares. Read white, just sure enough to be taken (GV_CHANGE_CONF).
 * Returns how many. */
static int covered_white(const gv_pipeline *p, double t, unsigned char *cells, float *conf,
                         const gv_point_features *feat, const bool *hid)
{
	int n = p->size, m = n + 1, found = 0;
	bool cov[NPT];
	for (int k = 0; k < n * n; k++)
		cov[k] = (cells[k] == 0 || (cells[k] == 2 && conf[k] < GV_CHANGE_CONF)) && !feat[k].outside &&
		         feat[k].line < COVERED_LINE;
	for (int k = 0; k < n * n; k++) {
		if (!cov[k] || feat[k].bright <= 0 || feat[k].white < GV_COVERED_WHITE || feat[k].black >= feat[k].white)
			continue;
		int i = k % n, j = k / n;
		bool alone = true;
		for (int a = -1; a <= 1 && alone; a++)
			for (int b = -1; b <= 1 && alone; b++) {
				int ii = i + b, jj = j + a;
				if ((a || b) && ii >= 0 && jj >= 0 && ii < n && jj < n && cov[jj * n + ii] &&
				    p->cells[jj * n + ii] != 2)
					alone = false;
			}
		for (int a = 0; a < 2 && alone; a++)
			for (int b = 0; b < 2 && alone; b++)
				alone = !hid[(j + a) * m + (i + b)];
		if (!alone)
			continue;
		cells[k] = 2;
		conf[k] = GV_CHANGE_CONF;
		found++;
		tr(p, "t %.2f %d,%d: lines covered, nothing over the board around, white %.2f: a white stone", t, i, j,
		   feat[k].white);
	}
	return found;
}
/* Marks the squares around the covered points hidden; returns how many
 * squares that adds. A point covered in three still spells in a row, or
 * for the stuck time, is a spot of the board without lines (a worn board, a
 * sticker): it is no longer taken for a hand, only held at what it was
 * (worn[k]). */
static int covered_points(gv_pipeline *p, double t, const unsigned char *cells, const gv_point_features *feat,
                          bool *hid, bool *worn)
{
	int n = p->size, m = n + 1, added = 0;
	for (int k = 0; k < n * n; k++) {
		bool cov = cells[k] == 0 && feat[k].line < COVERED_LINE;
		worn[k] = false;
		if (!cov) {
			p->cov_since[k] = -1;
			p->cov_spells[k] = 0;
			continue;
		}
		if (p->cov_since[k] < 0)
			p->cov_since[k] = t;
		if (p->cov_spell[k] != p->spell) {
			p->cov_spell[k] = p->spell;
			p->cov_spells[k]++;
		}
		if (p->cov_spells[k] >= 3 || t - p->cov_since[k] >= p->o.stuck_s) {
			worn[k] = true;
			continue;
		}
		int i = k % n, j = k / n;
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2; b++) {
				int q = (j + a) * m + (i + b);
				if (!hid[q]) {
					hid[q] = true;
					added++;
				}
			}
	}
	return added;
}

static double corner_shift(const double a[8], const double b[8])
{
	double m = 0;
	for (int k = 0; k < 4; k++) {
		double d = hypot(a[2 * k] - b[2 * k], a[2 * k + 1] - b[2 * k + 1]);
		if (d > m)
			m = d;
	}
	return m;
}

/* The points beyond the frame (a camera that moved the board partly out
 * of it) are not read: once a board has been observed they keep what it
 * had there (held, read_frame), so that nothing downstream takes them
 * for a change. */
static void hold_outside(const gv_pipeline *p, const gv_point_features *feat, unsigned char *cells)
{
	if (p->have_obs)
		for (int k = 0; k < p->size * p->size; k++)
			if (feat[k].outside)
				cells[k] = p->cells[k];
}

/* The board read through H into cells, conf and feat, and how many stones
 * of the last observation it reads otherwise (-1 when it cannot be read). */
static int read_otherwise(const gv_pipeline *p, const gv_image *f, const double H[9], unsigned char *cells,
                          float *conf, gv_point_features *feat)
{
	if (gv_classify_features_within(f, H, p->size, feat, NULL) || gv_classify_decide(feat, p->size, cells, conf))
		return -1;
	hold_outside(p, feat, cells);
	return otherwise(p, cells);
}

/* The camera's grain in a frame: the median, over every fourth row, of
 * how far each pixel's grey ((R + 2G + B) / 4) is from the mean of its
 * left and right neighbours, doubled (|2g - a - b|; 0 on a flat picture,
 * about 1.65 times the noise's sigma on grain). */
static int grain(const gv_image *f)
{
	if (f->width < 3 || f->height < 1)
		return 0;
	long hist[1021] = {0}, n = 0;
	for (int y = f->height / 8; y < f->height; y += 4) {
		const unsigned char *r = f->data + (size_t)y * f->stride;
		int a = (r[0] + 2 * r[1] + r[2]) / 4, b = (r[3] + 2 * r[4] + r[5]) / 4;
		for (int x = 2; x < f->width; x++) {
			const unsigned char *px = r + 3 * (size_t)x;
			int c = (px[0] + 2 * px[1] + px[2]) / 4;
			hist[abs(2 * b - a - c)]++;
			n++;
			a = b;
			b = c;
		}
	}
	long acc = 0;
	for (int v = 0; v < 1021; v++)
		if ((acc += hist[v]) * 2 >= n)
			return v;
	return 0;
}

/* Looks for the grid; 1 found (into H), 0 not, <0 error. Once a board has
 * been observed, the grid in use is also followed (gv_track_grid: the
 * locator may not find the lines again in a small, faint frame, or find a
 * lattice a few cells off) when the locator finds nothing, or a grid half a
 * cell or more from the one in use through which some stone of the last
 * observation reads otherwise; where the two disagree by half a cell,
 * the one through which fewer of the last observation's stones read
 * otherwise is returned (the locator's on a tie: a board turned, which the
 * follower's shift cannot follow). */
static int search(gv_pipeline *p, const gv_image *f, double H[9], char *err, size_t cap)
{
	p->st.locates++;
	if (!p->have_obs) {
		/* nothing observed yet to judge a grid by (watching that starts
		 * in the endgame: edges crowded with stones hide the outer lines,
		 * and a lattice a line over shows the lines inside as well): the
		 * grid detect proves (its lines', or its outline's where the
		 * lines cannot prove theirs); the locator's as before when none
		 * is proved */
		gv_grid located;
		gv_detect_opts d = {.size = p->size, .located = &located};
		gv_detection det;
		int rc = gv_detect(&det, f, &d, err, cap);
		if (rc == 0) {
			memcpy(H, det.H, sizeof det.H);
			tr(p, "search: the grid proved");
			return 1;
		}
		if (rc != GV_ENOTFOUND)
			return rc;
		/* none proved: the locator's grid detect found (the same
		 * working copy and size as gv_locate's below), not looked for
		 * twice */
		if (err && cap)
			err[0] = 0;
		if (located.size) {
			memcpy(H, located.H, sizeof located.H);
			return 1;
		}
		return 0;
	}
	/* from a grainy camera the locator looks at the frame smoothed as the
	 * samples are while the frames stream (GV_SEARCH_BLUR): the grain makes
	 * short dark ridges all over it, and the lattice fitted to them jitters
	 * by a fifth of a cell from search to search (frames seconds apart too:
	 * there each reading is searched) */
	gv_locate_opts lo = {.size = p->size, .work_px = 0};
	gv_grid g;
	gv_image smooth = {0};
	bool grainy = grain(f) >= GV_SEARCH_GRAIN;
	if (grainy) {
		int rb = gv_cv_blur(f, &smooth, GV_SEARCH_BLUR, err, cap);
		if (rb)
			return rb;
	}
	int rc = gv_locate(grainy ? &smooth : f, &lo, &g, err, cap);
	gv_image_free(&smooth);
	if (rc && rc != GV_ENOTFOUND)
		return rc;
	bool found = rc == 0;
	if (found)
		memcpy(H, g.H, sizeof g.H);
	else if (err && cap)
		err[0] = 0;
	if (!p->located || !p->have_obs)
		return found;
	double lc[8];
	int ol = -1;
	unsigned char cells[NPT];
	float conf[NPT];
	gv_point_features feat[NPT];
	if (found) {
		/* a grid found near the one in use, or one through which every
		 * stone of the last observation reads as it was, needs no other
		 * opinion */
		gv_h_corners(H, p->size, lc);
		if (corner_shift(lc, p->corners) < 0.5 * p->cell_px || (ol = read_otherwise(p, f, H, cells, conf, feat)) == 0)
			return 1;
	}
	unsigned char empty[NPT];
	int n = p->size, m = 0;
	for (int k = 0; k < n * n; k++)
		m += empty[k] = p->cells[k] == 0;
	if (m < GV_ALIGN_MIN_EMPTY)
		return found;
	double c[8], before = 0, after = 0, HT[9];
	memcpy(c, p->corners, sizeof c);
	p->st.tracks++;
	rc = gv_track_grid(f, n, empty, c, GV_TRACK_REACH, &before, &after, err, cap);
	if (rc)
		return rc;
	if (p->debug)
		tr(p, "grid followed: lines %.3f -> %.3f, corners moved %.1f px", before, after, corner_shift(c, p->corners));
	if (!(after > 0) || !gv_h_from_corners(c, n, HT))
		return found;
	if (!found) {
		memcpy(H, HT, sizeof HT);
		return 1;
	}
	if (corner_shift(lc, c) < 0.5 * p->cell_px)
		return 1;
	int ot = read_otherwise(p, f, HT, cells, conf, feat);
	if (p->debug)
		tr(p, "the locator's grid and the followed one %.1f px apart: stones read otherwise %d and %d", corner_shift(lc, c),
		   ol, ot);
	if (ot >= 0 && (ol < 0 || ot < ol))
		memcpy(H, HT, sizeof HT);
	return 1;
}


/* The median ratio of now to then over the patches seen in both: the
 * light's overall change (1 when too few). */
static float light_gain(const float *now, const float *then, int n)
{
	float r[NSQ];
	int m = 0;
	for (int k = 0; k < n; k++)
		if (now[k] >= 0 && then[k] > 8)
			r[m++] = now[k] / then[k];
	if (m < 4)
		return 1;
	return gv_selectf(r, m, m / 2);
}

/* The median contrast of the grid lines at the points read empty (lines
 * show there), or -1 when too few are empty to tell. */
static double alignment(const gv_pipeline *p, const unsigned char *cells, const gv_point_features *feat)
{
	int n = p->size, m = 0;
	float v[NPT];
	for (int k = 0; k < n * n; k++)
		if (cells[k] == 0 && !feat[k].outside)
			v[m++] = feat[k].line > 0 ? feat[k].line : 0;
	if (m < GV_ALIGN_MIN_EMPTY)
		return -1;
	/* the median: a hand over a few empty points hides their lines, a
	 * grid off by a fifth of a cell loses them all */
	return gv_selectf(v, m, m / 2);
}

/* Whether the lines' contrast a has dropped under GV_ALIGN_DROP of what it
 * was after the last search (never, before a search set it). */
static bool lines_gone(const gv_pipeline *p, double a)
{
	return p->align_ref > 0 && a < GV_ALIGN_DROP * p->align_ref;
}

/* The features of the points in redo (every point when NULL) were taken
 * now, on patches of colours ptc: their patches, the time of a full
 * reading, and the count of points classified. */
static void features_taken(gv_pipeline *p, float (*ptc)[3], const bool *redo, double t)
{
	int n = p->size;
	for (int k = 0; k < n * n; k++)
		if (!redo || redo[k]) {
			memcpy(p->feat_rgb[k], ptc[k], sizeof ptc[k]);
			p->st.classified++;
		}
	if (!redo) {
		p->feat_full_t = t;
	}
}

/* Reads the frame: classify, hold what is hidden or unsure. 1 with an
 * observation, 0 none (the grid no longer fits the image), <0 error. */
static int read_frame(gv_pipeline *p, const gv_image *f, double t, bool sparse, gv_observation *obs, char *err, size_t cap)
{
	int n = p->size;
	bool relocated = false;
	bool moved_far = false; /* relocated by more than a search's tolerance (not drift) */
	float cur[NSQ][3];
	bool hid[NSQ];
	for (int k = 0; k < p->nsq; k++)
		patch_rgb(f, &p->sq[k], QS * QS, p->box, cur[k]);
	bool strong[NSQ];
	int nhid = hidden_squares(p, cur, hid, strong);
	unsigned char cells[NPT];
	float conf[NPT];
	gv_point_features feat[NPT];
	/* Classifying is most of a reading without a search: only the points
	 * whose patch (or a neighbour's: a stone seen at an angle leans over)
	 * changed since their features were taken are classified again, the
	 * light's change taken out; every point every few seconds */
	float ptg[NPT], ptc[NPT][3];
	bool redo[NPT];
	bool clock_due = p->o.relocate && p->have_obs && t - p->check_t >= GV_SEARCH_EVERY_S;
	bool all = !p->have_feat || t - p->feat_full_t >= GV_RECLASSIFY_EVERY_S || sparse || p->o.stills;
	/* the two costly things never by the clock in the same frame: a
	 * reading of a streaming camera that classifies every point by the
	 * clock leaves the search by the clock to the next reading (a frame's
	 * cost is the camera's budget; drift is a pixel a minute) */
	bool heavy = all && p->have_feat && !sparse && !p->o.stills;
	for (int k = 0; k < n * n; k++) {
		patch_rgb(f, &p->pt[k], PS * PS, p->box, ptc[k]);
		ptg[k] = rgb_grey(ptc[k]);
	}
	if (!all) {
		float then[NPT];
		for (int k = 0; k < n * n; k++)
			then[k] = rgb_grey(p->feat_rgb[k]);
		float gain = light_gain(ptg, then, n * n);
		bool ch[NPT];
		for (int k = 0; k < n * n; k++) {
			ch[k] = ptg[k] < 0 || then[k] < 0;
			for (int c = 0; c < 3 && !ch[k]; c++) {
				float lit = p->feat_rgb[k][c] / GV_REDO_LIT_GREY;
				float thr = (float)p->o.motion * (lit > 1 ? 1 : lit < 0.25f ? 0.25f : lit);
				ch[k] = fabsf(ptc[k][c] - gain * p->feat_rgb[k][c]) > thr;
			}
		}
		for (int j = 0; j < n; j++)
			for (int i = 0; i < n; i++) {
				bool r = false;
				for (int a = -1; a <= 1 && !r; a++)
					for (int b = -1; b <= 1 && !r; b++) {
						int x = i + b, y = j + a;
						r = x >= 0 && y >= 0 && x < n && y < n && ch[y * n + x];
					}
				/* and a point in doubt last time: what hid it may have
				 * left without changing its patch much (an arm's shadow
				 * over an empty point hides its lines) */
				redo[j * n + i] = r || p->doubt[j * n + i];
			}
		memcpy(feat, p->feat, sizeof(feat[0]) * (size_t)(n * n));
	}
	int rc = gv_classify_features_within(f, p->H, n, feat, all ? NULL : redo);
	if (rc == 0)
		features_taken(p, ptc, all ? NULL : redo, t);
	if (rc == GV_EINVAL) { /* too much of the grid lies beyond the image */
		tr(p, "t %.2f reading: the grid lies beyond the frame: searched for again", t);
		p->located = false;
		return 0;
	}
	if (rc == 0)
		rc = gv_classify_decide(feat, n, cells, conf);
	if (rc)
		return rc;
	hold_outside(p, feat, cells);
	/* The grid again. A grid that moved by more than a
	 * fifth of a cell is a candidate (less is the search's own jitter,
	 * which the reading does not mind). The search can also be wrong, a
	 * line off on a crowded edge, pulled by a hand over the lines: a
	 * candidate is taken only when the board
	 * read through it agrees with the last observation better than the
	 * board read through the grid in use (a bumped board read through the
	 * old grid does not), and one that moved by half a cell or more only
	 * when two searches in a row found it. */
	/* The search is most of a reading's cost (70% of the pipeline's
	 * instructions): the grid in use is checked first by its lines'
	 * contrast on the points read empty, which a bump or a slip of a fifth
	 * of a cell takes away; a drop searches at once, and otherwise a
	 * search every few seconds follows drift. Frames seconds apart (a
	 * camera triggered by motion, a slow Pi) are searched at every
	 * reading: there is time, and a camera that moved by a fifth of a
	 * cell keeps most of its lines' contrast yet reads squares hidden. */
	double align = alignment(p, cells, feat);
	/* squares read hidden beside no point that changed: something over
	 * the board, or a grid that slipped by a fifth of a cell (its square
	 * middles on the lines) while keeping most of its lines' contrast */
	int stray = 0;
	for (int q = 0; q < p->nsq && p->have_obs; q++)
		stray += hid[q] && !square_changed(p, q, cells, false);
	/* stones of the last observation read otherwise and more than one
	 * new stone (a move and its captures read one): a grid a whole cell
	 * off puts its lines on the board's lines and reads the board
	 * shifted; nothing else made a search due, and the clock's came 3 s
	 * later while the moves went on (13x13, a camera moved by 27 px at
	 * 29 px a cell: 26 points read otherwise) */
	int came = 0;
	for (int k = 0; k < n * n && p->have_obs; k++)
		came += !p->cells[k] && cells[k];
	bool shifted = p->have_obs && otherwise(p, cells) >= 1 && came >= 2;
	/* empty points whose lines no longer show: a hand of the wood's
	 * colour, or a grid the camera has moved off (13x13 at 29 px a cell,
	 * moved by 6 px: the points classified again showed no lines through
	 * the grid in use while the lines' median stayed 0.54 from the points
	 * not classified again, 0.13 afresh; two moves came before the
	 * clock's search) */
	int covered = 0;
	for (int k = 0; k < n * n && p->have_obs; k++)
		covered += cells[k] == 0 && !feat[k].outside && feat[k].line < COVERED_LINE;
	bool due = !p->have_search || align < 0 || lines_gone(p, align) || (clock_due && !heavy) ||
	           p->far_pending || sparse || stray > 0 || shifted || covered > 0;
	if (p->debug)
		tr(p, "t %.2f reading: alignment %.3f (after the last search %.3f)", t, align, p->align_ref);
	/* once a second at most while the board stays hidden; before the
	 * first observation too when the first frame showed an empty board:
	 * the camera may have moved since the grid was found on it, and the
	 * first observation is what every later grid is judged by */
	bool proven = p->have_obs || p->empty_t >= 0;
	if (p->o.relocate && proven && due && (!p->hidden_reading || !p->have_search || t - p->search_t >= 1.0) &&
	    (!p->have_search || p->far_pending || p->drift_pending || t - p->search_t >= p->search_wait - 1e-6)) {
		bool by_clock = p->have_search && align >= 0 && !lines_gone(p, align);
		tr(p, "t %.2f search: alignment %.3f (after the last search %.3f)%s%s%s", t, align, p->align_ref,
		   by_clock ? ", by the clock" : "", p->far_pending ? ", a far move pending" : "",
		   p->drift_pending ? ", a drift pending" : "");
		if (by_clock || !p->have_search)
			p->check_t = t;
		double H[9];
		p->have_search = true;
		p->search_t = t;
		rc = search(p, f, H, err, cap);
		if (rc < 0)
			return rc;
		double c[8];
		double d = 0, tol = 0.2 * p->cell_px > 3 ? 0.2 * p->cell_px : 3;
		if (rc == 1) {
			gv_h_corners(H, n, c);
			d = corner_shift(c, p->corners);
			if (p->debug)
				tr(p, "t %.2f grid search: corners moved %.1f px (cell %.1f px)", t, d, p->cell_px);
		}
		bool candidate = rc == 1 && d > tol;
		bool far_once = false; /* a far move seen by one search only */
		if (candidate && d >= 0.5 * p->cell_px) {
			bool again = p->far_pending && corner_shift(c, p->far_corners) < tol;
			p->far_pending = !again;
			memcpy(p->far_corners, c, sizeof c);
			far_once = !again;
		} else {
			p->far_pending = false;
		}
		/* drift: a camera or a board that creeps a pixel at a time (the
		 * sun warming a webcam's stand, a board nudged by sleeves) puts
		 * the grid in use a little off, and its square middles slide
		 * onto lines and stones' rims, read as hidden. A small move that
		 * two searches in a row agree on (the search's own jitter is
		 * under a pixel on a still board) is followed. */
		double dtol = GV_DRIFT_FOLLOW * p->cell_px;
		bool drift = rc == 1 && !candidate && d > dtol && d <= tol;
		bool drift_once = false; /* a small move seen by one search only */
		if (drift) {
			bool again = p->drift_pending && corner_shift(c, p->drift_corners) < dtol;
			p->drift_pending = !again;
			memcpy(p->drift_corners, c, sizeof c);
			drift_once = !again;
			drift = again;
		} else {
			p->drift_pending = false;
		}
		if (drift || drift_once)
			candidate = true;
		if (candidate && !all) {
			/* the grid in use judged on this frame: a reading that
			 * classified only the points whose patch changed kept the
			 * others' features from before the camera moved (a grainy
			 * camera moved by a third of a cell along the rows changes
			 * an empty point's patch less than its grain does), and
			 * their lines, measured where they were, made the grid in
			 * use look as good as the one found (13x13, noise 8: lines
			 * 0.54 against 0.56, the stale grid kept, a stone read on
			 * two points) */
			unsigned char cells0[NPT];
			float conf0[NPT];
			gv_point_features feat0[NPT];
			if (read_otherwise(p, f, p->H, cells0, conf0, feat0) >= 0) {
				memcpy(cells, cells0, sizeof cells);
				memcpy(conf, conf0, sizeof conf);
				memcpy(feat, feat0, sizeof feat);
				features_taken(p, ptc, NULL, t);
				all = true;
				align = alignment(p, cells, feat);
			}
		}
		if (candidate) {
			unsigned char cells2[NPT];
			float conf2[NPT];
			gv_point_features feat2[NPT];
			/* the stones of the last observation that each grid reads
			 * otherwise */
			int now = read_otherwise(p, f, H, cells2, conf2, feat2);
			if (now < 0)
				tr(p, "t %.2f candidate: lies beyond the frame: refused", t);
			if (now >= 0) {
				int was = otherwise(p, cells);
				/* with the same reading either way, the lines decide: a
				 * camera that wobbled moves the grid by a third of a cell
				 * without changing what a point reads, and only the grid
				 * that fits puts the lines where they show */
				double align2 = alignment(p, cells2, feat2);
				bool fits = align2 > 0 && align2 > GV_ALIGN_BETTER * (align > 0 ? align : 0);
				/* a small move seen once: its lines need only be clearly
				 * over a still board's search-to-search spread */
				bool fits_small = align2 > 0 && align2 > GV_ALIGN_SMALL_BETTER * (align > 0 ? align : 0);
				/* a far move seen once is taken only when its lines are
				 * back as they were after the last search (a wobbling
				 * camera moves on before a second search could agree),
				 * and fit better than the grid in use's or the stones
				 * prove it (a camera moved by about a whole cell keeps
				 * most of the lines' contrast, but reads the last
				 * observation's stones otherwise) */
				bool clear = 2 * now < was - 2;
				/* or the whole board does: early in a game too few
				 * stones are there to prove it, while the grid a cell off
				 * reads phantom stones along a row of lines (9x9 at 17 px
				 * a cell, 15 px off: 2 stones and 13 other points read
				 * otherwise, through the grid found none of the stones) */
				clear = clear || 2 * changed_points(p, cells2) < changed_points(p, cells) - 2;
				/* a move of a fifth to half a cell reading the same board
				 * (a search's own jitter is under a pixel): as a small one
				 * seen once, its lines clearly better (GV_ALIGN_SMALL_BETTER;
				 * it needed GV_ALIGN_BETTER, more than the smaller move:
				 * 13x13 at 28 px a cell, a camera moved by 7-8 px left the
				 * grid in use with lines 0.50 against 0.55, refused, and
				 * stones' rims in the square middles held readings back
				 * while three moves came) */
				bool ok = far_once     ? (fits || clear) && align2 >= GV_ALIGN_DROP * p->align_ref && now <= was
				          : drift_once ? fits_small && now <= was
				                       : now < was || (now == was && (drift || d >= 0.5 * p->cell_px || fits_small));
				if (p->debug) {
					tr(p, "t %.2f candidate: %s, stones read otherwise %d (grid in use %d), lines %.3f (in use %.3f): %s", t,
					   far_once ? "far, seen once" : drift_once ? "small, seen once" : "seen twice or mid", now, was,
					   align2, align, ok ? "taken" : "refused");
					tr(p, "t %.2f candidate corners %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f", t, c[0], c[1], c[2],
					   c[3], c[4], c[5], c[6], c[7]);
				}
				if (ok) {
					p->far_pending = false;
					p->drift_pending = false;
					use_grid(p, H);
					relocated = true;
					moved_far = d > tol;
					p->st.relocations++;
					memcpy(cells, cells2, sizeof cells);
					memcpy(conf, conf2, sizeof conf);
					memcpy(feat, feat2, sizeof feat);
					for (int k = 0; k < n * n; k++)
						patch_rgb(f, &p->pt[k], PS * PS, p->box, p->feat_rgb[k]);
					p->feat_full_t = t;
					/* the same board from the new grid: the hue of the
					 * square middles does not depend on where exactly
					 * they are */
					for (int k = 0; k < p->nsq; k++)
						patch_rgb(f, &p->sq[k], QS * QS, p->box, cur[k]);
					nhid = hidden_squares(p, cur, hid, strong);
				}
			}
		}
	}
	memcpy(p->feat, feat, sizeof(feat[0]) * (size_t)(n * n));
	p->have_feat = true;
	if (p->o.relocate && proven && p->search_t == t) {
		double a = relocated ? alignment(p, cells, feat) : align;
		if (!relocated && lines_gone(p, a)) {
			/* the search kept the grid in use, yet its lines are gone
			 * (a hand over the board, or a move the search did not see
			 * yet): the reference stays, so that the next reading
			 * searches again, after a wait that doubles each time */
			p->search_wait = p->search_wait < 1.0 ? 1.0 : fmin(2 * p->search_wait, GV_SEARCH_EVERY_S);
		} else {
			p->align_ref = a > 0 ? a : 0;
			p->search_wait = 0;
		}
	}
	if (p->debug && nhid) {
		char list[400];
		size_t at = 0;
		for (int k = 0; k < p->nsq && at + 12 < sizeof list; k++)
			if (hid[k])
				at += (size_t)snprintf(list + at, sizeof list - at, " %d,%d", k % (n + 1), k / (n + 1));
		list[at] = 0;
		tr(p, "t %.2f before excuse %d hidden:%s", t, nhid, list);
	}
	if (p->have_obs)
		covered_white(p, t, cells, conf, feat, hid);
	/* the patches are judged by the changes the observation will take: one
	 * read unsurely (under GV_CHANGE_CONF) is held as last seen below, so
	 * no change (a stone at the frame's edge read empty once, beside a
	 * margin square whose sampling moved with the grid) */
	unsigned char taken[NPT];
	for (int k = 0; k < n * n; k++)
		taken[k] = p->have_obs && cells[k] != p->cells[k] && conf[k] < GV_CHANGE_CONF ? p->cells[k] : cells[k];
	/* a square with no look of its own yet (it was beyond the frame: the
	 * camera moved the board back into it) cannot be told hidden by a
	 * change of look; beside a stone new since the last observation it
	 * is judged as a hidden one is (excuse_patches: a fingertip over the
	 * edge the board came back from is neither wood nor stone) */
	float look[NSQ][3]; /* what each square is judged by: its reference */
	memcpy(look, p->ref_sq, sizeof(look[0]) * (size_t)p->nsq);
	bool beside[NSQ] = {false}, lookless[NSQ] = {false};
	for (int q = 0; q < p->nsq && p->have_obs; q++) {
		beside[q] = square_changed(p, q, taken, true);
		lookless[q] = !has_look(p->ref_sq[q]) && has_look(cur[q]);
	}
	for (int q = 0; q < p->nsq; q++) {
		if (!lookless[q] || !beside[q] || hid[q])
			continue;
		hid[q] = true;
		nhid++;
		/* ... by the look nearest its own among its neighbours': their
		 * references, or, for those that came back into view with it
		 * beside no new stone, what they show now (the margin's wood,
		 * its tint in that corner of the picture); with none, by the
		 * board's wood alone (alien_square) */
		int qi = q % (n + 1), qj = q / (n + 1), m = n + 1;
		float x[2], best = 1e9f;
		rgb_chroma(cur[q], x);
		for (int a = -1; a <= 1; a++)
			for (int b = -1; b <= 1; b++) {
				int i = qi + b, j = qj + a;
				if ((!a && !b) || i < 0 || j < 0 || i >= m || j >= m)
					continue;
				int r = j * m + i;
				const float *l = has_look(p->ref_sq[r]) ? p->ref_sq[r] : lookless[r] && !beside[r] ? cur[r] : NULL;
				if (!l)
					continue;
				float ch[2];
				rgb_chroma(l, ch);
				float d = hypotf(ch[0] - x[0], ch[1] - x[1]);
				if (d < best) {
					best = d;
					memcpy(look[q], l, sizeof look[q]);
				}
			}
		tr(p, "t %.2f square %d,%d, not seen before, beside a new stone: judged", t, qi, qj);
	}
	bool rim_only[NSQ] = {false}; /* hidden, but hides no point (excuse_patches) */
	if (nhid && p->have_obs)
		nhid = excuse_patches(p, f, cur, look, hid, strong, taken, sparse, rim_only);
	bool worn[NPT];
	nhid += covered_points(p, t, cells, feat, hid, worn);
	/* the grid moved by more than drift in this reading: the still window
	 * was measured through the grid left behind, over places the board has
	 * left, so a hand that came in over the edge the camera moved towards
	 * was not seen coming. A stone new since the last observation that
	 * looks unlike the stones of its colour already there (a fingertip is
	 * pinker than the white stones) is held as last seen this time. */
	bool alien[NPT] = {false};
	if (moved_far && p->have_obs)
		for (int k = 0; k < n * n; k++)
			if (cells[k] && cells[k] != p->cells[k] && alien_stone(p, f, cells, k) > 0) {
				alien[k] = true;
				tr(p, "t %.2f the grid moved: the new stone at %d,%d unlike its colour's, held", t, k % n, k / n);
			}
	p->st.readings++;
	memset(obs, 0, sizeof *obs);
	obs->t = t;
	obs->size = n;
	obs->relocated = relocated;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			int k = j * n + i;
			bool hidden = false;
			if (nhid)
				for (int a = 0; a < 2 && !hidden; a++)
					for (int b = 0; b < 2 && !hidden; b++) {
						int q = (j + a) * (n + 1) + (i + b);
						hidden = hid[q] && !rim_only[q];
					}
			/* a change from the last observation must be read surely: a
			 * stone on the edge, half off the photo, that reads empty
			 * one frame in three is not taken off */
			bool weak = p->have_obs && cells[k] != p->cells[k] && conf[k] < GV_CHANGE_CONF;
			/* beyond the frame: held at what was last seen (before the
			 * first observation, the empty board of the first frame, when
			 * it showed one), or, with nothing seen yet, no observation */
			hidden = hidden || (feat[k].outside && !p->have_obs && p->empty_t < 0);
			bool h = hidden || worn[k] || weak || alien[k] || feat[k].outside ||
			         (p->have_obs && conf[k] < p->o.unsure);
			p->doubt[k] = h || (cells[k] == 0 && feat[k].line < COVERED_LINE);
			/* with nothing to hold yet, a reading with something over
			 * the board is no observation all the same */
			obs->nhidden += hidden;
			obs->noutside += feat[k].outside && p->have_obs;
			obs->outside[k] = feat[k].outside && p->have_obs;
			if (h && p->have_obs) {
				obs->cells[k] = p->cells[k];
				obs->held[k] = 1;
				obs->nheld++;
			} else {
				obs->cells[k] = cells[k];
			}
		}
	/* a grid whose lines are gone and that no search has replaced is off
	 * (a camera that moved): its square middles are not where the
	 * references were taken, and must not become them. So is one kept
	 * while the search saw the board half a cell or more away (a far
	 * move seen once, pending): a square middle read through it takes a
	 * stone's body for its look, judged deeply changed once the grid
	 * follows and the wood shows there again, and held every reading back
	 * (13x13, a camera moved by 0.6 cell: six moves seen at once) */
	bool off = !relocated && p->o.relocate && p->have_ref &&
	           ((align >= 0 && lines_gone(p, align)) || p->far_pending);
	/* the square middles become the reference, but for the hidden ones and
	 * those next to them (a hand's edge may pass the test on a few squares:
	 * they must not become the reference) */
	for (int k = 0; k < p->nsq; k++) {
		bool near = false;
		int m = n + 1, qi = k % m, qj = k / m;
		for (int a = -1; a <= 1 && !near && p->have_ref; a++)
			for (int b = -1; b <= 1 && !near; b++) {
				int i = qi + b, j = qj + a;
				near = i >= 0 && j >= 0 && i < m && j < m && hid[j * m + i];
			}
		/* hidden for a long time: something was left there (a bowl's lid, a
		 * score sheet): it becomes the board's look */
		if (hid[k] && p->hid_since[k] < 0)
			p->hid_since[k] = t;
		else if (!hid[k])
			p->hid_since[k] = -1;
		bool margin = qi == 0 || qj == 0 || qi == n || qj == n;
		if (hid[k] && margin && t - p->hid_since[k] >= p->o.stuck_s)
			near = false;
		/* hidden in three still spells in a row, with the board moving in
		 * between: no hand rests there that long in the same place; a
		 * stone's side or shadow leans into it (seen at an angle): its look
		 * now. The count goes back to nothing only when the square's look
		 * is taken again: two squares side by side that each hide now and
		 * then would otherwise keep each other's look old for ever (a
		 * stone's rim at the edge of the test, the light drifting) */
		if (!hid[k]) {
			if (!near)
				p->hid_spells[k] = 0;
		} else if (p->hid_spell[k] != p->spell) {
			p->hid_spell[k] = p->spell;
			if (++p->hid_spells[k] >= 3)
				near = false;
		}
		if (!near && !off) {
			memcpy(p->ref_sq[k], cur[k], sizeof cur[k]);
			p->ref_grid[k] = p->grid_n;
		}
	}
	p->have_ref = true;
	if (p->debug)
		for (int k = 0; k < p->nsq; k++)
			if (hid[k])
				tr(p, "t %.2f hidden square %d,%d", t, k % (n + 1), k / (n + 1));
	p->st.held_points += obs->nheld;
	return 1;
}

/* The first frame of all, when it shows an empty board plainly (every
 * point read empty and sure, its lines showing: nothing over the board): an
 * observation by itself (GV_EMPTY_START_CONF). Nothing else is taken from
 * it (no features, no references, no observation held: the readings start
 * as before) but its time (empty_t: the first observation after it is
 * bounded, and searches the grid). 1 (obs made) or 0. */
static int empty_start(gv_pipeline *p, const gv_image *f, double t, gv_observation *obs)
{
	int n = p->size;
	gv_point_features feat[NPT];
	unsigned char cells[NPT];
	float conf[NPT];
	if (gv_classify_features(f, p->H, n, feat) || gv_classify_decide(feat, n, cells, conf))
		return 0;
	for (int k = 0; k < n * n; k++)
		if (cells[k] != 0 || conf[k] < GV_EMPTY_START_CONF || feat[k].line < COVERED_LINE)
			return 0;
	/* the observation goes out, and the pipeline stays as if it had not
	 * been read (no observation held: the cells it would hold are the
	 * empty ones it starts with), so that everything after goes as
	 * before: above all, with no observation yet, a reading with hidden
	 * squares searches the grid again (a camera still settling) */
	memset(obs, 0, sizeof *obs);
	obs->t = t;
	obs->size = n;
	p->st.readings++;
	p->st.observations++;
	p->empty_t = t;
	tr(p, "t %.2f the first frame: an empty board, observed", t);
	return 1;
}

int gv_pipeline_feed(gv_pipeline *p, const gv_image *rgb, double t, gv_observation *obs, char *err, size_t cap)
{
	if (err && cap)
		err[0] = 0;
	if (!p || !rgb || !rgb->data || rgb->channels != 3 || rgb->width < 16 || rgb->height < 16 || !obs) {
		if (err && cap)
			snprintf(err, cap, "pipeline: bad frame (an RGB image is needed)");
		return GV_EINVAL;
	}
	if (p->have_t && t < p->t) {
		if (err && cap)
			snprintf(err, cap, "pipeline: time went backwards (%.3f after %.3f)", t, p->t);
		return GV_EINVAL;
	}
	if (p->st.frames == 0) {
		p->width = rgb->width;
		p->height = rgb->height;
		p->stride = rgb->stride;
	} else if (rgb->width != p->width || rgb->height != p->height || rgb->stride != p->stride) {
		if (err && cap)
			snprintf(err, cap, "pipeline: the frame size changed (%dx%d after %dx%d)", rgb->width,
			         rgb->height, p->width, p->height);
		return GV_EINVAL;
	}
	/* frames this far apart come from a camera that is not streaming
	 * (triggered by motion, or a slow one): no stillness can be seen
	 * between them, so each is a view by itself, read when nothing hides
	 * the board */
	bool sparse = p->have_t && t - p->t >= GV_SPARSE_GAP_S;
	bool first = !p->have_t;
	p->box = !sparse && !p->o.stills;
	p->have_t = true;
	p->t = t;
	p->st.frames++;
	if (!p->located && p->o.has_corners && !p->have_try) {
		gv_grid g;
		p->have_try = true;
		p->last_try = t;
		char why[200];
		if (gv_grid_from_corners(p->o.corners, p->size, rgb->width, rgb->height, &g, why, sizeof why)) {
			if (err && cap)
				snprintf(err, cap, "the corners given do not fit the %dx%d frames: %s", rgb->width,
				         rgb->height, why);
			return GV_EINVAL;
		}
		use_grid(p, g.H);
	}
	if (!p->located) {
		/* the first frame, then once a second (a search is slow) */
		if (p->have_try && t - p->last_try < 1.0 && !p->o.stills)
			return 0;
		p->have_try = true;
		p->last_try = t;
		double H[9];
		int rc = search(p, rgb, H, err, cap);
		if (rc <= 0)
			return rc;
		use_grid(p, H);
	}
	if (first && !p->o.stills && empty_start(p, rgb, t, obs))
		return 1;
	if (p->o.stills) {
		int rc = read_frame(p, rgb, t, true, obs, err, cap);
		if (rc == 1) {
			memcpy(p->cells, obs->cells, sizeof p->cells);
			p->have_obs = true;
			p->st.observations++;
		}
		return rc;
	}
	float ptg[NPT], sqg[NSQ];
	sample_all(p, rgb, ptg, sqg);
	int npt = p->size * p->size;
	bool moved = !p->win;
	if (p->win) {
		/* the light's own change taken out first: frames seconds apart
		 * (a camera triggered by motion, a slow Pi) see the sun come and
		 * go; the square middles, seldom under anything, give the gain */
		float gain = light_gain(sqg, p->win_sq, p->nsq);
		float thr = (float)p->o.motion;
		for (int k = 0; k < npt && !moved; k++)
			moved = ptg[k] >= 0 && fabsf(ptg[k] - gain * p->win_pt[k]) > thr;
		for (int k = 0; k < p->nsq && !moved; k++)
			moved = sqg[k] >= 0 && fabsf(sqg[k] - gain * p->win_sq[k]) > thr;
	}
	if (moved) {
		p->win = true;
		p->win_t = t;
		p->spell++;
		memcpy(p->win_pt, ptg, sizeof ptg);
		memcpy(p->win_sq, sqg, sizeof sqg);
		p->read_in_window = false;
		p->hidden_reading = false;
		if (!sparse)
			return 0;
	}
	if (!sparse && t - p->win_t < p->o.still_s - 1e-6)
		return 0;
	double wait = p->hidden_reading ? (p->o.still_s > 0.1 ? p->o.still_s : 0.1) : p->o.repeat_s;
	if (!sparse && p->read_in_window && t - p->read_t < wait - 1e-6)
		return 0;
	bool again = p->read_in_window && !p->hidden_reading;
	p->read_in_window = true;
	p->read_t = t;
	int rc = read_frame(p, rgb, t, sparse, obs, err, cap);
	if (rc != 1)
		return rc;
	p->hidden_reading = obs->nhidden > 0;
	if (p->hidden_reading) {
		/* not clear: no observation; read again soon */
		p->st.hidden_readings++;
		p->st.held_points -= obs->nheld;
		/* with no observation yet the grid is not proven by any: the
		 * camera may have moved since it was found (a wobbling stand),
		 * which reads as squares hidden; search again (once a second) */
		if (!p->have_obs && p->o.relocate)
			p->located = false;
		return 0;
	}
	/* The first observation after an empty board seen at the start: stones
	 * come one a move, by hand; many more than the time since allows are a
	 * grid that is off (a camera that wobbled since it was found), not a
	 * game: search again, as for a hidden reading (a wrong first
	 * observation would be the measure every later grid is judged by) */
	if (!p->have_obs && p->o.relocate && p->empty_t >= 0) {
		int stones = 0;
		for (int k = 0; k < p->size * p->size; k++)
			stones += obs->cells[k] != 0;
		if (stones > GV_START_STONES + (t - p->empty_t) * GV_STONES_PER_S) {
			tr(p, "t %.2f reading: %d stones %.1f s after an empty board: the grid is searched for again", t,
			   stones, t - p->empty_t);
			p->st.hidden_readings++;
			p->located = false;
			return 0;
		}
	}
	if (obs->relocated) {
		/* the sampling moved with the grid: the window starts again from here */
		sample_all(p, rgb, p->win_pt, p->win_sq);
		p->win = true;
		p->win_t = t;
	}
	(void)again; /* the same board read again is an observation too: a
	              * change that lasts is seen to last (the referee's
	              * persistence counts observations) */
	memcpy(p->cells, obs->cells, sizeof p->cells);
	p->have_obs = true;
	p->st.observations++;
	return 1;
}
