/* What the library hands back stays one printable line of UTF-8 whatever the caller's
 * bytes: every setter's refusal of a value with a newline, ESC and C1 controls, unknown
 * names, config.json and device-file names, file paths. A scheduler prints these at a
 * user's prompt and into its log (the Slurm plugin), so a raw newline forges a log line
 * and an ESC sequence drives the terminal. */
#include "ts_test.h"

#include "text.h"
#include "text_format.h"
#include "text_values.h"

/* Hostile bytes: newline, ESC with a colour sequence, DEL, a C1 CSI (U+009B), a Unicode
 * line separator (U+2028) and a carriage return. */
static const char HOSTILE[] = "a\nb\x1b[31mc\x7f" "d\xc2\x9b" "e\xe2\x80\xa8" "f\r";

/* One line of printable, valid UTF-8: no C0, DEL, C1, U+2028 or U+2029. */
static void assert_one_line(const char *what, const char *s)
{
    size_t i, len = strlen(s);
    for (i = 0; i < len;) {
        const unsigned char *u = (const unsigned char *)s + i;
        size_t n = ts_utf8_sequence(s, len, i);
        if (n == 0) fail_msg("%s: invalid UTF-8 at byte %zu: %s", what, i, s);
        if (u[0] < 0x20 || u[0] == 0x7F) fail_msg("%s: control byte 0x%02x at %zu", what, u[0], i);
        if (n == 2 && u[0] == 0xC2 && u[1] <= 0x9F) fail_msg("%s: C1 control at %zu", what, i);
        if (n == 3 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9))
            fail_msg("%s: line separator at %zu", what, i);
        i += n;
    }
}

/* Every parameter given the hostile text (alone, and after a number or a unit, where the
 * parser reads further) refuses it with a one-line message; none accepts it. */
static void test_every_setter_refusal_is_one_line(void **state)
{
    static const char *const prefixes[] = {"", "8", "8GiB", "llama-2-7b", "q,"};
    size_t i, p, refused = 0;
    (void)state;
    for (i = 0; i < trainsize_param_count(); i++) {
        const trainsize_param_info *info = trainsize_param_at(i);
        for (p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
            trainsize_job *job = trainsize_job_new();
            trainsize_error err;
            char value[96], what[128];
            assert_non_null(job);
            snprintf(value, sizeof value, "%s%s", prefixes[p], HOSTILE);
            snprintf(what, sizeof what, "%s = %s...", info->name, prefixes[p]);
            if (trainsize_job_set(job, info->name, value, &err) == TRAINSIZE_OK)
                fail_msg("%s: accepted a value with control bytes", what);
            assert_one_line(what, err.message);
            assert_one_line(what, err.field);
            refused++;
            trainsize_job_free(job);
        }
    }
    assert_true(refused > 100);
}

/* The message escapes what it quotes, so the reader still sees which bytes were given. */
static void test_escapes_show_the_bytes(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_job_set(job, "model", "a\nb\x1b[31m", &err), TRAINSIZE_E_UNKNOWN);
    assert_non_null(strstr(err.message, "\"a\\x0ab\\x1b[31m\""));
    assert_int_equal(trainsize_job_set(job, "gpu", "x\xc2\x9by", &err), TRAINSIZE_E_UNKNOWN);
    assert_non_null(strstr(err.message, "x\\u009by"));
    /* An unknown parameter's name is echoed (and named as the field) the same way. */
    assert_int_not_equal(trainsize_job_set(job, HOSTILE, "1", &err), TRAINSIZE_OK);
    assert_one_line("unknown name: message", err.message);
    assert_one_line("unknown name: field", err.field);
    trainsize_job_free(job);
}

/* Escapes that lengthen a long message cut it on a whole escape, never half of one. */
static void test_escapes_cut_whole(void **state)
{
    char s[16];
    (void)state;
    snprintf(s, sizeof s, "abcdefghij\n\n");
    ts_text_one_line(s, sizeof s);
    assert_string_equal(s, "abcdefghij\\x0a"); /* the second escape does not fit */
    snprintf(s, sizeof s, "ok \xe2\x80\xa9");
    ts_text_one_line(s, sizeof s);
    assert_string_equal(s, "ok \\u2029");
    snprintf(s, sizeof s, "caf\xc3\xa9 \t");
    ts_text_one_line(s, sizeof s);
    assert_string_equal(s, "caf\xc3\xa9 \\x09"); /* printable UTF-8 is kept */
}

