/* goref replay: a refereed game from recorded frames.
 * Built only with vision/ (GOREF_HAVE_VISION). */
#ifdef GOREF_HAVE_VISION
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "count.h"
#include "cvwrap.h"
#include "dead.h"
#include "loop.h"
#include "stop.h"



static const char replay_usage[] =
	"usage: goref replay [options] SOURCE\n"
	"\n"
	"Watches a recorded game: finds the board, waits for the board to be\n"
	"still and clear of hands, reads the stones, and referees what it sees\n"
	"under the Chinese rules. Events print the moment they happen, one JSON\n"
	"object a line (as goref referee prints them); at the end a \"summary\"\n"
	"line with the count of the final position.\n"
	"\n"
	"SOURCE is a folder of frames (PNG or JPEG, in name order, numerically\n"
	"when the names are numbers; times from DIR/times.txt, lines NAME\n"
	"SECONDS, or --times, else --fps), or - for raw frames on standard input\n"
	"(as `rpicam-vid -t 0 -n --codec yuv420 -o -` or `ffmpeg -f rawvideo`\n"
	"write them; give --size).\n"
	"\n"
	"  --size WxH          the raw frames' size (with -)\n"
	"  --format F          raw frames: rgb24 (default), yuv420 (full range),\n"
	"                      yuv420-limited\n"
	"  --stride N          bytes from one row to the next of raw frames\n"
	"                      (default: none padded)\n"
	"  --fps F             frames per second when no times file says (default 10)\n"
	"  --times FILE        the frames' times (NAME SECONDS a line)\n"
	"  --board N           the board's lines: 9, 13 or 19 (default 19)\n"
	"  --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4\n"
	"                      the grid's four corner intersections in the frames'\n"
	"                      pixels, clockwise from the top-left (clicked by a\n"
	"                      person): the board is not searched for\n"
	"  --still S           how long the board must be still before it is read\n"
	"                      (default 0.3 s)\n"
	"  --stills            every frame is a stable view by itself (photos, one\n"
	"                      per position)\n"
	"  --rotate DEG        turn the view clockwise by 90, 180 or 270 degrees so\n"
	"                      that Black's side is at the bottom (a camera on\n"
	"                      White's side: 180); the log and the record use the\n"
	"                      turned view\n"
	"  --komi S, --persist N, --repetition RULE, --setup\n"
	"                      as in goref referee\n"
	"  --sgf OUT           write the game record as SGF to OUT at the end\n"
	"  --events OUT        write the events (JSON lines) to OUT as they happen\n"
	"  --log OUT           write the observation log to OUT as it is made\n"
	"                      (goref referee OUT replays the rulings alone)\n"
	"  --quiet             print no events on standard output\n"
	"  --progress          progress on standard error about once a second\n"
	"                      (the default when standard error is a terminal)\n"
	"\n"
	"Exit status: 0 the frames were refereed, 1 no board was found in any\n"
	"frame, 2 a frame, the source or an output cannot be read or written,\n"
	"64 a usage error, 128+N stopped by signal N (SIGINT 130, SIGTERM 143:\n"
	"the frames until then are refereed and written).\n";

typedef struct replay_ctx {
	bool quiet;
	int size;
	FILE *events;
	char buf[8192];
} replay_ctx;

static void print_event(replay_ctx *c, const gr_event *e)
{
	size_t n = gr_event_json(e, c->size, c->buf, sizeof c->buf);
	if (n >= sizeof c->buf)
		n = sizeof c->buf - 1; /* cut short rather than nothing */
	if (!c->quiet) {
		fwrite(c->buf, 1, n, stdout);
		fputc('\n', stdout);
		fflush(stdout);
	}
	if (c->events) {
		fwrite(c->buf, 1, n, c->events);
		fputc('\n', c->events);
		fflush(c->events);
	}
}

static void on_event(const gr_event *e, void *ud)
{
	print_event(ud, e);
}

