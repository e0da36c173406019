"""Host-side helpers of Triton's triton.tools that kernels take as arguments.

Layer 0, binding (python/tessera/__init__.py lists the layers)."""
