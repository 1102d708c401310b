/* The game session (device/session/session.h) and the referee's web page's
 * server (device/http/http.h): events numbered in a bounded ring, resync of
 * a reader left behind, requests queued, frames copied only when wanted, the
 * state of a game; and a real server on a free port of 127.0.0.1, spoken to
 * over plain sockets: the files, the PIN, the refused actions and their log
 * lines, the methods, the bounds, the event stream and its resume. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "http.h"
#include "loop.h"
#include "referee.h"
#include "session.h"

/* --- the session --- */

static void publish_events(gd_session *s, int n, int from)
{
	char ev[64];
	for (int i = 0; i < n; i++) {
		int len = snprintf(ev, sizeof ev, "{\"type\":\"move\",\"n\":%d}", from + i);
		assert_true(gd_session_event(s, ev, (size_t)len) > 0);
	}
}

static void test_events(void **state)
{
	(void)state;
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, NULL), 0);
	char buf[256];
	long id = -1;
	assert_int_equal(gd_session_last(s), 0);
	assert_int_equal(gd_session_read(s, 0, buf, sizeof buf, &id), 0);
	assert_int_equal(gd_session_event(s, "{\"a\":1}", 7), 1);
	assert_int_equal(gd_session_event(s, "{\"a\":2}", 7), 2);
	/* pending until published */
	assert_int_equal(gd_session_last(s), 0);
	assert_int_equal(gd_session_read(s, 0, buf, sizeof buf, &id), 0);
	assert_false(gd_session_wait(s, 0, 1));
	assert_int_equal(gd_session_publish(s, "{\"event\":2}", "(;SZ[9])"), 0);
	assert_true(gd_session_wait(s, 0, 1));
	assert_int_equal(gd_session_last(s), 2);
	assert_int_equal(gd_session_read(s, 0, buf, sizeof buf, &id), 7);
	assert_int_equal(id, 1);
	assert_string_equal(buf, "{\"a\":1}");
	assert_int_equal(gd_session_read(s, 1, buf, sizeof buf, &id), 7);
	assert_int_equal(id, 2);
	assert_string_equal(buf, "{\"a\":2}");
	assert_int_equal(gd_session_read(s, 2, buf, sizeof buf, &id), 0);
	/* a buffer too small, a reader of another process (ahead of the last) */
	assert_int_equal(gd_session_read(s, 0, buf, 7, &id), GD_SESSION_ETOOBIG);
	assert_int_equal(gd_session_read(s, 3, buf, sizeof buf, &id), GD_SESSION_RESYNC);
	size_t len = 0;
	char *st = gd_session_state(s, &len);
	assert_string_equal(st, "{\"event\":2}");
	assert_int_equal(len, 11);
	free(st);
	char *sgf = gd_session_sgf(s, NULL);
	assert_string_equal(sgf, "(;SZ[9])");
	free(sgf);
	/* NULL keeps the last */
	assert_int_equal(gd_session_publish(s, NULL, NULL), 0);
	st = gd_session_state(s, NULL);
	assert_string_equal(st, "{\"event\":2}");
	free(st);
	gd_session_free(s);
}

static void test_ring(void **state)
{
	(void)state;
	gd_session_opts o;
	gd_session_opts_init(&o);
	o.ring = 8;
	o.event_max = 100;
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, &o), 0);
	publish_events(s, 20, 1);
	assert_int_equal(gd_session_publish(s, NULL, NULL), 0);
	char buf[256];
	long id = 0;
	/* events 13..20 are held; a reader after 11 or before is behind */
	assert_int_equal(gd_session_read(s, 11, buf, sizeof buf, &id), GD_SESSION_RESYNC);
	assert_int_equal(gd_session_read(s, 0, buf, sizeof buf, &id), GD_SESSION_RESYNC);
	assert_true(gd_session_read(s, 12, buf, sizeof buf, &id) > 0);
	assert_int_equal(id, 13);
	assert_string_equal(buf, "{\"type\":\"move\",\"n\":13}");
	/* an event longer than event_max is not kept: a reader resyncs over it */
	char big[200];
	memset(big, 'x', sizeof big);
	assert_int_equal(gd_session_event(s, big, sizeof big), 21);
	assert_int_equal(gd_session_publish(s, NULL, NULL), 0);
	assert_int_equal(gd_session_read(s, 20, buf, sizeof buf, &id), GD_SESSION_RESYNC);
	gd_session_free(s);
	o.ring = 1;
	assert_int_equal(gd_session_new(&s, &o), GD_SESSION_EINVAL);
	assert_null(s);
}

