/* goref program: frames to a refereed game. See loop.h. */
#ifdef GOREF_HAVE_VISION
#define _POSIX_C_SOURCE 200809L
#include "loop.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cvwrap.h"
#include "memory.h"
#include "undistort.h"
#include "obslog.h"
#include "stop.h"
#include "withhold.h"

/* The calling thread's CPU time in milliseconds. */
static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void gd_loop_opts_init(gd_loop_opts *o)
{
	memset(o, 0, sizeof *o);
	gv_pipeline_opts_init(&o->pipe);
	gr_referee_options_init(&o->ref);
}

#define LINE_CAP 8192

/* A position withheld while points of it lie beyond the frame (withhold)
 * goes out after this many seconds at most, seen or not: a camera that
 * keeps part of the board out of the frame must not stop the game. The
 * frame pipeline's own search for the grid by the clock (a camera that
 * drifts back) comes every 15 s. */
#define GD_WITHHOLD_MAX_S 15.0

struct gd_loop {
	gd_loop_opts o;
	gv_pipeline *pipe;
	gr_referee *ref;
	gv_observation obs;
	/* an observation withheld (see withhold below): its points beyond the
	 * frame not seen since */
	gv_observation pend;
	bool has_pend;
	unsigned char last[19 * 19]; /* the last position refereed (the players' view) */
	int last_size;               /* its size; 0 before the first */
	uint64_t *seen;              /* a hash of every position refereed (seen_before) */
	size_t nseen, capseen;
	gd_loop_stats st;
	double offset;
	gv_undistorter *und; /* with o.undistort, made at the first frame */
	gv_image flat;       /* the undistorted frame */
	const gv_image *view; /* the last frame read */
	char line[LINE_CAP];
};

int gd_loop_new(gd_loop **out, const gd_loop_opts *o, char *err, size_t cap)
{
	*out = NULL;
	gd_loop *l = calloc(1, sizeof *l);
	if (!l) {
		snprintf(err, cap, "out of memory");
		return GV_ENOMEM;
	}
	l->o = *o;
	int rc = gv_pipeline_new(&l->pipe, &o->pipe);
	if (rc) {
		snprintf(err, cap, rc == GV_ENOMEM ? "out of memory" : "bad pipeline options");
		free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void gd_loop_free(gd_loop *l)
{
	if (!l)
		return;
	gv_pipeline_free(l->pipe);
	gr_referee_free(l->ref);
	gv_undistorter_free(l->und);
	gv_image_free(&l->flat);
	free(l->seen);
	free(l);
}

void gd_loop_set_log(gd_loop *l, FILE *f)
{
	l->o.log = f;
}

void gd_loop_set_offset(gd_loop *l, double seconds)
{
	l->offset = seconds;
}

int gd_loop_set_corners(gd_loop *l, const double corners[8], char *err, size_t cap)
{
	gv_pipeline_opts po = l->o.pipe;
	po.has_corners = true;
	memcpy(po.corners, corners, sizeof po.corners);
	gv_pipeline *np = NULL;
	int rc = gv_pipeline_new(&np, &po);
	if (rc) {
		snprintf(err, cap, rc == GV_ENOMEM ? "out of memory" : "bad corners");
		return rc;
	}
	gv_pipeline_free(l->pipe);
	l->pipe = np;
	l->o.pipe = po;
	return 0;
}

const gv_image *gd_loop_view(const gd_loop *l)
{
	return l->view;
}

gr_referee *gd_loop_referee(const gd_loop *l)
{
	return l->ref;
}

const gd_loop_stats *gd_loop_get_stats(gd_loop *l)
{
	gv_pipeline_get_stats(l->pipe, &l->st.pipe);
	return &l->st;
}

/* Turns the cells a quarter turn clockwise q times. */
static void rotate_cells(unsigned char *cells, int n, int q)
{
	unsigned char tmp[19 * 19];
	for (; q > 0; q--) {
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++)
				tmp[x * n + (n - 1 - y)] = cells[y * n + x];
		memcpy(cells, tmp, (size_t)n * (size_t)n);
	}
}

/* Appends text to the log and, with sync, puts it on the disk. */
static int log_text(gd_loop *l, const char *text, char *err, size_t cap)
{
	if (!l->o.log)
		return 0;
	if (l->o.log_max > 0) {
		long at = ftell(l->o.log);
		if (at >= 0 && (unsigned long)at + strlen(text) > (unsigned long)l->o.log_max) {
			snprintf(err, cap, "the log is full: %ld bytes, and no more than %ld are kept (start a new game)", at,
			         l->o.log_max);
			return GV_EWRITE;
		}
	}
	if (fputs(text, l->o.log) == EOF || fflush(l->o.log) != 0 ||
	    (l->o.sync && fsync(fileno(l->o.log)) != 0 && errno != EINVAL)) {
		snprintf(err, cap, "cannot write the log: %s", strerror(errno));
		return GV_EWRITE;
	}
	return 0;
}

/* Logs the entry of n bytes just written into l->line. */
static int log_entry(gd_loop *l, size_t n, char *err, size_t cap)
{
	if (n >= LINE_CAP) {
		snprintf(err, cap, "internal: a log entry too long");
		return GV_EINVAL;
	}
	return log_text(l, l->line, err, cap);
}

/* FNV-1a over a position's cells and its size. */
static uint64_t position_hash(const unsigned char *cells, int size)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)size;
	for (int k = 0; k < size * size; k++) {
		h ^= cells[k];
		h *= 1099511628211ULL;
	}
	return h;
}

