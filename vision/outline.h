/*
 * goref vision: the grid from the board's outline, when the lines alone do
 * not give it.
 *
 * The line locator (locate.h) groups straight segments by direction; a
 * striped table or a steep view (lines converging fast, the table's grain
 * outnumbering the board's lines) defeats it. The board itself is the largest
 * bright quadrilateral in such photos: its outline gives a plane, the grid's
 * lines lie in it at unknown margins from the edges, and the margins are
 * found by where the lattice's lines show most (each family on its own),
 * then the four corners are polished on the same score. What this finds is
 * reported only after the proof (verify.h), like the line locator's grid.
 */
#ifndef GOREF_VISION_OUTLINE_H
#define GOREF_VISION_OUTLINE_H

#include <stddef.h>

#include "image.h"
#include "locate.h"

/* Fills out (corners, H, size; support = the line score reached) or returns
 * GV_ENOTFOUND, GV_EINVAL, GV_ENOMEM or GV_ECV with a message. opts gives
 * the size (0: 19), the trace and the grey working copy when the caller
 * made one at GV_OUTLINE_WORK_PX (its other fields are not used); NULL: 19,
 * no trace. */
int gv_locate_outline(const gv_image *img, const gv_locate_opts *opts, gv_grid *out, char *err, size_t cap);

/* The side of a board's quadrilateral (corners clockwise from the
 * top-left) nearest the camera, its longest: 0 left (corner 3 to 0), 1 top
 * (0 to 1), 2 right (1 to 2), 3 bottom (2 to 3), as gv_outline_margins
 * numbers them. */
int gv_outline_near_side(const double quad[8]);

/* The board's outline alone: the largest bright quadrilateral (corners x y
 * clockwise from the top-left, photo pixels), as gv_locate_outline starts
 * from. GV_ENOTFOUND when there is none covering GV_OUTLINE_MIN_SHARE of
 * the photo; GV_EINVAL, GV_ENOMEM or GV_ECV with a message. */
int gv_board_outline(const gv_image *img, double quad[8], char *err, size_t cap);
/* The same from grey_work, the photo's grey working copy when gv_detect
 * made one at GV_OUTLINE_WORK_PX (NULL, or one of another size: made
 * here). */
int gv_board_outline_shared(const gv_image *img, const gv_image *grey_work, double quad[8], char *err, size_t cap);
/* The largest bright quadrilateral itself, whatever share of the photo it
 * covers (*share: its area over the photo's), from grey_work as above:
 * GV_ENOTFOUND when there is none; GV_EINVAL, GV_ENOMEM or GV_ECV with a
 * message. gv_detect looks once, and passes it on (gv_locate_opts'
 * bright_known). */
int gv_bright_quad(const gv_image *img, const gv_image *grey_work, double quad[8], double *share, char *err,
                   size_t cap);

/* Polishes a grid whose four corners a person clicked (x y clockwise from
 * the top-left, pixels of img; clicks are a few pixels off, a tenth or two
 * of a cell): each corner is moved, within GV_REFINE_REACH cells, to where
 * the lattice's lines show most (on a copy of the photo at
 * GV_OUTLINE_WORK_PX). With empty (empty[j * size + i] nonzero: the point
 * read empty through the clicked grid) only the spans of line between two
 * empty points are scored: seen steeply, the shadow under a row of stones
 * is a dark line too; NULL scores every span (the outline's score). The corners are changed in place only when
 * the polished grid's lines show clearly better than the clicked one's
 * (by GV_REFINE_GAIN); otherwise they stay as given. Returns 0 (polished or
 * kept), GV_EINVAL, GV_ENOMEM or GV_ECV with a message. */
int gv_refine_corners(const gv_image *img, int size, const unsigned char *empty, double corners[8], char *err,
                      size_t cap);
/* The same within reach cells of the corners given (gv_refine_corners:
 * GV_REFINE_REACH). */
int gv_refine_corners_within(const gv_image *img, int size, const unsigned char *empty, double corners[8],
                             double reach, char *err, size_t cap);
/* The same on the photo's grey working copy already made (gv_work_grey at
 * GV_OUTLINE_WORK_PX; NULL, or one of another size: made here). */
int gv_refine_corners_shared(const gv_image *img, const gv_image *grey_work, int size, const unsigned char *empty,
                             double corners[8], double reach, char *err, size_t cap);

/* Follows a grid that moved (a camera or board shifted by up to reach
 * cells since corners were found): the shift of the whole grid, within
 * reach cells either way, under which the lines between the points that
 * empty marks (empty[j * size + i] nonzero: empty at the last reading)
 * show most, its outer lines too (a lattice a cell off shows its inner
 * lines as well), then polished as gv_refine_corners polishes. corners (in
 * and out, as gv_refine_corners') are replaced by the grid found when its
 * lines show more than the given grid's (else kept); *before
 * and *after (either may be NULL) get the score of the grid given and of
 * the one found (the same measure; 0 shows no line). For frames seconds
 * apart where the locator cannot find the board again (a few pixels a
 * cell, the lines faint). 0, GV_EINVAL, GV_ENOMEM or GV_ECV with a
 * message. */
int gv_track_grid(const gv_image *img, int size, const unsigned char *empty, double corners[8], double reach,
                  double *before, double *after, char *err, size_t cap);

#endif
