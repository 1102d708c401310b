/*
 * goref calib: the board's place in the camera's view, and which way the
 * players sit.
 *
 * gc_board_find looks for the grid in one frame (a photo, a saved frame, or
 * a live one: `goref watch` calls it too) with the settings' board size,
 * after undoing the lens distortion when the settings have a camera and
 * distortion; the corners then refer to the undistorted frame. The
 * settings' rotate (clockwise quarter turns from the camera's view to the
 * players' view, Black's side at the bottom) says which grid corner is the
 * players' A1: Black's lower left. A camera cannot tell the sides apart on
 * an empty board, so rotate is the person's word, and gc_board_draw marks
 * A1 and the coordinates on the frame for them to check it.
 *
 * Built only with vision/.
 */
#ifndef GOREF_CALIB_CALIB_BOARD_H
#define GOREF_CALIB_CALIB_BOARD_H

#include <stddef.h>

#include "image.h"
#include "settings.h"

typedef struct gc_board {
	int size;           /* 9, 13 or 19 */
	int rotate;         /* degrees clockwise, from the settings */
	double H[9];        /* board (i, j) as seen (geom.h) -> pixels of the view */
	double corners[8];  /* x y as seen, clockwise from the view's top-left */
	int a1;             /* which of the four corners is the players' A1 (0..3) */
	double support;     /* the locator's share of grid lines seen, 0..1 */
	double residual;    /* the locator's line residual */
} gc_board;

/* Finds the grid in frame (RGB) with s->board lines, undistorting it first
 * when s has a camera and distortion. view (may be NULL) receives the image
 * the corners refer to (the undistorted frame, or a copy of frame; free it
 * with gv_image_free). Returns 0, GV_ENOTFOUND (no grid of that size),
 * GV_EINVAL, GV_ENOMEM or GV_ECV, with a message in err[0..cap). With
 * corners (the grid's four corners clicked by a person, x y clockwise from
 * the top-left, in the pixels of the view) nothing is searched: they are
 * checked against the view and taken (GV_EINVAL when they cannot be a grid). */
int gc_board_find(const gv_image *frame, const gc_settings *s, const double *corners, gc_board *out,
                  gv_image *view, char *err, size_t cap);

/* Puts what was found into s: board, rotate, and corners (to 0.01 pixel). */
void gc_board_apply(const gc_board *b, gc_settings *s);

/* Where the players' point (column ip from their left, row jp from their
 * top: A1 is (0, size - 1)) is on the grid as seen, for a rotation of
 * rotate degrees clockwise; fractions and points off the board are fine. */
void gc_board_seen(int size, int rotate, double ip, double jp, double *i, double *j);

/* "top-left", "top-right", "bottom-right", "bottom-left" for a corner 0..3. */
const char *gc_corner_name(int corner);

/* Draws on view in place (the image the corners refer to, RGB): the grid,
 * a red disc on the players' A1 with "A1" beside it, and the coordinates as
 * the players read them (letters A-T without I along Black's edge, numbers
 * along Black's left). Returns 0 or a GV_E* code with a message. */
int gc_board_draw(gv_image *view, const gc_board *b, char *err, size_t cap);

#endif
