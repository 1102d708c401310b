/*
 * A small GTP client for tests: runs a Go engine (GNU Go) as a child process
 * with its standard input and output on pipes, sends commands and reads the
 * replies.
 *
 * Every command is sent with a numeric id ("17 is_legal b D4") and every reply
 * is checked to carry the same id back, so a reply can never be paired with
 * the wrong command. Commands may be pipelined: gtp_send several, then
 * gtp_recv the replies in the same order. gtp_send only queues a command; the
 * queue goes down the pipe at the next gtp_recv, or when 16 KB of commands
 * wait. Keep the replies of one batch well under the pipe's 64 KB, or the
 * engine can block writing them while this side is still writing commands.
 *
 * A reply is "=id text" (success) or "?id text" (failure) followed by a blank
 * line. gtp_recv returns GTP_OK or GTP_FAILED and hands back the text without
 * the prefix and without the trailing blank line; GTP_EIO means the engine
 * could not be talked to (it died, closed its output, sent something that is
 * not a GTP reply, or did not answer within the timeout), with a message in
 * gtp_error().
 *
 * Starting the engine sets SIGPIPE to be ignored in the calling process, so
 * that an engine that dies shows up as GTP_EIO instead of killing the test.
 */
#ifndef GOREF_TESTS_GTP_H
#define GOREF_TESTS_GTP_H

#include <stddef.h>

enum {
	GTP_OK = 0,      /* "= ..." */
	GTP_FAILED = 1,  /* "? ...": the engine refused the command */
	GTP_EIO = -1,    /* no usable reply: see gtp_error() */
};

typedef struct gtp_engine gtp_engine;

/* Starts argv[0] (a path, not searched in PATH) with the arguments argv
 * (NULL-terminated). Returns NULL on failure, with a message in err (err may
 * be NULL). timeout_ms bounds the wait for each reply (0: 120 s). */
gtp_engine *gtp_start(char *const argv[], int timeout_ms, char *err, size_t errcap);

/* Queues one command (printf-style, no newline). Returns 0 or GTP_EIO. */
int gtp_send(gtp_engine *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Reads the reply to the oldest command sent and not yet answered. *text (if
 * not NULL) points to the reply text, valid until the next call on e.
 * Returns GTP_OK, GTP_FAILED or GTP_EIO. */
int gtp_recv(gtp_engine *e, const char **text);

/* gtp_send then gtp_recv. */
int gtp_command(gtp_engine *e, const char **text, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* The last I/O error, or "" when there was none. */
const char *gtp_error(const gtp_engine *e);

/* The text of the last command sent (for messages). */
const char *gtp_last_command(const gtp_engine *e);

/* Sends "quit", closes the pipes and waits for the engine (killing it if it
 * does not exit within a couple of seconds). Returns the engine's exit
 * status (0..255), or -1 when it was killed or could not be waited for.
 * e may be NULL. */
int gtp_close(gtp_engine *e);

#endif
