/* goref detect: the board and its stones in one photo. Built into
 * goref-detect (detect_main.c: the one vision command that needs neither
 * calib3d nor a camera, so it loads the fewest libraries) and goref-vision. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_vision.h"
#include "cvwrap.h"
#include "detect.h"
#include "geom.h"
#include "imgio.h"
#include "png.h"
#include "tuning.h"
#include "undistort.h"

static const char detect_usage[] =
	"usage: goref detect [--json] [--overlay OUT.png] [--size N] [--camera ...]\n"
	"                    [--corners X1,Y1,...,X4,Y4] IMAGE\n"
	"\n"
	"Finds the board in a photo (no clicks) and what stands on every point,\n"
	"and prints the diagram as seen: the first line is the board edge nearest\n"
	"the top of the photo, the first column the edge nearest its left\n"
	"(. empty, X black, O white, ? not seen). A single photo gives no\n"
	"point as not seen yet: a point under a hand or a sleeve is read as\n"
	"what it looks like (often a white stone), with the confidence it\n"
	"earns; the video pipeline (replay, watch) holds such points as last\n"
	"seen until the hand has gone.\n"
	"\n"
	"  --size N         lines of the board: 9, 13 or 19 (default 19)\n"
	"  --json           one JSON object: corners (four image points in pixels,\n"
	"                   clockwise from the top-left), diagram (the lines),\n"
	"                   confidence (per point, rows as in the diagram),\n"
	"                   unknown (the [column, row] of every point not seen:\n"
	"                   none from a single photo yet)\n"
	"  --overlay OUT    writes the photo with the grid found and the stones\n"
	"                   read drawn on it, as PNG (grid green, black stones\n"
	"                   blue rings, white stones red rings, a yellow dot where\n"
	"                   the confidence is below 0.5, a yellow disc at row 0\n"
	"                   column 0), at the size the photo was read at\n"
	"  --camera FX,FY,CX,CY,K1,K2,P1,P2[,K3]\n"
	"                   the camera's calibration (OpenCV's pinhole model and\n"
	"                   distortion coefficients): the photo is undistorted\n"
	"                   first, and the corners refer to the undistorted photo\n"
	"  --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4\n"
	"                   the grid's four corner intersections in pixels,\n"
	"                   clicked by a person, clockwise from the top-left: the\n"
	"                   board is not searched for (for a board the locator\n"
	"                   cannot find); each corner is moved, within 0.7 cell,\n"
	"                   to where the grid lines between empty points show\n"
	"                   most (kept as clicked where they do not show\n"
	"                   better, or where the same search from a twentieth\n"
	"                   of a cell aside lands elsewhere), then the board\n"
	"                   is read\n"
	"\n"
	"A JPEG of about 3200 pixels or more on its longer side is decoded shrunk,\n"
	"at 1/2, 1/4 or 1/8, to no less than 1600; corners, given and printed, are\n"
	"in the photo's own pixels.\n"
	"\n"
	"Exit status: 0 a board was found, 1 no board was found, 2 the image\n"
	"cannot be read, 64 a usage error.\n";

/* The photo with the grid and the stones drawn on it. */
static int write_overlay(const char *path, const gv_image *photo, const gv_detection *d, char *err, size_t cap)
{
	gv_image img;
	int rc = gv_image_alloc(&img, photo->width, photo->height, 3);
	if (rc) {
		snprintf(err, cap, "out of memory");
		return rc;
	}
	for (int y = 0; y < photo->height; y++)
		memcpy(gv_px(&img, 0, y), gv_px(photo, 0, y), (size_t)photo->width * 3);
	int N = d->size;
	int thick = photo->width > 1200 ? 3 : 2;
	const unsigned char green[3] = {0, 230, 0}, red[3] = {255, 40, 40}, blue[3] = {40, 120, 255},
	                    yellow[3] = {255, 230, 0};
	for (int k = 0; k < N && !rc; k++) {
		double x0, y0, x1, y1;
		gv_h_apply(d->H, k, 0, &x0, &y0);
		gv_h_apply(d->H, k, N - 1, &x1, &y1);
		rc = gv_cv_line(&img, x0, y0, x1, y1, green, k == 0 || k == N - 1 ? thick + 1 : thick, err, cap);
		gv_h_apply(d->H, 0, k, &x0, &y0);
		gv_h_apply(d->H, N - 1, k, &x1, &y1);
		if (!rc)
			rc = gv_cv_line(&img, x0, y0, x1, y1, green, k == 0 || k == N - 1 ? thick + 1 : thick, err,
			                cap);
	}
	/* the top-left corner (row 0, column 0) */
	if (!rc)
		rc = gv_cv_circle(&img, d->corners[0], d->corners[1], 4 * thick, yellow, -1, err, cap);
	for (int j = 0; j < N && !rc; j++)
		for (int i = 0; i < N && !rc; i++) {
			double x, y, xn, yn;
			gv_h_apply(d->H, i, j, &x, &y);
			gv_h_apply(d->H, i + (i + 1 < N ? 1 : -1), j, &xn, &yn);
			double r = 0.42 * hypot(xn - x, yn - y);
			unsigned char c = d->cells[j * N + i];
			if (c == GR_BLACK)
				rc = gv_cv_circle(&img, x, y, r, blue, thick + 1, err, cap);
			else if (c == GR_WHITE)
				rc = gv_cv_circle(&img, x, y, r, red, thick + 1, err, cap);
			if (!rc && d->conf[j * N + i] < 0.5f)
				rc = gv_cv_circle(&img, x, y, r * 0.35, yellow, -1, err, cap);
		}
	if (!rc)
		rc = gv_png_write(path, &img, err, cap);
	gv_image_free(&img);
	return rc;
}

