/* goref calibrate: the lens (chessboard photos) and the board (where the
 * grid is, which way the players sit), written into the settings file.
 * Built only with vision/ (GOREF_HAVE_VISION); without it the file is empty
 * and goref.c does not dispatch the command. */
#ifdef GOREF_HAVE_VISION
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calib_board.h"
#include "cli.h"
#include "cvwrap.h"
#include "imgio.h"
#include "lens.h"
#include "settings.h"

#define DEFAULT_SETTINGS "goref.conf"

static const char calibrate_usage[] =
	"usage: goref calibrate lens [--pattern CxR] [--square MM] [--k3] [--out FILE] IMAGE...\n"
	"       goref calibrate board [--settings FILE] [--board N] [--rotate DEG]\n"
	"                             [--corners X1,Y1,...,X4,Y4] [--snapshot OUT.png] IMAGE\n"
	"\n"
	"Writes what it measures into the settings file that goref watch reads\n"
	"(default " DEFAULT_SETTINGS "; made with every setting and its comment when\n"
	"missing, else only the lines it measures change).\n"
	"\n"
	"lens: photos of a printed chessboard taken with the camera at its working\n"
	"size (a dozen: near the middle and every corner and edge of the view,\n"
	"straight and tilted) give the camera matrix and the lens distortion\n"
	"(OpenCV's model), written as camera and distortion. Prints the RMS\n"
	"reprojection error (under 0.5 pixel is good).\n"
	"  --pattern CxR    inner corners across and down (default 9x6: a board of\n"
	"                   10 by 7 squares)\n"
	"  --square MM      a square's side (default 25; the lens does not depend on it)\n"
	"  --k3             fit the third radial term too (wide-angle lenses)\n"
	"  --out FILE       the settings file to update\n"
	"\n"
	"board: finds the grid in a photo or a saved frame of the camera's view\n"
	"(after undoing the lens when the settings have it), writes corners,\n"
	"rotate and board, and draws the grid, the players' A1 (a red disc: Black's\n"
	"lower left) and the coordinates on a snapshot to check by eye.\n"
	"  --settings FILE  the settings file to read and update\n"
	"  --board N        9, 13 or 19 (default: the settings' board)\n"
	"  --rotate DEG     clockwise turns from the camera's view to the players':\n"
	"                   0 when Black sits at the bottom of the image, 90 on its\n"
	"                   right, 180 at its top, 270 on its left (default: the\n"
	"                   settings' rotate)\n"
	"  --corners X1,Y1,X2,Y2,X3,Y3,X4,Y4\n"
	"                   the grid's four corner intersections in pixels,\n"
	"                   clockwise from the top-left, clicked by a person: not\n"
	"                   searched for, only checked and written (for a board the\n"
	"                   locator cannot find)\n"
	"  --snapshot OUT   the snapshot, PNG or JPEG by its extension (default\n"
	"                   goref-board.png beside the settings file)\n"
	"\n"
	"Exit status: 0 written, 1 no pattern or no board found, 2 a file cannot\n"
	"be read or written, 64 a usage error.\n";

/* A photo of the camera's frames: read shrunk when over GV_WORK_SIDE (no
 * full-size buffer), then refused, since no frame is larger
 * (GD_MAX_FRAME_SIDE) and lens values or corners in shrunk pixels would be
 * wrong for them. */
static int read_frame_photo(gv_image *img, const char *path, char *err, size_t cap)
{
	int fw = 0, fh = 0;
	int rc = gv_imread_max_size(img, path, GV_WORK_SIDE, &fw, &fh, err, cap);
	if (rc == 0 && (fw > GV_WORK_SIDE || fh > GV_WORK_SIDE)) {
		gv_image_free(img);
		snprintf(err, cap, "%s: %dx%d, over the largest frame goref takes (%d a side)", path, fw, fh,
		         GV_WORK_SIDE);
		return GV_EREAD;
	}
	return rc;
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("goref calibrate: ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", calibrate_usage);
	return EXIT_USAGE;
}

/* The settings file: its text (NULL when it does not exist yet) and values. */
typedef struct settings_file {
	const char *path;
	char *text;
	size_t len;
	gc_settings s;
} settings_file;

