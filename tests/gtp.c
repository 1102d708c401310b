/* A small GTP client for tests. See gtp.h. */
#include "gtp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct gtp_engine {
	pid_t pid;
	int to_engine;   /* write end: the engine's stdin */
	int from_engine; /* read end: the engine's stdout */
	int timeout_ms;
	unsigned next_id;    /* id of the next command sent */
	unsigned reply_id;   /* id of the next reply expected */
	char *in;            /* bytes read and not yet consumed */
	size_t in_len, in_cap;
	char *reply;         /* the text of the last reply */
	size_t reply_cap;
	char *out;           /* commands sent and not yet written to the pipe */
	size_t out_len, out_cap;
	char err[512];
	char last[512];
};

static int set_cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);
	return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

static void seterr(gtp_engine *e, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void seterr(gtp_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof e->err, fmt, ap);
	va_end(ap);
}

gtp_engine *gtp_start(char *const argv[], int timeout_ms, char *err, size_t errcap)
{
	int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1};
	gtp_engine *e = NULL;
	posix_spawn_file_actions_t fa;
	int fa_ok = 0;

	if (err && errcap)
		err[0] = 0;
	if (!argv || !argv[0]) {
		if (err)
			snprintf(err, errcap, "gtp_start: no program");
		return NULL;
	}
	/* an engine that dies must not kill us with SIGPIPE on the next write */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);

	e = calloc(1, sizeof *e);
	if (!e)
		goto fail_errno;
	e->pid = -1;
	e->to_engine = e->from_engine = -1;
	e->timeout_ms = timeout_ms > 0 ? timeout_ms : 120000;
	e->next_id = e->reply_id = 1;
	if (pipe(in_pipe) || pipe(out_pipe))
		goto fail_errno;
	/* the parent's ends must not leak into the child (nor into later children) */
	if (set_cloexec(in_pipe[0]) || set_cloexec(in_pipe[1]) || set_cloexec(out_pipe[0]) ||
	    set_cloexec(out_pipe[1]))
		goto fail_errno;
	if ((errno = posix_spawn_file_actions_init(&fa)) != 0)
		goto fail_errno;
	fa_ok = 1;
	/* dup2 clears FD_CLOEXEC on the new descriptors 0 and 1 */
	if ((errno = posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0)) != 0 ||
	    (errno = posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1)) != 0)
		goto fail_errno;
	pid_t pid;
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	if (rc != 0) {
		errno = rc;
		goto fail_errno;
	}
	posix_spawn_file_actions_destroy(&fa);
	fa_ok = 0;
	close(in_pipe[0]);
	close(out_pipe[1]);
	e->pid = pid;
	e->to_engine = in_pipe[1];
	e->from_engine = out_pipe[0];
	e->in_cap = 4096;
	e->in = malloc(e->in_cap);
	e->reply_cap = 4096;
	e->reply = malloc(e->reply_cap);
	e->out_cap = 16384;
	e->out = malloc(e->out_cap);
	if (!e->in || !e->reply || !e->out) {
		if (err)
			snprintf(err, errcap, "gtp_start: out of memory");
		gtp_close(e);
		return NULL;
	}
	e->reply[0] = 0;
	return e;

fail_errno:
	if (err)
		snprintf(err, errcap, "gtp_start: %s: %s", argv[0], strerror(errno));
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	for (int i = 0; i < 2; i++) {
		if (in_pipe[i] >= 0)
			close(in_pipe[i]);
		if (out_pipe[i] >= 0)
			close(out_pipe[i]);
	}
	free(e);
	return NULL;
}

