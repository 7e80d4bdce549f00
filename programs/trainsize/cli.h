/* The trainsize command: declarations shared by its source files.
 *
 * The command is a thin client of the public API (trainsize.h): it parses options into a
 * trainsize_job, asks for an estimate and prints it. Every file has one job:
 *   main.c          dispatch to the commands
 *   defaults.c      the built-in example job (`trainsize` with no arguments)
 *   args.c          option parsing into a trainsize_job
 *   estimate_cmd.c  the `estimate` command
 *   report.c        what the library writes: the report, the JSON texts
 *   catalog_cmds.c  the `models` and `gpus` commands
 *   plan_cmd.c      the `plan` command: options -> trainsize_plan -> ranked table or JSON
 *   calibrate_cmd.c the `calibrate` command: measured runs -> a site calibration
 *   help.c          usage texts
 *   manpage.c       the manual page and the bash completion, from the same texts
 *   outbuf.c        output buffering, the checked write to stdout, one-line errors
 */
#ifndef TRAINSIZE_CLI_H
#define TRAINSIZE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/** Exit status of the command (see the CLI contract). */
enum {
    CLI_EXIT_OK = 0,      /**< An estimate (or listing, help) was produced. */
    CLI_EXIT_FAILURE = 1, /**< Any other failure: output error, out of memory, ... */
    CLI_EXIT_USAGE = 2    /**< Invalid input: one line on stderr, nothing on stdout. */
};

/** Width the human output keeps to (the text buffer's, lib/text_out.h). */
#define CLI_COLUMNS TS_COLUMNS

/* ---- lib/text_out.c, lib/text_format.c: the text buffer and number formats, shared with
 * the library's report (compiled into the command too) ---- */
#include "text_format.h"
#include "text_out.h"

/** Write the buffer to stdout and check that it arrived; frees it. Returns an exit status:
 *  CLI_EXIT_OK, or CLI_EXIT_FAILURE after a message on stderr. Built with
 *  CLI_OUTPUT_TO_MODULE (the WebAssembly module), the buffer goes to cli_module_output
 *  instead, which the module defines: its caller reads it from memory, not from stdout. */
int cli_out_flush_stdout(ts_out *o);
/** cli_out_flush_stdout after a writer's status: 0 flushes, anything else (the writer has
 *  said why on stderr) frees the output and gives CLI_EXIT_FAILURE. */
int cli_out_finish(ts_out *o, int written);
#ifdef CLI_OUTPUT_TO_MODULE
/** Take the command's output (the buffer's data is the callee's from here). Returns an
 *  exit status. */
int cli_module_output(ts_out *o);
/** The planner's progress (trainsize_plan_progress_fn), handed on to the module's caller,
 *  whose answer can stop the search. */
int cli_module_progress(void *context, uint64_t done, uint64_t total, uint64_t examined);
#define CLI_PLAN_PROGRESS cli_module_progress
#else
#define CLI_PLAN_PROGRESS NULL /* the native command's plans take a fraction of a second */
#endif

/** Print "trainsize: <message>" as exactly one line on stderr (control characters in the
 *  message are replaced, so that user text cannot break the line). */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);

/** Report a library failure (its message, or the status text when it has none). Returns
 *  the exit status the failure maps to. */
int cli_library_error(int code, const trainsize_error *err);

/* ---- defaults.c ---- */

/** One name/value setting of a job. */
typedef struct cli_setting {
    const char *name;
    const char *value;
} cli_setting;

/** The built-in example job, and its number of settings. */
extern const cli_setting cli_example_job[];
extern const size_t cli_example_job_count;

/** Apply the example job's settings to `job`. Returns an exit status. */
int cli_apply_example_job(trainsize_job *job);

/* ---- checkpoint.c ---- */

/** Load --hf-model's snapshot or --safetensors' checkpoint into `job` (after --model or
 *  --hf-config, which a --safetensors checkpoint is compared with): one line naming the
 *  file or id on failure. Says on standard error when the headers hold fewer parameters
 *  than the shape. Returns an exit status. */
struct cli_options;
int cli_load_checkpoint(trainsize_job *job, const struct cli_options *opts);

/* ---- args.c ---- */

/** Parsed options of `estimate` (or of `plan`). */
typedef struct cli_options {
    int json;              /**< --json */
    int help;              /**< --help or -h */
    const char *model;     /**< --model NAME (the last one) */
    const char *hf_config; /**< --hf-config FILE (the last one) */
    const char *gpu_file;  /**< --gpu-file FILE (the last one) */
    const char *calibration; /**< --calibration FILE (the last one) */
    const char *hf_model;  /**< --hf-model ORG/NAME (the last one) */
    const char *revision;  /**< --revision REV (the last one) */
    const char *safetensors; /**< --safetensors PATH (the last one) */
    cli_setting *sets;     /**< Other parameters, in command-line order. */
    size_t set_count;
    int plan;              /**< Parsed for `plan` (cli_parse_plan_options). */
    const char *top;       /**< plan: --top N (the last one), unchecked text; NULL if absent */
} cli_options;

/** Parse argv[0..argc-1] (the options after the command). On invalid input prints one
 *  line and returns CLI_EXIT_USAGE; CLI_EXIT_FAILURE when out of memory. */
