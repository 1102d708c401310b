/*
 * The dead-stone proposal (rules/dead.h) against GNU Go, on finished GNU Go
 * self-play games (tests/fixtures/selfplay/, made by samples/selfplay.sh).
 *
 * Each fixture NNxNN-sSSSS.txt is the final position with GNU Go's
 * `final_status_list dead` marked 'x' / 'o', and NNxNN-sSSSS.sgf the moves.
 * Per game: replaying the moves with gr_game must give the diagram (the
 * fixture is sound), then goref's proposal and GNU Go's dead stones are both
 * counted with gr_count_board; the game agrees when the two counts are the
 * same. Games that differ are printed with both diagrams and the stones in
 * question. The test fails when fewer games agree than AGREE_MIN below (what
 * was reached when the fixtures were made) or any replay fails.
 *
 * GOREF_DEAD_PLAYOUTS=n and GOREF_DEAD_SEED=s in the environment change the
 * options (for measuring); the floor is only checked with the defaults here.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "count.h"
#include "dead.h"
#include "game.h"

#define SELFPLAY_DIR "selfplay"
#define TEST_PLAYOUTS GR_DEAD_PLAYOUTS_DEFAULT
#define TEST_SEED 1

/* Games that must agree with GNU Go's level-1 and level-10 dead lists, of
 * all the fixtures: what was reached when they were made (47 of 49 and 43 of
 * 49, the same with seeds 1 to 5 and with 300 or 3000 playouts). */
#define AGREE_MIN 47
#define AGREE10_MIN 43

typedef struct tally {
	int finished, finished_agree; /* games gr_dead_finished accepts */
	int seki_games, seki_agree;   /* games with seki stones for either */
	int games, agree;     /* against the diagram's marks (level 1) */
	int games10, agree10; /* against "# dead_level10:" where present */
	double seconds;
} tally;

/* Marks the stones named in a space-separated list of GTP points. Returns
 * false when a name is not a stone of b. */
static bool parse_points(const gr_board *b, const char *list, bool *mask)
{
	memset(mask, 0, GR_MAX_POINTS * sizeof *mask);
	char buf[8];
	while (*list) {
		while (*list == ' ')
			list++;
		size_t n = strcspn(list, " ");
		if (n == 0)
			break;
		if (n >= sizeof buf)
			return false;
		memcpy(buf, list, n);
		buf[n] = 0;
		list += n;
		int pt = gr_point_parse(b, buf);
		if (pt == GR_NONE || pt == GR_PASS || b->color[pt] == GR_EMPTY)
			return false;
		mask[pt] = true;
	}
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the *.txt fixtures; returns how many (at most cap). */
static int list_games(char **names, int cap)
{
	DIR *d = opendir(tu_fixture(SELFPLAY_DIR));
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < cap) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".txt")) {
			names[n] = malloc(len - 3);
			memcpy(names[n], e->d_name, len - 4);
			names[n][len - 4] = 0;
			n++;
		}
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	return n;
}

/* The value of "# key: value" in a fixture, or NULL (static buffer). */
static const char *header(const char *text, const char *key)
{
	static char val[4096];
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (l[0] == '#' && l[1] == ' ' && !strncmp(l + 2, key, kl) && l[2 + kl] == ':') {
			const char *v = l + 3 + kl;
			while (*v == ' ')
				v++;
			size_t n = strcspn(v, "\n");
			if (n >= sizeof val)
				n = sizeof val - 1;
			memcpy(val, v, n);
			val[n] = 0;
			return val;
		}
	}
	return NULL;
}

/* Replays the SGF's moves (;B[xy] / ;W[xy] / ;B[]) with gr_game and checks
 * the final board is the diagram's. Returns true when it is. */
static bool replay_matches(const char *name, const gr_board *want)
{
	char file[300];
	snprintf(file, sizeof file, SELFPLAY_DIR "/%s.sgf", name);
	char *sgf = tu_read_file(tu_fixture(file), NULL);
	if (!sgf) {
		print_message("%s: no %s\n", name, file);
		return false;
	}
	gr_game *g;
	assert_int_equal(gr_game_new(&g, want->size), 0);
	bool ok = true;
	for (const char *s = sgf; (s = strchr(s, ';')); s++) {
		gr_color c = s[1] == 'B' ? GR_BLACK : s[1] == 'W' ? GR_WHITE : GR_EMPTY;
		if (c == GR_EMPTY || s[2] != '[')
			continue;
		if (s[3] == ']') {
			gr_game_pass(g, c);
			continue;
		}
		const gr_board *b = gr_game_board(g);
		int pt = gr_pt(b, s[3] - 'a', s[4] - 'a');
		gr_legality l = gr_game_play(g, c, pt);
		if (l != GR_LEGAL) {
			char buf[8];
			print_message("%s: %s %s is %s when replayed\n", name, c == GR_BLACK ? "B" : "W",
			              gr_point_name(b, pt, buf), gr_legality_name(l));
			ok = false;
			break;
		}
	}
	if (ok && !gr_board_same(gr_game_board(g), want)) {
		print_message("%s: the replayed moves do not give the diagram\n", name);
		ok = false;
	}
	if (ok && gr_game_state_of(g) != GR_ENDED_PASSES) {
		print_message("%s: the game did not end with two passes\n", name);
		ok = false;
	}
	gr_game_free(g);
	free(sgf);
	return ok;
}