/* FX,FY,CX,CY,K1,K2,P1,P2[,K3] */
static bool parse_camera(const char *s, double K[9], double dist[5], int *ndist)
{
	double v[9];
	int n = 0;
	const char *p = s;
	while (p && *p && n < 9) {
		char *end;
		v[n] = strtod(p, &end);
		if (end == p || !isfinite(v[n]))
			return false;
		n++;
		if (*end == ',')
			p = end + 1;
		else if (*end == '\0')
			p = end;
		else
			return false;
	}
	if ((n != 8 && n != 9) || (p && *p) || v[0] <= 0 || v[1] <= 0)
		return false;
	double k[9] = {v[0], 0, v[2], 0, v[1], v[3], 0, 0, 1};
	memcpy(K, k, sizeof k);
	for (int i = 0; i < 5; i++)
		dist[i] = i + 4 < n ? v[i + 4] : 0;
	*ndist = 5;
	return true;
}

int cmd_detect(int argc, char **argv)
{
	double K[9], dist[5], corners[8];
	bool has_corners = false;
	int ndist = 0;
	bool calibrated = false;
	bool json = false;
	int size = 19;
	const char *path = NULL, *overlay = NULL;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(detect_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--size")) {
			if (!cli_parse_int("--size", i + 1 < argc ? argv[++i] : NULL, 9, 19, &size))
				return EXIT_USAGE;
			if (size != 9 && size != 13 && size != 19) {
				fprintf(stderr, "goref detect: --size must be 9, 13 or 19\n");
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--camera")) {
			if (i + 1 >= argc || !parse_camera(argv[++i], K, dist, &ndist)) {
				fprintf(stderr, "goref detect: --camera needs FX,FY,CX,CY,K1,K2,P1,P2[,K3] (8 or 9 numbers)\n");
				return EXIT_USAGE;
			}
			calibrated = true;
		} else if (!strcmp(argv[i], "--corners")) {
			if (!cli_parse_corners("--corners", i + 1 < argc ? argv[++i] : NULL, corners))
				return EXIT_USAGE;
			has_corners = true;
		} else if (!strcmp(argv[i], "--overlay")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "goref detect: --overlay needs a file name\n\n%s", detect_usage);
				return EXIT_USAGE;
			}
			overlay = argv[++i];
		} else if (!cli_positional("detect", detect_usage, "IMAGE", argv[i], &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("detect", detect_usage, "IMAGE", path))
		return EXIT_USAGE;
	char err[300];
	gv_image img;
	/* a large JPEG decoded at a DCT scale down to the locator's working
	 * size, and any photo at most GV_WORK_SIDE a side (never read whole):
	 * the corners and the camera given, and the corners found, are in the
	 * photo's own pixels, scaled here */
	int fw = 0, fh = 0;
	int rc = gv_imread_work(&img, path, GV_READ_MIN_PX, GV_WORK_SIDE, &fw, &fh, err, sizeof err);
	if (rc) {
		fprintf(stderr, "goref detect: cannot read the image %s\n", err);
		return EXIT_INPUT;
	}
	double scale = fw > img.width ? (double)img.width / fw : 1;
	for (int k = 0; has_corners && k < 8; k++)
		corners[k] = cli_to_read(corners[k], scale);
	if (calibrated) {
		K[0] *= scale;
		K[2] = cli_to_read(K[2], scale);
		K[4] *= scale;
		K[5] = cli_to_read(K[5], scale);
	}
	gv_detection d;
	gv_detect_opts o = {.size = size};
	cli_locate_trace(&o);
	if (calibrated) {
		o.K = K;
		o.dist = dist;
		o.ndist = ndist;
	}
	if (has_corners)
		o.corners = corners;
	rc = gv_detect(&d, &img, &o, err, sizeof err);
	if (rc) {
		gv_image_free(&img);
		if (rc == GV_EINVAL && has_corners) {
			fprintf(stderr, "goref detect: --corners: %s\n", err);
			return EXIT_USAGE;
		}
		fprintf(stderr, "goref detect: %s: %s\n", path, err);
		return rc == GV_ENOTFOUND ? EXIT_FOUND : EXIT_INPUT;
	}
	if (overlay) {
		gv_image und = {0};
		rc = calibrated ? gv_undistort(&img, K, dist, ndist, &und, err, sizeof err) : 0;
		if (!rc)
			rc = write_overlay(overlay, calibrated ? &und : &img, &d, err, sizeof err);
		gv_image_free(&und);
		if (rc) {
			fprintf(stderr, "goref detect: cannot write the overlay: %s\n", err);
			gv_image_free(&img);
			return EXIT_INPUT;
		}
	}
	gv_image_free(&img);
	for (int k = 0; k < 8; k++)
		d.corners[k] = cli_from_read(d.corners[k], scale);
	int N = d.size;
	if (json) {
		printf("{\"image\":");
		cli_json_string(stdout, path);
		printf(",\"size\":%d,\"corners\":[", N);
		for (int k = 0; k < 4; k++)
			printf("%s[%.2f,%.2f]", k ? "," : "", d.corners[2 * k], d.corners[2 * k + 1]);
		printf("],\"diagram\":[");
		for (int j = 0; j < N; j++) {
			printf("%s\"", j ? "," : "");
			for (int i = 0; i < N; i++)
				putchar(cli_cell_char(d.cells[j * N + i]));
			putchar('"');
		}
		printf("],\"confidence\":[");
		for (int j = 0; j < N; j++) {
			printf("%s[", j ? "," : "");
			for (int i = 0; i < N; i++)
				printf("%s%.3f", i ? "," : "", d.conf[j * N + i]);
			putchar(']');
		}
		printf("],\"unknown\":[");
		for (int k = 0, nu = 0; k < N * N; k++)
			if (d.cells[k] == GV_UNKNOWN)
				printf("%s[%d,%d]", nu++ ? "," : "", k % N, k / N);
		printf("]}\n");
	} else {
		for (int j = 0; j < N; j++) {
			for (int i = 0; i < N; i++)
				putchar(cli_cell_char(d.cells[j * N + i]));
			putchar('\n');
		}
	}
	return EXIT_OK;
}
