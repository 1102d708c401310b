/*
 * libFuzzer harness: the settings file (calib/settings.h), read and updated.
 *
 * Properties: settings read from any text, written with gc_settings_write,
 * read back the same; the text updated with every key (gc_settings_update)
 * reads back the same settings; and the text updated with other settings
 * (another board, komi, corners and journal) reads back those.
 */
#include "fuzz_util.h"
#include "settings.h"

static void same(const gc_settings *a, const gc_settings *b, const char *text)
{
	bool ok = !strcmp(a->device, b->device) && a->width == b->width && a->height == b->height &&
	          a->format == b->format && a->stride == b->stride && a->fps == b->fps && a->board == b->board &&
	          a->has_corners == b->has_corners && a->rotate == b->rotate && a->has_camera == b->has_camera &&
	          a->ndist == b->ndist && a->still == b->still && a->komi == b->komi && a->persist == b->persist &&
	          a->repetition == b->repetition && !strcmp(a->journal, b->journal) && !strcmp(a->sgf, b->sgf) &&
	          !strcmp(a->events, b->events);
	for (int k = 0; k < 8 && ok; k++)
		ok = !a->has_corners || a->corners[k] == b->corners[k];
	for (int k = 0; k < 4 && ok; k++)
		ok = !a->has_camera || a->camera[k] == b->camera[k];
	for (int k = 0; k < a->ndist && ok; k++)
		ok = a->dist[k] == b->dist[k];
	if (!ok)
		fuzz_fail("settings read back differ:\n%s", text);
}

static int count_keys(void)
{
	int n = 0;
	while (gc_settings_keys[n])
		n++;
	return n;
}

/* Updates text with every key of s; the result must read back as s. */
static void update_and_check(const char *text, size_t len, const gc_settings *s)
{
	size_t n = gc_settings_update(text, len, s, gc_settings_keys, count_keys(), NULL, 0);
	if (n == 0)
		return; /* a value a file cannot carry */
	char *buf = malloc(n + 1);
	if (!buf || gc_settings_update(text, len, s, gc_settings_keys, count_keys(), buf, n + 1) != n)
		fuzz_fail("gc_settings_update gave two lengths");
	gc_settings back;
	gr_error err;
	gc_settings_init(&back);
	if (gc_settings_parse(&back, buf, n, &err) != 0)
		fuzz_fail("updated settings do not read back: line %d: %s\n%s", err.line, err.message, buf);
	same(s, &back, buf);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	gc_settings s;
	gr_error err;
	gc_settings_init(&s);
	if (gc_settings_parse(&s, text, size, &err) != 0)
		return 0;

	/* write, read back */
	size_t n = gc_settings_write(&s, NULL, 0);
	if (n > 0) {
		char *buf = malloc(n + 1);
		if (!buf || gc_settings_write(&s, buf, n + 1) != n)
			fuzz_fail("gc_settings_write gave two lengths");
		gc_settings back;
		gc_settings_init(&back);
		if (gc_settings_parse(&back, buf, n, &err) != 0)
			fuzz_fail("written settings do not read back: line %d: %s\n%s", err.line, err.message, buf);
		same(&s, &back, buf);
		free(buf);
	}

	/* the file updated with its own values, then with others */
	update_and_check(text, size, &s);
	gc_settings other = s;
	other.board = s.board == 19 ? 9 : 19;
	other.komi = s.komi + 0.5 <= 400 ? s.komi + 0.5 : 0;
	other.has_corners = true;
	for (int k = 0; k < 8; k++)
		other.corners[k] = 10.25 * (k + 1);
	snprintf(other.journal, sizeof other.journal, "/var/lib/goref/game 1.log");
	update_and_check(text, size, &other);
	return 0;
}
