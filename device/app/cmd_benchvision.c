/* goref bench --vision: the frame pipeline's cost per frame, as percentiles
 * (a camera's budget is per frame, so the slow frames matter, not only the
 * mean), and the instructions per frame where the CPU's counters can be
 * read, so that a Raspberry Pi's figure can be estimated from this machine.
 *
 * Built only with vision/ (goref-vision). */
#define _GNU_SOURCE /* syscall() */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "cvwrap.h"
#include "memory.h"
#include "pipeline.h"
#include "source.h"

static const char benchvision_usage[] =
	"usage: goref bench --vision [--board N] [--frames N] [--slow MS] [--cold] [--json] DIR\n"
	"\n"
	"Feeds the frames of DIR (a folder of photos with times.txt, as\n"
	"goref-render writes them) through the frame pipeline, one core, and\n"
	"reports the CPU time per frame: mean, p50, p90, p99 and the slowest,\n"
	"for all frames and for the frames that were read (classified), and\n"
	"the first frame (the start: the first grid search) apart from the\n"
	"slowest after it. The decoding of the files is timed apart: a camera\n"
	"delivers raw frames. Before the first frame is fed, the heap is made\n"
	"ready for frames of its size, as watch, replay and eval-video do (its\n"
	"pages mapped at once, and kept: device/session/memory.h); that time is\n"
	"given apart too.\n"
	"Instructions per frame come from the CPU's counters (perf_event_open)\n"
	"where the kernel allows it; elsewhere (a virtual machine) use\n"
	"samples/bench_vision_instr.sh, which counts them under callgrind.\n"
	"\n"
	"  --board N    lines of the board: 9, 13 or 19 (default 19)\n"
	"  --frames N   at most N frames (default all)\n"
	"  --slow MS    lists on stderr every frame that took MS ms or more, with\n"
	"               what it did: grid searches, points classified, a grid taken\n"
	"  --cold       the heap not made ready: the frames map the memory they\n"
	"               touch first, as before (for comparison)\n"
	"  --json       one JSON object\n";

/* The instructions retired by this thread, through perf_event_open; -1
 * when the counters cannot be read. */
typedef struct counter {
	int fd;
	int err; /* errno of the opening, when it failed */
} counter;

static void counter_open(counter *c)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof a;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	c->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	c->err = c->fd < 0 ? errno : 0;
}

