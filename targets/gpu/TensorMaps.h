// Tensor maps (NVIDIA's TMA) for the blocks of desc_load and desc_store
// (ir/Ops.def): which accesses a tensor map can move, its box and swizzle,
// and the kernel's tensor_map argument (ir/IR.h). Shared by pipeline-loops
// (loads, into stages) and tensor-map-stores (epilogue stores).
#pragma once

#include "ir/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::targets::gpu {

// The kernel argument whose descriptor the desc_load or desc_store `access`
// reads or writes (its base, extents and strides are that argument and the
// ones after it), or -1 when they are no longer the kernel's arguments.
int descriptorArgument(const ir::Operation &access);

// Where the tensor map of `access` comes from: the kernel argument that is
// its base and, for a descriptor the kernel made (not a host descriptor),
// the sources of its extents and strides (ir/IR.h, tensor_map_fields);
// nullopt when a tensor map cannot be built from the kernel's arguments.
struct TensorMapSource {
  int base;
  std::string fields;  // tensor_map_fields; empty for a host descriptor
};
std::optional<TensorMapSource> tensorMapSource(const ir::Operation &access);

// How a tensor map moves the block of `access` to or from a buffer laid out
// as swizzledSharedLayout does (rows along dimension 1, atoms of
// `atomBytes`): its box and swizzle; nullopt when it cannot.
struct TensorMapShape {
  std::vector<int64_t> box;
  int64_t swizzle;
};
std::optional<TensorMapShape> tensorMapShape(const ir::Operation &access, int64_t atomBytes);

// The tensor_map argument of the kernel holding `access` for that shape,
// added once per descriptor, box and swizzle.
ir::Value *tensorMapArgument(const ir::Operation &access, const TensorMapShape &shape);

// The buffer a tensor map of `shape` fills from (or writes out of) a tile of
// type `tile`: row-major, swizzled in atoms of `atomBytes`.
ir::Type tensorMapBuffer(ir::Type tile, int64_t atomBytes);

} // namespace tessera::targets::gpu
