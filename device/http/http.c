/* goref program: the referee's web page. See http.h. */
#define _POSIX_C_SOURCE 200809L
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

#define BODY_MAX 1024         /* bytes of a POST body */
#define EVENT_CAP 16400       /* bytes of one event as a reader copies it */
#define SSE_PING_S 15.0       /* a comment line to an idle stream */
#define JSONL_MAX (32u << 20) /* bytes of /game.jsonl served */
#define SNAPSHOT_MAX_W 1024   /* the snapshot is halved until it is this wide or less */

void gd_http_opts_init(gd_http_opts *o)
{
	memset(o, 0, sizeof *o);
	snprintf(o->addr, sizeof o->addr, "127.0.0.1");
	o->port = 8080;
	o->max_connections = 128;
	o->max_per_address = 64;
}

int gd_http_parse_listen(gd_http_opts *o, const char *text, char *err, size_t cap)
{
	const char *colon = strrchr(text, ':');
	const char *port = colon ? colon + 1 : text;
	char *end = NULL;
	errno = 0;
	long p = strtol(port, &end, 10);
	if (!*port || *end || errno || p < 0 || p > 65535) {
		snprintf(err, cap, "'%s': the port must be a number from 0 to 65535 ([ADDR:]PORT)", text);
		return -1;
	}
	if (colon) {
		const char *a = text;
		size_t n = (size_t)(colon - text);
		if (n >= 2 && a[0] == '[' && a[n - 1] == ']') {
			a++;
			n -= 2;
		}
		char addr[64];
		unsigned char tmp[sizeof(struct in6_addr)];
		if (n == 0 || n >= sizeof addr) {
			snprintf(err, cap, "'%s': no address before the port", text);
			return -1;
		}
		memcpy(addr, a, n);
		addr[n] = '\0';
		if (inet_pton(AF_INET, addr, tmp) != 1 && inet_pton(AF_INET6, addr, tmp) != 1) {
			snprintf(err, cap, "'%s': '%s' is not an IPv4 or IPv6 address (e.g. 0.0.0.0, 127.0.0.1, [::])", text,
			         addr);
			return -1;
		}
		snprintf(o->addr, sizeof o->addr, "%s", addr);
	}
	o->port = (int)p;
	return 0;
}

int gd_http_make_pin(char *pin, size_t cap)
{
	if (cap < 7)
		return -1;
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0)
		return -1;
	unsigned char r[6];
	ssize_t n = read(fd, r, sizeof r);
	close(fd);
	if (n != (ssize_t)sizeof r)
		return -1;
	for (int i = 0; i < 6; i++)
		pin[i] = (char)('0' + r[i] % 10); /* a slight bias towards 0..5: 1.6 % at most */
	pin[6] = '\0';
	return 0;
}

bool gd_http_pin_equal(const char *a, const char *b)
{
	/* every byte of two 64-byte copies compared, whatever the lengths */
	unsigned char x[64] = {0}, y[64] = {0};
	size_t la = strnlen(a, 64), lb = strnlen(b, 64);
	memcpy(x, a, la < 64 ? la : 64);
	memcpy(y, b, lb < 64 ? lb : 64);
	unsigned diff = (la != lb) | (la >= 64) | (lb >= 64) | (la == 0);
	for (int i = 0; i < 64; i++)
		diff |= (unsigned)(x[i] ^ y[i]);
	return diff == 0;
}

typedef struct sse sse;

struct gd_http {
	gd_http_opts o;
	gd_session *s;
	struct MHD_Daemon *d;
	int port;
	pthread_t waker;
	bool waker_started;
	_Atomic int stopping;
	pthread_mutex_t mu; /* the suspended streams */
	sse *suspended;
	pthread_mutex_t jmu; /* the snapshot's cache */
	unsigned char *jpeg;
	unsigned long jpeg_len;
	long jpeg_serial;
};

struct sse {
	gd_http *h;
	struct MHD_Connection *conn;
	long after;          /* the last event sent */
	char *out;           /* what is being sent */
	size_t out_len, out_pos, out_cap;
	double last_write;
	bool suspended;
	sse *next;
	char ev[EVENT_CAP];
};

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void hlog(gd_http *h, const char *fmt, ...)
{
	if (!h->o.log)
		return;
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	h->o.log(line, h->o.ud);
}

/* --- responses --- */

