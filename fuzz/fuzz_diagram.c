/*
 * libFuzzer harness: the board diagram reader (rules/diagram.h).
 *
 * Property: a diagram read from any text, written, reads back as the same
 * board with the same dead stones; and every line fed to the row reader
 * alone returns a count or an error, nothing else.
 */
#include "diagram.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	/* the row readers, line by line */
	for (size_t i = 0; i < size;) {
		size_t j = i;
		while (j < size && text[j] != '\n')
			j++;
		unsigned char cells[GR_MAX_SIZE + 1], dead[GR_MAX_SIZE + 1];
		gr_error err;
		int n = gr_diagram_row(text + i, j - i, 1, cells, dead, &err);
		if (n > GR_MAX_SIZE)
			fuzz_fail("gr_diagram_row returned %d cells", n);
		n = gr_diagram_row_seen(text + i, j - i, 1, cells, dead, &err);
		if (n > GR_MAX_SIZE)
			fuzz_fail("gr_diagram_row_seen returned %d cells", n);
		(void)gr_diagram_skip_line(text + i, j - i);
		i = j + 1;
	}

	static gr_board b, back;
	bool dead[GR_MAX_POINTS], dead_back[GR_MAX_POINTS];
	gr_error err;
	if (gr_diagram_parse(&b, dead, text, size, 0, &err) != 0)
		return 0;
	char buf[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 1];
	size_t n = gr_diagram_write(&b, dead, buf, sizeof buf);
	if (n >= sizeof buf)
		fuzz_fail("diagram of %zu bytes", n);
	if (gr_diagram_parse(&back, dead_back, buf, n, b.size, &err) != 0)
		fuzz_fail("written diagram does not read back: %s\n%s", err.message, buf);
	if (!gr_board_same(&b, &back))
		fuzz_fail("diagram read back is another board\n%s", buf);
	for (int y = 0; y < b.size; y++)
		for (int x = 0; x < b.size; x++)
			if (dead[gr_pt(&b, x, y)] != dead_back[gr_pt(&b, x, y)])
				fuzz_fail("dead stones read back differ\n%s", buf);
	return 0;
}
