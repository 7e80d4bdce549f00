/* The parameter catalogue: every setting of a job, by the command-line option's name,
 * with its kind, range, default and meaning. One table serves trainsize_job_set/get, the
 * command's help and the bindings, so a name means the same thing everywhere. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "job.h"
#include "text_values.h"
#include "params.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

/* Range limits keep every later product finite in double precision and far from the
 * 2^63 bound that the result checks; real models are orders of magnitude below. The
 * shape's are model.h's, which bound a config.json's keys too. */
#define LIM_SHAPE ((double)TS_LIM_SHAPE) /* hidden, ffn, heads, head_dim */
#define LIM_LAYERS ((double)TS_LIM_LAYERS)
#define LIM_VOCAB ((double)TS_LIM_VOCAB)
#define LIM_SEQ ((double)TS_LIM_POSITIONS)
#define LIM_BATCH 1e9
#define LIM_GPUS 1e7
#define LIM_TOKENS 1e18
#define LIM_BYTES 1e15

#define OFF(member) offsetof(trainsize_job, member)
/* A row's setter kind and the member it writes, checked against each other when this file
 * compiles: _Generic has no association for a member of another type, so a row whose kind
 * does not match its member's type (a double written as a uint64_t) stops the build. The
 * table stays far from the struct; it cannot drift from it. */
#define MEMBER(type, member) _Generic(((trainsize_job *)0)->member, type: OFF(member))
/* an int, or an enum the compiler made an int or unsigned int: the int a choice is stored as */
#define INT_MEMBER(member) _Generic(((trainsize_job *)0)->member, int: OFF(member), unsigned: OFF(member))
#define SET_U64(member) TS_SET_U64, MEMBER(uint64_t, member)
#define SET_DOUBLE(member) TS_SET_DOUBLE, MEMBER(double, member)
#define SET_BOOL(member) TS_SET_BOOL, MEMBER(int, member)
#define SET_CHOICE(member) TS_SET_CHOICE, INT_MEMBER(member)
#define SET_BITS(member) TS_SET_BITS, MEMBER(unsigned, member)
#define SET_PRESET_REF(member) TS_SET_PRESET_REF, MEMBER(const ts_model *, member)

