/* goref watch: the live game. Capture, pipeline, referee; rulings on the
 * terminal the moment they happen; the journal, the SGF and the events
 * written as the game goes; operator keys; Ctrl-C ends cleanly.
 * Built only with vision/ (GOREF_HAVE_VISION). */
#ifdef GOREF_HAVE_VISION
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cvwrap.h"
#include "http.h"
#include "journal.h"
#include "loop.h"
#include "session.h"
#include "sgf.h"
#include "settings.h"
#include "stop.h"
#include "v4l2.h"
#ifdef GOREF_HAVE_MQTT
#include "watch_mqtt.h"
#endif

static const char watch_usage[] =
	"usage: goref watch [--device /dev/video0 | - | DIR] [options]\n"
	"\n"
	"Referees a live game: reads the camera, waits for the board to be still\n"
	"and clear of hands, reads the stones and rules under the Chinese rules.\n"
	"Rulings show on the terminal the moment they happen (with the bell).\n"
	"Every position accepted and every operator command goes to the journal,\n"
	"on the disk, before it is acted on: after a crash, a power cut or kill -9,\n"
	"run the same command again and the game goes on with every move.\n"
	"\n"
	"  --config FILE     the settings (default goref.conf when it exists; goref\n"
	"                    calibrate writes it): the options below go over it\n"
	"  --device D        a V4L2 camera (default /dev/video0), - for raw frames\n"
	"                    on stdin (the Pi's camera: rpicam-vid -t 0 -n --codec\n"
	"                    yuv420 -o - | goref watch --device - --size 1280x720\n"
	"                    --format yuv420), or a folder of frames (a test)\n"
	"  --size WxH        frame size (raw frames: needed; a camera: asked for)\n"
	"  --format F        raw frames: rgb24 (default), yuv420, yuv420-limited\n"
	"  --stride N        raw frames: bytes from one row to the next\n"
	"  --fps F           raw frames and folders without times: frames a second\n"
	"  --speed X         a folder: play it at X times its own pace (0: as fast\n"
	"                    as it reads; default 1)\n"
	"  --board N         9, 13 or 19 (default 19)\n"
	"  --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4\n"
	"                    the grid's four corner intersections in the frames'\n"
	"                    pixels, clockwise from the top-left (clicked by a\n"
	"                    person; over the settings' corners): no search\n"
	"  --rotate DEG      turn the camera's view to the players' view (Black's\n"
	"                    side at the bottom): 0, 90, 180, 270\n"
	"  --still S         how long the board must be still (default 0.3 s)\n"
	"  --komi S, --persist N, --repetition RULE, --setup   as in goref referee\n"
	"  --journal FILE    the journal (default goref-game.log)\n"
	"  --sgf FILE        the record, rewritten after every change (default\n"
	"                    goref-game.sgf)\n"
	"  --events FILE     the events as JSON lines (default goref-game.jsonl)\n"
	"  --resume          go on with the game in the journal (the default when\n"
	"                    the journal holds one; this makes it a must)\n"
	"  --new             start a new game: an old journal is kept as FILE.N\n"
	"  --quiet           no event lines on the terminal (rulings still ring)\n"
	"  --http [ADDR:]PORT  serve the referee's page (the board, the camera's\n"
	"                    view, rulings, the count, the operator's buttons,\n"
	"                    the corners by hand) on PORT of ADDR (default\n"
	"                    127.0.0.1: this machine only; 0.0.0.0 for a hall)\n"
	"  --pin PIN         the operator's PIN for the page's buttons (default:\n"
	"                    the settings' pin, else a new one printed at start)\n"
	"  --mqtt HOST[:PORT] a hall of boards: every event to this MQTT broker\n"
	"                    (goref/HALL/BOARD/events, QoS 1, numbered), the position\n"
	"                    retained, online/offline (the last will); user, password\n"
	"                    and TLS from the settings (mqtt_user, mqtt_password,\n"
	"                    mqtt_cafile)\n"
	"  --hall NAME, --board-id ID   the hall and this board (with --mqtt)\n"
	"  --control-user U  take end, count and accept from the broker user U (the\n"
	"                    director's goref hall)\n"
	"\n"
	"Keys (when a terminal is there): p pass, e end, c count, a accept,\n"
	"r restore, b Black resigns, w White resigns, q quit, h help.\n"
	"Ctrl-C ends cleanly (the journal and the SGF are complete).\n"
	"\n"
	"Exit status: 0 ended by the operator or the end of the input, 2 the\n"
	"camera, the journal or an output failed, 64 a usage error.\n";

typedef struct watch_ctx {
	gd_session *session; /* the game as the controllers and viewers see it */
	bool quiet;
	bool replaying;   /* the journal is being fed back: no bell, no lines */
	int size;
	FILE *events;
	bool changed;     /* the record changed since the SGF was written */
	char buf[8192];
#ifdef GOREF_HAVE_MQTT
	watch_mqtt *mq;   /* the hall's broker, or NULL */
#endif
} watch_ctx;

