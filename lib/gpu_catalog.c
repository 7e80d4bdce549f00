/* The built-in catalogue of GPUs and accelerators (datasheet figures) and its look-up.
 *
 * Every figure is a vendor datasheet value; docs/hardware-catalog.md lists each row with
 * its public source and status. Conventions (also in the public header):
 * - memory_bytes: the vendor "GB" label times 2^30 (HBM and GDDR are binary in practice);
 *   B200 is 180 GiB usable, not the 192 of the marketing material.
 * - usable_bytes: what the CUDA or ROCm runtime reports as the device's total (PyTorch's
 *   total_memory, in whole MiB), from public printouts listed in docs/hardware-catalog.md;
 *   the driver keeps the rest. 0 (use the label) where none was found (Gaudi).
 * - bandwidths: bytes per second, decimal (1 GB/s = 1e9 B/s).
 * - FLOP/s: dense peaks, no 2:4 sparsity. flops_bf16 is the 16-bit tensor rate with FP32
 *   accumulate (GeForce cards: the half rate, as mixed-precision training uses it); 0 on
 *   V100, which has no BF16. flops_fp16 is set where FP16 differs (V100, Gaudi 3) and 0
 *   where it equals BF16. flops_fp8 and flops_fp4 are 0 when the part has none (TPU v5p
 *   and v6e list FP8 at the BF16 rate: no FP8 units), flops_fp32 is 0 when the vendor
 *   publishes none (TPUs, H20).
 * - tdp_watts: 0 where the vendor publishes none (TPUs); the estimate then warns.
 * - scale_up_bandwidth: GPU-to-GPU link, bidirectional total per GPU; 0 when PCIe only.
 *   For PCIe cards with an NVLink bridge it is the bridge rate, which links pairs only.
 * - pcie_generation: the host link; 0 when the host is not on PCIe (GB200: NVLink-C2C).
 * - scale_up_domain, per_host: accelerators one scale-up fabric joins (0: one server's) and
 *   per host as built (0: up to 8). NVL72 racks join 72 over NVLink switches, 4 per tray;
 *   a TPU slice joins up to its largest ICI slice, 4 or 8 chips per host VM. An NVLink
 *   bridge joins 2 PCIe cards (4 for H200 NVL's 4-way bridge): wider groups in a server
 *   talk over PCIe (ts_bridge_span).
 * - host_ram_bytes, host_cores: the host as sold with the part (Grace trays, TPU VMs);
 *   Google's VM "GB" are GiB. 0 where the buyer chooses the server.
 * - price_date: the newest date in price_source ("" when unpriced).
 * - host_network, host_nics: the NICs a host is sold with (TPU VMs: Google's data-centre
 *   network per VM, as catalogue Ethernet links); "" where the buyer chooses.
 * - cloud_usd_per_hour, purchase_usd, price_source: dated, volatile defaults. Cloud: one
 *   market, RunPod Community Cloud's on-demand list (another neocloud's on-demand list where
 *   RunPod has none, and the source says so); purchase: street or reseller prices per GPU (a
 *   range gives its midpoint). 0 where none was found, and price_source says why
 *   ("unpriced: ..."); the caller then supplies a price (gpu-hour-usd, gpu-prices).
 * Where a figure is unverified (no primary source confirms it) or derived (arithmetic from a
 * published figure, e.g. dense = sparse / 2), the source string says so.
 *
 * No mutable state: the tables are static const and the functions are pure.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "catalog.h"
#include "text_values.h"
#include "trainsize.h"

/* Vendor "GB" label -> bytes (binary). */
#define GIB(n) ((uint64_t)(n) << 30)
/* MiB as PyTorch prints total_memory -> bytes. */
#define MIB(n) ((uint64_t)(n) << 20)
/* Whole GB/s -> bytes per second (decimal). */
#define GBS(n) ((uint64_t)(n) * UINT64_C(1000000000))
/* MB/s -> bytes per second, for the few non-integral GB/s rates (112.5 GB/s). */
#define MBS(n) ((uint64_t)(n) * UINT64_C(1000000))
/* TFLOP/s -> FLOP/s. */
#define TF(x) ((double)(x) * 1e12)

