/* The WebAssembly module's one entry: the `trainsize` command itself, run in-process on an
 * argument vector, so that the JavaScript API returns exactly the JSON the command prints
 * (the same code path: examples/trainsize, a client of the public header only). Its
 * standard output and error reach the module's print/printErr, which trainsize.js
 * collects per call. */
#include <emscripten/emscripten.h>

/* The command's main, compiled under this name for the module (CMakeLists.txt). */
int trainsize_cli_main(int argc, char **argv);

EMSCRIPTEN_KEEPALIVE int tsw_run(int argc, char **argv);

EMSCRIPTEN_KEEPALIVE int tsw_run(int argc, char **argv) { return trainsize_cli_main(argc, argv); }