static void print_stones(const gr_board *b, const char *what, const bool *mine, const bool *theirs,
                         const gr_dead_result *r)
{
	char line[4096];
	int n = 0;
	line[0] = 0;
	for (int p = 0; p < b->stride * b->stride; p++) {
		if (!gr_on_board(b, p) || b->color[p] == GR_EMPTY || !mine[p] || theirs[p])
			continue;
		char buf[8];
		n += snprintf(line + n, sizeof line - (size_t)n, " %s%s(%s%s %+.2f)",
		              b->color[p] == GR_BLACK ? "B" : "W", gr_point_name(b, p, buf),
		              gr_dead_reason_name((gr_dead_reason)r->reason[p]),
		              r->uncertain[p] ? ", uncertain" : "", (double)r->ownership[p]);
		if (n > (int)sizeof line - 64)
			break;
	}
	if (n)
		print_message("  %s:%s\n", what, line);
}

static int count_marks(const bool *m)
{
	int n = 0;
	for (int p = 0; p < GR_MAX_POINTS; p++)
		n += m[p];
	return n;
}

static int count_stones(const gr_board *b, const bool *m)
{
	int n = 0;
	for (int p = 0; p < GR_MAX_POINTS; p++)
		n += m[p] && gr_on_board(b, p) && b->color[p] != GR_EMPTY;
	return n;
}

static int size_slot(int size) { return size <= 9 ? 0 : size <= 13 ? 1 : 2; }

