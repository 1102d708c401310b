/* Helpers shared by goref's cmocka tests. */
#ifndef GOREF_TESTUTIL_H
#define GOREF_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board.h"
#include "diagram.h"

/* Reads a whole file into a NUL-terminated buffer (free with free()); NULL
 * when it cannot be read. *len gets the length when len is not NULL. */
char *tu_read_file(const char *path, size_t *len);

/* Reads a 19x19 label of ../shared/datasets ('.', 'B', 'W' for each point,
 * in reading order) into truth (0 empty, 1 black, 2 white); false when the
 * file cannot be read or has not 361 points. */
bool tu_read_label(const char *path, unsigned char truth[361]);

/* The path of a fixture file: GOREF_FIXTURES "/" name (static buffer). */
const char *tu_fixture(const char *name);

/* Loads a diagram fixture into b (dead may be NULL); fails the test on error. */
void tu_load_diagram(gr_board *b, bool *dead, const char *name);

/* Parses a diagram from a string; fails the test on error. */
void tu_diagram(gr_board *b, bool *dead, const char *text);

/* Point from a GTP name; fails the test when it is not on the board. */
int tu_pt(const gr_board *b, const char *name);

/* Asserts that b shows exactly the diagram text. */
void tu_assert_board(const gr_board *b, const char *text);

#endif
