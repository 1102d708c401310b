/*
 * device/journal: the game's journal read back after a crash.
 *
 * Journals written here as a crash would leave them: whole, with the last
 * entry cut at every byte, and damaged in the middle. The whole entries must come back in order, a
 * half-written end must be cut off the file (and appending then goes on
 * from there), damage elsewhere must be an error naming the line.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"

static char dir[] = "/tmp/goref-journal-XXXXXX";

static const char three[] =
	"# goref watch\n"
	"@ 0\n"
	"...\n"
	"...\n"
	"...\n"
	"@ 1.5\n"
	"...\n"
	".X.\n"
	"...\n"
	"@ 2 pass\n";

typedef struct seen {
	int n;
	double t[16];
	int kind[16];
} seen;

static int collect(const gr_obs_item *it, void *ud)
{
	seen *s = ud;
	if (s->n < 16) {
		s->t[s->n] = it->t;
		s->kind[s->n] = it->kind;
	}
	s->n++;
	return 0;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fclose(f);
	return n;
}

static int setup(void **s)
{
	(void)s;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_missing_journal_is_a_new_game(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/new.log", dir);
	seen sn = {0};
	gd_journal_info info;
	FILE *f = NULL;
	assert_int_equal(gd_journal_open(path, 0, collect, &sn, &f, &info, err, sizeof err), 0);
	assert_non_null(f);
	assert_int_equal(sn.n, 0);
	assert_int_equal(info.entries, 0);
	assert_false(info.cut);
	fclose(f);
}

static void test_whole_journal_comes_back_in_order(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/whole.log", dir);
	write_file(path, three, strlen(three));
	seen sn = {0};
	gd_journal_info info;
	FILE *f = NULL;
	assert_int_equal(gd_journal_open(path, 3, collect, &sn, &f, &info, err, sizeof err), 0);
	assert_int_equal(sn.n, 3);
	assert_int_equal(sn.kind[0], GR_OBS_POSITION);
	assert_int_equal(sn.kind[2], GR_OBS_COMMAND);
	assert_true(sn.t[1] == 1.5 && sn.t[2] == 2);
	assert_int_equal(info.entries, 3);
	assert_true(info.last_t == 2);
	assert_int_equal(info.size, 3);
	assert_false(info.cut);
	assert_int_equal(file_size(path), (long)strlen(three));
	fclose(f);
}

/* Cut the journal at every byte: the whole entries before the cut come
 * back, the rest is cut off the file, and the file then reads clean. */
static void test_a_crash_at_every_byte(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/torn.log", dir);
	/* the byte where each entry ends (after its newline) */
	size_t len = strlen(three);
	size_t ends[3];
	int ne = 0;
	const char *p = three;
	const char *marks[] = {"...\n@ 1.5", "...\n@ 2 pass", NULL};
	for (int k = 0; marks[k]; k++)
		ends[ne++] = (size_t)(strstr(p, marks[k]) - p) + 4;
	ends[ne++] = len;
	for (size_t cut = 0; cut <= len; cut++) {
		write_file(path, three, cut);
		seen sn = {0};
		gd_journal_info info;
		FILE *f = NULL;
		int rc = gd_journal_open(path, 0, collect, &sn, &f, &info, err, sizeof err);
		if (rc != 0)
			fail_msg("cut at %zu: %s", cut, err);
		int whole = 0;
		while (whole < ne && ends[whole] <= cut)
			whole++;
		if (sn.n != whole)
			fail_msg("cut at %zu: %d entries, expected %d", cut, sn.n, whole);
		long left = file_size(path);
		/* what stays is the whole entries (and the header comment) */
		size_t want = whole ? ends[whole - 1] : (cut >= 14 ? 14 : 0);
		if (whole == ne)
			want = cut;
		if ((size_t)left != want)
			fail_msg("cut at %zu: %ld bytes left, expected %zu", cut, left, want);
		assert_true(info.cut == (want != cut));
		/* appending goes on from a whole entry: the file reads clean */
		fputs("@ 9 end\n", f);
		fclose(f);
		seen again = {0};
		assert_int_equal(gd_journal_open(path, 0, collect, &again, NULL, &info, err, sizeof err), 0);
		assert_false(info.cut);
		assert_int_equal(again.n, whole + 1);
	}
}

/* Issue 17's two journals that were refused after a restart: an entry cut
 * short followed by a torn '@' line, and an indented '@' header. Each must
 * open (the torn end cut from the incomplete entry on), take an append, and
 * open clean again with every whole entry. */
