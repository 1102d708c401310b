/*
 * goref-render: the timeline (hands coming and going, still periods) and
 * the output files (see render.h).
 */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cvwrap.h"
#include "obslog.h"
#include "png.h"
#include "sgf.h"

typedef struct frame {
	bool hand;
	rs_hand h;
	int act0, nact; /* acts applied before this frame is drawn (indexes into acts[]) */
	bool bump;
} frame;

typedef struct timeline {
	frame *f;
	int n, cap;
	int *acts; /* plan act indexes, in order */
	int nacts, capacts;
	double *step_t; /* per step: the time of its observation or command */
	double start_t;
	bool oom;
} timeline;

static frame *new_frame(timeline *t)
{
	if (t->n == t->cap) {
		int nc = t->cap ? t->cap * 2 : 1024;
		frame *g = realloc(t->f, sizeof *g * (size_t)nc);
		if (!g) {
			t->oom = true;
			return NULL;
		}
		t->f = g;
		t->cap = nc;
	}
	frame *fr = &t->f[t->n++];
	memset(fr, 0, sizeof *fr);
	fr->act0 = t->nacts;
	return fr;
}

static void frame_act(timeline *t, frame *fr, int act)
{
	if (t->nacts == t->capacts) {
		int nc = t->capacts ? t->capacts * 2 : 1024;
		int *g = realloc(t->acts, sizeof *g * (size_t)nc);
		if (!g) {
			t->oom = true;
			return;
		}
		t->acts = g;
		t->capacts = nc;
	}
	if (fr->nact == 0)
		fr->act0 = t->nacts;
	t->acts[t->nacts++] = act;
	fr->nact++;
}

static int frames_for(rs_rng *g, double fps, double lo, double hi, int min)
{
	int n = (int)lround(rs_uniform(g, lo, hi) * fps);
	return n < min ? min : n;
}

typedef struct who_style {
	double ox, oy; /* the direction the hand comes from (out of the picture) */
	unsigned char skin[3], sleeve[3];
} who_style;

static void hand_at(rs_hand *h, const who_style *w, double ax, double ay, double x, double y)
{
	h->tx = x;
	h->ty = y;
	h->ax = ax;
	h->ay = ay;
	memcpy(h->skin, w->skin, 3);
	memcpy(h->sleeve, w->sleeve, 3);
}

