// llvmgen::generateCode with and without loop strength reduction: both
// generate, and LLVM's process-wide option is left as it was found, so the
// next caller (another target) gets LLVM's default.
#include "targets/llvm/Codegen.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

namespace {

// void f(ptr p, i64 n): for (i = 0; i < n; ++i) p[i * 4] += 1.
std::unique_ptr<llvm::Module> stridedLoop(llvm::LLVMContext &ctx, const std::string &triple) {
  auto m = std::make_unique<llvm::Module>("m", ctx);
  m->setTargetTriple(triple);
  llvm::IRBuilder<> b(ctx);
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getInt64Ty()}, false),
                                    llvm::GlobalValue::ExternalLinkage, "f", *m);
  auto *entry = llvm::BasicBlock::Create(ctx, "entry", fn), *loop = llvm::BasicBlock::Create(ctx, "loop", fn),
       *done = llvm::BasicBlock::Create(ctx, "done", fn);
  b.SetInsertPoint(entry);
  b.CreateCondBr(b.CreateICmpSGT(fn->getArg(1), b.getInt64(0)), loop, done);
  b.SetInsertPoint(loop);
  llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(b.getInt64(0), entry);
  llvm::Value *at = b.CreateGEP(b.getInt32Ty(), fn->getArg(0), b.CreateMul(i, b.getInt64(4)));
  b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt32Ty(), at), b.getInt32(1)), at);
  llvm::Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, fn->getArg(1)), loop, done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return m;
}

bool lsrDisabled() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("disable-lsr");
  return it != options.end() && static_cast<llvm::cl::opt<bool> *>(it->second)->getValue();
}

} // namespace

TEST(Codegen, StrengthReductionAsAskedAndTheOptionRestored) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  std::string triple = "nvptx64-nvidia-cuda", error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  ASSERT_NE(target, nullptr) << error;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(triple, "sm_90", "", llvm::TargetOptions(),
                                                                     std::nullopt, std::nullopt,
                                                                     llvm::CodeGenOptLevel::Aggressive));
  llvm::LLVMContext ctx;
  std::string reduced, plain;
  auto m1 = stridedLoop(ctx, triple), m2 = stridedLoop(ctx, triple);
  ASSERT_TRUE(tessera::targets::llvmgen::generateCode(*m1, *tm, llvm::CodeGenFileType::AssemblyFile, true, reduced));
  EXPECT_FALSE(lsrDisabled());
  ASSERT_TRUE(tessera::targets::llvmgen::generateCode(*m2, *tm, llvm::CodeGenFileType::AssemblyFile, false, plain));
  EXPECT_FALSE(lsrDisabled()) << "the next caller must find LLVM's default";
  EXPECT_NE(plain.find(".func f("), std::string::npos) << plain;
  EXPECT_NE(reduced.find(".func f("), std::string::npos) << reduced;
}
