#!/usr/bin/env bash
# The full GPU-machine run from the relocatable bundle (ci/bundle.sh), in
# one device call: the CUDA runtime suite, the Python suite with the
# conformance corpus on nvptx, the conformance matrix, the benchmark beside
# Triton and torch, and the PTX of the benchmark kernels. Logs go to $OUT.
#   tests/gpu/run_device.sh [bundle.tar.xz] [steps...]
#   steps: tests conformance bench ptx vulkan liger liger-bench fla flag-gems mamba attorch torchao xformers triton-core tutorials launch gpu-tests aot
#          torch-compile (TC_MODELS, TC_MODES, TC_STEPS: python -m tessera.bench.torch_compile's lists; TC_JOBS: its --jobs;
#          TC_THREADS: its --compile-threads, 1 or inductor)
#   (default: the first four; bench takes $BENCH_ARGS too). launch: the bench's vector_add rows (host
#   time per launch beside Triton's). liger: Liger-Kernel's op tests and
#   its ops' timing beside Triton (tessera.bench.liger; liger-bench: the
#   timing alone, at $LIGER_TOKENS tokens, default "4096 16384"), from the .liger/
#   folder that `ci/liger.sh fetch .liger --python-version 3.12` made here
#   (carried: the machine has no network); fla likewise from .fla/, flag-gems from
#   .flag_gems/, mamba from .mamba/, attorch from .attorch/, torchao from .torchao/, xformers from
#   .xformers/ (these five beside Triton in the same call: ci/compat_suite.sh's
#   COMPAT_BESIDE_TRITON), triton-core (Triton's
#   test_core.py) from .triton-core/. vulkan: the spirv target on NVIDIA's Vulkan
#   driver; the machine has no Vulkan loader, so the call carries Debian's
#   (.gl/*.deb, see /work/.library/device/README.md) and this step unpacks them.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bundle="${1:-$root/build/bundle/tessera-bundle.tar.xz}"
shift || true
steps="${*:-tests conformance bench ptx}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
work="$(mktemp -d)"
# The device returns at most 8 files from $OUT: a run that leaves more packs
# them into $out/logs.tar.gz (its steps' summaries are on stdout as well).
pack_logs() {
  if [ "$(find "$out" -type f | wc -l)" -gt 8 ]; then
    tar -czf "$work/logs.tar.gz" -C "$out" . && find "$out" -mindepth 1 -delete && mv "$work/logs.tar.gz" "$out/"
  fi
}
trap 'pack_logs; rm -rf "$work"' EXIT
trap 'exit 143' TERM INT
tar -xJf "$bundle" -C "$work" || { echo "cannot unpack $bundle" >&2; exit 2; }
cat "$work/tessera/BUNDLE.txt"
nvidia-smi -L || true
export PYTHONPATH="$work/tessera/python${PYTHONPATH:+:$PYTHONPATH}"
export PATH="$PATH:/usr/local/cuda/bin"
export TESSERA_CACHE_DIR="$work/cache"
py="${PYTHON:-python3}"
rc=0
for step in $steps; do
  echo "=== $step"
  case "$step" in
    tests)
      TESSERA_TEST_TARGET=nvptx "$py" -m pytest -q -rs -p no:cacheprovider -n 8 "$work/tessera/tests/gpu" \
        "$work/tessera/tests/python" --junitxml "$out/tests.xml" > "$out/tests.log" 2>&1 || rc=1
      tail -5 "$out/tests.log"; grep -E "^(FAILED|ERROR)" "$out/tests.log" | head -30 ;;
    gpu-tests)  # tests/gpu alone: the quick check
      "$py" -m pytest -q -rs -p no:cacheprovider -n 8 "$work/tessera/tests/gpu" > "$out/gpu-tests.log" 2>&1 || rc=1
      tail -3 "$out/gpu-tests.log"; grep -E "^(FAILED|ERROR)" "$out/gpu-tests.log" | head -30 ;;
    conformance)
      TESSERA_CONFORMANCE_DIR="$work/tessera/conformance/cases" "$py" -m tessera.conformance \
        --json "$out/conformance.json" --junit "$out/conformance.xml" > "$out/conformance.log" 2>&1 || rc=1
      grep -A40 -E "^(failures|expected failures)" "$out/conformance.log" | head -40; tail -2 "$out/conformance.log" ;;
    bench)
      # shellcheck disable=SC2086  # BENCH_ARGS: extra options, e.g. "--workload matmul --dtype fp32"
      "$py" -m tessera.bench --target nvptx ${BENCH_ARGS:-} --json "$out/bench.json" --plot-dir "$out/plots" \
        > "$out/bench.log" 2>&1 || rc=1
      cat "$out/bench.log" ;;
    vulkan)
      for f in "$root"/.gl/*.deb; do dpkg -x "$f" /; done; ldconfig
      export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
      vulkaninfo --summary > "$out/vulkaninfo.txt" 2>&1; grep -E "deviceName|apiVersion|driverVersion" "$out/vulkaninfo.txt" | head -6
      TESSERA_CONFORMANCE_DIR="$work/tessera/conformance/cases" "$py" -m tessera.conformance --target vulkan \
        --json "$out/conformance-vulkan.json" > "$out/conformance-vulkan.log" 2>&1 || rc=1
      grep -A40 -E "^(failures|expected failures)" "$out/conformance-vulkan.log" | head -60; tail -2 "$out/conformance-vulkan.log"
      "$py" -m pytest -q -rs -p no:cacheprovider "$work/tessera/tests/python/test_vulkan.py" \
        "$work/tessera/tests/gpu/test_vulkan_coopmat.py" > "$out/test-vulkan.log" 2>&1 || rc=1
      tail -3 "$out/test-vulkan.log"
      # The bandwidth-bound workloads through Vulkan SPIR-V beside the same kernels through PTX.
      "$py" -m tessera.bench --target vulkan --target nvptx --workload vector_add,softmax,layernorm \
        --no-compile-time --json "$out/bench-vulkan.json" > "$out/bench-vulkan.log" 2>&1 || rc=1
      grep -v " \.\.\.$" "$out/bench-vulkan.log"
      # Cooperative-matrix matmul and attention through Vulkan beside PTX (VULKAN_MMA_SHAPE: one shape, e.g. 4096x4096x4096).
      "$py" -m tessera.bench --target vulkan --target nvptx --workload matmul,attention --dtype fp16,bf16 \
        ${VULKAN_MMA_SHAPE:+--shape "$VULKAN_MMA_SHAPE"} --no-compile-time --json "$out/bench-vulkan-mma.json" \
        > "$out/bench-vulkan-mma.log" 2>&1 || rc=1
      grep -v " \.\.\.$" "$out/bench-vulkan-mma.log" ;;
    liger)
      # The bundle has no ci/: the script comes with the working tree.
      PYTHON="$py" LIGER_TEST_SECONDS="${LIGER_TEST_SECONDS:-420}" bash "$root/ci/liger.sh" test "$root/.liger" "$out" -n 14 \
        --maxfail=300 || rc=1
      grep -E "^(FAILED|ERROR)" "$out/liger.log" | head -40; tail -2 "$out/liger.log"
      PYTHONPATH="$root/.liger/site:$PYTHONPATH" "$py" -m tessera.bench.liger --profile --json "$out/liger-bench.json" \
        > "$out/liger-bench.log" 2>&1 || rc=1
      cat "$out/liger-bench.log" ;;
    fla)
      # flash-linear-attention's op tests (ci/fla.sh; .fla/ made by `ci/fla.sh fetch .fla GIT_DIR --python-version 3.12`).
      PYTHON="$py" FLA_TEST_SECONDS="${FLA_TEST_SECONDS:-300}" bash "$root/ci/fla.sh" test "$root/.fla" "$out" -n 8 \
        --maxfail=500 || rc=1
      grep -E "^(FAILED|ERROR)" "$out/fla.log" | head -40; tail -2 "$out/fla.log" ;;
    flag-gems)
      # FlagGems' op tests (ci/flag_gems.sh; .flag_gems/ made by `ci/flag_gems.sh fetch .flag_gems GIT_DIR --python-version 3.12`).
      # In one process: its parametrized ids differ between pytest-xdist's workers (xdist's
      # KeyError on 'test_accuracy_clamp_tensor_[dtype2-max-shape0]', H100, session 33).
      COMPAT_BESIDE_TRITON=1 PYTHON="$py" FLAG_GEMS_TEST_SECONDS="${FLAG_GEMS_TEST_SECONDS:-300}" bash "$root/ci/flag_gems.sh" test \
        "$root/.flag_gems" "$out" -p no:xdist --maxfail=500 || rc=1
      grep -E "^(FAILED|ERROR)" "$out/flag_gems.log" | head -40; tail -n 2 "$out/flag_gems.log" "$out/flag_gems-triton.log" ;;
    mamba|attorch|torchao|xformers)
      # A library's Triton op tests beside Triton (ci/<step>.sh; .<step>/ made by
      # `ci/<step>.sh fetch .<step> GIT_DIR --python-version 3.12`). <STEP>_TEST_SECONDS: its cap (300).
      # COMPAT_WORKERS: pytest-xdist workers on each side (6; xformers': 3). COMPAT_BESIDE_TRITON: 1 (at
      # the same time) or after (xformers': its RoPE, indexing and tiled-matmul tests ran out of the
      # H100's 80 GB with 6 + 6 and 4 + 4 workers at once, session 42).
      seconds_var="${step^^}_TEST_SECONDS"
      export "$seconds_var=${!seconds_var:-300}"
      workers=6 beside=1
      [ "$step" = xformers ] && workers=3 beside=after
      COMPAT_BESIDE_TRITON="${COMPAT_BESIDE_TRITON:-$beside}" PYTHON="$py" bash "$root/ci/$step.sh" test "$root/.$step" \
        "$out" -n "${COMPAT_WORKERS:-$workers}" --maxfail=500 || rc=1
      grep -E "^(FAILED|ERROR)" "$out/$step.log" | head -40; tail -n 2 "$out/$step.log" "$out/$step-triton.log" ;;
    triton-core)
      # Triton 3.6's test_core.py (ci/triton_core.sh; .triton-core/ made by `ci/triton_core.sh fetch .triton-core GIT_DIR`).
      # TRITON_CORE_K: a pytest -k expression (a shard: a full run takes over one call's 600 s).
      PYTHON="$py" TRITON_CORE_SECONDS="${TRITON_CORE_SECONDS:-400}" bash "$root/ci/triton_core.sh" test "$root/.triton-core" \
        "$out" -n 16 --device cuda ${TRITON_CORE_K:+-k "$TRITON_CORE_K"} | tail -40 || rc=1 ;;
    liger-bench)
      [ -d "$root/.liger/site" ] || "$py" -m pip install -q --no-deps --no-index --target "$root/.liger/site" \
        "$root"/.liger/wheels/*.whl > "$out/liger-install.log" 2>&1 || rc=1
      for tokens in ${LIGER_TOKENS:-4096 16384}; do
        PYTHONPATH="$root/.liger/site:$PYTHONPATH" "$py" -m tessera.bench.liger --profile --tokens "$tokens" \
          --json "$out/liger-bench-$tokens.json" > "$out/liger-bench-$tokens.log" 2>&1 || rc=1
        cat "$out/liger-bench-$tokens.log"
      done ;;
    torch-compile)
      # torch.compile of transformers models, Tessera beside Inductor on Triton (fresh processes, cold and warm).
      "$py" -m tessera.bench.torch_compile --device cuda --model "${TC_MODELS:-gpt2}" --mode "${TC_MODES:-default}" \
        --step "${TC_STEPS:-forward,train}" --steps 10 --jobs "${TC_JOBS:-1}" \
        --compile-threads "${TC_THREADS:-1}" --json "$out/torch-compile.json" > "$out/torch-compile.log" 2>&1 || rc=1
      cat "$out/torch-compile.log" ;;
    tutorials)
      # Triton's tutorials with only their imports changed (ci/tutorials.sh; .tutorials/ made by
      # `ci/tutorials.sh fetch .tutorials GIT_DIR`). TUTORIALS: which (numbers; default all).
      PYTHON="$py" TUTORIAL_SECONDS="${TUTORIAL_SECONDS:-400}" TUTORIAL_JOBS="${TUTORIAL_JOBS:-4}" \
        bash "$root/ci/tutorials.sh" run "$root/.tutorials" "$out/tutorials" ${TUTORIALS:-} || rc=1 ;;
    aot)
      # The ahead-of-time C example (ci/bundle.sh): libtessera_rt alone, the embedded cubin on the GPU.
      LD_LIBRARY_PATH="$work/tessera/examples/aot" "$work/tessera/examples/aot/vector_add_aot" > "$out/aot.log" 2>&1 || rc=1
      cat "$out/aot.log"; grep -q "(cuda)" "$out/aot.log" || { echo "aot: did not run on a CUDA device"; rc=1; } ;;
    launch)
      "$py" -m tessera.bench --target nvptx --workload vector_add --no-compile-time --json "$out/bench-launch.json" \
        > "$out/bench-launch.log" 2>&1 || rc=1
      grep -v " \.\.\.$" "$out/bench-launch.log" ;;
    ptx)
      "$py" - "$out" <<'PY' || rc=1
import sys, torch
from tessera.bench import workloads as W
out = sys.argv[1]
x = torch.empty(1 << 20, device="cuda"); s = torch.empty(4096, 4096, device="cuda")
b = torch.empty(8192, 8192, device="cuda", dtype=torch.bfloat16); w = torch.empty(8192, device="cuda", dtype=torch.bfloat16)
for name, fn, args, kw in [
        ("vector_add", W._add_kernel, (x, x, x, 1 << 20), dict(BLOCK=1024)),
        ("softmax_fp32", W._softmax_kernel, (s, s, 4096, 4096, 4096, 4096), dict(BLOCK=4096, num_warps=8)),
        ("layernorm_bf16", W._layernorm_kernel, (b, b, w, w, 8192, 8192, 1e-5), dict(BLOCK=8192, num_warps=8))]:
    ptx = fn.compile_only("nvptx", *args, **kw).assembly
    open("%s/%s.ptx" % (out, name), "w").write(ptx)
    print("%-15s ld.global.v4: %d  st.global.v4: %d  ld.global (all): %d" % (
        name, ptx.count("ld.global.v4"), ptx.count("st.global.v4"), ptx.count("ld.global")))
PY
      ;;
  esac
done
exit $rc
