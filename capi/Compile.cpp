// tessera_compile: source -> frontend (tile IR) -> target (binary) -> compile
// cache -> runtime module and kernel. The cache is consulted first, keyed by
// everything that decides the binary, so a hit skips the frontend entirely.
#include "capi/CApiInternal.h"
#include "capi/Handles.h"

#include "ir/analysis/WrittenArguments.h"

#include "frontend/Compile.h"
#include "frontend/Parser.h"
#include "runtime/CompileCache.h"
#include "runtime/Sha256.h"

#include <algorithm>
#include <cstring>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <mutex>
#include <sstream>

using namespace tessera;
using capi::fail;
using capi::fromStatus;

namespace tessera::capi {

namespace {

std::mutex factoryMutex;
TargetFactory &factory() {
  static TargetFactory f;
  return f;
}

const char *orEmpty(const char *s) { return s ? s : ""; }

// SHA-256 over length-prefixed fields: no two different inputs concatenate
// to the same text.
class KeyBuilder {
public:
  void add(std::string_view field) {
    std::string len = std::to_string(field.size()) + ":";
    h_.update(len);
    h_.update(field);
  }
  std::string finish() { return h_.hexDigest(); }

private:
  runtime::Sha256 h_;
};

std::string cacheKey(const tessera_compile_options &o, const std::string &target, const std::string &fingerprint,
                     const runtime::Device &device) {
  KeyBuilder k;
  k.add("tessera-compile-key-v1");
  k.add(compilerVersion());
  k.add(orEmpty(o.source));
  k.add(orEmpty(o.entry));
  k.add(std::to_string(o.num_signature));
  for (size_t i = 0; i < o.num_signature; ++i) k.add(orEmpty(o.signature[i]));
  // Constexprs are a set: their order must not change the key.
  std::vector<std::pair<std::string, std::string>> cx;
  for (size_t i = 0; i < o.num_constexprs; ++i) cx.emplace_back(orEmpty(o.constexprs[i].name), orEmpty(o.constexprs[i].value));
  std::sort(cx.begin(), cx.end());
  k.add(std::to_string(cx.size()));
  for (auto &[n, v] : cx) k.add(n), k.add(v);
  // One spelling per target ("cuda" and "nvptx" share their kernels).
  targets::TargetRef ref = targets::findTarget(target);
  k.add(ref ? ref.canonicalName() : target);
  k.add(std::to_string(o.num_warps));
  k.add(std::to_string(o.num_stages));
  k.add(o.checked ? "checked" : "");
  k.add(o.no_fp_fusion ? "no-fp-fusion" : "");
  k.add(std::to_string(o.max_registers));
  k.add(o.flush_subnormals ? "ftz" : "");
  // The resolved arch and features (the CPU target compiles for the host's
  // processor): a cache shared between machines, say a network home, must
  // not hand one CPU another's code.
  k.add(fingerprint);
  k.add(device.backend());
  return k.finish();
}

// The entry's parameter names, in order; empty when the source does not parse
// (compileKernel then reports the syntax errors).
bool parameterNames(const std::string &source, const std::string &filename, const std::string &entry,
                    std::vector<std::string> &names) {
  frontend::SourceManager sources;
  const frontend::SourceFile &file = sources.addFile(filename, source);
  frontend::DiagnosticEngine diags(sources);
  frontend::Parser parser(file, diags);
  std::unique_ptr<frontend::Module> ast = parser.parseModule();
  if (diags.hasErrors()) return false;
  for (const frontend::StmtPtr &s : ast->body)
    if (auto *f = frontend::dynCast<frontend::FunctionDef>(s.get()); f && f->name == entry) {
      for (const frontend::Param &p : f->params) names.push_back(p.name);
      return true;
    }
  return false;
}

// Fills the frontend request from the C options.
tessera_status buildRequest(const tessera_compile_options &o, frontend::CompileRequest &req, const targets::Target *target,
                            const targets::TargetOptions &topts) {
  req.source = o.source;
  req.numWarps = topts.numWarps;
  // The language's warp is 32 threads where the target has no warps (the CPU).
  if (target) {
    targets::TargetFacts facts = target->facts(topts);
    req.warpSize = facts.warpSize > 1 ? facts.warpSize : 32;
    req.target = target->name();
    req.deviceLibraryPrefixes = facts.deviceLibraryPrefixes;
  }
  req.filename = o.filename ? o.filename : "<kernel>";
  req.entry = o.entry;
  if (o.constexpr_call) {
    req.constexprCall = [call = o.constexpr_call, context = o.constexpr_call_context](
                            const std::string &id, const std::string &arguments, std::string &result) {
      const void *text = nullptr;
      int status = call(context, id.c_str(), arguments.c_str(), &text);
      result = text ? static_cast<const char *>(text) : "(no message)";
      return status == 0;
    };
  }
  std::vector<std::string> params;
  if (!parameterNames(req.source, req.filename, req.entry, params)) return TESSERA_SUCCESS;  // the frontend will say why
  std::vector<bool> given(params.size(), false);
  for (size_t i = 0; i < o.num_constexprs; ++i) {
    const tessera_constexpr &c = o.constexprs[i];
    if (!c.name || !c.value) return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile: constexpr " + std::to_string(i) + " has a null name or value");
    auto it = std::find(params.begin(), params.end(), c.name);
    bool element = frontend::isTupleElementPath(c.name, params);  // a tuple argument's constexpr element
    if (!element && std::strchr(c.name, '.'))
      return fail(TESSERA_ERROR_INVALID_ARGUMENT, std::string("tessera_compile: constexpr ") + c.name +
                                                      " names no element of a tuple parameter of '" + req.entry + "'");
    auto v = frontend::parseConstexpr(c.value);
    if (!v && frontend::isFunctionPath(c.value) && (it != params.end() || element)) {
      frontend::ArgSpec spec;
      spec.isConstexpr = true;
      spec.path = c.value;
      req.args[c.name] = spec;
      if (!element) given[size_t(it - params.begin())] = true;
      continue;
    }
    if (!v) return fail(TESSERA_ERROR_INVALID_ARGUMENT, std::string("tessera_compile: cannot read constexpr ") + c.name + "=" + c.value + " as a compile-time value");
    if (it == params.end() && !element) {
      req.globals[c.name] = *v;  // a module-level global the kernel reads
      continue;
    }
    frontend::ArgSpec spec;
    spec.isConstexpr = true;
    spec.value = *v;
    req.args[c.name] = spec;
    if (!element) given[size_t(it - params.begin())] = true;
  }
  size_t k = 0;
  for (size_t i = 0; i < params.size() && k < o.num_signature; ++i) {
    if (given[i]) continue;
    std::string error;
    const char *text = o.signature[k++];
    auto spec = frontend::parseArgSpec(orEmpty(text), &error);
    if (!spec) return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile: parameter '" + params[i] + "': " + error);
    req.args[params[i]] = *spec;
  }
  if (k < o.num_signature)
    return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile: the signature has " + std::to_string(o.num_signature) +
                                                    " entries but '" + req.entry + "' has only " + std::to_string(k) +
                                                    " runtime parameters");
  return TESSERA_SUCCESS;
}

// The frontend's module compiled for `t`. A GPU kernel that runs out of
// shared memory with its pipelined loops' spare stage entries (kept where
// each loop's own buffers fit, TargetOptions::spareStages) is compiled once
// more without them: the same config fits in Triton's budget of its stages.
bool compileForTarget(targets::Target &t, const frontend::CompileRequest &req, frontend::CompileResult &fr,
                      targets::TargetOptions topts, targets::CompiledKernel &out, std::string &error) {
  if (t.compile(*fr.module, req.entry, topts, out, error)) return true;
  if (!out.outOfResources || !topts.spareStages) return false;
  frontend::CompileResult again = frontend::compileKernel(req);
  if (!again.module) return false;
  topts.spareStages = false;
  targets::CompiledKernel retry;
  std::string retryError;
  if (!t.compile(*again.module, req.entry, topts, retry, retryError)) return false;  // the first error stands
  out = std::move(retry);
  return true;
}

// The checks every compile entry point makes (`api` names it in messages),
// and the target options the C options ask for.
tessera_status targetOptions(const tessera_compile_options &o, const char *api, targets::TargetOptions &out) {
  std::string a = api;
  if (!o.source || !o.entry) return fail(TESSERA_ERROR_INVALID_ARGUMENT, a + ": source and entry are required");
  if (o.num_signature && !o.signature) return fail(TESSERA_ERROR_INVALID_ARGUMENT, a + ": null signature");
  if (o.num_constexprs && !o.constexprs) return fail(TESSERA_ERROR_INVALID_ARGUMENT, a + ": null constexprs");
  if (o.num_warps < 0 || o.num_stages < 0) return fail(TESSERA_ERROR_INVALID_ARGUMENT, a + ": negative num_warps or num_stages");
  if (o.max_registers < 0) return fail(TESSERA_ERROR_INVALID_ARGUMENT, a + ": negative max_registers");
  if (o.num_warps) out.numWarps = o.num_warps;
  if (o.num_stages) out.numStages = o.num_stages;
  if (o.arch) out.arch = o.arch;
  out.checked = o.checked != 0;
  out.fpFusion = o.no_fp_fusion == 0;
  out.maxRegisters = o.max_registers;
  out.flushSubnormals = o.flush_subnormals != 0;
  return TESSERA_SUCCESS;
}

runtime::CacheEntry toEntry(const targets::CompiledKernel &ck) {
  runtime::CacheEntry e;
  e.metadata["target"] = ck.target;
  e.metadata["entry"] = ck.entry;
  e.metadata["format"] = ck.format;
  e.metadata["threads_per_program"] = std::to_string(ck.threadsPerProgram);
  e.metadata["shared_memory_bytes"] = std::to_string(ck.sharedMemoryBytes);
  e.metadata["num_params"] = std::to_string(ck.params.size());
  for (size_t i = 0; i < ck.params.size(); ++i) {
    const targets::KernelParam &p = ck.params[i];
    e.metadata["param." + std::to_string(i)] = p.name + " " + frontend::dtypeName(p.type) + " " + std::to_string(p.sizeBytes) +
                                               (p.written ? " written" : "");
    if (p.tensorMap.empty()) continue;
    // descriptor, element bytes, box..., swizzle
    std::string map = std::to_string(p.tensorMap[0]);
    map += " " + std::to_string(std::max(1, ck.params[size_t(p.tensorMap[0])].type.pointee().bitWidth() / 8));
    for (size_t k = 1; k < p.tensorMap.size(); ++k) map += " " + std::to_string(p.tensorMap[k]);
    e.metadata["param." + std::to_string(i) + ".tensor_map"] = map;
    // Each extent and stride's factors, the arguments' widths from their types.
    std::vector<runtime::TensorMapField> fields;
    for (const ir::TensorMapField &field : p.tensorMapFields) {
      runtime::TensorMapField f;
      f.constant = field.constant;
      for (unsigned arg : field.args) f.args.push_back({int(arg), std::max(1, ck.params[arg].type.bitWidth() / 8)});
      fields.push_back(f);
    }
    e.metadata["param." + std::to_string(i) + ".tensor_map_fields"] = runtime::formatTensorMapFields(fields);
  }
  e.binary = ck.binary;
  return e;
}

// Loads a compiled kernel (fresh or cached) onto the device.
tessera_status load(runtime::Device &device, const runtime::CacheEntry &e, bool fromCache, tessera_kernel *out) {
  auto get = [&](const char *k) {
    auto it = e.metadata.find(k);
    return it == e.metadata.end() ? std::string() : it->second;
  };
  auto k = std::make_unique<tessera_kernel_t>();
  k->numParams = size_t(std::stoull("0" + get("num_params")));
  k->threadsPerProgram = std::max(1, std::stoi("0" + get("threads_per_program")));
  k->sharedMemoryBytes = std::stoll("0" + get("shared_memory_bytes"));
  k->fromCache = fromCache;
  k->device = wrapDevice(&device);
  // Tensor maps come last; the launch builds them, so callers pass the rest.
  std::vector<runtime::TensorMapParam> maps;
  for (size_t i = 0; i < k->numParams; ++i) {
    std::string p = get(("param." + std::to_string(i)).c_str());
    k->written.push_back(p.size() > 8 && p.compare(p.size() - 8, 8, " written") == 0);
    std::istringstream map(get(("param." + std::to_string(i) + ".tensor_map").c_str()));
    std::vector<int64_t> v;
    for (int64_t x; map >> x;) v.push_back(x);
    if (v.size() < 4) {
      if (!maps.empty()) return fail(TESSERA_ERROR_INTERNAL, "compiled kernel metadata has a parameter after its tensor maps");
      continue;
    }
    runtime::TensorMapParam m{size_t(v[0]), int(v[1]), std::vector<int64_t>(v.begin() + 2, v.end() - 1), int(v.back()), {},
                              k->written.back()};
    m.fields = runtime::parseTensorMapFields(get(("param." + std::to_string(i) + ".tensor_map_fields").c_str()));
    maps.push_back(std::move(m));
  }
  k->numParams -= maps.size();
  k->written.resize(k->numParams);
  if (auto st = device.loadModule(get("format"), e.binary.data(), e.binary.size(), k->module); !st) return fromStatus(st);
  if (auto st = k->module->getKernel(get("entry"), k->numParams, k->kernel); !st) return fromStatus(st);
  if (auto st = k->kernel->setTensorMaps(std::move(maps)); !st) return fromStatus(st);
  *out = handles<tessera_kernel_t>().add(std::move(k));
  return TESSERA_SUCCESS;
}

} // namespace

