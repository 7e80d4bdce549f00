/* The vision towers of multimodal Hugging Face configs (internal; hf_vision.c). */
#ifndef TS_HF_VISION_H
#define TS_HF_VISION_H

#include "hf_families.h"

/* A multimodal model_type's vision tower and projector, from `root` (the whole config:
 * its vision_config and the keys beside it), into m's vision fields; the text model is
 * read first (m->hidden is the projector's output). Types without a tower: no change. */
int ts_hf_vision(const char *model_type, const ts_json_value *root, ts_model *m, trainsize_error *err);

/* mllama_text_model's family keys: the cross-attention layers. */
int ts_hf_mllama_text(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);

#endif
