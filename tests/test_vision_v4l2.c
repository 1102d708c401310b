/* device/v4l2: the camera source, driven through its table of device
 * functions by a fake V4L2 device in memory: QUERYCAP answers, S_FMT giving
 * back another size, bytesperline padding, mmap buffers holding frames of
 * known pixels, timestamps, skipped bad buffers, EINTR and EAGAIN, the
 * errors of opening (missing, busy, no permission, not a camera, format
 * refused, USB bandwidth), and a camera unplugged (ENODEV) that comes back
 * or does not. Time is the fake's own clock: sleeping advances it, so the
 * reconnection tests take no real time. Last, a real /dev/video* when this
 * machine has one (skipped otherwise). */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/videodev2.h>

#include "source.h"
#include "v4l2.h"

/* ---- the fake device ------------------------------------------------ */

enum { FAKE_FD = 7, FAKE_MAXBUF = 8 };

typedef struct fake {
	gd_v4l2_io io;
	/* how it behaves */
	int open_errno;        /* open fails with this (0: it opens) */
	int querycap_errno;    /* QUERYCAP fails with this */
	uint32_t caps;         /* device_caps answered */
	int cur_w, cur_h;      /* the current size (G_FMT) */
	int max_w, max_h;      /* S_FMT clamps to this */
	uint32_t give_format;  /* the pixel format S_FMT answers */
	int sfmt_errno, streamon_errno;
	size_t pad;            /* bytesperline = width * 3 + pad */
	unsigned grant;        /* buffers REQBUFS grants at most */
	double period;         /* seconds from one frame to the next */
	double t_start;        /* the clock when the fake is made */
	uint32_t ts_flags;     /* the buffers' timestamp kind */
	long unplug_at;        /* unplugged when this many frames were given (-1: never) */
	double downtime;       /* seconds until it is back (negative: never) */
	long stall_at;         /* no frame any more once this many were given, until reopened */
	long bad_at;           /* this frame comes with V4L2_BUF_FLAG_ERROR */
	long short_at;         /* this frame comes with too few bytes */
	int poll_eintr, dqbuf_eagain; /* that many interruptions first */
	/* its state */
	double clock;
	int plugged;
	double back_at;
	int fd_open;
	int opens, closes, maps, unmaps, streamoffs;
	int w, h;
	size_t bpl;
	unsigned nbuf;
	unsigned char *mem[FAKE_MAXBUF];
	size_t len;
	int queued[FAKE_MAXBUF]; /* queue order: 1 + position, 0 when not queued */
	int qseq;
	int streaming;
	int ready;               /* a frame is waiting (poll said so) */
	long given;              /* frames filled in all */
	double fps_set;
} fake;

/* The pixel of frame k at (x, y): every channel different, changing with
 * the frame. */
static unsigned char pix(long k, int x, int y, int ch)
{
	return (unsigned char)(ch == 0 ? x * 7 + k : ch == 1 ? y * 5 + 3 * k : (x ^ y) + 11 * k);
}

static int f_open(void *ctx, const char *path, int flags)
{
	fake *f = ctx;
	(void)path;
	assert_true(flags & O_RDWR);
	assert_false(f->fd_open);
	if (!f->plugged && f->back_at >= 0 && f->clock >= f->back_at) {
		f->plugged = 1; /* it is back */
		f->unplug_at = -1;
	}
	if (!f->plugged) {
		errno = ENOENT;
		return -1;
	}
	if (f->open_errno) {
		errno = f->open_errno;
		return -1;
	}
	f->fd_open = 1;
	f->opens++;
	f->streaming = 0;
	f->ready = 0;
	f->stall_at = -1;
	return FAKE_FD;
}

static void free_bufs(fake *f)
{
	for (unsigned i = 0; i < f->nbuf; i++) {
		free(f->mem[i]);
		f->mem[i] = NULL;
	}
	f->nbuf = 0;
}

static int f_close(void *ctx, int fd)
{
	fake *f = ctx;
	assert_int_equal(fd, FAKE_FD);
	assert_true(f->fd_open);
	assert_int_equal(f->maps, f->unmaps); /* unmapped before closing */
	f->fd_open = 0;
	f->closes++;
	f->streaming = 0;
	free_bufs(f);
	return 0;
}

