#!/usr/bin/env bash
# torchao's tests of its Triton kernels (blockwise fp8 quantization and GEMM,
# alone and in Float8BlockwiseLinear, the MX-format kernels, float8nocompile's
# tensorwise fp8 kernels), unmodified, on Tessera through tessera.compat (one
# of the libraries of the Triton-surface issue, #49). torchao stays outside
# the repository, and its tests are not in its PyPI releases (whose wheels
# also hold C++/CUDA extensions built for one torch): they come with its
# source from a git repository (GitHub is not reachable from these machines'
# scripts, so `fetch` takes a clone or mirror). Its extensions (torchao/_C)
# are not built: these kernels do not use them, and the package imports
# without them.
#   ci/torchao.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: torchao/ and the test folders below of GIT_DIR's HEAD (its
#       commit in DIR/COMMIT); DIR/wheels: expecttest for that Python
#       (torch.testing._internal, which torchao.testing imports, needs it) and
#       tabulate (torchao.prototype.mx_formats imports it), to
#       carry to a machine without a network. torchao needs torch >= 2.11 on
#       a GPU; the fp8 tests need sm_90 (the MX tests that need sm_100 skip).
#   ci/torchao.sh test DIR [OUT] [pytest args...]
#       installs DIR/wheels into DIR/site, runs the Triton kernel tests with
#       the pytest plugin tessera.compat.pytest_plugin, writes OUT/torchao.xml
#       and OUT/torchao.log (OUT default: DIR) and prints the counts per file.
#       TORCHAO_TEST_SECONDS: stop the tests then (SIGINT: what ran is counted).
#       TORCHAO_TESTS: the test files (paths under DIR/src) that run
#       (default below). COMPAT_BESIDE_TRITON=1: the same tests on Triton
#       beside (ci/compat_suite.sh).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
TESTS="${TORCHAO_TESTS:-test/prototype/blockwise_fp8_inference/test_blockwise.py
  test/prototype/blockwise_fp8_training/test_blockwise_kernels.py
  test/prototype/blockwise_fp8_training/test_blockwise_linear.py
  test/prototype/mx_formats/test_kernels.py
  torchao/prototype/float8nocompile/kernels/fp8_dynamic_tensorwise_test.py}"
PATHS="torchao test/__init__.py test/conftest.py test/prototype/__init__.py
  test/prototype/blockwise_fp8_inference test/prototype/blockwise_fp8_training
  test/prototype/mx_formats"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/torchao.sh fetch DIR GIT_DIR}"; shift
    compat_fetch_git "$dir" "$git_dir" "$PATHS" "expecttest tabulate" "$@" || exit 1 ;;
  test)
    out="${1:-$dir}"; shift || true
    # shellcheck disable=SC2206  # the list is words
    files=($TESTS)
    echo "torchao at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"
    compat_suite torchao "$dir" "$out" "$dir/src" "${TORCHAO_TEST_SECONDS:-0}" "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/torchao.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