/* what is announced with the bell: a ruling, a warning, the result */
static bool is_ruling(gr_event_type t)
{
	return gr_event_is_ruling(t) || t == GR_EV_WARNING || t == GR_EV_RESULT;
}

static void on_event(const gr_event *e, void *ud)
{
	watch_ctx *c = ud;
	size_t n = gr_event_json(e, c->size, c->buf, sizeof c->buf);
	if (n >= sizeof c->buf)
		n = sizeof c->buf - 1;
	if (c->events) {
		fwrite(c->buf, 1, n, c->events);
		fputc('\n', c->events);
		fflush(c->events);
	}
#ifdef GOREF_HAVE_MQTT
	watch_mqtt_event(c->mq, e, c->buf, n);
#endif
	if (c->session)
		gd_session_event(c->session, c->buf, n);
	c->changed = true;
	if (c->replaying)
		return;
	bool ruling = is_ruling(e->type);
	if (!c->quiet || ruling) {
		time_t now = time(NULL);
		struct tm tmv;
		localtime_r(&now, &tmv);
		fprintf(stderr, "%s[%02d:%02d:%02d] %s%s%s\r\n", ruling ? "\a" : "", tmv.tm_hour, tmv.tm_min, tmv.tm_sec,
		        ruling ? "RULING: " : "", e->message ? e->message : gr_event_type_name(e->type),
		        ruling ? "" : "");
	}
}

/* The operator's terminal, in single-key mode while the game runs. */
typedef struct term {
	int fd;
	bool raw;
	struct termios saved;
} term;

static void term_open(term *t)
{
	t->fd = open("/dev/tty", O_RDONLY | O_NONBLOCK);
	t->raw = false;
	if (t->fd < 0)
		return;
	if (tcgetattr(t->fd, &t->saved) == 0) {
		struct termios r = t->saved;
		r.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		r.c_cc[VMIN] = 0;
		r.c_cc[VTIME] = 0;
		if (tcsetattr(t->fd, TCSANOW, &r) == 0)
			t->raw = true;
	}
}

static void term_close(term *t)
{
	if (t->fd >= 0) {
		if (t->raw)
			tcsetattr(t->fd, TCSANOW, &t->saved);
		close(t->fd);
	}
	t->fd = -1;
}

static int term_key(term *t)
{
	if (t->fd < 0)
		return -1;
	unsigned char ch;
	return read(t->fd, &ch, 1) == 1 ? ch : -1;
}

static const char keys_help[] =
	"keys: p pass, e end, c count, a accept, r restore, b Black resigns, w White resigns, q quit\r\n";

/* Moves an old journal aside to path.N; 0 or -1 with a message. */
static int set_aside(const char *path)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		return 0;
	char to[4200];
	for (int n = 1; n < 10000; n++) {
		snprintf(to, sizeof to, "%s.%d", path, n);
		if (stat(to, &sb) != 0) {
			if (rename(path, to) != 0) {
				fprintf(stderr, "goref watch: cannot move %s to %s: %s\n", path, to, strerror(errno));
				return -1;
			}
			fprintf(stderr, "goref watch: the old journal is now %s\n", to);
			return 0;
		}
	}
	fprintf(stderr, "goref watch: too many old journals beside %s\n", path);
	return -1;
}

typedef struct resume_ctx {
	gd_loop *loop;
	char err[512];
} resume_ctx;

static int resume_item(const gr_obs_item *it, void *ud)
{
	resume_ctx *r = ud;
	if (gd_stop_requested())
		return 2; /* SIGTERM or Ctrl-C: stop feeding, nothing is cut */
	if (it->kind == GR_OBS_POSITION)
		return gd_loop_observe(r->loop, it->t, it->size, it->cells, false, r->err, sizeof r->err) ? 1 : 0;
	return gd_loop_command(r->loop, it->t, it->command, it->color, false, r->err, sizeof r->err) ? 1 : 0;
}

/* The camera's news while it is lost: on the terminal; Ctrl-C gives up. */
static int camera_status(void *user, gd_v4l2_event event, const char *msg)
{
	(void)user;
	const char *what = event == GD_V4L2_LOST ? "camera lost" : event == GD_V4L2_BACK ? "camera back" : "camera";
	fprintf(stderr, "%sgoref watch: %s: %s\r\n", event == GD_V4L2_LOST ? "\a" : "", what, msg ? msg : "");
	return gd_stop_requested() ? 1 : 0;
}

/* The camera: V4L2 through libv4l2 (an error says so when goref was built
 * without it). */
