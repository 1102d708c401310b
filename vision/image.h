/*
 * goref vision: an image in memory.
 *
 * Pixels are 8-bit, interleaved, rows top to bottom, `stride` bytes from one
 * row to the next: 1 channel (grey) or 3 (R, G, B in that order). The same
 * layout OpenCV's cv::Mat uses, so vision/cvwrap.cpp wraps these without a
 * copy.
 */
#ifndef GOREF_VISION_IMAGE_H
#define GOREF_VISION_IMAGE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A function marked GV_CLONES_AVX2 is built twice on x86-64, for any CPU
 * and for one with AVX2, the one to run chosen at load time (GCC's
 * target_clones): loops the compiler vectorizes then take twice the data a
 * step. AVX2 without FMA: the same operations in the same order, so the
 * same results to the bit. Elsewhere it is nothing. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define GV_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef GV_CLONES_AVX2
#define GV_CLONES_AVX2
#endif

/* lrintf (to nearest, ties to even, in the default rounding mode), inline:
 * SSE's conversion is the same rounding, where glibc's lrintf is a call a
 * pixel (the area shrink's 3% of a photo's time on gobanwatcher/1). For
 * values within int's range, as pixels' sums are. */
static inline long gv_lrintf(float v)
{
#ifdef __SSE2__
	return _mm_cvtss_si32(_mm_set_ss(v));
#else
	return lrintf(v);
#endif
}

/* Error codes of vision/ (0 is success; the rules core's GR_E* codes are
 * -1..-4 and keep their meaning here). */
enum {
	GV_OK = 0,
	GV_EINVAL = -1,   /* bad argument */
	GV_ENOMEM = -2,   /* out of memory */
	GV_EREAD = -10,   /* a file that cannot be opened or decoded */
	GV_EWRITE = -11,  /* a file that cannot be written */
	GV_ECV = -12,     /* OpenCV raised an error (the message says which) */
	GV_ENOTFOUND = -13, /* no board found in the image */
};

typedef struct gv_image {
	int width, height;
	int channels;        /* 1 or 3 */
	size_t stride;       /* bytes per row */
	unsigned char *data; /* owned when made by gv_image_alloc */
} gv_image;

/* Allocates a zeroed image (stride = width * channels). Returns 0,
 * GV_EINVAL or GV_ENOMEM; on failure img->data is NULL. */
int gv_image_alloc(gv_image *img, int width, int height, int channels);
/* Frees what gv_image_alloc (or a reader) allocated; NULL-safe; leaves the
 * struct zeroed. */
void gv_image_free(gv_image *img);

/* The size a w x h image comes to with its longer side made max_side
 * (aspect kept, to the pixel; at least 1): w and h unchanged when both are
 * within max_side or max_side <= 0. The readers' working size. */
void gv_fit_size(int w, int h, int max_side, int *fw, int *fh);

/* Shrinking an image by area averaging while its rows arrive one by one,
 * so a large picture never needs a full-size buffer: each output pixel is
 * the rounded mean of the source pixels whose box maps onto it (source x
 * goes to x * dw / sw). gv_shrink_begin allocates out (dw x dh, channels)
 * and the sums of one output row; gv_shrink_row takes the source rows in
 * order (sw pixels of `channels` bytes each); after the last one out is
 * whole; gv_shrink_end frees the sums (out stays with the caller). */
typedef struct gv_shrink {
	int sw, sh, dw, dh, channels;
	int y;                 /* the next source row */
	unsigned long long *sum; /* dw * channels */
	int *xcount;           /* source columns in each output column */
	int rows;              /* source rows in the current output row */
	gv_image *out;
} gv_shrink;

int gv_shrink_begin(gv_shrink *s, gv_image *out, int sw, int sh, int dw, int dh, int channels);
void gv_shrink_row(gv_shrink *s, const unsigned char *row);
void gv_shrink_end(gv_shrink *s);

/* A whole image shrunk to dw x dh (each no larger than the source's) by
 * area averaging, every output pixel the mean of the source area its box
 * covers, partly covered pixels in proportion: the same pixels as OpenCV's
 * cv::resize with INTER_AREA, without OpenCV, and a few times faster for a
 * ratio that is not a whole number. out is allocated. Returns 0,
 * GV_EINVAL or GV_ENOMEM. */
int gv_shrink_area(const gv_image *src, gv_image *out, int dw, int dh);

/* The image in grey (out allocated; a grey image is copied): from R, G, B
 * (9798 R + 19235 G + 3735 B + 2^14) >> 15, the fixed-point weights (0.299,
 * 0.587, 0.114 in fifteen bits) and rounding that OpenCV's cvtColor
 * RGB2GRAY uses for bytes: the same grey levels, without OpenCV
 * (test_vision_imgio compares every one of the 2^24 colours with
 * gv_cv_grey). Returns 0, GV_EINVAL or GV_ENOMEM. */