/* Whether the position was refereed before (a stone lifted and put back,
 * a game that came back to a position). */
static bool seen_before(const gd_loop *l, const unsigned char *cells, int size)
{
	uint64_t h = position_hash(cells, size);
	for (size_t i = 0; i < l->nseen; i++)
		if (l->seen[i] == h)
			return true;
	return false;
}

int gd_loop_observe(gd_loop *l, double t, int size, const unsigned char *cells, bool log, char *err, size_t cap)
{
	t += l->offset;
	if (log) {
		int rc = log_entry(l, gr_obslog_write_position(t, size, cells, l->line, LINE_CAP), err, cap);
		if (rc)
			return rc;
	}
	double t0 = cpu_ms();
	if (!l->ref) {
		if (gr_referee_new(&l->ref, size, &l->o.ref, l->o.on_event, l->o.ud) != 0) {
			snprintf(err, cap, "out of memory");
			return GV_ENOMEM;
		}
	}
	int rc = gr_referee_observe(l->ref, t, cells);
	l->st.ref_ms += cpu_ms() - t0;
	memcpy(l->last, cells, (size_t)size * (size_t)size);
	l->last_size = size;
	if (l->nseen == l->capseen) {
		size_t nc = l->capseen ? 2 * l->capseen : 256;
		uint64_t *ns = realloc(l->seen, nc * sizeof *ns);
		if (ns) {
			l->seen = ns;
			l->capseen = nc;
		}
	}
	if (l->nseen < l->capseen) /* out of memory: the hash is left out */
		l->seen[l->nseen++] = position_hash(cells, size);
	l->st.observations++;
	if (t > l->st.last_t)
		l->st.last_t = t;
	if (rc) {
		snprintf(err, cap, "the referee refused the position at %.3f s (%d)", t, rc);
		return GV_EINVAL;
	}
	return 0;
}

int gd_loop_command(gd_loop *l, double t, gr_command cmd, gr_color color, bool log, char *err, size_t cap)
{
	/* a withheld observation came before the command */
	int fr = gd_loop_flush(l, err, cap);
	if (fr)
		return fr;
	t += l->offset;
	if (l->st.last_t > t)
		t = l->st.last_t; /* a command between two frames: never back in time */
	if (!l->ref) { /* refused before the journal: a resume must not meet it */
		snprintf(err, cap, "no board seen yet: '%s' has no game to go to", gr_command_name(cmd));
		return GV_EINVAL;
	}
	if (log) {
		int rc = log_entry(l, gr_obslog_write_command(t, cmd, color, l->line, LINE_CAP), err, cap);
		if (rc)
			return rc;
	}
	l->st.last_t = t;
	if (gr_referee_command(l->ref, t, cmd, color) != 0) {
		snprintf(err, cap, "the referee refused '%s' at %.3f s", gr_command_name(cmd), t);
		return GV_EINVAL;
	}
	return 0;
}

/* The observation obs logged (with notes on the points it held) and
 * refereed. */
static int emit(gd_loop *l, const gv_observation *obs, char *err, size_t cap)
{
	int rc;
	if (l->o.log) {
		char note[256] = "";
		int other = obs->nheld - obs->noutside;
		if (other > 0)
			snprintf(note, sizeof note, "# %d point%s hidden or unsure: kept as last seen\n", other,
			         other == 1 ? "" : "s");
		if (obs->noutside)
			snprintf(note + strlen(note), sizeof note - strlen(note),
			         "# %d point%s beyond the frame: kept as last seen\n", obs->noutside,
			         obs->noutside == 1 ? "" : "s");
		if (obs->relocated)
			snprintf(note + strlen(note), sizeof note - strlen(note), "# the board moved: its grid was found again\n");
		if (note[0] && (rc = log_text(l, note, err, cap)) != 0)
			return rc;
	}
	return gd_loop_observe(l, obs->t, obs->size, obs->cells, true, err, cap);
}

/* The withheld observation against the next one, obs (withhold.h):
 * refereed now (*made 1), dropped (the log says why), or kept back with
 * obs (*made -1). */
