#!/usr/bin/env bash
# flash-linear-attention's own op tests, unmodified, on Tessera through
# tessera.compat (issue 19's second library). fla stays outside the
# repository, and its tests are not in its PyPI releases: they come with its
# source from a git repository (GitHub is not reachable from these machines'
# scripts, so `fetch` takes a clone or mirror).
#   ci/fla.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: fla/ and tests/ of GIT_DIR's HEAD (its commit in DIR/COMMIT);
#       DIR/wheels: einops for that Python, to carry to a machine without a
#       network. fla needs torch on a GPU: it runs its CPU fallback on CUDA.
#   ci/fla.sh test DIR [OUT] [pytest args...]
#       installs DIR/wheels into DIR/site, runs the op tests with the pytest
#       plugin tessera.compat.pytest_plugin, writes OUT/fla.xml and OUT/fla.log
#       (OUT default: DIR) and prints the counts per file.
#       FLA_TEST_SECONDS: stop the tests then (SIGINT: what ran is counted).
#       FLA_OPS: the test files of tests/ops that run (default below).
#       triton.__version__ reads 3.7.1 here (TESSERA_TRITON_VERSION): fla
#       refuses Triton 3.4-3.7.0 on Hopper for a bug of Triton's code
#       generator (its issue 640), which Tessera does not share; fla's tests
#       check the results.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
OPS="${FLA_OPS:-simple_gla gla delta gdn retention linear_attn hgrn based lightning_attn}"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/fla.sh fetch DIR GIT_DIR}"; shift
    compat_fetch_git "$dir" "$git_dir" "fla tests pyproject.toml" "einops" "$@" || exit 1 ;;
  test)
    out="${1:-$dir}"; shift || true
    files=(); for op in $OPS; do files+=("tests/ops/test_$op.py"); done
    echo "fla at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"
    TESSERA_TRITON_VERSION="${TESSERA_TRITON_VERSION:-3.7.1}" \
      compat_suite fla "$dir" "$out" "$dir/src" "${FLA_TEST_SECONDS:-0}" "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/fla.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
