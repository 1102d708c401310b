/* goref program: the hall's subscriber (issue 16): every board's events in
 * order, repeats dropped by number, gaps asked for again. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <mosquitto.h>

#include "mqtt.h"
#include "mqtt_int.h"
#include "referee.h"

enum { GM_MAX_BOARDS = 4096, GM_PAYLOAD_MAX = 1 << 16 };

typedef struct hboard {
	gm_tile tile;
	uint64_t shown;     /* the tile's words come from events and positions up to this number */
	uint64_t asked;     /* resend asked from this number ... */
	double asked_at;    /* ... at this time (monotonic s) */
} hboard;

struct gm_hall {
	gm_hall_opts o;
	char host[256], hall[65], user[128], pass[256], cafile[1024], id[160];
	char sub_events[200], sub_position[200], sub_status[200];
	struct mosquitto *m;
	pthread_mutex_t mu;
	hboard *b;
	int nb, cap;
	bool connected;
	int last_connack;
	gm_hall_stats st;
};

void gm_hall_opts_init(gm_hall_opts *o)
{
	memset(o, 0, sizeof *o);
	gm_conn_opts_init(&o->conn);
}

/* The board named name[0..len) (made when new, NULL when too many). mu held. */
static hboard *board_of(gm_hall *h, const char *name, size_t len)
{
	for (int i = 0; i < h->nb; i++)
		if (strlen(h->b[i].tile.board) == len && !memcmp(h->b[i].tile.board, name, len))
			return &h->b[i];
	if (h->nb == GM_MAX_BOARDS || len > 64)
		return NULL;
	if (h->nb == h->cap) {
		int nc = h->cap ? h->cap * 2 : 64;
		hboard *nb = realloc(h->b, (size_t)nc * sizeof *nb);
		if (!nb)
			return NULL;
		h->b = nb;
		h->cap = nc;
	}
	hboard *b = &h->b[h->nb++];
	memset(b, 0, sizeof *b);
	memcpy(b->tile.board, name, len);
	b->tile.board[len] = '\0';
	return b;
}

/* Asks board b for its events from its next one (at most every 2 s for the
 * same number). mu held. */
static void ask_resend(gm_hall *h, hboard *b)
{
	uint64_t from = b->tile.n + 1;
	double now = gm_mono_s();
	if (b->asked == from && now - b->asked_at < 2.0)
		return;
	char topic[200], payload[48];
	snprintf(topic, sizeof topic, "goref/%s/%s/resend", h->hall, b->tile.board);
	int n = snprintf(payload, sizeof payload, "{\"from\":%" PRIu64 "}", from);
	if (mosquitto_publish(h->m, NULL, topic, n, payload, 1, false) == MOSQ_ERR_SUCCESS) {
		b->asked = from;
		b->asked_at = now;
		h->st.resend_asks++;
	}
}

/* what flashes a tile: a ruling, a warning, the result */
static bool is_ruling(const char *type)
{
	int t = gr_event_type_parse(type);
	return t >= 0 && (gr_event_is_ruling((gr_event_type)t) || t == GR_EV_WARNING || t == GR_EV_RESULT);
}

static void take_string(char *dst, size_t cap, const cJSON *j, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
	if (cJSON_IsString(v))
		snprintf(dst, cap, "%s", v->valuestring);
}

/* A newer game on board b: its tile starts again. false when game is an
 * older one (a late message of a game gone by: dropped). mu held. */
static bool same_game(hboard *b, uint64_t game)
{
	if (game == b->tile.game)
		return true;
	if (game < b->tile.game)
		return false;
	gm_tile t = {0};
	memcpy(t.board, b->tile.board, sizeof t.board);
	t.online = b->tile.online;
	t.has_status = b->tile.has_status;
	memcpy(t.page, b->tile.page, sizeof t.page);
	t.game = game;
	b->tile = t;
	b->shown = 0;
	b->asked = 0;
	return true;
}

