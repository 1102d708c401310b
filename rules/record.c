/* goref rules core: the game record. See record.h. */
#include "record.h"

#include <math.h>
#include <string.h>

typedef struct gr_setup_stone {
	gr_color color;
	int pt;
} gr_setup_stone;

typedef struct gr_prop {
	char *name;
	char *value;
} gr_prop;

struct gr_record {
	int size;
	double komi;
	int handicap;
	gr_color first_player;
	int warnings[3];
	char *root_comment;
	gr_setup_stone *setup;
	int nsetup, setup_cap;
	gr_move *moves; /* comments are owned: cast away const to free them */
	int nmoves, moves_cap;
	gr_prop *props;
	int nprops, props_cap;
};

/* Room for item n in arr (elem-sized items, *cap of them): returns arr, a
 * larger copy (and updates *cap), or NULL when out of memory (arr untouched). */
static void *grow(void *arr, int *cap, int n, size_t elem)
{
	if (n < *cap)
		return arr;
	int ncap = *cap ? *cap : 8;
	while (ncap <= n) {
		if (ncap > (int)(0x3fffffff / elem))
			return NULL;
		ncap *= 2;
	}
	void *p = gr_realloc(arr, (size_t)ncap * elem);
	if (p)
		*cap = ncap;
	return p;
}

static bool point_ok(const gr_record *r, int pt)
{
	int stride = r->size + 2;
	if (pt <= 0 || pt >= stride * stride)
		return false;
	int x = pt % stride - 1, y = pt / stride - 1;
	return x >= 0 && x < r->size && y >= 0 && y < r->size;
}

static bool color_ok(gr_color c) { return c == GR_BLACK || c == GR_WHITE; }

int gr_record_new(gr_record **out, int size)
{
	if (!out)
		return GR_EINVAL;
	*out = NULL;
	if (size < GR_MIN_SIZE || size > GR_MAX_SIZE)
		return GR_ERANGE;
	gr_record *r = gr_malloc(sizeof *r);
	if (!r)
		return GR_ENOMEM;
	memset(r, 0, sizeof *r);
	r->size = size;
	r->komi = 7.5;
	r->first_player = GR_EMPTY;
	if (gr_record_set_prop(r, "RU", "Chinese") != 0) {
		gr_record_free(r);
		return GR_ENOMEM;
	}
	*out = r;
	return 0;
}

void gr_record_free(gr_record *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nmoves; i++)
		gr_free((char *)r->moves[i].comment);
	for (int i = 0; i < r->nprops; i++) {
		gr_free(r->props[i].name);
		gr_free(r->props[i].value);
	}
	gr_free(r->moves);
	gr_free(r->props);
	gr_free(r->setup);
	gr_free(r->root_comment);
	gr_free(r);
}

int gr_record_size(const gr_record *r) { return r ? r->size : 0; }

double gr_record_komi(const gr_record *r) { return r ? r->komi : 0; }

void gr_record_set_komi(gr_record *r, double points)
{
	if (r && isfinite(points))
		r->komi = points;
}

int gr_record_handicap(const gr_record *r) { return r ? r->handicap : 0; }

void gr_record_set_handicap(gr_record *r, int stones)
{
	if (r)
		r->handicap = stones > 0 ? stones : 0;
}

int gr_record_add_setup(gr_record *r, gr_color c, int pt)
{
	if (!r || !color_ok(c) || !point_ok(r, pt))
		return GR_EINVAL;
	for (int i = 0; i < r->nsetup; i++)
		if (r->setup[i].pt == pt) {
			r->setup[i].color = c; /* one stone a point: the last word wins */
			return 0;
		}
	gr_setup_stone *s = grow(r->setup, &r->setup_cap, r->nsetup, sizeof *r->setup);
	if (!s)
		return GR_ENOMEM;
	r->setup = s;
	r->setup[r->nsetup++] = (gr_setup_stone){c, pt};
	return 0;
}

int gr_record_setup_count(const gr_record *r) { return r ? r->nsetup : 0; }

int gr_record_setup(const gr_record *r, int i, gr_color *c, int *pt)
{
	if (!r || i < 0 || i >= r->nsetup)
		return GR_ERANGE;
	if (c)
		*c = r->setup[i].color;
	if (pt)
		*pt = r->setup[i].pt;
	return 0;
}

gr_color gr_record_first_player(const gr_record *r) { return r ? r->first_player : GR_EMPTY; }

void gr_record_set_first_player(gr_record *r, gr_color c)
{
	if (r)
		r->first_player = color_ok(c) ? c : GR_EMPTY;
}

