/* Buying against renting and the facility: a 64 x H100 cluster's purchase against the
 * prices published for it, the break-even's arithmetic, racks and cooling (an NVL72 judged
 * whole), the power supplies NVIDIA ships, and the fabric's switches against NVIDIA's DGX
 * SuperPOD tables. */
#include "ts_test.h"

/* 64 H100s in 8 servers. Published: a DGX H100 at about $270k (SemiAnalysis, May 2023, as
 * compiled by Epoch AI's training-cost-trends), 8 x $270k = $2.16M for the servers alone;
 * an H100 cluster all in at $47-52k per GPU (tech-talk-cto's "H100 Freakonomics"
 * spreadsheet, Aug 2024), 64 x $52k = $3.33M. */
static void test_h100_cluster_capex(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "h100-80gb", "gpus", "64", "tp", "8",
                           "zero", "1", "tokens", "1e11"), &r);
    print_message("64 x H100: capex $%.0f (servers $%.0f, network $%.0f, storage $%.0f)\n",
                  r.system.capex_usd, r.system.capex_servers_usd, r.system.capex_network_usd,
                  r.system.capex_storage_usd);
    assert_true(r.system.capex_usd >= 2.16e6 && r.system.capex_usd <= 3.33e6);
    assert_true(fabs(r.system.capex_servers_usd - 64.0 * 27500.0 * 1.44) < 1.0);
    assert_true(fabs(r.system.capex_network_usd - 64.0 * 2500.0) < 1e-6);
    assert_true(r.system.capex_storage_usd > 0.0);
    assert_true(fabs(r.system.capex_usd - r.system.capex_servers_usd - r.system.capex_network_usd -
                     r.system.capex_storage_usd) < 1e-6);
}

/* Break-even: the purchase over what renting the busy hours costs a month more than the
 * owned cluster's running costs; renting at a low price never pays for a purchase. */
static void test_breakeven(void **state)
{
    trainsize_result r, cheap, spare;
    double busy_month = 365.25 * 24.0 * 0.5 / 12.0, it_kw, own;
    (void)state;
#define JOB "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "utilization", "0.5"
    ts_test_estimate(PAIRS(JOB), &r);
    it_kw = r.system.power_per_node_watts / 1000.0;
    own = it_kw * 184.06 + it_kw * busy_month * 1.1 * 0.1 + 0.1 * r.system.capex_usd / 12.0;
    assert_true(fabs(r.system.cloud_usd_per_month - 8.0 * 2.69 * busy_month) < 1e-6 * r.system.cloud_usd_per_month);
    assert_true(fabs(r.system.own_usd_per_month - own) < 1e-6 * own);
    assert_true(fabs(r.system.breakeven_months -
                     r.system.capex_usd / (r.system.cloud_usd_per_month - own)) < 1e-9 * r.system.breakeven_months);
    ts_test_estimate(PAIRS(JOB, "gpu-hour-usd", "0.5"), &cheap);
    assert_true(cheap.system.breakeven_months == 0.0);
    /* spare servers are bought and racked, not rented */
    ts_test_estimate(PAIRS(JOB, "spare-nodes", "1"), &spare);
    assert_true(fabs(spare.system.capex_servers_usd - 2.0 * r.system.capex_servers_usd) < 1e-6);
    assert_true(spare.system.cloud_usd_per_month == r.system.cloud_usd_per_month);
    assert_true(spare.system.power_watts == r.system.power_watts);
#undef JOB
}

/* An NVL72 is one liquid-cooled rack of 18 trays, whatever the budget of an air-cooled
 * rack; its power shelves hold 48 supplies of 5.5 kW (NVIDIA GB300 NVL72 reference
 * architecture; Supermicro's GB200 NVL72 datasheet: 8 x 33 kW). */
