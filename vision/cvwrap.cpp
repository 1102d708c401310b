// goref vision: the one door to OpenCV. See cvwrap.h.
// Every entry point catches everything; no exception reaches C.
extern "C" {
#include "image.h"
}
#include "cvwrap.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace {

void set_err(char *err, size_t cap, const char *what, const char *msg)
{
	if (!err || cap == 0)
		return;
	std::snprintf(err, cap, "%s: %s", what, msg ? msg : "unknown error");
}

bool valid(const gv_image *img)
{
	return img && img->data && img->width > 0 && img->height > 0 &&
	       (img->channels == 1 || img->channels == 3) &&
	       img->stride >= (size_t)img->width * (size_t)img->channels;
}

cv::Mat wrap(const gv_image *img)
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

} // namespace

extern "C" int gv_cv_threads(int n, char *err, size_t cap)
{
	return guarded("threads", err, cap, nullptr, [&]() -> int {
		cv::setNumThreads(n);
		return GV_OK;
	});
}

extern "C" int gv_cv_resize(const gv_image *src, gv_image *out, int width, int height, char *err, size_t cap)
{
	if (!valid(src) || !out || width <= 0 || height <= 0) {
		set_err(err, cap, "resize", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("resize", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, width, height, src->channels);
		if (rc) {
			set_err(err, cap, "resize", "cannot allocate the output");
			return rc;
		}
		cv::Mat dst = wrap(out);
		bool shrink = width < src->width || height < src->height;
		cv::resize(wrap(src), dst, cv::Size(width, height), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
		return GV_OK;
	});
}

extern "C" int gv_cv_grey(const gv_image *src, gv_image *out, char *err, size_t cap)
{
	if (!valid(src) || !out) {
		set_err(err, cap, "grey", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("grey", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, src->width, src->height, 1);
		if (rc) {
			set_err(err, cap, "grey", "cannot allocate the output");
			return rc;
		}
		cv::Mat dst = wrap(out);
		if (src->channels == 1)
			wrap(src).copyTo(dst);
		else
			cv::cvtColor(wrap(src), dst, cv::COLOR_RGB2GRAY);
		return GV_OK;
	});
}

extern "C" int gv_cv_blur(const gv_image *src, gv_image *out, double sigma, char *err, size_t cap)
{
	if (!valid(src) || !out || !(sigma > 0)) {
		set_err(err, cap, "blur", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("blur", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, src->width, src->height, src->channels);
		if (rc) {
			set_err(err, cap, "blur", "cannot allocate the output");
			return rc;
		}
		cv::Mat dst = wrap(out);
		cv::GaussianBlur(wrap(src), dst, cv::Size(0, 0), sigma, sigma, cv::BORDER_REPLICATE);
		return GV_OK;
	});
}

extern "C" int gv_cv_canny(const gv_image *grey, gv_image *out, double lo, double hi, char *err, size_t cap)
{
	if (!valid(grey) || grey->channels != 1 || !out) {
		set_err(err, cap, "canny", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("canny", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, grey->width, grey->height, 1);
		if (rc) {
			set_err(err, cap, "canny", "cannot allocate the output");
			return rc;
		}
		cv::Mat dst = wrap(out);
		cv::Canny(wrap(grey), dst, lo, hi, 3, true);
		return GV_OK;
	});
}

extern "C" int gv_cv_hough(const gv_image *edges, double rho, double theta, int threshold, double min_len,
                           double max_gap, float *segs, int max, int *count, char *err, size_t cap)
{
	if (count)
		*count = 0;
	if (!valid(edges) || edges->channels != 1 || !segs || max < 0 || !count) {
		set_err(err, cap, "hough", "bad argument");
		return GV_EINVAL;
	}
	return guarded("hough", err, cap, nullptr, [&]() -> int {
		std::vector<cv::Vec4i> lines;
		cv::HoughLinesP(wrap(edges), lines, rho, theta, threshold, min_len, max_gap);
		int n = 0;
		for (const cv::Vec4i &l : lines) {
			if (n >= max)
				break;
			for (int k = 0; k < 4; k++)
				segs[4 * n + k] = (float)l[k];
			n++;
		}
		*count = n;
		return GV_OK;
	});
}

extern "C" int gv_cv_warp(const gv_image *src, const double M[9], gv_image *out, int width, int height,
                          char *err, size_t cap)
{
	if (!valid(src) || !M || !out || width <= 0 || height <= 0) {
		set_err(err, cap, "warp", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("warp", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, width, height, src->channels);
		if (rc) {
			set_err(err, cap, "warp", "cannot allocate the output");
			return rc;
		}
		cv::Mat m(3, 3, CV_64F);
		for (int k = 0; k < 9; k++)
			m.at<double>(k / 3, k % 3) = M[k];
		cv::Mat dst = wrap(out);
		cv::warpPerspective(wrap(src), dst, m, cv::Size(width, height), cv::INTER_LINEAR,
		                    cv::BORDER_CONSTANT, cv::Scalar::all(0));
		return GV_OK;
	});
}

extern "C" int gv_cv_undistort(const gv_image *src, const double K[9], const double *dist, int ndist,
                               gv_image *out, char *err, size_t cap)
{
	if (!valid(src) || !K || !dist || !out ||
	    (ndist != 4 && ndist != 5 && ndist != 8 && ndist != 12 && ndist != 14)) {
		set_err(err, cap, "undistort", "bad argument");
		return GV_EINVAL;
	}
	std::memset(out, 0, sizeof *out);
	return guarded("undistort", err, cap, out, [&]() -> int {
		int rc = gv_image_alloc(out, src->width, src->height, src->channels);
		if (rc) {
			set_err(err, cap, "undistort", "cannot allocate the output");
			return rc;
		}
		cv::Mat k(3, 3, CV_64F), d(1, ndist, CV_64F);
		for (int i = 0; i < 9; i++)
			k.at<double>(i / 3, i % 3) = K[i];
		for (int i = 0; i < ndist; i++)
			d.at<double>(0, i) = dist[i];
		cv::Mat dst = wrap(out);
		cv::undistort(wrap(src), dst, k, d, k);
		return GV_OK;
	});
}

struct gv_undistorter {
	int width, height;
	cv::Mat map1, map2;
};

extern "C" int gv_undistorter_new(gv_undistorter **out, const double K[9], const double *dist, int ndist, int width,
                                  int height, char *err, size_t cap)
{
	if (!out || !K || !dist || width <= 0 || height <= 0 ||
	    (ndist != 4 && ndist != 5 && ndist != 8 && ndist != 12 && ndist != 14)) {
		set_err(err, cap, "undistorter", "bad argument");
		return GV_EINVAL;
	}
	*out = nullptr;
	return guarded("undistorter", err, cap, nullptr, [&]() -> int {
		cv::Mat k(3, 3, CV_64F), d(1, ndist, CV_64F);
		for (int i = 0; i < 9; i++)
			k.at<double>(i / 3, i % 3) = K[i];
		for (int i = 0; i < ndist; i++)
			d.at<double>(0, i) = dist[i];
		gv_undistorter *u = new gv_undistorter;
		u->width = width;
		u->height = height;
		try {
			cv::initUndistortRectifyMap(k, d, cv::Mat(), k, cv::Size(width, height), CV_16SC2, u->map1, u->map2);
		} catch (...) {
			delete u;
			throw;
		}
		*out = u;
		return GV_OK;
	});
}

extern "C" int gv_undistorter_apply(const gv_undistorter *u, const gv_image *src, gv_image *out, char *err, size_t cap)
{
	if (!u || !valid(src) || !valid(out) || src->width != u->width || src->height != u->height ||
	    out->width != u->width || out->height != u->height || out->channels != src->channels) {
		set_err(err, cap, "undistort", "bad argument (the image's size is not the undistorter's)");
		return GV_EINVAL;
	}
	return guarded("undistort", err, cap, nullptr, [&]() -> int {
		cv::Mat dst = wrap(out);
		cv::remap(wrap(src), dst, u->map1, u->map2, cv::INTER_LINEAR);
		return GV_OK;
	});
}

extern "C" void gv_undistorter_free(gv_undistorter *u)
{
	delete u;
}

extern "C" int gv_cv_line(gv_image *img, double x0, double y0, double x1, double y1, const unsigned char rgb[3],
                          int thickness, char *err, size_t cap)
{
	if (!valid(img) || !rgb || thickness < 1) {
		set_err(err, cap, "line", "bad argument");
		return GV_EINVAL;
	}
	return guarded("line", err, cap, nullptr, [&]() -> int {
		cv::Mat m = wrap(img);
		const int sh = 4; // sub-pixel bits
		cv::Point a((int)(x0 * (1 << sh) + 0.5), (int)(y0 * (1 << sh) + 0.5));
		cv::Point b((int)(x1 * (1 << sh) + 0.5), (int)(y1 * (1 << sh) + 0.5));
		cv::line(m, a, b, cv::Scalar(rgb[0], rgb[1], rgb[2]), thickness, cv::LINE_AA, sh);
		return GV_OK;
	});
}

extern "C" int gv_cv_circle(gv_image *img, double x, double y, double radius, const unsigned char rgb[3],
                            int thickness, char *err, size_t cap)
{
	if (!valid(img) || !rgb || thickness == 0 || thickness < -1 || !(radius >= 0)) {
		set_err(err, cap, "circle", "bad argument");
		return GV_EINVAL;
	}
	return guarded("circle", err, cap, nullptr, [&]() -> int {
		cv::Mat m = wrap(img);
		const int sh = 4;
		cv::Point c((int)(x * (1 << sh) + 0.5), (int)(y * (1 << sh) + 0.5));
		cv::circle(m, c, (int)(radius * (1 << sh) + 0.5), cv::Scalar(rgb[0], rgb[1], rgb[2]),
		           thickness < 0 ? cv::FILLED : thickness, cv::LINE_AA, sh);
		return GV_OK;
	});
}

extern "C" int gv_cv_chessboard(const gv_image *img, int cols, int rows, double *pts, int *found, char *err,
                                size_t cap)
{
	if (found)
		*found = 0;
	if (!valid(img) || cols < 2 || rows < 2 || cols * rows > 10000 || !pts || !found) {
		set_err(err, cap, "chessboard", "bad argument");
		return GV_EINVAL;
	}
	return guarded("chessboard", err, cap, nullptr, [&]() -> int {
		cv::Mat grey;
		if (img->channels == 3)
			cv::cvtColor(wrap(img), grey, cv::COLOR_RGB2GRAY);
		else
			grey = wrap(img).clone();
		// search a large photo shrunk to about 1280 pixels across
		int longest = grey.cols > grey.rows ? grey.cols : grey.rows;
		double scale = longest > 1600 ? 1280.0 / longest : 1.0;
		cv::Mat small = grey;
		if (scale < 1.0)
			cv::resize(grey, small, cv::Size(), scale, scale, cv::INTER_AREA);
		std::vector<cv::Point2f> corners;
		cv::Size pattern(cols, rows);
		bool ok = cv::findChessboardCorners(small, pattern, corners,
		                                    cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE |
		                                        cv::CALIB_CB_FAST_CHECK);
		if (!ok || corners.size() != (size_t)(cols * rows))
			return GV_OK;
		for (cv::Point2f &p : corners)
			p *= (float)(1.0 / scale);
		// the refining window: under half the smallest distance between neighbours
		double d = 1e9;
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				const cv::Point2f &p = corners[(size_t)(r * cols + c)];
				if (c + 1 < cols)
					d = std::min(d, (double)cv::norm(p - corners[(size_t)(r * cols + c + 1)]));
				if (r + 1 < rows)
					d = std::min(d, (double)cv::norm(p - corners[(size_t)((r + 1) * cols + c)]));
			}
		int win = (int)(d * 0.4);
		win = win < 2 ? 2 : win > 11 ? 11 : win;
		cv::cornerSubPix(grey, corners, cv::Size(win, win), cv::Size(-1, -1),
		                 cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.001));
		for (size_t k = 0; k < corners.size(); k++) {
			pts[2 * k] = corners[k].x;
			pts[2 * k + 1] = corners[k].y;
		}
		*found = 1;
		return GV_OK;
	});
}