int gv_grey(const gv_image *src, gv_image *out);

/* The grey working copy the locators search (gv_grey, then gv_shrink_area
 * to gv_fit_size(max_side): never enlarged), out allocated. Made once by a
 * caller that searches one photo more than one way, and given to each
 * (gv_locate_opts.grey_work). Returns 0, GV_EINVAL or GV_ENOMEM. */
int gv_work_grey(const gv_image *src, int max_side, gv_image *out);
/* The working copy to search: shared when it is one (grey, of
 * gv_fit_size(max_side)'s size; NULL: none), else one made into own by
 * gv_work_grey. *use points to it; own is emptied first and freed by the
 * caller either way. Returns 0, GV_EINVAL or GV_ENOMEM. */
int gv_work_grey_use(const gv_image *src, const gv_image *shared, int max_side, gv_image *own,
                     const gv_image **use);

/* Pixel address (no range check). */
static inline unsigned char *gv_px(const gv_image *img, int x, int y)
{
	return img->data + (size_t)y * img->stride + (size_t)x * (size_t)img->channels;
}

/* The bilinear sampling's point (x, y) clamped to the image (so that the
 * pixel right of and below it are on it): its top-left pixel, and the
 * fractions to the next ones in float. */
static inline const unsigned char *gv_px_bilinear(const gv_image *im, double x, double y, float *fx, float *fy)
{
	double mx = im->width - 1.001, my = im->height - 1.001;
	x = x < 0 ? 0 : x > mx ? mx : x;
	y = y < 0 ? 0 : y > my ? my : y;
	int ix = (int)x, iy = (int)y;
	*fx = (float)(x - ix);
	*fy = (float)(y - iy);
	return gv_px(im, ix, iy);
}

#ifdef __SSE2__
/* gv_px_rgb of an RGB image (channels 3) as the first three lanes (the
 * fourth is a byte of no meaning): the three channels at once, each lane
 * the scalar code's float operations in its order (the differences of two
 * bytes are exact in float either way), so the same values to the bit.
 * The four bytes read at p are the pixel and the next one's first; at
 * p + 2, the pixel's last and the next one's three: both inside the image
 * (ix + 1 and iy + 1 are on it). */
static inline __m128 gv_px_rgb_sse(const gv_image *im, double x, double y)
{
	float fx, fy;
	const unsigned char *p = gv_px_bilinear(im, x, y, &fx, &fy);
	const unsigned char *q = p + im->stride;
	__m128i z = _mm_setzero_si128();
	uint32_t w[4];
	memcpy(&w[0], p, 4);
	memcpy(&w[1], p + 2, 4);
	memcpy(&w[2], q, 4);
	memcpy(&w[3], q + 2, 4);
#define GV_PX4F(v) _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)(v)), z), z))
	__m128 p0 = GV_PX4F(w[0]), p1 = GV_PX4F(w[1] >> 8), q0 = GV_PX4F(w[2]), q1 = GV_PX4F(w[3] >> 8);
#undef GV_PX4F
	__m128 vfx = _mm_set1_ps(fx);
	__m128 top = _mm_add_ps(p0, _mm_mul_ps(vfx, _mm_sub_ps(p1, p0)));
	__m128 bot = _mm_add_ps(q0, _mm_mul_ps(vfx, _mm_sub_ps(q1, q0)));
	return _mm_add_ps(top, _mm_mul_ps(_mm_set1_ps(fy), _mm_sub_ps(bot, top)));
}
#endif

/* Bilinear R, G, B at image point (x, y), clamped to the image (a grey
 * image gives its grey three times): the classifiers' sampling. */
static inline void gv_px_rgb(const gv_image *im, double x, double y, float out[3])
{
#ifdef __SSE2__
	if (im->channels == 3) {
		float r[4];
		_mm_storeu_ps(r, gv_px_rgb_sse(im, x, y));
		out[0] = r[0];
		out[1] = r[1];
		out[2] = r[2];
		return;
	}
#endif
	float fx, fy;
	const unsigned char *p = gv_px_bilinear(im, x, y, &fx, &fy);
	const unsigned char *q = p + im->stride;
	int c = im->channels;
	for (int k = 0; k < 3; k++) {
		int kk = c == 3 ? k : 0;
		float top = p[kk] + fx * (float)(p[c + kk] - p[kk]);
		float bot = q[kk] + fx * (float)(q[c + kk] - q[kk]);
		out[k] = top + fy * (bot - top);
	}
}

#ifdef __cplusplus
}
#endif

#endif
