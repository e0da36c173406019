// Which pointer arguments a kernel may store through: traced through address
// arithmetic, broadcasts, selects and loop-carried values; a pointer loaded
// from memory is not traced (a write may be missed, never invented).
#include "ir/analysis/WrittenArguments.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

using namespace tessera::ir;

namespace {

std::unique_ptr<Module> parse(const std::string &text) {
  ParseResult r = parseModule(text);
  EXPECT_TRUE(r.module) << r.error;
  if (!r.module) return nullptr;
  std::vector<std::string> errs;
  EXPECT_TRUE(verifyModule(*r.module, &errs)) << (errs.empty() ? "" : errs[0]);
  return std::move(r.module);
}

std::vector<bool> written(const std::string &text) {
  auto m = parse(text);
  return m ? writtenPointerArguments(*m->functions().front()) : std::vector<bool>{};
}

// Of the module's last function (the kernel, after the device functions it calls).
std::vector<bool> mayWrite(const std::string &text) {
  auto m = parse(text);
  return m ? mayWriteArguments(*m, *m->functions().back()) : std::vector<bool>{};
}

} // namespace

TEST(WrittenArguments, StoresThroughAddressArithmeticAndBroadcasts) {
  EXPECT_EQ(written(R"(
kernel @k(%in: ptr<f32>, %out: ptr<f32>, %n: i32) {
  %r = arange {end = 16, start = 0} : tile<16xi32>
  %pi = splat %in : tile<16xptr<f32>>
  %a = addptr %pi, %r : tile<16xptr<f32>>
  %x = load %a : tile<16xf32>
  %po = splat %out : tile<16xptr<f32>>
  %b = addptr %po, %r : tile<16xptr<f32>>
  store %b, %x
  return
}
)"), (std::vector<bool>{false, true, false}));
}

TEST(WrittenArguments, SelectsAndLoopCarriedPointers) {
  EXPECT_EQ(written(R"(
kernel @k(%a: ptr<f32>, %b: ptr<f32>, %c: ptr<f32>, %flag: i1, %n: i32) {
  %s = select %flag, %a, %b : ptr<f32>
  %one = constant {value = 1} : i32
  %zero = constant {value = 0} : i32
  %v = constant {value = 1.0} : f32
  %p = for %zero, %n, %one, %c : ptr<f32> {
  ^bb(%i: i32, %q: ptr<f32>):
    %q2 = addptr %q, %one : ptr<f32>
    yield %q2
  }
  store %s, %v
  store %p, %v
  return
}
)"), (std::vector<bool>{true, true, true, false, false}));
}

TEST(WrittenArguments, APointerLoadedFromMemoryIsNotTraced) {
  EXPECT_EQ(written(R"(
kernel @k(%table: ptr<ptr<f32>>, %out: ptr<f32>) {
  %p = load %table : ptr<f32>
  %v = constant {value = 1.0} : f32
  store %p, %v
  %a = atomic_rmw %out, %v {kind = "add", scope = "gpu", sem = "relaxed"} : f32
  return
}
)"), (std::vector<bool>{false, true}));
}

// The GPU targets ask after lowering to threads: vstore, through addptr.
TEST(WrittenArguments, ThreadLevelVectorStores) {
  EXPECT_EQ(written(R"(
kernel @k(%in: ptr<f32>, %out: ptr<f32>) attributes {level = "thread"} {
  %tid = thread_id : i32
  %a = addptr %in, %tid : ptr<f32>
  %x = vload %a : f32
  %b = addptr %out, %tid : ptr<f32>
  vstore %b, %x
  return
}
)"), (std::vector<bool>{false, true}));
}

// mayWriteArguments never misses a write: where a stored-through pointer is
// not traced, every pointer argument may be written.
TEST(MayWriteArguments, TracedStoresMarkTheirArgumentsOnly) {
  EXPECT_EQ(mayWrite(R"(
kernel @k(%in: ptr<f32>, %out: ptr<f32>, %count: ptr<i32>, %n: i32) {
  %r = arange {end = 16, start = 0} : tile<16xi32>
  %pi = splat %in : tile<16xptr<f32>>
  %a = addptr %pi, %r : tile<16xptr<f32>>
  %x = load %a : tile<16xf32>
  %po = splat %out : tile<16xptr<f32>>
  %b = addptr %po, %r : tile<16xptr<f32>>
  store %b, %x
  %one = constant {value = 1} : i32
  %old = atomic_rmw %count, %one {kind = "add", scope = "gpu", sem = "relaxed"} : i32
  return
}
)"), (std::vector<bool>{false, true, true, false}));
}

TEST(MayWriteArguments, AStoreThroughALoadedPointerMayWriteAnyPointerArgument) {
  EXPECT_EQ(mayWrite(R"(
kernel @k(%table: ptr<ptr<f32>>, %in: ptr<f32>, %n: i32) {
  %p = load %table : ptr<f32>
  %v = constant {value = 1.0} : f32
  store %p, %v
  return
}
)"), (std::vector<bool>{true, true, false}));
}

TEST(MayWriteArguments, ReadsOnlyWriteNothing) {
  EXPECT_EQ(mayWrite(R"(
kernel @k(%in: ptr<f32>, %n: i32) {
  %x = load %in : f32
  return
}
)"), (std::vector<bool>{false, false}));
}

// A call writes what the callee writes through its parameters; a recursive
// call, not answered yet when met, may write anything.
TEST(MayWriteArguments, CallsWriteWhatTheirCalleesWrite) {
  EXPECT_EQ(mayWrite(R"(
func @put(%p: ptr<f32>, %q: ptr<f32>, %v: f32) {
  store %p, %v
  return
}
kernel @k(%a: ptr<f32>, %b: ptr<f32>, %c: ptr<f32>) {
  %one = constant {value = 1} : i32
  %bp = addptr %b, %one : ptr<f32>
  %v = load %a : f32
  call %bp, %c, %v {callee = "put"}
  return
}
)"), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(mayWrite(R"(
func @again(%p: ptr<f32>, %q: ptr<f32>) {
  call %q, %p {callee = "again"}
  return
}
kernel @k(%a: ptr<f32>, %b: ptr<f32>, %n: i32) {
  call %a, %b {callee = "again"}
  return
}
)"), (std::vector<bool>{true, true, false}));
}
