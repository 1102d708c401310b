/* goref score and goref check. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "count.h"
#include "dead.h"
#include "diagram.h"
#include "game.h"
#include "replay.h"
#include "sgf.h"

static const char score_usage[] =
	"usage: goref score [--komi S] [--json] [--estimate-dead] FILE\n"
	"\n"
	"Counts a finished position under the Chinese rules (articles 9, 11, 24)\n"
	"and says who won. FILE is a board diagram (N lines of N characters:\n"
	". empty, X black, O white, x / o a dead black / white stone) or an SGF\n"
	"game (its final position, replayed under the rules); - reads stdin.\n"
	"\n"
	"  --komi S          komi in stones that Black gives (default 3.75; for an\n"
	"                    SGF without this option, its KM divided by two)\n"
	"  --estimate-dead   propose the dead stones (Benson's unconditional life\n"
	"                    and random playouts) instead of counting all as alive;\n"
	"                    stones marked x / o in a diagram are dead in any case\n"
	"  --json            one JSON object: black, white (areas with half the\n"
	"                    dame), dame, komi, winner, margin (stones), result,\n"
	"                    result_points (SGF RE), dead (GTP points), warnings\n";

/* The dead stones' points: a JSON array, or plain words. */
static void print_points(FILE *f, const gr_board *b, const bool *dead, bool json)
{
	char name[8];
	bool first = true;
	if (json)
		fputc('[', f);
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (dead[pt] && b->color[pt] != GR_EMPTY) {
				gr_point_name(b, pt, name);
				if (json)
					fprintf(f, "%s\"%s\"", first ? "" : ",", name);
				else
					fprintf(f, "%s%s", first ? "" : " ", name);
				first = false;
			}
		}
	if (json)
		fputc(']', f);
}