/* Fills buffer i with frame f->given. */
static void fill(fake *f, unsigned i, struct v4l2_buffer *b)
{
	unsigned char *m = f->mem[i];
	memset(m, 0xEE, f->len); /* the padding shows if it is copied */
	for (int y = 0; y < f->h; y++)
		for (int x = 0; x < f->w; x++)
			for (int ch = 0; ch < 3; ch++)
				m[(size_t)y * f->bpl + (size_t)x * 3 + ch] = pix(f->given, x, y, ch);
	b->index = i;
	b->bytesused = (uint32_t)(f->bpl * (size_t)f->h);
	b->flags = f->ts_flags;
	if (f->given == f->bad_at)
		b->flags |= V4L2_BUF_FLAG_ERROR;
	if (f->given == f->short_at)
		b->bytesused /= 2;
	b->timestamp.tv_sec = (long)f->clock;
	b->timestamp.tv_usec = lround((f->clock - floor(f->clock)) * 1e6);
	if (b->timestamp.tv_usec >= 1000000) {
		b->timestamp.tv_sec++;
		b->timestamp.tv_usec -= 1000000;
	}
	b->sequence = (uint32_t)f->given;
	f->given++;
}

static int f_ioctl(void *ctx, int fd, unsigned long request, void *arg)
{
	fake *f = ctx;
	assert_int_equal(fd, FAKE_FD);
	assert_true(f->fd_open);
	if (!f->plugged) {
		errno = ENODEV;
		return -1;
	}
	switch (request) {
	case VIDIOC_QUERYCAP: {
		if (f->querycap_errno) {
			errno = f->querycap_errno;
			return -1;
		}
		struct v4l2_capability *c = arg;
		memset(c, 0, sizeof *c);
		snprintf((char *)c->driver, sizeof c->driver, "fakecam");
		snprintf((char *)c->card, sizeof c->card, "Fake Camera");
		c->capabilities = f->caps | V4L2_CAP_DEVICE_CAPS;
		c->device_caps = f->caps;
		return 0;
	}
	case VIDIOC_G_FMT: {
		struct v4l2_format *fm = arg;
		assert_int_equal(fm->type, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		fm->fmt.pix.width = (uint32_t)f->cur_w;
		fm->fmt.pix.height = (uint32_t)f->cur_h;
		fm->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
		fm->fmt.pix.bytesperline = (uint32_t)f->cur_w * 2;
		return 0;
	}
	case VIDIOC_S_FMT: {
		struct v4l2_format *fm = arg;
		assert_int_equal(fm->type, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		assert_int_equal(fm->fmt.pix.pixelformat, V4L2_PIX_FMT_RGB24);
		if (f->sfmt_errno) {
			errno = f->sfmt_errno;
			return -1;
		}
		if (f->nbuf) {
			errno = EBUSY; /* as drivers do while buffers exist */
			return -1;
		}
		int w = (int)fm->fmt.pix.width, h = (int)fm->fmt.pix.height;
		f->w = w > f->max_w ? f->max_w : w;
		f->h = h > f->max_h ? f->max_h : h;
		f->cur_w = f->w;
		f->cur_h = f->h;
		f->bpl = (size_t)f->w * 3 + f->pad;
		fm->fmt.pix.width = (uint32_t)f->w;
		fm->fmt.pix.height = (uint32_t)f->h;
		fm->fmt.pix.pixelformat = f->give_format;
		fm->fmt.pix.bytesperline = (uint32_t)f->bpl;
		fm->fmt.pix.sizeimage = (uint32_t)(f->bpl * (size_t)f->h);
		return 0;
	}
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM: {
		struct v4l2_streamparm *p = arg;
		assert_int_equal(p->type, V4L2_BUF_TYPE_VIDEO_CAPTURE);
		if (request == VIDIOC_S_PARM) {
			const struct v4l2_fract *t = &p->parm.capture.timeperframe;
			assert_true(t->numerator > 0);
			f->fps_set = (double)t->denominator / t->numerator;
		}
		p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
		p->parm.capture.timeperframe.numerator = 1000;
		p->parm.capture.timeperframe.denominator = (uint32_t)lround(1000 / f->period);
		return 0;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = arg;
		assert_int_equal(r->memory, V4L2_MEMORY_MMAP);
		assert_int_equal(f->nbuf, 0);
		unsigned n = r->count < f->grant ? r->count : f->grant;
		f->len = f->bpl * (size_t)f->h + 100;
		for (unsigned i = 0; i < n; i++) {
			f->mem[i] = calloc(1, f->len);
			assert_non_null(f->mem[i]);
			f->queued[i] = 0;
		}
		f->nbuf = n;
		r->count = n;
		return 0;
	}
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;
		assert_true(b->index < f->nbuf);
		b->length = (uint32_t)f->len;
		b->m.offset = b->index * 0x10000u;
		return 0;
	}
	case VIDIOC_QBUF: {
		struct v4l2_buffer *b = arg;
		assert_true(b->index < f->nbuf);
		assert_int_equal(f->queued[b->index], 0);
		f->queued[b->index] = ++f->qseq;
		return 0;
	}
	case VIDIOC_STREAMON:
		if (f->streamon_errno) {
			errno = f->streamon_errno;
			return -1;
		}
		f->streaming = 1;
		return 0;
	case VIDIOC_STREAMOFF:
		f->streaming = 0;
		f->streamoffs++;
		for (unsigned i = 0; i < f->nbuf; i++)
			f->queued[i] = 0;
		return 0;
	case VIDIOC_DQBUF: {
		struct v4l2_buffer *b = arg;
		if (f->dqbuf_eagain > 0) {
			f->dqbuf_eagain--;
			errno = EAGAIN;
			return -1;
		}
		if (!f->ready) {
			errno = EAGAIN;
			return -1;
		}
		unsigned best = FAKE_MAXBUF;
		for (unsigned i = 0; i < f->nbuf; i++)
			if (f->queued[i] && (best == FAKE_MAXBUF || f->queued[i] < f->queued[best]))
				best = i;
		assert_true(best < FAKE_MAXBUF);
		f->queued[best] = 0;
		f->ready = 0;
		fill(f, best, b);
		return 0;
	}
	default:
		errno = ENOTTY;
		return -1;
	}
}

static void *f_mmap(void *ctx, void *start, size_t length, int prot, int flags, int fd, int64_t offset)
{
	fake *f = ctx;
	(void)start;
	assert_int_equal(fd, FAKE_FD);
	assert_true(prot & PROT_READ);
	assert_true(flags & MAP_SHARED);
	unsigned i = (unsigned)(offset / 0x10000);
	assert_true(i < f->nbuf);
	assert_int_equal(length, f->len);
	f->maps++;
	return f->mem[i];
}

static int f_munmap(void *ctx, void *start, size_t length)
{
	fake *f = ctx;
	int found = 0;
	for (unsigned i = 0; i < f->nbuf; i++)
		found |= f->mem[i] == start;
	assert_true(found);
	assert_int_equal(length, f->len);
	f->unmaps++;
	return 0;
}

static int f_poll(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	fake *f = ctx;
	assert_int_equal(nfds, 1);
	assert_int_equal(fds[0].fd, FAKE_FD);
	assert_true(fds[0].events & POLLIN);
	assert_true(timeout_ms > 0);
	fds[0].revents = 0;
	if (f->poll_eintr > 0) {
		f->poll_eintr--;
		errno = EINTR;
		return -1;
	}
	if (f->plugged && f->unplug_at >= 0 && f->given >= f->unplug_at) {
		f->plugged = 0; /* pulled out */
		f->back_at = f->downtime < 0 ? -1 : f->clock + f->downtime;
	}
	if (!f->plugged) {
		fds[0].revents = POLLERR | POLLHUP;
		return 1;
	}
	int queued = 0;
	for (unsigned i = 0; i < f->nbuf; i++)
		queued |= f->queued[i] != 0;
	if (!f->streaming || !queued || (f->stall_at >= 0 && f->given >= f->stall_at)) {
		f->clock += timeout_ms / 1000.0; /* nothing comes: the whole timeout passes */
		return 0;
	}
	if (!f->ready) {
		f->clock += f->period;
		f->ready = 1;
	}
	fds[0].revents = POLLIN;
	return 1;
}

static double f_now(void *ctx)
{
	return ((fake *)ctx)->clock;
}

static void f_sleep(void *ctx, double s)
{
	((fake *)ctx)->clock += s;
}

static int fake_setup(void **state)
{
	fake *f = calloc(1, sizeof *f);
	assert_non_null(f);
	f->io = (gd_v4l2_io){GD_V4L2_IO_VERSION, f, f_open, f_close, f_ioctl, f_mmap, f_munmap,
	                     f_poll, f_now, f_sleep};
	f->caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	f->cur_w = 32;
	f->cur_h = 24;
	f->max_w = 64;
	f->max_h = 48;
	f->give_format = V4L2_PIX_FMT_RGB24;
	f->grant = 4;
	f->period = 0.1;
	f->t_start = f->clock = 1000.25;
	f->ts_flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	f->unplug_at = f->stall_at = f->bad_at = f->short_at = -1;
	f->plugged = 1;
	f->back_at = -1;
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	fake *f = *state;
	free_bufs(f);
	free(f);
	return 0;
}

/* Nothing left open or mapped. */
static void assert_released(const fake *f)
{
	assert_false(f->fd_open);
	assert_int_equal(f->opens, f->closes);
	assert_int_equal(f->maps, f->unmaps);
}

/* The frame holds fake frame k, with no padding byte. */
static void assert_frame(const gv_image *img, int w, int h, long k)
{
	assert_non_null(img);
	assert_int_equal(img->width, w);
	assert_int_equal(img->height, h);
	assert_int_equal(img->channels, 3);
	assert_int_equal(img->stride, (size_t)w * 3);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			for (int ch = 0; ch < 3; ch++)
				if (gv_px(img, x, y)[ch] != pix(k, x, y, ch))
					fail_msg("frame %ld: pixel (%d,%d)[%d] is %d, not %d", k, x, y, ch,
					         gv_px(img, x, y)[ch], pix(k, x, y, ch));
}

static gd_source *open_fake(fake *f, const gd_v4l2_opts *o, gd_v4l2_info *info)
{
	gd_source *s = NULL;
	char err[256] = "";
	int rc = gd_source_open_v4l2_opts(&s, "/dev/video0", o, &f->io, info, err, sizeof err);
	if (rc)
		fail_msg("open: %d %s", rc, err);
	assert_non_null(s);
	return s;
}

/* ---- frames ---------------------------------------------------------- */

/* The size asked for is clamped by the driver and the frames have the
 * driver's size; rows are read past their padding; times count from the
 * first frame's timestamp. */
static void test_frames(void **state)
{
	fake *f = *state;
	f->pad = 20;
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.width = 1280;
	o.height = 720;
	o.fps = 15;
	gd_v4l2_info info;
	gd_source *s = open_fake(f, &o, &info);
	assert_int_equal(info.width, 64);
	assert_int_equal(info.height, 48);
	assert_int_equal(info.bytesperline, 64 * 3 + 20);
	assert_int_equal(info.buffers, 4);
	assert_string_equal(info.driver, "fakecam");
	assert_string_equal(info.card, "Fake Camera");
	assert_true(fabs(f->fps_set - 15) < 1e-9);
	assert_true(fabs(info.fps - 10) < 1e-9); /* what the driver says it does */
	assert_true(f->streaming);
	assert_string_equal(gd_source_name(s), "/dev/video0");
	assert_int_equal(gd_source_count(s), -1);

	char err[256];
	for (long k = 0; k < 10; k++) {
		gv_image *img;
		double t = -1;
		assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
		assert_frame(img, 64, 48, k);
		assert_true(fabs(t - 0.1 * (double)k) < 1e-5);
	}
	gd_source_free(s);
	assert_released(f);
	assert_int_equal(f->streamoffs, 1);
	assert_int_equal(f->opens, 1);
}

/* No size asked: the camera's current one. Fewer buffers than asked. */
static void test_camera_size(void **state)
{
	fake *f = *state;
	f->grant = 2;
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.buffers = 6;
	gd_v4l2_info info;
	gd_source *s = open_fake(f, &o, &info);
	assert_int_equal(info.width, 32);
	assert_int_equal(info.height, 24);
	assert_int_equal(info.bytesperline, 32 * 3);
	assert_int_equal(info.buffers, 2);
	assert_true(f->fps_set == 0); /* no rate asked, none set */
	gv_image *img;
	double t;
	char err[256];
	for (long k = 0; k < 5; k++) {
		assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
		assert_frame(img, 32, 24, k);
	}
	gd_source_free(s);
	assert_released(f);
}

/* Interrupted poll, DQBUF with nothing yet, a buffer flagged as an error
 * and one cut short: retried or skipped, the frames after them given. */
static void test_hiccups(void **state)
{
	fake *f = *state;
	f->poll_eintr = 2;
	f->dqbuf_eagain = 3;
	f->bad_at = 2;
	f->short_at = 4;
	gd_source *s = open_fake(f, NULL, NULL);
	long want[] = {0, 1, 3, 5, 6};
	char err[256];
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		gv_image *img;
		double t;
		assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
		assert_frame(img, 32, 24, want[i]);
		assert_true(fabs(t - 0.1 * (double)want[i]) < 1e-5);
	}
	gd_source_free(s);
	assert_released(f);
}

