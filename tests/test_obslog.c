/* The observation log: good logs read item by item, every kind of bad log
 * named by line and column, recovery after an error, and a round trip
 * through gr_obslog_write_position / _command. Fixtures are in
 * tests/fixtures/obslog/. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obslog.h"

#define MAX_ITEMS 64

typedef struct parsed {
	gr_obs_item items[MAX_ITEMS];
	int n;
	int rc;          /* 0, or the first error's code */
	gr_error err;    /* the first error */
	int size;        /* gr_obslog_size at the end */
} parsed;

/* Feeds text line by line (as a reader of a file would: no newline) and
 * stops at the first error. */
static void parse_text(parsed *out, const char *text, size_t len, int size)
{
	memset(out, 0, sizeof *out);
	gr_obslog *p = NULL;
	assert_int_equal(gr_obslog_new(&p, size), 0);
	size_t pos = 0;
	while (pos < len && out->rc == 0) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;
		pos += l + (nl ? 1 : 0);
		assert_true(out->n < MAX_ITEMS);
		int rc = gr_obslog_feed(p, line, l, &out->items[out->n], &out->err);
		if (rc == 1)
			out->n++;
		else if (rc != 0)
			out->rc = rc;
		else
			assert_int_equal(rc, 0);
	}
	if (out->rc == 0)
		out->rc = gr_obslog_finish(p, &out->err);
	out->size = gr_obslog_size(p);
	gr_obslog_free(p);
}

static void parse_fixture(parsed *out, const char *name, int size)
{
	char path[256];
	snprintf(path, sizeof path, "obslog/%s", name);
	size_t len;
	char *text = tu_read_file(tu_fixture(path), &len);
	if (!text)
		fail_msg("cannot read %s", tu_fixture(path));
	parse_text(out, text, len, size);
	free(text);
}

static void expect_ok(const parsed *r)
{
	if (r->rc != 0)
		fail_msg("error %d at %d:%d: %s", r->rc, r->err.line, r->err.column, r->err.message);
}

static void expect_command(const gr_obs_item *it, double t, int line, gr_command cmd, gr_color color)
{
	assert_int_equal(it->kind, GR_OBS_COMMAND);
	assert_true(it->t == t);
	assert_int_equal(it->line, line);
	assert_int_equal(it->command, cmd);
	assert_int_equal(it->color, color);
}

static void expect_position(const gr_obs_item *it, double t, int line, int size, const char *rows)
{
	assert_int_equal(it->kind, GR_OBS_POSITION);
	assert_true(it->t == t);
	assert_int_equal(it->line, line);
	assert_int_equal(it->size, size);
	assert_int_equal(strlen(rows), (size_t)(size * size));
	for (int i = 0; i < size * size; i++) {
		int want = rows[i] == 'X' ? GR_BLACK : rows[i] == 'O' ? GR_WHITE : rows[i] == '?' ? GR_UNSEEN : GR_EMPTY;
		if (it->cells[i] != want)
			fail_msg("cell %d (x %d, y %d): %d, expected %d", i, i % size, i / size, it->cells[i], want);
	}
}

static void test_good_5x5(void **s)
{
	(void)s;
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	parse_fixture(r, "good_5x5.log", 0);
	expect_ok(r);
	assert_int_equal(r->size, 5);
	assert_int_equal(r->n, 10);
	expect_position(&r->items[0], 0, 3, 5,
	                "....."
	                "....."
	                "....."
	                "....."
	                ".....");
	expect_position(&r->items[1], 1.5, 9, 5,
	                "....."
	                "....."
	                "..X.."
	                "....."
	                ".....");
	expect_position(&r->items[2], 2.25, 17, 5,
	                "....."
	                ".O..."
	                "..X.."
	                "....."
	                ".....");
	expect_command(&r->items[3], 2.25, 25, GR_CMD_PASS, GR_EMPTY);
	expect_command(&r->items[4], 3, 26, GR_CMD_ACCEPT, GR_EMPTY);
	expect_command(&r->items[5], 3.5, 27, GR_CMD_RESTORE, GR_EMPTY);
	expect_command(&r->items[6], 4, 28, GR_CMD_RESIGN, GR_WHITE);
	expect_command(&r->items[7], 5, 29, GR_CMD_END, GR_EMPTY);
	expect_command(&r->items[8], 6, 30, GR_CMD_COUNT, GR_EMPTY);
	expect_command(&r->items[9], 7, 31, GR_CMD_RESIGN, GR_BLACK);
	free(r);
}

