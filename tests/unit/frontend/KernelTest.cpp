// The Triton tutorial kernels, as the tutorials teach them, ported by changing
// only their imports. They live in frontend/fuzz/corpus/ (also the fuzz seeds).
#include "FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace tessera::frontend::test {
namespace {

Parsed parseCorpus(const std::string& name) {
  std::string src = corpusFile(name);
  EXPECT_FALSE(src.empty()) << "missing corpus file " << name;
  return parse(src);
}

// Asserts that each line of `lines` appears in `dump`, in order.
void expectInOrder(const std::string& dump, const std::vector<std::string>& lines) {
  size_t at = 0;
  for (const std::string& l : lines) {
    size_t found = dump.find(l, at);
    ASSERT_NE(found, std::string::npos) << "missing (in order): " << l << "\nin:\n" << dump;
    at = found + l.size();
  }
}

TEST(Kernels, VectorAdd) {
  Parsed p = parseCorpus("vector_add.py");
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.dump,
            "Module\n"
            "  Import tessera\n"
            "  Import tessera.language as tl\n"
            "  FunctionDef add_kernel\n"
            "    Decorator tessera.jit\n"
            "    Param x_ptr\n"
            "    Param y_ptr\n"
            "    Param output_ptr\n"
            "    Param n_elements\n"
            "    Param BLOCK_SIZE: tl.constexpr\n"
            "    Docstring \"Element-wise x + y over a 1D grid of blocks.\"\n"
            "    Body\n"
            "      Assign pid = (call tl.program_id axis=0)\n"
            "      Assign block_start = (* pid BLOCK_SIZE)\n"
            "      Assign offsets = (+ block_start (call tl.arange 0 BLOCK_SIZE))\n"
            "      Assign mask = (compare offsets < n_elements)\n"
            "      Assign x = (call tl.load (+ x_ptr offsets) mask=mask)\n"
            "      Assign y = (call tl.load (+ y_ptr offsets) mask=mask)\n"
            "      Assign output = (+ x y)\n"
            "      Expr (call tl.store (+ output_ptr offsets) output mask=mask)\n");
}

TEST(Kernels, FusedSoftmax) {
  Parsed p = parseCorpus("fused_softmax.py");
  EXPECT_EQ(p.errors, "");
  expectInOrder(p.dump, {
      "  FunctionDef softmax_kernel\n    Decorator tessera.jit\n",
      "    Param BLOCK_SIZE: tl.constexpr\n    Param num_stages: tl.constexpr\n",
      "      Assign row_step = (call tl.num_programs 0)\n",
      "      For row_idx in (call tl.range row_start n_rows row_step num_stages=num_stages)\n",
      "        Assign row = (call tl.load input_ptrs mask=mask other=(neg (call float \"inf\")))\n",
      "        Assign row_minus_max = (- row (call tl.max row axis=0))\n",
      "        Assign softmax_output = (/ numerator denominator)\n",
      "        Expr (call tl.store output_ptrs softmax_output mask=mask)\n",
  });
}

TEST(Kernels, MatmulWithAutotuneAndGroupedOrdering) {
  Parsed p = parseCorpus("matmul.py");
  EXPECT_EQ(p.errors, "");
  expectInOrder(p.dump, {
      "  FunctionDef get_autotune_config\n",
      "      Return (list (call tessera.Config (dict (\"BLOCK_SIZE_M\" 128) (\"BLOCK_SIZE_N\" 256) "
      "(\"BLOCK_SIZE_K\" 64) (\"GROUP_SIZE_M\" 8)) num_stages=3 num_warps=8) (call tessera.Config",
      "  FunctionDef matmul_kernel\n",
      "    Decorator (call tessera.autotune configs=(call get_autotune_config) key=(list \"M\" \"N\" \"K\"))\n"
      "    Decorator tessera.jit\n",
      "    Param ACTIVATION: tl.constexpr\n",
      "    Docstring \"C = A x B with grouped ordering of the program ids for L2 reuse.\"\n",
      "      Assign group_id = (// pid num_pid_in_group)\n",
      "      Assign group_size_m = (call min (- num_pid_m first_pid_m) GROUP_SIZE_M)\n",
      "      Assign pid_m = (+ first_pid_m (% (% pid num_pid_in_group) group_size_m))\n",
      "      Assign pid_n = (// (% pid num_pid_in_group) group_size_m)\n",
      "      Assign a_ptrs = (+ a_ptr (+ (* (subscript offs_am (tuple (slice _ _) None)) stride_am) "
      "(* (subscript offs_k (tuple None (slice _ _))) stride_ak)))\n",
      "      Assign accumulator = (call tl.zeros (tuple BLOCK_SIZE_M BLOCK_SIZE_N) dtype=tl.float32)\n",
      "      For k in (call range 0 (call tl.cdiv K BLOCK_SIZE_K))\n",
      "        Assign a = (call tl.load a_ptrs mask=(compare (subscript offs_k (tuple None (slice _ _))) < "
      "(- K (* k BLOCK_SIZE_K))) other=0.0)\n",
      "        Assign accumulator = (call tl.dot a b accumulator)\n",
      "        AugAssign a_ptrs += (* BLOCK_SIZE_K stride_ak)\n",
      "      If (compare ACTIVATION == \"leaky_relu\")\n        Then\n"
      "          Assign accumulator = (call leaky_relu accumulator)\n",
      "      Assign c = (call accumulator.to tl.float16)\n",
      "      Assign c_mask = (& (compare (subscript offs_cm (tuple (slice _ _) None)) < M) "
      "(compare (subscript offs_cn (tuple None (slice _ _))) < N))\n",
      "  FunctionDef leaky_relu\n",
      "      Return (call tl.where (compare x >= 0) x (* 0.01 x))\n",
  });
}