static int gd_watch_open_camera(gd_source **out, const char *device, int w, int h, double fps, char *err, size_t cap)
{
	gd_v4l2_opts vo;
	gd_v4l2_opts_init(&vo);
	vo.width = w;
	vo.height = h;
	vo.fps = fps;
	vo.status = camera_status;
	gd_v4l2_info info;
	int rc = gd_source_open_v4l2_opts(out, device, &vo, NULL, &info, err, cap);
	if (rc == 0)
		fprintf(stderr, "goref watch: %s (%s, %s): %dx%d%s\n", device, info.card, info.driver, info.width,
		        info.height, info.fps > 0 ? "" : ", the camera's rate");
	return rc;
}

/* The web page's settings: its address, the PIN, the settings file the
 * corners are saved to. */
typedef struct web_opts {
	const char *http; /* NULL: no page */
	const char *pin;  /* NULL: one made at start */
	const char *config;
} web_opts;

/* A hall of boards (issue 16): the broker, the hall, this board. */
typedef struct hall_opts {
	const char *mqtt, *hall, *board_id, *user, *password, *cafile, *control_user, *page_url;
} hall_opts;

static int watch_run(int argc, char **argv, gd_loop_opts *op, const char *device, cli_frames fr,
                     const char *journal, const char *sgf_out, const char *events_out, bool quiet, bool resume,
                     bool fresh, web_opts web, hall_opts hl);

int cmd_watch(int argc, char **argv)
{
	gd_loop_opts o;
	gd_loop_opts_init(&o);
	cli_loop_trace(&o); /* GOREF_PIPE_DEBUG: the pipeline's trace on stderr */
	o.prepare_memory = true; /* this program runs frames: its heap made ready at the first (memory.h) */
	const char *device = "/dev/video0";
	const char *journal = "goref-game.log", *sgf_out = "goref-game.sgf", *events_out = "goref-game.jsonl";
	cli_frames fr = {.format = "rgb24"};
	bool quiet = false, resume = false, fresh = false;
	/* the settings file first: the options given here go over it */
	const char *config = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(watch_usage, stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--config") && !cli_take_value("watch", argc, argv, &i, &config))
			return EXIT_USAGE;
	}
	struct stat sb;
	if (!config && stat("goref.conf", &sb) == 0)
		config = "goref.conf";
	gc_settings *cfg = calloc(1, sizeof *cfg);
	char fmt_name[32] = "rgb24", size_buf[32] = "";
	if (!cfg) {
		fprintf(stderr, "goref watch: out of memory\n");
		return EXIT_INPUT;
	}
	gc_settings_init(cfg);
	if (config) {
		if (cli_load_settings(cfg, config) != 0) {
			free(cfg);
			return EXIT_INPUT;
		}
		fprintf(stderr, "goref watch: settings from %s\n", config);
		device = cfg->device;
		if (cfg->width) {
			snprintf(size_buf, sizeof size_buf, "%dx%d", cfg->width, cfg->height);
			fr.size = size_buf;
		}
		snprintf(fmt_name, sizeof fmt_name, "%s", gc_format_name(cfg->format));
		fr.format = fmt_name;
		fr.stride = cfg->stride;
		fr.fps = cfg->fps;
		o.pipe.size = cfg->board;
		o.pipe.has_corners = cfg->has_corners;
		memcpy(o.pipe.corners, cfg->corners, sizeof o.pipe.corners);
		o.rotate = cfg->rotate / 90;
		if (cfg->has_camera && cfg->ndist > 0) {
			o.undistort = true;
			gc_settings_camera_matrix(cfg, o.K);
			memcpy(o.dist, cfg->dist, sizeof o.dist);
			o.ndist = cfg->ndist;
		}
		o.pipe.still_s = cfg->still;
		o.ref.komi = cfg->komi;
		o.ref.persist = cfg->persist;
		o.ref.repetition = cfg->repetition;
		if (cfg->journal[0])
			journal = cfg->journal;
		if (cfg->sgf[0])
			sgf_out = cfg->sgf;
		if (cfg->events[0])
			events_out = cfg->events;
	}
	web_opts web = {.http = cfg->http[0] ? cfg->http : NULL, .pin = cfg->pin[0] ? cfg->pin : NULL,
	                .config = config ? config : "goref.conf"};
	hall_opts hl = {cfg->mqtt, cfg->hall, cfg->board_id, cfg->mqtt_user, cfg->mqtt_password, cfg->mqtt_cafile,
	                cfg->control_user, cfg->page_url};
	int status = watch_run(argc, argv, &o, device, fr, journal, sgf_out, events_out, quiet, resume, fresh, web, hl);
	free(cfg);
	return status;
}

/* The web server's lines: on the terminal, as the rulings. */
static void web_log(const char *line, void *ud)
{
	(void)ud;
	fprintf(stderr, "goref watch: %s\r\n", line);
}

