#!/usr/bin/env bash
# Triton's own language tests (python/test/unit/language/test_core.py) on
# Tessera through tessera.compat: the Triton-language issue's measure. The
# tests stay outside the repository: `fetch` takes them from a Triton git
# clone or mirror (GitHub is not reachable from these machines' scripts).
#   ci/triton_core.sh fetch DIR GIT_DIR [REV]
#       DIR/src: test_core.py and Triton's python/triton/_internal_testing.py
#       at REV (default: Triton 3.6's, the commit before "Advance version
#       3.6.0->3.7.0"; its id in DIR/COMMIT), and the shim conftest.py.
#   ci/triton_core.sh test DIR [OUT] [pytest args...]
#       runs them (OUT/test_core.xml, OUT/test_core.log; OUT default: DIR) and
#       prints pass/fail counts per test function, and the rate without the
#       tests that read Triton's IR levels (asm["ttir"|"ttgir"|"llir"|"sass"])
#       or compile TTGIR. Pass --device cuda on a GPU machine (default cpu),
#       -n N for xdist. TRITON_CORE_SECONDS: stop then (SIGINT: what ran is
#       counted and the report still written).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/triton_core.sh fetch DIR GIT_DIR [REV]}"
    rev="${2:-}"
    if [ -z "$rev" ]; then
      bump="$(git --git-dir "$git_dir" log --format=%H -1 --grep 'Advance version 3.6.0->3.7.0' -- python/triton/__init__.py)"
      [ -n "$bump" ] || { echo "no 3.6.0->3.7.0 version bump in $git_dir: give REV" >&2; exit 1; }
      rev="$bump^"
    fi
    mkdir -p "$dir/src"
    git --git-dir "$git_dir" show "$rev:python/test/unit/language/test_core.py" > "$dir/src/test_core.py" || exit 1
    git --git-dir "$git_dir" show "$rev:python/triton/_internal_testing.py" > "$dir/src/_internal_testing.py" || exit 1
    git --git-dir "$git_dir" rev-parse "$rev" > "$dir/COMMIT"
    cp "$root/ci/triton_core_conftest.py" "$dir/src/conftest.py"
    echo "test_core.py of $(cat "$dir/COMMIT") in $dir/src" ;;
  test)
    out="${1:-$dir}"; shift || true
    mkdir -p "$out"
    (cd "$dir/src" && PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$root/python" timeout -s INT "${TRITON_CORE_SECONDS:-0}" \
      "$py" -m pytest -q -p no:cacheprovider --tb=no -rf --junitxml "$out/test_core.xml" "$@" test_core.py \
      > "$out/test_core.log" 2>&1)
    rc=$?
    "$py" "$root/ci/triton_core_counts.py" "$dir/src/test_core.py" "$out/test_core.xml"
    exit $rc ;;
  *) echo "ci/triton_core.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
