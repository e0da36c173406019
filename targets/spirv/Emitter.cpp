// The kernel's frame: types, constants, arguments, builtins, shared memory.
#include "targets/spirv/Emitter.h"

#include "targets/spirv/Extensions.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>

#include "llvm/ADT/APFloat.h"

#include <cstring>

namespace tessera::targets::spirv {

using ir::ScalarKind;

void KernelEmitter::fail(const ir::Operation &op, const std::string &msg) const {
  throw EmitError{op.loc().str() + ": error: spirv target: '" + op.name() + "' " + msg};
}

Id KernelEmitter::typeOf(ir::Type t) {
  t = t.element();
  if (t.isPointer()) return t.addressSpace() == ir::AddressSpace::Shared ? u32() : u64();
  switch (t.scalarKind()) {
  case ScalarKind::I1: return boolTy();
  case ScalarKind::I8: case ScalarKind::U8: case ScalarKind::F8E4M3: case ScalarKind::F8E5M2: case ScalarKind::F8E4B15:
    b.capability(spv::Capability::Int8);
    return b.intType(8);
  case ScalarKind::I16: case ScalarKind::U16: case ScalarKind::BF16:
    b.capability(spv::Capability::Int16);
    return b.intType(16);
  case ScalarKind::I32: case ScalarKind::U32: return u32();
  case ScalarKind::I64: case ScalarKind::U64: return u64();
  case ScalarKind::F16:
    return opts.flavour == Flavour::OpenCL ? b.intType(16) : b.floatType(16);
  case ScalarKind::F32: return f32();
  case ScalarKind::F64:
    b.capability(spv::Capability::Float64);
    return b.floatType(64);
  }
  return u32();
}

Id KernelEmitter::storageOf(ir::Type t) {
  t = t.element();
  if (t.isBool()) {
    b.capability(spv::Capability::Int8);
    return b.intType(8);
  }
  return typeOf(t);
}

Id KernelEmitter::fconst(Id type, double v) {
  int w = b.widthOf(type);
  if (w == 64) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return b.constant(type, bits);
  }
  if (w == 32) {
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return b.constant(type, bits);
  }
  llvm::APFloat h(v);
  bool lost;
  h.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return b.constant(type, h.bitcastToAPInt().getZExtValue());
}

namespace {

// GLSL.std.450 instruction -> OpenCL.std's with the same meaning, for the
// ones the emitter uses (NMin/NMax: OpenCL's fmin/fmax return the non-NaN).
uint32_t openclInstruction(uint32_t glsl) {
  switch (glsl) {
  case GLSLstd450RoundEven: return OpenCLLIB::Rint;
  case GLSLstd450Trunc: return OpenCLLIB::Trunc;
  case GLSLstd450FAbs: return OpenCLLIB::Fabs;
  case GLSLstd450SAbs: return OpenCLLIB::SAbs;
  case GLSLstd450FSign: return OpenCLLIB::Sign;
  case GLSLstd450Floor: return OpenCLLIB::Floor;
  case GLSLstd450Ceil: return OpenCLLIB::Ceil;
  case GLSLstd450Sin: return OpenCLLIB::Sin;
  case GLSLstd450Cos: return OpenCLLIB::Cos;
  case GLSLstd450Tan: return OpenCLLIB::Tan;
  case GLSLstd450Asin: return OpenCLLIB::Asin;
  case GLSLstd450Acos: return OpenCLLIB::Acos;
  case GLSLstd450Atan: return OpenCLLIB::Atan;
  case GLSLstd450Sinh: return OpenCLLIB::Sinh;
  case GLSLstd450Cosh: return OpenCLLIB::Cosh;
  case GLSLstd450Tanh: return OpenCLLIB::Tanh;
  case GLSLstd450Asinh: return OpenCLLIB::Asinh;
  case GLSLstd450Acosh: return OpenCLLIB::Acosh;
  case GLSLstd450Atanh: return OpenCLLIB::Atanh;
  case GLSLstd450Atan2: return OpenCLLIB::Atan2;
  case GLSLstd450Pow: return OpenCLLIB::Pow;
  case GLSLstd450Exp: return OpenCLLIB::Exp;
  case GLSLstd450Log: return OpenCLLIB::Log;
  case GLSLstd450Exp2: return OpenCLLIB::Exp2;
  case GLSLstd450Log2: return OpenCLLIB::Log2;
  case GLSLstd450Sqrt: return OpenCLLIB::Sqrt;
  case GLSLstd450FMin: case GLSLstd450NMin: return OpenCLLIB::Fmin;
  case GLSLstd450FMax: case GLSLstd450NMax: return OpenCLLIB::Fmax;
  case GLSLstd450FClamp: return OpenCLLIB::FClamp;
  case GLSLstd450Fma: return OpenCLLIB::Fma;
  default: return ~0u;
  }
}

} // namespace