void setTargetFactoryForTesting(TargetFactory f) {
  std::lock_guard<std::mutex> lock(factoryMutex);
  factory() = std::move(f);
}

std::unique_ptr<targets::Target> makeTarget(std::string_view name, std::string *error) {
  {
    std::lock_guard<std::mutex> lock(factoryMutex);
    if (factory()) return factory()(name, error);
  }
  return targets::createTarget(name, error);
}

std::string noTargetMessage(const std::string &target, const std::string &error) {
  targets::TargetRef ref = targets::findTarget(target);
  if (!ref) return error.empty() ? targets::unknownTargetMessage(target) : error;
  // The runtime side may exist without the code generator: precompiled
  // binaries load through tessera_kernel_load.
  return "no code generator for " + std::string(ref.flavour->backend) + " in this build (target '" + target +
         "'); precompiled binaries can still be loaded with tessera_kernel_load";
}

std::string backendForTarget(const std::string &target) {
  targets::TargetRef ref = targets::findTarget(target);
  // An unknown name is looked up as a backend, which then says it has none.
  return ref ? ref.flavour->backend : target;
}

} // namespace tessera::capi

extern "C" const char *tessera_prelude_source(void) { return frontend::preludeSource(); }

extern "C" tessera_status tessera_compile(const tessera_compile_options *options, tessera_kernel *kernel) {
  return capi::guarded([&]() -> tessera_status {
    if (!options || !kernel) return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile: null argument");
    const tessera_compile_options &o = *options;
    targets::TargetOptions topts;
    if (tessera_status s = capi::targetOptions(o, "tessera_compile", topts); s != TESSERA_SUCCESS) return s;
    std::string target = o.target && *o.target ? o.target : "cpu";
    std::string error;
    std::unique_ptr<targets::Target> t = capi::makeTarget(target, &error);

    // A missing code generator is reported before a missing device (after
    // the frontend, below): it is the more fundamental of the two.
    tessera_device_t *wrapper = o.device ? capi::liveDevice(o.device) : nullptr;
    if (o.device && !wrapper)
      return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile: not a live tessera_device (not a handle)");
    runtime::Device *device = wrapper ? wrapper->device : nullptr;
    std::string noDevice;
    if (!device && t)
      if (auto st = runtime::getDevice(capi::backendForTarget(target), 0, device); !st)
        noDevice = "target '" + target + "': no device to run it: " + st.message();

    // Compile for the device's own architecture unless told otherwise.
    if (device && topts.arch.empty() && !std::getenv("TESSERA_NVPTX_ARCH")) topts.arch = device->architecture();

    runtime::CompileCache cache = runtime::CompileCache::fromEnvironment();
    std::string key;
    runtime::CacheEntry entry;
    if (t && device) {
      key = capi::cacheKey(o, target, t->fingerprint(topts), *device);
      if (cache.lookup(key, entry)) return capi::load(*device, entry, true, kernel);
    }

    // The frontend runs even without a target, so mistakes in the source are
    // reported before a missing code generator.
    frontend::CompileRequest req;
    if (tessera_status s = capi::buildRequest(o, req, t.get(), topts); s != TESSERA_SUCCESS) return s;
    frontend::CompileResult fr = frontend::compileKernel(req);
    if (!fr.module) return fail(TESSERA_ERROR_COMPILATION, fr.errors);
    if (!t) return fail(TESSERA_ERROR_UNAVAILABLE, capi::noTargetMessage(target, error));
    // A missing device is reported after the source's own errors.
    if (!device) return fail(TESSERA_ERROR_UNAVAILABLE, noDevice);

    targets::CompiledKernel ck;
    if (!capi::compileForTarget(*t, req, fr, topts, ck, error))
      return fail(ck.outOfResources ? TESSERA_ERROR_OUT_OF_RESOURCES : TESSERA_ERROR_COMPILATION,
                  "target '" + target + "': " + error);
    entry = capi::toEntry(ck);
    // A cache that cannot be written (read-only home, full disk) only costs
    // a recompile next time; the kernel itself is fine. Said once a process.
    if (runtime::Status st = cache.store(key, entry); !st) {
      static std::once_flag said;
      std::call_once(said, [&] {
        std::fprintf(stderr, "tessera: warning: %s; kernels still compile and run, but are not cached "
                     "(TESSERA_CACHE_DIR picks another directory)\n", st.message().c_str());
      });
    }
    return capi::load(*device, entry, false, kernel);
  });
}

