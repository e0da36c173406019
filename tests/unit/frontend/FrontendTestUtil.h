// Helpers shared by the frontend tests: run the lexer or parser on a string
// and return what a test asserts on (token kinds, AST dumps, diagnostics).
#pragma once

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Lexer.h"
#include "frontend/Parser.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::frontend::test {

// Owns everything a parse produced; the engine refers into the manager, so
// both live on the heap and the result can be returned by value.
struct Parsed {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<DiagnosticEngine> diags = std::make_unique<DiagnosticEngine>(*sources);
  std::unique_ptr<Module> module;
  std::string dump;    // ASTPrinter output
  std::string errors;  // every formatted diagnostic

  const FunctionDef& function(size_t i = 0) const {
    size_t seen = 0;
    for (const StmtPtr& s : module->body)
      if (auto* f = dynCast<FunctionDef>(s.get()); f && seen++ == i) return *f;
    throw std::out_of_range("no such function");
  }
};

inline Parsed parse(const std::string& src, ASTPrinter::Options options = {}) {
  Parsed p;
  const SourceFile& f = p.sources->addFile("kernel.py", src);
  p.module = Parser(f, *p.diags).parseModule();
  p.dump = ASTPrinter(options).print(*p.module);
  p.errors = p.diags->formatAll();
  return p;
}

// The expression's one-line dump, or "error: " and the first message.
inline std::string expr(const std::string& src) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  ExprPtr e = Parser(sources.addFile("expr.py", src), diags).parseStandaloneExpression();
  if (diags.hasErrors()) return "error: " + diags.diagnostics().front().message;
  return e ? ASTPrinter::print(*e) : "<null>";
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string corpusFile(const std::string& name) {
  return readFile(std::string(TESSERA_FUZZ_CORPUS_DIR) + "/" + name);
}

}  // namespace tessera::frontend::test
