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

/* The fast board against the general one: the same random games played on
 * both (gr_playout_play and gr_board_play), and before every move every
 * point's legality for both colours asked of both (gr_playout_check and
 * gr_board_check, with the hash after the move); after every move the
 * stones, the groups and their stone lists, the hash, the ko and the fast
 * board's list of empty points and eye bits compared. The moves are drawn
 * by another generator among all the legal ones (own eyes filled too, now
 * and then a pass), so the fast board meets what playouts seldom make. */
static void compare_boards(const gr_board *fast, const gr_board *ref, int size, int seed, int move)
{
	int n = ref->stride * ref->stride;
	if (memcmp(fast->color, ref->color, (size_t)n) != 0 || fast->hash != ref->hash ||
	    fast->ko != ref->ko || (ref->ko != GR_NONE && fast->ko_color != ref->ko_color) ||
	    fast->last_captures != ref->last_captures || fast->captured[1] != ref->captured[1] ||
	    fast->captured[2] != ref->captured[2] || fast->stones[1] != ref->stones[1] ||
	    fast->stones[2] != ref->stones[2])
		fail_msg("size %d seed %d move %d: the fast board differs from gr_board_play's", size, seed, move);
	for (int pt = 0; pt < n; pt++) {
		if (ref->color[pt] != GR_BLACK && ref->color[pt] != GR_WHITE)
			continue;
		int g = ref->group[pt];
		if (fast->group[pt] != g || fast->next[pt] != ref->next[pt] || fast->libs[g] != ref->libs[g] ||
		    fast->gsize[g] != ref->gsize[g] || fast->ghash[g] != ref->ghash[g])
			fail_msg("size %d seed %d move %d: the fast board's group at %d differs", size, seed, move, pt);
	}
}

static void check_fast_board(int size, int games)
{
	gr_playout *p = malloc(sizeof *p);
	assert_non_null(p);
	memset(p, 0x5a, sizeof *p); /* garbage: gr_playout_start must set what it uses */
	int cand[GR_MAX_POINTS];
	for (int seed = 1; seed <= games; seed++) {
		gr_rng rng;
		gr_rng_seed(&rng, (uint64_t)seed * 7919u);
		gr_board fast, ref;
		gr_board_init(&fast, size);
		gr_board_init(&ref, size);
		gr_playout_start(p, &fast);
		gr_color c = GR_BLACK;
		int passes = 0;
		for (int move = 0; move < 4 * size * size && passes < 2; move++) {
			int n = 0, all = gr_rng_below(&rng, 10) == 0;
			for (int pt = 0; pt < GR_MAX_POINTS; pt++) {
				for (gr_color k = GR_BLACK; k <= GR_WHITE; k++) {
					uint64_t h1 = 1, h2 = 2;
					gr_legality l1 = gr_playout_check(p, &fast, k, pt, &h1);
					gr_legality l2 = gr_board_check(&ref, k, pt, &h2);
					if (l1 != l2 || (l1 == GR_LEGAL && h1 != h2))
						fail_msg("size %d seed %d move %d: %s at %d: fast board %s (hash %016llx), "
						         "gr_board %s (hash %016llx)", size, seed, move,
						         k == GR_BLACK ? "black" : "white", pt, gr_legality_name(l1),
						         (unsigned long long)h1, gr_legality_name(l2), (unsigned long long)h2);
				}
				if (gr_board_check(&ref, c, pt, NULL) == GR_LEGAL && (all || !gr_board_is_eyelike(&ref, pt, c)))
					cand[n++] = pt;
			}
			int pt = n && gr_rng_below(&rng, 40) ? cand[gr_rng_below(&rng, (uint32_t)n)] : GR_PASS;
			if (pt == GR_PASS) {
				gr_board_pass(&fast);
				gr_board_pass(&ref);
				passes++;
			} else {
				gr_playout_play(p, &fast, c, pt);
				assert_int_equal(gr_board_play(&ref, c, pt), GR_LEGAL);
				passes = 0;
			}
			compare_boards(&fast, &ref, size, seed, move);
			if (!gr_board_consistent(&fast) || !gr_playout_consistent(p, &fast))
				fail_msg("size %d seed %d move %d: the fast board is not consistent", size, seed, move);
			c = gr_other(c);
		}
	}
	free(p);
}

static void test_fast_board_5(void **s) { (void)s; check_fast_board(5, 200); }
static void test_fast_board_9(void **s) { (void)s; check_fast_board(9, 100); }
static void test_fast_board_19(void **s) { (void)s; check_fast_board(19, 10); }

/* The playouts as they were before the fast board (commit 781d9f0):
 * gr_board_check_point and gr_board_play_legal, the empty points in a list
 * kept the same way, the positions in a table. gr_playout_run must play
 * exactly these games for the same seeds. */
