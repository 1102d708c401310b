/* Tests of the game record (rules/record.c) and SGF (rules/sgf.c). */
#include "testutil.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "sgf.h"

/* ---- helpers ---------------------------------------------------------- */

static gr_record *read_text(const char *text)
{
	gr_record *r = NULL;
	gr_error err = {0};
	int rc = gr_sgf_read(&r, text, strlen(text), &err);
	if (rc != 0)
		fail_msg("gr_sgf_read: %d at %d:%d: %s", rc, err.line, err.column, err.message);
	return r;
}

static gr_record *read_fixture(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "sgf/%s", name);
	size_t len;
	char *text = tu_read_file(tu_fixture(path), &len);
	if (!text)
		fail_msg("cannot read fixture %s", tu_fixture(path));
	gr_record *r = NULL;
	gr_error err = {0};
	int rc = gr_sgf_read(&r, text, len, &err);
	free(text);
	if (rc != 0)
		fail_msg("%s:%d:%d: %s (%d)", name, err.line, err.column, err.message, rc);
	return r;
}

static char *write_record(const gr_record *r)
{
	char *out = NULL;
	size_t len = 0;
	assert_int_equal(gr_sgf_write(r, &out, &len), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	return out;
}

/* The point at GTP name on a board of the record's size. */
static int pt_of(const gr_record *r, const char *name)
{
	gr_board b;
	gr_board_init(&b, gr_record_size(r));
	return tu_pt(&b, name);
}

static void assert_move(const gr_record *r, int i, gr_color c, const char *where, double time,
                        const char *comment)
{
	const gr_move *m = gr_record_move(r, i);
	assert_non_null(m);
	assert_int_equal(m->color, c);
	if (!strcmp(where, "pass"))
		assert_int_equal(m->pt, GR_PASS);
	else
		assert_int_equal(m->pt, pt_of(r, where));
	assert_true(m->time == time);
	if (comment)
		assert_string_equal(m->comment, comment);
	else
		assert_null(m->comment);
}

/* Asserts that two records hold the same data. */
static void assert_same_record(const gr_record *a, const gr_record *b)
{
	assert_int_equal(gr_record_size(a), gr_record_size(b));
	assert_true(gr_record_komi(a) == gr_record_komi(b));
	assert_int_equal(gr_record_handicap(a), gr_record_handicap(b));
	assert_int_equal(gr_record_first_player(a), gr_record_first_player(b));
	assert_int_equal(gr_record_warnings(a, GR_BLACK), gr_record_warnings(b, GR_BLACK));
	assert_int_equal(gr_record_warnings(a, GR_WHITE), gr_record_warnings(b, GR_WHITE));
	const char *ca = gr_record_root_comment(a), *cb = gr_record_root_comment(b);
	assert_true((ca == NULL) == (cb == NULL));
	if (ca)
		assert_string_equal(ca, cb);
	assert_int_equal(gr_record_prop_count(a), gr_record_prop_count(b));
	for (int i = 0; i < gr_record_prop_count(a); i++) {
		const char *name = gr_record_prop_name(a, i);
		assert_non_null(gr_record_prop(b, name));
		assert_string_equal(gr_record_prop(a, name), gr_record_prop(b, name));
	}
	assert_int_equal(gr_record_setup_count(a), gr_record_setup_count(b));
	for (int i = 0; i < gr_record_setup_count(a); i++) {
		gr_color c1, c2;
		int p1, p2;
		assert_int_equal(gr_record_setup(a, i, &c1, &p1), 0);
		assert_int_equal(gr_record_setup(b, i, &c2, &p2), 0);
		assert_int_equal(c1, c2);
		assert_int_equal(p1, p2);
	}
	assert_int_equal(gr_record_move_count(a), gr_record_move_count(b));
	for (int i = 0; i < gr_record_move_count(a); i++) {
		const gr_move *m1 = gr_record_move(a, i), *m2 = gr_record_move(b, i);
		assert_int_equal(m1->color, m2->color);
		assert_int_equal(m1->pt, m2->pt);
		assert_true(m1->time == m2->time);
		assert_true((m1->comment == NULL) == (m2->comment == NULL));
		if (m1->comment)
			assert_string_equal(m1->comment, m2->comment);
	}
}

/* Writes r, reads it back, checks the same record comes back and that
 * writing it again gives the same text. */
static void assert_round_trip(const gr_record *r)
{
	char *text = write_record(r);
	gr_record *back = read_text(text);
	assert_same_record(r, back);
	char *again = write_record(back);
	assert_string_equal(text, again);
	gr_free(again);
	gr_free(text);
	gr_record_free(back);
}

/* ---- the record ------------------------------------------------------- */

static void test_record_defaults(void **state)
{
	(void)state;
	gr_record *r = NULL;
	assert_int_equal(gr_record_new(&r, 1), GR_ERANGE);
	assert_null(r);
	assert_int_equal(gr_record_new(&r, 20), GR_ERANGE);
	assert_int_equal(gr_record_new(NULL, 19), GR_EINVAL);
	assert_int_equal(gr_record_new(&r, 19), 0);
	assert_int_equal(gr_record_size(r), 19);
	assert_true(gr_record_komi(r) == 7.5);
	assert_int_equal(gr_record_handicap(r), 0);
	assert_int_equal(gr_record_first_player(r), GR_EMPTY);
	assert_string_equal(gr_record_prop(r, "RU"), "Chinese");
	assert_null(gr_record_prop(r, "PB"));
	assert_null(gr_record_root_comment(r));
	assert_int_equal(gr_record_move_count(r), 0);
	assert_null(gr_record_move(r, 0));
	assert_null(gr_record_move(r, -1));
	assert_int_equal(gr_record_setup_count(r), 0);
	assert_int_equal(gr_record_setup(r, 0, NULL, NULL), GR_ERANGE);
	assert_int_equal(gr_record_warnings(r, GR_BLACK), 0);
	gr_record_free(r);
	gr_record_free(NULL);
}

static void test_record_moves(void **state)
{
	(void)state;
	gr_record *r;
	assert_int_equal(gr_record_new(&r, 9), 0);
	gr_board b;
	gr_board_init(&b, 9);
	int e5 = tu_pt(&b, "E5");
	assert_int_equal(gr_record_add_move(r, GR_BLACK, e5, 1.5, "first"), 0);
	assert_int_equal(gr_record_add_move(r, GR_WHITE, GR_PASS, -1, NULL), 0);
	assert_int_equal(gr_record_add_move(r, GR_WHITE, GR_RESIGN, -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_add_move(r, GR_EMPTY, e5, -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, 0, -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, gr_pt(&b, 9, 0), -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, gr_pt(&b, 0, 9), -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, 11 * 11, -1, NULL), GR_EINVAL);
	assert_int_equal(gr_record_move_count(r), 2);
	assert_move(r, 0, GR_BLACK, "E5", 1.5, "first");
	assert_move(r, 1, GR_WHITE, "pass", -1, NULL);

	assert_int_equal(gr_record_append_comment(r, 0, "second line"), 0);
	assert_move(r, 0, GR_BLACK, "E5", 1.5, "first\nsecond line");
	assert_int_equal(gr_record_append_comment(r, 1, "on the pass"), 0);
	assert_move(r, 1, GR_WHITE, "pass", -1, "on the pass");
	assert_int_equal(gr_record_append_comment(r, -1, "root"), 0);
	assert_int_equal(gr_record_append_comment(r, -1, "more"), 0);
	assert_string_equal(gr_record_root_comment(r), "root\nmore");
	assert_int_equal(gr_record_append_comment(r, 2, "x"), GR_ERANGE);
	assert_int_equal(gr_record_append_comment(r, -2, "x"), GR_ERANGE);

	/* many moves: the array grows */
	for (int i = 0; i < 1000; i++)
		assert_int_equal(gr_record_add_move(r, i % 2 ? GR_WHITE : GR_BLACK, GR_PASS, i, NULL),
		                 0);
	assert_int_equal(gr_record_move_count(r), 1002);
	assert_true(gr_record_move(r, 1001)->time == 999);
	gr_record_free(r);
}

static void test_record_setup_and_props(void **state)
{
	(void)state;
	gr_record *r;
	assert_int_equal(gr_record_new(&r, 13), 0);
	gr_board b;
	gr_board_init(&b, 13);
	assert_int_equal(gr_record_add_setup(r, GR_BLACK, tu_pt(&b, "D4")), 0);
	assert_int_equal(gr_record_add_setup(r, GR_WHITE, tu_pt(&b, "K10")), 0);
	assert_int_equal(gr_record_add_setup(r, GR_WHITE, tu_pt(&b, "D4")), 0); /* replaces */
	assert_int_equal(gr_record_add_setup(r, GR_EMPTY, tu_pt(&b, "A1")), GR_EINVAL);
	assert_int_equal(gr_record_add_setup(r, GR_BLACK, GR_PASS), GR_EINVAL);
	assert_int_equal(gr_record_setup_count(r), 2);
	gr_color c;
	int pt;
	assert_int_equal(gr_record_setup(r, 0, &c, &pt), 0);
	assert_int_equal(c, GR_WHITE);
	assert_int_equal(pt, tu_pt(&b, "D4"));

	gr_record_set_komi(r, -3.25);
	assert_true(gr_record_komi(r) == -3.25);
	gr_record_set_handicap(r, 3);
	assert_int_equal(gr_record_handicap(r), 3);
	gr_record_set_first_player(r, GR_WHITE);
	assert_int_equal(gr_record_first_player(r), GR_WHITE);
	gr_record_set_first_player(r, GR_OFFBOARD);
	assert_int_equal(gr_record_first_player(r), GR_EMPTY);
	gr_record_set_warnings(r, GR_WHITE, 2);
	assert_int_equal(gr_record_warnings(r, GR_WHITE), 2);
	assert_int_equal(gr_record_warnings(r, GR_BLACK), 0);

	assert_int_equal(gr_record_set_prop(r, "PB", "Ada"), 0);
	assert_int_equal(gr_record_set_prop(r, "PW", "Grace"), 0);
	assert_int_equal(gr_record_set_prop(r, "PB", "Ada L."), 0);
	assert_string_equal(gr_record_prop(r, "PB"), "Ada L.");
	assert_int_equal(gr_record_prop_count(r), 3);
	assert_string_equal(gr_record_prop_name(r, 0), "RU");
	assert_string_equal(gr_record_prop_name(r, 1), "PB");
	assert_string_equal(gr_record_prop_name(r, 2), "PW");
	assert_null(gr_record_prop_name(r, 3));
	assert_int_equal(gr_record_set_prop(r, "RU", NULL), 0);
	assert_null(gr_record_prop(r, "RU"));
	assert_string_equal(gr_record_prop_name(r, 0), "PB");
	assert_int_equal(gr_record_set_prop(r, "XX", NULL), 0); /* absent: nothing to do */
	/* names that are no SGF names or have their own field */
	assert_int_equal(gr_record_set_prop(r, "pb", "x"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, "", "x"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, NULL, "x"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, "SZ", "9"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, "KM", "9"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, "C", "x"), GR_EINVAL);
	assert_int_equal(gr_record_set_prop(r, "P B", "x"), GR_EINVAL);
	assert_int_equal(gr_record_prop_count(r), 2);
	gr_record_free(r);
}

/* ---- reading ---------------------------------------------------------- */

static void test_read_simple(void **state)
{
	(void)state;
	gr_record *r = read_fixture("simple.sgf");
	assert_int_equal(gr_record_size(r), 19);
	assert_true(gr_record_komi(r) == 7.5);
	assert_int_equal(gr_record_handicap(r), 0);
	assert_string_equal(gr_record_prop(r, "PB"), "Ada");
	assert_string_equal(gr_record_prop(r, "BR"), "3d");
	assert_string_equal(gr_record_prop(r, "PW"), "Grace");
	assert_string_equal(gr_record_prop(r, "WR"), "2d");
	assert_string_equal(gr_record_prop(r, "DT"), "2024-05-01");
	assert_string_equal(gr_record_prop(r, "EV"), "Club night");
	assert_string_equal(gr_record_prop(r, "RE"), "W+0.5");
	assert_string_equal(gr_record_prop(r, "GN"), "Game 1");
	assert_string_equal(gr_record_prop(r, "RU"), "Chinese");
	assert_null(gr_record_prop(r, "AP")); /* the writer says who wrote it */
	assert_null(gr_record_prop(r, "BL"));
	assert_int_equal(gr_record_warnings(r, GR_BLACK), 1);
	assert_int_equal(gr_record_warnings(r, GR_WHITE), 0);
	assert_string_equal(gr_record_root_comment(r), "Game one of three.");
	assert_int_equal(gr_record_move_count(r), 6);
	assert_move(r, 0, GR_BLACK, "R16", 3.5, "Black starts on the star point.");
	assert_move(r, 1, GR_WHITE, "D16", 10, NULL);
	assert_move(r, 2, GR_BLACK, "Q3", 12.25, NULL);
	assert_move(r, 3, GR_WHITE, "D4", -1, NULL);
	assert_move(r, 4, GR_BLACK, "pass", -1, "A pass.");
	assert_move(r, 5, GR_WHITE, "pass", 20, NULL);
	gr_record_free(r);
}

static void test_read_handicap(void **state)
{
	(void)state;
	gr_record *r = read_fixture("handicap.sgf");
	assert_int_equal(gr_record_size(r), 13);
	assert_int_equal(gr_record_handicap(r), 4);
	assert_true(gr_record_komi(r) == 0.5);
	assert_int_equal(gr_record_first_player(r), GR_WHITE);
	/* dd jd dj jj, then the rectangle aa:bb, then mm */
	const char *want[] = {"D10", "K10", "D4", "K4", "A13", "B13", "A12", "B12", "N1"};
	assert_int_equal(gr_record_setup_count(r), 9);
	for (int i = 0; i < 9; i++) {
		gr_color c;
		int pt;
		assert_int_equal(gr_record_setup(r, i, &c, &pt), 0);
		assert_int_equal(c, i < 8 ? GR_BLACK : GR_WHITE);
		assert_int_equal(pt, pt_of(r, want[i]));
	}
	assert_int_equal(gr_record_move_count(r), 3);
	assert_move(r, 0, GR_WHITE, "G7", 1, NULL);
	assert_move(r, 1, GR_BLACK, "G8", -1, NULL);
	assert_move(r, 2, GR_WHITE, "F7", -1, NULL);
	gr_record_free(r);
}

static void test_read_variations(void **state)
{
	(void)state;
	gr_record *r = read_fixture("variations.sgf");
	assert_int_equal(gr_record_size(r), 9); /* the first game, not the 13x13 one */
	assert_string_equal(gr_record_root_comment(r), "Main line: ee cc gg gc");
	assert_int_equal(gr_record_move_count(r), 4);
	assert_move(r, 0, GR_BLACK, "E5", -1, NULL);
	assert_move(r, 1, GR_WHITE, "C7", -1, NULL);
	assert_move(r, 2, GR_BLACK, "G3", -1, NULL);
	assert_move(r, 3, GR_WHITE, "G7", -1, "main");
	gr_record_free(r);

	/* a node after the variations belongs to no line; (;a)(;b) is two games */
	r = read_text("(;SZ[5];B[aa](;W[bb])(;W[cc]);B[dd])");
	assert_int_equal(gr_record_move_count(r), 2);
	gr_record_free(r);
	r = read_text("(;SZ[5];B[aa])(;SZ[7];B[bb];W[cc])");
	assert_int_equal(gr_record_size(r), 5);
	assert_int_equal(gr_record_move_count(r), 1);
	gr_record_free(r);
}

static void test_read_ff3(void **state)
{
	(void)state;
	gr_record *r = read_fixture("ff3.sgf");
	assert_int_equal(gr_record_size(r), 9);
	assert_true(gr_record_komi(r) == 5.5);
	assert_string_equal(gr_record_prop(r, "PB"), "Old style");
	assert_string_equal(gr_record_root_comment(r), "FF3 names\nsecond line");
	assert_int_equal(gr_record_setup_count(r), 3);
	assert_int_equal(gr_record_move_count(r), 3);
	assert_move(r, 0, GR_WHITE, "G3", -1, NULL);
	assert_move(r, 1, GR_BLACK, "pass", -1, NULL);
	assert_move(r, 2, GR_WHITE, "E5", -1, "after a pass");
	gr_record_free(r);
}

static void test_read_escapes(void **state)
{
	(void)state;
	gr_record *r = read_fixture("escapes.sgf");
	assert_int_equal(gr_record_size(r), 5);
	assert_string_equal(gr_record_root_comment(r),
	                    "A bracket ] and a backslash \\ and a softbreak; a colon: fine.");
	assert_string_equal(gr_record_prop(r, "PB"), "Bob [the] builder");
	assert_move(r, 0, GR_BLACK, "C3", -1, "line one\nline two");
	assert_move(r, 1, GR_WHITE, "D3", -1, "spaces around");
	gr_record_free(r);

	/* line breaks: CR LF, LF CR and CR become LF; escaped ones vanish */
	r = read_text("(;C[a\r\nb\n\rc\rd\\\r\ne\\\nf\\\rg\\x])");
	assert_string_equal(gr_record_root_comment(r), "a\nb\nc\ndefgx");
	gr_record_free(r);
}

static void test_read_details(void **state)
{
	(void)state;
	/* defaults: 19x19, komi 7.5, Chinese rules */
	gr_record *r = read_text("(;)");
	assert_int_equal(gr_record_size(r), 19);
	assert_true(gr_record_komi(r) == 7.5);
	assert_string_equal(gr_record_prop(r, "RU"), "Chinese");
	gr_record_free(r);
	/* numbers with blanks, signs, many decimals; HA, PL in lowercase */
	r = read_text("( ; SZ [ 9 ] KM[ -0.75 ] HA[+2] PL[w] \n ;B[ee]GRTIME[ 0001.123456789 ])");
	assert_int_equal(gr_record_size(r), 9);
	assert_true(gr_record_komi(r) == -0.75);
	assert_int_equal(gr_record_handicap(r), 2);
	assert_int_equal(gr_record_first_player(r), GR_WHITE);
	assert_true(gr_record_move(r, 0)->time == 1.123456789);
	gr_record_free(r);
	/* setup in a node after the root; comments on moveless nodes; AE ignored */
	r = read_text("(;SZ[5]C[root];AB[aa]AW[bb]AE[cc]C[setup];B[cc];C[after B];;W[dd]C[w])");
	assert_int_equal(gr_record_setup_count(r), 2);
	assert_string_equal(gr_record_root_comment(r), "root\nsetup");
	assert_int_equal(gr_record_move_count(r), 2);
	assert_move(r, 0, GR_BLACK, "C3", -1, "after B");
	assert_move(r, 1, GR_WHITE, "D2", -1, "w");
	gr_record_free(r);
	/* a move on the root; duplicate setup points count once; SZ again */
	r = read_text("(;SZ[9]AB[aa][aa:bb]B[cc]SZ[9])");
	assert_int_equal(gr_record_setup_count(r), 4);
	assert_int_equal(gr_record_move_count(r), 1);
	gr_record_free(r);
	/* compressed lists in any corner order, capital coordinates rejected as
	 * off a 19x19 board */
	r = read_text("(;SZ[3]AW[ca:ac])");
	assert_int_equal(gr_record_setup_count(r), 9);
	gr_record_free(r);
	/* unknown and private properties are skipped, even long ones */
	r = read_text("(;SZ[4]ST[2]MULTIGOGM[1]XYZ[a][b];B[aa]TR[bb][cc]LB[dd:x]BL[12.5])");
	assert_int_equal(gr_record_move_count(r), 1);
	assert_int_equal(gr_record_prop_count(r), 1);
	gr_record_free(r);
	/* GRTIME without a move is ignored; PL after the first move too; KM and
	 * game information on a later node count; several C are joined */
	r = read_text("(;SZ[5];GRTIME[2];B[aa];PL[B]KM[0.5]PB[late][ignored]W[bb]C[a][b]C[c])");
	assert_move(r, 0, GR_BLACK, "A5", -1, NULL);
	assert_move(r, 1, GR_WHITE, "B4", -1, "a\nb\nc");
	assert_int_equal(gr_record_first_player(r), GR_EMPTY);
	assert_true(gr_record_komi(r) == 0.5);
	assert_string_equal(gr_record_prop(r, "PB"), "late");
	gr_record_free(r);
	/* a NUL byte inside a value is a byte like another */
	static const char nul[] = "(;SZ[5]PB[a\0b];B[aa])";
	gr_error err;
	assert_int_equal(gr_sgf_read(&r, nul, sizeof nul - 1, &err), 0);
	assert_string_equal(gr_record_prop(r, "PB"), "a");
	gr_record_free(r);
	/* bad arguments */
	assert_int_equal(gr_sgf_read(NULL, "(;)", 3, &err), GR_EINVAL);
	assert_int_equal(gr_sgf_read(&r, NULL, 3, &err), GR_EINVAL);
	assert_null(r);
	assert_int_equal(gr_sgf_read(&r, NULL, 0, NULL), GR_EPARSE);
}

/* Every malformed input: its code, line, column and a part of the message. */
static const struct bad_case {
	const char *text;
	int code, line, column;
	const char *message;
} bad_cases[] = {
	{"", GR_EPARSE, 1, 1, "no SGF game tree"},
	{"hello", GR_EPARSE, 1, 1, "no SGF game tree"},
	{"(;FF[4]", GR_EPARSE, 1, 8, "1 game tree not closed"},
	{"(;FF[4](;B[aa]", GR_EPARSE, 1, 15, "2 game trees not closed"},
	{"(;FF[4]C[abc", GR_EPARSE, 1, 9, "unterminated property value"},
	{"(;FF[4]\nC[abc\\])", GR_EPARSE, 2, 2, "unterminated property value"},
	{"(;FF[4]C", GR_EPARSE, 1, 8, "property C has no value"},
	{"(;FF[4]\n  ;B[aa]\n  X)", GR_EPARSE, 3, 4, "property X has no value"},
	{"(;FF[4]#)", GR_EPARSE, 1, 8, "unexpected '#'"},
	{"(;FF[4]\x01)", GR_EPARSE, 1, 8, "unexpected byte 0x01"},
	{"(;FF[4]])", GR_EPARSE, 1, 8, "unexpected ']'"},
	{"(FF[4])", GR_EPARSE, 1, 2, "expected ';' after '('"},
	{"(", GR_EPARSE, 1, 1, "expected ';' after '('"},
	{"(;FF[4]()", GR_EPARSE, 1, 9, "expected ';' after '('"},
	{"(;FF[4]ff[4])", GR_EPARSE, 1, 8, "has no capital letter"},
	{"(;ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG[1])", GR_EPARSE, 1, 3, "name too long"},
	{"(;GM[2])", GR_EPARSE, 1, 6, "GM[2]: not a game of Go"},
	{"(;FF[5])", GR_ERANGE, 1, 6, "FF[5]: must be 1..4"},
	{"(;SZ[25])", GR_ERANGE, 1, 6, "SZ[25]: board size must be 2..19"},
	{"(;SZ[1])", GR_ERANGE, 1, 6, "SZ[1]: board size must be 2..19"},
	{"(;SZ[19:13])", GR_ERANGE, 1, 6, "SZ[19:13]: only square boards"},
	{"(;SZ[99999999999999999999])", GR_ERANGE, 1, 6, "board size must be 2..19"},
	{"(;SZ[nine])", GR_EPARSE, 1, 6, "SZ[nine]: not a board size"},
	{"(;SZ[9]SZ[13])", GR_EPARSE, 1, 8, "SZ twice"},
	{"(;SZ[9];SZ[13])", GR_EPARSE, 1, 9, "after the root"},
	{"(;KM[abc])", GR_EPARSE, 1, 6, "KM[abc]: not a decimal number"},
	{"(;KM[6,5])", GR_EPARSE, 1, 6, "KM[6,5]: not a decimal number"},
	{"(;KM[1e3])", GR_EPARSE, 1, 6, "not a decimal number"},
	{"(;KM[.])", GR_EPARSE, 1, 6, "not a decimal number"},
	{"(;KM[12345678901.5])", GR_ERANGE, 1, 6, "number too large"},
	{"(;KM[1][2])", GR_EPARSE, 1, 3, "KM takes one value, not 2"},
	{"(;HA[-1])", GR_EPARSE, 1, 6, "HA[-1]: not a whole number"},
	{"(;SZ[9]HA[82])", GR_ERANGE, 1, 11, "HA[82]: must be 0..81"},
	{"(;PL[X])", GR_EPARSE, 1, 6, "PL[X]: expected B or W"},
	{"(;SZ[9];B[jj])", GR_ERANGE, 1, 11, "move 'jj' is off a 9x9 board"},
	{"(;;B[zz])", GR_ERANGE, 1, 6, "move 'zz' is off a 19x19 board"},
	{"(;B[Aa])", GR_ERANGE, 1, 5, "move 'Aa' is off a 19x19 board"},
	{"(;FF[4]\n;B[a])", GR_EPARSE, 2, 4, "move 'a' is not an SGF point"},
	{"(;B[a1])", GR_EPARSE, 1, 5, "move 'a1' is not an SGF point"},
	{"(;B[aa][bb])", GR_EPARSE, 1, 3, "B takes one value"},
	{"(;B[aa]W[bb])", GR_EPARSE, 1, 8, "both B and W"},
	{"(;W[aa]C[x]B[bb])", GR_EPARSE, 1, 12, "both B and W"},
	{"(;B[aa]B[bb])", GR_EPARSE, 1, 8, "two B moves"},
	{"(;AB[zz])", GR_ERANGE, 1, 6, "AB 'zz' is off a 19x19 board"},
	{"(;SZ[5]AB[aa:ff])", GR_ERANGE, 1, 11, "AB 'ff' is off a 5x5 board"},
	{"(;AB[aa:])", GR_EPARSE, 1, 6, "AB '' is not an SGF point"},
	{"(;AB[tt])", GR_ERANGE, 1, 6, "off a 19x19 board"},
	{"(;AB[aa]AW[bb][aa])", GR_EPARSE, 1, 16, "already has a black setup stone"},
	{"(;AB[aa];AE[aa])", GR_EPARSE, 1, 13, "removing a setup stone"},
	{"(;B[aa];AB[bb])", GR_EPARSE, 1, 9, "AB after the first move"},
	{"(;B[aa];AE[bb])", GR_EPARSE, 1, 9, "AE after the first move"},
	{"(;B[aa]GRTIME[-3])", GR_ERANGE, 1, 15, "must not be negative"},
	{"(;B[aa]GRTIME[soon])", GR_EPARSE, 1, 15, "GRTIME[soon]: not a decimal number"},
	{"(;GRWARNB[many])", GR_EPARSE, 1, 11, "GRWARNB[many]: not a whole number"},
	{"(;B[some very long value that goes on and on])", GR_EPARSE, 1, 5,
	 "move 'some very long value tha...' is not"},
	{"\xef\xbb\xbf(;SZ[9]\r\n;B[\xc3\xa9\xc3\xa9])", GR_EPARSE, 2, 4, "move '?\?\?\?' is not"},
	{"(;SZ[4]\r\n\r\n;B[ee])", GR_ERANGE, 3, 4, "off a 4x4 board"},
	{"(;SZ[4]\r\r;B[ee])", GR_ERANGE, 3, 4, "off a 4x4 board"},
};

static void test_read_errors(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof bad_cases / sizeof *bad_cases; k++) {
		const struct bad_case *c = &bad_cases[k];
		gr_record *r = (gr_record *)&r; /* must come back NULL */
		gr_error err = {0};
		int rc = gr_sgf_read(&r, c->text, strlen(c->text), &err);
		if (rc != c->code || err.line != c->line || err.column != c->column ||
		    !strstr(err.message, c->message))
			fail_msg("case %zu: got %d at %d:%d '%s', want %d at %d:%d '%s'", k, rc, err.line,
			         err.column, err.message, c->code, c->line, c->column, c->message);
		assert_null(r);
		/* and without a gr_error */
		assert_int_equal(gr_sgf_read(&r, c->text, strlen(c->text), NULL), c->code);
	}
}

static void test_read_deep(void **state)
{
	(void)state;
	/* 200000 nested trees: no recursion, so no stack to run out of */
	size_t n = 200000;
	char *text = malloc(6 * n); /* n times "(;B[]" then n times ')' */
	assert_non_null(text);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(text + k, "(;B", 3);
		k += 3;
		text[k - 1] = i % 2 ? 'W' : 'B';
		memcpy(text + k, "[]", 2);
		k += 2;
	}
	gr_record *r;
	gr_error err;
	assert_int_equal(gr_sgf_read(&r, text, k, &err), GR_EPARSE);
	assert_non_null(strstr(err.message, "200000 game trees not closed"));
	memset(text + k, ')', n);
	assert_int_equal(gr_sgf_read(&r, text, k + n, &err), 0);
	assert_int_equal(gr_record_move_count(r), (int)n);
	gr_record_free(r);
	free(text);

	/* 100000 comment nodes after one move: one comment, read in linear time */
	n = 100000;
	text = malloc(8 * n + 16);
	assert_non_null(text);
	k = (size_t)sprintf(text, "(;B[aa]");
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(text + k, ";C[%zu]", i % 10);
	text[k++] = ')';
	assert_int_equal(gr_sgf_read(&r, text, k, &err), 0);
	assert_int_equal(gr_record_move_count(r), 1);
	assert_int_equal(strlen(gr_record_move(r, 0)->comment), 2 * n - 1);
	gr_record_free(r);
	free(text);
}