/* An event: applied when it is the next, else dropped (and a gap asked for). */
static void take_event(gm_hall *h, hboard *b, const char *p, size_t len)
{
	uint64_t n = 0, game = 0;
	if (len > 6 && !memcmp(p, "{\"n\":", 5)) {
		char *e = NULL;
		n = strtoull(p + 5, &e, 10);
		if (e && !strncmp(e, ",\"game\":", 8))
			game = strtoull(e + 8, &e, 10);
		if (!e || (*e != ',' && *e != '}'))
			n = 0;
	}
	if (n == 0) {
		h->st.malformed++;
		gm_tracef(&h->o.conn, 1, "board %s: an event without its number: dropped", b->tile.board);
		return;
	}
	if (!same_game(b, game) || n <= b->tile.n) {
		h->st.repeats++;
		return;
	}
	if (n > b->tile.n + 1) {
		h->st.gaps++;
		ask_resend(h, b);
		return;
	}
	cJSON *j = cJSON_ParseWithLength(p, len);
	if (!j || !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		h->st.malformed++;
		gm_tracef(&h->o.conn, 1, "board %s: event %" PRIu64 " is not a JSON object: dropped", b->tile.board, n);
		return;
	}
	gm_tile *t = &b->tile;
	t->n = n;
	t->last_wall = gm_wall_s();
	h->st.applied++;
	if (n > b->shown) {
		b->shown = n;
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
		const char *ty = cJSON_IsString(type) ? type->valuestring : "";
		snprintf(t->last_type, sizeof t->last_type, "%s", ty);
		const cJSON *mv = cJSON_GetObjectItemCaseSensitive(j, "move");
		if (!strcmp(ty, "move") && cJSON_IsNumber(mv))
			t->moves = mv->valueint;
		if (is_ruling(ty))
			take_string(t->last_ruling, sizeof t->last_ruling, j, "message");
		const cJSON *col = cJSON_GetObjectItemCaseSensitive(j, "color");
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "warnings");
		if (!strcmp(ty, "warning") && cJSON_IsString(col) && cJSON_IsNumber(w))
			t->warnings[col->valuestring[0] == 'W'] = w->valueint;
		if (!strcmp(ty, "result"))
			take_string(t->result, sizeof t->result, j, "result");
	}
	cJSON_Delete(j);
	if (h->o.on_update)
		h->o.on_update(h->o.ud, GM_UP_EVENT, t, p, len);
}

static void take_position(gm_hall *h, hboard *b, const char *p, size_t len)
{
	cJSON *j = cJSON_ParseWithLength(p, len);
	const cJSON *nj = j ? cJSON_GetObjectItemCaseSensitive(j, "n") : NULL;
	if (!j || !cJSON_IsNumber(nj) || nj->valuedouble < 0) {
		cJSON_Delete(j);
		h->st.malformed++;
		gm_tracef(&h->o.conn, 1, "board %s: a position that is not a JSON object with its \"n\": dropped",
		          b->tile.board);
		return;
	}
	uint64_t n = (uint64_t)nj->valuedouble;
	const cJSON *gj = cJSON_GetObjectItemCaseSensitive(j, "game");
	if (!same_game(b, cJSON_IsNumber(gj) && gj->valuedouble > 0 ? (uint64_t)gj->valuedouble : 0)) {
		cJSON_Delete(j);
		return; /* a game gone by */
	}
	gm_tile *t = &b->tile;
	take_string(t->page, sizeof t->page, j, "page");
	if (n > b->shown) { /* ahead of the events: its words on the tile now */
		b->shown = n;
		const cJSON *mv = cJSON_GetObjectItemCaseSensitive(j, "moves");
		if (cJSON_IsNumber(mv))
			t->moves = mv->valueint;
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "warnings");
		if (cJSON_IsArray(w) && cJSON_GetArraySize(w) == 2) {
			t->warnings[0] = cJSON_GetArrayItem(w, 0)->valueint;
			t->warnings[1] = cJSON_GetArrayItem(w, 1)->valueint;
		}
		take_string(t->last_ruling, sizeof t->last_ruling, j, "ruling");
		take_string(t->result, sizeof t->result, j, "result");
	}
	cJSON_Delete(j);
	if (n > t->n)
		ask_resend(h, b); /* events the hall has not had */
	if (h->o.on_update)
		h->o.on_update(h->o.ud, GM_UP_POSITION, t, p, len);
}

