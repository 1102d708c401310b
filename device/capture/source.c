/* goref device: frame sources behind one interface. See source.h.
 * Built only with vision/ (GOREF_HAVE_VISION); without it the file is empty. */
#ifdef GOREF_HAVE_VISION
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cvwrap.h"
#include "png.h"
#include "stop.h"

void gd_errf(char *err, size_t cap, const char *fmt, ...)
{
	if (!err || !cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* ------------------------------------------------------------------ */
/* The generic source: a table of functions and its state.             */

enum { RUNNING, ENDED, FAILED };

struct gd_source {
	const gd_source_ops *ops;
	void *impl;
	int state;
	int rc;          /* the error once FAILED */
	char msg[256];   /* its message */
	long frames;     /* frames given so far */
	double last_t;
	int width, height; /* of the first frame */
};

int gd_source_open_ops(gd_source **out, const gd_source_ops *ops, void *impl, char *err, size_t cap)
{
	if (out)
		*out = NULL;
	if (!out || !ops || !ops->next || ops->version != GD_SOURCE_OPS_VERSION) {
		gd_errf(err, cap, "source: bad table of functions");
		return GV_EINVAL;
	}
	gd_source *s = calloc(1, sizeof *s);
	if (!s) {
		gd_errf(err, cap, "source: out of memory");
		return GV_ENOMEM;
	}
	s->ops = ops;
	s->impl = impl;
	s->state = RUNNING;
	*out = s;
	return 0;
}

/* Ends the source with an error: the code and message are kept and given
 * again by every later call. */
static int fail(gd_source *s, int rc, char *err, size_t cap)
{
	s->state = FAILED;
	s->rc = rc;
	gd_errf(err, cap, "%s", s->msg);
	return rc;
}

int gd_source_next(gd_source *s, gv_image **frame, double *t, char *err, size_t cap)
{
	if (frame)
		*frame = NULL;
	if (!s || !frame || !t) {
		gd_errf(err, cap, "source: bad argument");
		return GV_EINVAL;
	}
	if (s->state == ENDED)
		return 0;
	if (s->state == FAILED) {
		gd_errf(err, cap, "%s", s->msg);
		return s->rc;
	}
	gv_image *img = NULL;
	double when = 0;
	s->msg[0] = '\0';
	int rc = s->ops->next(s->impl, &img, &when, s->msg, sizeof s->msg);
	if (rc == 0) {
		s->state = ENDED;
		return 0;
	}
	if (rc < 0) {
		if (!s->msg[0])
			snprintf(s->msg, sizeof s->msg, "%s: error %d", gd_source_name(s), rc);
		return fail(s, rc, err, cap);
	}
	const char *name = gd_source_name(s);
	if (rc > 1) {
		snprintf(s->msg, sizeof s->msg, "%s: source returned %d", name, rc);
		return fail(s, GV_EINVAL, err, cap);
	}
	if (!img || !img->data || img->channels != 3 || img->width <= 0 || img->height <= 0 ||
	    img->stride != (size_t)img->width * 3) {
		snprintf(s->msg, sizeof s->msg, "%s: frame %ld is not an RGB image", name, s->frames);
		return fail(s, GV_EINVAL, err, cap);
	}
	if (s->frames == 0) {
		s->width = img->width;
		s->height = img->height;
	} else if (img->width != s->width || img->height != s->height) {
		snprintf(s->msg, sizeof s->msg, "%s: frame %ld is %dx%d, the frames before %dx%d", name,
		         s->frames, img->width, img->height, s->width, s->height);
		return fail(s, GD_EFORMAT, err, cap);
	}
	if (!isfinite(when)) {
		snprintf(s->msg, sizeof s->msg, "%s: frame %ld has no finite time", name, s->frames);
		return fail(s, GD_EFORMAT, err, cap);
	}
	if (s->frames > 0 && when < s->last_t) {
		snprintf(s->msg, sizeof s->msg, "%s: frame %ld at %g s comes before frame %ld at %g s", name,
		         s->frames, when, s->frames - 1, s->last_t);
		return fail(s, GD_EFORMAT, err, cap);
	}
	s->last_t = when;
	s->frames++;
	*frame = img;
	*t = when;
	return 1;
}

long gd_source_count(const gd_source *s)
{
	return s && s->ops->count ? s->ops->count(s->impl) : -1;
}

const char *gd_source_name(const gd_source *s)
{
	const char *name = s && s->ops->name ? s->ops->name(s->impl) : NULL;
	return name ? name : "source";
}

void gd_source_free(gd_source *s)
{
	if (!s)
		return;
	if (s->ops->free)
		s->ops->free(s->impl);
	free(s);
}

/* ------------------------------------------------------------------ */
/* Parsing helpers.                                                     */

int gd_format_parse(const char *s)
{
	if (!s)
		return GV_EINVAL;
	if (!strcmp(s, "rgb24"))
		return GD_RGB24;
	if (!strcmp(s, "yuv420") || !strcmp(s, "i420"))
		return GD_YUV420;
	if (!strcmp(s, "yuv420-limited"))
		return GD_YUV420_LIMITED;
	return GV_EINVAL;
}

/* A decimal number 1..32768 at *p (digits only), advancing *p. */
static int parse_dim(const char **p, int *out)
{
	const char *q = *p;
	long v = 0;
	if (*q < '0' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9') {
		v = v * 10 + (*q - '0');
		if (v > 32768)
			return 0;
		q++;
	}
	if (v < 1)
		return 0;
	*p = q;
	*out = (int)v;
	return 1;
}

int gd_size_parse(const char *s, int *width, int *height)
{
	int w, h;
	if (!s || !width || !height || !parse_dim(&s, &w) || (*s != 'x' && *s != 'X'))
		return GV_EINVAL;
	s++;
	if (!parse_dim(&s, &h) || *s)
		return GV_EINVAL;
	*width = w;
	*height = h;
	return 0;
}

/* ------------------------------------------------------------------ */
/* A folder of photos.                                                  */

typedef struct dir_frame {
	char *name;
	double t;
	int line;          /* of its time in the times file; 0 none yet */
	const char *num;   /* its number without leading zeros (numeric order) */
	size_t numlen;
} dir_frame;

typedef struct dir_src {
	char *dir;
	dir_frame *frames;
	size_t n, next;
	double fps;
	int timed;         /* times from a file */
	gv_image img;
} dir_src;

static void dir_free(void *impl)
{
	dir_src *d = impl;
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->frames[i].name);
	free(d->frames);
	free(d->dir);
	gv_image_free(&d->img);
	free(d);
}

static long dir_count(const void *impl)
{
	return (long)((const dir_src *)impl)->n;
}

static const char *dir_name(const void *impl)
{
	const dir_src *d = impl;
	return d->next ? d->frames[d->next - 1].name : d->dir;
}

static char *join_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	int slash = a > 0 && dir[a - 1] != '/';
	char *p = malloc(a + (size_t)slash + b + 1);
	if (!p)
		return NULL;
	memcpy(p, dir, a);
	if (slash)
		p[a] = '/';
	memcpy(p + a + slash, name, b + 1);
	return p;
}