static void test_good_spaced_crlf(void **s)
{
	(void)s;
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	parse_fixture(r, "good_spaced.log", 0);
	expect_ok(r);
	assert_int_equal(r->n, 2);
	expect_position(&r->items[0], 0, 1, 3, "..."".X.""..O");
	expect_command(&r->items[1], 1, 5, GR_CMD_PASS, GR_EMPTY);
	free(r);
}

static void test_good_19x19(void **s)
{
	(void)s;
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	/* the size given or found from the first row: the same items */
	for (int given = 0; given <= 19; given += 19) {
		parse_fixture(r, "good_19x19.log", given);
		expect_ok(r);
		assert_int_equal(r->size, 19);
		assert_int_equal(r->n, 2);
		assert_int_equal(r->items[0].line, 1);
		assert_int_equal(r->items[1].line, 21);
		assert_true(r->items[1].t == 20.125);
		assert_int_equal(r->items[0].cells[3 * 19 + 3], GR_BLACK);
		assert_int_equal(r->items[1].cells[3 * 19 + 3], GR_BLACK);
		assert_int_equal(r->items[1].cells[15 * 19 + 15], GR_WHITE);
		int stones = 0;
		for (int i = 0; i < 19 * 19; i++)
			stones += r->items[1].cells[i] != GR_EMPTY;
		assert_int_equal(stones, 2);
	}
	free(r);
}

/* The first line of a bad fixture: "# expect-error LINE:COLUMN: TEXT". */
static void check_bad(const char *name, int size)
{
	char path[256];
	snprintf(path, sizeof path, "obslog/%s", name);
	char *text = tu_read_file(tu_fixture(path), NULL);
	if (!text)
		fail_msg("cannot read %s", tu_fixture(path));
	int line = 0, col = 0, off = 0;
	if (sscanf(text, "# expect-error %d:%d: %n", &line, &col, &off) != 2 || off == 0)
		fail_msg("%s: no '# expect-error LINE:COLUMN: TEXT' first line", name);
	char want[200];
	size_t wl = strcspn(text + off, "\n");
	assert_true(wl > 0 && wl < sizeof want);
	memcpy(want, text + off, wl);
	want[wl] = 0;
	free(text);
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	parse_fixture(r, name, size);
	if (r->rc != GR_EPARSE)
		fail_msg("%s: expected an error, got %d", name, r->rc);
	if (r->err.line != line || r->err.column != col || !strstr(r->err.message, want))
		fail_msg("%s: got %d:%d: %s\nexpected %d:%d: %s", name, r->err.line, r->err.column, r->err.message,
		         line, col, want);
	free(r);
}

