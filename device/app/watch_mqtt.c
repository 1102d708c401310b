/* goref watch's part in a hall of boards (issue 16). See watch_mqtt.h. */
#define _POSIX_C_SOURCE 200809L
#include "watch_mqtt.h"

#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mqtt.h"

struct watch_mqtt {
	gm_board *b;
	uint64_t n;              /* events so far */
	uint64_t pos_n;          /* the last position published covers these */
	uint64_t game;           /* the game's id */
	char ruling[256];        /* the words of the last ruling */
	char page[512];
	char game_path[1100];    /* JOURNAL.game: the game's id */
	char buf[4096];
};

static void trace(void *ud, int level, const char *msg)
{
	(void)ud;
	(void)level;
	fprintf(stderr, "goref watch: mqtt: %s\r\n", msg);
}

/* A new game's id (microseconds since 1970: a later game's is larger),
 * written to path. */
static uint64_t new_game_id(const char *path)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t id = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	FILE *f = fopen(path, "w");
	if (!f || fprintf(f, "%" PRIu64 "\n", id) < 0 || fclose(f) != 0)
		fprintf(stderr, "goref watch: mqtt: cannot write %s (a restart will look like a new game)\n", path);
	return id;
}

/* The id of the game in the journal: from JOURNAL.game when the journal
 * holds a game, else a new one. */
static uint64_t game_id(const char *journal, const char *path)
{
	struct stat sb;
	if (stat(journal, &sb) == 0 && sb.st_size > 0) {
		FILE *f = fopen(path, "r");
		unsigned long long id = 0;
		if (f) {
			if (fscanf(f, "%llu", &id) != 1)
				id = 0;
			fclose(f);
		}
		if (id > 0)
			return id;
	}
	return new_game_id(path);
}

int watch_mqtt_start(watch_mqtt **out, const watch_mqtt_opts *o)
{
	*out = NULL;
	char host[256];
	int port = 0;
	if (gm_parse_hostport(o->mqtt, host, sizeof host, &port) != GM_OK) {
		fprintf(stderr, "goref watch: --mqtt takes HOST[:PORT], not '%s'\n", o->mqtt);
		return EXIT_USAGE;
	}
	if (!o->hall || !*o->hall || !o->board_id || !*o->board_id) {
		fprintf(stderr, "goref watch: --mqtt needs --hall NAME and --board-id ID (or hall and board_id in the "
		                "settings)\n");
		return EXIT_USAGE;
	}
	watch_mqtt *w = calloc(1, sizeof *w);
	if (!w)
		return EXIT_INPUT;
	snprintf(w->page, sizeof w->page, "%s", o->page_url ? o->page_url : "");
	gm_board_opts bo;
	gm_board_opts_init(&bo);
	bo.conn.host = host;
	bo.conn.port = port;
	bo.conn.username = o->user && *o->user ? o->user : NULL;
	bo.conn.password = o->password && *o->password ? o->password : getenv("GOREF_MQTT_PASSWORD");
	bo.conn.cafile = o->cafile && *o->cafile ? o->cafile : NULL;
	bo.conn.trace = trace;
	bo.hall = o->hall;
	bo.board = o->board_id;
	bo.control_user = o->control_user && *o->control_user ? o->control_user : NULL;
	snprintf(w->game_path, sizeof w->game_path, "%s.game", o->journal ? o->journal : "goref-game.log");
	bo.game = w->game = game_id(o->journal ? o->journal : "goref-game.log", w->game_path);
	char err[512];
	int rc = gm_board_new(&w->b, &bo, err, sizeof err);
	if (rc != GM_OK) {
		fprintf(stderr, "goref watch: %s\n", err);
		free(w);
		return rc == GM_EINVAL ? EXIT_USAGE : EXIT_INPUT;
	}
	fprintf(stderr, "goref watch: publishing to %s as board %s of hall %s%s%s\n", o->mqtt, o->board_id, o->hall,
	        bo.control_user ? ", actions from " : "", bo.control_user ? bo.control_user : "");
	*out = w;
	return EXIT_OK;
}

/* what is announced with the bell: a ruling, a warning, the result */
static bool is_ruling(gr_event_type t)
{
	return gr_event_is_ruling(t) || t == GR_EV_WARNING || t == GR_EV_RESULT;
}