int cmd_score(int argc, char **argv)
{
	double komi = GR_KOMI_DEFAULT;
	bool komi_given = false, json = false, estimate = false;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(score_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--komi")) {
			if (!cli_parse_double("--komi", i + 1 < argc ? argv[++i] : NULL, -400, 400, &komi))
				return EXIT_USAGE;
			komi_given = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--estimate-dead")) {
			estimate = true;
		} else if (!cli_positional("score", score_usage, "FILE", argv[i], &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("score", score_usage, "FILE", path))
		return EXIT_USAGE;
	cli_position *pos = malloc(sizeof *pos);
	if (!pos)
		return EXIT_INPUT;
	int rc = cli_load_position(pos, path);
	if (rc) {
		free(pos);
		return rc;
	}
	int wb = 0, ww = 0;
	if (pos->record) {
		if (!komi_given)
			komi = gr_record_komi(pos->record) / 2.0;
		wb = gr_record_warnings(pos->record, GR_BLACK);
		ww = gr_record_warnings(pos->record, GR_WHITE);
	}
	bool dead[GR_MAX_POINTS];
	memcpy(dead, pos->dead, sizeof dead);
	if (estimate) {
		bool proposed[GR_MAX_POINTS];
		rc = gr_dead_estimate(proposed, &pos->board, pos->to_move, NULL);
		if (rc) {
			fprintf(stderr, "goref score: dead-stone estimate failed (%d)\n", rc);
			cli_position_free(pos);
			free(pos);
			return EXIT_INPUT;
		}
		for (int i = 0; i < GR_MAX_POINTS; i++)
			dead[i] = dead[i] || proposed[i];
	}
	gr_count c;
	gr_count_board(&c, &pos->board, dead, komi, wb, ww);
	char num[16], words[96];
	if (json) {
		printf("{\"size\":%d,\"black\":%s", c.size, gr_format_number(c.black, num, sizeof num));
		printf(",\"white\":%s", gr_format_number(c.white, num, sizeof num));
		printf(",\"dame\":%d,\"komi\":%s", c.dame, gr_format_number(c.komi, num, sizeof num));
		printf(",\"winner\":\"%s\"", c.winner == GR_BLACK ? "B" : c.winner == GR_WHITE ? "W" : "draw");
		printf(",\"margin\":%s,\"result\":", gr_format_number(c.margin, num, sizeof num));
		cli_json_string(stdout, c.result);
		printf(",\"result_points\":");
		cli_json_string(stdout, c.result_points);
		printf(",\"words\":");
		cli_json_string(stdout, gr_count_words(&c, words, sizeof words));
		printf(",\"black_stones\":%d,\"white_stones\":%d,\"black_territory\":%d,\"white_territory\":%d",
		       c.black_stones, c.white_stones, c.black_territory, c.white_territory);
		printf(",\"black_warnings\":%d,\"white_warnings\":%d,\"dead\":", wb, ww);
		print_points(stdout, &pos->board, dead, true);
		printf("}\n");
	} else {
		char diag[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
		gr_diagram_write(&pos->board, dead, diag, sizeof diag);
		fputs(diag, stdout);
		printf("Dead stones: %d black, %d white", c.black_dead, c.white_dead);
		if (c.black_dead + c.white_dead) {
			printf(": ");
			print_points(stdout, &pos->board, dead, false);
		}
		printf("\nBlack %s: %d stones + %d points + half of %d dame\n", gr_format_number(c.black, num, sizeof num),
		       c.black_stones, c.black_territory, c.dame);
		printf("White %s: %d stones + %d points + half of %d dame\n", gr_format_number(c.white, num, sizeof num),
		       c.white_stones, c.white_territory, c.dame);
		printf("Komi %s stones; warnings: Black %d, White %d\n", gr_format_number(c.komi, num, sizeof num), wb, ww);
		printf("%s (%s; in points %s)\n", gr_count_words(&c, words, sizeof words), c.result, c.result_points);
	}
	cli_position_free(pos);
	free(pos);
	return EXIT_OK;
}

static const char check_usage[] =
	"usage: goref check [--json] [--repetition RULE] GAME.sgf\n"
	"\n"
	"Replays an SGF game under the Chinese rules and reports each illegal\n"
	"move: occupied, suicide (article 5, 19), ko (20.1), repetition (6, 20),\n"
	"double_move (17.2). A void move forfeits the turn and the replay goes on.\n"
	"\n"
	"  --json              one JSON object: legal, moves, illegal (each with\n"
	"                      move, color, point, rule, article)\n"
	"  --repetition RULE   what a whole-board repetition other than a ko does:\n"
	"                      forbid (default), draw, replay, no-result\n"
	"\n"
	"Exit status: 0 the game is legal, 1 it is not, 2 the file cannot be read.\n";

typedef struct check_ctx {
	gr_violation v[64];
	int n, total;
} check_ctx;

static void on_violation(const gr_violation *v, const gr_game *g, void *ud)
{
	check_ctx *c = ud;
	if (v->kind == GR_V_REPETITION && gr_game_repetition_rule(g) != GR_REP_FORBID)
		return; /* not void under this rule: it ends the game, reported below */
	if (c->n < (int)(sizeof c->v / sizeof c->v[0]))
		c->v[c->n++] = *v;
	c->total++;
}

int cmd_check(int argc, char **argv)
{
	bool json = false;
	const char *path = NULL;
	gr_repetition_rule rule = GR_REP_FORBID;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(check_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--repetition")) {
			int r = gr_repetition_rule_parse(i + 1 < argc ? argv[++i] : NULL);
			if (r < 0) {
				fprintf(stderr, "goref check: --repetition takes forbid, draw, replay or no-result\n");
				return EXIT_USAGE;
			}
			rule = (gr_repetition_rule)r;
		} else if (!cli_positional("check", check_usage, "GAME.sgf", argv[i], &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("check", check_usage, "GAME.sgf", path))
		return EXIT_USAGE;
	gr_record *rec = NULL;
	if (cli_load_sgf(&rec, path) != 0)
		return EXIT_INPUT;
	gr_game *g = NULL;
	if (gr_game_new(&g, gr_record_size(rec)) != 0) {
		gr_record_free(rec);
		return EXIT_INPUT;
	}
	gr_game_set_repetition_rule(g, rule);
	check_ctx ctx = {0};
	gr_replay(g, rec, on_violation, &ctx);
	int moves = gr_record_move_count(rec);
	const gr_board *b = gr_game_board(g);
	char name[8];
	bool ended_by_repetition = gr_game_state_of(g) == GR_ENDED_REPETITION;
	if (json) {
		printf("{\"file\":");
		cli_json_string(stdout, path);
		printf(",\"size\":%d,\"moves\":%d,\"legal\":%s,\"repetition_rule\":\"%s\"", b->size, moves,
		       ctx.total ? "false" : "true", gr_repetition_rule_name(rule));
		if (ended_by_repetition)
			printf(",\"ended\":\"repetition\"");
		printf(",\"illegal\":[");
		for (int i = 0; i < ctx.n; i++) {
			const gr_violation *v = &ctx.v[i];
			printf("%s{\"move\":%d,\"color\":\"%c\",\"point\":\"%s\",\"rule\":\"%s\",\"article\":\"%s\"}",
			       i ? "," : "", v->move, v->color == GR_BLACK ? 'B' : 'W', gr_point_name(b, v->pt, name),
			       gr_violation_name(v->kind), gr_violation_article(v->kind));
		}
		printf("]");
		if (ctx.total > ctx.n)
			printf(",\"illegal_not_listed\":%d", ctx.total - ctx.n);
		printf("}\n");
	} else {
		for (int i = 0; i < ctx.n; i++) {
			const gr_violation *v = &ctx.v[i];
			printf("%s: move %d, %s %s: %s (article %s)\n", path, v->move,
			       v->color == GR_BLACK ? "Black" : "White", gr_point_name(b, v->pt, name),
			       gr_violation_name(v->kind), gr_violation_article(v->kind));
		}
		if (ctx.total > ctx.n)
			printf("%s: %d more illegal moves not listed\n", path, ctx.total - ctx.n);
		if (ended_by_repetition)
			printf("%s: the game ended at a whole-board repetition (%s)\n", path, gr_repetition_rule_name(rule));
		printf("%s: %d moves, %s\n", path, moves,
		       ctx.total ? "illegal" : "legal");
	}
	gr_game_free(g);
	gr_record_free(rec);
	return ctx.total ? EXIT_FOUND : EXIT_OK;
}
