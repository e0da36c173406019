// The frontend's entry point: kernel source text + entry name + specialization
// -> verified tile IR. No Python interpreter is involved.
#pragma once

#include "frontend/Values.h"
#include "ir/IR.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::frontend {

// How one kernel parameter is specialized, as Triton does: a runtime argument
// of a given type (with the facts known about its value), or a compile-time
// constant.
struct ArgSpec {
  bool isConstexpr = false;
  SValue value;               // the constant, when isConstexpr
  ir::Type type;              // runtime: i32, i64, f32, ptr<f16>, ...
  bool divisibleBy16 = false; // integers: value % 16 == 0; pointers: 16-byte aligned
  bool equalsOne = false;     // integers equal to 1 (compiled as the constant 1)
  // Pointers into an allocation under 2 GiB (Triton's tt.pointer_range = 32):
  // the argument attribute pointer_range = 32 (ir/IR.h).
  bool pointerRange32 = false;
  // A host tensor descriptor ("tensordesc<fp16[64,64]>", Triton's): `type`
  // is the pointer to its elements and this its block shape. It is passed
  // as the base pointer, then the shape and the strides (i64 each).
  // Hints after it: ":16" (divisibleBy16: a tensor map can describe it,
  // ir/IR.h) and ":e16" (every extent a multiple of 16).
  std::vector<int64_t> descriptorBlock;
  bool extentsDivisibleBy16 = false;
  // A function passed as a constexpr, named by its module path
  // ("tessera.language.extra.cuda.smid"): resolved in the kernel's scope.
  std::string path;
  // A tuple (Triton's tuple arguments, "(*fp32:16, (i32, constexpr))"): its
  // elements in order, each runtime (one kernel parameter per leaf, in
  // order), a tuple, or "constexpr": that one's value is the argument named
  // by its path, the parameter's name and the indices ("values.1.1").
  // A namedtuple, "Point(x=i32, y=constexpr)": its class's name and fields.
  bool isTuple = false;
  std::vector<ArgSpec> elements;
  std::string tupleName;
  std::vector<std::string> fieldNames;
};

struct CompileRequest {
  std::string source;                   // Python-syntax source holding the kernel
  std::string filename = "<kernel>";
  std::string entry;                    // the kernel's function name
  std::map<std::string, ArgSpec> args;  // by parameter name; defaults fill the rest
  std::map<std::string, SValue> globals;// module-level constants given by the caller
  bool inlineCalls = false;             // generate callees inline instead of as device functions
  // tl.extra.cuda.num_warps() / num_threads(): the launch's warps and the
  // target's lanes per warp (32 where it has no warps: the language's value).
  int numWarps = 4;
  int warpSize = 32;
  // Calls a constexpr function (Triton's @constexpr_function, a global given
  // as SValue::builtin("constexpr_function:<id>")) on its arguments as a
  // Python tuple literal; true and the result as a Python literal, or false
  // and the error. Empty: such calls are errors.
  std::function<bool(const std::string &id, const std::string &arguments, std::string &result)> constexprCall;
  // The target, for messages, and the name prefixes of the device-library
  // functions it links (targets::TargetFacts::deviceLibraryPrefixes): an
  // extern function's call of such a function (Triton's extern_elementwise,
  // frontend/ExternCall.cpp) is left to the library; any other takes
  // Tessera's own version of it. None: every call takes Tessera's version.
  std::string target = "cpu";
  std::vector<std::string> deviceLibraryPrefixes;
};

struct CompileResult {
  std::unique_ptr<ir::Module> module;   // null on error
  std::string errors;                   // rendered diagnostics: file:line:col, source line, caret
};

// Sources past this size are refused before parsing: 64 MiB is over a
// thousand times the largest kernel file seen, and a runaway input
// (`tessera compile /dev/zero`) must not exhaust memory.
constexpr size_t kMaxSourceBytes = size_t(64) << 20;

CompileResult compileKernel(const CompileRequest &request);

// The part of the language written in the language (prelude.py, then
// libdevice.py), as the frontend compiles it; the interpreter runs the same
// text as Python.
const char *preludeSource();

// Triton's signature spellings: "*fp32", "*bf16", "i32", "u64", "fp16", "i1".
// A ":16" suffix marks divisibility (or 16-byte alignment), ":1" equality to 1,
// ":r32" a pointer into an allocation under 2 GiB; "*fp32:16:r32" has two.
// A tuple is its elements' spellings in parentheses, "constexpr" for an
// element given by path (ArgSpec::isTuple): "(*fp32:16, (i32, constexpr))";
// a namedtuple names its class and fields: "Point(x=*fp32, y=(i32, constexpr))".
std::optional<ArgSpec> parseArgSpec(std::string_view text, std::string *error = nullptr);
// Whether a constexpr's text names a function (ArgSpec::path): a language
// function by its module path ("tessera.language.extra.cuda.smid") or a
// function of the kernel's module by its name (a @jit function passed as a
// tl.constexpr argument). Tried when parseConstexpr fails.
bool isFunctionPath(std::string_view text);
// Whether `name` is the path of a tuple argument's element ("values.1.0")
// whose root is one of `params`.
bool isTupleElementPath(const std::string &name, const std::vector<std::string> &params);
// A dtype by Triton's name ("fp32", "float32", "bfloat16", "int8", "float8e4nv"...).
std::optional<ir::Type> dtypeFromName(std::string_view name);
// A compile-time constant written as Python: 128, -1, 0.5, True, None, "x", fp16;
// "constexpr_function:<id>" is a constexpr function and "extern_function:<id>"
// an extern function (both run through CompileRequest::constexprCall).
std::optional<SValue> parseConstexpr(std::string_view text);

} // namespace tessera::frontend
