"""Host-side helpers of Triton's triton.tools that kernels take as arguments."""
