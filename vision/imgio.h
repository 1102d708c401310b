/*
 * goref vision: image files without OpenCV's imgcodecs.
 *
 * JPEG through libjpeg-turbo (the TurboJPEG API), PNG through libpng
 * (vision/png.c), and the Netpbm formats (PGM/PPM, plain or raw) by hand.
 * The format is told by the file's first bytes, not by its name.
 *
 * Bounds, for any input: an image is refused before a pixel is decoded when
 * its header declares more than GV_MAX_PIXELS pixels or a side longer than
 * GV_MAX_SIDE; a JPEG file larger than GV_MAX_JPEG_BYTES is not read; a
 * progressive JPEG with more than 500 scans is refused (TJFLAG_LIMITSCANS);
 * PNG chunk limits are in png.h.
 */
#ifndef GOREF_VISION_IMGIO_H
#define GOREF_VISION_IMGIO_H

#include <stddef.h>

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GV_MAX_PIXELS 100000000L            /* 100 megapixels */
#define GV_MAX_SIDE 32768                   /* pixels, either side (gv_image_alloc's bound) */
#define GV_MAX_JPEG_BYTES (128L * 1024 * 1024) /* a JPEG file's size */

/* Reads a photo (JPEG, PNG, PGM/PPM) as 3-channel RGB in its stored pixel
 * order (the EXIF orientation tag is ignored); a grey image comes back with
 * its three channels equal. GV_EREAD when the file is missing, empty, a
 * folder, of another format, over the bounds above, or damaged (a JPEG cut
 * short or with corrupt data is refused, not shown half grey); GV_ENOMEM.
 * The message in err[0..cap) starts with the path. */
int gv_imread(gv_image *out, const char *path, char *err, size_t cap);

/* The same, at most max_side pixels on the longer side when max_side > 0
 * (0: full size, exactly gv_imread). A JPEG is decoded directly at the
 * largest of libjpeg-turbo's DCT scales (8/8, 7/8, ..., 1/8) that fits, so a
 * large photo never needs a full-size buffer: its longer side L comes out
 * at most max_side and less than L/8 short of it, with no resampling of
 * ours (4080 x 3060 at 2048 is 2040 x 1530, at 1/2; at 800, 510 x 383).
 * A PNG or PGM/PPM larger is shrunk by area averaging as its rows are
 * decoded (png.h: an interlaced PNG is decoded whole first), a JPEG over 8
 * times too large is shrunk from its 1/8 scale. The aspect ratio is kept (to the
 * pixel). */
int gv_imread_max(gv_image *out, const char *path, int max_side, char *err, size_t cap);

/* The working size every command reads a photo at (detect, eval,
 * calibrate) and the largest frame a source gives: 4096 pixels a side, 48 MB
 * as RGB. A PNG or PGM/PPM over it is shrunk as its rows are decoded, a
 * JPEG decoded at a DCT scale: no full-size buffer for either. */
#define GV_WORK_SIDE 4096

/* gv_imread_max, and the file's own size into *full_w, *full_h (when not
 * NULL; 0 when it was not read that far): what the picture was shrunk
 * from. */
int gv_imread_max_size(gv_image *out, const char *path, int max_side, int *full_w, int *full_h, char *err,
                       size_t cap);

/* gv_imread_max_size, but a JPEG whose longer side is at least 2 *
 * min_side (min_side > 0) is decoded at the smallest of libjpeg-turbo's
 * fast DCT scales (1/2, 1/4, 1/8) whose longer side is still at least
 * min_side and that fits in max_side (when max_side > 0): a 4080 x 3060
 * photo at min_side 800 is 1020 x 765, at 1/4, a 2048 x 1536 one 1024 x
 * 768, a 1280 x 960 one read whole. The DCT scaling averages each 2x2,
 * 4x4 or 8x8 block as it decodes, in a fraction of the full decoding's
 * time and memory. A PNG or PGM/PPM, and a JPEG no scale fits, are read
 * as gv_imread_max_size reads them. min_side 0 is gv_imread_max_size. */
int gv_imread_work(gv_image *out, const char *path, int min_side, int max_side, int *full_w, int *full_h,
                   char *err, size_t cap);

/* Writes img (1 or 3 channels, RGB) to path in the format its extension
 * names: .png (libpng) or .jpg / .jpeg (libjpeg-turbo: baseline, 4:2:0,
 * the accurate DCT; byte for byte what OpenCV's imwrite wrote); quality
 * 1..100 is the JPEG quality (0: 95). GV_EWRITE when it cannot be
 * written or the extension is another one. */
int gv_imwrite(const char *path, const gv_image *img, int quality, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
