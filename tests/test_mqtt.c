/* Unit tests of device/mqtt/ without a broker (issue 16): the names and
 * addresses it takes, and a board's events with no broker to be had (the
 * game goes on; the numbering rules hold). tests/e2e_mqtt.sh runs a real
 * mosquitto. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "mqtt.h"

static void test_hostport(void **state)
{
	(void)state;
	char h[64];
	int port = 1883;
	assert_int_equal(gm_parse_hostport("broker.local", h, sizeof h, &port), GM_OK);
	assert_string_equal(h, "broker.local");
	assert_int_equal(port, 1883);
	assert_int_equal(gm_parse_hostport("10.0.0.2:8883", h, sizeof h, &port), GM_OK);
	assert_string_equal(h, "10.0.0.2");
	assert_int_equal(port, 8883);
	assert_int_equal(gm_parse_hostport("[::1]:1884", h, sizeof h, &port), GM_OK);
	assert_string_equal(h, "::1");
	assert_int_equal(port, 1884);
	assert_int_equal(gm_parse_hostport("::1", h, sizeof h, &port), GM_OK);
	assert_string_equal(h, "::1");
	const char *bad[] = {"", ":1883", "host:", "host:0", "host:65536", "host:12x", "ho st", "a/b", "[::1", "[::1]x"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(gm_parse_hostport(bad[i], h, sizeof h, &port), GM_EINVAL);
	char tiny[4];
	assert_int_equal(gm_parse_hostport("longname", tiny, sizeof tiny, &port), GM_EINVAL);
}

static void test_names(void **state)
{
	(void)state;
	assert_true(gm_name_ok("hall-1"));
	assert_true(gm_name_ok("b01"));
	assert_true(gm_name_ok("Table_7.a"));
	char n64[65];
	memset(n64, 'x', 64);
	n64[64] = '\0';
	assert_true(gm_name_ok(n64));
	n64[63] = '\0';
	assert_true(gm_name_ok(n64));
	char n65[66];
	memset(n65, 'x', 65);
	n65[65] = '\0';
	assert_false(gm_name_ok(n65));
	const char *bad[] = {"", "a/b", "+", "#", "a b", "tab\t", "é"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(gm_name_ok(bad[i]));
	assert_false(gm_name_ok(NULL));
	assert_int_equal(gm_action_parse("end"), GM_ACT_END);
	assert_int_equal(gm_action_parse("count"), GM_ACT_COUNT);
	assert_int_equal(gm_action_parse("accept"), GM_ACT_ACCEPT);
	assert_int_equal(gm_action_parse("resign"), -1);
	assert_int_equal(gm_action_parse(NULL), -1);
	assert_string_equal(gm_action_name(GM_ACT_COUNT), "count");
}

static int traces;
static void count_trace(void *ud, int level, const char *msg)
{
	(void)ud;
	(void)level;
	assert_non_null(msg);
	traces++;
}

/* No broker on port 1: the events are kept, in their numbers, and nothing
 * fails; a repeat is ignored, a gap refused. */
static void test_board_without_broker(void **state)
{
	(void)state;
	gm_board_opts o;
	gm_board_opts_init(&o);
	o.conn.host = "127.0.0.1";
	o.conn.port = 1;
	o.conn.trace = count_trace;
	o.hall = "h";
	o.board = "b1";
	char err[256];
	gm_board *b = NULL;
	assert_int_equal(gm_board_new(&b, &o, err, sizeof err), GM_OK);
	const char *ev = "{\"type\":\"move\",\"move\":1}";
	assert_int_equal(gm_board_event(b, 1, ev, strlen(ev)), GM_OK);
	assert_int_equal(gm_board_event(b, 2, ev, strlen(ev)), GM_OK);
	assert_int_equal(gm_board_event(b, 1, ev, strlen(ev)), GM_OK); /* a resumed game gives it again */
	assert_int_equal(gm_board_event(b, 4, ev, strlen(ev)), GM_EINVAL);
	assert_int_equal(gm_board_event(b, 3, "{}", 2), GM_OK);
	assert_int_equal(gm_board_event(b, 4, "not json", 8), GM_EINVAL);
	assert_int_equal(gm_board_position(b, "{\"moves\":2}", 11), GM_EINVAL); /* no "n" */
	assert_int_equal(gm_board_position(b, "{\"n\":3,\"moves\":2}", 17), GM_OK);
	for (int i = 0; i < 5; i++)
		gm_board_poll(b);
	gm_board_stats st;
	gm_board_get_stats(b, &st);
	assert_int_equal(st.events, 3);
	assert_int_equal(st.acked, 0);
	assert_false(st.connected);
	gm_action a;
	assert_false(gm_board_next_control(b, &a));
	gm_board_free(b, 200);

	o.board = "b/1";
	assert_int_equal(gm_board_new(&b, &o, err, sizeof err), GM_EINVAL);
	assert_null(b);
	assert_non_null(strstr(err, "board id"));
	o.board = "b1";
	o.control_user = "dir ector";
	assert_int_equal(gm_board_new(&b, &o, err, sizeof err), GM_EINVAL);
	assert_null(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostport),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_board_without_broker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