/* ---- writing ---------------------------------------------------------- */

static void test_write_format(void **state)
{
	(void)state;
	gr_record *r;
	assert_int_equal(gr_record_new(&r, 9), 0);
	gr_board b;
	gr_board_init(&b, 9);
	gr_record_set_komi(r, 5.5);
	gr_record_set_handicap(r, 2);
	assert_int_equal(gr_record_set_prop(r, "PB", "Ada [the first]"), 0);
	assert_int_equal(gr_record_set_prop(r, "PW", "C:\\Grace"), 0);
	gr_record_set_warnings(r, GR_WHITE, 1);
	assert_int_equal(gr_record_add_setup(r, GR_BLACK, tu_pt(&b, "C3")), 0);
	assert_int_equal(gr_record_add_setup(r, GR_BLACK, tu_pt(&b, "G7")), 0);
	assert_int_equal(gr_record_add_setup(r, GR_WHITE, tu_pt(&b, "A9")), 0);
	gr_record_set_first_player(r, GR_WHITE);
	assert_int_equal(gr_record_append_comment(r, -1, "Hello]\\"), 0);
	assert_int_equal(gr_record_add_move(r, GR_WHITE, tu_pt(&b, "E5"), 2.5, NULL), 0);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, GR_PASS, 0, "pass\nhere"), 0);
	assert_int_equal(gr_record_add_move(r, GR_WHITE, tu_pt(&b, "J1"), 3600.000125, NULL), 0);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, tu_pt(&b, "A1"), -1, NULL), 0);
	char *text = write_record(r);
	assert_string_equal(text,
	                    "(;FF[4]GM[1]CA[UTF-8]AP[goref:0.1]RU[Chinese]SZ[9]KM[5.5]HA[2]\n"
	                    "PB[Ada [the first\\]]PW[C:\\\\Grace]GRWARNW[1]\n"
	                    "AB[cg][gc]AW[aa]PL[W]C[Hello\\]\\\\]\n"
	                    ";W[ee]GRTIME[2.5]\n"
	                    ";B[]GRTIME[0]C[pass\nhere]\n"
	                    ";W[ii]GRTIME[3600.000125]\n"
	                    ";B[ai]\n"
	                    ")\n");
	gr_free(text);
	assert_round_trip(r);

	/* komi and times are written whatever the locale, at most 6 decimals */
	gr_record_set_komi(r, -0.1);
	gr_record_set_first_player(r, GR_EMPTY);
	text = write_record(r);
	assert_non_null(strstr(text, "KM[-0.1]"));
	assert_null(strstr(text, "PL["));
	gr_free(text);
	gr_record_set_komi(r, 1.0 / 3);
	text = write_record(r);
	assert_non_null(strstr(text, "KM[0.333333]"));
	gr_free(text);
	const char *comma[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR", "ru_RU.UTF-8"};
	bool tried = false;
	for (size_t i = 0; i < sizeof comma / sizeof *comma && !tried; i++)
		if (setlocale(LC_ALL, comma[i])) {
			tried = true;
			gr_record_set_komi(r, 6.5);
			text = write_record(r);
			assert_non_null(strstr(text, "KM[6.5]"));
			gr_record *back = read_text(text);
			assert_true(gr_record_komi(back) == 6.5);
			gr_record_free(back);
			gr_free(text);
			setlocale(LC_ALL, "C");
		}
	if (!tried)
		print_message("no locale with a decimal comma here: not checked under one\n");
	gr_record_free(r);

	assert_int_equal(gr_sgf_write(NULL, &text, NULL), GR_EINVAL);
	assert_null(text);
}

