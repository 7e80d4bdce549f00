/* Version of the library actually linked. */
#include "trainsize.h"

const char *trainsize_version_string(void) { return TRAINSIZE_VERSION_STRING; }
unsigned trainsize_version_number(void) { return TRAINSIZE_VERSION_NUMBER; }
unsigned trainsize_abi_version(void) { return TRAINSIZE_ABI_VERSION; }
