/*
 * goref fuzz harnesses: the one OpenCV function vision/imgio.c calls,
 * gv_cv_resize, as a nearest-pixel resampling, so that the image readers
 * are fuzzed without OpenCV (and its C++ runtime).
 */
#include <string.h>

#include "cvwrap.h"

int gv_cv_resize(const gv_image *src, gv_image *out, int width, int height, char *err, size_t cap)
{
	(void)err;
	(void)cap;
	if (gv_image_alloc(out, width, height, src->channels) != 0)
		return GV_ENOMEM;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			memcpy(out->data + (size_t)y * out->stride + (size_t)x * (size_t)src->channels,
			       src->data + (size_t)(y * src->height / height) * src->stride +
			           (size_t)(x * src->width / width) * (size_t)src->channels,
			       (size_t)src->channels);
	return 0;
}