static const trainsize_gpu_info ts_gpus[] = {
    /* ---- NVIDIA data-centre GPUs (NVIDIA datasheets and product pages) ---- */
    {.name = "v100-16gb", .full_name = "NVIDIA Tesla V100 SXM2 16GB",
     .architecture = "Volta", .vendor = "NVIDIA", .no_bf16 = 1, .no_flash_attention = 1,
     .usable_bytes = MIB(16160), .memory_bytes = GIB(16), .memory_bandwidth = GBS(900),
     .flops_fp32 = TF(15.7), .flops_bf16 = 0, .flops_fp16 = TF(125), .flops_fp8 = 0, .tdp_watts = 300,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(300), .pcie_generation = 3,
     .source = "NVIDIA V100 datasheet 1165301-r5 (FP16 tensor rate; no BF16)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated 2025-26 cloud list or street price found (the V100 is leaving the "
                     "clouds)",
     .price_date = ""},
    {.name = "v100-32gb", .full_name = "NVIDIA Tesla V100 SXM2 32GB",
     .architecture = "Volta", .vendor = "NVIDIA", .no_bf16 = 1, .no_flash_attention = 1,
     .usable_bytes = MIB(32510), .memory_bytes = GIB(32), .memory_bandwidth = GBS(900),
     .flops_fp32 = TF(15.7), .flops_bf16 = 0, .flops_fp16 = TF(125), .flops_fp8 = 0, .tdp_watts = 300,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(300), .pcie_generation = 3,
     .source = "NVIDIA V100 datasheet 1165301-r5 (FP16 tensor rate; no BF16)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated 2025-26 cloud list or street price found (the V100 is leaving the "
                     "clouds)",
     .price_date = ""},
    {.name = "v100-16gb-pcie", .full_name = "NVIDIA Tesla V100 PCIe 16GB",
     .architecture = "Volta", .vendor = "NVIDIA", .no_bf16 = 1, .no_flash_attention = 1,
     .usable_bytes = MIB(16160), .memory_bytes = GIB(16), .memory_bandwidth = GBS(900),
     .flops_fp32 = TF(14.0), .flops_bf16 = 0, .flops_fp16 = TF(112), .flops_fp8 = 0, .tdp_watts = 250,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 3,
     .source = "NVIDIA V100 datasheet 1165301-r5 (FP16 tensor rate; no BF16)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated 2025-26 cloud list or street price found",
     .price_date = ""},
    {.name = "v100-32gb-pcie", .full_name = "NVIDIA Tesla V100 PCIe 32GB",
     .architecture = "Volta", .vendor = "NVIDIA", .no_bf16 = 1, .no_flash_attention = 1,
     .usable_bytes = MIB(32510), .memory_bytes = GIB(32), .memory_bandwidth = GBS(900),
     .flops_fp32 = TF(14.0), .flops_bf16 = 0, .flops_fp16 = TF(112), .flops_fp8 = 0, .tdp_watts = 250,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 3,
     .source = "NVIDIA V100 datasheet 1165301-r5 (FP16 tensor rate; no BF16)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated 2025-26 cloud list or street price found",
     .price_date = ""},
    {.name = "a100-40gb", .full_name = "NVIDIA A100 40GB SXM4",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(40339), .memory_bytes = GIB(40), .memory_bandwidth = GBS(1555),
     .flops_fp32 = TF(19.5), .flops_bf16 = TF(312), .flops_fp8 = 0, .tdp_watts = 400,
     .flops_tf32 = TF(156),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .pcie_generation = 4,
     .source = "NVIDIA A100 datasheet 1758950-r4",
     .cloud_usd_per_hour = 1.0, .purchase_usd = 0,
     .price_source = "cloud: RunPod Community Cloud on-demand list A100 SXM 40GB $1.00/GPU-h, 2026-08-19 "
                     "(privum/ai-compute-prices); purchase: none found",
     .price_date = "2026-08"},
    {.name = "a100-40gb-pcie", .full_name = "NVIDIA A100 40GB PCIe",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(40326), .memory_bytes = GIB(40), .memory_bandwidth = GBS(1555),
     .flops_fp32 = TF(19.5), .flops_bf16 = TF(312), .flops_fp8 = 0, .tdp_watts = 250,
     .flops_tf32 = TF(156),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "NVIDIA A100 40GB PCIe product brief PB-10137-001 (NVLink bridge: pairs)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: RunPod lists no A100 PCIe 40GB; no street price found",
     .price_date = ""},
    {.name = "a100-80gb", .full_name = "NVIDIA A100 80GB SXM4",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(81050), .memory_bytes = GIB(80), .memory_bandwidth = GBS(2039),
     .flops_fp32 = TF(19.5), .flops_bf16 = TF(312), .flops_fp8 = 0, .tdp_watts = 400,
     .flops_tf32 = TF(156),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .pcie_generation = 4,
     .source = "NVIDIA A100 datasheet 1758950-r4",
     .cloud_usd_per_hour = 1.39, .purchase_usd = 11500,
     .price_source = "cloud: RunPod Community Cloud on-demand list A100 SXM $1.39/GPU-h, 2026-11-09 "
                     "(datareceipts vendors.json); purchase: new reseller $8-15k in 2026, midpoint "
                     "(aitooldiscovery, 2026-03; low confidence)",
     .price_date = "2026-11"},
    {.name = "a100-80gb-pcie", .full_name = "NVIDIA A100 80GB PCIe",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(81038), .memory_bytes = GIB(80), .memory_bandwidth = GBS(1935),
     .flops_fp32 = TF(19.5), .flops_bf16 = TF(312), .flops_fp8 = 0, .tdp_watts = 300,
     .flops_tf32 = TF(156),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "NVIDIA A100 datasheet 1758950-r4 (NVLink bridge: pairs)",
     .cloud_usd_per_hour = 1.19, .purchase_usd = 11500,
     .price_source = "cloud: RunPod Community Cloud on-demand list A100 PCIe $1.19/GPU-h, 2026-11-09 "
                     "(datareceipts vendors.json); purchase: A100 80GB new $8-15k in 2026, midpoint, form "
                     "factor not stated (low confidence)",
     .price_date = "2026-11"},
    {.name = "h100-80gb", .full_name = "NVIDIA H100 80GB SXM5",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(81089), .memory_bytes = GIB(80), .memory_bandwidth = GBS(3350),
     .flops_fp32 = TF(67), .flops_bf16 = TF(989.4), .flops_fp8 = TF(1978.9), .tdp_watts = 700,
     .flops_tf32 = TF(494.7),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(900), .pcie_generation = 5,
     .source = "NVIDIA H100 datasheet (nvidia.com/en-us/data-center/h100)",
     .cloud_usd_per_hour = 2.69, .purchase_usd = 27500,
     .price_source = "cloud: RunPod Community Cloud on-demand list H100 SXM $2.69/GPU-h, 2026-11-09, "
                     "unchanged since 2026-08 (datareceipts vendors.json, silybench); purchase: new street "
                     "$25-30k per module, early 2026, midpoint",
     .price_date = "2026-11"},
    {.name = "h100-pcie", .full_name = "NVIDIA H100 PCIe 80GB",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(81008), .memory_bytes = GIB(80), .memory_bandwidth = GBS(2000),
     .flops_fp32 = TF(51), .flops_bf16 = TF(756), .flops_fp8 = TF(1513), .tdp_watts = 350,
     .flops_tf32 = TF(378),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .scale_up_domain = 2, .pcie_generation = 5,
     .source = "NVIDIA H100 PCIe product brief PB-11133-001 (NVLink bridge: pairs)",
     .cloud_usd_per_hour = 1.99, .purchase_usd = 0,
     .price_source = "cloud: RunPod Community Cloud on-demand list H100 PCIe $1.99/GPU-h, 2026-11-09 "
                     "(datareceipts vendors.json); purchase: none found",
     .price_date = "2026-11"},
    {.name = "h100-nvl", .full_name = "NVIDIA H100 NVL 94GB (one GPU of the pair)",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(95334), .memory_bytes = GIB(94), .memory_bandwidth = GBS(3900),
     .flops_fp32 = TF(60), .flops_bf16 = TF(835.5), .flops_fp8 = TF(1670.5), .tdp_watts = 400,
     .flops_tf32 = TF(417.5),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(600), .scale_up_domain = 2, .pcie_generation = 5,
     .source = "NVIDIA H100 datasheet, 2023 revision (cross-checked; NVLink bridge: pairs)",
     .cloud_usd_per_hour = 2.59, .purchase_usd = 0,
     .price_source = "cloud: RunPod Community Cloud on-demand list H100 NVL $2.59/GPU-h, 2026-11-09 "
                     "(datareceipts vendors.json); purchase: none found",
     .price_date = "2026-11"},
    {.name = "h200", .full_name = "NVIDIA H200 SXM 141GB",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(143156), .memory_bytes = GIB(141), .memory_bandwidth = GBS(4800),
     .flops_fp32 = TF(67), .flops_bf16 = TF(989.4), .flops_fp8 = TF(1978.9), .tdp_watts = 700,
     .flops_tf32 = TF(494.7),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(900), .pcie_generation = 5,
     .source = "NVIDIA H200 page (nvidia.com/en-us/data-center/h200)",
     .cloud_usd_per_hour = 3.59, .purchase_usd = 29500,
     .price_source = "cloud: RunPod Community Cloud on-demand list H200 $3.59/GPU-h, 2026-09-25 (silybench "
                     "gpu_prices.csv); purchase: retail $28-31k, Q1 2026, midpoint (runlocalai; low "
                     "confidence)",
     .price_date = "2026-09"},
    {.name = "h200-nvl", .full_name = "NVIDIA H200 NVL 141GB",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(143156), .memory_bytes = GIB(141), .memory_bandwidth = GBS(4800),
     .flops_fp32 = TF(60), .flops_bf16 = TF(835.5), .flops_fp8 = TF(1670.5), .tdp_watts = 600,
     .flops_tf32 = TF(417.5),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(900), .scale_up_domain = 4,
     .pcie_generation = 5,
     .source = "NVIDIA H200 datasheet (TFLOPS and 900 GB/s bridge unverified; 2- or 4-way NVLink "
               "bridge, so 4 GPUs at most share it)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no on-demand listing or street price found",
     .price_date = ""},
    {.name = "b200", .full_name = "NVIDIA B200 (HGX/DGX B200)",
     .architecture = "Blackwell", .vendor = "NVIDIA",
     .usable_bytes = MIB(182642), .memory_bytes = GIB(180), .memory_bandwidth = GBS(8000),
     .flops_fp32 = TF(80), .flops_bf16 = TF(2250), .flops_fp8 = TF(4500), .flops_fp4 = TF(9000),
     .flops_tf32 = TF(1125),
     .tdp_watts = 1000,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1800), .pcie_generation = 5,
     .source = "NVIDIA DGX B200 user guide and datasheet (180 GB usable; FP32 cross-checked; FP4 "
               "derived: 144 PF sparse / 8 / 2)",
     .cloud_usd_per_hour = 5.98, .purchase_usd = 41500,
     .price_source = "cloud: RunPod Community Cloud on-demand list B200 $5.98/GPU-h, 2026-09-25 (silybench "
                     "gpu_prices.csv); purchase: retail $40-43k, Q1 2026, midpoint (runlocalai; low "
                     "confidence)",
     .price_date = "2026-09"},
    {.name = "gb200", .full_name = "NVIDIA GB200 (one Blackwell GPU)",
     .architecture = "Blackwell", .vendor = "NVIDIA",
     .usable_bytes = MIB(188733), .memory_bytes = GIB(186), .memory_bandwidth = GBS(8000),
     .flops_fp32 = TF(80), .flops_bf16 = TF(2500), .flops_fp8 = TF(5000), .flops_fp4 = TF(10000),
     .flops_tf32 = TF(1250),
     .tdp_watts = 1200, .scale_up_domain = 72, .per_host = 4, .host_ram_bytes = GIB(960),
     .host_cores = 144,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1800), .pcie_generation = 0,
     .source = "NVIDIA GB200 NVL72 page (FP32 cross-checked; FP4 derived: 1440 PF sparse / 72 / 2; "
               "host via NVLink-C2C: a tray is 2 Grace, 2 x 480 GB LPDDR5X, 2 x 72 cores)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: rented and sold only as NVL72 racks, no per-GPU market",
     .price_date = ""},

    /* ---- NVIDIA 2025-26: Blackwell Ultra and the China-market Hopper ---- */
    {.name = "b300", .full_name = "NVIDIA B300 (HGX/DGX B300)",
     .architecture = "Blackwell Ultra", .vendor = "NVIDIA",
     .usable_bytes = MIB(275040), .memory_bytes = GIB(270), .memory_bandwidth = GBS(8000),
     .flops_fp32 = TF(75), .flops_bf16 = TF(2250), .flops_fp8 = TF(4500), .flops_fp4 = TF(13125),
     .flops_tf32 = TF(1125),
     .tdp_watts = 1100, .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1800), .pcie_generation = 5,
     .source = "NVIDIA HGX B300 figures / 8, dense = sparse / 2 (derived; FP4 unverified, 13.1-14 PF "
               "quoted); 270 GB and 1100 W TGP: NVIDIA's DGX B300 MLPerf v6.1 system description; "
               "usable: nvidia-smi 275040 MiB in public logs",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated on-demand list or street price found",
     .price_date = ""},
    {.name = "gb300", .full_name = "NVIDIA GB300 (one Blackwell Ultra GPU of an NVL72)",
     .architecture = "Blackwell Ultra", .vendor = "NVIDIA",
     .usable_bytes = MIB(284208), .memory_bytes = GIB(288), .memory_bandwidth = GBS(8000),
     .flops_fp32 = TF(80), .flops_bf16 = TF(2500), .flops_fp8 = TF(5000), .flops_fp4 = TF(15000),
     .flops_tf32 = TF(1250),
     .tdp_watts = 1400, .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1800), .pcie_generation = 0,
     .scale_up_domain = 72, .per_host = 4, .host_ram_bytes = GIB(960), .host_cores = 144,
     .source = "NVIDIA blog 'Inside Blackwell Ultra' (15 PF dense NVFP4); Verda GB300 table (dense "
               "BF16/FP8); NVIDIA MLPerf GB300 system (1400 W, 4 GPUs and 144 cores a tray); "
               "dgxc-benchmarking (960 GiB LPDDR5X a tray); usable: nvidia-smi in public logs",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: rented and sold as NVL72 racks, no per-GPU market",
     .price_date = ""},
    {.name = "h20", .full_name = "NVIDIA H20 96GB",
     .architecture = "Hopper", .vendor = "NVIDIA",
     .usable_bytes = MIB(97871), .memory_bytes = GIB(96), .memory_bandwidth = GBS(4000),
     .flops_fp32 = 0, .flops_bf16 = TF(148), .flops_fp8 = TF(296), .tdp_watts = 400,
     .flops_tf32 = TF(74),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(900), .pcie_generation = 5,
     .source = "third-party spec pages (willitrunai, unanswered.io; no NVIDIA page found; FP8 and "
               "PCIe 5 unverified, FP32 unpublished); usable: nvidia-smi 97871 MiB in public logs",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: sold in China only; no dated price found",
     .price_date = ""},

    /* ---- NVIDIA workstation, inference and GeForce (datasheets, whitepapers) ---- */
    {.name = "l40s", .full_name = "NVIDIA L40S",
     .architecture = "Ada Lovelace", .vendor = "NVIDIA",
     .usable_bytes = MIB(45589), .memory_bytes = GIB(48), .memory_bandwidth = GBS(864),
     .flops_fp32 = TF(91.6), .flops_bf16 = TF(362), .flops_fp8 = TF(733), .tdp_watts = 350,
     .flops_tf32 = TF(183),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 4,
     .source = "NVIDIA L40S datasheet",
     .cloud_usd_per_hour = 0.79, .purchase_usd = 9000,
     .price_source = "cloud: RunPod Community Cloud on-demand list L40S $0.79/GPU-h, 2026-09-25 (silybench "
                     "gpu_prices.csv); purchase: $9,000 MSRP (a list price, not street)",
     .price_date = "2026-09"},
    {.name = "l4", .full_name = "NVIDIA L4",
     .architecture = "Ada Lovelace", .vendor = "NVIDIA",
     .usable_bytes = MIB(22518), .memory_bytes = GIB(24), .memory_bandwidth = GBS(300),
     .flops_fp32 = TF(30.3), .flops_bf16 = TF(121), .flops_fp8 = TF(242.5), .tdp_watts = 72,
     .flops_tf32 = TF(60),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 4,
     .source = "NVIDIA L4 datasheet (dense tensor derived: sparse / 2)",
     .cloud_usd_per_hour = 0.44, .purchase_usd = 0,
     .price_source = "cloud: RunPod L4 $0.44/GPU-h, 2026-03 (deploybase summary of RunPod prices; low "
                     "confidence); purchase: none found",
     .price_date = "2026-03"},
    {.name = "a10", .full_name = "NVIDIA A10",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(22516), .memory_bytes = GIB(24), .memory_bandwidth = GBS(600),
     .flops_fp32 = TF(31.2), .flops_bf16 = TF(125), .flops_fp8 = 0, .tdp_watts = 150,
     .flops_tf32 = TF(62.5),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 4,
     .source = "NVIDIA A10 datasheet (tensor TFLOPS unverified)",
     .cloud_usd_per_hour = 1.29, .purchase_usd = 0,
     .price_source = "cloud: Lambda on-demand 1x A10 $1.29/GPU-h, 2026-09-25 (silybench; another provider: "
                     "RunPod lists no A10); purchase: none found",
     .price_date = "2026-09"},
    {.name = "a40", .full_name = "NVIDIA A40",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(45416), .memory_bytes = GIB(48), .memory_bandwidth = GBS(696),
     .flops_fp32 = TF(37.4), .flops_bf16 = TF(149.7), .flops_fp8 = 0, .tdp_watts = 300,
     .flops_tf32 = TF(74.8),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = MBS(112500), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "NVIDIA A40 datasheet (NVLink bridge: pairs)",
     .cloud_usd_per_hour = 0.44, .purchase_usd = 0,
     .price_source = "cloud: RunPod Secure Cloud A40 $0.44/GPU-h, 2026-08-19 (privum/ai-compute-prices; the "
                     "Secure tier, no Community price found); purchase: none found",
     .price_date = "2026-08"},
    {.name = "rtx-a6000", .full_name = "NVIDIA RTX A6000",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(48676), .memory_bytes = GIB(48), .memory_bandwidth = GBS(768),
     .flops_fp32 = TF(38.7), .flops_bf16 = TF(154.8), .flops_fp8 = 0, .tdp_watts = 300,
     .flops_tf32 = TF(77.4),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = MBS(112500), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "NVIDIA RTX A6000 datasheet (dense tensor derived: sparse / 2)",
     .cloud_usd_per_hour = 0.82, .purchase_usd = 0,
     .price_source = "cloud: Verda (DataCrunch) on-demand RTX A6000 $0.82/GPU-h, 2026-10-29 "
                     "(lantern-works/gpu-cloud-prices; another provider); purchase: none found",
     .price_date = "2026-10"},
    {.name = "rtx-6000-ada", .full_name = "NVIDIA RTX 6000 Ada Generation",
     .architecture = "Ada Lovelace", .vendor = "NVIDIA",
     .usable_bytes = MIB(48622), .memory_bytes = GIB(48), .memory_bandwidth = GBS(960),
     .flops_fp32 = TF(91.1), .flops_bf16 = TF(364.2), .flops_fp8 = TF(728.5), .tdp_watts = 300,
     .flops_tf32 = TF(182.1),
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 4,
     .source = "NVIDIA RTX 6000 Ada datasheet (dense tensor derived from sparse FP8)",
     .cloud_usd_per_hour = 0, .purchase_usd = 6799,
     .price_source = "cloud: none found; purchase: $6,799 launch MSRP, Q1 2023 (a list price)",
     .price_date = "2023"},
    {.name = "rtx-pro-6000", .full_name = "NVIDIA RTX PRO 6000 Blackwell (Workstation/Server, 600 W)",
     .architecture = "Blackwell", .vendor = "NVIDIA",
     .usable_bytes = MIB(97887), .memory_bytes = GIB(96), .memory_bandwidth = MBS(1792000),
     .flops_fp32 = TF(125), .flops_bf16 = TF(503.8), .flops_fp8 = TF(1007.6), .flops_fp4 = TF(2015),
     .flops_tf32 = TF(251.9),
     .tdp_watts = 600, .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 5,
     .source = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition figures (hmc-tech, gpu.name: dense "
               "tensor, FP32 accumulate at full rate); usable: Server Edition nvidia-smi 97887 MiB",
     .cloud_usd_per_hour = 1.57, .purchase_usd = 8565,
     .price_source = "cloud: RunPod RTX PRO 6000 $1.57/GPU-h, 2026-03 (deploybase summary of RunPod prices); "
                     "purchase: $8,565 MSRP, 2026-04 (newgearhub; retail $8,000-9,200)",
     .price_date = "2026-04"},
    {.name = "rtx-3090", .full_name = "NVIDIA GeForce RTX 3090",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(24238), .memory_bytes = GIB(24), .memory_bandwidth = GBS(936),
     .flops_fp32 = TF(35.6), .flops_bf16 = TF(71), .flops_fp8 = 0, .tdp_watts = 350,
     .flops_tf32 = TF(35.6),
     .ecc = 0, .data_center = 0, .scale_up_bandwidth = MBS(112500), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "NVIDIA GA102 whitepaper v2, Appendix A (FP32-accumulate tensor rate)",
     .cloud_usd_per_hour = 0.22, .purchase_usd = 650,
     .price_source = "cloud: RunPod RTX 3090 $0.22/GPU-h, 2026-03 (deploybase summary; low confidence); "
                     "purchase: used $500-800 in 2026, midpoint (local-llm.net)",
     .price_date = "2026-03"},
    {.name = "rtx-3090-ti", .full_name = "NVIDIA GeForce RTX 3090 Ti",
     .architecture = "Ampere", .vendor = "NVIDIA",
     .usable_bytes = MIB(24114), .memory_bytes = GIB(24), .memory_bandwidth = GBS(1008),
     .flops_fp32 = TF(40), .flops_bf16 = TF(80), .flops_fp8 = 0, .tdp_watts = 450,
     .flops_tf32 = TF(40),
     .ecc = 0, .data_center = 0, .scale_up_bandwidth = MBS(112500), .scale_up_domain = 2, .pcie_generation = 4,
     .source = "TweakTown spec table (tensor derived; NVLink rate unverified)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no cloud list or street price found",
     .price_date = ""},
    {.name = "rtx-4090", .full_name = "NVIDIA GeForce RTX 4090",
     .architecture = "Ada Lovelace", .vendor = "NVIDIA",
     .usable_bytes = MIB(24081), .memory_bytes = GIB(24), .memory_bandwidth = GBS(1008),
     .flops_fp32 = TF(82.6), .flops_bf16 = TF(165.2), .flops_fp8 = TF(330.3), .tdp_watts = 450,
     .flops_tf32 = TF(82.6),
     .ecc = 0, .data_center = 0, .scale_up_bandwidth = 0, .pcie_generation = 4,
     .source = "NVIDIA Ada whitepaper via hmc-tech/waredb (FP32-accumulate tensor rate)",
     .cloud_usd_per_hour = 0.34, .purchase_usd = 1300,
     .price_source = "cloud: RunPod Community Cloud on-demand list RTX 4090 $0.34/GPU-h, 2026-09-25 "
                     "(silybench gpu_prices.csv); purchase: new $1,200-1,400, Q2 2026, midpoint (low "
                     "confidence)",
     .price_date = "2026-09"},
    {.name = "rtx-5090", .full_name = "NVIDIA GeForce RTX 5090",
     .architecture = "Blackwell", .vendor = "NVIDIA",
     .usable_bytes = MIB(32109), .memory_bytes = GIB(32), .memory_bandwidth = GBS(1792),
     .flops_fp32 = TF(104.8), .flops_bf16 = TF(209.5), .flops_fp8 = TF(838), .tdp_watts = 575,
     .flops_tf32 = TF(104.8),
     .ecc = 0, .data_center = 0, .scale_up_bandwidth = 0, .pcie_generation = 5,
     .source = "Tom's Hardware spec box (dense BF16 FP32-acc and FP8 unverified)",
     .cloud_usd_per_hour = 0.69, .purchase_usd = 2250,
     .price_source = "cloud: RunPod RTX 5090 $0.69/GPU-h, 2026-03 (deploybase summary; low confidence); "
                     "purchase: new $2,100-2,400, Q2 2026, midpoint (low confidence)",
     .price_date = "2026-03"},

    /* ---- AMD and Intel (amd.com product pages, Intel Gaudi whitepapers) ---- */
    /* One row per rank: the OS and the frameworks see each of the module's two GCDs as a
     * GPU, so the row is one GCD (half the module's memory, bandwidth, FLOP/s and TDP). */
    {.name = "mi250x", .full_name = "AMD Instinct MI250X, one GCD (half of an OAM module)",
     .architecture = "CDNA 2", .vendor = "AMD",
     .usable_bytes = MIB(65520), .memory_bytes = GIB(64), .memory_bandwidth = 1638500000000ull,
     .flops_fp32 = TF(23.95), .flops_bf16 = TF(191.5), .flops_fp8 = 0, .tdp_watts = 250,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(700), .pcie_generation = 4,
     .source = "AMD Instinct MI250X page (module: 128 GB, 3277 GB/s, 383 TF, 500 W; "
               "per GCD: half of each, derived)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: not rented or sold to the public (HPC systems only)",
     .price_date = ""},
    {.name = "mi300x", .full_name = "AMD Instinct MI300X",
     .architecture = "CDNA 3", .vendor = "AMD",
     .usable_bytes = MIB(196592), .memory_bytes = GIB(192), .memory_bandwidth = GBS(5300),
     .flops_fp32 = TF(163.4), .flops_bf16 = TF(1307.4), .flops_fp8 = TF(2614.9),
     .flops_tf32 = TF(653.7),
     .tdp_watts = 750, .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(896),
     .pcie_generation = 5, .source = "AMD Instinct MI300X page",
     .cloud_usd_per_hour = 1.85, .purchase_usd = 0,
     .price_source = "cloud: Vultr on-demand MI300X $1.85/GPU-h, 2026-05-18 (cliffcenter research note; "
                     "another provider); purchase: not sold to the public",
     .price_date = "2026-05"},
    {.name = "mi325x", .full_name = "AMD Instinct MI325X",
     .architecture = "CDNA 3", .vendor = "AMD",
     .usable_bytes = MIB(262124), .memory_bytes = GIB(256), .memory_bandwidth = GBS(6000),
     .flops_fp32 = TF(163.4), .flops_bf16 = TF(1307.4), .flops_fp8 = TF(2614.9),
     .flops_tf32 = TF(653.7),
     .tdp_watts = 1000, .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(896),
     .pcie_generation = 5, .source = "AMD Instinct MI325X page",
     .cloud_usd_per_hour = 1.95, .purchase_usd = 0,
     .price_source = "cloud: TensorWave on-demand MI325X $1.95/GPU-h, 2026-05-18 (cliffcenter research note; "
                     "another provider); purchase: not sold to the public",
     .price_date = "2026-05"},
    {.name = "mi355x", .full_name = "AMD Instinct MI355X",
     .architecture = "CDNA 4", .vendor = "AMD",
     .memory_bytes = GIB(288), .memory_bandwidth = GBS(8000),
     .flops_fp32 = TF(157.3), .flops_bf16 = TF(2516.6), .flops_fp8 = TF(5033), .flops_fp4 = TF(10066),
     .tdp_watts = 1400, .ecc = 1, .data_center = 1, .scale_up_bandwidth = MBS(1075200),
     .pcie_generation = 5,
     .source = "AMD Instinct MI355X page via stas00 ml-engineering (dense: 2.5 PF BF16, 5 PF FP8, 10 PF "
               "MXFP4; exact = 2.4 GHz x per-CU rate); Infinity Fabric 7 x 153.6 GB/s (derived); 1400 W "
               "(Hot Chips 2025)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no dated on-demand list found (Vultr, TensorWave, Crusoe, OCI)",
     .price_date = ""},
    {.name = "gaudi2", .full_name = "Intel Gaudi 2 (OAM)",
     .architecture = "Gaudi 2", .vendor = "Intel",
     .memory_bytes = GIB(96), .memory_bandwidth = GBS(2460),
     .flops_fp32 = 0, .flops_bf16 = TF(432), .flops_fp8 = TF(865), .tdp_watts = 600,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(525), .pcie_generation = 4,
     .source = "Intel Gaudi 2 whitepaper / HLS-Gaudi2 datasheet (ECC unverified)",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no cloud list price found; Intel's 2024 kit price is not in the sources read",
     .price_date = ""},
    {.name = "gaudi3", .full_name = "Intel Gaudi 3 (OAM)",
     .architecture = "Gaudi 3", .vendor = "Intel",
     .memory_bytes = GIB(128), .memory_bandwidth = GBS(3700),
     .flops_fp32 = TF(229), .flops_bf16 = TF(1677), .flops_fp16 = TF(459), .flops_fp8 = TF(1677),
     .tdp_watts = 900, .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1050), .pcie_generation = 5,
     .source = "Intel Gaudi 3 whitepaper 817486 (1677 TF as shipped; FP16 459 TF and FP32 per stas00 "
               "ml-engineering accelerator table; ECC unverified)",
     .cloud_usd_per_hour = 0, .purchase_usd = 15625,
     .price_source = "cloud: none found; purchase: Intel's 8-card kit list price $125,000 / 8 = $15,625 "
                     "(2024)",
     .price_date = "2024"},
    {.name = "gaudi3-pcie", .full_name = "Intel Gaudi 3 PCIe card (HL-338, 600 W)",
     .architecture = "Gaudi 3", .vendor = "Intel",
     .memory_bytes = GIB(128), .memory_bandwidth = GBS(3700),
     .flops_fp32 = TF(229), .flops_bf16 = TF(1677), .flops_fp16 = TF(459), .flops_fp8 = TF(1677),
     .tdp_watts = 600, .ecc = 1, .data_center = 1, .scale_up_bandwidth = 0, .pcie_generation = 5,
     .source = "Intel Gaudi 3 whitepaper 817486 via The Register 2024-04-12 (HL-338: same silicon and "
               "memory, 600 W); the OAM's shipped peaks (no PCIe figure published); its 200GbE ports "
               "are not modelled: PCIe between cards",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no cloud list or card price found",
     .price_date = ""},

    /* ---- Google Cloud TPUs (cloud.google.com/tpu/docs per generation) ---- */
    {.name = "tpu-v5e", .full_name = "Google Cloud TPU v5e (one chip)",
     .architecture = "TPU v5e", .vendor = "Google", .kind = TRAINSIZE_ACCELERATOR_TPU, .no_fp16 = 1,
     .memory_bytes = GIB(16), .memory_bandwidth = GBS(819),
     .flops_fp32 = 0, .flops_bf16 = TF(197), .flops_fp8 = 0, .tdp_watts = 0,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(400), .pcie_generation = 4,
     .scale_up_domain = 256, .per_host = 8, .host_ram_bytes = GIB(384), .host_cores = 224,
     .host_network = "eth-100g", .host_nics = 2,
     .source = "docs.cloud.google.com/tpu/docs/v5e (197 TF BF16, 16 GB at 819 GB/s, ICI 400 GB/s, "
               "256-chip pod, 2 x 100 Gbps NICs a host; ct5lp-hightpu-8t: 224 vCPU, 384 GB); power, ECC "
               "and PCIe unpublished",
     .cloud_usd_per_hour = 1.20, .purchase_usd = 0,
     .price_source = "cloud: $1.20/chip-h on demand, 2026-01 (artificial-intelligence-wiki TPU v5 guide "
                     "quoting Google Cloud; a secondary source); purchase: not sold",
     .price_date = "2026-01"},
    {.name = "tpu-v5p", .full_name = "Google Cloud TPU v5p (one chip)",
     .architecture = "TPU v5p", .vendor = "Google", .kind = TRAINSIZE_ACCELERATOR_TPU, .no_fp16 = 1,
     .memory_bytes = GIB(95), .memory_bandwidth = GBS(2765),
     .flops_fp32 = 0, .flops_bf16 = TF(459), .flops_fp8 = 0, .tdp_watts = 0,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1200), .pcie_generation = 4,
     .scale_up_domain = 6144, .per_host = 4, .host_ram_bytes = GIB(448), .host_cores = 208,
     .host_network = "eth-200g", .host_nics = 1,
     .source = "docs.cloud.google.com/tpu/docs/v5p-training and tpu7x comparison (459 TF BF16, FP8 at "
               "the BF16 rate, 95 GiB at 2765 GB/s, ICI 1200 GB/s, largest slice 6144 of a 8960-chip "
               "pod, DCN 50 Gbps a chip, as 200 GbE a VM (NIC count unpublished); ct5p-hightpu-4t: 208 "
               "vCPU, 448 GB); power, ECC and PCIe unpublished",
     .cloud_usd_per_hour = 4.20, .purchase_usd = 0,
     .price_source = "cloud: $4.20/chip-h on demand, 2026-01 (artificial-intelligence-wiki TPU v5 guide "
                     "quoting Google Cloud; a secondary source); purchase: not sold",
     .price_date = "2026-01"},
    {.name = "tpu-v6e", .full_name = "Google Cloud TPU v6e Trillium (one chip)",
     .architecture = "TPU v6e", .vendor = "Google", .kind = TRAINSIZE_ACCELERATOR_TPU, .no_fp16 = 1,
     .memory_bytes = GIB(32), .memory_bandwidth = GBS(1638),
     .flops_fp32 = 0, .flops_bf16 = TF(918), .flops_fp8 = 0, .tdp_watts = 0,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(800), .pcie_generation = 5,
     .scale_up_domain = 256, .per_host = 4, .host_ram_bytes = GIB(720), .host_cores = 180,
     .host_network = "eth-200g", .host_nics = 2,
     .source = "docs.cloud.google.com/tpu/docs/v6e (918 TF BF16, 32 GB at 1638 GB/s, ICI 800 GB/s, "
               "256-chip pod, PCIe Gen5 host link, 4 x 200 Gbps NICs an 8-chip host: 2 a 4-chip VM) "
               "and tpu7x comparison (FP8 at the BF16 rate; "
               "ct6e-standard-4t, the multi-host VM: 180 vCPU, 720 GB); power and ECC unpublished",
     .cloud_usd_per_hour = 2.70, .purchase_usd = 0,
     .price_source = "cloud: $2.70/chip-h on demand from, 2024-12 (Google's Trillium GA price as quoted by "
                     "Neowin; $1.89 1-year, $1.22 3-year); purchase: not sold",
     .price_date = "2024-12"},
    {.name = "tpu-v7", .full_name = "Google Cloud TPU7x Ironwood (one chip, two devices)",
     .architecture = "TPU7x", .vendor = "Google", .kind = TRAINSIZE_ACCELERATOR_TPU, .no_fp16 = 1,
     .memory_bytes = GIB(192), .memory_bandwidth = GBS(7380),
     .flops_fp32 = 0, .flops_bf16 = TF(2307), .flops_fp8 = TF(4614), .tdp_watts = 0,
     .ecc = 1, .data_center = 1, .scale_up_bandwidth = GBS(1200), .pcie_generation = 5,
     .scale_up_domain = 9216, .per_host = 4, .host_ram_bytes = GIB(960), .host_cores = 224,
     .host_network = "eth-200g", .host_nics = 2,
     .source = "docs.cloud.google.com/tpu/docs/tpu7x (2307 TF BF16, 4614 TF FP8, 192 GiB at 7380 GB/s, "
               "ICI 1200 GB/s, 9216-chip pod, 4-chip VM: 224 vCPU, 960 GB, 100 Gbps DCN a chip; 2 NICs "
               "a VM per the GKE Ironwood page); two devices of 96 GiB a "
               "chip, sized here as one; power, ECC and PCIe unpublished",
     .cloud_usd_per_hour = 0, .purchase_usd = 0,
     .price_source = "unpriced: no public list price (Google's docs: contact the account team)",
     .price_date = ""},
};

