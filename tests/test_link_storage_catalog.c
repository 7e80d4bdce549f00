/* The built-in interconnect and storage catalogues, and the GPU catalogue's prices.
 *
 * Exact figures are checked against their published sources (listed per row in
 * docs/hardware-catalog.md); the comment on each check names the source. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "trainsize.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII upper-casing for the test's own use. */
static void upper(char *dst, size_t cap, const char *src)
{
    size_t i;
    for (i = 0; i + 1 < cap && src[i] != '\0'; i++)
        dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? (char)(src[i] - 'a' + 'A') : src[i];
    dst[i] = '\0';
}

/* The name with '-', '_' and ' ' removed and lower-cased: the key the look-ups compare. */
static void fold(char *dst, size_t cap, const char *src)
{
    size_t i, n = 0;
    for (i = 0; src[i] != '\0' && n + 1 < cap; i++) {
        char c = src[i];
        if (c == '-' || c == '_' || c == ' ')
            continue;
        dst[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    dst[n] = '\0';
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

/* ---- Links ---- */

static void test_link_rows_valid(void **state)
{
    size_t i, j, n = trainsize_link_count();
    (void)state;
    assert_true(n > 0);
    for (i = 0; i < n; i++) {
        const trainsize_link_info *l = trainsize_link_at(i);
        assert_non_null(l);
        assert_non_null(l->name);
        assert_true(l->name[0] != '\0');
        assert_non_null(l->full_name);
        assert_true(l->full_name[0] != '\0');
        assert_true(l->kind == TRAINSIZE_LINK_SCALE_UP || l->kind == TRAINSIZE_LINK_SCALE_OUT);
        assert_true(l->bandwidth > 0);
        assert_true(l->achieved_share > 0.0 && l->achieved_share <= 1.1);
        assert_non_null(l->source);
        assert_true(l->source[0] != '\0');
        /* Each row is found under its own name, and no two names fold to the same key. */
        assert_ptr_equal(trainsize_link_find(l->name), l);
        for (j = i + 1; j < n; j++) {
            char a[64], b[64];
            fold(a, sizeof a, l->name);
            fold(b, sizeof b, trainsize_link_at(j)->name);
            assert_string_not_equal(a, b);
        }
    }
}

static void test_link_find(void **state)
{
    char buf[64];
    size_t i;
    (void)state;
    for (i = 0; i < trainsize_link_count(); i++) {
        const trainsize_link_info *l = trainsize_link_at(i);
        upper(buf, sizeof buf, l->name);
        assert_ptr_equal(trainsize_link_find(buf), l);
    }
    assert_string_equal(trainsize_link_find("IB-NDR")->name, "ib-ndr");
    assert_string_equal(trainsize_link_find("NVLink4")->name, "nvlink4");
    assert_string_equal(trainsize_link_find("eth_100g")->name, "eth-100g");
    assert_string_equal(trainsize_link_find("ETH 400G")->name, "eth-400g");
    assert_string_equal(trainsize_link_find("PCIe5")->name, "pcie5");
    /* eth-10g and eth-100g stay distinct. */
    assert_string_equal(trainsize_link_find("eth-10g")->name, "eth-10g");

    assert_null(trainsize_link_find(NULL));
    assert_null(trainsize_link_find(""));
    assert_null(trainsize_link_find("-"));
    assert_null(trainsize_link_find("nvlink"));
    assert_null(trainsize_link_find("ib-ndrx"));
    assert_null(trainsize_link_find("token-ring"));
    assert_null(trainsize_link_at(trainsize_link_count()));
    assert_null(trainsize_link_at((size_t)-1));
}

static void test_link_datasheet_values(void **state)
{
    const trainsize_link_info *l;
    (void)state;

    /* IB NDR 400 Gb/s = 50 GB/s per port per direction (NVIDIA NDR cabling guide, as cited
     * in the ML Engineering book's network chapter, github.com/stas00/ml-engineering).
     * Share: inter-node all-reduce reaches 0.85-0.90 of NIC bandwidth, lower end. */
    l = trainsize_link_find("ib-ndr");
    assert_non_null(l);
    assert_non_null(strstr(l->source, "NDR cabling guide"));
    assert_non_null(strstr(l->source, "github.com/stas00/ml-engineering"));
    assert_int_equal(l->kind, TRAINSIZE_LINK_SCALE_OUT);
    assert_true(l->bandwidth == UINT64_C(50000000000));
    assert_true(near(l->achieved_share, 0.85));

    /* IB EDR 100 Gb/s = 12.5 GB/s (IBTA roadmap); 25 GbE = 3.125 GB/s (IEEE 802.3 line
     * rate). */
    assert_true(trainsize_link_find("ib-edr")->bandwidth == UINT64_C(12500000000));
    assert_true(trainsize_link_find("eth-25g")->bandwidth == UINT64_C(3125000000));
    assert_true(trainsize_link_find("eth-800g")->bandwidth == UINT64_C(100000000000));

    /* NVLink 4 (H100/H200) 900 GB/s bidirectional = 450 per direction (ML Engineering
     * network chapter's NVLink table; nvidia.com/en-us/data-center/nvlink); nccl-tests ring
     * all-reduce busbw 365-370 of 450 = 81-82% (same chapter; NVIDIA/nccl-tests#212). */
    l = trainsize_link_find("nvlink4");
    assert_non_null(l);
    assert_int_equal(l->kind, TRAINSIZE_LINK_SCALE_UP);
    assert_true(l->bandwidth == UINT64_C(450000000000));
    assert_true(near(l->achieved_share, 0.81));

    /* Same sources: NVLink 3 300 per direction, ring 78%; NVLink 5 900, ring 76%. */
    l = trainsize_link_find("nvlink3");
    assert_true(l->bandwidth == UINT64_C(300000000000));
    assert_true(near(l->achieved_share, 0.78));
    l = trainsize_link_find("nvlink5");
    assert_true(l->bandwidth == UINT64_C(900000000000));
    assert_true(near(l->achieved_share, 0.76));

    /* PCIe 5.0 x16 = 63 GB/s per direction (PCI-SIG arithmetic: 32 GT/s x 16 lanes x
     * 128b/130b); H200 measured 88% (nvbandwidth, ML Engineering network chapter).
     * PCIe 3.0 x16 = 15.75 GB/s (8 GT/s). */
    l = trainsize_link_find("pcie5");
    assert_non_null(l);
    assert_int_equal(l->kind, TRAINSIZE_LINK_SCALE_UP);
    assert_true(l->bandwidth == UINT64_C(63000000000));
    assert_true(near(l->achieved_share, 0.88));
    assert_non_null(strstr(l->source, "PCI-SIG"));
    assert_true(trainsize_link_find("pcie3")->bandwidth == UINT64_C(15750000000));

    /* NVLink bridge 112.5 GB/s bidirectional = 56.25 per direction (NVIDIA A40 datasheet). */
    assert_true(trainsize_link_find("nvlink-bridge")->bandwidth == UINT64_C(56250000000));
    /* MI300X xGMI 448 per direction all-to-all (ML Engineering network chapter, AMD);
     * Gaudi 2 262.5 (Intel Gaudi 2 datasheet). */
    assert_true(trainsize_link_find("infinity-fabric-mi300x")->bandwidth ==
                UINT64_C(448000000000));
    assert_true(trainsize_link_find("gaudi2-roce")->bandwidth == UINT64_C(262500000000));
}

static void test_link_kinds_and_assumptions(void **state)
{
    static const char *const up[] = {
        "pcie3",   "pcie4",   "pcie5",         "pcie6",
        "nvlink2", "nvlink3", "nvlink4",       "nvlink5",
        "nvlink-bridge",      "nvlink-c2c",             "infinity-fabric-mi250x", "infinity-fabric-mi300x",
        "gaudi2-roce",        "gaudi3-roce",
    };
    static const char *const out[] = {
        "ib-edr",   "ib-hdr",   "ib-ndr",   "ib-xdr",   "eth-10g",  "eth-25g",
        "eth-40g",  "eth-100g", "eth-200g", "eth-400g", "eth-800g",
    };
    size_t i;
    (void)state;
    for (i = 0; i < COUNT(up); i++) {
        const trainsize_link_info *l = trainsize_link_find(up[i]);
        assert_non_null(l);
        assert_int_equal(l->kind, TRAINSIZE_LINK_SCALE_UP);
    }
    for (i = 0; i < COUNT(out); i++) {
        const trainsize_link_info *l = trainsize_link_find(out[i]);
        assert_non_null(l);
        assert_int_equal(l->kind, TRAINSIZE_LINK_SCALE_OUT);
        /* No published collective measurement over plain Ethernet: the source says the
         * share is an assumption, and names the IEEE 802.3 line rate. */
        if (strncmp(out[i], "eth-", 4) == 0) {
            assert_non_null(strstr(l->source, "assumption"));
            assert_non_null(strstr(l->source, "IEEE 802.3"));
        }
    }
    assert_int_equal(trainsize_link_count(), COUNT(up) + COUNT(out));
    /* No collective measurement for these fabrics either. */
    assert_non_null(strstr(trainsize_link_find("nvlink2")->source, "assumption"));
    assert_non_null(strstr(trainsize_link_find("gaudi3-roce")->source, "assumption"));
    assert_non_null(strstr(trainsize_link_find("infinity-fabric-mi250x")->source, "assumption"));
    /* NVLink-C2C per GPU is derived from the superchip's figure, its share assumed. */
    assert_non_null(strstr(trainsize_link_find("nvlink-c2c")->source, "derived"));
    assert_non_null(strstr(trainsize_link_find("nvlink-c2c")->source, "assumption"));
}

/* ---- Storage ---- */

/* ts_links_by_rate is the catalogue's scale-out links above 10 GbE sorted by achieved rate
 * (a stable sort: catalogue order among equals), which the estimate searches by halves. A
 * row added or changed without it fails here. */
static double achieved(size_t i)
{
    return (double)ts_links[i].bandwidth * ts_links[i].achieved_share;
}

static void test_links_by_rate(void **state)
{
    size_t order[64], n = 0, i, at;
    (void)state;
    for (i = 0; i < ts_link_count; i++) {
        if (ts_links[i].kind != TRAINSIZE_LINK_SCALE_OUT || ts_links[i].bandwidth <= TS_SLOW_NETWORK) continue;
        assert_true(n < sizeof order / sizeof order[0]);
        for (at = n++; at > 0 && achieved(order[at - 1]) > achieved(i); at--) order[at] = order[at - 1];
        order[at] = i;
    }
    assert_int_equal(ts_links_by_rate_count, n);
    for (i = 0; i < n; i++) assert_int_equal(ts_links_by_rate[i], order[i]);
    assert_true(n >= 8); /* Ethernet and InfiniBand from 25 Gb/s up */
}

static void test_storage_rows_valid(void **state)
{
    size_t i, j, n = trainsize_storage_count();
    (void)state;
    assert_true(n > 0);
    for (i = 0; i < n; i++) {
        const trainsize_storage_info *s = trainsize_storage_at(i);
        assert_non_null(s);
        assert_non_null(s->name);
        assert_true(s->name[0] != '\0');
        assert_non_null(s->full_name);
        assert_true(s->full_name[0] != '\0');
        assert_true(s->read_rate > 0);
        assert_true(s->write_rate > 0);
        assert_true(s->shared == 0 || s->shared == 1);
        assert_non_null(s->source);
        assert_true(s->source[0] != '\0');
        assert_ptr_equal(trainsize_storage_find(s->name), s);
        for (j = i + 1; j < n; j++) {
            char a[64], b[64];
            fold(a, sizeof a, s->name);
            fold(b, sizeof b, trainsize_storage_at(j)->name);
            assert_string_not_equal(a, b);
        }
    }
}

/* The orders the estimate offers storage in, derived here from the rows: local NVMe by read
 * rate; shared classes by tier (an NFS filer, by its aggregate rate; then the file systems
 * that scale out, by per-client rate). Stable sorts: catalogue order among equals. */
static double storage_key(size_t i)
{
    const trainsize_storage_info *st = &ts_storage[i];
    if (!st->shared) return (double)st->read_rate;
    return st->aggregate_read_rate ? 1e15 + (double)st->aggregate_read_rate : 2e15 + (double)st->read_rate;
}

static size_t sorted_storage(int shared, size_t *order, size_t cap)
{
    size_t n = 0, i, at;
    for (i = 0; i < ts_storage_count; i++) {
        const trainsize_storage_info *st = &ts_storage[i];
        if (shared ? !st->shared : st->shared || strncmp(st->name, "nvme", 4) != 0) continue;
        assert_true(n < cap);
        for (at = n++; at > 0 && storage_key(order[at - 1]) > storage_key(i); at--) order[at] = order[at - 1];
        order[at] = i;
    }
    return n;
}

static void test_storage_orders(void **state)
{
    size_t order[64], n, i;
    (void)state;
    n = sorted_storage(0, order, 64);
    assert_int_equal(ts_storage_nvme_count, n);
    for (i = 0; i < n; i++) assert_int_equal(ts_storage_nvme_by_read[i], order[i]);
    assert_true(n >= 3);
    n = sorted_storage(1, order, 64);
    assert_int_equal(ts_storage_shared_count, n);
    for (i = 0; i < n; i++) assert_int_equal(ts_storage_shared_by_rank[i], order[i]);
    assert_true(n >= 5);
    /* the rule's two tiers: NFS before the file systems that scale out, whatever the rates */
    assert_string_equal(ts_storage[ts_storage_shared_by_rank[0]].name, "nfs-10g");
    assert_string_equal(ts_storage[ts_storage_shared_by_rank[n - 1]].name, "lustre-multirail");
}

static void test_storage_find(void **state)
{
    char buf[64];
    size_t i;
    (void)state;
    for (i = 0; i < trainsize_storage_count(); i++) {
        const trainsize_storage_info *s = trainsize_storage_at(i);
        upper(buf, sizeof buf, s->name);
        assert_ptr_equal(trainsize_storage_find(buf), s);
    }
    assert_string_equal(trainsize_storage_find("NVMe-Gen4")->name, "nvme-gen4");
    assert_string_equal(trainsize_storage_find("nvme_gen5")->name, "nvme-gen5");
    assert_string_equal(trainsize_storage_find("Lustre")->name, "lustre");
    assert_string_equal(trainsize_storage_find("NFS")->name, "nfs");

    assert_null(trainsize_storage_find(NULL));
    assert_null(trainsize_storage_find(""));
    assert_null(trainsize_storage_find("  "));
    assert_null(trainsize_storage_find("nvme"));
    assert_null(trainsize_storage_find("tape"));
    assert_null(trainsize_storage_at(trainsize_storage_count()));
    assert_null(trainsize_storage_at((size_t)-1));
}

static void test_storage_values(void **state)
{
    const trainsize_storage_info *s;
    static const char *const local[] = {"hdd", "sata-ssd", "nvme-gen3", "nvme-gen4",
                                        "nvme-gen5"};
    static const char *const network[] = {"nfs-10g", "nfs", "nfs-nconnect-100g",
                                          "nfs-rdma-400g", "lustre", "lustre-multirail",
                                          "ceph"};
    size_t i;
    (void)state;

    /* NVMe Gen4 x4 6.5-7.45 GB/s read (voltground, velocitymicro: Samsung 990 Pro
     * 7,450 MB/s): the lower end. */
    s = trainsize_storage_find("nvme-gen4");
    assert_non_null(s);
    assert_true(s->read_rate == UINT64_C(6500000000));
    assert_int_equal(s->shared, 0);
    /* Gen3 3.2-3.5, Gen5 12-14.5 GB/s (voltground, velocitymicro, gds-report.pages.dev),
     * SATA 530-560 MB/s (geratools, calendar-uk), HDD 160 MB/s (ithubrock). */
    assert_true(trainsize_storage_find("nvme-gen3")->read_rate == UINT64_C(3200000000));
    assert_true(trainsize_storage_find("nvme-gen5")->read_rate == UINT64_C(12000000000));
    assert_true(trainsize_storage_find("sata-ssd")->read_rate == UINT64_C(530000000));
    assert_true(trainsize_storage_find("hdd")->read_rate == UINT64_C(160000000));
    /* NFS single mount without nconnect: ~1.2 GB/s read and write (ngxstorage fio on
     * 40 GbE). */
    s = trainsize_storage_find("nfs");
    assert_true(s->read_rate == UINT64_C(1200000000));
    assert_true(s->write_rate == UINT64_C(1200000000));
    assert_int_equal(s->shared, 1);
    /* nconnect=16 over 100 GbE up to ~8-9 GB/s (medium.com, Pure FlashBlade example);
     * NFSoRDMA 43.4 GiB/s (= 46.6 GB/s) into one client's 4 GPUs (gds-report.pages.dev). */
    assert_true(trainsize_storage_find("nfs-nconnect-100g")->read_rate ==
                UINT64_C(8000000000));
    assert_true(trainsize_storage_find("nfs-rdma-400g")->read_rate == UINT64_C(46600000000));
    assert_non_null(strstr(trainsize_storage_find("nfs-rdma-400g")->source,
                           "gds-report.pages.dev"));
    /* Lustre legacy single client 1-1.5 GB/s (Dell HPC Lustre whitepapers, Lustre 2.7). */
    assert_true(trainsize_storage_find("lustre")->read_rate == UINT64_C(1000000000));

    for (i = 0; i < COUNT(local); i++) {
        s = trainsize_storage_find(local[i]);
        assert_non_null(s);
        assert_int_equal(s->shared, 0);
        /* No published write figures for local drives were used: the source says the
         * write rate is an assumption. */
        assert_non_null(strstr(s->source, "assumption"));
    }
    for (i = 0; i < COUNT(network); i++) {
        s = trainsize_storage_find(network[i]);
        assert_non_null(s);
        assert_int_equal(s->shared, 1);
    }
    assert_int_equal(trainsize_storage_count(), COUNT(local) + COUNT(network));
    /* No primary source was found for the Ceph and modern Lustre per-client figures. */
    assert_non_null(strstr(trainsize_storage_find("ceph")->source, "unverified"));
    assert_non_null(strstr(trainsize_storage_find("lustre-multirail")->source, "unverified"));
    /* GPFS has an aggregate figure only: no per-client row. */
    assert_null(trainsize_storage_find("gpfs"));
}

/* ---- GPU prices: one cloud market (RunPod Community on-demand, dated), street prices ---- */

static void test_gpu_prices(void **state)
{
    const trainsize_gpu_info *g;
    size_t i;
    (void)state;

    /* RunPod Community Cloud on-demand, read 2026-11-09: H100 SXM $2.69, A100 SXM $1.39,
     * A100 PCIe $1.19; street H100 $25-30k -> 27,500. The A100s now come from one market. */
    g = trainsize_gpu_find("h100-80gb");
    assert_true(near(g->cloud_usd_per_hour, 2.69));
    assert_true(near(g->purchase_usd, 27500));
    assert_non_null(strstr(g->price_source, "RunPod Community"));
    assert_non_null(strstr(g->price_source, "2026-11-09"));
    assert_true(near(trainsize_gpu_find("a100-80gb")->cloud_usd_per_hour, 1.39));
    assert_true(near(trainsize_gpu_find("a100-40gb")->cloud_usd_per_hour, 1.00));
    assert_true(near(trainsize_gpu_find("rtx-4090")->cloud_usd_per_hour, 0.34));
    assert_true(near(trainsize_gpu_find("rtx-4090")->purchase_usd, 1300));
    /* Gaudi 3 8-card kit $125k -> $15,625 per card; no cloud list price. */
    g = trainsize_gpu_find("gaudi3");
    assert_true(g->cloud_usd_per_hour == 0.0);
    assert_true(near(g->purchase_usd, 15625));
    /* Unpriced rows say why. */
    assert_non_null(strstr(trainsize_gpu_find("gb200")->price_source, "unpriced"));
    assert_non_null(strstr(trainsize_gpu_find("mi250x")->price_source, "unpriced"));

    for (i = 0; i < trainsize_gpu_count(); i++) {
        const trainsize_gpu_info *r = trainsize_gpu_at(i);
        int priced = r->cloud_usd_per_hour > 0.0 || r->purchase_usd > 0.0;
        assert_true(r->cloud_usd_per_hour >= 0.0);
        assert_true(r->purchase_usd >= 0.0);
        /* Never NULL or empty: where and when the prices were seen, or why there is none. */
        assert_non_null(r->price_source);
        assert_true(r->price_source[0] != '\0');
        assert_int_equal(!priced, strncmp(r->price_source, "unpriced", 8) == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_rows_valid),
        cmocka_unit_test(test_link_find),
        cmocka_unit_test(test_link_datasheet_values),
        cmocka_unit_test(test_link_kinds_and_assumptions),
        cmocka_unit_test(test_links_by_rate),
        cmocka_unit_test(test_storage_rows_valid),
        cmocka_unit_test(test_storage_orders),
        cmocka_unit_test(test_storage_find),
        cmocka_unit_test(test_storage_values),
        cmocka_unit_test(test_gpu_prices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