static void test_requests(void **state)
{
	(void)state;
	gd_session_opts o;
	gd_session_opts_init(&o);
	o.queue = 3;
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, &o), 0);
	gd_request r;
	assert_int_equal(gd_session_take(s, &r), 0);
	assert_int_equal(gd_session_act(s, GD_ACT_END, "keys"), 0);
	assert_int_equal(gd_session_act(s, GD_ACT_COUNT, "web 127.0.0.1"), 0);
	gd_request c;
	memset(&c, 0, sizeof c);
	c.action = GD_ACT_CORNERS;
	for (int i = 0; i < 8; i++)
		c.corners[i] = 10 * i + 0.5;
	assert_int_equal(gd_session_request(s, &c), 0);
	assert_int_equal(gd_session_act(s, GD_ACT_PASS, "keys"), GD_SESSION_EFULL);
	assert_int_equal(gd_session_act(s, (gd_action)99, "keys"), GD_SESSION_EINVAL);
	assert_int_equal(gd_session_take(s, &r), 1);
	assert_int_equal(r.action, GD_ACT_END);
	assert_string_equal(r.who, "keys");
	assert_int_equal(gd_session_take(s, &r), 1);
	assert_int_equal(r.action, GD_ACT_COUNT);
	assert_string_equal(r.who, "web 127.0.0.1");
	assert_int_equal(gd_session_act(s, GD_ACT_PASS, NULL), 0); /* room again */
	assert_int_equal(gd_session_take(s, &r), 1);
	assert_int_equal(r.action, GD_ACT_CORNERS);
	assert_true(r.corners[7] == 70.5);
	assert_int_equal(gd_session_take(s, &r), 1);
	assert_int_equal(r.action, GD_ACT_PASS);
	assert_int_equal(gd_session_take(s, &r), 0);
	gd_session_free(s);
	/* the names, and what they are for the referee */
	for (int a = 0; a < GD_ACT_COUNT_OF; a++)
		assert_int_equal(gd_action_parse(gd_action_name((gd_action)a)), a);
	assert_int_equal(gd_action_parse("resign"), -1);
	gr_color who;
	assert_int_equal(gd_action_command(GD_ACT_RESIGN_WHITE, &who), GR_CMD_RESIGN);
	assert_int_equal(who, GR_WHITE);
	assert_int_equal(gd_action_command(GD_ACT_ACCEPT, &who), GR_CMD_ACCEPT);
	assert_int_equal(who, GR_EMPTY);
	assert_int_equal(gd_action_command(GD_ACT_NEW_GAME, &who), -1);
}

static void test_frame(void **state)
{
	(void)state;
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, NULL), 0);
	enum { W = 5, H = 3, STRIDE = 17 };
	unsigned char px[STRIDE * H];
	for (int i = 0; i < STRIDE * H; i++)
		px[i] = (unsigned char)(i * 7);
	/* nobody asked: not copied */
	assert_false(gd_session_frame(s, px, W, H, STRIDE));
	unsigned char *rgb = NULL;
	int w = 0, h = 0;
	long serial = -1;
	assert_false(gd_session_frame_copy(s, &rgb, &w, &h, &serial));
	assert_int_equal(serial, 0);
	/* now a viewer asked */
	assert_true(gd_session_frame(s, px, W, H, STRIDE));
	assert_true(gd_session_frame_copy(s, &rgb, &w, &h, &serial));
	assert_int_equal(w, W);
	assert_int_equal(h, H);
	assert_int_equal(serial, 1);
	for (int y = 0; y < H; y++)
		assert_memory_equal(rgb + y * W * 3, px + y * STRIDE, W * 3);
	free(rgb);
	assert_false(gd_session_frame(s, px, 0, H, STRIDE));
	gd_session_free(s);
}

