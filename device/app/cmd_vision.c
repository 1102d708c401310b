/* goref eval: goref detect (cmd_detect.c) over labelled photos, measured.
 * Built only with vision/ (GOREF_HAVE_VISION); without it the file is empty
 * and goref.c does not dispatch the command. */
#ifdef GOREF_HAVE_VISION
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cli_vision.h"
#include "cnn.h"
#include "cvwrap.h"
#include "detect.h"
#include "diagram.h"
#include "geom.h"
#include "imgio.h"
#include "tuning.h"


static const char eval_usage[] =
	"usage: goref eval [--json] [--size N] [--classifier rules|cnn|both]\n"
	"                  [--cnn-weights FILE] [--dump-patches OUT] DIR...\n"
	"\n"
	"Runs detect on every photo (.jpg, .jpeg, .png) under each DIR, searched\n"
	"recursively, that has its true position NAME.txt beside it (N lines of N\n"
	"fields . B W, or a diagram) or in a labels.txt beside it or one folder\n"
	"up (a line \"@ NAME.jpg\", then the diagram: labelled video frames), and\n"
	"reports per photo and in total: points\n"
	"right, boards entirely right, boards found, boards found with more than\n"
	"3 points wrong (found_wrong), and milliseconds per photo\n"
	"(the detection alone, on one core: CPU time of the one thread that runs\n"
	"it; reading the file is not counted).\n"
	"\n"
	"  --size N         lines of every board: 9, 13 or 19 (default: each\n"
	"                   photo's own, the lines of its NAME.txt)\n"
	"  --json           one JSON object: photos (one entry each), sources and\n"
	"                   total\n"
	"  --classifier C   which reads the stones: rules (the hand-made\n"
	"                   classifier), cnn (the learned one), both (default:\n"
	"                   as goref detect, tuning.h's GV_CLASSIFIER)\n"
	"  --cnn-weights F  the learned classifier's weights from F (a model\n"
	"                   written by samples/train_classifier.py) instead of\n"
	"                   the built-in ones\n"
	"  --dump-patches OUT  writes, for every photo and every grid read (the\n"
	"                   locator's when found, the clicked corners'), its\n"
	"                   patches and true colours to OUT (a new folder; the\n"
	"                   training data of samples/train_classifier.sh; format\n"
	"                   in that script)\n"
	"\n"
	"A source is the folder a photo is in, relative to its DIR, with a last\n"
	"folder named skip folded into its parent (imago/t2/skip counts as\n"
	"imago/t2): each source is reported on its own as well as in the total.\n";

/* The photos under a directory, recursively. */
typedef struct list {
	char **v;
	int n, cap;
} list;

static bool has_image_ext(const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot)
		return false;
	const char *exts[] = {".jpg", ".jpeg", ".png", ".JPG", ".JPEG", ".PNG"};
	for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++)
		if (!strcmp(dot, exts[k]))
			return true;
	return false;
}

