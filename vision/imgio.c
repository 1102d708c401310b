/* goref vision: image files without OpenCV's imgcodecs. See imgio.h. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "imgio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>

#include "cvwrap.h"
#include "png.h"

static void set_err(char *err, size_t cap, const char *path, const char *fmt, ...)
{
	if (!err || cap == 0)
		return;
	int n = snprintf(err, cap, "%s: ", path ? path : "(null)");
	if (n < 0 || (size_t)n >= cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + n, cap - (size_t)n, fmt, ap);
	va_end(ap);
}

/* The pixel bounds of imgio.h, on a header's width and height. */
static int check_size(long w, long h, const char *path, char *err, size_t cap)
{
	if (w <= 0 || h <= 0) {
		set_err(err, cap, path, "bad image size %ldx%ld", w, h);
		return GV_EREAD;
	}
	if (w > GV_MAX_SIDE || h > GV_MAX_SIDE || w * h > GV_MAX_PIXELS) {
		set_err(err, cap, path, "%ldx%ld pixels: over the bound of %d pixels a side and %ld megapixels", w, h,
		        GV_MAX_SIDE, GV_MAX_PIXELS / 1000000);
		return GV_EREAD;
	}
	return 0;
}

/* ---- reading a file's bytes ----------------------------------------- */

/* The first bytes of a file, with what went wrong opening it. */
typedef struct head {
	FILE *f;
	unsigned char b[8];
	size_t n; /* bytes in b */
} head;

static int open_head(head *h, const char *path, char *err, size_t cap)
{
	memset(h, 0, sizeof *h);
	h->f = fopen(path, "rb");
	if (!h->f) {
		set_err(err, cap, path, "%s", strerror(errno));
		return GV_EREAD;
	}
	errno = 0;
	h->n = fread(h->b, 1, sizeof h->b, h->f);
	if (h->n == 0) {
		int e = errno;
		bool failed = ferror(h->f);
		fclose(h->f);
		h->f = NULL;
		if (failed && e == EISDIR)
			set_err(err, cap, path, "a folder, not an image file");
		else if (failed)
			set_err(err, cap, path, "%s", strerror(e ? e : EIO));
		else
			set_err(err, cap, path, "an empty file, not an image");
		return GV_EREAD;
	}
	return 0;
}

/* Reads the rest of h's file after its first bytes: *buf (malloc'ed) holds
 * the whole file, at most max bytes (more is refused after reading max + 1). */
