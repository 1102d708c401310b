/* goref vision: the progressive probabilistic Hough transform. See hough.h. */
#include "hough.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define SHIFT 16 /* the walk's fixed point */
#ifndef M_PI
#define M_PI 3.14159265358979323846 /* OpenCV's CV_PI, as a double */
#endif

/* OpenCV's RNG (multiply with carry), seeded as HoughLinesP seeds it */
static uint64_t rng_next(uint64_t *state)
{
	*state = (uint64_t)(uint32_t)*state * 4164903690U + (uint32_t)(*state >> 32);
	return (uint32_t)*state;
}

/* round to nearest, ties to even (the SSE conversion OpenCV's cvRound is) */
static int round_f(float v)
{
	return (int)gv_lrintf(v);
}

static int round_d(double v)
{
	return (int)lrint(v);
}

/* The accumulator's row of each angle for the point (x, y): r[n] =
 * round(x cos + y sin) + (numrho - 1) / 2, in float as OpenCV, four angles
 * at a time where SSE2 is there (the same products, sums and rounding). */
static void rows_of(const float *cs, const float *sn, int numangle, int x, int y, int off, int *r)
{
	int n = 0;
#if defined(__SSE2__)
	__m128 fx = _mm_set1_ps((float)x), fy = _mm_set1_ps((float)y);
	__m128i o = _mm_set1_epi32(off);
	for (; n + 4 <= numangle; n += 4) {
		__m128 v = _mm_add_ps(_mm_mul_ps(fx, _mm_loadu_ps(cs + n)), _mm_mul_ps(fy, _mm_loadu_ps(sn + n)));
		_mm_storeu_si128((__m128i *)(r + n), _mm_add_epi32(_mm_cvtps_epi32(v), o));
	}
#endif
	for (; n < numangle; n++) {
		float a = (float)x * cs[n];
		float b = (float)y * sn[n];
		r[n] = round_f(a + b) + off;
	}
}

