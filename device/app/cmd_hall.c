/* goref hall: the tournament director's page (issue 16). Subscribes to
 * every board of a hall on the broker (device/mqtt/) and serves, with
 * libmicrohttpd, one page with a tile a board: its move number, its last
 * ruling (the tile flashes), warnings, result, and offline when its Pi is
 * gone; the director's actions (end, count, accept) go to the board's control
 * topic, with the hall's PIN. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli.h"
#include "mqtt.h"
#include "settings.h"

extern const unsigned char goref_hall_page[];
extern const unsigned long goref_hall_page_len;

static const char hall_usage[] =
	"usage: goref hall --mqtt HOST[:PORT] --hall NAME --http [ADDR:]PORT [options]\n"
	"\n"
	"The director's page of a hall of boards: every board that publishes to the\n"
	"broker under goref/NAME/ (goref watch --mqtt) as a tile with its move\n"
	"number, last ruling, warnings and result; a ruling flashes its tile, a\n"
	"board whose Pi is gone is marked offline, a click opens the board's page.\n"
	"\n"
	"  --mqtt HOST[:PORT]  the broker (port 1883, 8883 with --cafile)\n"
	"  --hall NAME         the hall (a topic level)\n"
	"  --http [ADDR:]PORT  where the page is served (default address 127.0.0.1;\n"
	"                      0.0.0.0 for the hall's network)\n"
	"  --user U            the hall's broker user (the director: the boards whose\n"
	"                      settings name it take its actions)\n"
	"  --password-file F   the broker password, first line of F (or the\n"
	"                      environment's GOREF_MQTT_PASSWORD)\n"
	"  --cafile F          TLS: the CA of the broker's certificate\n"
	"  --pin PIN           the director's PIN for end, count, accept (default: one\n"
	"                      made up and printed at the start)\n"
	"  --log FILE          every event applied as a JSON line (board, number,\n"
	"                      lag from its \"wall\" when it has one)\n"
	"  --config FILE       the hall's settings, in goref.conf's form: mqtt, hall,\n"
	"                      http, pin, mqtt_user (--user), mqtt_password,\n"
	"                      mqtt_cafile; the options given here go over them\n"
	"\n"
	"Exit status: 0 stopped (Ctrl-C), 2 the broker or the port failed,\n"
	"64 a usage error.\n";

enum { RING = 8192, MAX_VIEWERS = 64, BODY_MAX = 512 };

typedef struct update {
	uint64_t seq;
	char *json;
	size_t len;
} update;

typedef struct hall_srv {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	update ring[RING];
	uint64_t seq;       /* the last update's number */
	bool stopping;
	FILE *log;
	char pin[64];
	bool control;       /* a broker user: actions can be sent */
	gm_hall *hall;
	char hall_name[65];
} hall_srv;

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A growing string. */
typedef struct sbuf {
	char *p;
	size_t len, cap;
	bool bad;
} sbuf;

