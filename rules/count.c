/* goref rules core: the area count. See count.h. */
#include "count.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

char *gr_format_number(double v, char *buf, unsigned cap)
{
	/* results are multiples of 1/4 stone: at most two decimals */
	snprintf(buf, cap, "%.2f", v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0')
			*end-- = 0;
		if (end == dot)
			*end = 0;
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	return buf;
}

int gr_count_board(gr_count *out, const gr_board *b, const bool *dead, double komi,
                   int black_warnings, int white_warnings)
{
	if (!out || !b)
		return GR_EINVAL;
	memset(out, 0, sizeof *out);
	out->size = b->size;
	out->komi = komi;
	out->black_warnings = black_warnings;
	out->white_warnings = white_warnings;

	uint8_t col[GR_MAX_POINTS];
	memcpy(col, b->color, sizeof col);
	int n = b->stride * b->stride;
	for (int i = 0; i < n; i++) {
		if (dead && dead[i] && (col[i] == GR_BLACK || col[i] == GR_WHITE)) {
			if (col[i] == GR_BLACK)
				out->black_dead++;
			else
				out->white_dead++;
			col[i] = GR_EMPTY;
		}
		if (col[i] == GR_BLACK)
			out->black_stones++;
		else if (col[i] == GR_WHITE)
			out->white_stones++;
	}
	/* flood fill each empty region and see which colours border it */
	uint8_t seen[GR_MAX_POINTS];
	int stack[GR_MAX_POINTS];
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < n; i++) {
		if (col[i] != GR_EMPTY || seen[i])
			continue;
		int sp = 0, region = 0, borders = 0;
		stack[sp++] = i;
		seen[i] = 1;
		while (sp) {
			int s = stack[--sp];
			region++;
			const int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
			for (int k = 0; k < 4; k++) {
				uint8_t c = col[nb[k]];
				if (c == GR_EMPTY) {
					if (!seen[nb[k]]) {
						seen[nb[k]] = 1;
						stack[sp++] = nb[k];
					}
				} else if (c == GR_BLACK || c == GR_WHITE) {
					borders |= c;
				}
			}
		}
		if (borders == GR_BLACK)
			out->black_territory += region;
		else if (borders == GR_WHITE)
			out->white_territory += region;
		else
			out->dame += region;
	}
	out->black = out->black_stones + out->black_territory + out->dame / 2.0;
	out->white = out->white_stones + out->white_territory + out->dame / 2.0;

	char num[16];
	if (black_warnings >= 2 || white_warnings >= 2) {
		/* article 24.2: a second warning loses the game (both: no winner) */
		out->by_warnings = true;
		if (black_warnings >= 2 && white_warnings >= 2) {
			out->winner = GR_EMPTY;
			strcpy(out->result, "Void");
			strcpy(out->result_points, "Void");
		} else {
			out->winner = black_warnings >= 2 ? GR_WHITE : GR_BLACK;
			strcpy(out->result, out->winner == GR_BLACK ? "B+F" : "W+F");
			strcpy(out->result_points, out->result);
		}
		return 0;
	}
	/* Black's count after komi and the warnings' stones (article 24.1) */
	double half = b->size * b->size / 2.0;
	double m = out->black - black_warnings + white_warnings - half - komi;
	m = round(m * 4.0) / 4.0; /* quarters of a stone: no float dust */
	if (m > 0) {
		out->winner = GR_BLACK;
		out->margin = m;
	} else if (m < 0) {
		out->winner = GR_WHITE;
		out->margin = -m;
	} else {
		out->winner = GR_EMPTY;
		out->margin = 0;
	}
	if (out->winner == GR_EMPTY) {
		strcpy(out->result, "Draw");
		strcpy(out->result_points, "0");
	} else {
		char w = out->winner == GR_BLACK ? 'B' : 'W';
		snprintf(out->result, sizeof out->result, "%c+%s", w,
		         gr_format_number(out->margin, num, sizeof num));
		snprintf(out->result_points, sizeof out->result_points, "%c+%s", w,
		         gr_format_number(out->margin * 2, num, sizeof num));
	}
	return 0;
}

char *gr_count_words(const gr_count *c, char *buf, unsigned cap)
{
	if (c->by_warnings) {
		if (c->winner == GR_EMPTY)
			snprintf(buf, cap, "Both players have a second warning: both lose");
		else
			snprintf(buf, cap, "%s wins: %s has a second warning",
			         c->winner == GR_BLACK ? "Black" : "White",
			         c->winner == GR_BLACK ? "White" : "Black");
		return buf;
	}
	if (c->winner == GR_EMPTY) {
		snprintf(buf, cap, "Draw");
		return buf;
	}
	static const char *frac[4] = {"", "1/4", "1/2", "3/4"};
	long q = lround(c->margin * 4);
	long whole = q / 4;
	int f = (int)(q % 4);
	char amount[32];
	if (whole == 0)
		snprintf(amount, sizeof amount, "%s stone", frac[f]);
	else if (f == 0)
		snprintf(amount, sizeof amount, "%ld stone%s", whole, whole == 1 ? "" : "s");
	else
		snprintf(amount, sizeof amount, "%ld %s stones", whole, frac[f]);
	snprintf(buf, cap, "%s wins by %s", c->winner == GR_BLACK ? "Black" : "White", amount);
	return buf;
}
