// Deep copies of ops with their regions, remapping values.
#pragma once

#include "ir/Builder.h"

#include <unordered_map>

namespace tessera::ir {

using ValueMap = std::unordered_map<const Value *, Value *>;

// Values not in the map are used as they are (they are defined outside).
inline Value *lookupOrSelf(const ValueMap &map, Value *v) {
  auto it = map.find(v);
  return it == map.end() ? v : it->second;
}

// Clones `op` at the builder's insertion point; records result mappings.
Operation *cloneOp(Builder &b, const Operation &op, ValueMap &map);
// Clones every op of `src` except its terminator; returns the terminator's
// remapped operands (empty if it has none).
std::vector<Value *> cloneBlockBody(Builder &b, const Block &src, ValueMap &map);

} // namespace tessera::ir