/* Writes the corners into the settings file at path (made when missing),
 * every other line kept, through path.tmp and a rename. 0, or -1 after
 * saying why. */
static int save_corners(const char *path, const double corners[8])
{
	gc_settings *cfg = calloc(1, sizeof *cfg);
	if (!cfg)
		return -1;
	gc_settings_init(cfg);
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	if (stat(path, &sb) == 0) {
		text = cli_read_file(path, &len);
		gr_error e = {0};
		if (!text || gc_settings_parse(cfg, text, len, &e) != 0) {
			if (text)
				cli_report_error(path, &e);
			free(text);
			free(cfg);
			return -1;
		}
	}
	cfg->has_corners = true;
	memcpy(cfg->corners, corners, sizeof cfg->corners);
	static const char *const keys[] = {"corners"};
	size_t n = text ? gc_settings_update(text, len, cfg, keys, 1, NULL, 0) : gc_settings_write(cfg, NULL, 0);
	char *buf = n ? malloc(n + 1) : NULL;
	bool ok = buf != NULL;
	if (ok) {
		if (text)
			gc_settings_update(text, len, cfg, keys, 1, buf, n + 1);
		else
			gc_settings_write(cfg, buf, n + 1);
		ok = cli_write_file(path, buf, n, "\r\n") == 0;
	} else {
		fprintf(stderr, "goref watch: %s: %s\r\n", path, n ? "out of memory" : "a path in it cannot be written back");
	}
	free(buf);
	free(text);
	free(cfg);
	return ok ? 0 : -1;
}

/* What the watch holds while it runs. */
typedef struct watch_game {
	gd_loop_opts o;
	const char *journal, *sgf_out, *events_out, *config;
	watch_ctx *ctx;
	gd_loop *loop;
	FILE *jf;
	gd_session *session;
	bool published_located; /* what the state last said of the grid */
	double published_corners[8];
	int published_w;
} watch_game;

/* The state, the SGF and the events so far made visible to the viewers. */
static void publish(watch_game *g)
{
	gr_referee *ref = gd_loop_referee(g->loop);
	const gd_loop_stats *st = gd_loop_get_stats(g->loop);
	const double *corners = st->pipe.located ? st->pipe.corners : NULL;
	char *state = gd_session_state_json(g->session, ref, corners, st->width, st->height);
	char *sgf = NULL;
	size_t len = 0;
	if (ref && gr_sgf_write(gr_referee_record(ref), &sgf, &len) != 0)
		sgf = NULL;
	gd_session_publish(g->session, state, sgf);
	free(state);
	gr_free(sgf);
	g->published_located = st->pipe.located;
	memcpy(g->published_corners, st->pipe.corners, sizeof g->published_corners);
	g->published_w = st->width;
}

/* True when the grid or the frame changed since the state was published. */
static bool view_changed(watch_game *g)
{
	const gd_loop_stats *st = gd_loop_get_stats(g->loop);
	return st->pipe.located != g->published_located || st->width != g->published_w ||
	       memcmp(st->pipe.corners, g->published_corners, sizeof g->published_corners) != 0;
}

/* The game so far set aside (its journal as FILE.N), a new one begun at
 * time t of the source. 0, or EXIT_INPUT after saying why. */
static int new_game(watch_game *g, double t)
{
	char err[512] = "";
	if (g->jf && fclose(g->jf) != 0) {
		fprintf(stderr, "goref watch: cannot write the journal %s: %s\r\n", g->journal, strerror(errno));
		g->jf = NULL;
		return EXIT_INPUT;
	}
	g->jf = NULL;
	if (set_aside(g->journal) != 0)
		return EXIT_INPUT;
	gd_loop *nl = NULL;
	gd_loop_opts no = g->o;
	no.wait_empty = true; /* the new game begins once the board is cleared */
	if (gd_loop_new(&nl, &no, err, sizeof err)) {
		fprintf(stderr, "goref watch: %s\r\n", err);
		return EXIT_INPUT;
	}
	const gd_loop_stats *st = gd_loop_get_stats(g->loop);
	if (st->pipe.located) /* the grid found stays: the board did not move */
		gd_loop_set_corners(nl, st->pipe.corners, err, sizeof err);
	gd_loop_free(g->loop);
	g->loop = nl;
	gd_journal_info ji;
	if (gd_journal_open(g->journal, 0, NULL, NULL, &g->jf, &ji, err, sizeof err) != 0) {
		fprintf(stderr, "goref watch: %s\r\n", err);
		return EXIT_INPUT;
	}
	gd_loop_set_log(g->loop, g->jf);
	gd_loop_set_offset(g->loop, -t); /* the new game's clock starts at 0 */
	if (g->ctx->events) {
		fclose(g->ctx->events);
		g->ctx->events = fopen(g->events_out, "w");
		if (!g->ctx->events) {
			fprintf(stderr, "goref watch: cannot write %s: %s\r\n", g->events_out, strerror(errno));
			return EXIT_INPUT;
		}
	}
	gd_session_forget_game(g->session);
#ifdef GOREF_HAVE_MQTT
	watch_mqtt_new_game(g->ctx->mq);
#endif
	static const char ev[] = "{\"t\":0.000,\"type\":\"new_game\",\"message\":\"A new game: the last one is set aside; clear the board.\"}";
	gd_session_event(g->session, ev, sizeof ev - 1);
	remove(g->sgf_out);
	publish(g);
	fprintf(stderr, "goref watch: a new game: it begins when the board is seen empty\r\n");
	return EXIT_OK;
}

