// The `tessera` command line, in libtessera (tessera_cli_main) so that the
// executable (tools/tessera/tessera.cpp) and the Python package's console
// command run the same code:
//   tessera targets                      the target registry, and which code generators this build contains
//   tessera compile FILE.py --entry NAME --signature "*fp32:16,*fp32,i32" -D BLOCK=1024 [options]
//                                        compile a kernel: print its tile IR (after --pipeline's passes),
//                                        or with --target its code, or with --aot a C loader embedding it;
//                                        options parsed by llvm::cl (tessera compile --help)
//   tessera version, tessera --version
// `tessera bench` and `tessera conformance` are Python programs, which the
// executable and the console command run themselves.
#include "frontend/Compile.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "targets/Available.h"
#include "targets/Target.h"
#include "tools/tessera/Aot.h"
#include "tools/tessera/Cli.h"
#include "tools/tessera/OutputFile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

using namespace tessera;

static const char *kUsage =
    "usage: tessera targets\n"
    "       tessera compile FILE.py --entry NAME [--signature \"*fp32:16,i32,...\"] [-D NAME=VALUE]...\n"
    "                       [--inline-calls] [--pipeline pass,pass,...] [--dump-ir-after-each] [--print-loc] [--checked]\n"
    "                       [--target NAME [--flavour NAME] [--arch sm_80] [--num-warps N] [--num-stages N] [-o FILE]\n"
    "                       [--emit llvm|asm]] [--aot PREFIX [--aot-target T[@ARCH]]...]\n"
    "       tessera bench [--workload ...] [--target ...] [--json F] [--plot-dir D]\n"
    "       tessera conformance [--target ...] [--json F] [--junit F]\n"
    "       tessera version | --version\n"
    "       tessera COMMAND --help\n";

// `tessera compile`'s options, parsed by llvm::cl: --opt=value and --opt
// value alike, each value checked against its type, `--help` generated from
// these descriptions.
namespace cl = llvm::cl;
// Registered with LLVM's global parser at the first `tessera compile` of the
// process (libtessera adds no options of its own while it is only a
// library), and kept: cl::Option has no way back out of the parser.
enum class Emit { Nothing, Assembly, Llvm };
struct CompileOptions {
  cl::OptionCategory compileCategory{"tessera compile options"};
  cl::opt<std::string> inputFile{cl::Positional, cl::desc("<FILE.py>"), cl::cat(compileCategory)};
  cl::opt<std::string> entryName{"entry", cl::desc("the kernel (a def in FILE.py)"), cl::value_desc("NAME"),
                                        cl::cat(compileCategory)};
  cl::opt<std::string> signatureText{
      "signature",
      cl::desc("Triton-style types of the runtime parameters, in order: \"*fp32:16,i32,...\" (pointer, :16 = 16-byte "
               "aligned; also :1 = equal to 1, :r32 = into an allocation under 2 GiB)"),
      cl::value_desc("S"), cl::cat(compileCategory)};
  cl::list<std::string> defineList{"D", cl::Prefix, cl::desc("a tl.constexpr parameter or module global"),
                                          cl::value_desc("NAME=VALUE"), cl::cat(compileCategory)};
  cl::opt<bool> inlineCalls{"inline-calls", cl::desc("inline device functions in the printed IR"),
                                   cl::cat(compileCategory)};
  cl::opt<std::string> pipelineText{"pipeline", cl::desc("run these passes on the tile IR and print it"),
                                           cl::value_desc("P,Q,..."), cl::cat(compileCategory)};
  cl::opt<bool> dumpAfterEach{"dump-ir-after-each", cl::desc("print the IR after every pass"),
                                     cl::cat(compileCategory)};
  cl::opt<bool> printLocations{"print-loc", cl::desc("print source locations in the IR"), cl::cat(compileCategory)};
  cl::opt<bool> checkedMode{"checked",
                                   cl::desc("checked mode: bounds-check every load, store and atomic (the kernel takes "
                                            "buffer sizes and a report pointer; docs/checked-mode.md)"),
                                   cl::cat(compileCategory)};
  cl::opt<std::string> targetName{"target", cl::desc("compile for a target (tessera targets lists them)"),
                                         cl::value_desc("NAME"), cl::cat(compileCategory)};
  cl::opt<std::string> flavourName{"flavour",
                                          cl::desc("with a target that has flavours (spirv: vulkan, opencl, level_zero): which one"),
                                          cl::value_desc("NAME"), cl::cat(compileCategory)};
  cl::opt<std::string> archName{"arch",
                                       cl::desc("its architecture (sm_80, sm_90a, gfx90a, gfx942, gfx1100, sg32-48k...)"),
                                       cl::value_desc("ARCH"), cl::cat(compileCategory)};
  cl::opt<int> numWarpsOption{"num-warps", cl::desc("warps per program (GPU targets)"), cl::value_desc("N"),
                                     cl::init(0), cl::cat(compileCategory)};
  cl::opt<int> numStagesOption{"num-stages",
                                      cl::desc("software-pipelining depth (GPU targets; default: the target's)"),
                                      cl::value_desc("N"), cl::init(0), cl::cat(compileCategory)};
  cl::opt<std::string> outputFile{"o", cl::desc("write the binary here"), cl::value_desc("FILE"),
                                         cl::cat(compileCategory)};
  cl::opt<Emit> emitKind{"emit", cl::desc("print the target's readable code"), cl::init(Emit::Nothing),
                                cl::values(clEnumValN(Emit::Assembly, "asm", "PTX on nvptx, SPIR-V assembly on spirv, "
                                                                             "LLVM IR on cpu"),
                                           clEnumValN(Emit::Llvm, "llvm", "the same as asm")),
                                cl::cat(compileCategory)};
  cl::opt<std::string> aotPrefix{
      "aot",
      cl::desc("write PREFIX.h and PREFIX.c: the kernel's binaries for each --aot-target with a typed C loader and "
               "launcher that need only libtessera_rt (no compiler); the signature must list every runtime parameter"),
      cl::value_desc("PREFIX"), cl::cat(compileCategory)};
  cl::list<std::string> aotTargetList{
      "aot-target",
      cl::desc("a target (and architecture) to embed, repeatable: cpu (this machine's CPU), nvptx@sm_90a, "
               "amdgpu@gfx942, vulkan@sg32-48k... (default: --target and --arch, else cpu)"),
      cl::value_desc("T[@ARCH]"), cl::cat(compileCategory)};
};