/* A random legal game on b (setup already on it) appended to r. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/* Times are whole milliseconds (*ms counts them) so that they read back the
 * same. */
static void random_game(gr_record *r, gr_board *b, gr_color c, int moves, long *ms)
{
	for (int i = 0; i < moves; i++, c = gr_other(c)) {
		int pts[GR_MAX_POINTS], n = 0;
		for (int y = 0; y < b->size; y++)
			for (int x = 0; x < b->size; x++) {
				int p = gr_pt(b, x, y);
				if (b->color[p] == GR_EMPTY && !gr_board_is_eyelike(b, p, c))
					pts[n++] = p;
			}
		int played = GR_PASS;
		while (n > 0 && rnd() % 40) {
			int k = (int)(rnd() % (unsigned)n);
			if (gr_board_play(b, c, pts[k]) == GR_LEGAL) {
				played = pts[k];
				break;
			}
			pts[k] = pts[--n];
		}
		if (played == GR_PASS)
			gr_board_pass(b);
		*ms += (long)(rnd() % 10000);
		char comment[64];
		snprintf(comment, sizeof comment, "move %d]\\ done", i + 1);
		assert_int_equal(gr_record_add_move(r, c, played, *ms / 1000.0, rnd() % 7 ? NULL : comment), 0);
	}
}