void watch_mqtt_event(watch_mqtt *w, const gr_event *e, const char *json, size_t len)
{
	if (!w)
		return;
	w->n++;
	if (is_ruling(e->type) && e->message)
		snprintf(w->ruling, sizeof w->ruling, "%s", e->message);
	if (gm_board_event(w->b, w->n, json, len) != GM_OK)
		fprintf(stderr, "goref watch: mqtt: event %" PRIu64 " could not be kept for the broker\r\n", w->n);
}

/* s as a JSON string into buf at *at (bounded). */
static void put_str(char *buf, size_t cap, size_t *at, const char *s)
{
	if (*at + 2 >= cap)
		return;
	buf[(*at)++] = '"';
	for (; *s && *at + 8 < cap; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			buf[(*at)++] = '\\';
			buf[(*at)++] = (char)c;
		} else if (c < 0x20) {
			*at += (size_t)snprintf(buf + *at, cap - *at, "\\u%04x", c);
		} else {
			buf[(*at)++] = (char)c;
		}
	}
	buf[(*at)++] = '"';
	buf[*at] = '\0';
}

void watch_mqtt_position(watch_mqtt *w, const gr_referee *ref, int size)
{
	if (!w || !ref || w->n == w->pos_n)
		return;
	const gr_record *rec = gr_referee_record(ref);
	const gr_board *b = gr_referee_board(ref);
	const char *result = gr_record_prop(rec, "RE");
	size_t cap = sizeof w->buf, at = 0;
	at += (size_t)snprintf(w->buf, cap,
	                       "{\"n\":%" PRIu64 ",\"game\":%" PRIu64 ",\"size\":%d,\"moves\":%d,\"to_move\":\"%s\",\"warnings\":[%d,%d],"
	                       "\"finished\":%s,\"ruling\":",
	                       w->n, w->game, size, gr_record_move_count(rec), gr_referee_to_move(ref) == GR_WHITE ? "W" : "B",
	                       gr_referee_warnings(ref, GR_BLACK), gr_referee_warnings(ref, GR_WHITE),
	                       gr_referee_finished(ref) ? "true" : "false");
	put_str(w->buf, cap, &at, w->ruling);
	at += (size_t)snprintf(w->buf + at, cap - at, ",\"result\":");
	put_str(w->buf, cap, &at, result ? result : "");
	at += (size_t)snprintf(w->buf + at, cap - at, ",\"page\":");
	put_str(w->buf, cap, &at, w->page);
	/* the stones, row by row from the top: . X O */
	at += (size_t)snprintf(w->buf + at, cap - at, ",\"board\":\"");
	for (int y = 0; y < size && at + 4 < cap; y++)
		for (int x = 0; x < size && at + 4 < cap; x++) {
			gr_color c = (gr_color)b->color[gr_pt(b, x, y)];
			w->buf[at++] = c == GR_BLACK ? 'X' : c == GR_WHITE ? 'O' : '.';
		}
	if (at + 3 >= cap)
		return;
	w->buf[at++] = '"';
	w->buf[at++] = '}';
	w->buf[at] = '\0';
	if (gm_board_position(w->b, w->buf, at) == GM_OK)
		w->pos_n = w->n;
}

void watch_mqtt_new_game(watch_mqtt *w)
{
	if (!w)
		return;
	w->game = new_game_id(w->game_path);
	gm_board_new_game(w->b, w->game);
	w->n = 0;
	w->pos_n = 0;
	w->ruling[0] = '\0';
}

void watch_mqtt_poll(watch_mqtt *w)
{
	if (w)
		gm_board_poll(w->b);
}

bool watch_mqtt_control(watch_mqtt *w, gd_action *act)
{
	gm_action a;
	if (!w || !gm_board_next_control(w->b, &a))
		return false;
	*act = a == GM_ACT_END ? GD_ACT_END : a == GM_ACT_COUNT ? GD_ACT_COUNT : GD_ACT_ACCEPT;
	fprintf(stderr, "goref watch: the director says %s\r\n", gm_action_name(a));
	return true;
}

void watch_mqtt_stop(watch_mqtt *w)
{
	if (!w)
		return;
	gm_board_stop(w->b, 3000);
	gm_board_stats st;
	gm_board_get_stats(w->b, &st);
	gm_board_free(w->b, 0);
	fprintf(stderr, "goref watch: mqtt: %" PRIu64 " events, %" PRIu64 " acknowledged by the broker\n", st.events,
	        st.acked);
	free(w);
}
