/* goref rules core: the observation log. See obslog.h. */
#include "obslog.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "diagram.h"

typedef enum obs_state {
	OBS_IDLE = 0, /* between items: expecting '@' */
	OBS_ROWS,     /* reading the rows of a diagram */
	OBS_SKIP,     /* after an error: skipping to the next '@' */
} obs_state;

struct gr_obslog {
	int size;       /* the log's size, 0 until known */
	int lineno;     /* lines fed so far */
	obs_state state;
	bool have_t;    /* a time has been read */
	double last_t;  /* the last time read */
	double t;       /* OBS_ROWS: the time of the diagram */
	int at_line;    /* OBS_ROWS: the line of its '@' */
	int rows;       /* OBS_ROWS: rows read */
	unsigned char cells[GR_MAX_SIZE * GR_MAX_SIZE];
};

/* The operator's commands, in gr_command order. Kept here so that the log
 * can be read without the referee. */
static const char *const command_names[] = {"pass", "resign", "end", "count", "accept", "restore"};
#define NCOMMANDS ((int)(sizeof command_names / sizeof command_names[0]))

int gr_obslog_new(gr_obslog **out, int size)
{
	if (!out)
		return GR_EINVAL;
	*out = NULL;
	if (size != 0 && (size < GR_MIN_SIZE || size > GR_MAX_SIZE))
		return GR_ERANGE;
	gr_obslog *p = gr_malloc(sizeof *p);
	if (!p)
		return GR_ENOMEM;
	memset(p, 0, sizeof *p);
	p->size = size;
	*out = p;
	return 0;
}

void gr_obslog_free(gr_obslog *p) { gr_free(p); }

int gr_obslog_size(const gr_obslog *p) { return p ? p->size : 0; }