static void on_progress(long frames, long total, int moves, void *ud)
{
	(void)ud;
	if (total > 0)
		fprintf(stderr, "goref replay: frame %ld of %ld (%.0f%%), %d moves\n", frames, total,
		        100.0 * (double)frames / (double)total, moves);
	else
		fprintf(stderr, "goref replay: frame %ld, %d moves\n", frames, moves);
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "goref replay: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

/* The count of the final position when the game was not counted: dead
 * stones proposed by gr_dead_estimate. */
static void final_count(replay_ctx *c, gr_referee *ref, double komi, double t)
{
	const gr_board *b = gr_referee_board(ref);
	bool dead[GR_MAX_POINTS];
	memset(dead, 0, sizeof dead);
	if (gr_dead_estimate(dead, b, gr_referee_to_move(ref), NULL) != 0)
		memset(dead, 0, sizeof dead);
	gr_count cnt;
	if (gr_count_board(&cnt, b, dead, komi, gr_referee_warnings(ref, GR_BLACK), gr_referee_warnings(ref, GR_WHITE)) != 0)
		return;
	gr_event e;
	memset(&e, 0, sizeof e);
	e.type = GR_EV_COUNT;
	e.t = t;
	e.point = GR_NONE;
	e.to = GR_NONE;
	e.count = &cnt;
	e.message = "The count of the last position seen, with the dead stones goref proposes "
	            "(nobody called the end): check it before you announce it.";
	print_event(c, &e);
}

int cmd_replay(int argc, char **argv)
{
	gd_loop_opts o;
	gd_loop_opts_init(&o);
	cli_loop_trace(&o); /* GOREF_PIPE_DEBUG: the pipeline's trace on stderr */
	o.prepare_memory = true; /* this program runs frames: its heap made ready at the first (memory.h) */
	const char *src_path = NULL, *sgf_out = NULL, *events_out = NULL, *log_out = NULL;
	const char *times = NULL;
	cli_frames fr = {.format = "rgb24"};
	bool quiet = false, progress = isatty(2) != 0;
	for (int i = 1, r; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(replay_usage, stdout);
			return EXIT_OK;
		} else if ((r = cli_loop_option("replay", argc, argv, &i, &o)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if ((r = cli_frames_option("replay", argc, argv, &i, &fr)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (!strcmp(a, "--times")) {
			if (!cli_take_value("replay", argc, argv, &i, &times))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--stills")) {
			o.pipe.stills = true;
		} else if (!strcmp(a, "--sgf")) {
			if (!cli_take_value("replay", argc, argv, &i, &sgf_out))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--events")) {
			if (!cli_take_value("replay", argc, argv, &i, &events_out))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--log")) {
			if (!cli_take_value("replay", argc, argv, &i, &log_out))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--progress")) {
			progress = true;
		} else if (!cli_positional("replay", replay_usage, "SOURCE", a, &src_path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("replay", replay_usage, "SOURCE", src_path))
		return EXIT_USAGE;
	char err[512] = "";
	gd_source *src = NULL;
	bool raw = !strcmp(src_path, "-");
	if (raw) {
		if (cli_open_raw("replay", &fr, &src) != 0)
			return EXIT_USAGE;
	} else {
		if (fr.size || fr.stride) {
			fprintf(stderr, "goref replay: --size and --stride are for raw frames on stdin (SOURCE -)\n");
			return EXIT_USAGE;
		}
		if (gd_source_open_dir(&src, src_path, times, fr.fps, err, sizeof err)) {
			fprintf(stderr, "goref replay: %s\n", err);
			return EXIT_INPUT;
		}
	}
	replay_ctx *ctx = calloc(1, sizeof *ctx);
	if (!ctx) {
		gd_source_free(src);
		fprintf(stderr, "goref replay: out of memory\n");
		return EXIT_INPUT;
	}
	int result = EXIT_OK;
	FILE *log = NULL;
	ctx->quiet = quiet;
	ctx->size = o.pipe.size ? o.pipe.size : 19;
	if ((events_out && !(ctx->events = open_out(events_out))) || (log_out && !(log = open_out(log_out)))) {
		result = EXIT_INPUT;
		goto done;
	}
	if (log)
		fprintf(log, "# goref replay of %s\n", raw ? "stdin" : src_path);
	o.log = log;
	o.on_event = on_event;
	o.ud = ctx;
	o.on_progress = progress ? on_progress : NULL;
	gv_cv_threads(1, NULL, 0);
	gd_stop_on_signals(); /* SIGTERM, Ctrl-C: stop between frames, write what was refereed */
	gr_referee *ref = NULL;
	gd_loop_stats st;
	int rc = gd_loop_run(src, &o, &ref, &st, err, sizeof err);
	if (rc) {
		cli_source_error("replay", gd_source_name(src), err, "\n");
		result = EXIT_INPUT;
	}
	if (gd_stop_requested()) {
		fprintf(stderr, "goref replay: stopped by a signal after %ld frame%s: what was refereed is written\n",
		        st.frames, st.frames == 1 ? "" : "s");
		result = 128 + gd_stop_signal();
	}
	if (ref && !gr_referee_finished(ref) && !gd_stop_requested()) /* stopped: no count (seconds of playouts) */
		final_count(ctx, ref, o.ref.komi, st.last_t);
	if (!ref && result == EXIT_OK) {
		fprintf(stderr, "goref replay: no board was found in %ld frame%s\n", st.frames, st.frames == 1 ? "" : "s");
		result = EXIT_FOUND;
	}
	if (sgf_out && ref && cli_write_sgf(gr_referee_record(ref), sgf_out) != EXIT_OK)
		result = EXIT_INPUT;
	if (!quiet || ctx->events) {
		snprintf(ctx->buf, sizeof ctx->buf,
		         "{\"type\":\"summary\",\"frames\":%ld,\"width\":%d,\"height\":%d,\"observations\":%ld,"
		         "\"moves\":%d,\"searches\":%ld,\"follows\":%ld,\"relocations\":%ld,\"held_points\":%ld,"
		         "\"ms_per_frame\":%.3f,\"ms_max\":%.3f,\"ms_read_per_frame\":%.3f,\"ms_memory\":%.3f}",
		         st.frames, st.width, st.height, st.observations,
		         ref ? gr_record_move_count(gr_referee_record(ref)) : 0, st.pipe.locates, st.pipe.tracks,
		         st.pipe.relocations,
		         st.pipe.held_points, st.frames ? st.pipe_ms / (double)st.frames : 0.0, st.pipe_max_ms,
		         st.frames ? st.read_ms / (double)st.frames : 0.0, st.memory_ms);
		if (!quiet)
			puts(ctx->buf);
		if (ctx->events)
			fprintf(ctx->events, "%s\n", ctx->buf);
	}
	gr_referee_free(ref);
done:
	if (ctx->events && fclose(ctx->events) != 0) {
		fprintf(stderr, "goref replay: cannot write %s: %s\n", events_out, strerror(errno));
		result = EXIT_INPUT;
	}
	if (log && fclose(log) != 0) {
		fprintf(stderr, "goref replay: cannot write %s: %s\n", log_out, strerror(errno));
		result = EXIT_INPUT;
	}
	free(ctx);
	gd_source_free(src);
	return result;
}
#endif