struct tessera_binary_t {
  targets::CompiledKernel kernel;
};

extern "C" tessera_status tessera_compile_binary(const tessera_compile_options *options, tessera_binary *binary) {
  return capi::guarded([&]() -> tessera_status {
    if (!options || !binary) return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_compile_binary: null argument");
    const tessera_compile_options &o = *options;
    targets::TargetOptions topts;
    if (tessera_status s = capi::targetOptions(o, "tessera_compile_binary", topts); s != TESSERA_SUCCESS) return s;
    topts.emitAssembly = true;
    std::string target = o.target && *o.target ? o.target : "cpu";
    std::string error;
    std::unique_ptr<targets::Target> t = capi::makeTarget(target, &error);
    frontend::CompileRequest req;
    if (tessera_status s = capi::buildRequest(o, req, t.get(), topts); s != TESSERA_SUCCESS) return s;
    frontend::CompileResult fr = frontend::compileKernel(req);
    if (!fr.module) return fail(TESSERA_ERROR_COMPILATION, fr.errors);
    if (!t) return fail(TESSERA_ERROR_UNAVAILABLE, capi::noTargetMessage(target, error));
    auto out = std::make_unique<tessera_binary_t>();
    if (!capi::compileForTarget(*t, req, fr, topts, out->kernel, error))
      return fail(out->kernel.outOfResources ? TESSERA_ERROR_OUT_OF_RESOURCES : TESSERA_ERROR_COMPILATION,
                  "target '" + target + "': " + error);
    *binary = capi::handles<tessera_binary_t>().add(std::move(out));
    return TESSERA_SUCCESS;
  });
}

