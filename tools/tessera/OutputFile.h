// The command-line tools' output files (-o, --aot): written whole or not at
// all, with the path and the reason when a write fails (a full disk, a quota,
// ulimit -f, a read-only directory).
#pragma once

#include <string>
#include <string_view>

namespace tessera::tools {

// Writes `bytes` to `path`; on failure removes what was written and sets
// `error` to "cannot write 'PATH': REASON".
bool writeOutputFile(const std::string &path, std::string_view bytes, std::string &error);

} // namespace tessera::tools