static void test_bad_logs(void **s)
{
	(void)s;
	static const char *const bad[] = {
		"bad_row_short.log",  "bad_row_long.log",     "bad_char.log",          "bad_dead.log",
		"bad_time_backwards.log", "bad_command.log",  "bad_resign.log",        "bad_resign_color.log",
		"bad_command_arg.log", "bad_cut_end.log",     "bad_cut_mid.log",       "bad_cut_empty.log",
		"bad_at_garbage.log", "bad_at_notime.log",    "bad_at_negative.log",   "bad_stray_row.log",
		"bad_row_after_command.log",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		check_bad(bad[i], 0);
}

static void test_wrong_size_given(void **s)
{
	(void)s;
	/* a 5x5 log read by a parser told the board has 19 lines */
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	parse_fixture(r, "good_5x5.log", 19);
	assert_int_equal(r->rc, GR_EPARSE);
	assert_int_equal(r->err.line, 4);
	assert_int_equal(r->err.column, 6);
	assert_string_equal(r->err.message, "row of 5 points where the board has 19");
	free(r);

	gr_obslog *p = NULL;
	assert_int_equal(gr_obslog_new(&p, 1), GR_ERANGE);
	assert_null(p);
	assert_int_equal(gr_obslog_new(&p, 20), GR_ERANGE);
	assert_int_equal(gr_obslog_new(&p, -3), GR_ERANGE);
	assert_int_equal(gr_obslog_new(NULL, 9), GR_EINVAL);
	assert_int_equal(gr_obslog_new(&p, 9), 0);
	assert_int_equal(gr_obslog_size(p), 9);
	gr_obslog_free(p);
	gr_obslog_free(NULL);
}

static int feed_str(gr_obslog *p, const char *line, gr_obs_item *it, gr_error *err)
{
	return gr_obslog_feed(p, line, strlen(line), it, err);
}

static void test_recovery(void **s)
{
	(void)s;
	gr_obslog *p = NULL;
	assert_int_equal(gr_obslog_new(&p, 0), 0);
	gr_obs_item *it = malloc(sizeof *it);
	assert_non_null(it);
	gr_error err;
	assert_int_equal(feed_str(p, "@ 1", it, &err), 0);
	assert_int_equal(feed_str(p, "..", it, &err), 0);
	/* a bad row: the rest of this diagram is skipped quietly */
	assert_int_equal(feed_str(p, ".!", it, &err), GR_EPARSE); /* ('?' is a point not seen) */
	assert_int_equal(err.line, 3);
	assert_int_equal(err.column, 2);
	assert_int_equal(feed_str(p, "..", it, &err), 0);
	assert_int_equal(feed_str(p, "..", it, &err), 0);
	/* the next '@' starts afresh */
	assert_int_equal(feed_str(p, "@ 2", it, &err), 0);
	assert_int_equal(feed_str(p, "X.", it, &err), 0);
	assert_int_equal(feed_str(p, ".O", it, &err), 1);
	assert_int_equal(it->kind, GR_OBS_POSITION);
	assert_int_equal(it->line, 6);
	assert_int_equal(it->cells[0], GR_BLACK);
	assert_int_equal(it->cells[3], GR_WHITE);
	/* a bad command, then a good one */
	assert_int_equal(feed_str(p, "@ 3 ned", it, &err), GR_EPARSE);
	assert_int_equal(feed_str(p, "@ 3 end\r", it, &err), 1);
	assert_int_equal(it->command, GR_CMD_END);
	assert_int_equal(it->line, 10);
	/* a diagram cut short by a position: the new diagram is read */
	assert_int_equal(feed_str(p, "@ 4", it, &err), 0);
	assert_int_equal(feed_str(p, "..", it, &err), 0);
	assert_int_equal(feed_str(p, "@ 5", it, &err), GR_EPARSE);
	assert_int_equal(err.line, 13);
	assert_non_null(strstr(err.message, "diagram cut short: 1 of 2 rows"));
	assert_int_equal(feed_str(p, "..", it, &err), 0);
	assert_int_equal(feed_str(p, ".X", it, &err), 1);
	assert_true(it->t == 5);
	assert_int_equal(it->line, 13);
	/* a diagram cut short by a command: the command is not taken */
	assert_int_equal(feed_str(p, "@ 6", it, &err), 0);
	assert_int_equal(feed_str(p, "@ 7 pass", it, &err), GR_EPARSE);
	assert_non_null(strstr(err.message, "not taken"));
	assert_int_equal(feed_str(p, "..", it, &err), GR_EPARSE); /* a row with no '@' */
	assert_int_equal(gr_obslog_finish(p, &err), 0);
	/* NULL arguments and a NULL err */
	assert_int_equal(gr_obslog_feed(NULL, "@ 1", 3, it, &err), GR_EINVAL);
	assert_int_equal(gr_obslog_feed(p, "@ 1 pas", 7, it, NULL), GR_EPARSE);
	assert_int_equal(gr_obslog_feed(p, "", 0, it, NULL), 0);
	assert_int_equal(gr_obslog_finish(NULL, NULL), GR_EINVAL);
	free(it);
	gr_obslog_free(p);
}

static void test_times(void **s)
{
	(void)s;
	gr_obslog *p = NULL;
	assert_int_equal(gr_obslog_new(&p, 2), 0);
	gr_obs_item it;
	gr_error err;
	static const struct {
		const char *line;
		double t;
	} ok[] = {
		{"@ 0 pass", 0}, {"@0 pass", 0}, {"@ .5 pass", 0.5}, {"@ 3. pass", 3},
		{"@   3.000 pass", 3}, {"@\t12.125\tpass", 12.125}, {"@ 0012.5 pass", 12.5},
		{"@ 86400 pass # a day later", 86400},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		if (feed_str(p, ok[i].line, &it, &err) != 1)
			fail_msg("'%s': %s", ok[i].line, err.message);
		assert_true(it.t == ok[i].t);
	}
	static const char *const bad[] = {
		"@ 1e5 pass", "@ 1.2.3 pass", "@ +1 pass", "@ nan pass", "@ . pass", "@ 1234567890123456 pass",
		"@ 1,5 pass", "@ 90000 pass#x",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (feed_str(p, bad[i], &it, &err) != GR_EPARSE)
			fail_msg("'%s' was taken", bad[i]);
	assert_int_equal(feed_str(p, "@ 86399.999 pass", &it, &err), GR_EPARSE);
	assert_string_equal(err.message, "time goes backwards (86399.999 after 86400)");
	gr_obslog_free(p);
}

/* Fails every allocation. */
static void *no_malloc(size_t n) { (void)n; return NULL; }
static void *no_realloc(void *p, size_t n) { (void)p; (void)n; return NULL; }

static void test_out_of_memory(void **s)
{
	(void)s;
	gr_allocator a = {no_malloc, no_realloc, free};
	gr_set_allocator(&a);
	gr_obslog *p = (gr_obslog *)1;
	int rc = gr_obslog_new(&p, 0);
	gr_set_allocator(NULL);
	assert_int_equal(rc, GR_ENOMEM);
	assert_null(p);
}

/* A small deterministic generator for the round trip. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static void test_round_trip(void **s)
{
	(void)s;
	static char text[1 << 20];
	for (int size = 2; size <= 19; size++) {
		size_t len = 0;
		gr_obs_item *want = malloc(sizeof(gr_obs_item) * 40);
		assert_non_null(want);
		double t = 0;
		for (int k = 0; k < 40; k++) {
			gr_obs_item *w = &want[k];
			memset(w, 0, sizeof *w);
			w->t = t;
			if (rnd(3) == 0) {
				w->kind = GR_OBS_COMMAND;
				w->command = (gr_command)rnd(6);
				w->color = w->command == GR_CMD_RESIGN ? (gr_color)(1 + rnd(2)) : GR_EMPTY;
				len += gr_obslog_write_command(t, w->command, w->color, text + len, sizeof text - len);
			} else {
				w->kind = GR_OBS_POSITION;
				w->size = size;
				for (int i = 0; i < size * size; i++) {
					int v = rnd(8); /* now and then a point not seen */
					w->cells[i] = (unsigned char)(v == 7 ? GR_UNSEEN : v % 3);
				}
				len += gr_obslog_write_position(t, size, w->cells, text + len, sizeof text - len);
			}
			assert_true(len < sizeof text);
			t += rnd(4) * 0.125 + (rnd(2) ? 1 : 0); /* whole thousandths: exact in the log */
		}
		parsed *r = malloc(sizeof *r);
		assert_non_null(r);
		parse_text(r, text, len, 0);
		expect_ok(r);
		assert_int_equal(r->n, 40);
		for (int k = 0; k < 40; k++) {
			const gr_obs_item *g = &r->items[k], *w = &want[k];
			assert_int_equal(g->kind, w->kind);
			assert_true(g->t == w->t);
			if (w->kind == GR_OBS_COMMAND) {
				assert_int_equal(g->command, w->command);
				assert_int_equal(g->color, w->color);
			} else {
				assert_int_equal(g->size, size);
				assert_memory_equal(g->cells, w->cells, (size_t)(size * size));
			}
		}
		free(r);
		free(want);
	}
}

