// cse: replaces a pure op by an identical one that dominates it. An op in a
// block sees the ops before it in that block and in the blocks around it.
#include "ir/analysis/Effects.h"
#include "ir/transforms/Passes.h"

#include <algorithm>
#include <unordered_map>

namespace tessera::ir {
namespace {

std::string keyOf(const Operation &op) {
  std::vector<const Value *> operands(op.operands().begin(), op.operands().end());
  if (op.hasTrait(kCommutative)) std::sort(operands.begin(), operands.end());
  std::string key = std::to_string(static_cast<int>(op.code()));
  for (const Value *v : operands) key += "|" + std::to_string(reinterpret_cast<uintptr_t>(v));
  key += "|" + op.attrs().str();
  for (unsigned i = 0; i < op.numResults(); ++i) key += "|" + op.result(i)->type().str();
  return key;
}

class ScopedCse {
public:
  void runBlock(Block &b) {
    std::vector<std::string> added;
    for (Operation *op : b.opsVector()) {
      if (isPureLeaf(*op)) {
        std::string key = keyOf(*op);
        auto it = table_.find(key);
        if (it != table_.end()) {
          for (unsigned i = 0; i < op->numResults(); ++i) op->result(i)->replaceAllUsesWith(it->second->result(i));
          op->erase();
          continue;
        }
        table_.emplace(key, op);
        added.push_back(std::move(key));
      }
      for (unsigned r = 0; r < op->numRegions(); ++r) runBlock(op->region(r).block());
    }
    for (auto &k : added) table_.erase(k);
  }

private:
  std::unordered_map<std::string, Operation *> table_;
};

} // namespace

void eliminateCommonSubexpressions(Module &m) {
  for (auto &f : m.functions()) ScopedCse().runBlock(f->entry());
}

} // namespace tessera::ir