static int build_timeline(timeline *t, rs_scene *sc, const rr_options *o, const rp_plan *p)
{
	double fps = o->fps;
	rs_rng g = {rs_hash(o->scene.seed, 0x7133)};
	static const unsigned char skins[][3] = {
		{234, 192, 160}, {222, 168, 128}, {196, 142, 104}, {168, 116, 82}, {118, 80, 56}, {240, 204, 178},
	};
	static const unsigned char sleeves[][3] = {
		{38, 48, 82}, {92, 92, 98}, {140, 32, 38}, {32, 72, 52}, {205, 205, 210}, {62, 42, 30},
	};
	who_style ws[4];
	int s0 = rs_int(&g, 6), s1 = (s0 + 1 + rs_int(&g, 5)) % 6, s2 = (s0 + 3) % 6;
	int v0 = rs_int(&g, 6), v1 = (v0 + 1 + rs_int(&g, 5)) % 6;
	const double dirs[4][2] = {{0, 0}, {0, -1}, {0, 1}, {1, 0}};
	const int sk[4] = {0, s0, s1, s2 == s1 ? (s2 + 1) % 6 : s2}, sl[4] = {0, v0, v1, 0};
	for (int w = 1; w < 4; w++) {
		ws[w].ox = dirs[w][0];
		ws[w].oy = dirs[w][1];
		memcpy(ws[w].skin, skins[sk[w]], 3);
		memcpy(ws[w].sleeve, sleeves[sl[w]], 3);
	}
	double extent[4];
	for (int w = 1; w < 4; w++)
		extent[w] = rs_scene_border_extent(sc, ws[w].ox, ws[w].oy);

	/* the board still at the start */
	t->step_t = calloc((size_t)p->nsteps + 1, sizeof *t->step_t);
	if (!t->step_t)
		return -1;
	int n0 = frames_for(&g, fps, 1.0, 1.0, 3);
	for (int k = 0; k < n0; k++)
		new_frame(t);
	t->start_t = 0;
	bool bumped = false;
	for (int i = 0; i < p->nsteps && !t->oom; i++) {
		const rp_step *s = &p->steps[i];
		bool next_arbiter = i + 1 < p->nsteps && p->steps[i + 1].who == WHO_ARBITER;
		if (s->kind == STEP_PASS) {
			int np = frames_for(&g, fps, 0.8, 1.5, 6);
			int first = t->n;
			for (int k = 0; k < np; k++)
				new_frame(t);
			t->step_t[i] = (first + np / 2) / fps;
			if (s->bump && !bumped) {
				/* nobody near the board: a bump with no hand is not what
				 * happens; keep it for the next visit */
			}
			continue;
		}
		const who_style *w = &ws[s->who];
		double th = rs_uniform(&g, -0.25, 0.25);
		double ax = -w->ox * cos(th) + w->oy * sin(th), ay = -w->oy * cos(th) - w->ox * sin(th);
		/* the targets: the acts' points, or near the point it reaches for */
		double tx[RP_MAXPTS * 4], ty[RP_MAXPTS * 4];
		int nt = 0;
		for (int k = 0; k < s->nact && nt < RP_MAXPTS * 4; k++) {
			const rp_act *a = &p->acts[s->act0 + k];
			rs_scene_point_world(sc, a->x + a->du / RS_CELL_X, a->y + a->dv / RS_CELL_Y, &tx[nt], &ty[nt]);
			nt++;
		}
		if (!nt) {
			double x, y;
			rs_scene_point_world(sc, s->hx, s->hy, &x, &y);
			tx[0] = x + w->ox * 1.2 * RS_CELL_Y;
			ty[0] = y + w->oy * 1.2 * RS_CELL_Y;
			nt = 1;
		}
		if (o->hands) {
			/* out of sight: every part of the hand and its shadow beyond the
			 * picture's border on its side */
			double c = cos(th);
			double d0 = (extent[s->who] + 180 - (w->ox * tx[0] + w->oy * ty[0])) / c;
			double Ox = tx[0] - ax * d0, Oy = ty[0] - ay * d0;
			int ne = frames_for(&g, fps, 0.3, 0.5, 2);
			for (int k = 1; k <= ne; k++) {
				double e = 1 - (1 - (double)k / ne) * (1 - (double)k / ne);
				frame *fr = new_frame(t);
				if (!fr)
					return -1;
				fr->hand = true;
				hand_at(&fr->h, w, ax, ay, Ox + (tx[0] - Ox) * e, Oy + (ty[0] - Oy) * e);
				if (k == ne && s->nact)
					frame_act(t, fr, s->act0);
			}
			int nd = s->nact ? frames_for(&g, fps, 0.12, 0.2, 1) : frames_for(&g, fps, 0.3, 0.5, 2);
			for (int k = 0; k < nd; k++) {
				frame *fr = new_frame(t);
				if (!fr)
					return -1;
				fr->hand = true;
				hand_at(&fr->h, w, ax, ay, tx[0], ty[0]);
			}
			for (int j = 1; j < s->nact; j++) {
				int nm = frames_for(&g, fps, 0.1, 0.1, 1);
				for (int k = 1; k <= nm; k++) {
					double e = (double)k / nm;
					frame *fr = new_frame(t);
					if (!fr)
						return -1;
					fr->hand = true;
					hand_at(&fr->h, w, ax, ay, tx[j - 1] + (tx[j] - tx[j - 1]) * e, ty[j - 1] + (ty[j] - ty[j - 1]) * e);
					if (k == nm)
						frame_act(t, fr, s->act0 + j);
				}
				int nw = frames_for(&g, fps, 0.1, 0.1, 1);
				for (int k = 0; k < nw; k++) {
					frame *fr = new_frame(t);
					if (!fr)
						return -1;
					fr->hand = true;
					hand_at(&fr->h, w, ax, ay, tx[j], ty[j]);
				}
			}
			double lx = tx[nt - 1], ly = ty[nt - 1];
			double d1 = (extent[s->who] + 180 - (w->ox * lx + w->oy * ly)) / c;
			double Lx = lx - ax * d1, Ly = ly - ay * d1;
			int nl = frames_for(&g, fps, 0.3, 0.5, 2);
			bool bump_now = (s->bump || (bumped == false && o->bump > 0 && s->move > o->bump)) && !bumped;
			for (int k = 1;; k++) {
				double e = k >= nl ? 1 + 0.2 * (k - nl) : ((double)k / nl) * ((double)k / nl);
				frame *fr = new_frame(t);
				if (!fr)
					return -1;
				if (bump_now && k == 1) {
					fr->bump = true;
					bumped = true;
					rs_scene_pose(sc, o->bump_deg, o->bump_dx, o->bump_dy, false);
				}
				hand_at(&fr->h, w, ax, ay, lx + (Lx - lx) * e, ly + (Ly - ly) * e);
				if (rs_scene_hand_visible(sc, &fr->h)) {
					fr->hand = true;
					continue;
				}
				break; /* the first frame with no hand: the board is still */
			}
		} else {
			/* no hands: the changes appear at once */
			frame *fr = new_frame(t);
			if (!fr)
				return -1;
			for (int k = 0; k < s->nact; k++)
				frame_act(t, fr, s->act0 + k);
			if ((s->bump || (o->bump > 0 && s->move > o->bump)) && !bumped) {
				fr->bump = true;
				bumped = true;
				rs_scene_pose(sc, o->bump_deg, o->bump_dx, o->bump_dy, false);
			}
		}
		t->step_t[i] = (t->n - 1) / fps;
		int ns = next_arbiter ? frames_for(&g, fps, 0.9, 1.2, 6) : frames_for(&g, fps, 0.6, 1.5, 6);
		for (int k = 1; k < ns; k++)
			new_frame(t);
	}
	rs_scene_pose(sc, 0, 0, 0, false);
	return t->oom ? -1 : 0;
}

