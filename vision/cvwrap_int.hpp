// goref vision: what the C++ doors to OpenCV share (vision/cvwrap.cpp and
// calib/cvcalib.cpp): the error message, the image check, a gv_image seen
// as a cv::Mat without a copy, and the guard that turns every exception
// into a GV_E* code. C++ only; not for C.
#ifndef GOREF_VISION_CVWRAP_INT_HPP
#define GOREF_VISION_CVWRAP_INT_HPP

extern "C" {
#include "image.h"
}

#include <cstdio>
#include <new>

#include <opencv2/core.hpp>

namespace gv_cvwrap {

inline void set_err(char *err, size_t cap, const char *what, const char *msg)
{
	if (!err || cap == 0)
		return;
	std::snprintf(err, cap, "%s: %s", what, msg ? msg : "unknown error");
}

inline bool valid(const gv_image *img)
{
	return img && img->data && img->width > 0 && img->height > 0 &&
	       (img->channels == 1 || img->channels == 3) &&
	       img->stride >= (size_t)img->width * (size_t)img->channels;
}

inline cv::Mat wrap(const gv_image *img)
{
	return cv::Mat(img->height, img->width, CV_8UC(img->channels), img->data, img->stride);
}

// Runs f (which may throw) and turns every exception into a code.
template <typename F> int guarded(const char *what, char *err, size_t cap, gv_image *out, F f)
{
	try {
		return f();
	} catch (const cv::Exception &e) {
		if (out)
			gv_image_free(out);
		set_err(err, cap, what, e.what());
		return GV_ECV;
	} catch (const std::bad_alloc &) {
		if (out)
			gv_image_free(out);
		set_err(err, cap, what, "out of memory");
		return GV_ENOMEM;
	} catch (...) {
		if (out)
			gv_image_free(out);
		set_err(err, cap, what, "unexpected C++ exception");
		return GV_ECV;
	}
}

} // namespace gv_cvwrap

using gv_cvwrap::guarded;
using gv_cvwrap::set_err;
using gv_cvwrap::valid;
using gv_cvwrap::wrap;

#endif
