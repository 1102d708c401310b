/* goref rules core: errors and the one allocator. See util.h. */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gr_error_set(gr_error *err, int code, int line, int column, const char *fmt, ...)
{
	if (err) {
		err->line = line;
		err->column = column;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof err->message, fmt, ap);
		va_end(ap);
	}
	return code;
}

static gr_allocator gr_alloc = {malloc, realloc, free};

void gr_set_allocator(const gr_allocator *a)
{
	if (a)
		gr_alloc = *a;
	else
		gr_alloc = (gr_allocator){malloc, realloc, free};
}

void *gr_malloc(size_t n) { return gr_alloc.malloc_fn(n ? n : 1); }
void *gr_realloc(void *p, size_t n) { return gr_alloc.realloc_fn(p, n ? n : 1); }
void gr_free(void *p)
{
	if (p)
		gr_alloc.free_fn(p);
}

char *gr_strndup(const char *s, size_t n)
{
	if (!s)
		return NULL;
	char *d = gr_malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

char *gr_strdup(const char *s) { return s ? gr_strndup(s, strlen(s)) : NULL; }
