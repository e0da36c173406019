// inline: replaces calls to device functions by copies of their bodies, then
// drops device functions no longer called (when the module has a kernel).
// Functions marked `noinline` keep their calls. Recursion cannot be inlined
// away, so inlining stops after a fixed depth and leaves such calls in place.
#include "ir/Clone.h"
#include "ir/transforms/Passes.h"

#include <unordered_set>

namespace tessera::ir {
namespace {

constexpr int kMaxRounds = 32;

bool inlineOneRound(Module &m) {
  bool changed = false;
  for (auto &f : m.functions()) {
    std::vector<Operation *> calls;
    f->walk([&](Operation *op) {
      if (op->is(OpCode::Call)) calls.push_back(op);
    });
    for (Operation *call : calls) {
      const Function *callee = m.lookup(call->attr("callee")->getString());
      if (!callee || callee == f.get() || callee->isKernel() || callee->attrs().getBool("noinline", false))
        continue;
      ValueMap map;
      for (unsigned i = 0; i < callee->numArguments(); ++i) map[callee->argument(i)] = call->operand(i);
      Builder b;
      b.setInsertionPoint(call);
      std::vector<Value *> returned = cloneBlockBody(b, callee->entry(), map);
      for (unsigned i = 0; i < call->numResults() && i < returned.size(); ++i)
        call->result(i)->replaceAllUsesWith(returned[i]);
      call->erase();
      changed = true;
    }
  }
  return changed;
}

} // namespace

void inlineCalls(Module &m) {
  for (int round = 0; round < kMaxRounds && inlineOneRound(m); ++round) {
  }
  bool hasKernel = false;
  std::unordered_set<std::string> called;
  for (auto &f : m.functions()) {
    hasKernel |= f->isKernel();
    f->walk([&](Operation *op) {
      if (op->is(OpCode::Call)) called.insert(op->attr("callee")->getString());
    });
  }
  if (!hasKernel) return;
  std::vector<Function *> dead;
  for (auto &f : m.functions())
    if (!f->isKernel() && !called.count(f->name())) dead.push_back(f.get());
  for (Function *f : dead) m.eraseFunction(f);
}

} // namespace tessera::ir