static int settle(gd_loop *l, const gv_observation *obs, int *made, char *err, size_t cap)
{
	const gv_observation *p = &l->pend;
	int changed = 0;
	gd_withheld_fate fate =
	    gd_withheld_settle(p, obs, l->ref ? gr_referee_board(l->ref) : NULL,
	                       l->ref ? gr_referee_to_move(l->ref) : GR_EMPTY, seen_before(l, p->cells, p->size),
	                       GD_WITHHOLD_MAX_S, &changed);
	*made = 0;
	if (fate == GD_WITHHELD_WAIT) {
		*made = -1;
		return 0;
	}
	if (fate == GD_WITHHELD_DROP) {
		l->has_pend = false;
		if (l->o.log) {
			char note[200];
			snprintf(note, sizeof note,
			         "# the position at %.3f s not refereed: %d point%s beyond the frame then came back with a move "
			         "made there first\n",
			         p->t + l->offset, changed, changed == 1 ? "" : "s");
			return log_text(l, note, err, cap);
		}
		return 0;
	}
	*made = 1;
	return gd_loop_flush(l, err, cap);
}

int gd_loop_frame(gd_loop *l, const gv_image *frame, double t, char *err, size_t cap)
{
	if (l->o.prepare_memory && l->st.frames == 0) {
		double t0 = cpu_ms();
		gd_memory_prepare(gd_memory_for_frame(frame->width, frame->height));
		l->st.memory_ms += cpu_ms() - t0;
	}
	double t1 = cpu_ms();
	if (l->o.undistort) {
		int rc = 0;
		if (!l->und) {
			rc = gv_undistorter_new(&l->und, l->o.K, l->o.dist, l->o.ndist, frame->width, frame->height, err, cap);
			if (!rc)
				rc = gv_image_alloc(&l->flat, frame->width, frame->height, 3);
		}
		if (!rc)
			rc = gv_undistorter_apply(l->und, frame, &l->flat, err, cap);
		if (rc)
			return rc;
		frame = &l->flat;
	}
	l->view = frame;
	l->st.frames++;
	l->st.width = frame->width;
	l->st.height = frame->height;
	int rc = gv_pipeline_feed(l->pipe, frame, t, &l->obs, err, cap);
	double t2 = cpu_ms();
	l->st.pipe_ms += t2 - t1;
	if (t2 - t1 > l->st.pipe_max_ms)
		l->st.pipe_max_ms = t2 - t1;
	if (t + l->offset > l->st.last_t)
		l->st.last_t = t + l->offset;
	if (rc != 1)
		return rc;
	gv_observation *obs = &l->obs;
	if (l->o.wait_empty && !l->ref) {
		for (int i = 0; i < obs->size * obs->size; i++)
			if (obs->cells[i] != GR_EMPTY)
				return 0; /* the last game's stones still on the board */
	}
	rotate_cells(obs->cells, obs->size, l->o.rotate & 3);
	rotate_cells(obs->held, obs->size, l->o.rotate & 3);
	rotate_cells(obs->outside, obs->size, l->o.rotate & 3);
	int made = 0;
	if (l->has_pend) {
		rc = settle(l, obs, &made, err, cap);
		if (rc)
			return rc;
		if (made < 0)
			return 0; /* the withheld one's repeat: kept back with it */
	}
	if (gd_withhold(obs, l->last, l->last_size)) {
		l->pend = *obs;
		l->has_pend = true;
		return made > 0;
	}
	rc = emit(l, obs, err, cap);
	return rc ? rc : 1;
}

int gd_loop_flush(gd_loop *l, char *err, size_t cap)
{
	if (!l->has_pend)
		return 0;
	l->has_pend = false;
	return emit(l, &l->pend, err, cap);
}

int gd_loop_run(gd_source *src, const gd_loop_opts *o, gr_referee **ref_out, gd_loop_stats *st,
                char *err, size_t cap)
{
	memset(st, 0, sizeof *st);
	*ref_out = NULL;
	gd_loop *l = NULL;
	int rc = gd_loop_new(&l, o, err, cap);
	if (rc)
		return rc;
	long total = gd_source_count(src);
	double last_progress = cpu_ms();
	double read_ms = 0;
	for (;;) {
		gv_image *frame = NULL;
		double t = 0;
		double t0 = cpu_ms();
		if (gd_stop_requested()) { /* a signal (stop.h): end here, as at the input's end */
			rc = 0;
			break;
		}
		rc = gd_source_next(src, &frame, &t, err, cap);
		read_ms += cpu_ms() - t0;
		if (rc <= 0)
			break;
		rc = gd_loop_frame(l, frame, t, err, cap);
		if (rc < 0)
			break;
		if (o->on_progress && cpu_ms() - last_progress >= 1000) {
			last_progress = cpu_ms();
			o->on_progress(l->st.frames, total, l->ref ? gr_record_move_count(gr_referee_record(l->ref)) : 0, o->ud);
		}
	}
	if (rc >= 0) { /* the input's end, or a stop: nothing withheld is lost */
		char e2[256];
		int fr = gd_loop_flush(l, e2, sizeof e2);
		if (fr) {
			snprintf(err, cap, "%s", e2);
			rc = fr;
		}
	}
	*st = *gd_loop_get_stats(l);
	st->read_ms = read_ms;
	*ref_out = l->ref;
	l->ref = NULL;
	gd_loop_free(l);
	return rc < 0 ? rc : 0;
}
#endif
