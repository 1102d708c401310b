/* goref referee: rulings from an observation log, as they happen. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "count.h"
#include "game.h"
#include "obslog.h"
#include "referee.h"
#include "sgf.h"

/* Until device/cli.h declares it. */
int cmd_referee(int argc, char **argv);

static const char referee_usage[] =
	"usage: goref referee [--komi S] [--size N] [--persist N] [--repetition RULE]\n"
	"                     [--setup] [--sgf OUT] [--quiet] LOG\n"
	"\n"
	"Referees a game from an observation log (what the camera saw as stable,\n"
	"and what the operator said) under the Chinese rules, and prints each\n"
	"event the moment it happens, one JSON object a line: move, capture,\n"
	"illegal, double_move, missed_capture, wrong_removal, takeback,\n"
	"moved_stone, disturbed, restored, warning, pass, resign, end, dead,\n"
	"count, result, ambiguous, accepted, lifted, unexplained, error. LOG is\n"
	"read line by line (- reads stdin, so a live pipeline can feed it):\n"
	"\n"
	"  @ SECONDS           then N lines of . X O: a stable position seen\n"
	"  @ SECONDS COMMAND   pass, resign B, resign W, end, count, accept, restore\n"
	"\n"
	"Blank lines and # comments are skipped; time never goes backwards.\n"
	"\n"
	"  --komi S            komi in stones that Black gives (default 3.75)\n"
	"  --size N            the board has N lines (default: the first diagram's)\n"
	"  --persist N         observations a change to earlier stones must last\n"
	"                      before a ruling (default 2)\n"
	"  --repetition RULE   what a whole-board repetition other than a ko does:\n"
	"                      forbid (default), draw, replay, no-result\n"
	"  --setup             a handicap game: the stones of the first position are setup\n"
	"                      stones; when it is empty, the black stones put down before\n"
	"                      White's first stone are (two or more)\n"
	"                      (a handicap), not moves; White then moves first\n"
	"  --sgf OUT           at the end, write the game record (rulings as\n"
	"                      comments) as SGF to OUT\n"
	"  --quiet             print no events (with --sgf: only the record)\n"
	"\n"
	"Exit status: 0 the log was refereed, 2 the log is bad (the message names\n"
	"FILE:LINE:COLUMN) or cannot be read, or OUT cannot be written, 64 a usage\n"
	"error.\n";

typedef struct ref_ctx {
	bool quiet;
	int size;
	char buf[4096];
} ref_ctx;

static void on_event(const gr_event *e, void *ud)
{
	ref_ctx *c = ud;
	if (c->quiet)
		return;
	size_t n = gr_event_json(e, c->size, c->buf, sizeof c->buf);
	if (n < sizeof c->buf) {
		fputs(c->buf, stdout);
	} else {
		char *big = malloc(n + 1);
		if (big) {
			gr_event_json(e, c->size, big, n + 1);
			fputs(big, stdout);
			free(big);
		} else {
			fputs(c->buf, stdout); /* cut short rather than nothing */
		}
	}
	fputc('\n', stdout);
	fflush(stdout);
}

int cmd_referee(int argc, char **argv)
{
	gr_referee_options opt;
	gr_referee_options_init(&opt);
	int size = 0;
	bool quiet = false;
	const char *path = NULL, *sgf_out = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(referee_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--komi")) {
			if (!cli_parse_double("--komi", i + 1 < argc ? argv[++i] : NULL, -400, 400, &opt.komi))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--size")) {
			if (!cli_parse_int("--size", i + 1 < argc ? argv[++i] : NULL, GR_MIN_SIZE, GR_MAX_SIZE, &size))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--persist")) {
			if (!cli_parse_int("--persist", i + 1 < argc ? argv[++i] : NULL, 1, 1000, &opt.persist))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--repetition")) {
			int r = gr_repetition_rule_parse(i + 1 < argc ? argv[++i] : NULL);
			if (r < 0) {
				fprintf(stderr, "goref referee: --repetition takes forbid, draw, replay or no-result\n");
				return EXIT_USAGE;
			}
			opt.repetition = (gr_repetition_rule)r;
		} else if (!strcmp(argv[i], "--sgf")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "goref referee: --sgf needs a file name\n");
				return EXIT_USAGE;
			}
			sgf_out = argv[++i];
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (!strcmp(argv[i], "--setup")) {
			opt.setup = true;
		} else if (!cli_positional("referee", referee_usage, "LOG", argv[i], &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("referee", referee_usage, "LOG", path))
		return EXIT_USAGE;
	bool is_stdin = !strcmp(path, "-");
	const char *shown = is_stdin ? "stdin" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	if (!f) {
		fprintf(stderr, "goref: cannot open %s: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	ref_ctx *ctx = malloc(sizeof *ctx);
	gr_obs_item *item = malloc(sizeof *item);
	gr_obslog *log = NULL;
	gr_referee *ref = NULL;
	int result = EXIT_OK;
	gr_error err = {0};
	if (!ctx || !item || gr_obslog_new(&log, size) != 0) {
		fprintf(stderr, "goref referee: out of memory\n");
		result = EXIT_INPUT;
		goto done;
	}
	ctx->quiet = quiet;
	ctx->size = size;
	if (size && gr_referee_new(&ref, size, &opt, on_event, ctx) != 0) {
		fprintf(stderr, "goref referee: out of memory\n");
		result = EXIT_INPUT;
		goto done;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		int rc = gr_obslog_feed(log, line, len, item, &err);
		if (rc < 0) {
			cli_report_error(shown, &err);
			result = EXIT_INPUT;
			break;
		}
		if (rc == 0)
			continue;
		if (!ref) {
			if (item->kind != GR_OBS_POSITION) {
				gr_error_set(&err, GR_EPARSE, item->line, 0,
				             "'%s' before the first board: give the board's size with --size",
				             gr_command_name(item->command));
				cli_report_error(shown, &err);
				result = EXIT_INPUT;
				break;
			}
			ctx->size = item->size;
			if (gr_referee_new(&ref, item->size, &opt, on_event, ctx) != 0) {
				fprintf(stderr, "goref referee: out of memory\n");
				result = EXIT_INPUT;
				break;
			}
		}
		if (item->kind == GR_OBS_POSITION) {
			rc = gr_referee_observe(ref, item->t, item->cells);
		} else {
			rc = gr_referee_command(ref, item->t, item->command, item->color);
		}
		if (rc != 0) {
			gr_error_set(&err, GR_EPARSE, item->line, 0, "the referee refused this %s (%d)",
			             item->kind == GR_OBS_POSITION ? "position" : "command", rc);
			cli_report_error(shown, &err);
			result = EXIT_INPUT;
			break;
		}
	}
	free(line);
	if (result == EXIT_OK && ferror(f)) {
		fprintf(stderr, "goref: cannot read %s: %s\n", shown, strerror(errno));
		result = EXIT_INPUT;
	}
	if (result == EXIT_OK && gr_obslog_finish(log, &err) != 0) {
		cli_report_error(shown, &err);
		result = EXIT_INPUT;
	}
	if (result == EXIT_OK && sgf_out) {
		if (!ref && gr_referee_new(&ref, size ? size : 19, &opt, NULL, NULL) != 0) {
			fprintf(stderr, "goref referee: out of memory\n");
			result = EXIT_INPUT;
		} else {
			result = cli_write_sgf(gr_referee_record(ref), sgf_out);
		}
	}
done:
	if (f != stdin)
		fclose(f);
	gr_referee_free(ref);
	gr_obslog_free(log);
	free(item);
	free(ctx);
	return result;
}
