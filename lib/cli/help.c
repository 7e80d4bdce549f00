/* Usage texts. The estimate's parameters come from the library's catalogue
 * (trainsize_param_count/_at), with their units, defaults and docs, so the help cannot
 * drift from what the library accepts. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define OPT_INDENT 2  /* options start here */
#define DOC_COL 26    /* their descriptions here */

/* One option line: "  --NAME META" then its description at DOC_COL (wrapped). */
static void option(ts_out *o, const char *name, const char *meta, const char *doc)
{
    ts_out_repeat(o, ' ', OPT_INDENT);
    ts_out_printf(o, "--%s", name);
    if (meta && meta[0])
        ts_out_printf(o, " %s", meta);
    if (ts_out_column(o) + 2 > DOC_COL) {
        ts_out_putc(o, '\n');
        ts_out_repeat(o, ' ', DOC_COL);
    } else {
        ts_out_pad_to(o, DOC_COL, 2);
    }
    ts_out_wrapped(o, doc, DOC_COL);
    ts_out_putc(o, '\n');
}

const char *ts_cli_param_metavar(const trainsize_param_info *p)
{
    switch (p->kind) {
    case TRAINSIZE_PARAM_INT: return "N";
    case TRAINSIZE_PARAM_FLOAT: return "X";
    case TRAINSIZE_PARAM_BOOL: return "";
    case TRAINSIZE_PARAM_CHOICE: return "CHOICE";
    case TRAINSIZE_PARAM_NAME: return "NAME";
    case TRAINSIZE_PARAM_LIST: return "LIST";
    default: return "VALUE";
    }
}

/* "a|b|c" -> "a, b, c" */
static void choices_text(char *buf, size_t cap, const char *choices)
{
    size_t j = 0;
    const char *s;

    for (s = choices; *s && j + 3 < cap; s++) {
        if (*s == '|') {
            buf[j++] = ',';
            buf[j++] = ' ';
        } else {
            buf[j++] = *s;
        }
    }
    buf[j] = '\0';
}

/* A range limit: plain below ten million, with an exponent above. */
static void limit_text(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, (v < 1e7 && v > -1e7) ? "%.15g" : "%.6g", v);
}

/* "DOC (DETAILS)": the library's one-line doc, then what it takes and its default. A row
 * whose default is not one value (default_text "") says what it is at the end of its doc,
 * after "; default: "; that part goes in the default's place. */
void ts_cli_param_doc(const trainsize_param_info *p, char *text, size_t cap)
{
    static const char said[] = "; default: ";
    char list[768], lo[32], hi[32];
    const char *unit = p->unit ? p->unit : "";
    const char *doc = p->doc && p->doc[0] ? p->doc : p->name;
    const char *stated = strstr(doc, said);
    size_t n = 0;

#define ADD(...)                                                                          \
    do {                                                                                  \
        int k_ = snprintf(text + n, cap - n, __VA_ARGS__);                                \
        if (k_ > 0)                                                                       \
            n = (size_t)k_ < cap - n ? n + (size_t)k_ : cap - 1;                          \
    } while (0)

    if (stated && !(p->default_text && p->default_text[0]))
        ADD("%.*s (", (int)(stated - doc), doc);
    else
        ADD("%s (", doc);
    switch (p->kind) {
    case TRAINSIZE_PARAM_CHOICE:
    case TRAINSIZE_PARAM_LIST:
        choices_text(list, sizeof list, p->choices ? p->choices : "");
        ADD(p->kind == TRAINSIZE_PARAM_LIST ? "comma-separated, from %s" : "%s", list);
        break;
    case TRAINSIZE_PARAM_INT:
    case TRAINSIZE_PARAM_FLOAT:
        limit_text(lo, sizeof lo, p->min);
        limit_text(hi, sizeof hi, p->max);
        ADD("%s to %s%s%s", lo, hi, unit[0] ? " " : "", unit);
        unit = "";
        break;
    case TRAINSIZE_PARAM_BOOL:
        ADD("true or false; --%s alone means true", p->name);
        break;
    case TRAINSIZE_PARAM_NAME:
    default:
        ADD("a name");
        break;
    }
    if (unit[0])
        ADD("; unit: %s", unit);
    if (p->default_text && p->default_text[0])
        ADD("; default %s)", p->default_text);
    else if (stated)
        ADD("%s%s)", said, stated + strlen(said));
    else /* the model's shape: a preset or a config.json sets it */
        ADD("; default: the model's)");
#undef ADD
}

