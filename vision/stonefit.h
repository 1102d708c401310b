/*
 * goref vision: a grid moved onto the stones.
 *
 * Where a board is crowded with stones (a dense endgame seen steeply) its
 * lines hardly show, and a grid polished on them lands anywhere. Its
 * stones show instead: through the right grid each point's disc (a little
 * smaller than a stone) is one stone or open wood, of one colour; through
 * a grid a third of a cell off, every disc takes in a stone's edge and
 * what lies beside it. gv_fit_stones moves the grid's corners, one at a
 * time, to where the points' discs are most even in grey: the mean over
 * the points of the grey's variance within each disc, least. The discs are
 * taken on the points themselves, not where a stone's body is seen above
 * its point at an angle (gv_classify's parallax): moved there, the fit
 * read the renders of samples/eval_scenes.py worse (README).
 *
 * The fit is rough where lines show (a fifth of a cell: a disc on wood
 * is as even a little aside) and lands on any whole cell's worth of
 * stones alike: detect.c takes it in place of the lines' polish only
 * where it reads more surely.
 */
#ifndef GOREF_VISION_STONEFIT_H
#define GOREF_VISION_STONEFIT_H

#include <stddef.h>

#include "image.h"

/* Moves the grid's corners (clockwise from the top-left, in img's pixels)
 * within reach cells of where they are (each corner within reach of the
 * cell at it) to where the discs of GV_STONEFIT_RADIUS cells round the
 * points are most even (above), on grey_work, the photo's grey working
 * copy at GV_OUTLINE_WORK_PX (NULL, or one of another size: made here).
 * Returns 0, GV_EINVAL (bad argument, corners that span no grid) or
 * GV_ENOMEM, with a message. */
int gv_fit_stones(const gv_image *img, const gv_image *grey_work, int size, double corners[8], double reach,
                  char *err, size_t cap);

/* The mean variance of grey within the points' discs through corners (in
 * img's pixels), as gv_fit_stones measures it; negative when the corners
 * span no grid. */
double gv_stone_spread(const gv_image *img, const gv_image *grey_work, int size, const double corners[8]);

/* How much more even the points' discs are through corners (img's pixels)
 * than half a cell off them: the least, over the four moves of half a cell
 * along the grid's two directions, of the discs' mean variance there over
 * their mean variance through corners (gv_stone_spread's measure, on
 * grey_work as gv_fit_stones takes it). Through the right grid of a board
 * most of whose points hold stones, each disc is one stone or open wood,
 * and half a cell off most discs take in the edges of two: well over 1
 * (tuning.h, GV_PROOF_EVEN_MIN, says what was measured). A lattice half a
 * cell off along a direction, or whose rows drift onto the seams between
 * the lines (a bamboo board's seam lattice), is about as even, or more,
 * half a cell off. Weak where it is near 1: a lattice drifting a whole row
 * from one side to the other can measure above 1; and the diagonal moves
 * are left out, for on a board half empty the discs between four empty
 * points are the plain wood's (right 9x9 boards fell under 1 with
 * them). Negative when it cannot be
 * measured (corners spanning no grid, no memory). */
double gv_stone_evenness(const gv_image *img, const gv_image *grey_work, int size, const double corners[8]);

#endif
