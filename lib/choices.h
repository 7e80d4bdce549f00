/* Choice lists written once (internal): each choice parameter's items, in the order of its
 * "a|b|c" text, with the enumerator each stands for. One list makes the enum (for the
 * library's own), the parameter's choice text (params.c) and the names results and tables
 * print, so adding a choice is one edit here. Base code: it needs only the public header. */
#ifndef TS_CHOICES_H
#define TS_CHOICES_H

#include "trainsize.h"

/* What a list makes: TS_ENUM_ITEM the enum, TS_NAME_ITEM an array of the names,
 * TS_CHOICE_ITEM the parameter's "a|b|c" text (params.c takes it from [1], past its leading
 * '|'). */
#define TS_ENUM_ITEM(id, name) id,
#define TS_NAME_ITEM(id, name) name,
#define TS_CHOICE_ITEM(id, name) "|" name

/* A list of the public header's enumerators is checked against their values when this
 * header compiles: TS_POSITION_ITEM numbers the items in list order, TS_SAME_POSITION
 * asserts each enumerator's value is its position (the choice's index). */
#define TS_POSITION_ITEM(id, name) TS_POSITION_OF_##id,
#define TS_SAME_POSITION(id, name) _Static_assert(TS_POSITION_OF_##id == (int)(id), "choice order: " name);

/* The training method ("method") and, for DPO, where the reference's log-probabilities
 * come from ("reference"). */
#define TS_METHOD_LIST(X)                                                                                 \
    X(TS_METHOD_SFT, "sft") X(TS_METHOD_DPO, "dpo") X(TS_METHOD_GRPO, "grpo") X(TS_METHOD_PPO, "ppo")    \
    X(TS_METHOD_DISTILL, "distill")
#define TS_REFERENCE_LIST(X)                                                                              \
    X(TS_REF_AUTO, "auto") X(TS_REF_MODEL, "model") X(TS_REF_ADAPTERS_OFF, "adapters-off")                \
    X(TS_REF_PRECOMPUTED, "precomputed") X(TS_REF_NONE, "none")
/* Training stacks ("stack"; framework.c). */
#define TS_STACK_LIST(X)                                                                                  \
    X(TS_STACK_AUTO, "auto") X(TS_STACK_MEGATRON_LM, "megatron-lm") X(TS_STACK_MEGATRON_CORE, "megatron-core") \
    X(TS_STACK_NANOTRON, "nanotron") X(TS_STACK_TORCHTITAN, "torchtitan") X(TS_STACK_FSDP, "fsdp")         \
    X(TS_STACK_HF, "hf") X(TS_STACK_DEEPSPEED, "deepspeed")
/* fp8-mixed's scaling recipes ("fp8-recipe"; conventions.c). */
#define TS_FP8_RECIPE_LIST(X)                                                                             \
    X(TS_FP8_AUTO, "auto") X(TS_FP8_DELAYED, "delayed") X(TS_FP8_CURRENT, "current")                      \
    X(TS_FP8_MXFP8, "mxfp8") X(TS_FP8_BLOCKWISE, "blockwise") X(TS_FP8_ROWWISE, "rowwise")
/* Pipeline schedules ("pp-schedule"; layout.c). */
#define TS_PP_SCHEDULE_LIST(X)                                                                            \
    X(TS_PP_AUTO, "auto") X(TS_PP_1F1B, "1f1b") X(TS_PP_INTERLEAVED, "interleaved")                       \
    X(TS_PP_ZB_H1, "zb-h1") X(TS_PP_ZB_H2, "zb-h2") X(TS_PP_DUALPIPE, "dualpipe")
/* The public header's: the byte conventions ("framework") and recomputation ("recompute"). */
#define TS_FRAMEWORK_LIST(X)                                                                              \
    X(TRAINSIZE_FRAMEWORK_MEGATRON, "megatron") X(TRAINSIZE_FRAMEWORK_DEEPSPEED, "deepspeed")             \
    X(TRAINSIZE_FRAMEWORK_PYTORCH, "pytorch") X(TRAINSIZE_FRAMEWORK_AUTO, "auto")
#define TS_RECOMPUTE_LIST(X)                                                                              \
    X(TRAINSIZE_RECOMPUTE_NONE, "none") X(TRAINSIZE_RECOMPUTE_SELECTIVE, "selective")                     \
    X(TRAINSIZE_RECOMPUTE_FULL, "full") X(TRAINSIZE_RECOMPUTE_PER_OP, "per-op")

typedef enum ts_method { TS_METHOD_LIST(TS_ENUM_ITEM) TS_METHOD_COUNT } ts_method;
typedef enum ts_reference { TS_REFERENCE_LIST(TS_ENUM_ITEM) TS_REFERENCE_COUNT } ts_reference;
/* AUTO is resolved from the job (framework.c; docs/methodology.md, "Which stack"). */
typedef enum ts_stack { TS_STACK_LIST(TS_ENUM_ITEM) TS_STACK_COUNT } ts_stack;
/* Transformer Engine's recipes; DeepSeek-V3's blocks. */
typedef enum ts_fp8_recipe { TS_FP8_RECIPE_LIST(TS_ENUM_ITEM) TS_FP8_RECIPE_COUNT } ts_fp8_recipe;
/* AUTO is interleaved 1F1B with pp-interleave > 1, else 1F1B. */
typedef enum ts_pp_schedule { TS_PP_SCHEDULE_LIST(TS_ENUM_ITEM) TS_PP_SCHEDULE_COUNT } ts_pp_schedule;

enum ts_framework_positions { TS_FRAMEWORK_LIST(TS_POSITION_ITEM) TS_FRAMEWORK_COUNT };
TS_FRAMEWORK_LIST(TS_SAME_POSITION)
enum ts_recompute_positions { TS_RECOMPUTE_LIST(TS_POSITION_ITEM) TS_RECOMPUTE_COUNT };
TS_RECOMPUTE_LIST(TS_SAME_POSITION)

#endif