static int write_all(gtp_engine *e, const char *buf, size_t n)
{
	if (e->to_engine < 0) {
		seterr(e, "the pipe to the engine is closed");
		return GTP_EIO;
	}
	while (n > 0) {
		ssize_t w = write(e->to_engine, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EPIPE) /* it exited before we wrote: as closed as a read of nothing */
				seterr(e, "the engine closed its input (exited?) before \"%s\"", e->last);
			else
				seterr(e, "writing \"%s\" to the engine: %s", e->last, strerror(errno));
			return GTP_EIO;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static int flush(gtp_engine *e)
{
	int rc = write_all(e, e->out, e->out_len);
	e->out_len = 0;
	return rc;
}

static int vsend(gtp_engine *e, const char *fmt, va_list ap)
{
	if (!e || e->to_engine < 0)
		return GTP_EIO;
	char cmd[sizeof e->last];
	int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof cmd) {
		seterr(e, "command too long");
		return GTP_EIO;
	}
	if (strchr(cmd, '\n')) {
		seterr(e, "command contains a newline: \"%s\"", cmd);
		return GTP_EIO;
	}
	snprintf(e->last, sizeof e->last, "%s", cmd);
	char line[sizeof cmd + 16];
	int len = snprintf(line, sizeof line, "%u %s\n", e->next_id, cmd);
	e->next_id++;
	/* commands are written in batches: at the next gtp_recv, or when many wait */
	if (e->out_len + (size_t)len > e->out_cap) {
		int rc = flush(e);
		if (rc)
			return rc;
	}
	memcpy(e->out + e->out_len, line, (size_t)len);
	e->out_len += (size_t)len;
	return 0;
}

int gtp_send(gtp_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vsend(e, fmt, ap);
	va_end(ap);
	return rc;
}

/* Reads more bytes from the engine into e->in, dropping carriage returns. */
static int fill(gtp_engine *e)
{
	struct pollfd p = {.fd = e->from_engine, .events = POLLIN};
	for (;;) {
		int r = poll(&p, 1, e->timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			seterr(e, "poll: %s", strerror(errno));
			return GTP_EIO;
		}
		if (r == 0) {
			seterr(e, "no reply to \"%s\" within %d ms", e->last, e->timeout_ms);
			return GTP_EIO;
		}
		break;
	}
	if (e->in_cap - e->in_len < 4096) {
		size_t ncap = e->in_cap * 2;
		char *n = realloc(e->in, ncap);
		if (!n) {
			seterr(e, "out of memory");
			return GTP_EIO;
		}
		e->in = n;
		e->in_cap = ncap;
	}
	ssize_t r;
	do
		r = read(e->from_engine, e->in + e->in_len, e->in_cap - e->in_len - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		seterr(e, "reading the reply to \"%s\": %s", e->last, strerror(errno));
		return GTP_EIO;
	}
	if (r == 0) {
		seterr(e, "the engine closed its output (exited?) before answering \"%s\"", e->last);
		return GTP_EIO;
	}
	size_t w = e->in_len;
	for (size_t i = e->in_len; i < e->in_len + (size_t)r; i++)
		if (e->in[i] != '\r')
			e->in[w++] = e->in[i];
	e->in_len = w;
	e->in[e->in_len] = 0;
	return 0;
}

int gtp_recv(gtp_engine *e, const char **text)
{
	if (text)
		*text = "";
	if (!e || e->from_engine < 0)
		return GTP_EIO;
	if (e->reply_id == e->next_id) {
		seterr(e, "gtp_recv: no command waiting for a reply");
		return GTP_EIO;
	}
	if (e->out_len && flush(e))
		return GTP_EIO;
	char *end;
	for (;;) {
		/* GTP: empty lines before a reply are ignored */
		size_t skip = 0;
		while (skip < e->in_len && e->in[skip] == '\n')
			skip++;
		if (skip) {
			memmove(e->in, e->in + skip, e->in_len - skip + 1);
			e->in_len -= skip;
		}
		if (e->in_len && (end = strstr(e->in, "\n\n")) != NULL)
			break;
		if (fill(e))
			return GTP_EIO;
	}
	size_t total = (size_t)(end - e->in) + 2; /* bytes of this reply, blank line included */
	*end = 0;
	char status = e->in[0];
	char *p = e->in + 1;
	unsigned id = 0;
	int digits = 0;
	while (*p >= '0' && *p <= '9') {
		id = id * 10 + (unsigned)(*p++ - '0');
		digits++;
	}
	int rc;
	if ((status != '=' && status != '?') || (*p != ' ' && *p != '\n' && *p != 0)) {
		seterr(e, "not a GTP reply to \"%s\": \"%.200s\"", e->last, e->in);
		rc = GTP_EIO;
	} else if (!digits || id != e->reply_id) {
		seterr(e, "reply id %u (%s) where %u was expected: \"%.200s\"", id,
		       digits ? "given" : "missing", e->reply_id, e->in);
		rc = GTP_EIO;
	} else {
		if (*p == ' ')
			p++;
		size_t n = strlen(p);
		if (n + 1 > e->reply_cap) {
			char *r = realloc(e->reply, n + 1);
			if (!r) {
				seterr(e, "out of memory");
				return GTP_EIO;
			}
			e->reply = r;
			e->reply_cap = n + 1;
		}
		memcpy(e->reply, p, n + 1);
		/* trailing blanks of a one-line reply ("= " for an empty success) */
		while (n > 0 && (e->reply[n - 1] == ' ' || e->reply[n - 1] == '\t'))
			e->reply[--n] = 0;
		rc = status == '=' ? GTP_OK : GTP_FAILED;
		if (text)
			*text = e->reply;
	}
	e->reply_id++;
	memmove(e->in, e->in + total, e->in_len - total + 1);
	e->in_len -= total;
	return rc;
}

int gtp_command(gtp_engine *e, const char **text, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vsend(e, fmt, ap);
	va_end(ap);
	if (rc) {
		if (text)
			*text = "";
		return rc;
	}
	return gtp_recv(e, text);
}

const char *gtp_error(const gtp_engine *e) { return e ? e->err : "no engine"; }
const char *gtp_last_command(const gtp_engine *e) { return e ? e->last : ""; }

int gtp_close(gtp_engine *e)
{
	if (!e)
		return -1;
	if (e->to_engine >= 0 && e->from_engine >= 0 && e->reply_id == e->next_id) {
		/* best effort: a polite quit, with a short wait for its reply */
		int saved = e->timeout_ms;
		e->timeout_ms = 2000;
		if (gtp_send(e, "quit") == 0)
			gtp_recv(e, NULL);
		e->timeout_ms = saved;
	}
	if (e->to_engine >= 0)
		close(e->to_engine);
	if (e->from_engine >= 0)
		close(e->from_engine);
	int result = -1;
	if (e->pid > 0) {
		int status = 0;
		pid_t w = 0;
		/* up to about 3 s for a clean exit, then SIGKILL */
		for (int i = 0; i < 300; i++) {
			w = waitpid(e->pid, &status, WNOHANG);
			if (w != 0)
				break;
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (w == 0) {
			kill(e->pid, SIGKILL);
			w = waitpid(e->pid, &status, 0);
		}
		if (w == e->pid && WIFEXITED(status))
			result = WEXITSTATUS(status);
	}
	free(e->in);
	free(e->reply);
	free(e->out);
	free(e);
	return result;
}
