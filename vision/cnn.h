/*
 * goref vision: a learned stone classifier (issue 11, point 7).
 *
 * A small convolutional network reads a patch rectified around each
 * intersection through H (geom.h): GV_CNN_PATCH x GV_CNN_PATCH pixels
 * spanning GV_CNN_SPAN cells, centred on the point, rows along the board's
 * j, columns along its i. Each patch's colours are divided, channel by
 * channel, by the photo's board colour (the median of the squares' centres,
 * gv_board_colour), less 1: wood is about 0 under any light. The network:
 * a few 3x3 convolutions (padding 1), each followed by ReLU and a 2x2 max
 * pooling, then dense layers (ReLU between them), three outputs (empty,
 * black, white) turned into probabilities by softmax.
 *
 * The weights: trained by samples/train_classifier.sh (README: the learned
 * classifier); the model trained on every source is compiled in
 * (vision/cnn_weights.c, generated), others are read from a file in the
 * format below (gv_cnn_load). All little-endian:
 *   8 bytes "GRCNN01\n"; int32 patch; float32 span; int32 nconv; per
 *   convolution: int32 cin, cout, then float32 weights [cout][cin][3][3] and
 *   bias [cout]; int32 ndense; per dense layer: int32 nin, nout, then
 *   float32 weights [nout][nin] and bias [nout]. The first dense layer takes
 *   the last pooled map flattened channel by channel, row by row.
 */
#ifndef GOREF_VISION_CNN_H
#define GOREF_VISION_CNN_H

#include <stddef.h>

#include "image.h"

/* The network's input: pixels on a side, and the cells they span. */
#define GV_CNN_PATCH 24
#define GV_CNN_SPAN 2.0
/* The patches written for training (goref eval --dump-patches): larger, at
 * the same pixels per cell, so that shifts and scales can be drawn from
 * them. */
#define GV_CNN_DUMP 40

#define GV_CNN_MAX_LAYERS 6

/* Which classifier reads the stones (gv_detect_opts.classifier): the
 * hand-made one (classify.h), the network, or the two together (see
 * gv_cnn_combine). 0: the default, GV_CLASSIFIER in tuning.h. */
enum { GV_CLASSIFIER_DEFAULT = 0, GV_CLASSIFIER_RULES = 1, GV_CLASSIFIER_CNN = 2, GV_CLASSIFIER_BOTH = 3 };

typedef struct gv_cnn_layer {
	int nin, nout; /* channels (convolution) or values (dense) */
	const float *w, *b;
} gv_cnn_layer;

typedef struct gv_cnn {
	int patch;
	float span;
	int nconv, ndense;
	gv_cnn_layer conv[GV_CNN_MAX_LAYERS], dense[GV_CNN_MAX_LAYERS];
	float *owned; /* the weights read from a file (freed by gv_cnn_free) */
} gv_cnn;

/* The model trained on every source (vision/cnn_weights.c). */
extern const gv_cnn gv_cnn_builtin;

/* Reads a model written in the format above. 0, GV_EREAD (cannot open),
 * GV_EINVAL (not such a model: message in err) or GV_ENOMEM. */
int gv_cnn_load(gv_cnn *m, const char *path, char *err, size_t cap);
void gv_cnn_free(gv_cnn *m);

/* The board's colour in this photo: per channel, the median over the
 * squares' centres (half a cell from each line, seldom under a stone) of
 * the mean of a few samples there. GV_EINVAL for a bad argument. */
int gv_board_colour(const gv_image *rgb, const double H[9], int size, float colour[3]);

/* The n x n patch centred on board point (u, v) spanning span cells,
 * rectified through H: out[(y * n + x) * 3 + c], 0..255; pixel (x, y) is
 * the board point (u + (x + 0.5 - n / 2) * span / n, v + (y + 0.5 - n / 2)
 * * span / n), the mean of bilinear samples over its extent (more of them
 * where the photo has more pixels a cell). Outside the photo: the nearest
 * edge pixel. */
void gv_patch(const gv_image *rgb, const double H[9], double u, double v, int n, double span, float *out);

/* Runs the model on every point of the grid: probs[k * 3 + c] (may be
 * NULL) the probability of empty, black, white at point k = j * size + i;
 * cells[k] the likeliest (0, 1, 2), conf[k] (may be NULL) its probability,
 * capped at GV_DOUBT_CAP when more than GV_DOUBT_SHARE of the points are
 * under 0.5 (tuning.h, as gv_classify). 0, GV_EINVAL (bad argument, a grid
 * off the photo) or GV_ENOMEM. */
int gv_cnn_classify(const gv_cnn *m, const gv_image *rgb, const double H[9], int size, unsigned char *cells,
                    float *conf, float *probs);

/* The two classifiers together: cells and conf (gv_classify's reading)
 * replaced, point by point, by the likeliest colour of the mean of the two
 * readings as probabilities (the hand-made one's colour at 1/3 + 2/3 of its
 * confidence) and the network's probs (gv_cnn_classify's); its confidence
 * that mean's, but at most GV_DOUBT_CAP unless both read that colour and
 * the hand-made one was sure (0.9) of it. */
void gv_cnn_combine(int size, unsigned char *cells, float *conf, const float *probs);

/* The network on one normalised patch (m->patch squared, 3 channels
 * interleaved as gv_patch writes them, already divided by the board's
 * colour less 1): the three probabilities. scratch: gv_cnn_scratch(m)
 * floats. */
size_t gv_cnn_scratch(const gv_cnn *m);
void gv_cnn_forward(const gv_cnn *m, const float *patch, float probs[3], float *scratch);

#endif