static enum MHD_Result send_buf(struct MHD_Connection *c, unsigned status, const char *type, const void *data,
                                size_t len, enum MHD_ResponseMemoryMode mode, bool cache)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free((void *)data);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache ? "max-age=60" : "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Content-Security-Policy",
	                        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
	                        "frame-ancestors 'none'");
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	return send_buf(c, status, "text/plain; charset=utf-8", text, strlen(text), MHD_RESPMEM_PERSISTENT, false);
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
	char *buf = malloc(512);
	if (!buf)
		return MHD_NO;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, 512, fmt, ap);
	va_end(ap);
	return send_buf(c, status, "application/json", buf, strlen(buf), MHD_RESPMEM_MUST_FREE, false);
}

static void client_name(struct MHD_Connection *c, char *buf, size_t cap)
{
	snprintf(buf, cap, "?");
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!ci || !ci->client_addr)
		return;
	const struct sockaddr *sa = ci->client_addr;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, buf, (socklen_t)cap);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, buf, (socklen_t)cap);
}

/* --- the event stream --- */

static bool sse_put(sse *e, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(e->out, e->out_cap, fmt, ap);
		va_end(ap);
		if (n < 0)
			return false;
		if ((size_t)n < e->out_cap) {
			e->out_len = (size_t)n;
			e->out_pos = 0;
			return true;
		}
		char *p = realloc(e->out, (size_t)n + 1);
		if (!p)
			return false;
		e->out = p;
		e->out_cap = (size_t)n + 1;
	}
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)pos;
	sse *e = cls;
	gd_http *h = e->h;
	for (;;) {
		if (h->stopping)
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (e->out_pos < e->out_len) {
			size_t n = e->out_len - e->out_pos;
			if (n > max)
				n = max;
			memcpy(buf, e->out + e->out_pos, n);
			e->out_pos += n;
			e->last_write = mono_s();
			return (ssize_t)n;
		}
		long id = 0;
		int r = gd_session_read(h->s, e->after, e->ev, sizeof e->ev, &id);
		if (r > 0) {
			if (!sse_put(e, "id: %ld\ndata: %s\n\n", id, e->ev))
				return MHD_CONTENT_READER_END_WITH_ERROR;
			e->after = id;
			continue;
		}
		if (r < 0) { /* behind the ring, ahead of it, or an event too long: start again from the last */
			long last = gd_session_last(h->s);
			if (!sse_put(e, "id: %ld\nevent: resync\ndata: {\"type\":\"resync\",\"last\":%ld}\n\n", last, last))
				return MHD_CONTENT_READER_END_WITH_ERROR;
			e->after = last;
			continue;
		}
		if (mono_s() - e->last_write >= SSE_PING_S) {
			if (!sse_put(e, ": ping\n\n"))
				return MHD_CONTENT_READER_END_WITH_ERROR;
			continue;
		}
		/* nothing new: suspended until the waker sees an event (or a ping is due) */
		pthread_mutex_lock(&h->mu);
		bool news = gd_session_last(h->s) > e->after;
		if (!news && !h->stopping) {
			e->suspended = true;
			e->next = h->suspended;
			h->suspended = e;
			MHD_suspend_connection(e->conn);
		}
		pthread_mutex_unlock(&h->mu);
		if (!news)
			return 0;
	}
}

static void sse_unlink(gd_http *h, sse *e)
{
	for (sse **p = &h->suspended; *p; p = &(*p)->next)
		if (*p == e) {
			*p = e->next;
			break;
		}
	e->suspended = false;
}

static void sse_free(void *cls)
{
	sse *e = cls;
	pthread_mutex_lock(&e->h->mu);
	if (e->suspended)
		sse_unlink(e->h, e);
	pthread_mutex_unlock(&e->h->mu);
	free(e->out);
	free(e);
}

/* Resumes the suspended streams that have news or a ping due (all of them
 * when stopping). */
static void wake_streams(gd_http *h, bool all)
{
	long last = gd_session_last(h->s);
	double now = mono_s();
	pthread_mutex_lock(&h->mu);
	sse **p = &h->suspended;
	while (*p) {
		sse *e = *p;
		if (all || e->after != last || now - e->last_write >= SSE_PING_S) {
			*p = e->next;
			e->suspended = false;
			MHD_resume_connection(e->conn);
		} else {
			p = &e->next;
		}
	}
	pthread_mutex_unlock(&h->mu);
}

static void *waker_main(void *arg)
{
	gd_http *h = arg;
	long seen = gd_session_last(h->s);
	while (!h->stopping) {
		gd_session_wait(h->s, seen, 500);
		seen = gd_session_last(h->s);
		wake_streams(h, false);
	}
	return NULL;
}

static long parse_id(const char *s)
{
	if (!s || !*s)
		return -1;
	char *end = NULL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno || v < 0)
		return -1;
	return v;
}

