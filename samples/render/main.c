/*
 * goref-render: renders a Go game (SGF) as the frames a camera above a real
 * board would take, with hands, and writes what really happened beside them
 * (truth.jsonl, the ideal observation log truth.log), for testing the frame
 * pipeline and the referee end to end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "render.h"
#include "sgf.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: goref-render [options] GAME.sgf OUTDIR\n"
	        "Renders the game as camera frames of a wooden board with hands placing\n"
	        "and lifting stones, deterministic for a seed. Writes into OUTDIR (made if\n"
	        "missing): 000000.jpg ... (frames), times.txt (NAME SECONDS a line),\n"
	        "truth.jsonl (the true moves and violations), truth.log (the ideal\n"
	        "observation log for 'goref referee'), game.sgf (the moves rendered).\n"
	        "\n"
	        "options:\n"
	        "  --seed N           random seed (default 1)\n"
	        "  --fps F            frames a second (default 10)\n"
	        "  --width W          frame width in pixels (default 1280)\n"
	        "  --height H         frame height in pixels (default 720)\n"
	        "  --moves N          render only the first N moves (default all)\n"
	        "  --format F         frame format: jpg (default, quality 90), png, or\n"
	        "                     rgb24: every frame raw in one file frames.rgb (no\n"
	        "                     times.txt: frame i is at i / fps), as a camera\n"
	        "                     pipe gives them to 'goref replay -'\n"
	        "  --quality Q        JPEG quality 1..100 (default 90)\n"
	        "  --no-hands         stones just appear, no hand\n"
	        "  --noise S          Gaussian sensor noise sigma in grey levels (default 3)\n"
	        "  --tilt DEG         camera tilt from vertical, 0..65 (default random\n"
	        "                     5..20)\n"
	        "  --distortion K1    radial lens distortion (default random -0.04..0.01)\n"
	        "  --light            slowly changing light and a moving shadow band\n"
	        "  --no-light         steady light (the default)\n"
	        "  --tint R,G,B       a coloured light: each channel's gain, 0..2\n"
	        "                     (e.g. 0.55,0.15,1 violet; default white)\n"
	        "  --board-lines L    the game is played in an area of a larger board\n"
	        "                     of L lines (e.g. a 9x9 game on a 19x19 board)\n"
	        "  --paper            white paper over the board outside the game's area\n"
	        "                     (with --board-lines: only the area's lines show)\n"
	        "  --stone-height MM  the stones' height above the board (0..15; default\n"
	        "                     0: flat discs); a stone is drawn as half an\n"
	        "                     ellipsoid, its top seen off its point from a\n"
	        "                     slanted camera (Yunzi stones stand about 7 mm)\n"
	        "  --board-thickness MM\n"
	        "                     the board's thickness (0..250; default 0): its\n"
	        "                     sides show beside its top from a slanted camera\n"
	        "                     (table boards 10-60 mm, a floor board 100-200)\n"
	        "  --zoom Z           the board drawn Z times larger than framed (0.5..2;\n"
	        "                     default 1: within 85%% of the height and 92%% of the\n"
	        "                     width; more: its edges may leave the picture)\n"
	        "  --clutter          on the table: two bowls of stones with their lids\n"
	        "                     beside the board, loose stones near its edges\n"
	        "  --floor            the board on a floor of pale planks, as bright as\n"
	        "                     the board, with dark seams (default: a dark table)\n"
	        "  --bamboo           a board of laminated bamboo: strips 15-30 mm wide\n"
	        "                     along one family of lines, dark glue seams between\n"
	        "                     them, nodes across them (default: grained wood)\n"
	        "  --drift PX         a wobbling camera: the picture shifts by up to PX\n"
	        "                     pixels, to a new place every 1-3 s (default 0)\n"
	        "  --inject LIST      violations: KIND@MOVE,... after that move; KIND is\n"
	        "                     double_move, missed_capture, wrong_removal, takeback,\n"
	        "                     moved_stone or disturbed\n"
	        "  --violations N     N random violations where they fit\n"
	        "  --bump MOVE        the board is bumped (shifted, turned 1-2 degrees)\n"
	        "                     while the hand of that move leaves, and stays so\n"
	        "  --last-only        draw and write only the last frame (the game's\n"
	        "                     final position as a photo: the same picture as\n"
	        "                     without it, in a fraction of the time)\n"
	        "  --quiet            no progress on stderr\n"
	        "  --help             this text\n");
}

static int parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "goref-render: %s: '%s' is not a number in %g..%g\n", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int mkdirs(const char *dir)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", dir);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	struct stat st;
	if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(buf, W_OK) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	rr_options o;
	memset(&o, 0, sizeof o);
	o.scene.width = 1280;
	o.scene.height = 720;
	o.scene.noise = 3;
	o.fps = 10;
	o.hands = true;
	o.quality = 90;
	double seed = 1, moves = -1, tilt = -1, k1 = 1e9, bump = 0, violations = 0;
	const char *inject = NULL, *pos[2] = {NULL, NULL};
	int npos = 0;
	/* the options that take one number each, its range and where it goes */
	const struct {
		const char *name;
		double lo, hi, *to;
	} nums[] = {
	    {"--seed", 0, 1e15, &seed},
	    {"--fps", 1, 120, &o.fps},
	    {"--moves", 0, 100000, &moves},
	    {"--noise", 0, 50, &o.scene.noise},
	    {"--tilt", 0, 65, &tilt},
	    {"--distortion", -0.3, 0.3, &k1},
	    {"--stone-height", 0, 15, &o.scene.stone_h},
	    {"--board-thickness", 0, 250, &o.scene.board_t},
	    {"--zoom", 0.5, 2, &o.scene.zoom},
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		double v;
		size_t n = 0;
		while (n < sizeof nums / sizeof nums[0] && strcmp(a, nums[n].name))
			n++;
#define NEEDARG()                                                                                                     \
	do {                                                                                                              \
		if (i + 1 >= argc) {                                                                                          \
			fprintf(stderr, "goref-render: %s needs a value\n", a);                                                   \
			return 2;                                                                                                 \
		}                                                                                                             \
	} while (0)
		if (n < sizeof nums / sizeof nums[0]) {
			NEEDARG();
			if (parse_num(a, argv[++i], nums[n].lo, nums[n].hi, nums[n].to))
				return 2;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--width") || !strcmp(a, "--height")) {
			NEEDARG();
			if (parse_num(a, argv[++i], 64, 8192, &v))
				return 2;
			if (a[2] == 'w')
				o.scene.width = (int)v;
			else
				o.scene.height = (int)v;
		} else if (!strcmp(a, "--format")) {
			NEEDARG();
			const char *f = argv[++i];
			if (!strcmp(f, "png"))
				o.png = true;
			else if (!strcmp(f, "rgb24"))
				o.raw = true;
			else if (!strcmp(f, "jpg") || !strcmp(f, "jpeg"))
				o.png = false;
			else {
				fprintf(stderr, "goref-render: --format: '%s' is not jpg, png or rgb24\n", f);
				return 2;
			}
		} else if (!strcmp(a, "--quality")) {
			NEEDARG();
			if (parse_num(a, argv[++i], 1, 100, &v))
				return 2;
			o.quality = (int)v;
		} else if (!strcmp(a, "--no-hands")) {
			o.hands = false;
		} else if (!strcmp(a, "--light")) {
			o.scene.light = true;
		} else if (!strcmp(a, "--no-light")) {
			o.scene.light = false;
		} else if (!strcmp(a, "--tint")) {
			NEEDARG();
			const char *v = argv[++i];
			double *t = o.scene.tint;
			int used = 0;
			if (sscanf(v, "%lf,%lf,%lf%n", &t[0], &t[1], &t[2], &used) != 3 || v[used] || !(t[0] >= 0 && t[0] <= 2) ||
			    !(t[1] >= 0 && t[1] <= 2) || !(t[2] >= 0 && t[2] <= 2)) {
				fprintf(stderr, "goref-render: --tint: '%s' is not three gains R,G,B in 0..2\n", v);
				return 2;
			}
		} else if (!strcmp(a, "--board-lines")) {
			NEEDARG();
			double v;
			if (parse_num(a, argv[++i], 2, 19, &v))
				return 2;
			o.scene.board_lines = (int)v;
		} else if (!strcmp(a, "--paper")) {
			o.scene.paper = true;
		} else if (!strcmp(a, "--clutter")) {
			o.scene.clutter = true;
		} else if (!strcmp(a, "--floor")) {
			o.scene.floor = true;
		} else if (!strcmp(a, "--bamboo")) {
			o.scene.bamboo = true;
		} else if (!strcmp(a, "--last-only")) {
			o.last_only = true;
		} else if (!strcmp(a, "--drift")) {
			NEEDARG();
			if (parse_num(a, argv[++i], 0, 100, &o.drift))
				return 2;
		} else if (!strcmp(a, "--inject")) {
			NEEDARG();
			inject = argv[++i];
		} else if (!strcmp(a, "--violations")) {
			NEEDARG();
			if (parse_num(a, argv[++i], 0, 60, &violations))
				return 2;
		} else if (!strcmp(a, "--bump")) {
			NEEDARG();
			if (parse_num(a, argv[++i], 1, 100000, &bump))
				return 2;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o.quiet = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "goref-render: unknown option '%s' (see --help)\n", a);
			return 2;
		} else {
			if (npos == 2) {
				fprintf(stderr, "goref-render: too many arguments: '%s' (see --help)\n", a);
				return 2;
			}
			pos[npos++] = a;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "goref-render: needs GAME.sgf and OUTDIR (see --help)\n");
		return 2;
	}
	if (inject && violations > 0) {
		fprintf(stderr, "goref-render: --inject and --violations do not go together\n");
		return 2;
	}
	o.outdir = pos[1];
	o.scene.seed = (uint64_t)seed;

	/* the game */
	FILE *f = fopen(pos[0], "rb");
	if (!f) {
		fprintf(stderr, "goref-render: cannot read %s: %s\n", pos[0], strerror(errno));
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	for (size_t got; text && (got = fread(text + len, 1, cap - len, f)) > 0;) {
		len += got;
		if (len == cap) {
			char *t2 = realloc(text, cap *= 2);
			if (!t2) {
				free(text);
				text = NULL;
			} else
				text = t2;
		}
	}
	bool rerr = ferror(f);
	fclose(f);
	if (!text || rerr) {
		fprintf(stderr, "goref-render: cannot read %s\n", pos[0]);
		free(text);
		return 1;
	}
	gr_record *rec = NULL;
	gr_error gerr;
	memset(&gerr, 0, sizeof gerr);
	int rc = gr_sgf_read(&rec, text, len, &gerr);
	free(text);
	if (rc != 0) {
		fprintf(stderr, "goref-render: %s:%d:%d: %s\n", pos[0], gerr.line, gerr.column, gerr.message);
		return 1;
	}
	int size = gr_record_size(rec);
	int total = gr_record_move_count(rec);
	int nmoves = moves < 0 || moves > total ? total : (int)moves;

	/* the camera: the seed's unless given */
	rs_rng g = {rs_hash(o.scene.seed, 0xca3e7a)};
	o.scene.size = size;
	o.scene.tilt_deg = tilt >= 0 ? tilt : rs_uniform(&g, 5, 20);
	o.scene.yaw_deg = rs_uniform(&g, -3, 3);
	o.scene.k1 = k1 < 1e8 ? k1 : rs_uniform(&g, -0.04, 0.01);
	o.bump = (int)bump;
	o.bump_deg = rs_uniform(&g, 1, 2) * (rs_int(&g, 2) ? 1 : -1);
	o.bump_dx = rs_uniform(&g, 3, 7) * (rs_int(&g, 2) ? 1 : -1);
	o.bump_dy = rs_uniform(&g, 3, 7) * (rs_int(&g, 2) ? 1 : -1);

	/* the violations */
	rp_inject inj[64];
	int ninj = 0;
	if (inject) {
		char buf[4096];
		snprintf(buf, sizeof buf, "%s", inject);
		for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
			char *at = strchr(tok, '@');
			if (!at || ninj == 64) {
				fprintf(stderr, "goref-render: --inject: '%s' is not KIND@MOVE\n", tok);
				gr_record_free(rec);
				return 2;
			}
			*at = 0;
			int kind = rp_inj_parse(tok);
			char *end;
			long mv = strtol(at + 1, &end, 10);
			if (kind < 0 || *end || end == at + 1) {
				fprintf(stderr, "goref-render: --inject: '%s@%s': unknown kind or bad move\n", tok, at + 1);
				gr_record_free(rec);
				return 2;
			}
			inj[ninj].kind = kind;
			inj[ninj].move = (int)mv;
			ninj++;
		}
		for (int i = 1; i < ninj; i++)
			for (int j = i; j > 0 && inj[j - 1].move > inj[j].move; j--) {
				rp_inject t = inj[j];
				inj[j] = inj[j - 1];
				inj[j - 1] = t;
			}
		for (int i = 1; i < ninj; i++)
			if (inj[i].move == inj[i - 1].move) {
				fprintf(stderr, "goref-render: --inject: two violations after move %d\n", inj[i].move);
				gr_record_free(rec);
				return 2;
			}
	} else if (violations > 0) {
		ninj = rp_pick_injections(rec, nmoves, (int)violations, o.bump, o.scene.seed, inj);
		if (ninj < (int)violations && !o.quiet)
			fprintf(stderr, "goref-render: only %d of %d violations fit this game\n", ninj, (int)violations);
	}
	rp_plan plan;
	char err[512];
	rc = rp_plan_build(&plan, rec, nmoves, inj, ninj, o.bump, o.scene.seed, err, sizeof err);
	if (rc == -2) {
		fprintf(stderr, "goref-render: out of memory\n");
		gr_record_free(rec);
		return 1;
	}
	if (rc != 0 || !rp_plan_verify(&plan, err, sizeof err)) {
		fprintf(stderr, "goref-render: %s\n", err);
		rp_plan_free(&plan);
		gr_record_free(rec);
		return 1;
	}
	if (mkdirs(o.outdir) != 0) {
		fprintf(stderr, "goref-render: cannot write into %s: %s\n", o.outdir, strerror(errno));
		rp_plan_free(&plan);
		gr_record_free(rec);
		return 1;
	}
	rc = rr_render(&o, rec, &plan);
	rp_plan_free(&plan);
	gr_record_free(rec);
	return rc;
}
