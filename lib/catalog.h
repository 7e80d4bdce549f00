/* The catalogues' tables, for loops on the estimate path that would otherwise go through
 * the public accessors once per row (internal). */
#ifndef TS_CATALOG_H
#define TS_CATALOG_H

#include <stddef.h>

#include "trainsize.h"

extern const trainsize_link_info ts_links[];
extern const size_t ts_link_count;
/* 10 GbE: the checklist calls multi-node training over it (or slower) unbalanced; the
 * estimate never picks such a link for a job. */
#define TS_SLOW_NETWORK 1250000000ull
/* Indices into ts_links of the scale-out links above TS_SLOW_NETWORK, slowest first by
 * achieved rate, catalogue order among equals. */
extern const unsigned char ts_links_by_rate[];
extern const size_t ts_links_by_rate_count;
extern const trainsize_storage_info ts_storage[];
extern const size_t ts_storage_count;
/* Indices into ts_storage: the local NVMe classes, slowest read first; the shared classes,
 * lowest of what they serve first (NFS by its filer's aggregate rate, then the file systems
 * that scale out, by per-client rate). Catalogue order among equals. */
extern const unsigned char ts_storage_nvme_by_read[];
extern const size_t ts_storage_nvme_count;
extern const unsigned char ts_storage_shared_by_rank[];
extern const size_t ts_storage_shared_count;

#include <stdint.h>

/* 1 when the device's architecture is of `family` ("Blackwell" also matches "Blackwell
 * Ultra"), 0 otherwise or when the device names none. */
int ts_arch_is(const trainsize_gpu_info *gpu, const char *family);

/* Devices per server as the product is built: its per_host (a GB200 tray 4, a TPU VM 4 or
 * 8), else an HGX board's 8. */
uint64_t ts_host_size(const trainsize_gpu_info *gpu);

/* The devices one scale-up fabric joins in a job of `gpus` on servers of `gpus_per_node`:
 * a server's, or more where the fabric spans servers (an NVL72 rack, a TPU slice). */
uint64_t ts_fabric_span(const trainsize_gpu_info *gpu, uint64_t gpus_per_node, uint64_t gpus);

/* The GPUs one NVLink bridge joins when it joins fewer than a server's (2 for bridged PCIe
 * pairs, 4 for H200 NVL): a wider group in the server talks over PCIe. 0: no such limit
 * (an NVSwitch board, a rack-scale fabric, PCIe only). */
uint64_t ts_bridge_span(const trainsize_gpu_info *gpu, uint64_t gpus_per_node);

/* 1 when a tensor-parallel group of `tp` GPUs stays on a GPU-to-GPU fabric (NVLink,
 * NVSwitch, Infinity Fabric, ICI): inside a server's, or a rack-scale domain's, and no
 * wider than an NVLink bridge joins; 0 when its collectives cross PCIe or the network. */
int ts_tp_on_fabric(const trainsize_gpu_info *gpu, uint64_t tp, uint64_t gpus_per_node, uint64_t gpus);

/* Per-direction rate, bytes/s, one GPU achieves over its host link (its PCIe generation's
 * catalogue link; NVLink-C2C for a Grace host), as the link catalogue's achieved share. */
double ts_host_link_rate(const trainsize_gpu_info *gpu);

#endif