static const ts_param_def PARAMS[] = {
    /* Model. */
    {{"model", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "built-in model preset (see `trainsize models`); sets the whole shape"}, TS_SET_MODEL, 0,
     TRAINSIZE_ID_MODEL, TS_PLAN_KEEPS},
    {{"layers", TRAINSIZE_PARAM_INT, NULL, 1, LIM_LAYERS, "", "layers", "transformer layers"},
     SET_U64(s.model.layers), TRAINSIZE_ID_LAYERS, TS_PLAN_KEEPS},
    {{"hidden", TRAINSIZE_PARAM_INT, NULL, 1, LIM_SHAPE, "", "", "hidden size (model width)"},
     SET_U64(s.model.hidden), TRAINSIZE_ID_HIDDEN, TS_PLAN_KEEPS},
    {{"heads", TRAINSIZE_PARAM_INT, NULL, 1, LIM_SHAPE, "", "", "attention (query) heads"},
     SET_U64(s.model.heads), TRAINSIZE_ID_HEADS, TS_PLAN_KEEPS},
    {{"kv-heads", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "", "",
      "key/value heads (GQA/MQA); 0 = same as heads"}, SET_U64(s.model.kv_heads),
     TRAINSIZE_ID_KV_HEADS, TS_PLAN_KEEPS},
    {{"head-dim", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "", "",
      "width of one head; 0 = hidden / heads"}, SET_U64(s.model.head_dim),
     TRAINSIZE_ID_HEAD_DIM, TS_PLAN_KEEPS},
    {{"ffn", TRAINSIZE_PARAM_INT, NULL, 1, LIM_SHAPE, "", "",
      "MLP inner size (per expert for MoE)"}, SET_U64(s.model.ffn), TRAINSIZE_ID_FFN, TS_PLAN_KEEPS},
    {{"vocab", TRAINSIZE_PARAM_INT, NULL, 0, LIM_VOCAB, "", "tokens",
      "vocabulary size (0 for an image transformer, which embeds patches)"},
     SET_U64(s.model.vocab), TRAINSIZE_ID_VOCAB, TS_PLAN_KEEPS},
    {{"positions", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "", "tokens",
      "learned position embeddings (GPT-2: 1024); 0 for rotary"}, SET_U64(s.model.positions),
     TRAINSIZE_ID_POSITIONS, TS_PLAN_KEEPS},
    {{"tie-embeddings", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "output layer shares the token embedding"}, SET_BOOL(s.model.tied_embeddings),
     TRAINSIZE_ID_TIE_EMBEDDINGS, TS_PLAN_KEEPS},
    {{"gated-mlp", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "gated MLP (SwiGLU/GeGLU: gate, up, down) rather than two matrices"}, SET_BOOL(s.model.gated_mlp), TRAINSIZE_ID_GATED_MLP, TS_PLAN_KEEPS},
    {{"norm", TRAINSIZE_PARAM_CHOICE, "layernorm|rmsnorm", 0, 0, "", "",
      "normalisation: LayerNorm (weight and bias) or RMSNorm (weight)"}, SET_CHOICE(s.model.norm),
     TRAINSIZE_ID_NORM, TS_PLAN_KEEPS},
    {{"bias", TRAINSIZE_PARAM_CHOICE, "none|qkv|all|attention", 0, 0, "", "",
      "linear-layer biases: none (Llama), qkv (Qwen2), all (GPT-2) or attention (q, k, v "
      "and o: Phi-3.5-MoE)"}, SET_CHOICE(s.model.bias),
     TRAINSIZE_ID_BIAS, TS_PLAN_KEEPS},
    {{"experts", TRAINSIZE_PARAM_INT, NULL, 0, (double)TS_LIM_EXPERTS, "", "", "routed MoE experts; 0 or 1 = dense"},
     SET_U64(s.model.experts), TRAINSIZE_ID_EXPERTS, TS_PLAN_KEEPS},
    {{"experts-per-token", TRAINSIZE_PARAM_INT, NULL, 0, (double)TS_LIM_EXPERTS, "", "", "experts each token uses (top-k)"},
     SET_U64(s.model.experts_per_token), TRAINSIZE_ID_EXPERTS_PER_TOKEN, TS_PLAN_KEEPS},
    {{"shared-experts", TRAINSIZE_PARAM_INT, NULL, 0, (double)TS_LIM_SHARED_EXPERTS, "0", "", "always-active shared experts"},
     SET_U64(s.model.shared_experts), TRAINSIZE_ID_SHARED_EXPERTS, TS_PLAN_KEEPS},
    {{"shared-expert-ffn", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "inner size of each shared expert"}, SET_U64(s.model.shared_expert_ffn),
     TRAINSIZE_ID_SHARED_EXPERT_FFN, TS_PLAN_KEEPS},
    {{"fused-qkv", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "q, k and v come from one projection (GPT-2, Phi-3): under autocast its input is cast "
      "once, not three times"}, SET_BOOL(s.model.fused_qkv), TRAINSIZE_ID_FUSED_QKV, TS_PLAN_KEEPS},
    {{"fused-gate-up", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "gate and up come from one projection (Phi-3)"}, SET_BOOL(s.model.fused_gate_up),
     TRAINSIZE_ID_FUSED_GATE_UP, TS_PLAN_KEEPS},
    {{"residual-dropout", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "dropout on residual branches and embeddings too (GPT-2; Megatron-LM always); Hugging "
      "Face's rotary families drop attention probabilities only"}, SET_BOOL(s.model.residual_dropout), TRAINSIZE_ID_RESIDUAL_DROPOUT, TS_PLAN_KEEPS},
    {{"q-lora-rank", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "multi-head latent attention: rank of the query's down-projection (DeepSeek-V3: 1536); "
      "0 = a full q projection"}, SET_U64(s.model.q_lora_rank), TRAINSIZE_ID_Q_LORA_RANK,
     TS_PLAN_KEEPS},
    {{"kv-lora-rank", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "multi-head latent attention: rank of the joint key/value compression (DeepSeek-V2/V3: "
      "512); 0 = no MLA. head-dim is then the query/key head, rope part included"},
     SET_U64(s.model.kv_lora_rank), TRAINSIZE_ID_KV_LORA_RANK, TS_PLAN_KEEPS},
    {{"qk-rope-head-dim", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "multi-head latent attention: the rotary part of each query/key head (DeepSeek: 64)"},
     SET_U64(s.model.qk_rope_head_dim), TRAINSIZE_ID_QK_ROPE_HEAD_DIM, TS_PLAN_KEEPS},
    {{"v-head-dim", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "width of each value head when it differs from head-dim (MLA: 128); 0 = head-dim"},
     SET_U64(s.model.v_head_dim), TRAINSIZE_ID_V_HEAD_DIM, TS_PLAN_KEEPS},
    {{"qk-norm", TRAINSIZE_PARAM_CHOICE, "none|head|full", 0, 0, "", "",
      "norms on queries and keys: per head (Qwen3, Gemma 3) or over the whole projection (OLMo 2)"},
     SET_CHOICE(s.model.qk_norm), TRAINSIZE_ID_QK_NORM, TS_PLAN_KEEPS},
    {{"attention-sinks", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "a learned sink logit per head (gpt-oss)"}, SET_BOOL(s.model.attention_sinks),
     TRAINSIZE_ID_ATTENTION_SINKS, TS_PLAN_KEEPS},
    {{"sliding-window", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "tokens",
      "local attention window (Gemma 2: 4096, gpt-oss: 128); 0 = every layer attends to the "
      "whole sequence"}, SET_U64(s.model.sliding_window), TRAINSIZE_ID_SLIDING_WINDOW,
     TS_PLAN_KEEPS},
    {{"global-every", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "with a sliding window, every n-th layer attends globally (Gemma 2, gpt-oss: 2; Gemma 3: "
      "6); 0 = none does"}, SET_U64(s.model.global_every), TRAINSIZE_ID_GLOBAL_EVERY,
     TS_PLAN_KEEPS},
    {{"norms-per-layer", TRAINSIZE_PARAM_INT, NULL, 0, TS_LIM_NORMS_PER_LAYER, "0", "",
      "norms in each layer: 2 before attention and MLP; 1 in Falcon-7B's parallel block; 4 "
      "in Gemma 2/3; 0 = 2"}, SET_U64(s.model.norms_per_layer),
     TRAINSIZE_ID_NORMS_PER_LAYER, TS_PLAN_KEEPS},
    {{"parallel-block", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "attention and MLP read one normed input and add to one residual (Falcon, GPT-J)"},
     SET_BOOL(s.model.parallel_block), TRAINSIZE_ID_PARALLEL_BLOCK, TS_PLAN_KEEPS},
    {{"first-dense-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "MoE: leading layers with a dense MLP (DeepSeek-V3: 3)"}, SET_U64(s.model.first_dense_layers), TRAINSIZE_ID_FIRST_DENSE_LAYERS, TS_PLAN_KEEPS},
    {{"moe-every", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "MoE: after the dense ones, layer i has experts when (i + 1) is a multiple of this "
      "(Llama 4 Maverick: 2); 0 or 1 = every layer"}, SET_U64(s.model.moe_every),
     TRAINSIZE_ID_MOE_EVERY, TS_PLAN_KEEPS},
    {{"dense-ffn", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "",
      "MoE: inner size of the dense layers' MLP (DeepSeek-V3: 18432); 0 = ffn"}, SET_U64(s.model.dense_ffn), TRAINSIZE_ID_DENSE_FFN, TS_PLAN_KEEPS},
    {{"router-bias", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "MoE: a per-expert bias on the router (gpt-oss; DeepSeek-V3's score correction)"},
     SET_BOOL(s.model.router_bias), TRAINSIZE_ID_ROUTER_BIAS, TS_PLAN_KEEPS},
    {{"shared-expert-gate", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "MoE: a sigmoid gate on the shared experts (Qwen2-MoE)"}, SET_BOOL(s.model.shared_expert_gate), TRAINSIZE_ID_SHARED_EXPERT_GATE, TS_PLAN_KEEPS},
    {{"output-bias", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "the output layer has a bias (Phi-3.5-MoE)"}, SET_BOOL(s.model.output_bias),
     TRAINSIZE_ID_OUTPUT_BIAS, TS_PLAN_KEEPS},
    {{"attn-softcap", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "attention scores soft-capped, cap x tanh(x / cap) (Gemma 2): eager attention keeps the "
      "tanh's output too"}, SET_BOOL(s.model.attn_softcap), TRAINSIZE_ID_ATTN_SOFTCAP,
     TS_PLAN_KEEPS},
    {{"logit-softcap", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "", "",
      "the final logits soft-capped (Gemma 2): the tanh keeps a copy of the logits"},
     SET_BOOL(s.model.logit_softcap), TRAINSIZE_ID_LOGIT_SOFTCAP, TS_PLAN_KEEPS},
    {{"mtp-layers", TRAINSIZE_PARAM_INT, NULL, 0, 16, "0", "",
      "multi-token-prediction modules trained with the model (DeepSeek-V3: 1; a config's "
      "num_nextn_predict_layers): each a layer, a projection and norms on the last pipeline "
      "stage, and another pass of the output head; counted apart (model.mtp_parameters)"},
     SET_U64(s.model.mtp_layers), TRAINSIZE_ID_MTP_LAYERS, TS_PLAN_KEEPS},
    {{"extra-params", TRAINSIZE_PARAM_INT, NULL, 0, 1e15, "0", "parameters",
      "parameters the model's checkpoint holds beyond what its shape describes (--hf-model and "
      "--safetensors set it from the safetensors headers): trained with the model and held "
      "like its embedding (replicated across tensor parallelism, on the first pipeline stage); "
      "their compute is not counted"},
     SET_U64(s.model.extra_params), TRAINSIZE_ID_EXTRA_PARAMS, TS_PLAN_KEEPS},
    /* Job. */
    {{"seq", TRAINSIZE_PARAM_INT, NULL, 1, LIM_SEQ, "2048", "tokens",
      "tokens per sample; left unset, 2048 or the model's learned positions when fewer "
      "(GPT-2: 1024)"},
     SET_U64(s.seq), TRAINSIZE_ID_SEQ, TS_PLAN_KEEPS},
    {{"micro-batch", TRAINSIZE_PARAM_INT, NULL, 1, LIM_BATCH, "1", "samples",
      "samples per GPU per forward/backward pass"}, SET_U64(s.micro_batch),
     TRAINSIZE_ID_MICRO_BATCH, TS_PLAN_CHOOSES_LAYOUT},
    {{"global-batch", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BATCH * 1e3, "0", "samples",
      "samples per optimizer step; 0 = with tokens (a pretraining run, no LoRA), about 4M "
      "tokens per step (4,194,304 / seq, LLaMA's batch) in whole micro-batch x data-parallel "
      "steps; else micro-batch x data-parallel degree (fine-tuning frameworks' default); at "
      "least pp micro-batches (layout.global_batch_reason says which)"}, SET_U64(s.global_batch),
     TRAINSIZE_ID_GLOBAL_BATCH, TS_PLAN_KEEPS},
    {{"tokens", TRAINSIZE_PARAM_INT, NULL, 0, LIM_TOKENS, "0", "tokens",
      "training tokens for time, energy and cost; 0 = one optimizer step"}, SET_U64(s.tokens),
     TRAINSIZE_ID_TOKENS, TS_PLAN_KEEPS},
    /* Padding, packing and token budgets (tokens.c). */
    {{"packing", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "padding removed: fine-tuning packs samples into rows of seq tokens (TRL packing and "
      "padding_free, torchtune packed, Axolotl sample_packing; micro-batch and global-batch count "
      "rows), grpo and ppo lay sequences end to end (verl's use_remove_padding; they count "
      "sequences of sample-tokens); under flash attention each sample attends to itself only "
      "(varlen): attention works over sample-tokens, not seq"},
     SET_BOOL(s.packing), TRAINSIZE_ID_PACKING, TS_PLAN_KEEPS},
    {{"sample-tokens", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "tokens",
      "a sample's real tokens on average (a dataset's mean length; grpo, ppo: prompt and "
      "response); with packing or max-tokens-per-gpu the time follows them, without it every "
      "sample is padded to seq; 0: seq (grpo, ppo: the longest prompt and the mean response)"},
     SET_U64(s.sample_tokens), TRAINSIZE_ID_SAMPLE_TOKENS, TS_PLAN_KEEPS},
    {{"max-tokens-per-gpu", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ * 1e3, "0", "tokens",
      "micro-batches balanced by tokens, at most this many a GPU (verl's use_dynamic_bsz with "
      "ppo_max_token_len_per_gpu, 16384 by default; at least seq / cp): the memory follows the "
      "budget, the micro-batches a step takes follow the real tokens (sample-tokens), padding "
      "removed; micro-batch is not used; 0: micro-batch x seq"},
     SET_U64(s.max_tokens_per_gpu), TRAINSIZE_ID_MAX_TOKENS_PER_GPU, TS_PLAN_KEEPS},
    {{"log-prob-max-tokens-per-gpu", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ * 1e3, "0", "tokens",
      "grpo, ppo: the tokens a GPU's forward-only log-probability passes (the old policy's, the "
      "reference's) take at once (verl's log_prob_max_token_len_per_gpu; its recipes set 1.5 x the "
      "training budget): their logits, 16-bit and an fp32 copy over the vocabulary, sit beside "
      "the model state (peak phase log-prob); 0: a training micro-batch's tokens"},
     SET_U64(s.log_prob_max_tokens), TRAINSIZE_ID_LOG_PROB_MAX_TOKENS_PER_GPU, TS_PLAN_KEEPS},
    {{"precision", TRAINSIZE_PARAM_CHOICE, "fp32|bf16-mixed|fp16-mixed|bf16|fp16|fp8-mixed|tf32", 0, 0,
      "bf16-mixed", "",
      "*-mixed: 16-bit compute with fp32 master weights; bf16/fp16: everything in that type; "
      "tf32: fp32 bytes, the matmuls and convolutions on the TF32 tensor cores (Ampere and "
      "later)"},
     SET_CHOICE(s.precision), TRAINSIZE_ID_PRECISION, TS_PLAN_KEEPS},
    {{"tf32", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "under precision fp32, whether the matmuls and convolutions run on the TF32 tensor cores "
      "(where the GPU has them: Ampere and later); auto = PyTorch's defaults, convolutions in "
      "TF32 (torch.backends.cudnn.allow_tf32 is true) and matmuls in FP32 "
      "(torch.backends.cuda.matmul.allow_tf32 is false since PyTorch 1.12), but matmuls in "
      "TF32 too under the megatron-lm and megatron-core stacks, which run in NVIDIA's NGC "
      "containers (they set TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1); layout.tf32 says what ran"},
     SET_CHOICE(s.tf32), TRAINSIZE_ID_TF32, TS_PLAN_KEEPS},
    {{"optimizer", TRAINSIZE_PARAM_CHOICE, "adamw|adam|sgd|sgd-momentum|adafactor|adamw-8bit|lion", 0, 0,
      "adamw", "", "optimizer (sets the optimizer-state bytes per parameter)"}, SET_CHOICE(s.optimizer), TRAINSIZE_ID_OPTIMIZER, TS_PLAN_KEEPS},
    {{"framework", TRAINSIZE_PARAM_CHOICE, &(TS_FRAMEWORK_LIST(TS_CHOICE_ITEM))[1], 0, 0, "auto", "",
      "byte conventions: megatron (16-bit weights, fp32 grads and master, fused kernels), "
      "deepspeed (16-bit weights and grads, fp32 master, as the ZeRO paper; Hugging Face eager "
      "kernels), pytorch (autocast: fp32 params and grads, eager kernels, foreach optimizers; "
      "FSDP for ZeRO-3); auto = inferred from the job (docs/methodology.md, \"Which "
      "framework\"): tp/pp/sp/cp/ep -> megatron, ZeRO 1-2 or CPU offload -> deepspeed, "
      "anything else -> pytorch"}, SET_CHOICE(s.framework), TRAINSIZE_ID_FRAMEWORK, TS_PLAN_KEEPS},
    {{"gpu-power-limit", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e5, "0", "watts",
      "a power cap per GPU (nvidia-smi -pl) below the board's TDP: the matmuls and attention "
      "run at (limit / TDP)^0.55 of their rate (NVIDIA's MLPerf Inference v4.1 MaxQ "
      "configurations: H100 SXM at 400-450 W of 700 keeps 0.76-0.83 of its throughput; Zeus's "
      "power-limit traces), element-wise work at memory bandwidth keeps its rate, and each GPU "
      "draws at most the limit; 0 = the TDP"}, SET_DOUBLE(s.gpu_power_limit),
     TRAINSIZE_ID_GPU_POWER_LIMIT, TS_PLAN_KEEPS},
    {{"fp8-recipe", TRAINSIZE_PARAM_CHOICE, &(TS_FP8_RECIPE_LIST(TS_CHOICE_ITEM))[1], 0, 0, "auto", "",
      "fp8-mixed scaling: delayed (per-tensor scales from an amax history, Transformer "
      "Engine's DelayedScaling), current (per-tensor scales from each tensor's own amax: an "
      "extra read of every cast tensor; torchao's tensorwise), mxfp8 (a scale per 32 elements, "
      "Blackwell), blockwise (1x128 activation and 128x128 weight blocks, DeepSeek-V3), rowwise "
      "(a scale per row, torchao's float8 rowwise); the scaled GEMMs of the fine-grained "
      "recipes run slower (fp8-gemm-share); auto = mxfp8 on Blackwell, delayed elsewhere"},
     SET_CHOICE(s.fp8_recipe), TRAINSIZE_ID_FP8_RECIPE, TS_PLAN_KEEPS},
    {{"fp8-params", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "fp8-mixed holds the weights in fp8 only, beside the fp32 master (Transformer Engine's "
      "fp8_model_init, NeMo's fp8_params): no 16-bit copy; a LoRA's frozen base in fp8"},
     SET_BOOL(s.fp8_params), TRAINSIZE_ID_FP8_PARAMS, TS_PLAN_KEEPS},
    {{"fp8-activation-store", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the MLP's gated activation (SwiGLU, GeGLU) keeps its input for the backward in fp8, "
      "cast back before its gradient (Megatron-Core's activation_func_fp8_input_store, "
      "NeMo's FP8_ACT; DeepSeek-V3 section 3.3.2 caches the SwiGLU inputs so too); any "
      "precision"},
     SET_BOOL(s.fp8_act_store), TRAINSIZE_ID_FP8_ACTIVATION_STORE, TS_PLAN_KEEPS},
    {{"fp8-attention", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "under fp8-mixed, attention runs in fp8 (Transformer Engine's fp8_dot_product_attention "
      "with NVTE_FP8_DPA_BWD, cuDNN's fp8 flash attention): 1.5x its 16-bit rate "
      "(FlashAttention-3's fp8 against bf16 on H100) and the q, k, v and output it keeps in one "
      "byte each; no effect in other precisions or with eager attention"},
     SET_BOOL(s.fp8_attention), TRAINSIZE_ID_FP8_ATTENTION, TS_PLAN_KEEPS},
    {{"stack", TRAINSIZE_PARAM_CHOICE,
      &(TS_STACK_LIST(TS_CHOICE_ITEM))[1], 0, 0, "auto", "",
      "the training stack, which sets the defaults of fused-kernels, dp-overlap, tp-overlap and "
      "dp-nics (and the framework when that is auto): megatron-lm (its published 2021-22 runs), "
      "megatron-core (as NeMo's recipes run it: overlapped gradient reduction and weight "
      "gathers, Transformer Engine's tensor-parallel overlap), nanotron, torchtitan (FSDP2), "
      "fsdp (PyTorch FSDP1, Accelerate), hf (Hugging Face Trainer, eager modelling code), "
      "deepspeed; auto = from the framework option when set, else from the job "
      "(docs/methodology.md, \"Which stack\"): tp/pp/sp/cp/ep -> megatron-core, ZeRO 1-2 or "
      "CPU offload -> deepspeed, ZeRO-3 -> fsdp, anything else -> hf"},
     SET_CHOICE(s.stack), TRAINSIZE_ID_STACK, TS_PLAN_KEEPS},
    {{"cross-entropy", TRAINSIZE_PARAM_CHOICE, "eager|chunked|fused", 0, 0, "eager", "",
      "the loss's kernel: eager keeps the whole logits (and their 32-bit copy with loss-upcast); "
      "chunked computes the loss over 8 chunks of the sequence, keeping the 16-bit logits and "
      "one chunk's 32-bit copy at a time (torchtune's CEWithChunkedOutputLoss); fused never "
      "keeps the logits: the output layer and the loss run together in chunks and keep the "
      "input's gradient (Liger's FusedLinearCrossEntropy, Apple's Cut Cross-Entropy)"},
     SET_CHOICE(s.cross_entropy), TRAINSIZE_ID_CROSS_ENTROPY, TS_PLAN_KEEPS},
    {{"grad-precision", TRAINSIZE_PARAM_CHOICE, "auto|fp32|half", 0, 0, "auto", "",
      "gradient storage; auto = the framework's convention"}, SET_CHOICE(s.grad_precision),
     TRAINSIZE_ID_GRAD_PRECISION, TS_PLAN_KEEPS},
    {{"reduce-precision", TRAINSIZE_PARAM_CHOICE, "auto|fp32|half", 0, 0, "auto", "",
      "the gradients' type in their data-parallel reduction: auto = half under FSDP with mixed "
      "precision (MixedPrecision's reduce_dtype follows param_dtype, and Accelerate and fms-fsdp "
      "set bf16), except fp32 under torchtitan (its mixed_precision_reduce default); else the "
      "gradients' own type"},
     SET_CHOICE(s.reduce_precision), TRAINSIZE_ID_REDUCE_PRECISION, TS_PLAN_KEEPS},
    {{"loss-upcast", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "true", "",
      "the loss works on a 32-bit copy of the logits"}, SET_BOOL(s.loss_upcast),
     TRAINSIZE_ID_LOSS_UPCAST, TS_PLAN_KEEPS},
    {{"autocast-ops", TRAINSIZE_PARAM_CHOICE, "cuda|cpu", 0, 0, "cuda", "",
      "which autocast op lists apply (pytorch framework): on CUDA softmax, pow and layer_norm "
      "run in fp32; on CPU they stay in bf16 (PyTorch autocast docs)"}, SET_CHOICE(s.autocast_ops), TRAINSIZE_ID_AUTOCAST_OPS, TS_PLAN_KEEPS},
    {{"dropout-mask-bytes", TRAINSIZE_PARAM_INT, NULL, 1, 8, "1", "bytes per element",
      "bytes per element of a kept dropout mask: 1 on CUDA (bool); the input's width on CPU "
      "(tests/accuracy/fixtures/cpu.json)"}, SET_U64(s.dropout_mask_bytes),
     TRAINSIZE_ID_DROPOUT_MASK_BYTES, TS_PLAN_KEEPS},
    {{"mean-keeps-input", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "torch <= 1.13: mean() keeps its input, so an eager RMSNorm keeps x^2 as well"},
     SET_BOOL(s.mean_keeps_input), TRAINSIZE_ID_MEAN_KEEPS_INPUT, TS_PLAN_KEEPS},
    /* Hardware and layout. */
    {{"gpu", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "a100-80gb", "",
      "catalogue GPU (see `trainsize gpus`)"}, TS_SET_GPU, 0, TRAINSIZE_ID_GPU, TS_PLAN_KEEPS},
    {{"gpu-memory", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BYTES, "0", "bytes",
      "override the GPU's memory capacity; 0 = the catalogue's usable figure (the runtime's total, a little under the label)"}, SET_U64(s.gpu_memory),
     TRAINSIZE_ID_GPU_MEMORY, TS_PLAN_CHOOSES_GPU},
    {{"gpus", TRAINSIZE_PARAM_INT, NULL, 1, LIM_GPUS, "1", "GPUs", "GPUs in the job"},
     SET_U64(s.gpus), TRAINSIZE_ID_GPUS, TS_PLAN_CHOOSES_LAYOUT},
    {{"gpus-per-node", TRAINSIZE_PARAM_INT, NULL, 0, 1024, "0", "GPUs",
      "GPUs per server; 0 = the largest count up to the product's host (8 on HGX boards, 4 per "
      "GB200/GB300 tray, a TPU VM's chips) that divides gpus"}, SET_U64(s.gpus_per_node),
     TRAINSIZE_ID_GPUS_PER_NODE, TS_PLAN_KEEPS},
    {{"tp", TRAINSIZE_PARAM_INT, NULL, 1, 1e6, "1", "", "tensor-parallel degree"}, SET_U64(s.tp),
     TRAINSIZE_ID_TP, TS_PLAN_CHOOSES_LAYOUT},
    {{"pp", TRAINSIZE_PARAM_INT, NULL, 1, 1e6, "1", "", "pipeline-parallel degree (1F1B schedule)"},
     SET_U64(s.pp), TRAINSIZE_ID_PP, TS_PLAN_CHOOSES_LAYOUT},
    {{"pp-interleave", TRAINSIZE_PARAM_INT, NULL, 1, 1e4, "1", "",
      "virtual pipeline stages per rank (interleaved 1F1B)"}, SET_U64(s.pp_interleave),
     TRAINSIZE_ID_PP_INTERLEAVE, TS_PLAN_CHOOSES_LAYOUT},
    {{"pp-first-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "layers",
      "layers of the first pipeline stage (Megatron-LM's --decoder-first-pipeline-num-layers); "
      "0 = even stages, or, when the layers do not divide by pp, the middle stages get "
      "ceil(layers / pp) and the first and last share the rest (Llama 3 405B: 126 layers on "
      "pp 16 = 7 + 14 x 8 + 7)"}, SET_U64(s.pp_first_layers),
     TRAINSIZE_ID_PP_FIRST_LAYERS, TS_PLAN_KEEPS},
    {{"pp-last-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "layers",
      "layers of the last pipeline stage (--decoder-last-pipeline-num-layers); 0 as for "
      "pp-first-layers"}, SET_U64(s.pp_last_layers), TRAINSIZE_ID_PP_LAST_LAYERS, TS_PLAN_KEEPS},
    {{"pp-schedule", TRAINSIZE_PARAM_CHOICE, &(TS_PP_SCHEDULE_LIST(TS_CHOICE_ITEM))[1], 0, 0, "auto", "",
      "the pipeline schedule, with its bubble and the micro-batches a stage holds: 1f1b "
      "(bubble (p-1)/m, p - r in flight; Narayanan et al. 2021), interleaved ((p-1)/(v m), "
      "Megatron's warm-up), zb-h1 (zero bubble, Qi et al. 2023: the backward split into input "
      "and weight gradients, a third of 1F1B's bubble, its memory), zb-h2 (no bubble, up to "
      "2p - 1 in flight), dualpipe (DeepSeek-V3: (p/2 - 1)(F&B + B - 3W), none with F = B = W; "
      "p + 1 in flight and two copies of the stage's weights); auto = interleaved with "
      "pp-interleave > 1, else 1f1b"}, SET_CHOICE(s.pp_schedule), TRAINSIZE_ID_PP_SCHEDULE,
     TS_PLAN_KEEPS},
    {{"pp-account-embedding", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "the embedding and the loss each take one layer's place in the pipeline split, so the "
      "first and the last (virtual) stage hold a layer fewer (Megatron-Core's "
      "--account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split: "
      "126 layers on pp 8 x pp-interleave 8); auto = yes when pp x pp-interleave does not "
      "divide the layers and does divide the layers + 2"}, SET_CHOICE(s.pp_account_embedding),
     TRAINSIZE_ID_PP_ACCOUNT_EMBEDDING, TS_PLAN_KEEPS},
    {{"sp", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "sequence parallelism (Megatron style, with tensor parallelism)"}, SET_BOOL(s.sp),
     TRAINSIZE_ID_SP, TS_PLAN_KEEPS},
    {{"cp", TRAINSIZE_PARAM_INT, NULL, 1, 1e6, "1", "", "context-parallel degree"}, SET_U64(s.cp),
     TRAINSIZE_ID_CP, TS_PLAN_KEEPS},
    {{"ep", TRAINSIZE_PARAM_INT, NULL, 1, 1e6, "1", "", "expert-parallel degree"}, SET_U64(s.ep),
     TRAINSIZE_ID_EP, TS_PLAN_CHOOSES_LAYOUT},
    {{"etp", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "0", "",
      "expert tensor parallelism: the ranks one routed expert's matrices are split over; 0 = "
      "tp. Megatron-Core's MoE parallel folding lets ep x etp span tp x cp x dp, so a job at "
      "tp 8 can run ep 8 with etp 1 (each expert whole on one rank) where ep alone would have "
      "to divide dp x cp"}, SET_U64(s.etp), TRAINSIZE_ID_ETP, TS_PLAN_KEEPS},
    {{"zero", TRAINSIZE_PARAM_INT, NULL, 0, 3, "0", "",
      "ZeRO stage (FSDP: SHARD_GRAD_OP = 2, FULL_SHARD = 3)"}, SET_U64(s.zero),
     TRAINSIZE_ID_ZERO, TS_PLAN_CHOOSES_LAYOUT},
    {{"shard-group", TRAINSIZE_PARAM_INT, NULL, 0, LIM_GPUS, "0", "GPUs",
      "hybrid sharding: ZeRO/FSDP shards the model state over groups of this many data-parallel "
      "ranks and replicates it across the groups, whose gradients are then all-reduced (FSDP's "
      "HYBRID_SHARD with a server's GPUs, torchtitan's data_parallel_shard_degree, DeepSpeed's "
      "MiCS shard size); 0 = one group of every data-parallel rank (dp x cp)"},
     SET_U64(s.shard_group), TRAINSIZE_ID_SHARD_GROUP, TS_PLAN_KEEPS},
    {{"recompute", TRAINSIZE_PARAM_CHOICE, &(TS_RECOMPUTE_LIST(TS_CHOICE_ITEM))[1], 0, 0, "none", "",
      "activation recomputation: selective recomputes attention's core (Korthikanti et al. "
      "2022; with flash attention it saves only the log-sum-exp), full every layer from its "
      "input, per-op keeps the outputs of every other matmul and of the attention kernel and "
      "recomputes the rest (torchtitan's default selective AC, distributed/"
      "activation_checkpoint.py @ b5bcd76); unset, full for QLoRA under the pytorch "
      "conventions (PEFT's prepare_model_for_kbit_training turns gradient checkpointing on), "
      "else none"}, SET_CHOICE(s.recompute),
     TRAINSIZE_ID_RECOMPUTE, TS_PLAN_CHOOSES_LAYOUT},
    {{"recompute-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "layers of each pipeline stage (of each virtual stage when interleaved) that recompute "
      "applies to, the first ones; the others keep all their activations (Megatron-LM's "
      "--recompute-method block --recompute-num-layers); 0 = every layer"},
     SET_U64(s.recompute_layers), TRAINSIZE_ID_RECOMPUTE_LAYERS, TS_PLAN_KEEPS},
    {{"recompute-modules", TRAINSIZE_PARAM_LIST, "core_attn|layernorm|mla_up_proj|moe_act|mlp|moe", 0, 0,
      "core_attn", "",
      "what selective recomputation recomputes (Megatron-Core's --recompute-modules): "
      "core_attn (attention's core, from q, k and v), layernorm (the two norms' outputs, "
      "from their inputs), mla_up_proj (MLA's query and key-value up-projections and rope, "
      "from the latents), moe_act (the experts' activation output, from its input), mlp (a "
      "dense layer's MLP from its input), moe (an MoE layer from its input); the matmuls "
      "named are computed again in the backward; only with recompute selective"},
     SET_BITS(s.recompute_modules), TRAINSIZE_ID_RECOMPUTE_MODULES, TS_PLAN_KEEPS},
    {{"activation-offload", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the layers' saved activations go to pinned host memory as each layer's forward ends "
      "and come back before its backward, on their own stream (torchtune's "
      "OffloadActivations, Megatron-Core's cpu_offloading): the GPU keeps two layers of one "
      "micro-batch (the one computing and the one in transfer)"},
     SET_BOOL(s.activation_offload), TRAINSIZE_ID_ACTIVATION_OFFLOAD, TS_PLAN_KEEPS},
    {{"mlp-tiles", TRAINSIZE_PARAM_INT, NULL, 0, 1024, "1", "tiles",
      "a dense layer's MLP run over the micro-batch's tokens in this many tiles, each tile's "
      "forward computed again in the backward from the MLP's input (Arctic Long Sequence "
      "Training's TiledMLP, arXiv 2506.13996: DeepSpeed's TiledMLP, Axolotl's and ms-swift's "
      "tiled_mlp): the MLP keeps only its input, its inner activations live for one tile at "
      "a time, and its forward runs once more; MoE layers stay untiled; 0 = their default, one "
      "tile per hidden-size tokens of a rank's sequence; 1 = untiled"},
     SET_U64(s.mlp_tiles), TRAINSIZE_ID_MLP_TILES, TS_PLAN_KEEPS},
    {{"attention", TRAINSIZE_PARAM_CHOICE, "flash|eager", 0, 0, "flash", "",
      "attention kernel: flash (no s x s scores kept) or eager"}, SET_CHOICE(s.attention),
     TRAINSIZE_ID_ATTENTION, TS_PLAN_KEEPS},
    {{"flash-kernel", TRAINSIZE_PARAM_CHOICE, "auto|fa2|fa3", 0, 0, "auto", "",
      "the flash-attention kernel and so its rate by sequence, head size and mask "
      "(docs/methodology.md, Kernel efficiency): fa2 (FlashAttention-2: PyTorch's SDPA flash "
      "backend, the flash-attn package; on Hopper 0.34 of the peak against A100's 0.63), fa3 "
      "(FlashAttention-3, cuDNN's fused attention: Hopper and later, 0.58-0.61); auto = fa3 "
      "under the megatron stacks on Hopper and Blackwell (Transformer Engine runs cuDNN's), "
      "fa2 elsewhere"},
     SET_CHOICE(s.flash_kernel), TRAINSIZE_ID_FLASH_KERNEL, TS_PLAN_KEEPS},
    {{"dropout", TRAINSIZE_PARAM_FLOAT, NULL, 0, 0.999, "0", "probability",
      "dropout probability (masks are kept for backward when > 0)"}, SET_DOUBLE(s.dropout),
     TRAINSIZE_ID_DROPOUT, TS_PLAN_KEEPS},
    {{"offload", TRAINSIZE_PARAM_CHOICE, "none|optimizer|optimizer+params", 0, 0, "none", "",
      "CPU offload (ZeRO-Offload / ZeRO-Infinity)"}, SET_CHOICE(s.offload),
     TRAINSIZE_ID_OFFLOAD, TS_PLAN_KEEPS},
    {{"lora-rank", TRAINSIZE_PARAM_INT, NULL, 0, 1e5, "0", "", "LoRA rank; 0 = full fine-tuning"},
     SET_U64(s.lora_rank), TRAINSIZE_ID_LORA_RANK, TS_PLAN_KEEPS},
    {{"lora-targets", TRAINSIZE_PARAM_LIST, "q|k|v|o|gate|up|down", 0, 0, "q,v", "",
      "modules that get LoRA adapters (PEFT's default for Llama: q,v)"}, SET_BITS(s.lora_targets),
     TRAINSIZE_ID_LORA_TARGETS, TS_PLAN_KEEPS},
    {{"quantize-base", TRAINSIZE_PARAM_CHOICE, "none|nf4|int8", 0, 0, "none", "",
      "QLoRA-style quantized frozen base (bitsandbytes nf4 or int8)"}, SET_CHOICE(s.quantize_base),
     TRAINSIZE_ID_QUANTIZE_BASE, TS_PLAN_KEEPS},
    {{"quantize-keeps-input", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "true", "",
      "quantized linear layers keep their input for backward even when frozen (bitsandbytes "
      "MatMul4Bit/MatMul8bitLt; false for torchao's NF4 linear, as torchtune uses)"},
     SET_BOOL(s.quantize_keeps_input), TRAINSIZE_ID_QUANTIZE_KEEPS_INPUT, TS_PLAN_KEEPS},
    {{"kbit-upcast", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "PEFT's prepare_model_for_kbit_training: the weights left unquantized (embeddings, norms, "
      "output layer) become fp32 and the model runs under autocast; auto = yes with a quantized "
      "base under the pytorch framework"}, SET_CHOICE(s.kbit_upcast),
     TRAINSIZE_ID_KBIT_UPCAST, TS_PLAN_KEEPS},
    {{"quant-state-replicated", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "bitsandbytes keeps a quantized weight's scales (quant_state: absmax, nested absmax) "
      "outside the parameter, so ZeRO-3/FSDP neither shard nor offload them: every rank holds "
      "all of them on the GPU; auto = yes when quantize-keeps-input (bitsandbytes), no for "
      "torchao NF4, which shards its scalers with the data"},
     SET_CHOICE(s.quant_state_replicated), TRAINSIZE_ID_QUANT_STATE_REPLICATED, TS_PLAN_KEEPS},
    {{"embedding-state-fp32", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "with adamw-8bit, the token embedding keeps 32-bit optimizer state (the Hugging Face "
      "Trainer registers this bitsandbytes override for every nn.Embedding); auto = yes under "
      "the pytorch framework"}, SET_CHOICE(s.embedding_state_fp32),
     TRAINSIZE_ID_EMBEDDING_STATE_FP32, TS_PLAN_KEEPS},
    {{"base-dtype", TRAINSIZE_PARAM_CHOICE, "auto|16bit|fp32", 0, 0, "auto", "",
      "type of the frozen LoRA base weights that are not quantized; auto = fp32 with "
      "kbit-upcast (embeddings, norms, output layer) or fp32 precision, else 16-bit"},
     SET_CHOICE(s.base_dtype), TRAINSIZE_ID_BASE_DTYPE, TS_PLAN_KEEPS},
    {{"grad-sync", TRAINSIZE_PARAM_CHOICE, "auto|micro-batch|step", 0, 0, "auto", "",
      "with gradient accumulation under ZeRO-2/3 (FSDP): micro-batch reduce-scatters after every "
      "micro-batch (DeepSpeed, torchtune; with a pipeline it shards the gradients, as Llama 3's "
      "4D parallelism does); step accumulates unsharded gradients until the last one (FSDP "
      "no_sync, as Accelerate and the Hugging Face Trainer do); auto = step with a pipeline "
      "(torch.distributed.pipelining syncs at the stage's last backward), else step under the "
      "pytorch framework except for a pretraining run on the default pretraining batch "
      "(torchtitan), for grpo and ppo (verl's and OpenRLHF's actors) and under "
      "max-tokens-per-gpu (verl's dynamic batches), else micro-batch"}, SET_CHOICE(s.grad_sync),
     TRAINSIZE_ID_GRAD_SYNC, TS_PLAN_KEEPS},
    {{"fsdp-lora-wrap", TRAINSIZE_PARAM_CHOICE, "adapters|layers", 0, 0, "adapters", "",
      "FSDP units with LoRA: adapters = PEFT's fsdp_auto_wrap_policy (the Hugging Face Trainer's "
      "choice) wraps the adapters apart; layers = whole transformer layers, whose flat gradient "
      "buffer is the whole layer's size"}, SET_CHOICE(s.fsdp_lora_wrap),
     TRAINSIZE_ID_FSDP_LORA_WRAP, TS_PLAN_KEEPS},
    {{"loading", TRAINSIZE_PARAM_CHOICE, "cpu|gpu", 0, 0, "cpu", "",
      "where each rank first materialises the weights: cpu (sharded or streamed onto the GPU; "
      "Accelerate's cpu_ram_efficient_loading, DeepSpeed zero.Init) or gpu (the whole model on "
      "every GPU before sharding or casting, a phase that can set the peak)"},
     SET_CHOICE(s.loading), TRAINSIZE_ID_LOADING, TS_PLAN_KEEPS},
    {{"load-dtype", TRAINSIZE_PARAM_CHOICE, "auto|16bit|fp32", 0, 0, "auto", "",
      "type the checkpoint is loaded in with loading gpu (from_pretrained without torch_dtype "
      "loads fp32); auto = the type the weights are trained in"}, SET_CHOICE(s.load_dtype),
     TRAINSIZE_ID_LOAD_DTYPE, TS_PLAN_KEEPS},
    {{"quantize-scratch", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1000, "0.5", "bytes per element",
      "working memory of quantizing one weight matrix on the GPU while the model loads, beside "
      "its 16-bit copy: 0.5 for bitsandbytes' kernel (packed output and scales), 3.5 for "
      "torchao NF4 from 0.2 (quantizes in chunks), 68 for torchao 0.1, whose nearest-value "
      "search holds a 16-wide difference tensor of the whole matrix (pytorch/ao PR 196, 315)"},
     SET_DOUBLE(s.quantize_scratch), TRAINSIZE_ID_QUANTIZE_SCRATCH, TS_PLAN_KEEPS},
    /* Overheads and efficiency. */
    {{"cuda-context", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BYTES, "536870912", "bytes",
      "CUDA context and kernel images per process; peer calculators assume 0.3-2 GiB; "
      "512 MiB for PyTorch 2.x with lazy loading (pytorch #107667); "
      "not yet calibrated"},
     SET_U64(s.cuda_context), TRAINSIZE_ID_CUDA_CONTEXT, TS_PLAN_KEEPS},
    {{"comm-buffer", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BYTES, "268435456", "bytes",
      "communication buffers per process group of more than one rank: NCCL keeps "
      "NCCL_BUFFSIZE (4 MiB) per channel per peer (nccl #391, #1450), e.g. 32 channels x 2 "
      "peers = 256 MiB; not yet calibrated"}, SET_U64(s.comm_buffer), TRAINSIZE_ID_COMM_BUFFER, TS_PLAN_KEEPS},
    {{"allocator-slack", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.07", "fraction",
      "caching-allocator reserve beyond the allocated peak, as a share of it (the flat 7 % "
      "fragmentation term of ROCm/Megatron-LM PR 162); not yet calibrated"},
     SET_DOUBLE(s.allocator_slack), TRAINSIZE_ID_ALLOCATOR_SLACK, TS_PLAN_KEEPS},
    {{"sharded-slack", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.19", "fraction",
      "the caching-allocator reserve under ZeRO-3/FSDP, where gathered weights and reduced "
      "gradients come from their own CUDA streams, whose cached blocks the compute stream "
      "cannot reuse; 0.19 is the median of what the ZeRO-3/FSDP figures of max_memory_reserved "
      "in tests/accuracy/fixtures (public.json, stacks.json) need (docs/accuracy.md)"},
     SET_DOUBLE(s.sharded_slack), TRAINSIZE_ID_SHARDED_SLACK, TS_PLAN_KEEPS},
    {{"fragmentation", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.02", "fraction",
      "the share of the allocated peak the caching allocator cannot reuse once memory runs "
      "short: it frees its cached blocks and retries before it raises out-of-memory, so what a "
      "job needs to run (memory.peak_needed, which fits compares) is peak_allocated x (1 + "
      "this) + the context and the buffers, not the cache it grows where memory is plentiful "
      "(peak_total); at the moment of out-of-memory, reports show 0-1.2 GiB reserved beyond "
      "allocated (docs/methodology.md, Overhead)"},
     SET_DOUBLE(s.fragmentation), TRAINSIZE_ID_FRAGMENTATION, TS_PLAN_KEEPS},
    {{"zero3-gather-layers", TRAINSIZE_PARAM_INT, NULL, 1, 1e4, "2", "layers",
      "unsharded layers ZeRO-3/FSDP holds at once (current + prefetch)"}, SET_U64(s.zero3_gather_layers), TRAINSIZE_ID_ZERO3_GATHER_LAYERS, TS_PLAN_KEEPS},
    {{"hfu", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1, "0", "fraction",
      "the kernels' efficiency while computing: achieved share of the dense peak over the executed "
      "FLOPs, recomputation included (PaLM App. B's HFU, without the pipeline bubble and the "
      "exposed communication, which the estimate adds); set, every FLOP runs at it and "
      "no element-wise work or optimizer step counts; 0 = auto: the kernel-efficiency model (matmuls at the part's "
      "measured GEMM ceiling x 0.77, element-wise work and the optimizer step at memory "
      "bandwidth: docs/methodology.md, Kernel efficiency)"},
     SET_DOUBLE(s.hfu), TRAINSIZE_ID_HFU, TS_PLAN_KEEPS},
    {{"step-overhead", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e4, "0", "seconds",
      "seconds each optimizer step spends outside the kernels and collectives the estimate "
      "times, flat, when given; unset, worked out from the job (time.overhead_seconds): the "
      "kernel launches the GPU waits for (launch-overhead a kernel, where the host launches a "
      "micro-batch's kernels slower than the GPU runs them) and step-sync once a step"},
     SET_DOUBLE(s.step_overhead), TRAINSIZE_ID_STEP_OVERHEAD, TS_PLAN_KEEPS},
    {{"launch-overhead", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1, "1e-05", "seconds",
      "host time per kernel launch: PyTorch's dispatch and cudaLaunchKernel (a raw launch "
      "takes 3.0-3.3 us, a Triton kernel 4.7-5.6, one of Inductor's 6.8-9.1: "
      "meta-pytorch/tritonbench PR 1017 on GB200); 10 us is an assumption for eager PyTorch's "
      "Python and dispatcher"},
     SET_DOUBLE(s.launch_overhead), TRAINSIZE_ID_LAUNCH_OVERHEAD, TS_PLAN_KEEPS},
    {{"step-sync", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e3, "0.02", "seconds",
      "host time once a step the GPU waits for: the synchronisation that reads back the loss "
      "and the gradient norm (logging, clipping, AMP's overflow check) and the next batch's "
      "fetch; an assumption the published runs support, not a fit (the image and encoder runs "
      "prefer 0-0.02 s: docs/methodology.md, Kernel efficiency)"},
     SET_DOUBLE(s.step_sync), TRAINSIZE_ID_STEP_SYNC, TS_PLAN_KEEPS},
    {{"cuda-graphs", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the step replays captured CUDA graphs (Megatron-Core's and MLPerf's CUDA-graph "
      "configurations, torch.compile's reduce-overhead mode): no kernel launches from the host"},
     SET_BOOL(s.cuda_graphs), TRAINSIZE_ID_CUDA_GRAPHS, TS_PLAN_KEEPS},
    {{"gpu-variation", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1, "0.03", "fraction",
      "the spread (standard deviation, relative) of the GPUs' speeds in a job: every step waits "
      "for the slowest of its GPUs, whose expected lag over n GPUs is this times the expected "
      "maximum of n standard normal deviates (1.42 for 8 GPUs, 3.7 for 10,000); fitted to "
      "the published 1- to 8-GPU runs and clusters (docs/accuracy.md)"},
     SET_DOUBLE(s.gpu_variation), TRAINSIZE_ID_GPU_VARIATION, TS_PLAN_KEEPS},
    /* Servers. */
    {{"data-loader-workers", TRAINSIZE_PARAM_INT, NULL, 0, 1024, "8", "processes",
      "data-loader worker processes per GPU (PyTorch DataLoader num_workers); a server gets "
      "one core for each and one per training process, never fewer than 8"}, SET_U64(s.data_loader_workers), TRAINSIZE_ID_DATA_LOADER_WORKERS, TS_PLAN_KEEPS},
    {{"sharded-loading", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "a server's ranks together hold one 16-bit copy of the model in host RAM whatever the "
      "layout; false: the layout decides (each rank its tp x pp shard of the checkpoint, one "
      "copy per server under ZeRO-3/FSDP, else a whole copy per rank)"}, SET_BOOL(s.sharded_loading), TRAINSIZE_ID_SHARDED_LOADING, TS_PLAN_KEEPS},
    {{"host-memory-bandwidth", TRAINSIZE_PARAM_FLOAT, NULL, 1e9, 1e14, "300000000000", "bytes/s",
      "the server's achieved host memory bandwidth, which CPU offload's optimizer step is bound "
      "by (two sockets of 8-channel DDR5 reach about 300 GB/s in STREAM; an assumption)"},
     SET_DOUBLE(s.host_memory_bandwidth), TRAINSIZE_ID_HOST_MEMORY_BANDWIDTH, TS_PLAN_KEEPS},
    {{"host-ram", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BYTES * 1e3, "0", "bytes",
      "the server's host RAM, to check it (0: size it)"}, SET_U64(s.host_ram),
     TRAINSIZE_ID_HOST_RAM, TS_PLAN_KEEPS},
    {{"cpu-cores", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "0", "cores",
      "the server's CPU cores, to check them (0: size them)"}, SET_U64(s.cpu_cores),
     TRAINSIZE_ID_CPU_CORES, TS_PLAN_KEEPS},
    {{"nics-per-node", TRAINSIZE_PARAM_INT, NULL, 0, 1024, "0", "NICs",
      "scale-out network ports per server (0: one per GPU, as DGX/HGX servers have)"},
     SET_U64(s.nics_per_node), TRAINSIZE_ID_NICS_PER_NODE, TS_PLAN_KEEPS},
    {{"network", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "the servers' network link (catalogue name, e.g. ib-ndr, eth-100g), to check it; default: "
      "none given, so the host's own NICs where the product comes with its host, as a TPU VM "
      "does, "
      "else the slowest link that meets the need"},
     TS_SET_LINK, 0, TRAINSIZE_ID_NETWORK, TS_PLAN_KEEPS},
    {{"storage", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "the storage class (catalogue name, e.g. nvme-gen4, nfs, lustre), to check it; default: "
      "none given, so the least class that meets the read and checkpoint rates: local NVMe on "
      "one server, shared storage on several"},
     TS_SET_STORAGE, 0, TRAINSIZE_ID_STORAGE, TS_PLAN_KEEPS},
    {{"checkpoint-seconds", TRAINSIZE_PARAM_FLOAT, NULL, 1, 1e7, "300", "seconds",
      "target time to write one checkpoint (an assumption: 5 minutes)"}, SET_DOUBLE(s.checkpoint_seconds), TRAINSIZE_ID_CHECKPOINT_SECONDS, TS_PLAN_KEEPS},
    {{"comm-share", TRAINSIZE_PARAM_FLOAT, NULL, 0.01, 1, "0.1", "fraction",
      "share of a step that exposed communication may add when choosing the network: the "
      "slowest link that keeps it under this share is recommended (an assumption)"},
     SET_DOUBLE(s.comm_share), TRAINSIZE_ID_COMM_SHARE, TS_PLAN_KEEPS},
    {{"collective-latency", TRAINSIZE_PARAM_FLOAT, NULL, 0, 0.1, "1e-05", "seconds",
      "latency of one algorithm step of a collective; a collective over n ranks takes "
      "2 log2(n) of them (NCCL's tree and PAT algorithms; 10 us is an assumption of the order "
      "nccl-tests show for small messages across servers)"}, SET_DOUBLE(s.collective_latency),
     TRAINSIZE_ID_COLLECTIVE_LATENCY, TS_PLAN_KEEPS},
    {{"moe-imbalance", TRAINSIZE_PARAM_FLOAT, NULL, 1, 16, "1.3", "ratio",
      "dropless MoE routing: the most loaded expert's tokens over the mean, which the routed "
      "experts' matmuls run at the pace of (every rank waits for the fullest); 1 = balanced "
      "(capacity-factor dropping, Megatron-Core's forced balance); 1.3 fits the published "
      "MoE runs, the paired dropless and forced-balance runs of NVIDIA's Megatron-MoE model zoo "
      "among them (docs/accuracy.md)"},
     SET_DOUBLE(s.moe_imbalance), TRAINSIZE_ID_MOE_IMBALANCE, TS_PLAN_KEEPS},
    {{"moe-max-nodes", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "0", "servers",
      "node-limited expert routing: a token is sent to at most this many servers (DeepSeek-V3: "
      "4); 0 = unlimited, each of its k expert copies travels"}, SET_U64(s.moe_max_nodes),
     TRAINSIZE_ID_MOE_MAX_NODES, TS_PLAN_KEEPS},
    {{"ep-overlap", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the expert all-to-all runs under another micro-batch's compute (DeepSeek-V3's DualPipe); "
      "false: it blocks, as in Megatron-LM's default schedule"}, SET_BOOL(s.ep_overlap),
     TRAINSIZE_ID_EP_OVERLAP, TS_PLAN_KEEPS},
    {{"nvls", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "NVLink SHARP: the NVSwitches reduce all-reduces of more than 4 GPUs of a server, at 1.05 "
      "(Hopper) or 0.93 (Blackwell) of the link's per-direction rate where rings reach 0.8 "
      "(nccl-tests busbw: 8x H100 480 vs 370 GB/s, 8x B200 838 vs 682 GB/s); auto = yes on "
      "NVSwitch servers of NVIDIA Hopper and Blackwell parts (NCCL's default), else no"},
     SET_CHOICE(s.nvls), TRAINSIZE_ID_NVLS, TS_PLAN_KEEPS},
    {{"sharp", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the network's switches reduce (InfiniBand SHARP through NCCL's CollNet or NVLS-Tree): an "
      "all-reduce across servers sends its bytes once each way, half a ring's traffic; false: "
      "rings and trees over the NICs"}, SET_BOOL(s.sharp), TRAINSIZE_ID_SHARP, TS_PLAN_KEEPS},
    {{"dp-overlap", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "data-parallel traffic under compute. yes: the gradient reduction overlaps the last "
      "micro-batch's backward and ZeRO-1/2's weight all-gather the next forward, with a pipeline "
      "too (Megatron-Core's overlap_grad_reduce and overlap_param_gather, DeepSpeed's "
      "overlap_comm); no: nothing overlaps; auto = the reduction overlaps the last backward "
      "without a pipeline and nothing with one (Megatron-LM's defaults, PyTorch DDP's buckets), "
      "and ZeRO-3/FSDP prefetches its gathers under each micro-batch"},
     SET_CHOICE(s.dp_overlap), TRAINSIZE_ID_DP_OVERLAP, TS_PLAN_KEEPS},
    {{"tp-overlap", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "tensor-parallel traffic in chunks under the layer's matmuls (Transformer Engine's "
      "userbuffers tp_comm_overlap, PyTorch's async TP): only what exceeds the matmuls' time "
      "adds; no: it blocks between the matmuls (Megatron-LM's default); auto = the stack's "
      "(megatron-core overlaps, the others block), and blocking wherever the group leaves a "
      "GPU-to-GPU fabric (PCIe beyond an NVLink bridge, or across servers), where the overlap "
      "does not run"},
     SET_CHOICE(s.tp_overlap), TRAINSIZE_ID_TP_OVERLAP, TS_PLAN_KEEPS},
    {{"dp-nics", TRAINSIZE_PARAM_CHOICE, "auto|server|own", 0, 0, "auto", "",
      "the NICs data-parallel and ZeRO/FSDP traffic crosses servers on. server: every NIC of "
      "the group's ranks in a server (NCCL runs a channel per NIC: 4 servers of 8 H200 reach "
      "365 GB/s all-reduce bus bandwidth on 400 GB/s of NICs each); own: each rank's own share "
      "of its server's NICs, as DeepSpeed's ZeRO-3 moved its gathers in Narayanan et al. 2021, "
      "Table 2 (step times that stay flat from 768 to 1536 A100s imply 21-24 GB/s per GPU on "
      "25 GB/s of HDR each); auto = own under deepspeed conventions with ZeRO-3, else server"},
     SET_CHOICE(s.dp_nics), TRAINSIZE_ID_DP_NICS, TS_PLAN_KEEPS},
    {{"fused-kernels", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "the element-wise work between the matmuls (norms, activation functions, rotary "
      "embeddings, residual adds, the loss) runs in fused kernels, one pass over memory per "
      "group (Megatron-Core/Transformer Engine, Liger kernels, torch.compile); no: eager "
      "modelling code, a kernel per operation; auto = yes under megatron conventions"},
     SET_CHOICE(s.fused_kernels), TRAINSIZE_ID_FUSED_KERNELS, TS_PLAN_KEEPS},
    {{"fused-norm", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "the norms in one kernel each (Transformer Engine's, Apex's, Liger's or flash-attn's "
      "RMSNorm and LayerNorm): one pass over memory, the input kept at the activations' width; "
      "no: the modelling code's operations (Hugging Face's RMSNorm upcasts, keeping an fp32 "
      "copy); auto = fused-kernels"},
     SET_CHOICE(s.fused_norm), TRAINSIZE_ID_FUSED_NORM, TS_PLAN_KEEPS},
    {{"fused-activation", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "the MLP's activation function in one kernel (Megatron's bias-GeLU and SwiGLU fusions, "
      "Liger's SwiGLU and GeGLU): it keeps its inputs only; no: act(gate) * up as separate "
      "operations, which keep act(gate) too (nanotron's LLaMA, Hugging Face's); auto = "
      "fused-kernels, no under the nanotron stack unless compiled"},
     SET_CHOICE(s.fused_activation), TRAINSIZE_ID_FUSED_ACTIVATION, TS_PLAN_KEEPS},
    {{"fused-rope", TRAINSIZE_PARAM_CHOICE, "auto|yes|no", 0, 0, "auto", "",
      "the rotary embedding in one kernel (Transformer Engine's, flash-attn's, Liger's): one "
      "pass over q and k; no: the modelling code's multiplies, rotate_half and add; auto = "
      "fused-kernels"},
     SET_CHOICE(s.fused_rope), TRAINSIZE_ID_FUSED_ROPE, TS_PLAN_KEEPS},
    {{"compile", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the model runs under torch.compile: Inductor fuses the element-wise work between the "
      "matmuls and its min-cut partitioner keeps what fused kernels keep, so fused-kernels "
      "auto = yes (the CPU launch overhead it also removes is not modelled)"},
     SET_BOOL(s.compile), TRAINSIZE_ID_COMPILE, TS_PLAN_KEEPS},
    {{"headroom", TRAINSIZE_PARAM_FLOAT, NULL, 0, 0.9, "0.1", "fraction",
      "GPU memory to keep free for growth; less raises the low-vram-headroom warning"},
     SET_DOUBLE(s.headroom), TRAINSIZE_ID_HEADROOM, TS_PLAN_KEEPS},
    /* Power and cost. */
    {{"server-power-factor", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.8", "fraction",
      "power of the rest of a server as a share of its GPUs' TDP (DGX A100/H100/B200 maximum "
      "system power 6.5/10.2/14.3 kW is 2.03/1.82/1.79 x the GPUs' TDP, DGX user guides); an NVL72 "
      "draws its published rack power instead (GB200 132 kW, GB300 142 kW)"}, SET_DOUBLE(s.server_power_factor), TRAINSIZE_ID_SERVER_POWER_FACTOR, TS_PLAN_KEEPS},
    {{"pue", TRAINSIZE_PARAM_FLOAT, NULL, 1, 5, "1.1", "",
      "power usage effectiveness of the facility (1.1 hyperscale, as the LLaMA paper; "
      "industry average 1.58, Uptime 2023)"}, SET_DOUBLE(s.pue), TRAINSIZE_ID_PUE, TS_PLAN_KEEPS},
    {{"carbon-intensity", TRAINSIZE_PARAM_FLOAT, NULL, 0, 5, "0.385", "kg/kWh",
      "grid carbon intensity (US average used by the LLaMA paper, Table 15)"}, SET_DOUBLE(s.carbon_intensity), TRAINSIZE_ID_CARBON_INTENSITY, TS_PLAN_KEEPS},
    {{"gpu-hour-usd", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e6, "0", "USD",
      "cloud price per GPU-hour (0: the catalogue's dated price)"}, SET_DOUBLE(s.gpu_hour_usd),
     TRAINSIZE_ID_GPU_HOUR_USD, TS_PLAN_KEEPS},
    {{"gpu-price-usd", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e9, "0", "USD",
      "purchase price per GPU (0: the catalogue's)"}, SET_DOUBLE(s.gpu_price_usd),
     TRAINSIZE_ID_GPU_PRICE_USD, TS_PLAN_KEEPS},
    {{"gpu-prices", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "prices per GPU, NAME=HOURLY[:PURCHASE],... in US dollars, e.g. "
      "a100-80gb=1.8,h100-80gb=2.5:25000; they win over gpu-hour-usd, gpu-price-usd and the "
      "catalogue for the GPUs they name (the planner uses them too); default: none, so "
      "gpu-hour-usd and gpu-price-usd where set, else the catalogue's prices"},
     TS_SET_GPU_PRICES, 0, TRAINSIZE_ID_GPU_PRICES, TS_PLAN_KEEPS},
    {{"server-share", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.44", "fraction",
      "owning: the rest of a server (CPUs, memory, NICs, chassis) as a share of its GPUs' price; "
      "0.44 from an HGX H100 quote of $317k against 8 modules at $27.5k (low confidence)"},
     SET_DOUBLE(s.server_share), TRAINSIZE_ID_SERVER_SHARE, TS_PLAN_KEEPS},
    {{"network-usd-per-gpu", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e7, "2500", "USD",
      "owning, several servers: the scale-out network per GPU (a NIC and its share of leaf and "
      "spine switch ports and cables; an assumption)"}, SET_DOUBLE(s.network_usd_per_gpu),
     TRAINSIZE_ID_NETWORK_USD_PER_GPU, TS_PLAN_KEEPS},
    {{"amortization-years", TRAINSIZE_PARAM_FLOAT, NULL, 0.1, 50, "4", "years",
      "life over which owned GPUs are paid off (an assumption)"}, SET_DOUBLE(s.amortization_years), TRAINSIZE_ID_AMORTIZATION_YEARS, TS_PLAN_KEEPS},
    {{"support-share", TRAINSIZE_PARAM_FLOAT, NULL, 0, 10, "0.1", "fraction/year",
      "yearly support and maintenance as a share of the purchase (an assumption)"},
     SET_DOUBLE(s.support_share), TRAINSIZE_ID_SUPPORT_SHARE, TS_PLAN_KEEPS},
    {{"power-usd-per-kwh", TRAINSIZE_PARAM_FLOAT, NULL, 0, 100, "0.1", "USD/kWh",
      "electricity price at the facility (an assumption)"}, SET_DOUBLE(s.power_usd_per_kwh),
     TRAINSIZE_ID_POWER_USD_PER_KWH, TS_PLAN_KEEPS},
    /* Planning. */
    {{"plan-gpus", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "GPUs the planner may choose from, comma-separated catalogue names (the command's plan "
      "--gpu); default: empty, the whole catalogue"}, TS_SET_PLAN_GPUS, 0, TRAINSIZE_ID_PLAN_GPUS, TS_PLAN_KEEPS},
    {{"max-gpus", TRAINSIZE_PARAM_INT, NULL, 1, LIM_GPUS, "4096", "GPUs",
      "most GPUs the planner may use (it searches up to 16,384 servers)"}, SET_U64(plan.max_gpus), TRAINSIZE_ID_MAX_GPUS, TS_PLAN_KEEPS},
    {{"deadline-days", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e6, "0", "days",
      "the planner keeps configurations that finish within this; 0: no deadline"}, SET_DOUBLE(plan.deadline_days), TRAINSIZE_ID_DEADLINE_DAYS, TS_PLAN_KEEPS},
    {{"budget", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e15, "0", "USD",
      "the planner keeps configurations that cost at most this; 0: no budget"}, SET_DOUBLE(plan.budget_usd), TRAINSIZE_ID_BUDGET, TS_PLAN_KEEPS},
    {{"objective", TRAINSIZE_PARAM_CHOICE, "cost|time|owned", 0, 0, "cost", "",
      "what the planner ranks by first: cloud cost, time, or the cost of owning the GPUs"},
     SET_CHOICE(plan.objective), TRAINSIZE_ID_OBJECTIVE, TS_PLAN_KEEPS},
    {{"plan-ranking", TRAINSIZE_PARAM_CHOICE, "best|pareto", 0, 0, "best", "",
      "what the planner returns: the best by the objective (one per layout), or the Pareto front "
      "of cost (cloud, or owned with objective owned) against time, fastest first"},
     SET_CHOICE(plan.ranking), TRAINSIZE_ID_PLAN_RANKING, TS_PLAN_KEEPS},
    {{"plan-rollout", TRAINSIZE_PARAM_CHOICE, "auto|colocated|separate", 0, 0, "auto", "",
      "grpo, ppo: the rollout placements the planner searches: auto both (the engines on all the "
      "GPUs, or on a quarter or a half of them beside the rest), or only colocated (verl's hybrid "
      "engine) or only separate (OpenRLHF's engines)"},
     SET_CHOICE(plan.rollout), TRAINSIZE_ID_PLAN_ROLLOUT, TS_PLAN_KEEPS},
    {{"exhaustive", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the planner estimates every configuration, without the floors it prunes by (the same "
      "answer, several times slower: a check)"},
     SET_BOOL(plan.exhaustive), TRAINSIZE_ID_EXHAUSTIVE, TS_PLAN_KEEPS},
    {{"plan-margin", TRAINSIZE_PARAM_CHOICE, "estimate|high", 0, 0, "estimate", "",
      "what the planner holds each configuration to: the estimate, or its high bound (the "
      "result's uncertainty: memory.peak_needed x memory_high must fit the GPU, and time and cost "
      "are ranked, bounded by deadline and budget, and shown at x time_high)"},
     SET_CHOICE(plan.margin), TRAINSIZE_ID_PLAN_MARGIN, TS_PLAN_KEEPS},
    {{"plan-gpu-count", TRAINSIZE_PARAM_INT, NULL, 0, LIM_GPUS, "0", "GPUs",
      "the planner uses exactly this many GPUs (\"I have 8 H100s\"); without tokens it lists the "
      "layouts that fit there and the largest batch each takes; 0: it searches counts up to "
      "max-gpus"}, SET_U64(plan.gpu_count), TRAINSIZE_ID_PLAN_GPU_COUNT, TS_PLAN_KEEPS},
    {{"rack-power-watts", TRAINSIZE_PARAM_FLOAT, NULL, 100, 1e7, "41000", "watts",
      "air-cooled rack budget: NVIDIA's DGX SuperPOD racks four DGX H100, 40.8 kW; a typical "
      "enterprise room takes 20000 (Uptime 2023: most operators have no racks above 20 kW)"},
     SET_DOUBLE(s.rack_power_watts), TRAINSIZE_ID_RACK_POWER_WATTS, TS_PLAN_KEEPS},
    {{"host-ram-factor", TRAINSIZE_PARAM_FLOAT, NULL, 0, 100, "2", "",
      "host RAM per node is at least this times the node's GPU memory"}, SET_DOUBLE(s.host_ram_factor), TRAINSIZE_ID_HOST_RAM_FACTOR, TS_PLAN_KEEPS},
    {{"checkpoints-kept", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "2", "",
      "checkpoints kept on storage"}, SET_U64(s.checkpoints_kept),
     TRAINSIZE_ID_CHECKPOINTS_KEPT, TS_PLAN_KEEPS},
    /* Appended (ids follow rows): the facility, buying against renting, goodput, the
     * dataset and the largest batch that fits. */
    {{"servers-per-rack", TRAINSIZE_PARAM_INT, NULL, 0, 1e4, "0", "servers",
      "servers in one rack; 0: as many as the rack's power budget (rack-power-watts) and 42 "
      "rack units take, an NVL72 its 18 trays"}, SET_U64(s.servers_per_rack),
     TRAINSIZE_ID_SERVERS_PER_RACK, TS_PLAN_KEEPS},
    {{"utilization", TRAINSIZE_PARAM_FLOAT, NULL, 0.01, 1, "0.83", "fraction",
      "owning: share of the year the cluster trains (Meta's RSC-1 research cluster: 83 %); the "
      "purchase is paid by the busy hours, and the break-even rents as many"}, SET_DOUBLE(s.utilization),
     TRAINSIZE_ID_UTILIZATION, TS_PLAN_KEEPS},
    {{"colo-usd-per-kw-month", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e5, "184.06", "USD/kW-month",
      "owning: colocation rent per kW of the servers' power, power billed apart at "
      "power-usd-per-kwh (CBRE, North America, H2 2024, 250-500 kW)"}, SET_DOUBLE(s.colo_usd_per_kw_month),
     TRAINSIZE_ID_COLO_USD_PER_KW_MONTH, TS_PLAN_KEEPS},
    {{"storage-usd-per-tb", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e6, "200", "USD/TB",
      "owning, several servers: the shared all-flash file system bought for the dataset and "
      "checkpoints, per TB (Pure FlashBlade//E at launch, 2023: $0.20/GB)"}, SET_DOUBLE(s.storage_usd_per_tb),
     TRAINSIZE_ID_STORAGE_USD_PER_TB, TS_PLAN_KEEPS},
    {{"interruptions-per-gpu-day", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1, "0.000474", "per GPU-day",
      "unexpected job interruptions per GPU per day (Llama 3: 419 in 54 days on 16,384 GPUs); 0: "
      "a cluster that never fails"}, SET_DOUBLE(s.interruptions_per_gpu_day),
     TRAINSIZE_ID_INTERRUPTIONS_PER_GPU_DAY, TS_PLAN_KEEPS},
    {{"restart-seconds", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e7, "600", "seconds",
      "from an interruption to training again (detect, replace the server, relaunch, load the "
      "checkpoint), the work lost since it apart (Meta: 5-20 min; MegaScale: under 15 min)"}, SET_DOUBLE(s.restart_seconds),
     TRAINSIZE_ID_RESTART_SECONDS, TS_PLAN_KEEPS},
    {{"checkpoint-interval", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e9, "0", "seconds",
      "training time between checkpoints; 0: the optimum for the job's failure rate and "
      "checkpoint time (Young 1974, Daly 2006)"}, SET_DOUBLE(s.checkpoint_interval),
     TRAINSIZE_ID_CHECKPOINT_INTERVAL, TS_PLAN_KEEPS},
    {{"checkpoint-async", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the step waits only while each GPU copies its shard to host memory, the write runs "
      "behind (torch.distributed.checkpoint async_save, Megatron's async save); false: it waits "
      "for the write"}, SET_BOOL(s.checkpoint_async), TRAINSIZE_ID_CHECKPOINT_ASYNC, TS_PLAN_KEEPS},
    {{"spare-nodes", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "0", "servers",
      "servers bought and racked beside the job's, to replace a failed one (in the purchase, "
      "the racks and the facility, not the power drawn)"}, SET_U64(s.spare_nodes),
     TRAINSIZE_ID_SPARE_NODES, TS_PLAN_KEEPS},
    {{"dataset-bytes", TRAINSIZE_PARAM_INT, NULL, 0, 1e18, "0", "bytes",
      "the dataset as stored (images, audio, text); 0: the run's tokens as 4-byte token ids"},
     SET_U64(s.dataset_bytes), TRAINSIZE_ID_DATASET_BYTES, TS_PLAN_KEEPS},
    {{"sample-bytes", TRAINSIZE_PARAM_INT, NULL, 0, 1e12, "0", "bytes",
      "one sample as read from storage (an encoded image, a clip); the read rate is samples per "
      "second times this; 0: token ids, 4 bytes a token"}, SET_U64(s.sample_bytes),
     TRAINSIZE_ID_SAMPLE_BYTES, TS_PLAN_KEEPS},
    {{"epochs", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1e6, "0", "passes",
      "passes over dataset-bytes: sets the run's length when tokens is 0 (samples of sample-bytes, "
      "or 4-byte token ids, of seq tokens each); 0: tokens says it"}, SET_DOUBLE(s.epochs),
     TRAINSIZE_ID_EPOCHS, TS_PLAN_KEEPS},
    {{"largest-fit", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the estimate also finds the largest micro-batch and sequence that fit "
      "(memory.max_micro_batch, memory.max_seq: a dozen to forty memory estimates more, several "
      "microseconds); false: they are 0 (the report finds them itself)"},
     SET_BOOL(s.largest_fit), TRAINSIZE_ID_LARGEST_FIT, TS_PLAN_KEEPS},
    {{"local-cache-bytes", TRAINSIZE_PARAM_INT, NULL, 0, LIM_BYTES, "30720000000000", "bytes",
      "each server's NVMe data cache: with several servers a dataset that fits is staged there "
      "once and read locally (DGX H100 and B200: 8 x 3.84 TB); 0: always stream from the shared "
      "file system"}, SET_U64(s.local_cache_bytes), TRAINSIZE_ID_LOCAL_CACHE_BYTES, TS_PLAN_KEEPS},
    {{"method", TRAINSIZE_PARAM_CHOICE, &(TS_METHOD_LIST(TS_CHOICE_ITEM))[1], 0, 0, "sft", "",
      "what the step trains: sft (next-token loss: pretraining or supervised fine-tuning), dpo "
      "(direct preference optimisation: each sample a chosen and a rejected sequence of seq "
      "tokens, in one batch as TRL's DPOTrainer concatenates them, beside a frozen reference), or "
      "the RL methods grpo and ppo (a rollout engine generates the responses first; ppo trains a "
      "critic too), as verl runs them, or distill (the loss against a frozen teacher's logits)"},
     SET_CHOICE(s.method), TRAINSIZE_ID_METHOD, TS_PLAN_KEEPS},
    {{"reference", TRAINSIZE_PARAM_CHOICE, &(TS_REFERENCE_LIST(TS_CHOICE_ITEM))[1], 0, 0, "auto", "",
      "dpo, grpo, ppo: the reference's log-probabilities from a frozen copy of the model (model), "
      "from the policy with its LoRA adapters disabled (adapters-off), computed before training "
      "(precomputed, dpo: TRL's precompute_ref_log_probs, no reference on the GPU), or no KL term "
      "and no reference (none, grpo and ppo); auto: adapters-off with LoRA, else model"}, SET_CHOICE(s.reference), TRAINSIZE_ID_REFERENCE, TS_PLAN_KEEPS},
    /* The shape of encoders and image transformers (the presets bert-*, roberta-*, vit-*). */
    {{"head", TRAINSIZE_PARAM_CHOICE, "lm|pooler|classifier", 0, 0, "lm", "",
      "what the model ends in: lm (the output layer over the vocabulary at every token), pooler "
      "(BERT's dense layer on the first token, with a classifier when classes is set) or "
      "classifier (classes outputs on the first token: ViT)"}, SET_CHOICE(s.model.head),
     TRAINSIZE_ID_HEAD, TS_PLAN_KEEPS},
    {{"classes", TRAINSIZE_PARAM_INT, NULL, 0, LIM_VOCAB, "0", "classes",
      "outputs of a pooler's or a classifier's classification layer (ImageNet-1k: 1000)"},
     SET_U64(s.model.classes), TRAINSIZE_ID_CLASSES, TS_PLAN_KEEPS},
    {{"token-types", TRAINSIZE_PARAM_INT, NULL, 0, 1e6, "0", "",
      "segment embeddings of an encoder (BERT: 2, RoBERTa: 1)"}, SET_U64(s.model.token_types),
     TRAINSIZE_ID_TOKEN_TYPES, TS_PLAN_KEEPS},
    {{"post-norm", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "norms after each sub-layer, one after the embeddings and none at the end (BERT, RoBERTa)"},
     SET_BOOL(s.model.post_norm), TRAINSIZE_ID_POST_NORM, TS_PLAN_KEEPS},
    {{"patch-size", TRAINSIZE_PARAM_INT, NULL, 0, 1e4, "0", "pixels",
      "an image transformer's patch side (ViT-B/16: 16): its patch projection is a matmul per "
      "patch, and positions counts the patches and the class token; 0: a text model"},
     SET_U64(s.model.patch_size), TRAINSIZE_ID_PATCH_SIZE, TS_PLAN_KEEPS},
    {{"channels", TRAINSIZE_PARAM_INT, NULL, 0, 1e4, "0", "",
      "an image transformer's input channels (3 for RGB)"}, SET_U64(s.model.channels),
     TRAINSIZE_ID_CHANNELS, TS_PLAN_KEEPS},
    /* RL post-training's rollout (method grpo, ppo). */
    {{"group-size", TRAINSIZE_PARAM_INT, NULL, 1, 1e6, "8", "responses",
      "grpo, ppo: responses generated for each prompt (TRL's num_generations); global-batch and "
      "micro-batch count responses"}, SET_U64(s.group_size), TRAINSIZE_ID_GROUP_SIZE, TS_PLAN_KEEPS},
    {{"response-tokens", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "tokens",
      "grpo, ppo: tokens generated for each response, of the seq each trains on (the prompt is the "
      "rest); 0: half of seq (verl's 512 prompt and 512 response tokens)"}, SET_U64(s.response_tokens), TRAINSIZE_ID_RESPONSE_TOKENS, TS_PLAN_KEEPS},
    {{"response-tokens-mean", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "tokens",
      "grpo, ppo: the responses' mean length (verl logs response_length/mean; often a fifth of "
      "the longest): the engine's KV cache and decode work follow it, the decode's last tokens "
      "the longest; 0: every response is response-tokens long"}, SET_U64(s.response_tokens_mean), TRAINSIZE_ID_RESPONSE_TOKENS_MEAN, TS_PLAN_KEEPS},
    {{"rollout", TRAINSIZE_PARAM_CHOICE, "colocated|separate", 0, 0, "colocated", "",
      "grpo, ppo: the rollout engine on the training GPUs (colocated: verl's hybrid engine) or "
      "on rollout-gpus of its own beside them (separate: OpenRLHF's vLLM engines), priced and "
      "powered with the training GPUs"}, SET_CHOICE(s.rollout),
     TRAINSIZE_ID_ROLLOUT, TS_PLAN_KEEPS},
    {{"rollout-memory-share", TRAINSIZE_PARAM_FLOAT, NULL, 0.01, 1, "0.5", "fraction",
      "grpo, ppo: the share of a GPU's memory the engine takes for its weights and KV cache "
      "(vLLM's gpu_memory_utilization; verl's default 0.5)"}, SET_DOUBLE(s.rollout_memory_share), TRAINSIZE_ID_ROLLOUT_MEMORY_SHARE, TS_PLAN_KEEPS},
    {{"rollout-tp", TRAINSIZE_PARAM_INT, NULL, 1, 1024, "1", "GPUs",
      "grpo, ppo: tensor parallelism of the engine (each GPU holds 1/rollout-tp of its weights)"},
     SET_U64(s.rollout_tp), TRAINSIZE_ID_ROLLOUT_TP, TS_PLAN_KEEPS},
    {{"rollout-pp", TRAINSIZE_PARAM_INT, NULL, 1, 1024, "1", "stages",
      "grpo, ppo: pipeline parallelism of the engine (vLLM's pipeline_parallel_size): an engine "
      "spans rollout-tp x rollout-pp GPUs, each holding a stage's share of its weights and KV "
      "cache; more room for the KV cache, no more decode throughput (each GPU still reads its "
      "weights once for each of the stages' batches in flight)"},
     SET_U64(s.rollout_pp), TRAINSIZE_ID_ROLLOUT_PP, TS_PLAN_KEEPS},
    {{"rollout-sleep", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "true", "",
      "grpo, ppo: the engine frees its weights and KV cache while the step trains (verl's "
      "free_cache_engine and vLLM sleep mode); false: it keeps its share through training"},
     SET_BOOL(s.rollout_sleep), TRAINSIZE_ID_ROLLOUT_SLEEP, TS_PLAN_KEEPS},
    {{"teacher", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "distill: the teacher, a built-in preset of the student's vocabulary (see `trainsize "
      "models`): frozen, in 16 bits, sharded as the student's weights, one forward a token"},
     SET_PRESET_REF(s.teacher), TRAINSIZE_ID_TEACHER, TS_PLAN_KEEPS},
    {{"critic-model", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "ppo: the critic, a built-in preset (see `trainsize models`; a 7B critic for a 70B policy): "
      "trained beside the policy on the same GPUs with its conventions and sharding, its values "
      "and its update (4 passes a token) on its own shape; \"\": the policy's shape (verl's default)"},
     SET_PRESET_REF(s.critic), TRAINSIZE_ID_CRITIC_MODEL, TS_PLAN_KEEPS},
    {{"reward-model", TRAINSIZE_PARAM_NAME, NULL, 0, 0, "", "",
      "grpo, ppo: a reward model, a built-in preset: frozen, in 16 bits, sharded as the policy's "
      "weights, one forward a token of every response; \"\": a rule-based reward (none on the GPU)"},
     SET_PRESET_REF(s.reward), TRAINSIZE_ID_REWARD_MODEL, TS_PLAN_KEEPS},
    /* Where the critic and the reward model run, and how they are sharded (side_models.c). */
    {{"critic-gpus", TRAINSIZE_PARAM_INT, NULL, 0, LIM_GPUS, "0", "GPUs",
      "ppo: GPUs of the job's type the critic trains on, beside the policy's (OpenRLHF's "
      "critic_num_nodes x critic_num_gpus_per_node), data parallel, its ZeRO sharding over them; "
      "its values beside the policy's forward passes, its update beside the policy's, each phase "
      "waiting for the slower; 0: on the policy's GPUs (verl)"},
     SET_U64(s.critic_gpus), TRAINSIZE_ID_CRITIC_GPUS, TS_PLAN_KEEPS},
    {{"critic-zero", TRAINSIZE_PARAM_CHOICE, "auto|0|1|2|3", 0, 0, "auto", "",
      "ppo: the critic's ZeRO stage (DeepSpeed-Chat's critic_zero_stage); auto: the policy's"},
     SET_CHOICE(s.critic_zero), TRAINSIZE_ID_CRITIC_ZERO, TS_PLAN_KEEPS},
    {{"critic-offload", TRAINSIZE_PARAM_CHOICE, "auto|none|optimizer|optimizer+params", 0, 0, "auto", "",
      "ppo: the critic's CPU offload (verl's critic fsdp_config optimizer_offload and "
      "param_offload); auto: the policy's offload"},
     SET_CHOICE(s.critic_offload), TRAINSIZE_ID_CRITIC_OFFLOAD, TS_PLAN_KEEPS},
    {{"reward-gpus", TRAINSIZE_PARAM_INT, NULL, 0, LIM_GPUS, "0", "GPUs",
      "grpo, ppo: GPUs of the job's type the reward model scores on, beside the policy's "
      "(OpenRLHF's reward_num_nodes x reward_num_gpus_per_node); its forward beside the policy's "
      "forward passes, before the update; 0: on the policy's GPUs"},
     SET_U64(s.reward_gpus), TRAINSIZE_ID_REWARD_GPUS, TS_PLAN_KEEPS},
    {{"reward-zero", TRAINSIZE_PARAM_CHOICE, "auto|0|1|2|3", 0, 0, "auto", "",
      "grpo, ppo: the reward model's ZeRO stage: 3 shards its frozen weights, below 3 every GPU "
      "holds them whole; auto: the policy's"},
     SET_CHOICE(s.reward_zero), TRAINSIZE_ID_REWARD_ZERO, TS_PLAN_KEEPS},
    {{"reward-offload", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "grpo, ppo: the reward model's weights wait on the host and come to the GPU for its forward "
      "(OpenRLHF's ref_reward_offload): off the GPU through training, once over the host link a step"},
     SET_BOOL(s.reward_offload), TRAINSIZE_ID_REWARD_OFFLOAD, TS_PLAN_KEEPS},
    /* A multimodal model's vision tower and projector (vision.c), and its images. */
    {{"vision-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "a multimodal model's vision tower: its layers (CLIP ViT-L/14 in LLaVA-1.5: 24); 0: none"},
     SET_U64(s.model.vision_layers), TRAINSIZE_ID_VISION_LAYERS, TS_PLAN_KEEPS},
    {{"vision-hidden", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "", "the vision tower's width"},
     SET_U64(s.model.vision_hidden), TRAINSIZE_ID_VISION_HIDDEN, TS_PLAN_KEEPS},
    {{"vision-heads", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "", "the vision tower's attention heads"},
     SET_U64(s.model.vision_heads), TRAINSIZE_ID_VISION_HEADS, TS_PLAN_KEEPS},
    {{"vision-ffn", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SHAPE, "0", "", "the vision tower's MLP inner size"},
     SET_U64(s.model.vision_ffn), TRAINSIZE_ID_VISION_FFN, TS_PLAN_KEEPS},
    {{"vision-gated", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "false", "",
      "the vision tower's MLP is gated, three matrices (Qwen2.5-VL's SwiGLU)"},
     SET_BOOL(s.model.vision_gated), TRAINSIZE_ID_VISION_GATED, TS_PLAN_KEEPS},
    {{"vision-patches", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "patches",
      "patches the vision tower runs over per image, a class token included (LLaVA-1.5's 336 x 336 "
      "at 14: 577); for tiled models (Llama 4) per tile"},
     SET_U64(s.model.vision_patches), TRAINSIZE_ID_VISION_PATCHES, TS_PLAN_KEEPS},
    {{"vision-other-params", TRAINSIZE_PARAM_INT, NULL, 0, 1e12, "0", "parameters",
      "the vision tower's parameters outside its layers' matrices: patch and position "
      "embeddings, class token, norms, biases, gates (a config's reader counts them exactly)"},
     SET_U64(s.model.vision_other), TRAINSIZE_ID_VISION_OTHER_PARAMS, TS_PLAN_KEEPS},
    {{"projector-params", TRAINSIZE_PARAM_INT, NULL, 0, 1e12, "0", "parameters",
      "the projector from the vision tower to the language model (LLaVA-1.5's two-layer MLP: "
      "20,979,712), trained with the model"},
     SET_U64(s.model.projector), TRAINSIZE_ID_PROJECTOR_PARAMS, TS_PLAN_KEEPS},
    {{"image-tokens", TRAINSIZE_PARAM_INT, NULL, 0, LIM_SEQ, "0", "tokens",
      "tokens each image takes of seq (LLaVA-1.5: 576, Gemma 3: 256); 0: images reach the model "
      "through cross-attention layers (Llama 3.2 Vision)"},
     SET_U64(s.model.image_tokens), TRAINSIZE_ID_IMAGE_TOKENS, TS_PLAN_KEEPS},
    {{"cross-attention-layers", TRAINSIZE_PARAM_INT, NULL, 0, LIM_LAYERS, "0", "layers",
      "of the layers, those attending to the image's features (Llama 3.2 Vision: 8 of 40)"},
     SET_U64(s.model.cross_attention_layers), TRAINSIZE_ID_CROSS_ATTENTION_LAYERS, TS_PLAN_KEEPS},
    {{"images", TRAINSIZE_PARAM_INT, NULL, 0, 1e4, "1", "images",
      "images per sample of a multimodal model (tiles for tiled models); 0: text only (the "
      "tower still loaded)"}, SET_U64(s.images), TRAINSIZE_ID_IMAGES, TS_PLAN_KEEPS},
    {{"freeze-vision", TRAINSIZE_PARAM_BOOL, NULL, 0, 1, "true", "",
      "the vision tower stays frozen, the projector and language model train (LLaVA-1.5's "
      "fine-tuning, LLaMA-Factory's freeze_vision_tower); false: the tower trains too"},
     SET_BOOL(s.freeze_vision), TRAINSIZE_ID_FREEZE_VISION, TS_PLAN_KEEPS},
    /* A convolutional image classifier (cnn.c): torchvision's ResNets. */
    {{"resnet-depth", TRAINSIZE_PARAM_INT, NULL, 0, 1000, "0", "layers",
      "a ResNet of this depth as torchvision builds it (18, 34: basic blocks; 50, 101, 152: "
      "bottlenecks); 0: a transformer. A sample is one image of image-size, channels (0: 3) and "
      "classes (0: 1000); seq does not apply"},
     SET_U64(s.model.resnet_depth), TRAINSIZE_ID_RESNET_DEPTH, TS_PLAN_KEEPS},
    {{"resnet-width", TRAINSIZE_PARAM_INT, NULL, 0, 1e4, "0", "channels",
      "a ResNet bottleneck's width per group (Wide ResNet-50-2: 128); 0: 64, torchvision's"},
     SET_U64(s.model.resnet_width), TRAINSIZE_ID_RESNET_WIDTH, TS_PLAN_KEEPS},
    {{"image-size", TRAINSIZE_PARAM_INT, NULL, 0, 1e5, "0", "pixels",
      "a ResNet's training images, pixels a side, at least 32; 0: 224 (ImageNet's)"},
     SET_U64(s.model.image_size), TRAINSIZE_ID_IMAGE_SIZE, TS_PLAN_KEEPS},
    {{"memory-format", TRAINSIZE_PARAM_CHOICE, "auto|nchw|nhwc", 0, 0, "auto", "",
      "a ResNet's activation layout: nchw (PyTorch's default) or nhwc (channels_last), which "
      "cuDNN's tensor-core convolutions take without converting: under 16-bit precisions nchw "
      "adds 1.22 times the element-wise traffic (the conversions; fitted to Lambda's NCHW and "
      "timm's channels-last A100 runs, docs/methodology.md); auto = nhwc under "
      "16-bit precisions (NVIDIA's and timm's mixed-precision recipes run channels-last), nchw "
      "under fp32 and tf32"},
     SET_CHOICE(s.memory_format), TRAINSIZE_ID_MEMORY_FORMAT, TS_PLAN_KEEPS},
    {{"conv-share", TRAINSIZE_PARAM_FLOAT, NULL, 0, 4, "0", "fraction",
      "a ResNet's convolutions' share of the part's GEMM ceiling (MAMF), forward, data and "
      "weight gradients, where the element-wise work between them runs at memory bandwidth; "
      "0 = by architecture and math, fitted to Lambda's ResNet-50 training runs "
      "(docs/methodology.md, Convolutional networks): 16-bit Volta 1.0, A100 0.65, the GA10x "
      "Ampere parts 1.24, Ada 1.25, Hopper 0.63, Blackwell 0.07; TF32 A100 0.338, GA10x 0.43, "
      "Ada 0.66, Hopper 0.25, Blackwell 0.122; FP32 1.12 (cuDNN's Winograd 3x3 kernels, "
      "Volta)"},
     SET_DOUBLE(s.conv_share), TRAINSIZE_ID_CONV_SHARE, TS_PLAN_KEEPS},
    {{"rollout-gpus", TRAINSIZE_PARAM_INT, NULL, 0, LIM_GPUS, "0", "GPUs",
      "rollout separate: GPUs of the job's type the engines take beside the gpus that train, a "
      "multiple of rollout-tp (OpenRLHF's vllm_num_engines x vllm_tensor_parallel_size)"},
     SET_U64(s.rollout_gpus), TRAINSIZE_ID_ROLLOUT_GPUS, TS_PLAN_KEEPS},
    /* The efficiency model's site-dependent shares, which a calibration fits (calibration.c). */
    {{"gemm-share", TRAINSIZE_PARAM_FLOAT, NULL, 0.05, 1.5, "0.77", "fraction",
      "the share of the part's measured GEMM ceiling (MAMF) a training step's matmuls keep, "
      "their shapes, epilogues and tails: 0.77 fits the published runs of "
      "tests/accuracy/fixtures (docs/accuracy.md, left out one source at a time); a site's "
      "calibration fits its own"},
     SET_DOUBLE(s.gemm_share), TRAINSIZE_ID_GEMM_SHARE, TS_PLAN_KEEPS},
    {{"fp8-gemm-share", TRAINSIZE_PARAM_FLOAT, NULL, 0, 1.5, "0", "fraction",
      "under fp8-mixed, the share of the fp8 GEMM ceiling (its MAMF x gemm-share) the scaled fp8 "
      "matmuls keep: their scaling, the casts' launches and shorter tiles; 0 = by recipe, "
      "fitted to published fp8 and bf16 runs of the same jobs (docs/accuracy.md)"},
     SET_DOUBLE(s.fp8_gemm_share), TRAINSIZE_ID_FP8_GEMM_SHARE, TS_PLAN_KEEPS},
    {{"scale-up-efficiency", TRAINSIZE_PARAM_FLOAT, NULL, 0.05, 2, "1", "fraction",
      "a factor on the rate collectives reach inside the scale-up fabric (NVLink, PCIe), "
      "whose catalogue share is nccl-tests' busbw: 1 keeps it; a site's calibration fits its own"},
     SET_DOUBLE(s.scale_up_efficiency), TRAINSIZE_ID_SCALE_UP_EFFICIENCY, TS_PLAN_KEEPS},
    {{"network-efficiency", TRAINSIZE_PARAM_FLOAT, NULL, 0.05, 2, "1", "fraction",
      "a factor on the rate collectives reach over the network between servers (InfiniBand, "
      "Ethernet), whose catalogue share is nccl-tests' busbw: 1 keeps it; a site's calibration "
      "fits its own"},
     SET_DOUBLE(s.network_efficiency), TRAINSIZE_ID_NETWORK_EFFICIENCY, TS_PLAN_KEEPS},
};

#define PARAM_COUNT (sizeof PARAMS / sizeof PARAMS[0])
/* One row per typed id: a parameter added to the table without its id, or an id without
 * its row, does not build (the ids themselves are checked row by row, test_typed_params.c). */
_Static_assert(PARAM_COUNT == TRAINSIZE_ID_COUNT, "PARAMS has one row per TRAINSIZE_ID_*");

size_t trainsize_param_count(void) { return PARAM_COUNT; }

const trainsize_param_info *trainsize_param_at(size_t index)
{
    return index < PARAM_COUNT ? &PARAMS[index].info : NULL;
}

const ts_param_def *ts_param_find(const char *name)
{
    size_t i;
    if (!name) return NULL;
    /* the first letter before the whole name: most rows differ there */
    for (i = 0; i < PARAM_COUNT; i++)
        if (PARAMS[i].info.name[0] == name[0] && strcmp(PARAMS[i].info.name, name) == 0) return &PARAMS[i];
    return NULL;
}

/* Ids are fixed while the table keeps its topical order: an id is usually its row, else
 * the table is searched. */
const ts_param_def *ts_param_def_by_id(int id)
{
    size_t i;
    if (id < 0 || id >= TRAINSIZE_ID_COUNT) return NULL;
    if ((size_t)id < PARAM_COUNT && (int)PARAMS[id].id == id) return &PARAMS[id];
    for (i = 0; i < PARAM_COUNT; i++)
        if ((int)PARAMS[i].id == id) return &PARAMS[i];
    return NULL;
}

int trainsize_param_find(const char *name)
{
    const ts_param_def *def = ts_param_find(name);
    return def ? (int)def->id : -1;
}

const trainsize_param_info *trainsize_param_by_id(int id)
{
    const ts_param_def *def = ts_param_def_by_id(id);
    return def ? &def->info : NULL;
}

/* The planner's policy, from the table: what it chooses itself, and so refuses from the
 * caller. */
const char *trainsize_param_plan_refusal(int id)
{
    const ts_param_def *def = ts_param_def_by_id(id);
    switch (def ? def->plan : TS_PLAN_KEEPS) {
    case TS_PLAN_CHOOSES_LAYOUT: return "the planner chooses the GPU count and the layout";
    case TS_PLAN_CHOOSES_GPU:
        return "the planner searches catalogue GPUs (plan-gpus) or a GPU of your own description";
    default: return NULL;
    }
}

size_t ts_param_def_count(void) { return PARAM_COUNT; }
const ts_param_def *ts_param_def_at(size_t index) { return index < PARAM_COUNT ? &PARAMS[index] : NULL; }
