/* goref rules core: SGF reading and writing. See sgf.h. */
#include "sgf.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h> /* vsnprintf / snprintf into buffers only */
#include <string.h>

#define MAX_ID 32     /* capital letters in a property name */
#define MAX_SHOWN 24  /* characters of a value quoted in a message */

/* ---- reading ---------------------------------------------------------- */

typedef struct span {
	size_t start, end; /* the raw text between '[' and ']' */
} span;

typedef struct prop {
	char name[MAX_ID + 1];
	size_t pos;      /* offset of the name */
	size_t first, n; /* its values: vals[first .. first + n) */
} prop;

typedef struct parser {
	const char *t;
	size_t len, i;
	gr_error *err;
	prop *props; /* the properties of the node being read */
	size_t nprops, props_cap;
	span *vals;
	size_t nvals, vals_cap;
	char *buf; /* a decoded value, NUL-terminated */
	size_t blen, buf_cap;
	gr_record *r; /* made when the root node has been read */
	uint8_t setup[GR_MAX_POINTS]; /* the colour of the setup stone at each point */
	/* comments wait here until their move is complete, so that many C make
	 * no quadratic copying: for move ctarget (-1 the root) */
	char *cbuf;
	size_t clen, ccap;
	int ctarget;
} parser;

/* 1-based line and column (in bytes) of offset off. */
static void linecol(const char *t, size_t len, size_t off, int *line, int *col)
{
	size_t l = 1, c = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		if (t[i] == '\n' || (t[i] == '\r' && (i + 1 >= len || t[i + 1] != '\n'))) {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l > INT32_MAX ? INT32_MAX : (int)l;
	*col = c > INT32_MAX ? INT32_MAX : (int)c;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(parser *p, int code, size_t off, const char *fmt, ...)
{
	if (p->err) {
		linecol(p->t, p->len, off, &p->err->line, &p->err->column);
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int oom(parser *p) { return gr_error_set(p->err, GR_ENOMEM, 0, 0, "out of memory"); }

/* s[0..n) made fit to quote in a message: printable ASCII, shortened. */
static const char *shown(const char *s, size_t n, char out[MAX_SHOWN + 4])
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < MAX_SHOWN; i++) {
		unsigned char c = (unsigned char)s[i];
		out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (k < n)
		memcpy(out + k, "...", 3), k += 3;
	out[k] = 0;
	return out;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

static void skip_ws(parser *p)
{
	while (p->i < p->len && is_ws(p->t[p->i]))
		p->i++;
}

/* Room for item n in arr (elem-sized items, *cap of them): returns arr or a
 * larger copy (updating *cap), or NULL when out of memory (arr untouched). */
static void *room(void *arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return arr;
	size_t ncap = *cap ? *cap * 2 : 16;
	if (ncap > SIZE_MAX / 2 / elem)
		return NULL;
	void *q = gr_realloc(arr, ncap * elem);
	if (q)
		*cap = ncap;
	return q;
}

/* Reads the properties of a node, p->i just past its ';'. keep: store them in
 * p->props for the caller (main line), else only check the syntax. */
static int read_node(parser *p, bool keep)
{
	p->nprops = p->nvals = 0;
	for (;;) {
		skip_ws(p);
		if (p->i >= p->len || !(is_upper(p->t[p->i]) || is_lower(p->t[p->i])))
			return 0;
		size_t pos = p->i;
		char name[MAX_ID + 1];
		size_t n = 0;
		for (; p->i < p->len && (is_upper(p->t[p->i]) || is_lower(p->t[p->i])); p->i++) {
			if (!is_upper(p->t[p->i]))
				continue; /* FF[3] long names: "AddBlack" is AB */
			if (n == MAX_ID)
				return fail(p, GR_EPARSE, pos,
				            "property name too long (more than %d capital letters)", MAX_ID);
			name[n++] = p->t[p->i];
		}
		name[n] = 0;
		if (n == 0) {
			char s[MAX_SHOWN + 4];
			return fail(p, GR_EPARSE, pos, "property name '%s' has no capital letter",
			            shown(p->t + pos, p->i - pos, s));
		}
		skip_ws(p);
		if (p->i >= p->len || p->t[p->i] != '[')
			return fail(p, GR_EPARSE, p->i >= p->len ? pos : p->i,
			            "property %s has no value: expected '['", name);
		size_t first = p->nvals;
		while (p->i < p->len && p->t[p->i] == '[') {
			size_t open = p->i++;
			size_t start = p->i;
			while (p->i < p->len && p->t[p->i] != ']') {
				if (p->t[p->i] == '\\')
					p->i++; /* the escaped character, if any, is skipped below */
				p->i++;
			}
			if (p->i >= p->len)
				return fail(p, GR_EPARSE, open,
				            "unterminated property value: %s[ has no closing ']'", name);
			if (keep) {
				span *vs = room(p->vals, &p->vals_cap, p->nvals, sizeof *p->vals);
				if (!vs)
					return oom(p);
				p->vals = vs;
				p->vals[p->nvals++] = (span){start, p->i};
			}
			p->i++;
			skip_ws(p);
		}
		if (keep) {
			prop *ps = room(p->props, &p->props_cap, p->nprops, sizeof *p->props);
			if (!ps)
				return oom(p);
			p->props = ps;
			prop *pr = &p->props[p->nprops++];
			memcpy(pr->name, name, n + 1);
			pr->pos = pos;
			pr->first = first;
			pr->n = p->nvals - first;
		}
	}
}

/* Decodes value v into p->buf: escapes and soft line breaks removed, line
 * breaks made "\n". */
static int decode(parser *p, span v)
{
	size_t need = v.end - v.start + 1;
	if (need > p->buf_cap) {
		char *b = gr_realloc(p->buf, need);
		if (!b)
			return oom(p);
		p->buf = b;
		p->buf_cap = need;
	}
	const char *t = p->t;
	size_t k = 0;
	for (size_t i = v.start; i < v.end; i++) {
		char c = t[i];
		bool escaped = false;
		if (c == '\\' && i + 1 < v.end) {
			c = t[++i];
			escaped = true;
		}
		if (c == '\n' || c == '\r') {
			/* one line break: LF, CR, CR LF or LF CR */
			if (i + 1 < v.end && (t[i + 1] == '\n' || t[i + 1] == '\r') && t[i + 1] != c)
				i++;
			if (escaped)
				continue; /* a soft line break */
			c = '\n';
		}
		p->buf[k++] = c;
	}
	p->buf[k] = 0;
	p->blen = k;
	return 0;
}

/* The decoded value without the blanks around it. */
static const char *trimmed(parser *p, size_t *n)
{
	const char *s = p->buf;
	size_t e = p->blen;
	while (e > 0 && is_ws(s[e - 1]))
		e--;
	while (e > 0 && is_ws(*s))
		s++, e--;
	*n = e;
	return s;
}

enum { NUM_OK = 0, NUM_BAD = 1, NUM_BIG = 2 };

/* A whole number: optional '+', 1 to 9 digits (leading zeros aside). */
static int parse_int(const char *s, size_t n, int *v)
{
	size_t i = 0;
	if (i < n && s[i] == '+')
		i++;
	if (i == n)
		return NUM_BAD;
	long long x = 0;
	int digits = 0;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return NUM_BAD;
		if (x || s[i] != '0')
			digits++;
		if (digits > 9)
			return NUM_BIG;
		x = x * 10 + (s[i] - '0');
	}
	*v = (int)x;
	return NUM_OK;
}

/* A decimal number: optional sign, digits, optional '.' and digits, at most 9
 * digits before the point; digits after the ninth past it are dropped. Read
 * without the C library so the locale plays no part, and exactly (one
 * rounding) when it has at most 15 digits. */
static int parse_real(const char *s, size_t n, double *v)
{
	static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	size_t i = 0;
	bool neg = false;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	uint64_t m = 0;
	int idigits = 0, fdigits = 0, any = 0;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, any++) {
		if (m || s[i] != '0')
			idigits++;
		if (idigits > 9)
			return NUM_BIG;
		m = m * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, any++)
			if (fdigits < 9) {
				m = m * 10 + (uint64_t)(s[i] - '0');
				fdigits++;
			}
	}
	if (!any || i != n)
		return NUM_BAD;
	double x = (double)m / pow10[fdigits];
	*v = neg ? -x : x;
	return NUM_OK;
}

static bool is_name(const prop *pr, const char *name) { return !strcmp(pr->name, name); }

/* Decodes the single value of pr (error when it has several). */
static int single(parser *p, const prop *pr)
{
	if (pr->n != 1)
		return fail(p, GR_EPARSE, pr->pos, "%s takes one value, not %zu", pr->name, pr->n);
	return decode(p, p->vals[pr->first]);
}

static int number_of(parser *p, const prop *pr, int lo, int hi, int *v)
{
	int rc = single(p, pr);
	if (rc)
		return rc;
	size_t n;
	const char *s = trimmed(p, &n);
	char sh[MAX_SHOWN + 4];
	size_t at = p->vals[pr->first].start;
	switch (parse_int(s, n, v)) {
	case NUM_BAD:
		return fail(p, GR_EPARSE, at, "%s[%s]: not a whole number", pr->name, shown(s, n, sh));
	case NUM_BIG:
		return fail(p, GR_ERANGE, at, "%s[%s]: number too large", pr->name, shown(s, n, sh));
	}
	if (*v < lo || *v > hi)
		return fail(p, GR_ERANGE, at, "%s[%s]: must be %d..%d", pr->name, shown(s, n, sh), lo,
		            hi);
	return 0;
}

static int real_of(parser *p, const prop *pr, double *v)
{
	int rc = single(p, pr);
	if (rc)
		return rc;
	size_t n;
	const char *s = trimmed(p, &n);
	char sh[MAX_SHOWN + 4];
	size_t at = p->vals[pr->first].start;
	switch (parse_real(s, n, v)) {
	case NUM_BAD:
		return fail(p, GR_EPARSE, at, "%s[%s]: not a decimal number", pr->name,
		            shown(s, n, sh));
	case NUM_BIG:
		return fail(p, GR_ERANGE, at, "%s[%s]: number too large", pr->name, shown(s, n, sh));
	}
	return 0;
}

/* The board size of an SZ value: 2..19, square. */
static int size_of(parser *p, const prop *pr, int *size)
{
	int rc = single(p, pr);
	if (rc)
		return rc;
	size_t n;
	const char *s = trimmed(p, &n);
	char sh[MAX_SHOWN + 4];
	size_t at = p->vals[pr->first].start;
	const char *colon = memchr(s, ':', n);
	size_t n1 = colon ? (size_t)(colon - s) : n;
	int w = 0, h = 0;
	int r1 = parse_int(s, n1, &w);
	int r2 = colon ? parse_int(colon + 1, n - n1 - 1, &h) : r1;
	if (!colon)
		h = w;
	if (r1 == NUM_BAD || r2 == NUM_BAD)
		return fail(p, GR_EPARSE, at, "SZ[%s]: not a board size", shown(s, n, sh));
	if (r1 == NUM_BIG || r2 == NUM_BIG || w != h)
		return fail(p, GR_ERANGE, at,
		            w != h && r1 == NUM_OK && r2 == NUM_OK
		                ? "SZ[%s]: only square boards are supported"
		                : "SZ[%s]: board size must be 2..19",
		            shown(s, n, sh));
	if (w < GR_MIN_SIZE || w > GR_MAX_SIZE)
		return fail(p, GR_ERANGE, at, "SZ[%s]: board size must be %d..%d", shown(s, n, sh),
		            GR_MIN_SIZE, GR_MAX_SIZE);
	*size = w;
	return 0;
}

static int coord(char c)
{
	if (is_lower(c))
		return c - 'a';
	if (is_upper(c))
		return c - 'A' + 26;
	return -1;
}

/* Point s[0..2) (checked to be two letters) on the record's board. */
static int point_at(const gr_record *r, int x, int y)
{
	int stride = gr_record_size(r) + 2;
	return (y + 1) * stride + (x + 1);
}

/* The point of an SGF point value s[0..n), for what ("move", "AB", ...):
 * *pt gets a point, or GR_PASS for a move "" or "tt". */
static int point_of(parser *p, const char *what, const char *s, size_t n, size_t at, bool move,
                    int *pt, int *xo, int *yo)
{
	int size = gr_record_size(p->r);
	char sh[MAX_SHOWN + 4];
	if (move && (n == 0 || (n == 2 && s[0] == 't' && s[1] == 't'))) {
		*pt = GR_PASS;
		return 0;
	}
	if (n != 2 || coord(s[0]) < 0 || coord(s[1]) < 0)
		return fail(p, GR_EPARSE, at, "%s '%s' is not an SGF point (two letters)", what,
		            shown(s, n, sh));
	int x = coord(s[0]), y = coord(s[1]);
	if (x >= size || y >= size)
		return fail(p, GR_ERANGE, at, "%s '%s' is off a %dx%d board", what, shown(s, n, sh),
		            size, size);
	*pt = point_at(p->r, x, y);
	if (xo)
		*xo = x, *yo = y;
	return 0;
}

/* AB, AW or AE (c GR_EMPTY): every point of every value, "aa:cc" being a
 * rectangle. */
static int setup_prop(parser *p, const prop *pr, gr_color c)
{
	for (size_t k = 0; k < pr->n; k++) {
		span v = p->vals[pr->first + k];
		int rc = decode(p, v);
		if (rc)
			return rc;
		size_t n;
		const char *s = trimmed(p, &n);
		const char *colon = memchr(s, ':', n);
		size_t n1 = colon ? (size_t)(colon - s) : n;
		int pt, x0, y0, x1, y1;
		if ((rc = point_of(p, pr->name, s, n1, v.start, false, &pt, &x0, &y0)))
			return rc;
		x1 = x0, y1 = y0;
		if (colon && (rc = point_of(p, pr->name, colon + 1, n - n1 - 1, v.start, false, &pt,
		                            &x1, &y1)))
			return rc;
		for (int y = y0 < y1 ? y0 : y1; y <= (y0 < y1 ? y1 : y0); y++)
			for (int x = x0 < x1 ? x0 : x1; x <= (x0 < x1 ? x1 : x0); x++) {
				pt = point_at(p->r, x, y);
				gr_color there = (gr_color)p->setup[pt];
				char sh[MAX_SHOWN + 4];
				if (c == GR_EMPTY && there != GR_EMPTY)
					return fail(p, GR_EPARSE, v.start,
					            "AE[%s]: removing a setup stone is not supported",
					            shown(s, n, sh));
				if (c != GR_EMPTY && there == gr_other(c))
					return fail(p, GR_EPARSE, v.start,
					            "%s[%s]: the point %c%c already has a %s setup stone",
					            pr->name, shown(s, n, sh), 'a' + x, 'a' + y,
					            there == GR_BLACK ? "black" : "white");
				if (c != GR_EMPTY && there == GR_EMPTY) {
					if (gr_record_add_setup(p->r, c, pt))
						return oom(p);
					p->setup[pt] = (uint8_t)c;
				}
			}
	}
	return 0;
}

/* Hands the waiting comment to its move (or the root). */
static int flush_comment(parser *p)
{
	if (p->clen == 0)
		return 0;
	p->cbuf[p->clen] = 0;
	p->clen = 0;
	if (gr_record_append_comment(p->r, p->ctarget, p->cbuf))
		return oom(p);
	return 0;
}

/* Adds the decoded value to the waiting comment, on a new line. */
static int add_comment(parser *p)
{
	if (p->blen == 0)
		return 0;
	size_t need = p->clen + 1 + p->blen + 1;
	if (need > p->ccap) {
		size_t ncap = p->ccap ? p->ccap : 256;
		while (ncap < need)
			ncap *= 2;
		char *b = gr_realloc(p->cbuf, ncap);
		if (!b)
			return oom(p);
		p->cbuf = b;
		p->ccap = ncap;
	}
	if (p->clen)
		p->cbuf[p->clen++] = '\n';
	memcpy(p->cbuf + p->clen, p->buf, p->blen);
	p->clen += p->blen;
	return 0;
}

/* The game-information properties kept with gr_record_set_prop. */
static const char *const game_info[] = {
	"AN", "BR", "BT", "CP", "DT", "EV", "GC", "GN", "ON", "OT", "PB",
	"PC", "PW", "RE", "RO", "RU", "SO", "TM", "US", "WR", "WT", NULL,
};

static bool is_game_info(const char *name)
{
	for (int i = 0; game_info[i]; i++)
		if (!strcmp(name, game_info[i]))
			return true;
	return false;
}

/* Acts on the node just read (main line). */
static int interpret(parser *p)
{
	int rc;
	if (!p->r) { /* the root: the game and the board size first */
		int size = 19, sized = 0;
		for (size_t k = 0; k < p->nprops; k++) {
			const prop *pr = &p->props[k];
			int v;
			if (is_name(pr, "GM")) {
				if ((rc = single(p, pr)))
					return rc;
				size_t n;
				const char *s = trimmed(p, &n);
				char sh[MAX_SHOWN + 4];
				if (parse_int(s, n, &v) != NUM_OK || v != 1)
					return fail(p, GR_EPARSE, p->vals[pr->first].start,
					            "GM[%s]: not a game of Go (GM must be 1)", shown(s, n, sh));
			} else if (is_name(pr, "FF")) {
				if ((rc = number_of(p, pr, 1, 4, &v)))
					return rc;
			} else if (is_name(pr, "SZ")) {
				if ((rc = size_of(p, pr, &v)))
					return rc;
				if (sized && v != size)
					return fail(p, GR_EPARSE, pr->pos, "SZ twice with different sizes");
				size = v, sized = 1;
			}
		}
		if (gr_record_new(&p->r, size))
			return oom(p); /* the size is in range */
	}
	gr_record *r = p->r;
	/* the move, if any: one B or W */
	const prop *move = NULL;
	for (size_t k = 0; k < p->nprops; k++) {
		const prop *pr = &p->props[k];
		if (!is_name(pr, "B") && !is_name(pr, "W"))
			continue;
		if (move)
			return fail(p, GR_EPARSE, pr->pos,
			            is_name(pr, move->name) ? "a node with two %s moves"
			                                    : "a node with both B and W (%s here)",
			            pr->name);
		move = pr;
	}
	double time = -1;
	for (size_t k = 0; k < p->nprops; k++) {
		const prop *pr = &p->props[k];
		int v;
		double d;
		if (is_name(pr, "SZ")) {
			if ((rc = size_of(p, pr, &v)))
				return rc;
			if (v != gr_record_size(r))
				return fail(p, GR_EPARSE, pr->pos, "SZ[%d] after the root, which says SZ[%d]",
				            v, gr_record_size(r));
		} else if (is_name(pr, "KM")) {
			if ((rc = real_of(p, pr, &d)))
				return rc;
			gr_record_set_komi(r, d);
		} else if (is_name(pr, "HA")) {
			int size = gr_record_size(r);
			if ((rc = number_of(p, pr, 0, size * size, &v)))
				return rc;
			gr_record_set_handicap(r, v);
		} else if (is_name(pr, "AB") || is_name(pr, "AW") || is_name(pr, "AE")) {
			if (gr_record_move_count(r) > 0)
				return fail(p, GR_EPARSE, pr->pos,
				            "%s after the first move: a record holds setup stones only "
				            "before the moves",
				            pr->name);
			if ((rc = setup_prop(p, pr,
			                     is_name(pr, "AB") ? GR_BLACK
			                     : is_name(pr, "AW") ? GR_WHITE
			                                         : GR_EMPTY)))
				return rc;
		} else if (is_name(pr, "PL") && gr_record_move_count(r) == 0) {
			if ((rc = single(p, pr)))
				return rc;
			size_t n;
			const char *s = trimmed(p, &n);
			char sh[MAX_SHOWN + 4];
			if (n == 1 && (*s == 'B' || *s == 'b'))
				gr_record_set_first_player(r, GR_BLACK);
			else if (n == 1 && (*s == 'W' || *s == 'w'))
				gr_record_set_first_player(r, GR_WHITE);
			else
				return fail(p, GR_EPARSE, p->vals[pr->first].start,
				            "PL[%s]: expected B or W", shown(s, n, sh));
		} else if (is_name(pr, "GRTIME")) {
			if ((rc = real_of(p, pr, &d)))
				return rc;
			if (d < 0) {
				char sh[MAX_SHOWN + 4];
				size_t n;
				const char *s = trimmed(p, &n);
				return fail(p, GR_ERANGE, p->vals[pr->first].start,
				            "GRTIME[%s]: a time must not be negative", shown(s, n, sh));
			}
			time = d;
		} else if (is_name(pr, "GRWARNB") || is_name(pr, "GRWARNW")) {
			if ((rc = number_of(p, pr, 0, 999999999, &v)))
				return rc;
			gr_record_set_warnings(r, is_name(pr, "GRWARNB") ? GR_BLACK : GR_WHITE, v);
		} else if (is_game_info(pr->name)) {
			if ((rc = decode(p, p->vals[pr->first])))
				return rc;
			if (gr_record_set_prop(r, pr->name, p->buf))
				return oom(p);
		}
	}
	if (move) {
		if ((rc = single(p, move)))
			return rc;
		size_t n;
		const char *s = trimmed(p, &n);
		int pt;
		if ((rc = point_of(p, "move", s, n, p->vals[move->first].start, true, &pt, NULL, NULL)))
			return rc;
		if ((rc = flush_comment(p)))
			return rc;
		rc = gr_record_add_move(r, is_name(move, "B") ? GR_BLACK : GR_WHITE, pt, time, NULL);
		if (rc == GR_ERANGE)
			return fail(p, GR_ERANGE, p->vals[move->first].start,
			            "more than %d moves: no game record is that long", GR_MAX_MOVES);
		if (rc)
			return oom(p);
		p->ctarget = gr_record_move_count(r) - 1;
	}
	for (size_t k = 0; k < p->nprops; k++) {
		const prop *pr = &p->props[k];
		if (!is_name(pr, "C"))
			continue;
		for (size_t j = 0; j < pr->n; j++) {
			if ((rc = decode(p, p->vals[pr->first + j])) || (rc = add_comment(p)))
				return rc;
		}
	}
	return 0;
}

int gr_sgf_read(gr_record **out, const char *text, size_t len, gr_error *err)
{
	if (out)
		*out = NULL;
	if (!out || (!text && len))
		return gr_error_set(err, GR_EINVAL, 0, 0, "gr_sgf_read: no %s",
		                    out ? "text" : "place for the record");
	parser p = {.t = text, .len = len, .err = err, .ctarget = -1};
	int rc = 0;
	while (p.i < len && text[p.i] != '(')
		p.i++;
	if (p.i >= len)
		return fail(&p, GR_EPARSE, 0, "no SGF game tree: the text has no '('");
	/* The main line: the first child at each branch. depth counts the open
	 * trees; the main line runs through trees 1..main_level while !main_ended. */
	size_t depth = 0, main_level = 0;
	bool main_ended = false;
	for (;;) {
		skip_ws(&p);
		if (p.i >= len) {
			rc = fail(&p, GR_EPARSE, len, "the text ends with %zu game tree%s not closed by ')'",
			          depth, depth == 1 ? "" : "s");
			break;
		}
		char c = text[p.i];
		if (c == '(') {
			size_t open = p.i++;
			skip_ws(&p);
			if (p.i >= len || text[p.i] != ';') {
				rc = fail(&p, GR_EPARSE, p.i >= len ? open : p.i,
				          "a game tree must start with a node: expected ';' after '('");
				break;
			}
			if (depth == main_level && !main_ended)
				main_level = depth + 1;
			depth++;
		} else if (c == ')') {
			p.i++;
			if (depth == main_level)
				main_ended = true;
			if (--depth == 0)
				break; /* the first game tree is read: the rest is not ours */
		} else if (c == ';') {
			p.i++;
			bool keep = depth == main_level && !main_ended;
			if ((rc = read_node(&p, keep)))
				break;
			if (keep && (rc = interpret(&p)))
				break;
		} else {
			unsigned char u = (unsigned char)c;
			if (u >= 0x20 && u < 0x7f)
				rc = fail(&p, GR_EPARSE, p.i, "unexpected '%c': expected ';', '(' or ')'", c);
			else
				rc = fail(&p, GR_EPARSE, p.i,
				          "unexpected byte 0x%02x: expected ';', '(' or ')'", u);
			break;
		}
	}
	if (!rc && p.r)
		rc = flush_comment(&p);
	gr_free(p.props);
	gr_free(p.vals);
	gr_free(p.buf);
	gr_free(p.cbuf);
	if (rc) {
		gr_record_free(p.r);
		return rc;
	}
	*out = p.r;
	return 0;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct sbuf {
	char *s;
	size_t n, cap;
	bool oom;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 1024;
		while (ncap < b->n + n + 1) {
			if (ncap > SIZE_MAX / 2) {
				b->oom = true;
				return;
			}
			ncap *= 2;
		}
		char *q = gr_realloc(b->s, ncap);
		if (!q) {
			b->oom = true;
			return;
		}
		b->s = q;
		b->cap = ncap;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

/* A text value with ']' and '\' escaped. */
static void put_text(sbuf *b, const char *s)
{
	for (;;) {
		size_t n = strcspn(s, "]\\");
		put(b, s, n);
		if (!s[n])
			return;
		char esc[2] = {'\\', s[n]};
		put(b, esc, 2);
		s += n + 1;
	}
}

static void put_prop(sbuf *b, const char *name, const char *value)
{
	puts_(b, name);
	puts_(b, "[");
	put_text(b, value);
	puts_(b, "]");
}

static void put_int(sbuf *b, const char *name, int v)
{
	char t[48];
	snprintf(t, sizeof t, "%s[%d]", name, v);
	puts_(b, t);
}

/* v in decimal, at most six digits after the point, whatever the locale. */
static void put_real(sbuf *b, const char *name, double v)
{
	if (!isfinite(v))
		v = 0;
	if (v > 999999999.0)
		v = 999999999.0;
	if (v < -999999999.0)
		v = -999999999.0;
	bool neg = v < 0;
	unsigned long long u = (unsigned long long)((neg ? -v : v) * 1e6 + 0.5);
	char t[64], f[8];
	int k = snprintf(t, sizeof t, "%s[%s%llu", name, neg && u ? "-" : "", u / 1000000);
	unsigned long long frac = u % 1000000;
	if (frac && k > 0) {
		snprintf(f, sizeof f, "%06llu", frac);
		size_t e = 6;
		while (f[e - 1] == '0')
			e--;
		f[e] = 0;
		snprintf(t + k, sizeof t - (size_t)k, ".%s", f);
	}
	puts_(b, t);
	puts_(b, "]");
}

static void put_point(sbuf *b, int size, int pt)
{
	char t[4] = "[]";
	if (pt != GR_PASS) {
		int stride = size + 2;
		t[0] = '[';
		t[1] = (char)('a' + pt % stride - 1);
		t[2] = (char)('a' + pt / stride - 1);
		t[3] = ']';
		put(b, t, 4);
		return;
	}
	put(b, t, 2);
}

int gr_sgf_write(const gr_record *r, char **out, size_t *len)
{
	if (out)
		*out = NULL;
	if (len)
		*len = 0;
	if (!r || !out)
		return GR_EINVAL;
	sbuf b = {0};
	int size = gr_record_size(r);
	puts_(&b, "(;FF[4]GM[1]CA[UTF-8]AP[goref:0.1]");
	const char *ru = gr_record_prop(r, "RU");
	if (ru)
		put_prop(&b, "RU", ru);
	put_int(&b, "SZ", size);
	put_real(&b, "KM", gr_record_komi(r));
	if (gr_record_handicap(r) > 0)
		put_int(&b, "HA", gr_record_handicap(r));
	puts_(&b, "\n");
	bool any = false;
	for (int i = 0; i < gr_record_prop_count(r); i++) {
		const char *name = gr_record_prop_name(r, i);
		if (!strcmp(name, "RU"))
			continue;
		put_prop(&b, name, gr_record_prop(r, name));
		any = true;
	}
	for (gr_color c = GR_BLACK; c <= GR_WHITE; c++)
		if (gr_record_warnings(r, c) > 0) {
			put_int(&b, c == GR_BLACK ? "GRWARNB" : "GRWARNW", gr_record_warnings(r, c));
			any = true;
		}
	if (any)
		puts_(&b, "\n");
	any = false;
	for (gr_color c = GR_BLACK; c <= GR_WHITE; c++) {
		bool named = false;
		for (int i = 0; i < gr_record_setup_count(r); i++) {
			gr_color sc;
			int pt;
			gr_record_setup(r, i, &sc, &pt);
			if (sc != c)
				continue;
			if (!named)
				puts_(&b, c == GR_BLACK ? "AB" : "AW");
			named = any = true;
			put_point(&b, size, pt);
		}
	}
	if (gr_record_first_player(r) != GR_EMPTY) {
		puts_(&b, gr_record_first_player(r) == GR_BLACK ? "PL[B]" : "PL[W]");
		any = true;
	}
	if (gr_record_root_comment(r)) {
		put_prop(&b, "C", gr_record_root_comment(r));
		any = true;
	}
	if (any)
		puts_(&b, "\n");
	for (int i = 0; i < gr_record_move_count(r); i++) {
		const gr_move *m = gr_record_move(r, i);
		puts_(&b, m->color == GR_WHITE ? ";W" : ";B");
		put_point(&b, size, m->pt);
		if (m->time >= 0)
			put_real(&b, "GRTIME", m->time);
		if (m->comment)
			put_prop(&b, "C", m->comment);
		puts_(&b, "\n");
	}
	puts_(&b, ")\n");
	if (b.oom) {
		gr_free(b.s);
		return GR_ENOMEM;
	}
	*out = b.s;
	if (len)
		*len = b.n;
	return 0;
}
