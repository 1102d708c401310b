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
	"       goref bench --playouts N [--size N] [--seed N]\n"
	"\n"
	"Measures the rules core on one core. Each part runs for about S seconds\n"
	"(default 5) in 5 rounds; the figures are the median round and the best.\n"
	"  playouts  random legal games to the end (simple ko and situational\n"
	"            repetition respected, no filling of one's own one-point\n"
	"            eyes): moves per second\n"
	"  check     replay and check of a 300-move legal game: microseconds\n"
	"  count     one area count of a finished position: microseconds\n"
	"  referee   the same 300-move game as a clean observation log (a\n"
	"            position after each stone, and after its captures are\n"
	"            lifted), refereed from the first observation to the last:\n"
	"            microseconds a game, events a second\n"
	"Deterministic work for a seed (default 1); the times vary with the machine.\n"
	"--playouts N: exactly N random games from the empty board and nothing\n"
	"else, no timing: fixed work for an instruction counter\n"
	"(samples/bench_playout_instr.sh runs it under cachegrind).\n"
	"'goref bench --vision --help': the frame pipeline's bench.\n";

#define ROUNDS 5

typedef struct bench {
	int size;
	gr_board empty;
	gr_playout *p;
	gr_record *rec;  /* the 300-move game */
	gr_game *game;
	gr_board final;  /* a finished position */
	unsigned char (*obs)[GR_MAX_SIZE * GR_MAX_SIZE];
	int nobs;
	long long events;
	int voids;
} bench;

static void count_event(const gr_event *e, void *ud)
{
	(void)e;
	++*(long long *)ud;
}

/* One batch of each part; returns the units of work done (moves, games,
 * counts, games refereed). */
static long long batch_playouts(bench *B)
{
	long long moves = 0;
	for (int k = 0; k < 20; k++) {
		gr_board b = B->empty;
		moves += gr_playout_run(B->p, &b, GR_BLACK, NULL, 0);
	}
	return moves;
}

static long long batch_check(bench *B)
{
	for (int k = 0; k < 100; k++)
		B->voids += gr_replay(B->game, B->rec, NULL, NULL);
	return 100;
}

static long long batch_count(bench *B)
{
	gr_count c;
	for (int k = 0; k < 1000; k++)
		gr_count_board(&c, &B->final, NULL, GR_KOMI_DEFAULT, 0, 0);
	return 1000;
}