static void test_round_trip(void **state)
{
	(void)state;
	const char *fixtures[] = {"simple.sgf", "handicap.sgf", "variations.sgf", "ff3.sgf",
	                          "escapes.sgf"};
	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
		gr_record *r = read_fixture(fixtures[i]);
		assert_round_trip(r);
		gr_record_free(r);
	}
	for (int size = 2; size <= 19; size++) {
		gr_record *r;
		assert_int_equal(gr_record_new(&r, size), 0);
		gr_board b;
		gr_board_init(&b, size);
		gr_record_set_komi(r, size * 0.25 - 3);
		assert_int_equal(gr_record_set_prop(r, "GC", "a game comment\nwith ] and \\"), 0);
		assert_int_equal(gr_record_set_prop(r, "DT", "2024-06-01"), 0);
		assert_int_equal(gr_record_set_prop(r, "RU", "Chinese"), 0);
		assert_int_equal(gr_record_set_prop(r, "PB", "\xe6\x9f\xaf\xe6\xb4\x81"), 0);
		if (size > 4) {
			gr_record_set_handicap(r, 2);
			assert_int_equal(gr_record_add_setup(r, GR_BLACK, gr_pt(&b, 1, 1)), 0);
			assert_int_equal(gr_record_add_setup(r, GR_BLACK, gr_pt(&b, size - 2, size - 2)),
			                 0);
			gr_board_set(&b, gr_pt(&b, 1, 1), GR_BLACK);
			gr_board_set(&b, gr_pt(&b, size - 2, size - 2), GR_BLACK);
			gr_record_set_first_player(r, GR_WHITE);
		}
		long ms = 0;
		random_game(r, &b, size > 4 ? GR_WHITE : GR_BLACK, size * size, &ms);
		gr_record_set_warnings(r, GR_BLACK, size % 3);
		assert_round_trip(r);
		gr_record_free(r);
	}
}

