#include "targets/spirv/Builder.h"

#include "targets/spirv/Extensions.h"

namespace tessera::targets::spirv {

void Builder::appendString(Words &w, const std::string &text) {
  // Nul-terminated, padded with nuls to a whole word. A literal cannot hold a
  // nul, so text (a kernel's print format or assert message) ends at its
  // first one, as the C strings of the other targets' printf and assert do.
  std::string s = text.substr(0, text.find('\0'));
  size_t words = s.size() / 4 + 1;
  size_t start = w.size();
  w.resize(start + words, 0);
  for (size_t i = 0; i < s.size(); ++i) w[start + i / 4] |= uint32_t(uint8_t(s[i])) << (8 * (i % 4));
}

void Builder::emit(Words &section, spv::Op opcode, const std::vector<uint32_t> &operands) {
  section.push_back(uint32_t(operands.size() + 1) << 16 | uint32_t(opcode));
  section.insert(section.end(), operands.begin(), operands.end());
}

Id Builder::extInstSet(const std::string &name) {
  auto it = extSets_.find(name);
  if (it != extSets_.end()) return it->second;
  Id id = newId();
  Words ops{id};
  appendString(ops, name);
  emit(extImports_, spv::Op::OpExtInstImport, ops);
  return extSets_[name] = id;
}

// A type or constant: made once per (opcode, operands), its id placed after
// `resultTypePrefix` operands (1 for constants: their type comes first).
Id Builder::cached(spv::Op opcode, std::vector<uint32_t> operands, size_t resultTypePrefix) {
  std::vector<uint32_t> key{uint32_t(opcode)};
  key.insert(key.end(), operands.begin(), operands.end());
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  Id id = newId();
  operands.insert(operands.begin() + std::ptrdiff_t(resultTypePrefix), id);
  emit(globals_, opcode, operands);
  if (resultTypePrefix) valueTypes_[id] = operands[0];
  return cache_[key] = id;
}

Id Builder::voidType() { return cached(spv::Op::OpTypeVoid, {}); }
Id Builder::boolType() {
  Id t = cached(spv::Op::OpTypeBool, {});
  widths_[t] = 1;
  return t;
}
Id Builder::intType(int bits) {
  if (bits == 8) capability(spv::Capability::Int8);
  if (bits == 16) capability(spv::Capability::Int16);
  if (bits == 64) capability(spv::Capability::Int64);
  Id t = cached(spv::Op::OpTypeInt, {uint32_t(bits), 0u});
  widths_[t] = bits;
  return t;
}
Id Builder::floatType(int bits) {
  if (bits == 16) capability(spv::Capability::Float16);
  if (bits == 64) capability(spv::Capability::Float64);
  Id t = cached(spv::Op::OpTypeFloat, {uint32_t(bits)});
  widths_[t] = bits;
  floatTypes_.insert(t);
  return t;
}
Id Builder::bfloat16Type() {
  Id t = cached(spv::Op::OpTypeFloat, {16u, coop::kFPEncodingBFloat16});
  widths_[t] = 16;
  floatTypes_.insert(t);
  return t;
}
Id Builder::cooperativeMatrixType(Id component, Id scope, Id rows, Id columns, Id use) {
  return cached(spv::Op(coop::kOpTypeCooperativeMatrix), {component, scope, rows, columns, use});
}
Id Builder::vectorType(Id elem, int count) {
  Id t = cached(spv::Op::OpTypeVector, {elem, uint32_t(count)});
  vectorElements_[t] = elem;
  return t;
}
Id Builder::pointerType(spv::StorageClass storage, Id pointee) {
  return cached(spv::Op::OpTypePointer, {uint32_t(storage), pointee});
}
Id Builder::arrayType(Id elem, uint32_t count) { return cached(spv::Op::OpTypeArray, {elem, constant(intType(32), count)}); }
Id Builder::functionType(Id result, const std::vector<Id> &params) {
  std::vector<uint32_t> operands{result};
  operands.insert(operands.end(), params.begin(), params.end());
  return cached(spv::Op::OpTypeFunction, operands);
}

Id Builder::structType(const std::vector<Id> &members) {
  Id id = newId();
  std::vector<uint32_t> operands{id};
  operands.insert(operands.end(), members.begin(), members.end());
  emit(globals_, spv::Op::OpTypeStruct, operands);
  return id;
}

int Builder::widthOf(Id scalarType) const {
  auto it = widths_.find(scalarType);
  return it == widths_.end() ? 0 : it->second;
}

Id Builder::constant(Id type, uint64_t bits) {
  int width = widthOf(type);
  std::vector<uint32_t> words{type};
  if (width == 64) words.push_back(uint32_t(bits)), words.push_back(uint32_t(bits >> 32));
  else words.push_back(width == 32 ? uint32_t(bits) : uint32_t(bits & ((1ull << width) - 1)));
  return cached(spv::Op::OpConstant, words, 1);
}

Id Builder::constantBool(bool value) {
  return cached(value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, {boolType()}, 1);
}

Id Builder::variable(Id pointerTy, spv::StorageClass storage, Id initializer) {
  Id id = newId();
  std::vector<uint32_t> operands{pointerTy, id, uint32_t(storage)};
  if (initializer) operands.push_back(initializer);
  emit(globals_, spv::Op::OpVariable, operands);
  return id;
}

Id Builder::constantString(const std::string &text) {
  Id i8 = intType(8);
  std::vector<uint32_t> operands{arrayType(i8, uint32_t(text.size() + 1))};
  for (unsigned char c : text) operands.push_back(constant(i8, c));
  operands.push_back(constant(i8, 0));
  return cached(spv::Op::OpConstantComposite, operands, 1);
}

void Builder::decorate(Id target, spv::Decoration d, const std::vector<uint32_t> &extra) {
  std::vector<uint32_t> operands{target, uint32_t(d)};
  operands.insert(operands.end(), extra.begin(), extra.end());
  emit(annotations_, spv::Op::OpDecorate, operands);
}

void Builder::memberDecorate(Id structType, uint32_t member, spv::Decoration d, const std::vector<uint32_t> &extra) {
  std::vector<uint32_t> operands{structType, member, uint32_t(d)};
  operands.insert(operands.end(), extra.begin(), extra.end());
  emit(annotations_, spv::Op::OpMemberDecorate, operands);
}

void Builder::name(Id target, const std::string &text) {
  Words ops{target};
  appendString(ops, text);
  emit(debug_, spv::Op::OpName, ops);
}

void Builder::memberName(Id structType, uint32_t member, const std::string &text) {
  Words ops{structType, member};
  appendString(ops, text);
  emit(debug_, spv::Op::OpMemberName, ops);
}

void Builder::moduleProcessed(const std::string &text) {
  Words ops;
  appendString(ops, text);
  emit(debug_, spv::Op::OpModuleProcessed, ops);
}

void Builder::entryPoint(spv::ExecutionModel model, Id function, const std::string &text, const std::vector<Id> &interface) {
  Words ops{uint32_t(model), function};
  appendString(ops, text);
  ops.insert(ops.end(), interface.begin(), interface.end());
  emit(entryPoints_, spv::Op::OpEntryPoint, ops);
}

void Builder::executionMode(Id function, spv::ExecutionMode mode, const std::vector<uint32_t> &literals) {
  Words ops{function, uint32_t(mode)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  emit(executionModes_, spv::Op::OpExecutionMode, ops);
}

void Builder::memoryModel(spv::AddressingModel addressing, spv::MemoryModel memory) {
  memoryModel_.clear();
  emit(memoryModel_, spv::Op::OpMemoryModel, {uint32_t(addressing), uint32_t(memory)});
}

Id Builder::op(spv::Op opcode, Id resultType, const std::vector<uint32_t> &operands) {
  Id id = newId();
  std::vector<uint32_t> all{resultType, id};
  all.insert(all.end(), operands.begin(), operands.end());
  emit(body_, opcode, all);
  valueTypes_[id] = resultType;
  return id;
}

void Builder::opNoResult(spv::Op opcode, const std::vector<uint32_t> &operands) { emit(body_, opcode, operands); }

Id Builder::phi(Id type, const std::vector<std::pair<Id, Id>> &incoming) {
  std::vector<uint32_t> operands;
  for (auto [value, block] : incoming) operands.push_back(value), operands.push_back(block);
  return op(spv::Op::OpPhi, type, operands);
}

Id Builder::openPhi(Id type, int incomingCount, size_t &position) {
  position = body_.size();
  return op(spv::Op::OpPhi, type, std::vector<uint32_t>(size_t(2 * incomingCount), 0));
}

void Builder::setPhiIncoming(size_t position, int index, Id value, Id block) {
  body_[position + 3 + 2 * size_t(index)] = value;
  body_[position + 4 + 2 * size_t(index)] = block;
}

Id Builder::extInst(Id resultType, Id set, uint32_t instruction, const std::vector<Id> &args) {
  std::vector<uint32_t> operands{set, instruction};
  operands.insert(operands.end(), args.begin(), args.end());
  return op(spv::Op::OpExtInst, resultType, operands);
}

Words Builder::finish(uint32_t version) const {
  Words out{spv::MagicNumber, version, 0x54530000u /* generator: "TS", unregistered */, nextId_, 0};
  Words caps;
  for (uint32_t c : capabilities_) {
    caps.push_back(2u << 16 | uint32_t(spv::Op::OpCapability));
    caps.push_back(c);
  }
  Words exts;
  for (const std::string &e : extensions_) {
    Words ops;
    appendString(ops, e);
    exts.push_back(uint32_t(ops.size() + 1) << 16 | uint32_t(spv::Op::OpExtension));
    exts.insert(exts.end(), ops.begin(), ops.end());
  }
  for (const Words *section : std::initializer_list<const Words *>{&caps, &exts, &extImports_, &memoryModel_, &entryPoints_, &executionModes_, &debug_,
                               &annotations_, &globals_, &body_})
    out.insert(out.end(), section->begin(), section->end());
  return out;
}

} // namespace tessera::targets::spirv
