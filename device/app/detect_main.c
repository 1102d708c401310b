/*
 * goref-detect: `goref detect` as its own program (issue 14). A photo needs
 * only vision/ (OpenCV's core and imgproc, libturbojpeg, libpng): not the
 * camera, the web page, the broker or the lens calibration that
 * goref-vision links, so it starts in about half goref-vision's time.
 * goref runs it from its own folder with the same arguments:
 * goref-detect detect [OPTIONS] PHOTO.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "detect"))
		return cmd_detect(argc - 1, argv + 1);
	fputs("usage: goref-detect detect [OPTIONS] PHOTO   (run as 'goref detect'; 'goref detect --help' for the "
	      "options)\n", stderr);
	return EXIT_USAGE;
}
