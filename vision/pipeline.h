/*
 * goref vision: the frame pipeline, from camera frames to stable positions.
 *
 * A camera over a live game sees hands, sleeves, shadows and stones sliding
 * into place. The pipeline turns its frames into the observations of the
 * observation log (rules/obslog.h): one stable, hand-free position each time
 * the board has been still for a short window.
 *
 * Per frame, in order:
 * 1. Until the grid is known, it is searched for (gv_locate) on the first
 *    frame and then once a second of frames (unless its corners are given).
 * 2. Motion: the mean brightness of a small patch around every point and at
 *    the middle of every square (the board's margin included) is compared
 *    with the same patch at the start of the current still window. Any patch
 *    that changed by more than `motion` grey levels restarts the window.
 * 3. When the window has lasted `still_s` seconds, the frame is read:
 *    - Hidden squares: the middle of a square is never covered by a stone
 *      (a stone is narrower than a cell, and stands on a corner of it), so a
 *      square middle whose colour differs from what it was at the last
 *      observation (after the overall light change is taken out) has a hand,
 *      a sleeve or an arm's deep shadow over it (a change of hue, or of
 *      brightness by more than a shadow or the light gives). The four
 *      points around a hidden square are not read: they keep their last
 *      value (they are not guessed).
 *      Seen at an angle, a stone leans into the squares beside its point: a
 *      patch of at most 6 changed squares, each touching a point whose
 *      reading changed, is such a stone coming or going, not a hand.
 *      Square middles not hidden (nor next to a hidden one) are taken as
 *      the new reference; one of the margin's hidden at every reading for
 *      `stuck_s` seconds too (a lid or a score sheet left on the edge), and
 *      one hidden in three still spells in a row with the board moving in
 *      between (no hand rests in the same place that long: a stone's side
 *      or shadow leans into it).
 *    - gv_classify reads every point; points it is unsure of keep their last
 *      value too.
 *    - The grid is looked for again (gv_locate). A grid that moved by more than a fifth of a cell (the
 *      board was bumped, the camera shifted; less is the search's jitter)
 *      is taken when the board read through it agrees with the last
 *      observation better than through the grid in use; one that moved by
 *      half a cell or more only when two searches in a row found it (a
 *      search can be a line off on a crowded edge, or pulled by a hand).
 *    A reading with a hidden square is no observation (the board is not
 *    clear: what the hand hides may have changed with what shows): the
 *    frame is read again `still_s` later while the board stays still (the
 *    grid searched at most once a second meanwhile), until nothing hides
 *    it. A clear reading is one observation. While the board stays still it
 *    is read again every `repeat_s` seconds, each reading an observation
 *    (a change that lasts is seen to last: the referee's persistence
 *    counts observations). (In stills mode a reading with hidden
 *    squares is an observation, with those points held.)
 *
 * In `stills` mode every frame is taken as a stable view by itself (photos
 * taken one per position): no motion test, every frame is read.
 *
 * No I/O, no clock: times are the caller's, in seconds.
 */
#ifndef GOREF_VISION_PIPELINE_H
#define GOREF_VISION_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "image.h"

typedef struct gv_pipeline_opts {
	int size;         /* lines each way: 9, 13 or 19 (0: 19) */
	double still_s;   /* how long the board must be still before it is read (default 0.3 s) */
	double repeat_s;  /* read again after this much more stillness (default 1 s) */
	double motion;    /* grey levels a patch may change and still be still (default 8) */
	double hidden;    /* how much a square middle's hue (each channel's share of its
	                     brightness) may change and not count as hidden (default 0.025);
	                     its brightness, after the overall light change, may fall to 0.55
	                     times (shadows) and rise as it will (a shadow gone) */
	double stuck_s;   /* a square hidden at every reading for this long is taken as the
	                     board's new look: something left lying there (default 20 s) */
	float unsure;     /* points read with a confidence under this keep their last value (default 0.15) */
	bool stills;      /* every frame is a stable view (see above) */
	bool relocate;    /* look for the grid again at every reading (default true) */
	bool has_corners; /* corners holds the grid's corners (from a calibration): no search */
	double corners[8];/* x y clockwise from the top-left, as gv_locate gives them */
	/* what the pipeline decides and why, one line at a time (no newline),
	 * for the one tuning it; NULL (the default): nothing is formatted */
	void (*trace)(const char *line, void *ud);
	void *trace_ud;
} gv_pipeline_opts;

/* Fills o with the defaults. */
void gv_pipeline_opts_init(gv_pipeline_opts *o);

typedef struct gv_observation {
	double t;                      /* the time of the frame that was read */
	int size;
	unsigned char cells[19 * 19];  /* cells[row * size + col]: 0 empty, 1 black, 2 white; row 0 the grid edge nearest the image top */
	unsigned char held[19 * 19];   /* 1 where the point was hidden or unsure and kept its last value */
	unsigned char outside[19 * 19]; /* 1 where it was held because it lay beyond the frame */
	int nheld;                     /* how many points were held */
	int nhidden;                   /* of those, how many because a square beside them was hidden */
	int noutside;                  /* of those, how many beyond the frame (the camera moved the board
	                                  partly out of it; gv_classify_features_within) */
	bool relocated;                /* the grid was found anew for this reading */
} gv_observation;

typedef struct gv_pipeline_stats {
	long frames;        /* frames fed */
	long readings;      /* frames read (classified) */
	long observations;  /* observations made */
	long locates;       /* grid searches run */
	long tracks;        /* of them, the grid in use followed as well (gv_track_grid) */
	long relocations;   /* times a moved grid was taken */
	long classified;    /* points classified (all of them at a full reading, else those that changed) */
	long held_points;   /* points held over all observations */
	long hidden_readings; /* readings that were no observation: something hid squares */
	bool located;       /* the grid is known */
	double corners[8];  /* the grid corners in use (x y clockwise from the top-left) */
} gv_pipeline_stats;

typedef struct gv_pipeline gv_pipeline;

/* A pipeline with the options given (NULL: defaults). Returns 0, GV_EINVAL
 * (a bad size or option) or GV_ENOMEM. */
int gv_pipeline_new(gv_pipeline **out, const gv_pipeline_opts *opts);
void gv_pipeline_free(gv_pipeline *p);

/* Feeds one RGB frame taken at time t (seconds, never going backwards; all
 * frames the same size). Returns 1 when *obs holds a new observation, 0 when
 * there is none yet, or an error: GV_EINVAL (a bad frame, time going back,
 * the frame size changed), GV_ENOMEM, GV_ECV, with a message in err. A frame
 * in which no board is found is no error: it just gives no observation. */
int gv_pipeline_feed(gv_pipeline *p, const gv_image *rgb, double t, gv_observation *obs, char *err, size_t cap);

void gv_pipeline_get_stats(const gv_pipeline *p, gv_pipeline_stats *s);

#endif