static void test_state(void **state)
{
	(void)state;
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, NULL), 0);
	char *st = gd_session_state_json(s, NULL, NULL, 0, 0);
	assert_string_equal(st, "{\"event\":0}");
	free(st);
	gr_referee *ref = NULL;
	assert_int_equal(gr_referee_new(&ref, 9, NULL, NULL, NULL), 0);
	unsigned char cells[81] = {0};
	assert_int_equal(gr_referee_observe(ref, 1.0, cells), 0);
	cells[2 * 9 + 6] = GR_BLACK; /* G7 */
	assert_int_equal(gr_referee_observe(ref, 2.5, cells), 0);
	publish_events(s, 3, 1);
	publish_events(s, 1, 4);
	const char *count = "{\"t\":9,\"type\":\"count\",\"black\":41}";
	gd_session_event(s, count, strlen(count));
	const double corners[8] = {1, 2, 3, 4, 5, 6, 7, 8.25};
	st = gd_session_state_json(s, ref, corners, 640, 360);
	assert_non_null(st);
	assert_non_null(strstr(st, "{\"event\":5,\"frame\":[640,360],\"corners\":[1.0,2.0,3.0,4.0,5.0,6.0,7.0,8.2"));
	assert_non_null(strstr(st, "\"size\":9,\"to_move\":\"W\",\"board\":[\".........\",\".........\",\"......X..\","));
	assert_non_null(strstr(st, "\"moves\":[[\"B\",\"G7\",2.5]]"));
	assert_non_null(strstr(st, "\"warnings\":{\"B\":0,\"W\":0}"));
	assert_non_null(strstr(st, "\"finished\":false"));
	assert_non_null(strstr(st, "\"count\":{\"t\":9,\"type\":\"count\",\"black\":41}"));
	free(st);
	gd_session_forget_game(s);
	st = gd_session_state_json(s, ref, NULL, 0, 0);
	assert_null(strstr(st, "\"count\""));
	assert_null(strstr(st, "corners"));
	free(st);
	gr_referee_free(ref);
	gd_session_free(s);
}

/* A writer that never waits against a reader copying as fast as it can: the
 * reader sees the numbers in order, each event whole, and resyncs when it
 * falls behind the small ring. */
typedef struct race {
	gd_session *s;
	int n;
	_Atomic int done;
} race;

static void *writer(void *arg)
{
	race *r = arg;
	char ev[64];
	for (int i = 1; i <= r->n; i++) {
		int len = snprintf(ev, sizeof ev, "{\"n\":%d}", i);
		gd_session_event(r->s, ev, (size_t)len);
		if (i % 3 == 0)
			gd_session_publish(r->s, NULL, NULL);
	}
	gd_session_publish(r->s, NULL, NULL);
	r->done = 1;
	return NULL;
}

static void test_race(void **state)
{
	(void)state;
	gd_session_opts o;
	gd_session_opts_init(&o);
	o.ring = 16;
	race r = {.n = 20000};
	assert_int_equal(gd_session_new(&r.s, &o), 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, writer, &r), 0);
	long after = 0, got = 0, resyncs = 0;
	char buf[64];
	while (after < r.n) {
		long id = 0;
		int n = gd_session_read(r.s, after, buf, sizeof buf, &id);
		if (n > 0) {
			assert_int_equal(id, after + 1);
			char want[64];
			snprintf(want, sizeof want, "{\"n\":%ld}", id);
			assert_string_equal(buf, want);
			after = id;
			got++;
		} else if (n == GD_SESSION_RESYNC) {
			long last = gd_session_last(r.s);
			assert_true(last > after);
			after = last;
			resyncs++;
		} else {
			assert_int_equal(n, 0);
			gd_session_wait(r.s, after, 100);
		}
	}
	pthread_join(t, NULL);
	assert_int_equal(after, r.n);
	assert_true(got + resyncs > 0);
	gd_session_free(r.s);
}

