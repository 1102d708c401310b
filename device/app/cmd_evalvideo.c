/* goref eval-video: replays rendered games and compares what the referee
 * said with what truly happened (truth.jsonl beside the frames).
 * Built only with vision/ (GOREF_HAVE_VISION). */
#ifdef GOREF_HAVE_VISION
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cvwrap.h"
#include "loop.h"

static const char evalvideo_usage[] =
	"usage: goref eval-video [--json] [--board N] [--still S] [--quiet] DIR...\n"
	"\n"
	"Replays each rendered game DIR (frames, times.txt and truth.jsonl as\n"
	"goref-render writes them) through the frame pipeline and the referee,\n"
	"as goref replay does, and compares the events with the true ones:\n"
	"  moves      moves recorded right (same colour and point, in order) out\n"
	"             of the true moves; extra moves the referee recorded\n"
	"  rulings    true rulings (double_move, missed_capture, wrong_removal,\n"
	"             takeback, moved_stone, disturbed, illegal) found: the same\n"
	"             type after the true event before it and up to 10 s after\n"
	"             its true time; false\n"
	"             rulings: the referee's rulings that match none\n"
	"  delay      from the true time of a move (the first frame after the\n"
	"             hand left) to the referee's move event, mean and max\n"
	"  ms/frame   CPU time of the frame pipeline per frame (one thread; the\n"
	"             referee and reading the files are not counted; reading is\n"
	"             shown apart)\n"
	"\n"
	"  --board N   lines of the boards: 9, 13 or 19 (default 19)\n"
	"  --still S   the pipeline's still window (default 0.3 s)\n"
	"  --json      one JSON object a game and one for the total\n"
	"  --quiet     only the total\n"
	"\n"
	"Exit status: 0 every game was evaluated, 2 a game could not be read,\n"
	"64 a usage error.\n";

typedef struct ev {
	char type[24];
	char color[4];
	char point[8];
	double t;
	bool used;
} ev;

typedef struct evlist {
	ev *v;
	int n, cap;
} evlist;

static bool push(evlist *l, const ev *e)
{
	if (l->n == l->cap) {
		int nc = l->cap ? 2 * l->cap : 256;
		ev *nv = realloc(l->v, (size_t)nc * sizeof *nv);
		if (!nv)
			return false;
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n++] = *e;
	return true;
}

/* The value of "key" in a flat JSON object on one line: a string (copied
 * without its quotes; escapes are kept as they are) or a number. */
static bool jget(const char *line, const char *key, char *out, size_t cap)
{
	char pat[40];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(line, pat);
	if (!p || cap == 0)
		return false;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	size_t n = 0;
	if (*p == '"') {
		p++;
		while (*p && *p != '"' && n + 1 < cap) {
			if (*p == '\\' && p[1])
				out[n++] = *p++;
			if (n + 1 < cap)
				out[n++] = *p++;
		}
	} else {
		while (*p && *p != ',' && *p != '}' && *p != ' ' && n + 1 < cap)
			out[n++] = *p++;
	}
	out[n] = 0;
	return true;
}

static bool parse_ev(const char *line, ev *e)
{
	memset(e, 0, sizeof *e);
	char num[64];
	if (!jget(line, "type", e->type, sizeof e->type))
		return false;
	jget(line, "color", e->color, sizeof e->color);
	jget(line, "point", e->point, sizeof e->point);
	if (jget(line, "t", num, sizeof num))
		e->t = strtod(num, NULL);
	return true;
}

static bool is_ruling(const char *type)
{
	int t = gr_event_type_parse(type);
	return t >= 0 && gr_event_is_ruling((gr_event_type)t);
}

typedef struct collect {
	evlist got;
	int size;
	bool oom;
	char buf[8192];
} collect;

static void on_event(const gr_event *e, void *ud)
{
	collect *c = ud;
	gr_event_json(e, c->size, c->buf, sizeof c->buf);
	ev x;
	if (parse_ev(c->buf, &x) && !push(&c->got, &x))
		c->oom = true;
}

typedef struct result {
	int true_moves, right, extra, true_rulings, found, false_rulings, unexplained;
	double delay_sum, delay_max;
	int ndelay;
	long frames;
	double pipe_ms, pipe_max, read_ms;
	int width, height;
} result;