/* Timestamps that are not monotonic (or absent): the clock at DQBUF. */
static void test_other_timestamps(void **state)
{
	fake *f = *state;
	f->ts_flags = V4L2_BUF_FLAG_TIMESTAMP_UNKNOWN;
	gd_source *s = open_fake(f, NULL, NULL);
	char err[256];
	double first = -1;
	for (long k = 0; k < 4; k++) {
		gv_image *img;
		double t;
		assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
		if (k == 0)
			first = t;
		assert_true(fabs(t - 0.1 * (double)k) < 1e-9);
	}
	assert_true(first == 0);
	gd_source_free(s);
	assert_released(f);
}

/* ---- errors of opening ----------------------------------------------- */

static void expect_open_error(fake *f, const gd_v4l2_opts *o, int code, const char *words)
{
	gd_source *s = (gd_source *)f; /* must be set to NULL */
	char err[256] = "";
	int rc = gd_source_open_v4l2_opts(&s, "/dev/video0", o, &f->io, NULL, err, sizeof err);
	if (rc != code || !strstr(err, words))
		fail_msg("expected %d '%s', got %d '%s'", code, words, rc, err);
	assert_null(s);
	assert_released(f);
	assert_false(f->streaming);
}

static void test_missing(void **state)
{
	fake *f = *state;
	f->plugged = 0;
	expect_open_error(f, NULL, GD_ENODEV, "no camera at /dev/video0");
}

