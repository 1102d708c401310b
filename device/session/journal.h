/*
 * goref program: the game's journal, so that nothing is lost on a crash.
 *
 * The journal is an observation log (rules/obslog.h): every position the
 * pipeline accepted and every operator command, each appended and put on
 * the disk (fsync) before the referee acts on it. After a crash, a power cut
 * or kill -9, feeding the journal back through the referee gives the same
 * game, move for move; `goref referee JOURNAL` does it too.
 *
 * A write cut short by the crash leaves a last entry half written: it is
 * cut off (the file truncated to the last whole entry) and said so. Any
 * other damage is an error naming the line: the journal is not guessed at.
 */
#ifndef GOREF_DEVICE_JOURNAL_H
#define GOREF_DEVICE_JOURNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "obslog.h"

/* The largest journal read or written: 64 MB, about 160,000 positions of
 * 19x19, 44 hours of a still board read once a second. A larger file is
 * refused by gd_journal_open (which maps the file, reading it as it goes),
 * and `goref watch` stops appending at it (loop.h's log_max). */
#define GD_JOURNAL_MAX_BYTES (64L * 1024 * 1024)

/* Called for each whole entry of the journal, in order. Return 0 to go on,
 * anything else to stop (gd_journal_read then returns it). */
typedef int (*gd_journal_cb)(const gr_obs_item *item, void *ud);

typedef struct gd_journal_info {
	int entries;        /* whole entries read */
	double last_t;      /* the time of the last one (0 when none) */
	int size;           /* the board size of its positions (0 when none) */
	bool cut;           /* a half-written last entry was cut off */
	long cut_bytes;     /* how many bytes were cut off */
} gd_journal_info;

/* Reads the journal at path (missing or empty: no entries, no error),
 * calls cb for each entry, cuts off a half-written last entry, and opens
 * the file for appending into *out (NULL when out is NULL). size is the
 * board size expected (0: any). Returns 0, a code cb returned, or -1 with a
 * message in err (a damaged journal, a board of another size, a file that
 * cannot be read or written, one over GD_JOURNAL_MAX_BYTES). */
int gd_journal_open(const char *path, int size, gd_journal_cb cb, void *ud, FILE **out, gd_journal_info *info,
                    char *err, size_t cap);

#endif