extern "C" tessera_status tessera_kernel_writes(const tessera_compile_options *options, int *written, size_t capacity,
                                                size_t *count) {
  return capi::guarded([&]() -> tessera_status {
    if (!options || !count || (capacity && !written))
      return fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_kernel_writes: null argument");
    targets::TargetOptions topts;
    if (tessera_status s = capi::targetOptions(*options, "tessera_kernel_writes", topts); s != TESSERA_SUCCESS) return s;
    // The target's facts shape the kernel (its warp, its device libraries); none named: the language's own.
    std::string error;
    std::unique_ptr<targets::Target> t;
    if (options->target && *options->target) t = capi::makeTarget(options->target, &error);
    frontend::CompileRequest req;
    if (tessera_status s = capi::buildRequest(*options, req, t.get(), topts); s != TESSERA_SUCCESS) return s;
    frontend::CompileResult fr = frontend::compileKernel(req);
    if (!fr.module) return fail(TESSERA_ERROR_COMPILATION, fr.errors);
    const ir::Function *kernel = nullptr;
    for (const auto &f : fr.module->functions())
      if (f->kind() == ir::FunctionKind::Kernel) kernel = f.get();
    if (!kernel) return fail(TESSERA_ERROR_COMPILATION, "internal error: the frontend made no kernel function");
    std::vector<bool> flags = ir::mayWriteArguments(*fr.module, *kernel);
    *count = flags.size();
    for (size_t i = 0; i < capacity && i < flags.size(); ++i) written[i] = flags[i] ? 1 : 0;
    return TESSERA_SUCCESS;
  });
}

