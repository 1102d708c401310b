/* goref program: frames to a refereed game. See loop.h. */
#ifdef GOREF_HAVE_VISION
#include "loop.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "obslog.h"

double gd_cpu_ms(void)
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

/* Counts the moves the referee recorded, for progress. */
static int count_moves(const gr_referee *ref)
{
	if (!ref)
		return 0;
	const gr_record *rec = gr_referee_record(ref);
	return gr_record_move_count(rec);
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

int gd_loop_run(gd_source *src, const gd_loop_opts *o, gr_referee **ref_out, gd_loop_stats *st,
                  char *err, size_t cap)
{
	memset(st, 0, sizeof *st);
	*ref_out = NULL;
	gv_pipeline *pipe = NULL;
	int rc = gv_pipeline_new(&pipe, &o->pipe);
	if (rc) {
		snprintf(err, cap, rc == GV_ENOMEM ? "out of memory" : "bad pipeline options");
		return rc;
	}
	gv_observation *obs = malloc(sizeof *obs);
	char *line = malloc(8192);
	if (!obs || !line) {
		free(obs);
		free(line);
		gv_pipeline_free(pipe);
		snprintf(err, cap, "out of memory");
		return GV_ENOMEM;
	}
	gr_referee *ref = NULL;
	long total = gd_source_count(src);
	double last_progress = gd_cpu_ms();
	for (;;) {
		gv_image *frame = NULL;
		double t = 0;
		double t0 = gd_cpu_ms();
		rc = gd_source_next(src, &frame, &t, err, cap);
		double t1 = gd_cpu_ms();
		st->read_ms += t1 - t0;
		if (rc <= 0)
			break;
		st->frames++;
		st->last_t = t;
		st->width = frame->width;
		st->height = frame->height;
		rc = gv_pipeline_feed(pipe, frame, t, obs, err, cap);
		double t2 = gd_cpu_ms();
		st->pipe_ms += t2 - t1;
		if (t2 - t1 > st->pipe_max_ms)
			st->pipe_max_ms = t2 - t1;
		if (rc < 0)
			break;
		if (rc == 1) {
			st->observations++;
			rotate_cells(obs->cells, obs->size, o->rotate & 3);
			if (o->log) {
				size_t n = gr_obslog_write_position(obs->t, obs->size, obs->cells, line, 8192);
				if (n < 8192) {
					if (obs->nheld)
						fprintf(o->log, "# %d point%s hidden or unsure: kept as last seen\n", obs->nheld,
						        obs->nheld == 1 ? "" : "s");
					if (obs->relocated)
						fputs("# the board moved: its grid was found again\n", o->log);
					fputs(line, o->log);
					fflush(o->log);
				}
			}
			if (!ref) {
				rc = gr_referee_new(&ref, obs->size, &o->ref, o->on_event, o->ud);
				if (rc) {
					snprintf(err, cap, "out of memory");
					break;
				}
				if (o->setup) {
					const gr_board *b = gr_referee_board(ref);
					for (int y = 0; y < obs->size; y++)
						for (int x = 0; x < obs->size; x++) {
							gr_color c = (gr_color)obs->cells[y * obs->size + x];
							if (c != GR_EMPTY)
								gr_referee_setup(ref, c, gr_pt(b, x, y));
						}
				}
			}
			rc = gr_referee_observe(ref, obs->t, obs->cells);
			st->ref_ms += gd_cpu_ms() - t2;
			if (rc) {
				snprintf(err, cap, "the referee refused the observation at %.3f s (%d)", obs->t, rc);
				break;
			}
		}
		rc = 0;
		if (o->on_progress && gd_cpu_ms() - last_progress >= 1000) {
			last_progress = gd_cpu_ms();
			o->on_progress(st->frames, total, count_moves(ref), o->ud);
		}
	}
	gv_pipeline_get_stats(pipe, &st->pipe);
	gv_pipeline_free(pipe);
	free(obs);
	free(line);
	*ref_out = ref;
	return rc < 0 ? rc : 0;
}
#endif