/* --- the server --- */

typedef struct logbook {
	pthread_mutex_t mu;
	char text[8192];
} logbook;

static void log_line(const char *line, void *ud)
{
	logbook *b = ud;
	pthread_mutex_lock(&b->mu);
	size_t n = strlen(b->text);
	snprintf(b->text + n, sizeof b->text - n, "%s\n", line);
	pthread_mutex_unlock(&b->mu);
}

static bool logged(logbook *b, const char *what)
{
	pthread_mutex_lock(&b->mu);
	bool yes = strstr(b->text, what) != NULL;
	pthread_mutex_unlock(&b->mu);
	return yes;
}

typedef struct srv {
	gd_session *s;
	gd_http *h;
	logbook log;
	char events_path[64];
} srv;

static srv *start(int max_connections)
{
	srv *v = calloc(1, sizeof *v);
	assert_non_null(v);
	pthread_mutex_init(&v->log.mu, NULL);
	assert_int_equal(gd_session_new(&v->s, NULL), 0);
	gd_http_opts o;
	gd_http_opts_init(&o);
	o.port = 0;
	snprintf(o.pin, sizeof o.pin, "2718");
	snprintf(v->events_path, sizeof v->events_path, "/tmp/goref-test-http-%d.jsonl", (int)getpid());
	FILE *f = fopen(v->events_path, "w");
	assert_non_null(f);
	fputs("{\"type\":\"move\"}\n{\"type\":\"pass\"}\n{\"type\":\"par", f); /* the last line half written */
	fclose(f);
	o.events_path = v->events_path;
	o.log = log_line;
	o.ud = &v->log;
	if (max_connections) {
		o.max_connections = max_connections;
		o.max_per_address = max_connections;
	}
	char err[256];
	assert_int_equal(gd_http_start(&v->h, v->s, &o, err, sizeof err), 0);
	assert_true(gd_http_port(v->h) > 0);
	return v;
}

static void stop(srv *v)
{
	gd_http_stop(v->h);
	gd_session_free(v->s);
	remove(v->events_path);
	pthread_mutex_destroy(&v->log.mu);
	free(v);
}

static int dial(srv *v)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct timeval tv = {10, 0}; /* a hang guard, not a timing check */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)gd_http_port(v->h));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	return fd;
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w <= 0)
			return; /* the server may close early (a body too large) */
		p += w;
		n -= (size_t)w;
	}
}

/* Sends a request (Connection: close) and reads the whole answer into out;
 * returns the status. */
static int ask(srv *v, const char *method, const char *path, const char *headers, const char *body, char *out,
               size_t cap)
{
	int fd = dial(v);
	char req[2048];
	size_t bl = body ? strlen(body) : 0;
	int n = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%sContent-Length: %zu\r\n\r\n",
	                 method, path, headers ? headers : "", bl);
	send_all(fd, req, (size_t)n);
	if (body)
		send_all(fd, body, bl);
	size_t got = 0;
	ssize_t r;
	while (got + 1 < cap && (r = recv(fd, out + got, cap - 1 - got, 0)) > 0)
		got += (size_t)r;
	out[got] = '\0';
	close(fd);
	int status = 0;
	sscanf(out, "HTTP/1.1 %d", &status);
	return status;
}

