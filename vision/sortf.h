/*
 * goref vision: medians of floats without sorting. gv_selectf finds the
 * k-th smallest (Hoare's selection; small arrays, a point's neighbours or
 * a square's quadrants, the most calls, by insertion, in place and without
 * a call per comparison); gv_medianf takes the median from it. The same
 * number a full sort gives (the values are never NaN). And qsort's
 * comparison of doubles, gv_cmp_double.
 */
#ifndef GOREF_VISION_SORTF_H
#define GOREF_VISION_SORTF_H

/* v[0..n) in ascending order, by insertion (meant for small n). */
static inline void gv_sortf(float *v, int n)
{
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

/* qsort's comparison of two doubles, ascending (never NaN): for the
 * callers that sort doubles (proof contrasts, polished corners). */
static inline int gv_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
