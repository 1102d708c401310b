/*
 * goref rules core: a game in progress under the Chinese rules.
 *
 * A gr_game is the board plus everything the rules need to judge the next
 * move: whose turn it is, every whole-board position that has occurred (for
 * article 6's ban on repetition, situational: the same stones with the same
 * side to move), and what the tournament says a repetition does (article
 * 20.3). It does not keep the record: callers that want one append to a
 * gr_record as moves are accepted.
 */
#ifndef GOREF_RULES_GAME_H
#define GOREF_RULES_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "util.h"

/* What a whole-board repetition other than a simple ko does (article 20.3). */
typedef enum gr_repetition_rule {
	GR_REP_FORBID = 0, /* the move is void (default, article 20) */
	GR_REP_DRAW,       /* the game ends, drawn */
	GR_REP_REPLAY,     /* the game ends, to be replayed */
	GR_REP_NO_RESULT,  /* the game ends with no result */
} gr_repetition_rule;

/* "forbid", "draw", "replay", "no-result"; parse returns -1 for other text. */
const char *gr_repetition_rule_name(gr_repetition_rule r);
int gr_repetition_rule_parse(const char *s);

typedef enum gr_game_state {
	GR_PLAYING = 0,
	GR_ENDED_PASSES,     /* two passes in a row */
	GR_ENDED_RESIGN,     /* a player resigned */
	GR_ENDED_REPETITION, /* a repetition under draw / replay / no-result */
} gr_game_state;

typedef struct gr_game gr_game;

/* A new game on an empty board of size lines, Black to move. Returns 0,
 * GR_ERANGE or GR_ENOMEM. */
int gr_game_new(gr_game **out, int size);
void gr_game_free(gr_game *g);
/* Back to the empty board, Black to move, same size and settings. */
void gr_game_reset(gr_game *g);

const gr_board *gr_game_board(const gr_game *g);
gr_color gr_game_to_move(const gr_game *g);
gr_game_state gr_game_state_of(const gr_game *g);
/* The winner of a resigned game, else GR_EMPTY. */
gr_color gr_game_resign_winner(const gr_game *g);
int gr_game_moves_played(const gr_game *g); /* stones and passes accepted */

void gr_game_set_repetition_rule(gr_game *g, gr_repetition_rule r);
gr_repetition_rule gr_game_repetition_rule(const gr_game *g);

/* Setup stones (handicap, AB / AW) and the side to move, before the first
 * move. Return 0, or GR_EINVAL once a move has been played or for a point
 * that is not on the board. */
int gr_game_setup(gr_game *g, gr_color c, int pt);
int gr_game_set_to_move(gr_game *g, gr_color c);

/* Whether colour c may place a stone at pt now: occupied, suicide, ko,
 * repetition or legal (a repetition is reported whatever the rule: the rule
 * says what follows from it). The colour need not be the side to move: a
 * second move in a row is the referee's business. */
gr_legality gr_game_check(const gr_game *g, gr_color c, int pt);

/* Plays a stone. Legal: placed, captures taken, the turn goes to the other
 * side. GR_REPETITION under draw / replay / no-result: placed, and the game
 * ends (gr_game_state_of). Otherwise the board is unchanged and the turn is
 * not given away: call gr_game_pass to forfeit it (article 19). Returns the
 * legality. Once the game has ended nothing is played and GR_OCCUPIED is
 * returned: check gr_game_state_of first. */
gr_legality gr_game_play(gr_game *g, gr_color c, int pt);

/* A pass by colour c: the turn goes to the other side. Two passes in a row
 * end the game. */
void gr_game_pass(gr_game *g, gr_color c);

/* A void move (articles 19, 20.1): colour c forfeits its turn. Like a pass
 * for the position and the turn, but it never ends the game. */
void gr_game_forfeit(gr_game *g, gr_color c);

/* After two passes, the game goes on when a player does not agree that it
 * is over (article 21.1). No effect in other states. */
void gr_game_resume(gr_game *g);

/* Resignation by colour c: the game ends, the other side wins. */
void gr_game_resign(gr_game *g, gr_color c);

/* The situational hash of the current position (stones and side to move). */
uint64_t gr_game_position_hash(const gr_game *g);

/* Whether the position with this situational key (gr_position_key of a
 * board's hash and the side to move) has occurred in this game: for looking
 * ahead several moves on a copy of the board. */
bool gr_game_has_position(const gr_game *g, uint64_t key);

/* Changes one point of the board outside the rules, after a ruling (a moved
 * stone accepted where it went, stones taken off by a referee's decision).
 * The new position joins the history; the turn does not change. Returns 0
 * or GR_EINVAL. */
int gr_game_edit(gr_game *g, int pt, gr_color c);

#endif
