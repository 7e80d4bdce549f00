/* Version and struct sizes of the library actually linked. */
#include "trainsize.h"

const char *trainsize_version_string(void) { return TRAINSIZE_VERSION_STRING; }
unsigned trainsize_version_number(void) { return TRAINSIZE_VERSION_NUMBER; }
unsigned trainsize_abi_version(void) { return TRAINSIZE_ABI_VERSION; }

size_t trainsize_struct_size(int which)
{
    switch (which) {
    case TRAINSIZE_STRUCT_ERROR: return sizeof(trainsize_error);
    case TRAINSIZE_STRUCT_RESULT: return sizeof(trainsize_result);
    case TRAINSIZE_STRUCT_PLAN_CANDIDATE: return sizeof(trainsize_plan_candidate);
    case TRAINSIZE_STRUCT_PLAN_STATS: return sizeof(trainsize_plan_stats);
    case TRAINSIZE_STRUCT_FIELD_VALUE: return sizeof(trainsize_field_value);
    case TRAINSIZE_STRUCT_GPU_INFO: return sizeof(trainsize_gpu_info);
    case TRAINSIZE_STRUCT_ADVICE: return sizeof(trainsize_advice);
    case TRAINSIZE_STRUCT_CHECKPOINT: return sizeof(trainsize_checkpoint);
    case TRAINSIZE_STRUCT_CAPACITY_ENTRY: return sizeof(trainsize_capacity_entry);
    default: return 0;
    }
}
