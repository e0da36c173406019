#!/usr/bin/env bash
# The packages a user installs, exercised from outside the source tree:
#   1. the sdist (scikit-build-core, pyproject.toml), unpacked; from it a
#      wheel, repaired and tagged manylinux by auditwheel, installed with pip
#      into a fresh virtual environment, where the `tessera` command, the
#      whole conformance corpus on the CPU and the examples run;
#   2. `pip install -e` of the unpacked sdist: an edit to its Python files
#      shows without reinstalling;
#   3. `cmake --install` into a prefix, and examples/cmake_package finds it
#      with find_package(Tessera), builds and runs (with an ahead-of-time
#      kernel made by the installed CLI, linked against the runtime alone).
#   ci/packages.sh [build-dir]     (the build tree of ci/build.sh, default build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
py="$root/.venv/bin/python"
wheels="$root/.venv/wheels"  # kept by ci/bootstrap.sh: offline from here on
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
numpy="$(grep -E '^numpy==' "$root/ci/requirements.txt")"
# SPIRV-Tools 2025.5 (cmake/SpirvTools.cmake) for the builds below, including
# the isolated one of `pip install -e`, whose Python does not have it.
export TESSERA_SPIRV_TOOLS_PREFIX="${TESSERA_SPIRV_TOOLS_PREFIX:-$("$py" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/cmeel.prefix}"

echo "--- sdist"
sdist="$(cd "$root" && "$py" -c "from scikit_build_core.build import build_sdist; print(build_sdist('$work/sdist'))" | tail -n 1)"
echo "$sdist ($(( $(stat -c %s "$work/sdist/$sdist") / 1024 )) KiB)"
if tar -tzf "$work/sdist/$sdist" | grep -qE '/(build|\.venv)/'; then
  echo "packages: the sdist holds build outputs or the virtual environment" >&2; exit 1
fi
mkdir "$work/src" && tar -xzf "$work/sdist/$sdist" -C "$work/src" --strip-components=1

echo "--- wheel from the sdist, repaired by auditwheel"
# The build tree's objects, from ccache: paths relative to the tree, and the
# same build type as ci/build.sh's (the wheel itself is stripped).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}" CCACHE_BASEDIR="$work/src" CCACHE_NOHASHDIR=1
build_options=(-Ccmake.build-type=RelWithDebInfo -Cbuild-dir=build/wheel-ci)
"$py" -m pip wheel -q --no-build-isolation --no-deps -w "$work/dist" "${build_options[@]}" "$work/src"
PATH="$root/.venv/bin:$PATH" "$py" -m auditwheel repair -w "$work/repaired" "$work"/dist/tessera-*.whl \
  >"$work/auditwheel.log" 2>&1 || { cat "$work/auditwheel.log" >&2; exit 1; }
wheel="$(ls "$work"/repaired/tessera-*.whl)"
case "$(basename "$wheel")" in
  *-manylinux_*_x86_64.whl) ;;
  *) echo "packages: auditwheel gave $(basename "$wheel"), not a manylinux wheel" >&2; exit 1 ;;
esac
echo "$(basename "$wheel") ($(( $(stat -c %s "$wheel") / 1024 / 1024 )) MiB)"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --no-index --find-links "$wheels" "$numpy"
start=$(date +%s%N)
"$work/venv/bin/pip" install -q --no-index "$wheel"
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "installed the wheel in ${elapsed_ms} ms"
if [ "$elapsed_ms" -gt 30000 ]; then echo "packages: installing the wheel took over 30 s" >&2; exit 1; fi
installed="$("$work/venv/bin/python" -c 'import tessera; print(tessera.__file__)')"
case "$installed" in
  "$work/venv/"*) ;;
  *) echo "packages: imported tessera from $installed, not the wheel" >&2; exit 1 ;;
esac
# From elsewhere, so that only the installed package can be found.
cd "$work"
export TESSERA_CACHE_DIR="$work/cache"
tessera="$work/venv/bin/tessera"
"$tessera" --version
"$tessera" compile "$root/tests/ir/nvptx/vector_add.py" --entry=add --signature="*fp32:16,*fp32:16,*fp32:16,i32:16" \
  -DBLOCK=1024 --target=cpu
# The whole corpus, from the wheel's copy (bf16 and fp8 cases skip: no ml_dtypes here).
"$tessera" conformance --target cpu --json "$work/conformance.json" 2>/dev/null | tail -n 1
"$work/venv/bin/python" - "$work/conformance.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
bad = [r for r in results if r["status"] not in ("pass", "skip")]
assert len(results) > 1000 and not bad, (len(results), bad[:3])
PY
"$work/venv/bin/python" "$root/examples/python/run_all.py"
# The README's example, as a reader copies it.
"$work/venv/bin/python" - "$root/README.md" >"$work/readme_example.py" <<'PY'
import re, sys
print(re.search(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S).group(1))
print("assert (out == x + y).all(), 'the README example computed something else'")
PY
"$work/venv/bin/python" "$work/readme_example.py"
echo "the README's example ran"
# The wheel carries the launch fast lane, and it loads there.
"$work/venv/bin/python" -c 'from tessera import _launch; assert _launch.extension(), "no fast lane in the wheel"'

echo "--- pip install -e (the unpacked sdist)"
python3 -m venv "$work/editable"
"$work/editable/bin/pip" install -q --no-index --find-links "$wheels" "$numpy"
"$work/editable/bin/pip" install -q --no-index --find-links "$wheels" -e "$work/src" "${build_options[@]}"
"$work/editable/bin/tessera" --version
echo 'EDITABLE_PROBE = "seen"' >> "$work/src/python/tessera/testing.py"
"$work/editable/bin/python" -c 'import tessera.testing as t; assert t.EDITABLE_PROBE == "seen", "the edit is not seen"'
cd "$root"

echo "--- cmake --install and find_package(Tessera)"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$root/examples/cmake_package" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
TESSERA_CACHE_DIR="$work/cache" "$work/consumer/vector_add"
# The ahead-of-time kernel needs the runtime only.
if ldd "$work/consumer/vector_add_aot" | grep -q 'libtessera\.so'; then
  echo "packages: the AOT program links libtessera (the compiler)" >&2; exit 1
fi
"$work/consumer/vector_add_aot"
"$work/prefix/bin/tessera" version
# Its Python programs: through an interpreter that imports the installed
# wheel, else a message that says how to get one.
TESSERA_PYTHON="$work/venv/bin/python" "$work/prefix/bin/tessera" conformance --list >"$work/cases.txt"
grep -qx 'atomic.add\[fp32\]' "$work/cases.txt"
if TESSERA_PYTHON=python3 "$work/prefix/bin/tessera" bench --help >/dev/null 2>"$work/bench.err"; then
  echo "packages: the installed tessera ran bench without a tessera package" >&2; exit 1
fi
grep -q "pip install tessera" "$work/bench.err" || { cat "$work/bench.err" >&2; exit 1; }