static int read_all(head *h, size_t max, unsigned char **buf, size_t *len, const char *path, char *err, size_t cap)
{
	size_t size = 1 << 16, n = h->n;
	unsigned char *b = malloc(size);
	if (!b) {
		set_err(err, cap, path, "out of memory");
		return GV_ENOMEM;
	}
	memcpy(b, h->b, n);
	while (n <= max) {
		if (n == size) {
			size_t grown = size * 2 > max + 1 ? max + 1 : size * 2;
			unsigned char *g = realloc(b, grown);
			if (!g) {
				free(b);
				set_err(err, cap, path, "out of memory");
				return GV_ENOMEM;
			}
			b = g;
			size = grown;
		}
		size_t k = fread(b + n, 1, size - n, h->f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(h->f)) {
		int e = errno;
		free(b);
		set_err(err, cap, path, "%s", strerror(e ? e : EIO));
		return GV_EREAD;
	}
	if (n > max) {
		free(b);
		set_err(err, cap, path, "larger than %zu MB: refused", max >> 20);
		return GV_EREAD;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* ---- JPEG ------------------------------------------------------------- */

/* The scaled size to decode at: with min_side > 0, the smallest of the
 * fast scales 1/8, 1/4, 1/2 whose longer side is at least min_side and
 * that fits in max_side; else the largest of libjpeg-turbo's DCT scales
 * (8/8, 7/8, ..., 1/8) whose result fits in max_side, else the smallest.
 * 1/2, 1/4 and 1/8 decode faster than the full size; the others (no SIMD
 * code) about as fast, in less memory. */
static void jpeg_scale(int w, int h, int min_side, int max_side, int *sw, int *sh)
{
	*sw = w;
	*sh = h;
	if (min_side > 0) {
		/* the smallest of 1/8, 1/4, 1/2 that keeps the longer side at
		 * least min_side (and within max_side) */
		static const tjscalingfactor fast[3] = {{1, 8}, {1, 4}, {1, 2}};
		for (int i = 0; i < 3; i++) {
			int x = TJSCALED(w, fast[i]), y = TJSCALED(h, fast[i]);
			if ((x > y ? x : y) >= min_side && (max_side <= 0 || (x <= max_side && y <= max_side))) {
				*sw = x;
				*sh = y;
				return;
			}
		}
	}
	if (max_side <= 0 || (w <= max_side && h <= max_side))
		return;
	int n = 0;
	tjscalingfactor *sf = tjGetScalingFactors(&n);
	int best = -1, smallest = -1;
	for (int i = 0; sf && i < n; i++) {
		if (sf[i].num > sf[i].denom)
			continue;
		int x = TJSCALED(w, sf[i]), y = TJSCALED(h, sf[i]);
		if (smallest < 0 || x < TJSCALED(w, sf[smallest]))
			smallest = i;
		if (x <= max_side && y <= max_side && (best < 0 || x > TJSCALED(w, sf[best])))
			best = i;
	}
	int k = best >= 0 ? best : smallest;
	if (k >= 0) {
		*sw = TJSCALED(w, sf[k]);
		*sh = TJSCALED(h, sf[k]);
	}
}

static int read_jpeg(head *hd, const char *path, int min_side, int max_side, int *full_w, int *full_h, gv_image *out, char *err,
                     size_t cap)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	int rc = read_all(hd, GV_MAX_JPEG_BYTES, &buf, &len, path, err, cap);
	if (rc)
		return rc;
	tjhandle tj = tjInitDecompress();
	if (!tj) {
		free(buf);
		set_err(err, cap, path, "cannot start the JPEG decoder");
		return GV_ENOMEM;
	}
	int w = 0, h = 0, subsamp = 0, cs = 0;
	unsigned char *cmyk = NULL;
	if (tjDecompressHeader3(tj, buf, (unsigned long)len, &w, &h, &subsamp, &cs) != 0) {
		set_err(err, cap, path, "not a JPEG image libjpeg-turbo can read (%s)", tjGetErrorStr2(tj));
		rc = GV_EREAD;
		goto done;
	}
	if (w <= 0 || h <= 0) {
		set_err(err, cap, path, "not a JPEG image libjpeg-turbo can read (no frame header)");
		rc = GV_EREAD;
		goto done;
	}
	rc = check_size(w, h, path, err, cap);
	if (rc)
		goto done;
	*full_w = w;
	*full_h = h;
	int sw, sh;
	jpeg_scale(w, h, min_side, max_side, &sw, &sh);
	rc = gv_image_alloc(out, sw, sh, 3);
	if (rc) {
		set_err(err, cap, path, rc == GV_ENOMEM ? "out of memory" : "bad image size");
		goto done;
	}
	/* a warning (data cut short, corrupt data) stops the decoding: such a
	 * picture is refused, not shown with its missing part grey */
	const int flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT;
	bool four = cs == TJCS_CMYK || cs == TJCS_YCCK;
	int drc;
	if (four) {
		cmyk = malloc((size_t)sw * (size_t)sh * 4);
		if (!cmyk) {
			set_err(err, cap, path, "out of memory");
			rc = GV_ENOMEM;
			goto done;
		}
		drc = tjDecompress2(tj, buf, (unsigned long)len, cmyk, sw, sw * 4, sh, TJPF_CMYK, flags);
	} else {
		drc = tjDecompress2(tj, buf, (unsigned long)len, out->data, sw, (int)out->stride, sh, TJPF_RGB, flags);
	}
	if (drc != 0) {
		if (tjGetErrorCode(tj) == TJERR_WARNING)
			set_err(err, cap, path, "a damaged or cut-short JPEG, refused (%s)", tjGetErrorStr2(tj));
		else
			set_err(err, cap, path, "cannot decode the JPEG (%s)", tjGetErrorStr2(tj));
		rc = GV_EREAD;
		goto done;
	}
	if (four) {
		/* Adobe's inverted CMYK, as OpenCV's reader converts it */
		for (int y = 0; y < sh; y++)
			for (int x = 0; x < sw; x++) {
				const unsigned char *s = cmyk + ((size_t)y * (size_t)sw + (size_t)x) * 4;
				unsigned char *d = gv_px(out, x, y);
				int k = s[3];
				for (int c = 0; c < 3; c++)
					d[c] = (unsigned char)(k - (((255 - s[c]) * k) >> 8));
			}
	}
done:
	if (rc)
		gv_image_free(out);
	free(cmyk);
	tjDestroy(tj);
	free(buf);
	return rc;
}

/* ---- PGM / PPM (P2, P3, P5, P6) --------------------------------------- */

typedef struct pnm {
	head *h;
	size_t pos; /* next byte of h->b */
} pnm;

static int pnm_getc(pnm *r)
{
	if (r->pos < r->h->n)
		return r->h->b[r->pos++];
	return getc(r->h->f);
}

/* The next unsigned number of a header or of a plain file (comments
 * skipped); -1 when there is none, -2 when it is over limit. */
static long pnm_number(pnm *r, long limit)
{
	int c = pnm_getc(r);
	for (;;) {
		if (c == '#') {
			while (c != '\n' && c != '\r' && c != EOF)
				c = pnm_getc(r);
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			c = pnm_getc(r);
		} else {
			break;
		}
	}
	if (c < '0' || c > '9')
		return -1;
	long v = 0;
	while (c >= '0' && c <= '9') {
		v = v * 10 + (c - '0');
		if (v > limit)
			return -2;
		c = pnm_getc(r);
	}
	/* the one whitespace after a number (before raw data) is consumed */
	return v;
}

static int read_pnm(head *hd, const char *path, int kind, int max_side, int *full_w, int *full_h, gv_image *out,
                    char *err, size_t cap)
{
	pnm r = {hd, 2};
	long w = pnm_number(&r, 1000000000L);
	long h = w >= 0 ? pnm_number(&r, 1000000000L) : -1;
	long maxval = h >= 0 ? pnm_number(&r, 65535) : -1;
	if (w < 0 || h < 0 || maxval < 1) {
		set_err(err, cap, path, "a bad PGM/PPM header");
		return GV_EREAD;
	}
	int rc = check_size(w, h, path, err, cap);
	if (rc)
		return rc;
	*full_w = (int)w;
	*full_h = (int)h;
	/* a file too short for the samples its header declares (1 or 2 bytes
	 * each raw, at least a digit and a blank each plain) is refused before
	 * the picture is allocated: a 144-byte header made a 60 MB image */
	bool colour_ = kind == '3' || kind == '6', plain_ = kind == '2' || kind == '3';
	double need = (double)w * (double)h * (colour_ ? 3 : 1) * (plain_ ? 2 : maxval > 255 ? 2 : 1) - (plain_ ? 1 : 0);
	struct stat sb;
	if (fstat(fileno(hd->f), &sb) == 0 && S_ISREG(sb.st_mode) && (double)sb.st_size < need) {
		set_err(err, cap, path, "the PGM/PPM data is cut short (%lld bytes for %ldx%ld)", (long long)sb.st_size, w,
		        h);
		return GV_EREAD;
	}
	/* rows decoded one by one: into out, or through a shrinker to the
	 * working size (no full-size buffer) */
	int fw, fh;
	gv_fit_size((int)w, (int)h, max_side, &fw, &fh);
	gv_shrink sh;
	bool shrink = fw != (int)w || fh != (int)h;
	unsigned char *row = NULL;
	rc = shrink ? gv_shrink_begin(&sh, out, (int)w, (int)h, fw, fh, 3) : gv_image_alloc(out, (int)w, (int)h, 3);
	if (!rc && shrink && !(row = malloc((size_t)w * 3))) {
		gv_shrink_end(&sh);
		gv_image_free(out);
		rc = GV_ENOMEM;
	}
	if (rc) {
		set_err(err, cap, path, rc == GV_ENOMEM ? "out of memory" : "bad image size");
		return rc;
	}
	bool colour = kind == '3' || kind == '6', plain = kind == '2' || kind == '3';
	int samples = colour ? 3 : 1;
	for (long y = 0; y < h; y++) {
		unsigned char *line = shrink ? row : out->data + (size_t)y * out->stride;
		for (long x = 0; x < w; x++) {
			unsigned char *d = line + (size_t)x * 3;
			for (int c = 0; c < samples; c++) {
				long v;
				if (plain) {
					v = pnm_number(&r, maxval);
				} else {
					int b0 = pnm_getc(&r), b1 = maxval > 255 && b0 != EOF ? pnm_getc(&r) : 0;
					v = b0 == EOF || b1 == EOF ? -1 : maxval > 255 ? (b0 << 8) | b1 : b0;
					if (v > maxval)
						v = -2;
				}
				if (v < 0) {
					if (shrink)
						gv_shrink_end(&sh);
					free(row);
					gv_image_free(out);
					set_err(err, cap, path, v == -1 ? "the PGM/PPM data is cut short"
					                                : "a PGM/PPM sample over its maximum");
					return GV_EREAD;
				}
				d[c] = (unsigned char)(maxval == 255 ? v : (v * 255 + maxval / 2) / maxval);
			}
			if (!colour)
				d[1] = d[2] = d[0];
		}
		if (shrink)
			gv_shrink_row(&sh, row);
	}
	if (shrink)
		gv_shrink_end(&sh);
	free(row);
	return 0;
}

/* ---- the readers' door -------------------------------------------------- */

/* Makes a grey image 3 channels, in a new buffer. */
static int grey_to_rgb(gv_image *img, const char *path, char *err, size_t cap)
{
	gv_image rgb;
	int rc = gv_image_alloc(&rgb, img->width, img->height, 3);
	if (rc) {
		set_err(err, cap, path, "out of memory");
		gv_image_free(img);
		return rc;
	}
	for (int y = 0; y < img->height; y++)
		for (int x = 0; x < img->width; x++) {
			unsigned char v = gv_px(img, x, y)[0], *d = gv_px(&rgb, x, y);
			d[0] = d[1] = d[2] = v;
		}
	gv_image_free(img);
	*img = rgb;
	return 0;
}

int gv_imread_max(gv_image *out, const char *path, int max_side, char *err, size_t cap)
{
	return gv_imread_max_size(out, path, max_side, NULL, NULL, err, cap);
}

int gv_imread_max_size(gv_image *out, const char *path, int max_side, int *full_w, int *full_h, char *err,
                       size_t cap)
{
	return gv_imread_work(out, path, 0, max_side, full_w, full_h, err, cap);
}

int gv_imread_work(gv_image *out, const char *path, int min_side, int max_side, int *full_w, int *full_h,
                   char *err, size_t cap)
{
	int fw_ = 0, fh_ = 0;
	if (!full_w)
		full_w = &fw_;
	if (!full_h)
		full_h = &fh_;
	*full_w = *full_h = 0;
	if (!out || !path || max_side < 0 || min_side < 0) {
		set_err(err, cap, path, "bad argument");
		if (out)
			memset(out, 0, sizeof *out);
		return GV_EINVAL;
	}
	memset(out, 0, sizeof *out);
	head hd;
	int rc = open_head(&hd, path, err, cap);
	if (rc)
		return rc;
	const unsigned char *b = hd.b;
	if (hd.n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) {
		rc = read_jpeg(&hd, path, min_side, max_side, full_w, full_h, out, err, cap);
		fclose(hd.f);
	} else if (hd.n >= 8 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8)) {
		fclose(hd.f);
		rc = gv_png_read_max(path, out, max_side, full_w, full_h, err, cap);
		if (!rc && out->channels == 1)
			rc = grey_to_rgb(out, path, err, cap);
	} else if (hd.n >= 3 && b[0] == 'P' && (b[1] == '2' || b[1] == '3' || b[1] == '5' || b[1] == '6')) {
		rc = read_pnm(&hd, path, b[1], max_side, full_w, full_h, out, err, cap);
		fclose(hd.f);
	} else {
		fclose(hd.f);
		set_err(err, cap, path, "not a JPEG, PNG, PGM or PPM image");
		return GV_EREAD;
	}
	if (rc) {
		gv_image_free(out);
		return rc;
	}
	if (max_side > 0 && (out->width > max_side || out->height > max_side)) {
		/* a JPEG over 8 times too large, at its smallest DCT scale */
		int w, h;
		gv_fit_size(out->width, out->height, max_side, &w, &h);
		gv_image small;
		rc = gv_shrink_area(out, &small, w, h);
		gv_image_free(out);
		if (rc) {
			set_err(err, cap, path, "%s", "out of memory");
			return rc;
		}
		*out = small;
	}
	return 0;
}

int gv_imread(gv_image *out, const char *path, char *err, size_t cap)
{
	return gv_imread_max(out, path, 0, err, cap);
}

/* ---- writing ------------------------------------------------------------ */

/* 1 when path ends in ext (ASCII, any case). */
static int ends_with(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);
	if (n < k)
		return 0;
	for (size_t i = 0; i < k; i++) {
		int c = (unsigned char)path[n - k + i];
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != ext[i])
			return 0;
	}
	return 1;
}

