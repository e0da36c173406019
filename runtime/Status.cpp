#include "runtime/Status.h"

#include "runtime/Runtime.h"

namespace tessera::runtime {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::Ok: return "Ok";
  case StatusCode::InvalidArgument: return "InvalidArgument";
  case StatusCode::NotFound: return "NotFound";
  case StatusCode::Unavailable: return "Unavailable";
  case StatusCode::OutOfMemory: return "OutOfMemory";
  case StatusCode::LoadFailed: return "LoadFailed";
  case StatusCode::LaunchFailed: return "LaunchFailed";
  case StatusCode::AssertFailed: return "AssertFailed";
  case StatusCode::Unsupported: return "Unsupported";
  case StatusCode::IoError: return "IoError";
  case StatusCode::Internal: return "Internal";
  case StatusCode::Interrupted: return "Interrupted";
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (isOk()) return "Ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

Status Kernel::checkArgs(void **args, size_t numArgs, size_t expected) const {
  if (numArgs != expected)
    return {StatusCode::InvalidArgument, "kernel '" + name() + "' takes " + std::to_string(expected) +
                                             " runtime arguments, the launch passed " + std::to_string(numArgs)};
  for (size_t i = 0; i < numArgs; ++i)
    if (!args || !args[i]) return {StatusCode::InvalidArgument, "launch of '" + name() + "': argument " + std::to_string(i) + " is null"};
  return {};
}

} // namespace tessera::runtime
