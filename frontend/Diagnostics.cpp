#include "frontend/Diagnostics.h"

#include <algorithm>
#include <tuple>

namespace tessera::frontend {

SourceFile::SourceFile(uint32_t id, std::string name, std::string text)
    : id_(id), name_(std::move(name)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    // "\r\n" ends one line, so only its '\n' starts the next.
    bool lf = text_[i] == '\n';
    bool lonelyCr = text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n');
    if (lf || lonelyCr) lineStarts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = line < lineStarts_.size() ? lineStarts_[line] : text_.size();
  std::string_view s(text_.data() + begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

SourceLoc SourceFile::locForOffset(size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - lineStarts_.begin());
  uint32_t col = static_cast<uint32_t>(offset - lineStarts_[line - 1]) + 1;
  return {id_, line, col};
}

const SourceFile& SourceManager::addFile(std::string name, std::string text) {
  auto id = static_cast<uint32_t>(files_.size());
  files_.push_back(std::make_unique<SourceFile>(id, std::move(name), std::move(text)));
  return *files_.back();
}

const SourceFile* SourceManager::file(uint32_t id) const {
  return id < files_.size() ? files_[id].get() : nullptr;
}

void DiagnosticEngine::error(SourceLoc loc, std::string message) {
  lastDropped_ = limitReached();
  if (lastDropped_) return;
  ++errorCount_;
  diags_.push_back({Severity::Error, loc, std::move(message)});
  if (limitReached())
    diags_.push_back({Severity::Note, loc, "too many errors; stopping here"});
}

void DiagnosticEngine::note(SourceLoc loc, std::string message) {
  if (!lastDropped_) diags_.push_back({Severity::Note, loc, std::move(message)});
}

void DiagnosticEngine::sortByLocation() {
  std::vector<std::vector<Diagnostic>> groups;
  for (Diagnostic& d : diags_) {
    if (d.severity == Severity::Error || groups.empty()) groups.emplace_back();
    groups.back().push_back(std::move(d));
  }
  // The original position breaks ties, which keeps the sort stable.
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](size_t i) {
    const SourceLoc& l = groups[i].front().loc;
    return std::tuple(l.fileId, l.line, l.col, i);
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  diags_.clear();
  for (size_t i : order)
    for (Diagnostic& d : groups[i]) diags_.push_back(std::move(d));
}

// The caret line copies the tabs of the source line and counts a multi-byte
// UTF-8 character as one column, so the caret lands under the right glyph.
static std::string caretLine(std::string_view line, uint32_t col) {
  std::string out;
  size_t n = std::min<size_t>(col - 1, line.size());
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == '\t') out += '\t';
    else if ((c & 0xC0) != 0x80) out += ' ';
  }
  for (size_t i = n; i + 1 < col; ++i) out += ' ';  // columns past the line's end
  out += '^';
  return out;
}

std::string DiagnosticEngine::format(const Diagnostic& d) const {
  const SourceFile* f = sources_.file(d.loc.fileId);
  std::string out = f ? f->name() : std::string("<unknown>");
  if (d.loc.valid()) out += ":" + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col);
  out += d.severity == Severity::Error ? ": error: " : ": note: ";
  out += d.message;
  out += '\n';
  if (f && d.loc.valid()) {
    out += f->lineText(d.loc.line);
    out += '\n';
    out += caretLine(f->lineText(d.loc.line), d.loc.col);
    out += '\n';
  }
  return out;
}

std::string DiagnosticEngine::formatAll() const {
  std::string out;
  for (const Diagnostic& d : diags_) out += format(d);
  return out;
}

FrontendError makeFrontendError(const DiagnosticEngine& diags) {
  return {diags.diagnostics(), diags.formatAll()};
}

}  // namespace tessera::frontend
