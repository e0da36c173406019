// How every runtime call reports failure: a code a program can branch on plus
// a message a person can read. Nothing in the runtime aborts or throws across
// its interface; a missing driver, a bad argument or a failed device assertion
// all come back as a Status.
#pragma once

#include <string>
#include <utility>

namespace tessera::runtime {

enum class StatusCode {
  Ok = 0,
  InvalidArgument,  // a null handle, a size out of range, a wrong argument count
  NotFound,         // no such backend, device or kernel entry
  Unavailable,      // the backend's driver or device is missing on this machine
  OutOfMemory,
  LoadFailed,       // a module's binary could not be loaded
  LaunchFailed,
  AssertFailed,     // a kernel's tl.device_assert failed during the launch
  Unsupported,      // a format or feature this backend does not have
  IoError,          // files: the compile cache, temp files
  Internal,
  Interrupted,      // a launch stopped by SIGINT (Ctrl-C)
};

const char *statusCodeName(StatusCode code);

class [[nodiscard]] Status {
public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return {}; }

  bool isOk() const { return code_ == StatusCode::Ok; }
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  const std::string &message() const { return message_; }
  // "AssertFailed: message"
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

} // namespace tessera::runtime
