// allocate-shared: every shared_alloc of a thread-level kernel gets an
// offset in the program's shared memory.
//
// A buffer is live from its definition to its last use. A use nested in a
// loop or branch counts at the end of the op that holds it in the buffer's
// own block, so a loop that reads a buffer keeps it for every iteration.
// Uses are followed through addptr (inline assembly without results only
// reads the address); a buffer that flows anywhere else lives
// to the end of the kernel. Buffers whose lifetimes do not overlap share
// memory; each is 16-byte aligned (or as its `align` asks) and placed
// first-fit in the order of definition. The kernel's shared_memory_bytes is the peak.
//
// Small buffers (reduction partials, broadcast scalars: at most
// kPrivateBytes each, kPrivateTotal together) share with nothing: the
// bytes saved would cost a barrier before the next writer, which then
// waits for the last reader (a loop's reductions would otherwise take two
// barriers each instead of one).
#include "targets/gpu/Passes.h"

#include "ir/Builder.h"
#include "ir/PassManager.h"

#include <algorithm>
#include <unordered_map>

namespace tessera::targets::gpu {

using ir::OpCode;

namespace {

constexpr int64_t kAlign = 16;
constexpr int64_t kPrivateBytes = 128, kPrivateTotal = 4096;

struct Buffer {
  ir::Operation *alloc;
  int64_t bytes, first, last, offset = 0, align = kAlign;
};

class Allocator {
public:
  explicit Allocator(ir::Function &f) : f_(f) { number(f.entry()); }

  void run() {
    std::vector<Buffer> buffers;
    f_.walk([&](ir::Operation *op) {
      if (op->is(OpCode::SharedAlloc))
        buffers.push_back({op, op->attr("bytes")->getInt(), index_[op], lastUse(op), 0,
                           std::max(kAlign, op->attrs().getInt("align", kAlign))});
    });
    std::sort(buffers.begin(), buffers.end(), [](const Buffer &a, const Buffer &b) { return a.first < b.first; });
    int64_t privateBytes = 0;
    for (Buffer &buf : buffers) {
      if (buf.bytes > kPrivateBytes || privateBytes + buf.bytes > kPrivateTotal) continue;
      privateBytes += buf.bytes;
      buf.first = 0, buf.last = next_;  // live throughout: overlaps every other buffer
    }
    int64_t peak = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      Buffer &cur = buffers[i];
      // Lowest aligned offset clear of every placed buffer live at the same time.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (size_t j = 0; j < i; ++j)
        if (buffers[j].first <= cur.last && cur.first <= buffers[j].last)
          busy.push_back({buffers[j].offset, buffers[j].offset + buffers[j].bytes});
      std::sort(busy.begin(), busy.end());
      int64_t at = 0;
      for (auto [lo, hi] : busy) {
        if (at + cur.bytes <= lo) break;
        at = std::max(at, (hi + cur.align - 1) / cur.align * cur.align);
      }
      cur.offset = at;
      peak = std::max(peak, at + cur.bytes);
    }
    for (Buffer &buf : buffers) {
      ir::Builder b;
      b.setInsertionPoint(buf.alloc);
      b.setLoc(buf.alloc->loc());
      ir::AttrDict a;
      a.set("offset", ir::Attribute(buf.offset));
      a.set("bytes", ir::Attribute(buf.bytes));
      ir::Value *ptr = b.createValue(OpCode::SharedPtr, {}, buf.alloc->result()->type(), a);
      ptr->setNameHint(buf.alloc->result()->nameHint());
      buf.alloc->result()->replaceAllUsesWith(ptr);
      buf.alloc->erase();
    }
    int64_t before = f_.attrs().getInt("shared_memory_bytes", 0);
    f_.attrs().set("shared_memory_bytes", ir::Attribute(std::max(before, peak)));
  }

private:
  // Pre-order positions; end_ is the last position inside an op's regions.
  void number(ir::Block &blk) {
    for (ir::Operation *op : blk.opsVector()) {
      index_[op] = next_++;
      for (unsigned r = 0; r < op->numRegions(); ++r) number(op->region(r).block());
      end_[op] = next_ - 1;
    }
  }

  int64_t lastUse(ir::Operation *alloc) {
    ir::Block *home = alloc->parentBlock();
    int64_t last = index_[alloc];
    std::vector<ir::Value *> work = {alloc->result()};
    while (!work.empty()) {
      ir::Value *v = work.back();
      work.pop_back();
      for (ir::Operation *user : v->users()) {
        bool isAddress = user->is(OpCode::AddPtr) && user->operand(0) == v;
        bool isAccess = ((user->is(OpCode::VLoad) || user->is(OpCode::LdMatrix) || user->is(OpCode::CpAsync) ||
                          user->is(OpCode::VStore) || user->is(OpCode::AtomicRmw) || user->is(OpCode::AtomicCas)) &&
                         user->operand(0) == v) ||
                        // A wgmma's A and B (only B, after A's registers, when A is in registers).
                        (user->is(OpCode::Wgmma) && v->type().isPointer()) ||
                        // A coop_mma's A, B and accumulators.
                        user->is(OpCode::CoopMma) ||
                        // A target's own instructions (tensor-map copies, mbarriers) take addresses, never return them.
                        (user->is(OpCode::InlineAsm) && user->numResults() == 0);
        if (!isAddress && !isAccess) return next_;  // escapes: live to the end
        if (isAddress) work.push_back(user->result());
        ir::Operation *holder = user;
        while (holder->parentBlock() != home && holder->parentOp()) holder = holder->parentOp();
        last = std::max(last, end_[holder]);
      }
    }
    return last;
  }

  ir::Function &f_;
  std::unordered_map<const ir::Operation *, int64_t> index_, end_;
  int64_t next_ = 0;
};

} // namespace

void allocateShared(ir::Module &m) {
  for (auto &f : m.functions())
    if (f->isThreadLevel()) Allocator(*f).run();
}

} // namespace tessera::targets::gpu
