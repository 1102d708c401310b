/*
 * goref device: a camera as a frame source, through libv4l2.
 *
 * A USB webcam (any V4L2 video capture device with streaming I/O) becomes a
 * gd_source (source.h) whose frames are RGB24 gv_images:
 *
 *     gd_source *cam = NULL;
 *     char err[256];
 *     if (gd_source_open_v4l2(&cam, "/dev/video0", 1280, 720, 10, err, sizeof err) < 0)
 *         ...report err: "no camera at /dev/video0", "... in use by another program"...
 *     while (gd_source_next(cam, &frame, &t, err, sizeof err) == 1)
 *         ...
 *
 * How it talks to the device: v4l2_open (O_RDWR | O_NONBLOCK), then
 * VIDIOC_QUERYCAP (a video capture device with streaming, else "not a
 * camera"), VIDIOC_S_FMT asking for V4L2_PIX_FMT_RGB24 at the wanted size
 * (libv4l2 converts from the camera's MJPEG or YUYV; the size the driver
 * gives back is the size of the frames, whatever was asked), VIDIOC_S_PARM
 * for the frame rate when one is asked and the driver can set it,
 * VIDIOC_REQBUFS (V4L2_MEMORY_MMAP), VIDIOC_QUERYBUF + v4l2_mmap +
 * VIDIOC_QBUF per buffer, VIDIOC_STREAMON. Each frame: poll with a timeout,
 * VIDIOC_DQBUF, the rows copied out honouring bytesperline, VIDIOC_QBUF.
 * EINTR and EAGAIN are retried. A buffer flagged V4L2_BUF_FLAG_ERROR or
 * with fewer bytes than a frame needs is skipped (requeued, not given).
 *
 * Times: the buffer's timestamp when the driver says it is
 * CLOCK_MONOTONIC (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC, as UVC does), else
 * the monotonic clock when the buffer was dequeued; in seconds since the
 * first frame the source gave. Never decreasing (a time before the last
 * one is given as the last one), across reconnections too.
 *
 * On a Raspberry Pi, CSI cameras go through libcamera, not V4L2: there
 * /dev/video0 is a raw sensor receiver that libv4l2 cannot convert. Pipe
 * `rpicam-vid -t 0 -n --codec yuv420 -o -` into gd_source_open_raw instead.
 *
 * Built with vision/ only (GOREF_HAVE_VISION), as source.h. Without
 * libv4l2 (GOREF_HAVE_V4L2 not defined: libv4l-dev was missing when goref
 * was built) everything is there but the real device: opening one returns
 * GD_ENOV4L2, and a caller's table of functions (gd_v4l2_io) still works.
 */
#ifndef GOREF_DEVICE_V4L2_H
#define GOREF_DEVICE_V4L2_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"

/* Error codes of the camera, besides GV_EINVAL and GV_ENOMEM. */
enum {
	GD_ENODEV = -40,  /* no camera at that path (ENOENT, ENODEV, ENXIO), or
	                   * a camera lost and not back in time */
	GD_EBUSY = -41,   /* the camera is in use by another program (EBUSY) */
	GD_EACCES = -42,  /* no permission to open it (EACCES, EPERM) */
	GD_ENOTCAM = -43, /* not a camera: not a V4L2 device, or not a video
	                   * capture device with streaming I/O */
	GD_ENOFMT = -44,  /* the format was refused: no RGB24 (even through
	                   * libv4l2's conversion), or no mmap buffers fit */
	GD_ECAMERA = -45, /* any other failure of the device: the message has
	                   * the call and the system's words */
	GD_ENOV4L2 = -46, /* goref was built without libv4l2 */
};

/*
 * The device calls, as a table of functions: libv4l2's by default
 * (gd_v4l2_io_default), a fake device's in tests. Each function takes ctx
 * first and then the arguments of the call it stands for, and answers as
 * that call does: -1 (MAP_FAILED for mmap) with errno set on failure.
 *
 *   open    v4l2_open(path, flags)
 *   close   v4l2_close(fd)
 *   ioctl   v4l2_ioctl(fd, request, arg)
 *   mmap    v4l2_mmap(start, length, prot, flags, fd, offset)
 *   munmap  v4l2_munmap(start, length)
 *   poll    poll(fds, nfds, timeout_ms)
 *   now     seconds on a monotonic clock (CLOCK_MONOTONIC by default: the
 *           clock of V4L2's monotonic timestamps); may be NULL
 *   sleep   waits that many seconds; may be NULL (nanosleep)
 *
 * version must be GD_V4L2_IO_VERSION. The table is copied when a source is
 * opened; ctx must live as long as the source.
 */
#define GD_V4L2_IO_VERSION 1

typedef struct gd_v4l2_io {
	int version;
	void *ctx;
	int (*open)(void *ctx, const char *path, int flags);
	int (*close)(void *ctx, int fd);
	int (*ioctl)(void *ctx, int fd, unsigned long request, void *arg);
	void *(*mmap)(void *ctx, void *start, size_t length, int prot, int flags, int fd, int64_t offset);
	int (*munmap)(void *ctx, void *start, size_t length);
	int (*poll)(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms);
	double (*now)(void *ctx);
	void (*sleep)(void *ctx, double seconds);
} gd_v4l2_io;

/* libv4l2's table, or NULL when goref was built without libv4l2. */
const gd_v4l2_io *gd_v4l2_io_default(void);

