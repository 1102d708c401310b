/* goref program: positions read while points lay beyond the frame. See withhold.h. */
#include "withhold.h"

#include <string.h>

bool gd_withhold(const gv_observation *obs, const unsigned char *last, int last_size)
{
	return obs->noutside > 0 && last_size == obs->size &&
	       memcmp(obs->cells, last, (size_t)obs->size * (size_t)obs->size) != 0;
}

/* Whether cells is one plain move from b: one new stone, of colour c. */
static bool plain_move(const gr_board *b, gr_color c, const unsigned char *cells, int n)
{
	int added = 0, right = 0;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			unsigned char was = (unsigned char)b->color[gr_pt(b, x, y)], now = cells[y * n + x];
			if (now != GR_EMPTY && now != was) {
				added++;
				right += now == c && was == GR_EMPTY;
			}
		}
	return added == 1 && right == 1;
}

gd_withheld_fate gd_withheld_settle(const gv_observation *pend, const gv_observation *obs, const gr_board *b,
                                    gr_color to_move, bool seen_before, double max_wait, int *changed)
{
	int n = pend->size, unseen = 0, theirs = 0;
	*changed = 0;
	if (obs->size != n)
		return GD_WITHHELD_OUT;
	for (int k = 0; k < n * n; k++) {
		if (!pend->outside[k])
			continue;
		if (obs->held[k]) {
			unseen++;
		} else if (obs->cells[k] != pend->cells[k]) {
			(*changed)++;
			theirs += pend->cells[k] == GR_EMPTY && obs->cells[k] == to_move;
		}
	}
	if (*changed && theirs && b && b->size == n && !seen_before && !plain_move(b, to_move, pend->cells, n))
		return GD_WITHHELD_DROP;
	if (!*changed && unseen && obs->t - pend->t < max_wait && !memcmp(obs->cells, pend->cells, (size_t)n * (size_t)n))
		return GD_WITHHELD_WAIT;
	return GD_WITHHELD_OUT;
}
