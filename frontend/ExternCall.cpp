// Calls of extern functions: Python functions marked @core.extern (Triton's
// triton.language.core.extern) whose body calls core.extern_elementwise,
// choosing a device-library function (libdevice's __nv_expf, ocml's
// __ocml_exp_f32) by the types of its arguments.
//
// Such a body runs in Python, which only the caller has (the C API's
// constexpr_call, as for constexpr functions): the frontend hands it the
// call's arguments as stand-ins (dtype and shape of each tensor; compile-time
// values as they are), and takes back what the body asked for, as data: the
// calls of library functions (symbol, result dtype, purity, Tessera's own
// version of the function where it has one) over operands, constants and
// earlier calls' results, each with the casts the body applied
// (core.binary_op_type_legalization). Python does Triton's dispatch and
// type rules (python/tessera/_extern.py); the frontend builds the IR.
//
// A call of a function the target links (TargetFacts::deviceLibraryPrefixes:
// nvptx libdevice's __nv_*, amdgpu ocml's __ocml_*) becomes an
// extern_elementwise op, left to the library (whether it has the function is
// known once it is linked: targets/llvm/ExternCalls.h). On the other targets
// (cpu, spirv, and each GPU for the other's library) a function Tessera has
// a version of (frontend/libdevice.py and Builtins.cpp, libdevice.<name>) is
// that version, so kernels written for one vendor's library run everywhere;
// any other is a compile error naming the function and the target.
#include "frontend/CodeGen.h"

namespace tessera::frontend {

using Kind = SValue::Kind;
using ir::Type;

namespace {

// The Python literal of a tensor argument: a stand-in with its dtype and
// shape, and the index the answer refers to it by.
std::string operandLiteral(size_t index, Type t) {
  std::string text = "operand(" + std::to_string(index) + ", \"" + dtypeName(t.element()) + "\", (";
  for (int64_t d : t.shape()) text += std::to_string(d) + ", ";
  return text + "))";
}

// The answer's pieces (python/tessera/_extern.py writes them).
struct Answer {
  const SValue &value;
  const std::string &function;
  CodeGen &cg;
  SourceLoc loc;