static void point_name(int size, int pt, char *buf)
{
	static const char cols[] = "ABCDEFGHJKLMNOPQRST";
	if (pt < 0)
		snprintf(buf, 8, "pass");
	else
		snprintf(buf, 8, "%c%d", cols[pt % size], size - pt / size);
}

static void json_points(FILE *f, int size, const int *pts, int n)
{
	char nm[8];
	fprintf(f, ",\"points\":[");
	for (int i = 0; i < n; i++) {
		point_name(size, pts[i], nm);
		fprintf(f, "%s\"%s\"", i ? "," : "", nm);
	}
	fprintf(f, "]");
}

static void write_event(FILE *f, int size, double t, const rp_event *e)
{
	char nm[8], to[8];
	const char *col = e->color == 1 ? "B" : e->color == 2 ? "W" : NULL;
	fprintf(f, "{\"t\":%.3f,\"type\":\"%s\"", t, e->type == EV_RULING ? rp_inj_names[e->kind] : "move");
	if (col)
		fprintf(f, ",\"color\":\"%s\"", col);
	if (e->type == EV_MOVE || e->type == EV_PASS || e->pt >= 0) {
		point_name(size, e->type == EV_PASS ? -1 : e->pt, nm);
		fprintf(f, ",\"point\":\"%s\"", nm);
	}
	if (e->to >= 0) {
		point_name(size, e->to, to);
		fprintf(f, ",\"to\":\"%s\"", to);
	}
	if (e->npts)
		json_points(f, size, e->pts, e->npts);
	if (e->move)
		fprintf(f, ",\"move\":%d", e->move);
	fprintf(f, "}\n");
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "goref-render: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static void write_corners(FILE *f, const double c[8])
{
	fprintf(f, "\"corners\":[");
	for (int i = 0; i < 8; i++)
		fprintf(f, "%s%.2f", i ? "," : "", c[i]);
	fprintf(f, "]");
}

int rr_render(const rr_options *o, const gr_record *rec, const rp_plan *p)
{
	unsigned char *shifted = NULL; /* the drifting camera's picture */
	rs_scene *sc = rs_scene_new(&o->scene);
	if (!sc) {
		fprintf(stderr, "goref-render: out of memory\n");
		return 1;
	}
	timeline t;
	memset(&t, 0, sizeof t);
	int rc = 1;
	FILE *ft = NULL, *fj = NULL, *fl = NULL, *fraw = NULL;
	gv_image img = {0};
	char path[4200], err[256];
	double corners[8], bump_corners[8];
	rs_scene_corners(sc, corners);
	rs_scene_pose(sc, o->bump_deg, o->bump_dx, o->bump_dy, false);
	rs_scene_corners(sc, bump_corners);
	rs_scene_pose(sc, 0, 0, 0, false);
	if (build_timeline(&t, sc, o, p) != 0) {
		fprintf(stderr, "goref-render: out of memory\n");
		goto done;
	}
	if (gv_image_alloc(&img, o->scene.width, o->scene.height, 3) != 0) {
		fprintf(stderr, "goref-render: out of memory\n");
		goto done;
	}
	/* times.txt, truth.jsonl, truth.log */
	if (!(ft = open_out(o->outdir, "times.txt", path, sizeof path)) ||
	    !(fj = open_out(o->outdir, "truth.jsonl", path, sizeof path)) ||
	    !(fl = open_out(o->outdir, "truth.log", path, sizeof path)))
		goto done;
	const char *ext = o->png ? "png" : "jpg";
	fprintf(ft, "# frame seconds (goref-render, %.6g frames a second)\n", o->fps);
	for (int i = 0; i < t.n && !o->raw; i++)
		fprintf(ft, "%06d.%s %.3f\n", i, ext, i / o->fps);
	if (o->raw) {
		fclose(ft);
		ft = NULL;
		snprintf(path, sizeof path, "%s/times.txt", o->outdir);
		remove(path);
		if (!(fraw = open_out(o->outdir, "frames.rgb", path, sizeof path)))
			goto done;
	}
	fprintf(fj,
	        "{\"type\":\"render\",\"seed\":%llu,\"fps\":%.6g,\"width\":%d,\"height\":%d,\"moves\":%d,\"size\":%d,"
	        "\"frames\":%d,\"tilt\":%.3f,\"distortion\":%.5f,",
	        (unsigned long long)o->scene.seed, o->fps, o->scene.width, o->scene.height, p->nmoves, p->size, t.n,
	        o->scene.tilt_deg, o->scene.k1);
	write_corners(fj, corners);
	fprintf(fj, "}\n");
	fprintf(fl, "# goref-render: the ideal observation log (seed %llu, %d moves)\n",
	        (unsigned long long)o->scene.seed, p->nmoves);
	char buf[1024];
	gr_obslog_write_position(0, p->size, p->start, buf, sizeof buf);
	fputs(buf, fl);
	unsigned char cells[19 * 19];
	memcpy(cells, p->start, sizeof cells);
	bool bump_written = false;
	for (int i = 0; i < p->nsteps; i++) {
		const rp_step *s = &p->steps[i];
		double st = t.step_t[i];
		if (s->kind == STEP_PASS) {
			gr_obslog_write_command(st, GR_CMD_PASS, GR_EMPTY, buf, sizeof buf);
		} else {
			for (int k = 0; k < s->nact; k++) {
				const rp_act *a = &p->acts[s->act0 + k];
				cells[a->x + a->y * p->size] = a->kind == ACT_PLACE ? (unsigned char)a->color : 0;
			}
			gr_obslog_write_position(st, p->size, cells, buf, sizeof buf);
		}
		fputs(buf, fl);
		for (int k = 0; k < s->nev; k++)
			write_event(fj, p->size, st, &p->events[s->ev0 + k]);
		if (o->bump > 0 && !bump_written && s->kind == STEP_VISIT && s->move >= o->bump) {
			bump_written = true;
			fprintf(fj, "{\"t\":%.3f,\"type\":\"bump\",\"move\":%d,", st, s->move);
			write_corners(fj, bump_corners);
			fprintf(fj, "}\n");
		}
	}
	/* game.sgf: the moves rendered, each with its time */
	{
		gr_record *g = NULL;
		if (gr_record_new(&g, p->size) == 0) {
			gr_record_set_komi(g, gr_record_komi(rec));
			for (int i = 0; i < gr_record_setup_count(rec); i++) {
				gr_color c;
				int pt;
				gr_record_setup(rec, i, &c, &pt);
				gr_record_add_setup(g, c, pt);
			}
			for (int i = 0; i < p->nsteps; i++) {
				const rp_step *s = &p->steps[i];
				if (s->move > 0 && s->move > gr_record_move_count(g)) {
					const gr_move *m = gr_record_move(rec, s->move - 1);
					gr_record_add_move(g, m->color, m->pt, floor(t.step_t[i] * 1000 + 0.5) / 1000, NULL);
				}
			}
			char *text = NULL;
			size_t len = 0;
			if (gr_sgf_write(g, &text, &len) == 0) {
				FILE *fs = open_out(o->outdir, "game.sgf", path, sizeof path);
				if (fs) {
					fwrite(text, 1, len, fs);
					fclose(fs);
				}
				free(text);
			}
			gr_record_free(g);
		}
	}
	/* the frames; a wobbling camera's shift (in pixels) from its own stream */
	rs_rng dg = {rs_hash(o->scene.seed, 0xd71f7)};
	double sx = 0, sy = 0, fx = 0, fy = 0, tx = 0, ty = 0, next_t = 0, move_t = 0;
	shifted = o->drift > 0 ? malloc((size_t)img.stride * img.height) : NULL;
	if (o->drift > 0 && !shifted) {
		fprintf(stderr, "goref-render: out of memory\n");
		goto done;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < t.n; i++) {
		const frame *fr = &t.f[i];
		if (fr->bump)
			rs_scene_pose(sc, o->bump_deg, o->bump_dx, o->bump_dy, true);
		for (int k = 0; k < fr->nact; k++) {
			const rp_act *a = &p->acts[t.acts[fr->act0 + k]];
			rs_scene_set_stone(sc, a->x, a->y, a->kind == ACT_PLACE ? a->color : 0, a->du, a->dv);
		}
		if (shifted) {
			double now = i / o->fps;
			if (now >= next_t) {
				/* a new place, reached over 0.3 s */
				fx = sx, fy = sy;
				tx = rs_uniform(&dg, -o->drift, o->drift);
				ty = rs_uniform(&dg, -o->drift, o->drift);
				move_t = now;
				next_t = now + rs_uniform(&dg, 1, 3);
			}
			double a = fmin(1, (now - move_t) / 0.3);
			sx = fx + (tx - fx) * a;
			sy = fy + (ty - fy) * a;
		}
		if (o->last_only && i + 1 < t.n)
			continue;
		rs_scene_frame(sc, fr->hand ? &fr->h : NULL, i, i / o->fps, &img);
		if (shifted) {
			int ix = (int)lround(sx), iy = (int)lround(sy);
			for (int y = 0; y < img.height; y++) {
				int yy = y - iy < 0 ? 0 : y - iy >= img.height ? img.height - 1 : y - iy;
				for (int x = 0; x < img.width; x++) {
					int xx = x - ix < 0 ? 0 : x - ix >= img.width ? img.width - 1 : x - ix;
					memcpy(shifted + (size_t)y * img.stride + 3 * x, img.data + (size_t)yy * img.stride + 3 * xx, 3);
				}
			}
			for (int y = 0; y < img.height; y++)
				memcpy(img.data + (size_t)y * img.stride, shifted + (size_t)y * img.stride, (size_t)img.width * 3);
		}
		snprintf(path, sizeof path, "%s/%06d.%s", o->outdir, i, ext);
		int wr;
		if (o->raw) {
			size_t bytes = (size_t)img.width * 3 * (size_t)img.height;
			wr = fwrite(img.data, 1, bytes, fraw) == bytes ? 0 : GV_EWRITE;
			if (wr)
				snprintf(err, sizeof err, "%s", strerror(errno));
			snprintf(path, sizeof path, "%s/frames.rgb", o->outdir);
		} else {
			wr = o->png ? gv_png_write(path, &img, err, sizeof err) : gv_imwrite(path, &img, o->quality, err, sizeof err);
		}
		if (wr != 0) {
			fprintf(stderr, "\ngoref-render: cannot write %s: %s\n", path, err);
			goto done;
		}
		if (!o->quiet && (i % 25 == 0 || i == t.n - 1))
			fprintf(stderr, "\rgoref-render: %d / %d frames", i + 1, t.n);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!o->quiet) {
		double ms = ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6) / (t.n ? t.n : 1);
		fprintf(stderr, "\ngoref-render: %d frames, %.1f ms a frame\n", t.n, ms);
	}
	rc = 0;
done:
	if (fraw && fclose(fraw) != 0) {
		fprintf(stderr, "goref-render: cannot write frames.rgb: %s\n", strerror(errno));
		rc = 1;
	}
	if (ft)
		fclose(ft);
	if (fj)
		fclose(fj);
	if (fl)
		fclose(fl);
	gv_image_free(&img);
	free(shifted);
	free(t.f);
	free(t.acts);
	free(t.step_t);
	rs_scene_free(sc);
	return rc;
}
