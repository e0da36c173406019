#include "targets/llvm/ExternCalls.h"

#include "targets/llvm/Elementwise.h"

#include <set>

namespace tessera::targets::llvmgen {

namespace {

void collect(const ir::Block &block, const llvm::Module &m, std::set<std::string> &seen,
             std::vector<ExternCallSite> &out) {
  for (const auto &op : block.ops()) {
    if (op->is(ir::OpCode::ExternElementwise)) {
      const std::string &symbol = op->attr("symbol")->getString();
      if (const llvm::Function *f = m.getFunction(symbol); f && seen.insert(symbol).second)
        out.push_back({symbol, op->loc(), f->getFunctionType()});
    }
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->region(r).block(), m, seen, out);
  }
}

} // namespace

std::vector<ExternCallSite> externCallSites(const ir::Module &module, const llvm::Module &m) {
  std::vector<ExternCallSite> out;
  std::set<std::string> seen;
  for (const auto &fn : module.functions()) collect(fn->entry(), m, seen, out);
  return out;
}

bool checkExternCalls(const std::vector<ExternCallSite> &sites, const llvm::Module &m, const std::string &target,
                      const std::string &libraries, std::string &error) {
  for (const ExternCallSite &site : sites) {
    const llvm::Function *f = m.getFunction(site.symbol);
    std::string where = site.loc.str() + ": error: " + target + " target: tl.extern_elementwise calls " + site.symbol;
    if (!f || f->isDeclaration()) {
      error = where + ", which " + libraries + " does not define";
      return false;
    }
    if (f->getFunctionType() != site.type) {
      error = where + " as " + typeText(site.type) + ", but " + libraries + " defines it as " +
              typeText(f->getFunctionType());
      return false;
    }
  }
  return true;
}

} // namespace tessera::targets::llvmgen
