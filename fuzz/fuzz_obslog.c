/*
 * libFuzzer harness: the observation log reader (rules/obslog.h) and the
 * referee (rules/referee.h) fed what it reads, as `goref referee` does.
 *
 * Property: every observation and command read, written back with
 * gr_obslog_write_position / _command and read by a second parser, comes
 * back the same (the time to the millisecond it is written with); and the
 * referee's record, written as SGF, reads back with the same moves.
 */
#include <math.h>

#include "fuzz_util.h"
#include "obslog.h"
#include "referee.h"
#include "sgf.h"

static void on_event(const gr_event *e, void *ud)
{
	char buf[4096];
	(void)gr_event_json(e, *(int *)ud, buf, sizeof buf);
}

static void check_round_trip(gr_obslog *again, const gr_obs_item *it, gr_obs_item *back)
{
	char buf[GR_MAX_SIZE * (GR_MAX_SIZE + 1) + 512];
	size_t n = it->kind == GR_OBS_POSITION
	               ? gr_obslog_write_position(it->t, it->size, it->cells, buf, sizeof buf)
	               : gr_obslog_write_command(it->t, it->command, it->color, buf, sizeof buf);
	if (n >= sizeof buf)
		return; /* a time of hundreds of digits: not a log goref writes */
	int got = 0;
	gr_error err;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && buf[j] != '\n')
			j++;
		got = gr_obslog_feed(again, buf + i, j - i, back, &err);
		if (got < 0)
			fuzz_fail("written entry does not read back: %s\n%s", err.message, buf);
		if (got == 1 && j + 1 < n)
			fuzz_fail("written entry read back early\n%s", buf);
		i = j + 1;
	}
	if (got != 1)
		fuzz_fail("written entry incomplete\n%s", buf);
	if (back->kind != it->kind || fabs(back->t - it->t) > 0.0005 * (1 + fabs(it->t) * 1e-12))
		fuzz_fail("entry read back differs (t %.17g, back %.17g)\n%s", it->t, back->t, buf);
	if (it->kind == GR_OBS_POSITION) {
		if (back->size != it->size || memcmp(back->cells, it->cells, (size_t)(it->size * it->size)) != 0)
			fuzz_fail("position read back differs\n%s", buf);
	} else if (back->command != it->command || (it->command == GR_CMD_RESIGN && back->color != it->color)) {
		fuzz_fail("command read back differs\n%s", buf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	gr_obslog *log = NULL, *again = NULL;
	static gr_obs_item item, back;
	gr_referee *ref = NULL;
	int board = 0;
	if (gr_obslog_new(&log, 0) != 0)
		fuzz_fail("gr_obslog_new");
	for (size_t i = 0; i < size;) {
		size_t j = i;
		while (j < size && text[j] != '\n')
			j++;
		gr_error err;
		int rc = gr_obslog_feed(log, text + i, j - i, &item, &err);
		i = j + 1;
		if (rc != 1)
			continue;
		if (!again && gr_obslog_new(&again, gr_obslog_size(log)) != 0)
			fuzz_fail("gr_obslog_new");
		check_round_trip(again, &item, &back);
		if (!ref && gr_obslog_size(log) > 0) {
			board = gr_obslog_size(log);
			if (gr_referee_new(&ref, board, NULL, on_event, &board) != 0)
				fuzz_fail("gr_referee_new(%d)", board);
		}
		if (!ref)
			continue;
		if (item.kind == GR_OBS_POSITION)
			(void)gr_referee_observe(ref, item.t, item.cells);
		else
			(void)gr_referee_command(ref, item.t, item.command, item.color);
	}
	gr_error err;
	(void)gr_obslog_finish(log, &err);
	if (ref) {
		/* the referee's record, as `goref referee --sgf` writes it, reads back */
		char *sgf = NULL;
		size_t n = 0;
		gr_record *back = NULL;
		if (gr_sgf_write(gr_referee_record(ref), &sgf, &n) != 0)
			fuzz_fail("the referee's record cannot be written as SGF");
		if (gr_sgf_read(&back, sgf, n, &err) != 0)
			fuzz_fail("the referee's record does not read back: %s\n%s", err.message, sgf);
		if (gr_record_move_count(back) != gr_record_move_count(gr_referee_record(ref)))
			fuzz_fail("the referee's record reads back with another number of moves\n%s", sgf);
		gr_record_free(back);
		gr_free(sgf);
	}
	gr_referee_free(ref);
	gr_obslog_free(again);
	gr_obslog_free(log);
	return 0;
}