TEST(Kernels, LowMemoryDropout) {
  Parsed p = parseCorpus("dropout.py");
  EXPECT_EQ(p.errors, "");
  expectInOrder(p.dump, {
      "  FunctionDef _seeded_dropout\n",
      "    Param seed\n    Param BLOCK_SIZE: tl.constexpr\n",
      "      Assign random = (call tl.rand seed offsets)\n",
      "      Assign x_keep = (compare random > p)\n",
      "      Assign output = (call tl.where x_keep (/ x (- 1 p)) 0.0)\n",
  });
}

TEST(Kernels, LayerNormForward) {
  Parsed p = parseCorpus("layernorm.py");
  EXPECT_EQ(p.errors, "");
  expectInOrder(p.dump, {
      "  FunctionDef _layer_norm_fwd_fused\n",
      "      AugAssign Y += (* row stride)\n",
      "      Assign _mean = (call tl.zeros (list BLOCK_SIZE) dtype=tl.float32)\n",
      "      For off in (call range 0 N BLOCK_SIZE)\n",
      "        Assign a = (call (attr (call tl.load (+ X cols) mask=(compare cols < N) other=0.0) to) tl.float32)\n",
      "        AugAssign _mean += a\n",
      "        Assign x = (call tl.where (compare cols < N) (- x mean) 0.0)\n",
      "      Assign rstd = (/ 1 (call tl.sqrt (+ var eps)))\n",
      "        Assign y = (+ (* x_hat w) b)\n",
  });
  // Three loops at the top level of the body.
  const FunctionDef& f = p.function();
  int loops = 0;
  for (const StmtPtr& s : f.body) loops += isa<ForStmt>(s.get());
  EXPECT_EQ(loops, 3);
}

TEST(Kernels, FusedAttentionForwardInnerLoop) {
  Parsed p = parseCorpus("attention.py");
  EXPECT_EQ(p.errors, "");
  expectInOrder(p.dump, {
      "  FunctionDef _attn_fwd_inner\n",
      "    Param fp8_v: tl.constexpr\n",
      "      If (compare STAGE == 1)\n        Then\n"
      "          Assign (tuple lo hi) = (tuple 0 (* start_m BLOCK_M))\n        Else\n"
      "          If (compare STAGE == 2)\n            Then\n"
      "              Assign (tuple lo hi) = (tuple (* start_m BLOCK_M) (* (+ start_m 1) BLOCK_M))\n"
      "              Assign lo = (call tl.multiple_of lo BLOCK_M)\n            Else\n"
      "              Assign (tuple lo hi) = (tuple 0 N_CTX)\n",
      "      Assign K_block_ptr = (call tl.advance K_block_ptr (tuple 0 lo))\n",
      "      For start_n in (call range lo hi BLOCK_N)\n",
      "            Assign mask = (compare (subscript offs_m (tuple (slice _ _) None)) >= "
      "(+ start_n (subscript offs_n (tuple None (slice _ _)))))\n",
      "            Assign qk = (+ (* qk qk_scale) (call tl.where mask 0 (neg 1000000.0)))\n",
      "            AugAssign qk -= (subscript m_ij (tuple (slice _ _) None))\n",
      "        Assign p = (call tl.math.exp2 qk)\n",
      "        Assign acc = (* acc (subscript alpha (tuple (slice _ _) None)))\n",
      "        If fp8_v\n          Then\n            Assign p = (call p.to tl.float8e5)\n",
      "        Assign acc = (call tl.dot p v acc)\n",
      "      Return (tuple acc l_i m_i)\n",
  });
}

}  // namespace
}  // namespace tessera::frontend::test
