/*
 * goref rules core: board diagrams, the text every tool and test reads.
 *
 * N lines of N characters: '.' empty, 'X' black, 'O' white, 'x' / 'o' a dead
 * black / white stone (alive or dead is the reader's business: the stone is
 * on the board either way). The space-separated form of the photo datasets
 * ('.', 'B', 'W', one space between fields) is read too. A line whose first
 * non-blank character is '#' is a comment; blank lines are skipped. The first
 * line is the top edge (row N in GTP coordinates), the first column is A.
 */
#ifndef GOREF_RULES_DIAGRAM_H
#define GOREF_RULES_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "util.h"

/* Reads one diagram row from line[0..len) (no newline; a trailing '\r' and
 * trailing blanks are ignored). Writes up to GR_MAX_SIZE cells (gr_color) and,
 * if dead is not NULL, 1 for each dead stone. Returns the number of cells, or
 * GR_EPARSE with err filled (err->line is set to lineno). */
int gr_diagram_row(const char *line, size_t len, int lineno, unsigned char *cells,
                   unsigned char *dead, gr_error *err);

/* gr_diagram_row that also reads '?', a point not seen, as GR_UNSEEN (the
 * observation log's rows). */
int gr_diagram_row_seen(const char *line, size_t len, int lineno, unsigned char *cells,
                        unsigned char *dead, gr_error *err);

/* True if the line (without newline) is blank or a '#' comment. */
bool gr_diagram_skip_line(const char *line, size_t len);

/* Parses a whole diagram from text[0..len) into b (initialised here). The
 * size is the width of the first row; it must be 2..19 and equal expect_size
 * unless expect_size is 0. dead (GR_MAX_POINTS entries, may be NULL) receives
 * true at every stone marked dead. Returns 0 or a GR_E* code with err filled
 * (line and column in text). */
int gr_diagram_parse(gr_board *b, bool *dead, const char *text, size_t len, int expect_size,
                     gr_error *err);

/* Writes the diagram of b (with 'x' / 'o' where dead[pt], dead may be NULL),
 * one '\n'-ended line per row, NUL-terminated, into buf of cap bytes. Returns
 * the length the full text needs (without the NUL), as snprintf does. */
size_t gr_diagram_write(const gr_board *b, const bool *dead, char *buf, size_t cap);

#endif
