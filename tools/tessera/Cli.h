// The `tessera` command line (Cli.cpp), run by tessera_cli_main.
#pragma once

namespace tessera::tools {

// Runs `tessera argv[1] ...` and returns the exit status; prints to stdout
// and stderr.
int runCli(int argc, const char **argv);

}  // namespace tessera::tools
