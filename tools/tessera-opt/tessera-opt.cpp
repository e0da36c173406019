// tessera-opt: reads textual IR, verifies it, runs the named passes in order
// and prints the result.
//
//   tessera-opt [file|-] [--inline] [--canonicalize] [--pass=cse,dce] [-o out]
//               [--print-loc] [--dump-ir-after-each] [--timing] [--verify-each]
//               [--list-passes] [--no-verify]
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "targets/gpu/Passes.h"
#include "targets/amdgpu/Lowerings.h"
#include "targets/nvptx/Lowerings.h"
#include "tools/tessera/OutputFile.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace tessera::ir;

static int usage(const std::string &msg) {
  std::cerr << "tessera-opt: " << msg << "\n"
            << "usage: tessera-opt [file|-] [--<pass>...] [--pass=a,b] [-o file] [--print-loc]\n"
               "                   [--dump-ir-after-each] [--timing] [--verify-each] [--no-verify]\n"
               "                   [--list-passes]\n";
  return 2;
}

int main(int argc, char **argv) {
  tessera::targets::gpu::registerPasses();
  tessera::targets::nvptx::registerLowerings();
  tessera::targets::amdgpu::registerLowerings();
  std::string input = "-", output;
  std::vector<std::string> passes;
  PassOptions popts = PassOptions::fromEnvironment();
  PrintOptions print;
  bool verify = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (a == "--list-passes") {
      for (const PassInfo &p : registeredPasses()) std::cout << "  --" << p.name << "  " << p.description << "\n";
      return 0;
    } else if (a == "--print-loc") {
      print.locations = true;
    } else if (a == "--dump-ir-after-each") {
      popts.dumpAfterEach = true;
    } else if (a == "--timing") {
      popts.timing = true;
    } else if (a == "--verify-each") {
      popts.verifyEach = true;
    } else if (a == "--no-verify") {
      verify = false;
      popts.verifyEach = false;
    } else if (a.rfind("--pass=", 0) == 0) {
      std::stringstream ss(a.substr(7));
      for (std::string p; std::getline(ss, p, ',');)
        if (!p.empty()) passes.push_back(p);
    } else if (a.rfind("--", 0) == 0) {
      passes.push_back(a.substr(2));
    } else if (input == "-") {
      input = a;
    } else {
      return usage("unexpected argument '" + a + "'");
    }
  }

  PassManager pm(popts);
  for (auto &p : passes)
    if (!pm.add(p)) return usage("unknown pass or option '--" + p + "' (see --list-passes)");

  std::stringstream buf;
  if (input == "-") {
    buf << std::cin.rdbuf();
  } else {
    std::ifstream in(input, std::ios::binary);
    if (!in) {
      std::cerr << "tessera-opt: cannot open '" << input << "'\n";
      return 1;
    }
    buf << in.rdbuf();
  }
  std::string text = buf.str();
  ParseResult parsed = parseModule(text, input == "-" ? "<stdin>" : input);
  if (!parsed.module) {
    std::cerr << parsed.error << "\n";
    return 1;
  }
  std::vector<std::string> errors;
  if (verify && !verifyModule(*parsed.module, &errors)) {
    std::cerr << joinErrors(errors);
    return 1;
  }
  std::string error;
  if (!pm.run(*parsed.module, &error)) {
    std::cerr << error;
    return 1;
  }
  std::string result = printModule(*parsed.module, print);
  if (output.empty()) {
    std::cout << result;
  } else {
    std::string error;
    if (!tessera::tools::writeOutputFile(output, result, error)) {
      std::cerr << "tessera-opt: " << error << "\n";
      return 1;
    }
  }
  return 0;
}
