/* goref device: a request to stop. See stop.h. */
#define _POSIX_C_SOURCE 200809L
#include "stop.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_flag, stop_sig;

void gd_stop_request(void)
{
	stop_flag = 1;
}

bool gd_stop_requested(void)
{
	return stop_flag != 0;
}

void gd_stop_reset(void)
{
	stop_flag = 0;
	stop_sig = 0;
}

int gd_stop_signal(void)
{
	return stop_sig;
}

static void on_signal(int sig)
{
	stop_sig = sig;
	gd_stop_request();
}

int gd_stop_on_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
		return -1;
	return 0;
}
