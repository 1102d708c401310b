/* goref vision: PNG files through libpng. See png.h. */
#include "png.h"

#include "imgio.h"

#include <errno.h>
/* libpng's own header: vision/png.h shadows <png.h> on the include path */
#include <libpng16/png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpng reports errors through these; the message is kept for the caller. */
typedef struct png_ctx {
	char msg[200];
	char warning[120]; /* the last warning: it may say why an error came */
} png_ctx;

static void on_error(png_structp p, png_const_charp msg)
{
	png_ctx *ctx = png_get_error_ptr(p);
	if (ctx) {
		if (!strcmp(msg, "Read Error"))
			msg = "the file ends early"; /* libpng's words for a short read */
		if (ctx->warning[0])
			snprintf(ctx->msg, sizeof ctx->msg, "%s (%s)", msg, ctx->warning);
		else
			snprintf(ctx->msg, sizeof ctx->msg, "%s", msg);
	}
	png_longjmp(p, 1);
}

static void on_warning(png_structp p, png_const_charp msg)
{
	png_ctx *ctx = png_get_error_ptr(p);
	if (ctx)
		snprintf(ctx->warning, sizeof ctx->warning, "%s", msg);
}

static void set_err(char *err, size_t cap, const char *path, const char *msg)
{
	if (err && cap)
		snprintf(err, cap, "%s: %s", path ? path : "(null)", msg);
}

