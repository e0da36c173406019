#!/usr/bin/env bash
# mamba-ssm's Triton op tests (selective state update, SSD, gated layer norm,
# Mamba-3 SISO), unmodified, on Tessera through tessera.compat (one of the
# libraries of the Triton-surface issue, #49). mamba stays outside the
# repository, and its tests are not in its PyPI releases: they come with its
# source from a git repository (GitHub is not reachable from these machines'
# scripts, so `fetch` takes a clone or mirror). Its CUDA extensions
# (selective_scan_cuda, causal_conv1d) are not built: the Triton ops do not
# use them, and the package imports without them.
#   ci/mamba.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: mamba_ssm/ and tests/ of GIT_DIR's HEAD (its commit in
#       DIR/COMMIT); DIR/wheels: einops for that Python, to carry to a machine
#       without a network. mamba_ssm imports transformers (the GPU machine
#       has it) and needs torch on a GPU.
#   ci/mamba.sh test DIR [OUT] [pytest args...]
#       installs DIR/wheels into DIR/site, runs the Triton op tests with the
#       pytest plugin tessera.compat.pytest_plugin, writes OUT/mamba.xml and
#       OUT/mamba.log (OUT default: DIR) and prints the counts per file.
#       MAMBA_TEST_SECONDS: stop the tests then (SIGINT: what ran is counted).
#       MAMBA_TESTS: the test files of tests/ops/triton that run (default below).
#       COMPAT_BESIDE_TRITON=1: the same tests on Triton beside (ci/compat_suite.sh).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
TESTS="${MAMBA_TESTS:-selective_state_update ssd layernorm_gated mamba3_siso}"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/mamba.sh fetch DIR GIT_DIR}"; shift
    compat_fetch_git "$dir" "$git_dir" "mamba_ssm tests" "einops" "$@" || exit 1 ;;
  test)
    out="${1:-$dir}"; shift || true
    files=(); for t in $TESTS; do files+=("tests/ops/triton/test_$t.py"); done
    echo "mamba at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"
    compat_suite mamba "$dir" "$out" "$dir/src" "${MAMBA_TEST_SECONDS:-0}" "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/mamba.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
