/*
 * goref program: frames to a refereed game, the loop that `goref replay`
 * and `goref eval-video` share (and `goref watch` will).
 *
 * source (device/source.h) -> frame pipeline (vision/pipeline.h) ->
 * observation log line (written to `log` if given, flushed) -> referee
 * (rules/referee.h) -> events (to the callback).
 *
 * Built only with vision/ (GOREF_HAVE_VISION).
 */
#ifndef GOREF_DEVICE_LOOP_H
#define GOREF_DEVICE_LOOP_H

#include <stdbool.h>
#include <stdio.h>

#include "pipeline.h"
#include "referee.h"
#include "source.h"

typedef struct gd_loop_opts {
	gv_pipeline_opts pipe;
	gr_referee_options ref;
	bool setup;               /* the stones of the first observation are setup stones (handicap) */
	int rotate;               /* quarter turns clockwise (0..3) that bring the view as seen to the
	                             players' view (Black's side at the bottom): a camera on White's side
	                             needs 2 */
	FILE *log;                /* the observation log is written here as it is made (or NULL) */
	gr_event_cb on_event;     /* each referee event (or NULL) */
	void *ud;
	/* progress, called about once a second of CPU time (or NULL) */
	void (*on_progress)(long frames, long total, int moves, void *ud);
} gd_loop_opts;

typedef struct gd_loop_stats {
	long frames;
	long observations;
	double read_ms;        /* CPU time reading frames (decoding files, converting raw frames) */
	double pipe_ms;        /* CPU time in the frame pipeline */
	double pipe_max_ms;    /* the slowest frame in the pipeline */
	double ref_ms;         /* CPU time in the referee */
	int width, height;
	double last_t;         /* the time of the last frame */
	gv_pipeline_stats pipe;
} gd_loop_stats;

void gd_loop_opts_init(gd_loop_opts *o);

/* Runs src to its end. *ref_out receives the referee (free it with
 * gr_referee_free; it holds the record), or NULL when no board was ever
 * seen. Returns 0, or an error code with a message in err: a frame that
 * cannot be read, a pipeline failure, GV_ENOMEM. What was refereed before
 * an error is kept in *ref_out. */
int gd_loop_run(gd_source *src, const gd_loop_opts *o, gr_referee **ref_out, gd_loop_stats *st,
                  char *err, size_t cap);

/* CPU time of the calling thread, in milliseconds. */
double gd_cpu_ms(void);

#endif