static enum MHD_Result serve_events(gd_http *h, struct MHD_Connection *c)
{
	long after = parse_id(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID"));
	if (after < 0)
		after = parse_id(MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "after"));
	if (after < 0)
		after = 0; /* from the first event the ring holds (a resync when it no longer holds event 1) */
	sse *e = calloc(1, sizeof *e);
	if (!e)
		return MHD_NO;
	e->h = h;
	e->conn = c;
	e->after = after;
	e->last_write = mono_s();
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, sse_read, e, sse_free);
	if (!r) {
		free(e);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "X-Accel-Buffering", "no");
	enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* --- the snapshot --- */

static enum MHD_Result serve_snapshot(gd_http *h, struct MHD_Connection *c)
{
	int w = 0, hh = 0;
	long serial = 0;
	gd_session_frame_copy(h->s, NULL, &w, &hh, &serial); /* also: a viewer wants frames */
	pthread_mutex_lock(&h->jmu);
	if (!h->jpeg || h->jpeg_serial != serial) {
		unsigned char *rgb = NULL;
		if (serial > 0 && gd_session_frame_copy(h->s, &rgb, &w, &hh, &serial)) {
			/* halve until small enough for a phone: 2x2 means */
			while (w > SNAPSHOT_MAX_W && hh >= 2) {
				int nw = w / 2, nh = hh / 2;
				for (int y = 0; y < nh; y++)
					for (int x = 0; x < nw; x++)
						for (int k = 0; k < 3; k++) {
							const unsigned char *a = rgb + ((size_t)(2 * y) * (size_t)w + (size_t)(2 * x)) * 3 + k;
							const unsigned char *b = a + (size_t)w * 3;
							rgb[((size_t)y * (size_t)nw + (size_t)x) * 3 + k] =
								(unsigned char)((a[0] + a[3] + b[0] + b[3] + 2) / 4);
						}
				w = nw;
				hh = nh;
			}
			tjhandle tj = tjInitCompress();
			unsigned char *jpg = NULL;
			unsigned long len = 0;
			if (tj && tjCompress2(tj, rgb, w, w * 3, hh, TJPF_RGB, &jpg, &len, TJSAMP_420, 75, TJFLAG_FASTDCT) == 0) {
				tjFree(h->jpeg);
				h->jpeg = jpg;
				h->jpeg_len = len;
				h->jpeg_serial = serial;
			} else {
				tjFree(jpg);
				hlog(h, "web: the snapshot could not be compressed: %s", tj ? tjGetErrorStr2(tj) : "no memory");
			}
			if (tj)
				tjDestroy(tj);
			free(rgb);
		}
	}
	enum MHD_Result ret;
	if (h->jpeg)
		ret = send_buf(c, MHD_HTTP_OK, "image/jpeg", h->jpeg, h->jpeg_len, MHD_RESPMEM_MUST_COPY, false);
	else
		ret = send_text(c, MHD_HTTP_NOT_FOUND, "no view from the camera yet\n");
	pthread_mutex_unlock(&h->jmu);
	return ret;
}

/* --- files --- */

static enum MHD_Result serve_jsonl(gd_http *h, struct MHD_Connection *c)
{
	if (!h->o.events_path)
		return send_text(c, MHD_HTTP_NOT_FOUND, "no events file\n");
	FILE *f = fopen(h->o.events_path, "rb");
	if (!f)
		return send_buf(c, MHD_HTTP_OK, "application/x-ndjson", "", 0, MHD_RESPMEM_PERSISTENT, false);
	struct stat sb;
	size_t cap = fstat(fileno(f), &sb) == 0 && sb.st_size >= 0 && (uint64_t)sb.st_size < JSONL_MAX
	                 ? (size_t)sb.st_size + 1
	                 : JSONL_MAX;
	char *buf = malloc(cap);
	size_t n = buf ? fread(buf, 1, cap, f) : 0;
	fclose(f);
	if (!buf)
		return MHD_NO;
	while (n > 0 && buf[n - 1] != '\n') /* a line being written is not yet served */
		n--;
	return send_buf(c, MHD_HTTP_OK, "application/x-ndjson", buf, n, MHD_RESPMEM_MUST_FREE, false);
}

static enum MHD_Result serve_session_text(struct MHD_Connection *c, char *text, size_t len, const char *type,
                                          const char *none)
{
	if (!text)
		return send_buf(c, MHD_HTTP_OK, type, none, strlen(none), MHD_RESPMEM_PERSISTENT, false);
	return send_buf(c, MHD_HTTP_OK, type, text, len, MHD_RESPMEM_MUST_FREE, false);
}

