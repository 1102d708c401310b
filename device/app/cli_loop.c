/* goref program: the options that replay and watch share (the frame
 * pipeline's and the referee's). See loop.h. */
#ifdef GOREF_HAVE_VISION
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "loop.h"

static void trace_to_stderr(const char *line, void *ud)
{
	(void)ud;
	fputs(line, stderr);
	fputc('\n', stderr);
}

void cli_loop_trace(gd_loop_opts *o)
{
	if (getenv("GOREF_PIPE_DEBUG")) {
		o->pipe.trace = trace_to_stderr;
		o->pipe.trace_ud = NULL;
	}
}

int cli_loop_option(const char *cmd, int argc, char **argv, int *i, gd_loop_opts *o)
{
	const char *a = argv[*i];
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	bool ok = true;
	if (!strcmp(a, "--board")) {
		ok = cli_parse_int("--board", v, 9, 19, &o->pipe.size);
		if (ok && o->pipe.size != 9 && o->pipe.size != 13 && o->pipe.size != 19) {
			fprintf(stderr, "goref %s: --board must be 9, 13 or 19\n", cmd);
			ok = false;
		}
	} else if (!strcmp(a, "--rotate")) {
		int deg = 0;
		ok = cli_parse_int("--rotate", v, 0, 270, &deg);
		if (ok && deg % 90) {
			fprintf(stderr, "goref %s: --rotate takes 0, 90, 180 or 270\n", cmd);
			ok = false;
		}
		o->rotate = deg / 90;
	} else if (!strcmp(a, "--corners")) {
		ok = cli_parse_corners("--corners", v, o->pipe.corners);
		o->pipe.has_corners = ok;
	} else if (!strcmp(a, "--still")) {
		ok = cli_parse_double("--still", v, 0, 60, &o->pipe.still_s);
	} else if (!strcmp(a, "--komi")) {
		ok = cli_parse_double("--komi", v, -400, 400, &o->ref.komi);
	} else if (!strcmp(a, "--persist")) {
		ok = cli_parse_int("--persist", v, 1, 1000, &o->ref.persist);
	} else if (!strcmp(a, "--repetition")) {
		int r = gr_repetition_rule_parse(v);
		if (r < 0) {
			fprintf(stderr, "goref %s: --repetition takes forbid, draw, replay or no-result\n", cmd);
			ok = false;
		} else {
			o->ref.repetition = (gr_repetition_rule)r;
		}
	} else if (!strcmp(a, "--setup")) {
		o->ref.setup = true;
		return 1;
	} else {
		return 0;
	}
	++*i;
	return ok ? 1 : -1;
}

bool cli_take_value(const char *cmd, int argc, char **argv, int *i, const char **out)
{
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		fprintf(stderr, "goref %s: %s needs a value\n", cmd, argv[*i]);
		return false;
	}
	*out = argv[++*i];
	return true;
}

int cli_frames_option(const char *cmd, int argc, char **argv, int *i, cli_frames *f)
{
	const char *a = argv[*i];
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	bool ok;
	if (!strcmp(a, "--size"))
		return cli_take_value(cmd, argc, argv, i, &f->size) ? 1 : -1;
	if (!strcmp(a, "--format"))
		return cli_take_value(cmd, argc, argv, i, &f->format) ? 1 : -1;
	if (!strcmp(a, "--stride"))
		ok = cli_parse_int("--stride", v, 1, 1 << 20, &f->stride);
	else if (!strcmp(a, "--fps"))
		ok = cli_parse_double("--fps", v, 0.01, 1000, &f->fps);
	else
		return 0;
	++*i;
	return ok ? 1 : -1;
}

int cli_open_raw(const char *cmd, const cli_frames *f, gd_source **out)
{
	int w = 0, h = 0, fmt = gd_format_parse(f->format ? f->format : "rgb24");
	char err[512];
	if (!f->size || gd_size_parse(f->size, &w, &h) != 0) {
		fprintf(stderr, "goref %s: raw frames on stdin need --size WxH (e.g. 1280x720)\n", cmd);
		return EXIT_USAGE;
	}
	if (fmt < 0) {
		fprintf(stderr, "goref %s: --format takes rgb24, yuv420 or yuv420-limited\n", cmd);
		return EXIT_USAGE;
	}
	if (gd_source_open_raw(out, stdin, w, h, (gd_format)fmt, (size_t)f->stride, f->fps, err, sizeof err)) {
		fprintf(stderr, "goref %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	return 0;
}
#endif