static int load_settings(settings_file *f, const char *path)
{
	f->path = path;
	f->text = NULL;
	f->len = 0;
	gc_settings_init(&f->s);
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0;
	f->text = cli_read_file(path, &f->len);
	if (!f->text)
		return EXIT_INPUT;
	gr_error err = {0};
	if (gc_settings_parse(&f->s, f->text, f->len, &err)) {
		fprintf(stderr, "goref calibrate: ");
		cli_put_clean(stderr, path);
		if (err.line > 0)
			fprintf(stderr, ": line %d", err.line);
		fputs(": ", stderr);
		cli_put_clean(stderr, err.message);
		fputc('\n', stderr);
		free(f->text);
		f->text = NULL;
		return EXIT_INPUT;
	}
	return 0;
}

/* Writes the keys named (or the whole file when it did not exist), through
 * PATH.tmp and a rename. */
static int save_settings(const settings_file *f, const char *const *keys, int nkeys)
{
	size_t n = f->text ? gc_settings_update(f->text, f->len, &f->s, keys, nkeys, NULL, 0)
	                   : gc_settings_write(&f->s, NULL, 0);
	char *buf = n ? malloc(n + 1) : NULL;
	if (!buf) {
		fprintf(stderr, "goref calibrate: %s: %s\n", f->path,
		        n ? "out of memory" : "a path in the settings cannot be written back");
		return EXIT_INPUT;
	}
	if (f->text)
		gc_settings_update(f->text, f->len, &f->s, keys, nkeys, buf, n + 1);
	else
		gc_settings_write(&f->s, buf, n + 1);
	int rc = cli_write_file(f->path, buf, n, "\n");
	free(buf);
	return rc;
}

static double round_sig(double x, int digits)
{
	char b[64];
	snprintf(b, sizeof b, "%.*g", digits, x);
	return strtod(b, NULL);
}