typedef struct ref_playout {
	gr_rng rng;
	uint64_t seen[GR_PLAYOUT_TABLE];
} ref_playout;

static bool ref_has(const ref_playout *r, uint64_t h)
{
	for (unsigned i = (unsigned)h & (GR_PLAYOUT_TABLE - 1);; i = (i + 1) & (GR_PLAYOUT_TABLE - 1)) {
		if (r->seen[i] == h)
			return true;
		if (!r->seen[i])
			return false;
	}
}

static void ref_add(ref_playout *r, uint64_t h)
{
	unsigned i = (unsigned)h & (GR_PLAYOUT_TABLE - 1);
	while (r->seen[i] && r->seen[i] != h)
		i = (i + 1) & (GR_PLAYOUT_TABLE - 1);
	r->seen[i] = h;
}

static int ref_run(ref_playout *r, gr_board *b, int *record)
{
	int16_t list[GR_MAX_POINTS], idx[GR_MAX_POINTS];
	int n = 0;
	for (int i = 0; i < GR_MAX_POINTS; i++)
		idx[i] = -1;
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] == GR_EMPTY) {
				idx[pt] = (int16_t)n;
				list[n++] = (int16_t)pt;
			}
		}
	memset(r->seen, 0, sizeof r->seen);
	int max = 3 * b->size * b->size;
	if (max > GR_PLAYOUT_TABLE / 2 - 1)
		max = GR_PLAYOUT_TABLE / 2 - 1;
	gr_color c = GR_BLACK;
	ref_add(r, gr_position_key(b->hash, c));
	int moves = 0, passes = 0;
	while (moves < max && passes < 2) {
		int pt = GR_PASS;
		if (n > 0) {
			int start = (int)gr_rng_below(&r->rng, (uint32_t)n);
			for (int k = 0; k < n; k++) {
				int q = list[(start + k) % n];
				uint64_t after;
				if (gr_board_is_eyelike(b, q, c) || gr_board_check_point(b, c, q, &after) != GR_LEGAL ||
				    ref_has(r, gr_position_key(after, gr_other(c))))
					continue;
				pt = q;
				break;
			}
		}
		if (pt == GR_PASS) {
			gr_board_pass(b);
			passes++;
		} else {
			gr_board_play_legal(b, c, pt);
			passes = 0;
			int i = idx[pt];
			list[i] = list[--n];
			idx[list[i]] = (int16_t)i;
			idx[pt] = -1;
			const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
			for (int k = 0; k < 4; k++) {
				if (b->color[nb[k]] != GR_EMPTY || idx[nb[k]] >= 0)
					continue;
				int s = nb[k];
				do {
					idx[s] = (int16_t)n;
					list[n++] = (int16_t)s;
					s = b->next[s];
				} while (s != nb[k]);
			}
		}
		record[moves++] = pt;
		c = gr_other(c);
		ref_add(r, gr_position_key(b->hash, c));
	}
	return moves;
}

static void test_same_games_as_before(void **s)
{
	(void)s;
	gr_playout *p = calloc(1, sizeof *p);
	ref_playout *r = calloc(1, sizeof *r);
	assert_non_null(p);
	assert_non_null(r);
	int ma[GR_PLAYOUT_TABLE], mb[GR_PLAYOUT_TABLE];
	long long total = 0;
	for (int seed = 1; seed <= 150; seed++) {
		int size = seed % 3 == 0 ? 9 : seed % 3 == 1 ? 19 : 5;
		gr_rng_seed(&p->rng, (uint64_t)seed);
		gr_rng_seed(&r->rng, (uint64_t)seed);
		gr_board a, b;
		gr_board_init(&a, size);
		gr_board_init(&b, size);
		int na = gr_playout_run(p, &a, GR_BLACK, ma, GR_PLAYOUT_TABLE);
		int nb = ref_run(r, &b, mb);
		if (na != nb || memcmp(ma, mb, sizeof(int) * (size_t)na) != 0)
			fail_msg("seed %d (%dx%d): gr_playout_run played another game than before", seed, size, size);
		assert_true(gr_board_same(&a, &b));
		assert_int_equal(a.hash, b.hash);
		total += na;
	}
	assert_true(total > 150 * 50);
	free(p);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_playouts_are_legal_9),
		cmocka_unit_test(test_playouts_are_legal_13),
		cmocka_unit_test(test_playouts_are_legal_19),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_reused_same_as_fresh),
		cmocka_unit_test(test_fast_board_5),
		cmocka_unit_test(test_fast_board_9),
		cmocka_unit_test(test_fast_board_19),
		cmocka_unit_test(test_same_games_as_before),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