static void test_busy(void **state)
{
	fake *f = *state;
	f->open_errno = EBUSY;
	expect_open_error(f, NULL, GD_EBUSY, "/dev/video0: in use by another program");
	/* a UVC camera streaming for another program opens, and refuses S_FMT */
	f->open_errno = 0;
	f->sfmt_errno = EBUSY;
	expect_open_error(f, NULL, GD_EBUSY, "/dev/video0: in use by another program");
}

static void test_permission(void **state)
{
	fake *f = *state;
	f->open_errno = EACCES;
	expect_open_error(f, NULL, GD_EACCES, "permission denied");
}

static void test_not_a_camera(void **state)
{
	fake *f = *state;
	f->caps = V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING;
	expect_open_error(f, NULL, GD_ENOTCAM, "/dev/video0: not a camera");
	f->caps = V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING;
	expect_open_error(f, NULL, GD_ENOTCAM, "only multi-planar");
	f->caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE;
	expect_open_error(f, NULL, GD_ENOTCAM, "no streaming");
	f->caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	f->querycap_errno = ENOTTY;
	expect_open_error(f, NULL, GD_ENOTCAM, "not a V4L2 device");
	/* libv4l2's v4l2_open fails this way on a file that is not V4L2 */
	f->querycap_errno = 0;
	f->open_errno = ENOTTY;
	expect_open_error(f, NULL, GD_ENOTCAM, "not a camera");
}

