# lit configuration for the textual-IR golden tests.
import os
import shutil
import lit.formats

config.name = "tessera-ir"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".tir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]  # Inputs: files tests read, not tests
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessera_build_dir, "tests", "ir")

tools = {
    "tessera-opt": os.path.join(config.tessera_build_dir, "tools", "tessera-opt", "tessera-opt"),
    "tessera": os.path.join(config.tessera_build_dir, "tools", "tessera", "tessera"),
    "FileCheck": os.path.join(config.llvm_tools_dir, "FileCheck"),
    "not": os.path.join(config.llvm_tools_dir, "not"),
    "llvm-readobj": os.path.join(config.llvm_tools_dir, "llvm-readobj"),
    # SPIRV-Tools 2025.5, the build's (cmake/SpirvTools.cmake): it knows
    # SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16, which Debian's 2023.1 does not.
    "spirv-val": os.path.join(config.spirv_tools_bin, "spirv-val"),
    "spirv-as": os.path.join(config.spirv_tools_bin, "spirv-as"),
    "spirv-dis": os.path.join(config.spirv_tools_bin, "spirv-dis"),
}
# CUDA's assembler, where this machine has it (ci/bootstrap.sh does not
# install CUDA), found as the nvptx target finds it (Assemble.cpp): tests
# that read what ptxas says of our PTX need it.
ptxas = next((p for p in (os.environ.get("TESSERA_PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas")
              if p and p != "none" and os.access(p, os.X_OK)), None)
if ptxas:
    tools["ptxas"] = ptxas
    config.available_features.add("ptxas")
for name, path in tools.items():
    config.substitutions.append((r"(?<![\w/.-])" + name + r"(?![\w-])", path))

# Host features some CPU-target tests need (the CPU target compiles for the host).
try:
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
except OSError:
    flags = []
if "avx512f" in flags:
    config.available_features.add("avx512")
