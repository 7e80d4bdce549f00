/* The built-in catalogue of interconnect classes (datasheet rates and the share of them
 * that collectives reach) and its look-up.
 *
 * Every figure is a published specification or measurement; docs/hardware-catalog.md
 * ("Interconnects") lists each row with its public source and status. The secondary source
 * used most is the network chapter of Stas Bekman's "Machine Learning Engineering" open book
 * (https://github.com/stas00/ml-engineering, network/README.md), whose tables cite the
 * vendors' specifications and which publishes nccl-tests measurements.
 * Conventions (also in the public header):
 * - bandwidth: peak per direction, bytes per second, decimal (1 GB/s = 1e9 B/s). For a
 *   scale-up link it is per GPU (vendors print the bidirectional total; the row holds half
 *   of it); for a scale-out link it is per port.
 * - achieved_share: the share of that peak a large-message collective reaches (nccl-tests
 *   busbw, Ring algorithm). Where no published measurement exists for a link the share is
 *   an assumption and the source string says "assumption".
 * Where a figure is unverified (no source confirms it) or derived (arithmetic from a
 * published figure), the source string says so; the other figures appear in the source
 * named.
 *
 * No mutable state: the table is static const and the functions are pure.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "catalog.h"
#include "text_values.h"
#include "trainsize.h"

/* MB/s -> bytes per second (decimal): every rate here is a whole number of MB/s. */
#define MBS(n) ((uint64_t)(n) * UINT64_C(1000000))
/* Whole GB/s -> bytes per second (decimal). */
#define GBS(n) ((uint64_t)(n) * UINT64_C(1000000000))

/* The network chapter of the ML Engineering book, as the source strings cite it. */
#define TS_SRC_MLE "ML Engineering book, network chapter (github.com/stas00/ml-engineering)"

/* Shares used by several rows: nccl-tests busbw for large messages, Ring algorithm, as
 * published in the ML Engineering network chapter and NVIDIA/nccl-tests issues, unless
 * marked as an assumption. */
/* PCIe: "achieved ~ 85-90% of theoretical" (rule of thumb); H200 Gen5 measured 88%
 * (nvbandwidth, ML Engineering network chapter). */
#define TS_SHARE_PCIE 0.88
/* NVLink 3 ring all-reduce: 234.9 of 300 GB/s = 78% (8x A100 SXM). */
#define TS_SHARE_NVLINK3 0.78
/* NVLink 4 ring all-reduce: 365-370 of 450 GB/s = 81-82% (8x H100/H200, NVLS off;
 * NVIDIA/nccl-tests#212). */
#define TS_SHARE_NVLINK4 0.81
/* NVLink 5 ring all-reduce: 682 of 900 GB/s = 76% (8x B200). */
#define TS_SHARE_NVLINK5 0.76
/* Scale-up fabrics without a measurement: assume the A100 NVLink 3 ring share. */
#define TS_SHARE_SCALE_UP_ASSUMED 0.78
/* InfiniBand: inter-node all-reduce reaches ~0.85-0.90 x the NIC bandwidth; the lower end
 * (AWS EFA 85%, ML Engineering network chapter; 3x8 A100 over HDR: average 84.8 of
 * 100 GB/s, NVIDIA/nccl-tests#119). */
#define TS_SHARE_IB 0.85
/* Ethernet: an assumption (no published collective measurement over plain Ethernet;
 * RDMA over it reached 85% for EFA all-reduce and 96% for NFSoRDMA, TCP sockets less). */
#define TS_SHARE_ETH_ASSUMED 0.80

