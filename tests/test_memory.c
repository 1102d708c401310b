/*
 * device/session/memory: the heap made ready for a frame loop.
 *
 * After gd_memory_prepare, blocks allocated and written (as the frame
 * pipeline's working images are) must come from pages already mapped: the
 * page faults they cause are counted (getrusage), not timed. Without it,
 * glibc would give a block of megabytes its own fresh mapping, a fault a
 * page. Where the allocator is not glibc's (a sanitizer's), the function
 * must say so (1) and change nothing; the fault counts are then skipped.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "memory.h"

#define MB ((size_t)1 << 20)

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(gd_memory_for_frame(1280, 720), 16 * (size_t)1280 * 720 + 4 * MB);
	assert_int_equal(gd_memory_for_frame(640, 480), 16 * (size_t)640 * 480 + 4 * MB);
	assert_true(gd_memory_for_frame(1920, 1080) > gd_memory_for_frame(1280, 720));
	/* no size, or a bad one: a small default; a huge one: bounded */
	assert_int_equal(gd_memory_for_frame(0, 0), 4 * MB);
	assert_int_equal(gd_memory_for_frame(-5, 100), 4 * MB);
	assert_int_equal(gd_memory_for_frame(100000, 100000), 256 * MB);
	assert_int_equal(gd_memory_for_frame(2147483647, 2147483647), 256 * MB);
}

/* Allocates the sizes, writes every byte, frees them; the page faults
 * this caused. */
static long use(const size_t *sizes, int n)
{
	char *b[8];
	long f0 = faults();
	for (int i = 0; i < n; i++) {
		b[i] = malloc(sizes[i]);
		assert_non_null(b[i]);
		memset(b[i], i + 1, sizes[i]);
	}
	long f1 = faults();
	for (int i = n - 1; i >= 0; i--)
		free(b[i]);
	return f1 - f0;
}

static void test_prepare(void **state)
{
	(void)state;
	/* a frame loop's kind of blocks: a 1280x720 RGB frame, its grey
	 * copy, working copies, and a few small ones; 5.5 MB in all */
	const size_t sizes[] = {1280 * 720 * 3, 1280 * 720, 800 * 450 * 4, 800 * 450, 200000, 65536};
	int n = (int)(sizeof sizes / sizeof sizes[0]);
	int rc = gd_memory_prepare(16 * MB);
	if (rc == 1) {
		print_message("gd_memory_prepare: not glibc's allocator here (a sanitizer's?): nothing to count\n");
		skip();
	}
	assert_int_equal(rc, 0);
	long f = use(sizes, n);
	/* 5.5 MB is some 1,400 pages; from the prepared heap, next to none
	 * (the odd page of the C library's own) */
	assert_true(f < 64);
	/* and again: nothing was given back between */
	f = use(sizes, n);
	assert_true(f < 64);
	/* a second call (a second game's loop) is harmless */
	assert_int_equal(gd_memory_prepare(16 * MB), 0);
	assert_true(use(sizes, n) < 64);
}

/* Without the settings, the same blocks fault page by page: the check
 * above can fail. Run first, in a fresh process's heap. */
static void test_unprepared_faults(void **state)
{
	(void)state;
	const size_t sizes[] = {1280 * 720 * 3, 1280 * 720};
	long f = use(sizes, 2);
	if (f == 0) {
		print_message("no page faults counted here at all: nothing to compare\n");
		skip();
	}
	/* 3.7 MB: some 900 pages, each mapped anew (glibc maps blocks this
	 * large on their own by default and unmaps them when freed) */
	assert_true(f > 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_unprepared_faults),
		cmocka_unit_test(test_prepare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
