/* What a step's sequences hold: padding, packing and token budgets (part of the layout).
 *
 * Three ways a batch meets its samples, each a setting (docs/methodology.md, "Padding,
 * packing and token budgets"):
 * - padded (the default): every sequence is seq tokens long, its padding computed as
 *   tokens (padding="max_length"); a micro-batch holds micro-batch x seq tokens.
 * - packing: the padding removed. Fine-tuning packs whole samples into rows of seq tokens
 *   (TRL's packing and padding_free, torchtune's packed datasets, Axolotl's
 *   sample_packing): global-batch and micro-batch count rows, every row's seq tokens are
 *   real; RL lays the micro-batch's sequences end to end (verl's use_remove_padding):
 *   they count sequences of sample-tokens real tokens each. Under FlashAttention each
 *   sample attends only to itself (varlen kernels, per-sample causal masks), so attention
 *   works over sample-tokens, not seq; eager attention masks a seq-long square.
 * - max-tokens-per-gpu: micro-batches balanced by tokens (verl's use_dynamic_bsz with
 *   ppo_max_token_len_per_gpu): each GPU's micro-batch holds at most that many tokens,
 *   whatever the samples' count, so the memory follows the budget and the micro-batches a
 *   step takes follow the real tokens; padding is removed too.
 * The memory is sized by the longest micro-batch (micro-batch x seq, or the budget); the
 * time by the tokens computed. */
#include <math.h>

#include "error.h"
#include "stages.h"

#define U(x) ((unsigned long long)(x))

int ts_layout_tokens(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    double seq = (double)cfg->seq, prompt;
    uint64_t budget = cfg->max_tokens_per_gpu;
    /* DPO runs each sample's chosen and rejected sequences in one batch (TRL's
     * concatenated_forward): every per-micro-batch figure sees twice the tokens. */
    l->seqs_per_sample = cfg->method == TS_METHOD_DPO ? 2u : 1u;
    /* RL: the engine generates response-tokens of each sequence (half of seq unless set),
     * response-tokens-mean of them on average */
    l->rl = ts_is_rl(cfg->method);
    l->response_tokens = !l->rl ? 0 : cfg->response_tokens ? cfg->response_tokens : cfg->seq / 2;
    l->response_mean = (double)l->response_tokens;
    if (l->rl && cfg->response_tokens_mean) {
        if (cfg->response_tokens_mean > l->response_tokens)
            return ts_fail(err, TRAINSIZE_E_INVALID, "response-tokens-mean",
                           "response-tokens-mean: %llu is more than the longest response (response-tokens "
                           "%llu)", U(cfg->response_tokens_mean), U(l->response_tokens));
        l->response_mean = (double)cfg->response_tokens_mean;
    }
    /* a sequence's real tokens on average: as set, else RL's longest prompt and its mean
     * response, else seq (every sample fills its sequence) */
    prompt = seq - (double)l->response_tokens;
    if (cfg->sample_tokens > cfg->seq)
        return ts_fail(err, TRAINSIZE_E_INVALID, "sample-tokens",
                       "sample-tokens: %llu is more than a sequence holds (seq %llu)", U(cfg->sample_tokens),
                       U(cfg->seq));
    if (l->rl && cfg->sample_tokens && (double)cfg->sample_tokens <= l->response_mean)
        return ts_fail(err, TRAINSIZE_E_INVALID, "sample-tokens",
                       "sample-tokens: %llu leaves no prompt beside the mean response (%.0f tokens)",
                       U(cfg->sample_tokens), l->response_mean);
    l->sample_tokens = cfg->sample_tokens ? (double)cfg->sample_tokens : l->rl ? prompt + l->response_mean : seq;
    l->prompt_mean = l->rl ? l->sample_tokens - l->response_mean : 0.0;
    l->padding_free = cfg->packing || budget;
    /* the tokens a sequence counts in a step: fine-tuning's packed rows are full; RL's and
     * a budget's sequences are their real tokens */
    l->seq_step = l->padding_free && (l->rl || budget) ? l->sample_tokens : seq;
    /* the tokens one attention spans: a packed sample under FlashAttention's varlen kernels */
    l->attend = l->padding_free && cfg->attention == TRAINSIZE_ATTENTION_FLASH ? l->sample_tokens : seq;
    if (budget) {
        /* every sequence must fit one micro-batch (verl asserts it); with context
         * parallelism the group's GPUs share a sequence */
        double longest = seq / (double)l->cp * (double)l->seqs_per_sample;
        if ((double)budget < longest)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "max-tokens-per-gpu",
                           "max-tokens-per-gpu: %llu holds less than one sequence (%.0f tokens a GPU: seq / "
                           "cp%s)", U(budget), longest, l->seqs_per_sample > 1 ? " x 2, chosen and rejected" : "");
        l->tokens_mb = (double)budget;
    } else {
        l->tokens_mb = seq / (double)l->cp * (double)cfg->micro_batch * (double)l->seqs_per_sample;
    }
    return ts_ok(err);
}

uint64_t ts_budget_micro_batches(const ts_settings *cfg, const ts_layout *l)
{
    /* a data-parallel rank's real tokens over what one micro-batch of its cp group holds */
    double tokens = (double)l->global_batch / (double)l->dp * l->seq_step * (double)l->seqs_per_sample;
    double per_micro = (double)cfg->max_tokens_per_gpu * (double)l->cp;
    return (uint64_t)fmax(1.0, ceil(tokens / per_micro));
}
