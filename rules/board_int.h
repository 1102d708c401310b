/*
 * goref rules: what the general board (board.c) and the playouts' fast
 * board (playout.c) share inside rules/; not part of the API.
 */
#ifndef GOREF_RULES_BOARD_INT_H
#define GOREF_RULES_BOARD_INT_H

#include "board.h"

/* Joins group g into group a (the larger keeps its label; the smaller's
 * stones are relabelled). The stone lists are spliced, a's next first:
 * their order decides where a captured group's points come back into the
 * playouts' list of empty points, so the playouts' games depend on it. */
static inline void gr_merge_groups(gr_board *b, int a, int g)
{
	if (a == g)
		return;
	if (b->gsize[a] < b->gsize[g]) {
		int t = a;
		a = g;
		g = t;
	}
	int s = g;
	do {
		b->group[s] = (int16_t)a;
		s = b->next[s];
	} while (s != g);
	int16_t t = b->next[a];
	b->next[a] = b->next[g];
	b->next[g] = t;
	b->libs[a] += b->libs[g];
	b->gsize[a] += b->gsize[g];
	b->ghash[a] ^= b->ghash[g];
}

#endif