static void test_format_refused(void **state)
{
	fake *f = *state;
	f->give_format = V4L2_PIX_FMT_YUYV;
	expect_open_error(f, NULL, GD_ENOFMT, "format refused (asked for RGB24, the driver gives YUYV)");
	f->give_format = V4L2_PIX_FMT_RGB24;
	f->sfmt_errno = EINVAL;
	expect_open_error(f, NULL, GD_ENOFMT, "format refused");
}

static void test_bandwidth(void **state)
{
	fake *f = *state;
	f->streamon_errno = ENOSPC;
	expect_open_error(f, NULL, GD_ECAMERA, "not enough USB bandwidth");
	f->streamon_errno = EIO;
	expect_open_error(f, NULL, GD_ECAMERA, "VIDIOC_STREAMON: ");
}

static void test_bad_arguments(void **state)
{
	fake *f = *state;
	gd_source *s = NULL;
	char err[256];
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.width = 640; /* without a height */
	assert_int_equal(gd_source_open_v4l2_opts(&s, "/dev/video0", &o, &f->io, NULL, err, sizeof err),
	                 GV_EINVAL);
	gd_v4l2_opts_init(&o);
	o.fps = -1;
	assert_int_equal(gd_source_open_v4l2_opts(&s, "/dev/video0", &o, &f->io, NULL, err, sizeof err),
	                 GV_EINVAL);
	gd_v4l2_opts_init(&o);
	o.buffers = 100;
	assert_int_equal(gd_source_open_v4l2_opts(&s, "/dev/video0", &o, &f->io, NULL, err, sizeof err),
	                 GV_EINVAL);
	assert_int_equal(gd_source_open_v4l2_opts(&s, NULL, NULL, &f->io, NULL, err, sizeof err), GV_EINVAL);
	assert_int_equal(gd_source_open_v4l2_opts(NULL, "/dev/video0", NULL, &f->io, NULL, err, sizeof err),
	                 GV_EINVAL);
	gd_v4l2_io bad = f->io;
	bad.version = 99;
	assert_int_equal(gd_source_open_v4l2_opts(&s, "/dev/video0", NULL, &bad, NULL, err, sizeof err),
	                 GV_EINVAL);
	assert_int_equal(f->opens, 0);
	assert_null(s);
}

