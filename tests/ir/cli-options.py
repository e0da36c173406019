# tessera compile's options through llvm::cl: --opt=value and --opt value
# alike; values checked against their types and choices; a usage error
# exits 2 and names the option.
# RUN: tessera compile %S/nvptx/vector_add.py --entry=add --signature="*fp32:16,*fp32:16,*fp32:16,i32:16" -DBLOCK=1024 --target=cpu | FileCheck %s --check-prefix=EQUALS
# RUN: tessera compile %S/nvptx/vector_add.py --entry add --signature "*fp32:16,*fp32:16,*fp32:16,i32:16" -D BLOCK=1024 --target cpu | FileCheck %s --check-prefix=EQUALS
# EQUALS: compiled add for cpu: {{[0-9]+}} bytes of elf-shared-object, entry tessera_kernel_add
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add -D BLOCK=1024 --target cpu --emit bogus 2>&1 | FileCheck %s --check-prefix=EMIT
# EMIT: tessera compile: for the --emit option: Cannot find option named 'bogus'!
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add --num-warps abc 2>&1 | FileCheck %s --check-prefix=WARPS
# WARPS: tessera compile: for the --num-warps option: 'abc' value invalid for integer argument!
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add --num-warps=-4 2>&1 | FileCheck %s --check-prefix=NEGATIVE
# NEGATIVE: tessera: --num-warps is 0 (the target's default) or more, not -4
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add --num-stages -1 2>&1 | FileCheck %s --check-prefix=STAGES
# STAGES: tessera: --num-stages is 0 (the target's default) or more, not -1
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add --no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: tessera compile: Unknown command line argument '--no-such-option'.
# RUN: not tessera compile %S/nvptx/vector_add.py --entry add --target vulkan --flavour opencl 2>&1 | FileCheck %s --check-prefix=CONTRADICTS
# CONTRADICTS: tessera: --flavour 'opencl' contradicts --target 'vulkan'
# RUN: tessera --version | FileCheck %s --check-prefix=VERSION
# RUN: tessera compile --version | FileCheck %s --check-prefix=VERSION
# VERSION: tessera 0.1.0 (LLVM {{[0-9.]+}})