/* ---- robustness ------------------------------------------------------- */

/* Checks that gr_sgf_read on text[0..len) (a buffer of exactly len bytes)
 * either reads a record that writes and reads back the same, or fails with
 * a position inside the text and a message. */
static void check_any(const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, text, len);
	gr_record *r = NULL;
	gr_error err = {0};
	int rc = gr_sgf_read(&r, copy, len, &err);
	if (rc == 0) {
		assert_non_null(r);
		char *out = write_record(r);
		gr_record *back = read_text(out);
		assert_same_record(r, back);
		gr_free(out);
		gr_record_free(back);
		gr_record_free(r);
	} else {
		assert_null(r);
		if (rc != GR_EPARSE && rc != GR_ERANGE)
			fail_msg("unexpected code %d", rc);
		assert_true(err.message[0] != 0);
		/* the position is in the text (or just past its end) */
		int line = 1, col = 1;
		bool found = false;
		for (size_t i = 0; i <= len && !found; i++) {
			if (line == err.line && col == err.column)
				found = true;
			else if (i < len && (copy[i] == '\n' ||
			                     (copy[i] == '\r' && (i + 1 >= len || copy[i + 1] != '\n'))))
				line++, col = 1;
			else
				col++;
		}
		if (!found)
			fail_msg("error position %d:%d is not in the text (%zu bytes): %s", err.line,
			         err.column, len, err.message);
	}
	free(copy);
}