static void param_option(ts_out *o, const trainsize_param_info *p)
{
    char text[2048];
    ts_cli_param_doc(p, text, sizeof text);
    option(o, p->name, ts_cli_param_metavar(p), text);
}

static void main_help(ts_out *o)
{
    size_t i;

    ts_out_puts(o,
                 "Usage: trainsize [COMMAND] [OPTIONS]\n"
                 "\n"
                 "What it takes to train a transformer model: GPU memory per GPU, the servers\n"
                 "(host RAM, CPU cores, storage, interconnect, power) and the time.\n"
                 "\n"
                 "Commands:\n"
                 "  estimate [OPTIONS]      size one training job (the command when the first\n"
                 "                          argument is an option)\n"
                 "  plan [OPTIONS]          search GPU types, counts and parallel layouts and\n"
                 "                          rank the configurations that fit\n"
                 "  models                  list the built-in model presets\n"
                 "  gpus                    list the built-in GPU catalog\n"
                 "  calibrate RUNS.json     fit a site calibration to your measured runs\n"
                 "  capacity [OPTIONS]      the largest model each way of training fits on a\n"
                 "                          server (pretraining to GRPO)\n"
                 "  help [COMMAND]          show the help of a command\n"
                 "\n"
                 "Options:\n"
                 "  --help                  show this help (trainsize COMMAND --help: a command's)\n"
                 "  --version               print the version\n"
                 "\n"
                 "With no arguments, trainsize sizes a built-in example job, the same as\n"
                 "  trainsize");
    for (i = 0; i < ts_cli_example_job_count; i++) {
        char item[160];
        int len = snprintf(item, sizeof item, " --%s %s", ts_cli_example_job[i].name,
                           ts_cli_example_job[i].value);
        if (len > 0 && ts_out_column(o) + (size_t)len > TS_CLI_COLUMNS)
            ts_out_puts(o, "\n   "); /* an option and its value stay together */
        ts_out_puts(o, item);
    }
    ts_out_puts(o,
                 "\n"
                 "\n"
                 "Examples:\n"
                 "  trainsize --model llama-2-13b --gpu h100-80gb --gpus 16 --tp 2 --zero 1\n"
                 "  trainsize estimate --hf-config config.json --gpu a100-80gb --gpus 8 --json\n"
                 "  trainsize estimate --help      (every option, with units and defaults)\n"
                 "\n"
                 "Exit status: 0 when an estimate was produced (whether or not the job fits),\n"
                 "2 for invalid input (one line on standard error, nothing on standard output),\n"
                 "1 for any other failure.\n");
}

/* The options that read a file, beside the job's parameters: --help and the manual page
 * list them from here. */
