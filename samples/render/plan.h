/*
 * goref-render: what happens on the board, in order, before any picture.
 *
 * A plan is a list of steps: hand visits (a player, or the arbiter, reaches
 * in, places and lifts stones, leaves; the board is then still and the
 * camera sees it once) and passes (a still pause, an operator's "pass").
 * Each step carries the true events a referee should report when it sees
 * the still board after it. Injected violations are extra steps, and the
 * arbiter's visit that puts the board right.
 */
#ifndef GOREF_RENDER_PLAN_H
#define GOREF_RENDER_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"

enum { INJ_DOUBLE_MOVE = 0, INJ_MISSED_CAPTURE, INJ_WRONG_REMOVAL, INJ_TAKEBACK, INJ_MOVED_STONE, INJ_DISTURBED, INJ_KINDS };
extern const char *const rp_inj_names[INJ_KINDS];
int rp_inj_parse(const char *name); /* -1 when unknown */

typedef struct rp_inject {
	int kind;
	int move; /* after this move (1-based) */
} rp_inject;

enum { ACT_PLACE = 0, ACT_LIFT };
typedef struct rp_act {
	int kind;
	int x, y;
	int color;       /* ACT_PLACE */
	double du, dv;   /* ACT_PLACE: the stone's offset from its point, mm */
} rp_act;

enum { EV_MOVE = 0, EV_PASS, EV_RULING };
#define RP_MAXPTS 64
typedef struct rp_event {
	int type;         /* EV_MOVE, EV_PASS, EV_RULING */
	int kind;         /* EV_RULING: INJ_* */
	int color;        /* 1 black, 2 white, 0 none */
	int pt;           /* x + y * size, or -1 */
	int to;           /* takeback, moved_stone: where it went, else -1 */
	int move;         /* the move number, or 0 */
	int npts;
	int pts[RP_MAXPTS];
} rp_event;

enum { STEP_VISIT = 0, STEP_PASS };
enum { WHO_BLACK = 1, WHO_WHITE = 2, WHO_ARBITER = 3 };
typedef struct rp_step {
	int kind;
	int who;
	int act0, nact;    /* into plan.acts */
	int ev0, nev;      /* into plan.events */
	int hx, hy;        /* a visit with no act: where the hand reaches */
	bool bump;         /* the board is bumped while the hand leaves */
	int move;          /* the SGF move this step plays, or 0 */
} rp_step;

typedef struct rp_plan {
	int size;
	unsigned char start[19 * 19]; /* the board before the first step: [y * size + x] */
	rp_step *steps;
	int nsteps, capsteps;
	rp_act *acts;
	int nacts, capacts;
	rp_event *events;
	int nevents, capevents;
	int nmoves;
} rp_plan;

/* Builds the plan of the first nmoves moves of rec with the injections
 * (sorted by move) and a bump after move bump (0: none). Returns 0, or -1
 * with a message in err when an injection does not fit where it was asked
 * or the game has an illegal move; -2 when out of memory. */
int rp_plan_build(rp_plan *p, const gr_record *rec, int nmoves, const rp_inject *inj, int ninj, int bump,
                  uint64_t seed, char *err, size_t cap);
void rp_plan_free(rp_plan *p);

/* Runs the rules core's referee over the plan's observations and checks it
 * reports exactly the plan's moves, passes and rulings, step by step.
 * Returns true when it does; else false with what differed in err. */
bool rp_plan_verify(const rp_plan *p, char *err, size_t cap);

/* Picks n injections that fit the game (deterministic for the seed), as
 * rp_plan_build and rp_plan_verify accept them. Returns how many it found. */
int rp_pick_injections(const gr_record *rec, int nmoves, int n, int bump, uint64_t seed, rp_inject *out);

#endif