/* --- actions --- */

typedef struct req {
	bool post;
	bool too_big;
	size_t n;
	char body[BODY_MAX + 1];
} req;

/* 0 when the request carries the PIN, else after a 403 and a log line. */
static bool pin_ok(gd_http *h, struct MHD_Connection *c, const char *what, enum MHD_Result *ret)
{
	const char *pin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Goref-Pin");
	if (pin && gd_http_pin_equal(pin, h->o.pin))
		return true;
	char who[64];
	client_name(c, who, sizeof who);
	hlog(h, "web: refused %s from %s: %s", what, who, pin && *pin ? "wrong PIN" : "no PIN");
	*ret = send_json(c, MHD_HTTP_FORBIDDEN, "{\"ok\":false,\"error\":\"the operator's PIN is needed\"}");
	return false;
}

static enum MHD_Result do_action(gd_http *h, struct MHD_Connection *c, const char *name)
{
	int a = gd_action_parse(name);
	if (a < 0 || a == GD_ACT_CORNERS)
		return send_json(c, MHD_HTTP_NOT_FOUND, "{\"ok\":false,\"error\":\"no such action\"}");
	enum MHD_Result ret;
	if (!pin_ok(h, c, gd_action_name((gd_action)a), &ret))
		return ret;
	char who[64], tag[32];
	client_name(c, who, sizeof who);
	snprintf(tag, sizeof tag, "web %.27s", who);
	if (gd_session_act(h->s, (gd_action)a, tag) != 0)
		return send_json(c, MHD_HTTP_SERVICE_UNAVAILABLE, "{\"ok\":false,\"error\":\"busy: try again\"}");
	hlog(h, "web: %s from %s", gd_action_name((gd_action)a), who);
	return send_json(c, MHD_HTTP_OK, "{\"ok\":true,\"action\":\"%s\"}", gd_action_name((gd_action)a));
}

static enum MHD_Result do_corners(gd_http *h, struct MHD_Connection *c, req *q)
{
	enum MHD_Result ret;
	if (!pin_ok(h, c, "corners", &ret))
		return ret;
	gd_request r;
	memset(&r, 0, sizeof r);
	r.action = GD_ACT_CORNERS;
	const char *p = q->body;
	int w = 0, hh = 0;
	long serial = 0;
	gd_session_frame_copy(h->s, NULL, &w, &hh, &serial);
	for (int i = 0; i < 8; i++) {
		char *end = NULL;
		errno = 0;
		double v = strtod(p, &end);
		double lim = (i % 2 ? hh : w);
		if (end == p || errno || !(v >= 0) || (lim > 0 && v > lim) || v > 100000)
			return send_json(c, MHD_HTTP_BAD_REQUEST,
			                 "{\"ok\":false,\"error\":\"8 numbers x,y clockwise from the top-left, in the frame\"}");
		r.corners[i] = v;
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
	if (*p && *p != '\n' && *p != '\r')
		return send_json(c, MHD_HTTP_BAD_REQUEST, "{\"ok\":false,\"error\":\"more than 8 numbers\"}");
	char who[64];
	client_name(c, who, sizeof who);
	snprintf(r.who, sizeof r.who, "web %.27s", who);
	if (gd_session_request(h->s, &r) != 0)
		return send_json(c, MHD_HTTP_SERVICE_UNAVAILABLE, "{\"ok\":false,\"error\":\"busy: try again\"}");
	hlog(h, "web: corners from %s", who);
	return send_json(c, MHD_HTTP_OK, "{\"ok\":true,\"action\":\"corners\"}");
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	(void)version;
	gd_http *h = cls;
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);
	bool post = !strcmp(method, MHD_HTTP_METHOD_POST);
	req *q = *con_cls;
	if (!q) {
		q = calloc(1, sizeof *q);
		if (!q)
			return MHD_NO;
		q->post = post;
		*con_cls = q;
		return MHD_YES;
	}
	if (*upload_size) {
		if (q->n + *upload_size > BODY_MAX)
			q->too_big = true;
		else {
			memcpy(q->body + q->n, upload_data, *upload_size);
			q->n += *upload_size;
		}
		*upload_size = 0;
		return MHD_YES;
	}
	q->body[q->n] = '\0';
	if (q->too_big)
		return send_text(c, 413, "the body is too large\n");
	if (!get && !post)
		return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "GET or POST only\n");
	if (post) {
		if (!strncmp(url, "/action/", 8))
			return do_action(h, c, url + 8);
		if (!strcmp(url, "/calibrate"))
			return do_corners(h, c, q);
		return send_text(c, MHD_HTTP_NOT_FOUND, "no such action\n");
	}
	if (!strncmp(url, "/action/", 8)) {
		char who[64];
		client_name(c, who, sizeof who);
		hlog(h, "web: refused GET %.60s from %s: actions are POST only", url, who);
		return send_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "actions are POST only\n");
	}
	if (!strcmp(url, "/events"))
		return serve_events(h, c);
	if (!strcmp(url, "/state.json")) {
		size_t len = 0;
		char *st = gd_session_state(h->s, &len);
		return serve_session_text(c, st, len, "application/json", "{\"event\":0}");
	}
	if (!strcmp(url, "/game.sgf")) {
		size_t len = 0;
		char *sgf = gd_session_sgf(h->s, &len);
		return serve_session_text(c, sgf, len, "application/x-go-sgf", "(;GM[1]FF[4])\n");
	}
	if (!strcmp(url, "/game.jsonl"))
		return serve_jsonl(h, c);
	if (!strcmp(url, "/snapshot.jpg"))
		return serve_snapshot(h, c);
	for (int i = 0; i < gd_web_nfiles; i++)
		if (!strcmp(url, gd_web_files[i].path))
			return send_buf(c, MHD_HTTP_OK, gd_web_files[i].type, gd_web_files[i].data, gd_web_files[i].len,
			                MHD_RESPMEM_PERSISTENT, false);
	return send_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)c;
	(void)toe;
	free(*con_cls);
	*con_cls = NULL;
}

