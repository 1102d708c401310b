/*
 * goref-render: the physical scene and its picture (see scene.h).
 */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NOISE_BITS 22
#define NOISE_N (1u << NOISE_BITS)

/* ---- random numbers */

uint64_t rs_next(rs_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double rs_uniform(rs_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(rs_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

int rs_int(rs_rng *r, int n) { return n <= 0 ? 0 : (int)(rs_next(r) % (uint64_t)n); }

double rs_gauss(rs_rng *r)
{
	double u1 = rs_uniform(r, 1e-12, 1.0), u2 = rs_uniform(r, 0.0, 1.0);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t rs_hash(uint64_t a, uint64_t b)
{
	rs_rng r = {a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL)};
	rs_next(&r);
	return rs_next(&r);
}

/* ---- the scene */

struct rs_scene {
	rs_scene_params p;
	int W, H, N;
	int L;                         /* the physical board's lines (>= N) */
	double offu, offv;             /* its grid's centre from the game grid's, mm */
	double win[4];                 /* paper: the window's margins beyond the game's
	                                  outer lines, mm (left, right, top, bottom) */
	double C[3], R[3], D[3], F[3]; /* camera centre and axes (right, down, forward) */
	double f, cx, cy, k1;
	double pxmm;                   /* mm a pixel, about, on the board */
	float *map;                    /* per pixel: world X, Y */
	double wxmin, wxmax, wymin, wymax; /* world box of the picture */
	unsigned char *base, *still;   /* RGB, W x H */
	double pc, ps, ptx, pty;       /* board pose: world = rot * (u, -v) + t */
	unsigned char color[RS_MAXN][RS_MAXN];
	double du[RS_MAXN][RS_MAXN], dv[RS_MAXN][RS_MAXN];
	float tone[RS_MAXN][RS_MAXN];
	int8_t *noise;                 /* NOISE_N + one row of Gaussian noise */
	/* wood */
	uint64_t wood_seed;
	double wood_rgb[3], table_rgb[3];
	bool floor;            /* planks instead of the table (rs_scene_params) */
	double plank_c, plank_s; /* the planks' direction (world) */
	double plank_w;        /* their width, mm */
	double grain_period;
	/* bamboo (rs_scene_params.bamboo): the strips run along u (axis 0:
	 * seams where v is constant) or along v (axis 1), strip_w mm wide from
	 * strip_off; a node every node_gap mm along a strip, from its own offset */
	int strip_axis;
	double strip_w, strip_off, node_gap, seam;
	double paper_rgb[3];
	/* light */
	double light_period, light_phase, band_period, band_phase;
	/* clutter on the table (rs_scene_params.clutter): bowls full of
	 * stones, lids with a few, loose stones; world mm */
	int nitems;
	struct rs_item {
		double x, y, r;   /* centre and radius */
		int kind;         /* 0 bowl, 1 lid, 2 stone */
		int color;        /* the stones': 1 black, 2 white */
		double rot, tone; /* a bowl's packing turned; shade */
	} items[24];
	double bowl_rgb[3];
	double light[3], half[3];      /* light_vectors: the light, and its half vector with a view from above */
};

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
static double smoothstep(double a, double b, double x)
{
	double t = clamp01((x - a) / (b - a));
	return t * t * (3 - 2 * t);
}
static unsigned char to8(double v) { return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5); }

/* value noise in [0, 1) on a unit lattice */
static double lattice(uint64_t seed, long ix, long iy)
{
	uint64_t h = rs_hash(seed ^ (uint64_t)ix * 0x8cb92ba72f3d8dd7ULL, (uint64_t)iy);
	return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static double vnoise(uint64_t seed, double x, double y)
{
	double fx = floor(x), fy = floor(y);
	long ix = (long)fx, iy = (long)fy;
	double tx = x - fx, ty = y - fy;
	tx = tx * tx * (3 - 2 * tx);
	ty = ty * ty * (3 - 2 * ty);
	double a = lattice(seed, ix, iy), b = lattice(seed, ix + 1, iy);
	double c = lattice(seed, ix, iy + 1), d = lattice(seed, ix + 1, iy + 1);
	return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty;
}

static double grid_half_u(const rs_scene *s) { return (s->N - 1) * 0.5 * RS_CELL_X; }
static double grid_half_v(const rs_scene *s) { return (s->N - 1) * 0.5 * RS_CELL_Y; }

static void world_to_board(const rs_scene *s, double X, double Y, double *u, double *v)
{
	double x = X - s->ptx, y = Y - s->pty;
	*u = s->pc * x + s->ps * y;
	*v = -(-s->ps * x + s->pc * y);
}

static void board_to_world(const rs_scene *s, double u, double v, double *X, double *Y)
{
	double p = u, q = -v;
	*X = s->pc * p - s->ps * q + s->ptx;
	*Y = s->ps * p + s->pc * q + s->pty;
}

void rs_scene_project(const rs_scene *s, double wx, double wy, double *px, double *py)
{
	double d[3] = {wx - s->C[0], wy - s->C[1], -s->C[2]};
	double xc = s->R[0] * d[0] + s->R[1] * d[1] + s->R[2] * d[2];
	double yc = s->D[0] * d[0] + s->D[1] * d[1] + s->D[2] * d[2];
	double zc = s->F[0] * d[0] + s->F[1] * d[1] + s->F[2] * d[2];
	if (zc < 1e-6)
		zc = 1e-6;
	double x = xc / zc, y = yc / zc;
	double k = 1 + s->k1 * (x * x + y * y);
	*px = s->f * x * k + s->cx;
	*py = s->f * y * k + s->cy;
}

void rs_scene_point_world(const rs_scene *s, double x, double y, double *wx, double *wy)
{
	board_to_world(s, x * RS_CELL_X - grid_half_u(s), y * RS_CELL_Y - grid_half_v(s), wx, wy);
}

void rs_scene_corners(const rs_scene *s, double out[8])
{
	const int cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
	for (int i = 0; i < 4; i++) {
		double wx, wy;
		rs_scene_point_world(s, cx[i] * (s->N - 1), cy[i] * (s->N - 1), &wx, &wy);
		rs_scene_project(s, wx, wy, &out[2 * i], &out[2 * i + 1]);
	}
}

static void setup_camera(rs_scene *s)
{
	double t = s->p.tilt_deg * M_PI / 180, psi = s->p.yaw_deg * M_PI / 180;
	double dist = 1000;
	s->C[0] = 0;
	s->C[1] = -dist * sin(t);
	s->C[2] = dist * cos(t);
	s->F[0] = 0;
	s->F[1] = sin(t);
	s->F[2] = -cos(t);
	double R0[3] = {1, 0, 0}, D0[3] = {0, -cos(t), -sin(t)};
	for (int i = 0; i < 3; i++) {
		s->R[i] = cos(psi) * R0[i] + sin(psi) * D0[i];
		s->D[i] = -sin(psi) * R0[i] + cos(psi) * D0[i];
	}
	/* scale and centre: the board (with its margin) fills 85% of the height */
	s->f = 1;
	s->cx = s->cy = 0;
	s->k1 = 0;
	/* on a larger board a band of what lies around the game's area shows too */
	double m = RS_MARGIN + (s->L > s->N ? 25 : 0);
	double bu = grid_half_u(s) + m, bv = grid_half_v(s) + m;
	double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
	/* (a thick board's bottom corners too: each where the ray to it
	 * crosses the board's plane) */
	for (int i = 0; i < (s->p.board_t > 0 ? 8 : 4); i++) {
		double X, Y, x, y;
		board_to_world(s, i & 1 ? bu : -bu, i & 2 ? bv : -bv, &X, &Y);
		if (i >= 4) {
			double k = s->C[2] / (s->C[2] + s->p.board_t);
			X = s->C[0] + (X - s->C[0]) * k;
			Y = s->C[1] + (Y - s->C[1]) * k;
		}
		rs_scene_project(s, X, Y, &x, &y);
		xmin = fmin(xmin, x), xmax = fmax(xmax, x), ymin = fmin(ymin, y), ymax = fmax(ymax, y);
	}
	double f_h = s->f = 0.85 * s->H / (ymax - ymin);
	/* ... and within 92% of the width: a camera far from straight down
	 * sees the board's near side wider than its depth (at 60 degrees a
	 * 4:3 picture would cut it off) */
	if (s->f * (xmax - xmin) > 0.92 * s->W)
		s->f = 0.92 * s->W / (xmax - xmin);
	if (s->p.zoom > 0)
		s->f *= s->p.zoom;
	s->cx = s->W * 0.5 - s->f * (xmin + xmax) * 0.5;
	s->cy = s->H * 0.5 - s->f * (ymin + ymax) * 0.5;
	s->k1 = s->p.k1;
	s->pxmm = 2 * bv / (0.85 * s->H) * (f_h / s->f);
}

static void compute_map(rs_scene *s)
{
	s->wxmin = s->wymin = 1e18;
	s->wxmax = s->wymax = -1e18;
	for (int py = 0; py < s->H; py++)
		for (int px = 0; px < s->W; px++) {
			double xd = (px - s->cx) / s->f, yd = (py - s->cy) / s->f;
			double x = xd, y = yd;
			for (int it = 0; it < 6; it++) {
				double k = 1 + s->k1 * (x * x + y * y);
				x = xd / k;
				y = yd / k;
			}
			double dir[3];
			for (int i = 0; i < 3; i++)
				dir[i] = x * s->R[i] + y * s->D[i] + s->F[i];
			double t = -s->C[2] / dir[2];
			double X = s->C[0] + t * dir[0], Y = s->C[1] + t * dir[1];
			float *m = s->map + 2 * ((size_t)py * s->W + px);
			m[0] = (float)X;
			m[1] = (float)Y;
			s->wxmin = fmin(s->wxmin, X), s->wxmax = fmax(s->wxmax, X);
			s->wymin = fmin(s->wymin, Y), s->wymax = fmax(s->wymax, Y);
		}
}

static bool star_point(int n, int x, int y)
{
	int a = n >= 13 ? 3 : 2, b = n - 1 - a, c = n / 2;
	if (n < 7)
		return false;
	bool ex = x == a || x == b, ey = y == a || y == b;
	if (ex && ey)
		return true;
	if (x == c && y == c && n % 2)
		return true;
	if (n >= 19 && ((x == c && ey) || (y == c && ex)))
		return true;
	return false;
}

/* A stone's colour for a surface normal n, the light l and the half
 * vector h (the light's and the view's), its tone and colour (1 black). */
static void stone_colour(int color, double tone, const double n[3], const double l[3], const double h[3],
                         double col[3])
{
	double diff = fmax(0, n[0] * l[0] + n[1] * l[1] + n[2] * l[2]);
	double spec = fmax(0, n[0] * h[0] + n[1] * h[1] + n[2] * h[2]);
	if (color == 1) {
		double sp = pow(spec, 60) * 170 + pow(spec, 8) * 25;
		double base = (14 + 34 * diff) * tone;
		col[0] = base + sp;
		col[1] = base * 1.02 + sp;
		col[2] = base * 1.08 + sp;
	} else {
		double sp = pow(spec, 40) * 35;
		double base = 250 * (0.58 + 0.42 * diff) * tone;
		col[0] = base + sp;
		col[1] = base * 0.985 + sp;
		col[2] = base * 0.94 + sp;
	}
}

/* The light's direction l (from the upper left) and the half vector h
 * between it and a view from straight above, unit vectors. */
static void light_vectors(double l[3], double h[3])
{
	const double L[3] = {-0.42, -0.52, 0.74};
	double ln = sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
	for (int i = 0; i < 3; i++)
		l[i] = L[i] / ln;
	h[0] = l[0], h[1] = l[1], h[2] = l[2] + 1;
	double hn = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
	for (int i = 0; i < 3; i++)
		h[i] /= hn;
}

/* A stone lying flat seen from above at (dx, dy) mm from its centre (as
 * the board's flat stones are drawn): its colour into col, its coverage
 * returned. */
static double flat_stone(int color, double tone, double dx, double dy, double pm, const double l[3],
                         const double h[3], double col[3])
{
	double d = sqrt(dx * dx + dy * dy);
	double a = clamp01((RS_STONE_R - d) / pm + 0.5);
	if (a <= 0)
		return 0;
	double r = fmin(d / RS_STONE_R, 1.0);
	double n[3] = {dx / RS_STONE_R, dy / RS_STONE_R, 1.7 * sqrt(fmax(0, 1 - r * r)) + 0.15};
	double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	for (int i = 0; i < 3; i++)
		n[i] /= nn;
	stone_colour(color, tone, n, l, h, col);
	return a;
}

/* The clutter on the table at world (X, Y) over the colour rgb. */
static void clutter_pixel(const rs_scene *s, double X, double Y, double rgb[3])
{
	double pm = s->pxmm;
	const double *l = s->light, *h = s->half;
	for (int k = 0; k < s->nitems; k++) {
		const struct rs_item *it = &s->items[k];
		double dx = X - it->x, dy = Y - it->y, d = sqrt(dx * dx + dy * dy);
		double a = clamp01((it->r - d) / pm + 0.5);
		if (a <= 0)
			continue;
		double col[3];
		if (it->kind == 2) {
			/* a loose stone, with a little shadow */
			double sh = 0.5 * (1 - smoothstep(RS_STONE_R - 3, RS_STONE_R + 3, hypot(dx - 1.7, dy + 2.1)));
			for (int i = 0; i < 3; i++)
				rgb[i] *= 1 - sh;
			a = flat_stone(it->color, it->tone, dx, dy, pm, l, h, col);
		} else {
			/* a bowl or a lid: a wooden rim lit from the upper left,
			 * inside a dish (a lid) or stones packed to the brim */
			double rim = it->kind == 0 ? 7 : 5;
			double lit = 0.85 + 0.2 * (-dx * 0.6 + dy * 0.8) / (d + 1e-9);
			for (int i = 0; i < 3; i++)
				col[i] = s->bowl_rgb[i] * it->tone * (d > it->r - rim ? lit : 0.8);
			if (d <= it->r - rim) {
				if (it->kind == 0) {
					/* a hexagonal packing, 21 mm apart, turned */
					double cr = cos(it->rot), sr = sin(it->rot);
					double u = cr * dx + sr * dy, v = -sr * dx + cr * dy;
					double row = floor(v / 18.2 + 0.5), off = fmod(row, 2) != 0 ? 10.5 : 0;
					double cu = floor((u - off) / 21 + 0.5) * 21 + off, cv = row * 18.2;
					double sc[3];
					double sa = flat_stone(it->color, 0.95 + 0.05 * sin(cu * 3.1 + cv), u - cu, v - cv, pm, l, h, sc);
					for (int i = 0; i < 3; i++)
						col[i] = col[i] * 0.35 * (1 - sa) + sc[i] * sa;
				} else {
					/* the lid's captured stones */
					for (int j = 0; j < 5; j++) {
						double a2 = it->rot + j * 2.4, rr = (it->r - 25) * (0.2 + 0.16 * j);
						double sc[3];
						double sa = flat_stone(it->color, 1, dx - rr * cos(a2), dy - rr * sin(a2), pm, l, h, sc);
						for (int i = 0; i < 3; i++)
							col[i] += (sc[i] - col[i]) * sa;
					}
				}
			}
		}
		for (int i = 0; i < 3; i++)
			rgb[i] += (col[i] - rgb[i]) * a;
	}
}

/* A bamboo board's shade at (u, v) of its top (mm, its grid's centre at
 * 0): the strip's own shade, fibres along it, a dark glue seam at each of
 * its edges (about 0.6 mm wide, 5-30% darker), and the nodes: bands 3 mm wide across the
 * strip, darker in their middle. */
static double bamboo_shade(const rs_scene *s, double u, double v)
{
	double a = (s->strip_axis ? u : v) + s->strip_off, b = s->strip_axis ? v : u;
	double k = floor(a / s->strip_w), in = a - k * s->strip_w;
	uint64_t ks = rs_hash((uint64_t)(int64_t)k, s->wood_seed ^ 0xba3b0);
	double f = 0.9 + 0.14 * (ks % 1000) / 1000.0;
	/* fibres: fine streaks along the strip */
	f *= 1 - 0.06 * (vnoise(ks, in * 1.3, b * 0.015) - 0.5) - 0.04 * (vnoise(ks ^ 3, in * 0.2, b * 0.004) - 0.5);
	double pm = s->pxmm, edge = fmin(in, s->strip_w - in);
	f *= 1 - s->seam * clamp01((0.3 - edge) / pm + 0.5);
	/* the nodes: each strip's from its own offset */
	double off = (double)((ks >> 20) % 1000) / 1000.0 * s->node_gap, nb = b + off;
	double nd = fabs(nb - floor(nb / s->node_gap + 0.5) * s->node_gap);
	f *= 1 - 0.12 * clamp01(1.0 - nd / 1.5) - 0.08 * clamp01((1.5 - nd) / pm + 0.5);
	return f;
}

/* The board without stones at one pixel. */
static void base_pixel(const rs_scene *s, double X, double Y, unsigned char *out)
{
	double gu0, gv0;
	world_to_board(s, X, Y, &gu0, &gv0);
	/* the physical board's own coordinates (its grid's centre at 0) */
	double u = gu0 - s->offu, v = gv0 - s->offv;
	double pm = s->pxmm;
	double bu = (s->L - 1) * 0.5 * RS_CELL_X + RS_MARGIN, bv = (s->L - 1) * 0.5 * RS_CELL_Y + RS_MARGIN;
	double edge = fmin(bu - fabs(u), bv - fabs(v)); /* > 0 inside the board */
	double rgb[3] = {0, 0, 0};
	double wood = clamp01(0.5 + edge / pm);
	double side = 0, side_shade = 0.58;
	if (wood < 1 && s->p.board_t > 0) {
		/* a thick board: beside its top, the ray goes on down to the
		 * table, T below, through the board's side if it meets it */
		double k = s->p.board_t / s->C[2], u0 = u, v0 = v;
		X -= k * (s->C[0] - X);
		Y -= k * (s->C[1] - Y);
		world_to_board(s, X, Y, &gu0, &gv0);
		u = gu0 - s->offu, v = gv0 - s->offv;
		/* where the ray, from the board's plane down to the table,
		 * enters the board's box (Liang-Barsky): the side it meets */
		double t0 = 0, t1 = 1, d[2] = {u - u0, v - v0}, p0[2] = {u0, v0}, lim[2] = {bu, bv};
		int face_a = 0, face_s = 1;
		for (int a = 0; a < 2 && t0 <= t1; a++) {
			for (int sg = -1; sg <= 1; sg += 2) {
				/* sg * (p0 + t d) < lim */
				double num = lim[a] - sg * p0[a], den = sg * d[a];
				if (fabs(den) < 1e-12) {
					if (num < 0)
						t0 = 2;
				} else if (den > 0) {
					t1 = fmin(t1, num / den);
				} else if (num / den > t0) {
					t0 = num / den;
					face_a = a, face_s = sg;
				}
			}
		}
		if (t0 <= t1 && t0 < 1) {
			/* a pixel's width of soft edge where the face meets the table */
			double len = hypot(d[0], d[1]);
			side = (1 - wood) * clamp01((1 - t0) * len / pm + 0.5);
			/* the face lit as the stones are, from the upper left */
			double lit = face_a == 0 ? -face_s * 0.42 : -face_s * 0.52;
			side_shade = 0.35 + 0.5 * fmax(0, lit);
		}
	}
	if (wood + side < 1) {
		/* the table, with the board's shadow towards the lower right */
		double tn = vnoise(s->wood_seed ^ 77, X * 0.01, Y * 0.01) * 0.6 + vnoise(s->wood_seed ^ 78, X * 0.05, Y * 0.05) * 0.4;
		double f = 0.85 + 0.3 * tn;
		double su = u - 7, sv = v - 9;
		double sedge = fmin(bu - fabs(su), bv - fabs(sv));
		f *= 1 - 0.45 * smoothstep(-14, 4, sedge);
		if (s->floor) {
			/* planks across the picture: each its own shade, dark seams
			 * 2 mm wide between them */
			double w = X * s->plank_c + Y * s->plank_s, k = floor(w / s->plank_w), in = w - k * s->plank_w;
			double shade = 0.92 + 0.16 * (rs_hash((uint64_t)(int64_t)k, s->wood_seed) % 1000) / 1000.0;
			f *= shade * (in < 2 ? 0.45 : 1);
		}
		double t[3];
		for (int i = 0; i < 3; i++)
			t[i] = s->table_rgb[i] * f;
		if (s->nitems)
			clutter_pixel(s, X, Y, t);
		for (int i = 0; i < 3; i++)
			rgb[i] = (1 - wood - side) * t[i];
	}
	if (side > 0) {
		/* the board's side: its wood in shade, the grain across */
		double g = vnoise(s->wood_seed ^ 13, (u + v) * 0.05, 0.5);
		for (int i = 0; i < 3; i++)
			rgb[i] += side * s->wood_rgb[i] * (side_shade + 0.08 * g);
	}
	if (wood > 0) {
		double f;
		if (s->p.bamboo) {
			f = bamboo_shade(s, u, v);
		} else {
			double w = u + 9.0 * vnoise(s->wood_seed, u * 0.012, v * 0.0025);
			double g = 0.5 + 0.5 * sin(2 * M_PI * w / s->grain_period);
			g = g * g * g * g;
			double lf = vnoise(s->wood_seed ^ 5, u * 0.006, v * 0.0015);
			f = 1 - 0.055 * g - 0.10 * (lf - 0.5);
		}
		f *= 1 - 0.18 * (1 - smoothstep(0, 2.0, edge)); /* the bevel */
		double lines = 0;
		double gu = (s->L - 1) * 0.5 * RS_CELL_X, gv = (s->L - 1) * 0.5 * RS_CELL_Y, lw = 0.5;
		if (fabs(u) < gu + 2 * pm + 2 && fabs(v) < gv + 2 * pm + 2) {
			int ix = (int)floor((u + gu) / RS_CELL_X + 0.5), iy = (int)floor((v + gv) / RS_CELL_Y + 0.5);
			ix = ix < 0 ? 0 : ix >= s->L ? s->L - 1 : ix;
			iy = iy < 0 ? 0 : iy >= s->L ? s->L - 1 : iy;
			double lx = ix * RS_CELL_X - gu, ly = iy * RS_CELL_Y - gv;
			double dx = fabs(u - lx), dy = fabs(v - ly);
			double inv = clamp01((gv + lw - fabs(v)) / pm + 0.5), inh = clamp01((gu + lw - fabs(u)) / pm + 0.5);
			double cvx = clamp01((lw - dx) / pm + 0.5) * inv;
			double chy = clamp01((lw - dy) / pm + 0.5) * inh;
			lines = fmax(cvx, chy);
			if (star_point(s->L, ix, iy)) {
				double d = sqrt(dx * dx + dy * dy);
				lines = fmax(lines, clamp01((2.0 - d) / pm + 0.5));
			}
		}
		static const double ink[3] = {38, 28, 20};
		/* paper over the board outside the window: white, a little
		 * uneven, darker by its own shadow along the window's edge */
		double paper = 0, pshade = 1;
		if (s->p.paper) {
			double ghu = grid_half_u(s), ghv = grid_half_v(s);
			double in = fmin(fmin(gu0 + ghu + s->win[0], ghu + s->win[1] - gu0),
			                 fmin(gv0 + ghv + s->win[2], ghv + s->win[3] - gv0)); /* > 0 inside */
			paper = clamp01(0.5 - in / pm);
			pshade = 0.93 + 0.07 * smoothstep(0, 4, -in);
		}
		double pn = 0.96 + 0.04 * vnoise(s->wood_seed ^ 91, u * 0.02, v * 0.02);
		for (int i = 0; i < 3; i++) {
			double c = s->wood_rgb[i] * f;
			c = c + (ink[i] - c) * 0.88 * lines;
			c = c + (s->paper_rgb[i] * pn * pshade - c) * paper;
			rgb[i] += wood * c;
		}
	}
	for (int i = 0; i < 3; i++)
		out[i] = to8(rgb[i]);
}

static void render_base(rs_scene *s)
{
	for (int py = 0; py < s->H; py++)
		for (int px = 0; px < s->W; px++) {
			size_t i = (size_t)py * s->W + px;
			base_pixel(s, s->map[2 * i], s->map[2 * i + 1], s->base + 3 * i);
		}
}

/* How far a point 1 mm above the board is seen off its place on the
 * board, at most (mm): its ground point lies on the ray from the camera,
 * d / Cz beyond for d the camera's distance across to it (the board within
 * 400 mm of the world's centre). */
static double top_reach(const rs_scene *s)
{
	return (hypot(s->C[0], s->C[1]) + 400) / s->C[2];
}

/* A stone with height (rs_scene_params.stone_h) seen along one pixel's ray:
 * the ray from its board point (u, v, 0) to the camera (cu, cv, cz, board
 * coordinates) against half an ellipsoid of radius RS_STONE_R and height h
 * centred on (su, sv). Returns the coverage (0 to 1, a pixel's width of
 * soft edge) and, when > 0, the hit's place along the ray (*t, 0 at the
 * board, 1 at the camera: the larger is nearer the camera) and the
 * surface's unit normal n and the unit direction to the camera vw. */
static double stone_hit(double u, double v, double su, double sv, double cu, double cv, double cz, double h,
                        double pm, double *t, double n[3], double vw[3])
{
	const double R = RS_STONE_R;
	double dx = u - su, dy = v - sv, ex = cu - u, ey = cv - v;
	double a = (ex * ex + ey * ey) / (R * R) + cz * cz / (h * h);
	double b = 2 * (dx * ex + dy * ey) / (R * R);
	double c = (dx * dx + dy * dy) / (R * R) - 1;
	double sm = -b / (2 * a);
	if (sm < 0)
		sm = 0;
	double rho = sqrt(fmax(0, a * sm * sm + b * sm + c + 1)); /* the ray's nearest, in radii */
	double cover = clamp01((1 - rho) * R / pm + 0.5);
	if (cover <= 0)
		return 0;
	double disc = b * b - 4 * a * c, s = sm;
	if (disc >= 0) {
		double s1 = (-b + sqrt(disc)) / (2 * a);
		if (s1 > 0)
			s = s1;
	}
	double x = dx + s * ex, y = dy + s * ey, z = s * cz;
	n[0] = x / (R * R), n[1] = y / (R * R), n[2] = z / (h * h);
	double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (nn < 1e-12)
		n[0] = n[1] = 0, n[2] = 1;
	else
		n[0] /= nn, n[1] /= nn, n[2] /= nn;
	double en = sqrt(ex * ex + ey * ey + cz * cz);
	vw[0] = ex / en, vw[1] = ey / en, vw[2] = cz / en;
	*t = s;
	return cover;
}

/* Stones: their shadows and bodies over the base in one rectangle. */
static void render_still_rect(rs_scene *s, int x0, int y0, int x1, int y1)
{
	double gu = grid_half_u(s), gv = grid_half_v(s), pm = s->pxmm;
	const double *l = s->light, *h = s->half;
	/* stones with height: the camera in board coordinates, and how many
	 * cells off its point a stone's top may be seen */
	double sh_h = s->p.stone_h, cam_u, cam_v;
	world_to_board(s, s->C[0], s->C[1], &cam_u, &cam_v);
	int reach = sh_h > 0 ? (int)ceil((RS_STONE_R + sh_h * top_reach(s)) / RS_CELL_X) : 1;
	if (reach < 1)
		reach = 1;
	for (int py = y0; py < y1; py++)
		for (int px = x0; px < x1; px++) {
			size_t i = (size_t)py * s->W + px;
			unsigned char *o = s->still + 3 * i;
			const unsigned char *b = s->base + 3 * i;
			double u, v;
			world_to_board(s, s->map[2 * i], s->map[2 * i + 1], &u, &v);
			int ix = (int)floor((u + gu) / RS_CELL_X + 0.5), iy = (int)floor((v + gv) / RS_CELL_Y + 0.5);
			if (ix < -reach || iy < -reach || ix >= s->N + reach || iy >= s->N + reach) {
				memcpy(o, b, 3);
				continue;
			}
			double c[3] = {b[0], b[1], b[2]};
			double shadow = 0;
			int near = 0;
			for (int yy = iy - 1; yy <= iy + 1; yy++)
				for (int xx = ix - 1; xx <= ix + 1; xx++) {
					if (xx < 0 || yy < 0 || xx >= s->N || yy >= s->N || !s->color[yy][xx])
						continue;
					near++;
					double su = xx * RS_CELL_X - gu + s->du[yy][xx] + 1.7;
					double sv = yy * RS_CELL_Y - gv + s->dv[yy][xx] + 2.1;
					double d = sqrt((u - su) * (u - su) + (v - sv) * (v - sv));
					double sh = 0.55 * (1 - smoothstep(RS_STONE_R - 3.0, RS_STONE_R + 3.5, d));
					shadow = 1 - (1 - shadow) * (1 - sh);
				}
			if (!near && sh_h <= 0) {
				memcpy(o, b, 3);
				continue;
			}
			for (int k = 0; k < 3; k++)
				c[k] *= 1 - shadow;
			if (sh_h > 0) {
				/* the stones that stand on the ray, the farthest from
				 * the camera first, each over what is behind it */
				double ht[25], hcov[25], hcol[25][3];
				int nh = 0;
				for (int yy = iy - reach; yy <= iy + reach; yy++)
					for (int xx = ix - reach; xx <= ix + reach; xx++) {
						if (xx < 0 || yy < 0 || xx >= s->N || yy >= s->N || !s->color[yy][xx])
							continue;
						double n[3], vw[3], t;
						double cov = stone_hit(u, v, xx * RS_CELL_X - gu + s->du[yy][xx],
						                       yy * RS_CELL_Y - gv + s->dv[yy][xx], cam_u, cam_v, s->C[2], sh_h,
						                       pm, &t, n, vw);
						if (cov <= 0 || nh == 25)
							continue;
						double hv[3] = {l[0] + vw[0], l[1] + vw[1], l[2] + vw[2]};
						double hn2 = sqrt(hv[0] * hv[0] + hv[1] * hv[1] + hv[2] * hv[2]);
						for (int k = 0; k < 3; k++)
							hv[k] /= hn2;
						int j = nh++;
						while (j > 0 && ht[j - 1] > t) { /* kept in order of t */
							ht[j] = ht[j - 1], hcov[j] = hcov[j - 1];
							memcpy(hcol[j], hcol[j - 1], sizeof hcol[j]);
							j--;
						}
						ht[j] = t, hcov[j] = cov;
						stone_colour(s->color[yy][xx], s->tone[yy][xx], n, l, hv, hcol[j]);
					}
				for (int j = 0; j < nh; j++)
					for (int k = 0; k < 3; k++)
						c[k] += (hcol[j][k] - c[k]) * hcov[j];
				for (int k = 0; k < 3; k++)
					o[k] = to8(c[k]);
				continue;
			}
			for (int yy = iy - 1; yy <= iy + 1; yy++)
				for (int xx = ix - 1; xx <= ix + 1; xx++) {
					if (xx < 0 || yy < 0 || xx >= s->N || yy >= s->N || !s->color[yy][xx])
						continue;
					double dx = u - (xx * RS_CELL_X - gu + s->du[yy][xx]);
					double dy = v - (yy * RS_CELL_Y - gv + s->dv[yy][xx]);
					double col[3];
					double a = flat_stone(s->color[yy][xx], s->tone[yy][xx], dx, dy, pm, l, h, col);
					if (a <= 0)
						continue;
					for (int k = 0; k < 3; k++)
						c[k] += (col[k] - c[k]) * a;
				}
			for (int k = 0; k < 3; k++)
				o[k] = to8(c[k]);
		}
}

static void stone_rect(const rs_scene *s, int x, int y, double du, double dv, int r[4])
{
	double gu = grid_half_u(s), gv = grid_half_v(s);
	double cu = x * RS_CELL_X - gu + du, cv = y * RS_CELL_Y - gv + dv;
	double e = RS_STONE_R + 8 + s->p.stone_h * top_reach(s);
	double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
	for (int k = 0; k < 4; k++) {
		double X, Y, px, py;
		board_to_world(s, cu + (k & 1 ? e : -e), cv + (k & 2 ? e : -e), &X, &Y);
		rs_scene_project(s, X, Y, &px, &py);
		xmin = fmin(xmin, px), xmax = fmax(xmax, px), ymin = fmin(ymin, py), ymax = fmax(ymax, py);
	}
	r[0] = (int)floor(xmin) - 2;
	r[1] = (int)floor(ymin) - 2;
	r[2] = (int)ceil(xmax) + 3;
	r[3] = (int)ceil(ymax) + 3;
	r[0] = r[0] < 0 ? 0 : r[0];
	r[1] = r[1] < 0 ? 0 : r[1];
	r[2] = r[2] > s->W ? s->W : r[2];
	r[3] = r[3] > s->H ? s->H : r[3];
}

void rs_scene_set_stone(rs_scene *s, int x, int y, int color, double du, double dv)
{
	int r[4];
	int old[4] = {0, 0, 0, 0};
	bool had = s->color[y][x] != 0;
	if (had)
		stone_rect(s, x, y, s->du[y][x], s->dv[y][x], old);
	s->color[y][x] = (unsigned char)color;
	s->du[y][x] = du;
	s->dv[y][x] = dv;
	rs_rng g = {rs_hash(s->p.seed ^ 0x5707e, (uint64_t)(y * 32 + x) * 1000003u + (uint64_t)(du * 1000 + 5000))};
	s->tone[y][x] = (float)rs_uniform(&g, 0.94, 1.06);
	if (had)
		render_still_rect(s, old[0], old[1], old[2], old[3]);
	if (color) {
		stone_rect(s, x, y, du, dv, r);
		render_still_rect(s, r[0], r[1], r[2], r[3]);
	}
}

static void render_all(rs_scene *s)
{
	render_base(s);
	render_still_rect(s, 0, 0, s->W, s->H);
}

void rs_scene_pose(rs_scene *s, double deg, double dx, double dy, bool render)
{
	double a = deg * M_PI / 180;
	s->pc = cos(a);
	s->ps = sin(a);
	s->ptx = dx;
	s->pty = dy;
	if (render)
		render_all(s);
}

rs_scene *rs_scene_new(const rs_scene_params *p)
{
	rs_scene *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->p = *p;
	s->W = p->width;
	s->H = p->height;
	s->N = p->size;
	s->L = p->board_lines > p->size ? p->board_lines : p->size;
	s->pc = 1;
	light_vectors(s->light, s->half);
	size_t n = (size_t)s->W * s->H;
	s->map = malloc(n * 2 * sizeof(float));
	s->base = malloc(n * 3);
	s->still = malloc(n * 3);
	s->noise = malloc(NOISE_N + (size_t)s->W * 3);
	if (!s->map || !s->base || !s->still || !s->noise) {
		rs_scene_free(s);
		return NULL;
	}
	rs_rng g = {rs_hash(p->seed, 0x5ce9e)};
	s->wood_seed = rs_next(&g);
	double wr = rs_uniform(&g, 205, 232);
	s->wood_rgb[0] = wr;
	s->wood_rgb[1] = wr * rs_uniform(&g, 0.74, 0.82);
	s->wood_rgb[2] = wr * rs_uniform(&g, 0.44, 0.54);
	double tr = rs_uniform(&g, 60, 95);
	s->table_rgb[0] = tr;
	s->table_rgb[1] = tr * rs_uniform(&g, 0.78, 0.9);
	s->table_rgb[2] = tr * rs_uniform(&g, 0.7, 0.85);
	s->grain_period = rs_uniform(&g, 2.5, 4.5);
	s->floor = p->floor;
	if (p->floor) {
		/* pale bamboo, as bright as the board or brighter */
		double fr = wr * rs_uniform(&g, 0.95, 1.1);
		s->table_rgb[0] = fr;
		s->table_rgb[1] = fr * rs_uniform(&g, 0.8, 0.88);
		s->table_rgb[2] = fr * rs_uniform(&g, 0.5, 0.62);
		double a = rs_uniform(&g, 0, M_PI);
		s->plank_c = cos(a);
		s->plank_s = sin(a);
		s->plank_w = rs_uniform(&g, 70, 110);
	}
	if (p->bamboo) {
		/* from a stream of its own: every other scene as before */
		rs_rng bg = {rs_hash(p->seed, 0xba3b0)};
		double br = rs_uniform(&bg, 0, 1) < 0.7 ? rs_uniform(&bg, 218, 242) : rs_uniform(&bg, 165, 195);
		bool pale = br > 200;
		s->wood_rgb[0] = br;
		s->wood_rgb[1] = br * (pale ? rs_uniform(&bg, 0.82, 0.9) : rs_uniform(&bg, 0.66, 0.74));
		s->wood_rgb[2] = br * (pale ? rs_uniform(&bg, 0.55, 0.66) : rs_uniform(&bg, 0.42, 0.52));
		s->strip_axis = rs_int(&bg, 2);
		s->strip_w = rs_uniform(&bg, 15, 30);
		s->strip_off = rs_uniform(&bg, 0, s->strip_w);
		s->node_gap = rs_uniform(&bg, 60, 140);
		/* the seams' darkness: from barely seen to drawn as with a pencil */
		s->seam = rs_uniform(&bg, 0.05, 0.3);
	}
	s->light_period = rs_uniform(&g, 30, 60);
	s->light_phase = rs_uniform(&g, 0, 2 * M_PI);
	s->band_period = rs_uniform(&g, 60, 120);
	s->band_phase = rs_uniform(&g, 0, 1);
	/* a larger board: where the game's area is on it, and the paper's
	 * window (drawn from their own stream: the other scenes stay as they were) */
	rs_rng pg = {rs_hash(p->seed, 0x9a9e7)};
	int ox = rs_int(&pg, s->L - s->N + 1), oy = rs_int(&pg, s->L - s->N + 1);
	s->offu = ((s->L - 1) * 0.5 - ox - (s->N - 1) * 0.5) * RS_CELL_X;
	s->offv = ((s->L - 1) * 0.5 - oy - (s->N - 1) * 0.5) * RS_CELL_Y;
	for (int i = 0; i < 4; i++)
		s->win[i] = rs_uniform(&pg, 0.3, 0.6) * (i < 2 ? RS_CELL_X : RS_CELL_Y);
	double pw = rs_uniform(&pg, 236, 250);
	s->paper_rgb[0] = pw;
	s->paper_rgb[1] = pw * rs_uniform(&pg, 0.98, 1.0);
	s->paper_rgb[2] = pw * rs_uniform(&pg, 0.94, 1.0);
	if (p->clutter) {
		/* from their own stream too: two bowls beside the board, left
		 * and right, each with its lid near it, and loose stones near
		 * the board's edges */
		rs_rng cg = {rs_hash(p->seed, 0xc1a77e5)};
		double bu = (s->L - 1) * 0.5 * RS_CELL_X + RS_MARGIN, bv = (s->L - 1) * 0.5 * RS_CELL_Y + RS_MARGIN;
		double br = rs_uniform(&cg, 0.55, 0.95);
		s->bowl_rgb[0] = 200 * br;
		s->bowl_rgb[1] = 200 * br * rs_uniform(&cg, 0.6, 0.75);
		s->bowl_rgb[2] = 200 * br * rs_uniform(&cg, 0.35, 0.5);
		int first = rs_int(&cg, 2) + 1;
		for (int side = 0; side < 2; side++) {
			double sx = side ? 1 : -1, r = rs_uniform(&cg, 55, 70);
			struct rs_item *b = &s->items[s->nitems++];
			b->kind = 0, b->r = r, b->color = side ? 3 - first : first;
			b->x = sx * (bu + rs_uniform(&cg, 10, 60) + r);
			b->y = rs_uniform(&cg, -0.5, 0.5) * bv;
			b->rot = rs_uniform(&cg, 0, M_PI), b->tone = rs_uniform(&cg, 0.9, 1.1);
			struct rs_item *l = &s->items[s->nitems++];
			l->kind = 1, l->r = r + 8, l->color = 3 - b->color;
			l->x = sx * (bu + rs_uniform(&cg, 10, 60) + l->r);
			l->y = b->y + (b->y > 0 ? -1 : 1) * (r + l->r + rs_uniform(&cg, 5, 30));
			l->rot = rs_uniform(&cg, 0, 2 * M_PI), l->tone = rs_uniform(&cg, 0.9, 1.1);
		}
		int loose = 2 + rs_int(&cg, 6);
		for (int k = 0; k < loose; k++) {
			struct rs_item *st = &s->items[s->nitems++];
			st->kind = 2, st->r = RS_STONE_R, st->color = 1 + rs_int(&cg, 2), st->tone = rs_uniform(&cg, 0.94, 1.06);
			/* beside one of the four edges, 1 to 40 mm beyond it */
			int e = rs_int(&cg, 4);
			double along = rs_uniform(&cg, -0.9, 0.9), out = rs_uniform(&cg, 1, 40) + RS_STONE_R;
			st->x = e < 2 ? (e ? 1 : -1) * (bu + out) : along * bu;
			st->y = e < 2 ? along * bv : (e == 2 ? 1 : -1) * (bv + out);
		}
	}
	rs_rng ng = {rs_hash(p->seed, 0x7015e)};
	for (size_t i = 0; i < NOISE_N; i++) {
		double v = rs_gauss(&ng) * p->noise;
		s->noise[i] = (int8_t)(v < -127 ? -127 : v > 127 ? 127 : lrint(v));
	}
	memcpy(s->noise + NOISE_N, s->noise, (size_t)s->W * 3);
	setup_camera(s);
	compute_map(s);
	render_all(s);
	return s;
}

void rs_scene_free(rs_scene *s)
{
	if (!s)
		return;
	free(s->map);
	free(s->base);
	free(s->still);
	free(s->noise);
	free(s);
}

/* ---- the hand */

typedef struct shape {
	double a0, l0, a1, l1, r; /* capsule in hand coordinates: along, lateral (mm) */
	int part;                 /* 0 skin, 1 sleeve */
} shape;

/* Back to front. Along: towards the fingertips, 0 at the point they cover. */
static const shape HAND[] = {
	{-100, 0, -950, 0, 37, 0},   /* forearm */
	{-280, 0, -950, 0, 47, 1},   /* sleeve */
	{-58, -2, -100, 0, 41, 0},   /* palm */
	{-36, -36, -70, -29, 7.5, 0}, /* little finger */
	{-18, -25, -62, -17, 8.5, 0}, /* ring finger */
	{-2, -11, -58, -6, 9.0, 0},  /* middle finger */
	{10, 4, -50, 12, 8.5, 0},    /* index finger */
	{4, 19, -52, 40, 10.0, 0},   /* thumb */
};
#define NSHAPE ((int)(sizeof HAND / sizeof HAND[0]))
#define SHADOW_X 30.0
#define SHADOW_Y (-34.0)

static double capsule(const shape *c, double a, double l)
{
	double pa = a - c->a0, pl = l - c->l0, ba = c->a1 - c->a0, bl = c->l1 - c->l0;
	double t = clamp01((pa * ba + pl * bl) / (ba * ba + bl * bl));
	double da = pa - ba * t, dl = pl - bl * t;
	return sqrt(da * da + dl * dl) - c->r;
}

static void hand_local(const rs_hand *h, double X, double Y, double *a, double *l)
{
	double x = X - h->tx, y = Y - h->ty;
	*a = x * h->ax + y * h->ay;
	*l = x * -h->ay + y * h->ax;
}

static double union_sdf(double a, double l)
{
	if (a > 60 || fabs(l) > 110)
		return 1e9;
	double d = 1e9;
	for (int k = 0; k < NSHAPE; k++)
		if (HAND[k].part == 0 || a < -200)
			d = fmin(d, capsule(&HAND[k], a, l));
	return d;
}

static double shadow_at(const rs_hand *h, double X, double Y)
{
	double a, l;
	hand_local(h, X - SHADOW_X, Y - SHADOW_Y, &a, &l);
	double d = union_sdf(a, l);
	return d > 18 ? 0 : 0.42 * (1 - smoothstep(-12, 18, d));
}

/* Draws the hand at one pixel (c: RGB as doubles); returns whether it drew. */
static bool hand_pixel(const rs_scene *s, const rs_hand *h, double X, double Y, double c[3])
{
	bool drew = false;
	double sh = shadow_at(h, X, Y);
	if (sh > 0) {
		for (int k = 0; k < 3; k++)
			c[k] *= 1 - sh;
		drew = true;
	}
	double a, l;
	hand_local(h, X, Y, &a, &l);
	if (a > 30 || fabs(l) > 60)
		return drew;
	for (int k = 0; k < NSHAPE; k++) {
		const shape *sp = &HAND[k];
		if (a > -80 && k < 2)
			continue;
		if (a < -160 && k >= 2)
			break;
		double d = capsule(sp, a, l);
		double al = clamp01(0.5 - d / s->pxmm);
		if (al <= 0)
			continue;
		double rim = clamp01(-d / sp->r);
		double shade = 0.55 + 0.5 * sqrt(rim);
		const unsigned char *col = sp->part ? h->sleeve : h->skin;
		for (int i = 0; i < 3; i++)
			c[i] += (col[i] * shade - c[i]) * al;
		drew = true;
	}
	return drew;
}

double rs_scene_border_extent(const rs_scene *s, double dx, double dy)
{
	double m = -1e18;
	for (int py = 0; py < s->H; py++)
		for (int px = 0; px < s->W; px += (py == 0 || py == s->H - 1) ? 1 : s->W - 1) {
			const float *w = s->map + 2 * ((size_t)py * s->W + px);
			m = fmax(m, dx * w[0] + dy * w[1]);
		}
	return m;
}

bool rs_scene_hand_visible(const rs_scene *s, const rs_hand *h)
{
	for (int py = 0; py < s->H; py++)
		for (int px = 0; px < s->W; px += (py == 0 || py == s->H - 1) ? 1 : s->W - 1) {
			const float *w = s->map + 2 * ((size_t)py * s->W + px);
			double c[3] = {100, 100, 100};
			if (hand_pixel(s, h, w[0], w[1], c))
				return true;
		}
	return false;
}

/* The hand's box in pixels: its rectangle (and its shadow's) clipped to the
 * picture's world box, projected. */
static void hand_box(const rs_scene *s, const rs_hand *h, int r[4])
{
	double xmin = 1e9, xmax = -1e9, ymin = 1e9, ymax = -1e9;
	for (int sh = 0; sh < 2; sh++) {
		double ox = sh ? SHADOW_X : 0, oy = sh ? SHADOW_Y : 0;
		double A[2] = {-1000, 80}, Lt[2] = {-80, 80};
		/* polygon: the rectangle in world coordinates */
		double poly[16][2], tmp[16][2];
		int n = 4;
		for (int k = 0; k < 4; k++) {
			double a = A[k == 1 || k == 2], l = Lt[k >= 2];
			poly[k][0] = h->tx + a * h->ax + l * -h->ay + ox;
			poly[k][1] = h->ty + a * h->ay + l * h->ax + oy;
		}
		/* clip to the world box (Sutherland-Hodgman, four sides) */
		for (int side = 0; side < 4 && n > 0; side++) {
			int m = 0;
			for (int k = 0; k < n; k++) {
				double *p = poly[k], *q = poly[(k + 1) % n];
				double lim = side == 0 ? s->wxmin : side == 1 ? s->wxmax : side == 2 ? s->wymin : s->wymax;
				int ax = side < 2 ? 0 : 1;
				double sg = side % 2 ? -1 : 1;
				bool pin = sg * (p[ax] - lim) >= 0, qin = sg * (q[ax] - lim) >= 0;
				if (pin) {
					tmp[m][0] = p[0], tmp[m][1] = p[1], m++;
				}
				if (pin != qin) {
					double t = (lim - p[ax]) / (q[ax] - p[ax]);
					tmp[m][0] = p[0] + (q[0] - p[0]) * t;
					tmp[m][1] = p[1] + (q[1] - p[1]) * t;
					m++;
				}
			}
			n = m;
			memcpy(poly, tmp, sizeof(double) * 2 * (size_t)m);
		}
		for (int k = 0; k < n; k++) {
			double *p = poly[k], *q = poly[(k + 1) % n];
			for (int j = 0; j < 8; j++) {
				double px, py, t = j / 8.0;
				rs_scene_project(s, p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, &px, &py);
				xmin = fmin(xmin, px), xmax = fmax(xmax, px), ymin = fmin(ymin, py), ymax = fmax(ymax, py);
			}
		}
	}
	r[0] = xmin < 0 ? 0 : (int)xmin - 3;
	r[1] = ymin < 0 ? 0 : (int)ymin - 3;
	r[2] = xmax > s->W ? s->W : (int)xmax + 4;
	r[3] = ymax > s->H ? s->H : (int)ymax + 4;
	r[0] = r[0] < 0 ? 0 : r[0];
	r[1] = r[1] < 0 ? 0 : r[1];
	r[2] = r[2] > s->W ? s->W : r[2];
	r[3] = r[3] > s->H ? s->H : r[3];
}

void rs_scene_frame(rs_scene *s, const rs_hand *h, long f, double t, gv_image *out)
{
	size_t row = (size_t)s->W * 3;
	for (int y = 0; y < s->H; y++)
		memcpy(out->data + (size_t)y * out->stride, s->still + (size_t)y * row, row);
	if (h) {
		int r[4];
		hand_box(s, h, r);
		for (int py = r[1]; py < r[3]; py++)
			for (int px = r[0]; px < r[2]; px++) {
				const float *w = s->map + 2 * ((size_t)py * s->W + px);
				unsigned char *o = gv_px(out, px, py);
				double c[3] = {o[0], o[1], o[2]};
				if (hand_pixel(s, h, w[0], w[1], c))
					for (int k = 0; k < 3; k++)
						o[k] = to8(c[k]);
			}
	}
	/* a coloured light: each channel by its gain, before the sensor's
	 * noise */
	if (s->p.tint[0] > 0 || s->p.tint[1] > 0 || s->p.tint[2] > 0) {
		short tl[3][256];
		for (int k = 0; k < 3; k++)
			for (int v = 0; v < 256; v++) {
				long q = lrint(v * s->p.tint[k]);
				tl[k][v] = (short)(q > 255 ? 255 : q);
			}
		for (int y = 0; y < s->H; y++) {
			unsigned char *o = out->data + (size_t)y * out->stride;
			for (int x = 0; x < s->W; x++)
				for (int k = 0; k < 3; k++)
					o[3 * x + k] = (unsigned char)tl[k][o[3 * x + k]];
		}
	}
	/* light and noise in one pass */
	double glob = 1;
	if (s->p.light)
		glob = 1 + 0.15 * sin(2 * M_PI * t / s->light_period + s->light_phase);
	rs_rng g = {rs_hash(s->p.seed ^ 0xf4a3e, (uint64_t)f)};
	size_t off = rs_next(&g) & (NOISE_N - 1);
	bool noisy = s->p.noise > 0;
	double band_c = 0, band_w = 0.12 * s->H;
	if (s->p.light) {
		double ph = fmod(t / s->band_period + s->band_phase, 1.0);
		band_c = (ph * 2.0 - 0.5) * s->H; /* on the picture half of the time */
	}
	short lut[256];
	double last = -1;
	for (int y = 0; y < s->H; y++) {
		double fct = glob;
		if (s->p.light) {
			double z = (y - band_c) / band_w;
			fct *= 1 - 0.2 * exp(-z * z);
		}
		if (fct != last) {
			for (int v = 0; v < 256; v++)
				lut[v] = (short)lrint(v * fct);
			last = fct;
		}
		unsigned char *o = out->data + (size_t)y * out->stride;
		if (noisy) {
			const int8_t *nz = s->noise + ((off + (size_t)y * row) & (NOISE_N - 1));
			for (size_t i = 0; i < row; i++) {
				int v = lut[o[i]] + nz[i];
				o[i] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
			}
		} else if (fct != 1) {
			for (size_t i = 0; i < row; i++) {
				int v = lut[o[i]];
				o[i] = (unsigned char)(v > 255 ? 255 : v);
			}
		}
	}
}