int gv_imwrite(const char *path, const gv_image *img, int quality, char *err, size_t cap)
{
	if (!path || !img || !img->data || img->width <= 0 || img->height <= 0 ||
	    (img->channels != 1 && img->channels != 3) ||
	    img->stride < (size_t)img->width * (size_t)img->channels || img->stride > INT_MAX) {
		set_err(err, cap, path, "bad image to write");
		return GV_EINVAL;
	}
	if (ends_with(path, ".png"))
		return gv_png_write(path, img, err, cap);
	if (!ends_with(path, ".jpg") && !ends_with(path, ".jpeg")) {
		set_err(err, cap, path, "cannot write: unknown extension (.png, .jpg or .jpeg)");
		return GV_EWRITE;
	}
	tjhandle tj = tjInitCompress();
	if (!tj) {
		set_err(err, cap, path, "cannot start the JPEG encoder");
		return GV_ENOMEM;
	}
	unsigned char *jpeg = NULL;
	unsigned long size = 0;
	int grey = img->channels == 1;
	int q = quality <= 0 ? 95 : quality > 100 ? 100 : quality;
	if (tjCompress2(tj, img->data, img->width, (int)img->stride, img->height, grey ? TJPF_GRAY : TJPF_RGB, &jpeg,
	                &size, grey ? TJSAMP_GRAY : TJSAMP_420, q, TJFLAG_ACCURATEDCT) != 0) {
		set_err(err, cap, path, "cannot encode the JPEG (%s)", tjGetErrorStr2(tj));
		tjFree(jpeg);
		tjDestroy(tj);
		return GV_EWRITE;
	}
	tjDestroy(tj);
	FILE *f = fopen(path, "wb");
	if (!f) {
		set_err(err, cap, path, "%s", strerror(errno));
		tjFree(jpeg);
		return GV_EWRITE;
	}
	size_t put = fwrite(jpeg, 1, size, f);
	int e = errno;
	tjFree(jpeg);
	if (fclose(f) != 0 || put != size) {
		set_err(err, cap, path, "%s", strerror(put != size ? e : errno));
		remove(path);
		return GV_EWRITE;
	}
	return 0;
}