int gv_hough_segments(const gv_image *bin, double rho_d, double theta_d, int threshold, double min_len_d,
                      double max_gap_d, float *segs, int max, int *count)
{
	if (count)
		*count = 0;
	/* (the walk's fixed point holds a coordinate below 32768) */
	if (!bin || !bin->data || bin->channels != 1 || bin->width <= 0 || bin->height <= 0 || bin->width > 32767 ||
	    bin->height > 32767 || !segs || max < 0 ||
	    !count || !(rho_d > 0) || !(theta_d > 0) || !isfinite(min_len_d) || !isfinite(max_gap_d))
		return GV_EINVAL;
	float rho = (float)rho_d, theta = (float)theta_d, irho = 1 / rho;
	int line_len = round_d(min_len_d), line_gap = round_d(max_gap_d);
	int width = bin->width, height = bin->height;
	/* the angles from 0 up to but not including pi (a last one within half
	 * a step of pi is dropped: it is the first again) */
	int numangle = (int)floor(M_PI / theta) + 1;
	if (numangle > 1 && fabs(M_PI - (numangle - 1) * (double)theta) < theta / 2.0)
		numangle--;
	int numrho = round_f((float)((width + height) * 2 + 1) / rho);
	if (numangle <= 0 || numrho <= 0)
		return GV_EINVAL;
	int off = (numrho - 1) / 2;
	size_t npx = (size_t)width * (size_t)height;
	int *acc = calloc((size_t)numangle * (size_t)numrho, sizeof *acc);
	unsigned char *mask = malloc(npx);
	float *cs = malloc(sizeof(float) * (size_t)numangle), *sn = malloc(sizeof(float) * (size_t)numangle);
	int *r = malloc(sizeof(int) * (size_t)numangle);
	int *nz = NULL;
	int rc = GV_OK;
	if (!acc || !mask || !cs || !sn || !r) {
		rc = GV_ENOMEM;
		goto done;
	}
	for (int n = 0; n < numangle; n++) {
		cs[n] = (float)(cos((double)n * theta) * irho);
		sn[n] = (float)(sin((double)n * theta) * irho);
	}
	/* 1. the set pixels, row by row */
	size_t total = 0;
	for (int y = 0; y < height; y++) {
		const unsigned char *row = bin->data + (size_t)y * bin->stride;
		for (int x = 0; x < width; x++) {
			mask[(size_t)y * (size_t)width + (size_t)x] = row[x] != 0;
			total += row[x] != 0;
		}
	}
	if (total > (size_t)INT32_MAX / 2) {
		rc = GV_EINVAL;
		goto done;
	}
	nz = malloc(sizeof(int) * 2 * (total ? total : 1));
	if (!nz) {
		rc = GV_ENOMEM;
		goto done;
	}
	int cnt = 0;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			if (mask[(size_t)y * (size_t)width + (size_t)x]) {
				nz[2 * cnt] = x;
				nz[2 * cnt + 1] = y;
				cnt++;
			}
	/* 2. every point in a random order */
	uint64_t state = UINT64_MAX;
	int found = 0;
	for (; cnt > 0; cnt--) {
		int idx = (int)(rng_next(&state) % (uint32_t)cnt);
		int j = nz[2 * idx], i = nz[2 * idx + 1];
		/* taken out: the last one takes its place */
		nz[2 * idx] = nz[2 * (cnt - 1)];
		nz[2 * idx + 1] = nz[2 * (cnt - 1) + 1];
		/* already part of a line found */
		if (!mask[(size_t)i * (size_t)width + (size_t)j])
			continue;
		/* its votes, and the strongest line through it */
		int max_val = threshold - 1, max_n = 0;
		rows_of(cs, sn, numangle, j, i, off, r);
		int *row = acc;
		for (int n = 0; n < numangle; n++, row += numrho) {
			int val = ++row[r[n]];
			if (max_val < val) {
				max_val = val;
				max_n = n;
			}
		}
		if (max_val < threshold)
			continue;
		/* walk both ways along that line from the point */
		float a = -sn[max_n], b = cs[max_n];
		int x0 = j, y0 = i, dx0, dy0;
		bool xflag = fabsf(a) > fabsf(b);
		if (xflag) {
			dx0 = a > 0 ? 1 : -1;
			dy0 = round_f(b * (float)(1 << SHIFT) / fabsf(a));
			y0 = (y0 << SHIFT) + (1 << (SHIFT - 1));
		} else {
			dy0 = b > 0 ? 1 : -1;
			dx0 = round_f(a * (float)(1 << SHIFT) / fabsf(b));
			x0 = (x0 << SHIFT) + (1 << (SHIFT - 1));
		}
		int end[2][2] = {{j, i}, {j, i}}; /* x y of each end */
		for (int k = 0; k < 2; k++) {
			int gap = 0, x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
			for (;; x += dx, y += dy) {
				int j1 = xflag ? x : x >> SHIFT, i1 = xflag ? y >> SHIFT : y;
				if (j1 < 0 || j1 >= width || i1 < 0 || i1 >= height)
					break;
				if (mask[(size_t)i1 * (size_t)width + (size_t)j1]) {
					gap = 0;
					end[k][0] = j1;
					end[k][1] = i1;
				} else if (++gap > line_gap) {
					break;
				}
			}
		}
		bool good = abs(end[1][0] - end[0][0]) >= line_len || abs(end[1][1] - end[0][1]) >= line_len;
		/* its pixels leave the mask (and their votes the accumulator when
		 * the segment is kept) */
		for (int k = 0; k < 2; k++) {
			int x = x0, y = y0, dx = k ? -dx0 : dx0, dy = k ? -dy0 : dy0;
			for (;; x += dx, y += dy) {
				int j1 = xflag ? x : x >> SHIFT, i1 = xflag ? y >> SHIFT : y;
				unsigned char *m = mask + (size_t)i1 * (size_t)width + (size_t)j1;
				if (*m) {
					if (good) {
						rows_of(cs, sn, numangle, j1, i1, off, r);
						int *rw = acc;
						for (int n = 0; n < numangle; n++, rw += numrho)
							rw[r[n]]--;
					}
					*m = 0;
				}
				if (i1 == end[k][1] && j1 == end[k][0])
					break;
			}
		}
		if (good) {
			/* the first max are those OpenCV gives first: the rest
			 * would not change them */
			if (found == max)
				break;
			segs[4 * found] = (float)end[0][0];
			segs[4 * found + 1] = (float)end[0][1];
			segs[4 * found + 2] = (float)end[1][0];
			segs[4 * found + 3] = (float)end[1][1];
			found++;
		}
	}
	*count = found;
done:
	free(acc);
	free(mask);
	free(cs);
	free(sn);
	free(r);
	free(nz);
	return rc;
}
