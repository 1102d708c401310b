/*
 * goref rules core: reading and writing game records as SGF (FF[4]).
 *
 * Text in, text out: no file is opened here. The reader takes the main line
 * of the first game of a collection into a gr_record; the writer turns a
 * record into an SGF file that reads back the same and that other programs
 * load (GNU Go's loadsgf is tested).
 *
 * What the reader reads:
 * - Syntax: the game trees, nodes, properties and [values] of SGF FF[4],
 *   with whitespace allowed between all of them. Text before the first '(' is
 *   skipped; everything after the first game tree closes is ignored (other
 *   games of a collection). The tree is checked to its end, variations
 *   included, but only the main line counts: the first child at each branch.
 *   Nesting depth is not limited (no recursion).
 * - Property names: the capital letters of the name, at most 32. Lowercase
 *   letters (FF[3] long names: "AddBlack" is AB) are skipped. A name with no
 *   capital letter is an error.
 * - Values: '\' escapes the next character ("\]", "\\"); '\' before a line
 *   break removes both (a soft line break); line breaks (CR LF, LF CR, CR)
 *   become "\n". Bytes are kept as they are: CA is not read and no charset is
 *   converted. Numbers, points and colours may have blanks around them. Whole
 *   numbers have at most 9 digits, decimal numbers (KM, GRTIME) an optional
 *   sign, at most 9 digits before the point and no exponent.
 * - Root: FF (1 to 4; FF[3] files read as FF[4]), GM (absent or 1: any other
 *   game is an error), SZ (default 19; 2..19, square only: "SZ[19:13]" is an
 *   error, and so is another size on a later node). On any node of the main
 *   line: KM (komi in points), HA (0 to the number of points), the
 *   game-information texts AN BR BT CP DT EV GC GN ON OT PB PC PW RE RO RU SO
 *   TM US WR WT (their first value, kept with gr_record_set_prop; RU stays
 *   "Chinese" when the file has none), goref's own GRWARNB / GRWARNW
 *   (warnings per player), and before the first move PL (B or W).
 * - Setup: AB and AW, with FF[4] compressed lists ("AB[aa:cc]" is the nine
 *   points of that rectangle), on the root or on nodes before the first
 *   move. A point twice in one colour counts once; a point in both is an
 *   error. AE before the first move is ignored unless it would remove a setup
 *   stone (an error). AB, AW or AE after the first move is an error: a record
 *   has no such thing.
 * - Moves: B or W, one per node (a node with both, or with either twice, is
 *   an error). "B[]" is a pass, and so is "B[tt]" (boards are at most 19
 *   lines). goref's GRTIME[12.5] is the time of the node's move in seconds
 *   since the start (0 or more; checked and ignored on a node with no move).
 * - Comments: C on a move node is the move's comment; C on the root, or on a
 *   node with no move before the first move, is the root comment; C on a
 *   later node with no move is added to the last move's comment. Several C
 *   are joined by "\n".
 * - SZ, KM, HA, PL, B, W, GRTIME, GRWARNB and GRWARNW take one value: more is
 *   an error. Everything else (markup, time left, ST, application-private
 *   properties, AP, CA) is ignored.
 *
 * What the writer writes, one node a line:
 *   (;FF[4]GM[1]CA[UTF-8]AP[goref:0.1]RU[..]SZ[..]KM[..]HA[..]
 *   the record's other properties in the order they were set, GRWARNB[..]
 *   GRWARNW[..]
 *   AB[..][..]AW[..]PL[..]C[the root comment]
 *   ;B[pd]GRTIME[3.5]C[..]
 *   ;W[]
 *   )
 * HA, GRWARNB and GRWARNW only when not 0, RU, PL and C only when set, a
 * pass as "[]", GRTIME only when the time is known. In values ']' and '\' are
 * escaped; nothing else is changed. Komi and times are written in decimal
 * with at most six digits after the point, with '.' whatever the locale.
 * Read back, the output gives the same record, except for komi and times that
 * are not whole millionths (rounded) and texts holding CR (read as LF); and
 * written again, the same text.
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
