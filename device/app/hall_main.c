/*
 * goref-hall: `goref hall`, the director's page of a hall of boards over
 * MQTT, as its own program. It needs libmosquitto and libmicrohttpd but
 * neither OpenCV nor a camera, so a director's machine runs it without the
 * vision's libraries; goref (and goref-vision) run it from their own folder
 * with the same arguments: goref-hall hall [OPTIONS].
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "hall"))
		return cmd_hall(argc - 1, argv + 1);
	fputs("usage: goref-hall hall [OPTIONS]   (run as 'goref hall'; 'goref hall --help' for the options)\n",
	      stderr);
	return EXIT_USAGE;
}
