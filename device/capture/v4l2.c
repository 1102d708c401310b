/* goref device: a camera as a frame source, through libv4l2. See v4l2.h.
 * Built only with vision/ (GOREF_HAVE_VISION); without it the file is empty.
 * libv4l2 only with GOREF_HAVE_V4L2. */
#ifdef GOREF_HAVE_VISION
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* <linux/videodev2.h> needs struct timespec */
#endif
#include "v4l2.h"
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/videodev2.h>

#ifdef GOREF_HAVE_V4L2
#include <libv4l2.h>
#include <sys/ioctl.h>
#include <unistd.h>
#endif

/* ------------------------------------------------------------------ */
/* The device calls.                                                    */

static double real_now(void *ctx)
{
	(void)ctx;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void real_sleep(void *ctx, double seconds)
{
	(void)ctx;
	/* in steps of at most GD_STOP_POLL_MS, ending early on a stop: a
	 * signal that came just before nanosleep began is still seen soon */
	const double step = GD_STOP_POLL_MS / 1000.0;
	while (seconds > 0 && !gd_stop_requested()) {
		double s = seconds < step ? seconds : step;
		struct timespec ts;
		ts.tv_sec = (time_t)s;
		ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !gd_stop_requested())
			;
		seconds -= s;
	}
}

#ifdef GOREF_HAVE_V4L2
static int real_poll(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	(void)ctx;
	return poll(fds, nfds, timeout_ms);
}

/* v4l2_open, except that a file that is not a V4L2 device fails quietly
 * with ENOTTY (v4l2_open prints libv4l2's complaints on stderr): opened,
 * asked VIDIOC_QUERYCAP directly, then handed to v4l2_fd_open. */
static int lib_open(void *ctx, const char *path, int flags)
{
	(void)ctx;
	int fd = open(path, flags);
	if (fd < 0)
		return -1;
	struct v4l2_capability vc;
	int r;
	do
		r = ioctl(fd, VIDIOC_QUERYCAP, &vc);
	while (r < 0 && errno == EINTR);
	int e = errno;
	if (r == 0 && v4l2_fd_open(fd, 0) == fd)
		return fd;
	if (r == 0)
		e = errno;
	close(fd);
	errno = e;
	return -1;
}

static int lib_close(void *ctx, int fd)
{
	(void)ctx;
	return v4l2_close(fd);
}

static int lib_ioctl(void *ctx, int fd, unsigned long request, void *arg)
{
	(void)ctx;
	return v4l2_ioctl(fd, request, arg);
}

static void *lib_mmap(void *ctx, void *start, size_t length, int prot, int flags, int fd, int64_t offset)
{
	(void)ctx;
	return v4l2_mmap(start, length, prot, flags, fd, offset);
}

static int lib_munmap(void *ctx, void *start, size_t length)
{
	(void)ctx;
	return v4l2_munmap(start, length);
}

static const gd_v4l2_io lib_io = {
	GD_V4L2_IO_VERSION, NULL, lib_open, lib_close, lib_ioctl, lib_mmap, lib_munmap,
	real_poll, real_now, real_sleep,
};

const gd_v4l2_io *gd_v4l2_io_default(void)
{
	return &lib_io;
}
#else
const gd_v4l2_io *gd_v4l2_io_default(void)
{
	return NULL;
}
#endif

/* ------------------------------------------------------------------ */
/* The camera.                                                          */

void gd_v4l2_opts_init(gd_v4l2_opts *o)
{
	if (o)
		memset(o, 0, sizeof *o);
}

enum { DEFAULT_BUFFERS = 4, MAX_BUFFERS = 32 };
#define DEFAULT_FRAME_TIMEOUT 5.0
#define DEFAULT_RETRY_INTERVAL 1.0

typedef struct cam_buf {
	void *start;
	size_t length;
} cam_buf;

