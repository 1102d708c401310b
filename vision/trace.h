/*
 * goref vision: a line of diagnosis to the caller's trace callback (the
 * locator's and the detection's steps, gv_locate_opts.trace and
 * gv_detect_opts.trace): formatted only when a callback is set, never
 * printed by the library itself.
 */
#ifndef GOREF_VISION_TRACE_H
#define GOREF_VISION_TRACE_H

typedef void (*gv_trace_fn)(const char *line, void *ud);

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void gv_tracef(gv_trace_fn fn, void *ud, const char *fmt, ...);

#endif
