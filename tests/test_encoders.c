/* Encoders and image transformers: a ViT's forward FLOPs against torchvision's published
 * GFLOPS, the parts around the layers (no logits over a vocabulary, a pooler or classifier
 * once a sequence), a config.json's ViT against the preset, and the fit at the batch sizes
 * reference recipes train with. */
#include "ts_test.h"

/* torchvision's model documentation lists GFLOPS per 224 x 224 image (multiply-accumulates,
 * as fvcore counts them): vit_b_16 17.56, vit_b_32 4.41, vit_l_16 61.55, vit_l_32 15.38
 * (https://pytorch.org/vision/stable/models/generated/torchvision.models.vit_b_16.html and
 * its siblings). One image's forward here is a step's FLOPs over its three passes, halved. */
static void test_vit_forward_flops(void **state)
{
    static const struct { const char *model; double gflops; } rows[] = {
        {"vit-b-16", 17.56}, {"vit-b-32", 4.41}, {"vit-l-16", 61.55}, {"vit-l-32", 15.38}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double macs = ts_test_forward_gmacs(rows[i].model);
        print_message("%s: %.2f GMAC a forward (torchvision %.2f)\n", rows[i].model, macs, rows[i].gflops);
        if (fabs(macs - rows[i].gflops) > 0.01 * rows[i].gflops)
            fail_msg("%s: %.2f GMAC, published %.2f", rows[i].model, macs, rows[i].gflops);
    }
}

/* No output layer over a vocabulary: the loss keeps no logits a token, and the pooler or
 * classifier is the last stage's "output layer". */
static void test_heads(void **state)
{
    trainsize_result bert, vit, gpt;
    (void)state;
    ts_test_estimate(PAIRS("model", "bert-base", "micro-batch", "32", "seq", "128"), &bert);
    ts_test_estimate(PAIRS("model", "vit-b-16", "micro-batch", "32"), &vit);
    ts_test_estimate(PAIRS("model", "gpt2", "micro-batch", "32", "seq", "128"), &gpt);
    assert_true(bert.memory.activations_loss < 1048576); /* GPT-2's: 32 x 128 x 50257 logits */
    assert_true(gpt.memory.activations_loss > 100 * 1048576ull);
    assert_int_equal(vit.layout.micro_batch, 32);
    assert_int_equal(vit.time.tokens, 32 * 197); /* 196 patches and the class token an image */
    assert_int_equal(bert.model.embedding_parameters, 30522ull * 768 + 512 * 768 + 2 * 768 + 2 * 768);
}

/* Reference recipes fit: BERT-Base fine-tuning at batch 32 of 128 tokens (Devlin et al.
 * 2019, arXiv 1810.04805, section 4: the GLUE runs) on a 16 GB V100 in mixed precision;
 * DeiT-B (Touvron et al. 2021, arXiv 2012.12877: ViT-B/16 at batch 1024 on one 8-GPU node)
 * at 128 images a GPU on 32 GB V100s. */
static void test_recipes_fit(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "bert-base", "gpu", "v100-16gb", "micro-batch", "32", "seq", "128",
                           "precision", "fp16-mixed"), &r);
    assert_true(r.memory.fits);
    ts_test_estimate(PAIRS("model", "vit-b-16", "gpu", "v100-32gb", "gpus", "8", "micro-batch", "128",
                           "precision", "fp16-mixed"), &r);
    assert_true(r.memory.fits);
    assert_int_equal(r.layout.global_batch, 1024);
    /* an image transformer's sequence is its image's: the largest fit keeps it */
    ts_test_estimate(PAIRS("model", "vit-b-16", "gpu", "v100-32gb", "micro-batch", "128", "largest-fit", "true"), &r);
    assert_int_equal(r.memory.max_seq, 197);
    assert_true(r.memory.max_micro_batch >= 128);
}

static void test_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "vit-b-16", "classes", "0"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "classes");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "vit-b-16", "seq", "1024"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "seq"); /* beyond its 197 positions */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "bert-base", "method", "dpo"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "method"); /* no token log-probabilities without an LM head */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vit_forward_flops),
        cmocka_unit_test(test_heads),
        cmocka_unit_test(test_recipes_fit),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
