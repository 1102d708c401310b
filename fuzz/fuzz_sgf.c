/*
 * libFuzzer harness: the SGF reader (rules/sgf.h).
 *
 * Property (sgf.h): a record read from any text, written, reads back; and
 * written again gives the same text.
 */
#include "fuzz_util.h"
#include "sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gr_record *r = NULL;
	gr_error err;
	if (gr_sgf_read(&r, (const char *)data, size, &err) != 0)
		return 0;
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	if (gr_sgf_write(r, &a, &na) != 0)
		fuzz_fail("gr_sgf_write failed");
	gr_record *back = NULL;
	if (gr_sgf_read(&back, a, na, &err) != 0)
		fuzz_fail("written SGF does not read back: line %d: %s\n%s", err.line, err.message, a);
	if (gr_record_size(back) != gr_record_size(r) || gr_record_move_count(back) != gr_record_move_count(r) ||
	    gr_record_setup_count(back) != gr_record_setup_count(r) ||
	    gr_record_handicap(back) != gr_record_handicap(r) ||
	    gr_record_first_player(back) != gr_record_first_player(r))
		fuzz_fail("SGF read back is another record\n%s", a);
	for (int i = 0; i < gr_record_move_count(r); i++) {
		const gr_move *m = gr_record_move(r, i), *k = gr_record_move(back, i);
		if (m->color != k->color || m->pt != k->pt)
			fuzz_fail("move %d read back differs\n%s", i + 1, a);
	}
	if (gr_sgf_write(back, &b, &nb) != 0)
		fuzz_fail("gr_sgf_write failed on the record read back");
	if (na != nb || memcmp(a, b, na) != 0)
		fuzz_fail("SGF written twice differs:\n%s\n----\n%s", a, b);
	gr_free(a);
	gr_free(b);
	gr_record_free(back);
	gr_record_free(r);
	return 0;
}
