/* goref program: the options that replay and watch share (the frame
 * pipeline's and the referee's). See loop.h. */
#ifdef GOREF_HAVE_VISION
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "loop.h"

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
		o->setup = true;
		return 1;
	} else {
		return 0;
	}
	++*i;
	return ok ? 1 : -1;
}
#endif