extern "C" int gv_cv_calibrate(const double *obj, const double *img, int npts, int nviews, int width, int height,
                               int ndist, double K[9], double dist[5], double *rms, char *err, size_t cap)
{
	if (!obj || !img || npts < 4 || nviews < 1 || width <= 0 || height <= 0 || (ndist != 4 && ndist != 5) || !K ||
	    !dist || !rms) {
		set_err(err, cap, "calibrate", "bad argument");
		return GV_EINVAL;
	}
	return guarded("calibrate", err, cap, nullptr, [&]() -> int {
		std::vector<std::vector<cv::Point3f>> objs((size_t)nviews);
		std::vector<std::vector<cv::Point2f>> imgs((size_t)nviews);
		for (int v = 0; v < nviews; v++)
			for (int k = 0; k < npts; k++) {
				objs[(size_t)v].emplace_back((float)obj[2 * k], (float)obj[2 * k + 1], 0.0f);
				size_t i = 2 * ((size_t)v * (size_t)npts + (size_t)k);
				imgs[(size_t)v].emplace_back((float)img[i], (float)img[i + 1]);
			}
		cv::Mat k, d;
		std::vector<cv::Mat> rv, tv;
		int flags = ndist == 4 ? cv::CALIB_FIX_K3 : 0;
		double e = cv::calibrateCamera(objs, imgs, cv::Size(width, height), k, d, rv, tv, flags);
		for (int i = 0; i < 9; i++)
			K[i] = k.at<double>(i / 3, i % 3);
		for (int i = 0; i < 5; i++)
			dist[i] = i < (int)d.total() ? d.at<double>(i) : 0.0;
		*rms = e;
		return GV_OK;
	});
}

