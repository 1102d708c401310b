/* goref rules core: the board. See board.h. */
#include "board.h"
#include "board_int.h"

#include <ctype.h>
#include <string.h>

static const char gr_letters[] = "ABCDEFGHJKLMNOPQRST";

const char *gr_legality_name(gr_legality l)
{
	switch (l) {
	case GR_LEGAL: return "legal";
	case GR_OCCUPIED: return "occupied";
	case GR_SUICIDE: return "suicide";
	case GR_KO: return "ko";
	case GR_REPETITION: return "repetition";
	}
	return "unknown";
}



int gr_board_init(gr_board *b, int size)
{
	if (!b || size < GR_MIN_SIZE || size > GR_MAX_SIZE)
		return -1;
	memset(b, 0, sizeof *b);
	b->size = size;
	b->stride = size + 2;
	int n = b->stride * b->stride;
	for (int i = 0; i < n; i++) {
		int x = i % b->stride, y = i / b->stride;
		b->color[i] = (x == 0 || y == 0 || x == b->stride - 1 || y == b->stride - 1)
		                  ? GR_OFFBOARD : GR_EMPTY;
	}
	for (int i = n; i < GR_MAX_POINTS; i++)
		b->color[i] = GR_OFFBOARD;
	b->ko = GR_NONE;
	return 0;
}

gr_legality gr_board_check(const gr_board *b, gr_color c, int pt, uint64_t *hash_after)
{
	if (pt <= 0 || pt >= GR_MAX_POINTS)
		return GR_OCCUPIED;
	return gr_board_check_point(b, c, pt, hash_after);
}

static void remove_group(gr_board *b, int g)
{
	gr_color col = (gr_color)b->color[g];
	int s = g;
	do {
		b->color[s] = GR_EMPTY;
		const int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
		for (int i = 0; i < 4; i++) {
			uint8_t c = b->color[nb[i]];
			if ((c == GR_BLACK || c == GR_WHITE) && b->group[nb[i]] != g)
				b->libs[b->group[nb[i]]]++;
		}
		s = b->next[s];
	} while (s != g);
	b->hash ^= b->ghash[g];
	b->stones[col] -= b->gsize[g];
}

gr_legality gr_board_play(gr_board *b, gr_color c, int pt)
{
	gr_legality l = gr_board_check(b, c, pt, NULL);
	if (l == GR_LEGAL)
		gr_board_play_legal(b, c, pt);
	return l;
}

void gr_board_play_legal(gr_board *b, gr_color c, int pt)
{
	const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
	uint64_t key = gr_zobrist(c, pt);
	const gr_color opp = gr_other(c);
	b->color[pt] = (uint8_t)c;
	b->group[pt] = (int16_t)pt;
	b->next[pt] = (int16_t)pt;
	b->gsize[pt] = 1;
	b->ghash[pt] = key;
	b->hash ^= key;
	b->stones[c]++;
	int libs = 0, empties = 0;
	for (int i = 0; i < 4; i++) {
		/* without a branch: an empty or off-board neighbour's group entry is
		 * a valid index that loses nothing */
		uint8_t col = b->color[nb[i]];
		libs += col == GR_EMPTY;
		b->libs[b->group[nb[i]]] -= (int16_t)(col == GR_BLACK || col == GR_WHITE);
	}
	b->libs[pt] = (int16_t)libs;
	/* join the friendly groups, take the opponent's groups left without a
	 * pseudo-liberty (in any order: each step keeps groups and liberties
	 * right) */
	int captured = 0, cap_pt = GR_NONE;
	unsigned friends = 0, takes = 0;
	for (int i = 0; i < 4; i++) {
		uint8_t col = b->color[nb[i]];
		friends |= (unsigned)(col == (uint8_t)c) << i;
		takes |= (unsigned)((col == (uint8_t)opp) & (b->libs[b->group[nb[i]]] == 0)) << i;
	}
	for (int i = 0; friends; i++, friends >>= 1)
		if (friends & 1)
			gr_merge_groups(b, b->group[pt], b->group[nb[i]]);
	for (int i = 0; takes; i++, takes >>= 1) {
		/* a group next to pt twice is taken once: its second neighbour is
		 * empty by then */
		if ((takes & 1) && b->color[nb[i]] == (uint8_t)opp) {
			int g = b->group[nb[i]];
			captured += b->gsize[g];
			cap_pt = g;
			remove_group(b, g);
		}
	}
	for (int i = 0; i < 4; i++)
		empties += b->color[nb[i]] == GR_EMPTY;
	b->captured[c] += captured;
	b->last_captures = captured;
	b->ko = GR_NONE;
	if (captured == 1 && empties == 1 && b->gsize[b->group[pt]] == 1) {
		b->ko = cap_pt;
		b->ko_color = (uint8_t)opp;
	}
}

void gr_board_pass(gr_board *b)
{
	b->ko = GR_NONE;
	b->last_captures = 0;
}

void gr_board_set(gr_board *b, int pt, gr_color c)
{
	if (!gr_on_board(b, pt) || c == GR_OFFBOARD || b->color[pt] == c)
		return;
	b->color[pt] = (uint8_t)c;
	gr_board_recompute(b);
}

