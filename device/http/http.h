/*
 * goref program: the referee's web page, served from `goref watch` by an
 * embedded HTTP server (libmicrohttpd) in threads of its own.
 *
 * A client of the game session (device/session/session.h) like the keys:
 *
 *   GET  /               the live page (web/index.html, embedded at build time)
 *   GET  /calibrate      the grid's corners by hand (web/calibrate.html)
 *   GET  /state.json     the session's state: board, moves, warnings, count
 *   GET  /events         Server-Sent Events: the JSON objects of --events,
 *                        `id:` the event number; Last-Event-ID (or ?after=N)
 *                        resumes after it; `event: resync` when the reader is
 *                        further behind than the session's ring
 *   GET  /game.sgf       the record so far (from memory)
 *   GET  /game.jsonl     the events file (the one file read from the disk)
 *   GET  /snapshot.jpg   the camera's latest view, made at most once a second
 *   POST /action/NAME    pass, end, count, accept, restore, resign-black,
 *                        resign-white, new-game: the PIN in the header
 *                        X-Goref-Pin, else 403 and a log line
 *   POST /calibrate      body "x1,y1,...,x4,y4" (the grid's corners in the
 *                        frame's pixels, clockwise from the top-left), PIN
 *
 * Bounds: request headers and URL within 16 KB of a connection's memory,
 * a body of at most 1 KB, at most max_connections connections (128; 64 from
 * one address: 20 viewers behind one NAT hold 20 streams and fetch), idle connections closed after 60 s, SSE pings every 15 s. A
 * viewer that does not read holds nothing of the frame loop: the SSE
 * reader copies events out of the session's ring and is suspended while
 * there is nothing new.
 *
 * Nothing here prints: what is worth a line (a refused action, the server's
 * own errors) goes to the log callback.
 */
#ifndef GOREF_DEVICE_HTTP_H
#define GOREF_DEVICE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

typedef struct gd_http_opts {
	char addr[64];          /* an IPv4 or IPv6 address to listen on (default 127.0.0.1) */
	int port;               /* 0: any free port (gd_http_port tells which) */
	char pin[64];           /* the operator's PIN: needed for every POST; never empty */
	const char *events_path;/* the events file served as /game.jsonl (NULL: 404) */
	int max_connections;    /* default 128 */
	int max_per_address;    /* connections from one address, default 64 */
	void (*log)(const char *line, void *ud); /* one line, no newline (NULL: none) */
	void *ud;
} gd_http_opts;

void gd_http_opts_init(gd_http_opts *o);

/* "[ADDR:]PORT" ("8080", "0.0.0.0:8080", "[::1]:8080") into o->addr and
 * o->port. Returns 0, or -1 with why in err. */
int gd_http_parse_listen(gd_http_opts *o, const char *text, char *err, size_t cap);

/* A PIN of 6 random digits (from /dev/urandom) into pin (7 bytes at least).
 * Returns 0 or -1. */
int gd_http_make_pin(char *pin, size_t cap);

/* True when the PINs are the same, in a time that does not depend on where
 * they differ (both at most 63 bytes; a longer one never matches). */
bool gd_http_pin_equal(const char *a, const char *b);

typedef struct gd_http gd_http;

/* Starts serving session s (which must outlive the server). Returns 0, or
 * -1 with why in err (a bad address, the port taken, no PIN). */
int gd_http_start(gd_http **out, gd_session *s, const gd_http_opts *o, char *err, size_t cap);
/* The port listened on. */
int gd_http_port(const gd_http *h);
/* Closes every connection and stops; NULL-safe. */
void gd_http_stop(gd_http *h);

/* The page's files, embedded at build time (web/, by cmake/embed.cmake). */
typedef struct gd_web_file {
	const char *path; /* "/", "/calibrate", "/style.css" ... */
	const char *type; /* its Content-Type */
	const unsigned char *data;
	size_t len;
} gd_web_file;
extern const gd_web_file gd_web_files[];
extern const int gd_web_nfiles;

#endif
