/* The trainsize command inside the library: declarations shared by its source files.
 *
 * The command is the library's one entry that writes: trainsize_command() (command.c)
 * hands every byte to the caller's writers (trainsize_command_io): the installed program
 * is that call on standard output and error, the WebAssembly binding the same call on
 * buffers. Above the rest of the library, it is a client of the public API
 * (trainsize.h) and of the text buffer only. Every file has one job:
 *   command.c       trainsize_command: dispatch to the commands; trainsize_command_job
 *   defaults.c      the built-in example job (`trainsize` with no arguments)
 *   args.c          option parsing into a trainsize_job
 *   checkpoint.c    --hf-model and --safetensors into the job
 *   estimate_cmd.c  the `estimate` command
 *   library_text.c  what the library writes: the report, the JSON texts
 *   catalog_cmds.c  the `models` and `gpus` commands
 *   capacity_cmd.c  the `capacity` command
 *   plan_cmd.c      the `plan` command: options -> trainsize_plan -> ranked table or JSON
 *   calibrate_cmd.c the `calibrate` command: measured runs -> a site calibration
 *   help.c          usage texts
 *   manpage.c       the manual page and the bash completion, from the same texts
 *   output.c        the answer to the output writer in one go, one-line messages
 */
#ifndef TRAINSIZE_CLI_H
#define TRAINSIZE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

#if defined(__GNUC__) || defined(__clang__)
#define TS_CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TS_CLI_PRINTF(a, b)
#endif

/** Exit status of the command (see the CLI contract): the public enum's values. */
enum {
    TS_CLI_EXIT_OK = TRAINSIZE_COMMAND_OK,
    TS_CLI_EXIT_FAILURE = TRAINSIZE_COMMAND_FAILURE,
    TS_CLI_EXIT_USAGE = TRAINSIZE_COMMAND_USAGE
};

/** One call's state: the caller's writers (a NULL io from the caller becomes writers that
 *  discard), and a note held back until the command has its answer (a checkpoint smaller
 *  than its shape), so that a failure stays one message line. The note's buffer is the
 *  entry's. Every function that may write takes it. */
typedef struct ts_cli {
    trainsize_command_io io;
    char *note;      /**< "" or "trainsize: note: ...\n" */
    size_t note_cap; /**< Its buffer's size (0: no note is kept). */
} ts_cli;

/** Width the human output keeps to (the text buffer's, lib/text_out.h). */
#define TS_CLI_COLUMNS TS_COLUMNS

#include "text_format.h"
#include "text_out.h"

/** Hand the buffer to the output writer in one go and check that it took it all, then say
 *  the held note; frees it. Returns an exit status: TS_CLI_EXIT_OK, or TS_CLI_EXIT_FAILURE
 *  after a message (and no note). */
int ts_cli_flush(const ts_cli *cx, ts_out *o);
/** ts_cli_flush after a writer's status: 0 flushes, anything else (the writer has said
 *  why) frees the output and gives TS_CLI_EXIT_FAILURE. */
int ts_cli_out_finish(const ts_cli *cx, ts_out *o, int written);
/** Hand text to the message writer as it is (calibrate's fit table). 0, or -1 when the
 *  writer took less. */
int ts_cli_note(const ts_cli *cx, const char *text, size_t len);

/** Write "trainsize: <message>" as exactly one line to the message writer (control
 *  characters in the message are replaced, so that user text cannot break the line). */
void ts_cli_error(const ts_cli *cx, const char *fmt, ...) TS_CLI_PRINTF(2, 3);
/** Hold "trainsize: note: <message>" back until the answer is out (ts_cli_flush says it
 *  after the output, trainsize_command_job on success); a failure drops it. */
void ts_cli_hold_note(const ts_cli *cx, const char *fmt, ...) TS_CLI_PRINTF(2, 3);
/** Say the held note, if any, and forget it. */
void ts_cli_say_note(const ts_cli *cx);

/** Report a library failure (its message, or the status text when it has none). Returns
 *  the exit status the failure maps to. */
int ts_cli_library_error(const ts_cli *cx, int code, const trainsize_error *err);

/* ---- defaults.c ---- */

