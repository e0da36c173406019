// The fuzzers' way from arbitrary bytes to a compile request: the entry is
// the first `def` of the input; its parameters get a fixed specialization so
// that every input reaches sema: tl.constexpr parameters (and ALL_CAPS names,
// as Triton's meta-parameters are usually spelled) are the integer 16, the
// others a runtime type picked from the name (so a mutated input keeps its
// specialization when the name does not change).
#pragma once

#include "frontend/AST.h"
#include "frontend/Compile.h"
#include "frontend/Diagnostics.h"
#include "frontend/Parser.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tessera::frontend::fuzz {

inline bool isConstexprParam(const Param &p) {
  if (p.annotation) return true;  // kernels annotate only tl.constexpr parameters
  for (char c : p.name)
    if (std::islower(static_cast<unsigned char>(c))) return false;
  return true;
}

inline const char *runtimeSpec(const std::string &name) {
  static const char *const kSpecs[] = {"*fp32:16", "i32", "*fp16:16", "fp32", "i32:16", "*i32", "i64", "*bf16"};
  size_t h = 0;
  for (char c : name) h = h * 31 + static_cast<unsigned char>(c);
  return kSpecs[h % (sizeof(kSpecs) / sizeof(kSpecs[0]))];
}

// The request for `data`, or none when the input has no `def`.
inline std::optional<CompileRequest> requestFor(const uint8_t *data, size_t size) {
  CompileRequest req;
  req.source.assign(reinterpret_cast<const char *>(data), size);
  req.filename = "fuzz.py";
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto module = Parser(sources.addFile("fuzz.py", req.source), diags).parseModule();
  const FunctionDef *entry = nullptr;
  for (const StmtPtr &s : module->body)
    if ((entry = dynCast<FunctionDef>(s.get()))) break;
  if (!entry) return std::nullopt;
  req.entry = entry->name;
  for (const Param &p : entry->params) {
    if (p.defaultValue) continue;  // the default fills it
    ArgSpec spec;
    if (isConstexprParam(p)) {
      spec.isConstexpr = true;
      spec.value = SValue::integer(16);
    } else {
      spec = *parseArgSpec(runtimeSpec(p.name));
    }
    req.args[p.name] = spec;
  }
  req.inlineCalls = size % 2 == 1;  // both call paths, chosen by the input
  return req;
}

} // namespace tessera::frontend::fuzz
