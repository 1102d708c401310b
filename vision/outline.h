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
 * GV_ENOTFOUND, GV_EINVAL, GV_ENOMEM or GV_ECV with a message. */
int gv_locate_outline(const gv_image *img, int size, gv_grid *out, char *err, size_t cap);

#endif
