/* goref program: the game's journal. See journal.h. */
#define _POSIX_C_SOURCE 200809L
#include "journal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t cap, const char *fmt, const char *a, const char *b)
{
	snprintf(err, cap, fmt, a, b);
	return -1;
}

/* Whether a line is an entry's '@' line (blanks before it allowed, as the
 * log's reader allows them). */
static bool is_header(const char *line, size_t n)
{
	size_t i = 0;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i < n && line[i] == '@';
}

int gd_journal_open(const char *path, int size, gd_journal_cb cb, void *ud, FILE **out, gd_journal_info *info,
                    char *err, size_t cap)
{
	memset(info, 0, sizeof *info);
	if (out)
		*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f && errno != ENOENT)
		return fail(err, cap, "cannot read the journal %s: %s", path, strerror(errno));
	char *text = NULL;
	size_t len = 0;
	if (f) {
		/* the file's size first: over the bound it is refused unread,
		 * else read into one buffer of its size */
		struct stat sb;
		if (fstat(fileno(f), &sb) != 0) {
			int e = errno;
			fclose(f);
			return fail(err, cap, "cannot read the journal %s: %s", path, strerror(e));
		}
		if (sb.st_size > GD_JOURNAL_MAX_BYTES) {
			fclose(f);
			snprintf(err, cap,
			         "the journal %s is %lld bytes, over the bound of %ld (GD_JOURNAL_MAX_BYTES): "
			         "start a new game with --new",
			         path, (long long)sb.st_size, GD_JOURNAL_MAX_BYTES);
			return -1;
		}
		size_t capx = (size_t)sb.st_size + 1;
		text = malloc(capx);
		size_t n;
		while (text && len < capx && (n = fread(text + len, 1, capx - len, f)) > 0)
			len += n;
		bool bad = ferror(f);
		fclose(f);
		if (!text) {
			snprintf(err, cap, "out of memory reading the journal %s", path);
			return -1;
		}
		if (bad) {
			free(text);
			return fail(err, cap, "cannot read the journal %s: %s", path, strerror(errno));
		}
		if (len == capx) { /* longer than its size said: written to while read */
			free(text);
			snprintf(err, cap, "the journal %s grew while it was read (is another goref writing it?)", path);
			return -1;
		}
	}
	gr_obslog *log = NULL;
	gr_obs_item *item = malloc(sizeof *item);
	if (gr_obslog_new(&log, size) != 0 || !item) {
		free(text);
		free(item);
		gr_obslog_free(log);
		snprintf(err, cap, "out of memory");
		return -1;
	}
	int rc = 0;
	size_t entry_start = 0; /* where the entry being read began */
	size_t good_end = 0;    /* the end of the last whole entry */
	bool pending = false;   /* an entry is being read */
	size_t pos = 0;
	gr_error perr = {0};
	while (pos < len && rc == 0) {
		size_t e = pos;
		while (e < len && text[e] != '\n')
			e++;
		bool last_line = e >= len || e + 1 >= len;
		bool torn_line = e >= len; /* no newline: the write was cut */
		bool header = is_header(text + pos, e - pos);
		/* an entry begins at its '@' line; one still incomplete when
		 * another begins stays the start of what is not whole */
		if (!pending && header)
			entry_start = pos;
		if (torn_line) {
			/* a line the crash cut: whatever it begins is not whole */
			pending = true;
			break;
		}
		int r = gr_obslog_feed(log, text + pos, e - pos, item, &perr);
		if (r < 0) {
			if (last_line) { /* the last line, damaged: cut */
				pending = true;
				break;
			}
			snprintf(err, cap, "the journal %s is damaged at line %d: %s (start a new game with --new, or mend it)",
			         path, perr.line, perr.message);
			rc = -1;
			break;
		}
		if (r == 0) {
			if (header)
				pending = true;
		} else {
			pending = false;
			good_end = e + 1;
			info->entries++;
			info->last_t = item->t;
			if (item->kind == GR_OBS_POSITION)
				info->size = item->size;
			if (cb)
				rc = cb(item, ud);
		}
		pos = e + 1;
	}
	if (rc == 0 && !pending && pos >= len)
		good_end = len; /* comments after the last entry are whole too */
	gr_obslog_free(log);
	free(item);
	if (rc == 0 && pending && entry_start < len) {
		if (entry_start > good_end)
			good_end = entry_start; /* comments before the torn entry stay */
		info->cut = true;
		info->cut_bytes = (long)(len - good_end);
		if (truncate(path, (off_t)good_end) != 0) {
			free(text);
			return fail(err, cap, "cannot cut the half-written end of the journal %s: %s", path, strerror(errno));
		}
	}
	free(text);
	if (rc != 0 || !out)
		return rc;
	FILE *a = fopen(path, "ab");
	if (!a)
		return fail(err, cap, "cannot write the journal %s: %s", path, strerror(errno));
	*out = a;
	return 0;
}
