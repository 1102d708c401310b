/*
 * libFuzzer harness: raw frames on a pipe (device/capture/source.h,
 * gd_source_open_raw), as `goref watch` reads `-` (rgb24, yuv420,
 * yuv420-limited), and the frame_size and format values (gd_size_parse,
 * gd_format_parse).
 *
 * The input's first 4 bytes choose the width (1..64), height (1..64),
 * format and row padding (0..7 bytes); the rest is the stream.
 *
 * Property: a stream of L bytes in frames of F bytes gives floor(L / F)
 * frames, each width x height RGB at times going up, then the end when F
 * divides L, else one error (the input ended inside a frame).
 */
#include <stdbool.h>

#include "fuzz_util.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the settings values, from the input as text */
	char text[64];
	size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	int w = 0, h = 0;
	if (gd_size_parse(text, &w, &h) == 0 && (w < 1 || h < 1 || w > 32768 || h > 32768))
		fuzz_fail("size '%s' read as %dx%d", text, w, h);
	(void)gd_format_parse(text);

	if (size < 4)
		return 0;
	gd_format format = (gd_format)(GD_RGB24 + data[2] % 3);
	bool yuv = format != GD_RGB24;
	int width = 1 + data[0] % 64, height = 1 + data[1] % 64;
	if (yuv) { /* even sizes */
		width += width & 1;
		height += height & 1;
	}
	size_t pad = (size_t)(data[3] % 8) & (yuv ? ~(size_t)1 : ~(size_t)0);
	size_t stride = (yuv ? (size_t)width : (size_t)width * 3) + pad;
	size_t frame = yuv ? stride * (size_t)height + 2 * (stride / 2) * (size_t)(height / 2)
	                   : stride * (size_t)height;
	size_t len = size - 4;
	FILE *f = len ? fmemopen((void *)(data + 4), len, "rb") : fopen("/dev/null", "rb");
	if (!f)
		fuzz_fail("fmemopen");
	gd_source *s = NULL;
	char err[512];
	if (gd_source_open_raw(&s, f, width, height, format, stride, 10, err, sizeof err) != 0)
		fuzz_fail("a raw source of %dx%d format %d stride %zu refused: %s", width, height, (int)format, stride,
		          err);
	gv_image *img;
	double t, last = -1;
	size_t frames = 0;
	int rc;
	while ((rc = gd_source_next(s, &img, &t, err, sizeof err)) == 1) {
		if (img->width != width || img->height != height || img->channels != 3 || t < last)
			fuzz_fail("frame %zu: %dx%dx%d at %g", frames, img->width, img->height, img->channels, t);
		last = t;
		frames++;
	}
	if (frames != len / frame || (rc != 0) != (len % frame != 0))
		fuzz_fail("%zu bytes in frames of %zu: %zu frames, then %d (%s)", len, frame, frames, rc,
		          rc ? err : "end");
	gd_source_free(s);
	fclose(f);
	return 0;
}
