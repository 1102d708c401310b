/*
 * libFuzzer harness: the PNG reader (vision/png.h), fed a file.
 *
 * Property: an image read, written with gv_png_write and read again, gives
 * the same pixels.
 */
#include "fuzz_util.h"
#include "png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_temp_path(".png");
	fuzz_write_file(path, data, size);
	gv_image img = {0}, back = {0};
	char err[512];
	if (gv_png_read(path, &img, err, sizeof err) != 0) {
		if (img.data)
			fuzz_fail("a PNG refused left pixels");
		unlink(path);
		return 0;
	}
	if (img.width < 1 || img.height < 1 || (img.channels != 1 && img.channels != 3) ||
	    img.stride < (size_t)img.width * (size_t)img.channels)
		fuzz_fail("PNG read as %dx%dx%d stride %zu", img.width, img.height, img.channels, img.stride);
	if (gv_png_write(path, &img, err, sizeof err) != 0)
		fuzz_fail("cannot write the PNG read: %s", err);
	if (gv_png_read(path, &back, err, sizeof err) != 0)
		fuzz_fail("the PNG written does not read back: %s", err);
	if (back.width != img.width || back.height != img.height || back.channels != img.channels)
		fuzz_fail("PNG read back as %dx%dx%d, not %dx%dx%d", back.width, back.height, back.channels, img.width,
		          img.height, img.channels);
	for (int y = 0; y < img.height; y++)
		if (memcmp(img.data + (size_t)y * img.stride, back.data + (size_t)y * back.stride,
		           (size_t)img.width * (size_t)img.channels) != 0)
			fuzz_fail("PNG read back: row %d differs", y);
	gv_image_free(&img);
	gv_image_free(&back);
	unlink(path);
	return 0;
}