static void sb_add(sbuf *s, const char *t, size_t n)
{
	if (s->bad)
		return;
	if (s->len + n + 1 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 512;
		while (nc < s->len + n + 1)
			nc *= 2;
		char *p = realloc(s->p, nc);
		if (!p) {
			s->bad = true;
			return;
		}
		s->p = p;
		s->cap = nc;
	}
	memcpy(s->p + s->len, t, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static void sb_printf(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *s, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_add(s, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void sb_json_str(sbuf *s, const char *t)
{
	sb_add(s, "\"", 1);
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			sb_add(s, e, 2);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
			sb_printf(s, "\\u%04x", c);
		} else {
			sb_add(s, (const char *)&c, 1);
		}
	}
	sb_add(s, "\"", 1);
}

static void tile_json(sbuf *s, const gm_tile *t)
{
	sb_add(s, "{\"board\":", 9);
	sb_json_str(s, t->board);
	sb_printf(s, ",\"n\":%" PRIu64 ",\"online\":%s,\"status\":%s,\"moves\":%d,\"warnings\":[%d,%d],\"type\":", t->n,
	          t->online ? "true" : "false", t->has_status ? "true" : "false", t->moves, t->warnings[0],
	          t->warnings[1]);
	sb_json_str(s, t->last_type);
	sb_add(s, ",\"ruling\":", 10);
	sb_json_str(s, t->last_ruling);
	sb_add(s, ",\"result\":", 10);
	sb_json_str(s, t->result);
	sb_add(s, ",\"page\":", 8);
	sb_json_str(s, t->page);
	sb_add(s, "}", 1);
}

static bool is_ruling(const char *type)
{
	static const char *const rulings[] = {"illegal",     "double_move", "missed_capture", "wrong_removal", "takeback",
	                                      "moved_stone", "disturbed",   "warning",        "result"};
	for (size_t i = 0; i < sizeof rulings / sizeof rulings[0]; i++)
		if (!strcmp(type, rulings[i]))
			return true;
	return false;
}

/* From the hall's network thread: the tile as it is now, to every viewer. */
static void on_update(void *ud, gm_update what, const gm_tile *t, const char *json, size_t len)
{
	hall_srv *h = ud;
	double ev_wall = 0;
	if (what == GM_UP_EVENT && json) {
		/* the load generator's events carry the time they were made */
		char tmp[64];
		const char *w = NULL;
		for (size_t i = 0; i + 7 < len; i++)
			if (!memcmp(json + i, "\"wall\":", 7)) {
				w = json + i + 7;
				break;
			}
		if (w) {
			size_t k = 0;
			while (k + 1 < sizeof tmp && w + k < json + len && (w[k] == '.' || (w[k] >= '0' && w[k] <= '9')))
				k++;
			memcpy(tmp, w, k);
			tmp[k] = '\0';
			ev_wall = atof(tmp);
		}
	}
	sbuf s = {0};
	tile_json(&s, t);
	if (s.bad || s.len < 2) {
		free(s.p);
		return;
	}
	s.len--; /* the closing brace */
	sb_printf(&s, ",\"kind\":\"%s\",\"flash\":%s", what == GM_UP_EVENT ? "event" : what == GM_UP_POSITION ? "position" : "status",
	          what == GM_UP_EVENT && is_ruling(t->last_type) ? "true" : "false");
	if (ev_wall > 0)
		sb_printf(&s, ",\"wall\":%.6f", ev_wall);
	pthread_mutex_lock(&h->mu);
	uint64_t seq = ++h->seq;
	sb_printf(&s, ",\"seq\":%" PRIu64 "}", seq);
	if (s.bad) {
		h->seq--;
		pthread_mutex_unlock(&h->mu);
		free(s.p);
		return;
	}
	update *u = &h->ring[seq % RING];
	free(u->json);
	u->seq = seq;
	u->json = s.p;
	u->len = s.len;
	pthread_cond_broadcast(&h->cv);
	if (h->log && what == GM_UP_EVENT) {
		fprintf(h->log, "{\"board\":\"%s\",\"n\":%" PRIu64 ",\"type\":\"%s\"", t->board, t->n, t->last_type);
		if (ev_wall > 0)
			fprintf(h->log, ",\"lag_ms\":%.3f", (wall_now() - ev_wall) * 1e3);
		fputs("}\n", h->log);
		fflush(h->log);
	}
	pthread_mutex_unlock(&h->mu);
}

static void trace(void *ud, int level, const char *msg)
{
	(void)ud;
	(void)level;
	fprintf(stderr, "goref hall: %s\n", msg);
}

/* ---- the page's connections ---- */

typedef struct sse_client {
	hall_srv *h;
	uint64_t next;      /* the next update to send */
	char buf[16384];
	size_t have, off;
	double last_write;
} sse_client;

static ssize_t sse_read(void *cls, uint64_t pos, char *out, size_t max)
{
	(void)pos;
	sse_client *c = cls;
	hall_srv *h = c->h;
	if (c->off < c->have) { /* what a short read left */
		size_t n = c->have - c->off < max ? c->have - c->off : max;
		memcpy(out, c->buf + c->off, n);
		c->off += n;
		return (ssize_t)n;
	}
	c->have = c->off = 0;
	pthread_mutex_lock(&h->mu);
	while (!h->stopping && c->next > h->seq) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 15;
		if (pthread_cond_timedwait(&h->cv, &h->mu, &until) == ETIMEDOUT)
			break;
	}
	if (h->stopping) {
		pthread_mutex_unlock(&h->mu);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	if (c->next > h->seq) { /* a quiet while: a comment keeps the connection */
		pthread_mutex_unlock(&h->mu);
		memcpy(c->buf, ": ping\n\n", 8);
		c->have = 8;
	} else {
		if (h->seq - c->next >= RING - 16) { /* fell too far behind: the page reloads the tiles */
			c->next = h->seq + 1;
			pthread_mutex_unlock(&h->mu);
			c->have = (size_t)snprintf(c->buf, sizeof c->buf, "event: reset\ndata: {}\n\n");
		} else {
			/* as many updates as fit */
			while (c->next <= h->seq) {
				const update *u = &h->ring[c->next % RING];
				char head[40];
				int hn = snprintf(head, sizeof head, "id: %" PRIu64 "\ndata: ", u->seq);
				if (c->have + (size_t)hn + u->len + 2 > sizeof c->buf)
					break;
				memcpy(c->buf + c->have, head, (size_t)hn);
				memcpy(c->buf + c->have + hn, u->json, u->len);
				c->have += (size_t)hn + u->len;
				c->buf[c->have++] = '\n';
				c->buf[c->have++] = '\n';
				c->next++;
			}
			pthread_mutex_unlock(&h->mu);
		}
	}
	size_t n = c->have < max ? c->have : max;
	memcpy(out, c->buf, n);
	c->off = n;
	return (ssize_t)n;
}

static void sse_free(void *cls)
{
	free(cls);
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code, const char *type, const char *body,
                             size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body, mode);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	enum MHD_Result ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned code, const char *text)
{
	return reply(conn, code, "text/plain; charset=utf-8", text, strlen(text), MHD_RESPMEM_MUST_COPY);
}

/* The PIN, compared in constant time. */
static bool pin_ok(const char *want, const char *got)
{
	size_t lw = strlen(want), lg = got ? strlen(got) : 0;
	unsigned char d = lw != lg || lw == 0;
	for (size_t i = 0; i < lw; i++)
		d |= (unsigned char)(want[i] ^ (i < lg ? got[i] : 0));
	return d == 0;
}

typedef struct post_body {
	char data[BODY_MAX + 1];
	size_t len;
	bool too_long;
} post_body;

/* key=value&... (names, actions and PINs need no decoding) */
static bool form_value(const char *body, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);
	for (const char *p = body; p && *p;) {
		const char *amp = strchr(p, '&');
		size_t seg = amp ? (size_t)(amp - p) : strlen(p);
		if (seg > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			size_t vl = seg - kl - 1;
			if (vl >= cap)
				return false;
			memcpy(out, p + kl + 1, vl);
			out[vl] = '\0';
			return true;
		}
		p = amp ? amp + 1 : NULL;
	}
	return false;
}