static int calibrate_lens(int argc, char **argv)
{
	gc_lens_opts lo = {.cols = 9, .rows = 6, .square = 25};
	const char *out = DEFAULT_SETTINGS;
	int nimages = 0;
	char **images = calloc((size_t)argc + 1, sizeof *images);
	if (!images)
		return EXIT_INPUT;
	int rc = 0;
	for (int i = 1; i < argc && !rc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(calibrate_usage, stdout);
			free(images);
			return EXIT_OK;
		} else if (!strcmp(a, "--pattern")) {
			const char *v = i + 1 < argc ? argv[++i] : "";
			char x;
			int c = 0, r = 0, used = 0;
			if (sscanf(v, "%d%c%d%n", &c, &x, &r, &used) != 3 || (x != 'x' && x != 'X') || v[used] ||
			    c < 2 || r < 2 || c > 100 || r > 100)
				rc = usage_error("--pattern needs inner corners across and down such as 9x6, not '%s'", v);
			lo.cols = c;
			lo.rows = r;
		} else if (!strcmp(a, "--square")) {
			if (!cli_parse_double("--square", i + 1 < argc ? argv[++i] : NULL, 0.01, 10000, &lo.square))
				rc = EXIT_USAGE;
		} else if (!strcmp(a, "--k3")) {
			lo.k3 = true;
		} else if (!strcmp(a, "--out")) {
			if (i + 1 >= argc)
				rc = usage_error("%s needs a file name", a);
			else
				out = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			rc = usage_error("unknown option '%s'", a);
		} else {
			images[nimages++] = argv[i];
		}
	}
	if (!rc && nimages == 0)
		rc = usage_error("%s", "lens needs the chessboard photos (IMAGE...)");
	settings_file f = {0};
	if (!rc)
		rc = load_settings(&f, out);
	gc_lens_views *v = NULL;
	if (!rc && gc_lens_views_new(&v, &lo)) {
		fprintf(stderr, "goref calibrate: out of memory\n");
		rc = EXIT_INPUT;
	}
	char err[300];
	char **missing = calloc((size_t)nimages + 1, sizeof *missing);
	int nmissing = 0;
	if (!missing)
		rc = EXIT_INPUT;
	for (int k = 0; k < nimages && !rc; k++) {
		gv_image img;
		if (read_frame_photo(&img, images[k], err, sizeof err)) {
			fprintf(stderr, "goref calibrate: cannot read the image %s\n", err);
			rc = EXIT_INPUT;
			break;
		}
		int found = gc_lens_add(v, &img, err, sizeof err);
		gv_image_free(&img);
		if (found < 0) {
			fprintf(stderr, "goref calibrate: %s: %s\n", images[k], err);
			rc = EXIT_INPUT;
			break;
		}
		printf("%s: %s\n", images[k], found ? "pattern found" : "no pattern found");
		if (!found)
			missing[nmissing++] = images[k];
	}
	gc_lens lens;
	if (!rc && gc_lens_solve(v, &lens, err, sizeof err)) {
		fprintf(stderr, "goref calibrate: %s\n", err);
		if (nmissing) {
			fprintf(stderr, "goref calibrate: no %dx%d pattern in:", lo.cols, lo.rows);
			for (int k = 0; k < nmissing; k++)
				fprintf(stderr, " %s", missing[k]);
			fprintf(stderr, "\n(the whole pattern must be in view and sharp; --pattern gives its inner corners)\n");
		}
		rc = gc_lens_found(v) < GC_LENS_MIN_VIEWS ? EXIT_FOUND : EXIT_INPUT;
	}
	if (!rc) {
		gc_settings *s = &f.s;
		s->has_camera = true;
		s->camera[0] = round(lens.K[0] * 100) / 100;
		s->camera[1] = round(lens.K[4] * 100) / 100;
		s->camera[2] = round(lens.K[2] * 100) / 100;
		s->camera[3] = round(lens.K[5] * 100) / 100;
		s->ndist = lens.ndist;
		for (int k = 0; k < 5; k++)
			s->dist[k] = k < lens.ndist ? round_sig(lens.dist[k], 6) : 0;
		char cam[200], dist[200];
		gc_settings_format_value(s, "camera", cam, sizeof cam);
		gc_settings_format_value(s, "distortion", dist, sizeof dist);
		printf("photos: %d of %d with the pattern, %dx%d pixels\n", lens.views, gc_lens_count(v), lens.width,
		       lens.height);
		printf("camera = %s\ndistortion = %s\n", cam, dist);
		printf("RMS reprojection error: %.3f pixels (%s)\n", lens.rms,
		       lens.rms < 0.5 ? "good" : lens.rms < 1.0 ? "fair" : "poor: retake blurred or badly lit photos");
		if (s->width && (s->width != lens.width || s->height != lens.height))
			printf("note: %s says frame_size = %dx%d but the photos are %dx%d: the calibration holds only for "
			       "frames of the photos' size\n",
			       out, s->width, s->height, lens.width, lens.height);
		if (s->has_corners)
			printf("note: the corners in %s were found without this lens: run goref calibrate board again\n",
			       out);
		static const char *const keys[] = {"camera", "distortion"};
		rc = save_settings(&f, keys, 2);
		if (!rc)
			printf("wrote camera and distortion to %s\n", out);
	}
	gc_lens_views_free(v);
	free(f.text);
	free(missing);
	free(images);
	return rc;
}

/* The default snapshot: goref-board.png beside the settings file. */
static char *default_snapshot(const char *settings)
{
	const char *slash = strrchr(settings, '/');
	size_t dir = slash ? (size_t)(slash - settings) + 1 : 0;
	const char name[] = "goref-board.png";
	char *p = malloc(dir + sizeof name);
	if (p) {
		memcpy(p, settings, dir);
		memcpy(p + dir, name, sizeof name);
	}
	return p;
}

