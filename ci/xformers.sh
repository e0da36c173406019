#!/usr/bin/env bash
# xformers' tests of its Triton kernels (fused RMSNorm, padded RoPE,
# index_select_cat and scaled_index_add, tiled matmul, varargs kernels),
# unmodified, on Tessera through tessera.compat (the fifth
# library of the Triton-surface issue, #49). xformers stays outside the
# repository, and its tests are not in its PyPI releases (whose wheels also
# hold C++/CUDA extensions built for one torch): they come with its source
# from a git repository (GitHub is not reachable from these machines'
# scripts, so `fetch` takes a clone or mirror). The source is release
# v0.0.35's: after it, xformers.ops.fmha re-exports the package mslk, whose
# kernels are compiled. Its extensions (xformers/_C, xformers/csrc) are not
# built: these kernels do not use them, the package imports without them
# (with a warning), and fa2 runs on PyTorch's flash attention. Without them
# xformers refuses its split-K Triton attention ("xFormers wasn't build with
# CUDA support"), which merge_attentions and tree attention run on, on any
# compiler; no xformers wheel loads on torch 2.11 with CUDA 13 (0.0.35's
# _C.so needs torch 2.10 and libcudart.so.12), so those two files are left
# out of the default list.
#   ci/xformers.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: xformers/ (less csrc/) and tests/ of GIT_DIR's
#       XFORMERS_REF (default v0.0.35; its commit in DIR/COMMIT). No wheels:
#       xformers needs only torch and numpy (the GPU machine has them).
#       tests/test_mem_eff_attention.py is left out: it imports scipy.
#   ci/xformers.sh test DIR [OUT] [pytest args...]
#       runs the Triton kernel tests with the pytest plugin
#       tessera.compat.pytest_plugin, writes OUT/xformers.xml and
#       OUT/xformers.log (OUT default: DIR) and prints the counts per file.
#       XFORMERS_TEST_SECONDS: stop the tests then (SIGINT: what ran is
#       counted). XFORMERS_TESTS: the test files (paths under DIR/src) that
#       run (default below). COMPAT_BESIDE_TRITON=1: the same tests on Triton
#       beside (ci/compat_suite.sh). Needs torch on an sm_80 or later GPU.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
TESTS="${XFORMERS_TESTS:-tests/test_rmsnorm.py tests/test_rope_padded.py tests/test_indexing.py
  tests/test_tiled_matmul.py tests/test_triton_varargs.py}"
PATHS="xformers tests :(exclude)xformers/csrc"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/xformers.sh fetch DIR GIT_DIR}"; shift
    COMPAT_GIT_REF="${XFORMERS_REF:-v0.0.35}" compat_fetch_git "$dir" "$git_dir" "$PATHS" "" "$@" || exit 1 ;;
  test)
    out="${1:-$dir}"; shift || true
    # shellcheck disable=SC2206  # the list is words
    files=($TESTS)
    echo "xformers at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"
    compat_suite xformers "$dir" "$out" "$dir/src" "${XFORMERS_TEST_SECONDS:-0}" "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/xformers.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
