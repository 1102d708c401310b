/*
 * goref vision: PNG files through libpng (8-bit grey or RGB).
 */
#ifndef GOREF_VISION_PNG_H
#define GOREF_VISION_PNG_H

#include <stddef.h>

#include "image.h"

/* Writes img (1 or 3 channels) to path as an 8-bit grey or RGB PNG.
 * Returns 0, GV_EINVAL or GV_EWRITE with a message in err[0..cap). */
int gv_png_write(const char *path, const gv_image *img, char *err, size_t cap);

/* Limits of the reader (besides imgio.h's GV_MAX_SIDE and GV_MAX_PIXELS):
 * no chunk but IDAT may claim more than GV_PNG_CHUNK_MAX bytes (a larger
 * one is refused at its header, before anything is allocated for it), and
 * at most GV_PNG_CHUNK_COUNT_MAX ancillary chunks (text, sPLT, unknown)
 * are kept. */
#define GV_PNG_CHUNK_MAX 8000000
#define GV_PNG_CHUNK_COUNT_MAX 1000

/* Reads an 8-bit (or 16-bit, reduced; palette and grey+alpha expanded, alpha
 * dropped) PNG into out: 1 channel for grey files, 3 for colour ones.
 * Interlaced files are read too. Returns 0, GV_EREAD (missing, not a valid
 * PNG, or over the limits) or GV_ENOMEM. */
int gv_png_read(const char *path, gv_image *out, char *err, size_t cap);

/* The same at a working size: when max_side > 0 and a side is over it, the
 * picture comes out at gv_fit_size's size, shrunk by area averaging as its
 * rows are decoded (no full-size buffer). An interlaced PNG is decoded whole
 * before it is shrunk, so one over GV_PNG_INTERLACED_MAX_PIXELS is then
 * refused. *full_w and *full_h (when not NULL) receive the file's size. */
#define GV_PNG_INTERLACED_MAX_PIXELS 32000000L
int gv_png_read_max(const char *path, gv_image *out, int max_side, int *full_w, int *full_h, char *err,
                    size_t cap);

#endif