static int calibrate_board(int argc, char **argv)
{
	const char *settings = DEFAULT_SETTINGS, *snapshot = NULL, *path = NULL;
	int board = 0, rotate = -1;
	double corners[8];
	bool has_corners = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_is_help(a)) {
			fputs(calibrate_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--settings") || !strcmp(a, "--snapshot")) {
			if (i + 1 >= argc)
				return usage_error("%s needs a file name", a);
			if (!strcmp(a, "--settings"))
				settings = argv[++i];
			else
				snapshot = argv[++i];
		} else if (!strcmp(a, "--board")) {
			if (!cli_parse_int("--board", i + 1 < argc ? argv[++i] : NULL, 9, 19, &board))
				return EXIT_USAGE;
			if (board != 9 && board != 13 && board != 19)
				return usage_error("%s must be 9, 13 or 19", "--board");
		} else if (!strcmp(a, "--corners")) {
			if (!cli_parse_corners("--corners", i + 1 < argc ? argv[++i] : NULL, corners))
				return EXIT_USAGE;
			has_corners = true;
		} else if (!strcmp(a, "--rotate")) {
			if (!cli_parse_int("--rotate", i + 1 < argc ? argv[++i] : NULL, 0, 270, &rotate))
				return EXIT_USAGE;
			if (rotate % 90)
				return usage_error("%s takes 0, 90, 180 or 270", "--rotate");
		} else if (!cli_positional("calibrate board", calibrate_usage, "IMAGE", a, &path)) {
			return EXIT_USAGE;
		}
	}
	if (!cli_require("calibrate board", calibrate_usage, "IMAGE", path))
		return EXIT_USAGE;
	settings_file f = {0};
	int rc = load_settings(&f, settings);
	if (rc)
		return rc;
	if (board)
		f.s.board = board;
	if (rotate >= 0)
		f.s.rotate = rotate;
	char err[300];
	gv_image img = {0}, view = {0};
	char *snap = snapshot ? NULL : default_snapshot(settings);
	if (!snapshot)
		snapshot = snap;
	if (!snapshot) {
		rc = EXIT_INPUT;
		goto done;
	}
	if (read_frame_photo(&img, path, err, sizeof err)) {
		fprintf(stderr, "goref calibrate: cannot read the image %s\n", err);
		rc = EXIT_INPUT;
		goto done;
	}
	if (f.s.width && (f.s.width != img.width || f.s.height != img.height))
		printf("note: %s says frame_size = %dx%d but %s is %dx%d: the corners are in the pixels of %s\n",
		       settings, f.s.width, f.s.height, path, img.width, img.height, path);
	gc_board b;
	int frc = gc_board_find(&img, &f.s, has_corners ? corners : NULL, &b, &view, err, sizeof err);
	if (frc) {
		if (frc == GV_EINVAL && has_corners) {
			fprintf(stderr, "goref calibrate: --corners for %s: %s\n", path, err);
			rc = EXIT_USAGE;
		} else {
			fprintf(stderr, "goref calibrate: %s: %s\n", path, err);
			rc = frc == GV_ENOTFOUND ? EXIT_FOUND : EXIT_INPUT;
		}
		goto done;
	}
	gc_board_apply(&b, &f.s);
	if (gc_board_draw(&view, &b, err, sizeof err) || gv_imwrite(snapshot, &view, 0, err, sizeof err)) {
		fprintf(stderr, "goref calibrate: cannot write the snapshot: %s\n", err);
		rc = EXIT_INPUT;
		goto done;
	}
	static const char *const keys[] = {"board", "corners", "rotate"};
	rc = save_settings(&f, keys, 3);
	if (rc)
		goto done;
	char corners_text[200];
	gc_settings_format_value(&f.s, "corners", corners_text, sizeof corners_text);
	if (has_corners)
		printf("board: %dx%d at the corners given, in %s%s\n", b.size, b.size, path,
		       f.s.has_camera && f.s.ndist ? " after undoing the lens" : "");
	else
		printf("board: %dx%d found in %s%s (%.0f%% of its lines seen)\n", b.size, b.size, path,
		       f.s.has_camera && f.s.ndist ? " after undoing the lens" : "", 100 * b.support);
	printf("corners = %s\n", corners_text);
	printf("rotate = %d: the players' A1 (Black's lower left) is the grid's %s corner in the image, at (%.0f, %.0f)\n",
	       b.rotate, gc_corner_name(b.a1), b.corners[2 * b.a1], b.corners[2 * b.a1 + 1]);
	printf("snapshot: %s (the grid in green, A1 a red disc, the coordinates as the players read them)\n", snapshot);
	printf("If A1 is not at Black's lower left, run again with --rotate: 0 when Black sits at the bottom of the\n"
	       "image, 90 on its right, 180 at its top, 270 on its left.\n");
	printf("wrote board, corners and rotate to %s\n", settings);
done:
	gv_image_free(&img);
	gv_image_free(&view);
	free(snap);
	free(f.text);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("%s", "which calibration: lens or board?");
	if (cli_is_help(argv[1])) {
		fputs(calibrate_usage, stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "lens"))
		return calibrate_lens(argc - 1, argv + 1);
	if (!strcmp(argv[1], "board"))
		return calibrate_board(argc - 1, argv + 1);
	return usage_error("unknown calibration '%s' (lens or board)", argv[1]);
}

#else
typedef int goref_cmd_calibrate_unused; /* an empty file is not ISO C */
#endif
