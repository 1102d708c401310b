#include "testutil.h"

static void test_placeholder(void **state) { (void)state; gr_board b; assert_int_equal(gr_board_init(&b, 19), 0); }

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_placeholder)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