const ts_cli_file_option ts_cli_file_options[] = {
    /* The model types of lib/hf_config.c's table (tests/ts_cli_report.sh checks them against
     * the reader's own list). */
    {"hf-config", "FILE",
     "a Hugging Face config.json, of model type gpt2, llama, llama4 (or llama4_text), "
     "mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3 (or "
     "gemma3_text), phi3, phimoe, granite, deepseek_v2, deepseek_v3, gpt_oss, olmo2, "
     "starcoder2, falcon, and the encoders bert, roberta (as BertModel, RobertaModel) and vit "
     "(the classifier its id2label names, else ViTModel); the multimodal llava, qwen2_5_vl, "
     "mllama, llama4 and gemma3 by their text_config and vision_config (the vision tower and "
     "projector counted). The model is named "
     "by its _name_or_path, else by its folder (NAME/config.json) or file (NAME.json)"},
    {"gpu-file", "FILE",
     "a JSON device description: name, memory_bytes or memory_gib, flops_bf16 (or "
     "flops_fp16 alone), tdp_watts (optional for a TPU) required; memory_bandwidth, "
     "flops_fp32, flops_fp16, flops_fp8, flops_fp4, ecc, data_center, "
     "scale_up_bandwidth, scale_up_domain, pcie_generation, per_host, host_ram_bytes, "
     "host_cores, host_network (a scale-out link), host_nics, cloud_usd_per_hour, "
     "purchase_usd, architecture, vendor, kind (\"gpu\" or \"tpu\"), bf16, fp16 (true "
     "when absent, false for a TPU), flash_attention (booleans, true when absent) optional"},
    {"calibration", "FILE",
     "a site calibration that `trainsize calibrate` wrote from the site's measured runs: "
     "the efficiency model's shares (gemm-share, scale-up-efficiency, network-efficiency, "
     "step-overhead, allocator-slack, sharded-slack) fitted to them; options after it win. "
     "Refused from another library version; a job on other GPUs than its runs gets the "
     "calibration-other-gpu warning"},
    {"hf-model", "ORG/NAME",
     "a model in the Hugging Face cache ($HF_HUB_CACHE, else $HF_HOME/hub, else "
     "~/.cache/huggingface/hub), as huggingface_hub downloaded it: its snapshot's config.json "
     "read as --hf-config, its parameters counted exactly from the safetensors headers "
     "(model.safetensors, or the shards model.safetensors.index.json lists); where the "
     "headers hold more than the config describes, they win (extra-params) and the report "
     "says by how much and which tensors"},
    {"revision", "REV",
     "with --hf-model: the branch, tag or commit id of the snapshot (default main)"},
    {"safetensors", "PATH",
     "a checkpoint outside the cache: a folder (its config.json is the model unless --model "
     "or --hf-config gives one), a .safetensors file or a model.safetensors.index.json; "
     "counted and compared as for --hf-model"},
};
const size_t ts_cli_file_option_count = sizeof ts_cli_file_options / sizeof ts_cli_file_options[0];

static void estimate_help(ts_out *o)
{
    size_t i, n = trainsize_param_count();
    const trainsize_param_info *model = ts_cli_find_param("model", 5);

    ts_out_puts(o,
                 "Usage: trainsize estimate [OPTIONS]\n"
                 "       trainsize [OPTIONS]\n"
                 "\n"
                 "Sizes one training job: memory per GPU (for the most loaded GPU), the servers\n"
                 "it needs and the time it takes. Every option is --NAME VALUE or --NAME=VALUE.\n"
                 "Without any job option, the built-in example job (see trainsize --help).\n"
                 "Sizes in bytes take a unit: kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB,\n"
                 "GiB, TiB, PiB (powers of 1024), as in --gpu-memory 24GiB or --host-ram 2TiB;\n"
                 "rates take the same with /s (300GB/s); --tokens takes K, M, B (billion) and T\n"
                 "(trillion), as in 1.5T or 300B. Other numbers take none.\n"
                 "\n"
                 "Model (one of; the shape options below override single fields of it):\n");
    option(o, "model", "NAME",
           model && model->doc && model->doc[0]
               ? model->doc
               : "a built-in model preset (see `trainsize models`)");
    option(o, ts_cli_file_options[0].name, ts_cli_file_options[0].metavar, ts_cli_file_options[0].doc);
    option(o, ts_cli_file_options[3].name, ts_cli_file_options[3].metavar, ts_cli_file_options[3].doc);
    option(o, ts_cli_file_options[4].name, ts_cli_file_options[4].metavar, ts_cli_file_options[4].doc);
    option(o, ts_cli_file_options[5].name, ts_cli_file_options[5].metavar, ts_cli_file_options[5].doc);
    ts_out_puts(o, "\nGPU of your own (instead of --gpu):\n");
    option(o, ts_cli_file_options[1].name, ts_cli_file_options[1].metavar, ts_cli_file_options[1].doc);
    ts_out_puts(o, "\nYour site's own figures:\n");
    option(o, ts_cli_file_options[2].name, ts_cli_file_options[2].metavar, ts_cli_file_options[2].doc);
    ts_out_puts(o, "\nOutput:\n");
    option(o, "json", "", "print one JSON object on standard output instead of the report");
    option(o, "help", "", "show this help");
    ts_out_puts(o, "\nJob parameters:\n");
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        if (p && p->name && strcmp(p->name, "model") != 0)
            param_option(o, p);
    }
}

