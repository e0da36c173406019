#!/usr/bin/env bash
# Liger-Kernel's own op tests, unmodified, on Tessera through tessera.compat
# (issue 19's measure). Liger stays outside the repository: `fetch` downloads
# its PyPI release (the wheel, and the sdist for its tests) into DIR.
#   ci/liger.sh fetch DIR [--python-version 3.12]
#       DIR/wheels: liger-kernel, transformers, tokenizers and their
#       dependencies for that Python (default: this one), to carry to a
#       machine without a network; DIR/src: the sdist (test/ and benchmark/).
#   ci/liger.sh test DIR [OUT] [pytest args...]
#       installs DIR/wheels into DIR/site (no dependencies resolved: torch and
#       numpy come from the Python that runs it, $PYTHON or python3), runs the
#       op tests with the pytest plugin tessera.compat.pytest_plugin, writes
#       OUT/liger.xml and OUT/liger.log (OUT default: DIR) and prints the
#       counts per file. Torch tensors on CUDA where torch has a GPU, else CPU.
#       LIGER_TEST_SECONDS: stop the tests then (SIGINT: what ran is counted).
#       LIGER_OPS: the ops whose test files run (default: the twelve of issue 19).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/ci/compat_suite.sh"
VERSION=0.8.5
OPS="${LIGER_OPS:-rms_norm layer_norm swiglu geglu rope cross_entropy fused_linear_cross_entropy kl_div jsd softmax group_norm dyt}"
py="${PYTHON:-python3}"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift 2
mkdir -p "$dir" && dir="$(cd "$dir" && pwd)"  # the tests run from inside it
case "$cmd" in
  fetch)
    pyver=()
    [ "${1:-}" = "--python-version" ] && pyver=(--python-version "$2" --only-binary=:all:
      --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64)
    mkdir -p "$dir/wheels" "$dir/src"
    "$py" -m pip download -q -d "$dir/wheels" "${pyver[@]}" "liger-kernel==$VERSION" --no-deps || exit 1
    "$py" -m pip download -q -d "$dir/wheels" "${pyver[@]}" transformers tokenizers pytest-xdist || exit 1
    # What the Python that runs the tests has with torch stays its own.
    (cd "$dir/wheels" && rm -f numpy-* filelock-* fsspec-* typing_extensions-* jinja2-* markupsafe-* sympy-* \
      mpmath-* networkx-*)
    "$py" -m pip download -q -d "$dir/src" --no-deps --no-binary :all: "liger-kernel==$VERSION" || exit 1
    tar -xzf "$dir/src/liger_kernel-$VERSION.tar.gz" -C "$dir/src" && rm "$dir/src/liger_kernel-$VERSION.tar.gz"
    # The tests run against the wheel; the op tests need no data sets or docs.
    (cd "$dir/src/liger_kernel-$VERSION" && rm -rf src docs examples liger_cute_kernels test/resources)
    du -sh "$dir" ;;
  test)
    out="${1:-$dir}"; shift || true
    files=(); for op in $OPS; do files+=("test/transformers/test_$op.py"); done
    # Multi-process tensor-parallel tests are marked xfail by Liger itself and
    # spawn eight processes each: left out.
    compat_suite liger "$dir" "$out" "$dir/src/liger_kernel-$VERSION" "${LIGER_TEST_SECONDS:-0}" \
      -o log_cli=false -k "not dtensor" "$@" "${files[@]}"
    exit $? ;;
  *) echo "ci/liger.sh: unknown command '$cmd' (fetch, test)" >&2; exit 2 ;;
esac
