/* The built-in catalogue of storage classes (what one training node reads and writes) and
 * its look-up.
 *
 * Every figure is a published specification or measurement; docs/hardware-catalog.md
 * ("Storage") lists each row with its public source and status. Conventions (also in the public header):
 * - read_rate / write_rate: sustained sequential rate for one client (one node), bytes per
 *   second, decimal (1 GB/s = 1e9 B/s). Where the source gives a range the row takes its
 *   lower end (conservative).
 * - The published figures are almost all reads. Where no write figure was found the row
 *   uses a fixed fraction of the read rate and the source string says "assumption":
 *   flash (SATA, NVMe) writes 0.8 x read; network file systems 0.6 x read (the ratio of
 *   the single-mount NFS measurement, 1.2 GB/s write to ~2 GB/s read); HDD writes = reads.
 * - shared: 1 for a network file system all nodes mount; its rate is still per client.
 * - aggregate_read_rate / aggregate_write_rate: what one deployment serves to all clients
 *   together. For the NFS classes, one filer: its line rate (10 GbE 1.25 GB/s; 100 GbE
 *   12.5 GB/s; 400 GbE 50 GB/s), writes 0.6 x reads as above (derived, an assumption about
 *   the filer's NIC). 0 for Lustre and Ceph, which scale out with their servers, and for
 *   local drives.
 * Where a figure is unverified (no source confirms it) or derived (arithmetic from a
 * published figure), the source string says so; the other figures appear in the sources
 * named.
 *
 * No mutable state: the table is static const and the functions are pure.
 */
#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "text_values.h"
#include "trainsize.h"

/* MB/s -> bytes per second (decimal). */
#define MBS(n) ((uint64_t)(n) * UINT64_C(1000000))

const trainsize_storage_info ts_storage[] = {
    /* ---- Local drives: vendor and retailer spec sheets, sequential read ---- */
    {.name = "hdd", .full_name = "HDD 7200 rpm", .read_rate = MBS(160), .write_rate = MBS(160),
     .shared = 0,
     .source = "ithubrock, 150-160 MB/s sequential read (the 250-285 MB/s of modern "
               "enterprise outer tracks, Exos/Ultrastar datasheets, is unverified); write = "
               "read is an assumption"},
    {.name = "sata-ssd", .full_name = "SATA III SSD", .read_rate = MBS(530),
     .write_rate = MBS(424), .shared = 0,
     .source = "geratools, calendar-uk: 530-560 MB/s read, lower end; write 0.8 x read is an "
               "assumption"},
    {.name = "nvme-gen3", .full_name = "NVMe PCIe 3.0 x4 SSD", .read_rate = MBS(3200),
     .write_rate = MBS(2560), .shared = 0,
     .source = "voltground, velocitymicro (Crucial P3 3,500 MB/s): 3.2-3.5 GB/s read, lower "
               "end; write 0.8 x read is an assumption"},
    {.name = "nvme-gen4", .full_name = "NVMe PCIe 4.0 x4 SSD", .read_rate = MBS(6500),
     .write_rate = MBS(5200), .shared = 0,
     .source = "voltground, velocitymicro (Samsung 990 Pro 7,450 MB/s): 6.5-7.45 GB/s read, "
               "lower end; write 0.8 x read is an assumption"},
    {.name = "nvme-gen5", .full_name = "NVMe PCIe 5.0 x4 SSD", .read_rate = MBS(12000),
     .write_rate = MBS(9600), .shared = 0,
     .source = "voltground, velocitymicro (Crucial T700 12,400 MB/s), gds-report.pages.dev "
               "(Solidigm D7-PS1010 ~14.5 GB/s): 12-14.5 GB/s read, lower end; write 0.8 x "
               "read is an assumption"},

    /* ---- Network file systems, per client ---- */
    {.name = "nfs-10g", .full_name = "NFS over 10 GbE", .read_rate = MBS(1100),
     .write_rate = MBS(1100), .shared = 1,
     .source = "derived from the IEEE 802.3 10 GbE line rate, 1.25 GB/s: <= ~1.1-1.2 GB/s; "
               "write = read is an assumption (same line-rate ceiling)",
     .aggregate_read_rate = MBS(1250), .aggregate_write_rate = MBS(1250)},
    {.name = "nfs", .full_name = "NFS, single mount without nconnect (any fast NIC)",
     .read_rate = MBS(1200), .write_rate = MBS(1200), .shared = 1,
     .source = "ngxstorage fio on 40 GbE (1221 MiB/s; ~2 GB/s read, 1.2 GB/s write), Pure "
               "Storage blog (10 Gb/s per TCP connection); reads plateau 1.2-2 GB/s, lower end",
     .aggregate_read_rate = MBS(12500), .aggregate_write_rate = MBS(7500)},
    {.name = "nfs-nconnect-100g", .full_name = "NFS with nconnect=16 over 100 GbE",
     .read_rate = MBS(8000), .write_rate = MBS(4800), .shared = 1,
     .source = "medium.com (Pure FlashBlade example), up to ~8-9 GB/s read, lower end; write "
               "0.6 x read is an assumption",
     .aggregate_read_rate = MBS(12500), .aggregate_write_rate = MBS(7500)},
    {.name = "nfs-rdma-400g", .full_name = "NFS over RDMA, 400 GbE, GPUDirect Storage",
     .read_rate = MBS(46600), .write_rate = MBS(27960), .shared = 1,
     .source = "gds-report.pages.dev, 43.4 GiB/s = 46.6 GB/s into the 4 GPUs of one client, "
               "96% of line rate (26.4 GiB/s into a single GPU); write 0.6 x read is an "
               "assumption",
     .aggregate_read_rate = MBS(50000), .aggregate_write_rate = MBS(30000)},
    {.name = "lustre", .full_name = "Lustre, single client (legacy EDR/OPA tests)",
     .read_rate = MBS(1000), .write_rate = MBS(800), .shared = 1,
     .source = "Dell HPC Lustre whitepapers (Lustre 2.7, EDR/OPA), single client IOzone "
               "1-1.5 GB/s, lower end (legacy tests); write 0.8 GB/s, the lower end of IOR "
               "single client 0.8-0.95 GB/s, is an assumption (reads and writes not "
               "separated)"},
    {.name = "lustre-multirail", .full_name = "Lustre, modern multi-rail client",
     .read_rate = MBS(10000), .write_rate = MBS(6000), .shared = 1,
     .source = "modern multi-rail clients ~10-25 GB/s, lower end: unverified (no primary "
               "source found); write 0.6 x read is an assumption"},
    {.name = "ceph", .full_name = "Ceph (RBD/CephFS), single client on 25-100 GbE",
     .read_rate = MBS(1000), .write_rate = MBS(600), .shared = 1,
     .source = "~1-3 GB/s, lower end: unverified (no published source found); write 0.6 x "
               "read is an assumption"},
};