/* '?' is a point not seen (a hand, glare): read as GR_UNSEEN in both
 * forms, written back as '?'; a board diagram (not an observation) still
 * refuses it. */
static void test_unseen_points(void **s)
{
	(void)s;
	static const char text[] = "@ 1\n?X.\n.O?\n...\n@ 2\n? B .\n. . W\n? ? ?\n@ 3 pass\n";
	parsed *r = malloc(sizeof *r);
	assert_non_null(r);
	parse_text(r, text, strlen(text), 0);
	expect_ok(r);
	assert_int_equal(r->n, 3);
	expect_position(&r->items[0], 1, 1, 3, "?X..O?...");
	expect_position(&r->items[1], 2, 5, 3, "?X...O???");
	char buf[64];
	gr_obslog_write_position(1, 3, r->items[0].cells, buf, sizeof buf);
	assert_string_equal(buf, "@ 1\n?X.\n.O?\n...\n");
	/* any other character is still an error, and the message says '?' */
	parse_text(r, "@ 1\n?X!\n", strlen("@ 1\n?X!\n"), 0);
	assert_int_equal(r->rc, GR_EPARSE);
	assert_int_equal(r->err.line, 2);
	assert_int_equal(r->err.column, 3);
	assert_non_null(strstr(r->err.message, "? for a point not seen"));
	free(r);
	gr_board b;
	gr_error err = {0};
	assert_int_equal(gr_diagram_parse(&b, NULL, "?X\n..\n", 6, 0, &err), GR_EPARSE);
}

