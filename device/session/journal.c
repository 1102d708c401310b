/* goref program: the game's journal. See journal.h. */
#define _POSIX_C_SOURCE 200809L
#include "journal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
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

static void unmap(const char *text, size_t len)
{
	if (text)
		munmap((void *)(uintptr_t)text, len);
}

int gd_journal_open(const char *path, int size, gd_journal_cb cb, void *ud, FILE **out, gd_journal_info *info,
                    char *err, size_t cap)
{
	memset(info, 0, sizeof *info);
	if (out)
		*out = NULL;
	/* the file is mapped, not read: no copy of it, and nothing is read
	 * before the first entry is handed over (a stop asked for then is seen
	 * at once, however long the journal) */
	int fd = open(path, O_RDONLY);
	if (fd < 0 && errno != ENOENT)
		return fail(err, cap, "cannot read the journal %s: %s", path, strerror(errno));
	const char *text = NULL;
	size_t len = 0;
	if (fd >= 0) {
		struct stat sb;
		if (fstat(fd, &sb) != 0) {
			int e = errno;
			close(fd);
			return fail(err, cap, "cannot read the journal %s: %s", path, strerror(e));
		}
		if (sb.st_size > GD_JOURNAL_MAX_BYTES) {
			close(fd);
			snprintf(err, cap,
			         "the journal %s is %lld bytes, over the bound of %ld (GD_JOURNAL_MAX_BYTES): "
			         "start a new game with --new",
			         path, (long long)sb.st_size, GD_JOURNAL_MAX_BYTES);
			return -1;
		}
		if (!S_ISREG(sb.st_mode)) {
			close(fd);
			snprintf(err, cap, "the journal %s is not a file", path);
			return -1;
		}
		len = (size_t)sb.st_size;
		if (len > 0) {
			void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
			if (m == MAP_FAILED) {
				int e = errno;
				close(fd);
				return fail(err, cap, "cannot read the journal %s: %s", path, strerror(e));
			}
			text = m;
		}
		close(fd);
	}
	gr_obslog *log = NULL;
	gr_obs_item *item = malloc(sizeof *item);
	if (gr_obslog_new(&log, size) != 0 || !item) {
		unmap(text, len);
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
	unmap(text, len); /* before the file may be cut */
	if (rc == 0 && pending && entry_start < len) {
		if (entry_start > good_end)
			good_end = entry_start; /* comments before the torn entry stay */
		info->cut = true;
		info->cut_bytes = (long)(len - good_end);
		if (truncate(path, (off_t)good_end) != 0)
			return fail(err, cap, "cannot cut the half-written end of the journal %s: %s", path, strerror(errno));
	}
	if (rc != 0 || !out)
		return rc;
	FILE *a = fopen(path, "ab");
	if (!a)
		return fail(err, cap, "cannot write the journal %s: %s", path, strerror(errno));
	*out = a;
	return 0;
}
