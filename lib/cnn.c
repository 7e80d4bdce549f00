/* Convolutional image classifiers: torchvision's ResNets (He et al. 2016, arXiv 1512.03385;
 * torchvision/models/resnet.py, the v1.5 layout with the stride on the 3 x 3 convolution).
 *
 * One walk over the network, image size in hand, gives what the estimate needs: the
 * parameters (convolutions without biases, BatchNorm's weight and bias; running statistics
 * are buffers), the forward multiply-accumulates (k^2 x in x out x output pixels a
 * convolution, in x classes the classifier), the tensors autograd keeps for backward, and
 * the element-wise traffic between the convolutions. What is kept follows the modules:
 * a convolution keeps its input, BatchNorm its input (the convolution's output), an in-place
 * ReLU its output (which the next convolution keeps as its input, the same tensor), max
 * pooling its int64 indices, the classifier its pooled input. */
#include <string.h>

#include "model.h"

static uint64_t half(uint64_t h) { return (h - 1) / 2 + 1; } /* a stride-2 kernel, padded */

/* Blocks per stage, by depth; bottleneck blocks from 50 on. */
static int stages_of(uint64_t depth, const uint64_t **blocks)
{
    static const uint64_t R18[4] = {2, 2, 2, 2}, R34[4] = {3, 4, 6, 3}, R101[4] = {3, 4, 23, 3},
                          R152[4] = {3, 8, 36, 3};
    switch (depth) {
    case 18: *blocks = R18; return 0;
    case 34: *blocks = R34; return 0;
    case 50: *blocks = R34; return 1;
    case 101: *blocks = R101; return 1;
    case 152: *blocks = R152; return 1;
    default: *blocks = NULL; return -1;
    }
}

int ts_cnn_depth_known(uint64_t depth)
{
    const uint64_t *b;
    return stages_of(depth, &b) >= 0;
}

uint64_t ts_cnn_blocks(uint64_t depth)
{
    const uint64_t *b;
    return stages_of(depth, &b) >= 0 ? b[0] + b[1] + b[2] + b[3] : 0;
}

/* A convolution of k x k from `in` to `out` channels, `px` output pixels, with its
 * BatchNorm: parameters, MACs, and the BatchNorm's kept input. */
static void conv_bn(ts_cnn *n, double k, double in, double out, double px)
{
    n->conv_params += k * k * in * out + 2.0 * out;
    n->convolutions += 1.0;
    n->macs += k * k * in * out * px;
    n->kept += out * px; /* BatchNorm's input */
    n->elementwise += 2.0 * out * px; /* BatchNorm reads its input, writes its output */
}

static void relu(ts_cnn *n, double elems)
{
    n->kept += elems; /* its output, which the next convolution also keeps */
    n->elementwise += 2.0 * elems;
}

int ts_cnn_walk(const ts_model *m, ts_cnn *n)
{
    const uint64_t *blocks;
    int bottleneck = stages_of(m->resnet_depth, &blocks);
    double in = 64.0, h, px, group = (double)(m->resnet_width ? m->resnet_width : 64);
    uint64_t image = m->image_size ? m->image_size : 224, side, s, b;
    double channels = (double)(m->channels ? m->channels : 3),
           classes = (double)(m->classes ? m->classes : 1000);
    memset(n, 0, sizeof *n);
    if (bottleneck < 0 || image < 32) return -1;
    /* the stem: 7 x 7 stride 2, BatchNorm, ReLU, 3 x 3 max pooling stride 2; the image is
     * kept by the first convolution */
    n->kept += channels * (double)image * (double)image;
    side = half(image);
    px = (double)side * (double)side;
    conv_bn(n, 7.0, channels, 64.0, px);
    relu(n, 64.0 * px);
    side = half(side);
    px = (double)side * (double)side;
    n->indices = 64.0 * px;
    n->kept += 64.0 * px; /* the pooled output: the first block's input */
    n->elementwise += 64.0 * px * 2.25; /* reads 9 windows of stride 2, writes one */
    for (s = 0; s < 4; s++) {
        double planes = 64.0 * (double)(1u << s);
        double width = bottleneck ? planes * group / 64.0 : planes;
        double out = bottleneck ? 4.0 * planes : planes;
        for (b = 0; b < blocks[s]; b++) {
            int stride2 = s > 0 && b == 0;
            double px_in = (double)side * (double)side, block = 0.0, before = n->kept;
            if (stride2) side = half(side);
            px = (double)side * (double)side;
            if (bottleneck) {
                conv_bn(n, 1.0, in, width, px_in);
                relu(n, width * px_in);
                conv_bn(n, 3.0, width, width, px);
                relu(n, width * px);
                conv_bn(n, 1.0, width, out, px);
            } else {
                conv_bn(n, 3.0, in, width, px);
                relu(n, width * px);
                conv_bn(n, 3.0, width, out, px);
            }
            if (stride2 || in != out) conv_bn(n, 1.0, in, out, px); /* the downsampling shortcut */
            /* the residual add (reads two, writes one), then an in-place ReLU */
            n->elementwise += 3.0 * out * px;
            relu(n, out * px);
            block = n->kept - before;
            if (block > n->largest_block) n->largest_block = block;
            in = out;
        }
    }
    /* global average pooling, then the classifier (it keeps the pooled features) */
    h = in;
    n->features = h;
    n->kept += h;
    n->fc_params = h * classes + classes;
    n->macs += h * classes;
    n->classes = classes;
    return 0;
}

void ts_cnn_shape(ts_model *m)
{
    ts_model c;
    const uint64_t *blocks;
    int bottleneck = stages_of(m->resnet_depth, &blocks);
    memset(&c, 0, sizeof c);
    memcpy(c.name, m->name, sizeof c.name);
    memcpy(c.family, m->family, sizeof c.family);
    c.resnet_depth = m->resnet_depth;
    c.resnet_width = m->resnet_width;
    c.image_size = m->image_size;
    c.channels = m->channels ? m->channels : 3;
    c.classes = m->classes ? m->classes : 1000;
    c.layers = ts_cnn_blocks(m->resnet_depth);
    c.hidden = bottleneck > 0 ? 2048 : 512; /* the last stage's output: the classifier's input */
    c.heads = 1;
    c.ffn = 1;
    c.positions = 1;
    c.head = TS_HEAD_CLASSIFIER;
    c.norm = TRAINSIZE_NORM_LAYERNORM;
    *m = c;
}