const trainsize_link_info ts_links[] = {
    /* ---- Scale-up: PCIe x16, per direction (PCI-SIG base specifications) ---- */
    {.name = "pcie3", .full_name = "PCIe 3.0 x16", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = MBS(15750), .achieved_share = TS_SHARE_PCIE,
     .source = "PCI-SIG PCIe 3.0 arithmetic: 8 GT/s x 16 lanes x 128b/130b = 15.75 GB/s per "
               "direction; share 0.88: rule of thumb 85-90% (Gen3 measured ~12-13 GB/s "
               "unverified)"},
    {.name = "pcie4", .full_name = "PCIe 4.0 x16", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = MBS(31500), .achieved_share = TS_SHARE_PCIE,
     .source = "PCI-SIG PCIe 4.0 arithmetic: 16 GT/s x 16 lanes x 128b/130b = 31.5 GB/s per "
               "direction; share 0.88: rule of thumb 85-90%"},
    {.name = "pcie5", .full_name = "PCIe 5.0 x16", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = GBS(63), .achieved_share = TS_SHARE_PCIE,
     .source = "PCI-SIG PCIe 5.0 arithmetic: 32 GT/s x 16 lanes x 128b/130b = 63 GB/s per "
               "direction; share 0.88: H200 nvbandwidth 55.4 GB/s H2D, " TS_SRC_MLE},
    {.name = "pcie6", .full_name = "PCIe 6.0 x16", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = GBS(121), .achieved_share = TS_SHARE_PCIE,
     .source = "PCI-SIG PCIe 6.0: 64 GT/s PAM4 FLIT, ~121 GB/s usable per direction, "
               TS_SRC_MLE " (glennklockwood.com/garden/PCIe-Gen6 gives 118); share 0.88: "
               "rule of thumb 85-90%, no Gen6 accelerator measured"},

    /* ---- Scale-up: NVLink, per GPU, per direction ---- */
    {.name = "nvlink2", .full_name = "NVLink 2 (V100, 6 links)", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = GBS(150), .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = TS_SRC_MLE ", NVLink table: 300 GB/s bidirectional = 150 per direction; "
               "share 0.78 is an assumption (A100 ring figure, no V100 measurement)"},
    {.name = "nvlink3", .full_name = "NVLink 3 (A100, 12 links)", .kind = TRAINSIZE_LINK_SCALE_UP,
     .bandwidth = GBS(300), .achieved_share = TS_SHARE_NVLINK3,
     .source = TS_SRC_MLE ", NVLink table: 600 GB/s bidirectional = 300 per direction; "
               "share: 8x A100 nccl-tests ring all-reduce busbw 234.9 GB/s = 78% (same "
               "chapter)"},
    {.name = "nvlink4", .full_name = "NVLink 4 (H100/H200, 18 links)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(450), .achieved_share = TS_SHARE_NVLINK4,
     .source = TS_SRC_MLE ", NVLink table, and nvidia.com/en-us/data-center/nvlink: 900 GB/s "
               "bidirectional = 450 per direction; share: 8x H100/H200 nccl-tests ring "
               "all-reduce busbw 365-370 GB/s = 81-82% (same chapter; NVIDIA/nccl-tests#212; "
               "NVLS all-reduce reaches ~1.05)"},
    {.name = "nvlink5", .full_name = "NVLink 5 (B200/GB200, 18 links)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(900), .achieved_share = TS_SHARE_NVLINK5,
     .source = TS_SRC_MLE ", NVLink table: 1800 GB/s bidirectional = 900 per direction; "
               "share: 8x B200 nccl-tests ring all-reduce busbw 682 GB/s = 76% (same chapter; "
               "NVLS all-reduce reaches 0.93)"},
    {.name = "nvlink-c2c", .full_name = "NVLink-C2C (Grace to Blackwell, GB200/GB300 host link)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(225), .achieved_share = TS_SHARE_PCIE,
     .source = "NVIDIA GB200 NVL72 technical blog: NVLink-C2C 900 GB/s bidirectional per "
               "superchip (1 Grace, 2 GPUs) = 225 per direction per GPU (derived); share: the "
               "PCIe figure, an assumption"},
    {.name = "nvlink-bridge", .full_name = "NVLink bridge (A40, RTX A6000, RTX 3090 pairs)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = MBS(56250),
     .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = "NVIDIA A40 datasheet: 112.5 GB/s bidirectional = 56.25 per direction, pairs "
               "only; share 0.78 is an assumption (A100 ring figure, no bridge measurement)"},

    /* ---- Scale-up: AMD Infinity Fabric and Gaudi RoCE ---- */
    {.name = "infinity-fabric-mi250x", .full_name = "AMD Infinity Fabric / xGMI (MI250X)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(350),
     .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = TS_SRC_MLE ", Infinity Fabric table: 7 links x 50 GB/s = 350 per direction "
               "all-to-all; share 0.78 is an assumption (no RCCL measurement)"},
    {.name = "infinity-fabric-mi300x", .full_name = "AMD Infinity Fabric / xGMI (MI300X, MI325X)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(448),
     .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = TS_SRC_MLE " and the AMD Instinct MI300X page (128 GB/s peak per link, read as "
               "duplex): 7 links x 64 GB/s = 448 per direction all-to-all; share 0.78 is an "
               "assumption (no RCCL measurement)"},
    {.name = "gaudi2-roce", .full_name = "Intel Gaudi 2 scale-up RoCE (21 x 100 GbE)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = MBS(262500),
     .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = "Intel Gaudi 2 datasheet and " TS_SRC_MLE ": 262.5 GB/s per direction "
               "all-to-all (21 of 24 ports); share 0.78 is an assumption (no HCCL "
               "measurement)"},
    {.name = "gaudi3-roce", .full_name = "Intel Gaudi 3 scale-up RoCE (21 x 200 GbE)",
     .kind = TRAINSIZE_LINK_SCALE_UP, .bandwidth = GBS(525),
     .achieved_share = TS_SHARE_SCALE_UP_ASSUMED,
     .source = "Intel Gaudi 3 whitepaper and " TS_SRC_MLE ": 525 GB/s per direction "
               "all-to-all (21 of 24 ports); share 0.78 is an assumption (no HCCL "
               "measurement)"},

    /* ---- Scale-out: InfiniBand, per port, per direction ---- */
    {.name = "ib-edr", .full_name = "InfiniBand EDR (100 Gb/s)", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = MBS(12500), .achieved_share = TS_SHARE_IB,
     .source = "IBTA InfiniBand roadmap, as tabled in " TS_SRC_MLE ": 100 Gb/s = 12.5 GB/s; "
               "share: inter-node all-reduce reaches 0.85-0.90 of NIC bandwidth (AWS EFA 85%, "
               "same chapter), lower end"},
    {.name = "ib-hdr", .full_name = "InfiniBand HDR (200 Gb/s)", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(25), .achieved_share = TS_SHARE_IB,
     .source = "IBTA InfiniBand roadmap, as tabled in " TS_SRC_MLE ": 200 Gb/s = 25 GB/s; "
               "share: 3 nodes x 8 A100 over 4 x HDR averaged 84.8 of 100 GB/s "
               "(NVIDIA/nccl-tests#119)"},
    {.name = "ib-ndr", .full_name = "InfiniBand NDR (400 Gb/s)", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(50), .achieved_share = TS_SHARE_IB,
     .source = "NVIDIA NDR cabling guide, as cited in " TS_SRC_MLE ": 400 Gb/s = 50 GB/s; "
               "share: inter-node all-reduce reaches 0.85-0.90 of NIC bandwidth (AWS EFA 85%, "
               "same chapter), lower end"},
    {.name = "ib-xdr", .full_name = "InfiniBand XDR (800 Gb/s)", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(100), .achieved_share = TS_SHARE_IB,
     .source = "IBTA XDR release, as cited in " TS_SRC_MLE ": 800 Gb/s = 100 GB/s; share: "
               "inter-node all-reduce reaches 0.85-0.90 of NIC bandwidth (AWS EFA 85%, same "
               "chapter), lower end"},

    /* ---- Scale-out: Ethernet, per port, per direction (IEEE 802.3 line rates) ---- */
    {.name = "eth-10g", .full_name = "10 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = MBS(1250), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 10 Gb/s = 1.25 GB/s; share 0.80 is an assumption (no "
               "collective measurement over Ethernet)"},
    {.name = "eth-25g", .full_name = "25 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = MBS(3125), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 25 Gb/s = 3.125 GB/s; share 0.80 is an assumption (no "
               "collective measurement over Ethernet)"},
    {.name = "eth-40g", .full_name = "40 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(5), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 40 Gb/s = 5 GB/s; share 0.80 is an assumption (no "
               "collective measurement over Ethernet)"},
    {.name = "eth-100g", .full_name = "100 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = MBS(12500), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 100 Gb/s = 12.5 GB/s; share 0.80 is an assumption (RDMA "
               "over Ethernet measured higher: AWS EFA all-reduce 85%, " TS_SRC_MLE "; "
               "NFSoRDMA 96%, gds-report.pages.dev)"},
    {.name = "eth-200g", .full_name = "200 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(25), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 200 Gb/s = 25 GB/s; share 0.80 is an assumption (no "
               "collective measurement over Ethernet)"},
    {.name = "eth-400g", .full_name = "400 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(50), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 400 Gb/s = 50 GB/s; share 0.80 is an assumption (RDMA "
               "over Ethernet measured higher: NFSoRDMA 96%, gds-report.pages.dev)"},
    {.name = "eth-800g", .full_name = "800 Gigabit Ethernet", .kind = TRAINSIZE_LINK_SCALE_OUT,
     .bandwidth = GBS(100), .achieved_share = TS_SHARE_ETH_ASSUMED,
     .source = "IEEE 802.3 line rate, 800 Gb/s = 100 GB/s; share 0.80 is an assumption (no "
               "collective measurement over Ethernet)"},
};

