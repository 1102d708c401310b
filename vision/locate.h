/*
 * goref vision: finding the board's grid in a photo, with no clicks.
 *
 * The grid is N lines each way (9, 13 or 19). The locator finds thin dark
 * lines (a ridge detector: a step such as the board's wooden edge or a
 * stone's rim is no ridge), groups their Hough segments into two families by
 * vanishing point, rectifies the plane so that both families become parallel
 * and perpendicular, and fits exactly N equally spaced lines per family
 * (strong response on all N lines, weak one place beyond each end: the wood
 * edge or a line of the table is not taken for the outermost grid line).
 * The homography is then refined by least squares on the intersections of
 * lines fitted to the segments. Cells need not be square: H absorbs their
 * aspect and the perspective.
 *
 * Orientation is reported as seen: row 0 is the grid edge nearest the top of
 * the image, column 0 the edge nearest its left; corners go clockwise from
 * the top-left.
 */
#ifndef GOREF_VISION_LOCATE_H
#define GOREF_VISION_LOCATE_H

#include <stddef.h>

#include "image.h"

/* The line segments one search found on a working copy, kept for the next
 * search of the same photo at the same working size (gv_locate_opts.
 * segments): the ridge image and its Hough transform depend on the copy
 * alone. Zeroed by the caller before the first search; gv_segments_free
 * after the last. */
typedef struct gv_segments {
	int width, height; /* the working copy's size they were found on */
	int count;
	float *raw;        /* x0 y0 x1 y1 per segment; NULL until filled */
} gv_segments;

void gv_segments_free(gv_segments *s);

typedef struct gv_locate_opts {
	int size;     /* lines each way: 9, 13 or 19 (0 means 19) */
	int work_px;  /* the photo is shrunk to this many pixels on its longer side
	                 for the search (0 means 800, the value measured; 512 to
	                 1024 give the same corners on the datasets); never
	                 enlarged */
	/* diagnosis: each step of the search as a line (no newline), when set */
	void (*trace)(const char *line, void *ud);
	void *trace_ud;
	const char *dump_png; /* when set: the line image the search works on is
	                         written there */
	/* optional: the photo's grey working copy (gv_work_grey at work_px),
	   made once by a caller that searches the photo more than one way (the
	   lines, the outline at GV_OUTLINE_WORK_PX); NULL, or one of another
	   size: made here */
	const gv_image *grey_work;
	/* a lattice twice too dense in a family (its lines of one parity
	   nearly empty: density_check, locate.c) has its spacing doubled
	   there; off by default (gv_detect asks it of a photo whose first
	   grid failed its proof) */
	int halve_dense;
	/* gv_locate_outline: the margin on the outline's side nearest the
	   camera (its longest) at least the far side's less
	   GV_OUTLINE_NEAR_SLACK (that side may show the board's front face
	   too, never less of the top); off by default (gv_detect asks it
	   where the outline's grid fails or passes by its stones alone with
	   the near margin short) */
	int near_tied;
	/* gv_locate_outline: the board's quadrilateral round the largest
	   bright region and every other of at least GV_OUTLINE_PIECE_SHARE of
	   its area (a board cut in pieces by chains of dark stones across its
	   margin), "no board found" at once where there is no other; off by
	   default (gv_detect asks it where the outline's grid fails) */
	int outline_pieces;
	/* gv_locate_outline: the board's quadrilateral round the largest
	   region darker than the photo's Otsu threshold, not the brightest (a
	   board darker than the floor it lies on, where the brightest region
	   is the floor: the whole photo): GV_QUAD_DARK (1) round that region
	   (the board's front face in shade with it), GV_QUAD_DARK_TOP (2)
	   round its brighter part (the top alone); 0 (default) not (gv_detect asks both in turn where the
	   brightest region is the whole photo and the outline round it found
	   nothing) */
	int outline_dark;
	/* gv_locate_outline: each side of the board's quadrilateral the
	   longest straight run of the region's edge near it (GV_QUAD_SIDES:
	   a bowl, a lid or loose stones touching the region bulge its hull,
	   not the board's edge); off by default (gv_detect asks it where the
	   outline's grid fails) */
	int outline_sides;
	/* gv_locate: a lattice fitted to the lines is taken to its proof only
	   where at least this share of its 2N lines has segments on it (0:
	   GV_LOCATE_MIN_SUPPORT; gv_detect asks again with
	   GV_LOCATE_LOW_SUPPORT where the first lattice was turned down so
	   and the photo's brightest region is the whole photo) */
	double min_support;
	/* gv_locate_outline: the board's bright quadrilateral already looked
	   for on this photo (gv_bright_quad, with the same grey_work):
	   bright_known set, bright_rc its code (0 found, GV_ENOTFOUND none),
	   bright_quad (photo pixels) and bright_share as it gave them; not
	   looked for again where the outline starts from it */
	int bright_known, bright_rc;
	double bright_quad[8], bright_share;
	/* optional: segments found on this photo before (gv_segments), used
	   when they were found at this working size, and filled by the first
	   search when empty; NULL: found here each time */
	gv_segments *segments;
} gv_locate_opts;

typedef struct gv_grid {
	int size;
	double H[9];        /* board coordinates (i, j) -> pixels of the photo */
	double corners[8];  /* x y of (0,0), (N-1,0), (N-1,N-1), (0,N-1) */
	double support;     /* share of the 2N lines seen in the photo, 0..1 */
	double residual;    /* RMS distance in pixels of the segments' ends to
	                       their fitted grid lines (at the working scale) */
	int has_outline;    /* 1 when the board's outline was found (outline.h) */
	double outline[8];  /* then: the board's top face, x y of its corners
	                       clockwise from the top-left (photo pixels) */
} gv_grid;

/* Locates the grid in img (RGB or grey). For diagnosis, opts->trace gets
 * the steps and opts->dump_png the line image. Returns 0, GV_EINVAL,
 * GV_ENOMEM, GV_ECV, or GV_ENOTFOUND when no grid of that size is found;
 * a message in err[0..cap) on failure. Where the best lattice was turned
 * down for too few of its lines seen (opts->min_support), out->support
 * holds its share (else 0 on failure). */
int gv_locate(const gv_image *img, const gv_locate_opts *opts, gv_grid *out, char *err, size_t cap);

/* The grid whose four corners a person gave (x y clockwise from the
 * top-left, pixels of a width x height image): checked as gv_corners_check
 * does (geom.h), no search; support 1, residual 0. GV_EINVAL with the
 * reason in err[0..cap). */
int gv_grid_from_corners(const double corners[8], int size, int width, int height, gv_grid *out, char *err,
                         size_t cap);

#endif