int gd_http_start(gd_http **out, gd_session *s, const gd_http_opts *o, char *err, size_t cap)
{
	*out = NULL;
	if (!o->pin[0]) {
		snprintf(err, cap, "no PIN for the operator's actions");
		return -1;
	}
	if (strnlen(o->pin, sizeof o->pin) >= 63) {
		snprintf(err, cap, "the PIN is too long (at most 62 characters)");
		return -1;
	}
	gd_http *h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, cap, "out of memory");
		return -1;
	}
	h->o = *o;
	h->s = s;
	if (h->o.max_connections <= 0)
		h->o.max_connections = 128;
	pthread_mutex_init(&h->mu, NULL);
	pthread_mutex_init(&h->jmu, NULL);
	struct sockaddr_in sa4;
	struct sockaddr_in6 sa6;
	const struct sockaddr *sa;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
	memset(&sa4, 0, sizeof sa4);
	memset(&sa6, 0, sizeof sa6);
	if (inet_pton(AF_INET, h->o.addr, &sa4.sin_addr) == 1) {
		sa4.sin_family = AF_INET;
		sa4.sin_port = htons((uint16_t)o->port);
		sa = (const struct sockaddr *)&sa4;
	} else if (inet_pton(AF_INET6, h->o.addr, &sa6.sin6_addr) == 1) {
		sa6.sin6_family = AF_INET6;
		sa6.sin6_port = htons((uint16_t)o->port);
		sa = (const struct sockaddr *)&sa6;
		flags |= MHD_USE_IPv6;
	} else {
		snprintf(err, cap, "'%s' is not an IPv4 or IPv6 address", h->o.addr);
		gd_http_stop(h);
		return -1;
	}
	int per_ip = h->o.max_per_address > 0 ? h->o.max_per_address : h->o.max_connections;
	h->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, handler, h,
	                        MHD_OPTION_SOCK_ADDR, sa,
	                        MHD_OPTION_CONNECTION_LIMIT, (unsigned)h->o.max_connections,
	                        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)per_ip,
	                        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024),
	                        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
	                        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
		                        MHD_OPTION_END);
	if (!h->d) {
		snprintf(err, cap, "cannot listen on %s port %d (taken, or not an address of this machine?)", h->o.addr,
		         o->port);
		gd_http_stop(h);
		return -1;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	h->port = di ? di->port : o->port;
	if (pthread_create(&h->waker, NULL, waker_main, h) != 0) {
		snprintf(err, cap, "cannot start a thread");
		gd_http_stop(h);
		return -1;
	}
	h->waker_started = true;
	*out = h;
	return 0;
}

int gd_http_port(const gd_http *h)
{
	return h->port;
}

void gd_http_stop(gd_http *h)
{
	if (!h)
		return;
	h->stopping = 1;
	if (h->waker_started)
		pthread_join(h->waker, NULL);
	if (h->d) {
		wake_streams(h, true);
		MHD_stop_daemon(h->d);
	}
	tjFree(h->jpeg);
	pthread_mutex_destroy(&h->mu);
	pthread_mutex_destroy(&h->jmu);
	free(h);
}