static void test_pin(void **state)
{
	(void)state;
	assert_true(gd_http_pin_equal("123456", "123456"));
	assert_false(gd_http_pin_equal("123456", "123457"));
	assert_false(gd_http_pin_equal("123456", "12345"));
	assert_false(gd_http_pin_equal("12345", "123456"));
	assert_false(gd_http_pin_equal("", ""));
	char pin[7];
	assert_int_equal(gd_http_make_pin(pin, sizeof pin), 0);
	assert_int_equal(strlen(pin), 6);
	assert_int_equal(strspn(pin, "0123456789"), 6);
	gd_http_opts o;
	gd_http_opts_init(&o);
	char err[200];
	assert_int_equal(gd_http_parse_listen(&o, "8080", err, sizeof err), 0);
	assert_string_equal(o.addr, "127.0.0.1");
	assert_int_equal(o.port, 8080);
	assert_int_equal(gd_http_parse_listen(&o, "0.0.0.0:80", err, sizeof err), 0);
	assert_string_equal(o.addr, "0.0.0.0");
	assert_int_equal(o.port, 80);
	assert_int_equal(gd_http_parse_listen(&o, "[::1]:9000", err, sizeof err), 0);
	assert_string_equal(o.addr, "::1");
	assert_int_equal(gd_http_parse_listen(&o, "localhost:80", err, sizeof err), -1);
	assert_non_null(strstr(err, "not an IPv4 or IPv6 address"));
	assert_int_equal(gd_http_parse_listen(&o, "1.2.3.4:99999", err, sizeof err), -1);
	assert_int_equal(gd_http_parse_listen(&o, "", err, sizeof err), -1);
	/* no PIN, no server */
	gd_session *s = NULL;
	assert_int_equal(gd_session_new(&s, NULL), 0);
	gd_http_opts_init(&o);
	gd_http *h = NULL;
	assert_int_equal(gd_http_start(&h, s, &o, err, sizeof err), -1);
	assert_null(h);
	gd_session_free(s);
}

static void test_files(void **state)
{
	(void)state;
	srv *v = start(0);
	static char out[256 * 1024];
	assert_int_equal(ask(v, "GET", "/", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "Content-Type: text/html"));
	assert_non_null(strstr(out, "<script src=\"/app.js\">"));
	assert_non_null(strstr(out, "Content-Security-Policy: default-src 'self'"));
	assert_int_equal(ask(v, "GET", "/app.js", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "text/javascript"));
	assert_int_equal(ask(v, "GET", "/calibrate", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "calibrate.js"));
	assert_int_equal(ask(v, "HEAD", "/style.css", NULL, NULL, out, sizeof out), 200);
	/* nothing else from the disk */
	assert_int_equal(ask(v, "GET", "/../CMakeLists.txt", NULL, NULL, out, sizeof out), 404);
	assert_int_equal(ask(v, "GET", "/etc/passwd", NULL, NULL, out, sizeof out), 404);
	assert_int_equal(ask(v, "GET", "/index.html", NULL, NULL, out, sizeof out), 404);
	/* the state and the record before any game, then after */
	assert_int_equal(ask(v, "GET", "/state.json", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "\r\n\r\n{\"event\":0}"));
	assert_int_equal(gd_session_publish(v->s, "{\"event\":0,\"size\":9}", "(;GM[1]SZ[9];B[ee])"), 0);
	assert_int_equal(ask(v, "GET", "/state.json", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "{\"event\":0,\"size\":9}"));
	assert_int_equal(ask(v, "GET", "/game.sgf", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "\r\n\r\n(;GM[1]SZ[9];B[ee])"));
	/* the events file, up to its last whole line */
	assert_int_equal(ask(v, "GET", "/game.jsonl", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "\r\n\r\n{\"type\":\"move\"}\n{\"type\":\"pass\"}\n"));
	assert_null(strstr(out, "par"));
	/* no frame yet */
	assert_int_equal(ask(v, "GET", "/snapshot.jpg", NULL, NULL, out, sizeof out), 404);
	stop(v);
}