static bool is_blank(char c) { return c == ' ' || c == '\t'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Writes t with at most three decimals and no trailing zeros ("12.5",
 * "13", "0.125"), whatever the locale. Returns buf. */
static char *format_time(double t, char *buf, size_t cap)
{
	const char *sign = "";
	if (t < 0) {
		sign = "-";
		t = -t;
	}
	if (!(t < 9e15)) { /* too large for whole thousandths (or NaN) */
		snprintf(buf, cap, "%s%g", sign, t);
		return buf;
	}
	unsigned long long m = (unsigned long long)(t * 1000.0 + 0.5);
	unsigned long long whole = m / 1000;
	unsigned frac = (unsigned)(m % 1000);
	if (frac == 0) {
		snprintf(buf, cap, "%s%llu", sign, whole);
	} else {
		char f[4];
		snprintf(f, sizeof f, "%03u", frac);
		int n = 3;
		while (n > 0 && f[n - 1] == '0')
			n--;
		f[n] = 0;
		snprintf(buf, cap, "%s%llu.%s", sign, whole, f);
	}
	return buf;
}

/* Reads a decimal number of seconds ("12", "12.5", ".5", "3."; no sign, no
 * exponent) at s[*i..len). Returns false when there is none. */
static bool read_time(const char *s, size_t len, size_t *i, double *out)
{
	size_t k = *i;
	double mant = 0, scale = 1;
	int digits = 0, sig = 0;
	bool point = false;
	for (; k < len; k++) {
		char c = s[k];
		if (is_digit(c)) {
			digits++;
			if (sig > 0 || c != '0')
				sig++;
			if (sig > 15)
				return false; /* more digits than a double keeps exactly */
			mant = mant * 10 + (c - '0');
			if (point)
				scale *= 10;
		} else if (c == '.' && !point) {
			point = true;
		} else {
			break;
		}
	}
	if (digits == 0)
		return false;
	*out = mant / scale;
	*i = k;
	return true;
}

/* Starts a new item from an '@' line. Returns 1 with *item filled for a
 * command, 0 when a diagram follows, or GR_EPARSE. The state is OBS_ROWS
 * after a position header, OBS_IDLE after a command, OBS_SKIP on error. */
static int read_header(gr_obslog *p, const char *line, size_t len, size_t at, gr_obs_item *item,
                       gr_error *err)
{
	p->state = OBS_SKIP;
	size_t i = at + 1;
	while (i < len && is_blank(line[i]))
		i++;
	size_t tstart = i;
	double t;
	if (!read_time(line, len, &i, &t) || (i < len && !is_blank(line[i]))) {
		size_t e = tstart;
		while (e < len && !is_blank(line[e]))
			e++;
		if (e == tstart)
			return gr_error_set(err, GR_EPARSE, p->lineno, (int)i + 1,
			                    "expected a time in seconds after '@'");
		return gr_error_set(err, GR_EPARSE, p->lineno, (int)tstart + 1,
		                    "'%.*s' is not a time in seconds (a decimal number such as 12.5)",
		                    (int)(e - tstart > 40 ? 40 : e - tstart), line + tstart);
	}
	if (p->have_t && t < p->last_t) {
		char a[40], b[40];
		return gr_error_set(err, GR_EPARSE, p->lineno, (int)tstart + 1, "time goes backwards (%s after %s)",
		                    format_time(t, a, sizeof a), format_time(p->last_t, b, sizeof b));
	}
	/* the command, if any, then an optional argument, then an optional comment */
	const char *word[3] = {NULL, NULL, NULL};
	size_t wlen[3] = {0, 0, 0}, wcol[3] = {0, 0, 0};
	int nw = 0;
	for (;;) {
		while (i < len && is_blank(line[i]))
			i++;
		if (i >= len || line[i] == '#')
			break;
		size_t s = i;
		while (i < len && !is_blank(line[i]))
			i++;
		if (nw < 3) {
			word[nw] = line + s;
			wlen[nw] = i - s;
			wcol[nw] = s + 1;
		}
		nw++;
	}
	if (nw == 0) {
		p->have_t = true;
		p->last_t = t;
		p->t = t;
		p->at_line = p->lineno;
		p->rows = 0;
		memset(p->cells, 0, sizeof p->cells);
		p->state = OBS_ROWS;
		return 0;
	}
	int cmd = -1;
	for (int c = 0; c < NCOMMANDS; c++)
		if (strlen(command_names[c]) == wlen[0] && memcmp(command_names[c], word[0], wlen[0]) == 0)
			cmd = c;
	if (cmd < 0)
		return gr_error_set(err, GR_EPARSE, p->lineno, (int)wcol[0],
		                    "unknown command '%.*s' (pass, resign B, resign W, end, count, accept, restore)",
		                    (int)(wlen[0] > 40 ? 40 : wlen[0]), word[0]);
	gr_color color = GR_EMPTY;
	if (cmd == GR_CMD_RESIGN) {
		if (nw < 2)
			return gr_error_set(err, GR_EPARSE, p->lineno, (int)(i + 1), "'resign' needs B or W");
		if (wlen[1] == 1 && (word[1][0] == 'B' || word[1][0] == 'b'))
			color = GR_BLACK;
		else if (wlen[1] == 1 && (word[1][0] == 'W' || word[1][0] == 'w'))
			color = GR_WHITE;
		else
			return gr_error_set(err, GR_EPARSE, p->lineno, (int)wcol[1], "'resign' needs B or W, not '%.*s'",
			                    (int)(wlen[1] > 40 ? 40 : wlen[1]), word[1]);
		if (nw > 2)
			return gr_error_set(err, GR_EPARSE, p->lineno, (int)wcol[2],
			                    "unexpected '%.*s' after 'resign %c'", (int)(wlen[2] > 40 ? 40 : wlen[2]),
			                    word[2], color == GR_BLACK ? 'B' : 'W');
	} else if (nw > 1) {
		return gr_error_set(err, GR_EPARSE, p->lineno, (int)wcol[1], "'%s' takes nothing after it, found '%.*s'",
		                    command_names[cmd], (int)(wlen[1] > 40 ? 40 : wlen[1]), word[1]);
	}
	p->have_t = true;
	p->last_t = t;
	p->state = OBS_IDLE;
	item->kind = GR_OBS_COMMAND;
	item->t = t;
	item->line = p->lineno;
	item->size = p->size;
	item->command = (gr_command)cmd;
	item->color = color;
	return 1;
}

static int cut_short(const gr_obslog *p, gr_error *err)
{
	if (p->size == 0)
		return gr_error_set(err, GR_EPARSE, p->lineno, 1,
		                    "diagram cut short: no board rows after the '@' of line %d", p->at_line);
	return gr_error_set(err, GR_EPARSE, p->lineno, 1, "diagram cut short: %d of %d rows (the diagram of line %d)",
	                    p->rows, p->size, p->at_line);
}

int gr_obslog_feed(gr_obslog *p, const char *line, size_t len, gr_obs_item *item, gr_error *err)
{
	if (!p || (!line && len) || !item)
		return gr_error_set(err, GR_EINVAL, 0, 0, "bad argument");
	p->lineno++;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (gr_diagram_skip_line(line, len))
		return 0;
	size_t at = 0;
	while (at < len && is_blank(line[at]))
		at++;
	if (line[at] == '@') {
		bool was_rows = p->state == OBS_ROWS;
		gr_error cut;
		if (was_rows)
			cut_short(p, &cut);
		int rc = read_header(p, line, len, at, item, err);
		if (was_rows) {
			/* the new header stands if it was good; the error is the cut */
			if (rc == 1)
				p->state = OBS_IDLE; /* the command is lost with the error: say so */
			if (err)
				*err = cut;
			if (rc == 1 && err) {
				size_t n = strlen(err->message);
				snprintf(err->message + n, sizeof err->message - n, "; the command here is not taken");
			}
			return GR_EPARSE;
		}
		return rc;
	}
	if (p->state == OBS_SKIP)
		return 0;
	if (p->state == OBS_IDLE) {
		p->state = OBS_SKIP;
		return gr_error_set(err, GR_EPARSE, p->lineno, (int)at + 1,
		                    p->have_t ? "a board row with no '@ SECONDS' line before it"
		                              : "expected '@ SECONDS' (a log starts with a time)");
	}
	unsigned char row[GR_MAX_SIZE], dead[GR_MAX_SIZE];
	int n = gr_diagram_row_seen(line, len, p->lineno, row, dead, err);
	if (n < 0) {
		p->state = OBS_SKIP;
		return n;
	}
	for (int x = 0; x < n; x++)
		if (dead[x]) {
			p->state = OBS_SKIP;
			/* find the column: the x-th cell (the spaced form has one every two bytes) */
			int col = (len >= 3 && line[1] == ' ') ? 2 * x + 1 : x + 1;
			return gr_error_set(err, GR_EPARSE, p->lineno, col,
			                    "'%c' marks a dead stone; what the camera saw has only . X O",
			                    line[col - 1]);
		}
	if (p->size == 0) {
		if (n < GR_MIN_SIZE) {
			p->state = OBS_SKIP;
			return gr_error_set(err, GR_EPARSE, p->lineno, 1, "a board row needs at least %d points",
			                    GR_MIN_SIZE);
		}
		p->size = n;
	} else if (n != p->size) {
		p->state = OBS_SKIP;
		return gr_error_set(err, GR_EPARSE, p->lineno, n < p->size ? n + 1 : p->size + 1,
		                    "row of %d points where the board has %d", n, p->size);
	}
	memcpy(p->cells + (size_t)p->rows * (size_t)p->size, row, (size_t)n);
	p->rows++;
	if (p->rows < p->size)
		return 0;
	item->kind = GR_OBS_POSITION;
	item->t = p->t;
	item->line = p->at_line;
	item->size = p->size;
	item->command = GR_CMD_PASS; /* unused */
	item->color = GR_EMPTY;
	memcpy(item->cells, p->cells, sizeof item->cells);
	p->state = OBS_IDLE;
	return 1;
}

int gr_obslog_finish(gr_obslog *p, gr_error *err)
{
	if (!p)
		return gr_error_set(err, GR_EINVAL, 0, 0, "bad argument");
	if (p->state == OBS_ROWS) {
		p->state = OBS_IDLE;
		return cut_short(p, err);
	}
	return 0;
}

/* Appends s[0..n) at *k in buf of cap bytes, counting what does not fit. */
static void put(char *buf, size_t cap, size_t *k, const char *s, size_t n)
{
	for (size_t j = 0; j < n; j++, (*k)++)
		if (*k + 1 < cap)
			buf[*k] = s[j];
}

static size_t terminate(char *buf, size_t cap, size_t k)
{
	if (buf && cap > 0)
		buf[k < cap ? k : cap - 1] = 0;
	return k;
}

size_t gr_obslog_write_position(double t, int size, const unsigned char *cells, char *buf, size_t cap)
{
	if (!buf)
		cap = 0;
	char head[64], tb[40];
	int h = snprintf(head, sizeof head, "@ %s\n", format_time(t, tb, sizeof tb));
	size_t k = 0;
	put(buf, cap, &k, head, (size_t)h);
	if (size < 0 || size > GR_MAX_SIZE || !cells)
		size = 0;
	for (int y = 0; y < size; y++) {
		char row[GR_MAX_SIZE + 1];
		for (int x = 0; x < size; x++) {
			unsigned char c = cells[y * size + x];
			row[x] = c == GR_BLACK ? 'X' : c == GR_WHITE ? 'O' : c == GR_UNSEEN ? '?' : '.';
		}
		row[size] = '\n';
		put(buf, cap, &k, row, (size_t)size + 1);
	}
	return terminate(buf, cap, k);
}

size_t gr_obslog_write_command(double t, gr_command cmd, gr_color color, char *buf, size_t cap)
{
	if (!buf)
		cap = 0;
	char line[96], tb[40];
	const char *name = (int)cmd >= 0 && (int)cmd < NCOMMANDS ? command_names[cmd] : "?";
	const char *who = "";
	if (cmd == GR_CMD_RESIGN)
		who = color == GR_BLACK ? " B" : color == GR_WHITE ? " W" : "";
	int h = snprintf(line, sizeof line, "@ %s %s%s\n", format_time(t, tb, sizeof tb), name, who);
	size_t k = 0;
	put(buf, cap, &k, line, (size_t)h);
	return terminate(buf, cap, k);
}