/* The extension of a photo: 1 PNG, 2 JPEG, 0 anything else. */
static int photo_kind(const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot || dot == name)
		return 0;
	if (!strcasecmp(dot, ".png"))
		return 1;
	if (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"))
		return 2;
	return 0;
}

/* Grey to RGB, in place of img. */
static int grey_to_rgb(gv_image *img)
{
	gv_image rgb;
	int rc = gv_image_alloc(&rgb, img->width, img->height, 3);
	if (rc)
		return rc;
	for (int y = 0; y < img->height; y++) {
		const unsigned char *src = img->data + (size_t)y * img->stride;
		unsigned char *dst = rgb.data + (size_t)y * rgb.stride;
		for (int x = 0; x < img->width; x++, dst += 3)
			dst[0] = dst[1] = dst[2] = src[x];
	}
	gv_image_free(img);
	*img = rgb;
	return 0;
}

static int dir_next(void *impl, gv_image **frame, double *t, char *err, size_t cap)
{
	dir_src *d = impl;
	if (d->next >= d->n)
		return 0;
	size_t i = d->next++;
	const dir_frame *f = &d->frames[i];
	gv_image_free(&d->img);
	char *path = join_path(d->dir, f->name);
	if (!path) {
		gd_errf(err, cap, "%s: out of memory", f->name);
		return GV_ENOMEM;
	}
	char msg[200] = "";
	int fw = 0, fh = 0;
	int rc = gv_imread_max_size(&d->img, path, GD_MAX_FRAME_SIDE, &fw, &fh, msg, sizeof msg);
	if (rc == 0 && d->img.channels == 1)
		rc = grey_to_rgb(&d->img);
	if (rc == 0 && (fw > GD_MAX_FRAME_SIDE || fh > GD_MAX_FRAME_SIDE)) {
		snprintf(msg, sizeof msg, "%s: %dx%d, over the largest frame a source takes (%d a side)", path, fw, fh,
		         GD_MAX_FRAME_SIDE);
		rc = GV_EREAD;
	}
	if (rc) {
		gv_image_free(&d->img);
		if (rc == GV_ENOMEM)
			gd_errf(err, cap, "%s: out of memory", path);
		else
			gd_errf(err, cap, "frame %zu: %s", i, msg[0] ? msg : "cannot be read");
		free(path);
		return rc == GV_ENOMEM ? GV_ENOMEM : GV_EREAD;
	}
	free(path);
	*frame = &d->img;
	*t = d->timed ? f->t : (double)i / d->fps;
	return 1;
}

