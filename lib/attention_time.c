/* The flash-attention kernel's achieved rate, by kernel, GPU generation, sequence length,
 * head dimension and masking, from the kernels' published forward + backward benchmarks,
 * and context parallelism's ring over it.
 *
 * A kernel's rate saturates with the sequence: share(s) = top x s / (s + half), fitted to
 * each series of sequence lengths 512 to 16k (hd 128; batch x seq = 16k tokens):
 * - FlashAttention-2 on A100 (Dao 2023, arXiv 2307.08691, Fig. 4): causal 99 -> 189
 *   TFLOP/s of 312, non-causal 151 -> 203;
 * - FlashAttention-2 on H100 (the same paper, Fig. 7), written for Ampere: causal 163 ->
 *   328 of 989, non-causal 248 -> 338;
 * - FlashAttention-3 on H100 (Shah et al. 2024, arXiv 2407.08608, Fig. 5 and 6; cuDNN's
 *   fused attention within 10 % of it): forward causal 292 -> 616, backward non-causal
 *   316 -> 561, combined as the backward's 2.5 x the forward's FLOPs.
 * A causal kernel does half the full score matrix's FLOPs (the estimate counts them full,
 * PaLM's convention), so its time is half the FLOPs at its causal rate. A smaller head
 * runs below the 128's (hd 64 at 16k: FlashAttention-2 0.88 of it, FlashAttention-3's
 * causal forward 0.77). Under context parallelism each rank's blocks are s/cp long, and
 * the load-balanced ring (Transformer Engine's causal split into 2cp chunks, zigzag) keeps
 * 0.90 of a rank's attention rate (zhuzilin/ring-flash-attention's benchmark of Llama-3-8B's
 * shapes, 8k tokens a GPU: zigzag 0.902 on 8 x H800, 0.898 on 8 x A100). */
#include <string.h>

#include "catalog.h"
#include "stages.h"

typedef struct kernel_curve {
    double causal_top, causal_half;       /* share of the 16-bit peak, tokens */
    double full_top, full_half;           /* non-causal */
    double hd64;                          /* at head dimension 64, of the hd 128 rate */
} kernel_curve;

static const kernel_curve FA2_AMPERE = {0.625, 497.0, 0.66, 186.0, 0.88};
static const kernel_curve FA2_HOPPER = {0.344, 556.0, 0.345, 192.0, 0.88};
static const kernel_curve FA3_HOPPER = {0.58, 838.0, 0.607, 371.0, 0.77};

/* zigzag ring attention's share of a rank's attention rate */
#define TS_RING_BALANCE 0.90
/* the share of Ampere's GEMM ceiling (MAMF) FlashAttention-2's curve is measured against */
#define TS_FA2_REFERENCE_MAMF 0.869

int ts_flash_kernel_resolve(const ts_settings *cfg, int stack)
{
    const trainsize_gpu_info *g = cfg->gpu;
    int hopper_class = ts_arch_is(g, "Hopper") || ts_arch_is(g, "Blackwell");
    int kernel = cfg->flash_kernel;
    if (kernel == TS_FLASH_AUTO)
        kernel = hopper_class && (stack == TS_STACK_MEGATRON_CORE || stack == TS_STACK_MEGATRON_LM) ? TS_FLASH_FA3
                                                                                                     : TS_FLASH_FA2;
    return kernel == TS_FLASH_FA3 && !hopper_class ? TS_FLASH_FA2 : kernel; /* FA3 needs Hopper's instructions */
}

double ts_attention_share(const ts_settings *cfg, const ts_layout *lay, int stack, double mamf)
{
    const ts_model *m = &cfg->model;
    const trainsize_gpu_info *g = cfg->gpu;
    int kernel = ts_flash_kernel_resolve(cfg, stack);
    const kernel_curve *c = kernel == TS_FLASH_FA3 ? &FA3_HOPPER
                            : ts_arch_is(g, "Hopper") || ts_arch_is(g, "Blackwell") ? &FA2_HOPPER
                                                                                     : &FA2_AMPERE;
    int causal = m->head == TS_HEAD_LM;
    double s = lay->attend / (double)lay->cp, hd = (double)ts_model_head_dim(m);
    double top = causal ? c->causal_top : c->full_top, half = causal ? c->causal_half : c->full_half;
    double share = top * s / (s + half), counted = 1.0;
    /* other parts than NVIDIA's: Ampere's curve scaled by their GEMM ceiling */
    if (c == &FA2_AMPERE && !ts_arch_is(g, "Ampere") && !ts_arch_is(g, "Ada")) share *= mamf / TS_FA2_REFERENCE_MAMF;
    if (hd < 128.0) share *= hd <= 64.0 ? c->hd64 : c->hd64 + (1.0 - c->hd64) * (hd - 64.0) / 64.0;
    if (lay->cp > 1) share *= TS_RING_BALANCE;
    if (causal) {
        /* the share of the counted (full) FLOPs a causal kernel computes: half of a global
         * layer's, all of a sliding window's (its window is counted as it is) */
        double L = (double)m->layers, w = (double)m->sliding_window, full = lay->attend;
        double global = m->sliding_window && w < full ? (m->global_every ? (double)(m->layers / m->global_every) : 0.0)
                                                      : L;
        double window = m->sliding_window && w < full ? w : full;
        counted = (0.5 * global * full + (L - global) * window) / (global * full + (L - global) * window);
    }
    return share / counted;
}
