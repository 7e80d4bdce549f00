// The same check as header_test.c, compiled as C++: the public header must build in C++
// callers with strict warnings, and the sizes they see must be the library's.
#include "header_test.c"