/* The bidirectional controls reorder what a terminal shows ("Trojan Source"): escaped as
 * the line separators are; what a reader may pass on as it is (ts_text_printable); a name
 * cut to a table's column on whole characters (ts_fmt_column); calendar dates. */
static void test_bidi_printable_columns_dates(void **state)
{
    char s[32], col[64];
    (void)state;
    snprintf(s, sizeof s, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x80\xa9");
    ts_text_one_line(s, sizeof s);
    assert_string_equal(s, "a\\u202e" "b\\u2066" "c\\u2029");
    assert_true(ts_text_printable("h100-80gb caf\xc3\xa9 " "\xf0\x9f\x98\x80"));
    assert_false(ts_text_printable("a\nb"));
    assert_false(ts_text_printable("a\x1b[2J"));
    assert_false(ts_text_printable("a\xc2\x85"));       /* C1 */
    assert_false(ts_text_printable("a\xe2\x80\xae"));   /* U+202E */
    assert_false(ts_text_printable("a\xff"));           /* not UTF-8 */
    assert_false(ts_text_printable("a\xc3"));           /* half a character */
    assert_string_equal(ts_fmt_column(col, sizeof col, "x\xc3\xa9\xc3\xa9\xc3\xa9", 3), "x\xc3\xa9\xc3\xa9");
    assert_string_equal(ts_fmt_column(col, sizeof col, "ab", 4), "ab  ");
    assert_string_equal(ts_fmt_column(col, sizeof col, "\xf0\x9f\x98\x80z", 1), "\xf0\x9f\x98\x80");
    assert_string_equal(ts_fmt_column(col, 4, "\xf0\x9f\x98\x80", 2), "  "); /* no room for it whole: padding */
    assert_true(ts_date_valid("2024-02-29") && ts_date_valid("2000-02-29") && ts_date_valid("2026-12-31"));
    assert_false(ts_date_valid("2100-02-29") || ts_date_valid("2026-13-01") || ts_date_valid("2026-04-31"));
    assert_false(ts_date_valid("2026-1-01") || ts_date_valid("2026-01-01 ") || ts_date_valid("") ||
                 ts_date_valid("0999-01-01"));
}

/* Names a caller's file gives (config.json's _name_or_path, a device file's name and
 * source) come back in results and reports: one line too. */
static void test_names_from_files_are_one_line(void **state)
{
    static const char config[] =
        "{\"model_type\": \"llama\", \"_name_or_path\": \"evil\\n\\u001b[2Jmodel\\u2028x\","
        " \"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4,"
        " \"intermediate_size\": 128, \"vocab_size\": 1000}";
    static const char device[] =
        "{\"name\": \"my\\u001bgpu\", \"full_name\": \"line\\nbreak\", \"source\": \"s\\u0085\","
        " \"memory_gib\": 96, \"memory_bandwidth\": 3.0e12, \"flops_bf16\": 500e12,"
        " \"tdp_watts\": 600}";
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    (void)state;
    if (trainsize_job_load_hf_config(job, config, sizeof config - 1, &err) != TRAINSIZE_OK)
        fail_msg("config: %s", err.message);
    if (trainsize_job_load_gpu_json(job, device, sizeof device - 1, &err) != TRAINSIZE_OK)
        fail_msg("device: %s", err.message);
    if (trainsize_estimate(job, &r, sizeof r, &err) != TRAINSIZE_OK) fail_msg("%s", err.message);
    assert_one_line("model name", r.model.name);
    assert_non_null(strstr(r.model.name, "evil\\x0a\\x1b[2Jmodel\\u2028x"));
    assert_one_line("gpu", r.gpu);
    trainsize_job_free(job);
}

/* A file path quoted in an error is the caller's bytes too. */
static void test_file_paths_are_one_line(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_job_load_hf_config_file(job, "/nonexistent/a\nb\x1b[0m", &err),
                     TRAINSIZE_E_IO);
    assert_one_line("hf-config path", err.message);
    assert_non_null(strstr(err.message, "a\\x0ab\\x1b[0m"));
    assert_int_equal(trainsize_job_load_gpu_file(job, "/nonexistent/\x1b", &err), TRAINSIZE_E_IO);
    assert_one_line("gpu-file path", err.message);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_setter_refusal_is_one_line),
        cmocka_unit_test(test_escapes_show_the_bytes),
        cmocka_unit_test(test_escapes_cut_whole),
        cmocka_unit_test(test_bidi_printable_columns_dates),
        cmocka_unit_test(test_names_from_files_are_one_line),
        cmocka_unit_test(test_file_paths_are_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