#define TS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

const size_t ts_link_count = TS_COUNT(ts_links);

/* The scale-out links faster than TS_SLOW_NETWORK, slowest first by achieved rate
 * (bandwidth x achieved_share; catalogue order among equals): the order in which the
 * estimate searches them by halves for the network (system.c). It follows from the rows
 * above, so it is not sorted on every estimate; test_link_storage_catalog sorts them and
 * fails when a row changes and this does not. */
const unsigned char ts_links_by_rate[] = {
    19, /* eth-25g   2.5 GB/s */
    20, /* eth-40g   4 */
    21, /* eth-100g  10 */
    14, /* ib-edr    10.6 */
    22, /* eth-200g  20 */
    15, /* ib-hdr    21.3 */
    23, /* eth-400g  40 */
    16, /* ib-ndr    42.5 */
    24, /* eth-800g  80 */
    17, /* ib-xdr    85 */
};
const size_t ts_links_by_rate_count = TS_COUNT(ts_links_by_rate);

size_t trainsize_link_count(void)
{
    return TS_COUNT(ts_links);
}

const trainsize_link_info *trainsize_link_at(size_t index)
{
    return index < TS_COUNT(ts_links) ? &ts_links[index] : NULL;
}

const trainsize_link_info *trainsize_link_find(const char *name)
{
    size_t i;

    if (name == NULL)
        return NULL;
    /* A name made of separators only ("", "-") matches nothing. */
    if (ts_name_blank(name))
        return NULL;

    for (i = 0; i < TS_COUNT(ts_links); i++) {
        if (ts_name_equal(name, ts_links[i].name))
            return &ts_links[i];
    }
    return NULL;
}

/* Per-direction rate one GPU achieves over its host link: its PCIe generation's link
 * ("pcie3" ... "pcie6"); generation 0 in the catalogue is a Grace host on NVLink-C2C. An
 * unknown generation gets a PCIe 1-class rate, so that what rides on it shows. */
double ts_host_link_rate(const trainsize_gpu_info *gpu)
{
    size_t i;
    for (i = 0; i < TS_COUNT(ts_links); i++) {
        const trainsize_link_info *l = &ts_links[i];
        int match = gpu->pcie_generation == 0
                        ? strcmp(l->name, "nvlink-c2c") == 0
                        : gpu->pcie_generation <= 9 && strncmp(l->name, "pcie", 4) == 0 &&
                              l->name[4] == (char)('0' + gpu->pcie_generation) && l->name[5] == '\0';
        if (match) return (double)l->bandwidth * l->achieved_share;
    }
    return 1e9;
}