static void test_agreement_with_gnugo(void **state)
{
	(void)state;
	char *names[1000];
	int ngames = list_games(names, 1000);
	if (ngames == 0) {
		print_message("no fixtures in %s\n", tu_fixture(SELFPLAY_DIR));
		skip();
	}
	gr_dead_options opt;
	gr_dead_options_init(&opt);
	opt.playouts = TEST_PLAYOUTS;
	opt.seed = TEST_SEED;
	bool defaults = true;
	const char *env = getenv("GOREF_DEAD_PLAYOUTS");
	if (env && *env) {
		opt.playouts = atoi(env);
		defaults = false;
	}
	env = getenv("GOREF_DEAD_SEED");
	if (env && *env) {
		opt.seed = strtoull(env, NULL, 10);
		defaults = false;
	}
	tally t[3] = {{0}};
	int replay_failures = 0;
	for (int i = 0; i < ngames; i++) {
		char file[300];
		snprintf(file, sizeof file, SELFPLAY_DIR "/%s.txt", names[i]);
		size_t len;
		char *text = tu_read_file(tu_fixture(file), &len);
		assert_non_null(text);
		gr_board b;
		bool gnugo_dead[GR_MAX_POINTS];
		tu_load_diagram(&b, gnugo_dead, file);
		const char *tm_text = header(text, "to_move");
		assert_non_null(tm_text);
		gr_color to_move = !strcmp(tm_text, "white") ? GR_WHITE : GR_BLACK;
		const char *tm = to_move == GR_WHITE ? "white" : "black";
		if (!replay_matches(names[i], &b))
			replay_failures++;

		static gr_dead_result r;
		clock_t c0 = clock();
		assert_int_equal(gr_dead_analyse(&r, &b, to_move, &opt), 0);
		double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;

		/* the diagram's marks must be the "# dead:" line */
		bool listed[GR_MAX_POINTS];
		const char *line = header(text, "dead");
		assert_non_null(line);
		assert_true(parse_points(&b, line, listed));
		assert_memory_equal(listed, gnugo_dead, sizeof listed);

		gr_count mine, theirs;
		assert_int_equal(gr_count_board(&mine, &b, r.dead, GR_KOMI_DEFAULT, 0, 0), 0);
		assert_int_equal(gr_count_board(&theirs, &b, gnugo_dead, GR_KOMI_DEFAULT, 0, 0), 0);
		bool agree = mine.black == theirs.black && mine.white == theirs.white;
		tally *ts = &t[size_slot(b.size)];
		ts->games++;
		ts->agree += agree;
		ts->seconds += secs;
		bool finished = gr_dead_finished(&r, &b, NULL);
		ts->finished += finished;
		ts->finished_agree += finished && agree;
		/* seki: GNU Go's final_status_list seki against goref's seki stones */
		bool gnugo_seki[GR_MAX_POINTS];
		line = header(text, "seki");
		assert_non_null(line);
		assert_true(parse_points(&b, line, gnugo_seki));
		bool seki_same = true;
		for (int p = 0; p < GR_MAX_POINTS; p++)
			if (b.color[p] != GR_EMPTY && gr_on_board(&b, p) && gnugo_seki[p] != r.seki[p])
				seki_same = false;
		if (count_marks(gnugo_seki) || !seki_same) {
			ts->seki_games++;
			ts->seki_agree += seki_same;
			print_message("%s: seki stones, GNU Go %d, goref %d%s\n", names[i],
			              count_marks(gnugo_seki), count_stones(&b, r.seki),
			              seki_same ? ", the same" : ", not the same");
		}
		bool dead10[GR_MAX_POINTS];
		line = header(text, "dead_level10");
		bool has10 = line != NULL;
		bool agree10 = false;
		if (has10) {
			assert_true(parse_points(&b, line, dead10));
			gr_count c10;
			assert_int_equal(gr_count_board(&c10, &b, dead10, GR_KOMI_DEFAULT, 0, 0), 0);
			agree10 = mine.black == c10.black && mine.white == c10.white;
			ts->games10++;
			ts->agree10 += agree10;
			if (!agree10) {
				print_message("%s: goref %s, GNU Go level 10 %s\n", names[i], mine.result,
				              c10.result);
				print_stones(&b, "dead for goref only", r.dead, dead10, &r);
				print_stones(&b, "dead for GNU Go level 10 only", dead10, r.dead, &r);
			}
		}
		if (!agree) {
			char diagram[2][GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
			gr_diagram_write(&b, r.dead, diagram[0], sizeof diagram[0]);
			gr_diagram_write(&b, gnugo_dead, diagram[1], sizeof diagram[1]);
			print_message("%s (%s to move): goref %s (B %g W %g), GNU Go %s (B %g W %g); "
			              "GNU Go level 10 %s\n",
			              names[i], tm, mine.result, mine.black, mine.white, theirs.result,
			              theirs.black, theirs.white,
			              !has10 ? "not asked" : agree10 ? "agrees with goref" : "agrees with level 1 or neither");
			print_message("  goref%*s GNU Go\n", b.size - 4, "");
			const char *l0 = diagram[0], *l1 = diagram[1];
			for (int y = 0; y < b.size; y++) {
				print_message("  %.*s  %.*s\n", b.size, l0, b.size, l1);
				l0 = strchr(l0, '\n') + 1;
				l1 = strchr(l1, '\n') + 1;
			}
			print_stones(&b, "dead for goref only", r.dead, gnugo_dead, &r);
			print_stones(&b, "dead for GNU Go only", gnugo_dead, r.dead, &r);
			print_message("  gr_dead_finished: %s\n", finished ? "yes" : "no");
		}
		free(text);
		free(names[i]);
	}
	static const char *const slot_name[3] = {"9x9", "13x13", "19x19"};
	int agree = 0, total = 0, agree10 = 0, total10 = 0;
	for (int s = 0; s < 3; s++) {
		if (!t[s].games)
			continue;
		print_message("%-5s: %d of %d games agree with GNU Go (level 1), %d of %d with level 10; "
		              "%d of the %d that look finished; %.3f s per position (%d playouts)\n",
		              slot_name[s], t[s].agree, t[s].games, t[s].agree10, t[s].games10,
		              t[s].finished_agree, t[s].finished, t[s].seconds / t[s].games, opt.playouts);
		agree += t[s].agree;
		total += t[s].games;
		agree10 += t[s].agree10;
		total10 += t[s].games10;
	}
	print_message("all  : %d of %d games agree with GNU Go (level 1), %d of %d with level 10\n",
	              agree, total, agree10, total10);
	int seki_games = t[0].seki_games + t[1].seki_games + t[2].seki_games;
	int seki_agree = t[0].seki_agree + t[1].seki_agree + t[2].seki_agree;
	print_message("seki : %d of %d games with seki stones (for either) have the same ones\n",
	              seki_agree, seki_games);
	assert_int_equal(replay_failures, 0);
	if (defaults) {
		assert_true(agree >= AGREE_MIN);
		assert_true(agree10 >= AGREE10_MIN);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreement_with_gnugo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
