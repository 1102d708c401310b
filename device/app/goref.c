/*
 * goref: a camera referee for the game of Go under the Chinese rules.
 *
 * One table of commands (name, function, one-line help) that the dispatch
 * and `goref --help` share. This file is built twice:
 *   goref         the rules commands only, no OpenCV loaded (it starts in a
 *                 few milliseconds); a command that needs vision is run by
 *                 executing goref-vision from goref's own folder, with the
 *                 same arguments (the way git runs its subcommands);
 *   goref-vision  every command but hall (GOREF_HAVE_VISION).
 * `goref hall`, the director's page, needs neither OpenCV nor a camera: it is
 * its own program, goref-hall (hall_main.c), run the same way by both; and
 * goref runs `goref detect` as goref-detect (detect_main.c: OpenCV's core
 * and imgproc only, no camera, web or broker libraries), which starts in
 * half the time of goref-vision.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"
#ifdef GOREF_HAVE_VISION
#include "stop.h"
#endif

#ifdef GOREF_HAVE_VISION
#define VISION(fn) fn
#else
#define VISION(fn) NULL
#endif

static int run_program(const char *prog, char **argv);
static char **all_argv;

#define VISION_PROGRAM "goref-vision"
#define HALL_PROGRAM "goref-hall"
#define DETECT_PROGRAM "goref-detect"

/* goref bench, or with --vision the frame pipeline's bench (goref-vision) */
static int bench(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--vision")) {
#ifdef GOREF_HAVE_VISION
			return cmd_bench_vision(argc, argv);
#else
			return run_program(VISION_PROGRAM, all_argv);
#endif
		}
	return cmd_bench(argc, argv);
}

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv); /* NULL: in another program, */
	const char *help;                  /* one line, or two with a '\n' */
	const char *prog;                  /* this one (goref-vision when NULL) */
} command;

static const command commands[] = {
	{ "score", cmd_score, "count a finished position (diagram or SGF) and give the result", NULL },
	{ "check", cmd_check, "replay an SGF game and report every illegal move", NULL },
	{ "referee", cmd_referee, "rule on an observation log (what the camera saw, what the\n"
	                          "operator said): events as JSON lines, the game as SGF", NULL },
	{ "makelog", cmd_makelog, "turn an SGF game into a clean observation log", NULL },
	{ "bench", bench, "measure the speed of the rules core; with --vision, of the frame\n"
	                  "pipeline on a folder of frames (per-frame percentiles)", NULL },
	{ "detect", VISION(cmd_detect), "find the board and the stones in a photo: the diagram as seen",
	  DETECT_PROGRAM },
	{ "eval", VISION(cmd_eval), "run detect on photos with their true positions and measure it", NULL },
	{ "replay", VISION(cmd_replay), "referee a game from recorded frames (a folder, or raw frames on\n"
	                                "stdin): events as they happen, the SGF and the count", NULL },
	{ "watch", VISION(cmd_watch), "referee a live game from the camera (or raw frames on stdin),\n"
	                              "with a journal that survives a crash, and operator keys", NULL },
	{ "hall", NULL, "the director's page of a hall of boards over MQTT: every board's\n"
	                "moves, rulings and result (goref watch --mqtt publishes them)", HALL_PROGRAM },
	{ "eval-video", VISION(cmd_eval_video), "replay rendered games and compare with their true events", NULL },
	{ "calibrate", VISION(cmd_calibrate), "measure the lens (chessboard photos) or the board's place\n"
	                                      "and the players' side: written into the settings file", NULL },
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
	fputs("usage: goref COMMAND [OPTIONS] ...\n"
	      "\n"
	      "A referee for Go under the Chinese rules.\n"
	      "\n"
	      "Commands:\n", f);
	for (int i = 0; i < NCOMMANDS; i++) {
		fprintf(f, "  %-11s ", commands[i].name);
		for (const char *p = commands[i].help; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fputs("              ", f);
		}
		fputc('\n', f);
	}
	fputs("\n"
	      "Run 'goref COMMAND --help' for the options of a command.\n"
	      "Exit status: 0 success, 1 something was found (an illegal move, no board),\n"
	      "2 an input could not be read, 64 a usage error.\n", f);
}

/* Runs prog (from goref's own folder, else from PATH) with argv. Returns
 * only when it could not be run. */
static int run_program(const char *prog, char **argv)
{
#ifndef GOREF_VISION_PROGRAM
	if (!strcmp(prog, VISION_PROGRAM) || !strcmp(prog, DETECT_PROGRAM)) {
		fprintf(stderr, "goref: '%s' needs vision/, and this goref was built without it "
		        "(GOREF_VISION=OFF)\n", argv[1]);
		return EXIT_USAGE;
	}
#endif
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash = NULL;
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
	}
	size_t plen = strlen(prog) + 1;
	if (slash && (size_t)(slash - self) + 1 + plen <= sizeof self) {
		memcpy(slash + 1, prog, plen);
		argv[0] = self;
		execv(self, argv);
		if (errno != ENOENT) {
			fprintf(stderr, "goref: cannot run %s: %s\n", self, strerror(errno));
			return EXIT_INPUT;
		}
	}
	argv[0] = (char *)prog;
	execvp(prog, argv);
	if (!strcmp(prog, HALL_PROGRAM))
		fprintf(stderr, "goref: 'hall' needs %s, which could not be run (%s): it is built with "
		        "libmosquitto-dev and libmicrohttpd-dev\n", prog, strerror(errno));
	else
		fprintf(stderr, "goref: '%s' needs %s (the commands with vision), which could not be run: %s\n",
		        argv[1], prog, strerror(errno));
	return EXIT_INPUT;
}

int main(int argc, char **argv)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(GOREF_HAVE_VISION)
	/* Frames are a few megabytes each, allocated and freed every frame:
	 * keep them in the heap and do not give the pages back between frames
	 * (otherwise the kernel zeroes fresh pages for every frame). */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	/* watch and replay stop cleanly on SIGTERM and SIGINT from the start
	 * (issue 17): goref blocks both before it runs goref-vision, so that a
	 * signal in between waits, pending, through the exec; goref-vision puts
	 * its handler in (stop.h) and only then lets them through. Every other
	 * command gets them unblocked, as they came. */
	sigset_t stop_sigs;
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	bool stoppable = !strcmp(cmd, "watch") || !strcmp(cmd, "replay");
#ifdef GOREF_HAVE_VISION
	if (stoppable)
		gd_stop_on_signals();
	sigprocmask(SIG_UNBLOCK, &stop_sigs, NULL);
#else
	if (stoppable)
		sigprocmask(SIG_BLOCK, &stop_sigs, NULL);
#endif
	all_argv = argv;
	if (cli_is_help(cmd) || !strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		puts("goref 0.1");
		return EXIT_OK;
	}
	for (int i = 0; i < NCOMMANDS; i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		if (commands[i].run)
			return commands[i].run(argc - 1, argv + 1);
		return run_program(commands[i].prog ? commands[i].prog : VISION_PROGRAM, argv);
	}
	fprintf(stderr, "goref: unknown command '");
	cli_put_clean(stderr, cmd);
	fprintf(stderr, "'\n\n");
	usage(stderr);
	return EXIT_USAGE;
}
