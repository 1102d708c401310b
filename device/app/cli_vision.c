/* What goref detect and goref eval share (device/app/cli_vision.h). */
#include "cli_vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "diagram.h"

static void locate_trace_to_stderr(const char *line, void *ud)
{
	(void)ud;
	/* each line with the milliseconds since the first (where the time goes) */
	static double t0 = -1;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double t = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	if (t0 < 0)
		t0 = t;
	fprintf(stderr, "[%7.1f ms] %s\n", t - t0, line);
}

/* GOREF_LOCATE_DEBUG: the locator's steps on stderr; GOREF_LOCATE_DUMP=FILE.png:
 * the line image it searches written there (for diagnosis) */
void cli_locate_trace(gv_detect_opts *o)
{
	if (getenv("GOREF_LOCATE_DEBUG"))
		o->trace = locate_trace_to_stderr;
	o->dump_png = getenv("GOREF_LOCATE_DUMP");
}

char cli_cell_char(unsigned char c)
{
	return c == GR_BLACK ? 'X' : c == GR_WHITE ? 'O' : c == GV_UNKNOWN ? '?' : '.';
}

/* A position in the photo's own pixels to the picture as read, s times its
 * size (pixel centres at whole numbers: a DCT scale of 1/2 makes pixel x
 * of the picture read the mean of the photo's 2x and 2x + 1), and back. */
double cli_to_read(double v, double s)
{
	return (v + 0.5) * s - 0.5;
}

double cli_from_read(double v, double s)
{
	return (v + 0.5) / s - 0.5;
}
