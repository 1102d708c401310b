/*
 * goref rules core: reading and writing game records as SGF (FF[4]).
 *
 * Text in, text out: no file is opened here. The reader takes the main line
 * of the first game of a collection into a gr_record; the writer turns a
 * record into an SGF file that reads back the same and that other programs
 * (GNU Go, Sabaki, CGoban) load.
 *
 * What the reader reads:
 * - Syntax: the game trees, nodes, properties and [values] of SGF FF[4],
 *   with whitespace allowed between all of them. Text before the first '(' is
 *   skipped; everything after the first game tree closes is ignored (other
 *   games of a collection). The tree is checked to its end, variations
 *   included, but only the main line counts: the first child at each branch.
 * - Property names: the capital letters of the name. Lowercase letters (the
 *   FF[3] long names, "AddBlack" for AB) are skipped. A name with no capital
 *   letter is an error.
 * - Values: '\' escapes the next character ("\]", "\\"); '\' before a line
 *   break removes both (a soft line break); line breaks (CR LF, LF CR, CR)
 *   become "\n". Bytes are kept as they are: CA is not read and no charset is
 *   converted. Numbers, points and colours may have blanks around them.
 * - Root: FF (1 to 4; FF[3] files read as FF[4]), GM (absent or 1: any other
 *   game is an error), SZ (default 19; 2..19, square only: "SZ[19:13]" is an
 *   error), KM (komi in points, a decimal number with no exponent), HA, PL
 *   (B or W; ignored after the first move), the game-info texts AN BR BT CP DT EV GC GN ON OT PB PC PW RE
 *   RO RU SO TM US WR WT (kept with gr_record_set_prop; RU stays "Chinese"
 *   when the file has none), C (the root comment), and goref's own GRWARNB /
 *   GRWARNW (warnings per player, whole numbers).
 * - Setup: AB and AW, with FF[4] compressed lists ("AB[aa:cc]" is the nine
 *   points of that rectangle), on the root or on nodes before the first
 *   move. A point twice in one colour counts once; a point in both is an
 *   error. AE before the first move is ignored unless it would remove a setup
 *   stone (an error). AB, AW or AE after the first move is an error: a record
 *   has no such thing.
 * - Moves: B or W, one per node (a node with both, or with either twice, is
 *   an error). "B[]" is a pass, and so is "B[tt]" (boards are at most 19
 *   lines). C on a move node is the move's comment; goref's GRTIME[12.5] is
 *   the time of the move in seconds since the start (0 or more). A comment on
 *   a node with no move is added to the last move's comment, or to the root
 *   comment before the first move.
 * - Everything else (markup, time left, ST, application-private properties,
 *   SZ repeated with the same size in a later node) is ignored.
 *
 * What the writer writes: FF[4] GM[1] CA[UTF-8] AP[goref:0.1], then RU and
 * the record's other properties (in the order they were set), SZ, KM, HA
 * (when not 0), GRWARNB / GRWARNW (when not 0), AB / AW, PL (when set), C
 * (the root comment), then one node a line, ";B[pd]" or ";W[]" for a pass,
 * with GRTIME when the time is known and C when the move has a comment. In
 * values ']' and '\' are escaped. Komi and times are written in decimal with
 * at most six digits after the point (so they read back the same when they
 * are whole microseconds), with '.' whatever the locale. Output read back
 * gives the same record, and written again the same text.
 */
#ifndef GOREF_RULES_SGF_H
#define GOREF_RULES_SGF_H

#include <stddef.h>

#include "record.h"
#include "util.h"

/* Reads the SGF text[0..len) (need not be NUL-terminated; a NUL byte is an
 * ordinary byte) into a new record in *out. Returns 0, or on failure leaves
 * *out NULL and returns:
 * - GR_EPARSE: the text is not SGF or not what a record can hold (unbalanced
 *   brackets or parentheses, a truncated file, a character out of place, a
 *   value that is not a number or a point, another game than Go, both B and
 *   W in a node, setup after a move, ...);
 * - GR_ERANGE: a well-formed value out of the range goref supports (board
 *   size, a non-square board, a point off the board, a number too large);
 * - GR_EINVAL: out is NULL, or text is NULL while len is not 0;
 * - GR_ENOMEM: out of memory.
 * err (may be NULL) gets the 1-based line and column (in bytes) in text of
 * the fault, and a message naming the property and value at fault, e.g.
 * "SZ[25]: board size must be 2..19" or "move 'zz' is off a 19x19 board".
 * GR_EINVAL and GR_ENOMEM give line 0. */
int gr_sgf_read(gr_record **out, const char *text, size_t len, gr_error *err);

/* Writes the record as SGF into a new NUL-terminated string (free it with
 * gr_free) in *out, and its length without the NUL in *len (len may be NULL).
 * Returns 0, GR_EINVAL (r or out NULL) or GR_ENOMEM (then *out is NULL). */
int gr_sgf_write(const gr_record *r, char **out, size_t *len);

#endif