static void test_snapshot(void **state)
{
	(void)state;
	srv *v = start(0);
	static char out[256 * 1024];
	enum { W = 1280, H = 720 };
	unsigned char *px = malloc(W * H * 3);
	assert_non_null(px);
	for (int i = 0; i < W * H * 3; i++)
		px[i] = (unsigned char)(i / 3 % 251);
	assert_false(gd_session_frame(v->s, px, W, H, W * 3)); /* nobody looks */
	assert_int_equal(ask(v, "GET", "/snapshot.jpg", NULL, NULL, out, sizeof out), 404);
	assert_true(gd_session_frame(v->s, px, W, H, W * 3)); /* a viewer asked */
	assert_int_equal(ask(v, "GET", "/snapshot.jpg", NULL, NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "Content-Type: image/jpeg"));
	char *body = strstr(out, "\r\n\r\n");
	assert_non_null(body);
	body += 4;
	assert_true((unsigned char)body[0] == 0xff && (unsigned char)body[1] == 0xd8);
	free(px);
	stop(v);
}

static void test_actions(void **state)
{
	(void)state;
	srv *v = start(0);
	static char out[64 * 1024];
	gd_request r;
	assert_int_equal(ask(v, "POST", "/action/pass", NULL, NULL, out, sizeof out), 403);
	assert_true(logged(&v->log, "web: refused pass from 127.0.0.1: no PIN"));
	assert_int_equal(ask(v, "POST", "/action/end", "X-Goref-Pin: 2719\r\n", NULL, out, sizeof out), 403);
	assert_true(logged(&v->log, "web: refused end from 127.0.0.1: wrong PIN"));
	assert_int_equal(ask(v, "POST", "/action/end", "X-Goref-Pin: 27180\r\n", NULL, out, sizeof out), 403);
	assert_int_equal(gd_session_take(v->s, &r), 0); /* nothing reached the game */
	/* actions are POST only */
	assert_int_equal(ask(v, "GET", "/action/pass", "X-Goref-Pin: 2718\r\n", NULL, out, sizeof out), 405);
	assert_true(logged(&v->log, "refused GET /action/pass from 127.0.0.1: actions are POST only"));
	assert_int_equal(ask(v, "PUT", "/action/pass", "X-Goref-Pin: 2718\r\n", NULL, out, sizeof out), 405);
	assert_int_equal(ask(v, "DELETE", "/", NULL, NULL, out, sizeof out), 405);
	assert_int_equal(gd_session_take(v->s, &r), 0);
	/* with the PIN */
	assert_int_equal(ask(v, "POST", "/action/resign-white", "X-Goref-Pin: 2718\r\n", NULL, out, sizeof out), 200);
	assert_non_null(strstr(out, "{\"ok\":true,\"action\":\"resign-white\"}"));
	assert_int_equal(ask(v, "POST", "/action/fly", "X-Goref-Pin: 2718\r\n", NULL, out, sizeof out), 404);
	assert_int_equal(ask(v, "POST", "/action/corners", "X-Goref-Pin: 2718\r\n", NULL, out, sizeof out), 404);
	assert_int_equal(gd_session_take(v->s, &r), 1);
	assert_int_equal(r.action, GD_ACT_RESIGN_WHITE);
	assert_string_equal(r.who, "web 127.0.0.1");
	assert_int_equal(gd_session_take(v->s, &r), 0);
	/* corners */
	const char *good = "10,20,300.5,20,300,200,10,200";
	assert_int_equal(ask(v, "POST", "/calibrate", NULL, good, out, sizeof out), 403);
	assert_int_equal(ask(v, "POST", "/calibrate", "X-Goref-Pin: 2718\r\n", "1,2,3", out, sizeof out), 400);
	assert_int_equal(ask(v, "POST", "/calibrate", "X-Goref-Pin: 2718\r\n", "1,2,3,4,5,6,7,-8", out, sizeof out), 400);
	assert_int_equal(ask(v, "POST", "/calibrate", "X-Goref-Pin: 2718\r\n", "1,2,3,4,5,6,7,8,9", out, sizeof out), 400);
	assert_int_equal(gd_session_take(v->s, &r), 0);
	assert_int_equal(ask(v, "POST", "/calibrate", "X-Goref-Pin: 2718\r\n", good, out, sizeof out), 200);
	assert_int_equal(gd_session_take(v->s, &r), 1);
	assert_int_equal(r.action, GD_ACT_CORNERS);
	assert_true(r.corners[2] == 300.5 && r.corners[7] == 200);
	/* bounds: a body over 1 KB, headers over the connection's memory */
	char *big = malloc(20000);
	assert_non_null(big);
	memset(big, '1', 19999);
	big[19999] = '\0';
	assert_int_equal(ask(v, "POST", "/calibrate", "X-Goref-Pin: 2718\r\n", big, out, sizeof out), 413);
	char *hdr = malloc(1800);
	assert_non_null(hdr);
	int st = 0;
	{ /* 20 KB of headers, in pieces */
		int fd = dial(v);
		const char *head = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
		send_all(fd, head, strlen(head));
		memset(hdr, 'a', 1790);
		memcpy(hdr, "X-Big: ", 7);
		memcpy(hdr + 1790, "\r\n", 3);
		for (int i = 0; i < 12; i++)
			send_all(fd, hdr, strlen(hdr));
		send_all(fd, "\r\n", 2);
		ssize_t n = recv(fd, out, sizeof out - 1, 0);
		out[n > 0 ? n : 0] = '\0';
		sscanf(out, "HTTP/1.1 %d", &st);
		close(fd);
	}
	assert_true(st == 0 || st >= 400); /* refused, or the connection closed */
	free(hdr);
	free(big);
	assert_int_equal(gd_session_take(v->s, &r), 0);
	stop(v);
}