static const gd_source_ops dir_ops = {
	GD_SOURCE_OPS_VERSION, dir_next, dir_count, dir_name, dir_free,
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const dir_frame *)a)->name, ((const dir_frame *)b)->name);
}

static int cmp_number(const void *a, const void *b)
{
	const dir_frame *x = a, *y = b;
	if (x->numlen != y->numlen)
		return x->numlen < y->numlen ? -1 : 1;
	int c = memcmp(x->num, y->num, x->numlen);
	return c ? c : strcmp(x->name, y->name);
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp((*(dir_frame *const *)a)->name, (*(dir_frame *const *)b)->name);
}

/* Sorts the frames: numerically when every name is PREFIX DIGITS .EXT with
 * one PREFIX, else by strcmp (see source.h). */
static void sort_frames(dir_src *d)
{
	const char *prefix = NULL;
	size_t prefix_len = 0;
	int numeric = 1;
	for (size_t i = 0; i < d->n && numeric; i++) {
		dir_frame *f = &d->frames[i];
		const char *stem_end = strrchr(f->name, '.');
		const char *digits = stem_end;
		while (digits > f->name && digits[-1] >= '0' && digits[-1] <= '9')
			digits--;
		size_t plen = (size_t)(digits - f->name);
		if (digits == stem_end)
			numeric = 0;
		else if (!prefix) {
			prefix = f->name;
			prefix_len = plen;
		} else if (plen != prefix_len || memcmp(prefix, f->name, plen))
			numeric = 0;
		while (digits + 1 < stem_end && *digits == '0')
			digits++;
		f->num = digits;
		f->numlen = (size_t)(stem_end - digits);
	}
	qsort(d->frames, d->n, sizeof *d->frames, numeric ? cmp_number : cmp_name);
}

