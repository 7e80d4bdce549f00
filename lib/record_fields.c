/* Field tables of the planner's candidates, the GPU catalogue and the model presets: the
 * plan JSON, the catalogue listings (listing_json.c) and the bindings read these, so that
 * a candidate's, a GPU's or a preset's figure has one name everywhere. */
#include <stddef.h>

#include "field_table.h"
#include "trainsize.h"

#define U64 TRAINSIZE_FIELD_U64
#define F64 TRAINSIZE_FIELD_F64
#define BOOL TRAINSIZE_FIELD_BOOL
#define STR TRAINSIZE_FIELD_STRING
#define COUNT_OF(table) (sizeof table / sizeof table[0])
#define AT(type, member, how) offsetof(type, member), how, NULL, 0, NULL, sizeof(((const type *)0)->member)
#define DERIVED(fn) 0, TS_MEMBER_DERIVED, NULL, 0, fn, 0

/* ---- plan candidates ---- */

#define C(member) AT(trainsize_plan_candidate, member, TS_MEMBER_AUTO)

static void candidate_nodes(const void *item, trainsize_field_value *out)
{
    const trainsize_plan_candidate *c = (const trainsize_plan_candidate *)item;
    out->u64 = c->gpus_per_node ? c->gpus / c->gpus_per_node : 0;
    out->f64 = (double)out->u64;
}

static const ts_field_def CANDIDATE[] = {
    {{"gpu", STR, "", "catalogue GPU"}, C(gpu)},
    {{"gpus", U64, "GPUs", "GPUs in the job"}, C(gpus)},
    {{"gpus_per_node", U64, "GPUs", "GPUs per server"}, C(gpus_per_node)},
    {{"nodes", U64, "servers", "servers: gpus / gpus_per_node"}, DERIVED(candidate_nodes)},
    {{"tp", U64, "", "tensor-parallel degree"}, C(layout.tp)},
    {{"pp", U64, "", "pipeline-parallel degree"}, C(layout.pp)},
    {{"pp_interleave", U64, "", "virtual pipeline stages per rank"}, C(layout.pp_interleave)},
    {{"cp", U64, "", "context-parallel degree"}, C(layout.cp)},
    {{"ep", U64, "", "expert-parallel degree"}, C(layout.ep)},
    {{"zero", U64, "", "ZeRO stage"}, C(layout.zero)},
    {{"micro_batch", U64, "samples", "samples per GPU per pass"}, C(layout.micro_batch)},
    {{"global_batch", U64, "samples", "samples per optimizer step"}, C(layout.global_batch)},
    {{"recompute", TRAINSIZE_FIELD_CHOICE, "", "activation recomputation"},
     offsetof(trainsize_plan_candidate, layout.recompute), TS_MEMBER_AUTO, ts_recompute_names,
     COUNT_OF(ts_recompute_names), NULL, sizeof(int)},
    {{"peak_total", U64, "bytes", "per-GPU memory (as memory.peak_total)"}, C(peak_total)},
    {{"seconds", F64, "seconds", "the whole run on the wall clock (as time.wall_seconds)"}, C(seconds)},
    {{"cost", F64, "USD", "cloud cost of the run (0 without a price)"}, C(cost)},
    {{"cost_own", F64, "USD", "owning cost of the run (0 without a price)"}, C(cost_own)},
    {{"warnings", TRAINSIZE_FIELD_FLAGS, "", "the estimate's warnings"}, C(warnings)},
    {{"sp", BOOL, "", "sequence parallelism applies"}, C(layout.sp)},
    {{"rollout_tp", U64, "GPUs", "grpo, ppo: the rollout engine's tensor parallelism (0 otherwise)"},
     C(rollout_tp)},
    {{"rollout", TRAINSIZE_FIELD_STRING, "", "grpo, ppo: where the engines run (colocated, separate)"},
     C(rollout)},
    {{"max_tokens_per_gpu", U64, "tokens", "with a token budget: the budget a GPU (0 otherwise)"},
     C(max_tokens_per_gpu)},
    {{"rollout_gpus", U64, "GPUs", "rollout separate: the engines' GPUs beside gpus (0 otherwise)"},
     C(rollout_gpus)},
};

size_t trainsize_plan_field_count(void) { return COUNT_OF(CANDIDATE); }

const trainsize_field_info *trainsize_plan_field_at(size_t index)
{
    return index < COUNT_OF(CANDIDATE) ? &CANDIDATE[index].info : NULL;
}