static int collect(const char *dir, list *l, int depth)
{
	if (depth > 32)
		return 0;
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "goref eval: cannot open the directory %s\n", dir);
		return EXIT_INPUT;
	}
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *p = malloc(n);
		if (!p) {
			rc = EXIT_INPUT;
			break;
		}
		snprintf(p, n, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = collect(p, l, depth + 1);
			free(p);
		} else if (has_image_ext(e->d_name)) {
			if (l->n == l->cap) {
				int nc = l->cap ? 2 * l->cap : 64;
				char **nv = realloc(l->v, sizeof(char *) * (size_t)nc);
				if (!nv) {
					free(p);
					rc = EXIT_INPUT;
					break;
				}
				l->v = nv;
				l->cap = nc;
			}
			l->v[l->n++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* NAME.txt beside NAME.ext; NULL when there is none (static buffer). */
static const char *truth_path(const char *photo)
{
	static char buf[4096];
	const char *dot = strrchr(photo, '.');
	size_t n = (size_t)(dot - photo);
	if (n + 5 > sizeof buf)
		return NULL;
	memcpy(buf, photo, n);
	memcpy(buf + n, ".txt", 5);
	struct stat st;
	return stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? buf : NULL;
}

/* The label of a photo from a labels.txt in its folder or the folder
 * above (the format of ../shared/datasets/video-9x9-table: a line "@ NAME"
 * naming the photo's file, then its diagram, up to the next "@" line).
 * 1 with *text (malloc'ed, *len bytes) and where (the file and the name,
 * for messages); 0 when there is no such file or entry; -1 when the file
 * cannot be read (where names it). */
static int labels_entry(const char *photo, char **text, size_t *len, char *where, size_t cap)
{
	*text = NULL;
	const char *slash = strrchr(photo, '/');
	const char *base = slash ? slash + 1 : photo;
	char dir[4096];
	size_t dl = slash ? (size_t)(slash - photo) : 0;
	if (dl + 1 > sizeof dir)
		return 0;
	memcpy(dir, photo, dl);
	dir[dl] = 0;
	for (int up = 0; up < 2; up++) {
		if (up) {
			/* the folder above: the part before dir's last slash */
			char *ds = strrchr(dir, '/');
			if (!ds || ds == dir)
				break;
			*ds = 0;
		}
		char path[4200];
		snprintf(path, sizeof path, "%s%slabels.txt", dir, dir[0] ? "/" : "");
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t flen;
		char *file = cli_read_file(path, &flen);
		snprintf(where, cap, "%.4000s", path);
		if (!file)
			return -1;
		size_t bl = strlen(base);
		char *at = NULL, *end = NULL;
		for (char *p = file; p < file + flen && !end;) {
			char *eol = memchr(p, '\n', (size_t)(file + flen - p));
			char *e = eol ? eol : file + flen;
			if (*p == '@') {
				if (at) {
					end = p; /* the next entry */
					break;
				}
				const char *name = p + 1;
				while (name < e && (*name == ' ' || *name == '\t'))
					name++;
				const char *ne = e;
				while (ne > name && (ne[-1] == ' ' || ne[-1] == '\t' || ne[-1] == '\r'))
					ne--;
				if ((size_t)(ne - name) == bl && !memcmp(name, base, bl)) {
					at = eol ? eol + 1 : file + flen;
					snprintf(where, cap, "%.3000s (%.1000s)", path, base);
				}
			}
			p = eol ? eol + 1 : file + flen;
		}
		if (!at) {
			free(file);
			return 0;
		}
		*len = (size_t)((end ? end : file + flen) - at);
		memmove(file, at, *len);
		file[*len] = 0;
		*text = file;
		return 1;
	}
	return 0;
}

/* The figures of one source (see eval_usage) or of all photos. */
typedef struct figures {
	int photos, found, boards_right;
	int found_wrong; /* found with more than 3 points wrong (unknown is not wrong) */
	long points, right, unknown;
	long sure, sure_right; /* points read with confidence >= GV_SURE_CONF, and of them right */
	double ms_total, ms_max;
} figures;

typedef struct tally {
	figures f;
	char *name;
	figures clicked; /* the photos with clicked corners, read through them */
} tally;

static void tally_add(figures *t, bool found, int ok, int unknown, int np, double ms, int sure, int sure_right)
{
	t->sure += sure;
	t->sure_right += sure_right;
	t->photos++;
	t->found += found;
	t->points += np;
	t->right += ok;
	t->unknown += unknown;
	t->boards_right += ok == np;
	t->found_wrong += found && np - ok - unknown > 3;
	t->ms_total += ms;
	if (ms > t->ms_max)
		t->ms_max = ms;
}

/* The points of cells (size x size, as gv_detection's) that match truth,
 * and those read unknown. */
typedef struct board_score {
	int right, unknown, sure, sure_right;
} board_score;

/* The points of a detection that match truth, those read unknown, and those
 * read with a confidence of GV_SURE_CONF or more (of them, right). */
static board_score score(const gr_board *truth, const gv_detection *d, int size)
{
	board_score b = {0};
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			unsigned char c = d->cells[j * size + i];
			bool ok = truth->color[gr_pt(truth, i, j)] == c;
			b.unknown += c == GV_UNKNOWN;
			b.right += ok;
			if (d->conf[j * size + i] >= GV_SURE_CONF) {
				b.sure++;
				b.sure_right += ok;
			}
		}
	return b;
}

static void tally_json(const figures *t, const figures *clicked)
{
	printf("{\"photos\":%d,\"boards_found\":%d,\"points\":%ld,\"points_right\":%ld,\"points_unknown\":%ld,"
	       "\"points_right_pct\":%.3f,\"sure\":%ld,\"sure_right\":%ld,\"boards_right\":%d,"
	       "\"boards_right_pct\":%.2f,\"found_wrong\":%d,\"ms_mean\":%.1f,\"ms_max\":%.1f",
	       t->photos, t->found, t->points, t->right, t->unknown, 100.0 * t->right / t->points, t->sure,
	       t->sure_right, t->boards_right,
	       100.0 * t->boards_right / t->photos, t->found_wrong, t->ms_total / t->photos, t->ms_max);
	if (clicked && clicked->photos) {
		/* the photos that have clicked corners, read through them */
		printf(",\"clicked\":");
		tally_json(clicked, NULL);
	}
	putchar('}');
}

static void tally_text(const char *label, const figures *t)
{
	printf("%s: %d photos, boards found %d/%d, points right %ld/%ld (%.3f%%), unknown %ld, wrong or not read %ld, sure (confidence >= %g) %ld of which right %.3f%%, boards "
	       "entirely right %d/%d (%.1f%%), found with more than 3 points wrong %d, %.1f ms a photo on average, "
	       "%.1f ms at most (one core)\n",
	       label, t->photos, t->found, t->photos, t->right, t->points, 100.0 * t->right / t->points, t->unknown,
	       t->points - t->right - t->unknown, (double)GV_SURE_CONF, t->sure, t->sure ? 100.0 * t->sure_right / t->sure : 100.0,
	       t->boards_right, t->photos, 100.0 * t->boards_right / t->photos,
	       t->found_wrong, t->ms_total / t->photos, t->ms_max);
}

/* The source of a photo found under dir: its folder relative to dir, a last
 * folder named skip left out; "." for a photo directly in dir. Allocated. */
static char *source_of(const char *dir, const char *photo)
{
	size_t dl = strlen(dir);
	const char *rel = photo;
	if (!strncmp(photo, dir, dl) && photo[dl] == '/')
		rel = photo + dl + 1;
	const char *slash = strrchr(rel, '/');
	size_t n = slash ? (size_t)(slash - rel) : 0;
	if (n >= 4 && !strncmp(rel + n - 4, "skip", 4) && (n == 4 || rel[n - 5] == '/'))
		n = n == 4 ? 0 : n - 5;
	char *s = malloc(n + 2);
	if (!s)
		return NULL;
	if (n == 0)
		strcpy(s, ".");
	else {
		memcpy(s, rel, n);
		s[n] = 0;
	}
	return s;
}

/* The corners.json of the folder read last (photos come folder by folder):
 * its path, and its JSON (NULL when the folder has none). */
typedef struct clicks_file {
	char path[4096];
	cJSON *root;
} clicks_file;

/* The grid corners that a person clicked for photo (w x h pixels), from
 * corners.json in the photo's folder (the gobanwatcher format: per file name,
 * four [x, y] as fractions of the photo's width and height, clockwise from
 * the top-left, half a cell outside the outer lines), read once per folder
 * into cf. 1 found, 0 none, -1 the file is there but unreadable (message on
 * stderr). */
static int clicked_corners(clicks_file *cf, const char *photo, int w, int h, int size, double c[8])
{
	const char *slash = strrchr(photo, '/');
	size_t dl = slash ? (size_t)(slash - photo) + 1 : 0;
	char path[sizeof cf->path];
	if (dl + sizeof "corners.json" > sizeof path)
		return 0;
	memcpy(path, photo, dl);
	memcpy(path + dl, "corners.json", sizeof "corners.json");
	if (strcmp(path, cf->path)) {
		cJSON_Delete(cf->root);
		cf->root = NULL;
		memcpy(cf->path, path, sizeof path);
		struct stat st;
		if (stat(path, &st) != 0)
			return 0;
		size_t len;
		char *text = cli_read_file(path, &len);
		if (!text)
			return -1;
		cf->root = cJSON_ParseWithLength(text, len);
		if (!cf->root) {
			const char *at = cJSON_GetErrorPtr();
			fprintf(stderr, "goref eval: %s is not JSON (near byte %td)\n", path, at ? at - text : (ptrdiff_t)0);
			free(text);
			return -1;
		}
		free(text);
	}
	if (!cf->root)
		return 0;
	int rc = 0;
	const cJSON *pts = cJSON_GetObjectItemCaseSensitive(cf->root, photo + dl);
	if (pts) {
		double clicks[8];
		rc = cJSON_IsArray(pts) && cJSON_GetArraySize(pts) == 4 ? 1 : -1;
		for (int k = 0; k < 4 && rc == 1; k++) {
			const cJSON *pt = cJSON_GetArrayItem(pts, k);
			const cJSON *x = cJSON_GetArrayItem(pt, 0), *y = cJSON_GetArrayItem(pt, 1);
			if (!cJSON_IsArray(pt) || cJSON_GetArraySize(pt) != 2 || !cJSON_IsNumber(x) || !cJSON_IsNumber(y))
				rc = -1;
			else {
				clicks[2 * k] = x->valuedouble * w - 0.5;
				clicks[2 * k + 1] = y->valuedouble * h - 0.5;
			}
		}
		/* the clicks stand at -0.5 and N-0.5 in grid units: the corners at 0 and N-1 */
		double m = size - 0.5, H[9];
		const double at[8] = {-0.5, -0.5, m, -0.5, m, m, -0.5, m};
		if (rc == 1 && !gv_h_from_4(at, clicks, H))
			rc = -1;
		if (rc == 1)
			gv_h_corners(H, size, c);
		if (rc < 0)
			fprintf(stderr, "goref eval: %s: the entry for %s is not four [x, y] fractions\n", path, photo + dl);
	}
	return rc;
}

/* --dump-patches: one file per photo and grid (see
 * samples/train_classifier.py, which reads them): 8 bytes "GRPATCH1",
 * int32 D (GV_CNN_DUMP), float32 the cells the patches span, float32 the
 * board's colour (R, G, B: gv_board_colour), int32 size; then per point
 * (row by row): uint8 true colour (0 empty, 1 black, 2 white), uint8 the
 * colour read, uint8 its confidence times 255, uint8 0, and the D x D RGB
 * patch centred on it (gv_patch). A line of OUT/index.tsv names each file:
 * file, source, photo, grid (locator or clicked). Little-endian. */
static int dump_patches(const char *out, int *seq, const char *source, const char *photo, const char *kind,
                        const gv_image *img, const gv_detection *d, const gr_board *truth, int size)
{
	char path[4096];
	float board[3];
	if (gv_board_colour(img, d->H, size, board))
		return 0;
	snprintf(path, sizeof path, "%s/%05d.bin", out, *seq);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	const int D = GV_CNN_DUMP;
	float span = (float)(GV_CNN_SPAN * GV_CNN_DUMP / GV_CNN_PATCH);
	int32_t hd[2] = {D, size};
	fwrite("GRPATCH1", 1, 8, f);
	fwrite(&hd[0], 4, 1, f);
	fwrite(&span, 4, 1, f);
	fwrite(board, 4, 3, f);
	fwrite(&hd[1], 4, 1, f);
	float *pf = malloc(sizeof *pf * (size_t)(D * D * 3));
	unsigned char *pb = malloc((size_t)(D * D * 3));
	if (!pf || !pb) {
		free(pf);
		free(pb);
		fclose(f);
		return -1;
	}
	for (int j = 0; j < size; j++)
		for (int i = 0; i < size; i++) {
			int k = j * size + i;
			float c = d->conf[k] * 255.0f + 0.5f;
			unsigned char rec[4] = {(unsigned char)truth->color[gr_pt(truth, i, j)], d->cells[k],
			                        (unsigned char)(c < 0 ? 0 : c > 255 ? 255 : c), 0};
			fwrite(rec, 1, 4, f);
			gv_patch(img, d->H, i, j, D, span, pf);
			for (int t = 0; t < D * D * 3; t++) {
				float v = pf[t] + 0.5f;
				pb[t] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
			}
			fwrite(pb, 1, (size_t)(D * D * 3), f);
		}
	free(pf);
	free(pb);
	int bad = ferror(f);
	if (fclose(f) || bad)
		return -1;
	snprintf(path, sizeof path, "%s/index.tsv", out);
	f = fopen(path, "a");
	if (!f)
		return -1;
	fprintf(f, "%05d.bin\t%s\t%s\t%s\n", *seq, source, photo, kind);
	(*seq)++;
	return fclose(f) ? -1 : 0;
}

int cmd_eval(int argc, char **argv)
{
	bool json = false;
	int size_opt = 0, classifier = 0, seq = 0; /* size_opt 0: each label's own */
	const char *weights = NULL, *dump = NULL;
	list dirs = {0}, photos = {0};
	int rc = EXIT_OK;
	gv_cnn model = {0};
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(eval_usage, stdout);
			free(dirs.v);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--classifier") && i + 1 < argc) {
			i++;
			classifier = !strcmp(argv[i], "rules") ? GV_CLASSIFIER_RULES
			             : !strcmp(argv[i], "cnn") ? GV_CLASSIFIER_CNN
			             : !strcmp(argv[i], "both") ? GV_CLASSIFIER_BOTH : -1;
			if (classifier < 0) {
				fprintf(stderr, "goref eval: --classifier must be rules, cnn or both\n");
				free(dirs.v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--cnn-weights") && i + 1 < argc) {
			weights = argv[++i];
		} else if (!strcmp(argv[i], "--dump-patches") && i + 1 < argc) {
			dump = argv[++i];
		} else if (!strcmp(argv[i], "--size")) {
			if (!cli_parse_int("--size", i + 1 < argc ? argv[++i] : NULL, 9, 19, &size_opt) ||
			    (size_opt != 9 && size_opt != 13 && size_opt != 19)) {
				if (size_opt != 9 && size_opt != 13 && size_opt != 19)
					fprintf(stderr, "goref eval: --size must be 9, 13 or 19\n");
				free(dirs.v);
				return EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "goref eval: unknown option '%s'\n\n%s", argv[i], eval_usage);
			free(dirs.v);
			return EXIT_USAGE;
		} else {
			if (dirs.n == dirs.cap) {
				int nc = dirs.cap ? 2 * dirs.cap : 8;
				char **nv = realloc(dirs.v, sizeof(char *) * (size_t)nc);
				if (!nv) {
					free(dirs.v);
					return EXIT_INPUT;
				}
				dirs.v = nv;
				dirs.cap = nc;
			}
			dirs.v[dirs.n++] = argv[i];
		}
	}
	if (dirs.n == 0) {
		fprintf(stderr, "goref eval: no DIR given\n\n%s", eval_usage);
		free(dirs.v);
		return EXIT_USAGE;
	}
	if (weights) {
		char werr[300];
		if (gv_cnn_load(&model, weights, werr, sizeof werr)) {
			fprintf(stderr, "goref eval: %s\n", werr);
			free(dirs.v);
			return EXIT_INPUT;
		}
	}
	if (dump && mkdir(dump, 0777) != 0) {
		fprintf(stderr, "goref eval: cannot make the folder %s (it must not exist)\n", dump);
		free(dirs.v);
		gv_cnn_free(&model);
		return EXIT_INPUT;
	}
	/* the photos of each DIR in name order, each with its source */
	list srcs = {0};
	for (int k = 0; k < dirs.n && !rc; k++) {
		int first = photos.n;
		rc = collect(dirs.v[k], &photos, 0);
		if (rc)
			break;
		qsort(photos.v + first, (size_t)(photos.n - first), sizeof(char *), cmp_str);
		char **nv = realloc(srcs.v, sizeof(char *) * (size_t)(photos.n ? photos.n : 1));
		if (!nv) {
			rc = EXIT_INPUT;
			break;
		}
		srcs.v = nv;
		for (; srcs.n < photos.n; srcs.n++)
			if (!(srcs.v[srcs.n] = source_of(dirs.v[k], photos.v[srcs.n]))) {
				rc = EXIT_INPUT;
				break;
			}
	}
	free(dirs.v);
	tally total = {0}, *sources = NULL;
	clicks_file cf = {"", NULL};
	int nsources = 0;
	if (rc)
		goto done;
	char err[300];
	gv_cv_threads(1, err, sizeof err);
	int n = 0;
	if (json)
		printf("{\"photos\":[");
	for (int k = 0; k < photos.n; k++) {
		const char *tp = truth_path(photos.v[k]);
		size_t len;
		char *text, where[4200];
		if (tp) {
			text = cli_read_file(tp, &len);
		} else {
			/* a labels.txt beside the photo or one folder up (labelled
			 * video frames): the photo's entry, or no label */
			int lr = labels_entry(photos.v[k], &text, &len, where, sizeof where);
			if (lr == 0)
				continue;
			tp = where;
			if (lr < 0)
				text = NULL;
		}
		if (!text) {
			rc = EXIT_INPUT;
			break;
		}
		gr_board truth;
		gr_error perr = {0};
		int prc = gr_diagram_parse(&truth, NULL, text, len, size_opt, &perr);
		free(text);
		if (prc) {
			cli_report_error(tp, &perr);
			rc = EXIT_INPUT;
			break;
		}
		/* the board's size: --size's, else the label's own */
		int size = size_opt ? size_opt : truth.size;
		if (size != 9 && size != 13 && size != 19) {
			fprintf(stderr, "goref eval: %s: a %dx%d board: goref reads 9x9, 13x13 and 19x19 boards\n", tp,
			        truth.size, truth.size);
			rc = EXIT_INPUT;
			break;
		}
		gv_image img;
		int fw = 0, fh = 0; /* read as detect reads it */
		if (gv_imread_work(&img, photos.v[k], GV_READ_MIN_PX, GV_WORK_SIDE, &fw, &fh, err, sizeof err)) {
			fprintf(stderr, "goref eval: cannot read the image %s\n", err);
			rc = EXIT_INPUT;
			break;
		}
		double scale = fw > img.width ? (double)img.width / fw : 1;
		gv_detection d;
		gv_detect_opts o = {.size = size, .classifier = classifier, .cnn = weights ? &model : NULL};
		cli_locate_trace(&o);
		double t0 = cli_cpu_ms();
		int drc = gv_detect(&d, &img, &o, err, sizeof err);
		double ms = cli_cpu_ms() - t0;
		/* the same photo read through the corners a person clicked, where known */
		double clicks[8];
		int crc = clicked_corners(&cf, photos.v[k], fw, fh, size, clicks);
		for (int c = 0; c < 8; c++)
			clicks[c] = cli_to_read(clicks[c], scale);
		int cok = -1, cunk = 0;
		board_score cs = {0};
		if (crc < 0) {
			gv_image_free(&img);
			rc = EXIT_INPUT;
			break;
		}
		gv_detection dc;
		if (crc == 1) {
			gv_detect_opts oc = {.size = size, .corners = clicks, .classifier = classifier,
			                     .cnn = weights ? &model : NULL};
			if (gv_detect(&dc, &img, &oc, err, sizeof err) == 0) {
				cs = score(&truth, &dc, size);
				cok = cs.right;
				cunk = cs.unknown;
				if (dump && dump_patches(dump, &seq, srcs.v[k], photos.v[k], "clicked", &img, &dc, &truth, size)) {
					fprintf(stderr, "goref eval: cannot write the patches to %s\n", dump);
					gv_image_free(&img);
					rc = EXIT_INPUT;
					break;
				}
			} else {
				fprintf(stderr, "goref eval: %s: the clicked corners: %s\n", photos.v[k], err);
				cok = 0;
			}
		}
		if (dump && !drc && dump_patches(dump, &seq, srcs.v[k], photos.v[k], "locator", &img, &d, &truth, size)) {
			fprintf(stderr, "goref eval: cannot write the patches to %s\n", dump);
			gv_image_free(&img);
			rc = EXIT_INPUT;
			break;
		}
		gv_image_free(&img);
		if (drc && drc != GV_ENOTFOUND) {
			fprintf(stderr, "goref eval: %s: %s\n", photos.v[k], err);
			rc = EXIT_INPUT;
			break;
		}
		board_score bs = {0};
		if (!drc)
			bs = score(&truth, &d, size);
		int ok = bs.right, unk = bs.unknown;
		int np = size * size;
		n++;
		tally_add(&total.f, !drc, ok, unk, np, ms, bs.sure, bs.sure_right);
		int s = 0;
		while (s < nsources && strcmp(sources[s].name, srcs.v[k]))
			s++;
		if (s == nsources) {
			tally *ns = realloc(sources, sizeof *ns * (size_t)(nsources + 1));
			if (!ns) {
				rc = EXIT_INPUT;
				break;
			}
			sources = ns;
			sources[nsources++] = (tally){.name = srcs.v[k]};
		}
		tally_add(&sources[s].f, !drc, ok, unk, np, ms, bs.sure, bs.sure_right);
		if (cok >= 0) {
			tally_add(&sources[s].clicked, true, cok, cunk, np, 0, cs.sure, cs.sure_right);
			tally_add(&total.clicked, true, cok, cunk, np, 0, cs.sure, cs.sure_right);
		}
		if (json) {
			printf("%s{\"photo\":", n > 1 ? "," : "");
			cli_json_string(stdout, photos.v[k]);
			printf(",\"found\":%s,\"points_right\":%d,\"points_unknown\":%d,\"points\":%d,\"board_right\":%s,"
			       "\"ms\":%.1f",
			       drc ? "false" : "true", ok, unk, np, ok == np ? "true" : "false", ms);
			if (!drc) {
				printf(",\"corners\":[");
				for (int c = 0; c < 4; c++)
					printf("%s[%.1f,%.1f]", c ? "," : "", d.corners[2 * c], d.corners[2 * c + 1]);
				printf("]");
			}
			if (!drc) {
				/* the points read wrong: column, row, true, read, confidence */
				printf(",\"wrong\":[");
				int nw = 0;
				for (int j = 0; j < size; j++)
					for (int i = 0; i < size; i++) {
						int t = truth.color[gr_pt(&truth, i, j)], c = d.cells[j * size + i];
						if (t != c)
							printf("%s[%d,%d,\"%c\",\"%c\",%.2f]", nw++ ? "," : "", i, j, cli_cell_char((unsigned char)t),
							       cli_cell_char((unsigned char)c), d.conf[j * size + i]);
					}
				printf("],\"proof\":{\"spans\":%.3f,\"lines\":%.3f,\"beyond\":%.3f,\"control\":%.3f,"
				       "\"outer_missing\":%d,\"strips\":[%.3f,%.3f,%.3f,%.3f],\"evenness\":%.3f},\"conf_hist\":[",
				       d.proof.span_share, d.proof.line_share, d.proof.beyond_share, d.proof.control_share,
				       d.proof.outer_missing, d.proof.strip_share[0], d.proof.strip_share[1],
				       d.proof.strip_share[2], d.proof.strip_share[3], d.proof.evenness);
				/* how many points read right and wrong per tenth of confidence */
				int hr[10] = {0}, hw[10] = {0};
				for (int j = 0; j < size; j++)
					for (int i = 0; i < size; i++) {
						int b = (int)(d.conf[j * size + i] * 10);
						b = b < 0 ? 0 : b > 9 ? 9 : b;
						if (truth.color[gr_pt(&truth, i, j)] == d.cells[j * size + i])
							hr[b]++;
						else
							hw[b]++;
					}
				for (int b = 0; b < 10; b++)
					printf("%s[%d,%d]", b ? "," : "", hr[b], hw[b]);
				printf("]");
			}
			if (cok >= 0) {
				printf(",\"clicked\":{\"points_right\":%d,\"points_unknown\":%d,\"board_right\":%s,\"corners\":[",
				       cok, cunk, cok == np ? "true" : "false");
				for (int c = 0; c < 4; c++)
					printf("%s[%.1f,%.1f]", c ? "," : "", clicks[2 * c], clicks[2 * c + 1]);
				printf("]}");
			}
			printf("}");
		} else {
			printf("%s: %s, %d/%d points right, %d unknown%s, %.1f ms", photos.v[k], drc ? "NO BOARD FOUND" : "found",
			       ok, np, unk, drc ? "" : ok == np ? ", board right" : np - ok - unk > 0 ? ", board WRONG" : "", ms);
			if (cok >= 0)
				printf("; clicked corners: %d/%d points right, %d unknown", cok, np, cunk);
			putchar('\n');
			if (drc)
				printf("  %s\n", err);
		}
		fflush(stdout);
	}
	if (rc == EXIT_OK) {
		if (n == 0) {
			fprintf(stderr, "goref eval: no photo with a true position (NAME.txt, or its entry in a labels.txt) found\n");
			rc = EXIT_INPUT;
		} else if (json) {
			printf("],\"sources\":{");
			for (int k = 0; k < nsources; k++) {
				printf("%s", k ? "," : "");
				cli_json_string(stdout, sources[k].name);
				putchar(':');
				tally_json(&sources[k].f, &sources[k].clicked);
			}
			printf("},\"total\":");
			tally_json(&total.f, &total.clicked);
			printf("}\n");
		} else {
			for (int k = 0; k < nsources; k++) {
				char label[300];
				snprintf(label, sizeof label, "source %s", sources[k].name);
				tally_text(label, &sources[k].f);
				if (sources[k].clicked.photos) {
					snprintf(label, sizeof label, "source %s with the clicked corners", sources[k].name);
					tally_text(label, &sources[k].clicked);
				}
			}
			tally_text("total", &total.f);
			if (total.clicked.photos)
				tally_text("total with the clicked corners", &total.clicked);
		}
	} else if (json) {
		printf("]}\n");
	}
done:
	for (int k = 0; k < photos.n; k++)
		free(photos.v[k]);
	free(photos.v);
	for (int k = 0; k < srcs.n; k++)
		free(srcs.v[k]);
	free(srcs.v);
	free(sources);
	cJSON_Delete(cf.root);
	gv_cnn_free(&model);
	return rc;
}

#else
typedef int goref_cmd_vision_unused; /* an empty file is not ISO C */
#endif
