/*
 * libFuzzer harness: the photo reader (vision/imgio.h: JPEG through
 * libjpeg-turbo, PNG, PGM/PPM), fed a file, at full size and shrunk on
 * reading as `goref detect` does (a JPEG decoded at a DCT scale).
 *
 * Property: what is read is an image of the shape said, within the bounds
 * of imgio.h, and no larger than max_side when shrunk at decoding.
 *
 * OpenCV is left out: gv_cv_resize, the resampling of what no DCT scale
 * shrinks enough, is fuzz/cv_stub.c's.
 */
#include "fuzz_util.h"
#include "imgio.h"

static void check(const gv_image *img, int max_side)
{
	if (img->width < 1 || img->height < 1 || img->channels != 3 || !img->data ||
	    img->stride < (size_t)img->width * 3 || img->width > GV_MAX_SIDE || img->height > GV_MAX_SIDE ||
	    (long)img->width * img->height > GV_MAX_PIXELS)
		fuzz_fail("image read as %dx%dx%d stride %zu", img->width, img->height, img->channels, img->stride);
	if (max_side > 0 && (img->width > max_side || img->height > max_side))
		fuzz_fail("image read as %dx%d, over max_side %d", img->width, img->height, max_side);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_temp_path(".img");
	fuzz_write_file(path, data, size);
	gv_image img = {0};
	char err[512];
	if (gv_imread(&img, path, err, sizeof err) == 0) {
		check(&img, 0);
		gv_image_free(&img);
	} else if (img.data) {
		fuzz_fail("an image refused left pixels");
	}
	if (gv_imread_max(&img, path, 64, err, sizeof err) == 0) {
		check(&img, 64);
		gv_image_free(&img);
	}
	unlink(path);
	return 0;
}
