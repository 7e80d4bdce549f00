/* The `calibrate` command: a site's measured runs -> the library's fit -> the calibration
 * JSON as the output (for --calibration FILE), and how well it fits, run by run, as a note
 * to the message writer (so `trainsize calibrate runs.json > site.json` keeps only the file). */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */

#include "cli.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RUNS_MAX 256

/* The summary's shares are the library's first TRAINSIZE_CALIBRATION_SHARES calibration
 * settings, in its order. */
#define SHARE_NAME(k) trainsize_calibration_setting_at(k)

/* The whole file, bounded as the library bounds the files it reads, and only a regular
 * one (opened without blocking: a FIFO would wait for a writer, a device never end). NULL
 * after a message, with *status the exit status it means (out of memory is no usage
 * error). */
static char *read_runs(const ts_cli *cx, const char *path, size_t *len, int *status)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    FILE *f = NULL;
    char *buf;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        ts_cli_error(cx, "calibrate: \"%.200s\" is not a regular file", path);
        return NULL;
    }
    if (fd >= 0) f = fdopen(fd, "rb");
    if (!f) {
        if (fd >= 0) close(fd);
        ts_cli_error(cx, "calibrate: cannot open \"%.200s\"", path);
        return NULL;
    }
    buf = malloc(TRAINSIZE_HF_CONFIG_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        ts_cli_error(cx, "out of memory");
        *status = TS_CLI_EXIT_FAILURE;
        return NULL;
    }
    *len = fread(buf, 1, TRAINSIZE_HF_CONFIG_MAX_BYTES + 1, f);
    if (ferror(f) || *len > TRAINSIZE_HF_CONFIG_MAX_BYTES) {
        ts_cli_error(cx, "calibrate: \"%.200s\": %s", path, ferror(f) ? "cannot be read" : "over 1 MiB");
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    return buf;
}

static void signed_pct(char *buf, size_t cap, double estimate, double measured)
{
    snprintf(buf, cap, "%+.0f%%", 100.0 * (estimate / measured - 1.0));
}

/* The fit, run by run and in sum, as a person reads it. */
static void report(ts_out *o, const trainsize_calibration_run *runs, size_t n,
                   const trainsize_calibration_summary *s)
{
    size_t i, k;
    char m[TS_FMT_MAX], b[TS_FMT_MAX], a[TS_FMT_MAX], l[TS_FMT_MAX], pb[16], pa[16], pl[16], name[4 * 34 + 1];
    ts_out_printf(o, "calibrate: %zu run%s; step seconds measured, estimated before and after, and each run\n"
                     "from the fit of the others (left out)\n",
                  n, n == 1 ? "" : "s");
    ts_out_printf(o, "  %-34s %9s %15s %15s %15s\n", "run", "measured", "before", "after", "left out");
    for (i = 0; i < n; i++) {
        const trainsize_calibration_run *r = &runs[i];
        snprintf(m, sizeof m, "%.3g", r->step_seconds);
        snprintf(b, sizeof b, "%.3g", r->step_seconds_before);
        snprintf(a, sizeof a, "%.3g", r->step_seconds_after);
        signed_pct(pb, sizeof pb, r->step_seconds_before, r->step_seconds);
        signed_pct(pa, sizeof pa, r->step_seconds_after, r->step_seconds);
        if (r->step_seconds_left_out > 0) {
            snprintf(l, sizeof l, "%.3g", r->step_seconds_left_out);
            signed_pct(pl, sizeof pl, r->step_seconds_left_out, r->step_seconds);
        } else {
            snprintf(l, sizeof l, "-");
            pl[0] = '\0';
        }
        ts_out_printf(o, "  %s %9s %8s %6s %8s %6s %8s %6s\n", ts_fmt_column(name, sizeof name, r->name, 34), m, b,
                      pb, a, pa, l, pl);
    }
    ts_out_printf(o, "step time, median error: %.1f %% before, %.1f %% after", 100.0 * s->step_error_before,
                  100.0 * s->step_error_after);
    if (s->left_out)
        ts_out_printf(o, ", %.1f %% with each run left out\n", 100.0 * s->step_error_left_out);
    else
        ts_out_puts(o, " (leave-one-out needs 3 to 64 runs)\n");
    if (s->peak_runs)
        ts_out_printf(o, "peak memory (%zu run%s), median error: %.1f %% before, %.1f %% after\n", s->peak_runs,
                      s->peak_runs == 1 ? "" : "s", 100.0 * s->peak_error_before, 100.0 * s->peak_error_after);
    ts_out_puts(o, "fitted:");
    for (k = 0; k < TRAINSIZE_CALIBRATION_SHARES; k++)
        if (s->fitted[k]) ts_out_printf(o, " %s %.3g;", SHARE_NAME(k), s->values[k]);
    if (s->allocator_slack >= 0) ts_out_printf(o, " allocator-slack %.3g;", s->allocator_slack);
    if (s->sharded_slack >= 0) ts_out_printf(o, " sharded-slack %.3g;", s->sharded_slack);
    ts_out_puts(o, "\nnot fitted (no run's step depends on it, the default kept):");
    for (k = 0, i = 0; k < TRAINSIZE_CALIBRATION_SHARES; k++)
        if (!s->fitted[k]) ts_out_printf(o, "%s %s", i++ ? "," : "", SHARE_NAME(k));
    ts_out_puts(o, i ? "\n" : " none\n");
}

