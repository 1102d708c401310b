/*
 * goref fuzz harnesses: what they share. A property that fails calls
 * fuzz_fail, which aborts: libFuzzer keeps the input as a crash.
 */
#ifndef GOREF_FUZZ_UTIL_H
#define GOREF_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define fuzz_fail(...)                                                        \
	do {                                                                      \
		fprintf(stderr, "fuzz property broken (%s:%d): ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                                         \
		fputc('\n', stderr);                                                  \
		abort();                                                              \
	} while (0)

/* A path of this process's own in the temp folder (made once). */
static inline const char *fuzz_temp_path(const char *suffix)
{
	static char path[256];
	if (!path[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(path, sizeof path, "%s/goref-fuzz-%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(),
		         suffix);
	}
	return path;
}

/* Writes data[0..size) to path (replacing it); aborts when it cannot. */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		fuzz_fail("cannot write %s", path);
}

#endif
