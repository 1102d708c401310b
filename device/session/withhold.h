/*
 * goref program: positions read while points of the board lay beyond the
 * frame (a camera that moved the board partly out of it).
 *
 * The frame pipeline holds such points as last seen (vision/pipeline.h:
 * gv_observation.outside). What was placed or taken there meanwhile does
 * not show, so a position that changed in view while some points lay
 * beyond may never have been on the board: a stone of White's played on
 * the edge beyond the frame, then Black's in view, reads as Black's second
 * move in a row with White's missing, and the referee would rule a double
 * move that never was. The loop (loop.c) withholds such a position until
 * those points are seen again and judges it then (gd_withheld_settle).
 *
 * Pure: no I/O, no state of its own.
 */
#ifndef GOREF_DEVICE_WITHHOLD_H
#define GOREF_DEVICE_WITHHOLD_H

#include <stdbool.h>

#include "board.h"
#include "pipeline.h"

/* Whether obs is withheld: some of its points lay beyond the frame and
 * it differs from last (the last position refereed, last_size lines; 0:
 * none yet). A position that did not change is no news either way. */
bool gd_withhold(const gv_observation *obs, const unsigned char *last, int last_size);

typedef enum gd_withheld_fate {
	GD_WITHHELD_OUT,  /* refereed now, before obs */
	GD_WITHHELD_DROP, /* never refereed: the board changed unseen before it */
	GD_WITHHELD_WAIT  /* obs is its repeat, those points still unseen: both kept back */
} gd_withheld_fate;

/* The withheld position pend against the next observation obs, the
 * referee's board b with to_move the side to move (b NULL: no referee yet,
 * never dropped) and seen_before whether pend was refereed before (stones
 * lifted and put back). Where obs reads the points pend held beyond the
 * frame plainly and alike, pend goes out. Changed there (the board
 * changed unseen, before pend or after): where pend is one plain move of
 * the side to move from b (one new stone of that side, its captures
 * beside it) or a position refereed before, it goes out (the change came
 * after); where it is neither and a stone of the side to move came there
 * (that side's move, made beyond the frame, came first: pend is two moves
 * of the other side seen as one), it is dropped. Where obs is pend's
 * repeat with those points still unseen (not held plainly), it waits, for
 * at most max_wait seconds from pend's time. Else pend goes out and obs
 * is judged by itself. *changed: how many of those points came back
 * changed. */
gd_withheld_fate gd_withheld_settle(const gv_observation *pend, const gv_observation *obs, const gr_board *b,
                                    gr_color to_move, bool seen_before, double max_wait, int *changed);

#endif