static void reopen_and_append(const char *path, const char *text, int whole)
{
	char err[256];
	write_file(path, text, strlen(text));
	seen sn = {0};
	gd_journal_info info;
	FILE *f = NULL;
	int rc = gd_journal_open(path, 0, collect, &sn, &f, &info, err, sizeof err);
	if (rc != 0)
		fail_msg("%s", err);
	assert_int_equal(sn.n, whole);
	fputs("@ 9 end\n", f);
	fclose(f);
	seen again = {0};
	rc = gd_journal_open(path, 0, collect, &again, NULL, &info, err, sizeof err);
	if (rc != 0)
		fail_msg("after the append: %s", err);
	assert_false(info.cut);
	assert_int_equal(again.n, whole + 1);
}

static void test_torn_after_an_incomplete_entry_and_indented_headers(void **s)
{
	(void)s;
	char path[256];
	snprintf(path, sizeof path, "%s/torn2.log", dir);
	reopen_and_append(path, "@ 0\n...\n...\n...\n@ 1\n...\n.X.\n@ 2", 1);
	reopen_and_append(path, "@ 0\n...\n...\n...\n  @ 1\n...\n.X.\n", 1);
	reopen_and_append(path, "@ 0\n...\n...\n...\n  @ 1\n...\n.X.\n...\n", 2);
}

static void test_damage_in_the_middle_is_an_error(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/bad.log", dir);
	const char bad[] = "@ 0\n...\n.Z.\n...\n@ 1\n...\n...\n...\n";
	write_file(path, bad, strlen(bad));
	seen sn = {0};
	gd_journal_info info;
	FILE *f = NULL;
	assert_int_equal(gd_journal_open(path, 0, collect, &sn, &f, &info, err, sizeof err), -1);
	assert_null(f);
	assert_non_null(strstr(err, "line 3"));
	assert_non_null(strstr(err, "--new"));
	assert_int_equal(file_size(path), (long)strlen(bad)); /* never cut */
	/* a board of another size than asked for */
	write_file(path, three, strlen(three));
	assert_int_equal(gd_journal_open(path, 19, collect, &sn, &f, &info, err, sizeof err), -1);
	assert_null(f);
}

static int stop_at_two(const gr_obs_item *it, void *ud)
{
	(void)it;
	return ++*(int *)ud == 2 ? 7 : 0;
}

static void test_the_callback_can_stop(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/stop.log", dir);
	write_file(path, three, strlen(three));
	int n = 0;
	gd_journal_info info;
	FILE *f = NULL;
	assert_int_equal(gd_journal_open(path, 0, stop_at_two, &n, &f, &info, err, sizeof err), 7);
	assert_null(f);
	assert_int_equal(n, 2);
	/* stopped (watch on SIGTERM while it feeds the journal back), a
	 * half-written end is not cut: the next start cuts it */
	const char torn[] = "@ 0\n...\n...\n...\n@ 1\n...\n.X.\n...\n@ 2\n..";
	write_file(path, torn, strlen(torn));
	n = 0;
	assert_int_equal(gd_journal_open(path, 0, stop_at_two, &n, &f, &info, err, sizeof err), 7);
	assert_int_equal(file_size(path), (long)strlen(torn));
}

/* A journal over GD_JOURNAL_MAX_BYTES is refused unread (a sparse file:
 * no 64 MB written), with the bound and --new in the message, and kept. */
static void test_over_the_bound_is_refused(void **s)
{
	(void)s;
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/huge.log", dir);
	write_file(path, three, strlen(three));
	assert_int_equal(truncate(path, (off_t)GD_JOURNAL_MAX_BYTES + 1), 0);
	seen sn = {0};
	gd_journal_info info;
	FILE *f = NULL;
	assert_int_equal(gd_journal_open(path, 0, collect, &sn, &f, &info, err, sizeof err), -1);
	assert_null(f);
	assert_int_equal(sn.n, 0);
	assert_non_null(strstr(err, "over the bound"));
	assert_non_null(strstr(err, "--new"));
	assert_int_equal(file_size(path), GD_JOURNAL_MAX_BYTES + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_journal_is_a_new_game),
		cmocka_unit_test(test_whole_journal_comes_back_in_order),
		cmocka_unit_test(test_a_crash_at_every_byte),
		cmocka_unit_test(test_torn_after_an_incomplete_entry_and_indented_headers),
		cmocka_unit_test(test_damage_in_the_middle_is_an_error),
		cmocka_unit_test(test_the_callback_can_stop),
		cmocka_unit_test(test_over_the_bound_is_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
