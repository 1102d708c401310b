// goref calib: the door to OpenCV's calib3d. See cvcalib.h.
#include "cvcalib.h"
#include "cvwrap_int.hpp"

#include <algorithm>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

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