typedef struct cam {
	gd_v4l2_io io;
	gd_v4l2_opts o;
	char *path;
	int fd;            /* -1 while closed */
	cam_buf *bufs;
	unsigned nbufs;    /* mapped */
	int streaming;
	int width, height; /* asked for: the first negotiation's once made */
	size_t bpl;        /* the driver's bytesperline */
	gd_v4l2_info info;
	gv_image img;
	long frames;       /* given so far */
	int have_t0;
	double t0, last_t;
	char name[320];
} cam;

static int xioctl(cam *c, unsigned long request, void *arg)
{
	int r;
	do
		r = c->io.ioctl(c->io.ctx, c->fd, request, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Stops streaming, unmaps the buffers and closes the device (errors are
 * ignored: the device may be gone). */
static void cam_close(cam *c)
{
	if (c->fd < 0)
		return;
	if (c->streaming) {
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		xioctl(c, VIDIOC_STREAMOFF, &type);
		c->streaming = 0;
	}
	for (unsigned i = 0; i < c->nbufs; i++)
		c->io.munmap(c->io.ctx, c->bufs[i].start, c->bufs[i].length);
	free(c->bufs);
	c->bufs = NULL;
	c->nbufs = 0;
	c->io.close(c->io.ctx, c->fd);
	c->fd = -1;
}

/* The error of a failed call, by errno e: busy and missing devices have
 * their own codes everywhere. */
static int call_error(cam *c, const char *call, int e, char *err, size_t cap)
{
	if (e == EBUSY) {
		gd_errf(err, cap, "%s: in use by another program", c->path);
		return GD_EBUSY;
	}
	if (e == ENODEV || e == ENXIO) {
		gd_errf(err, cap, "no camera at %s (%s: %s)", c->path, call, strerror(e));
		return GD_ENODEV;
	}
	if (e == ENOMEM) {
		gd_errf(err, cap, "%s: %s: out of memory", c->path, call);
		return GV_ENOMEM;
	}
	gd_errf(err, cap, "%s: %s: %s", c->path, call, strerror(e));
	return GD_ECAMERA;
}

/* The four characters of a pixel format, for messages. */
static void fourcc(char out[5], uint32_t f)
{
	for (int i = 0; i < 4; i++) {
		char ch = (char)((f >> (8 * i)) & 0xff);
		out[i] = ch >= 32 && ch < 127 ? ch : '?';
	}
	out[4] = '\0';
}

/* Copies a fixed-size, maybe unterminated field of QUERYCAP. */
static void copy_field(char *dst, size_t n, const unsigned char *src, size_t srcn)
{
	size_t k = 0;
	while (k + 1 < n && k < srcn && src[k])
		k++;
	memcpy(dst, src, k);
	dst[k] = '\0';
}

/* Opens the device and starts streaming: the whole negotiation. On failure
 * everything is closed again. */
static int cam_open(cam *c, char *err, size_t cap)
{
	c->fd = c->io.open(c->io.ctx, c->path, O_RDWR | O_NONBLOCK);
	if (c->fd < 0) {
		int e = errno;
		c->fd = -1;
		if (e == ENOENT || e == ENODEV || e == ENXIO) {
			gd_errf(err, cap, "no camera at %s", c->path);
			return GD_ENODEV;
		}
		if (e == EBUSY) {
			gd_errf(err, cap, "%s: in use by another program", c->path);
			return GD_EBUSY;
		}
		if (e == EACCES || e == EPERM) {
			gd_errf(err, cap, "%s: permission denied (is the user in the video group?)", c->path);
			return GD_EACCES;
		}
		/* libv4l2: QUERYCAP failed (ENOSYS: qemu-user's answer to a
		 * V4L2 ioctl on a file that is no device, where a kernel says
		 * ENOTTY) */
		if (e == ENOTTY || e == EINVAL || e == ENOSYS) {
			gd_errf(err, cap, "%s: not a camera (not a V4L2 device)", c->path);
			return GD_ENOTCAM;
		}
		gd_errf(err, cap, "%s: cannot open: %s", c->path, strerror(e));
		return e == ENOMEM ? GV_ENOMEM : GD_ECAMERA;
	}
	int rc = 0;

	/* a video capture device with streaming */
	struct v4l2_capability vc;
	memset(&vc, 0, sizeof vc);
	if (xioctl(c, VIDIOC_QUERYCAP, &vc) < 0) {
		int e = errno;
		if (e == ENOTTY || e == EINVAL || e == ENOSYS) {
			gd_errf(err, cap, "%s: not a camera (not a V4L2 device)", c->path);
			rc = GD_ENOTCAM;
		} else
			rc = call_error(c, "VIDIOC_QUERYCAP", e, err, cap);
		goto fail;
	}
	uint32_t caps = vc.capabilities & V4L2_CAP_DEVICE_CAPS ? vc.device_caps : vc.capabilities;
	copy_field(c->info.driver, sizeof c->info.driver, vc.driver, sizeof vc.driver);
	copy_field(c->info.card, sizeof c->info.card, vc.card, sizeof vc.card);
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
		gd_errf(err, cap, "%s: not a camera (%s%s%s: no video capture%s)", c->path, c->info.card,
		        c->info.card[0] ? ", " : "", c->info.driver,
		        caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE ? ", only multi-planar: on a Raspberry Pi "
		                                               "pipe rpicam-vid's frames in instead"
		                                             : "");
		rc = GD_ENOTCAM;
		goto fail;
	}
	if (!(caps & V4L2_CAP_STREAMING)) {
		gd_errf(err, cap, "%s: not a camera (%s: no streaming I/O)", c->path, c->info.driver);
		rc = GD_ENOTCAM;
		goto fail;
	}

	/* RGB24 at the wanted size (the current one when none is asked) */
	struct v4l2_format fmt;
	memset(&fmt, 0, sizeof fmt);
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (c->width == 0 && xioctl(c, VIDIOC_G_FMT, &fmt) < 0) {
		rc = call_error(c, "VIDIOC_G_FMT", errno, err, cap);
		goto fail;
	}
	int want_w = c->width ? c->width : (int)fmt.fmt.pix.width;
	int want_h = c->height ? c->height : (int)fmt.fmt.pix.height;
	memset(&fmt, 0, sizeof fmt);
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.fmt.pix.width = (uint32_t)want_w;
	fmt.fmt.pix.height = (uint32_t)want_h;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	fmt.fmt.pix.field = V4L2_FIELD_ANY;
	if (xioctl(c, VIDIOC_S_FMT, &fmt) < 0) {
		int e = errno;
		if (e == EINVAL) {
			gd_errf(err, cap, "%s: format refused (RGB24 %dx%d: %s)", c->path, want_w, want_h,
			        strerror(e));
			rc = GD_ENOFMT;
		} else
			rc = call_error(c, "VIDIOC_S_FMT", e, err, cap);
		goto fail;
	}
	if (fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_RGB24) {
		char cc[5];
		fourcc(cc, fmt.fmt.pix.pixelformat);
		gd_errf(err, cap, "%s: format refused (asked for RGB24, the driver gives %s)", c->path, cc);
		rc = GD_ENOFMT;
		goto fail;
	}
	uint32_t w = fmt.fmt.pix.width, h = fmt.fmt.pix.height;
	if (w == 0 || h == 0 || w > GD_MAX_FRAME_SIDE || h > GD_MAX_FRAME_SIDE) {
		gd_errf(err, cap, "%s: format refused (the driver gives a size of %ux%u)", c->path,
		        (unsigned)w, (unsigned)h);
		rc = GD_ENOFMT;
		goto fail;
	}
	size_t bpl = fmt.fmt.pix.bytesperline;
	if (bpl == 0)
		bpl = (size_t)w * 3;
	if (bpl < (size_t)w * 3) {
		gd_errf(err, cap, "%s: format refused (%zu bytes a row for %u RGB pixels)", c->path, bpl,
		        (unsigned)w);
		rc = GD_ENOFMT;
		goto fail;
	}
	if (c->img.data && ((int)w != c->img.width || (int)h != c->img.height)) {
		gd_errf(err, cap, "%s: came back at %ux%u, not %dx%d", c->path, (unsigned)w,
		        (unsigned)h, c->img.width, c->img.height);
		rc = GD_ENOFMT;
		goto fail;
	}
	c->bpl = bpl;

	/* the rate, when asked for and the driver can set it; the rate in use */
	struct v4l2_streamparm parm;
	memset(&parm, 0, sizeof parm);
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int have_parm = xioctl(c, VIDIOC_G_PARM, &parm) == 0;
	if (have_parm && c->o.fps > 0 && (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) {
		memset(&parm, 0, sizeof parm);
		parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		parm.parm.capture.timeperframe.numerator = 1000;
		parm.parm.capture.timeperframe.denominator = (uint32_t)lround(c->o.fps * 1000);
		if (xioctl(c, VIDIOC_S_PARM, &parm) < 0) {
			if (errno == EBUSY) {
				rc = call_error(c, "VIDIOC_S_PARM", EBUSY, err, cap);
				goto fail;
			}
			memset(&parm, 0, sizeof parm);
			parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			have_parm = xioctl(c, VIDIOC_G_PARM, &parm) == 0;
		}
	}
	const struct v4l2_fract *tpf = &parm.parm.capture.timeperframe;
	c->info.fps = have_parm && tpf->numerator && tpf->denominator
	                  ? (double)tpf->denominator / tpf->numerator
	                  : 0;

	/* mmap buffers */
	struct v4l2_requestbuffers req;
	memset(&req, 0, sizeof req);
	req.count = (uint32_t)(c->o.buffers ? c->o.buffers : DEFAULT_BUFFERS);
	req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	req.memory = V4L2_MEMORY_MMAP;
	if (xioctl(c, VIDIOC_REQBUFS, &req) < 0) {
		int e = errno;
		if (e == EINVAL) {
			gd_errf(err, cap, "%s: not a camera (%s: no mmap streaming)", c->path, c->info.driver);
			rc = GD_ENOTCAM;
		} else
			rc = call_error(c, "VIDIOC_REQBUFS", e, err, cap);
		goto fail;
	}
	if (req.count < 1 || req.count > 1024) {
		gd_errf(err, cap, "%s: VIDIOC_REQBUFS granted %u buffers", c->path, (unsigned)req.count);
		rc = GD_ECAMERA;
		goto fail;
	}
	if (!(c->bufs = calloc(req.count, sizeof *c->bufs))) {
		gd_errf(err, cap, "%s: out of memory", c->path);
		rc = GV_ENOMEM;
		goto fail;
	}
	size_t need = bpl * (h - 1) + (size_t)w * 3;
	for (uint32_t i = 0; i < req.count; i++) {
		struct v4l2_buffer b;
		memset(&b, 0, sizeof b);
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (xioctl(c, VIDIOC_QUERYBUF, &b) < 0) {
			rc = call_error(c, "VIDIOC_QUERYBUF", errno, err, cap);
			goto fail;
		}
		if (b.length < need) {
			gd_errf(err, cap, "%s: format refused (buffer %u holds %u bytes, a frame needs %zu)",
			        c->path, (unsigned)i, (unsigned)b.length, need);
			rc = GD_ENOFMT;
			goto fail;
		}
		void *p = c->io.mmap(c->io.ctx, NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		                     (int64_t)b.m.offset);
		if (p == MAP_FAILED) {
			rc = call_error(c, "mmap", errno, err, cap);
			goto fail;
		}
		c->bufs[i].start = p;
		c->bufs[i].length = b.length;
		c->nbufs = i + 1;
		if (xioctl(c, VIDIOC_QBUF, &b) < 0) {
			rc = call_error(c, "VIDIOC_QBUF", errno, err, cap);
			goto fail;
		}
	}
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(c, VIDIOC_STREAMON, &type) < 0) {
		int e = errno;
		if (e == ENOSPC) {
			gd_errf(err, cap, "%s: VIDIOC_STREAMON: not enough USB bandwidth (ask for a smaller "
			        "size or rate, or use another USB port)", c->path);
			rc = GD_ECAMERA;
		} else
			rc = call_error(c, "VIDIOC_STREAMON", e, err, cap);
		goto fail;
	}
	c->streaming = 1;
	if (!c->img.data) {
		rc = gv_image_alloc(&c->img, (int)w, (int)h, 3);
		if (rc) {
			gd_errf(err, cap, "%s: out of memory", c->path);
			goto fail;
		}
	}
	c->width = (int)w;
	c->height = (int)h;
	c->info.width = (int)w;
	c->info.height = (int)h;
	c->info.bytesperline = bpl;
	c->info.buffers = (int)req.count;
	return 0;
fail:
	cam_close(c);
	return rc;
}

/* How a read ended other than with a frame. */
enum { READ_FRAME = 1, READ_LOST = 0, READ_STOP = 2 };

/* Waits for the next usable frame into c->img: READ_FRAME with *ts, the
 * buffer's time on the monotonic clock; READ_LOST with why[] filled when
 * the device failed or gave no usable frame within frame_timeout; or a
 * negative code (out of memory only); READ_STOP when a stop was asked for
 * (stop.h) while it waited. */
static int cam_read(cam *c, double *ts, char *why, size_t whycap)
{
	double timeout = c->o.frame_timeout > 0 ? c->o.frame_timeout : DEFAULT_FRAME_TIMEOUT;
	double deadline = c->io.now(c->io.ctx) + timeout;
	long skipped = 0;
	for (;;) {
		if (gd_stop_requested())
			return READ_STOP;
		double left = deadline - c->io.now(c->io.ctx);
		if (left <= 0) {
			if (skipped)
				gd_errf(why, whycap, "no usable frame for %g s: %ld short or bad", timeout, skipped);
			else
				gd_errf(why, whycap, "no frame for %g s", timeout);
			return READ_LOST;
		}
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		int n = c->io.poll(c->io.ctx, &p, 1,
		                   left < GD_STOP_POLL_MS / 1000.0 ? (int)ceil(left * 1000) : GD_STOP_POLL_MS);
		if (n < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			gd_errf(why, whycap, "poll: %s", strerror(e));
			return READ_LOST;
		}
		if (n == 0)
			continue; /* the deadline decides */
		struct v4l2_buffer b;
		memset(&b, 0, sizeof b);
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		if (xioctl(c, VIDIOC_DQBUF, &b) < 0) {
			int e = errno;
			if (e == EAGAIN && !(p.revents & (POLLERR | POLLHUP | POLLNVAL)))
				continue;
			gd_errf(why, whycap, "VIDIOC_DQBUF: %s", e == EAGAIN ? "poll reports an error" : strerror(e));
			return READ_LOST;
		}
		if (b.index >= c->nbufs) {
			gd_errf(why, whycap, "VIDIOC_DQBUF: buffer %u of %u", (unsigned)b.index, c->nbufs);
			return READ_LOST;
		}
		const int w = c->img.width, h = c->img.height;
		size_t need = c->bpl * (size_t)(h - 1) + (size_t)w * 3;
		int good = !(b.flags & V4L2_BUF_FLAG_ERROR) && b.bytesused >= need &&
		           c->bufs[b.index].length >= need;
		if (good) {
			const unsigned char *src = c->bufs[b.index].start;
			for (int j = 0; j < h; j++)
				memcpy(c->img.data + (size_t)j * c->img.stride, src + (size_t)j * c->bpl,
				       (size_t)w * 3);
			if ((b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC &&
			    (b.timestamp.tv_sec || b.timestamp.tv_usec))
				*ts = (double)b.timestamp.tv_sec + b.timestamp.tv_usec / 1e6;
			else
				*ts = c->io.now(c->io.ctx);
		} else
			skipped++;
		if (xioctl(c, VIDIOC_QBUF, &b) < 0) {
			gd_errf(why, whycap, "VIDIOC_QBUF: %s", strerror(errno));
			return READ_LOST;
		}
		if (good)
			return READ_FRAME;
	}
}

static int status(cam *c, gd_v4l2_event ev, const char *msg)
{
	return c->o.status ? c->o.status(c->o.user, ev, msg) : 0;
}

static int cam_next(void *impl, gv_image **frame, double *t, char *err, size_t cap)
{
	cam *c = impl;
	char why[256] = "", msg[640];
	double lost_at = 0;
	for (;;) {
		if (c->fd < 0) {
			/* lost: reopen every retry_interval seconds */
			double interval = c->o.retry_interval > 0 ? c->o.retry_interval : DEFAULT_RETRY_INTERVAL;
			char last[256];
			c->io.sleep(c->io.ctx, interval);
			if (gd_stop_requested())
				return 0; /* asked to stop: the end of the input */
			int rc = cam_open(c, last, sizeof last);
			double gone = c->io.now(c->io.ctx) - lost_at;
			if (rc == GV_ENOMEM) {
				gd_errf(err, cap, "%s", last);
				return rc;
			}
			if (rc == 0) {
				snprintf(c->name, sizeof c->name, "%s", c->path);
				snprintf(msg, sizeof msg, "%s: camera back after %.1f s", c->path, gone);
				status(c, GD_V4L2_BACK, msg);
				continue;
			}
			if (c->o.retry_for > 0 && gone >= c->o.retry_for) {
				gd_errf(err, cap, "%s: camera lost before frame %ld (%s) and not back after %.1f s (%s)",
				        c->path, c->frames, why, gone, last);
				return GD_ENODEV;
			}
			snprintf(msg, sizeof msg, "%s: still lost after %.1f s (%s)", c->path, gone, last);
			if (status(c, GD_V4L2_RETRY, msg)) {
				gd_errf(err, cap, "%s: camera lost before frame %ld (%s); gave up after %.1f s (%s)",
				        c->path, c->frames, why, gone, last);
				return GD_ENODEV;
			}
			continue;
		}
		double ts;
		int rc = cam_read(c, &ts, why, sizeof why);
		if (rc == READ_STOP)
			return 0; /* asked to stop: the end of the input */
		if (rc < 0) {
			gd_errf(err, cap, "%s: %s", c->path, why);
			return rc;
		}
		if (rc == READ_FRAME) {
			if (!c->have_t0) {
				c->have_t0 = 1;
				c->t0 = ts;
			}
			double when = ts - c->t0;
			if (when < c->last_t)
				when = c->last_t;
			c->last_t = when;
			c->frames++;
			*frame = &c->img;
			*t = when;
			return 1;
		}
		/* lost: close it and start reopening, unless not wanted */
		cam_close(c);
		if (c->o.retry_for < 0) {
			gd_errf(err, cap, "%s: camera lost before frame %ld (%s)", c->path, c->frames, why);
			return GD_ENODEV;
		}
		lost_at = c->io.now(c->io.ctx);
		snprintf(c->name, sizeof c->name, "%s (lost, retrying)", c->path);
		snprintf(msg, sizeof msg, "%s: camera lost (%s), retrying", c->path, why);
		if (status(c, GD_V4L2_LOST, msg)) {
			gd_errf(err, cap, "%s: camera lost before frame %ld (%s); gave up", c->path,
			        c->frames, why);
			return GD_ENODEV;
		}
	}
}

static const char *cam_name(const void *impl)
{
	return ((const cam *)impl)->name;
}

static void cam_free(void *impl)
{
	cam *c = impl;
	if (!c)
		return;
	cam_close(c);
	gv_image_free(&c->img);
	free(c->path);
	free(c);
}

static const gd_source_ops cam_ops = {
	GD_SOURCE_OPS_VERSION, cam_next, NULL, cam_name, cam_free,
};

int gd_source_open_v4l2_opts(gd_source **out, const char *device, const gd_v4l2_opts *opts,
                             const gd_v4l2_io *io, gd_v4l2_info *info, char *err, size_t cap)
{
	if (out)
		*out = NULL;
	gd_v4l2_opts o;
	if (opts)
		o = *opts;
	else
		gd_v4l2_opts_init(&o);
	if (!out || !device || !device[0]) {
		gd_errf(err, cap, "camera: bad argument");
		return GV_EINVAL;
	}
	if (o.width < 0 || o.height < 0 || (o.width == 0) != (o.height == 0) || o.width > GD_MAX_FRAME_SIDE ||
	    o.height > GD_MAX_FRAME_SIDE) {
		gd_errf(err, cap, "%s: bad size %dx%d (both 0 for the camera's; at most %d a side)", device, o.width,
		        o.height, GD_MAX_FRAME_SIDE);
		return GV_EINVAL;
	}
	if (!isfinite(o.fps) || o.fps < 0 || o.fps > 1000) {
		gd_errf(err, cap, "%s: bad frame rate %g", device, o.fps);
		return GV_EINVAL;
	}
	if (o.buffers < 0 || o.buffers > MAX_BUFFERS || !isfinite(o.frame_timeout) ||
	    o.frame_timeout < 0 || !isfinite(o.retry_interval) || o.retry_interval < 0 ||
	    !isfinite(o.retry_for)) {
		gd_errf(err, cap, "%s: bad camera option", device);
		return GV_EINVAL;
	}
	if (!io) {
		io = gd_v4l2_io_default();
		if (!io) {
			gd_errf(err, cap, "%s: goref was built without libv4l2 (install libv4l-dev and build "
			        "again)", device);
			return GD_ENOV4L2;
		}
	}
	if (io->version != GD_V4L2_IO_VERSION || !io->open || !io->close || !io->ioctl || !io->mmap ||
	    !io->munmap || !io->poll) {
		gd_errf(err, cap, "%s: bad table of device functions", device);
		return GV_EINVAL;
	}
	cam *c = calloc(1, sizeof *c);
	size_t n = strlen(device) + 1;
	if (!c || !(c->path = malloc(n))) {
		free(c);
		gd_errf(err, cap, "%s: out of memory", device);
		return GV_ENOMEM;
	}
	memcpy(c->path, device, n);
	c->io = *io;
	if (!c->io.now)
		c->io.now = real_now;
	if (!c->io.sleep)
		c->io.sleep = real_sleep;
	c->o = o;
	c->fd = -1;
	c->width = o.width;
	c->height = o.height;
	snprintf(c->name, sizeof c->name, "%s", device);
	int rc = cam_open(c, err, cap);
	if (rc == 0)
		rc = gd_source_open_ops(out, &cam_ops, c, err, cap);
	if (rc) {
		cam_free(c);
		return rc;
	}
	if (info)
		*info = c->info;
	return 0;
}

int gd_source_open_v4l2(gd_source **out, const char *device, int width, int height, double fps,
                        char *err, size_t cap)
{
	gd_v4l2_opts o;
	gd_v4l2_opts_init(&o);
	o.width = width;
	o.height = height;
	o.fps = fps;
	return gd_source_open_v4l2_opts(out, device, &o, NULL, NULL, err, cap);
}

#endif