static void test_write_format(void **s)
{
	(void)s;
	char buf[256];
	unsigned char cells[4] = {GR_EMPTY, GR_BLACK, GR_WHITE, GR_EMPTY};
	assert_int_equal(gr_obslog_write_position(12.5, 2, cells, buf, sizeof buf), 13);
	assert_string_equal(buf, "@ 12.5\n.X\nO.\n");
	assert_int_equal(gr_obslog_write_position(3, 2, cells, buf, sizeof buf), 10);
	assert_string_equal(buf, "@ 3\n.X\nO.\n");
	gr_obslog_write_command(0.125, GR_CMD_PASS, GR_EMPTY, buf, sizeof buf);
	assert_string_equal(buf, "@ 0.125 pass\n");
	gr_obslog_write_command(1.0004, GR_CMD_END, GR_EMPTY, buf, sizeof buf);
	assert_string_equal(buf, "@ 1 end\n");
	gr_obslog_write_command(2.25, GR_CMD_RESIGN, GR_WHITE, buf, sizeof buf);
	assert_string_equal(buf, "@ 2.25 resign W\n");
	gr_obslog_write_command(7, GR_CMD_RESIGN, GR_BLACK, buf, sizeof buf);
	assert_string_equal(buf, "@ 7 resign B\n");
	gr_obslog_write_command(7, GR_CMD_COUNT, GR_BLACK, buf, sizeof buf);
	assert_string_equal(buf, "@ 7 count\n");
	gr_obslog_write_command(8, GR_CMD_ACCEPT, GR_EMPTY, buf, sizeof buf);
	assert_string_equal(buf, "@ 8 accept\n");
	gr_obslog_write_command(9, GR_CMD_RESTORE, GR_EMPTY, buf, sizeof buf);
	assert_string_equal(buf, "@ 9 restore\n");
	/* as snprintf: the length needed, the text cut and terminated */
	memset(buf, '#', sizeof buf);
	assert_int_equal(gr_obslog_write_position(12.5, 2, cells, buf, 8), 13);
	assert_string_equal(buf, "@ 12.5\n");
	assert_int_equal(gr_obslog_write_command(2.25, GR_CMD_RESIGN, GR_WHITE, NULL, 0), 16);
	assert_int_equal(gr_obslog_write_command(2.25, GR_CMD_RESIGN, GR_WHITE, buf, 1), 16);
	assert_string_equal(buf, "");
	/* a 19x19 diagram: 19 rows of 19 */
	unsigned char big[19 * 19] = {0};
	big[0] = GR_BLACK;
	big[19 * 19 - 1] = GR_WHITE;
	static char text[1024];
	size_t n = gr_obslog_write_position(100, 19, big, text, sizeof text);
	assert_int_equal(n, strlen("@ 100\n") + 19 * 20);
	assert_int_equal(text[6], 'X');
	assert_int_equal(text[n - 2], 'O');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_5x5),
		cmocka_unit_test(test_good_spaced_crlf),
		cmocka_unit_test(test_good_19x19),
		cmocka_unit_test(test_bad_logs),
		cmocka_unit_test(test_wrong_size_given),
		cmocka_unit_test(test_recovery),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_unseen_points),
		cmocka_unit_test(test_write_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
