// inline: replaces calls to device functions by copies of their bodies, then
// drops device functions no longer called (when the module has a kernel).
// Functions marked `noinline` keep their calls. Recursion cannot be inlined
// away, so inlining stops after a fixed depth and leaves such calls in place.
// A function may grow to kMaxInlinedOps operations: past that (calls that
// double the code at each level make 2^depth copies) inlining is an error
// naming the call, not a compile that runs out of time and memory.
#include "ir/Clone.h"
#include "ir/PassManager.h"
#include "ir/transforms/Passes.h"

#include <unordered_map>
#include <unordered_set>

namespace tessera::ir {
namespace {

constexpr int kMaxRounds = 32;
constexpr size_t kMaxInlinedOps = size_t(1) << 20;

size_t countOps(Function &f) {
  size_t n = 0;
  f.walk([&](Operation *) { ++n; });
  return n;
}

// The operations `f` has once every call in it is inlined, saturating just
// past the budget; calls into a recursion (which inlining leaves in place
// after kMaxRounds) count as one operation.
size_t inlinedSize(Module &m, Function &f, std::unordered_map<const Function *, size_t> &memo) {
  if (auto it = memo.find(&f); it != memo.end()) return it->second;
  memo[&f] = 1;  // in progress: a recursive call
  size_t n = 0;
  f.walk([&](Operation *op) {
    const Function *callee = op->is(OpCode::Call) ? m.lookup(op->attr("callee")->getString()) : nullptr;
    bool inlined = callee && callee != &f && !callee->isKernel() && !callee->attrs().getBool("noinline", false);
    n += inlined ? inlinedSize(m, const_cast<Function &>(*callee), memo) : 1;
    n = std::min(n, kMaxInlinedOps + 1);
  });
  return memo[&f] = n;
}

// Refuses, before copying anything, a kernel whose calls inline to more
// than the budget, naming its call that weighs the most.
void checkInlinedSize(Module &m) {
  std::unordered_map<const Function *, size_t> memo;
  for (auto &f : m.functions()) {
    if (!f->isKernel() || inlinedSize(m, *f, memo) <= kMaxInlinedOps) continue;
    Operation *heaviest = nullptr;
    size_t most = 0;
    f->walk([&](Operation *op) {
      const Function *callee = op->is(OpCode::Call) ? m.lookup(op->attr("callee")->getString()) : nullptr;
      if (!callee || callee == f.get()) return;
      size_t n = inlinedSize(m, const_cast<Function &>(*callee), memo);
      if (n > most) most = n, heaviest = op;
    });
    std::string where = heaviest ? heaviest->loc().str() + ": error: " : "error: ";
    std::string what = heaviest ? "; its call of @" + heaviest->attr("callee")->getString() + " here alone " +
                                      (most > kMaxInlinedOps ? "is over that" : "is " + std::to_string(most) + " operations")
                                : "";
    throw PassError{where + "inlining the calls of kernel @" + f->name() + " makes it over " +
                    std::to_string(kMaxInlinedOps) + " operations, Tessera's compile-size budget" + what +
                    " (calls repeated at every level double the code); mark a function noinline "
                    "(@jit(noinline=True)) or call it less often"};
  }
}

bool inlineOneRound(Module &m) {
  bool changed = false;
  std::unordered_map<const Function *, size_t> size;
  for (auto &f : m.functions()) size[f.get()] = countOps(*f);
  for (auto &f : m.functions()) {
    std::vector<Operation *> calls;
    f->walk([&](Operation *op) {
      if (op->is(OpCode::Call)) calls.push_back(op);
    });
    for (Operation *call : calls) {
      const Function *callee = m.lookup(call->attr("callee")->getString());
      if (!callee || callee == f.get() || callee->isKernel() || callee->attrs().getBool("noinline", false))
        continue;
      size_t grown = size[f.get()] - 1 + size[callee];
      if (grown > kMaxInlinedOps)
        throw PassError{call->loc().str() + ": error: inlining @" + callee->name() + " into @" + f->name() +
                        " makes it " + std::to_string(grown) + " operations, over the compile-size budget of " +
                        std::to_string(kMaxInlinedOps) + " (calls that repeat at every level double the code); "
                        "mark a function noinline (@jit(noinline=True)) or call it less often"};
      size[f.get()] = grown;
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
  checkInlinedSize(m);
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
