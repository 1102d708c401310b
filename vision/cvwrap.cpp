// goref vision: the one door to OpenCV. See cvwrap.h.
// Every entry point catches everything; no exception reaches C.
extern "C" {
#include "image.h"
}
#include "cvwrap.h"
#include "cvwrap_int.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>


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

extern "C" int gv_cv_remap(const gv_image *src, const short *xy, const unsigned short *frac, gv_image *out,
                           char *err, size_t cap)
{
	if (!valid(src) || !xy || !frac || !valid(out) || out->channels != src->channels) {
		set_err(err, cap, "remap", "bad argument");
		return GV_EINVAL;
	}
	return guarded("remap", err, cap, nullptr, [&]() -> int {
		cv::Mat m1(out->height, out->width, CV_16SC2, const_cast<short *>(xy));
		cv::Mat m2(out->height, out->width, CV_16UC1, const_cast<unsigned short *>(frac));
		cv::Mat dst = wrap(out);
		cv::remap(wrap(src), dst, m1, m2, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
		return GV_OK;
	});
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

// The index of the contour of largest area (its area in *area), -1 for none.
static int largest_contour(const std::vector<std::vector<cv::Point>> &contours, double *area)
{
	int bi = -1;
	*area = 0;
	for (size_t c = 0; c < contours.size(); c++) {
		double a = cv::contourArea(contours[c]);
		if (a > *area) {
			*area = a;
			bi = (int)c;
		}
	}
	return bi;
}

// The hull's quadrilateral poly again, each side the longest straight run
// of the region's edge (contour, every pixel) near it: a bowl, a lid or a
// stone beside the board that touches its region bulges the hull, not the
// board's straight edge. Per side, the edge pixels within a fifth of the
// side's length of it, between its ends; the line through two of them
// (a fixed sequence of draws) that passes within 1.5 px of the most; false
// where a side has no run over a third of its length, or the new corners
// make no convex quadrilateral, each within 0.35 of its sides' mean length
// of the old.
static bool straight_sides(const std::vector<cv::Point> &edge, std::vector<cv::Point> &poly)
{
	cv::RNG rng(0x60f);
	double lines[4][3]; // a x + b y = c, a^2 + b^2 = 1
	for (int s = 0; s < 4; s++) {
		cv::Point2d p0 = poly[(size_t)s], p1 = poly[(size_t)((s + 1) % 4)];
		cv::Point2d d = p1 - p0;
		double len = std::hypot(d.x, d.y);
		if (len < 10)
			return false;
		cv::Point2d u = d / len, nrm(-u.y, u.x);
		std::vector<cv::Point2d> near;
		for (const cv::Point &q : edge) {
			cv::Point2d r = cv::Point2d(q) - p0;
			double t = r.dot(u), o = r.dot(nrm);
			if (t > 0.05 * len && t < 0.95 * len && std::fabs(o) < 0.2 * len)
				near.push_back(cv::Point2d(q));
		}
		if (near.size() < 2)
			return false;
		int best = 0;
		double bl[3] = {0, 0, 0};
		for (int it = 0; it < 300; it++) {
			cv::Point2d a = near[(size_t)rng.uniform(0, (int)near.size())];
			cv::Point2d b = near[(size_t)rng.uniform(0, (int)near.size())];
			cv::Point2d e = b - a;
			double el = std::hypot(e.x, e.y);
			if (el < 0.2 * len)
				continue;
			double la = -e.y / el, lb = e.x / el, lc = la * a.x + lb * a.y;
			int in = 0;
			for (const cv::Point2d &q : near)
				in += std::fabs(la * q.x + lb * q.y - lc) < 1.5;
			if (in > best) {
				best = in;
				bl[0] = la;
				bl[1] = lb;
				bl[2] = lc;
			}
		}
		if (best < len / 3)
			return false;
		// refined on its inliers
		std::vector<cv::Point2f> ins;
		for (const cv::Point2d &q : near)
			if (std::fabs(bl[0] * q.x + bl[1] * q.y - bl[2]) < 1.5)
				ins.push_back(cv::Point2f((float)q.x, (float)q.y));
		cv::Vec4f fl;
		cv::fitLine(ins, fl, cv::DIST_L2, 0, 0.01, 0.01);
		lines[s][0] = -fl[1];
		lines[s][1] = fl[0];
		lines[s][2] = lines[s][0] * fl[2] + lines[s][1] * fl[3];
	}
	std::vector<cv::Point> out(4);
	for (int k = 0; k < 4; k++) {
		// corner k joins side k-1 (into it) and side k (out of it)
		const double *a = lines[(k + 3) % 4], *b = lines[k];
		double det = a[0] * b[1] - a[1] * b[0];
		if (std::fabs(det) < 1e-9)
			return false;
		double x = (a[2] * b[1] - a[1] * b[2]) / det, y = (a[0] * b[2] - a[2] * b[0]) / det;
		cv::Point2d old = poly[(size_t)k];
		double side = (cv::norm(cv::Point2d(poly[(size_t)((k + 1) % 4)]) - old) +
		               cv::norm(cv::Point2d(poly[(size_t)((k + 3) % 4)]) - old)) / 2;
		if (std::hypot(x - old.x, y - old.y) > 0.35 * side)
			return false;
		out[(size_t)k] = cv::Point((int)std::lround(x), (int)std::lround(y));
	}
	if (!cv::isContourConvex(out))
		return false;
	poly = out;
	return true;
}

extern "C" int gv_cv_bright_quad(const gv_image *grey, double pieces, int mode, double quad[8], double *share,
                                 char *err, size_t cap)
{
	if (!valid(grey) || grey->channels != 1 || !quad) {
		set_err(err, cap, "bright quad", "bad argument");
		return GV_EINVAL;
	}
	return guarded("bright quad", err, cap, nullptr, [&]() -> int {
		cv::Mat blur, bin;
		cv::GaussianBlur(wrap(grey), blur, cv::Size(0, 0), 2.0);
		cv::threshold(blur, bin, 0, 255, ((mode & 3) ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY) | cv::THRESH_OTSU);
		// the grid lines and the black stones are holes in the wood: close
		// the small ones, open away thin bright streaks of the table
		cv::Mat k = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5));
		if ((mode & 3) == GV_QUAD_DARK_TOP) {
			// the largest dark region, filled: the board with its
			// front face; within it, the brighter part (Otsu's
			// threshold over its own pixels): the top, the face in
			// shade below it
			cv::morphologyEx(bin, bin, cv::MORPH_OPEN, k);
			std::vector<std::vector<cv::Point>> cs;
			cv::findContours(bin, cs, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
			double ba;
			int bk = largest_contour(cs, &ba);
			if (bk < 0)
				return GV_ENOTFOUND;
			cv::Mat mask = cv::Mat::zeros(bin.size(), CV_8U), inside, unused;
			cv::drawContours(mask, cs, bk, cv::Scalar(255), cv::FILLED);
			std::vector<unsigned char> px;
			for (int y = 0; y < blur.rows; y++) {
				const unsigned char *b = blur.ptr<unsigned char>(y), *m = mask.ptr<unsigned char>(y);
				for (int x = 0; x < blur.cols; x++)
					if (m[x])
						px.push_back(b[x]);
			}
			inside = cv::Mat(1, (int)px.size(), CV_8U, px.data());
			double t = cv::threshold(inside, unused, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
			cv::threshold(blur, bin, t, 255, cv::THRESH_BINARY);
			cv::bitwise_and(bin, mask, bin);
		}
		cv::morphologyEx(bin, bin, cv::MORPH_CLOSE, k);
		cv::morphologyEx(bin, bin, cv::MORPH_OPEN, k);
		std::vector<std::vector<cv::Point>> contours;
		cv::findContours(bin, contours, cv::RETR_EXTERNAL,
		                 (mode & GV_QUAD_SIDES) ? cv::CHAIN_APPROX_NONE : cv::CHAIN_APPROX_SIMPLE);
		double best;
		int bi = largest_contour(contours, &best);
		if (bi < 0)
			return GV_ENOTFOUND;
		// with pieces: the largest region and every other of at least
		// that share of its area, together (a board that chains of dark
		// stones across its margin cut in pieces); none: no such quad
		std::vector<cv::Point> all = contours[(size_t)bi];
		if (pieces > 0) {
			size_t n0 = all.size();
			for (size_t c = 0; c < contours.size(); c++)
				if ((int)c != bi && cv::contourArea(contours[c]) >= pieces * best)
					all.insert(all.end(), contours[c].begin(), contours[c].end());
			if (all.size() == n0)
				return GV_ENOTFOUND;
		}
		std::vector<cv::Point> hull, poly;
		cv::convexHull(all, hull);
		double per = cv::arcLength(hull, true);
		for (double eps = 0.01; eps <= 0.1 && poly.size() != 4; eps += 0.005)
			cv::approxPolyDP(hull, poly, eps * per, true);
		if (poly.size() != 4)
			return GV_ENOTFOUND;
		if ((mode & GV_QUAD_SIDES) && !straight_sides(all, poly))
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
