/* Unit tests of device/mqtt/ without a broker (issue 16): the names and
 * addresses it takes, a board's events with no broker to be had (the game
 * goes on; the numbering rules hold), and a broker's name lookup that hangs
 * (the DNS down) without holding the owner's loop. tests/e2e_mqtt.sh runs a
 * real mosquitto. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* ---- a name lookup that hangs ----
 *
 * This program's getaddrinfo takes libmosquitto's calls (the executable
 * exports it: ENABLE_EXPORTS in tests/CMakeLists.txt): HANG_HOST's lookup
 * says it has begun and is held until the test lets it go (20 s at most, so
 * that a broken build fails rather than hangs), then fails as a resolver
 * without its DNS does (EAI_AGAIN); other names go to the real one. */
#define HANG_HOST "hang.goref.test"

static pthread_mutex_t fk_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fk_cv = PTHREAD_COND_INITIALIZER;
static int fk_entered;  /* lookups of HANG_HOST begun */
static bool fk_in;      /* one is held */
static bool fk_release; /* let it go, and any later one at once */

int getaddrinfo(const char *restrict node, const char *restrict service, const struct addrinfo *restrict hints,
                struct addrinfo **restrict res)
{
	if (node && !strcmp(node, HANG_HOST)) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 20;
		pthread_mutex_lock(&fk_mu);
		fk_entered++;
		fk_in = true;
		pthread_cond_broadcast(&fk_cv);
		while (!fk_release && pthread_cond_timedwait(&fk_cv, &fk_mu, &until) != ETIMEDOUT)
			;
		fk_in = false;
		pthread_mutex_unlock(&fk_mu);
		return EAI_AGAIN;
	}
	int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **);
	*(void **)&real = dlsym(RTLD_NEXT, "getaddrinfo");
	return real ? real(node, service, hints, res) : EAI_SYSTEM;
}

static void fk_reset(void)
{
	pthread_mutex_lock(&fk_mu);
	fk_entered = 0;
	fk_in = false;
	fk_release = false;
	pthread_mutex_unlock(&fk_mu);
}

static void fk_state(int *entered, bool *in)
{
	pthread_mutex_lock(&fk_mu);
	*entered = fk_entered;
	*in = fk_in;
	pthread_mutex_unlock(&fk_mu);
}

static void fk_let_go(void)
{
	pthread_mutex_lock(&fk_mu);
	fk_release = true;
	pthread_cond_broadcast(&fk_cv);
	pthread_mutex_unlock(&fk_mu);
}

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000}, NULL);
}

/* the trace: every line comes on the test's own thread (the owner's), the
 * broker's failure to be reached is noted */
static pthread_t owner;
static bool trace_off_thread;
static int unreachable;
static void lookup_trace(void *ud, int level, const char *msg)
{
	(void)ud;
	(void)level;
	if (!pthread_equal(pthread_self(), owner))
		trace_off_thread = true;
	else if (strstr(msg, "the broker " HANG_HOST ":1883 cannot be reached yet"))
		unreachable++;
}

static gm_board *hang_board(const char *id)
{
	fk_reset();
	owner = pthread_self();
	trace_off_thread = false;
	unreachable = 0;
	gm_board_opts o;
	gm_board_opts_init(&o);
	o.conn.host = HANG_HOST;
	o.conn.trace = lookup_trace;
	o.hall = "h";
	o.board = id;
	char err[256];
	gm_board *b = NULL;
	assert_int_equal(gm_board_new(&b, &o, err, sizeof err), GM_OK);
	/* the lookup begins (from gm_board_new's poll, or a later one): 20 s at
	 * most; neither gm_board_new nor a poll waited for it (held still) */
	int entered = 0;
	bool in = false;
	for (int i = 0; i < 2000; i++) {
		fk_state(&entered, &in);
		if (entered)
			break;
		gm_board_poll(b);
		sleep_ms(10);
	}
	assert_int_equal(entered, 1);
	assert_true(in);
	return b;
}

/* The lookup held: the polls and the events go on (each returns while it is
 * still held, so none waited for it); let go, its failure is seen (traced
 * once, on the owner's thread), and the board freed. */
static void test_board_lookup_hangs(void **state)
{
	(void)state;
	gm_board *b = hang_board("b1");
	const char *ev = "{\"type\":\"move\",\"move\":1}";
	for (int i = 1; i <= 500; i++) {
		gm_board_poll(b);
		assert_int_equal(gm_board_event(b, (uint64_t)i, ev, strlen(ev)), GM_OK);
		if (i % 100 == 0) {
			char pos[64];
			int len = snprintf(pos, sizeof pos, "{\"n\":%d,\"moves\":%d}", i, i);
			assert_int_equal(gm_board_position(b, pos, (size_t)len), GM_OK);
		}
		gm_board_poll(b);
	}
	int entered;
	bool in;
	fk_state(&entered, &in);
	assert_true(in); /* still held: no poll waited for it */
	assert_int_equal(entered, 1);
	gm_board_stats st;
	gm_board_get_stats(b, &st);
	assert_int_equal(st.events, 500);
	assert_int_equal(st.published, 0);
	assert_false(st.connected);
	assert_int_equal(unreachable, 0);
	fk_let_go();
	for (int i = 0; i < 2000 && !unreachable; i++) {
		gm_board_poll(b);
		if (!unreachable)
			sleep_ms(10);
	}
	assert_int_equal(unreachable, 1);
	assert_false(trace_off_thread);
	gm_board_get_stats(b, &st);
	assert_int_equal(st.events, 500);
	assert_false(st.connected);
	gm_board_free(b, 0);
}

static void *let_go_later(void *arg)
{
	(void)arg;
	sleep_ms(300);
	fk_let_go();
	return NULL;
}

/* Freed while the lookup is held: the free waits for the attempt (its
 * thread uses the libmosquitto client that the free destroys), so the
 * lookup is over when it returns. */
static void test_board_free_joins_lookup(void **state)
{
	(void)state;
	gm_board *b = hang_board("b2");
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, let_go_later, NULL), 0);
	gm_board_free(b, 100);
	int entered;
	bool in;
	fk_state(&entered, &in);
	assert_false(in);
	assert_int_equal(entered, 1);
	pthread_join(t, NULL);
	assert_false(trace_off_thread);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostport),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_board_without_broker),
		cmocka_unit_test(test_board_lookup_hangs),
		cmocka_unit_test(test_board_free_joins_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
