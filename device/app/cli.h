/* goref program: helpers shared by the commands. */
#ifndef GOREF_DEVICE_CLI_H
#define GOREF_DEVICE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "board.h"
#include "record.h"
#include "util.h"

/* Exit codes of every command. */
enum { EXIT_OK = 0, EXIT_FOUND = 1, EXIT_INPUT = 2, EXIT_USAGE = 64 };

/* Reads a whole file ("-" = standard input). NULL with a message on stderr. */
char *cli_read_file(const char *path, size_t *len);

/* Reads an SGF file into a new record (free with gr_record_free). Returns 0,
 * or EXIT_INPUT after printing why (the file, line and column at fault). */
int cli_load_sgf(gr_record **out, const char *path);

/* Writes len bytes to path through path.tmp and a rename (a crash never
 * leaves half a file). Returns 0, or EXIT_INPUT after printing why, each
 * message ended by eol ("\n", or "\r\n" on a raw terminal). */
int cli_write_file(const char *path, const char *data, size_t len, const char *eol);

/* Writes the record as SGF to out, through out.tmp and a rename (a crash
 * never leaves half a file). Returns 0, or EXIT_INPUT after printing why. */
int cli_write_sgf(const gr_record *rec, const char *out);

/* Prints "goref: PATH:LINE:COL: message" for a parse error. */
void cli_report_error(const char *path, const gr_error *err);

/* Reads the settings file at path (calib/settings.h) into s, over what s
 * holds (gc_settings_init first for the defaults). Returns 0, or EXIT_INPUT
 * after printing why (the line and the key at fault). In cli_settings.c,
 * built into the programs that read settings (goref-vision, goref-hall). */
struct gc_settings;
int cli_load_settings(struct gc_settings *s, const char *path);

/* What a position file held. */
typedef struct cli_position {
	gr_board board;
	bool dead[GR_MAX_POINTS]; /* stones marked dead in a diagram */
	bool has_dead;
	gr_record *record;        /* the SGF's record, or NULL for a diagram */
	gr_color to_move;
} cli_position;

/* Loads a diagram or an SGF file (its final position after replaying it
 * under the rules). Returns 0, or EXIT_INPUT after printing why. */
int cli_load_position(cli_position *pos, const char *path);
void cli_position_free(cli_position *pos);

/* Writes s as a JSON string (with quotes). */
void cli_json_string(FILE *f, const char *s);

/* Parses a number option; prints an error naming the option when bad. */
bool cli_parse_double(const char *opt, const char *s, double lo, double hi, double *out);
bool cli_parse_int(const char *opt, const char *s, int lo, int hi, int *out);
/* s for a terminal: control bytes (an escape sequence in a file could
 * retitle or clear the terminal) written as \xNN. */
void cli_put_clean(FILE *f, const char *s);
/* "goref CMD: NAME: ERR" and eol on stderr, NAME left out when ERR starts
 * with it already (a source's messages name it: "stdin: stdin: ..."). */
void cli_source_error(const char *cmd, const char *name, const char *err, const char *eol);
/* x1,y1,x2,y2,x3,y3,x4,y4 (eight numbers, commas between) into c; false,
 * with a message naming opt, otherwise. Where they lie is checked later,
 * against the photo (gv_corners_check). */
bool cli_parse_corners(const char *opt, const char *s, double c[8]);

/* A command's argument that is none of its options: an unknown option
 * ("-x") is an error, else it is the one positional argument (what: "FILE",
 * "LOG", ...) and goes into *slot, unless that is taken already. Returns
 * false after printing the error and the usage. */
bool cli_positional(const char *cmd, const char *usage, const char *what, const char *arg, const char **slot);
/* At the end of the arguments: false, after printing the error and the
 * usage, when the positional argument was not given. */
bool cli_require(const char *cmd, const char *usage, const char *what, const char *slot);

/* The calling thread's CPU time in milliseconds (what "one core" means in
 * the figures), and a monotonic wall clock in seconds. */
double cli_cpu_ms(void);
double cli_wall_s(void);

/* True if arg is -h or --help. */
bool cli_is_help(const char *arg);

int cmd_score(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_vision(int argc, char **argv);
int cmd_referee(int argc, char **argv);
int cmd_makelog(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_eval_video(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_hall(int argc, char **argv);

#endif