#define TS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

const size_t ts_storage_count = TS_COUNT(ts_storage);

/* The orders in which the estimate offers the classes (system.c takes the first whose
 * rates are enough). They follow from the rows above, so they are not worked out on every
 * estimate; test_link_storage_catalog derives them from the rows and fails when a row
 * changes and these do not. */

/* Local NVMe, what a GPU server carries for data and scratch, slowest read first (a hard
 * disk or a SATA SSD is never what the library recommends for a GPU server; either can
 * still be set). */
const unsigned char ts_storage_nvme_by_read[] = {
    2, /* nvme-gen3 */
    3, /* nvme-gen4 */
    4, /* nvme-gen5 */
};
const size_t ts_storage_nvme_count = TS_COUNT(ts_storage_nvme_by_read);

/* Shared file systems in the order of what they serve, lowest first (catalogue order among
 * equals): NFS, whose one filer bounds every client together (by that aggregate rate), then
 * the file systems that scale out with their servers, Lustre and Ceph (by per-client rate).
 * A legacy Lustre client reads about as fast as one NFS mount, but the file system serves
 * every client at that rate; a filer does not. */
const unsigned char ts_storage_shared_by_rank[] = {
    5,  /* nfs-10g            filer 1.25 GB/s */
    6,  /* nfs                filer 12.5 GB/s */
    7,  /* nfs-nconnect-100g  filer 12.5 GB/s */
    8,  /* nfs-rdma-400g      filer 50 GB/s */
    9,  /* lustre             client 1 GB/s */
    11, /* ceph               client 1 GB/s */
    10, /* lustre-multirail   client 10 GB/s */
};
const size_t ts_storage_shared_count = TS_COUNT(ts_storage_shared_by_rank);


size_t trainsize_storage_count(void)
{
    return TS_COUNT(ts_storage);
}

const trainsize_storage_info *trainsize_storage_at(size_t index)
{
    return index < TS_COUNT(ts_storage) ? &ts_storage[index] : NULL;
}

const trainsize_storage_info *trainsize_storage_find(const char *name)
{
    size_t i;

    if (name == NULL)
        return NULL;
    /* A name made of separators only ("", "-") matches nothing. */
    if (ts_name_blank(name))
        return NULL;

    for (i = 0; i < TS_COUNT(ts_storage); i++) {
        if (ts_name_equal(name, ts_storage[i].name))
            return &ts_storage[i];
    }
    return NULL;
}
