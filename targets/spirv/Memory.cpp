// Loads, stores and atomics on global memory (PhysicalStorageBuffer pointers
// in Vulkan, CrossWorkgroup in OpenCL, made from 64-bit addresses) and shared memory (one Workgroup
// array of words, addressed by byte offsets); subgroup shuffles; the checked
// mode's report.
#include "targets/spirv/Emitter.h"

#include "targets/spirv/Extensions.h"

#include <algorithm>

namespace tessera::targets::spirv {

using ir::OpCode;
using spv::Op;

namespace {

constexpr uint32_t kScopeDevice = 1, kScopeWorkgroup = 2, kScopeSubgroup = 3;
constexpr uint32_t kAligned = 0x2, kVolatile = 0x1;

} // namespace

Id KernelEmitter::globalPointer(Id address, Id pointee) {
  if (opts.flavour == Flavour::OpenCL)
    return op(Op::OpConvertUToPtr, b.pointerType(spv::StorageClass::CrossWorkgroup, pointee), {address});
  int bits = b.widthOf(b.vectorElement(pointee));
  if (bits == 8) b.capability(spv::Capability::StorageBuffer8BitAccess);
  if (bits == 16) b.capability(spv::Capability::StorageBuffer16BitAccess);
  return op(Op::OpConvertUToPtr, b.pointerType(spv::StorageClass::PhysicalStorageBuffer, pointee), {address});
}

std::vector<uint32_t> KernelEmitter::withSharedAccess(std::vector<uint32_t> operands) const {
  if (vulkanMemoryModel) operands.push_back(coop::kNonPrivatePointer);
  return operands;
}

Id KernelEmitter::sharedWord(Id wordIndex) {
  if (!sharedVar) throw EmitError{"internal error: spirv: a shared-memory access in a kernel without shared memory"};
  return op(Op::OpAccessChain, b.pointerType(spv::StorageClass::Workgroup, u32()), {sharedVar, wordIndex});
}

// Registers hold bool as OpTypeBool and f16 as a float; memory holds bytes.
std::vector<Id> KernelEmitter::loadElements(Id ptr, bool shared, ir::Type elem, int count, bool isVolatile) {
  Id st = storageOf(elem);
  int eb = memoryBytes(elem), total = eb * count;
  std::vector<Id> raw;
  auto fromBits = [&](Id bits) {  // an integer of eb bytes -> the storage type
    return b.typeOfValue(bits) == st ? bits : op(Op::OpBitcast, st, {bits});
  };
  auto splitWord = [&](Id word, int firstElement) {  // elements within one 32-bit word
    int perWord = 4 / eb;
    Id vec = op(Op::OpBitcast, b.vectorType(st, perWord), {word});
    for (int j = 0; j < perWord && firstElement + j < count; ++j) raw.push_back(op(Op::OpCompositeExtract, st, {vec, uint32_t(j)}));
  };
  if (!shared) {
    uint32_t access = kAligned | (isVolatile ? kVolatile : 0);
    if (eb >= 4 || total < 4) {
      Id ty = count == 1 ? st : b.vectorType(st, count);
      Id v = op(Op::OpLoad, ty, {globalPointer(ptr, ty), access, uint32_t(total)});
      for (int j = 0; j < count; ++j) raw.push_back(count == 1 ? v : op(Op::OpCompositeExtract, st, {v, uint32_t(j)}));
    } else {
      int words = total / 4;
      Id ty = words == 1 ? u32() : b.vectorType(u32(), words);
      Id v = op(Op::OpLoad, ty, {globalPointer(ptr, ty), access, uint32_t(total)});
      for (int k = 0; k < words; ++k) splitWord(words == 1 ? v : op(Op::OpCompositeExtract, u32(), {v, uint32_t(k)}), k * 4 / eb);
    }
  } else if (total >= 4) {
    // Aligned to the access: whole words.
    Id base = op(Op::OpShiftRightLogical, u32(), {ptr, c32(2)});
    std::vector<Id> words;
    for (int k = 0; k < total / 4; ++k)
      words.push_back(op(Op::OpLoad, u32(), withSharedAccess({sharedWord(k ? op(Op::OpIAdd, u32(), {base, c32(uint32_t(k))}) : base)})));
    for (size_t k = 0; k < words.size(); ++k) {
      if (eb == 4) raw.push_back(fromBits(words[k]));
      else if (eb == 8) {
        if (k % 2) continue;
        Id pair = op(Op::OpCompositeConstruct, b.vectorType(u32(), 2), {words[k], words[k + 1]});
        raw.push_back(op(Op::OpBitcast, st, {pair}));
      } else splitWord(words[k], int(k) * 4 / eb);
    }
  } else {
    Id word = op(Op::OpLoad, u32(), withSharedAccess({sharedWord(op(Op::OpShiftRightLogical, u32(), {ptr, c32(2)}))}));
    Id shift = op(Op::OpShiftLeftLogical, u32(), {op(Op::OpBitwiseAnd, u32(), {ptr, c32(3)}), c32(3)});
    for (int j = 0; j < count; ++j) {
      Id s = op(Op::OpIAdd, u32(), {shift, c32(uint32_t(8 * eb * j))});
      Id bits = op(Op::OpUConvert, b.intType(8 * eb), {op(Op::OpShiftRightLogical, u32(), {word, s})});
      raw.push_back(fromBits(bits));
    }
  }
  if (elem.isBool())
    for (Id &v : raw) v = op(Op::OpINotEqual, boolTy(), {v, uconst(st, 0)});
  return raw;
}

void KernelEmitter::storeElements(Id ptr, bool shared, ir::Type elem, const std::vector<Id> &values) {
  Id st = storageOf(elem);
  int count = int(values.size()), eb = memoryBytes(elem), total = eb * count;
  std::vector<Id> v = values;
  if (elem.isBool())
    for (Id &x : v) x = select(x, uconst(st, 1), uconst(st, 0));
  auto word = [&](int k) {  // word k of the elements' bytes (eb < 4 or eb == 4)
    if (eb == 4) return b.typeOfValue(v[size_t(k)]) == u32() ? v[size_t(k)] : op(Op::OpBitcast, u32(), {v[size_t(k)]});
    int perWord = 4 / eb;
    std::vector<uint32_t> parts(v.begin() + k * perWord, v.begin() + (k + 1) * perWord);
    return op(Op::OpBitcast, u32(), {op(Op::OpCompositeConstruct, b.vectorType(st, perWord), parts)});
  };
  if (!shared) {
    Id value, ty;
    if (eb >= 4 || total < 4) {
      ty = count == 1 ? st : b.vectorType(st, count);
      value = count == 1 ? v[0] : op(Op::OpCompositeConstruct, ty, std::vector<uint32_t>(v.begin(), v.end()));
    } else {
      int words = total / 4;
      ty = words == 1 ? u32() : b.vectorType(u32(), words);
      std::vector<uint32_t> ws;
      for (int k = 0; k < words; ++k) ws.push_back(word(k));
      value = words == 1 ? ws[0] : op(Op::OpCompositeConstruct, ty, ws);
    }
    b.opNoResult(Op::OpStore, {globalPointer(ptr, ty), value, kAligned, uint32_t(total)});
    return;
  }
  if (total >= 4) {
    Id base = op(Op::OpShiftRightLogical, u32(), {ptr, c32(2)});
    std::vector<Id> words;
    if (eb == 8) {
      for (Id x : v) {
        Id pair = op(Op::OpBitcast, b.vectorType(u32(), 2), {x});
        words.push_back(op(Op::OpCompositeExtract, u32(), {pair, 0}));
        words.push_back(op(Op::OpCompositeExtract, u32(), {pair, 1}));
      }
    } else {
      for (int k = 0; k < total / 4; ++k) words.push_back(word(k));
    }
    for (size_t k = 0; k < words.size(); ++k)
      b.opNoResult(Op::OpStore, withSharedAccess({sharedWord(k ? op(Op::OpIAdd, u32(), {base, c32(uint32_t(k))}) : base), words[k]}));
    return;
  }
  // Less than a word: other threads may own the word's other bytes, so
  // clear and set this thread's bits atomically.
  Id wordPtr = sharedWord(op(Op::OpShiftRightLogical, u32(), {ptr, c32(2)}));
  Id shift = op(Op::OpShiftLeftLogical, u32(), {op(Op::OpBitwiseAnd, u32(), {ptr, c32(3)}), c32(3)});
  Id bits = c32(0);
  for (int j = 0; j < count; ++j) {
    Id x = v[size_t(j)];
    Id asInt = b.isFloatType(b.typeOfValue(x)) ? op(Op::OpBitcast, b.intType(8 * eb), {x}) : x;
    Id wide = op(Op::OpUConvert, u32(), {asInt});
    bits = op(Op::OpBitwiseOr, u32(), {bits, op(Op::OpShiftLeftLogical, u32(), {wide, c32(uint32_t(8 * eb * j))})});
  }
  uint32_t ones = total == 1 ? 0xFFu : 0xFFFFu;
  Id mask = op(Op::OpShiftLeftLogical, u32(), {c32(ones), shift});
  op(Op::OpAtomicAnd, u32(), {wordPtr, c32(kScopeWorkgroup), c32(0), op(Op::OpNot, u32(), {mask})});
  op(Op::OpAtomicOr, u32(), {wordPtr, c32(kScopeWorkgroup), c32(0), op(Op::OpShiftLeftLogical, u32(), {bits, shift})});
}

void KernelEmitter::emitLoad(const ir::Operation &o) {
  ir::Type elem = o.result(0)->type();
  bool shared = o.operand(0)->type().addressSpace() == ir::AddressSpace::Shared;
  int count = int(o.numResults());
  Id ptr = get(o.operand(0));
  bool isVolatile = o.attrs().getBool("volatile", false);
  auto load = [&] { return loadElements(ptr, shared, elem, count, isVolatile); };
  std::vector<Id> values;
  if (o.numOperands() == 1) values = load();
  else {
    std::vector<Id> fallback;
    for (int i = 0; i < count; ++i) fallback.push_back(get(o.operand(unsigned(2 + i))));
    Id mask = get(o.operand(1));
    if (safeAddress && !shared && memoryBytes(elem) * count <= kSafeBytes) {
      // Branch-free: masked-off lanes read the runtime's safe bytes instead.
      ptr = op(Op::OpSelect, u64(), {mask, ptr, safeAddress});
      values = load();
      for (int i = 0; i < count; ++i) values[size_t(i)] = select(mask, values[size_t(i)], fallback[size_t(i)]);
    } else {
      values = when(mask, load, fallback);
    }
  }
  for (int i = 0; i < count; ++i) set(o.result(unsigned(i)), values[size_t(i)]);
}

void KernelEmitter::emitStore(const ir::Operation &o) {
  bool masked = o.attrs().getBool("masked", false);
  unsigned count = o.numOperands() - 1 - (masked ? 1 : 0);
  ir::Type elem = o.operand(1)->type();
  bool shared = o.operand(0)->type().addressSpace() == ir::AddressSpace::Shared;
  std::vector<Id> values;
  for (unsigned i = 0; i < count; ++i) values.push_back(get(o.operand(1 + i)));
  Id ptr = get(o.operand(0));
  auto store = [&] {
    storeElements(ptr, shared, elem, values);
    return std::vector<Id>{};
  };
  if (!masked) store();
  else when(get(o.operands().back()), store, {});
}

void KernelEmitter::emitAtomic(const ir::Operation &o) {
  bool cas = o.is(OpCode::AtomicCas);
  ir::Type elem = o.result()->type();
  if (elem.isBool() || memoryBytes(elem) < 4) fail(o, "on " + std::to_string(elem.bitWidth()) + "-bit values is not supported");
  if (o.operand(0)->type().addressSpace() == ir::AddressSpace::Shared) fail(o, "on shared memory is not supported");
  const std::string &sem = o.attr("sem")->getString();
  uint32_t order = sem == "relaxed" ? 0 : sem == "acquire" ? 0x2 : sem == "release" ? 0x4 : 0x8;
  // The storage class global memory is in: UniformMemory (Vulkan's buffers), CrossWorkgroupMemory (OpenCL).
  uint32_t storage = opts.flavour == Flavour::OpenCL ? 0x200 : 0x40;
  uint32_t semantics = order ? order | storage : 0;
  uint32_t scope = o.attr("scope")->getString() == "cta" ? kScopeWorkgroup : kScopeDevice;
  Id ty = typeOf(elem);
  bool f = elem.isFloat(), wide = elem.bitWidth() == 64;
  // OpenCL: cl_khr_int64_base/extended_atomics; the runtime checks the device has them.
  if (wide) b.capability(spv::Capability::Int64Atomics);
  Id ptr = get(o.operand(0)), a = get(o.operand(1));
  if (cas) {
    Id it = b.intType(elem.bitWidth());
    Id cmp = f ? op(Op::OpBitcast, it, {a}) : a;
    Id val = get(o.operand(2));
    if (f) val = op(Op::OpBitcast, it, {val});
    uint32_t unequal = (sem == "acquire" || sem == "acq_rel") ? 0x2 | storage : 0;
    Id r = op(Op::OpAtomicCompareExchange, it,
              {globalPointer(ptr, it), c32(scope), c32(semantics), c32(unequal), val, cmp});
    return set(o.result(), f ? op(Op::OpBitcast, ty, {r}) : r);
  }
  const std::string &k = o.attr("kind")->getString();
  Op code;
  if (f) {
    if (k == "add") {
      b.extension("SPV_EXT_shader_atomic_float_add");
      b.capability(wide ? spv::Capability::AtomicFloat64AddEXT : spv::Capability::AtomicFloat32AddEXT);
      code = Op::OpAtomicFAddEXT;
    } else if (k == "max" || k == "min") {
      // With integer atomics on the bits (few devices have float min/max
      // atomics; NVIDIA's Vulkan driver hangs on them without the feature):
      // non-negative floats order as signed integers, negative ones in
      // reverse as unsigned, and every non-negative float is above every
      // negative one either way.
      Id it = b.intType(elem.bitWidth());
      Id bits = op(Op::OpBitcast, it, {a});
      Id negative = op(Op::OpSLessThan, boolTy(), {bits, uconst(it, 0)});
      bool isMax = k == "max";
      auto minMax = [&] {
        Id p = globalPointer(ptr, it);
        std::vector<uint32_t> operands{p, c32(scope), c32(semantics), bits};
        Id old = when(negative, [&] {
          return std::vector<Id>{op(isMax ? Op::OpAtomicUMin : Op::OpAtomicUMax, it, operands)};
        }, {uconst(it, 0)})[0];
        Id other = when(op(Op::OpLogicalNot, boolTy(), {negative}), [&] {
          return std::vector<Id>{op(isMax ? Op::OpAtomicSMax : Op::OpAtomicSMin, it, operands)};
        }, {uconst(it, 0)})[0];
        return std::vector<Id>{op(Op::OpBitcast, ty, {select(negative, old, other)})};
      };
      if (o.numOperands() < 3) return set(o.result(), minMax()[0]);
      return set(o.result(), when(get(o.operand(2)), minMax, {fconst(ty, 0.0)})[0]);
    } else if (k == "xchg") code = Op::OpAtomicExchange;
    else fail(o, "'" + k + "' on floats is not supported");
  } else {
    bool s = elem.isSigned();
    code = k == "add" ? Op::OpAtomicIAdd : k == "max" ? (s ? Op::OpAtomicSMax : Op::OpAtomicUMax)
         : k == "min" ? (s ? Op::OpAtomicSMin : Op::OpAtomicUMin) : k == "and" ? Op::OpAtomicAnd
         : k == "or" ? Op::OpAtomicOr : k == "xor" ? Op::OpAtomicXor : Op::OpAtomicExchange;
  }
  auto rmw = [&] { return std::vector<Id>{op(code, ty, {globalPointer(ptr, ty), c32(scope), c32(semantics), a})}; };
  if (o.numOperands() < 3) return set(o.result(), rmw()[0]);
  // Masked off: no access; the result is zero.
  set(o.result(), when(get(o.operand(2)), rmw, {f ? fconst(ty, 0.0) : uconst(ty, 0)})[0]);
}

// 32-bit words through the subgroup, as the LLVM emitter does.
Id KernelEmitter::shuffleXor(Id v, ir::Type t, int mask) {
  bool opencl = opts.flavour == Flavour::OpenCL;
  if (opencl) {
    b.extension("SPV_INTEL_subgroups");
    b.capability(spv::Capability::SubgroupShuffleINTEL);
  } else {
    b.capability(spv::Capability::GroupNonUniformShuffle);
  }
  auto shuffle = [&](Id word) {
    if (opencl) return op(Op::OpSubgroupShuffleXorINTEL, u32(), {word, c32(uint32_t(mask))});
    return op(Op::OpGroupNonUniformShuffleXor, u32(), {c32(kScopeSubgroup), word, c32(uint32_t(mask))});
  };
  Id ty = b.typeOfValue(v);
  if (t.isBool()) return op(Op::OpINotEqual, boolTy(), {shuffle(select(v, c32(1), c32(0))), c32(0)});
  int bits = b.widthOf(ty);
  Id it = b.intType(bits);
  Id asInt = b.isFloatType(ty) ? op(Op::OpBitcast, it, {v}) : v;
  Id r;
  if (bits == 64) {
    Id lo = shuffle(op(Op::OpUConvert, u32(), {asInt}));
    Id hi = shuffle(op(Op::OpUConvert, u32(), {op(Op::OpShiftRightLogical, it, {asInt, uconst(it, 32)})}));
    r = op(Op::OpBitwiseOr, it, {op(Op::OpUConvert, it, {lo}),
                                 op(Op::OpShiftLeftLogical, it, {op(Op::OpUConvert, it, {hi}), uconst(it, 32)})});
  } else {
    r = shuffle(bits == 32 ? asInt : op(Op::OpUConvert, u32(), {asInt}));
    if (bits != 32) r = op(Op::OpUConvert, it, {r});
  }
  return b.isFloatType(ty) ? op(Op::OpBitcast, ty, {r}) : r;
}

// A failing assertion claims the record (compare-and-swap from 0), so the
// runtime reports the first; the launch then fails with its message.
void KernelEmitter::emitAssert(const ir::Operation &o) {
  if (!assertRecord) fail(o, "(device assertion): internal error: no assertion record");
  assertMessages.push_back((o.loc().file.empty() ? std::string("<unknown>") : o.loc().file) + ":" +
                           std::to_string(o.loc().line) + ": device assertion failed: " + o.attr("message")->getString());
  uint32_t number = uint32_t(assertMessages.size());
  Id failed = op(Op::OpLogicalNot, boolTy(), {get(o.operand(0))});
  when(failed, [&] {
    op(Op::OpAtomicCompareExchange, u32(), {globalPointer(assertRecord, u32()), c32(kScopeDevice), c32(0), c32(0), c32(number), c32(0)});
    return std::vector<Id>{};
  }, {});
}

// The program's first thread reports for it (ir/Ops.def, check_failed).
void KernelEmitter::emitCheckFailed(const ir::Operation &o) {
  // The count is an i64; OpenCL without cl_khr_int64_base_atomics counts in
  // its low word (little-endian), which suffices below 2^32 failures.
  bool narrow = opts.flavour == Flavour::OpenCL;
  Id countTy = narrow ? u32() : u64();
  if (!narrow) b.capability(spv::Capability::Int64Atomics);
  Id report = get(o.operand(0));
  Id first = op(Op::OpIEqual, boolTy(), {threadId, c32(0)});
  Id failed = op(Op::OpLogicalAnd, boolTy(), {get(o.operand(1)), first});
  when(failed, [&] {
    Id previous = op(Op::OpAtomicIAdd, countTy, {globalPointer(report, countTy), c32(kScopeDevice), c32(0), uconst(countTy, 1)});
    when(op(Op::OpIEqual, boolTy(), {previous, uconst(countTy, 0)}), [&] {
      std::vector<Id> fields;
      for (const char *name : {"kind", "arg", "line", "col"}) fields.push_back(uconst(u64(), uint64_t(o.attr(name)->getInt())));
      fields.push_back(get(o.operand(2)));
      for (uint32_t axis = 0; axis < 3; ++axis)
        fields.push_back(op(Op::OpUConvert, u64(), {builtinComponent(workgroupId, axis)}));
      for (size_t i = 0; i < fields.size(); ++i) {
        Id at = op(Op::OpIAdd, u64(), {report, uconst(u64(), 8 * (i + 1))});
        b.opNoResult(Op::OpStore, {globalPointer(at, u64()), fields[i], kAligned, 8});
      }
      return std::vector<Id>{};
    }, {});
    return std::vector<Id>{};
  }, {});
}

// A record claimed by an atomic add on the cursor, written where it fits
// (the runtime reports the bytes that did not).
void KernelEmitter::emitPrintf(const ir::Operation &o) {
  if (opts.flavour == Flavour::OpenCL) return emitOpenClPrintf(o);
  const std::string &format = o.attr("format")->getString();
  auto known = std::find(printFormats.begin(), printFormats.end(), format);
  if (known == printFormats.end()) known = printFormats.insert(printFormats.end(), format);
  uint32_t number = uint32_t(known - printFormats.begin()) + 1, size = 8 + 8 * o.numOperands();
  std::vector<Id> args;
  for (unsigned i = 0; i < o.numOperands(); ++i) {
    ir::Type t = o.operand(i)->type();
    Id v = get(o.operand(i));
    if (t.isFloat()) v = op(Op::OpBitcast, u64(), {v});
    else if (!t.isPointer() && t.bitWidth() == 32) v = op(t.isSigned() ? Op::OpSConvert : Op::OpUConvert, u64(), {v});
    args.push_back(v);
  }
  Id at = op(Op::OpAtomicIAdd, u32(), {globalPointer(printBuffer, u32()), c32(kScopeDevice), c32(0), c32(size)});
  Id capacityAddress = op(Op::OpIAdd, u64(), {printBuffer, b.constant(u64(), uint64_t(4))});
  Id capacity = op(Op::OpLoad, u32(), {globalPointer(capacityAddress, u32()), kAligned, 4});
  Id fits = op(Op::OpULessThanEqual, boolTy(), {op(Op::OpUConvert, u64(), {at}),
                                                op(Op::OpISub, u64(), {op(Op::OpUConvert, u64(), {capacity}),
                                                                       b.constant(u64(), uint64_t(size))})});
  Id enough = op(Op::OpUGreaterThanEqual, boolTy(), {capacity, c32(size)});
  when(op(Op::OpLogicalAnd, boolTy(), {fits, enough}), [&] {
    Id record = op(Op::OpIAdd, u64(), {printBuffer, op(Op::OpIAdd, u64(), {op(Op::OpUConvert, u64(), {at}),
                                                                           b.constant(u64(), uint64_t(16))})});
    auto addr = [&](uint64_t offset) { return op(Op::OpIAdd, u64(), {record, b.constant(u64(), offset)}); };
    b.opNoResult(Op::OpStore, {globalPointer(record, u32()), c32(number), kAligned, 4});
    b.opNoResult(Op::OpStore, {globalPointer(addr(4), u32()), c32(size), kAligned, 4});
    for (size_t i = 0; i < args.size(); ++i)
      b.opNoResult(Op::OpStore, {globalPointer(addr(8 + 8 * i), u64()), args[i], kAligned, 8});
    return std::vector<Id>{};
  }, {});
}

// OpenCL.std's printf: the format a constant string, 64-bit integers
// spelled with OpenCL C's l (%ld and %016lx, not %lld), pointers passed as
// pointers.
void KernelEmitter::emitOpenClPrintf(const ir::Operation &o) {
  std::string format = o.attr("format")->getString();
  for (size_t at = format.find('%'); at != std::string::npos; at = format.find('%', at + 1)) {
    if (at + 1 < format.size() && format[at + 1] == '%') {
      ++at;
      continue;
    }
    size_t length = format.find_first_not_of("-+ #0123456789.", at + 1);  // past flags, width, precision
    if (length != std::string::npos && format.compare(length, 2, "ll") == 0) format.erase(length, 1);
  }
  Id text = b.constantString(format);
  Id i8 = b.intType(8);
  Id &var = formatStrings[text];
  if (!var) {
    var = b.variable(b.pointerType(spv::StorageClass::UniformConstant, b.typeOfValue(text)), spv::StorageClass::UniformConstant, text);
    b.decorate(var, spv::Decoration::Constant);
  }
  Id formatPtr = op(Op::OpBitcast, b.pointerType(spv::StorageClass::UniformConstant, i8), {var});
  std::vector<Id> args{formatPtr};
  for (unsigned i = 0; i < o.numOperands(); ++i) {
    Id v = get(o.operand(i));
    if (o.operand(i)->type().isPointer()) v = op(Op::OpConvertUToPtr, b.pointerType(spv::StorageClass::CrossWorkgroup, i8), {v});
    args.push_back(v);
  }
  b.extInst(u32(), b.extInstSet("OpenCL.std"), 184, args);  // printf
}

} // namespace tessera::targets::spirv