static int read_truth(const char *dir, evlist *truth)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/truth.jsonl", dir);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "goref eval-video: cannot open %s: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	char *line = NULL;
	size_t cap = 0;
	int ln = 0, rc = EXIT_OK;
	while (getline(&line, &cap, f) >= 0) {
		ln++;
		if (line[0] == '\n' || line[0] == '#')
			continue;
		ev e;
		if (!parse_ev(line, &e)) {
			fprintf(stderr, "goref eval-video: %s:%d: no \"type\" in this line\n", path, ln);
			rc = EXIT_INPUT;
			break;
		}
		if (!strcmp(e.type, "render"))
			continue;
		if (!push(truth, &e)) {
			fprintf(stderr, "goref eval-video: out of memory\n");
			rc = EXIT_INPUT;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static void compare(const evlist *truth, evlist *got, result *r)
{
	/* moves in order */
	int gi = 0;
	int ngot_moves = 0;
	for (int k = 0; k < got->n; k++)
		ngot_moves += !strcmp(got->v[k].type, "move");
	for (int k = 0; k < truth->n; k++) {
		const ev *t = &truth->v[k];
		if (strcmp(t->type, "move") || !strcmp(t->point, "pass"))
			continue;
		r->true_moves++;
		while (gi < got->n && strcmp(got->v[gi].type, "move"))
			gi++;
		if (gi >= got->n)
			continue;
		const ev *g = &got->v[gi++];
		if (!strcmp(g->color, t->color) && !strcmp(g->point, t->point)) {
			r->right++;
			double d = g->t - t->t;
			r->delay_sum += d;
			r->ndelay++;
			if (d > r->delay_max)
				r->delay_max = d;
		}
	}
	r->extra = ngot_moves > r->true_moves ? ngot_moves - r->true_moves : 0;
	/* rulings by type and time */
	for (int k = 0; k < truth->n; k++) {
		const ev *t = &truth->v[k];
		if (!is_ruling(t->type))
			continue;
		r->true_rulings++;
		/* the violation happened after the true event before it (a ruling
		 * that must persist may come before the true time, when the
		 * pipeline read the board twice in one still spell) */
		double from = k > 0 ? truth->v[k - 1].t : 0;
		for (int j = 0; j < got->n; j++) {
			ev *g = &got->v[j];
			if (!g->used && !strcmp(g->type, t->type) && g->t > from && g->t <= t->t + 10.0) {
				g->used = true;
				r->found++;
				break;
			}
		}
	}
	for (int j = 0; j < got->n; j++) {
		if (is_ruling(got->v[j].type) && !got->v[j].used)
			r->false_rulings++;
		if (!strcmp(got->v[j].type, "unexplained"))
			r->unexplained++;
	}
}

static void print_result(const char *name, const result *r, bool json)
{
	double mean_delay = r->ndelay ? r->delay_sum / r->ndelay : 0;
	double ms = r->frames ? r->pipe_ms / (double)r->frames : 0;
	double rms = r->frames ? r->read_ms / (double)r->frames : 0;
	if (json) {
		printf("{\"game\":");
		cli_json_string(stdout, name);
		printf(",\"frames\":%ld,\"width\":%d,\"height\":%d,\"true_moves\":%d,\"moves_right\":%d,"
		       "\"extra_moves\":%d,\"true_rulings\":%d,\"rulings_found\":%d,\"false_rulings\":%d,"
		       "\"unexplained\":%d,\"delay_mean\":%.3f,\"delay_max\":%.3f,\"ms_per_frame\":%.3f,"
		       "\"ms_max\":%.3f,\"ms_read_per_frame\":%.3f}\n",
		       r->frames, r->width, r->height, r->true_moves, r->right, r->extra, r->true_rulings, r->found,
		       r->false_rulings, r->unexplained, mean_delay, r->delay_max, ms, r->pipe_max, rms);
	} else {
		printf("%-28s moves %d/%d (+%d extra)  rulings %d/%d, %d false, %d unexplained  "
		       "delay %.2f s mean, %.2f max  %.2f ms/frame (max %.1f; reading %.2f) %dx%d, %ld frames\n",
		       name, r->right, r->true_moves, r->extra, r->found, r->true_rulings, r->false_rulings,
		       r->unexplained, mean_delay, r->delay_max, ms, r->pipe_max, rms, r->width, r->height,
		       r->frames);
	}
}

static void add(result *tot, const result *r)
{
	tot->true_moves += r->true_moves;
	tot->right += r->right;
	tot->extra += r->extra;
	tot->true_rulings += r->true_rulings;
	tot->found += r->found;
	tot->false_rulings += r->false_rulings;
	tot->unexplained += r->unexplained;
	tot->delay_sum += r->delay_sum;
	tot->ndelay += r->ndelay;
	if (r->delay_max > tot->delay_max)
		tot->delay_max = r->delay_max;
	tot->frames += r->frames;
	tot->pipe_ms += r->pipe_ms;
	tot->read_ms += r->read_ms;
	if (r->pipe_max > tot->pipe_max)
		tot->pipe_max = r->pipe_max;
	tot->width = r->width;
	tot->height = r->height;
}

int cmd_eval_video(int argc, char **argv)
{
	gd_loop_opts o;
	gd_loop_opts_init(&o);
	cli_loop_trace(&o); /* GOREF_PIPE_DEBUG: the pipeline's trace on stderr */
	o.prepare_memory = true; /* this program runs frames: its heap made ready at the first (memory.h) */
	bool json = false, quiet = false;
	int ndirs = 0;
	for (int i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fputs(evalvideo_usage, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (!strcmp(argv[i], "--board")) {
			if (!cli_parse_int("--board", i + 1 < argc ? argv[++i] : NULL, 9, 19, &o.pipe.size))
				return EXIT_USAGE;
			if (o.pipe.size != 9 && o.pipe.size != 13 && o.pipe.size != 19) {
				fprintf(stderr, "goref eval-video: --board must be 9, 13 or 19\n");
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--still")) {
			if (!cli_parse_double("--still", i + 1 < argc ? argv[++i] : NULL, 0, 60, &o.pipe.still_s))
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "goref eval-video: unknown option '%s'\n\n%s", argv[i], evalvideo_usage);
			return EXIT_USAGE;
		} else {
			ndirs++;
		}
	}
	if (!ndirs) {
		fprintf(stderr, "goref eval-video: no DIR given\n\n%s", evalvideo_usage);
		return EXIT_USAGE;
	}
	gv_cv_threads(1, NULL, 0);
	collect *c = calloc(1, sizeof *c);
	if (!c) {
		fprintf(stderr, "goref eval-video: out of memory\n");
		return EXIT_INPUT;
	}
	result tot;
	memset(&tot, 0, sizeof tot);
	int status = EXIT_OK, games = 0, games_right = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1]) {
			if (!strcmp(a, "--board") || !strcmp(a, "--still"))
				i++;
			continue;
		}
		evlist truth = {0};
		if (read_truth(a, &truth) != EXIT_OK) {
			free(truth.v);
			status = EXIT_INPUT;
			continue;
		}
		char err[512] = "";
		gd_source *src = NULL;
		if (gd_source_open_dir(&src, a, NULL, 0, err, sizeof err)) {
			fprintf(stderr, "goref eval-video: %s\n", err);
			free(truth.v);
			status = EXIT_INPUT;
			continue;
		}
		c->got.n = 0;
		c->size = o.pipe.size ? o.pipe.size : 19;
		c->oom = false;
		o.on_event = on_event;
		o.ud = c;
		gr_referee *ref = NULL;
		gd_loop_stats st;
		int rc = gd_loop_run(src, &o, &ref, &st, err, sizeof err);
		if (rc || c->oom) {
			fprintf(stderr, "goref eval-video: %s: %s: %s\n", a, gd_source_name(src), c->oom ? "out of memory" : err);
			status = EXIT_INPUT;
		}
		result r;
		memset(&r, 0, sizeof r);
		compare(&truth, &c->got, &r);
		r.frames = st.frames;
		r.pipe_ms = st.pipe_ms;
		r.pipe_max = st.pipe_max_ms;
		r.read_ms = st.read_ms;
		r.width = st.width;
		r.height = st.height;
		games++;
		games_right += r.right == r.true_moves && r.extra == 0 && r.found == r.true_rulings && r.false_rulings == 0;
		if (!quiet)
			print_result(a, &r, json);
		fflush(stdout);
		add(&tot, &r);
		gr_referee_free(ref);
		gd_source_free(src);
		free(truth.v);
	}
	double mean_delay = tot.ndelay ? tot.delay_sum / tot.ndelay : 0;
	double ms = tot.frames ? tot.pipe_ms / (double)tot.frames : 0;
	if (json) {
		printf("{\"total\":{\"games\":%d,\"games_right\":%d,\"frames\":%ld,\"true_moves\":%d,\"moves_right\":%d,"
		       "\"extra_moves\":%d,\"true_rulings\":%d,\"rulings_found\":%d,\"false_rulings\":%d,"
		       "\"unexplained\":%d,\"delay_mean\":%.3f,\"delay_max\":%.3f,\"ms_per_frame\":%.3f,"
		       "\"ms_max\":%.3f,\"ms_read_per_frame\":%.3f}}\n",
		       games, games_right, tot.frames, tot.true_moves, tot.right, tot.extra, tot.true_rulings, tot.found,
		       tot.false_rulings, tot.unexplained, mean_delay, tot.delay_max, ms, tot.pipe_max,
		       tot.frames ? tot.read_ms / (double)tot.frames : 0);
	} else {
		printf("total: %d game%s, %d entirely right; moves %d/%d right (+%d extra); rulings %d/%d found, "
		       "%d false, %d unexplained; delay %.2f s mean, %.2f s max; %.2f ms/frame (max %.1f) on one "
		       "core, %ld frames\n",
		       games, games == 1 ? "" : "s", games_right, tot.right, tot.true_moves, tot.extra, tot.found,
		       tot.true_rulings, tot.false_rulings, tot.unexplained, mean_delay, tot.delay_max, ms,
		       tot.pipe_max, tot.frames);
	}
	free(c->got.v);
	free(c);
	return status;
}
#endif