/* Recomputes groups, liberties, hash and counts from the colours alone. */
void gr_board_recompute(gr_board *b)
{
	int n = b->stride * b->stride;
	int stack[GR_MAX_POINTS];
	b->hash = 0;
	b->stones[GR_BLACK] = b->stones[GR_WHITE] = 0;
	b->ko = GR_NONE;
	for (int i = 0; i < n; i++)
		b->group[i] = 0;
	for (int i = 0; i < n; i++) {
		uint8_t c = b->color[i];
		if ((c != GR_BLACK && c != GR_WHITE) || b->group[i])
			continue;
		/* flood fill the group with id i */
		int sp = 0, prev = i;
		stack[sp++] = i;
		b->group[i] = (int16_t)i;
		b->gsize[i] = 0;
		b->libs[i] = 0;
		b->ghash[i] = 0;
		while (sp) {
			int s = stack[--sp];
			b->gsize[i]++;
			b->ghash[i] ^= gr_zobrist((gr_color)c, s);
			if (s != i) {
				b->next[prev] = (int16_t)s;
				prev = s;
			}
			const int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
			for (int k = 0; k < 4; k++) {
				if (b->color[nb[k]] == GR_EMPTY)
					b->libs[i]++;
				else if (b->color[nb[k]] == c && !b->group[nb[k]]) {
					b->group[nb[k]] = (int16_t)i;
					stack[sp++] = nb[k];
				}
			}
		}
		b->next[prev] = (int16_t)i;
		b->hash ^= b->ghash[i];
		b->stones[c] += b->gsize[i];
	}
}

int gr_board_liberties(const gr_board *b, int pt, int *lib_out)
{
	if (!gr_on_board(b, pt) || b->color[pt] == GR_EMPTY)
		return 0;
	uint8_t seen[GR_MAX_POINTS];
	memset(seen, 0, sizeof seen);
	int g = b->group[pt], s = g, libs = 0;
	do {
		const int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
		for (int k = 0; k < 4; k++) {
			if (b->color[nb[k]] == GR_EMPTY && !seen[nb[k]]) {
				seen[nb[k]] = 1;
				if (libs++ == 0 && lib_out)
					*lib_out = nb[k];
			}
		}
		s = b->next[s];
	} while (s != g);
	return libs;
}

int gr_board_group_points(const gr_board *b, int pt, int *out)
{
	if (!gr_on_board(b, pt) || b->color[pt] == GR_EMPTY)
		return 0;
	int g = b->group[pt], s = g, n = 0;
	do {
		out[n++] = s;
		s = b->next[s];
	} while (s != g);
	return n;
}

bool gr_board_is_eyelike(const gr_board *b, int pt, gr_color c)
{
	if (b->color[pt] != GR_EMPTY)
		return false;
	const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
	for (int k = 0; k < 4; k++)
		if (b->color[nb[k]] != c && b->color[nb[k]] != GR_OFFBOARD)
			return false;
	return true;
}

bool gr_board_same(const gr_board *a, const gr_board *b)
{
	if (a->size != b->size)
		return false;
	int n = a->stride * a->stride;
	return memcmp(a->color, b->color, (size_t)n) == 0;
}

char *gr_point_name(const gr_board *b, int pt, char *buf)
{
	if (pt == GR_PASS) {
		strcpy(buf, "pass");
	} else if (pt == GR_RESIGN) {
		strcpy(buf, "resign");
	} else if (!gr_on_board(b, pt)) {
		strcpy(buf, "?");
	} else {
		int x = gr_x(b, pt), y = gr_y(b, pt), row = b->size - y;
		buf[0] = gr_letters[x];
		if (row >= 10) {
			buf[1] = (char)('0' + row / 10);
			buf[2] = (char)('0' + row % 10);
			buf[3] = 0;
		} else {
			buf[1] = (char)('0' + row);
			buf[2] = 0;
		}
	}
	return buf;
}

int gr_point_parse(const gr_board *b, const char *s)
{
	if (!s || !*s)
		return GR_NONE;
	static const char pass[] = "pass";
	size_t k = 0;
	while (k < 4 && tolower((unsigned char)s[k]) == pass[k])
		k++;
	if (k == 4 && s[4] == 0)
		return GR_PASS;
	int L = toupper((unsigned char)s[0]);
	const char *p = strchr(gr_letters, L);
	if (!p || L == 0)
		return GR_NONE;
	int x = (int)(p - gr_letters);
	if (x >= b->size)
		return GR_NONE;
	int row = 0, digits = 0;
	for (const char *q = s + 1; *q; q++) {
		if (!isdigit((unsigned char)*q) || ++digits > 2)
			return GR_NONE;
		row = row * 10 + (*q - '0');
	}
	if (digits == 0 || row < 1 || row > b->size)
		return GR_NONE;
	return gr_pt(b, x, b->size - row);
}

bool gr_board_consistent(const gr_board *b)
{
	gr_board copy = *b;
	gr_board_recompute(&copy);
	if (copy.hash != b->hash || copy.stones[1] != b->stones[1] || copy.stones[2] != b->stones[2])
		return false;
	int n = b->stride * b->stride;
	for (int i = 0; i < n; i++) {
		uint8_t c = b->color[i];
		if (c != GR_BLACK && c != GR_WHITE)
			continue;
		/* same partition: i's group in b must map to the same group as in copy */
		int g = b->group[i], cg = copy.group[i];
		if (b->color[g] != c || b->group[g] != g)
			return false;
		if (b->gsize[g] != copy.gsize[cg] || b->libs[g] != copy.libs[cg] || b->ghash[g] != copy.ghash[cg])
			return false;
	}
	return true;
}