static long long counter_read(const counter *c)
{
	long long v;
	if (c->fd < 0 || read(c->fd, &v, sizeof v) != (ssize_t)sizeof v)
		return -1;
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double pct(const double *sorted, long n, double p)
{
	if (n == 0)
		return 0;
	long k = (long)ceil(p / 100.0 * (double)n) - 1;
	if (k < 0)
		k = 0;
	if (k >= n)
		k = n - 1;
	return sorted[k];
}

typedef struct stats {
	long n;
	double mean, p50, p90, p99, max;
} stats;

static stats summarize(double *v, long n)
{
	stats s = {0};
	s.n = n;
	if (n == 0)
		return s;
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += v[i];
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	s.mean = sum / (double)n;
	s.p50 = pct(v, n, 50);
	s.p90 = pct(v, n, 90);
	s.p99 = pct(v, n, 99);
	s.max = v[n - 1];
	return s;
}

int cmd_bench_vision(int argc, char **argv)
{
	int board = 19;
	long max_frames = -1;
	double slow_ms = -1;
	bool json = false, cold = false;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(benchvision_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--vision")) {
			continue;
		} else if (!strcmp(a, "--board") && i + 1 < argc) {
			if (!cli_parse_int("--board", argv[++i], 2, 19, &board))
				return EXIT_USAGE;
			if (board != 9 && board != 13 && board != 19) {
				fprintf(stderr, "goref bench: --board must be 9, 13 or 19\n");
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--frames") && i + 1 < argc) {
			int n;
			if (!cli_parse_int("--frames", argv[++i], 1, 100000000, &n))
				return EXIT_USAGE;
			max_frames = n;
		} else if (!strcmp(a, "--slow") && i + 1 < argc) {
			int ms;
			if (!cli_parse_int("--slow", argv[++i], 0, 100000, &ms))
				return EXIT_USAGE;
			slow_ms = ms;
		} else if (!strcmp(a, "--cold")) {
			cold = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!cli_positional("bench", benchvision_usage, "DIR", a, &dir)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("bench", benchvision_usage, "DIR", dir))
		return EXIT_USAGE;

	char err[512];
	/* one core, as the pipeline runs in watch, replay and eval-video:
	 * OpenCV's own threads would take part of a search out of this
	 * thread's CPU time */
	gv_cv_threads(1, NULL, 0);
	gd_source *src;
	int rc = gd_source_open_dir(&src, dir, NULL, 0, err, sizeof err);
	if (rc < 0) {
		cli_source_error("bench", dir, err, "\n");
		return EXIT_INPUT;
	}
	gv_pipeline_opts po;
	gv_pipeline_opts_init(&po);
	po.size = board;
	gv_pipeline *p;
	if (gv_pipeline_new(&p, &po) != 0) {
		gd_source_free(src);
		fprintf(stderr, "goref bench: out of memory\n");
		return EXIT_INPUT;
	}
	long total = gd_source_count(src);
	long cap = max_frames > 0 ? max_frames : (total > 0 ? total : 1024);
	double *all = malloc(sizeof(double) * (size_t)cap);
	double *read = malloc(sizeof(double) * (size_t)cap);
	double *ins = malloc(sizeof(double) * (size_t)cap);
	if (!all || !read || !ins) {
		free(all), free(read), free(ins);
		gv_pipeline_free(p);
		gd_source_free(src);
		fprintf(stderr, "goref bench: out of memory\n");
		return EXIT_INPUT;
	}
	counter ctr;
	counter_open(&ctr);
	long n = 0, nread = 0, nins = 0;
	double decode_ms = 0, prep_ms = 0;
	int prep_rc = 1;
	int w = 0, h = 0, status = EXIT_OK;
	long readings = 0;
	gv_pipeline_stats last = {0};
	for (;;) {
		if (max_frames > 0 && n >= max_frames)
			break;
		gv_image *f;
		double t;
		double t0 = cli_cpu_ms();
		rc = gd_source_next(src, &f, &t, err, sizeof err);
		decode_ms += cli_cpu_ms() - t0;
		if (rc == 0)
			break;
		if (rc < 0) {
			cli_source_error("bench", dir, err, "\n");
			status = EXIT_INPUT;
			break;
		}
		if (n == cap) {
			cap *= 2;
			double *a2 = realloc(all, sizeof(double) * (size_t)cap);
			if (a2)
				all = a2;
			double *r2 = realloc(read, sizeof(double) * (size_t)cap);
			if (r2)
				read = r2;
			double *i2 = realloc(ins, sizeof(double) * (size_t)cap);
			if (i2)
				ins = i2;
			if (!a2 || !r2 || !i2) {
				fprintf(stderr, "goref bench: out of memory\n");
				status = EXIT_INPUT;
				break;
			}
		}
		w = f->width;
		h = f->height;
		if (n == 0 && !cold) {
			/* as watch, replay and eval-video do before their first
			 * frame: the heap made ready for frames of this size */
			double m0 = cli_cpu_ms();
			prep_rc = gd_memory_prepare(gd_memory_for_frame(w, h));
			prep_ms = cli_cpu_ms() - m0;
		}
		gv_observation obs;
		long long i0 = counter_read(&ctr);
		t0 = cli_cpu_ms();
		rc = gv_pipeline_feed(p, f, t, &obs, err, sizeof err);
		double ms = cli_cpu_ms() - t0;
		long long i1 = counter_read(&ctr);
		if (rc < 0) {
			fprintf(stderr, "goref bench: %s: %s\n", dir, err);
			status = EXIT_INPUT;
			break;
		}
		gv_pipeline_stats ps;
		gv_pipeline_get_stats(p, &ps);
		if (slow_ms >= 0 && ms >= slow_ms)
			fprintf(stderr, "slow frame %ld (t %.2f s): %.2f ms, %ld search(es), %ld point(s) classified%s\n", n, t,
			        ms, ps.locates - last.locates, ps.classified - last.classified,
			        ps.relocations > last.relocations ? ", a grid taken" : "");
		last = ps;
		all[n] = ms;
		if (i0 >= 0 && i1 >= i0)
			ins[nins++] = (double)(i1 - i0);
		if (ps.readings > readings)
			read[nread++] = ms;
		readings = ps.readings;
		n++;
	}
	gv_pipeline_stats ps;
	gv_pipeline_get_stats(p, &ps);
	/* the first frame is the start (the first grid search, before any
	 * game): given apart, with the slowest frame after it */
	double first_ms = n > 0 ? all[0] : 0, after_max = 0;
	for (long k = 1; k < n; k++)
		if (all[k] > after_max)
			after_max = all[k];
	stats sa = summarize(all, n), sr = summarize(read, nread), si = summarize(ins, nins);
	if (status == EXIT_OK && n == 0) {
		fprintf(stderr, "goref bench: %s: no frame\n", dir);
		status = EXIT_INPUT;
	}
	if (status == EXIT_OK) {
		if (json) {
			printf("{\"frames\":%ld,\"width\":%d,\"height\":%d,\"board\":%d,"
			       "\"ms\":{\"mean\":%.3f,\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"max\":%.3f},"
			       "\"read_frames\":%ld,\"read_ms\":{\"mean\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},"
			       "\"first_ms\":%.3f,\"max_after_first_ms\":%.3f,"
			       "\"grid_searches\":%ld,\"classified_share\":%.4f,\"decode_ms_mean\":%.3f,"
			       "\"memory_prepared\":%s,\"memory_ms\":%.3f",
			       sa.n, w, h, board, sa.mean, sa.p50, sa.p90, sa.p99, sa.max, sr.n, sr.mean, sr.p50, sr.p99,
			       sr.max, first_ms, after_max, ps.locates,
			       ps.readings ? (double)ps.classified / ((double)ps.readings * board * board) : 0.0,
			       decode_ms / (double)n, prep_rc == 0 ? "true" : "false", prep_ms);
			if (si.n)
				printf(",\"instructions\":{\"mean\":%.0f,\"p99\":%.0f,\"max\":%.0f}", si.mean, si.p99, si.max);
			else
				printf(",\"instructions\":null");
			printf("}\n");
		} else {
			printf("frames %ld of %dx%d (%d lines), one core, CPU time in the pipeline per frame:\n", sa.n, w,
			       h, board);
			printf("  all frames     mean %.2f ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f ms\n", sa.mean, sa.p50,
			       sa.p90, sa.p99, sa.max);
			printf("  the first frame (the start: the first grid search) %.2f ms; the slowest after it %.2f ms\n",
			       first_ms, after_max);
			printf("  read frames    %ld (%.1f%%): mean %.2f ms  p50 %.2f  p99 %.2f  max %.2f ms; grid searches %ld\n",
			       sr.n, 100.0 * (double)sr.n / (double)sa.n, sr.mean, sr.p50, sr.p99, sr.max, ps.locates);
			printf("  points classified again per reading: %.1f%% (the others keep their features)\n",
			       ps.readings ? 100.0 * (double)ps.classified / ((double)ps.readings * board * board) : 0.0);
			printf("  decoding the files (not in the pipeline): %.2f ms a frame\n", decode_ms / (double)n);
			if (cold)
				printf("  the heap not made ready (--cold)\n");
			else if (prep_rc == 0)
				printf("  the heap made ready before the first frame (not in the pipeline): %.0f MB in %.2f ms\n",
				       (double)gd_memory_for_frame(w, h) / (1 << 20), prep_ms);
			else
				printf("  the heap could not be made ready here (%s)\n",
				       prep_rc > 0 ? "not glibc's allocator" : "out of memory");
			if (si.n)
				printf("  instructions   mean %.2f M  p99 %.2f M  max %.2f M a frame\n", si.mean / 1e6,
				       si.p99 / 1e6, si.max / 1e6);
			else
				printf("  instructions   not readable here (perf_event_open: %s); "
				       "samples/bench_vision_instr.sh counts them under callgrind\n",
				       ctr.fd < 0 ? strerror(ctr.err) : "no count");
		}
	}
	if (ctr.fd >= 0)
		close(ctr.fd);
	free(all);
	free(read);
	free(ins);
	gv_pipeline_free(p);
	gd_source_free(src);
	return status;
}
