#!/usr/bin/env bash
# attorch's layer tests (a PyTorch nn subset written in Triton), unmodified,
# on Tessera through tessera.compat (one of the libraries of the
# Triton-surface issue, #49). attorch stays outside the repository and is not
# on PyPI: it comes from a git repository (GitHub is not reachable from these
# machines' scripts, so `fetch` takes a clone or mirror).
#   ci/attorch.sh fetch DIR GIT_DIR [--python-version 3.12]
#       DIR/src: attorch/ and tests/ of GIT_DIR's HEAD (its commit in
#       DIR/COMMIT). attorch needs only torch, on a GPU.
#   ci/attorch.sh test DIR [OUT] [pytest args...]
#       runs the layer tests in attorch's own quick mode (`--subset`; its
#       skipped shapes deselected by ci/pytest_plugins/attorch_subset.py
#       rather than passing at once) with the pytest plugin
#       tessera.compat.pytest_plugin, writes OUT/attorch.xml and
#       OUT/attorch.log (OUT default: DIR) and prints the counts per file.
#       ATTORCH_TEST_SECONDS: stop the tests then (SIGINT: what ran is counted).
#       ATTORCH_TESTS: the test files of tests/ that run (default below: all
#       but conv, batch_norm and linear, which have 131072, 16128 and 5376
#       cases even in the quick mode, and multi_head_attention: at the pinned
#       commit its MultiheadAttention raises "The attention module in attorch
#       is currently deprecated" in its constructor, on every compiler).
#       COMPAT_BESIDE_TRITON=1: the same tests
#       on Triton beside (ci/compat_suite.sh).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
TESTS="${ATTORCH_TESTS:-act_layers cross_entropy_loss_layer dropout_layer glu_layer layer_norm_layer nll_loss_layer p_loss_layers pooling_layer rms_norm_layer softmax_layers}"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"
case "$cmd" in
  fetch)
    git_dir="${1:?ci/attorch.sh fetch DIR GIT_DIR}"; shift
    compat_fetch_git "$dir" "$git_dir" "attorch tests" "" "$@" || exit 1 ;;
  test)
    out="${1:-$dir}"; shift || true
    files=(); for t in $TESTS; do files+=("tests/test_$t.py"); done
    echo "attorch at $(cat "$dir/COMMIT" 2>/dev/null || echo '?')"
    PYTHONPATH="$root/ci/pytest_plugins${PYTHONPATH:+:$PYTHONPATH}" \
      compat_suite attorch "$dir" "$out" "$dir/src" "${ATTORCH_TEST_SECONDS:-0}" -p attorch_subset --subset "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/attorch.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
