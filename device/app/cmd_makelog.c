/* goref makelog: a clean observation log of an SGF game. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "game.h"
#include "obslog.h"
#include "referee.h"
#include "sgf.h"

/* Until device/cli.h declares it. */
int cmd_makelog(int argc, char **argv);

static const char makelog_usage[] =
	"usage: goref makelog [--interval S] [--lift-delay S] GAME.sgf\n"
	"\n"
	"Writes to stdout a clean observation log of an SGF game, as a camera\n"
	"would see it were the game played without a fault (the format 'goref\n"
	"referee' reads): the first position at time 0 (the setup stones, if any),\n"
	"then for each move a stable position with the new stone, the stones it\n"
	"captures still on the board, and when it captured, a second position\n"
	"after they are lifted; a pass is '@ T pass'. At the end '@ T end' and\n"
	"'@ T count' (no dead stones are lifted: the final position is counted as\n"
	"it stands), or '@ T resign B|W' when the SGF's result is a resignation.\n"
	"A void move in the SGF (occupied, suicide, ko, repetition, a colour\n"
	"twice in a row) stops with an error naming it: a clean log is legal.\n"
	"GAME.sgf may be - for stdin.\n"
	"\n"
	"  --interval S     seconds from one position to the next move (default 1)\n"
	"  --lift-delay S   seconds from a capturing stone to the position with the\n"
	"                   captured stones lifted (default 0.5)\n"
	"\n"
	"Exit status: 0 the log was written, 1 the game has a void move, 2 the\n"
	"file cannot be read, 64 a usage error.\n";

typedef struct outbuf {
	char *text;
	size_t len, cap;
	bool failed;
} outbuf;

/* Makes room for n more bytes (and a NUL). */
static bool reserve(outbuf *o, size_t n)
{
	if (o->failed)
		return false;
	if (o->len + n + 1 <= o->cap)
		return true;
	size_t cap = o->cap ? o->cap : 1 << 16;
	while (cap < o->len + n + 1)
		cap *= 2;
	char *t = realloc(o->text, cap);
	if (!t) {
		o->failed = true;
		return false;
	}
	o->text = t;
	o->cap = cap;
	return true;
}

static void add_position(outbuf *o, double t, const gr_board *b)
{
	unsigned char cells[GR_MAX_SIZE * GR_MAX_SIZE];
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++)
			cells[y * b->size + x] = b->color[gr_pt(b, x, y)];
	size_t n = gr_obslog_write_position(t, b->size, cells, NULL, 0);
	if (reserve(o, n))
		o->len += gr_obslog_write_position(t, b->size, cells, o->text + o->len, o->cap - o->len);
}

static void add_command(outbuf *o, double t, gr_command cmd, gr_color color)
{
	size_t n = gr_obslog_write_command(t, cmd, color, NULL, 0);
	if (reserve(o, n))
		o->len += gr_obslog_write_command(t, cmd, color, o->text + o->len, o->cap - o->len);
}

static void add_text(outbuf *o, const char *s)
{
	size_t n = strlen(s);
	if (reserve(o, n)) {
		memcpy(o->text + o->len, s, n + 1);
		o->len += n;
	}
}

/* The loser of a resigned game from SGF's RE ("W+R", "B+Resign"), else EMPTY. */
static gr_color resigned(const gr_record *rec)
{
	const char *re = gr_record_prop(rec, "RE");
	if (!re || (re[0] != 'B' && re[0] != 'W') || re[1] != '+' || (re[2] != 'R' && re[2] != 'r'))
		return GR_EMPTY;
	return re[0] == 'B' ? GR_WHITE : GR_BLACK;
}

static const char *color_word(gr_color c) { return c == GR_BLACK ? "Black" : "White"; }

