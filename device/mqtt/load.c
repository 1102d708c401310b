/* goref-mqtt-load: many boards publishing to one broker, through the same
 * publisher as goref watch (device/mqtt/board.c), for the tests and the
 * benchmark of issue 16.
 *
 * It runs goref watch's loop: FPS frames a second; in a frame each board
 * gives the events due by then (EVENTS events at RATE a second: moves, with
 * a ruling now and then), is polled, and gives its position (a 19x19
 * board's, as goref watch's) when it gave an event; then stops cleanly (or, with
 * --no-stop, is dropped without a word so that its will says offline). The
 * events carry "wall", the time they were made, so that a subscriber can
 * measure its lag. At the end one line a board: what it gave, what the
 * broker acknowledged; and the process's CPU time per event, and the CPU
 * time spent inside the publisher's calls (event, poll, position) while it
 * is measured. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mosquitto.h>

#include "mqtt.h"
#include "mqtt_int.h"

static const char usage[] =
	"usage: goref-mqtt-load --mqtt HOST[:PORT] --hall NAME [options]\n"
	"  --boards N        boards b01 .. bN (default 1), each its own client\n"
	"  --board ID        one board of this id (instead of --boards)\n"
	"  --prefix P        board ids P01, P02, ... (default b)\n"
	"  --events N        events a board (default 50)\n"
	"  --rate R          events a second a board (default 1; 0: as fast as it can,\n"
	"                    one a frame)\n"
	"  --fps F           frames a second (default 10, goref watch's camera's):\n"
	"                    each board polled once a frame, as goref watch polls\n"
	"                    its board\n"
	"  --tail S          frames for S s after the last event before the CPU\n"
	"                    time is read (default 1)\n"
	"  --password PW     each board's broker password (its user is its id);\n"
	"                    also GOREF_MQTT_PASSWORD\n"
	"  --password-prefix P  each board's password is P followed by its id\n"
	"  --user U          one broker user for every board (default: its id)\n"
	"  --cafile F        TLS with this CA\n"
	"  --topic-board ID  publish under this board's topics while logging in as\n"
	"                    --board (a board that tries another's topic)\n"
	"  --resume K        events 1..K at once first (as a resumed game gives\n"
	"                    them again from its journal), then the rest at RATE\n"
	"  --no-position     no position after each event\n"
	"  --dry             no broker: make the events only (the CPU baseline)\n"
	"  --journal FILE    append each event to FILE as a line and flush it, as\n"
	"                    goref watch does its journal's (with --dry too)\n"
	"  --wait S          at the end, wait up to S s for the broker's\n"
	"                    acknowledgements (default 30)\n"
	"  --linger S        stay connected S s after the last event (to answer a\n"
	"                    subscriber's resend)\n"
	"  --quiet           no trace lines\n"
	"  --raw TOPIC PAYLOAD  instead: publish one message as --user (QoS 1) and\n"
	"                    stop (a test's hand-made control message)\n";

static bool raw_done;

static void raw_published(struct mosquitto *m, void *obj, int mid)
{
	(void)m;
	(void)obj;
	(void)mid;
	raw_done = true;
}

/* One message as user: 0 when the broker took it. */
static int raw_publish(const char *host, int port, const char *user, const char *password, const char *cafile,
                       const char *topic, const char *payload)
{
	mosquitto_lib_init();
	struct mosquitto *m = mosquitto_new(NULL, true, NULL);
	if (!m)
		return 2;
	mosquitto_username_pw_set(m, user, password);
	if (cafile)
		mosquitto_tls_set(m, cafile, NULL, NULL, NULL, NULL);
	mosquitto_publish_callback_set(m, raw_published);
	int rc = mosquitto_connect(m, host, port, 10);
	if (rc == MOSQ_ERR_SUCCESS)
		rc = mosquitto_publish(m, NULL, topic, (int)strlen(payload), payload, 1, false);
	for (int i = 0; rc == MOSQ_ERR_SUCCESS && !raw_done && i < 100; i++)
		rc = mosquitto_loop(m, 100, 1);
	if (rc != MOSQ_ERR_SUCCESS || !raw_done)
		fprintf(stderr, "goref-mqtt-load: --raw %s: %s\n", topic, rc ? mosquitto_strerror(rc) : "no acknowledgement");
	mosquitto_disconnect(m);
	mosquitto_destroy(m);
	mosquitto_lib_cleanup();
	return rc == MOSQ_ERR_SUCCESS && raw_done ? 0 : 1;
}

