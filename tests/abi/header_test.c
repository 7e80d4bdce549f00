/* The public header compiles on its own, as C99, C11 and C++, with strict warnings, and its
 * struct sizes agree with the library's (a caller built against this header). */
#include <trainsize.h>

#include <stdio.h>

int main(void)
{
    int bad = 0;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_ERROR) != sizeof(trainsize_error)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_RESULT) != sizeof(trainsize_result)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_PLAN_CANDIDATE) != sizeof(trainsize_plan_candidate)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_PLAN_STATS) != sizeof(trainsize_plan_stats)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_FIELD_VALUE) != sizeof(trainsize_field_value)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_GPU_INFO) != sizeof(trainsize_gpu_info)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_ADVICE) != sizeof(trainsize_advice)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_CHECKPOINT) != sizeof(trainsize_checkpoint)) bad = 1;
    if (trainsize_struct_size(TRAINSIZE_STRUCT_CAPACITY_ENTRY) != sizeof(trainsize_capacity_entry)) bad = 1;
    if (trainsize_struct_size(-1) != 0) bad = 1;
    if (trainsize_abi_version() != TRAINSIZE_ABI_VERSION) bad = 1;
    printf("%s\n", bad ? "struct sizes or ABI differ" : "1 passed, 0 failed");
    return bad;
}
