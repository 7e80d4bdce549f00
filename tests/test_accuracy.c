/* Accuracy against measurement: the fixtures in tests/accuracy/fixtures were measured by
 * tests/accuracy/measure_cpu.py (real PyTorch models, autograd's saved tensors counted
 * storage by storage, a real optimizer step); each names the libtrainsize settings of the
 * same job. Every term must land within 5 % of what was measured (the target). A
 * gap that comes from an implementation choice is modelled as a setting, never absorbed
 * by a wider tolerance. */
#include <stdio.h>
#include <stdlib.h>

#include "ts_test.h"

#define TOLERANCE 0.05
#define FIXTURE_MAX (4u << 20)

/* One compared term: library figure against measured bytes. */
typedef struct term {
    const char *measured_key;
    uint64_t predicted;
} term;

static int compare_config(const ts_json_value *config, double *worst, char *worst_name,
                          size_t worst_cap)
{
    ts_json_value settings, measured, key, value, name;
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    char cname[96] = "", k[64], v[64];
    size_t cursor = 0, i;
    int failures = 0;
    assert_non_null(job);
    ts_json_object_get(config, "name", &name);
    ts_json_string_copy(&name, cname, sizeof cname);
    assert_int_equal(ts_json_object_get(config, "settings", &settings), 1);
    assert_int_equal(ts_json_object_get(config, "measured", &measured), 1);
    while (ts_json_object_next(&settings, &cursor, &key, &value)) {
        ts_json_string_copy(&key, k, sizeof k);
        ts_json_string_copy(&value, v, sizeof v);
        if (trainsize_job_set(job, k, v, &err) != 0) fail_msg("%s: %s", cname, err.message);
    }
    if (trainsize_estimate(job, &r, sizeof r, &err) != 0) fail_msg("%s: %s", cname, err.message);
    {
        const term terms[] = {
            {"parameter_bytes", r.memory.weights},
            {"gradient_bytes", r.memory.gradients},
            {"optimizer_state_bytes", r.memory.optimizer},
            {"saved_bytes_total", r.memory.activations},
            {"saved_bytes_loss", r.memory.activations_loss},
            {"saved_bytes_model", r.memory.activations - r.memory.activations_loss},
        };
        for (i = 0; i < sizeof terms / sizeof terms[0] + 1; i++) {
            ts_json_value m, list;
            uint64_t measured_bytes;
            double error;
            size_t at = 0;
            int last_layer = i == sizeof terms / sizeof terms[0];
            term t;
            if (last_layer) {
                /* One layer: the storages layer 1 adds (layer 0 also holds the shared rotary
                 * cos/sin), less autocast's weight copies, which the library counts per
                 * step in activations_layers rather than per layer and micro-batch. */
                ts_json_value regions, region, by_kind, cast, first;
                uint64_t cast_bytes = 0, first_bytes = 0;
                t.measured_key = "saved_bytes_per_layer";
                t.predicted = r.memory.activations_per_layer;
                if (!ts_json_object_get(&measured, "regions", &regions)) continue;
                while (ts_json_array_next(&regions, &at, &region)) {
                    ts_json_object_get(&region, "region", &list);
                    if (ts_json_string_equals(&list, "layer1")) break;
                }
                if (!ts_json_string_equals(&list, "layer1")) continue;
                assert_int_equal(ts_json_object_get(&region, "bytes_first", &first), 1);
                assert_int_equal(ts_json_get_u64(&first, "bytes_first", UINT64_MAX >> 1,
                                                 &first_bytes, &err), 0);
                if (ts_json_object_get(&region, "by_kind", &by_kind) &&
                    ts_json_object_get(&by_kind, "weight_cast", &cast))
                    assert_int_equal(ts_json_get_u64(&cast, "weight_cast", UINT64_MAX >> 1,
                                                     &cast_bytes, &err), 0);
                measured_bytes = first_bytes - cast_bytes;
            } else {
                t = terms[i];
                if (!ts_json_object_get(&measured, t.measured_key, &m)) continue;
                assert_int_equal(ts_json_get_u64(&m, t.measured_key, UINT64_MAX >> 1,
                                                 &measured_bytes, &err), 0);
            }
            error = measured_bytes ? ((double)t.predicted - (double)measured_bytes) /
                                         (double)measured_bytes
                                   : (t.predicted ? 1.0 : 0.0);
            print_message("%-34s %-22s predicted %12llu measured %12llu  %+6.1f%%\n", cname,
                          t.measured_key, (unsigned long long)t.predicted,
                          (unsigned long long)measured_bytes, 100.0 * error);
            if (fabs(error) > fabs(*worst)) {
                *worst = error;
                snprintf(worst_name, worst_cap, "%s / %s", cname, t.measured_key);
            }
            if (fabs(error) > TOLERANCE) failures++;
        }
    }
    trainsize_job_free(job);
    return failures;
}

static void test_cpu_fixture(void **state)
{
    size_t cursor = 0;
    char *text;
    ts_json_value root, configs, config;
    int failures = 0, count = 0;
    double worst = 0;
    char worst_name[200] = "";
    (void)state;
    text = ts_test_fixture("cpu.json", FIXTURE_MAX, &root);
    assert_int_equal(ts_json_object_get(&root, "configs", &configs), 1);
    while (ts_json_array_next(&configs, &cursor, &config)) {
        failures += compare_config(&config, &worst, worst_name, sizeof worst_name);
        count++;
    }
    print_message("%d configurations; worst term: %s at %+.1f%%\n", count, worst_name, 100.0 * worst);
    free(text);
    assert_true(count > 0);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