/* What the status function of gd_v4l2_opts is told. */
typedef enum gd_v4l2_event {
	GD_V4L2_LOST = 1, /* the camera stopped (unplugged: ENODEV, EIO, a poll
	                   * error, or no frame within frame_timeout); msg says
	                   * why; it is closed and reopening begins */
	GD_V4L2_RETRY,    /* an attempt to open it again failed; msg says why */
	GD_V4L2_BACK,     /* it is open and streaming again */
} gd_v4l2_event;

/* Called from inside gd_source_next, on the caller's thread, while the
 * camera is lost. msg is "DEVICE: camera lost (WHY), retrying", "DEVICE:
 * still lost after N s (WHY)" or "DEVICE: camera back after N s", valid for
 * the call only. Return 0 to go on, anything else to give up: then
 * gd_source_next returns GD_ENODEV. */
typedef int (*gd_v4l2_status_fn)(void *user, gd_v4l2_event event, const char *msg);

typedef struct gd_v4l2_opts {
	int width, height;     /* the size to ask for; 0 and 0: the camera's
	                        * current one. Both or neither. */
	double fps;            /* the rate to ask for; 0: the camera's */
	int buffers;           /* mmap buffers to ask for, 1..32; 0: 4 */
	double frame_timeout;  /* seconds with no usable frame before the
	                        * camera is taken as lost; 0: 5 */
	double retry_interval; /* seconds between attempts to reopen a lost
	                        * camera; 0: 1 */
	double retry_for;      /* seconds to keep trying after a loss; 0:
	                        * forever; negative: never (a loss is at once
	                        * an error, GD_ENODEV) */
	gd_v4l2_status_fn status; /* may be NULL */
	void *user;               /* handed to status */
} gd_v4l2_opts;

/* Every field 0 or NULL: the camera's size and rate, 4 buffers, lost after
 * 5 s without a frame, reopened every second for ever. */
void gd_v4l2_opts_init(gd_v4l2_opts *o);

/* What was negotiated, filled by gd_source_open_v4l2_opts. */
typedef struct gd_v4l2_info {
	int width, height;    /* of every frame: what the driver gave back */
	size_t bytesperline;  /* of the driver's buffers (>= width * 3) */
	double fps;           /* the driver's rate (VIDIOC_G_PARM), 0 when it
	                       * does not say */
	int buffers;          /* mmap buffers granted */
	char driver[16];      /* VIDIOC_QUERYCAP's driver and card, */
	char card[32];        /* NUL-terminated */
} gd_v4l2_info;

/*
 * gd_source_open_v4l2: opens the camera at device ("/dev/video0") and
 * starts streaming; the first frame is waited for by gd_source_next.
 * width and height (both or neither 0) and fps are asked for; 0 takes the
 * camera's own. The defaults of gd_v4l2_opts_init otherwise, libv4l2 as
 * the device calls.
 *
 * Returns 0, or on failure (nothing left open, *out NULL) a negative code
 * with a message in err[0..cap) (err may be NULL):
 *   GD_ENODEV   "no camera at DEVICE"
 *   GD_EBUSY    "DEVICE: in use by another program"
 *   GD_EACCES   "DEVICE: permission denied (is the user in the video group?)"
 *   GD_ENOTCAM  "DEVICE: not a camera (...)"
 *   GD_ENOFMT   "DEVICE: format refused (...)"
 *   GD_ECAMERA  "DEVICE: VIDIOC_...: the system's message", and the
 *               hint about USB bandwidth when STREAMON says ENOSPC
 *   GD_ENOV4L2  "goref was built without libv4l2 ..."
 *   GV_EINVAL   a NULL out or device, a bad size, rate or option
 *   GV_ENOMEM
 *
 * The source:
 *   gd_source_next  blocks until the next frame. When the camera is lost
 *       (see GD_V4L2_LOST) it closes it and tries to open the same path
 *       again every retry_interval seconds, asking for the size that was
 *       negotiated the first time (a camera that comes back at another size
 *       is not taken: the attempt fails and retrying goes on), telling the
 *       status function each step; when it is back, frames go on as before
 *       (times continue from the same clock). It returns GD_ENODEV (and,
 *       as every source, keeps returning it) when retry_for runs out or the
 *       status function gives up; the message says when the camera was
 *       lost and the last attempt's error. It never returns 0: a camera
 *       does not end. Signals do not interrupt it (EINTR is retried): a
 *       caller that stops on a signal checks its flag in the status
 *       function, which is called at least every retry_interval seconds
 *       while the camera is lost; otherwise next returns at each frame or
 *       after at most frame_timeout seconds plus one attempt.
 *   gd_source_count  -1.
 *   gd_source_name   DEVICE, or "DEVICE (lost, retrying)" while it is
 *       lost (from the status function).
 *   gd_source_free   stops streaming, unmaps the buffers, closes it.
 */
int gd_source_open_v4l2(gd_source **out, const char *device, int width, int height, double fps,
                        char *err, size_t cap);

/*
 * The same with every option: opts NULL is gd_v4l2_opts_init's; io NULL is
 * libv4l2 (GD_ENOV4L2 without it), else a caller's table (copied); info,
 * when not NULL, receives what was negotiated.
 */
int gd_source_open_v4l2_opts(gd_source **out, const char *device, const gd_v4l2_opts *opts,
                             const gd_v4l2_io *io, gd_v4l2_info *info, char *err, size_t cap);

#endif
