"""The Python stand-ins of the language's builtins (tl.x, tl.math.x,
libdevice.x). It imports nothing of Tessera, so tessera.language and its
submodules (math, extra) all build on it.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""


# The attribute Triton's is_builtin reads.
TRITON_BUILTIN = "__triton_builtin__"

# While the interpreter (tessera.interpreter) runs a kernel: its dispatch
# function (stub name, args, kwargs) -> result, which the stubs call.
INTERPRETER = [None]


def stub(name, module="tessera.language"):
    """A builtin's Python stand-in; `_tessera_source` says where a kernel's
    global of this value comes from, so that `from tessera.language.math
    import rsqrt` (or the name under another alias) reaches the frontend."""
    attr = name.rsplit(".", 1)[-1]

    def builtin(*args, **kwargs):
        interpret = INTERPRETER[0]
        if interpret is not None:
            return interpret(name, args, kwargs)
        raise RuntimeError("tl.%s can only be used inside a @tessera.jit kernel "
                           "(kernels are compiled from their source, not run by Python)" % name)
    builtin.__name__ = builtin.__qualname__ = attr
    builtin.__module__ = module
    builtin._tessera_source = (module, attr)
    setattr(builtin, TRITON_BUILTIN, True)
    return builtin