/* Reads from an event stream until want appears in the text; false when the
 * stream closed first. */
static bool read_until(int fd, char *buf, size_t cap, size_t *len, const char *want)
{
	while (!strstr(buf, want)) {
		if (*len + 1 >= cap)
			return false;
		ssize_t r = recv(fd, buf + *len, cap - 1 - *len, 0);
		if (r <= 0)
			return false;
		*len += (size_t)r;
		buf[*len] = '\0';
	}
	return true;
}

/* GET /events as HTTP/1.0: the stream comes unchunked, to the close (a
 * browser's HTTP/1.1 gets the same bytes in chunks). extra: "?after=N" or
 * header lines. */
static int open_stream(srv *v, const char *extra)
{
	int fd = dial(v);
	char req[512];
	int n = snprintf(req, sizeof req, "GET /events%s HTTP/1.0\r\nHost: x\r\n%s\r\n", extra[0] == '?' ? extra : "",
	                 extra[0] == '?' ? "" : extra);
	send_all(fd, req, (size_t)n);
	return fd;
}

static void test_events_stream(void **state)
{
	(void)state;
	srv *v = start(0);
	publish_events(v->s, 3, 1);
	gd_session_publish(v->s, NULL, NULL);
	static char buf[64 * 1024];
	size_t len = 0;
	buf[0] = '\0';
	int fd = open_stream(v, "");
	assert_true(read_until(fd, buf, sizeof buf, &len, "id: 3\n"));
	assert_non_null(strstr(buf, "Content-Type: text/event-stream"));
	assert_non_null(strstr(buf, "id: 1\ndata: {\"type\":\"move\",\"n\":1}\n\nid: 2\ndata: {\"type\":\"move\",\"n\":2}\n\n"));
	/* an event made while the stream waits reaches it */
	publish_events(v->s, 1, 4);
	gd_session_publish(v->s, NULL, NULL);
	assert_true(read_until(fd, buf, sizeof buf, &len, "id: 4\ndata: {\"type\":\"move\",\"n\":4}\n\n"));
	/* the stream dropped; events made meanwhile; it resumes after the last id seen */
	close(fd);
	publish_events(v->s, 2, 5);
	gd_session_publish(v->s, NULL, NULL);
	len = 0;
	buf[0] = '\0';
	fd = open_stream(v, "Last-Event-ID: 4\r\n");
	assert_true(read_until(fd, buf, sizeof buf, &len, "id: 6\n"));
	assert_null(strstr(buf, "id: 4\n"));
	assert_non_null(strstr(buf, "id: 5\ndata: {\"type\":\"move\",\"n\":5}\n\nid: 6\ndata: {\"type\":\"move\",\"n\":6}\n\n"));
	close(fd);
	/* ?after= as the page's first connection gives it */
	len = 0;
	buf[0] = '\0';
	fd = open_stream(v, "?after=5");
	assert_true(read_until(fd, buf, sizeof buf, &len, "id: 6\n"));
	assert_null(strstr(buf, "id: 5\n"));
	close(fd);
	/* a reader of another process (ahead of the last event) is resynced */
	len = 0;
	buf[0] = '\0';
	fd = open_stream(v, "Last-Event-ID: 900\r\n");
	assert_true(read_until(fd, buf, sizeof buf, &len, "event: resync\ndata: {\"type\":\"resync\",\"last\":6}\n\n"));
	assert_non_null(strstr(buf, "id: 6\nevent: resync"));
	close(fd);
	stop(v);
}

