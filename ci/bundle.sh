#!/usr/bin/env bash
# Packs a relocatable bundle for machines without LLVM or a build tree (the
# GPU machines): libtessera.so (debug info stripped) inside the Python
# package, plus the suites those machines run. DEVELOPERS.md says how to use it.
#   ci/bundle.sh [build-dir]    -> <build-dir>/bundle/tessera-bundle.tar.xz
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
limit_mib=60
strip=/usr/lib/llvm-19/bin/llvm-strip

# Reuse a configured build tree (any build type); configure a Release one otherwise.
if [ ! -f "$build/build.ninja" ]; then
  bash "$root/ci/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target libtessera -- -j"${JOBS:-$(nproc)}"
# The ahead-of-time example (C, libtessera_rt only), where the tree builds it.
aot=""
if cmake --build "$build" --target help | grep "vector_add_aot" >/dev/null; then
  cmake --build "$build" --target vector_add_aot -- -j"${JOBS:-$(nproc)}"
  aot="$build/examples/aot/vector_add_aot"
fi

lib="$build/capi/libtessera.so"
out="$build/bundle"
stage="$out/stage/tessera"
rm -rf "$out/stage"
mkdir -p "$stage/python" "$stage/tests/unit/runtime"

# Only system libraries may be needed: the GPU machines have no LLVM (libz3
# came from LLVM's link interface; capi/CMakeLists.txt links --as-needed).
allowed='^(linux-vdso|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libz|libzstd|ld-linux-x86-64)\.so'
bad=$(ldd "$lib" | awk '{print $1}' | sed 's|.*/||' | grep -Ev "$allowed" || true)
if [ -n "$bad" ]; then
  echo "bundle: libtessera.so needs non-system libraries: $bad" >&2
  exit 1
fi

cp -r "$root/python/tessera" "$stage/python/"
"$strip" --strip-debug -o "$stage/python/tessera/libtessera.so" "$lib"
# The launch fast lane (a CPython extension on the limited API: any python3 >= 3.10).
"$strip" --strip-debug -o "$stage/python/tessera/_tessera_launch.abi3.so" "$build/capi/_tessera_launch.abi3.so"
cp -r "$root/tests/python" "$root/tests/gpu" "$stage/tests/"
# tests/python compiles the hand-written ABI kernels from here.
cp "$root/tests/unit/runtime/abi_kernels.c" "$stage/tests/unit/runtime/"
# tests/python checks the ctypes binding against the header it is generated from.
mkdir -p "$stage/include/tessera" "$stage/tools"
cp "$root/include/tessera/tessera.h" "$stage/include/tessera/"
cp "$root/tools/gen_capi_binding.py" "$stage/tools/"
cp -r "$root/conformance" "$stage/"
mkdir -p "$stage/examples" && cp -r "$root/examples/python" "$stage/examples/"
if [ -n "$aot" ]; then  # run with LD_LIBRARY_PATH=examples/aot
  mkdir -p "$stage/examples/aot"
  "$strip" --strip-debug -o "$stage/examples/aot/vector_add_aot" "$aot"
  "$strip" --strip-debug -o "$stage/examples/aot/libtessera_rt.so" "$build/capi/libtessera_rt.so"
fi
find "$stage" \( -name __pycache__ -o -name .pytest_cache \) -prune -exec rm -rf {} +

{
  echo "tessera bundle"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "build type: $(grep -m1 '^CMAKE_BUILD_TYPE:' "$build/CMakeCache.txt" | cut -d= -f2)"
  echo "needs: $(readelf -d "$stage/python/tessera/libtessera.so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
  echo "glibc >= $(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 | cut -d_ -f2)"
  echo "use: PYTHONPATH=\$PWD/tessera/python python3 -c 'import tessera'"
} > "$stage/BUNDLE.txt"

tarball="$out/tessera-bundle.tar.xz"
tar -C "$out/stage" -cf - tessera | xz -T0 -6 > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
rm -rf "$out/stage"
size=$(stat -c %s "$tarball")
echo "bundle: $tarball ($((size / 1024 / 1024)) MiB, $size bytes)"
if [ "$size" -ge $((limit_mib * 1024 * 1024)) ]; then
  echo "bundle: larger than $limit_mib MiB" >&2
  exit 1
fi
