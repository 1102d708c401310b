/*
 * libFuzzer harness: the journal's reopening and appending (device/session/journal.h),
 * on any file content.
 *
 * Properties: a journal that opens, opened again at once, opens with the
 * same entries and nothing cut (a reopening cuts nothing that was whole);
 * an entry then appended as `watch` appends it is read back on the next
 * opening, after all the others, and nothing is cut.
 */
#include "fuzz_util.h"
#include "journal.h"

static int count(const gr_obs_item *item, void *ud)
{
	(void)item;
	(*(int *)ud)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_temp_path(".log");
	fuzz_write_file(path, data, size);
	char err[1024];
	gd_journal_info info = {0}, again = {0};
	int n1 = 0, n2 = 0;
	FILE *f = NULL;
	if (gd_journal_open(path, 0, count, &n1, &f, &info, err, sizeof err) != 0) {
		if (f)
			fuzz_fail("a journal refused was opened");
		unlink(path);
		return 0;
	}
	if (n1 != info.entries || info.cut_bytes < 0 || (size_t)info.cut_bytes > size)
		fuzz_fail("entries %d (called %d), cut %ld of %zu bytes", info.entries, n1, info.cut_bytes, size);
	fclose(f);
	f = NULL;
	if (gd_journal_open(path, 0, count, &n2, &f, &again, err, sizeof err) != 0)
		fuzz_fail("a journal opened once is refused the second time: %s", err);
	if (again.entries != info.entries || again.cut)
		fuzz_fail("reopening: %d entries then %d, %ld bytes cut", info.entries, again.entries, again.cut_bytes);

	/* append a whole entry, as watch does */
	int board = info.size ? info.size : 9;
	unsigned char cells[GR_MAX_SIZE * GR_MAX_SIZE] = {0};
	cells[0] = GR_BLACK;
	double t = info.entries ? info.last_t + 1 : 1;
	char buf[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 512];
	size_t n = gr_obslog_write_position(t, board, cells, buf, sizeof buf);
	if (n < sizeof buf) {
		if (fwrite(buf, 1, n, f) != n)
			fuzz_fail("cannot append to %s", path);
		fclose(f);
		f = NULL;
		gd_journal_info third = {0};
		int n3 = 0;
		if (gd_journal_open(path, 0, count, &n3, NULL, &third, err, sizeof err) != 0)
			fuzz_fail("a journal appended to is refused: %s\n%s", err, buf);
		if (third.entries != info.entries + 1 || third.cut)
			fuzz_fail("after appending: %d entries then %d, %ld bytes cut", info.entries, third.entries,
			          third.cut_bytes);
	}
	if (f)
		fclose(f);
	unlink(path);
	return 0;
}