/* "Refused: --gpus, --tp, ...": the library's planner policy, so the list cannot drift. */
static void refused_options(ts_out *o)
{
    char text[1024] = "Refused (the planner sets the GPU and the layout itself):";
    size_t i, len = strlen(text), n = trainsize_param_count();
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        if (p && trainsize_param_plan_refusal(trainsize_param_find(p->name)) &&
            len + strlen(p->name) + 4 < sizeof text)
            len += (size_t)snprintf(text + len, sizeof text - len, " --%s,", p->name);
    }
    if (text[len - 1] == ',') text[len - 1] = '.';
    ts_out_wrapped(o, text, 0);
    ts_out_putc(o, '\n');
}

static void plan_help(ts_out *o)
{
    ts_out_puts(o,
                 "Usage: trainsize plan --tokens N [OPTIONS]\n"
                 "       trainsize plan --plan-gpu-count N [OPTIONS]   (what fits on N GPUs)\n"
                 "\n"
                 "Searches GPU types, GPU counts (up to 16,384 servers, within --max-gpus),\n"
                 "servers as each product is built (up to 8 GPUs; GB200/GB300 trays and TPU VMs\n"
                 "as sold, whole NVL72 racks) and parallel layouts (tp, cp for sequences of\n"
                 "8192 tokens or more, pp, pp-interleave: every count of virtual stages that\n"
                 "divides a stage's layers up to 16, ep, ZeRO stage, micro-batch,\n"
                 "recomputation) and ranks the configurations that fit in GPU memory and meet\n"
                 "the constraints, cheapest (or fastest) first; within 1 % a candidate without\n"
                 "a warning comes first, then fewer GPUs. Every candidate is a full estimate:\n"
                 "`trainsize estimate` with its layout gives the same figures (the report ends\n"
                 "with that command).\n"
                 "\n"
                 "Without --tokens, --plan-gpu-count N lists the layouts that fit on exactly N\n"
                 "GPUs with the largest batch each takes: the largest micro-batch per GPU that\n"
                 "fits in memory, and the global batch of one step, micro-batch x data-parallel\n"
                 "x pp micro-batches in flight (one without a pipeline); no time or cost.\n"
                 "\n"
                 "Options: the model and job options of estimate (--model, --hf-config, the\n"
                 "shape options, --seq, --precision, --optimizer, --lora-rank, prices, ...; see\n"
                 "trainsize estimate --help), without a layout.\n");
    refused_options(o);
    ts_out_puts(o,
                 "  --tokens N              training tokens (1.5T, 300B); required but with\n"
                 "                          --plan-gpu-count\n"
                 "  --gpu NAME[,NAME...]    choose from these catalogue GPUs only (default: all)\n"
                 "  --gpu-file FILE         plan for a GPU of your own description instead\n"
                 "  --calibration FILE      your site's calibration (trainsize calibrate)\n"
                 "  --max-gpus N            use at most N GPUs (default 4096; up to 131072 reaches\n"
                 "                          16,384 servers of 8)\n"
                 "  --plan-gpu-count N      use exactly N GPUs (\"I have 8 H100s\")\n"
                 "  --gpus-per-node N       servers of N GPUs (default: 1, 2, 4 or 8)\n"
                 "  --deadline-days D       finish within D days; needs --tokens\n"
                 "  --budget USD            cost at most USD (cloud GPU-hours); needs --tokens\n"
                 "  --objective cost|time|owned\n"
                 "                          rank by cloud cost, then time (default); by time, then\n"
                 "                          cost; or by the cost of owning the GPUs, then time\n"
                 "  --plan-ranking best|pareto\n"
                 "                          the best per layout (default), or the Pareto front of\n"
                 "                          cost against time, fastest first\n"
                 "  --gpu-prices NAME=HOURLY[:PURCHASE],...\n"
                 "                          your prices per GPU (US dollars per hour, to buy)\n"
                 "  --global-batch N        samples per optimizer step, kept for every candidate\n"
                 "                          (default: about 4M tokens; the header says which)\n"
                 "  --top N                 show the best N configurations (1 to 100, default 10)\n"
                 "  --exhaustive            estimate every configuration, without the floors the\n"
                 "                          search prunes by (the same answer, slower: a check)\n"
                 "  --json                  print one JSON object: {\"evaluated\": N,\n"
                 "                          \"candidates\": [{\"gpu\", \"gpus\", \"gpus_per_node\",\n"
                 "                          \"tp\", \"pp\", \"cp\" (when above 1), \"zero\",\n"
                 "                          \"micro_batch\", \"recompute\",\n"
                 "                          \"peak_total\", \"seconds\", \"cost\", \"warnings\", ...}]}\n"
                 "\n"
                 "Example:\n"
                 "  trainsize plan --model llama-2-70b --tokens 2e12 --gpu a100-80gb,h100-80gb\n"
                 "\n"
                 "Exit status: 0 when the search ran (also when nothing fits: the list is then\n"
                 "empty), 2 for invalid input (one line on standard error, nothing on standard\n"
                 "output), 1 for any other failure.\n");
}