/* ---- a camera unplugged ---------------------------------------------- */

typedef struct watcher {
	gd_source **src;
	int lost, retries, back;
	int give_up_after; /* retries; 0: never */
	char name[320];    /* gd_source_name while lost */
	char last[640];
} watcher;

static int watch(void *user, gd_v4l2_event ev, const char *msg)
{
	watcher *w = user;
	snprintf(w->last, sizeof w->last, "%s", msg);
	if (ev == GD_V4L2_LOST) {
		w->lost++;
		snprintf(w->name, sizeof w->name, "%s", gd_source_name(*w->src));
	} else if (ev == GD_V4L2_RETRY)
		w->retries++;
	else if (ev == GD_V4L2_BACK)
		w->back++;
	else
		fail_msg("unknown event %d", (int)ev);
	return w->give_up_after && w->retries >= w->give_up_after;
}

/* Pulled out after 3 frames (ENODEV, POLLERR), back 3.5 s later: the
 * source retries every second, says so, and the frames go on, their
 * times with the gap in them. */
static void test_unplug_and_back(void **state)
{
	fake *f = *state;
	f->unplug_at = 3;
	f->downtime = 3.5;
	f->pad = 4;
	gd_source *s = NULL;
	watcher w = {.src = &s};
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.width = 40;
	o.height = 30;
	o.status = watch;
	o.user = &w;
	s = open_fake(f, &o, NULL);
	char err[256];
	gv_image *img;
	double t, last = -1;
	for (long k = 0; k < 8; k++) {
		int rc = gd_source_next(s, &img, &t, err, sizeof err);
		if (rc != 1)
			fail_msg("frame %ld: %d %s", k, rc, err);
		assert_frame(img, 40, 30, k);
		assert_true(t >= last);
		if (k == 3)
			assert_true(t - last > 3.5); /* the time it was away */
		else if (k > 0)
			assert_true(fabs(t - last - 0.1) < 1e-5);
		last = t;
		if (k == 2) {
			assert_int_equal(w.lost, 0);
			assert_int_equal(f->opens, 1);
		}
	}
	assert_int_equal(w.lost, 1);
	assert_int_equal(w.back, 1);
	assert_int_equal(w.retries, 3); /* at 1, 2 and 3 s; back at 4 s */
	assert_string_equal(w.name, "/dev/video0 (lost, retrying)");
	assert_non_null(strstr(w.last, "camera back after 4.0 s"));
	assert_string_equal(gd_source_name(s), "/dev/video0");
	assert_int_equal(f->opens, 2);
	assert_int_equal(f->closes, 1);
	gd_source_free(s);
	assert_released(f);
}

