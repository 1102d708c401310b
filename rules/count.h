/*
 * goref rules core: the area count (articles 9, 11, 24).
 *
 * Dead stones are taken off; each side's area is its live stones plus the
 * empty points that only its stones surround; empty points next to both
 * colours (dame, including the points between seki stones) are split half and
 * half. Black gives komi (3 3/4 stones by default) and each warning costs the
 * warned side one stone; a second warning loses the game outright.
 *
 * Figures are in stones (one point = one stone). On 19x19, half the board is
 * 180.5, so with komi 3.75 Black wins with more than 184.25 and White with
 * more than 176.75. The result reads "B+0.75" in stones and "B+1.5" in points
 * (SGF's RE, where komi is given in points: 7.5).
 */
#ifndef GOREF_RULES_COUNT_H
#define GOREF_RULES_COUNT_H

#include <stdbool.h>

#include "board.h"

#define GR_KOMI_DEFAULT 3.75     /* stones, the current edition (article 11) */
#define GR_KOMI_OLD_EDITION 2.75 /* stones, the older edition */

typedef struct gr_count {
	int size;
	int black_stones, white_stones;       /* live stones left on the board */
	int black_territory, white_territory; /* empty points only that side surrounds */
	int dame;                             /* empty points touching both, or neither */
	int black_dead, white_dead;           /* stones taken off as dead */
	double black, white;                  /* area: stones + territory + half the dame */
	double komi;                          /* stones Black gives */
	int black_warnings, white_warnings;
	gr_color winner;                      /* GR_BLACK, GR_WHITE, or GR_EMPTY for a draw */
	double margin;                        /* the winner's margin in stones (0 for a draw) */
	bool by_warnings;                     /* decided by a second warning (article 24.2) */
	char result[24];                      /* "B+0.75", "W+3", "Draw", "W+F" */
	char result_points[24];               /* "B+1.5", "0" for a draw, "W+F" */
} gr_count;

/* Counts b with the stones where dead[pt] is true taken off (dead may be
 * NULL: every stone alive). komi in stones; warnings per side. b is not
 * changed. Returns 0, or GR_EINVAL for a NULL argument. */
int gr_count_board(gr_count *out, const gr_board *b, const bool *dead, double komi,
                   int black_warnings, int white_warnings);

/* Formats a number of stones the way results are written: "0.75", "1.5", "3". */
char *gr_format_number(double v, char *buf, unsigned cap);

/* Plain words for the result: "Black wins by 3/4 stone", "White wins by
 * 2 1/2 stones", "Draw", "White wins: Black has a second warning". */
char *gr_count_words(const gr_count *c, char *buf, unsigned cap);

#endif
