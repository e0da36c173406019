#!/usr/bin/env bash
# The packages a user installs, exercised from outside the source tree:
#   1. `pip wheel .` (ci/wheel/tessera_wheel.py, reusing the build tree),
#      installed with pip into a fresh virtual environment, runs the examples;
#   2. `cmake --install` into a prefix, and examples/cmake_package finds it
#      with find_package(Tessera), builds and runs (with an ahead-of-time
#      kernel made by the installed CLI, linked against the runtime alone).
#   ci/packages.sh [build-dir]     (the build tree of ci/build.sh, default build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
numpy="$(grep -E '^numpy==' "$root/ci/requirements.txt")"

echo "--- wheel"
TESSERA_BUILD_DIR="$build" "$root/.venv/bin/pip" wheel -q --no-deps -w "$work/dist" "$root"
wheel="$(ls "$work"/dist/tessera-*.whl)"
echo "$(basename "$wheel") ($(( $(stat -c %s "$wheel") / 1024 / 1024 )) MiB)"
python3 -m venv "$work/venv"
# Offline: numpy's wheel is the one ci/bootstrap.sh kept.
"$work/venv/bin/pip" install -q --no-index --find-links "$root/.venv/wheels" "$wheel" "$numpy"
# From elsewhere, so that only the installed package can be imported.
(cd "$work" && TESSERA_CACHE_DIR="$work/cache" "$work/venv/bin/python" "$root/examples/python/run_all.py")
installed="$("$work/venv/bin/python" -c 'import tessera; print(tessera.__file__)')"
# The wheel carries the launch fast lane, and it loads there.
(cd "$work" && "$work/venv/bin/python" -c 'from tessera import _launch; assert _launch.extension(), "no fast lane in the wheel"')
case "$installed" in
  "$work/venv/"*) ;;
  *) echo "packages: imported tessera from $installed, not the wheel" >&2; exit 1 ;;
esac

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
