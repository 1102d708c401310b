/* goref rules core: board diagrams. See diagram.h. */
#include "diagram.h"

#include <string.h>

bool gr_diagram_skip_line(const char *line, size_t len)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
		i++;
	return i == len || line[i] == '#';
}

static int cell_of(char ch, unsigned char *cell, unsigned char *dead)
{
	*dead = 0;
	switch (ch) {
	case '.': *cell = GR_EMPTY; return 0;
	case 'X': case 'B': *cell = GR_BLACK; return 0;
	case 'O': case 'W': *cell = GR_WHITE; return 0;
	case 'x': *cell = GR_BLACK; *dead = 1; return 0;
	case 'o': *cell = GR_WHITE; *dead = 1; return 0;
	default: return -1;
	}
}

static int read_row(const char *line, size_t len, int lineno, unsigned char *cells, unsigned char *dead,
                    gr_error *err, bool unseen)
{
	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	/* the dataset form separates fields by spaces: ". B W ..." */
	bool spaced = len >= 3 && line[1] == ' ';
	int n = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = line[i];
		if (spaced && (i % 2) == 1) {
			if (ch != ' ')
				return gr_error_set(err, GR_EPARSE, lineno, (int)i + 1,
				                    "expected a single space between fields, found '%c'", ch);
			continue;
		}
		unsigned char c, d;
		if (unseen && ch == '?') {
			c = GR_UNSEEN;
			d = 0;
		} else if (cell_of(ch, &c, &d) != 0)
			return gr_error_set(err, GR_EPARSE, lineno, (int)i + 1,
			                    "unexpected character '%c' in a board row (use . X O x o, or . B W%s)",
			                    (ch >= 32 && ch < 127) ? ch : '?', unseen ? "; ? for a point not seen" : "");
		if (!spaced && (ch == 'B' || ch == 'W'))
			return gr_error_set(err, GR_EPARSE, lineno, (int)i + 1,
			                    "'%c' belongs to the space-separated form; use X and O here", ch);
		if (n >= GR_MAX_SIZE)
			return gr_error_set(err, GR_EPARSE, lineno, (int)i + 1,
			                    "row longer than %d points", GR_MAX_SIZE);
		cells[n] = c;
		if (dead)
			dead[n] = d;
		n++;
	}
	return n;
}

int gr_diagram_row(const char *line, size_t len, int lineno, unsigned char *cells,
                   unsigned char *dead, gr_error *err)
{
	return read_row(line, len, lineno, cells, dead, err, false);
}

int gr_diagram_row_seen(const char *line, size_t len, int lineno, unsigned char *cells,
                        unsigned char *dead, gr_error *err)
{
	return read_row(line, len, lineno, cells, dead, err, true);
}

int gr_diagram_parse(gr_board *b, bool *dead, const char *text, size_t len, int expect_size,
                     gr_error *err)
{
	unsigned char cells[GR_MAX_SIZE][GR_MAX_SIZE], dd[GR_MAX_SIZE][GR_MAX_SIZE];
	int size = 0, rows = 0, lineno = 0, last_line = 0;
	size_t pos = 0;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;
		pos += l + (nl ? 1 : 0);
		lineno++;
		if (gr_diagram_skip_line(line, l))
			continue;
		last_line = lineno;
		if (size && rows == size)
			return gr_error_set(err, GR_EPARSE, lineno, 1, "more than %d rows in a %dx%d diagram",
			                    size, size, size);
		unsigned char row[GR_MAX_SIZE], rd[GR_MAX_SIZE];
		int n = gr_diagram_row(line, l, lineno, row, rd, err);
		if (n < 0)
			return n;
		if (!size) {
			if (n < GR_MIN_SIZE)
				return gr_error_set(err, GR_EPARSE, lineno, 1, "a board row needs at least %d points",
				                    GR_MIN_SIZE);
			if (expect_size && n != expect_size)
				return gr_error_set(err, GR_EPARSE, lineno, 1,
				                    "row of %d points where a %dx%d board was expected", n,
				                    expect_size, expect_size);
			size = n;
		} else if (n != size) {
			return gr_error_set(err, GR_EPARSE, lineno, n < size ? n + 1 : size + 1,
			                    "row of %d points where the board has %d", n, size);
		}
		memcpy(cells[rows], row, (size_t)n);
		memcpy(dd[rows], rd, (size_t)n);
		rows++;
	}
	if (!size)
		return gr_error_set(err, GR_EPARSE, lineno ? lineno : 1, 1, "no board diagram found");
	if (rows != size)
		return gr_error_set(err, GR_EPARSE, last_line, 1, "%d rows where a %dx%d board needs %d",
		                    rows, size, size, size);
	gr_board_init(b, size);
	if (dead)
		memset(dead, 0, sizeof(bool) * GR_MAX_POINTS);
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++) {
			int pt = gr_pt(b, x, y);
			b->color[pt] = cells[y][x];
			if (dead)
				dead[pt] = dd[y][x] && cells[y][x] != GR_EMPTY;
		}
	gr_board_recompute(b);
	return 0;
}

size_t gr_diagram_write(const gr_board *b, const bool *dead, char *buf, size_t cap)
{
	size_t need = (size_t)b->size * (size_t)(b->size + 1);
	if (buf && cap > 0) {
		size_t k = 0;
		for (int y = 0; y < b->size; y++) {
			for (int x = 0; x <= b->size; x++) {
				char ch = '\n';
				if (x < b->size) {
					int pt = gr_pt(b, x, y);
					bool d = dead && dead[pt];
					ch = b->color[pt] == GR_BLACK ? (d ? 'x' : 'X')
					     : b->color[pt] == GR_WHITE ? (d ? 'o' : 'O') : '.';
				}
				if (k + 1 < cap)
					buf[k] = ch;
				k++;
			}
		}
		buf[k < cap ? k : cap - 1] = 0;
	}
	return need;
}
