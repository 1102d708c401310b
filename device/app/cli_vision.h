/* goref's vision commands: the helpers goref detect (cmd_detect.c) and
 * goref eval (cmd_vision.c) share. */
#ifndef GOREF_APP_CLI_VISION_H
#define GOREF_APP_CLI_VISION_H

#include "detect.h"

/* GOREF_LOCATE_DEBUG: the locator's steps on stderr (with the milliseconds
 * since the first); GOREF_LOCATE_DUMP=FILE.png: the line image it searches
 * written there (for diagnosis) */
void cli_locate_trace(gv_detect_opts *o);

/* A point's character in a diagram: . X O, ? for a point not seen. */
char cli_cell_char(unsigned char c);

/* A position in the photo's own pixels to the picture as read, s times its
 * size (pixel centres at whole numbers: a DCT scale of 1/2 makes pixel x
 * of the picture read the mean of the photo's 2x and 2x + 1), and back. */
double cli_to_read(double v, double s);
double cli_from_read(double v, double s);

#endif