static void test_truncations_and_mutations(void **state)
{
	(void)state;
	const char *fixtures[] = {"simple.sgf", "handicap.sgf", "variations.sgf", "ff3.sgf",
	                          "escapes.sgf"};
	static const char interesting[] = "()[];\\:ABWCaetzGRTIMESZ019 \n\r.-";
	int ok = 0, failed = 0;
	for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
		char path[64];
		snprintf(path, sizeof path, "sgf/%s", fixtures[f]);
		size_t len;
		char *text = tu_read_file(tu_fixture(path), &len);
		assert_non_null(text);
		for (size_t n = 0; n <= len; n++)
			check_any(text, n);
		char *m = malloc(len + 64);
		assert_non_null(m);
		for (int iter = 0; iter < 4000; iter++) {
			memcpy(m, text, len);
			size_t mlen = len;
			int edits = 1 + (int)(rnd() % 4);
			for (int e = 0; e < edits && mlen > 0; e++) {
				size_t at = rnd() % mlen;
				char ch = rnd() % 2 ? (char)(rnd() % 256)
				                    : interesting[rnd() % (sizeof interesting - 1)];
				switch (rnd() % 4) {
				case 0: m[at] = ch; break;
				case 1:
					memmove(m + at, m + at + 1, mlen - at - 1);
					mlen--;
					break;
				case 2:
					if (mlen < len + 60) {
						memmove(m + at + 1, m + at, mlen - at);
						m[at] = ch;
						mlen++;
					}
					break;
				default: mlen = at; break; /* truncate */
				}
			}
			gr_record *r;
			int rc = gr_sgf_read(&r, m, mlen, NULL);
			if (rc == 0) {
				gr_record_free(r);
				ok++;
			} else {
				failed++;
			}
			check_any(m, mlen);
		}
		free(m);
		free(text);
	}
	print_message("mutations: %d read, %d refused\n", ok, failed);
	assert_true(ok > 100 && failed > 100);
}

