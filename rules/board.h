/*
 * goref rules core: the board.
 *
 * A plain struct for hot data (after Pachi's board.h): stones, groups with
 * pseudo-liberty counts, and an incremental Zobrist hash. No I/O, no
 * allocation, no dependency beyond the C11 library.
 *
 * Points are indices into a padded array: a board of N lines has a border of
 * one off-board point all round, so every point on the board has four
 * neighbours at pt-1, pt+1, pt-stride and pt+stride. Make them with
 * gr_pt(b, x, y) where x is the column (0 = A, the left edge of a diagram)
 * and y is the row counted from the top edge (0 = the first line of a
 * diagram, which is row N in GTP coordinates).
 */
#ifndef GOREF_RULES_BOARD_H
#define GOREF_RULES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GR_MIN_SIZE 2
#define GR_MAX_SIZE 19
#define GR_MAX_STRIDE (GR_MAX_SIZE + 2)
#define GR_MAX_POINTS (GR_MAX_STRIDE * GR_MAX_STRIDE)

/* Special "points" for moves that are not stones. */
#define GR_PASS (-1)
#define GR_RESIGN (-2)
#define GR_NONE 0 /* never a point on the board: index 0 is off-board */

typedef enum gr_color {
	GR_EMPTY = 0,
	GR_BLACK = 1,
	GR_WHITE = 2,
	GR_OFFBOARD = 3,
} gr_color;

/* Not a colour but a cell of an observation (a diagram's '?'): the point
 * was not seen (a hand over it, a sheet of glare). */
#define GR_UNSEEN 4

/* The opponent of BLACK or WHITE. */
static inline gr_color gr_other(gr_color c) { return (gr_color)(3 - c); }

/* What a stone placement would do (gr_board_check) or did (gr_board_play). */
typedef enum gr_legality {
	GR_LEGAL = 0,
	GR_OCCUPIED,   /* the point holds a stone (or is not on the board) */
	GR_SUICIDE,    /* the stone would have no liberty and captures nothing (art. 5) */
	GR_KO,         /* immediate retake of a single-stone ko (art. 20.1) */
	GR_REPETITION, /* recreates an earlier whole-board position (art. 6, 20.2-3);
	                  only gr_game reports this: the board keeps no history */
} gr_legality;

/* The short, stable name of a legality code: "legal", "occupied", "suicide",
 * "ko", "repetition". */
const char *gr_legality_name(gr_legality l);

typedef struct gr_board {
	int size;   /* N: 2..19 lines each way */
	int stride; /* N + 2 */
	uint8_t color[GR_MAX_POINTS];   /* gr_color per point, OFFBOARD on the border */
	int16_t group[GR_MAX_POINTS];   /* a stone's group id: the point of its first stone */
	int16_t next[GR_MAX_POINTS];    /* circular list of the stones of one group; a
	                                   captured group's list stays intact until its
	                                   points are played again */
	int16_t libs[GR_MAX_POINTS];    /* per group id: pseudo-liberties (stone/empty adjacencies) */
	int16_t gsize[GR_MAX_POINTS];   /* per group id: number of stones */
	uint64_t ghash[GR_MAX_POINTS];  /* per group id: xor of its stones' Zobrist keys */
	uint64_t hash;                  /* Zobrist hash of the stones (not the side to move) */
	int ko;            /* the point that may not be retaken next move, or GR_NONE */
	uint8_t ko_color;  /* the colour that may not retake at ko */
	int captured[3];   /* stones captured so far, by BLACK and by WHITE */
	int stones[3];     /* stones on the board, per colour */
	int last_captures; /* number of stones the last placement captured */
} gr_board;

/* Index of the point in column x, row y (from the top). No range check. */
static inline int gr_pt(const gr_board *b, int x, int y) { return (y + 1) * b->stride + (x + 1); }
static inline int gr_x(const gr_board *b, int pt) { return pt % b->stride - 1; }
static inline int gr_y(const gr_board *b, int pt) { return pt / b->stride - 1; }
/* True when pt is a point on the board. */
static inline bool gr_on_board(const gr_board *b, int pt)
{
	return pt > 0 && pt < b->stride * b->stride && b->color[pt] != GR_OFFBOARD;
}

/* Empties the board. Returns 0, or -1 when size is not in 2..19 (board untouched). */
int gr_board_init(gr_board *b, int size);

/* splitmix64's finaliser: Zobrist keys without a table or global state. */
static inline uint64_t gr_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The Zobrist key of a stone of colour c at point pt, and the key mixed in
 * for "white to move" by whole-board repetition checks. */
static inline uint64_t gr_zobrist(gr_color c, int pt) { return gr_mix64((uint64_t)pt * 4u + (uint64_t)c); }
static inline uint64_t gr_zobrist_white_to_move(void) { return gr_mix64(0xfeedULL << 40); }

/* The situational key of a position for whole-board repetition (article 6):
 * the stones' hash with to_move mixed in. Never 0, so hash tables may use 0
 * for a free slot. */
static inline uint64_t gr_position_key(uint64_t stones_hash, gr_color to_move)
{
	/* without a branch: the two are picked by a mask, 0 becomes 1 by an OR */
	uint64_t h = stones_hash ^ (gr_zobrist_white_to_move() & (0 - (uint64_t)(to_move == GR_WHITE)));
	return h | (uint64_t)(h == 0);
}

/* Whether colour c may place a stone at pt: occupied, suicide, simple ko or
 * legal. If hash_after is not NULL and the move is legal, it receives the hash
 * of the stones after the move and its captures. Whole-board repetition is
 * not checked here (see gr_game). */
