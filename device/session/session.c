/* goref program: the game session. See session.h. */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const action_names[GD_ACT_COUNT_OF] = {
	"pass", "end", "count", "accept", "restore", "resign-black", "resign-white", "new-game", "corners",
};

const char *gd_action_name(gd_action a)
{
	return (unsigned)a < GD_ACT_COUNT_OF ? action_names[a] : "?";
}

int gd_action_parse(const char *name)
{
	for (int i = 0; i < GD_ACT_COUNT_OF; i++)
		if (!strcmp(name, action_names[i]))
			return i;
	return -1;
}

int gd_action_command(gd_action a, gr_color *color)
{
	*color = GR_EMPTY;
	switch (a) {
	case GD_ACT_PASS: return GR_CMD_PASS;
	case GD_ACT_END: return GR_CMD_END;
	case GD_ACT_COUNT: return GR_CMD_COUNT;
	case GD_ACT_ACCEPT: return GR_CMD_ACCEPT;
	case GD_ACT_RESTORE: return GR_CMD_RESTORE;
	case GD_ACT_RESIGN_BLACK: *color = GR_BLACK; return GR_CMD_RESIGN;
	case GD_ACT_RESIGN_WHITE: *color = GR_WHITE; return GR_CMD_RESIGN;
	default: return -1;
	}
}

void gd_session_opts_init(gd_session_opts *o)
{
	o->ring = 4096;
	o->event_max = 16384;
	o->queue = 16;
}

typedef struct slot {
	long id;
	char *text;
	size_t len;
} slot;

struct gd_session {
	gd_session_opts o;
	pthread_mutex_t mu;
	pthread_cond_t cond;
	/* events: ids first..next-1 in the ring, visible up to `visible` */
	slot *ring;
	long next;     /* the number the next event gets */
	long visible;  /* the last visible event */
	char *state, *sgf;
	size_t state_len, sgf_len;
	char *last_count;  /* the last count event (JSON), for the state */
	char *last_result;
	/* requests */
	gd_request *queue;
	int qhead, qlen;
	/* the frame, under its own lock */
	pthread_mutex_t fmu;
	unsigned char *frame;
	int fw, fh;
	long fserial;
	double fcopied;  /* when the last copy was made */
	double fwanted;  /* when a viewer last asked */
};

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int gd_session_new(gd_session **out, const gd_session_opts *o)
{
	*out = NULL;
	gd_session_opts d;
	gd_session_opts_init(&d);
	if (!o)
		o = &d;
	if (o->ring < 2 || o->ring > 1000000 || o->queue < 1 || o->queue > 10000 || o->event_max < 64)
		return GD_SESSION_EINVAL;
	gd_session *s = calloc(1, sizeof *s);
	if (!s)
		return GD_SESSION_ENOMEM;
	s->o = *o;
	s->ring = calloc((size_t)o->ring, sizeof *s->ring);
	s->queue = calloc((size_t)o->queue, sizeof *s->queue);
	if (!s->ring || !s->queue) {
		free(s->ring);
		free(s->queue);
		free(s);
		return GD_SESSION_ENOMEM;
	}
	s->next = 1;
	s->fcopied = -1e9;
	s->fwanted = -1e9;
	pthread_mutex_init(&s->mu, NULL);
	pthread_mutex_init(&s->fmu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	*out = s;
	return 0;
}

void gd_session_free(gd_session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->o.ring; i++)
		free(s->ring[i].text);
	free(s->ring);
	free(s->queue);
	free(s->state);
	free(s->sgf);
	free(s->last_count);
	free(s->last_result);
	free(s->frame);
	pthread_mutex_destroy(&s->mu);
	pthread_mutex_destroy(&s->fmu);
	pthread_cond_destroy(&s->cond);
	free(s);
}