/* Lists the photos of d->dir into d->frames. */
static int list_dir(dir_src *d, char *err, size_t cap)
{
	DIR *dp = opendir(d->dir);
	if (!dp) {
		gd_errf(err, cap, "%s: %s", d->dir, strerror(errno));
		return GV_EREAD;
	}
	size_t room = 0;
	int rc = 0;
	for (;;) {
		errno = 0;
		struct dirent *e = readdir(dp);
		if (!e) {
			if (errno) {
				gd_errf(err, cap, "%s: %s", d->dir, strerror(errno));
				rc = GV_EREAD;
			}
			break;
		}
		if (e->d_name[0] == '.' || !photo_kind(e->d_name))
			continue;
		char *path = join_path(d->dir, e->d_name);
		if (!path) {
			rc = GV_ENOMEM;
			break;
		}
		struct stat st;
		int regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
		free(path);
		if (!regular)
			continue;
		if (d->n == room) {
			size_t nroom = room ? room * 2 : 64;
			dir_frame *nf = realloc(d->frames, nroom * sizeof *nf);
			if (!nf) {
				rc = GV_ENOMEM;
				break;
			}
			d->frames = nf;
			room = nroom;
		}
		dir_frame *f = &d->frames[d->n];
		memset(f, 0, sizeof *f);
		if (!(f->name = dup_str(e->d_name))) {
			rc = GV_ENOMEM;
			break;
		}
		d->n++;
	}
	closedir(dp);
	if (rc == GV_ENOMEM)
		gd_errf(err, cap, "%s: out of memory", d->dir);
	return rc;
}

/* "a finite decimal number": digits, sign, point and exponent only. */
static int parse_seconds(const char *s, double *out)
{
	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return 0;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || end == s || errno == ERANGE || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Reads the times file f (named path) into d's frames. */
static int read_times(dir_src *d, FILE *f, const char *path, char *err, size_t cap)
{
	/* frames by name, for the look-ups */
	dir_frame **byname = malloc(d->n * sizeof *byname);
	if (!byname) {
		gd_errf(err, cap, "%s: out of memory", path);
		return GV_ENOMEM;
	}
	for (size_t i = 0; i < d->n; i++)
		byname[i] = &d->frames[i];
	qsort(byname, d->n, sizeof *byname, cmp_name_ptr);

	char *line = NULL;
	size_t linecap = 0;
	int lineno = 0, rc = 0;
	ssize_t len;
	while (rc == 0 && (len = getline(&line, &linecap, f)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)len)) {
			gd_errf(err, cap, "%s:%d: a NUL byte in the line", path, lineno);
			rc = GD_EFORMAT;
			break;
		}
		char *p = line, *end = line + len;
		while (p < end && is_blank(*p))
			p++;
		while (end > p && is_blank(end[-1]))
			end--;
		if (p == end || *p == '#')
			continue;
		*end = '\0';
		char *word = end;
		while (word > p && !is_blank(word[-1]))
			word--;
		char *name_end = word;
		while (name_end > p && is_blank(name_end[-1]))
			name_end--;
		if (name_end == p) {
			gd_errf(err, cap, "%s:%d: expected NAME SECONDS", path, lineno);
			rc = GD_EFORMAT;
			break;
		}
		*name_end = '\0';
		double t;
		if (!parse_seconds(word, &t)) {
			gd_errf(err, cap, "%s:%d: bad time '%s' (seconds expected)", path, lineno, word);
			rc = GD_EFORMAT;
			break;
		}
		dir_frame key = {.name = p};
		dir_frame *kp = &key;
		dir_frame **hit = bsearch(&kp, byname, d->n, sizeof *byname, cmp_name_ptr);
		if (!hit) {
			gd_errf(err, cap, "%s:%d: no frame named '%s' in %s", path, lineno, p, d->dir);
			rc = GD_EFORMAT;
			break;
		}
		if ((*hit)->line) {
			gd_errf(err, cap, "%s:%d: '%s' timed twice (first on line %d)", path, lineno, p,
			        (*hit)->line);
			rc = GD_EFORMAT;
			break;
		}
		(*hit)->t = t;
		(*hit)->line = lineno;
	}
	if (rc == 0 && ferror(f)) {
		gd_errf(err, cap, "%s: %s", path, strerror(errno));
		rc = GV_EREAD;
	}
	free(line);
	free(byname);
	for (size_t i = 0; rc == 0 && i < d->n; i++) {
		const dir_frame *fr = &d->frames[i];
		if (!fr->line) {
			gd_errf(err, cap, "%s: no time for '%s' (frame %zu)", path, fr->name, i);
			rc = GD_EFORMAT;
		} else if (i > 0 && fr->t < fr[-1].t) {
			gd_errf(err, cap, "%s:%d: time %g of '%s' goes back before %g of '%s' (line %d)", path,
			        fr->line, fr->t, fr->name, fr[-1].t, fr[-1].name, fr[-1].line);
			rc = GD_EFORMAT;
		}
	}
	return rc;
}