extern "C" int gv_cv_text(gv_image *img, double x, double y, const char *text, double height,
                          const unsigned char rgb[3], int thickness, char *err, size_t cap)
{
	if (!valid(img) || !text || !rgb || thickness < 1 || !(height > 0)) {
		set_err(err, cap, "text", "bad argument");
		return GV_EINVAL;
	}
	return guarded("text", err, cap, nullptr, [&]() -> int {
		cv::Mat m = wrap(img);
		const int font = cv::FONT_HERSHEY_SIMPLEX;
		int base = 0;
		cv::Size unit = cv::getTextSize(text, font, 1.0, thickness, &base);
		double scale = unit.height > 0 ? height / unit.height : 1.0;
		cv::Size sz = cv::getTextSize(text, font, scale, thickness, &base);
		cv::Point org((int)std::lround(x - sz.width / 2.0), (int)std::lround(y + sz.height / 2.0));
		cv::putText(m, text, org, font, scale, cv::Scalar(rgb[0], rgb[1], rgb[2]), thickness, cv::LINE_AA);
		return GV_OK;
	});
}

extern "C" int gv_cv_bright_quad(const gv_image *grey, double quad[8], double *share, char *err, size_t cap)
{
	if (!valid(grey) || grey->channels != 1 || !quad) {
		set_err(err, cap, "bright quad", "bad argument");
		return GV_EINVAL;
	}
	return guarded("bright quad", err, cap, nullptr, [&]() -> int {
		cv::Mat blur, bin;
		cv::GaussianBlur(wrap(grey), blur, cv::Size(0, 0), 2.0);
		cv::threshold(blur, bin, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
		// the grid lines and the black stones are holes in the wood: close
		// the small ones, open away thin bright streaks of the table
		cv::Mat k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5));
		cv::morphologyEx(bin, bin, cv::MORPH_CLOSE, k);
		cv::morphologyEx(bin, bin, cv::MORPH_OPEN, k);
		std::vector<std::vector<cv::Point>> contours;
		cv::findContours(bin, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
		double best = 0;
		int bi = -1;
		for (size_t c = 0; c < contours.size(); c++) {
			double a = cv::contourArea(contours[c]);
			if (a > best) {
				best = a;
				bi = (int)c;
			}
		}
		if (bi < 0)
			return GV_ENOTFOUND;
		std::vector<cv::Point> hull, poly;
		cv::convexHull(contours[(size_t)bi], hull);
		double per = cv::arcLength(hull, true);
		for (double eps = 0.01; eps <= 0.1 && poly.size() != 4; eps += 0.005)
			cv::approxPolyDP(hull, poly, eps * per, true);
		if (poly.size() != 4)
			return GV_ENOTFOUND;
		// clockwise on the screen (y down), from the corner nearest the top-left
		double cx = 0, cy = 0;
		for (const cv::Point &p : poly) {
			cx += p.x / 4.0;
			cy += p.y / 4.0;
		}
		std::sort(poly.begin(), poly.end(), [&](const cv::Point &a, const cv::Point &b) {
			return std::atan2(a.y - cy, a.x - cx) < std::atan2(b.y - cy, b.x - cx);
		});
		int first = 0;
		for (int c = 1; c < 4; c++)
			if (poly[(size_t)c].x + poly[(size_t)c].y < poly[(size_t)first].x + poly[(size_t)first].y)
				first = c;
		for (int c = 0; c < 4; c++) {
			quad[2 * c] = poly[(size_t)((first + c) % 4)].x;
			quad[2 * c + 1] = poly[(size_t)((first + c) % 4)].y;
		}
		if (share)
			*share = cv::contourArea(poly) / ((double)grey->width * grey->height);
		return GV_OK;
	});
}