/* Other spellings that name exactly one catalogue row. The long device names (form factor
 * and memory, e.g. "A100-SXM4-80GB", as docs/hardware-catalog.md lists them) are here,
 * plus the "-sxm" and "<size>-pcie" forms a user writes by analogy with the short names.
 * Deliberately absent: "a100", "h100", "v100", "b200-192gb" (ambiguous or misleading).
 * Matching ignores case and the separators '-', '_' and ' ' (see
 * ts_name_equal), so "RTX 4090" and "a100_80gb" need no entry. */
typedef struct ts_gpu_alias {
    const char *alias;
    const char *name;
} ts_gpu_alias;

static const ts_gpu_alias ts_gpu_aliases[] = {
    {"v100-sxm2-16gb", "v100-16gb"},
    {"v100-sxm2-32gb", "v100-32gb"},
    {"v100-pcie-16gb", "v100-16gb-pcie"},
    {"v100-pcie-32gb", "v100-32gb-pcie"},
    {"a100-sxm4-40gb", "a100-40gb"},
    {"a100-40gb-sxm", "a100-40gb"},
    {"a100-pcie-40gb", "a100-40gb-pcie"},
    {"a100-sxm4-80gb", "a100-80gb"},
    {"a100-80gb-sxm", "a100-80gb"},
    {"a100-pcie-80gb", "a100-80gb-pcie"},
    {"h100-sxm5-80gb", "h100-80gb"},
    {"h100-80gb-sxm", "h100-80gb"},
    {"h100-sxm", "h100-80gb"},
    {"h100-pcie-80gb", "h100-pcie"},
    {"h100-80gb-pcie", "h100-pcie"},
    {"h100-nvl-94gb", "h100-nvl"},
    {"h200-sxm-141gb", "h200"},
    {"h200-141gb", "h200"},
    {"h200-sxm", "h200"},
    {"h200-nvl-141gb", "h200-nvl"},
    {"b200-sxm-180gb", "b200"},
    {"b200-180gb", "b200"},
    {"gb200-per-gpu-186gb", "gb200"},
    {"geforce-rtx-3090", "rtx-3090"},
    {"geforce-rtx-3090-ti", "rtx-3090-ti"},
    {"geforce-rtx-4090", "rtx-4090"},
    {"geforce-rtx-5090", "rtx-5090"},
    {"rtx-6000-ada-generation", "rtx-6000-ada"},
    {"instinct-mi250x", "mi250x"},
    {"instinct-mi300x", "mi300x"},
    {"instinct-mi325x", "mi325x"},
    {"instinct-mi355x", "mi355x"},
    {"b300-sxm6-ac", "b300"},
    {"b300-sxm", "b300"},
    {"rtx-pro-6000-blackwell", "rtx-pro-6000"},
    {"rtx-pro-6000-blackwell-server-edition", "rtx-pro-6000"},
    {"rtx-pro-6000-blackwell-workstation-edition", "rtx-pro-6000"},
    {"hl-338", "gaudi3-pcie"},
    {"hl-325l", "gaudi3"},
    {"v5e", "tpu-v5e"},
    {"v5litepod", "tpu-v5e"},
    {"v5p", "tpu-v5p"},
    {"v6e", "tpu-v6e"},
    {"trillium", "tpu-v6e"},
    {"tpu7x", "tpu-v7"},
    {"ironwood", "tpu-v7"},
};

