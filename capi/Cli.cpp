// tessera_cli_main: the `tessera` command line (tools/tessera/Cli.cpp) as a
// C API call, for the executable and the Python console command.
#include "capi/CApiInternal.h"

#include "tools/tessera/Cli.h"

extern "C" int tessera_cli_main(int argc, const char **argv) { return tessera::tools::runCli(argc, argv); }
