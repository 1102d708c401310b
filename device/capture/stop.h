/*
 * goref device: a request to stop, from a signal handler to the loops.
 *
 * A command that must end cleanly on SIGTERM or SIGINT (watch, replay)
 * installs a handler that calls gd_stop_request(), the one thing here that
 * is async-signal-safe. The places that can wait or work long poll
 * gd_stop_requested() and give up early: the frame sources while they wait
 * for input (a pipe, a camera, a camera that is lost), the loop between
 * frames, the commands while the journal is fed back at start-up. Each
 * such wait is cut into steps of at most GD_STOP_POLL_MS, so a request is
 * seen within that time plus the longest step of work (one frame).
 *
 * The flag is process-wide and only ever set (a test may clear it with
 * gd_stop_reset()).
 */
#ifndef GOREF_DEVICE_STOP_H
#define GOREF_DEVICE_STOP_H

#include <stdbool.h>

/* The longest a wait here goes without looking at the flag. */
#define GD_STOP_POLL_MS 200

/* Asks every loop to stop (async-signal-safe). */
void gd_stop_request(void);

/* Whether a stop was asked for. */
bool gd_stop_requested(void);

/* The signal that asked for the stop through gd_stop_on_signals' handler
 * (SIGINT, SIGTERM), or 0. */
int gd_stop_signal(void);

/* Clears the request (tests). */
void gd_stop_reset(void);

/* Installs a handler for SIGINT and SIGTERM that calls gd_stop_request(),
 * without SA_RESTART, so a blocking read or poll returns EINTR at once.
 * 0, or -1 when sigaction fails. */
int gd_stop_on_signals(void);

#endif