Id KernelEmitter::glsl(Id type, uint32_t inst, const std::vector<Id> &args) {
  if (opts.flavour == Flavour::OpenCL) {
    uint32_t cl = openclInstruction(inst);
    if (cl == ~0u) throw EmitError{"internal error: spirv: no OpenCL.std twin of GLSL.std.450 instruction " + std::to_string(inst)};
    return b.extInst(type, b.extInstSet("OpenCL.std"), cl, args);
  }
  return b.extInst(type, b.extInstSet("GLSL.std.450"), inst, args);
}

Id KernelEmitter::builtinComponent(Id var, uint32_t axis) {
  Id elem = opts.flavour == Flavour::OpenCL ? u64() : u32();
  Id v = op(spv::Op::OpCompositeExtract, elem, {op(spv::Op::OpLoad, b.vectorType(elem, 3), {var}), axis});
  return elem == u32() ? v : op(spv::Op::OpUConvert, u32(), {v});
}

Id KernelEmitter::select(Id cond, Id a, Id bv) { return op(spv::Op::OpSelect, b.typeOfValue(a), {cond, a, bv}); }

Id KernelEmitter::get(const ir::Value *v) {
  auto it = values_.find(v);
  if (it == values_.end()) throw EmitError{"internal error: the spirv emitter used a value before defining it"};
  return it->second;
}