/* An allocator that fails after a given number of allocations and counts
 * what is live. */
static long alloc_left, alloc_live;
static void *fail_malloc(size_t n)
{
	if (alloc_left-- <= 0)
		return NULL;
	void *p = malloc(n);
	if (p)
		alloc_live++;
	return p;
}
static void *fail_realloc(void *p, size_t n)
{
	if (alloc_left-- <= 0)
		return NULL;
	void *q = realloc(p, n);
	if (q && !p)
		alloc_live++;
	return q;
}
static void fail_free(void *p)
{
	if (p)
		alloc_live--;
	free(p);
}

/* Reads text with every allocation budget until it succeeds: each failure
 * must be GR_ENOMEM with nothing left allocated. Returns the budget needed. */
static int read_with_failures(const char *text, size_t len)
{
	for (long budget = 0;; budget++) {
		alloc_left = budget;
		alloc_live = 0;
		gr_record *r = NULL;
		gr_error err = {0};
		int rc = gr_sgf_read(&r, text, len, &err);
		if (rc == 0) {
			alloc_left = 1L << 30;
			gr_record_free(r);
			assert_int_equal(alloc_live, 0);
			return (int)budget;
		}
		assert_int_equal(rc, GR_ENOMEM);
		assert_null(r);
		assert_int_equal(alloc_live, 0);
		assert_string_equal(err.message, "out of memory");
	}
}

static void test_out_of_memory(void **state)
{
	(void)state;
	const char *fixtures[] = {"handicap.sgf", "variations.sgf", "ff3.sgf", "escapes.sgf",
	                          "simple.sgf"};
	const gr_allocator a = {fail_malloc, fail_realloc, fail_free};
	int reads = 0, writes = 0;
	size_t len = 0;
	char *text = NULL;
	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
		char path[64];
		snprintf(path, sizeof path, "sgf/%s", fixtures[i]);
		free(text);
		text = tu_read_file(tu_fixture(path), &len);
		assert_non_null(text);
		gr_set_allocator(&a);
		reads += read_with_failures(text, len);
		gr_set_allocator(NULL);
	}
	gr_set_allocator(&a);
	alloc_left = 1L << 30;
	alloc_live = 0;
	gr_record *r = NULL;
	assert_int_equal(gr_sgf_read(&r, text, len, NULL), 0);
	for (int i = 0; i < 400; i++) /* enough text for the writer to grow its buffer */
		assert_int_equal(gr_record_add_move(r, GR_BLACK, GR_PASS, i, "a comment"), 0);
	for (long budget = 0;; budget++) {
		alloc_left = budget;
		char *out = NULL;
		long before = alloc_live;
		int rc = gr_sgf_write(r, &out, NULL);
		if (rc == 0) {
			writes = (int)budget;
			alloc_left = 1L << 30;
			gr_free(out);
			break;
		}
		assert_int_equal(rc, GR_ENOMEM);
		assert_null(out);
		assert_int_equal(alloc_live, before);
	}
	alloc_left = 1L << 30;
	gr_record_free(r);
	assert_int_equal(alloc_live, 0);
	gr_set_allocator(NULL);
	free(text);
	print_message("allocations: read %d, write %d\n", reads, writes);
	assert_true(reads > 5 && writes > 3);
}

/* ---- other programs read what we write -------------------------------- */

#define GNUGO "/usr/games/gnugo"