/* The requests of the controllers (the keys, the page), applied in order
 * at time t. EXIT_OK, or EXIT_INPUT when the journal or an output failed. */
static int apply_requests(watch_game *g, double t)
{
	gd_request rq;
	char err[512];
	while (gd_session_take(g->session, &rq)) {
		gr_color who = GR_EMPTY;
		int cmd = gd_action_command(rq.action, &who);
		if (cmd >= 0) {
			/* no command before the first board: the journal would hold one it cannot replay */
			int rc = GV_EINVAL;
			if (gd_loop_referee(g->loop))
				rc = gd_loop_command(g->loop, t, (gr_command)cmd, who, true, err, sizeof err);
			else
				snprintf(err, sizeof err, "no board seen yet: '%s' has no game to go to", gd_action_name(rq.action));
			if (rc == GV_EWRITE) {
				fprintf(stderr, "goref watch: %s\r\n", err);
				return EXIT_INPUT;
			}
			if (rc != 0) {
				fprintf(stderr, "goref watch: %s\r\n", err);
				char ev[700];
				int n = snprintf(ev, sizeof ev, "{\"t\":%.3f,\"type\":\"error\",\"message\":\"", t);
				for (const char *p = err; *p && n < (int)sizeof ev - 4; p++)
					if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
						ev[n++] = *p;
				n += snprintf(ev + n, sizeof ev - (size_t)n, "\"}");
				gd_session_event(g->session, ev, (size_t)n);
				publish(g);
			}
		} else if (rq.action == GD_ACT_NEW_GAME) {
			if (new_game(g, t) != EXIT_OK)
				return EXIT_INPUT;
		} else if (rq.action == GD_ACT_CORNERS) {
			if (gd_loop_set_corners(g->loop, rq.corners, err, sizeof err) != 0) {
				fprintf(stderr, "goref watch: %s\r\n", err);
				continue;
			}
			if (save_corners(g->config, rq.corners) == 0)
				fprintf(stderr, "goref watch: corners from %s saved to %s\r\n", rq.who, g->config);
			publish(g);
		}
	}
	return EXIT_OK;
}