#define TS_COUNT(a) (sizeof(a) / sizeof((a)[0]))


static const trainsize_gpu_info *ts_gpu_by_name(const char *name)
{
    size_t i;
    for (i = 0; i < TS_COUNT(ts_gpus); i++) {
        if (ts_name_equal(name, ts_gpus[i].name))
            return &ts_gpus[i];
    }
    return NULL;
}

size_t trainsize_gpu_count(void)
{
    return TS_COUNT(ts_gpus);
}

const trainsize_gpu_info *trainsize_gpu_at(size_t index)
{
    return index < TS_COUNT(ts_gpus) ? &ts_gpus[index] : NULL;
}

const trainsize_gpu_info *trainsize_gpu_find(const char *name)
{
    const trainsize_gpu_info *gpu;
    size_t i;

    if (name == NULL)
        return NULL;
    /* A name made of separators only ("", "-") matches nothing. */
    if (ts_name_blank(name))
        return NULL;

    gpu = ts_gpu_by_name(name);
    if (gpu != NULL)
        return gpu;
    for (i = 0; i < TS_COUNT(ts_gpu_aliases); i++) {
        if (ts_name_equal(name, ts_gpu_aliases[i].alias))
            return ts_gpu_by_name(ts_gpu_aliases[i].name);
    }
    return NULL;
}