static void test_nvl72_rack(void **state)
{
    trainsize_result r, wide;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "gb200", "gpus", "72", "tp", "4", "zero", "3"), &r);
    assert_string_equal(r.system.cooling, "liquid");
    assert_int_equal(r.system.racks, 1);
    assert_int_equal(r.system.servers_per_rack, 18);
    assert_true(fabs(r.system.rack_power_watts - 18.0 * r.system.power_per_node_watts) < 1e-6);
    /* the rack's published power, not TDP x (1 + server-power-factor): 125-135 kW operating */
    assert_true(r.system.rack_power_watts >= 125e3 && r.system.rack_power_watts <= 135e3);
    assert_string_equal(r.system.psu_redundancy, "24+24"); /* 8 x 33 kW shelves for 132 kW: N+N */
    assert_int_equal(r.system.psus_per_server, 48);
    assert_true(r.system.psu_watts == 5500.0);
    assert_int_equal(r.system.switches, 0); /* the rack's NVLink carries everything */
    assert_true((r.warnings & TRAINSIZE_WARN_RACK_POWER) != 0);
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "gb200", "gpus", "8", "tp", "4", "zero", "3",
                           "rack-power-watts", "1e6"), &wide);
    assert_string_equal(wide.system.cooling, "liquid"); /* the product is liquid-cooled */
    assert_true(wide.system.rack_power_watts == r.system.rack_power_watts); /* judged whole */
    /* and bought whole: two trays of a job still buy the rack's 72 GPUs */
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "gb200", "gpus", "8", "tp", "4", "zero", "3",
                           "gpu-prices", "gb200=6:50000"), &wide);
    assert_true(fabs(wide.system.capex_servers_usd - 72.0 * 50000.0 * 1.44) < 1e-3);
}

/* DGX H100: six 3.3 kW supplies, 4+2 (NVIDIA DGX H100/H200 user guide), 10.2 kW. The
 * SuperPOD racks four (40.8 kW, the default budget); a 20 kW room's rack takes one. */
static void test_dgx_racks_and_supplies(void **state)
{
    trainsize_result r, four, l40s;
    (void)state;
#define JOB "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "32", "zero", "3"
    ts_test_estimate(PAIRS(JOB), &r);
    assert_int_equal(r.system.psus_per_server, 6);
    assert_int_equal(r.system.psus_needed, 4);
    assert_string_equal(r.system.psu_redundancy, "4+2");
    assert_true(r.system.psu_watts == 3300.0);
    assert_int_equal(r.system.servers_per_rack, 4);
    assert_int_equal(r.system.racks, 1);
    assert_string_equal(r.system.cooling, "air");
    ts_test_estimate(PAIRS(JOB, "rack-power-watts", "20000"), &four);
    assert_int_equal(four.system.servers_per_rack, 1);
    assert_int_equal(four.system.racks, 4);
    assert_string_equal(four.system.cooling, "air");
    /* asked for more servers than the budget allows: the rack needs liquid cooling */
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "servers-per-rack", "5"), &four);
    assert_string_equal(four.system.cooling, "liquid");
    assert_true((four.warnings & TRAINSIZE_WARN_RACK_POWER) != 0);
#undef JOB
    /* another server: 3 kW supplies for its maximum power and one more */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "l40s", "gpus", "8", "zero", "3",
                           "micro-batch", "1", "seq", "1024"), &l40s);
    assert_int_equal(l40s.system.psus_needed, (uint64_t)ceil(l40s.system.power_per_node_watts / 3000.0));
    assert_int_equal(l40s.system.psus_per_server, l40s.system.psus_needed + 1);
}

/* A fat tree of 64-port switches for 8 NICs a server, as NVIDIA's DGX SuperPOD reference
 * architectures list it: 32 servers (one scalable unit) 8 leaf + 4 spine; 128 servers
 * 32 + 16; 512 servers 128 leaf, 128 spine, 64 core. */
static void test_superpod_switches(void **state)
{
    static const struct { const char *gpus; uint64_t switches, tiers; } rows[] = {
        {"256", 12, 2}, {"1024", 48, 2}, {"4096", 320, 3}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        trainsize_result r;
        ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "h100-80gb", "gpus", rows[i].gpus, "zero", "3",
                               "network", "ib-ndr"), &r);
        assert_int_equal(r.system.network_nics_per_node, 8);
        if (r.system.switches != rows[i].switches || r.system.switch_tiers != rows[i].tiers)
            fail_msg("%s GPUs: %llu switches in %llu tiers, published %llu in %llu", rows[i].gpus,
                     (unsigned long long)r.system.switches, (unsigned long long)r.system.switch_tiers,
                     (unsigned long long)rows[i].switches, (unsigned long long)rows[i].tiers);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_cluster_capex),   cmocka_unit_test(test_breakeven),
        cmocka_unit_test(test_nvl72_rack),           cmocka_unit_test(test_dgx_racks_and_supplies),
        cmocka_unit_test(test_superpod_switches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