static int watch_run(int argc, char **argv, gd_loop_opts *op, const char *device, cli_frames fr,
                     const char *journal, const char *sgf_out, const char *events_out, bool quiet, bool resume,
                     bool fresh, web_opts web, hall_opts hl)
{
	double speed = 1;
	gd_loop_opts o = *op;
	/* Ctrl-C from the start: while the camera opens and the journal is
	 * read too, it ends cleanly */
	gd_stop_on_signals();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;
		if (!strcmp(a, "--config")) {
			i++;
		} else if ((r = cli_loop_option("watch", argc, argv, &i, &o)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (!strcmp(a, "--device")) {
			if (!cli_take_value("watch", argc, argv, &i, &device))
				return EXIT_USAGE;
		} else if ((r = cli_frames_option("watch", argc, argv, &i, &fr)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (!strcmp(a, "--speed")) {
			if (!cli_parse_double("--speed", i + 1 < argc ? argv[++i] : NULL, 0, 1000, &speed))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--journal")) {
			if (!cli_take_value("watch", argc, argv, &i, &journal))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--sgf")) {
			if (!cli_take_value("watch", argc, argv, &i, &sgf_out))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--events")) {
			if (!cli_take_value("watch", argc, argv, &i, &events_out))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--http")) {
			if (!cli_take_value("watch", argc, argv, &i, &web.http))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--pin")) {
			if (!cli_take_value("watch", argc, argv, &i, &web.pin))
				return EXIT_USAGE;
		} else if (!strcmp(a, "--resume")) {
			resume = true;
		} else if (!strcmp(a, "--new")) {
			fresh = true;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--mqtt") || !strcmp(a, "--hall") || !strcmp(a, "--board-id") ||
		           !strcmp(a, "--control-user")) {
			const char **slot = a[2] == 'm' ? &hl.mqtt : a[2] == 'h' ? &hl.hall : a[2] == 'b' ? &hl.board_id
			                  : &hl.control_user;
			if (!cli_take_value("watch", argc, argv, &i, slot))
				return EXIT_USAGE;
		} else {
			fprintf(stderr, "goref watch: unknown argument '%s'\n\n%s", a, watch_usage);
			return EXIT_USAGE;
		}
	}
	if (resume && fresh) {
		fprintf(stderr, "goref watch: --resume and --new do not go together\n");
		return EXIT_USAGE;
	}
	char err[512] = "";
	gd_http_opts ho;
	gd_http_opts_init(&ho);
	if (web.http && gd_http_parse_listen(&ho, web.http, err, sizeof err) != 0) {
		fprintf(stderr, "goref watch: --http %s\n", err);
		return EXIT_USAGE;
	}
	if (web.pin && (strlen(web.pin) >= 63 || strpbrk(web.pin, " \t\r\n"))) {
		fprintf(stderr, "goref watch: --pin: at most 62 characters, no blanks\n");
		return EXIT_USAGE;
	}
	/* the source */
	gd_source *src = NULL;
	struct stat sb;
	bool folder = stat(device, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (!strcmp(device, "-")) {
		if (cli_open_raw("watch", &fr, &src) != 0)
			return EXIT_USAGE;
	} else if (folder) {
		if (gd_source_open_dir(&src, device, NULL, fr.fps, err, sizeof err)) {
			fprintf(stderr, "goref watch: %s\n", err);
			return EXIT_INPUT;
		}
	} else {
		int w = 0, h = 0;
		if (fr.size && gd_size_parse(fr.size, &w, &h) != 0) {
			fprintf(stderr, "goref watch: --size takes WIDTHxHEIGHT, e.g. 1280x720\n");
			return EXIT_USAGE;
		}
		if (gd_watch_open_camera(&src, device, w, h, fr.fps, err, sizeof err)) {
			fprintf(stderr, "goref watch: %s\n", err);
			return EXIT_INPUT;
		}
	}
	/* the journal: resume, or a new game */
	watch_ctx *ctx = calloc(1, sizeof *ctx);
	watch_game g = {.journal = journal, .sgf_out = sgf_out, .events_out = events_out, .config = web.config,
	                .ctx = ctx};
	gd_http *server = NULL;
	term tm = {.fd = -1};
	int result = EXIT_OK;
	if (!ctx || gd_session_new(&g.session, NULL) != 0) {
		fprintf(stderr, "goref watch: out of memory\n");
		free(ctx);
		gd_source_free(src);
		return EXIT_INPUT;
	}
	ctx->session = g.session;
	ctx->quiet = quiet;
	ctx->size = o.pipe.size ? o.pipe.size : 19;
	if (fresh && set_aside(journal) != 0) {
		result = EXIT_INPUT;
		goto done;
	}
	bool have_journal = stat(journal, &sb) == 0 && sb.st_size > 0;
	if (resume && !have_journal) {
		fprintf(stderr, "goref watch: --resume: there is no game in %s\n", journal);
		result = EXIT_INPUT;
		goto done;
	}
	/* a hall of boards: before the journal is fed back (its events are the
	 * board's, numbered from 1) */
	if (hl.mqtt && *hl.mqtt) {
#ifdef GOREF_HAVE_MQTT
		/* the tile links to this board's page: as set, else the page served
		 * here to the hall's network (http://HOSTNAME.local:PORT/) */
		char page[300] = "", host[128] = "";
		if (hl.page_url && *hl.page_url)
			snprintf(page, sizeof page, "%s", hl.page_url);
		else if (web.http && strcmp(ho.addr, "127.0.0.1") && strcmp(ho.addr, "::1") && ho.port > 0 &&
		         gethostname(host, sizeof host - 1) == 0 && host[0])
			snprintf(page, sizeof page, "http://%s%s:%d/", host, strchr(host, '.') ? "" : ".local", ho.port);
		watch_mqtt_opts mo = {hl.mqtt, hl.hall, hl.board_id, hl.user, hl.password, hl.cafile, hl.control_user,
		                      page, journal};
		if ((result = watch_mqtt_start(&ctx->mq, &mo)) != EXIT_OK)
			goto done;
#else
		fprintf(stderr, "goref watch: this goref was built without MQTT (libmosquitto-dev)\n");
		result = EXIT_USAGE;
		goto done;
#endif
	}
	/* the events file is written anew from the journal: it always matches it */
	ctx->events = fopen(events_out, "w");
	if (!ctx->events) {
		fprintf(stderr, "goref watch: cannot write %s: %s\n", events_out, strerror(errno));
		result = EXIT_INPUT;
		goto done;
	}
	o.on_event = on_event;
	o.ud = ctx;
	o.sync = true;
	o.log_max = GD_JOURNAL_MAX_BYTES;
	g.o = o;
	if (gd_loop_new(&g.loop, &o, err, sizeof err)) {
		fprintf(stderr, "goref watch: %s\n", err);
		result = EXIT_INPUT;
		goto done;
	}
	/* the game so far, fed back from the journal (the referee alone: no
	 * lines, no bell; the events file is written anew to match it) */
	resume_ctx rc_ctx = {.loop = g.loop};
	gd_journal_info ji;
	ctx->replaying = true;
	int jr = gd_journal_open(journal, o.pipe.size ? o.pipe.size : 0, resume_item, &rc_ctx, &g.jf, &ji, err,
	                         sizeof err);
	ctx->replaying = false;
	if (jr == 2) {
		fprintf(stderr, "goref watch: stopped while reading the journal %s (it is whole)\n", journal);
		goto done;
	}
	if (jr != 0) {
		fprintf(stderr, "goref watch: %s\n", jr < 0 ? err : rc_ctx.err);
		result = EXIT_INPUT;
		goto done;
	}
	gd_loop_set_log(g.loop, g.jf);
	if (ji.cut)
		fprintf(stderr, "goref watch: the journal's last entry was half written (%ld bytes): cut off\n", ji.cut_bytes);
	if (ji.entries) {
		gr_referee *ref = gd_loop_referee(g.loop);
		fprintf(stderr, "goref watch: resuming the game in %s: %d entries, %d moves%s\n", journal, ji.entries,
		        ref ? gr_record_move_count(gr_referee_record(ref)) : 0,
		        ref && gr_referee_finished(ref) ? " (the game has its result)" : "");
		gd_loop_set_offset(g.loop, ji.last_t + 1.0);
	}
	if (gd_loop_referee(g.loop))
		cli_write_sgf(gr_referee_record(gd_loop_referee(g.loop)), sgf_out);
#ifdef GOREF_HAVE_MQTT
	watch_mqtt_position(ctx->mq, gd_loop_referee(g.loop), ctx->size);
#endif
	ctx->changed = false;
	publish(&g);

	/* the page */
	if (web.http) {
		char pin[64];
		if (web.pin)
			snprintf(pin, sizeof pin, "%s", web.pin);
		else if (gd_http_make_pin(pin, sizeof pin) != 0) {
			fprintf(stderr, "goref watch: cannot make a PIN (no /dev/urandom?): give one with --pin\n");
			result = EXIT_INPUT;
			goto done;
		}
		snprintf(ho.pin, sizeof ho.pin, "%s", pin);
		ho.events_path = events_out;
		ho.log = web_log;
		if (gd_http_start(&server, g.session, &ho, err, sizeof err) != 0) {
			fprintf(stderr, "goref watch: the page: %s\n", err);
			result = EXIT_INPUT;
			goto done;
		}
		bool v6 = strchr(ho.addr, ':') != NULL;
		fprintf(stderr, "goref watch: the referee's page is at http://%s%s%s:%d/", v6 ? "[" : "", ho.addr,
		        v6 ? "]" : "", gd_http_port(server));
		if (web.pin)
			fprintf(stderr, " (the operator's PIN as set)\n");
		else
			fprintf(stderr, "; the operator's PIN: %s\n", pin);
	}

	term_open(&tm);
	if (tm.fd >= 0)
		fputs(keys_help, stderr);
	gv_cv_threads(1, NULL, 0);
	double start = cli_wall_s();
	bool quit = false, ended = false;
	double t = 0;
	/* the loop's work per frame, wall clock, the pacing's sleep left out:
	 * what a viewer could slow down (samples/bench_web.sh) */
	double work_sum = 0, work_max = 0, work_t0 = 0, work_cpu = 0, cpu_t0 = 0;
	long work_n = 0;
	while (!gd_stop_requested() && !quit) {
		if (!ended) {
			gv_image *frame = NULL;
			int r = gd_source_next(src, &frame, &t, err, sizeof err);
			if (r < 0) {
				cli_source_error("watch", gd_source_name(src), err, "\r\n");
				result = EXIT_INPUT;
				break;
			}
			if (r == 0) {
				/* the input's end: what the loop withholds is refereed */
				if (gd_loop_flush(g.loop, err, sizeof err) < 0) {
					fprintf(stderr, "goref watch: %s\r\n", err);
					result = EXIT_INPUT;
					break;
				}
				if (!server)
					break;
				/* the operator may still end and count on the page */
				ended = true;
				fprintf(stderr, "goref watch: the input ended; the page stays up until Ctrl-C (or q)\r\n");
				continue;
			}
			if (folder && speed > 0) { /* a folder plays at its own pace */
				double due = start + t / speed, now;
				while ((now = cli_wall_s()) < due && !gd_stop_requested()) { /* steps: a stop is seen */
					double d = due - now < 0.2 ? due - now : 0.2;
					struct timespec ts = {0, (long)(d * 1e9)};
					nanosleep(&ts, NULL);
				}
			}
			work_t0 = cli_wall_s();
			cpu_t0 = cli_cpu_ms();
			r = gd_loop_frame(g.loop, frame, t, err, sizeof err);
			if (r < 0) {
				fprintf(stderr, "goref watch: %s\r\n", err);
				result = EXIT_INPUT;
				break;
			}
			if (server) {
				const gv_image *v = gd_loop_view(g.loop);
				if (v && v->channels == 3)
					gd_session_frame(g.session, v->data, v->width, v->height, v->stride);
			}
		} else {
			struct timespec ts = {0, 50 * 1000000L};
			nanosleep(&ts, NULL);
		}
		/* the keys: a controller like the page */
		int key;
		while ((key = term_key(&tm)) >= 0 && !quit) {
			int act = -1;
			switch (key) {
			case 'p': act = GD_ACT_PASS; break;
			case 'e': act = GD_ACT_END; break;
			case 'c': act = GD_ACT_COUNT; break;
			case 'a': act = GD_ACT_ACCEPT; break;
			case 'r': act = GD_ACT_RESTORE; break;
			case 'b': act = GD_ACT_RESIGN_BLACK; break;
			case 'w': act = GD_ACT_RESIGN_WHITE; break;
			case 'q': quit = true; break;
			case 'h': case '?': fputs(keys_help, stderr); break;
			default: break;
			}
			if (act >= 0 && gd_session_act(g.session, (gd_action)act, "keys") != 0)
				fprintf(stderr, "goref watch: busy: press it again\r\n");
		}
#ifdef GOREF_HAVE_MQTT
		/* the director's actions: a controller of the session like the keys */
		gd_action dact;
		watch_mqtt_poll(ctx->mq);
		while (watch_mqtt_control(ctx->mq, &dact))
			if (gd_session_act(g.session, dact, "director") != 0)
				fprintf(stderr, "goref watch: busy: the director's %s is dropped\r\n", gd_action_name(dact));
#endif
		if (apply_requests(&g, t) != EXIT_OK) {
			result = EXIT_INPUT;
			break;
		}
		if (ctx->changed && gd_loop_referee(g.loop)) {
			ctx->changed = false;
#ifdef GOREF_HAVE_MQTT
			watch_mqtt_position(ctx->mq, gd_loop_referee(g.loop), ctx->size);
#endif
			if (cli_write_sgf(gr_referee_record(gd_loop_referee(g.loop)), sgf_out) != EXIT_OK)
				result = EXIT_INPUT;
			publish(&g);
		} else if (server && view_changed(&g)) {
			publish(&g);
		}
		if (!ended) {
			double w = cli_wall_s() - work_t0;
			work_sum += w;
			work_cpu += cli_cpu_ms() - cpu_t0;
			work_n++;
			if (w > work_max)
				work_max = w;
		}
	}
	term_close(&tm);
	if (g.loop && gd_loop_flush(g.loop, err, sizeof err) < 0) { /* a stop: nothing withheld is lost */
		fprintf(stderr, "goref watch: %s\n", err);
		result = EXIT_INPUT;
	}
	if (gd_stop_requested())
		fprintf(stderr, "goref watch: stopped; the journal %s holds the game (run again to go on)\n", journal);
	if (gd_loop_referee(g.loop) && cli_write_sgf(gr_referee_record(gd_loop_referee(g.loop)), sgf_out) != EXIT_OK)
		result = EXIT_INPUT;
	{
		const gd_loop_stats *st = gd_loop_get_stats(g.loop);
		gr_referee *ref = gd_loop_referee(g.loop);
		fprintf(stderr, "goref watch: %ld frames, %ld positions, %d moves; record in %s, journal %s\n", st->frames,
		        st->observations, ref ? gr_record_move_count(gr_referee_record(ref)) : 0, sgf_out, journal);
		if (work_n)
			fprintf(stderr,
			        "goref watch: a frame's work (wall clock, waits left out): mean %.3f ms, max %.1f ms; "
			        "the loop's CPU time: mean %.3f ms\n",
			        work_sum / (double)work_n * 1e3, work_max * 1e3, work_cpu / (double)work_n);
	}
done:
	gd_http_stop(server);
	term_close(&tm);
#ifdef GOREF_HAVE_MQTT
	if (ctx->mq) {
		if (g.loop && gd_loop_referee(g.loop))
			watch_mqtt_position(ctx->mq, gd_loop_referee(g.loop), ctx->size);
		watch_mqtt_stop(ctx->mq);
	}
#endif
	if (ctx->events)
		fclose(ctx->events);
	if (g.jf && fclose(g.jf) != 0) {
		fprintf(stderr, "goref watch: cannot write the journal %s: %s\n", journal, strerror(errno));
		result = EXIT_INPUT;
	}
	gd_loop_free(g.loop);
	gd_source_free(src);
	gd_session_free(g.session);
	free(ctx);
	return result;
}
#endif