static void client_ip(struct MHD_Connection *conn, char *ip, size_t cap)
{
	snprintf(ip, cap, "?");
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, ip,
		          (socklen_t)cap);
}

static enum MHD_Result control(hall_srv *h, struct MHD_Connection *conn, const post_body *b)
{
	char ip[64], board[80] = "", action[32] = "", pin[80] = "";
	client_ip(conn, ip, sizeof ip);
	if (b->too_long)
		return reply_text(conn, 413, "too long\n");
	form_value(b->data, "board", board, sizeof board);
	form_value(b->data, "action", action, sizeof action);
	form_value(b->data, "pin", pin, sizeof pin);
	if (!h->control) {
		fprintf(stderr, "goref hall: refused %s to board %s from %s: the hall has no broker user\n", action, board, ip);
		return reply_text(conn, 403, "this hall sends no actions (no --user)\n");
	}
	if (!pin_ok(h->pin, pin)) {
		fprintf(stderr, "goref hall: refused %s to board %s from %s: wrong PIN\n", action, board, ip);
		return reply_text(conn, 403, "wrong PIN\n");
	}
	int a = gm_action_parse(action);
	if (a < 0 || !gm_name_ok(board)) {
		fprintf(stderr, "goref hall: refused a malformed action from %s\n", ip);
		return reply_text(conn, 400, "board=ID&action=end|count|accept&pin=PIN\n");
	}
	if (gm_hall_control(h->hall, board, (gm_action)a) != GM_OK)
		return reply_text(conn, 503, "the broker is not reachable\n");
	fprintf(stderr, "goref hall: %s sent to board %s (from %s)\n", action, board, ip);
	return reply_text(conn, 200, "sent\n");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state)
{
	(void)version;
	hall_srv *h = cls;
	bool post = !strcmp(method, MHD_HTTP_METHOD_POST);
	if (post) {
		if (strcmp(url, "/control"))
			return reply_text(conn, 404, "not found\n");
		post_body *b = *state;
		if (!b) {
			b = calloc(1, sizeof *b);
			if (!b)
				return MHD_NO;
			*state = b;
			return MHD_YES;
		}
		if (*upload_size) {
			if (b->len + *upload_size > BODY_MAX)
				b->too_long = true;
			else {
				memcpy(b->data + b->len, upload, *upload_size);
				b->len += *upload_size;
				b->data[b->len] = '\0';
			}
			*upload_size = 0;
			return MHD_YES;
		}
		return control(h, conn, b);
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, 405, "GET or POST\n");
	if (!strcmp(url, "/"))
		return reply(conn, 200, "text/html; charset=utf-8", (const char *)goref_hall_page, goref_hall_page_len,
		             MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/tiles")) {
		enum { CAP = 4096 };
		gm_tile *tiles = malloc(CAP * sizeof *tiles);
		if (!tiles)
			return MHD_NO;
		pthread_mutex_lock(&h->mu);
		uint64_t seq = h->seq; /* the tiles are at least as new as this */
		pthread_mutex_unlock(&h->mu);
		int n = gm_hall_tiles(h->hall, tiles, CAP);
		if (n > CAP)
			n = CAP;
		gm_hall_stats st;
		gm_hall_get_stats(h->hall, &st);
		sbuf s = {0};
		sb_add(&s, "{\"hall\":", 8);
		sb_json_str(&s, h->hall_name);
		sb_printf(&s, ",\"seq\":%" PRIu64 ",\"control\":%s,\"connected\":%s,\"applied\":%" PRIu64 ",\"repeats\":%" PRIu64
		          ",\"tiles\":[", seq, h->control ? "true" : "false", st.connected ? "true" : "false", st.applied,
		          st.repeats);
		for (int i = 0; i < n; i++) {
			if (i)
				sb_add(&s, ",", 1);
			tile_json(&s, &tiles[i]);
		}
		sb_add(&s, "]}", 2);
		free(tiles);
		if (s.bad) {
			free(s.p);
			return MHD_NO;
		}
		enum MHD_Result r = reply(conn, 200, "application/json", s.p, s.len, MHD_RESPMEM_MUST_FREE);
		return r;
	}
	if (!strcmp(url, "/events")) {
		sse_client *c = calloc(1, sizeof *c);
		if (!c)
			return MHD_NO;
		c->h = h;
		const char *last = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
		const char *after = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "after");
		pthread_mutex_lock(&h->mu);
		uint64_t from = h->seq + 1;
		const char *v = last ? last : after;
		if (v && *v) {
			uint64_t id = strtoull(v, NULL, 10);
			if (id <= h->seq)
				from = id + 1;
		}
		c->next = from;
		pthread_mutex_unlock(&h->mu);
		struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, sse_read, c, sse_free);
		if (!r) {
			free(c);
			return MHD_NO;
		}
		MHD_add_response_header(r, "Content-Type", "text/event-stream");
		MHD_add_response_header(r, "Cache-Control", "no-store");
		enum MHD_Result ret = MHD_queue_response(conn, 200, r);
		MHD_destroy_response(r);
		return ret;
	}
	return reply_text(conn, 404, "not found\n");
}