int gv_png_write(const char *path, const gv_image *img, char *err, size_t cap)
{
	if (!path || !img || !img->data || img->width <= 0 || img->height <= 0 ||
	    (img->channels != 1 && img->channels != 3) ||
	    img->stride < (size_t)img->width * (size_t)img->channels) {
		set_err(err, cap, path, "bad image to write");
		return GV_EINVAL;
	}
	FILE *f = fopen(path, "wb");
	if (!f) {
		set_err(err, cap, path, strerror(errno));
		return GV_EWRITE;
	}
	png_ctx ctx = {{0}, {0}};
	png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	if (!p || !info) {
		png_destroy_write_struct(&p, &info);
		fclose(f);
		set_err(err, cap, path, "out of memory");
		return GV_ENOMEM;
	}
	if (setjmp(png_jmpbuf(p))) {
		png_destroy_write_struct(&p, &info);
		fclose(f);
		remove(path);
		set_err(err, cap, path, ctx.msg[0] ? ctx.msg : "libpng error");
		return GV_EWRITE;
	}
	png_init_io(p, f);
	png_set_IHDR(p, info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
	             img->channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(p, info);
	for (int y = 0; y < img->height; y++)
		png_write_row(p, img->data + (size_t)y * img->stride);
	png_write_end(p, NULL);
	png_destroy_write_struct(&p, &info);
	if (fclose(f) != 0) {
		set_err(err, cap, path, strerror(errno));
		remove(path);
		return GV_EWRITE;
	}
	return 0;
}

int gv_png_read(const char *path, gv_image *out, char *err, size_t cap)
{
	return gv_png_read_max(path, out, 0, NULL, NULL, err, cap);
}

int gv_png_read_max(const char *path, gv_image *out, int max_side, int *full_w, int *full_h, char *err, size_t cap)
{
	if (full_w)
		*full_w = 0;
	if (full_h)
		*full_h = 0;
	if (!path || !out || max_side < 0) {
		set_err(err, cap, path, "bad argument");
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	FILE *f = fopen(path, "rb");
	if (!f) {
		set_err(err, cap, path, strerror(errno));
		return GV_EREAD;
	}
	unsigned char sig[8];
	if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8)) {
		fclose(f);
		set_err(err, cap, path, "not a PNG file");
		return GV_EREAD;
	}
	png_ctx ctx = {{0}, {0}};
	png_structp p = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
	png_infop info = p ? png_create_info_struct(p) : NULL;
	if (!p || !info) {
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		set_err(err, cap, path, "out of memory");
		return GV_ENOMEM;
	}
	/* volatile: modified between setjmp and a possible longjmp */
	gv_image *volatile dst = out;
	if (setjmp(png_jmpbuf(p))) {
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		gv_image_free(dst);
		set_err(err, cap, path, ctx.msg[0] ? ctx.msg : "libpng error");
		return GV_EREAD;
	}
	png_init_io(p, f);
	png_set_sig_bytes(p, 8);
	/* Bounds for any input: the sides (checked in IHDR, before anything is
	 * allocated), the bytes a chunk may make libpng allocate, how many
	 * ancillary chunks are kept. Over the chunk limit is only a warning
	 * to libpng, and its handler then allocates what the chunk claims (a
	 * tEXt claiming 2 GB took 2.1 GB): so the ancillary chunks that
	 * allocate by their length, and that nothing here uses, are not
	 * handled at all but skipped, read through without a buffer, as
	 * unknown chunks are. */
	png_set_user_limits(p, GV_MAX_SIDE, GV_MAX_SIDE);
	png_set_chunk_malloc_max(p, GV_PNG_CHUNK_MAX);
	png_set_chunk_cache_max(p, GV_PNG_CHUNK_COUNT_MAX);
	static const png_byte skipped[] = "tEXt\0zTXt\0iTXt\0sPLT\0iCCP\0eXIf\0pCAL\0sCAL\0hIST\0bKGD\0"
	                                   "cHRM\0gAMA\0sBIT\0sRGB\0oFFs\0pHYs\0tIME";
	png_set_keep_unknown_chunks(p, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof skipped / 5));
	png_set_keep_unknown_chunks(p, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
	png_read_info(p, info);
	if ((double)png_get_image_width(p, info) * (double)png_get_image_height(p, info) > (double)GV_MAX_PIXELS) {
		if (err && cap)
			snprintf(err, cap, "%s: %lux%lu pixels: over the bound of %ld megapixels", path,
			         (unsigned long)png_get_image_width(p, info), (unsigned long)png_get_image_height(p, info),
			         GV_MAX_PIXELS / 1000000);
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		return GV_EREAD;
	}
	int type = png_get_color_type(p, info);
	int depth = png_get_bit_depth(p, info);
	if (depth == 16)
		png_set_strip_16(p);
	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(p);
	if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
		png_set_expand_gray_1_2_4_to_8(p);
	if (png_get_valid(p, info, PNG_INFO_tRNS))
		png_set_tRNS_to_alpha(p);
	png_set_strip_alpha(p);
	/* before png_read_update_info, or interlaced rows come out garbled */
	int passes = png_set_interlace_handling(p);
	png_read_update_info(p, info);
	int channels = png_get_channels(p, info);
	png_uint_32 w = png_get_image_width(p, info), h = png_get_image_height(p, info);
	if (channels != 1 && channels != 3) {
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		set_err(err, cap, path, "unsupported PNG colour type");
		return GV_EREAD;
	}
	if (full_w)
		*full_w = (int)w;
	if (full_h)
		*full_h = (int)h;
	int fw, fh;
	gv_fit_size((int)w, (int)h, max_side, &fw, &fh);
	volatile bool shrink = fw != (int)w || fh != (int)h;
	if (shrink && passes > 1 && (double)w * (double)h > (double)GV_PNG_INTERLACED_MAX_PIXELS) {
		if (err && cap)
			snprintf(err, cap, "%s: an interlaced PNG of %lux%lu pixels: over the bound of %ld megapixels "
			         "for an interlaced one read at a working size",
			         path, (unsigned long)w, (unsigned long)h, GV_PNG_INTERLACED_MAX_PIXELS / 1000000);
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		return GV_EREAD;
	}
	/* volatile: set between setjmp and a possible longjmp */
	unsigned char *volatile row = NULL;
	gv_image full = {0};
	gv_image *volatile whole = NULL; /* an interlaced one read whole to be shrunk */
	gv_shrink sh_;
	gv_shrink *volatile shr = NULL;
	int rc = 0;
	if (!shrink) {
		rc = gv_image_alloc(dst, (int)(w > 1u << 15 ? 0 : w), (int)(h > 1u << 15 ? 0 : h), channels);
	} else {
		rc = gv_shrink_begin(&sh_, dst, (int)w, (int)h, fw, fh, channels);
		if (!rc)
			shr = &sh_;
		if (!rc && passes > 1) {
			rc = gv_image_alloc(&full, (int)w, (int)h, channels);
			if (!rc)
				whole = &full;
		} else if (!rc) {
			row = malloc((size_t)w * (size_t)channels);
			if (!row)
				rc = GV_ENOMEM;
		}
	}
	if (rc) {
		if (shr)
			gv_shrink_end(shr);
		gv_image_free(dst);
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		set_err(err, cap, path, rc == GV_ENOMEM ? "out of memory" : "image too large");
		return rc == GV_ENOMEM ? GV_ENOMEM : GV_EREAD;
	}
	if (setjmp(png_jmpbuf(p))) {
		png_destroy_read_struct(&p, &info, NULL);
		fclose(f);
		if (shr)
			gv_shrink_end(shr);
		free(row);
		gv_image_free(whole);
		gv_image_free(dst);
		set_err(err, cap, path, ctx.msg[0] ? ctx.msg : "libpng error");
		return GV_EREAD;
	}
	if (!shrink) {
		for (int pass = 0; pass < passes; pass++)
			for (png_uint_32 y = 0; y < h; y++)
				png_read_row(p, dst->data + (size_t)y * dst->stride, NULL);
	} else if (whole) {
		for (int pass = 0; pass < passes; pass++)
			for (png_uint_32 y = 0; y < h; y++)
				png_read_row(p, whole->data + (size_t)y * whole->stride, NULL);
		for (png_uint_32 y = 0; y < h; y++)
			gv_shrink_row(shr, whole->data + (size_t)y * whole->stride);
	} else {
		/* row by row into the shrinker: no full-size buffer */
		for (png_uint_32 y = 0; y < h; y++) {
			png_read_row(p, row, NULL);
			gv_shrink_row(shr, row);
		}
	}
	png_read_end(p, NULL);
	png_destroy_read_struct(&p, &info, NULL);
	fclose(f);
	if (shr)
		gv_shrink_end(shr);
	free(row);
	gv_image_free(whole);
	return 0;
}