int trainsize_plan_field_get(const trainsize_plan_candidate *candidate, size_t index,
                             trainsize_field_value *out)
{
    return ts_field_read(CANDIDATE, COUNT_OF(CANDIDATE), candidate, index, out);
}

/* ---- GPUs ---- */

#define G(member) AT(trainsize_gpu_info, member, TS_MEMBER_AUTO)
#define G_INT(member) AT(trainsize_gpu_info, member, TS_MEMBER_INT)
#define G_NOT(member) AT(trainsize_gpu_info, member, TS_MEMBER_NOT)
#define G_STR(member) AT(trainsize_gpu_info, member, TS_MEMBER_CSTR)

/* The FP16 rate: the part's own figure, the BF16 one where they are the same, 0 without. */
static double fp16_rate(const trainsize_gpu_info *g)
{
    if (g->no_fp16) return 0.0;
    return g->flops_fp16 > 0 ? g->flops_fp16 : g->flops_bf16;
}

static void gpu_fp16(const void *item, trainsize_field_value *out)
{
    out->f64 = fp16_rate((const trainsize_gpu_info *)item);
}

/* The datatypes the matrix units take, by the bits fp32, bf16, fp16, fp8, fp4 (every set
 * written out: a field's text is static). */
static const char *const DATATYPES[32] = {
    "", "fp32", "bf16", "fp32,bf16", "fp16", "fp32,fp16", "bf16,fp16", "fp32,bf16,fp16", "fp8",
    "fp32,fp8", "bf16,fp8", "fp32,bf16,fp8", "fp16,fp8", "fp32,fp16,fp8", "bf16,fp16,fp8",
    "fp32,bf16,fp16,fp8", "fp4", "fp32,fp4", "bf16,fp4", "fp32,bf16,fp4", "fp16,fp4",
    "fp32,fp16,fp4", "bf16,fp16,fp4", "fp32,bf16,fp16,fp4", "fp8,fp4", "fp32,fp8,fp4",
    "bf16,fp8,fp4", "fp32,bf16,fp8,fp4", "fp16,fp8,fp4", "fp32,fp16,fp8,fp4",
    "bf16,fp16,fp8,fp4", "fp32,bf16,fp16,fp8,fp4",
};

static void gpu_datatypes(const void *item, trainsize_field_value *out)
{
    const trainsize_gpu_info *g = (const trainsize_gpu_info *)item;
    unsigned bits = (g->flops_fp32 > 0 ? 1u : 0u) | (!g->no_bf16 ? 2u : 0u) |
                    (fp16_rate(g) > 0 ? 4u : 0u) | (g->flops_fp8 > 0 ? 8u : 0u) |
                    (g->flops_fp4 > 0 ? 16u : 0u);
    out->text = DATATYPES[bits];
}

static const char *const KINDS[] = {"gpu", "tpu"}; /* by trainsize_accelerator_kind */