// A dead or garbage binary handle reads as an empty binary.
static tessera_binary_t *liveBinary(tessera_binary h) { return capi::handles<tessera_binary_t>().get(h); }
extern "C" const char *tessera_binary_format(tessera_binary h) {
  tessera_binary_t *b = liveBinary(h);
  return b ? b->kernel.format.c_str() : "";
}
extern "C" const void *tessera_binary_data(tessera_binary h, size_t *size) {
  tessera_binary_t *b = liveBinary(h);
  if (size) *size = b ? b->kernel.binary.size() : 0;
  return b ? b->kernel.binary.data() : nullptr;
}
extern "C" const char *tessera_binary_assembly(tessera_binary h) {
  tessera_binary_t *b = liveBinary(h);
  return b ? b->kernel.assembly.c_str() : "";
}
extern "C" int tessera_binary_threads_per_program(tessera_binary h) {
  tessera_binary_t *b = liveBinary(h);
  return b ? b->kernel.threadsPerProgram : 0;
}
extern "C" int64_t tessera_binary_shared_memory_bytes(tessera_binary h) {
  tessera_binary_t *b = liveBinary(h);
  return b ? b->kernel.sharedMemoryBytes : 0;
}
extern "C" void tessera_binary_destroy(tessera_binary h) {
  if (h && !capi::handles<tessera_binary_t>().remove(h))
    capi::fail(TESSERA_ERROR_INVALID_ARGUMENT, "tessera_binary_destroy: not a live tessera_binary (destroyed already, or not a handle)");
}

extern "C" int tessera_target_available(const char *target) {
  try {
    return target && capi::makeTarget(target, nullptr) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}