void KernelEmitter::emit(const ir::Function &kernel, const std::string &entry, EmittedKernel &out) {
  bool opencl = opts.flavour == Flavour::OpenCL;
  if (opencl) {
    b.capability(spv::Capability::Kernel);
    b.capability(spv::Capability::Addresses);
    b.capability(spv::Capability::Int64);
    b.capability(spv::Capability::SubgroupDispatch);  // the SubgroupSize execution mode
    b.memoryModel(spv::AddressingModel::Physical64, spv::MemoryModel::OpenCL);
  } else {
    b.capability(spv::Capability::Shader);
    b.capability(spv::Capability::PhysicalStorageBufferAddresses);
    b.capability(spv::Capability::Int64);
    b.capability(spv::Capability::GroupNonUniform);
    // SPV_KHR_cooperative_matrix requires the Vulkan memory model of shaders;
    // other kernels keep GLSL450's (no device feature to ask for).
    vulkanMemoryModel = contains(kernel.entry(), [](const ir::Operation &o) { return o.is(ir::OpCode::CoopMma); });
    if (vulkanMemoryModel) b.capability(spv::Capability(coop::kCapabilityVulkanMemoryModel));
    // Under it, the Device scope of global atomics, and of the records of
    // prints, assertions and checked accesses, needs a capability of its own.
    if (vulkanMemoryModel && contains(kernel.entry(), [](const ir::Operation &o) {
          return o.is(ir::OpCode::AtomicRmw) || o.is(ir::OpCode::AtomicCas) || o.is(ir::OpCode::Printf) ||
                 o.is(ir::OpCode::Assert) || o.is(ir::OpCode::CheckFailed);
        }))
      b.capability(spv::Capability(coop::kCapabilityVulkanMemoryModelDeviceScope));
    b.memoryModel(spv::AddressingModel::PhysicalStorageBuffer64,
                  vulkanMemoryModel ? spv::MemoryModel(coop::kMemoryModelVulkan) : spv::MemoryModel::GLSL450);
  }
  out.threads = opts.warpSize * opts.numWarps;

  // Arguments: one push-constant block (Vulkan) or parameters (OpenCL).
  std::vector<Id> members;
  uint32_t offset = 0;
  std::vector<uint32_t> offsets;
  for (unsigned i = 0; i < kernel.numArguments(); ++i) {
    ir::Type t = kernel.argument(i)->type();
    if (t.isPointer() && t.addressSpace() == ir::AddressSpace::Shared)
      throw EmitError{"error: spirv target: kernel arguments cannot be shared-memory pointers"};
    Id st = storageOf(t);
    uint32_t bytes = uint32_t(memoryBytes(t));
    if (!opencl && bytes == 1) b.capability(spv::Capability::StoragePushConstant8);
    if (!opencl && bytes == 2) b.capability(spv::Capability::StoragePushConstant16);
    offset = (offset + bytes - 1) / bytes * bytes;
    offsets.push_back(offset);
    offset += bytes;
    members.push_back(opencl && t.isPointer() ? b.pointerType(spv::StorageClass::CrossWorkgroup, b.intType(8)) : st);
    KernelParam p;
    p.name = kernel.argument(i)->nameHint();
    p.type = t;
    p.sizeBytes = int(bytes);
    out.params.push_back(p);
  }
  auto argName = [&](unsigned i) {
    return kernel.argument(i)->nameHint().empty() ? "arg" + std::to_string(i) : kernel.argument(i)->nameHint();
  };
  // Device assertions (Vulkan): one more member after the arguments, the
  // address of a word the runtime zeroes before the launch and reads after
  // it; a failing assertion stores its number there (the first one wins).
  std::vector<const char *> hidden;  // member names after the arguments
  auto has = [&](ir::OpCode code) { return contains(kernel.entry(), [&](const ir::Operation &o) { return o.is(code); }); };
  bool asserts = !opencl && has(ir::OpCode::Assert), prints = !opencl && has(ir::OpCode::Printf);
  // Vulkan guarantees 128 bytes of push constants on every device: beyond
  // them the arguments go to a parameter buffer the runtime fills before the
  // launch (vkCmdUpdateBuffer), and the push constants hold its address.
  std::vector<uint32_t> bufferOffsets;  // the arguments' offsets in it
  uint32_t bufferBytes = 0;
  if (!opencl && (offset + 7) / 8 * 8 + 8 * (uint32_t(asserts) + uint32_t(prints)) > 128) {
    bufferOffsets = offsets, bufferBytes = offset;
    if (bufferBytes > 65536)
      throw EmitError{"error: spirv target: kernel '" + entry + "' takes " + std::to_string(bufferBytes) +
                      " bytes of arguments; at most 65536 fit its parameter buffer"};
    members.clear(), offsets.clear(), offset = 0;
  }
  auto addHidden = [&](const char *name) {
    offset = (offset + 7) / 8 * 8;
    offsets.push_back(offset);
    offset += 8;
    members.push_back(u64());
    hidden.push_back(name);
  };
  if (!bufferOffsets.empty()) addHidden(kParametersMember);
  if (asserts) addHidden(kAssertRecordMember);
  if (prints) addHidden(kPrintBufferMember);
  // Only where it fits: else masked loads branch.
  bool maskedGlobalLoads = contains(kernel.entry(), [](const ir::Operation &o) {
    return o.is(ir::OpCode::VLoad) && o.numOperands() > 1 && o.operand(0)->type().addressSpace() != ir::AddressSpace::Shared;
  });
  if (!opencl && maskedGlobalLoads && (offset + 7) / 8 * 8 + 8 <= 128) addHidden(kSafeAddressMember);
  unsigned pushArguments = bufferOffsets.empty() ? kernel.numArguments() : 0;
  Id params = 0;
  if (!opencl && !members.empty()) {
    Id block = b.structType(members);
    b.decorate(block, spv::Decoration::Block);
    for (uint32_t m = 0; m < members.size(); ++m) {
      b.memberDecorate(block, m, spv::Decoration::Offset, {offsets[m]});
      b.memberName(block, m, m < pushArguments ? argName(m) : std::string(hidden[m - pushArguments]));
    }
    b.name(block, "Arguments");
    params = b.variable(b.pointerType(spv::StorageClass::PushConstant, block), spv::StorageClass::PushConstant);
    b.name(params, "arguments");
    interface.push_back(params);
  }

  // Builtins: OpenCL's grid ids are size_t (u64 with Physical64).
  Id v3 = b.vectorType(opencl ? u64() : u32(), 3);
  auto builtin = [&](Id type, spv::BuiltIn which, const char *name) {
    Id var = b.variable(b.pointerType(spv::StorageClass::Input, type), spv::StorageClass::Input);
    b.decorate(var, spv::Decoration::BuiltIn, {uint32_t(which)});
    if (opencl) b.decorate(var, spv::Decoration::Constant);
    b.name(var, name);
    interface.push_back(var);
    return var;
  };
  workgroupId = builtin(v3, spv::BuiltIn::WorkgroupId, "workgroup_id");
  numWorkgroups = builtin(v3, spv::BuiltIn::NumWorkgroups, "num_workgroups");
  Id laneVar = builtin(u32(), spv::BuiltIn::SubgroupLocalInvocationId, "lane");
  Id warpVar = builtin(u32(), spv::BuiltIn::SubgroupId, "warp");

  out.sharedMemoryBytes = kernel.attrs().getInt("shared_memory_bytes", 0);
  if (out.sharedMemoryBytes > 0) {
    uint32_t words = uint32_t((out.sharedMemoryBytes + 3) / 4);
    Id arr = b.arrayType(u32(), words);
    sharedVar = b.variable(b.pointerType(spv::StorageClass::Workgroup, arr), spv::StorageClass::Workgroup);
    b.name(sharedVar, "shared");
    interface.push_back(sharedVar);
  }

  // OpenCL: device assertions take a last, hidden parameter: the record's
  // address (the Level Zero runtime passes and reads it, as Vulkan's does).
  bool openclAsserts = opencl && has(ir::OpCode::Assert);
  if (openclAsserts) members.push_back(b.pointerType(spv::StorageClass::CrossWorkgroup, b.intType(8)));
  Id fn = b.newId();
  b.name(fn, entry);
  Id fnType = b.functionType(b.voidType(), opencl ? members : std::vector<Id>{});
  Words fnOps{b.voidType(), fn, uint32_t(spv::FunctionControlMask::MaskNone), fnType};
  b.opNoResult(spv::Op::OpFunction, fnOps);
  std::vector<Id> parameters;
  if (opencl)
    for (unsigned i = 0; i < kernel.numArguments(); ++i) {
      Id param = b.newId();
      b.opNoResult(spv::Op::OpFunctionParameter, {members[i], param});
      b.name(param, argName(i));
      parameters.push_back(param);
    }
  Id recordParam = 0;
  if (openclAsserts) {
    recordParam = b.newId();
    b.opNoResult(spv::Op::OpFunctionParameter, {members.back(), recordParam});
    b.name(recordParam, kAssertRecordMember);
  }
  b.label(b.newId());
  laneId = op(spv::Op::OpLoad, u32(), {laneVar});
  warpId = op(spv::Op::OpLoad, u32(), {warpVar});
  threadId = op(spv::Op::OpIAdd, u32(), {op(spv::Op::OpIMul, u32(), {warpId, c32(uint32_t(opts.warpSize))}), laneId});
  Id parameterBuffer = bufferOffsets.empty() ? 0 : op(spv::Op::OpLoad, u64(), {op(spv::Op::OpAccessChain,
                                                   b.pointerType(spv::StorageClass::PushConstant, u64()), {params, c32(0)})});
  for (unsigned i = 0; i < kernel.numArguments(); ++i) {
    ir::Type t = kernel.argument(i)->type();
    Id st = storageOf(t);
    Id v;
    if (opencl) {
      v = t.isPointer() ? op(spv::Op::OpConvertPtrToU, u64(), {parameters[i]}) : parameters[i];
    } else if (parameterBuffer) {
      Id at = op(spv::Op::OpIAdd, u64(), {parameterBuffer, b.constant(u64(), bufferOffsets[i])});
      v = op(spv::Op::OpLoad, st, {globalPointer(at, st), 0x2u, uint32_t(memoryBytes(t))});
    } else {
      Id member = op(spv::Op::OpAccessChain, b.pointerType(spv::StorageClass::PushConstant, members[i]), {params, c32(i)});
      v = op(spv::Op::OpLoad, members[i], {member});
    }
    if (t.isBool()) v = op(spv::Op::OpINotEqual, boolTy(), {v, uconst(st, 0)});
    set(kernel.argument(i), v);
  }
  if (recordParam) assertRecord = op(spv::Op::OpConvertPtrToU, u64(), {recordParam});
  for (size_t h = 0; h < hidden.size(); ++h) {
    if (hidden[h] == kParametersMember) continue;
    Id member = op(spv::Op::OpAccessChain, b.pointerType(spv::StorageClass::PushConstant, u64()),
                   {params, c32(uint32_t(pushArguments + h))});
    Id &slot = hidden[h] == kAssertRecordMember ? assertRecord : hidden[h] == kPrintBufferMember ? printBuffer : safeAddress;
    slot = op(spv::Op::OpLoad, u64(), {member});
  }
  emitBlock(kernel.entry());
  b.opNoResult(spv::Op::OpReturn, {});
  b.opNoResult(spv::Op::OpFunctionEnd, {});

  // SPIR-V before 1.4 (OpenCL's) lists only Input and Output variables.
  b.entryPoint(opencl ? spv::ExecutionModel::Kernel : spv::ExecutionModel::GLCompute, fn, entry,
               opencl ? std::vector<Id>{workgroupId, numWorkgroups, laneVar, warpVar} : interface);
  b.executionMode(fn, spv::ExecutionMode::LocalSize, {uint32_t(out.threads), 1, 1});
  if (opencl) b.executionMode(fn, spv::ExecutionMode::SubgroupSize, {uint32_t(opts.warpSize)});
  b.moduleProcessed("tessera.subgroup_size " + std::to_string(opts.warpSize));
  for (size_t i = 0; i < assertMessages.size(); ++i)
    b.moduleProcessed("tessera.assert " + std::to_string(i + 1) + " " + assertMessages[i]);
  if (!bufferOffsets.empty()) {
    std::string layout = "tessera.parameters " + std::to_string(bufferBytes);
    for (unsigned i = 0; i < kernel.numArguments(); ++i)
      layout += " " + std::to_string(bufferOffsets[i]) + ":" + std::to_string(memoryBytes(kernel.argument(i)->type()));
    b.moduleProcessed(layout);
  }
  for (size_t i = 0; i < printFormats.size(); ++i)
    b.moduleProcessed("tessera.print " + std::to_string(i + 1) + " " + printFormats[i]);
  // OpenCL: SPIR-V 1.2 (OpenCL 2.2, Level Zero); Vulkan 1.2: SPIR-V 1.5.
  out.int64Atomics = b.declares(spv::Capability::Int64Atomics);
  out.cooperativeMatrices = vulkanMemoryModel;
  out.words = b.finish(opencl ? 0x00010200 : 0x00010500);
}

bool KernelEmitter::contains(const ir::Block &block, const std::function<bool(const ir::Operation &)> &pred) {
  for (auto &o : block.ops()) {
    if (pred(*o)) return true;
    for (unsigned r = 0; r < o->numRegions(); ++r)
      if (contains(o->region(r).block(), pred)) return true;
  }
  return false;
}

bool emitKernel(const ir::Function &kernel, const std::string &entry, const EmitOptions &options, EmittedKernel &out,
                std::string &error) {
  if (!kernel.isThreadLevel()) {
    error = "internal error: spirv: kernel @" + kernel.name() + " is not at the thread level";
    return false;
  }
  KernelEmitter emitter(options);
  try {
    emitter.emit(kernel, entry, out);
  } catch (const EmitError &e) {
    error = e.message;
    return false;
  }
  return true;
}

} // namespace tessera::targets::spirv
