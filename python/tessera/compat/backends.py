"""triton.backends under tessera.compat: Triton's backend interface
(BaseBackend, Language, Backend) and one Tessera backend per vendor name
torch looks for (`"nvidia" in triton.backends.backends` before it
compiles for CUDA, "amd" for ROCm, "cpu" for its CPU Triton path). Each
compiles through Tessera's registry of targets; make_backend(target) gives
the one for a GPUTarget.

What a Triton backend does with Triton's MLIR (add_stages, load_dialects)
has no counterpart: Tessera compiles a kernel's source in one step, so
those raise NotImplementedError saying so.

Layer 4, api (python/tessera/__init__.py lists the layers)."""

import abc
import dataclasses
import enum
import hashlib
import typing

from .. import _ttir
from ..runtime import driver as _driver

T = typing.TypeVar("T")


class Language(enum.Enum):
    """The language a backend compiles."""
    TRITON = 0
    GLUON = 1


class BaseBackend(abc.ABC):
    """A compiler for one kind of GPUTarget (Triton's interface)."""
    supports_native_tensor_specialization = True

    def __init__(self, target):
        if not self.supports_target(target):
            raise ValueError("%s does not compile for %r" % (type(self).__name__, target))
        self.target = target

    @staticmethod
    @abc.abstractmethod
    def supports_target(target):
        """Whether the backend compiles for `target`."""

    @abc.abstractmethod
    def hash(self):
        """Identifies the backend and its version in cache keys."""

    @abc.abstractmethod
    def parse_options(self, options):
        """The compile options of a dict, checked and completed."""

    @abc.abstractmethod
    def add_stages(self, stages, options, language=Language.TRITON):
        """Fills `stages` with the compile's steps."""

    @abc.abstractmethod
    def load_dialects(self, context):
        """Loads the backend's MLIR dialects."""

    @abc.abstractmethod
    def get_module_map(self):
        """{interface module: the target's implementation}."""

    @staticmethod
    def parse_attr(desc):
        """Attributes of a specialization letter: "D" is divisibility by 16."""
        if not isinstance(desc, str):
            raise TypeError("a specialization is a string, not %r" % (desc,))
        return [["tt.divisibility", 16]] if "D" in desc else []

    @staticmethod
    def get_int_specialization(arg, **kwargs):
        return "D" if kwargs.get("align", False) and arg % 16 == 0 else ""

    @staticmethod
    def get_tensor_specialization(arg, **kwargs):
        return "D" if kwargs.get("align", False) and arg.data_ptr() % 16 == 0 else ""


@dataclasses.dataclass(frozen=True)
class Backend:
    """A backend's compiler class and driver class, as registered."""
    compiler: type
    driver: type


@dataclasses.dataclass(frozen=True)
class TesseraOptions:
    """A compile's options as Triton's backends give them (torch reads
    them through `options.__dict__`); Tessera uses num_warps, num_stages,
    enable_fp_fusion, debug, max registers (maxnreg) and arch."""
    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    warp_size: int = 32
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    debug: bool = False
    sanitize_overflow: bool = True
    arch: typing.Any = None
    backend_name: str = ""
    maxnreg: typing.Optional[int] = None
    supported_fp8_dtypes: tuple = ("fp8e4nv", "fp8e5")
    deprecated_fp8_dot_operand_dtypes: tuple = ()
    default_dot_input_precision: str = "tf32"
    allowed_dot_input_precisions: tuple = ("tf32", "tf32x3", "ieee")
    max_num_imprecise_acc_default: int = 0
    extern_libs: typing.Optional[tuple] = None
    instrumentation_mode: str = ""

    def hash(self):
        text = "_".join("%s-%s" % (f.name, getattr(self, f.name)) for f in dataclasses.fields(self))
        return hashlib.sha256(text.encode()).hexdigest()


# Triton's backend names, and the Triton target backends ("cuda", "hip", "cpu") each compiles for.
_VENDORS = {"nvidia": ("cuda",), "amd": ("hip",), "cpu": ("cpu",)}


class _TesseraBackend(BaseBackend):
    """Compiles with Tessera for the GPUTargets of one vendor name."""
    name = ""
    target_backends = ()
    binary_ext = ""

    @classmethod
    def supports_target(cls, target):
        return getattr(target, "backend", None) in cls.target_backends

    def hash(self):
        from .. import __version__
        return "tessera-%s-%s-%s" % (__version__, self.target.backend, self.target.arch)

    def parse_options(self, options):
        known = {f.name for f in dataclasses.fields(TesseraOptions)}
        values = {k: v for k, v in dict(options).items() if k in known}
        values.setdefault("arch", self.target.arch)
        values.setdefault("warp_size", self.target.warp_size)
        values.setdefault("backend_name", self.name)
        if values.get("num_warps", 4) <= 0 or values.get("num_warps", 4) & (values.get("num_warps", 4) - 1):
            raise AssertionError("num_warps must be a power of 2")
        return TesseraOptions(**values)

    def add_stages(self, stages, options, language=Language.TRITON):
        raise NotImplementedError("Tessera compiles a kernel's source in one step: it has no Triton MLIR stages")

    def load_dialects(self, context):
        _ttir.load_dialects(context)  # Tessera has no MLIR dialects: its context holds nothing

    def get_module_map(self):
        return {}

    def get_codegen_implementation(self, options=None):
        return {}

    def pack_metadata(self, metadata):
        return (metadata.num_warps, getattr(metadata, "num_ctas", 1), metadata.shared)


def _backend_class(vendor, target_backends):
    cls = type("Tessera%sBackend" % vendor.capitalize(), (_TesseraBackend,),
               {"name": vendor, "target_backends": target_backends, "__module__": __name__})
    return cls


def _driver_class(vendor):
    """The driver class torch's set_driver_to_gpu/cpu test and instantiate:
    active while Tessera's active device is of that vendor."""
    def is_active():
        try:
            return _driver.driver.active.get_current_target().backend in _VENDORS[vendor]
        except Exception:  # no device of any kind
            return False

    def make(cls):
        return _driver.driver.active

    return type("Tessera%sDriver" % vendor.capitalize(), (_driver.DriverBase,),
                {"is_active": staticmethod(is_active), "__new__": make, "__module__": __name__})


def _registry():
    return {vendor: Backend(_backend_class(vendor, names), _driver_class(vendor)) for vendor, names in _VENDORS.items()}


backends = _registry()


def make_backend(target):
    """The backend that compiles for a GPUTarget."""
    found = [b.compiler for b in backends.values() if b.compiler.supports_target(target)]
    if len(found) != 1:
        raise RuntimeError("%d compatible backends for target (%s) (%s). There should only be one."
                           % (len(found), getattr(target, "backend", target), found))
    return found[0](target)