static void on_message(struct mosquitto *m, void *obj, const struct mosquitto_message *msg)
{
	(void)m;
	gm_hall *h = obj;
	/* goref/HALL/BOARD/KIND */
	const char *t = msg->topic;
	size_t hl = strlen(h->hall);
	if (strncmp(t, "goref/", 6) || strncmp(t + 6, h->hall, hl) || t[6 + hl] != '/')
		return;
	const char *bname = t + 7 + hl;
	const char *slash = strchr(bname, '/');
	if (!slash || slash == bname)
		return;
	const char *kind = slash + 1;
	const char *p = msg->payload ? msg->payload : "";
	size_t len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0;
	pthread_mutex_lock(&h->mu);
	hboard *b = board_of(h, bname, (size_t)(slash - bname));
	if (!b) {
		pthread_mutex_unlock(&h->mu);
		return;
	}
	if (len > GM_PAYLOAD_MAX) {
		h->st.malformed++;
		gm_tracef(&h->o.conn, 1, "board %s: a message of %zu bytes on %s: dropped", b->tile.board, len, msg->topic);
	} else if (!strcmp(kind, "events")) {
		take_event(h, b, p, len);
	} else if (!strcmp(kind, "position")) {
		if (len > 0) /* an empty retained message clears it */
			take_position(h, b, p, len);
	} else if (!strcmp(kind, "status")) {
		if ((len == 6 && !memcmp(p, "online", 6)) || (len == 7 && !memcmp(p, "offline", 7))) {
			b->tile.online = len == 6;
			b->tile.has_status = true;
			if (h->o.on_update)
				h->o.on_update(h->o.ud, GM_UP_STATUS, &b->tile, NULL, 0);
		} else {
			h->st.malformed++;
			gm_tracef(&h->o.conn, 1, "board %s: a status that is neither online nor offline", b->tile.board);
		}
	}
	pthread_mutex_unlock(&h->mu);
}

static void on_connect(struct mosquitto *m, void *obj, int rc)
{
	gm_hall *h = obj;
	pthread_mutex_lock(&h->mu);
	bool again = rc == h->last_connack;
	h->last_connack = rc;
	if (rc == 0)
		h->connected = true;
	pthread_mutex_unlock(&h->mu);
	if (rc != 0) {
		if (!again)
			gm_tracef(&h->o.conn, 1, "the broker refused the hall %s: %s (trying again)", h->hall,
			          gm_connack_words(MQTT_PROTOCOL_V311, rc));
		return;
	}
	/* again at every connection: a broker restarted without its store has
	 * forgotten the session */
	mosquitto_subscribe(m, NULL, h->sub_events, 1);
	mosquitto_subscribe(m, NULL, h->sub_position, 1);
	mosquitto_subscribe(m, NULL, h->sub_status, 1);
	gm_tracef(&h->o.conn, 0, "the hall %s is connected to the broker", h->hall);
}

static void on_disconnect(struct mosquitto *m, void *obj, int rc)
{
	(void)m;
	gm_hall *h = obj;
	pthread_mutex_lock(&h->mu);
	bool was = h->connected;
	h->connected = false;
	pthread_mutex_unlock(&h->mu);
	if (was && rc != 0)
		gm_tracef(&h->o.conn, 1, "the hall lost the broker: trying again");
}

