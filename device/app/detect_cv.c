/* goref-detect: OpenCV loaded only when a photo needs it (issue 14).
 *
 * goref-detect reads most photos without OpenCV: the image files through
 * libjpeg-turbo and libpng, the grey copy, the locator's lines, the proof
 * and the classifier in C. OpenCV (core and imgproc, with the twenty shared
 * libraries they bring: about 15 ms of a 1 MP detect's 80 spent by the
 * dynamic linker here) is needed only for the board's outline (a grid
 * whose outer lines are hidden, or no grid from the lines), for the lens
 * correction (--camera) and for the overlay's drawing (--overlay). So
 * vision/cvwrap.cpp is built a second time as a module, goref-cv.so, and
 * these functions, the ones of cvwrap.h, load it at the first call and go
 * on to its own: the same code, the same answers.
 *
 * The module is looked for beside the running program (/proc/self/exe),
 * then in the install's lib/goref beside its bin/ (GOREF_CV_MODULE_REL
 * from the program's folder), then in GOREF_CV_MODULE_DIR (the same folder
 * as configured). When it cannot be
 * loaded, each call fails with GV_ECV and a message that names it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cvwrap.h"

#ifndef GOREF_CV_MODULE_DIR
#define GOREF_CV_MODULE_DIR "/usr/local/lib/goref"
#endif
#ifndef GOREF_CV_MODULE_REL
#define GOREF_CV_MODULE_REL "../lib/goref"
#endif
#define MODULE "goref-cv.so"

static void *module;
static char why[1024];

/* The module's function name, or NULL with a message in err. */
static void *cv_fn(const char *name, char *err, size_t cap)
{
	if (!module && !why[0]) {
		/* beside the running program, then where it is installed */
		char dir[PATH_MAX] = "";
		ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
		char *slash = n > 0 ? (dir[n] = 0, strrchr(dir, '/')) : NULL;
		if (slash)
			*slash = 0;
		else
			dir[0] = 0;
		char paths[3][PATH_MAX + 64];
		snprintf(paths[0], sizeof paths[0], "%s/%s", dir, MODULE);
		snprintf(paths[1], sizeof paths[1], "%s/%s/%s", dir, GOREF_CV_MODULE_REL, MODULE);
		snprintf(paths[2], sizeof paths[2], "%s/%s", GOREF_CV_MODULE_DIR, MODULE);
		for (int k = 0; k < 3 && !module; k++) {
			if ((k < 2 && !dir[0]) || access(paths[k], F_OK) != 0)
				continue;
			module = dlopen(paths[k], RTLD_NOW | RTLD_LOCAL);
			if (!module) {
				const char *e = dlerror();
				snprintf(why, sizeof why, "%.400s cannot be loaded: %.300s", paths[k], e ? e : "unknown error");
			}
		}
		if (!module && !why[0])
			snprintf(why, sizeof why,
			         "OpenCV's part of goref, %s (for the board's outline, the lens and the overlay), is "
			         "neither beside the program (%.200s) nor in %.200s/%s nor in %s",
			         MODULE, dir[0] ? dir : "?", dir[0] ? dir : "?", GOREF_CV_MODULE_REL, GOREF_CV_MODULE_DIR);
	}
	void *f = module ? dlsym(module, name) : NULL;
	if (!f && module && !why[0])
		snprintf(why, sizeof why, "%s has no %s (a module of another goref build?)", MODULE, name);
	if (!f && err && cap)
		snprintf(err, cap, "%s", why);
	return f;
}

/* Each function of cvwrap.h: the module's, found once. A function whose
 * last two arguments are not (err, cap) gets them from the caller's own. */
#define CV_FORWARD(name, params, args)                                                                     \
	int name params                                                                                  \
	{                                                                                                \
		static int(*f) params;                                                                   \
		if (!f)                                                                                  \
			*(void **)&f = cv_fn(#name, err, cap);                                           \
		return f ? f args : GV_ECV;                                                              \
	}

CV_FORWARD(gv_cv_threads, (int n, char *err, size_t cap), (n, err, cap))
CV_FORWARD(gv_cv_resize, (const gv_image *src, gv_image *out, int width, int height, char *err, size_t cap),
           (src, out, width, height, err, cap))
CV_FORWARD(gv_cv_grey, (const gv_image *src, gv_image *out, char *err, size_t cap), (src, out, err, cap))
CV_FORWARD(gv_cv_blur, (const gv_image *src, gv_image *out, double sigma, char *err, size_t cap),
           (src, out, sigma, err, cap))
CV_FORWARD(gv_cv_canny, (const gv_image *grey, gv_image *out, double lo, double hi, char *err, size_t cap),
           (grey, out, lo, hi, err, cap))
CV_FORWARD(gv_cv_hough,
           (const gv_image *edges, double rho, double theta, int threshold, double min_len, double max_gap,
            float *segs, int max, int *count, char *err, size_t cap),
           (edges, rho, theta, threshold, min_len, max_gap, segs, max, count, err, cap))
CV_FORWARD(gv_cv_warp,
           (const gv_image *src, const double M[9], gv_image *out, int width, int height, char *err, size_t cap),
           (src, M, out, width, height, err, cap))
CV_FORWARD(gv_cv_remap,
           (const gv_image *src, const short *xy, const unsigned short *frac, gv_image *out, char *err,
            size_t cap),
           (src, xy, frac, out, err, cap))
CV_FORWARD(gv_cv_line,
           (gv_image *img, double x0, double y0, double x1, double y1, const unsigned char rgb[3], int thickness,
            char *err, size_t cap),
           (img, x0, y0, x1, y1, rgb, thickness, err, cap))
CV_FORWARD(gv_cv_circle,
           (gv_image *img, double x, double y, double radius, const unsigned char rgb[3], int thickness, char *err,
            size_t cap),
           (img, x, y, radius, rgb, thickness, err, cap))
CV_FORWARD(gv_cv_text,
           (gv_image *img, double x, double y, const char *text, double height, const unsigned char rgb[3],
            int thickness, char *err, size_t cap),
           (img, x, y, text, height, rgb, thickness, err, cap))
CV_FORWARD(gv_cv_bright_quad,
           (const gv_image *grey, double pieces, int mode, double quad[8], double *share, char *err, size_t cap),
           (grey, pieces, mode, quad, share, err, cap))
