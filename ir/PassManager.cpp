#include "ir/PassManager.h"

#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "ir/transforms/Passes.h"

#include <chrono>
#include <deque>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace tessera::ir {

namespace {

std::mutex registryMutex;

std::deque<PassInfo> &registry() {
  static std::deque<PassInfo> passes = {
#define PASS(Name, Fn, Description) {Name, &Fn, Description},
#include "ir/transforms/Passes.def"
#undef PASS
  };
  return passes;
}

} // namespace

std::vector<PassInfo> registeredPasses() {
  std::lock_guard<std::mutex> lock(registryMutex);
  return {registry().begin(), registry().end()};
}

const PassInfo *findPass(std::string_view name) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const PassInfo &p : registry())
    if (name == p.name) return &p;
  return nullptr;
}

void registerPass(const PassInfo &pass) {
  std::lock_guard<std::mutex> lock(registryMutex);
  for (const PassInfo &p : registry())
    if (std::string_view(p.name) == pass.name) return;
  registry().push_back(pass);  // a deque: pointers to earlier entries stay valid
}

static bool envFlag(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string_view(v) != "0";
}

PassOptions PassOptions::fromEnvironment() {
  PassOptions o;
  o.dumpAfterEach = envFlag("TESSERA_DUMP_IR");
  o.timing = envFlag("TESSERA_PASS_TIMING");
#ifndef NDEBUG
  o.verifyEach = true;
#endif
  o.verifyEach |= envFlag("TESSERA_VERIFY_EACH");
  return o;
}

bool PassManager::add(std::string_view name) {
  const PassInfo *p = findPass(name);
  if (p) pipeline_.push_back(p);
  return p != nullptr;
}

bool PassManager::run(Module &m, std::string *error) {
  std::ostream &log = opts_.log ? *opts_.log : std::cerr;
  std::string before = opts_.dumpAfterEach ? printModule(m) : "";
  double total = 0;
  for (const PassInfo *pass : pipeline_) {
    auto start = std::chrono::steady_clock::now();
    try {
      pass->run(m);
    } catch (const PassError &e) {
      if (error) *error = e.message;
      return false;
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    total += ms;
    if (opts_.timing) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "// pass %-16s %9.3f ms\n", pass->name, ms);
      log << buf;
    }
    if (opts_.dumpAfterEach) {
      std::string after = printModule(m);
      log << "// ----- IR after " << pass->name << (after == before ? " (unchanged)" : "") << " -----\n"
          << after;
      before = std::move(after);
    }
    if (opts_.verifyEach) {
      std::vector<std::string> errors;
      if (!verifyModule(m, &errors)) {
        if (error) *error = "IR is invalid after pass '" + std::string(pass->name) + "':\n" + joinErrors(errors);
        return false;
      }
    }
  }
  if (opts_.timing) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "// pass %-16s %9.3f ms\n", "(total)", total);
    log << buf;
  }
  return true;
}

} // namespace tessera::ir
