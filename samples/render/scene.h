/*
 * goref-render: the physical scene and its picture.
 *
 * A wooden Go board on a table, seen by a pinhole camera with tilt and radial
 * lens distortion; stones with shading, shadow and glare; a hand with its arm
 * and shadow. World coordinates are millimetres on the table plane: X to the
 * east (image right), Y to the north (image top), the board's centre at the
 * origin before any bump. Board coordinates are millimetres on the board:
 * u to the right (column A to T), v downwards (row N to row 1), the grid's
 * centre at 0.
 *
 * Speed: the pixel -> table-plane map is computed once; the board without
 * stones (base) once per board pose; the board with stones (still) is
 * updated only around stones that change; each frame is the still picture,
 * the hand drawn into its bounding box, one pass of light and noise.
 */
#ifndef GOREF_RENDER_SCENE_H
#define GOREF_RENDER_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "image.h"

#define RS_CELL_X 23.5   /* mm between columns */
#define RS_CELL_Y 25.0   /* mm between rows */
#define RS_MARGIN 20.0   /* mm of wood beyond the outer lines */
#define RS_STONE_R 11.5  /* stone radius, mm */
#define RS_MAXN 19

/* Deterministic random numbers (splitmix64). */
typedef struct rs_rng {
	uint64_t s;
} rs_rng;
uint64_t rs_next(rs_rng *r);
double rs_uniform(rs_rng *r, double lo, double hi); /* [lo, hi) */
int rs_int(rs_rng *r, int n);                       /* 0..n-1 */
double rs_gauss(rs_rng *r);
uint64_t rs_hash(uint64_t a, uint64_t b);

typedef struct rs_scene_params {
	int width, height;
	int size;          /* board lines */
	double tilt_deg;   /* camera tilt from vertical */
	double yaw_deg;    /* camera turn about its axis */
	double k1;         /* radial distortion (normalised coordinates) */
	double noise;      /* Gaussian sensor noise sigma, grey levels */
	bool light;        /* slow global light change and a moving shadow band */
	double tint[3];    /* a coloured light: each channel's gain (R, G, B), as a
	                      lamp of that colour gives it; all 0: white light */
	int board_lines;   /* the physical board's lines (0: size); a larger
	                      board holds the game in a size x size area of it */
	bool paper;        /* white paper over the board outside the game's area
	                      (a window cut a fraction of a cell beyond its lines) */
	bool floor;        /* the board on a floor of pale planks (bamboo), as
	                      bright as the board, their dark seams long straight
	                      lines at a random angle, instead of a dark table */
	bool bamboo;       /* the board's top of laminated bamboo: strips 15-30 mm
	                      wide along one family of lines, each its own shade,
	                      thin dark glue seams between them, the nodes' dark
	                      bands across them, fibres along them; pale straw or
	                      carbonised brown (instead of the wood's grain) */
	double stone_h;    /* the stones' height above the board, mm: each drawn as
	                      half an ellipsoid (its top stands above its point and
	                      is seen off it from a slanted camera); 0: flat discs,
	                      as before */
	double board_t;    /* the board's thickness, mm: its sides show beside
	                      its top from a slanted camera, the table that much
	                      below (0: a board as thin as paper, as before) */
	double zoom;       /* the board drawn this much larger than the framing
	                      gives (0 or 1: framed within the picture; more: a
	                      camera nearer, the board's edges may leave it) */
	bool clutter;      /* on the table: two bowls of stones with their lids
	                      beside the board and loose stones near its edges */
	uint64_t seed;
} rs_scene_params;

/* A hand (with arm and sleeve) over the board: the point its fingers cover,
 * the direction it points (unit, world), its colours. */
typedef struct rs_hand {
	double tx, ty;     /* world mm: the point under the fingers */
	double ax, ay;     /* unit direction from the arm to the fingers */
	unsigned char skin[3];
	unsigned char sleeve[3];
} rs_hand;

typedef struct rs_scene rs_scene;

/* Returns NULL when out of memory. */
rs_scene *rs_scene_new(const rs_scene_params *p);
void rs_scene_free(rs_scene *s);

/* The stone at column x, row y (0 = top), color 0 empty, 1 black, 2 white;
 * the stone's offset from its point in mm (fixed for its lifetime). Only
 * the region around it is drawn again. */
void rs_scene_set_stone(rs_scene *s, int x, int y, int color, double du, double dv);

/* The board's place on the table: turned by deg and shifted by (dx, dy) mm
 * from where it started. With render false only the geometry changes (for
 * planning); the pictures are then stale until a call with render true. */
void rs_scene_pose(rs_scene *s, double deg, double dx, double dy, bool render);

/* Where a board point (column x, row y from the top, plus an offset in mm)
 * is on the table plane now. */
void rs_scene_point_world(const rs_scene *s, double x, double y, double *wx, double *wy);

/* World point -> pixel (with the lens's distortion). */
void rs_scene_project(const rs_scene *s, double wx, double wy, double *px, double *py);

/* The four grid corners in pixels, clockwise from the top-left
 * (x0 y0 ... x3 y3). */
void rs_scene_corners(const rs_scene *s, double out[8]);

/* Whether any pixel of the hand or its shadow would be drawn. */
bool rs_scene_hand_visible(const rs_scene *s, const rs_hand *h);

/* The largest value of dir . p over the picture's border (p in world mm):
 * how far out a hand coming from direction -dir must be to be unseen. */
double rs_scene_border_extent(const rs_scene *s, double dirx, double diry);

/* Renders frame number f at time t (seconds) into out (width x height RGB,
 * allocated by the caller): the still picture, the hand (NULL: none),
 * light and noise. */
void rs_scene_frame(rs_scene *s, const rs_hand *h, long f, double t, gv_image *out);

#endif
