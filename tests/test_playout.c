/* Random playouts: every move they make is legal for gr_game too, and the
 * board they leave is the board a replay of their moves gives. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "playout.h"
#include "record.h"
#include "replay.h"

static void check_size(int size, int games)
{
	gr_playout *p = calloc(1, sizeof *p);
	assert_non_null(p);
	gr_game *g;
	assert_int_equal(gr_game_new(&g, size), 0);
	int *moves = malloc(sizeof(int) * GR_PLAYOUT_TABLE);
	for (int seed = 1; seed <= games; seed++) {
		gr_rng_seed(&p->rng, (uint64_t)seed);
		gr_board b;
		gr_board_init(&b, size);
		int n = gr_playout_run(p, &b, GR_BLACK, moves, GR_PLAYOUT_TABLE);
		assert_true(n > 0);
		assert_true(gr_board_consistent(&b));
		gr_record *r;
		assert_int_equal(gr_record_new(&r, size), 0);
		for (int i = 0; i < n; i++)
			assert_int_equal(gr_record_add_move(r, i % 2 ? GR_WHITE : GR_BLACK, moves[i], -1, NULL), 0);
		int voids = gr_replay(g, r, NULL, NULL);
		if (voids != 0)
			fail_msg("size %d seed %d: %d void moves in a playout", size, seed, voids);
		assert_true(gr_board_same(gr_game_board(g), &b));
		assert_int_equal(gr_game_board(g)->hash, b.hash);
		/* a playout ends with two passes (or at the move limit) */
		if (n < 3 * size * size)
			assert_true(n >= 2 && moves[n - 1] == GR_PASS && moves[n - 2] == GR_PASS);
		gr_record_free(r);
	}
	free(moves);
	gr_game_free(g);
	free(p);
}

static void test_playouts_are_legal_9(void **s) { (void)s; check_size(9, 2000); }
static void test_playouts_are_legal_13(void **s) { (void)s; check_size(13, 500); }
static void test_playouts_are_legal_19(void **s) { (void)s; check_size(19, 300); }

static void test_deterministic(void **s)
{
	(void)s;
	gr_playout *p = calloc(1, sizeof *p);
	gr_board a, b;
	gr_board_init(&a, 19);
	gr_board_init(&b, 19);
	gr_rng_seed(&p->rng, 42);
	int na = gr_playout_run(p, &a, GR_BLACK, NULL, 0);
	gr_rng_seed(&p->rng, 42);
	int nb = gr_playout_run(p, &b, GR_BLACK, NULL, 0);
	assert_int_equal(na, nb);
	assert_true(gr_board_same(&a, &b));
	free(p);
}

/* A playout clears only the table slots the last one filled: a reused
 * playout struct plays exactly the game a fresh one plays, whatever ran in
 * it before (long games, short ones, a struct never cleared). */
static void test_reused_same_as_fresh(void **s)
{
	(void)s;
	gr_playout *used = malloc(sizeof *used), *fresh = malloc(sizeof *fresh);
	assert_non_null(used);
	assert_non_null(fresh);
	memset(used, 0xa5, sizeof *used); /* garbage: the first run must clear it all */
	used->max_moves = 0;
	int ma[GR_PLAYOUT_TABLE], mb[GR_PLAYOUT_TABLE];
	for (int seed = 1; seed <= 60; seed++) {
		int size = seed % 3 == 0 ? 9 : seed % 3 == 1 ? 19 : 5;
		memset(fresh, 0, sizeof *fresh);
		gr_rng_seed(&used->rng, (uint64_t)seed);
		gr_rng_seed(&fresh->rng, (uint64_t)seed);
		gr_board a, b;
		gr_board_init(&a, size);
		gr_board_init(&b, size);
		int na = gr_playout_run(used, &a, GR_BLACK, ma, GR_PLAYOUT_TABLE);
		int nb = gr_playout_run(fresh, &b, GR_BLACK, mb, GR_PLAYOUT_TABLE);
		if (na != nb || memcmp(ma, mb, sizeof(int) * (size_t)na) != 0)
			fail_msg("seed %d (%dx%d): a reused playout struct played another game", seed, size, size);
		assert_true(gr_board_same(&a, &b));
	}
	free(used);
	free(fresh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_playouts_are_legal_9),
		cmocka_unit_test(test_playouts_are_legal_13),
		cmocka_unit_test(test_playouts_are_legal_19),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_reused_same_as_fresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
