/* goref program: reading the settings file (cli.h). */
#include <stdlib.h>

#include "cli.h"
#include "settings.h"

int cli_load_settings(gc_settings *s, const char *path)
{
	size_t len = 0;
	char *text = cli_read_file(path, &len);
	if (!text)
		return EXIT_INPUT;
	gr_error e = {0};
	int rc = gc_settings_parse(s, text, len, &e);
	free(text);
	if (rc) {
		cli_report_error(path, &e);
		return EXIT_INPUT;
	}
	return 0;
}
