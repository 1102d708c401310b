/* goref program: helpers shared by the commands. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagram.h"
#include "game.h"
#include "replay.h"
#include "sgf.h"

char *cli_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "goref: cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
		if (n + 1 == cap) {
			if (cap >= (size_t)64 << 20) {
				fprintf(stderr, "goref: %s: larger than 64 MiB, not a game file\n", path);
				free(buf);
				buf = NULL;
				break;
			}
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
	if (buf && ferror(f)) {
		fprintf(stderr, "goref: cannot read %s: %s\n", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (!buf)
		return NULL;
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

void cli_put_clean(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void cli_report_error(const char *path, const gr_error *err)
{
	fputs("goref: ", stderr);
	cli_put_clean(stderr, path);
	if (err->line > 0 && err->column > 0)
		fprintf(stderr, ":%d:%d", err->line, err->column);
	else if (err->line > 0)
		fprintf(stderr, ":%d", err->line);
	fputs(": ", stderr);
	cli_put_clean(stderr, err->message);
	fputc('\n', stderr);
}

int cli_load_sgf(gr_record **out, const char *path)
{
	*out = NULL;
	size_t len;
	char *text = cli_read_file(path, &len);
	if (!text)
		return EXIT_INPUT;
	gr_error err = {0};
	int rc = gr_sgf_read(out, text, len, &err);
	free(text);
	if (rc) {
		cli_report_error(path, &err);
		return EXIT_INPUT;
	}
	return 0;
}

static bool looks_like_sgf(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')
			continue;
		return text[i] == '(';
	}
	return false;
}

int cli_load_position(cli_position *pos, const char *path)
{
	memset(pos, 0, sizeof *pos);
	size_t len;
	char *text = cli_read_file(path, &len);
	if (!text)
		return EXIT_INPUT;
	gr_error err = {0};
	int rc;
	if (looks_like_sgf(text, len)) {
		rc = gr_sgf_read(&pos->record, text, len, &err);
		if (rc == 0) {
			gr_game *g = NULL;
			rc = gr_game_new(&g, gr_record_size(pos->record));
			if (rc == 0) {
				gr_replay(g, pos->record, NULL, NULL);
				pos->board = *gr_game_board(g);
				pos->to_move = gr_game_to_move(g);
				gr_game_free(g);
			} else {
				gr_error_set(&err, rc, 0, 0, "out of memory");
			}
		}
	} else {
		rc = gr_diagram_parse(&pos->board, pos->dead, text, len, 0, &err);
		pos->to_move = GR_BLACK;
		for (int i = 0; rc == 0 && i < GR_MAX_POINTS; i++)
			pos->has_dead |= pos->dead[i];
	}
	free(text);
	if (rc != 0) {
		cli_report_error(path, &err);
		cli_position_free(pos);
		return EXIT_INPUT;
	}
	return 0;
}

void cli_position_free(cli_position *pos)
{
	gr_record_free(pos->record);
	pos->record = NULL;
}

void cli_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

bool cli_parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = s ? strtod(s, &end) : 0;
	if (!s || !*s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "goref: %s needs a number from %g to %g, not '%s'\n", opt, lo, hi, s ? s : "");
		return false;
	}
	*out = v;
	return true;
}

void cli_source_error(const char *cmd, const char *name, const char *err, const char *eol)
{
	size_t nl = strlen(name);
	if (!strncmp(err, name, nl) && err[nl] == ':')
		fprintf(stderr, "goref %s: %s%s", cmd, err, eol);
	else
		fprintf(stderr, "goref %s: %s: %s%s", cmd, name, err, eol);
}

bool cli_parse_corners(const char *opt, const char *s, double c[8])
{
	const char *p = s;
	int n = 0;
	while (p && *p && n < 8) {
		char *end;
		errno = 0;
		c[n] = strtod(p, &end);
		if (end == p || errno || !isfinite(c[n]))
			break;
		n++;
		p = *end == ',' && n < 8 ? end + 1 : end;
	}
	if (n != 8 || !p || *p) {
		fprintf(stderr,
		        "goref: %s needs 8 numbers x1,y1,x2,y2,x3,y3,x4,y4: the grid's corners in pixels, clockwise "
		        "from the top-left, not '%s'\n",
		        opt, s ? s : "");
		return false;
	}
	return true;
}

bool cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "goref: %s needs a whole number from %d to %d, not '%s'\n", opt, lo, hi, s ? s : "");
		return false;
	}
	*out = (int)v;
	return true;
}

bool cli_positional(const char *cmd, const char *usage, const char *what, const char *arg, const char **slot)
{
	if (arg[0] == '-' && arg[1]) {
		fprintf(stderr, "goref %s: unknown option '%s'\n\n%s", cmd, arg, usage);
		return false;
	}
	if (*slot) {
		fprintf(stderr, "goref %s: one %s only\n\n%s", cmd, what, usage);
		return false;
	}
	*slot = arg;
	return true;
}

bool cli_require(const char *cmd, const char *usage, const char *what, const char *slot)
{
	if (!slot)
		fprintf(stderr, "goref %s: no %s given\n\n%s", cmd, what, usage);
	return slot != NULL;
}

bool cli_is_help(const char *arg) { return !strcmp(arg, "-h") || !strcmp(arg, "--help"); }

/* Writes the record to out through out.tmp and a rename. */
int cli_write_file(const char *path, const char *data, size_t len, const char *eol)
{
	size_t pl = strlen(path);
	char *tmp = malloc(pl + 5);
	if (!tmp) {
		fprintf(stderr, "goref: out of memory writing %s%s", path, eol);
		return EXIT_INPUT;
	}
	memcpy(tmp, path, pl);
	memcpy(tmp + pl, ".tmp", 5);
	int rc = EXIT_OK;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		fprintf(stderr, "goref: cannot write %s: %s%s", tmp, strerror(errno), eol);
		rc = EXIT_INPUT;
	} else {
		bool ok = fwrite(data, 1, len, f) == len;
		ok = fflush(f) == 0 && ok;
		int saved = errno;
		ok = fclose(f) == 0 && ok;
		if (!ok) {
			fprintf(stderr, "goref: cannot write %s: %s%s", tmp, strerror(saved ? saved : errno), eol);
			remove(tmp);
			rc = EXIT_INPUT;
		} else if (rename(tmp, path) != 0) {
			fprintf(stderr, "goref: cannot rename %s to %s: %s%s", tmp, path, strerror(errno), eol);
			remove(tmp);
			rc = EXIT_INPUT;
		}
	}
	free(tmp);
	return rc;
}

int cli_write_sgf(const gr_record *rec, const char *out)
{
	char *text = NULL;
	size_t len = 0;
	if (gr_sgf_write(rec, &text, &len) != 0) {
		fprintf(stderr, "goref: out of memory writing the SGF\n");
		return EXIT_INPUT;
	}
	int rc = cli_write_file(out, text, len, "\n");
	gr_free(text);
	return rc;
}

double cli_cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double cli_wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