int gr_record_add_move(gr_record *r, gr_color c, int pt, double time, const char *comment)
{
	if (!r || !color_ok(c) || (pt != GR_PASS && !point_ok(r, pt)))
		return GR_EINVAL;
	if (r->nmoves >= GR_MAX_MOVES)
		return GR_ERANGE;
	gr_move *m = grow(r->moves, &r->moves_cap, r->nmoves, sizeof *r->moves);
	if (!m)
		return GR_ENOMEM;
	r->moves = m;
	char *copy = NULL;
	if (comment && *comment && !(copy = gr_strdup(comment)))
		return GR_ENOMEM;
	r->moves[r->nmoves++] = (gr_move){
		.color = c,
		.pt = pt,
		.time = (isfinite(time) && time >= 0) ? time : -1,
		.comment = copy,
	};
	return 0;
}

int gr_record_move_count(const gr_record *r) { return r ? r->nmoves : 0; }

const gr_move *gr_record_move(const gr_record *r, int i)
{
	if (!r || i < 0 || i >= r->nmoves)
		return NULL;
	return &r->moves[i];
}

int gr_record_append_comment(gr_record *r, int i, const char *text)
{
	if (!r || i < -1 || i >= r->nmoves)
		return GR_ERANGE;
	if (!text || !*text)
		return 0;
	char *old = i < 0 ? r->root_comment : (char *)r->moves[i].comment;
	size_t olen = old ? strlen(old) : 0, tlen = strlen(text);
	char *n = gr_malloc(olen + 1 + tlen + 1);
	if (!n)
		return GR_ENOMEM;
	size_t k = 0;
	if (old) {
		memcpy(n, old, olen);
		k = olen;
		n[k++] = '\n';
	}
	memcpy(n + k, text, tlen + 1);
	gr_free(old);
	if (i < 0)
		r->root_comment = n;
	else
		r->moves[i].comment = n;
	return 0;
}

const char *gr_record_root_comment(const gr_record *r) { return r ? r->root_comment : NULL; }

int gr_record_warnings(const gr_record *r, gr_color c)
{
	return r && color_ok(c) ? r->warnings[c] : 0;
}

void gr_record_set_warnings(gr_record *r, gr_color c, int n)
{
	if (r && color_ok(c))
		r->warnings[c] = n > 0 ? n : 0;
}

/* Names that have their own field or that the SGF writer produces itself. */
static const char *const reserved[] = {
	"FF", "GM", "CA", "AP", "SZ", "KM", "HA", "AB", "AW", "AE", "PL",
	"B", "W", "C", "GRTIME", "GRWARNB", "GRWARNW", NULL,
};

static bool name_ok(const char *name)
{
	if (!name || !*name)
		return false;
	size_t n = 0;
	for (const char *p = name; *p; p++, n++)
		if (*p < 'A' || *p > 'Z' || n >= 32)
			return false;
	for (int i = 0; reserved[i]; i++)
		if (!strcmp(name, reserved[i]))
			return false;
	return true;
}

const char *gr_record_prop(const gr_record *r, const char *name)
{
	if (!r || !name)
		return NULL;
	for (int i = 0; i < r->nprops; i++)
		if (!strcmp(r->props[i].name, name))
			return r->props[i].value;
	return NULL;
}

int gr_record_set_prop(gr_record *r, const char *name, const char *value)
{
	if (!r || !name_ok(name))
		return GR_EINVAL;
	int i = 0;
	while (i < r->nprops && strcmp(r->props[i].name, name))
		i++;
	if (!value) {
		if (i < r->nprops) {
			gr_free(r->props[i].name);
			gr_free(r->props[i].value);
			memmove(&r->props[i], &r->props[i + 1],
			        (size_t)(r->nprops - i - 1) * sizeof *r->props);
			r->nprops--;
		}
		return 0;
	}
	char *v = gr_strdup(value);
	if (!v)
		return GR_ENOMEM;
	if (i < r->nprops) {
		gr_free(r->props[i].value);
		r->props[i].value = v;
		return 0;
	}
	char *nm = gr_strdup(name);
	gr_prop *p = nm ? grow(r->props, &r->props_cap, r->nprops, sizeof *r->props) : NULL;
	if (!p) {
		gr_free(nm);
		gr_free(v);
		return GR_ENOMEM;
	}
	r->props = p;
	r->props[r->nprops++] = (gr_prop){nm, v};
	return 0;
}

int gr_record_prop_count(const gr_record *r) { return r ? r->nprops : 0; }

const char *gr_record_prop_name(const gr_record *r, int i)
{
	return r && i >= 0 && i < r->nprops ? r->props[i].name : NULL;
}
