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
#include "journal.h"
#include "loop.h"
#include "settings.h"
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

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

typedef struct watch_ctx {
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

static bool is_ruling(gr_event_type t)
{
	switch (t) {
	case GR_EV_ILLEGAL:
	case GR_EV_DOUBLE_MOVE:
	case GR_EV_MISSED_CAPTURE:
	case GR_EV_WRONG_REMOVAL:
	case GR_EV_TAKEBACK:
	case GR_EV_MOVED_STONE:
	case GR_EV_DISTURBED:
	case GR_EV_WARNING:
	case GR_EV_RESULT:
		return true;
	default:
		return false;
	}
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
	return stop_flag ? 1 : 0;
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

/* Reads the settings file into s (after its defaults). 0, or EXIT_INPUT
 * after saying why (the line and the key at fault). */
static int load_settings(gc_settings *s, const char *path)
{
	size_t len = 0;
	char *text = cli_read_file(path, &len);
	if (!text)
		return EXIT_INPUT;
	gr_error e = {0};
	int rc = gc_settings_parse(s, text, len, &e);
	free(text);
	if (rc) {
		cli_report_error(path, &e);
		return EXIT_INPUT;
	}
	return 0;
}

typedef struct hall_opts {
	const char *mqtt, *hall, *board_id, *user, *password, *cafile, *control_user, *page_url;
} hall_opts;

static int watch_run(int argc, char **argv, gd_loop_opts *op, const char *device, cli_frames fr,
                     const char *journal, const char *sgf_out, const char *events_out, bool quiet, bool resume,
                     bool fresh, hall_opts ho);

int cmd_watch(int argc, char **argv)
{
	gd_loop_opts o;
	gd_loop_opts_init(&o);
	cli_loop_trace(&o); /* GOREF_PIPE_DEBUG: the pipeline's trace on stderr */
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
		if (load_settings(cfg, config) != 0) {
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
	hall_opts ho = {cfg->mqtt, cfg->hall, cfg->board_id, cfg->mqtt_user, cfg->mqtt_password, cfg->mqtt_cafile,
	                cfg->control_user, cfg->page_url};
	int status = watch_run(argc, argv, &o, device, fr, journal, sgf_out, events_out, quiet, resume, fresh, ho);
	free(cfg);
	return status;
}

static int watch_run(int argc, char **argv, gd_loop_opts *op, const char *device, cli_frames fr,
                     const char *journal, const char *sgf_out, const char *events_out, bool quiet, bool resume,
                     bool fresh, hall_opts ho)
{
	double speed = 1;
	gd_loop_opts o = *op;
	/* Ctrl-C from the start: while the camera opens and the journal is
	 * read too, it ends cleanly */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
		} else if (!strcmp(a, "--resume")) {
			resume = true;
		} else if (!strcmp(a, "--new")) {
			fresh = true;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--mqtt") || !strcmp(a, "--hall") || !strcmp(a, "--board-id") ||
		           !strcmp(a, "--control-user")) {
			const char **slot = a[2] == 'm' ? &ho.mqtt : a[2] == 'h' ? &ho.hall : a[2] == 'b' ? &ho.board_id
			                  : &ho.control_user;
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
	/* the source */
	char err[512] = "";
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
	gd_loop *loop = NULL;
	FILE *jf = NULL;
	term tm = {.fd = -1};
	int result = EXIT_OK;
	if (!ctx) {
		fprintf(stderr, "goref watch: out of memory\n");
		gd_source_free(src);
		return EXIT_INPUT;
	}
	ctx->quiet = quiet;
	ctx->size = o.pipe.size ? o.pipe.size : 19;
	if (ho.mqtt && *ho.mqtt) {
#ifdef GOREF_HAVE_MQTT
		watch_mqtt_opts mo = {ho.mqtt, ho.hall, ho.board_id, ho.user, ho.password, ho.cafile, ho.control_user,
		                      ho.page_url};
		if ((result = watch_mqtt_start(&ctx->mq, &mo)) != EXIT_OK)
			goto done;
#else
		fprintf(stderr, "goref watch: this goref was built without MQTT (libmosquitto-dev)\n");
		result = EXIT_USAGE;
		goto done;
#endif
	}
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
	if (gd_loop_new(&loop, &o, err, sizeof err)) {
		fprintf(stderr, "goref watch: %s\n", err);
		result = EXIT_INPUT;
		goto done;
	}
	/* the game so far, fed back from the journal (the referee alone: no
	 * lines, no bell; the events file is written anew to match it) */
	resume_ctx rc_ctx = {.loop = loop};
	gd_journal_info ji;
	ctx->replaying = true;
	int jr = gd_journal_open(journal, o.pipe.size ? o.pipe.size : 0, resume_item, &rc_ctx, &jf, &ji, err, sizeof err);
	ctx->replaying = false;
	if (jr != 0) {
		fprintf(stderr, "goref watch: %s\n", jr < 0 ? err : rc_ctx.err);
		result = EXIT_INPUT;
		goto done;
	}
	gd_loop_set_log(loop, jf);
	if (ji.cut)
		fprintf(stderr, "goref watch: the journal's last entry was half written (%ld bytes): cut off\n", ji.cut_bytes);
	if (ji.entries) {
		gr_referee *ref = gd_loop_referee(loop);
		fprintf(stderr, "goref watch: resuming the game in %s: %d entries, %d moves%s\n", journal, ji.entries,
		        ref ? gr_record_move_count(gr_referee_record(ref)) : 0,
		        ref && gr_referee_finished(ref) ? " (the game has its result)" : "");
		gd_loop_set_offset(loop, ji.last_t + 1.0);
	}
	if (gd_loop_referee(loop))
		cli_write_sgf(gr_referee_record(gd_loop_referee(loop)), sgf_out);
#ifdef GOREF_HAVE_MQTT
	watch_mqtt_position(ctx->mq, gd_loop_referee(loop), ctx->size);
#endif
	ctx->changed = false;

	term_open(&tm);
	if (tm.fd >= 0)
		fputs(keys_help, stderr);
	gv_cv_threads(1, NULL, 0);
	double start = cli_wall_s();
	bool quit = false;
	while (!stop_flag && !quit) {
		gv_image *frame = NULL;
		double t = 0;
		int r = gd_source_next(src, &frame, &t, err, sizeof err);
		if (r < 0) {
			cli_source_error("watch", gd_source_name(src), err, "\r\n");
			result = EXIT_INPUT;
			break;
		}
		if (r == 0)
			break;
		if (folder && speed > 0) { /* a folder plays at its own pace */
			double due = start + t / speed, now = cli_wall_s();
			if (due > now) {
				struct timespec ts = {(time_t)(due - now), (long)((due - now - (double)(time_t)(due - now)) * 1e9)};
				nanosleep(&ts, NULL);
			}
		}
		r = gd_loop_frame(loop, frame, t, err, sizeof err);
		if (r < 0) {
			fprintf(stderr, "goref watch: %s\r\n", err);
			result = EXIT_INPUT;
			break;
		}
		int key;
		while ((key = term_key(&tm)) >= 0 && !quit) {
			int cmd = -1;
			gr_color who = GR_EMPTY;
			switch (key) {
			case 'p': cmd = GR_CMD_PASS; break;
			case 'e': cmd = GR_CMD_END; break;
			case 'c': cmd = GR_CMD_COUNT; break;
			case 'a': cmd = GR_CMD_ACCEPT; break;
			case 'r': cmd = GR_CMD_RESTORE; break;
			case 'b': cmd = GR_CMD_RESIGN; who = GR_BLACK; break;
			case 'w': cmd = GR_CMD_RESIGN; who = GR_WHITE; break;
			case 'q': quit = true; break;
			case 'h': case '?': fputs(keys_help, stderr); break;
			default: break;
			}
			if (cmd >= 0 && gd_loop_command(loop, t, (gr_command)cmd, who, true, err, sizeof err) != 0)
				fprintf(stderr, "goref watch: %s\r\n", err);
		}
#ifdef GOREF_HAVE_MQTT
		gr_command dcmd;
		watch_mqtt_poll(ctx->mq);
		while (watch_mqtt_control(ctx->mq, &dcmd))
			if (gd_loop_command(loop, t, dcmd, GR_EMPTY, true, err, sizeof err) != 0)
				fprintf(stderr, "goref watch: %s\r\n", err);
#endif
		if (ctx->changed && gd_loop_referee(loop)) {
			ctx->changed = false;
#ifdef GOREF_HAVE_MQTT
			watch_mqtt_position(ctx->mq, gd_loop_referee(loop), ctx->size);
#endif
			if (cli_write_sgf(gr_referee_record(gd_loop_referee(loop)), sgf_out) != EXIT_OK)
				result = EXIT_INPUT;
		}
	}
	term_close(&tm);
	if (stop_flag)
		fprintf(stderr, "goref watch: stopped; the journal %s holds the game (run again to go on)\n", journal);
	if (gd_loop_referee(loop) && cli_write_sgf(gr_referee_record(gd_loop_referee(loop)), sgf_out) != EXIT_OK)
		result = EXIT_INPUT;
	{
		const gd_loop_stats *st = gd_loop_get_stats(loop);
		gr_referee *ref = gd_loop_referee(loop);
		fprintf(stderr, "goref watch: %ld frames, %ld positions, %d moves; record in %s, journal %s\n", st->frames,
		        st->observations, ref ? gr_record_move_count(gr_referee_record(ref)) : 0, sgf_out, journal);
	}
done:
	term_close(&tm);
#ifdef GOREF_HAVE_MQTT
	if (ctx->mq) {
		if (loop && gd_loop_referee(loop))
			watch_mqtt_position(ctx->mq, gd_loop_referee(loop), ctx->size);
		watch_mqtt_stop(ctx->mq);
	}
#endif
	if (ctx->events)
		fclose(ctx->events);
	if (jf && fclose(jf) != 0) {
		fprintf(stderr, "goref watch: cannot write the journal %s: %s\n", journal, strerror(errno));
		result = EXIT_INPUT;
	}
	gd_loop_free(loop);
	gd_source_free(src);
	free(ctx);
	return result;
}
#endif
