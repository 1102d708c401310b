/* goref bench: the speed of the rules core, measured the same way every time. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "count.h"
#include "game.h"
#include "playout.h"
#include "record.h"
#include "referee.h"
#include "replay.h"

static const char bench_usage[] =
	"usage: goref bench [--seconds S] [--size N] [--seed N] [--json]\n"
	"\n"
	"Measures the rules core on one core, each part for about S seconds\n"
	"(default 2):\n"
	"  playouts  random legal games to the end (simple ko and situational\n"
	"            repetition respected, no filling of one's own one-point\n"
	"            eyes): moves per second\n"
	"  check     replay and check of a 300-move legal game: microseconds\n"
	"  count     one area count of a finished position: microseconds\n"
	"  referee   the same 300-move game as a clean observation log (a\n"
	"            position after each stone, and after its captures are\n"
	"            lifted), refereed from the first observation to the last:\n"
	"            microseconds a game and events a second\n"
	"Deterministic for a seed (default 1); the figures vary with the machine.\n";

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void count_event(const gr_event *e, void *ud)
{
	(void)e;
	++*(long long *)ud;
}

int cmd_bench(int argc, char **argv)
{
	double seconds = 2;
	int size = 19, seed = 1;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--seconds")) {
			if (!cli_parse_double("--seconds", i + 1 < argc ? argv[++i] : NULL, 0.01, 3600, &seconds))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--size")) {
			if (!cli_parse_int("--size", i + 1 < argc ? argv[++i] : NULL, 5, 19, &size))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--seed")) {
			if (!cli_parse_int("--seed", i + 1 < argc ? argv[++i] : NULL, 1, 1 << 30, &seed))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			fprintf(stderr, "goref bench: unknown argument '%s'\n\n%s", argv[i], bench_usage);
			return EXIT_USAGE;
		}
	}
	gr_playout *p = malloc(sizeof *p);
	if (!p)
		return EXIT_INPUT;
	memset(p, 0, sizeof *p);
	gr_rng_seed(&p->rng, (uint64_t)seed);

	/* 1. random legal games to the end */
	long long moves = 0, games = 0;
	gr_board b, empty;
	gr_board_init(&empty, size);
	double t0 = now(), t;
	do {
		for (int k = 0; k < 20; k++) {
			b = empty;
			moves += gr_playout_run(p, &b, GR_BLACK, NULL, 0);
			games++;
		}
		t = now() - t0;
	} while (t < seconds);
	double mps = moves / t;

	/* 2. a 300-move legal game, replayed and checked */
	int rec_moves[GR_PLAYOUT_TABLE];
	int n;
	int tries = 0;
	gr_rng_seed(&p->rng, (uint64_t)seed); /* the same game whatever part 1 did */
	do {
		b = empty;
		n = gr_playout_run(p, &b, GR_BLACK, rec_moves, GR_PLAYOUT_TABLE);
	} while (n < 300 && ++tries < 1000);
	if (n < 300) {
		fprintf(stderr, "goref bench: no random game reached 300 moves on %dx%d\n", size, size);
		free(p);
		return EXIT_FOUND;
	}
	gr_record *rec = NULL;
	gr_game *g = NULL;
	if (gr_record_new(&rec, size) || gr_game_new(&g, size)) {
		free(p);
		return EXIT_INPUT;
	}
	for (int i = 0; i < 300; i++)
		gr_record_add_move(rec, i % 2 ? GR_WHITE : GR_BLACK, rec_moves[i], -1, NULL);
	long long replays = 0;
	int voids = 0;
	t0 = now();
	do {
		for (int k = 0; k < 100; k++)
			voids += gr_replay(g, rec, NULL, NULL);
		replays += 100;
		t = now() - t0;
	} while (t < seconds);
	double check_us = t / replays * 1e6;

	/* 3. one count of a finished position */
	b = empty;
	gr_playout_run(p, &b, GR_BLACK, NULL, 0);
	gr_count c;
	long long counts = 0;
	volatile double sink = 0;
	t0 = now();
	do {
		for (int k = 0; k < 1000; k++) {
			gr_count_board(&c, &b, NULL, GR_KOMI_DEFAULT, 0, 0);
			sink += c.black;
		}
		counts += 1000;
		t = now() - t0;
	} while (t < seconds);
	double count_us = t / counts * 1e6;

	/* 4. the 300-move game as an observation log, refereed */
	int nobs = 0;
	unsigned char(*obs)[GR_MAX_SIZE * GR_MAX_SIZE] = malloc(sizeof *obs * 600);
	if (!obs) {
		gr_game_free(g);
		gr_record_free(rec);
		free(p);
		return EXIT_INPUT;
	}
	b = empty;
	for (int i = 0; i < 300; i++) {
		gr_color c = i % 2 ? GR_WHITE : GR_BLACK;
		gr_board before = b;
		if (rec_moves[i] == GR_PASS) {
			gr_board_pass(&b);
			continue;
		}
		gr_board_play(&b, c, rec_moves[i]);
		for (int y = 0; y < size; y++)
			for (int x = 0; x < size; x++) {
				int pt = gr_pt(&b, x, y);
				obs[nobs][y * size + x] = b.color[pt] ? b.color[pt] : before.color[pt] == gr_other(c) ? gr_other(c) : 0;
			}
		nobs++;
		if (b.last_captures) {
			for (int y = 0; y < size; y++)
				for (int x = 0; x < size; x++)
					obs[nobs][y * size + x] = b.color[gr_pt(&b, x, y)];
			nobs++;
		}
	}
	long long events = 0, refgames = 0;
	t0 = now();
	do {
		for (int k = 0; k < 10; k++) {
			gr_referee *ref = NULL;
			if (gr_referee_new(&ref, size, NULL, count_event, &events) != 0)
				break;
			for (int i = 0; i < nobs; i++)
				gr_referee_observe(ref, i, obs[i]);
			gr_referee_free(ref);
		}
		refgames += 10;
		t = now() - t0;
	} while (t < seconds);
	double referee_us = t / refgames * 1e6;
	double events_per_s = events / t;
	free(obs);

	if (json) {
		printf("{\"size\":%d,\"seed\":%d,\"playout_games\":%lld,\"playout_moves\":%lld,"
		       "\"moves_per_second\":%.0f,\"check_300_moves_us\":%.2f,\"count_us\":%.3f,"
		       "\"referee_300_moves_us\":%.1f,\"referee_observations\":%d,\"referee_events_per_second\":%.0f,"
		       "\"void_moves_in_check\":%d}\n",
		       size, seed, games, moves, mps, check_us, count_us, referee_us, nobs, events_per_s, voids);
	} else {
		printf("goref bench, %dx%d, seed %d, about %g s a part, one core\n", size, size, seed, seconds);
		printf("  playouts: %lld random legal games to the end, %.1f moves a game, %.2f million moves/s\n",
		       games, (double)moves / games, mps / 1e6);
		printf("  check:    300-move game replayed and checked in %.2f us (%lld times)\n", check_us, replays);
		printf("  count:    one area count in %.3f us (%lld times)\n", count_us, counts);
		printf("  referee:  300-move log (%d observations) refereed in %.1f us, %.2f million events/s\n", nobs,
		       referee_us, events_per_s / 1e6);
		if (voids)
			printf("  note: %d void moves in the check game (expected 0)\n", voids);
	}
	gr_game_free(g);
	gr_record_free(rec);
	free(p);
	return voids ? EXIT_FOUND : EXIT_OK;
}
