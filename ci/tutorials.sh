#!/usr/bin/env bash
# Triton's tutorials (python/tutorials/NN-*.py) run on Tessera with only their
# imports changed (`import triton` -> `import tessera as triton`, `triton.x`
# modules -> `tessera.x`): the user's-side issue's measure. The tutorials stay
# outside the repository: `fetch` takes them from a Triton git clone or mirror.
#   ci/tutorials.sh fetch DIR GIT_DIR [REV]
#       DIR/src: the tutorials at REV (default: Triton 3.6's, the commit
#       before "Advance version 3.6.0->3.7.0"; its id in DIR/COMMIT).
#   ci/tutorials.sh run DIR [OUT] [NN ...]
#       runs each (all, or those numbered NN) in a fresh process, in OUT
#       (default DIR/out): OUT/NN.log, a table of pass / fail with the
#       reason, OUT/tutorials.json. TUTORIAL_SECONDS: each one's limit
#       (default 600); TUTORIAL_JOBS: how many run at once (default 1;
#       more keeps the verdicts but not the tutorials' own timings).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/tutorials.sh fetch DIR GIT_DIR [REV]}"
    rev="${2:-}"
    if [ -z "$rev" ]; then
      bump="$(git --git-dir "$git_dir" log --format=%H -1 --grep 'Advance version 3.6.0->3.7.0' -- python/triton/__init__.py)"
      [ -n "$bump" ] || { echo "no 3.6.0->3.7.0 version bump in $git_dir: give REV" >&2; exit 1; }
      rev="$bump^"
    fi
    mkdir -p "$dir/src"
    for f in $(git --git-dir "$git_dir" ls-tree --name-only "$rev" python/tutorials/ | grep -E '/[0-9][0-9]-[^/]*\.py$'); do
      git --git-dir "$git_dir" show "$rev:$f" > "$dir/src/$(basename "$f")" || exit 1
    done
    git --git-dir "$git_dir" rev-parse "$rev" > "$dir/COMMIT"
    echo "$(ls "$dir/src" | wc -l) tutorials of $(cat "$dir/COMMIT") in $dir/src" ;;
  run)
    out="${1:-$dir/out}"; shift || true
    mkdir -p "$out" && out="$(cd "$out" && pwd)"
    PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$root/python" "$py" "$root/ci/tutorials.py" "$dir/src" "$out" "$@" ;;
  *) echo "ci/tutorials.sh: unknown command '$cmd' (fetch, run)" >&2; exit 2 ;;
esac
