/*
 * goref vision: sorting floats, for medians. Small arrays (a point's
 * neighbours, a square's quadrants: most calls) by insertion, in place and
 * without a call per comparison; larger ones by qsort. The same order
 * either way (ascending; the values are never NaN), so a median taken from
 * it is the same number.
 */
#ifndef GOREF_VISION_SORTF_H
#define GOREF_VISION_SORTF_H

#include <stdlib.h>

static inline int gv_cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

static inline void gv_sortf(float *v, int n)
{
	if (n > 32) {
		qsort(v, (size_t)n, sizeof *v, gv_cmp_float);
		return;
	}
	for (int a = 1; a < n; a++) {
		float t = v[a];
		int b = a;
		for (; b > 0 && v[b - 1] > t; b--)
			v[b] = v[b - 1];
		v[b] = t;
	}
}

/* The k-th smallest of v[0..n) (0 <= k < n), v reordered so that v[k] is
 * it, everything before it no larger and everything after no smaller. */
static inline float gv_selectf(float *v, int n, int k)
{
	if (n <= 32) {
		gv_sortf(v, n);
		return v[k];
	}
	int lo = 0, hi = n - 1;
	while (hi > lo) {
		/* the median of three as the pivot */
		int mid = lo + (hi - lo) / 2;
		float a = v[lo], b = v[mid], c = v[hi];
		float piv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		int i = lo, j = hi;
		while (i <= j) {
			while (v[i] < piv)
				i++;
			while (v[j] > piv)
				j--;
			if (i <= j) {
				float t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break; /* v[j + 1 .. i - 1] are all the pivot */
	}
	return v[k];
}

/* The median of v[0..n) (n >= 1; the mean of the middle two when n is
 * even), v reordered. */
static inline float gv_medianf(float *v, int n)
{
	float hi = gv_selectf(v, n, n / 2);
	if (n % 2)
		return hi;
	float lo = v[0];
	for (int k = 1; k < n / 2; k++)
		if (v[k] > lo)
			lo = v[k];
	return 0.5f * (lo + hi);
}

#endif