gr_legality gr_board_check(const gr_board *b, gr_color c, int pt, uint64_t *hash_after);

/* gr_board_check for a point known to be in the padded array (0 < pt <
 * GR_MAX_POINTS), inline for the playouts' inner loop. */
static inline gr_legality gr_board_check_point(const gr_board *b, gr_color c, int pt, uint64_t *hash_after)
{
	if (b->color[pt] != GR_EMPTY)
		return GR_OCCUPIED;
	const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
	const uint8_t col[4] = {b->color[nb[0]], b->color[nb[1]], b->color[nb[2]], b->color[nb[3]]};
	/* Without a branch per neighbour: which neighbouring groups have pt as
	 * their last liberty (see below). Every point's group entry is a valid
	 * index (empty and off-board points keep a stale or zero one), so it is
	 * read whatever the colour, and compared only with the colour's. */
	const uint8_t opp = (uint8_t)(3 - c);
	int g4[4], key[4];
	for (int i = 0; i < 4; i++) {
		g4[i] = b->group[nb[i]];
		key[i] = g4[i] * 4 + col[i];
	}
	int empties = 0, takes = 0, lives = 0;
	for (int i = 0; i < 4; i++) {
		int cnt = (key[0] == key[i]) + (key[1] == key[i]) + (key[2] == key[i]) + (key[3] == key[i]);
		int last = b->libs[g4[i]] == cnt;
		empties += col[i] == GR_EMPTY;
		takes |= (col[i] == opp) & last;
		lives |= (col[i] == (uint8_t)c) & !last;
	}
	if (!takes) {
		/* nothing is taken, so no ko either */
		if (!empties && !lives)
			return GR_SUICIDE;
		if (hash_after)
			*hash_after = b->hash ^ gr_zobrist(c, pt);
		return GR_LEGAL;
	}
	bool has_lib = false;
	int captures = 0, ncap = 0, capg[4];
	/* One pass over the neighbours. A group's pseudo-liberties (libs) count
	 * its stone/empty adjacencies; pt is its last liberty exactly when libs
	 * equals the number of its stones next to pt (at most four), so a group
	 * with more than four is never taken and always leaves a liberty. */
	for (int i = 0; i < 4; i++) {
		if (col[i] == GR_EMPTY) {
			has_lib = true;
			continue;
		}
		if (col[i] == GR_OFFBOARD)
			continue;
		int g = b->group[nb[i]], L = b->libs[g];
		bool last = false;
		if (L <= 4) {
			int cnt = 0;
			for (int k = 0; k < 4; k++)
				cnt += col[k] == col[i] && b->group[nb[k]] == g;
			last = L == cnt;
		}
		if (col[i] == (uint8_t)c) {
			if (!last)
				has_lib = true;
		} else if (last) {
			int j;
			for (j = 0; j < ncap && capg[j] != g; j++)
				;
			if (j == ncap) {
				capg[ncap++] = g;
				captures += b->gsize[g];
			}
		}
	}
	if (!has_lib && captures == 0)
		return GR_SUICIDE;
	if (captures == 1 && pt == b->ko && c == (gr_color)b->ko_color)
		return GR_KO;
	if (hash_after) {
		uint64_t h = b->hash ^ gr_zobrist(c, pt);
		for (int j = 0; j < ncap; j++)
			h ^= b->ghash[capg[j]];
		*hash_after = h;
	}
	return GR_LEGAL;
}

/* Places a stone of colour c at pt and removes what it captures. Checks as
 * gr_board_check does and leaves the board untouched when the move is not
 * legal. Returns the legality code. */
gr_legality gr_board_play(gr_board *b, gr_color c, int pt);

/* gr_board_play for a move that gr_board_check has just found legal on this
 * very board (no check is repeated: anything else breaks the board). */
void gr_board_play_legal(gr_board *b, gr_color c, int pt);

/* A pass: clears the ko point. */
void gr_board_pass(gr_board *b);

/* Places or removes a stone with no rule applied (setup stones, a position
 * read from a diagram, dead stones lifted before a count). Setting a stone
 * never captures; groups and liberties stay right. c is GR_EMPTY to remove. */
void gr_board_set(gr_board *b, int pt, gr_color c);

/* Recomputes groups, liberties, hash and stone counts after the caller wrote
 * b->color[] directly (a whole position at once). Clears the ko point. */
void gr_board_recompute(gr_board *b);

/* Number of true liberties of the group holding pt (0 if pt is empty).
 * If lib_out is not NULL it receives one liberty (the first found). */
int gr_board_liberties(const gr_board *b, int pt, int *lib_out);

/* Writes the points of the group holding pt into out (at most GR_MAX_POINTS)
 * and returns how many. */
int gr_board_group_points(const gr_board *b, int pt, int *out);

/* True when pt is empty and every neighbour on the board is a stone of
 * colour c (a one-point eye shape, used by playouts). */
bool gr_board_is_eyelike(const gr_board *b, int pt, gr_color c);

/* True if the two boards hold the same stones (size included). */
bool gr_board_same(const gr_board *a, const gr_board *b);

/* Point name in GTP coordinates ("D4", "T19", "pass"), written into buf (at
 * least 8 bytes). Returns buf. */
char *gr_point_name(const gr_board *b, int pt, char *buf);

/* Parses a GTP point name (case-insensitive, "pass" allowed). Returns the
 * point, GR_PASS, or GR_NONE when the text is not a point on this board. */
int gr_point_parse(const gr_board *b, const char *s);

/* Checks the internal invariants (groups, liberties, hash). For tests. */
bool gr_board_consistent(const gr_board *b);

#endif