static const ts_field_def GPU[] = {
    {{"name", STR, "", "catalogue name (the --gpu value)"}, G_STR(name)},
    {{"full_name", STR, "", "the vendor's name"}, G_STR(full_name)},
    {{"vendor", STR, "", "NVIDIA, AMD, Intel, Google"}, G_STR(vendor)},
    {{"kind", TRAINSIZE_FIELD_CHOICE, "", "gpu or tpu"},
     offsetof(trainsize_gpu_info, kind), TS_MEMBER_AUTO, KINDS, COUNT_OF(KINDS), NULL, sizeof(int)},
    {{"memory_bytes", U64, "bytes", "device memory as labelled"}, G(memory_bytes)},
    {{"usable_bytes", U64, "bytes", "device memory as the runtime reports it; 0: unknown"}, G(usable_bytes)},
    {{"memory_bandwidth", U64, "bytes/s", "memory bandwidth"}, G(memory_bandwidth)},
    {{"flops_fp32", F64, "flops", "dense FP32 peak"}, G(flops_fp32)},
    {{"flops_tf32", F64, "flops", "dense TF32 tensor peak; 0: none"}, G(flops_tf32)},
    {{"flops_bf16", F64, "flops", "dense BF16 tensor peak"}, G(flops_bf16)},
    {{"flops_fp16", F64, "flops", "dense FP16 tensor peak (the BF16 one where the same)"},
     DERIVED(gpu_fp16)},
    {{"flops_fp8", F64, "flops", "dense FP8 tensor peak; 0: none"}, G(flops_fp8)},
    {{"flops_fp4", F64, "flops", "dense FP4 tensor peak; 0: none"}, G(flops_fp4)},
    {{"datatypes", STR, "list", "datatypes the matrix units take"}, DERIVED(gpu_datatypes)},
    {{"tdp_watts", F64, "watts", "board power limit"}, G(tdp_watts)},
    {{"ecc", BOOL, "", "ECC on by default"}, G(ecc)},
    {{"data_center", BOOL, "", "a data-centre part"}, G(data_center)},
    {{"scale_up_bandwidth", U64, "bytes/s", "GPU-to-GPU link per GPU; 0: PCIe only"},
     G(scale_up_bandwidth)},
    {{"scale_up_domain", U64, "GPUs", "accelerators one scale-up fabric joins; 0: one server's"},
     G(scale_up_domain)},
    {{"per_host", U64, "GPUs", "accelerators per host as built; 0: any up to 8"}, G_INT(per_host)},
    {{"host_ram_bytes", U64, "bytes", "host RAM the product comes with; 0: the buyer's"},
     G(host_ram_bytes)},
    {{"host_cores", U64, "cores", "host cores as published; 0: the buyer's"}, G_INT(host_cores)},
    {{"host_network", STR, "", "the scale-out link of the host's NICs"}, G_STR(host_network)},
    {{"host_nics", U64, "NICs", "those NICs per host"}, G_INT(host_nics)},
    {{"pcie_generation", U64, "", "host PCIe generation"}, G_INT(pcie_generation)},
    {{"architecture", STR, "", "e.g. Hopper, CDNA 3"}, G_STR(architecture)},
    {{"bf16", BOOL, "", "the tensor cores take bfloat16"}, G_NOT(no_bf16)},
    {{"fp16", BOOL, "", "the matrix units take IEEE fp16"}, G_NOT(no_fp16)},
    {{"flash_attention", BOOL, "", "a FlashAttention-2 kernel runs on it"}, G_NOT(no_flash_attention)},
    {{"source", STR, "", "the datasheet of the figures"}, G_STR(source)},
    {{"cloud_usd_per_hour", F64, "USD/hour", "a dated on-demand price per GPU-hour; 0: none"},
     G(cloud_usd_per_hour)},
    {{"purchase_usd", F64, "USD", "a street price per GPU; 0: unknown"}, G(purchase_usd)},
    {{"price_source", STR, "", "where and when the prices were seen"}, G_STR(price_source)},
    {{"price_date", STR, "", "when the prices were seen"}, G_STR(price_date)},
};

size_t trainsize_gpu_field_count(void) { return COUNT_OF(GPU); }

const trainsize_field_info *trainsize_gpu_field_at(size_t index)
{
    return index < COUNT_OF(GPU) ? &GPU[index].info : NULL;
}

int trainsize_gpu_field_get(const trainsize_gpu_info *gpu, size_t index, trainsize_field_value *out)
{
    return ts_field_read(GPU, COUNT_OF(GPU), gpu, index, out);
}

/* ---- model presets ---- */

#define M(member) AT(trainsize_model_info, member, TS_MEMBER_AUTO)
#define M_STR(member) AT(trainsize_model_info, member, TS_MEMBER_CSTR)

static const ts_field_def MODEL[] = {
    {{"name", STR, "", "preset name (the --model value)"}, M_STR(name)},
    {{"family", STR, "", "architecture family"}, M_STR(family)},
    {{"parameters", U64, "parameters", "total parameters (exact)"}, M(parameters)},
    {{"active_parameters", U64, "parameters", "parameters used per token"}, M(active_parameters)},
    {{"source", STR, "", "the config the shape mirrors"}, M_STR(source)},
};

size_t trainsize_model_field_count(void) { return COUNT_OF(MODEL); }

const trainsize_field_info *trainsize_model_field_at(size_t index)
{
    return index < COUNT_OF(MODEL) ? &MODEL[index].info : NULL;
}

int trainsize_model_field_get(const trainsize_model_info *model, size_t index, trainsize_field_value *out)
{
    return ts_field_read(MODEL, COUNT_OF(MODEL), model, index, out);
}

/* ---- the JSON of each (listing_json.c) ---- */

int ts_plan_candidate_json(ts_out *o, const trainsize_plan_candidate *c)
{
    return ts_field_json_object(o, CANDIDATE, COUNT_OF(CANDIDATE), c);
}

int ts_gpu_json(ts_out *o, const trainsize_gpu_info *g) { return ts_field_json_object(o, GPU, COUNT_OF(GPU), g); }

int ts_model_json(ts_out *o, const trainsize_model_info *m)
{
    return ts_field_json_object(o, MODEL, COUNT_OF(MODEL), m);
}