int cli_parse_options(int argc, char **argv, cli_options *out);
/** The same for `plan`: --gpu NAME[,NAME...] sets "plan-gpus", --top N is kept in `top`,
 *  and the options of a fixed layout (--gpus, --tp, --pp, --pp-interleave, --ep, --zero,
 *  --micro-batch, --recompute) and of a GPU outside the catalogue (--gpu-file,
 *  --gpu-memory) are invalid input. */
int cli_parse_plan_options(int argc, char **argv, cli_options *out);
void cli_options_free(cli_options *opts);

/** Build the job the options describe: --model / --hf-config first, then every other
 *  parameter in order. With no job option at all, the built-in example job (not for
 *  plan, whose job is always the user's). */
int cli_build_job(const cli_options *opts, trainsize_job **out);
/** The same, starting from a copy of `base` (a job fresh from trainsize_job_new, kept by
 *  a caller that builds many: a copy costs less than setting every default again), or
 *  from a new job when `base` is NULL. */
int cli_build_job_from(const cli_options *opts, const trainsize_job *base, trainsize_job **out);

/** Find a catalogue parameter by name (the first `len` bytes of `name`); NULL if none. */
const trainsize_param_info *cli_find_param(const char *name, size_t len);

/* ---- commands ---- */

/* Advice the estimate command asks for when a job does not fit. */
#define CLI_ADVICE_MAX 5

/** An estimate and the changes that would make its job fit. */
typedef struct cli_estimate {
    trainsize_result result;
    trainsize_advice advice[CLI_ADVICE_MAX];
    size_t advised; /**< Entries of `advice` (0 when the job fits or nothing makes it). */
} cli_estimate;

/** The estimate command up to its output: parse the options, build the job (from `base`
 *  as cli_build_job_from does; NULL for a new one), estimate it and, when it does not fit,
 *  ask for advice. With --help, returns CLI_EXIT_OK, sets `opts->help` and builds nothing.
 *  The caller frees `*job` (NULL when none was built) and `opts`, whatever the status. */
int cli_estimate_options(int argc, char **argv, const trainsize_job *base, cli_options *opts,
                         trainsize_job **job, cli_estimate *e);

int cli_cmd_estimate(int argc, char **argv);
int cli_cmd_models(int argc, char **argv);
int cli_cmd_gpus(int argc, char **argv);
/** `trainsize capacity`: the largest model each way of training fits (capacity_cmd.c). */
int cli_cmd_capacity(int argc, char **argv);
int cli_cmd_plan(int argc, char **argv);
int cli_cmd_calibrate(int argc, char **argv);

/* ---- report.c: what the library writes ---- */

/** Append the human report of `r` (for `job`) to `o`: the library's trainsize_report.
 *  Each of these returns 0, or -1 after a message on stderr. */
int cli_report(ts_out *o, const trainsize_job *job, const trainsize_result *r,
               const trainsize_advice *advice, size_t n);
/** The estimate's JSON (trainsize_result_json), `advice` (n entries) as its "advice". */
int cli_result_json(ts_out *o, const trainsize_result *r, const trainsize_advice *advice, size_t n);
/** The plan's JSON (trainsize_plan_json). */
int cli_plan_json(ts_out *o, const trainsize_job *job, const trainsize_plan_candidate *c, size_t count,
                  const trainsize_plan_stats *st);
/** The GPU catalogue's (gpus) or the presets' JSON (trainsize_gpus_json, trainsize_models_json). */
int cli_catalogue_json(ts_out *o, int gpus);
/** The index of the field `name` in one of the library's tables (count, at), e.g.
 *  trainsize_gpu_field_count and trainsize_gpu_field_at; count() when it has none. */
size_t cli_field_index(size_t (*count)(void), const trainsize_field_info *(*at)(size_t), const char *name);

/* ---- help.c ---- */

enum cli_help_topic {
    CLI_HELP_MAIN,
    CLI_HELP_ESTIMATE,
    CLI_HELP_PLAN,
    CLI_HELP_MODELS,
    CLI_HELP_GPUS,
    CLI_HELP_CALIBRATE,
    CLI_HELP_CAPACITY
};

/** An option that reads a file, beside the job's parameters (hf-config, gpu-file,
 *  calibration, in that order): its name, placeholder and doc. */
typedef struct cli_file_option {
    const char *name, *metavar, *doc;
} cli_file_option;
extern const cli_file_option cli_file_options[];
extern const size_t cli_file_option_count;

/** Print the help of a topic to stdout. Returns an exit status. */
int cli_print_help(enum cli_help_topic topic);
/** The help of a topic, appended to `out` (as cli_print_help prints it). */
void cli_help_text(ts_out *out, enum cli_help_topic topic);
/** A catalogue option's help text: its doc, what it takes, its unit and default. */
void cli_param_doc(const trainsize_param_info *p, char *text, size_t cap);
/** Its placeholder in the usage ("N", "X", "CHOICE", ...; "" for a flag). */
const char *cli_param_metavar(const trainsize_param_info *p);

/* ---- manpage.c ---- */

/** The manual page (man(7) roff) from the same catalogue and texts as --help, to stdout:
 *  `trainsize help --man`. Returns an exit status. */
int cli_print_man(void);
/** A bash completion script (subcommands, options, choice values, preset and GPU
 *  names), to stdout: `trainsize help --bash-completion`. Returns an exit status. */
int cli_print_bash_completion(void);

#endif