static std::string versionLine() { return "tessera " TESSERA_VERSION_STRING " (LLVM " + targets::llvmVersion() + ")"; }

static bool isHelp(const char *a) { return std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0; }

static int usage(const std::string &msg = "") {
  if (!msg.empty()) std::fprintf(stderr, "tessera: %s\n", msg.c_str());
  std::fputs(kUsage, stderr);
  return 2;
}

static std::vector<std::string> splitTopLevel(const std::string &s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;  // commas inside tensordesc<fp16[64,64]> and tuples (i32,*fp32) are not separators
  for (char c : s) {
    if (c == '<' || c == '[' || c == '(') ++depth;
    if (c == '>' || c == ']' || c == ')') --depth;
    if (c == ',' && depth <= 0) {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

// The target `--target T --flavour F` names (the registry's "T:F"), or why
// there is none; the registry says which targets have flavours.
static std::string chooseFlavour(std::string &target, const std::string &flavour) {
  std::vector<std::string> withFlavours;
  for (const targets::TargetRow &row : targets::targetRows())
    if (row.flavours.size() > 1) withFlavours.push_back(row.name);
  targets::TargetRef base = targets::findTarget(target);
  if (!base || base.row->flavours.size() < 2) {
    std::string rows;
    for (const std::string &name : withFlavours) rows += (rows.empty() ? "" : " or ") + name;
    return "--flavour goes with --target " + rows + " (found --target '" + target + "')";
  }
  std::string names;
  bool known = false;
  for (size_t i = 0; i < base.row->flavours.size(); ++i) {
    const char *name = base.row->flavours[i].name;
    known |= flavour == name;
    names += std::string(i == 0 ? "" : i + 1 == base.row->flavours.size() ? " or " : ", ") + name;
  }
  if (!known) return "--flavour is " + names + ", not '" + flavour + "'";
  targets::TargetRef chosen = targets::findTarget(target + ":" + flavour);
  if (!chosen) return "--flavour '" + flavour + "' contradicts --target '" + target + "'";
  target = chosen.canonicalName();
  return "";
}

static int compile(int argc, const char **argv) {
  static CompileOptions &o = *new CompileOptions;
  // --help and --version are answered here: LLVM's own handlers exit the
  // process, which would end a Python program that called the library.
  std::vector<const char *> args = {"tessera compile"};
  bool help = false;
  for (int i = 2; i < argc; ++i) {
    if (isHelp(argv[i])) help = true;
    else if (std::strcmp(argv[i], "--version") == 0) return std::printf("%s\n", versionLine().c_str()), 0;
    else args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(o.compileCategory);
  cl::ResetAllOptionOccurrences();
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (!cl::ParseCommandLineOptions(int(args.size()), args.data(),
                                   "Compiles one kernel of FILE.py (the tile language) and prints its IR, or with "
                                   "--target its code.\n",
                                   &errorStream)) {
    std::fputs(parseErrors.c_str(), stderr);
    return 2;
  }
  if (help) {
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/false);
    return 0;
  }
  if (o.numWarpsOption < 0) return usage("--num-warps is 0 (the target's default) or more, not " + std::to_string(o.numWarpsOption));
  if (o.numStagesOption < 0) return usage("--num-stages is 0 (the target's default) or more, not " + std::to_string(o.numStagesOption));
  frontend::CompileRequest req;
  req.filename = o.inputFile;
  req.entry = o.entryName;
  req.inlineCalls = o.inlineCalls;
  // Copied out now: compiling puts every cl::opt back to its default (seen
  // after the cpu target's lld link: --aot's prefix read back empty), as
  // cl::ResetAllOptionOccurrences does.
  std::string signature = o.signatureText, pipeline = o.pipelineText, target = o.targetName, flavour = o.flavourName,
              output = o.outputFile, arch = o.archName, aotPrefix = o.aotPrefix;
  bool emitAssembly = o.emitKind != Emit::Nothing;
  std::vector<std::string> aotTargets(o.aotTargetList.begin(), o.aotTargetList.end());
  bool checked = o.checkedMode;
  int numWarps = o.numWarpsOption, numStages = o.numStagesOption;
  std::vector<std::pair<std::string, std::string>> defines;
  for (const std::string &d : o.defineList) {
    size_t eq = d.find('=');
    if (eq == std::string::npos) return usage("-D expects NAME=VALUE, got '" + d + "'");
    defines.push_back({d.substr(0, eq), d.substr(eq + 1)});
  }
  ir::PassOptions popts = ir::PassOptions::fromEnvironment();
  popts.dumpAfterEach = popts.dumpAfterEach || o.dumpAfterEach;
  ir::PrintOptions print;
  print.locations = o.printLocations;
  // `--target spirv --flavour opencl` names the target `spirv:opencl` names.
  if (!flavour.empty()) {
    std::string error = chooseFlavour(target, flavour);
    if (!error.empty()) return usage(error);
  }
  if (req.filename.empty() || req.filename == "<kernel>") return usage("no input file");
  std::ifstream in(req.filename, std::ios::binary);
  if (!in) return usage("cannot open '" + req.filename + "'");
  // Read no more than the frontend takes (plus one byte, so that it says the
  // file is too large): /dev/zero or a FIFO never ends.
  req.source.resize(frontend::kMaxSourceBytes + 1);
  in.read(req.source.data(), std::streamsize(req.source.size()));
  req.source.resize(size_t(in.gcount()));
  if (in.bad()) return usage("cannot read '" + req.filename + "'");
  if (req.source.size() > frontend::kMaxSourceBytes) {
    std::fprintf(stderr, "tessera: '%s' is over the %zu MiB a kernel's source may be\n", req.filename.c_str(),
                 frontend::kMaxSourceBytes >> 20);
    return 1;
  }
  if (req.entry.empty()) return usage("--entry is required");

  // The signature lists the runtime parameters in order; -D gives constexprs.
  std::vector<std::string> params;
  {
    // Find the entry's parameter names by compiling with everything missing is
    // not possible, so read them from a minimal scan of "def NAME(".
    std::string key = "def " + req.entry + "(";
    size_t at = req.source.find(key);
    if (at == std::string::npos) return usage("no 'def " + req.entry + "(' in " + req.filename);
    size_t depth = 1, p = at + key.size();
    std::string cur;
    for (; p < req.source.size() && depth; ++p) {
      char c = req.source[p];
      if (c == '#') {
        while (p < req.source.size() && req.source[p] != '\n') ++p;
        continue;
      }
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (depth == 0 || (depth == 1 && c == ',')) {
        std::string name;
        for (char x : cur) {
          if (x == ':' || x == '=') break;
          if (!std::isspace((unsigned char)x)) name += x;
        }
        if (!name.empty()) params.push_back(name);
        cur.clear();
        continue;
      }
      cur += c;
    }
  }
  std::map<std::string, bool> isDefined;
  for (auto &[name, value] : defines) {
    auto v = frontend::parseConstexpr(value);
    bool isParam = frontend::isTupleElementPath(name, params);  // a tuple argument's element ("values.1")
    if (!isParam && name.find('.') != std::string::npos)
      return usage("-D " + name + ": names no element of a tuple parameter of '" + req.entry + "'");
    for (auto &p : params) isParam |= p == name;
    frontend::ArgSpec spec;
    spec.isConstexpr = true;
    if (!v && isParam && frontend::isFunctionPath(value)) {  // a function, resolved in the kernel's scope
      spec.path = value;
      req.args[name] = spec;
      isDefined[name] = true;
      continue;
    }
    if (!v) return usage("cannot read -D " + name + "=" + value + " as a compile-time value");
    spec.value = *v;
    if (isParam) req.args[name] = spec;
    else req.globals[name] = *v;
    isDefined[name] = true;
  }
  std::vector<std::string> sig = signature.empty() ? std::vector<std::string>{} : splitTopLevel(signature);
  size_t k = 0;
  for (auto &p : params) {
    if (isDefined.count(p) || k >= sig.size()) continue;
    std::string err;
    auto spec = frontend::parseArgSpec(sig[k++], &err);
    if (!spec) return usage(err);
    req.args[p] = *spec;
  }
  if (k < sig.size()) return usage("the signature has more entries than the kernel has runtime parameters");
  if (!target.empty() && aotPrefix.empty()) {  // what the frontend reads of the target, as the C API gives it
    std::string error;
    auto t = targets::createTarget(target, &error);
    if (!t) return usage(error);
    targets::TargetOptions topts;
    topts.arch = arch;
    if (numWarps) topts.numWarps = numWarps;
    targets::TargetFacts facts = t->facts(topts);
    req.numWarps = topts.numWarps;
    req.warpSize = facts.warpSize > 1 ? facts.warpSize : 32;
    req.target = t->name();
    req.deviceLibraryPrefixes = facts.deviceLibraryPrefixes;
  }

  frontend::CompileResult r = frontend::compileKernel(req);
  if (!r.module) {
    std::fputs(r.errors.c_str(), stderr);
    return 1;
  }
  if (!aotPrefix.empty()) {
    if (checked) return usage("--aot kernels cannot be compiled in checked mode");
    if (aotTargets.empty()) aotTargets.push_back(target.empty() ? "cpu" : arch.empty() ? target : target + "@" + arch);
    std::vector<tools::AotBinary> binaries;
    for (const std::string &spec : aotTargets) {
      size_t at = spec.find('@');
      std::string name = spec.substr(0, at), aotArch = at == std::string::npos ? "" : spec.substr(at + 1);
      std::string error;
      auto t = targets::createTarget(name, &error);
      if (!t) return usage(error);
      // Each target compiles its own copy: passes change the module.
      frontend::CompileResult fresh = frontend::compileKernel(req);
      if (!fresh.module) {
        std::fputs(fresh.errors.c_str(), stderr);
        return 1;
      }
      targets::TargetOptions topts;
      topts.arch = aotArch;
      if (numWarps) topts.numWarps = numWarps;
      if (numStages) topts.numStages = numStages;
      tools::AotBinary b;
      if (!t->compile(*fresh.module, req.entry, topts, b.kernel, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
      }
      b.backend = targets::findTarget(name).flavour->backend;
      b.arch = t->architecture(topts);
      b.label = targets::findTarget(name).canonicalName() + (b.arch.empty() ? "" : " " + b.arch) + " (" + b.kernel.format + ")";
      binaries.push_back(std::move(b));
    }
    std::string error;
    if (!tools::writeAot(aotPrefix, req.entry, req.filename + ":" + req.entry, binaries, error)) {
      std::fprintf(stderr, "tessera: %s\n", error.c_str());
      return 1;
    }
    std::printf("wrote %s.h and %s.c: %s for", aotPrefix.c_str(), aotPrefix.c_str(), req.entry.c_str());
    for (const auto &b : binaries) std::printf(" %s;", b.label.c_str());
    std::printf("\n");
    return 0;
  }
  if (!target.empty()) {
    std::string error;
    auto t = targets::createTarget(target, &error);
    if (!t) return usage(error);
    targets::TargetOptions topts;
    topts.dumpIR = popts.dumpAfterEach;
    topts.emitAssembly = emitAssembly;
    topts.arch = arch;
    if (numWarps) topts.numWarps = numWarps;
    if (numStages) topts.numStages = numStages;
    topts.checked = checked;
    targets::CompiledKernel k;
    if (!t->compile(*r.module, req.entry, topts, k, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    if (topts.emitAssembly) std::fputs(k.assembly.c_str(), stdout);
    if (!output.empty()) {
      std::string writeError;
      if (!tools::writeOutputFile(output, std::string_view(reinterpret_cast<const char *>(k.binary.data()), k.binary.size()),
                           writeError)) {
        std::fprintf(stderr, "tessera: %s\n", writeError.c_str());
        return 1;
      }
    }
    if (!emitAssembly && output.empty())
      std::printf("compiled %s for %s: %zu bytes of %s, entry %s\n", req.entry.c_str(), target.c_str(), k.binary.size(),
                  k.format.c_str(), k.entry.c_str());
    return 0;
  }
  if (checked) r.module->attrs().set("checked", ir::Attribute(int64_t(1)));
  ir::PassManager pm(popts);
  for (auto &p : splitTopLevel(pipeline))
    if (!p.empty() && !pm.add(p)) return usage("unknown pass '" + p + "'");
  std::string error;
  if (!pm.run(*r.module, &error)) {
    std::fputs(error.c_str(), stderr);
    return 1;
  }
  std::fputs(ir::printModule(*r.module, print).c_str(), stdout);
  return 0;
}

static std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Where a flavour's code runs and whose memory it takes.
static std::string runsOn(const targets::TargetFlavour &f) {
  std::string out = f.backend;
  std::vector<std::string> memory;
  if (*f.torchDevice)
    memory.push_back(std::string("PyTorch '") + f.torchDevice + "'" +
                     (*f.torchBuild ? std::string(" where torch.version.") + f.torchBuild + " is set" : ""));
  std::vector<std::string> dlpack;
  for (int d : f.dlpackDevices) dlpack.push_back(std::to_string(d));
  if (!dlpack.empty()) memory.push_back("DLPack device types " + joined(dlpack));
  return memory.empty() ? out : out + " (" + joined(memory) + ")";
}

// `tessera targets`: the registry's rows and whether this build has each
// one's code generator.
static int printTargets() {
  std::printf("Tessera " TESSERA_VERSION_STRING ", LLVM %s\n", targets::llvmVersion().c_str());
  for (const targets::BackendStatus &b : targets::availableBackends()) {
    const targets::TargetRow &row = *b.row;
    std::printf("\n%-8s %s: %s\n", row.name, b.generator.c_str(),
                b.present ? "in this build" : ("not in this build (" + b.note + ")").c_str());
    std::vector<std::string> names = {row.name};
    for (const targets::TargetAlias &a : row.aliases)
      names.push_back(*a.flavour ? std::string(a.name) + " (flavour " + a.flavour + ")" : a.name);
    std::printf("         names:   %s\n", joined(names).c_str());
    for (const targets::TargetFlavour &f : row.flavours)
      std::printf("         %s%s\n", *f.name ? ("flavour " + std::string(f.name) + " runs on: ").c_str() : "runs on: ",
                  runsOn(f).c_str());
    std::printf("         formats: %s\n", joined({row.formats.begin(), row.formats.end()}).c_str());
  }
  return 0;
}

static int runCommand(int argc, const char **argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (isHelp(cmd.c_str()) || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if ((cmd == "targets" || cmd == "version") && argc > 2 && isHelp(argv[2])) {
    std::printf(cmd == "targets" ? "usage: tessera targets\nLists the compile targets, their runtimes and formats.\n"
                                 : "usage: tessera version\nPrints Tessera's version and its LLVM's.\n");
    return 0;
  }
  if ((cmd == "targets" || cmd == "version") && argc > 2) return usage("'tessera " + cmd + "' takes no arguments");
  try {
    if (cmd == "version" || cmd == "--version") {
      std::printf("%s\n", versionLine().c_str());
      return 0;
    }
    if (cmd == "compile") return compile(argc, argv);
    if (cmd == "bench" || cmd == "conformance")
      return usage("'tessera " + cmd + "' is a Python program: run it through the tessera executable or console "
                   "command, or as python -m tessera." + cmd);
    if (cmd != "targets") return usage("unknown command '" + cmd + "'");
  } catch (const std::exception &e) {
    return usage(e.what());
  }
  return printTargets();
}

int tools::runCli(int argc, const char **argv) {
  int status = runCommand(argc, argv);
  // A Python caller's own output follows: ours must be out first.
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(stdout);
  std::fflush(stderr);
  return status;
}
