// Source buffers, locations and the diagnostic engine shared by every frontend
// stage. Bad input never aborts: stages report here and return what they have.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::frontend {

// 1-based line and column (columns count bytes); line 0 means "no location".
struct SourceLoc {
  uint32_t fileId = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

class SourceFile {
public:
  SourceFile(uint32_t id, std::string name, std::string text);

  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }
  std::string_view text() const { return text_; }
  uint32_t lineCount() const { return static_cast<uint32_t>(lineStarts_.size()); }
  // The line's text without its terminator; empty for lines past the end.
  std::string_view lineText(uint32_t line) const;
  SourceLoc locForOffset(size_t offset) const;

private:
  uint32_t id_;
  std::string name_;
  std::string text_;
  std::vector<uint32_t> lineStarts_;
};

// Owns the files so that a SourceLoc's fileId stays resolvable for as long as
// diagnostics or ASTs that mention it live.
class SourceManager {
public:
  const SourceFile& addFile(std::string name, std::string text);
  const SourceFile* file(uint32_t id) const;

private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

enum class Severity { Error, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceManager& sources, size_t errorLimit = 25)
      : sources_(sources), errorLimit_(errorLimit) {}

  void error(SourceLoc loc, std::string message);
  // Attaches to the preceding error; dropped when that error was dropped.
  void note(SourceLoc loc, std::string message);

  bool hasErrors() const { return errorCount_ != 0; }
  size_t errorCount() const { return errorCount_; }
  // Past the limit further errors are dropped, so garbage input cannot make
  // the output (or the parser's work) grow without bound.
  bool limitReached() const { return errorCount_ >= errorLimit_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  // Stable sort by location; each error keeps its notes right after it.
  void sortByLocation();

  // "file:line:col: error: message", the source line, then a caret line.
  std::string format(const Diagnostic& d) const;
  std::string formatAll() const;

private:
  const SourceManager& sources_;
  size_t errorLimit_;
  size_t errorCount_ = 0;
  bool lastDropped_ = false;
  std::vector<Diagnostic> diags_;
};

// What a failed frontend stage hands back: every diagnostic plus their text.
struct FrontendError {
  std::vector<Diagnostic> diagnostics;
  std::string rendered;
  const std::string& message() const { return rendered; }
};

FrontendError makeFrontendError(const DiagnosticEngine& diags);

template <typename T>
class FrontendResult {
public:
  FrontendResult(T value) : v_(std::move(value)) {}
  FrontendResult(FrontendError err) : v_(std::move(err)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  const FrontendError& error() const { return std::get<1>(v_); }

private:
  std::variant<T, FrontendError> v_;
};

}  // namespace tessera::frontend
