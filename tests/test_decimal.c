/* The one decimal reader (decimal.c), shared by settings given as text and by JSON: what
 * it takes, how it splits a number, whole numbers with the reason a value is not one, and
 * doubles against the C library's strtod in the "C" locale (correctly rounded). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "text_values.h"

static size_t read_text(const char *s, ts_decimal *d) { return ts_decimal_read(s, strlen(s), d); }

/* What is a number, and how much of the text it is. */
static void test_syntax(void **state)
{
    static const struct { const char *text; size_t taken; } cases[] = {
        {"0", 1}, {"-3", 2}, {"+7", 2}, {"1.5", 3}, {"1.", 2}, {".5", 2}, {"2e12", 4},
        {"2E+3", 4}, {"1e-5x", 4}, {"12 GB", 2},
        {"", 0}, {"-", 0}, {".", 0}, {"e5", 0}, {"1e", 0}, {"1e+", 0}, {"abc", 0},
        {"0x10", 1}, {"inf", 0}, {"nan", 0},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_decimal d;
        if (read_text(cases[i].text, &d) != cases[i].taken) fail_msg("\"%s\"", cases[i].text);
    }
}

/* Trailing zeros go into the exponent, leading ones nowhere, fractional digits lower it. */
static void test_split(void **state)
{
    static const struct { const char *text; uint64_t mantissa; long long exponent; int inexact; } cases[] = {
        {"100", 1, 2, 0}, {"120.0", 12, 1, 0}, {"0.05", 5, -2, 0}, {"1200.500", 12005, -1, 0},
        {"0.000000000000000000000000001", 1, -27, 0}, {"1.5e3", 15, 2, 0},
        {"18446744073709551615", UINT64_MAX, 0, 0},
        {"18446744073709551616", 1844674407370955161u, 1, 1},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_decimal d;
        assert_int_equal(read_text(cases[i].text, &d), strlen(cases[i].text));
        if (d.mantissa != cases[i].mantissa || d.exponent != cases[i].exponent ||
            d.inexact != cases[i].inexact)
            fail_msg("\"%s\": %llu e%lld inexact %d", cases[i].text, (unsigned long long)d.mantissa,
                     d.exponent, d.inexact);
    }
}

static void test_whole_numbers(void **state)
{
    static const struct { const char *text; uint64_t max; ts_decimal_status want; uint64_t value; } cases[] = {
        {"0", 0, TS_DECIMAL_OK, 0}, {"2e12", UINT64_MAX, TS_DECIMAL_OK, 2000000000000u},
        {"1.5e3", 10000, TS_DECIMAL_OK, 1500}, {"120.0", 200, TS_DECIMAL_OK, 120},
        {"18446744073709551615", UINT64_MAX, TS_DECIMAL_OK, UINT64_MAX},
        {"-3", 10, TS_DECIMAL_NEGATIVE, 0}, {"1.5", 10, TS_DECIMAL_FRACTION, 0},
        {"1e-3", 10, TS_DECIMAL_FRACTION, 0}, {"18446744073709551616", UINT64_MAX, TS_DECIMAL_TOO_BIG, 0},
        {"1e20", UINT64_MAX, TS_DECIMAL_TOO_BIG, 0}, {"101", 100, TS_DECIMAL_ABOVE_MAX, 0},
        {"1e400", UINT64_MAX, TS_DECIMAL_TOO_BIG, 0},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_decimal d;
        uint64_t v = 0;
        assert_int_equal(read_text(cases[i].text, &d), strlen(cases[i].text));
        if (ts_decimal_to_u64(&d, cases[i].max, &v) != cases[i].want ||
            (cases[i].want == TS_DECIMAL_OK && v != cases[i].value))
            fail_msg("\"%s\"", cases[i].text);
    }
}

/* Up to 17 significant digits and exponents within 10^+-22 the reader rounds exactly as
 * strtod does (it divides or multiplies by an exact power of ten). */
static void test_doubles_match_strtod(void **state)
{
    static const char *const cases[] = {
        "0.05", "0.1", "0.3", "2.5e-2", "1e-22", "1e22", "123.456", "0.57", "0.12", "1.1",
        "3.14159265358979", "9007199254740993", "400e9", "1.8e-7", "33.3", "2.03", "1e-5",
        "0.9567905535692877", /* a plan's cost as printed, which a budget gives back */
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_decimal d;
        double mine, want = strtod(cases[i], NULL);
        assert_int_equal(read_text(cases[i], &d), strlen(cases[i]));
        mine = ts_decimal_to_double(&d);
        if (mine != want) fail_msg("\"%s\": %.17g, strtod %.17g", cases[i], mine, want);
    }
}

/* A figure the library prints (the shortest of %.15g-%.17g, up to 17 digits, whose
 * mantissa passes 2^53) reads back as the same double: a plan's printed cost given back as
 * its budget keeps that plan. Before, such mantissas were rounded to a double first and
 * the quotient could land an ulp below. */
static void test_printed_doubles_read_back(void **state)
{
    uint64_t x = 88172645463325252ull;
    int i, bad = 0;
    (void)state;
    for (i = 0; i < 200000; i++) {
        char text[40];
        ts_decimal d;
        double v, mine;
        x ^= x << 13; /* xorshift64: reproducible doubles over 1e-6 .. 1e12 */
        x ^= x >> 7;
        x ^= x << 17;
        v = (double)(x >> 11) / 9007199254740992.0 * pow(10.0, (double)(int)(x % 19) - 6.0);
        snprintf(text, sizeof text, "%.17g", v);
        assert_int_equal(read_text(text, &d), strlen(text));
        mine = ts_decimal_to_double(&d);
        if (mine != v && bad++ < 5) print_message("\"%s\" read as %.17g\n", text, mine);
    }
    assert_int_equal(bad, 0);
}

/* Settings as text: the whole text must be the number, and a value out of range is
 * refused rather than rounded to 0 or infinity. */
static void test_settings_text(void **state)
{
    double v;
    uint64_t u;
    (void)state;
    assert_int_equal(ts_parse_double("0.05", &v), 0);
    assert_true(v == 0.05);
    assert_int_equal(ts_parse_double("1e-500", &v), -1);
    assert_int_equal(ts_parse_double("1e400", &v), -1);
    assert_int_equal(ts_parse_double("0x10", &v), -1);
    assert_int_equal(ts_parse_double("1.5 ", &v), -1);
    assert_int_equal(ts_parse_double("", &v), -1);
    assert_int_equal(ts_parse_u64("2e12", UINT64_MAX, &u), 0);
    assert_true(u == 2000000000000u);
    assert_int_equal(ts_parse_u64("1.5", 10, &u), -1);
    assert_int_equal(ts_parse_u64("-0", 10, &u), 0);
    assert_int_equal(ts_parse_u64("11", 10, &u), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_whole_numbers),
        cmocka_unit_test(test_doubles_match_strtod),
        cmocka_unit_test(test_printed_doubles_read_back),
        cmocka_unit_test(test_settings_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
