/* goref: a camera referee for the game of Go under the Chinese rules. */
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"

static const char usage[] =
	"usage: goref COMMAND [OPTIONS] ...\n"
	"\n"
	"A referee for Go under the Chinese rules.\n"
	"\n"
	"Commands:\n"
	"  score   count a finished position (diagram or SGF) and give the result\n"
	"  check   replay an SGF game and report every illegal move\n"
	"  referee rule on an observation log (what the camera saw, what the\n"
	"          operator said): events as JSON lines, the game as SGF\n"
	"  makelog turn an SGF game into a clean observation log\n"
	"  bench   measure the speed of the rules core\n"
	"  detect  find the board and the stones in a photo: the diagram as seen\n"
	"  eval    run detect on photos with their true positions and measure it\n"
	"  replay  referee a game from recorded frames (a folder, or raw frames on\n"
	"          stdin): events as they happen, the SGF and the count\n"
	"  watch   referee a live game from the camera (or raw frames on stdin),\n"
	"          with a journal that survives a crash, and operator keys\n"
	"  eval-video  replay rendered games and compare with their true events\n"
	"  calibrate   measure the lens (chessboard photos) or the board's place\n"
	"          and the players' side: written into the settings file\n"
	"\n"
	"Run 'goref COMMAND --help' for the options of a command.\n"
	"Exit status: 0 success, 1 something was found (an illegal move, no board),\n"
	"2 an input could not be read, 64 a usage error.\n";

int main(int argc, char **argv)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/* Frames are a few megabytes each, allocated and freed every frame:
	 * keep them in the heap and do not give the pages back between frames
	 * (otherwise the kernel zeroes fresh pages for every frame). */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (cli_is_help(cmd) || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		puts("goref 0.1");
		return EXIT_OK;
	}
	if (!strcmp(cmd, "score"))
		return cmd_score(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "referee"))
		return cmd_referee(argc - 1, argv + 1);
	if (!strcmp(cmd, "makelog"))
		return cmd_makelog(argc - 1, argv + 1);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(argc - 1, argv + 1);
#ifdef GOREF_HAVE_VISION
	if (!strcmp(cmd, "detect"))
		return cmd_detect(argc - 1, argv + 1);
	if (!strcmp(cmd, "eval"))
		return cmd_eval(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "watch"))
		return cmd_watch(argc - 1, argv + 1);
	if (!strcmp(cmd, "eval-video"))
		return cmd_eval_video(argc - 1, argv + 1);
	if (!strcmp(cmd, "calibrate"))
		return cmd_calibrate(argc - 1, argv + 1);
#endif
	fprintf(stderr, "goref: unknown command '%s'\n\n%s", cmd, usage);
	return EXIT_USAGE;
}
