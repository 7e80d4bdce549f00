/* The command as a library entry (trainsize_command, trainsize_command_job): it writes only
 * through the caller's writers, its answers are the library's own texts, a writer that
 * fails or a cancelled plan is a failure with one message line, bad arguments are refused,
 * and calls on several threads at once answer as one call alone. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ts_test.h"

/* A growable buffer, as a writer's context; `fail` makes the writer take nothing. */
typedef struct sink {
    char *data;
    size_t len;
    int fail;
    int calls;
} sink;

static size_t keep(const char *data, size_t size, void *context)
{
    sink *s = (sink *)context;
    char *grown;
    s->calls++;
    if (s->fail) {
        errno = ENOSPC;
        return 0;
    }
    grown = realloc(s->data, s->len + size + 1);
    if (!grown) return 0;
    memcpy(grown + s->len, data, size);
    s->data = grown;
    s->len += size;
    s->data[s->len] = '\0';
    return size;
}

static void sink_free(sink *s)
{
    free(s->data);
    memset(s, 0, sizeof *s);
}

/* Run the command (argv NULL-terminated); its status, output and messages. */
static int run(char *const *argv, sink *out, sink *msg)
{
    trainsize_command_io io = {0};
    int argc = 0;
    while (argv[argc]) argc++;
    io.output = keep;
    io.output_context = out;
    io.message = keep;
    io.message_context = msg;
    return trainsize_command(argc, argv, &io);
}

#define ARGV(...) ((char *const[]){"trainsize", __VA_ARGS__, NULL})

/* The built-in example job, from the public list of its settings. */
static trainsize_job *example_job(void)
{
    trainsize_job *job = trainsize_job_new();
    const char *name, *value;
    size_t i;
    assert_non_null(job);
    for (i = 0; trainsize_example_setting(i, &name, &value); i++)
        assert_int_equal(trainsize_job_set(job, name, value, NULL), TRAINSIZE_OK);
    assert_true(i >= 3); /* a model, a GPU, a count at least */
    assert_int_equal(trainsize_example_setting(i, NULL, NULL), 0);
    return job;
}

static void test_version(void **state)
{
    sink out = {0}, msg = {0};
    char want[64];
    (void)state;
    assert_int_equal(run(ARGV("--version"), &out, &msg), TRAINSIZE_COMMAND_OK);
    snprintf(want, sizeof want, "trainsize %s\n", trainsize_version_string());
    assert_string_equal(out.data, want);
    assert_int_equal(out.calls, 1); /* the answer is handed over once */
    assert_int_equal(msg.len, 0);
    sink_free(&out);
}