static void models_help(ts_out *o)
{
    ts_out_puts(o,
                 "Usage: trainsize models [--json]\n"
                 "\n"
                 "Lists the built-in model presets (names for --model), with their parameter\n"
                 "counts and the configs they mirror. --json prints a JSON array of objects\n"
                 "(name, family, parameters, active_parameters, source).\n");
}

static void gpus_help(ts_out *o)
{
    ts_out_puts(o,
                 "Usage: trainsize gpus [--json]\n"
                 "\n"
                 "Lists the built-in catalog of GPUs and TPUs by vendor (names for --gpu; case,\n"
                 "-, _ and spaces are ignored): memory, bandwidth, dense BF16, FP16, FP8 and FP4\n"
                 "peaks in TFLOP/s, board power, the scale-up link and how many devices it joins,\n"
                 "and prices with the date they were seen. --json prints a JSON array of objects\n"
                 "with every catalogue figure in bytes, bytes per second, FLOP/s and watts, the\n"
                 "datatypes, the host as sold (TPU VMs, Grace trays) and each figure's source.\n");
}

static void calibrate_help(ts_out *o)
{
    ts_out_puts(o,
                 "Usage: trainsize calibrate RUNS.json [--date YYYY-MM-DD] > site.json\n"
                 "\n"
                 "Fits the efficiency model's site-dependent shares (gemm-share, scale-up-efficiency,\n"
                 "network-efficiency, step-overhead; allocator-slack and sharded-slack where\n"
                 "max_memory_reserved was measured) to runs measured on your machines, and writes\n"
                 "the calibration as JSON on standard output, for --calibration FILE (estimate,\n"
                 "plan, the bindings, the Slurm plugin's calibration=). How well it fits goes to\n"
                 "standard error: each run's step time measured, estimated before and after, and\n"
                 "predicted from the fit of the other runs (leave-one-out), and the median errors.\n"
                 "A share no run's step depends on (the network, without a multi-server run) is\n"
                 "left at its default and out of the file.\n"
                 "\n"
                 "RUNS.json: {\"runs\": [{\"name\": \"...\", \"job\": {\"model\": \"llama-3-8b\",\n"
                 "  \"gpu\": \"h100-80gb\", \"gpus\": 16, \"zero\": 3, ...}, \"measured\": {\"step_seconds\": 4.2,\n"
                 "  \"peak_reserved_bytes\": 61e9}}, ...]}: the job is the command's options (not the\n"
                 "shares it fits, nor hfu); measured takes step_seconds or tokens_per_s_per_gpu,\n"
                 "and optionally peak_allocated_bytes (torch.cuda.max_memory_allocated) or\n"
                 "peak_reserved_bytes (max_memory_reserved). A run the estimate says does not fit\n"
                 "its GPU is refused: its options are not the run's. At most 256 runs.\n"
                 "\n"
                 "  --date YYYY-MM-DD       the date written into the calibration (default: today, UTC)\n"
                 "\n"
                 "Exit status: 0 when the calibration was written, 2 for invalid input (one line on\n"
                 "standard error naming the run and its key), 1 for any other failure.\n");
}

