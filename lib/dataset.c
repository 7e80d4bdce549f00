/* The dataset as stored: its bytes, the run's length when it is given in epochs, and the
 * bytes a trained token costs to read. Token ids are 4 bytes (uint32; Megatron's indexed
 * datasets use uint16 below 65,536 vocabulary entries and int32 above); a sample of
 * sample-bytes (an encoded image, a clip) is read once per sample of seq tokens. */
#include <math.h>

#include "error.h"
#include "stages.h"

#define TS_DATASET_BYTES_PER_TOKEN 4.0
#define TS_RUN_TOKENS_MAX 1e18 /* the tokens option's own bound */

/* Samples (or token ids) the dataset holds, as tokens of training. */
static double dataset_tokens(const ts_settings *cfg)
{
    double bytes = (double)cfg->dataset_bytes;
    return cfg->sample_bytes ? floor(bytes / (double)cfg->sample_bytes) * (double)cfg->seq
                             : floor(bytes / TS_DATASET_BYTES_PER_TOKEN);
}

int ts_dataset_run_tokens(const ts_settings *cfg, uint64_t *tokens, trainsize_error *err)
{
    double run;
    if (cfg->epochs <= 0.0) return ts_ok(err);
    if (cfg->tokens)
        return ts_fail(err, TRAINSIZE_E_INVALID, "epochs",
                       "epochs: set the run's length once, as tokens or as epochs of dataset-bytes");
    if (!cfg->dataset_bytes)
        return ts_fail(err, TRAINSIZE_E_INVALID, "epochs",
                       "epochs: needs dataset-bytes (the dataset as stored) to count the run's tokens");
    run = ceil(cfg->epochs * dataset_tokens(cfg));
    if (run < 1.0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "dataset-bytes",
                       "dataset-bytes: %llu bytes hold no whole sample of sample-bytes %llu",
                       (unsigned long long)cfg->dataset_bytes, (unsigned long long)cfg->sample_bytes);
    if (run > TS_RUN_TOKENS_MAX)
        return ts_fail(err, TRAINSIZE_E_INVALID, "epochs",
                       "epochs: %.3g tokens in all is beyond the 1e18 a run may train", run);
    *tokens = (uint64_t)run;
    return ts_ok(err);
}

double ts_dataset_bytes(const ts_settings *cfg, double run_tokens)
{
    if (cfg->dataset_bytes) return (double)cfg->dataset_bytes;
    return cfg->sample_bytes ? ceil(run_tokens / (double)cfg->seq) * (double)cfg->sample_bytes
                             : run_tokens * TS_DATASET_BYTES_PER_TOKEN;
}

double ts_dataset_read_per_token(const ts_settings *cfg)
{
    return cfg->sample_bytes ? (double)cfg->sample_bytes / (double)cfg->seq : TS_DATASET_BYTES_PER_TOKEN;
}
