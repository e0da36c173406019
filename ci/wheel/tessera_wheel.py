"""The PEP 517 build backend of `pip install .` / `pip wheel .`: builds
libtessera.so with the project's own CMake build (ci/build.sh; an existing
build tree is reused: $TESSERA_BUILD_DIR, else build/) and packs it, debug
info stripped, inside the Python package, as ci/bundle.sh does. The wheel
holds python/tessera and libtessera.so, which needs only system libraries
(LLVM is linked in), so it is tagged py3-none-<platform>: the package loads
the library with ctypes and has no extension module.

No build requirements: nothing is downloaded to build it."""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sysconfig
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = "tessera"
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libz|libzstd|"
                              r"ld-linux-x86-64)\.so")


def _version():
    text = open(os.path.join(ROOT, "python", "tessera", "__init__.py")).read()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def _metadata():
    readme = open(os.path.join(ROOT, "README.md")).read()
    return ("Metadata-Version: 2.1\n"
            f"Name: {NAME}\nVersion: {_version()}\n"
            "Summary: A retargetable compiler and runtime for GPU kernels in Triton's language\n"
            "Requires-Python: >=3.10\nRequires-Dist: numpy\n"
            "Description-Content-Type: text/markdown\n\n" + readme)


def _platform_tag():
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


def _build_library(config_settings):
    build = (config_settings or {}).get("build-dir") or os.environ.get("TESSERA_BUILD_DIR") or os.path.join(ROOT, "build")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        subprocess.run(["bash", os.path.join(ROOT, "ci", "build.sh"), build, "-DCMAKE_BUILD_TYPE=Release"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "libtessera"], check=True, stdout=subprocess.DEVNULL)
    lib = os.path.join(build, "capi", "libtessera.so")
    needed = subprocess.run(["ldd", lib], check=True, capture_output=True, text=True).stdout.split("\n")
    bad = [line.split()[0] for line in needed if line.strip() and not SYSTEM_LIBRARIES.match(line.split()[0].split("/")[-1])]
    if bad:
        raise RuntimeError("libtessera.so needs non-system libraries: " + ", ".join(bad))
    return lib


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    lib = _build_library(config_settings)
    version, tag = _version(), f"py3-none-{_platform_tag()}"
    dist_info = f"{NAME}-{version}.dist-info"
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    files = []  # (arcname, bytes)
    package = os.path.join(ROOT, "python", "tessera")
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(filenames):
            if f.endswith((".pyc", ".so")):
                continue
            path = os.path.join(dirpath, f)
            files.append((os.path.relpath(path, os.path.dirname(package)), open(path, "rb").read()))
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "libtessera.so")
        strip = shutil.which("llvm-strip-19") or "/usr/lib/llvm-19/bin/llvm-strip"
        subprocess.run([strip, "--strip-debug", "-o", stripped, lib], check=True)
        files.append(("tessera/libtessera.so", open(stripped, "rb").read()))
        # The launch fast lane, built with libtessera when Python's headers are there.
        fast = os.path.join(os.path.dirname(lib), "_tessera_launch.abi3.so")
        if os.path.exists(fast):
            subprocess.run([strip, "--strip-debug", "-o", os.path.join(tmp, "fast.so"), fast], check=True)
            files.append(("tessera/_tessera_launch.abi3.so", open(os.path.join(tmp, "fast.so"), "rb").read()))
    files.append((f"{dist_info}/METADATA", _metadata().encode()))
    files.append((f"{dist_info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: tessera_wheel\nRoot-Is-Purelib: false\n"
                                         f"Tag: {tag}\n").encode()))
    files.append((f"{dist_info}/top_level.txt", b"tessera\n"))
    record = "\n".join(_record_line(a, d) for a, d in files) + f"\n{dist_info}/RECORD,,\n"
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files:
            info = zipfile.ZipInfo(arcname, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arcname.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        z.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2026, 1, 1, 0, 0, 0)), record)
    return wheel_name


def get_requires_for_build_wheel(config_settings=None):
    return []
