#include "runtime/Status.h"

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
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (isOk()) return "Ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

} // namespace tessera::runtime
