/*
 * goref-render: a plan turned into timed frames and the files of OUTDIR.
 */
#ifndef GOREF_RENDER_RENDER_H
#define GOREF_RENDER_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "record.h"
#include "scene.h"

typedef struct rr_options {
	rs_scene_params scene;
	double fps;
	bool hands;          /* false: stones just appear, no hand */
	bool png;            /* PNG frames instead of JPEG */
	bool raw;            /* all frames raw (RGB24, no padding) in one file, frames.rgb */
	int quality;         /* JPEG quality */
	int bump;            /* bumped after this move (0: never) */
	double bump_deg, bump_dx, bump_dy;
	double drift;        /* the camera wobbles: the picture shifts by up to
	                        this many pixels, to a new place every 1-3 s */
	bool quiet;
	bool last_only;      /* only the last frame drawn and written (the
	                        final position as a photo); times.txt and the
	                        truth files as for every frame */
	const char *outdir;
} rr_options;

/* Renders the plan into o->outdir: frames, times.txt, truth.jsonl,
 * truth.log, game.sgf. rec is the game (for game.sgf's komi and setup).
 * Returns 0, or 1 with a message on stderr. */
int rr_render(const rr_options *o, const gr_record *rec, const rp_plan *plan);

#endif