static void request_done(void *cls, struct MHD_Connection *conn, void **state, enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)conn;
	(void)toe;
	free(*state);
	*state = NULL;
}

static bool read_first_line(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)cap, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\r\n")] = '\0';
	return ok;
}

/* The settings file's values for the hall, under what the options gave. */
static int hall_config(const char *path, gc_settings *cfg, const char **mqtt, const char **hall, const char **http,
                       const char **pin, const char **user, const char **cafile)
{
	gc_settings_init(cfg);
	if (cli_load_settings(cfg, path) != 0)
		return EXIT_INPUT;
	const char *vals[6] = {cfg->mqtt, cfg->hall, cfg->http, cfg->pin, cfg->mqtt_user, cfg->mqtt_cafile};
	const char **slots[6] = {mqtt, hall, http, pin, user, cafile};
	for (int k = 0; k < 6; k++)
		if (!*slots[k] && vals[k][0])
			*slots[k] = vals[k];
	return 0;
}

int cmd_hall(int argc, char **argv)
{
	const char *mqtt = NULL, *hall = NULL, *http = NULL, *user = NULL, *pwfile = NULL, *cafile = NULL, *pin = NULL;
	const char *logpath = NULL, *config = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(hall_usage, stdout);
			return EXIT_OK;
		}
		const char **slot = !strcmp(a, "--mqtt") ? &mqtt : !strcmp(a, "--hall") ? &hall : !strcmp(a, "--http") ? &http
		                  : !strcmp(a, "--user") ? &user : !strcmp(a, "--password-file") ? &pwfile
		                  : !strcmp(a, "--cafile") ? &cafile : !strcmp(a, "--pin") ? &pin
		                  : !strcmp(a, "--log") ? &logpath : !strcmp(a, "--config") ? &config : NULL;
		if (!slot) {
			fprintf(stderr, "goref hall: unknown argument '%s'\n\n%s", a, hall_usage);
			return EXIT_USAGE;
		}
		if (i + 1 >= argc || !argv[i + 1][0]) {
			fprintf(stderr, "goref hall: %s needs a value\n", a);
			return EXIT_USAGE;
		}
		*slot = argv[++i];
	}
	static gc_settings cfg; /* its strings are the options' values from here on */
	if (config) {
		if (hall_config(config, &cfg, &mqtt, &hall, &http, &pin, &user, &cafile) != 0)
			return EXIT_INPUT;
		fprintf(stderr, "goref hall: settings from %s\n", config);
	}
	if (!mqtt || !hall || !http) {
		fprintf(stderr, "goref hall: --mqtt, --hall and --http are needed (or mqtt, hall and http in --config)\n\n%s",
		        hall_usage);
		return EXIT_USAGE;
	}
	char host[256];
	int port = 0;
	if (gm_parse_hostport(mqtt, host, sizeof host, &port) != GM_OK) {
		fprintf(stderr, "goref hall: --mqtt takes HOST[:PORT], not '%s'\n", mqtt);
		return EXIT_USAGE;
	}
	if (!gm_name_ok(hall)) {
		fprintf(stderr, "goref hall: --hall must be 1 to 64 of A-Z a-z 0-9 _ . -\n");
		return EXIT_USAGE;
	}
	/* [ADDR:]PORT */
	char addr[64] = "127.0.0.1";
	const char *colon = strrchr(http, ':');
	const char *ps = colon ? colon + 1 : http;
	if (colon) {
		size_t al = (size_t)(colon - http);
		if (al == 0 || al >= sizeof addr) {
			fprintf(stderr, "goref hall: --http takes [ADDR:]PORT\n");
			return EXIT_USAGE;
		}
		memcpy(addr, http, al);
		addr[al] = '\0';
	}
	int hport = 0;
	struct sockaddr_in sin;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	if (!cli_parse_int("--http", ps, 1, 65535, &hport) || inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "goref hall: --http takes [ADDR:]PORT with an IPv4 address, not '%s'\n", http);
		return EXIT_USAGE;
	}
	sin.sin_port = htons((uint16_t)hport);
	char password[GC_PATH_CAP] = "";
	const char *envpw = getenv("GOREF_MQTT_PASSWORD");
	if (pwfile) {
		if (!read_first_line(pwfile, password, sizeof password)) {
			fprintf(stderr, "goref hall: cannot read %s: %s\n", pwfile, strerror(errno));
			return EXIT_INPUT;
		}
	} else if (config && cfg.mqtt_password[0]) {
		snprintf(password, sizeof password, "%s", cfg.mqtt_password);
	} else if (envpw) {
		snprintf(password, sizeof password, "%s", envpw);
	}
	hall_srv *h = calloc(1, sizeof *h);
	if (!h)
		return EXIT_INPUT;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	snprintf(h->hall_name, sizeof h->hall_name, "%s", hall);
	h->control = user != NULL;
	if (pin) {
		snprintf(h->pin, sizeof h->pin, "%s", pin);
	} else {
		unsigned v = 0;
		int fd = open("/dev/urandom", O_RDONLY);
		if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
			v = (unsigned)time(NULL) ^ (unsigned)getpid();
		if (fd >= 0)
			close(fd);
		snprintf(h->pin, sizeof h->pin, "%06u", v % 1000000u);
		if (h->control)
			fprintf(stderr, "goref hall: the director's PIN is %s\n", h->pin);
	}
	int status = EXIT_OK;
	struct MHD_Daemon *d = NULL;
	if (logpath && !(h->log = fopen(logpath, "w"))) {
		fprintf(stderr, "goref hall: cannot write %s: %s\n", logpath, strerror(errno));
		status = EXIT_INPUT;
		goto done;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	gm_hall_opts o;
	gm_hall_opts_init(&o);
	o.conn.host = host;
	o.conn.port = port;
	o.conn.username = user;
	o.conn.password = user || password[0] ? password : NULL;
	o.conn.cafile = cafile;
	o.conn.trace = trace;
	o.hall = hall;
	o.on_update = on_update;
	o.ud = h;
	char err[512];
	if (gm_hall_new(&h->hall, &o, err, sizeof err) != GM_OK) {
		fprintf(stderr, "goref hall: %s\n", err);
		status = EXIT_INPUT;
		goto done;
	}
	d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, handle, h,
	                     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin, MHD_OPTION_CONNECTION_LIMIT,
	                     (unsigned)MAX_VIEWERS, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)16,
	                     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
	                     (size_t)65536, MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "goref hall: cannot serve on %s:%d: %s\n", addr, hport, strerror(errno));
		status = EXIT_INPUT;
		goto done;
	}
	fprintf(stderr, "goref hall: hall %s on %s, the page on http://%s:%d/\n", hall, mqtt, addr, hport);
	while (!stop_flag) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
	{
		gm_hall_stats st;
		gm_hall_get_stats(h->hall, &st);
		fprintf(stderr,
		        "goref hall: stopped: %" PRIu64 " events applied, %" PRIu64 " repeats dropped, %" PRIu64
		        " out of order dropped, %" PRIu64 " resends asked, %" PRIu64 " malformed\n",
		        st.applied, st.repeats, st.gaps, st.resend_asks, st.malformed);
	}
done:
	pthread_mutex_lock(&h->mu);
	h->stopping = true;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
	if (d)
		MHD_stop_daemon(d);
	gm_hall_free(h->hall);
	if (h->log)
		fclose(h->log);
	for (int i = 0; i < RING; i++)
		free(h->ring[i].json);
	pthread_mutex_destroy(&h->mu);
	pthread_cond_destroy(&h->cv);
	free(h);
	return status;
}