int gd_source_open_dir(gd_source **out, const char *dir, const char *times_path, double fps,
                       char *err, size_t cap)
{
	if (out)
		*out = NULL;
	if (!out || !dir || !isfinite(fps) || fps < 0) {
		gd_errf(err, cap, "folder source: bad argument");
		return GV_EINVAL;
	}
	dir_src *d = calloc(1, sizeof *d);
	if (!d || !(d->dir = dup_str(dir))) {
		free(d);
		gd_errf(err, cap, "%s: out of memory", dir);
		return GV_ENOMEM;
	}
	d->fps = fps > 0 ? fps : GD_DEFAULT_FPS;
	int rc = list_dir(d, err, cap);
	if (rc == 0 && d->n == 0) {
		gd_errf(err, cap, "%s: no .png, .jpg or .jpeg file in the folder", dir);
		rc = GD_EEMPTY;
	}
	if (rc == 0)
		sort_frames(d);

	/* times: the given file, else DIR/times.txt when it is there */
	char *own_path = NULL;
	const char *tpath = times_path;
	if (rc == 0 && !tpath) {
		own_path = join_path(dir, "times.txt");
		if (!own_path) {
			gd_errf(err, cap, "%s: out of memory", dir);
			rc = GV_ENOMEM;
		}
		tpath = own_path;
	}
	if (rc == 0) {
		FILE *f = fopen(tpath, "r");
		if (f) {
			d->timed = 1;
			rc = read_times(d, f, tpath, err, cap);
			fclose(f);
		} else if (times_path || errno != ENOENT) {
			gd_errf(err, cap, "%s: %s", tpath, strerror(errno));
			rc = GV_EREAD;
		}
	}
	free(own_path);
	if (rc == 0)
		rc = gd_source_open_ops(out, &dir_ops, d, err, cap);
	if (rc)
		dir_free(d);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Raw frames on a stream.                                              */

/* BT.601 in 16-bit fixed point: full range (JFIF) and limited range. */
enum {
	FULL_Y = 65536, FULL_CR_R = 91881, FULL_CB_G = 22554, FULL_CR_G = 46802, FULL_CB_B = 116130,
	LIM_Y = 76309, LIM_CR_R = 104597, LIM_CB_G = 25675, LIM_CR_G = 53279, LIM_CB_B = 132201,
	/* added before the shift: keeps the sum positive (512 levels of
	 * headroom) and rounds; taken off again after */
	BIAS = (512 << 16) + (1 << 15),
};

/* Index range of the clamping table: (Y term + chroma term + BIAS) >> 16
 * lies in 235..1049 for every Y, U, V in either range (worst case: limited
 * range, B = 1.164 (Y-16) + 2.017 (U-128), from -277 to 536, plus 512). */
enum { CLAMP_SIZE = 1088 };

/* One pixel: o gets the RGB of luma yv with the chroma terms dr, dg, db of
 * its 2x2 block: table look-ups and adds, no call and no branch. */
#define PIXEL(o, yv)                            \
	do {                                    \
		const int l_ = ytab[yv];        \
		(o)[0] = clamp[(l_ + dr) >> 16]; \
		(o)[1] = clamp[(l_ + dg) >> 16]; \
		(o)[2] = clamp[(l_ + db) >> 16]; \
	} while (0)

int gd_yuv420_to_rgb(gv_image *out, const unsigned char *y, size_t ystride, const unsigned char *u,
                     const unsigned char *v, size_t cstride, int limited)
{
	if (!out || !out->data || out->channels != 3 || out->width <= 0 || out->height <= 0 ||
	    (out->width | out->height) & 1 || !y || !u || !v || ystride < (size_t)out->width ||
	    cstride < (size_t)out->width / 2 || out->stride < (size_t)out->width * 3)
		return GV_EINVAL;
	const int ky = limited ? LIM_Y : FULL_Y, yoff = limited ? 16 : 0;
	const int cr_r = limited ? LIM_CR_R : FULL_CR_R, cb_g = limited ? LIM_CB_G : FULL_CB_G;
	const int cr_g = limited ? LIM_CR_G : FULL_CR_G, cb_b = limited ? LIM_CB_B : FULL_CB_B;
	/* the luma term of every Y, and 0..255 clamping shifted by 512; made
	 * per call (1.3 k entries against a frame's ~1 M pixels) */
	int ytab[256];
	unsigned char clamp[CLAMP_SIZE];
	for (int k = 0; k < 256; k++)
		ytab[k] = ky * (k - yoff);
	for (int k = 0; k < CLAMP_SIZE; k++)
		clamp[k] = (unsigned char)(k < 512 ? 0 : k > 512 + 255 ? 255 : k - 512);
	const int w = out->width, h = out->height;
	for (int j = 0; j < h; j += 2) {
		const unsigned char *y0 = y + (size_t)j * ystride, *y1 = y0 + ystride;
		const unsigned char *up = u + (size_t)(j / 2) * cstride, *vp = v + (size_t)(j / 2) * cstride;
		unsigned char *o0 = out->data + (size_t)j * out->stride, *o1 = o0 + out->stride;
		for (int i = 0; i < w; i += 2, o0 += 6, o1 += 6) {
			const int cb = up[i >> 1] - 128, cr = vp[i >> 1] - 128;
			const int dr = cr_r * cr + BIAS, dg = BIAS - cb_g * cb - cr_g * cr, db = cb_b * cb + BIAS;
			PIXEL(o0, y0[i]);
			PIXEL(o0 + 3, y0[i + 1]);
			PIXEL(o1, y1[i]);
			PIXEL(o1 + 3, y1[i + 1]);
		}
	}
	return 0;
}

typedef struct raw_src {
	FILE *f;
	gd_format format;
	size_t stride, frame_bytes;
	double fps;
	unsigned char *buf; /* a frame as read; NULL when read straight into img */
	gv_image img;
	long index;         /* of the next frame */
} raw_src;

static void raw_free(void *impl)
{
	raw_src *r = impl;
	if (!r)
		return;
	free(r->buf);
	gv_image_free(&r->img);
	free(r);
}

static const char *raw_name(const void *impl)
{
	return ((const raw_src *)impl)->f == stdin ? "stdin" : "stream";
}

/* fread until n bytes, the end of input or an error (retrying EINTR unless
 * a stop was asked for, stop.h: then it ends as the input would): *got
 * receives the bytes read; returns 0, or -1 on a read error. */
static int read_full(FILE *f, unsigned char *buf, size_t n, size_t *got)
{
	size_t have = 0;
	while (have < n) {
		if (gd_stop_requested()) {
			*got = 0; /* what was read of the frame is dropped */
			return 0;
		}
		size_t k = fread(buf + have, 1, n - have, f);
		have += k;
		if (k == 0) {
			if (ferror(f) && errno == EINTR) {
				clearerr(f);
				continue;
			}
			break;
		}
	}
	*got = have;
	return have < n && ferror(f) ? -1 : 0;
}

static int raw_next(void *impl, gv_image **frame, double *t, char *err, size_t cap)
{
	raw_src *r = impl;
	unsigned char *dst = r->buf ? r->buf : r->img.data;
	size_t got;
	errno = 0;
	if (read_full(r->f, dst, r->frame_bytes, &got) < 0) {
		gd_errf(err, cap, "%s: frame %ld: %s", raw_name(r), r->index,
		        errno ? strerror(errno) : "read error");
		return GV_EREAD;
	}
	if (got == 0)
		return 0;
	if (got < r->frame_bytes) {
		gd_errf(err, cap, "%s: input ended inside frame %ld (%zu of %zu bytes)", raw_name(r),
		        r->index, got, r->frame_bytes);
		return GD_EFORMAT;
	}
	const int w = r->img.width, h = r->img.height;
	if (r->format == GD_RGB24) {
		if (r->buf)
			for (int j = 0; j < h; j++)
				memcpy(r->img.data + (size_t)j * r->img.stride, r->buf + (size_t)j * r->stride,
				       (size_t)w * 3);
	} else {
		const unsigned char *yp = r->buf, *up = yp + r->stride * (size_t)h;
		const unsigned char *vp = up + (r->stride / 2) * (size_t)(h / 2);
		gd_yuv420_to_rgb(&r->img, yp, r->stride, up, vp, r->stride / 2,
		                 r->format == GD_YUV420_LIMITED);
	}
	*frame = &r->img;
	*t = (double)r->index / r->fps;
	r->index++;
	return 1;
}

static const gd_source_ops raw_ops = {
	GD_SOURCE_OPS_VERSION, raw_next, NULL, raw_name, raw_free,
};

int gd_source_open_raw(gd_source **out, FILE *f, int width, int height, gd_format format,
                       size_t stride, double fps, char *err, size_t cap)
{
	if (out)
		*out = NULL;
	if (!out || !f || !isfinite(fps) || fps < 0) {
		gd_errf(err, cap, "raw source: bad argument");
		return GV_EINVAL;
	}
	if (format != GD_RGB24 && format != GD_YUV420 && format != GD_YUV420_LIMITED) {
		gd_errf(err, cap, "raw source: unknown format %d", (int)format);
		return GV_EINVAL;
	}
	if (width <= 0 || height <= 0) {
		gd_errf(err, cap, "raw source: bad size %dx%d", width, height);
		return GV_EINVAL;
	}
	if (width > GD_MAX_FRAME_SIDE || height > GD_MAX_FRAME_SIDE) {
		gd_errf(err, cap, "raw source: %dx%d is over the largest frame a source takes (%d a side)", width, height,
		        GD_MAX_FRAME_SIDE);
		return GV_EINVAL;
	}
	int yuv = format != GD_RGB24;
	size_t row = yuv ? (size_t)width : (size_t)width * 3;
	if (stride == 0)
		stride = row;
	if (yuv && ((width | height) & 1)) {
		gd_errf(err, cap, "raw source: yuv420 needs an even size, not %dx%d", width, height);
		return GV_EINVAL;
	}
	if (stride < row || (yuv && (stride & 1)) || stride > SIZE_MAX / 4 / (size_t)height) {
		gd_errf(err, cap, "raw source: bad stride %zu for %d pixels a row (%s)", stride, width,
		        yuv ? "yuv420: even, at least the width" : "rgb24: at least 3 x width");
		return GV_EINVAL;
	}
	raw_src *r = calloc(1, sizeof *r);
	if (!r) {
		gd_errf(err, cap, "raw source: out of memory");
		return GV_ENOMEM;
	}
	r->f = f;
	r->format = format;
	r->stride = stride;
	r->fps = fps > 0 ? fps : GD_DEFAULT_FPS;
	r->frame_bytes = stride * (size_t)height + (yuv ? 2 * (stride / 2) * (size_t)(height / 2) : 0);
	int rc = gv_image_alloc(&r->img, width, height, 3);
	if (rc == 0 && (yuv || stride != row) && !(r->buf = malloc(r->frame_bytes)))
		rc = GV_ENOMEM;
	if (rc == 0)
		rc = gd_source_open_ops(out, &raw_ops, r, err, cap);
	else
		gd_errf(err, cap, "raw source: out of memory");
	if (rc)
		raw_free(r);
	return rc;
}

#endif