int gd_session_request(gd_session *s, const gd_request *r)
{
	if ((unsigned)r->action >= GD_ACT_COUNT_OF)
		return GD_SESSION_EINVAL;
	pthread_mutex_lock(&s->mu);
	int rc = GD_SESSION_EFULL;
	if (s->qlen < s->o.queue) {
		gd_request *q = &s->queue[(s->qhead + s->qlen) % s->o.queue];
		*q = *r;
		q->who[sizeof q->who - 1] = '\0';
		s->qlen++;
		rc = 0;
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

int gd_session_act(gd_session *s, gd_action a, const char *who)
{
	gd_request r;
	memset(&r, 0, sizeof r);
	r.action = a;
	if (who)
		snprintf(r.who, sizeof r.who, "%s", who);
	return gd_session_request(s, &r);
}

int gd_session_take(gd_session *s, gd_request *r)
{
	pthread_mutex_lock(&s->mu);
	int got = 0;
	if (s->qlen > 0) {
		*r = s->queue[s->qhead];
		s->qhead = (s->qhead + 1) % s->o.queue;
		s->qlen--;
		got = 1;
	}
	pthread_mutex_unlock(&s->mu);
	return got;
}

/* True when json is an event of the type named ("count"). */
static bool is_type(const char *json, size_t n, const char *type)
{
	char pat[48];
	int pl = snprintf(pat, sizeof pat, "\"type\":\"%s\"", type);
	if (pl <= 0 || (size_t)pl >= sizeof pat)
		return false;
	for (size_t i = 0; i + (size_t)pl <= n; i++)
		if (!memcmp(json + i, pat, (size_t)pl))
			return true;
	return false;
}

static char *dup_n(const char *p, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

long gd_session_event(gd_session *s, const char *json, size_t n)
{
	/* copies made outside the lock: the readers never wait for malloc */
	char *text = n <= s->o.event_max ? dup_n(json, n) : NULL;
	if (n <= s->o.event_max && !text)
		return GD_SESSION_ENOMEM;
	bool count = text && is_type(json, n, "count"), result = text && is_type(json, n, "result");
	char *keep = (count || result) ? dup_n(json, n) : NULL;
	pthread_mutex_lock(&s->mu);
	long id = s->next++;
	slot *sl = &s->ring[id % s->o.ring];
	char *old = sl->text;
	sl->id = id;
	sl->text = text; /* NULL: too long to keep, a reader resyncs over it */
	sl->len = text ? n : 0;
	char *old_keep = NULL;
	if (keep && count) {
		old_keep = s->last_count;
		s->last_count = keep;
	} else if (keep) {
		old_keep = s->last_result;
		s->last_result = keep;
	}
	pthread_mutex_unlock(&s->mu);
	free(old);
	free(old_keep);
	return id;
}

int gd_session_publish(gd_session *s, const char *state, const char *sgf)
{
	size_t sl = state ? strlen(state) : 0, gl = sgf ? strlen(sgf) : 0;
	char *st = state ? dup_n(state, sl) : NULL, *sg = sgf ? dup_n(sgf, gl) : NULL;
	bool failed = (state && !st) || (sgf && !sg);
	char *old_st = NULL, *old_sg = NULL;
	pthread_mutex_lock(&s->mu);
	s->visible = s->next - 1;
	if (!failed) {
		if (st) {
			old_st = s->state;
			s->state = st;
			s->state_len = sl;
		}
		if (sg) {
			old_sg = s->sgf;
			s->sgf = sg;
			s->sgf_len = gl;
		}
	}
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->mu);
	if (failed) {
		free(st);
		free(sg);
		return GD_SESSION_ENOMEM;
	}
	free(old_st);
	free(old_sg);
	return 0;
}

void gd_session_forget_game(gd_session *s)
{
	pthread_mutex_lock(&s->mu);
	char *c = s->last_count, *r = s->last_result;
	s->last_count = s->last_result = NULL;
	pthread_mutex_unlock(&s->mu);
	free(c);
	free(r);
}

long gd_session_last(gd_session *s)
{
	pthread_mutex_lock(&s->mu);
	long v = s->visible;
	pthread_mutex_unlock(&s->mu);
	return v;
}

int gd_session_read(gd_session *s, long after, char *buf, size_t cap, long *id)
{
	int rc;
	pthread_mutex_lock(&s->mu);
	long want = after + 1;
	long oldest = s->next - s->o.ring; /* the oldest number the ring can still hold */
	if (after < 0 || after > s->visible) {
		rc = GD_SESSION_RESYNC;
	} else if (want > s->visible) {
		rc = 0;
	} else if (want < oldest || want < 1) {
		rc = GD_SESSION_RESYNC;
	} else {
		slot *sl = &s->ring[want % s->o.ring];
		if (sl->id != want || !sl->text) {
			rc = GD_SESSION_RESYNC;
		} else if (sl->len + 1 > cap || sl->len > 0x7fffffff) {
			rc = GD_SESSION_ETOOBIG;
		} else {
			memcpy(buf, sl->text, sl->len + 1);
			*id = want;
			rc = (int)sl->len;
		}
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

bool gd_session_wait(gd_session *s, long after, int timeout_ms)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&s->mu);
	while (s->visible <= after) {
		if (pthread_cond_timedwait(&s->cond, &s->mu, &until) != 0)
			break;
	}
	bool got = s->visible > after;
	pthread_mutex_unlock(&s->mu);
	return got;
}

static char *copy_out(gd_session *s, char **field, size_t flen, size_t *len)
{
	pthread_mutex_lock(&s->mu);
	char *c = *field ? dup_n(*field, flen) : NULL;
	if (len)
		*len = c ? flen : 0;
	pthread_mutex_unlock(&s->mu);
	return c;
}

char *gd_session_state(gd_session *s, size_t *len)
{
	return copy_out(s, &s->state, s->state_len, len);
}

char *gd_session_sgf(gd_session *s, size_t *len)
{
	return copy_out(s, &s->sgf, s->sgf_len, len);
}

bool gd_session_frame(gd_session *s, const unsigned char *rgb, int width, int height, size_t stride)
{
	if (width <= 0 || height <= 0 || width > 16384 || height > 16384)
		return false;
	double now = mono_s();
	if (pthread_mutex_trylock(&s->fmu) != 0)
		return false; /* a viewer is copying it out: the next one */
	bool copied = false;
	if (now - s->fwanted < 10.0 && now - s->fcopied >= 1.0) {
		size_t row = (size_t)width * 3;
		if (!s->frame || s->fw != width || s->fh != height) {
			free(s->frame);
			s->frame = malloc(row * (size_t)height);
			s->fw = s->frame ? width : 0;
			s->fh = s->frame ? height : 0;
		}
		if (s->frame) {
			for (int y = 0; y < height; y++)
				memcpy(s->frame + row * (size_t)y, rgb + stride * (size_t)y, row);
			s->fserial++;
			s->fcopied = now;
			copied = true;
		}
	}
	pthread_mutex_unlock(&s->fmu);
	return copied;
}

bool gd_session_frame_copy(gd_session *s, unsigned char **rgb, int *width, int *height, long *serial)
{
	pthread_mutex_lock(&s->fmu);
	s->fwanted = mono_s();
	bool ok = s->frame != NULL;
	*width = s->fw;
	*height = s->fh;
	*serial = s->fserial;
	if (ok && rgb) {
		size_t n = (size_t)s->fw * 3 * (size_t)s->fh;
		*rgb = malloc(n);
		if (*rgb)
			memcpy(*rgb, s->frame, n);
		else
			ok = false;
	}
	pthread_mutex_unlock(&s->fmu);
	return ok;
}

/* A growing string for the state. */
typedef struct sbuf {
	char *p;
	size_t len, cap;
	bool failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
	if (b->failed)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = true;
			return;
		}
		if (b->p && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t nc = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
		char *np = realloc(b->p, nc);
		if (!np) {
			b->failed = true;
			return;
		}
		b->p = np;
		b->cap = nc;
	}
}

char *gd_session_state_json(gd_session *s, const gr_referee *ref, const double *corners, int width, int height)
{
	sbuf b = {0};
	pthread_mutex_lock(&s->mu);
	long last = s->next - 1;
	char *count = s->last_count ? dup_n(s->last_count, strlen(s->last_count)) : NULL;
	char *result = s->last_result ? dup_n(s->last_result, strlen(s->last_result)) : NULL;
	pthread_mutex_unlock(&s->mu);
	sb_printf(&b, "{\"event\":%ld", last);
	if (width > 0 && height > 0)
		sb_printf(&b, ",\"frame\":[%d,%d]", width, height);
	if (corners) {
		sb_printf(&b, ",\"corners\":[");
		for (int i = 0; i < 8; i++)
			sb_printf(&b, "%s%.1f", i ? "," : "", corners[i]);
		sb_printf(&b, "]");
	}
	if (ref) {
		const gr_board *bd = gr_referee_board(ref);
		const gr_record *rec = gr_referee_record(ref);
		int n = bd->size;
		gr_color tm = gr_referee_to_move(ref);
		sb_printf(&b, ",\"size\":%d,\"to_move\":\"%s\",\"board\":[", n, tm == GR_WHITE ? "W" : "B");
		for (int y = 0; y < n; y++) {
			char row[20];
			for (int x = 0; x < n; x++) {
				gr_color c = (gr_color)bd->color[gr_pt(bd, x, y)];
				row[x] = c == GR_BLACK ? 'X' : c == GR_WHITE ? 'O' : '.';
			}
			row[n] = '\0';
			sb_printf(&b, "%s\"%s\"", y ? "," : "", row);
		}
		sb_printf(&b, "],\"moves\":[");
		int nm = gr_record_move_count(rec);
		for (int i = 0; i < nm; i++) {
			const gr_move *m = gr_record_move(rec, i);
			char name[8];
			gr_point_name(bd, m->pt, name);
			sb_printf(&b, "%s[\"%s\",\"%s\",%.1f]", i ? "," : "", m->color == GR_WHITE ? "W" : "B", name,
			          m->time);
		}
		sb_printf(&b, "],\"warnings\":{\"B\":%d,\"W\":%d},\"captured\":{\"B\":%d,\"W\":%d},\"finished\":%s",
		          gr_referee_warnings(ref, GR_BLACK), gr_referee_warnings(ref, GR_WHITE), bd->captured[GR_BLACK],
		          bd->captured[GR_WHITE], gr_referee_finished(ref) ? "true" : "false");
		const char *re = gr_record_prop(rec, "RE");
		if (re) {
			sb_printf(&b, ",\"re\":\"");
			for (const char *p = re; *p; p++)
				if ((unsigned char)*p >= 0x20 && *p != '"' && *p != '\\')
					sb_printf(&b, "%c", *p);
			sb_printf(&b, "\"");
		}
	}
	if (count)
		sb_printf(&b, ",\"count\":%s", count);
	if (result)
		sb_printf(&b, ",\"result\":%s", result);
	sb_printf(&b, "}");
	free(count);
	free(result);
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	return b.p;
}
