/* The checked arithmetic every byte count goes through (checked.h): sums and products that
 * would pass 2^63 are refused, and ts_ceil_u64, which rounds every figure of the result up
 * to whole bytes and seconds' worth, is libm's ceil wherever a figure can be. */
#include "checked.h"
#include "ts_test.h"

static void test_add_and_mul_refuse_2_63(void **state)
{
    uint64_t out = 0;
    (void)state;
    assert_int_equal(ts_add_u64(1, 2, &out), 0);
    assert_int_equal(out, 3);
    assert_int_equal(ts_add_u64(TS_U64_LIMIT - 2, 1, &out), 0);
    assert_int_equal(out, TS_U64_LIMIT - 1);
    assert_int_equal(ts_add_u64(TS_U64_LIMIT - 1, 1, &out), -1);
    assert_int_equal(ts_add_u64(TS_U64_LIMIT, 0, &out), -1);
    assert_int_equal(ts_mul_u64(0, UINT64_MAX, &out), 0);
    assert_int_equal(out, 0);
    assert_int_equal(ts_mul_u64(UINT64_C(1) << 31, UINT64_C(1) << 31, &out), 0);
    assert_int_equal(out, UINT64_C(1) << 62);
    assert_int_equal(ts_mul_u64(UINT64_C(1) << 32, UINT64_C(1) << 31, &out), -1);
    assert_int_equal(ts_mul3_u64(1024, 1024, 1024, &out), 0);
    assert_int_equal(out, UINT64_C(1) << 30);
    assert_int_equal(ts_mul3_u64(UINT64_C(1) << 21, UINT64_C(1) << 21, UINT64_C(1) << 21, &out), -1);
}

/* Whole numbers, halves, the neighbours of whole numbers, 2^52 and 2^53 (past which every
 * double is whole) and the top of the range the callers allow (under 9.2e18). */
/* What may be rounded to a result's bytes: NaN, negatives and 9.2e18 up are refused. */
static void test_fits_u64(void **state)
{
    (void)state;
    assert_true(ts_fits_u64(0.0));
    assert_true(ts_fits_u64(0.5));
    assert_true(ts_fits_u64(9.1e18));
    assert_false(ts_fits_u64(9.2e18));
    assert_false(ts_fits_u64(-0.5));
    assert_false(ts_fits_u64(NAN));
    assert_false(ts_fits_u64(INFINITY));
}

static void test_ceil_is_libm_ceil(void **state)
{
    static const double whole[] = {0.0, 1.0, 2.0, 3.0, 1048576.0, 4503599627370496.0 /* 2^52 */,
                                   9007199254740992.0 /* 2^53 */, 1e17, 9.1e18};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        double w = whole[i];
        double probes[4];
        size_t k;
        probes[0] = w;
        probes[1] = nextafter(w, 1e19);
        probes[2] = w > 0.0 ? nextafter(w, 0.0) : 0.0;
        probes[3] = w + 0.5;
        for (k = 0; k < 4; k++) {
            double v = probes[k];
            if (v >= 9.2e18) continue;
            assert_int_equal(ts_ceil_u64(v), (uint64_t)ceil(v));
        }
    }
    assert_int_equal(ts_ceil_u64(1e-300), 1);
    assert_int_equal(ts_ceil_u64(0.5), 1);
    assert_int_equal(ts_ceil_u64(4503599627370495.5), UINT64_C(4503599627370496));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_and_mul_refuse_2_63),
        cmocka_unit_test(test_fits_u64),
        cmocka_unit_test(test_ceil_is_libm_ceil),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