static void test_behind(void **state)
{
	(void)state;
	srv *v = start(0);
	/* a stream that reads nothing while 5000 events go by (more than the
	 * ring): the session never waited for it; when it reads, it is resynced */
	int fd = open_stream(v, "");
	publish_events(v->s, 5000, 1);
	gd_session_publish(v->s, NULL, NULL);
	static char buf[64 * 1024];
	size_t len = 0;
	buf[0] = '\0';
	assert_true(read_until(fd, buf, sizeof buf, &len, "event: resync\ndata: {\"type\":\"resync\",\"last\":5000}"));
	close(fd);
	stop(v);
}

static void test_connections(void **state)
{
	(void)state;
	srv *v = start(4);
	int fds[4];
	for (int i = 0; i < 4; i++)
		fds[i] = open_stream(v, "");
	/* each of the 4 is served (the header arrives) */
	static char buf[8192];
	for (int i = 0; i < 4; i++) {
		size_t len = 0;
		buf[0] = '\0';
		assert_true(read_until(fds[i], buf, sizeof buf, &len, "text/event-stream"));
	}
	/* a fifth is closed at once, without an answer */
	int fd = dial(v);
	send_all(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
	ssize_t r = recv(fd, buf, sizeof buf, 0);
	assert_true(r <= 0);
	close(fd);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	stop(v);
}

/* --- the loop (device/session/loop.h): a command with no board seen is
 * refused before it reaches the journal, so a resume never meets it; one
 * after a position is journalled and refereed --- */
static void test_loop_command_order(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *log = open_memstream(&buf, &len);
	assert_non_null(log);
	gd_loop_opts o;
	gd_loop_opts_init(&o);
	o.log = log;
	gd_loop *l = NULL;
	char err[256] = "";
	assert_int_equal(gd_loop_new(&l, &o, err, sizeof err), 0);
	assert_int_not_equal(gd_loop_command(l, 1.0, GR_CMD_PASS, GR_BLACK, true, err, sizeof err), 0);
	assert_non_null(strstr(err, "no board seen yet"));
	fflush(log);
	assert_int_equal(len, 0); /* nothing journalled */
	assert_null(gd_loop_referee(l));
	unsigned char cells[9 * 9] = {0};
	assert_int_equal(gd_loop_observe(l, 2.0, 9, cells, true, err, sizeof err), 0);
	fflush(log);
	size_t after_position = len;
	assert_true(after_position > 0);
	assert_int_equal(gd_loop_command(l, 3.0, GR_CMD_PASS, GR_BLACK, true, err, sizeof err), 0);
	fflush(log);
	assert_true(len > after_position);
	assert_non_null(gd_loop_referee(l));
	gd_loop_free(l);
	fclose(log);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),  cmocka_unit_test(test_ring),    cmocka_unit_test(test_requests),
		cmocka_unit_test(test_frame),   cmocka_unit_test(test_state),   cmocka_unit_test(test_race),
		cmocka_unit_test(test_pin),     cmocka_unit_test(test_files),   cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_actions), cmocka_unit_test(test_events_stream), cmocka_unit_test(test_behind),
		cmocka_unit_test(test_connections), cmocka_unit_test(test_loop_command_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