/* A CPU-time clock in ms: CLOCK_PROCESS_CPUTIME_ID (every thread, user and
 * system) or CLOCK_THREAD_CPUTIME_ID (this thread: read around each call
 * into the publisher, its sum is the publishing's own cost, no other
 * thread of the publisher running once it is connected). */
static double cpu_ms(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The CPU time inside the publisher's calls in the measured window (ms). */
static double in_calls_ms;
static bool counting;

static void poll_counted(gm_board *b)
{
	double c0 = counting ? cpu_ms(CLOCK_THREAD_CPUTIME_ID) : 0;
	gm_board_poll(b);
	if (counting)
		in_calls_ms += cpu_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
}

static bool quiet;

/* Sleeps until the monotonic time due (a camera's next frame). */
static void sleep_until(double due)
{
	for (double now; (now = gm_mono_s()) < due;) {
		double d = due - now;
		struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
		nanosleep(&ts, NULL);
	}
}

/* Frames at fps a second for s seconds, each board polled once a frame (as
 * goref watch polls its board after each frame), nothing given. */
static void idle_frames(gm_board **boards, int n, double fps, double s)
{
	double t0 = gm_mono_s();
	for (long f = 1;; f++) {
		double due = t0 + (double)f / fps;
		if (due > t0 + s)
			return;
		sleep_until(due);
		for (int i = 0; i < n; i++)
			if (boards[i])
				poll_counted(boards[i]);
	}
}

static void trace(void *ud, int level, const char *msg)
{
	if (quiet && level == 0)
		return;
	fprintf(stderr, "goref-mqtt-load: %s: %s\n", (const char *)ud, msg);
}

/* Event k (1-based) of a board as the referee would write it. */
static int make_event(char *buf, size_t cap, int k, double wall)
{
	int x = (k * 7) % 19, y = (k * 11) % 19;
	char pt[8];
	snprintf(pt, sizeof pt, "%c%d", "ABCDEFGHJKLMNOPQRST"[x], y + 1);
	const char *col = k % 2 ? "B" : "W";
	if (k % 10 == 0)
		return snprintf(buf, cap,
		                "{\"t\":%d.0,\"type\":\"warning\",\"color\":\"%s\",\"warnings\":%d,\"article\":\"24\","
		                "\"message\":\"Warning to %s (24): a ruling of the load generator, event %d.\",\"wall\":%.6f}",
		                k, col, k / 10, k % 2 ? "Black" : "White", k, wall);
	return snprintf(buf, cap,
	                "{\"t\":%d.0,\"type\":\"move\",\"color\":\"%s\",\"point\":\"%s\",\"move\":%d,"
	                "\"message\":\"%s plays %s.\",\"wall\":%.6f}",
	                k, col, pt, k, k % 2 ? "Black" : "White", pt, wall);
}

int main(int argc, char **argv)
{
	const char *mqtt = NULL, *hall = NULL, *board1 = NULL, *prefix = "b", *password = getenv("GOREF_MQTT_PASSWORD");
	const char *user = NULL, *cafile = NULL, *topic_board = NULL, *pwprefix = NULL;
	const char *raw_topic = NULL, *raw_payload = NULL, *journal = NULL;
	int nboards = 1, nevents = 50, resume = 0;
	double rate = 1, wait = 30, linger = 0, fps = 10, tail = 1;
	bool dry = false, position = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--dry")) {
			dry = true;
			continue;
		}
		if (!strcmp(a, "--quiet")) {
			quiet = true;
			continue;
		}
		if (!strcmp(a, "--raw")) {
			if (i + 2 >= argc) {
				fprintf(stderr, "goref-mqtt-load: --raw needs TOPIC PAYLOAD\n");
				return 64;
			}
			raw_topic = argv[i + 1];
			raw_payload = argv[i + 2];
			i += 2;
			continue;
		}
		if (!strcmp(a, "--no-position")) {
			position = false;
			continue;
		}
		if (!v) {
			fprintf(stderr, "goref-mqtt-load: %s needs a value\n%s", a, usage);
			return 64;
		}
		i++;
		if (!strcmp(a, "--mqtt"))
			mqtt = v;
		else if (!strcmp(a, "--hall"))
			hall = v;
		else if (!strcmp(a, "--board"))
			board1 = v;
		else if (!strcmp(a, "--prefix"))
			prefix = v;
		else if (!strcmp(a, "--boards"))
			nboards = atoi(v);
		else if (!strcmp(a, "--events"))
			nevents = atoi(v);
		else if (!strcmp(a, "--resume"))
			resume = atoi(v);
		else if (!strcmp(a, "--rate"))
			rate = atof(v);
		else if (!strcmp(a, "--journal"))
			journal = v;
		else if (!strcmp(a, "--fps"))
			fps = atof(v);
		else if (!strcmp(a, "--tail"))
			tail = atof(v);
		else if (!strcmp(a, "--linger"))
			linger = atof(v);
		else if (!strcmp(a, "--wait"))
			wait = atof(v);
		else if (!strcmp(a, "--password"))
			password = v;
		else if (!strcmp(a, "--password-prefix"))
			pwprefix = v;
		else if (!strcmp(a, "--user"))
			user = v;
		else if (!strcmp(a, "--cafile"))
			cafile = v;
		else if (!strcmp(a, "--topic-board"))
			topic_board = v;
		else {
			fprintf(stderr, "goref-mqtt-load: unknown argument '%s'\n%s", a, usage);
			return 64;
		}
	}
	if (raw_topic) {
		char h[256] = "127.0.0.1";
		int pt = cafile ? 8883 : 1883;
		if (!mqtt || !user || gm_parse_hostport(mqtt, h, sizeof h, &pt) != GM_OK) {
			fprintf(stderr, "goref-mqtt-load: --raw needs --mqtt HOST[:PORT] and --user\n");
			return 64;
		}
		return raw_publish(h, pt, user, password, cafile, raw_topic, raw_payload);
	}
	if (board1)
		nboards = 1;
	if ((!dry && !mqtt) || !hall || nboards < 1 || nboards > 1000 || nevents < 0 || resume < 0 || resume > nevents ||
	    rate < 0 || !(fps >= 1 && fps <= 1000) || !(tail >= 0 && tail <= 3600)) {
		fprintf(stderr, "goref-mqtt-load: bad or missing options\n%s", usage);
		return 64;
	}
	char host[256] = "127.0.0.1";
	int port = 1883;
	if (mqtt && gm_parse_hostport(mqtt, host, sizeof host, &port) != GM_OK) {
		fprintf(stderr, "goref-mqtt-load: --mqtt takes HOST[:PORT], not '%s'\n", mqtt);
		return 64;
	}
	char (*ids)[80] = calloc((size_t)nboards, sizeof *ids);
	char (*pws)[160] = calloc((size_t)nboards, sizeof *pws);
	gm_board **boards = calloc((size_t)nboards, sizeof *boards);
	if (!ids || !boards || !pws)
		return 2;
	int status = 0;
	for (int i = 0; i < nboards; i++) {
		if (board1)
			snprintf(ids[i], sizeof ids[i], "%s", board1);
		else
			snprintf(ids[i], sizeof ids[i], "%s%02d", prefix, i + 1);
		if (dry)
			continue;
		gm_board_opts o;
		gm_board_opts_init(&o);
		o.conn.host = host;
		o.conn.port = port;
		o.conn.username = user ? user : ids[i];
		if (pwprefix)
			snprintf(pws[i], sizeof pws[i], "%s%s", pwprefix, ids[i]);
		o.conn.password = pwprefix ? pws[i] : password;
		o.conn.cafile = cafile;
		o.conn.trace = trace;
		o.conn.trace_ud = ids[i];
		o.hall = hall;
		o.board = topic_board ? topic_board : ids[i];
		char err[512];
		if (gm_board_new(&boards[i], &o, err, sizeof err) != GM_OK) {
			fprintf(stderr, "goref-mqtt-load: board %s: %s\n", ids[i], err);
			status = 2;
			nboards = i;
			break;
		}
	}
	/* the CPU is counted from when every board is connected to the end of
	 * the tail (--tail s of frames after the last event, for the last
	 * acknowledgements): the same frames, events and sleeps with --dry */
	double frame = 1.0 / fps;
	for (double give_up = gm_mono_s() + 10; !dry && gm_mono_s() < give_up;) {
		int up = 0;
		for (int i = 0; i < nboards; i++) {
			gm_board_stats st;
			gm_board_get_stats(boards[i], &st);
			up += st.connected;
		}
		if (up == nboards)
			break;
		idle_frames(boards, nboards, fps, frame);
	}
	FILE *jf = journal ? fopen(journal, "a") : NULL;
	if (journal && !jf) {
		fprintf(stderr, "goref-mqtt-load: cannot open %s\n", journal);
		return 2;
	}
	int *next = calloc((size_t)nboards, sizeof *next);
	bool *gave = calloc((size_t)nboards, sizeof *gave);
	if (!next || !gave)
		return 2;
	for (int i = 0; i < nboards; i++)
		next[i] = 1;
	counting = true;
	double cpu0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = gm_mono_s();
	char ev[1024], pos[1024];
	long given = 0;
	/* goref watch's loop: a frame (its events published as the referee
	 * gives them), the board polled, then the position if it changed */
	for (long f = 0; status == 0; f++) {
		if (rate > 0)
			sleep_until(t0 + (double)f * frame);
		double now = gm_mono_s();
		bool left = false;
		for (int i = 0; i < nboards; i++) {
			gave[i] = false;
			while (next[i] <= nevents && status == 0) {
				int k = next[i];
				/* every board's events at their times, spread over the second */
				if (rate > 0 && k > resume && t0 + ((double)(k - 1 - resume) + (double)i / nboards) / rate > now)
					break;
				int n = make_event(ev, sizeof ev, k, gm_wall_s());
				if (jf && (fprintf(jf, "%s\n", ev) < 0 || fflush(jf) != 0))
					status = 2;
				if (!dry) {
					double c0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
					if (gm_board_event(boards[i], (uint64_t)k, ev, (size_t)n) != GM_OK)
						status = 2;
					in_calls_ms += cpu_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
				}
				next[i]++;
				given++;
				gave[i] = true;
				if (rate == 0 && k > resume)
					break; /* as fast as it can: one a frame */
			}
			left |= next[i] <= nevents;
		}
		for (int i = 0; i < nboards && !dry; i++)
			poll_counted(boards[i]);
		for (int i = 0; i < nboards && !dry && position; i++) {
			if (!gave[i])
				continue;
			int k = next[i] - 1;
			/* as goref watch's: the stones of a 19x19 board too */
			char stones[19 * 19 + 1];
			for (int p = 0; p < 19 * 19; p++)
				stones[p] = p < k ? (p % 2 ? 'O' : 'X') : '.';
			stones[19 * 19] = '\0';
			int pn = snprintf(pos, sizeof pos,
			                  "{\"n\":%d,\"size\":19,\"moves\":%d,\"to_move\":\"%s\",\"warnings\":[%d,%d],"
			                  "\"finished\":false,\"ruling\":\"\",\"result\":\"\",\"page\":\"\",\"board\":\"%s\"}",
			                  k, k, k % 2 ? "W" : "B", k / 20, k / 20, stones);
			double c0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
			if (gm_board_position(boards[i], pos, (size_t)pn) != GM_OK)
				status = 2;
			in_calls_ms += cpu_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
		}
		if (!left)
			break;
	}
	idle_frames(boards, dry ? 0 : nboards, fps, tail);
	double cpu_pub = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	counting = false;
	double t_pub = gm_mono_s() - t0;
	free(next);
	free(gave);
	if (jf && fclose(jf) != 0)
		status = 2;
	uint64_t acked = 0, events = 0, refused = 0;
	for (int i = 0; i < nboards && !dry; i++) {
		gm_board_stats st;
		/* wait for the acknowledgements (up to --wait s in all) */
		while (gm_mono_s() - t0 - t_pub < wait) {
			gm_board_get_stats(boards[i], &st);
			if (st.acked >= st.events)
				break;
			idle_frames(boards, nboards, fps, frame);
		}
		gm_board_get_stats(boards[i], &st);
		acked += st.acked;
		events += st.events;
		refused += st.refused;
		printf("{\"board\":\"%s\",\"events\":%" PRIu64 ",\"acked\":%" PRIu64 ",\"published\":%" PRIu64
		       ",\"resends\":%" PRIu64 ",\"refused\":%" PRIu64 "}\n",
		       ids[i], st.events, st.acked, st.published, st.resends, st.refused);
	}
	if (linger > 0 && !dry)
		idle_frames(boards, nboards, fps, linger);
	for (int i = 0; i < nboards && !dry; i++)
		gm_board_free(boards[i], 2000);
	double cpu_all = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	printf("{\"summary\":true,\"boards\":%d,\"given\":%ld,\"acked\":%" PRIu64 ",\"refused\":%" PRIu64
	       ",\"seconds\":%.3f,\"cpu_ms\":%.3f,\"cpu_ms_window\":%.3f,\"cpu_ms_per_event\":%.5f,"
	       "\"cpu_ms_in_calls\":%.3f}\n",
	       nboards, given, acked, refused, t_pub, cpu_all, cpu_pub, given ? cpu_all / (double)given : 0.0, in_calls_ms);
	(void)events;
	free(ids);
	free(pws);
	free(boards);
	if (status == 0 && !dry && (acked < (uint64_t)given || refused > 0))
		status = 1;
	return status;
}