/** One name/value setting of a job. */
typedef struct ts_cli_setting {
    const char *name;
    const char *value;
} ts_cli_setting;

/** The built-in example job, and its number of settings. */
extern const ts_cli_setting ts_cli_example_job[];
extern const size_t ts_cli_example_job_count;

/** Apply the example job's settings to `job`. Returns an exit status. */
int ts_cli_apply_example_job(const ts_cli *cx, trainsize_job *job);

/* ---- checkpoint.c ---- */

/** Load --hf-model's snapshot or --safetensors' checkpoint into `job` (after --model or
 *  --hf-config, which a --safetensors checkpoint is compared with): one line naming the
 *  file or id on failure. Says on standard error when the headers hold fewer parameters
 *  than the shape. Returns an exit status. */
struct ts_cli_options;
int ts_cli_load_checkpoint(const ts_cli *cx, trainsize_job *job, const struct ts_cli_options *opts);

/* ---- args.c ---- */

/** Parsed options of `estimate` (or of `plan`). */
typedef struct ts_cli_options {
    int json;              /**< --json */
    int help;              /**< --help or -h */
    const char *model;     /**< --model NAME (the last one) */
    const char *hf_config; /**< --hf-config FILE (the last one) */
    const char *gpu_file;  /**< --gpu-file FILE (the last one) */
    const char *calibration; /**< --calibration FILE (the last one) */
    const char *hf_model;  /**< --hf-model ORG/NAME (the last one) */
    const char *revision;  /**< --revision REV (the last one) */
    const char *safetensors; /**< --safetensors PATH (the last one) */
    ts_cli_setting *sets;     /**< Other parameters, in command-line order. */
    size_t set_count;
    int plan;              /**< Parsed for `plan` (ts_cli_parse_plan_options). */
    const char *top;       /**< plan: --top N (the last one), unchecked text; NULL if absent */
} ts_cli_options;

/** Parse argv[0..argc-1] (the options after the command). On invalid input prints one
 *  line and returns TS_CLI_EXIT_USAGE; TS_CLI_EXIT_FAILURE when out of memory. */
int ts_cli_parse_options(const ts_cli *cx, int argc, char *const *argv, ts_cli_options *out);
/** The same for `plan`: --gpu NAME[,NAME...] sets "plan-gpus", --top N is kept in `top`,
 *  and the options of a fixed layout (--gpus, --tp, --pp, --pp-interleave, --ep, --zero,
 *  --micro-batch, --recompute) and of a GPU outside the catalogue (--gpu-file,
 *  --gpu-memory) are invalid input. */
int ts_cli_parse_plan_options(const ts_cli *cx, int argc, char *const *argv, ts_cli_options *out);
void ts_cli_options_free(ts_cli_options *opts);

/** Build the job the options describe: --model / --hf-config first, then every other
 *  parameter in order. With no job option at all, the built-in example job (not for
 *  plan, whose job is always the user's). */
int ts_cli_build_job(const ts_cli *cx, const ts_cli_options *opts, trainsize_job **out);
/** The same, starting from a copy of `base` (a job fresh from trainsize_job_new, kept by
 *  a caller that builds many: a copy costs less than setting every default again), or
 *  from a new job when `base` is NULL. */
int ts_cli_build_job_from(const ts_cli *cx, const ts_cli_options *opts, const trainsize_job *base, trainsize_job **out);

/** Find a catalogue parameter by name (the first `len` bytes of `name`); NULL if none. */
const trainsize_param_info *ts_cli_find_param(const char *name, size_t len);

/* ---- commands ---- */

/* Advice the estimate command asks for when a job does not fit. */
#define TS_CLI_ADVICE_MAX 5

/** An estimate and the changes that would make its job fit. */
typedef struct ts_cli_estimate {
    trainsize_result result;
    trainsize_advice advice[TS_CLI_ADVICE_MAX];
    size_t advised; /**< Entries of `advice` (0 when the job fits or nothing makes it). */
} ts_cli_estimate;

/** The estimate command up to its output: parse the options, build the job (from `base`
 *  as ts_cli_build_job_from does; NULL for a new one), estimate it and, when it does not fit,
 *  ask for advice. With --help, returns TS_CLI_EXIT_OK, sets `opts->help` and builds nothing.
 *  The caller frees `*job` (NULL when none was built) and `opts`, whatever the status. */
