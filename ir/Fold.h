// Constant folding of elementwise ops, following the semantics in IR.h.
// Only what is exact on the host is folded: integers of every width, and f32
// and f64 for add, sub, mul, div, neg, abs, min, max, cmp, select and cast.
// Anything else (f16, bf16, fp8, transcendental math, division by zero,
// over-wide shifts) is left for run time.
#pragma once

#include "ir/IR.h"

#include <optional>

namespace tessera::ir {

// The value of a constant (scalar or splat tile), if `v` is one.
std::optional<Attribute> constantValue(const Value *v);

// Whether `v` is the constant +0 (0, or 0.0 but not -0.0): a scalar or
// splat constant, also through splats and layout conversions of one.
bool isPositiveZero(const Value *v);

// Folds an elementwise op whose operands are all constants. `operands` are
// their values; returns the result's value (applied to every element).
std::optional<Attribute> foldElementwise(const Operation &op, const std::vector<Attribute> &operands);

// Two's-complement normalization of `v` to the width and signedness of `type`.
int64_t normalizeInt(int64_t v, Type type);

} // namespace tessera::ir