/* Lost for good, retry_for 5 s: an error naming the loss, kept. */
static void test_unplug_for_good(void **state)
{
	fake *f = *state;
	f->unplug_at = 2;
	f->downtime = -1;
	f->period = 0.25; /* every time exact in binary: 5.0 s is 5.0 */
	gd_source *s = NULL;
	watcher w = {.src = &s};
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.retry_for = 5;
	o.retry_interval = 0.5;
	o.status = watch;
	o.user = &w;
	s = open_fake(f, &o, NULL);
	char err[256];
	gv_image *img;
	double t;
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), GD_ENODEV);
	assert_null(img);
	assert_non_null(strstr(err, "camera lost before frame 2"));
	assert_non_null(strstr(err, "not back after 5.0 s"));
	assert_non_null(strstr(err, "no camera at /dev/video0"));
	assert_int_equal(w.lost, 1);
	assert_int_equal(w.retries, 9); /* at 0.5 .. 4.5 s; the one at 5 s ends it */
	assert_int_equal(w.back, 0);
	assert_false(f->fd_open);
	char err2[256];
	assert_int_equal(gd_source_next(s, &img, &t, err2, sizeof err2), GD_ENODEV);
	assert_string_equal(err, err2);
	gd_source_free(s);
	assert_released(f);
}

/* The status function gives up; or no retrying at all. */
static void test_give_up(void **state)
{
	fake *f = *state;
	f->unplug_at = 1;
	f->downtime = -1;
	gd_source *s = NULL;
	watcher w = {.src = &s, .give_up_after = 2};
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.status = watch;
	o.user = &w;
	s = open_fake(f, &o, NULL);
	char err[256];
	gv_image *img;
	double t;
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), GD_ENODEV);
	assert_non_null(strstr(err, "gave up"));
	assert_int_equal(w.retries, 2);
	gd_source_free(s);
	assert_released(f);

	/* retry_for < 0: a loss is an error at once, no status */
	fake_teardown(state);
	fake_setup(state);
	f = *state;
	f->unplug_at = 1;
	watcher w2 = {.src = &s};
	o.retry_for = -1;
	o.user = &w2;
	s = open_fake(f, &o, NULL);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), GD_ENODEV);
	assert_non_null(strstr(err, "/dev/video0: camera lost before frame 1 (VIDIOC_DQBUF: "));
	assert_int_equal(w2.lost + w2.retries + w2.back, 0);
	assert_int_equal(f->opens, 1);
	gd_source_free(s);
	assert_released(f);
}

/* Frames stop coming with no error: after frame_timeout the camera is
 * taken as lost and reopened, and the frames come again. */
static void test_stall(void **state)
{
	fake *f = *state;
	gd_source *s = NULL;
	watcher w = {.src = &s};
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.frame_timeout = 2;
	o.status = watch;
	o.user = &w;
	s = open_fake(f, &o, NULL);
	f->stall_at = 2;
	char err[256];
	gv_image *img;
	double t;
	for (long k = 0; k < 4; k++) {
		assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
		assert_frame(img, 32, 24, k);
	}
	assert_int_equal(w.lost, 1);
	assert_int_equal(w.back, 1);
	assert_int_equal(w.retries, 0);
	assert_non_null(strstr(w.last, "camera back"));
	assert_int_equal(f->opens, 2);
	gd_source_free(s);
	assert_released(f);
}

/* A camera that comes back at another size is not taken: it is tried
 * again until the right one is there (here it never is). */
static void test_back_at_another_size(void **state)
{
	fake *f = *state;
	f->unplug_at = 1;
	f->downtime = 0.5;
	gd_source *s = NULL;
	watcher w = {.src = &s};
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.retry_for = 3;
	o.status = watch;
	o.user = &w;
	s = open_fake(f, &o, NULL); /* 32x24 */
	f->max_w = 16;                /* the camera now gives 16x24 at most */
	char err[256];
	gv_image *img;
	double t;
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), 1);
	assert_int_equal(gd_source_next(s, &img, &t, err, sizeof err), GD_ENODEV);
	assert_non_null(strstr(err, "came back at 16x24, not 32x24"));
	assert_int_equal(w.back, 0);
	gd_source_free(s);
	assert_released(f);
}