int cmd_makelog(int argc, char **argv)
{
	double interval = 1, lift_delay = 0.5;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(makelog_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--interval")) {
			if (!cli_parse_double("--interval", i + 1 < argc ? argv[++i] : NULL, 0, 86400, &interval))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--lift-delay")) {
			if (!cli_parse_double("--lift-delay", i + 1 < argc ? argv[++i] : NULL, 0, 86400, &lift_delay))
				return EXIT_USAGE;
		} else if (!cli_positional("makelog", makelog_usage, "GAME.sgf", argv[i], &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("makelog", makelog_usage, "GAME.sgf", path))
		return EXIT_USAGE;
	gr_record *rec = NULL;
	if (cli_load_sgf(&rec, path) != 0)
		return EXIT_INPUT;
	gr_game *g = NULL;
	if (gr_game_new(&g, gr_record_size(rec)) != 0) {
		fprintf(stderr, "goref makelog: out of memory\n");
		gr_record_free(rec);
		return EXIT_INPUT;
	}
	int result = EXIT_OK;
	outbuf o = {0};
	char line[256], name[8];
	int nsetup = gr_record_setup_count(rec), nmoves = gr_record_move_count(rec);
	for (int i = 0; i < nsetup; i++) {
		gr_color c;
		int pt;
		gr_record_setup(rec, i, &c, &pt);
		gr_game_setup(g, c, pt);
	}
	gr_color first = gr_record_first_player(rec);
	if (first == GR_EMPTY && nmoves > 0 && gr_record_move(rec, 0)->pt != GR_PASS)
		first = gr_record_move(rec, 0)->color; /* the record's first move says who starts */
	if (first != GR_EMPTY)
		gr_game_set_to_move(g, first);
	snprintf(line, sizeof line, "# goref makelog: a clean log of %s (%dx%d, %d moves)\n", path,
	         gr_record_size(rec), gr_record_size(rec), nmoves);
	add_text(&o, line);
	if (nsetup > 0) {
		snprintf(line, sizeof line,
		         "# the first position holds the %d setup stones (referee with --setup); %s moves first\n", nsetup,
		         color_word(gr_game_to_move(g)));
		add_text(&o, line);
	} else if (gr_game_to_move(g) == GR_WHITE) {
		add_text(&o, "# White moves first\n");
	}
	double t = 0;
	add_position(&o, t, gr_game_board(g));
	for (int i = 0; i < nmoves && result == EXIT_OK; i++) {
		const gr_move *m = gr_record_move(rec, i);
		if (gr_game_state_of(g) == GR_ENDED_PASSES)
			gr_game_resume(g); /* the record goes on after two passes (article 21.1) */
		const gr_board *b = gr_game_board(g);
		gr_point_name(b, m->pt, name);
		if (m->color != gr_game_to_move(g)) {
			fprintf(stderr, "goref makelog: %s: move %d (%c %s): %s plays twice in a row (void, article 17.2); "
			        "a clean log must be legal\n", path, i + 1, m->color == GR_BLACK ? 'B' : 'W', name,
			        color_word(m->color));
			result = EXIT_FOUND;
			break;
		}
		t += interval;
		if (m->pt == GR_PASS) {
			gr_game_pass(g, m->color);
			add_command(&o, t, GR_CMD_PASS, GR_EMPTY);
			continue;
		}
		gr_legality l = gr_game_check(g, m->color, m->pt);
		if (l != GR_LEGAL) {
			fprintf(stderr, "goref makelog: %s: move %d (%c %s) is void: %s; a clean log must be legal\n", path,
			        i + 1, m->color == GR_BLACK ? 'B' : 'W', name, gr_legality_name(l));
			result = EXIT_FOUND;
			break;
		}
		/* the stone is down, what it captures still on the board */
		gr_board seen = *b;
		seen.color[m->pt] = (uint8_t)m->color;
		add_position(&o, t, &seen);
		gr_game_play(g, m->color, m->pt);
		if (gr_game_board(g)->last_captures > 0) {
			t += lift_delay;
			add_position(&o, t, gr_game_board(g));
		}
	}
	if (result == EXIT_OK) {
		gr_color loser = resigned(rec);
		t += interval;
		if (loser != GR_EMPTY) {
			add_command(&o, t, GR_CMD_RESIGN, loser);
		} else {
			add_command(&o, t, GR_CMD_END, GR_EMPTY);
			add_command(&o, t + interval, GR_CMD_COUNT, GR_EMPTY);
		}
		if (o.failed) {
			fprintf(stderr, "goref makelog: out of memory\n");
			result = EXIT_INPUT;
		} else if (fwrite(o.text, 1, o.len, stdout) != o.len || fflush(stdout) != 0) {
			fprintf(stderr, "goref makelog: cannot write the log\n");
			result = EXIT_INPUT;
		}
	}
	free(o.text);
	gr_game_free(g);
	gr_record_free(rec);
	return result;
}
