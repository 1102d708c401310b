/*
 * Boards drawn for the vision tests (test_vision_classify, test_vision_cnn):
 * wood with grain, lines and star points, stones with highlights and
 * shadows, seen through a homography, under a tinted light with a
 * gradient, glare and cast shadows, a little noise. One drawing for both,
 * so that the two classifiers are judged on the same boards.
 */
#ifndef GOREF_TESTS_TESTDRAW_H
#define GOREF_TESTS_TESTDRAW_H

#include "image.h"

typedef struct stone {
	int i, j;
	double du, dv; /* offset from the point, in cells */
	int colour;    /* 1 black, 2 white */
} stone;

typedef struct scene {
	int size;
	const stone *stones;
	int nstones;
	double tint[3];     /* coloured light: multiplies R, G, B */
	double gradient;    /* brightness falls by this fraction from left to right */
	double wood[3];     /* board colour */
	unsigned seed;
	double glare[3];    /* a lamp's reflection on the varnish: centre u, v and radius (cells); 0 radius: none */
	double shadow[3];   /* cast shadows: offset u, v (cells) and how much light they leave */
} scene;

/* A small deterministic generator (the noise, the grain). */
unsigned td_lcg(unsigned *s);
/* Renders the scene through H (board to image) into a w x h RGB image
 * (allocated here), 3x3 supersampled, with the light's tint and gradient
 * and a little noise. */
void td_render(const scene *sc, const double H[9], int w, int h, gv_image *img);

#endif