static int usage(const ts_cli *cx)
{
    ts_cli_error(cx, "calibrate: usage: trainsize calibrate RUNS.json [--date YYYY-MM-DD] (see trainsize calibrate --help)");
    return TS_CLI_EXIT_USAGE;
}

int ts_cli_cmd_calibrate(const ts_cli *cx, int argc, char *const *argv)
{
    const char *path = NULL, *date = NULL;
    char today[16];
    trainsize_calibration_run *runs;
    trainsize_calibration_summary summary;
    trainsize_error err;
    size_t len = 0, count = 0, need = 0;
    char *text, *calibration;
    ts_out out, table;
    int i, rc, status;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return ts_cli_print_help(cx, TS_CLI_HELP_CALIBRATE);
        if (strcmp(argv[i], "--date") == 0 && i + 1 < argc)
            date = argv[++i];
        else if (strncmp(argv[i], "--date=", 7) == 0)
            date = argv[i] + 7;
        else if (argv[i][0] == '-' || path)
            return usage(cx);
        else
            path = argv[i];
    }
    if (!path) return usage(cx);
    if (date && (strlen(date) != 10 || date[4] != '-' || date[7] != '-' || strspn(date, "0123456789-") != 10)) {
        ts_cli_error(cx, "calibrate: --date: expected YYYY-MM-DD, got \"%.20s\"", date);
        return TS_CLI_EXIT_USAGE;
    }
    if (!date) {
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm) && strftime(today, sizeof today, "%Y-%m-%d", &tm)) date = today;
    }
    status = TS_CLI_EXIT_USAGE;
    text = read_runs(cx, path, &len, &status);
    if (!text) return status;
    runs = calloc(RUNS_MAX, sizeof *runs);
    if (!runs) {
        free(text);
        ts_cli_error(cx, "out of memory");
        return TS_CLI_EXIT_FAILURE;
    }
    rc = trainsize_calibrate(text, len, date, runs, RUNS_MAX, &count, &summary, NULL, 0, &need, &err);
    calibration = rc == TRAINSIZE_OK ? malloc(need + 1) : NULL;
    if (rc == TRAINSIZE_OK && calibration)
        rc = trainsize_calibrate(text, len, date, runs, RUNS_MAX, &count, &summary, calibration, need + 1, &need, &err);
    free(text);
    if (rc != TRAINSIZE_OK || !calibration) {
        free(runs);
        free(calibration);
        if (rc == TRAINSIZE_OK) {
            ts_cli_error(cx, "out of memory");
            return TS_CLI_EXIT_FAILURE;
        }
        return ts_cli_library_error(cx, rc, &err);
    }
    ts_out_init(&table);
    report(&table, runs, count, &summary);
    free(runs);
    if (!table.failed)
        (void)ts_cli_note(cx, table.data, table.len); /* a note: the calibration is the answer */
    ts_out_free(&table);
    ts_out_init(&out);
    ts_out_puts(&out, calibration);
    free(calibration);
    status = ts_cli_flush(cx, &out);
    return status;
}