int ts_cli_estimate_options(const ts_cli *cx, int argc, char *const *argv, const trainsize_job *base, ts_cli_options *opts,
                         trainsize_job **job, ts_cli_estimate *e);

int ts_cli_cmd_estimate(const ts_cli *cx, int argc, char *const *argv);
int ts_cli_cmd_models(const ts_cli *cx, int argc, char *const *argv);
int ts_cli_cmd_gpus(const ts_cli *cx, int argc, char *const *argv);
/** `trainsize capacity`: the largest model each way of training fits (capacity_cmd.c). */
int ts_cli_cmd_capacity(const ts_cli *cx, int argc, char *const *argv);
int ts_cli_cmd_plan(const ts_cli *cx, int argc, char *const *argv);
int ts_cli_cmd_calibrate(const ts_cli *cx, int argc, char *const *argv);

/* ---- report.c: what the library writes ---- */

/** Append the human report of `r` (for `job`) to `o`: the library's trainsize_report.
 *  Each of these returns 0, or -1 after a message on stderr. */
int ts_cli_report(const ts_cli *cx, ts_out *o, const trainsize_job *job, const trainsize_result *r,
               const trainsize_advice *advice, size_t n);
/** The estimate's JSON (trainsize_result_json), `advice` (n entries) as its "advice". */
int ts_cli_result_json(const ts_cli *cx, ts_out *o, const trainsize_result *r, const trainsize_advice *advice, size_t n);
/** The plan's JSON (trainsize_plan_json). */
int ts_cli_plan_json(const ts_cli *cx, ts_out *o, const trainsize_job *job, const trainsize_plan_candidate *c, size_t count,
                  const trainsize_plan_stats *st);
/** The GPU catalogue's (gpus) or the presets' JSON (trainsize_gpus_json, trainsize_models_json). */
int ts_cli_catalogue_json(const ts_cli *cx, ts_out *o, int gpus);
/** The index of the field `name` in one of the library's tables (count, at), e.g.
 *  trainsize_gpu_field_count and trainsize_gpu_field_at; count() when it has none. */
size_t ts_cli_field_index(size_t (*count)(void), const trainsize_field_info *(*at)(size_t), const char *name);

/* ---- help.c ---- */

enum ts_cli_help_topic {
    TS_CLI_HELP_MAIN,
    TS_CLI_HELP_ESTIMATE,
    TS_CLI_HELP_PLAN,
    TS_CLI_HELP_MODELS,
    TS_CLI_HELP_GPUS,
    TS_CLI_HELP_CALIBRATE,
    TS_CLI_HELP_CAPACITY
};

/** An option that reads a file, beside the job's parameters (hf-config, gpu-file,
 *  calibration, in that order): its name, placeholder and doc. */
typedef struct ts_cli_file_option {
    const char *name, *metavar, *doc;
} ts_cli_file_option;
extern const ts_cli_file_option ts_cli_file_options[];
extern const size_t ts_cli_file_option_count;

/** Print the help of a topic to stdout. Returns an exit status. */
int ts_cli_print_help(const ts_cli *cx, enum ts_cli_help_topic topic);
/** The help of a topic, appended to `out` (as ts_cli_print_help prints it). */
void ts_cli_help_text(ts_out *out, enum ts_cli_help_topic topic);
/** A catalogue option's help text: its doc, what it takes, its unit and default. */
void ts_cli_param_doc(const trainsize_param_info *p, char *text, size_t cap);
/** Its placeholder in the usage ("N", "X", "CHOICE", ...; "" for a flag). */
const char *ts_cli_param_metavar(const trainsize_param_info *p);

/* ---- manpage.c ---- */

/** The manual page (man(7) roff) from the same catalogue and texts as --help, to stdout:
 *  `trainsize help --man`. Returns an exit status. */
int ts_cli_print_man(const ts_cli *cx);
/** A bash completion script (subcommands, options, choice values, preset and GPU
 *  names), to stdout: `trainsize help --bash-completion`. Returns an exit status. */
int ts_cli_print_bash_completion(const ts_cli *cx);

#endif
