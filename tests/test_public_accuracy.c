/* Accuracy against published runs: tests/accuracy/fixtures/public.json holds peak GPU
 * memory that people measured on real fine-tuning jobs (torchtune, Hugging Face
 * PEFT/FSDP/DeepSpeed, Answer.AI's fsdp_qlora, LLaMA-Factory, axolotl, OpenRLHF; and,
 * gathered 2026-12 as an independent check of memory at the margin, long-context, context-
 * and sequence-parallel runs, ms-swift's benchmarks and torchtitan's pull requests), each
 * row with its source URL, the settings as the source states them and the trainsize options
 * that describe the run. The options never name a framework (the later rows name their
 * stack, as a user would): the defaults are what is tested. How each kind of figure is compared is the fixture's "comparison" member;
 * rows the library cannot describe carry an "excluded" reason and are not compared.
 *
 * The bounds are what the library reaches today (docs/accuracy.md lists every row), so a
 * change that makes the estimate worse on real runs fails here. */
#include "ts_test.h"

#define FIXTURE_MAX (4u << 20)
#define MEDIAN_BOUND 0.10 /* the target for published runs */
/* The target, reached by the rows gathered before 2026-12: Answer.AI fsdp_qlora 7B QLoRA
 * ctx 512, -22.9 % (reserved). */
#define WORST_BOUND_FIRST 0.25
/* All rows: the target is NOT met. Six of the 2026-12 rows are off by more than 25 %:
 * DeepSpeed ZeRO-3 with the optimizer on the CPU at short sequences (HF's Ulysses blog,
 * Qwen3-4B, 1 GPU at 8k -58 %, 4 GPUs at 8k -53 %, 32k -26 %), Qwen3-0.6B at 1M tokens over
 * cp 8 (-27 %, -40 % with activation offload) and Qwen3-32B at 1M with activation offload
 * (+39 %). This bound holds today's state so that it gets no worse. */
#define WORST_BOUND 0.60
/* four of 10, each called to need 89-96 % of its GPU by the fits criterion (peak_needed: the
 * allocator releases its cache under pressure), so all four are close calls: SmolLM2-1.7B at 16k tokens on an H100 (axolotl PR
 * 2412), Qwen3-4B at 128k over 4 GPUs with the optimizer on the CPU, Qwen3-8B at 1M over
 * cp 8 without activation offload, Llama-3-8B full ZeRO-3 on 8 RTX 3090s */
#define OOM_CALLED_FIT_MAX 4
/* Runs that ran, called "does not fit": all sat within 6 % of their GPU (docs/accuracy.md). */
#define RAN_CALLED_NO_FIT_MAX 6
#define ROWS_MIN 70

typedef struct tally {
    double errors[256];
    size_t count;
    double worst_first; /* over the rows gathered before 2026-12 (no "gathered" member) */
    int ooms, oom_called_fit, ran_called_no_fit;
} tally;

static uint64_t member_u64(const ts_json_value *obj, const char *key)
{
    ts_json_value v;
    uint64_t out = 0;
    trainsize_error err;
    if (!ts_json_object_get(obj, key, &v)) return 0;
    assert_int_equal(ts_json_get_u64(&v, key, UINT64_MAX >> 1, &out, &err), 0);
    return out;
}

/* Relative distance of the predicted interval [lo, hi] from the measured one. */
static double interval_error(double lo, double hi, double flo, double fhi)
{
    if (hi < flo) return (hi - flo) / flo;
    if (lo > fhi) return (lo - fhi) / fhi;
    return 0.0;
}

