/*
 * goref rules core: errors and the one allocator.
 *
 * Every function of rules/ that can fail returns an int: 0 on success, a
 * negative GR_E* code on failure, and fills a gr_error (when the caller gives
 * one) with the line and column of the input at fault and a message a person
 * can read. Nothing in rules/ prints, exits or aborts.
 */
#ifndef GOREF_RULES_UTIL_H
#define GOREF_RULES_UTIL_H

#include <stddef.h>

enum {
	GR_OK = 0,
	GR_EINVAL = -1,  /* bad argument */
	GR_ENOMEM = -2,  /* out of memory */
	GR_EPARSE = -3,  /* malformed input: see gr_error */
	GR_ERANGE = -4,  /* a value out of range (size, point, count) */
};

typedef struct gr_error {
	int line;          /* 1-based line of the input, 0 when not about input */
	int column;        /* 1-based column, 0 when unknown */
	char message[200];
} gr_error;

/* Fills err (if not NULL) and returns code. printf-style message. */
int gr_error_set(gr_error *err, int code, int line, int column, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* The one allocator of rules/. By default malloc/realloc/free; a program may
 * swap in its own before it creates anything (for example to count or fail
 * allocations in tests). */
typedef struct gr_allocator {
	void *(*malloc_fn)(size_t);
	void *(*realloc_fn)(void *, size_t);
	void (*free_fn)(void *);
} gr_allocator;

void gr_set_allocator(const gr_allocator *a); /* NULL restores the default */
void *gr_malloc(size_t n);
void *gr_realloc(void *p, size_t n);
void gr_free(void *p);
char *gr_strdup(const char *s); /* NULL for NULL */
char *gr_strndup(const char *s, size_t n);

#endif
