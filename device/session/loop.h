/*
 * goref program: frames to a refereed game, the loop that `goref replay`,
 * `goref eval-video` and `goref watch` share.
 *
 * source (device/source.h) -> frame pipeline (vision/pipeline.h) ->
 * observation -> log (written and, with sync, on the disk before anything
 * else happens) -> referee (rules/referee.h) -> events (to the callback).
 *
 * The log is an observation log (rules/obslog.h): positions in the players'
 * view and the operator's commands. Fed back through gd_loop_observe and
 * gd_loop_command (or `goref referee LOG`), it gives the same game: that is
 * how `goref watch` continues a game after a crash.
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
	gr_referee_options ref;   /* the referee's: komi, persist, repetition, setup (handicap) */
	int rotate;               /* quarter turns clockwise (0..3) that bring the view as seen to the
	                             players' view (Black's side at the bottom): a camera on White's side
	                             needs 2 */
	bool wait_empty;          /* no position is logged or refereed before one with no stone (a new
	                             game begun while the last one's stones are still on the board) */
	bool prepare_memory;      /* at the first frame, before it is read, the heap made ready for
	                             frames of its size (memory.h: changes the whole process's
	                             allocator; for the programs that run frames) */
	bool undistort;           /* undo the lens's distortion (K, dist) before the pipeline */
	double K[9];              /* camera matrix, row-major */
	double dist[5];
	int ndist;                /* 4 or 5 */
	FILE *log;                /* the observation log is appended here as it is made (or NULL) */
	bool sync;                /* flush the log to the disk (fsync) before the referee acts */
	long log_max;             /* the log may not grow past this many bytes (0: no bound):
	                           * an entry that would is refused (GV_EWRITE), nothing written */
	gr_event_cb on_event;     /* each referee event (or NULL) */
	void *ud;
	/* progress, called about once a second of CPU time by gd_loop_run (or NULL) */
	void (*on_progress)(long frames, long total, int moves, void *ud);
} gd_loop_opts;

typedef struct gd_loop_stats {
	long frames;
	long observations;
	double read_ms;        /* CPU time reading frames (decoding files, converting raw frames) */
	double pipe_ms;        /* CPU time in the frame pipeline */
	double pipe_max_ms;    /* the slowest frame in the pipeline */
	double ref_ms;         /* CPU time in the referee */
	double memory_ms;      /* CPU time making the heap ready (prepare_memory), not in pipe_ms */
	int width, height;
	double last_t;         /* the time of the last frame, observation or command */
	gv_pipeline_stats pipe;
} gd_loop_stats;

void gd_loop_opts_init(gd_loop_opts *o);

typedef struct gd_loop gd_loop;

/* A loop with the options o (copied; o->log and o->ud must outlive it).
 * Returns 0, GV_EINVAL (bad options) or GV_ENOMEM, with a message. */
int gd_loop_new(gd_loop **out, const gd_loop_opts *o, char *err, size_t cap);
void gd_loop_free(gd_loop *l);

/* Where the log goes from now on (NULL: nowhere); the caller keeps f. */
void gd_loop_set_log(gd_loop *l, FILE *f);

/* Times given to the loop are shifted by this many seconds (a game resumed
 * from its log goes on after the log's last time). */
void gd_loop_set_offset(gd_loop *l, double seconds);

/* One frame taken at t (before the offset): the pipeline, and when it
 * makes an observation, the log and the referee (a position that changed
 * while points of it lay beyond the frame waits for them to be seen
 * again: device/session/withhold.h, gd_loop_flush). Returns 1 when an
 * observation was logged and refereed, 0 when not, or an error (a
 * pipeline failure, GV_EWRITE when the log cannot be written,
 * GV_ENOMEM). */
int gd_loop_frame(gd_loop *l, const gv_image *frame, double t, char *err, size_t cap);

/* A position the loop withholds (a position that changed while points of
 * it lay beyond the frame: it waits for them to be seen again, at most
 * 15 s) logged and refereed now; at the input's end, before a count.
 * gd_loop_command and gd_loop_run do it themselves. 0 or an error as
 * gd_loop_frame. */
int gd_loop_flush(gd_loop *l, char *err, size_t cap);

/* A position in the players' view (already turned), or an operator's
 * command, at t (before the offset): logged (when log is true) then
 * refereed. Returns 0 or an error as gd_loop_frame. */
int gd_loop_observe(gd_loop *l, double t, int size, const unsigned char *cells, bool log, char *err, size_t cap);
int gd_loop_command(gd_loop *l, double t, gr_command cmd, gr_color color, bool log, char *err, size_t cap);

/* From the next frame on, the grid is read through these corners (x y in
 * the frame's pixels, clockwise from the top-left; given by hand): the
 * pipeline starts again with them, the referee and the game go on.
 * Returns 0, or GV_EINVAL / GV_ENOMEM with a message. */
int gd_loop_set_corners(gd_loop *l, const double corners[8], char *err, size_t cap);

/* The last frame the pipeline read (undistorted when the lens is known), or
 * NULL before the first; valid until the next gd_loop_frame. */
const gv_image *gd_loop_view(const gd_loop *l);

/* The referee (NULL until the first position); the loop owns it. */
gr_referee *gd_loop_referee(const gd_loop *l);
const gd_loop_stats *gd_loop_get_stats(gd_loop *l);

/* Runs src to its end through a new loop. *ref_out receives the referee
 * (free it with gr_referee_free; it holds the record), or NULL when no board
 * was ever seen. Returns 0, or an error code with a message in err: a frame
 * that cannot be read, a pipeline failure, GV_ENOMEM. What was refereed
 * before an error is kept in *ref_out. A stop asked for (stop.h) ends the
 * run between two frames as the input's end would. */
int gd_loop_run(gd_source *src, const gd_loop_opts *o, gr_referee **ref_out, gd_loop_stats *st,
                char *err, size_t cap);

/* For the commands (device/app/cli_loop.c): the pipeline's trace on stderr
 * when GOREF_PIPE_DEBUG is set in the environment. */
void cli_loop_trace(gd_loop_opts *o);

/* For the commands (device/app/cli_loop.c): if argv[*i] is one of the options
 * replay and watch share (--board, --rotate, --still, --komi, --persist,
 * --repetition, --setup), takes it and its value into o and returns 1 (*i
 * on its last word); 0 when it is none of them; -1 after printing why the
 * value is bad. */
int cli_loop_option(const char *cmd, int argc, char **argv, int *i, gd_loop_opts *o);

/* The frame options of replay and watch: --size WxH, --format F,
 * --stride N, --fps F. */
typedef struct cli_frames {
	const char *size;   /* NULL: not given */
	const char *format; /* "rgb24" unless given */
	int stride;
	double fps;         /* 0: the source's own */
} cli_frames;

/* As cli_loop_option, for the frame options into f. */
int cli_frames_option(const char *cmd, int argc, char **argv, int *i, cli_frames *f);

/* Raw frames on stdin with the options f: 0, or EXIT_USAGE after saying
 * why (no --size, a bad --format). */
int cli_open_raw(const char *cmd, const cli_frames *f, gd_source **out);

/* The value of option argv[*i] into *out (*i on it): false, after saying
 * so, when it is missing or empty. */
bool cli_take_value(const char *cmd, int argc, char **argv, int *i, const char **out);


#endif