static long long batch_referee(bench *B)
{
	for (int k = 0; k < 10; k++) {
		gr_referee *ref = NULL;
		if (gr_referee_new(&ref, B->size, NULL, count_event, &B->events) != 0)
			return k;
		for (int i = 0; i < B->nobs; i++)
			gr_referee_observe(ref, i, B->obs[i]);
		gr_referee_free(ref);
	}
	return 10;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Runs a part for ROUNDS rounds of seconds / ROUNDS; rate[i] is units per
 * second in round i, sorted. Returns the total units. */
static long long run_part(bench *B, long long (*batch)(bench *), double seconds, double *rate)
{
	long long total = 0;
	for (int r = 0; r < ROUNDS; r++) {
		long long units = 0;
		double t0 = cli_wall_s(), t;
		do {
			units += batch(B);
			t = cli_wall_s() - t0;
		} while (t < seconds / ROUNDS);
		rate[r] = units / t;
		total += units;
	}
	qsort(rate, ROUNDS, sizeof *rate, cmp_double);
	return total;
}

/* The 300-move game as a clean log: a position after each stone (captures
 * still on), and one after its captures are lifted. */
static int make_log(bench *B, const int *moves)
{
	gr_board b = B->empty;
	int n = 0;
	for (int i = 0; i < 300; i++) {
		gr_color c = i % 2 ? GR_WHITE : GR_BLACK;
		gr_board before = b;
		if (moves[i] == GR_PASS) {
			gr_board_pass(&b);
			continue;
		}
		gr_board_play(&b, c, moves[i]);
		for (int y = 0; y < B->size; y++)
			for (int x = 0; x < B->size; x++) {
				int pt = gr_pt(&b, x, y);
				B->obs[n][y * B->size + x] =
				    b.color[pt] ? b.color[pt] : before.color[pt] == gr_other(c) ? gr_other(c) : 0;
			}
		n++;
		if (b.last_captures) {
			for (int y = 0; y < B->size; y++)
				for (int x = 0; x < B->size; x++)
					B->obs[n][y * B->size + x] = b.color[gr_pt(&b, x, y)];
			n++;
		}
	}
	return n;
}

int cmd_bench(int argc, char **argv)
{
	double seconds = 5;
	int size = 19, seed = 1;
	bool json = false;
	int playouts = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(bench_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--seconds")) {
			if (!cli_parse_double("--seconds", i + 1 < argc ? argv[++i] : NULL, 0.05, 3600, &seconds))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--size")) {
			if (!cli_parse_int("--size", i + 1 < argc ? argv[++i] : NULL, 7, 19, &size))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--seed")) {
			if (!cli_parse_int("--seed", i + 1 < argc ? argv[++i] : NULL, 1, 1 << 30, &seed))
				return EXIT_USAGE;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--playouts")) {
			if (!cli_parse_int("--playouts", i + 1 < argc ? argv[++i] : NULL, 1, 100000000, &playouts))
				return EXIT_USAGE;
		} else {
			fprintf(stderr, "goref bench: unknown argument '%s'\n\n%s", argv[i], bench_usage);
			return EXIT_USAGE;
		}
	}
	bench B;
	memset(&B, 0, sizeof B);
	B.size = size;
	gr_board_init(&B.empty, size);
	B.p = calloc(1, sizeof *B.p);
	int *moves = malloc(sizeof(int) * GR_PLAYOUT_TABLE);
	B.obs = malloc(sizeof *B.obs * 600);
	int rc = EXIT_INPUT;
	if (!B.p || !moves || !B.obs || gr_record_new(&B.rec, size) || gr_game_new(&B.game, size))
		goto out;

	if (playouts) {
		/* fixed work, no clock: for callgrind or cachegrind */
		gr_rng_seed(&B.p->rng, (uint64_t)seed);
		long long total = 0;
		for (int k = 0; k < playouts; k++) {
			gr_board b = B.empty;
			total += gr_playout_run(B.p, &b, GR_BLACK, NULL, 0);
		}
		printf("playouts: %d games, %lld moves\n", playouts, total);
		rc = EXIT_OK;
		goto out;
	}
	/* the work, fixed by the seed: a 300-move game, a finished position */
	gr_rng_seed(&B.p->rng, (uint64_t)seed);
	int n = 0;
	for (int tries = 0; n < 300 && tries < 1000; tries++) {
		B.final = B.empty;
		n = gr_playout_run(B.p, &B.final, GR_BLACK, moves, GR_PLAYOUT_TABLE);
	}
	if (n < 300) {
		fprintf(stderr, "goref bench: no random game reached 300 moves on %dx%d\n", size, size);
		rc = EXIT_FOUND;
		goto out;
	}
	for (int i = 0; i < 300; i++)
		gr_record_add_move(B.rec, i % 2 ? GR_WHITE : GR_BLACK, moves[i], -1, NULL);
	B.nobs = make_log(&B, moves);
	gr_rng_seed(&B.p->rng, (uint64_t)seed);

	double mps[ROUNDS], chk[ROUNDS], cnt[ROUNDS], ref[ROUNDS];
	long long moves_total = run_part(&B, batch_playouts, seconds, mps);
	run_part(&B, batch_check, seconds, chk);
	run_part(&B, batch_count, seconds, cnt);
	B.events = 0;
	long long refgames = run_part(&B, batch_referee, seconds, ref);
	double events_per_game = refgames ? (double)B.events / refgames : 0;
	int mid = ROUNDS / 2, top = ROUNDS - 1;
	/* rates are per second: the median round, and the best (fastest) */
	if (json) {
		printf("{\"size\":%d,\"seed\":%d,\"rounds\":%d,\"seconds\":%g,"
		       "\"moves_per_second\":%.0f,\"moves_per_second_best\":%.0f,"
		       "\"check_300_moves_us\":%.2f,\"check_300_moves_us_best\":%.2f,"
		       "\"count_us\":%.3f,\"count_us_best\":%.3f,"
		       "\"referee_300_moves_us\":%.1f,\"referee_300_moves_us_best\":%.1f,"
		       "\"referee_observations\":%d,\"referee_events_per_second\":%.0f,\"void_moves_in_check\":%d}\n",
		       size, seed, ROUNDS, seconds, mps[mid], mps[top], 1e6 / chk[mid], 1e6 / chk[top], 1e6 / cnt[mid],
		       1e6 / cnt[top], 1e6 / ref[mid], 1e6 / ref[top], B.nobs, ref[mid] * events_per_game, B.voids);
	} else {
		printf("goref bench, %dx%d, seed %d, %d rounds of %g s a part, one core (median round; best)\n", size,
		       size, seed, ROUNDS, seconds / ROUNDS);
		printf("  playouts: %.2f million moves/s; best %.2f  (%lld moves)\n", mps[mid] / 1e6, mps[top] / 1e6,
		       moves_total);
		printf("  check:    300-move game replayed and checked in %.2f us; best %.2f\n", 1e6 / chk[mid],
		       1e6 / chk[top]);
		printf("  count:    one area count in %.3f us; best %.3f\n", 1e6 / cnt[mid], 1e6 / cnt[top]);
		printf("  referee:  300-move log (%d observations) in %.1f us; best %.1f; %.2f million events/s\n",
		       B.nobs, 1e6 / ref[mid], 1e6 / ref[top], ref[mid] * events_per_game / 1e6);
		if (B.voids)
			printf("  note: %d void moves in the check game (expected 0)\n", B.voids);
	}
	rc = B.voids ? EXIT_FOUND : EXIT_OK;
out:
	gr_game_free(B.game);
	gr_record_free(B.rec);
	free(B.obs);
	free(moves);
	free(B.p);
	return rc;
}