int ts_arch_is(const trainsize_gpu_info *gpu, const char *family)
{
    /* the first letter first: most checks fail there, without a call */
    return gpu && gpu->architecture && gpu->architecture[0] == family[0] &&
           strncmp(gpu->architecture, family, strlen(family)) == 0;
}

uint64_t ts_host_size(const trainsize_gpu_info *gpu)
{
    return gpu->per_host > 0 ? (uint64_t)gpu->per_host : 8;
}

uint64_t ts_bridge_span(const trainsize_gpu_info *gpu, uint64_t gpus_per_node)
{
    return gpu->scale_up_bandwidth && gpu->scale_up_domain && gpu->scale_up_domain < gpus_per_node
               ? gpu->scale_up_domain
               : 0;
}

int ts_tp_on_fabric(const trainsize_gpu_info *gpu, uint64_t tp, uint64_t gpus_per_node, uint64_t gpus)
{
    uint64_t bridge = ts_bridge_span(gpu, gpus_per_node);
    return gpu->scale_up_bandwidth > 0 && tp <= ts_fabric_span(gpu, gpus_per_node, gpus) &&
           (!bridge || tp <= bridge);
}

uint64_t ts_fabric_span(const trainsize_gpu_info *gpu, uint64_t gpus_per_node, uint64_t gpus)
{
    /* A fabric spans servers only where it has its own switches or links between hosts;
     * a domain no larger than a server (or than the host the part is built for: an NVLink
     * bridge's pair, even on servers of one card) changes nothing. */
    if (gpu->scale_up_bandwidth == 0 || gpu->scale_up_domain <= gpus_per_node ||
        gpu->scale_up_domain <= ts_host_size(gpu))
        return gpus_per_node;
    return gpu->scale_up_domain < gpus ? gpu->scale_up_domain : gpus;
}