/* `trainsize` alone is the report of the example job: trainsize_report's text, byte for byte. */
static void test_example_report_is_the_library_report(void **state)
{
    sink out = {0}, msg = {0};
    char *const argv[] = {"trainsize", NULL};
    trainsize_job *job = example_job();
    trainsize_result r;
    char *text;
    int len;
    (void)state;
    assert_int_equal(run(argv, &out, &msg), TRAINSIZE_COMMAND_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
    assert_true(r.memory.fits); /* no advice to ask for */
    len = trainsize_report(job, &r, NULL, 0, NULL, 0, NULL);
    assert_true(len > 0);
    text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(trainsize_report(job, &r, NULL, 0, text, (size_t)len + 1, NULL), len);
    assert_int_equal(out.len, (size_t)len);
    assert_memory_equal(out.data, text, (size_t)len);
    assert_int_equal(msg.len, 0);
    free(text);
    trainsize_job_free(job);
    sink_free(&out);
}

/* --json is trainsize_result_json of the job trainsize_command_job builds from the same options. */
static void test_json_is_the_job_estimated(void **state)
{
    sink out = {0}, msg = {0};
    char *const opts[] = {"--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8", "--zero", "3", "--json"};
    trainsize_job *job = NULL;
    trainsize_result r;
    static char text[1 << 20]; /* TRAINSIZE_JSON_MAX_BYTES */
    int len;
    (void)state;
    assert_int_equal(run(ARGV("estimate", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "8", "--zero", "3", "--json"),
                         &out, &msg), TRAINSIZE_COMMAND_OK);
    assert_int_equal(trainsize_command_job(9, opts, NULL, &job, NULL), TRAINSIZE_COMMAND_OK);
    assert_non_null(job);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
    assert_true(r.memory.fits);
    len = trainsize_result_json(&r, NULL, 0, text, sizeof text, NULL);
    assert_true(len > 0 && (size_t)len < sizeof text);
    assert_int_equal(out.len, (size_t)len); /* its newline included */
    assert_memory_equal(out.data, text, (size_t)len);
    trainsize_job_free(job);
    sink_free(&out);
}

/* Invalid input: status 2, no output, one line naming the option. */
static void test_invalid_option(void **state)
{
    sink out = {0}, msg = {0};
    (void)state;
    assert_int_equal(run(ARGV("estimate", "--gpus", "-3"), &out, &msg), TRAINSIZE_COMMAND_USAGE);
    assert_int_equal(out.len, 0);
    assert_non_null(msg.data);
    assert_int_equal(strncmp(msg.data, "trainsize: ", 11), 0);
    assert_non_null(strstr(msg.data, "gpus"));
    assert_ptr_equal(strchr(msg.data, '\n'), msg.data + msg.len - 1);
    sink_free(&msg);
    assert_int_equal(run(ARGV("no-such-command"), &out, &msg), TRAINSIZE_COMMAND_USAGE);
    assert_non_null(strstr(msg.data, "unknown command 'no-such-command'"));
    sink_free(&msg);
}

/* An output writer that takes nothing: status 1, a message naming errno as it left it. */
static void test_failing_writer(void **state)
{
    sink out = {0}, msg = {0};
    (void)state;
    out.fail = 1;
    assert_int_equal(run(ARGV("models"), &out, &msg), TRAINSIZE_COMMAND_FAILURE);
    assert_int_equal(out.calls, 1);
    assert_non_null(msg.data);
    assert_non_null(strstr(msg.data, "cannot write to standard output: "));
    assert_non_null(strstr(msg.data, strerror(ENOSPC)));
    sink_free(&msg);
}

/* No writers at all: the status still says how it went; bad argument vectors are refused. */
static void test_null_writers_and_bad_arguments(void **state)
{
    char *const with_null[] = {"trainsize", NULL, "x"};
    sink msg = {0};
    trainsize_command_io io = {0};
    trainsize_job *job = (trainsize_job *)&msg; /* must come back NULL */
    (void)state;
    assert_int_equal(trainsize_command(2, ARGV("gpus"), NULL), TRAINSIZE_COMMAND_OK);
    assert_int_equal(trainsize_command(2, ARGV("--bogus"), NULL), TRAINSIZE_COMMAND_USAGE);
    io.message = keep;
    io.message_context = &msg;
    assert_int_equal(trainsize_command(0, ARGV("gpus"), &io), TRAINSIZE_COMMAND_FAILURE);
    assert_int_equal(trainsize_command(1, NULL, &io), TRAINSIZE_COMMAND_FAILURE);
    assert_int_equal(trainsize_command(3, with_null, &io), TRAINSIZE_COMMAND_FAILURE);
    assert_non_null(strstr(msg.data, "argv"));
    sink_free(&msg);
    assert_int_equal(trainsize_command_job(-1, NULL, NULL, &job, NULL), TRAINSIZE_COMMAND_FAILURE);
    assert_null(job);
    assert_int_equal(trainsize_command_job(0, NULL, NULL, NULL, NULL), TRAINSIZE_COMMAND_FAILURE);
}

/* trainsize_command_job: no options is the example job; --help and bad values are refused. */
static void test_command_job(void **state)
{
    char *const help[] = {"--model", "gpt2", "--help"};
    char *const bad[] = {"--model", "no-such-model"};
    trainsize_job *job = NULL, *example = example_job();
    trainsize_result a, b;
    sink msg = {0};
    trainsize_command_io io = {0};
    (void)state;
    io.message = keep;
    io.message_context = &msg;
    assert_int_equal(trainsize_command_job(0, NULL, NULL, &job, &io), TRAINSIZE_COMMAND_OK);
    assert_int_equal(trainsize_estimate(job, &a, sizeof a, NULL), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(example, &b, sizeof b, NULL), TRAINSIZE_OK);
    assert_int_equal(a.memory.peak_total, b.memory.peak_total);
    assert_true(a.time.step_seconds == b.time.step_seconds);
    trainsize_job_free(job);
    assert_int_equal(trainsize_command_job(3, help, NULL, &job, &io), TRAINSIZE_COMMAND_USAGE);
    assert_null(job);
    assert_non_null(strstr(msg.data, "--help"));
    sink_free(&msg);
    assert_int_equal(trainsize_command_job(2, bad, example, &job, &io), TRAINSIZE_COMMAND_USAGE);
    assert_null(job);
    assert_non_null(strstr(msg.data, "no-such-model"));
    sink_free(&msg);
    trainsize_job_free(example);
}

typedef struct progress_seen {
    int calls;
    int cancel_at;
    uint64_t done, total;
} progress_seen;

static int on_progress(void *context, uint64_t done, uint64_t total, uint64_t examined)
{
    progress_seen *p = (progress_seen *)context;
    (void)examined;
    p->calls++;
    p->done = done;
    p->total = total;
    return p->cancel_at > 0 && p->calls >= p->cancel_at;
}

/* plan's progress reaches the caller; the answer is the same with or without it; a cancel
 * is a failure with a message and no output. */
static void test_plan_progress_and_cancel(void **state)
{
    char *const *argv = ARGV("plan", "--model", "gpt2", "--tokens", "1e9", "--gpu", "a100-40gb,rtx-4090",
                             "--max-gpus", "16", "--json");
    sink plain = {0}, out = {0}, msg = {0};
    progress_seen seen = {0};
    trainsize_command_io io = {0};
    (void)state;
    assert_int_equal(run(argv, &plain, &msg), TRAINSIZE_COMMAND_OK);
    io.output = keep;
    io.output_context = &out;
    io.message = keep;
    io.message_context = &msg;
    io.progress = on_progress;
    io.progress_context = &seen;
    assert_int_equal(trainsize_command(11, argv, &io), TRAINSIZE_COMMAND_OK);
    assert_true(seen.calls > 1);
    assert_true(seen.done == seen.total && seen.total > 1);
    assert_non_null(strstr(out.data, "\"candidates\""));
    assert_string_equal(out.data, plain.data);
    sink_free(&out);
    memset(&seen, 0, sizeof seen);
    seen.cancel_at = 1;
    assert_int_equal(trainsize_command(11, argv, &io), TRAINSIZE_COMMAND_FAILURE);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(out.len, 0);
    assert_non_null(strstr(msg.data, "cancel"));
    sink_free(&msg);
    sink_free(&plain);
}

/* Reentrancy: the same plan on four threads at once answers each as one call alone (its
 * JSON has no timing in it). */
#define THREADS 4
typedef struct thread_run {
    sink out, msg;
    int status;
} thread_run;

static char *const *plan_argv(void)
{
    static char *const argv[] = {"trainsize", "plan", "--model", "llama-3-8b", "--tokens", "1e11",
                                 "--gpu", "h100-sxm,a100-80gb", "--max-gpus", "64", "--json", NULL};
    return argv;
}

static void *run_thread(void *arg)
{
    thread_run *t = (thread_run *)arg;
    t->status = run(plan_argv(), &t->out, &t->msg);
    return NULL;
}

static void test_threads(void **state)
{
    thread_run alone = {0}, t[THREADS];
    pthread_t id[THREADS];
    int i;
    (void)state;
    memset(t, 0, sizeof t);
    alone.status = run(plan_argv(), &alone.out, &alone.msg);
    assert_int_equal(alone.status, TRAINSIZE_COMMAND_OK);
    for (i = 0; i < THREADS; i++) assert_int_equal(pthread_create(&id[i], NULL, run_thread, &t[i]), 0);
    for (i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(id[i], NULL), 0);
        assert_int_equal(t[i].status, TRAINSIZE_COMMAND_OK);
        assert_string_equal(t[i].out.data, alone.out.data);
        assert_int_equal(t[i].msg.len, 0);
        sink_free(&t[i].out);
    }
    sink_free(&alone.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_example_report_is_the_library_report),
        cmocka_unit_test(test_json_is_the_job_estimated),
        cmocka_unit_test(test_invalid_option),
        cmocka_unit_test(test_failing_writer),
        cmocka_unit_test(test_null_writers_and_bad_arguments),
        cmocka_unit_test(test_command_job),
        cmocka_unit_test(test_plan_progress_and_cancel),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
