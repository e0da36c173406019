// A SPIR-V module in the making: ids, the module's sections in the order
// the specification requires, types and constants made once each, and one
// function body. Knows the binary encoding and nothing of Tessera's IR.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tessera::targets::spirv {

using Id = uint32_t;
using Words = std::vector<uint32_t>;

class Builder {
public:
  Id newId() { return nextId_++; }

  void capability(spv::Capability c) { capabilities_.insert(uint32_t(c)); }
  bool declares(spv::Capability c) const { return capabilities_.count(uint32_t(c)) != 0; }
  void extension(const std::string &name) { extensions_.insert(name); }
  // The id of an extended instruction set ("GLSL.std.450", "OpenCL.std").
  Id extInstSet(const std::string &name);

  // Types, each made once.
  Id voidType();
  Id boolType();
  Id intType(int bits);  // signedness 0: operations say how they read it
  Id floatType(int bits);
  // OpTypeFloat 16 with SPV_KHR_bfloat16's BFloat16KHR encoding.
  Id bfloat16Type();
  // OpTypeCooperativeMatrixKHR (SPV_KHR_cooperative_matrix); the scope,
  // rows, columns and use are ids of u32 constants.
  Id cooperativeMatrixType(Id component, Id scope, Id rows, Id columns, Id use);
  Id vectorType(Id elem, int count);
  Id pointerType(spv::StorageClass storage, Id pointee);
  Id arrayType(Id elem, uint32_t count);
  Id functionType(Id result, const std::vector<Id> &params);
  // A struct is never shared (its members get decorations of their own).
  Id structType(const std::vector<Id> &members);
  int widthOf(Id scalarType) const;  // bits of an int or float type; 1 for bool
  // The type of a value (an instruction's result or a constant); 0 if unknown.
  Id typeOfValue(Id value) const {
    auto it = valueTypes_.find(value);
    return it == valueTypes_.end() ? 0 : it->second;
  }
  // The element type of a vector type; a scalar type is its own.
  Id vectorElement(Id type) const {
    auto it = vectorElements_.find(type);
    return it == vectorElements_.end() ? type : it->second;
  }
  bool isFloatType(Id type) const { return floatTypes_.count(type) != 0; }

  // Constants, each made once: `bits` holds the value's bit pattern.
  Id constant(Id type, uint64_t bits);
  Id constantBool(bool value);

  // Module-scope declarations.
  Id variable(Id pointerTy, spv::StorageClass storage, Id initializer = 0);
  // A constant array of i8 holding `text` and its terminating zero (once per text).
  Id constantString(const std::string &text);
  void decorate(Id target, spv::Decoration d, const std::vector<uint32_t> &extra = {});
  void memberDecorate(Id structType, uint32_t member, spv::Decoration d, const std::vector<uint32_t> &extra = {});
  void name(Id target, const std::string &name);
  void memberName(Id structType, uint32_t member, const std::string &name);
  void moduleProcessed(const std::string &text);
  void entryPoint(spv::ExecutionModel model, Id function, const std::string &name, const std::vector<Id> &interface);
  void executionMode(Id function, spv::ExecutionMode mode, const std::vector<uint32_t> &literals);
  void memoryModel(spv::AddressingModel addressing, spv::MemoryModel memory);

  // The function body: instructions with a result type and id, without,
  // labels. Returns the result id (0 for none).
  Id op(spv::Op opcode, Id resultType, const std::vector<uint32_t> &operands);
  void opNoResult(spv::Op opcode, const std::vector<uint32_t> &operands);
  void label(Id block) {
    opNoResult(spv::Op::OpLabel, {block});
    currentBlock_ = block;
  }
  Id currentBlock() const { return currentBlock_; }
  // A phi whose incoming values are given later with setPhiIncoming
  // (loop headers: the back edge is emitted after the phi).
  Id phi(Id type, const std::vector<std::pair<Id, Id>> &incoming);
  Id openPhi(Id type, int incomingCount, size_t &position);
  void setPhiIncoming(size_t position, int index, Id value, Id block);
  Id extInst(Id resultType, Id set, uint32_t instruction, const std::vector<Id> &args);

  // The whole module: header, then every section in the required order.
  Words finish(uint32_t version) const;

  static void appendString(Words &w, const std::string &s);

private:
  void emit(Words &section, spv::Op opcode, const std::vector<uint32_t> &operands);
  Id cached(spv::Op opcode, std::vector<uint32_t> operands, size_t resultTypePrefix = 0);

  Id nextId_ = 1;
  std::set<uint32_t> capabilities_;
  std::set<std::string> extensions_;
  Words extImports_, memoryModel_, entryPoints_, executionModes_, debug_, annotations_, globals_, body_;
  std::map<std::string, Id> extSets_;
  std::map<std::vector<uint32_t>, Id> cache_;  // types and constants: opcode + operands -> id
  std::map<Id, int> widths_;
  std::set<Id> floatTypes_;
  std::map<Id, Id> valueTypes_;
  std::map<Id, Id> vectorElements_;
  Id currentBlock_ = 0;
};

} // namespace tessera::targets::spirv