  [[noreturn]] void bad(const std::string &why) const {
    cg.fail(loc, "extern function " + function + " gave the compiler an answer it cannot read (" + why +
                     "): this is a bug in Tessera's extern support");
  }
  const SValue &item(const SValue &tuple, size_t i, Kind kind) const {
    if (!tuple.is(Kind::Tuple) || i >= tuple.elems.size() || !tuple.elems[i].is(kind))
      bad("item " + std::to_string(i) + " of " + tuple.describe());
    return tuple.elems[i];
  }
};

} // namespace

SValue CodeGen::callExternFunction(const std::string &id, CallArgs &args, SourceLoc loc) {
  std::string name = id.substr(0, id.find('@'));
  if (!constexprCall_) fail(loc, "extern function " + name + " cannot be called here: no Python to run it");
  // The arguments: tensors as stand-ins, compile-time values as they are.
  std::vector<ir::Value *> operands;
  std::string text = pythonCallArguments(args, [&](const SValue &v, const std::string &what, std::string &out) {
    if (v.isTensor()) {
      if (v.v->type().element().isPointer())
        fail(loc, "extern function " + name + " takes numbers; its " + what + " is a " + v.describe());
      out += operandLiteral(operands.size(), v.v->type());
      operands.push_back(v.v);
    } else if (!pythonLiteral(v, out)) {
      fail(loc, "extern function " + name + " takes tensors and compile-time values; its " + what + " is " +
                    v.describe());
    }
  });
  std::string result;
  if (!constexprCall_(id, text, result)) fail(loc, "extern function " + name + " raised " + result);
  std::optional<SValue> parsed = parseConstexpr(result);
  if (!parsed) fail(loc, "extern function " + name + " gave the compiler an answer it cannot read: " + result);
  Answer answer{*parsed, name, *this, loc};

  // ((call, ...), value): each call (symbol, lib_path, result dtype, pure,
  // Tessera's version (name, (parameter dtypes...)) or None, (value, ...));
  // each value (kind, index or number, (casts...)) with kind "operand",
  // "constant" or "call".
  const SValue &calls = answer.item(*parsed, 0, Kind::Tuple);
  std::vector<ir::Value *> results;
  auto valueOf = [&](const SValue &v) -> ir::Value * {
    const std::string &kind = answer.item(v, 0, Kind::Str).s;
    const SValue &what = v.is(Kind::Tuple) && v.elems.size() > 1 ? v.elems[1] : SValue::none();
    ir::Value *out = nullptr;
    if (kind == "constant") {
      if (!what.isNumber()) answer.bad("constant " + what.describe());
      out = toTensor(what, loc);
    } else {
      const auto &pool = kind == "operand" ? operands : results;
      if ((kind != "operand" && kind != "call") || !what.is(Kind::Int) || what.i < 0 || what.i >= BigInt(pool.size()))
        answer.bad("value " + v.describe());
      out = pool[size_t(what.i)];
    }
    for (const SValue &to : answer.item(v, 2, Kind::Tuple).elems) {
      if (!to.is(Kind::DType)) answer.bad("cast to " + to.describe());
      out = cast(out, to.type, loc);
    }
    return out;
  };
  for (const SValue &c : calls.elems) {
    const std::string &symbol = answer.item(c, 0, Kind::Str).s;
    const std::string &libPath = answer.item(c, 1, Kind::Str).s;
    Type resultType = answer.item(c, 2, Kind::DType).type;
    bool pure = answer.item(c, 3, Kind::Bool).b;
    const SValue &own = c.is(Kind::Tuple) && c.elems.size() > 4 ? c.elems[4] : SValue::none();
    std::vector<ir::Value *> in;
    for (const SValue &v : answer.item(c, 5, Kind::Tuple).elems) in.push_back(valueOf(v));
    std::vector<int64_t> shape = broadcastShapes(in, loc);
    for (ir::Value *&v : in) v = broadcastTo(v, shape, loc);
    Type type = shape.empty() ? resultType : Type::tile(shape, resultType);
    bool linked = false;
    for (const std::string &prefix : deviceLibraryPrefixes_) linked |= symbol.rfind(prefix, 0) == 0;
    if (linked) {
      ir::AttrDict attrs;
      attrs.set("symbol", ir::Attribute(symbol));
      attrs.set("pure", ir::Attribute(pure));
      b_.setLoc(irLoc(loc));
      results.push_back(b_.create(ir::OpCode::ExternElementwise, in, {type}, std::move(attrs))->result(0));
      continue;
    }
    if (own.is(Kind::None)) {
      std::string links = "no device library";
      for (size_t i = 0; i < deviceLibraryPrefixes_.size(); ++i)
        links = (i ? links + ", " : std::string("only the device library functions ")) + deviceLibraryPrefixes_[i] + "*";
      // As Triton 3.6, which links the compile's extern_libs (libdevice), not the call's lib_path.
      std::string unlinked = libPath.empty() ? "" : " (lib_path " + ir::quoteString(libPath) + " is not linked)";
      fail(loc, "extern function " + name + " calls " + symbol + ", which the " + target_ +
                    " target cannot resolve: it links " + links + ", and Tessera has no version of " + symbol +
                    " of its own" + unlinked);
    }
    // Tessera's version: the arguments as the library function takes them.
    const std::string &function = answer.item(own, 0, Kind::Str).s;
    const SValue &params = answer.item(own, 1, Kind::Tuple);
    if (params.elems.size() != in.size()) answer.bad("the parameters of " + symbol);
    CallArgs call;
    for (size_t i = 0; i < in.size(); ++i) {
      if (!params.elems[i].is(Kind::DType)) answer.bad("a parameter of " + symbol);
      call.positional.push_back(SValue::tensor(cast(in[i], params.elems[i].type, loc)));
      call.positionalLocs.push_back(loc);
    }
    call.loc = loc;
    SValue r = this->call(getAttribute(SValue::ns("libdevice"), function, loc), call, loc);
    if (!r.isTensor() && !r.isNumber()) answer.bad("libdevice." + function + " gave " + r.describe());
    results.push_back(broadcastTo(cast(toTensor(r, loc), resultType, loc), shape, loc));
  }
  return SValue::tensor(valueOf(answer.item(*parsed, 1, Kind::Tuple)));
}

} // namespace tessera::frontend
