#!/usr/bin/env bash
# FlagGems' own op tests, unmodified, on Tessera through tessera.compat (one
# of the libraries of the Triton-surface issue, #49). FlagGems stays outside
# the repository, and its tests are not in its PyPI releases: they come with
# its source from a git repository (GitHub is not reachable from these
# machines' scripts, so `fetch` takes a clone or mirror).
#   ci/flag_gems.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: src/, tests/ and pytest.ini of GIT_DIR's HEAD (its commit in
#       DIR/COMMIT); DIR/wheels: PyYAML for that Python (scipy, which only the
#       distribution tests need, is left out), to carry
#       to a machine without a network. FlagGems needs torch on a GPU.
#       FlagGems' launcher passes a compiled kernel its constexprs only for
#       Triton 3.3-3.5 (libentry.py); 532ff43 predates Triton 3.6, whose
#       launcher needs them too, so the copy widens that test to 3.6 (written
#       to DIR/PATCHED) and Triton 3.6 can run beside Tessera as the peer.
#   ci/flag_gems.sh test DIR [OUT] [pytest args...]
#       installs DIR/wheels into DIR/site, runs the op tests (FlagGems' quick
#       mode) with the pytest plugin tessera.compat.pytest_plugin, writes
#       OUT/flag_gems.xml and OUT/flag_gems.log (OUT default: DIR) and prints
#       the counts per file. FLAG_GEMS_TEST_SECONDS: stop the tests then
#       (SIGINT: what ran is counted). FLAG_GEMS_TESTS: the test files of
#       tests/ that run (default below). GEMS_VENDOR=nvidia is set: FlagGems
#       otherwise probes the machine's vendor tools.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
TESTS="${FLAG_GEMS_TESTS:-unary_pointwise_ops binary_pointwise_ops reduction_ops general_reduction_ops norm_ops blas_ops tensor_constructor_ops special_ops}"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/flag_gems.sh fetch DIR GIT_DIR}"; shift
    compat_fetch_git "$dir" "$git_dir" "src tests pytest.ini" "pyyaml" "$@" || exit 1
    libentry="$dir/src/src/flag_gems/utils/libentry.py"
    if grep -q '3 <= minor_version <= 5' "$libentry"; then
      sed -i 's/3 <= minor_version <= 5/3 <= minor_version <= 6/' "$libentry"
      echo "libentry.py: constexprs passed to compiled kernels for Triton 3.3-3.6 (was 3.5)" > "$dir/PATCHED"
    fi ;;
  test)
    out="${1:-$dir}"; shift || true
    files=(); for t in $TESTS; do files+=("tests/test_$t.py"); done
    echo "FlagGems at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"; cat "$dir/PATCHED" 2>/dev/null
    GEMS_VENDOR="${GEMS_VENDOR:-nvidia}" \
      compat_suite flag_gems "$dir" "$out" "$dir/src" "${FLAG_GEMS_TEST_SECONDS:-0}" --mode quick "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/flag_gems.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