/* ---- without libv4l2, and the real thing ----------------------------- */

static void test_default_io(void **state)
{
	(void)state;
#ifdef GOREF_HAVE_V4L2
	assert_non_null(gd_v4l2_io_default());
#else
	assert_null(gd_v4l2_io_default());
	gd_source *s = NULL;
	char err[256];
	assert_int_equal(gd_source_open_v4l2(&s, "/dev/video0", 0, 0, 0, err, sizeof err), GD_ENOV4L2);
	assert_non_null(strstr(err, "built without libv4l2"));
	assert_null(s);
#endif
}

/* libv4l2's errors on files every machine has: a path with nothing there,
 * a file that is not a V4L2 device. */
static void test_libv4l2_errors(void **state)
{
	(void)state;
#ifndef GOREF_HAVE_V4L2
	print_message("skipped: goref was built without libv4l2 (libv4l-dev)\n");
	skip();
#else
	gd_source *s = NULL;
	char err[256];
	assert_int_equal(gd_source_open_v4l2(&s, "/dev/video-goref-none", 0, 0, 0, err, sizeof err),
	                 GD_ENODEV);
	assert_string_equal(err, "no camera at /dev/video-goref-none");
	assert_int_equal(gd_source_open_v4l2(&s, "/dev/null", 640, 480, 0, err, sizeof err), GD_ENOTCAM);
	assert_string_equal(err, "/dev/null: not a camera (not a V4L2 device)");
	assert_null(s);
#endif
}

/* A real camera: the first /dev/video* that opens as one gives a few
 * frames. Skipped with no camera (as here) or without libv4l2. */
static void test_real_camera(void **state)
{
	(void)state;
#ifndef GOREF_HAVE_V4L2
	print_message("skipped: goref was built without libv4l2 (libv4l-dev)\n");
	skip();
#else
	glob_t g;
	if (glob("/dev/video*", 0, NULL, &g) != 0) {
		print_message("skipped: no /dev/video* on this machine (no camera to test)\n");
		skip();
	}
	gd_source *s = NULL;
	gd_v4l2_info info;
	char err[256] = "", tried[1024] = "";
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.retry_for = -1;
	const char *dev = NULL;
	for (size_t i = 0; i < g.gl_pathc && !s; i++) {
		int rc = gd_source_open_v4l2_opts(&s, g.gl_pathv[i], &o, NULL, &info, err, sizeof err);
		if (rc == 0)
			dev = g.gl_pathv[i];
		else {
			size_t n = strlen(tried);
			snprintf(tried + n, sizeof tried - n, "  %s\n", err);
		}
	}
	if (!s) {
		print_message("skipped: no /dev/video* opens as a camera:\n%s", tried);
		globfree(&g);
		skip();
	}
	print_message("%s: %s (%s) %dx%d, %zu bytes a row, %g fps, %d buffers\n", dev, info.card,
	              info.driver, info.width, info.height, info.bytesperline, info.fps, info.buffers);
	double last = -1;
	for (int k = 0; k < 5; k++) {
		gv_image *img;
		double t;
		int rc = gd_source_next(s, &img, &t, err, sizeof err);
		if (rc != 1)
			fail_msg("%s: frame %d: %d %s", dev, k, rc, err);
		assert_int_equal(img->width, info.width);
		assert_int_equal(img->height, info.height);
		assert_true(t >= last && t < 60);
		if (k == 0)
			assert_true(t == 0);
		last = t;
	}
	print_message("%s: 5 frames in %.3f s\n", dev, last);
	gd_source_free(s);
	globfree(&g);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frames, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_camera_size, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_hiccups, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_other_timestamps, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_missing, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_busy, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_permission, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_not_a_camera, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_format_refused, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_bandwidth, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_unplug_and_back, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_unplug_for_good, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_give_up, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_stall, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_back_at_another_size, fake_setup, fake_teardown),
		cmocka_unit_test(test_default_io),
		cmocka_unit_test(test_libv4l2_errors),
		cmocka_unit_test(test_real_camera),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