/* Loads the written record in GNU Go and compares its stones with b. */
static void check_gnugo(const gr_record *r, const gr_board *b)
{
	char sgf[] = "/tmp/goref-test-sgf-XXXXXX";
	int fd = mkstemp(sgf);
	assert_true(fd >= 0);
	char *text = write_record(r);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	gr_free(text);
	char cmds[] = "/tmp/goref-test-gtp-XXXXXX";
	fd = mkstemp(cmds);
	assert_true(fd >= 0);
	char buf[512];
	int k = snprintf(buf, sizeof buf,
	                 "loadsgf %s\nlist_stones black\nlist_stones white\nquit\n", sgf);
	assert_int_equal(write(fd, buf, (size_t)k), k);
	close(fd);
	char cmd[256];
	snprintf(cmd, sizeof cmd, GNUGO " --mode gtp < %s 2>&1", cmds);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	gr_board g;
	assert_int_equal(gr_board_init(&g, b->size), 0);
	static char line[65536];
	int answer = 0;
	while (fgets(line, sizeof line, p)) {
		if (line[0] == '?')
			fail_msg("gnugo refused: %s", line);
		if (line[0] != '=')
			continue;
		answer++;
		if (answer == 1 || answer > 3)
			continue;
		gr_color c = answer == 2 ? GR_BLACK : GR_WHITE;
		for (char *tok = strtok(line + 1, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n"))
			gr_board_set(&g, tu_pt(&g, tok), c);
	}
	assert_int_equal(pclose(p), 0);
	assert_true(answer >= 3);
	for (int y = 0; y < b->size; y++)
		for (int x = 0; x < b->size; x++) {
			int pt = gr_pt(b, x, y);
			if (b->color[pt] != g.color[pt]) {
				char name[8];
				fail_msg("%s: goref has %d, gnugo %d (file %s kept)", gr_point_name(b, pt, name),
				         b->color[pt], g.color[pt], sgf);
			}
		}
	unlink(sgf);
	unlink(cmds);
}

/* The position after the record's setup and moves. */
static void replay(const gr_record *r, gr_board *b)
{
	gr_board_init(b, gr_record_size(r));
	for (int i = 0; i < gr_record_setup_count(r); i++) {
		gr_color c;
		int pt;
		gr_record_setup(r, i, &c, &pt);
		gr_board_set(b, pt, c);
	}
	for (int i = 0; i < gr_record_move_count(r); i++) {
		const gr_move *m = gr_record_move(r, i);
		if (m->pt == GR_PASS)
			gr_board_pass(b);
		else
			assert_int_equal(gr_board_play(b, m->color, m->pt), GR_LEGAL);
	}
}

static void test_gnugo_reads_output(void **state)
{
	(void)state;
	if (access(GNUGO, X_OK) != 0) {
		print_message("skipped: " GNUGO " is not installed, the written files were not "
		              "checked with GNU Go\n");
		skip();
	}
	const char *fixtures[] = {"simple.sgf", "handicap.sgf", "variations.sgf", "ff3.sgf",
	                          "escapes.sgf"};
	gr_board b;
	for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
		gr_record *r = read_fixture(fixtures[i]);
		replay(r, &b);
		check_gnugo(r, &b);
		gr_record_free(r);
	}
	const int sizes[] = {19, 13, 9, 7};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		gr_record *r;
		int size = sizes[i];
		assert_int_equal(gr_record_new(&r, size), 0);
		gr_board_init(&b, size);
		if (size >= 9) {
			int d = size >= 13 ? 3 : 2;
			int hs[2] = {gr_pt(&b, d, size - 1 - d), gr_pt(&b, size - 1 - d, d)};
			for (int k = 0; k < 2; k++) {
				assert_int_equal(gr_record_add_setup(r, GR_BLACK, hs[k]), 0);
				gr_board_set(&b, hs[k], GR_BLACK);
			}
			gr_record_set_handicap(r, 2);
			gr_record_set_first_player(r, GR_WHITE);
		}
		long ms = 0;
		random_game(r, &b, size >= 9 ? GR_WHITE : GR_BLACK, size * size * 3 / 2, &ms);
		gr_board check;
		replay(r, &check);
		assert_true(gr_board_same(&b, &check));
		check_gnugo(r, &b);
		gr_record_free(r);
	}
}

/* Issue 17: a record of more moves than GR_MAX_MOVES (a 64 MB file of
 * passes made 11 million: 296 MB) is refused with the bound named, at the
 * move over it. */
static void test_too_many_moves(void **s)
{
	(void)s;
	const int n = GR_MAX_MOVES + 1;
	size_t len = 20 + (size_t)n * 4 + 2;
	char *t = malloc(len + 1), *p = t;
	assert_non_null(t);
	p += sprintf(p, "(;FF[4]SZ[9]");
	for (int k = 0; k < n; k++)
		p += sprintf(p, ";%c[]", k % 2 ? 'W' : 'B');
	p += sprintf(p, ")");
	gr_record *r = NULL;
	gr_error e = {0};
	assert_int_equal(gr_sgf_read(&r, t, (size_t)(p - t), &e), GR_ERANGE);
	assert_null(r);
	assert_non_null(strstr(e.message, "more than 1000000 moves"));
	assert_int_equal(e.column, 13 + 4 * GR_MAX_MOVES + 3); /* the value of the move over */
	/* one fewer: read, every move there */
	p[-5] = ')';
	assert_int_equal(gr_sgf_read(&r, t, (size_t)(p - t) - 4, &e), 0);
	assert_int_equal(gr_record_move_count(r), GR_MAX_MOVES);
	assert_int_equal(gr_record_add_move(r, GR_BLACK, GR_PASS, -1, NULL), GR_ERANGE);
	gr_record_free(r);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_defaults),
		cmocka_unit_test(test_record_moves),
		cmocka_unit_test(test_record_setup_and_props),
		cmocka_unit_test(test_read_simple),
		cmocka_unit_test(test_read_handicap),
		cmocka_unit_test(test_read_variations),
		cmocka_unit_test(test_read_ff3),
		cmocka_unit_test(test_read_escapes),
		cmocka_unit_test(test_read_details),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_deep),
		cmocka_unit_test(test_write_format),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncations_and_mutations),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_gnugo_reads_output),
		cmocka_unit_test(test_too_many_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