int gm_hall_new(gm_hall **out, const gm_hall_opts *o, char *err, size_t cap)
{
	*out = NULL;
	if (!gm_name_ok(o->hall)) {
		snprintf(err, cap, "the hall must be 1 to 64 of A-Z a-z 0-9 _ . - (not '%s')", o->hall ? o->hall : "");
		return GM_EINVAL;
	}
	gm_hall *h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, cap, "out of memory");
		return GM_ENOMEM;
	}
	h->o = *o;
	{
		snprintf(h->host, sizeof h->host, "%s", o->conn.host ? o->conn.host : "");
		snprintf(h->hall, sizeof h->hall, "%s", o->hall);
		snprintf(h->user, sizeof h->user, "%s", o->conn.username ? o->conn.username : "");
		snprintf(h->pass, sizeof h->pass, "%s", o->conn.password ? o->conn.password : "");
		snprintf(h->cafile, sizeof h->cafile, "%s", o->conn.cafile ? o->conn.cafile : "");
		if (o->client_id && *o->client_id)
			snprintf(h->id, sizeof h->id, "%s", o->client_id);
		else
			snprintf(h->id, sizeof h->id, "goref-hall-%s", o->hall);
	}
	h->o.conn.host = h->host[0] ? h->host : NULL;
	h->o.conn.username = o->conn.username ? h->user : NULL;
	h->o.conn.password = o->conn.password ? h->pass : NULL;
	h->o.conn.cafile = h->cafile[0] ? h->cafile : NULL;
	snprintf(h->sub_events, sizeof h->sub_events, "goref/%s/+/events", h->hall);
	snprintf(h->sub_position, sizeof h->sub_position, "goref/%s/+/position", h->hall);
	snprintf(h->sub_status, sizeof h->sub_status, "goref/%s/+/status", h->hall);
	pthread_mutex_init(&h->mu, NULL);
	/* a kept session (clean false, MQTT 3.1.1): the broker holds the
	 * events for the hall while it is away */
	h->m = gm_client_new(h->id, false, MQTT_PROTOCOL_V311, &h->o.conn, h, err, cap);
	if (!h->m) {
		gm_hall_free(h);
		return GM_EMQTT;
	}
	mosquitto_connect_callback_set(h->m, on_connect);
	mosquitto_disconnect_callback_set(h->m, on_disconnect);
	mosquitto_message_callback_set(h->m, on_message);
	int rc = gm_client_start(h->m, &h->o.conn, err, cap);
	if (rc != GM_OK) {
		gm_hall_free(h);
		return rc;
	}
	*out = h;
	return GM_OK;
}

void gm_hall_free(gm_hall *h)
{
	if (!h)
		return;
	if (h->m) {
		mosquitto_disconnect(h->m);
		mosquitto_loop_stop(h->m, false);
		mosquitto_destroy(h->m);
	}
	free(h->b);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

int gm_hall_control(gm_hall *h, const char *board, gm_action a)
{
	if (!gm_name_ok(board) || !h->user[0] || gm_action_parse(gm_action_name(a)) < 0)
		return GM_EINVAL;
	char topic[300], payload[64];
	snprintf(topic, sizeof topic, "goref/%s/%s/control/%s", h->hall, board, h->user);
	int n = snprintf(payload, sizeof payload, "{\"action\":\"%s\"}", gm_action_name(a));
	int rc = mosquitto_publish(h->m, NULL, topic, n, payload, 1, false);
	if (rc != MOSQ_ERR_SUCCESS) {
		gm_tracef(&h->o.conn, 1, "control %s to board %s: %s", gm_action_name(a), board, mosquitto_strerror(rc));
		return GM_EMQTT;
	}
	return GM_OK;
}

static int tile_cmp(const void *a, const void *b)
{
	return strcmp(((const gm_tile *)a)->board, ((const gm_tile *)b)->board);
}

int gm_hall_tiles(gm_hall *h, gm_tile *out, int cap)
{
	pthread_mutex_lock(&h->mu);
	int n = h->nb;
	for (int i = 0; i < n && i < cap; i++)
		out[i] = h->b[i].tile;
	pthread_mutex_unlock(&h->mu);
	if (out && cap > 0)
		qsort(out, (size_t)(n < cap ? n : cap), sizeof *out, tile_cmp);
	return n;
}

void gm_hall_get_stats(gm_hall *h, gm_hall_stats *st)
{
	pthread_mutex_lock(&h->mu);
	*st = h->st;
	st->connected = h->connected;
	pthread_mutex_unlock(&h->mu);
}