static void compare_row(const ts_json_value *row, tally *t)
{
    ts_json_value id, settings, kind, range, oom, item, gathered;
    trainsize_job *job;
    trainsize_result r;
    trainsize_error err;
    char name[96] = "";
    size_t cursor = 0;
    double lo, hi, flo, fhi, e;
    int is_oom = 0;
    ts_json_object_get(row, "id", &id);
    ts_json_string_copy(&id, name, sizeof name);
    if (!ts_json_object_get(row, "settings", &settings)) return; /* excluded, with its reason */
    job = trainsize_job_new();
    assert_non_null(job);
    ts_test_set_json(job, &settings, "framework", name); /* the defaults are under test */
    if (trainsize_estimate(job, &r, sizeof r, &err) != 0) fail_msg("%s: %s", name, err.message);
    trainsize_job_free(job);
    if (ts_json_object_get(row, "oom", &oom) && ts_json_get_bool(&oom, "oom", &is_oom, &err) == 0 &&
        is_oom) {
        t->ooms++;
        if (r.memory.fits) t->oom_called_fit++;
        print_message("%-52s out of memory; predicted %6.2f GiB of %6.2f: %s\n", name,
                      (double)r.memory.peak_total / GIB, (double)r.memory.gpu_capacity / GIB,
                      r.memory.fits ? "FITS (wrong)" : "does not fit");
        return;
    }
    if (!r.memory.fits) t->ran_called_no_fit++;
    assert_int_equal(ts_json_object_get(row, "kind", &kind), 1);
    lo = (double)r.memory.peak_allocated;
    hi = (double)r.memory.peak_total;
    if (ts_json_string_equals(&kind, "allocated")) hi = lo;
    if (ts_json_string_equals(&kind, "reserved")) lo = hi = (double)r.memory.peak_reserved;
    if (ts_json_string_equals(&kind, "nvidia-smi")) lo = hi;
    flo = fhi = (double)member_u64(row, "figure_bytes");
    if (ts_json_object_get(row, "range_bytes", &range)) {
        size_t at = 0;
        assert_true(ts_json_array_next(&range, &at, &item));
        assert_int_equal(ts_json_get_u64(&item, "range_bytes", UINT64_MAX >> 1, &cursor, &err), 0);
        flo = (double)cursor;
        assert_true(ts_json_array_next(&range, &at, &item));
        assert_int_equal(ts_json_get_u64(&item, "range_bytes", UINT64_MAX >> 1, &cursor, &err), 0);
        fhi = (double)cursor;
    }
    assert_true(flo > 0 && fhi >= flo);
    e = interval_error(lo, hi, flo, fhi);
    assert_true(t->count < sizeof t->errors / sizeof t->errors[0]);
    t->errors[t->count++] = fabs(e);
    if (!ts_json_object_get(row, "gathered", &gathered) && fabs(e) > t->worst_first)
        t->worst_first = fabs(e);
    print_message("%-52s measured %7.2f GiB  predicted %7.2f..%7.2f  %+6.1f%%\n", name, flo / GIB,
                  lo / GIB, hi / GIB, 100.0 * e);
}

static void test_public_runs(void **state)
{
    size_t cursor = 0;
    char *text;
    ts_json_value root, rows, row;
    tally t = {{0}, 0, 0.0, 0, 0, 0};
    double median, worst;
    (void)state;
    text = ts_test_fixture("public.json", FIXTURE_MAX, &root);
    assert_int_equal(ts_json_object_get(&root, "rows", &rows), 1);
    while (ts_json_array_next(&rows, &cursor, &row)) compare_row(&row, &t);
    free(text);
    assert_true(t.count >= ROWS_MIN);
    median = ts_test_median(t.errors, t.count);
    worst = t.errors[t.count - 1];
    print_message("%zu published figures: median |error| %.1f%%, worst %.1f%% (%.1f%% before "
                  "2026-12); %d out-of-memory runs, %d called fitting; %d runs that ran called "
                  "not fitting\n", t.count, 100.0 * median, 100.0 * worst, 100.0 * t.worst_first,
                  t.ooms, t.oom_called_fit, t.ran_called_no_fit);
    assert_true(median <= MEDIAN_BOUND);
    assert_true(worst <= WORST_BOUND);
    assert_true(t.worst_first <= WORST_BOUND_FIRST);
    assert_true(t.ooms > 0);
    assert_true(t.oom_called_fit <= OOM_CALLED_FIT_MAX);
    assert_true(t.ran_called_no_fit <= RAN_CALLED_NO_FIT_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
