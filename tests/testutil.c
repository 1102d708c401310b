#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

bool tu_read_label(const char *path, unsigned char truth[361])
{
	char *text = tu_read_file(path, NULL);
	if (!text)
		return false;
	int n = 0;
	for (const char *p = text; *p && n < 361; p++) {
		if (*p == '.')
			truth[n++] = 0;
		else if (*p == 'B')
			truth[n++] = 1;
		else if (*p == 'W')
			truth[n++] = 2;
	}
	free(text);
	return n == 361;
}

const char *tu_fixture(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/%s", GOREF_FIXTURES, name);
	return path;
}

void tu_diagram(gr_board *b, bool *dead, const char *text)
{
	gr_error err = {0};
	int rc = gr_diagram_parse(b, dead, text, strlen(text), 0, &err);
	if (rc != 0)
		fail_msg("diagram: line %d col %d: %s", err.line, err.column, err.message);
}

void tu_load_diagram(gr_board *b, bool *dead, const char *name)
{
	size_t len;
	char *text = tu_read_file(tu_fixture(name), &len);
	if (!text)
		fail_msg("cannot read fixture %s", tu_fixture(name));
	gr_error err = {0};
	int rc = gr_diagram_parse(b, dead, text, len, 0, &err);
	free(text);
	if (rc != 0)
		fail_msg("%s:%d:%d: %s", name, err.line, err.column, err.message);
}

int tu_pt(const gr_board *b, const char *name)
{
	int pt = gr_point_parse(b, name);
	if (pt == GR_NONE || pt == GR_PASS)
		fail_msg("not a point on a %dx%d board: %s", b->size, b->size, name);
	return pt;
}

void tu_assert_board(const gr_board *b, const char *text)
{
	gr_board want;
	tu_diagram(&want, NULL, text);
	char got[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
	gr_diagram_write(b, NULL, got, sizeof got);
	if (!gr_board_same(b, &want)) {
		char exp[sizeof got];
		gr_diagram_write(&want, NULL, exp, sizeof exp);
		fail_msg("board differs.\nexpected:\n%s\ngot:\n%s", exp, got);
	}
	assert_true(gr_board_consistent(b));
}
