/* goref vision: the trace's lines (trace.h). */
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>

void gv_tracef(gv_trace_fn fn, void *ud, const char *fmt, ...)
{
	if (!fn)
		return;
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fn(line, ud);
}