static void capacity_help(ts_out *o)
{
    ts_out_puts(o,
                 "Usage: trainsize capacity [--gpu NAME] [--gpus N | --servers N] [OPTIONS] [--json]\n"
                 "\n"
                 "What these GPUs can train: for pretraining, full fine-tuning, LoRA (rank 16), QLoRA\n"
                 "(rank 16 on an nf4 base), DPO and GRPO (every weight trained, else with LoRA),\n"
                 "the largest decoder of the model catalogue (dense and MoE) whose whole peak per\n"
                 "GPU, the allocator's reserve included, fits the GPU and whose host RAM fits the\n"
                 "server's, with the settings that make it fit and the tokens per second it would\n"
                 "train. Models are tried from the largest down, each with ZeRO-3 over the GPUs,\n"
                 "then full recomputation, then tensor parallelism 2, 4 and 8 within a server, then\n"
                 "(past pretraining) the optimizer state and then the weights offloaded to the CPU.\n"
                 "Each line is followed by the `trainsize estimate` options that give that job in\n"
                 "full.\n"
                 "\n"
                 "  --gpu NAME              a catalogue GPU (default h100-80gb)\n"
                 "  --gpus N                GPUs in all (default 8)\n"
                 "  --servers N             servers instead: N x the product's GPUs per server (or\n"
                 "                          --gpus-per-node)\n"
                 "  --gpus-per-node N       GPUs per server (default: the product's own)\n"
                 "  --seq N                 tokens per sample (default 2048)\n"
                 "  --micro-batch N         samples per GPU per pass (default 1)\n"
                 "  --host-ram BYTES        the server's host RAM (default: the product's, else\n"
                 "                          host-ram-factor x its GPU memory in a size sold)\n"
                 "  --json                  one JSON object: gpu, gpus, seq, micro_batch and methods,\n"
                 "                          one per way: method, model (null when none fits),\n"
                 "                          parameters, tokens_per_s, peak_total, args\n");
}

void ts_cli_help_text(ts_out *out, enum ts_cli_help_topic topic)
{
    switch (topic) {
    case TS_CLI_HELP_CALIBRATE: calibrate_help(out); break;
    case TS_CLI_HELP_ESTIMATE: estimate_help(out); break;
    case TS_CLI_HELP_PLAN: plan_help(out); break;
    case TS_CLI_HELP_MODELS: models_help(out); break;
    case TS_CLI_HELP_GPUS: gpus_help(out); break;
    case TS_CLI_HELP_CAPACITY: capacity_help(out); break;
    case TS_CLI_HELP_MAIN:
    default: main_help(out); break;
    }
}

int ts_cli_print_help(const ts_cli *cx, enum ts_cli_help_topic topic)
{
    ts_out out;

    ts_out_init(&out);
    ts_cli_help_text(&out, topic);
    return ts_cli_flush(cx, &out);
}
