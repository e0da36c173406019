/* Tessera's C API: compile a kernel from source and run it, with no Python.
 *
 *   tessera_compile_options o = {0};
 *   o.source = text; o.entry = "add_kernel"; o.target = "cpu";
 *   o.signature = (const char *[]){"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
 *   o.num_signature = 4;
 *   o.constexprs = (tessera_constexpr[]){{"BLOCK_SIZE", "1024"}};
 *   o.num_constexprs = 1;
 *   tessera_kernel k;
 *   if (tessera_compile(&o, &k) != TESSERA_SUCCESS) puts(tessera_last_error());
 *
 * Every function returns a tessera_status; on failure, tessera_last_error()
 * holds a readable message for the calling thread until its next failing call.
 * Nothing here aborts the process. Handles are opaque and owned by the caller,
 * who releases them with the matching *_destroy / *_free; devices are owned by
 * the library and live as long as the process. A handle is checked on every
 * call: a destroyed one (used again, or destroyed twice) or a value that was
 * never a handle gives TESSERA_ERROR_INVALID_ARGUMENT ("not a live ..."). A
 * null handle passed to *_destroy / *_free is a no-op. A host launch catches
 * SIGINT while it runs and returns TESSERA_ERROR_INTERRUPTED (raising SIGINT
 * again afterwards when its disposition was the default). A memory fault
 * inside a host kernel ends its launch with TESSERA_ERROR_LAUNCH (the process
 * goes on; memory the kernel wrote may be corrupted).
 *
 * The compile cache (see docs/architecture.md): $TESSERA_CACHE_DIR or
 * ~/.cache/tessera; TESSERA_ALWAYS_COMPILE=1 bypasses it. */
#ifndef TESSERA_TESSERA_H
#define TESSERA_TESSERA_H

#include <stddef.h>
#include <stdint.h>

#if defined(TESSERA_BUILDING_LIBRARY)
#define TESSERA_API __attribute__((visibility("default")))
#else
#define TESSERA_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tessera_status {
  TESSERA_SUCCESS = 0,
  TESSERA_ERROR_INVALID_ARGUMENT = 1, /* null handle, bad size, wrong argument count */
  TESSERA_ERROR_NOT_FOUND = 2,        /* no such backend, device, target or entry */
  TESSERA_ERROR_UNAVAILABLE = 3,      /* backend/target not usable on this machine or in this build */
  TESSERA_ERROR_OUT_OF_MEMORY = 4,
  TESSERA_ERROR_COMPILATION = 5,      /* the kernel's source has an error (message: file:line:col + caret) */
  TESSERA_ERROR_LOAD = 6,             /* a compiled binary could not be loaded */
  TESSERA_ERROR_LAUNCH = 7,
  TESSERA_ERROR_ASSERT = 8,           /* a tl.device_assert failed during the launch */
  TESSERA_ERROR_UNSUPPORTED = 9,
  TESSERA_ERROR_IO = 10,
  TESSERA_ERROR_INTERNAL = 11,
  TESSERA_ERROR_INTERRUPTED = 12,     /* a host launch stopped by SIGINT (Ctrl-C) */
  TESSERA_ERROR_OUT_OF_RESOURCES = 13 /* the kernel needs more shared memory than the target has: the source is
                                         fine, smaller blocks may fit (Triton's OutOfResources) */
} tessera_status;

typedef struct tessera_device_t *tessera_device;
typedef struct tessera_buffer_t *tessera_buffer;
typedef struct tessera_stream_t *tessera_stream;
typedef struct tessera_event_t *tessera_event;
typedef struct tessera_kernel_t *tessera_kernel;

/* ---- errors and version */

/* The calling thread's last error message ("" when none); valid until the
 * thread's next failing call. */
TESSERA_API const char *tessera_last_error(void);
TESSERA_API const char *tessera_status_string(tessera_status status);
/* "tessera 0.1.0 (build <id>)"; part of every compile-cache key. */
TESSERA_API const char *tessera_version(void);
/* The language's functions written in the language (Philox, softmax, most
 * of libdevice...): Python source, which the Python interpreter mode runs. */
TESSERA_API const char *tessera_prelude_source(void);

/* ---- backends and devices ("cuda", "host"; later "hip", "level_zero", "vulkan")
 *
 * "cuda" is listed only where libcuda.so.1 loads and reports a device; its
 * devices use the primary context (the one the CUDA runtime and PyTorch use),
 * so device pointers and CUstreams pass between them and Tessera. */

/* Backends usable on this machine, in preference order; index past the end
 * returns NULL. */
TESSERA_API const char *tessera_backend_name(int index);
TESSERA_API tessera_status tessera_device_count(const char *backend, int *count);
TESSERA_API tessera_status tessera_get_device(const char *backend, int index, tessera_device *device);
/* Owned by the device. */
TESSERA_API const char *tessera_device_name(tessera_device device);
TESSERA_API const char *tessera_device_backend(tessera_device device);
/* The code generators' name for its instruction set ("sm_90", "gfx942",
 * "sg32-48k"), "" where it does not matter (the host). Owned by the device. */
TESSERA_API const char *tessera_device_architecture(tessera_device device);
TESSERA_API tessera_status tessera_device_synchronize(tessera_device device);
/* A fact of the device, by the name Triton's get_device_properties uses:
 * "multiprocessor_count", "max_shared_mem" (bytes one block may opt into),
 * "max_num_regs" (per block), "warpSize", "sm_clock_rate" and
 * "mem_clock_rate" (kHz), "mem_bus_width" (bits); CUDA devices also know
 * "max_threads_per_block" and "l2_cache_size", the host only
 * "multiprocessor_count" (hardware threads) and "warpSize" (1).
 * TESSERA_ERROR_NOT_FOUND for a name the device does not know. */
TESSERA_API tessera_status tessera_device_attribute(tessera_device device, const char *name, int64_t *value);

/* ---- memory */

TESSERA_API tessera_status tessera_buffer_alloc(tessera_device device, size_t bytes, tessera_buffer *buffer);
TESSERA_API tessera_status tessera_buffer_free(tessera_buffer buffer); /* NULL is a no-op */
TESSERA_API tessera_status tessera_buffer_size(tessera_buffer buffer, size_t *bytes);
/* The address kernels take: pass a pointer to a variable holding it as the
 * pointer argument of a launch. */
TESSERA_API tessera_status tessera_buffer_device_ptr(tessera_buffer buffer, void **ptr);
/* Copies in stream order (NULL stream = the device's default stream). */
TESSERA_API tessera_status tessera_copy_host_to_device(tessera_buffer dst, size_t dst_offset, const void *src,
                                                       size_t bytes, tessera_stream stream);
TESSERA_API tessera_status tessera_copy_device_to_host(void *dst, tessera_buffer src, size_t src_offset,
                                                       size_t bytes, tessera_stream stream);
/* Within one device; asynchronous in stream order on GPU devices (copies
 * that touch host memory are complete when they return). */
TESSERA_API tessera_status tessera_copy_device_to_device(tessera_buffer dst, size_t dst_offset, tessera_buffer src,
                                                         size_t src_offset, size_t bytes, tessera_stream stream);

/* ---- streams and events */

TESSERA_API tessera_status tessera_stream_create(tessera_device device, tessera_stream *stream);
/* Wraps a native stream the caller owns (on "cuda": a CUstream, e.g.
 * torch.cuda.current_stream().cuda_stream; NULL is the legacy default
 * stream). tessera_stream_destroy frees the wrapper, not the native stream. */
TESSERA_API tessera_status tessera_stream_wrap(tessera_device device, void *native, tessera_stream *stream);
TESSERA_API tessera_status tessera_stream_destroy(tessera_stream stream);
TESSERA_API tessera_status tessera_stream_synchronize(tessera_stream stream);
TESSERA_API tessera_status tessera_event_create(tessera_device device, tessera_event *event);
TESSERA_API tessera_status tessera_event_destroy(tessera_event event);
TESSERA_API tessera_status tessera_event_record(tessera_event event, tessera_stream stream);
TESSERA_API tessera_status tessera_event_synchronize(tessera_event event);
TESSERA_API tessera_status tessera_event_elapsed_ms(tessera_event start, tessera_event end, double *ms);

/* ---- compiling and launching */

typedef struct tessera_constexpr {
  const char *name;  /* a tl.constexpr parameter, or a module-level global the kernel reads */
  const char *value; /* Python syntax: "1024", "0.5", "True", "None", "tl.float16" */
} tessera_constexpr;

/* Runs a constexpr function (Triton's @triton.constexpr_function) for the
 * frontend: `function` is the id the module text gave it (a constexpr whose
 * value is "constexpr_function:<id>"), `arguments` a Python literal
 * ((positional...), {keyword: value}) of compile-time values. Returns 0 and
 * sets *result to the value as a Python literal, or nonzero and sets *result
 * to the error; *result stays valid until the next call. The body of an
 * extern function (Triton's @core.extern; a constexpr "extern_function:<id>")
 * runs through it too, its tensor arguments written operand(index, dtype,
 * shape) and its result the library calls it asks for
 * (python/tessera/_extern.py has the format). */
typedef int (*tessera_constexpr_call)(void *context, const char *function, const char *arguments,
                                      const void **result);

typedef struct tessera_compile_options {
  const char *source;   /* the module's text (Python syntax) */
  const char *filename; /* shown in messages; NULL = "<kernel>" */
  const char *entry;    /* the kernel's function name */
  /* One Triton-style type per runtime parameter, in order, skipping the
   * parameters named in `constexprs`: "*fp32:16" (pointer, 16-byte aligned),
   * "i32", "i64:16" (divisible by 16), "i32:1" (equal to 1), "fp32", "i1",
   * "tensordesc<fp16[64,64]>" (a tensor descriptor: launched as its base
   * pointer, then its shape and its strides, int64 each).
   * Parameters past the end of the list take their default values. */
  const char *const *signature;
  size_t num_signature;
  const tessera_constexpr *constexprs;
  size_t num_constexprs;
  const char *target; /* a target's name or alias (see the registry below): "cpu", "nvptx", "cuda"...; NULL = "cpu" */
  int num_warps;      /* 0 = the target's default */
  int num_stages;     /* 0 = the target's default */
  /* Where the kernel is loaded; NULL = device 0 of the target's backend. */
  tessera_device device;
  /* The architecture to compile for ("sm_80", "sm_90a"...); NULL or "" = the
   * target's default (nvptx: $TESSERA_NVPTX_ARCH, else sm_90a). */
  const char *arch;
  /* 1: a checked kernel (docs/checked-mode.md). Each load, store and atomic
   * checks its addresses against the buffer of the pointer argument they
   * come from; elements out of bounds are not accessed and the first one is
   * reported. The kernel takes, after its own runtime arguments, one int64
   * per pointer parameter (the byte size of its buffer; negative: not
   * checked), then a pointer to TESSERA_CHECK_REPORT_SLOTS zeroed int64 in
   * the kernel's memory: [0] the number of accesses that failed (0: none);
   * of the first: [1] 1 load, 2 store, 3 atomic, 4 signed integer overflow
   * (add, sub, mul narrower than 64 bits, as Triton's debug mode checks);
   * [2] the runtime parameter's index (overflow: minus the type's bits);
   * [3] line; [4] column; [5] the byte offset from the argument (overflow:
   * the exact result); [6..8] the program id. [9] is the kernel's scratch. */
  int checked;
  /* 1: no mul is fused with an add into an fma (Triton's enable_fp_fusion=False);
   * 0: a mul feeding an add may be contracted (ir/IR.h; Triton's default). */
  int no_fp_fusion;
  /* > 0: at most this many registers per thread (Triton's maxnreg; nvptx's
   * .maxnreg, ignored by the other targets); 0: the compiler chooses. */
  int max_registers;
  /* 1: libdevice and approximate exp/exp2 flush subnormals to zero (Triton's
   * enable_reflect_ftz, its default; nvptx only); 0: they keep them. */
  int flush_subnormals;
  /* Runs the constexpr functions the kernel calls (NULL: a call is an error),
   * with constexpr_call_context as its first argument. */
  tessera_constexpr_call constexpr_call;
  void *constexpr_call_context;
} tessera_compile_options;

#define TESSERA_CHECK_REPORT_SLOTS 10

/* Compiles (or takes from the compile cache) and loads a kernel. */
TESSERA_API tessera_status tessera_compile(const tessera_compile_options *options, tessera_kernel *kernel);
/* Loads an already compiled binary whose entry takes `num_params` runtime
 * arguments: "elf-shared-object" (the CPU target's, docs/cpu-abi.md) on
 * "host", "ptx" or "cubin" on "cuda" (the entry is the PTX .entry name, so an
 * extern "C" __global__ function). A loaded kernel launches 1 thread per
 * program with no dynamic shared memory until tessera_kernel_set_launch_params. */
TESSERA_API tessera_status tessera_kernel_load(tessera_device device, const char *format, const void *binary,
                                               size_t size, const char *entry, size_t num_params,
                                               tessera_kernel *kernel);
TESSERA_API tessera_status tessera_kernel_destroy(tessera_kernel kernel);
TESSERA_API tessera_status tessera_kernel_num_params(tessera_kernel kernel, size_t *count);
/* 1 when the compiled kernel may store through pointer parameter `index`
 * (traced from its stores; a pointer loaded from memory is not traced, so
 * this can miss a write but never reports one that cannot happen); 0 for
 * the others and for binaries loaded with tessera_kernel_load. */
TESSERA_API tessera_status tessera_kernel_param_written(tessera_kernel kernel, size_t index, int *written);
/* A fact of the loaded kernel: "threads" (per program), "shared_bytes"
 * (dynamic shared memory per launch), "num_regs" (registers per thread)
 * and "local_bytes" (local memory per thread: spills and stack) as the
 * device's driver reports them (CUDA: cuFuncGetAttribute; the host
 * reports 0 for both, having no such budget). An unknown name is
 * TESSERA_ERROR_INVALID_ARGUMENT listing the known ones. */
TESSERA_API tessera_status tessera_kernel_attribute(tessera_kernel kernel, const char *name, int64_t *value);
/* Threads per program (blockDim.x on CUDA; 1 on the host) and dynamic shared
 * memory bytes for later launches (above 48 KB the CUDA backend opts the
 * kernel in with cuFuncSetAttribute). Compiled kernels get them from the
 * compiler's metadata; this is for binaries loaded with tessera_kernel_load. */
TESSERA_API tessera_status tessera_kernel_set_launch_params(tessera_kernel kernel, int threads_per_program,
                                                            int64_t shared_memory_bytes);
/* The device the kernel was loaded on (owned by the library). */
TESSERA_API tessera_status tessera_kernel_device(tessera_kernel kernel, tessera_device *device);
/* 1 when the last tessera_compile of this kernel was answered by the cache. */
TESSERA_API tessera_status tessera_kernel_from_cache(tessera_kernel kernel, int *from_cache);
/* Launches grid[0] x grid[1] x grid[2] programs. args[i] points to the i-th
 * runtime argument's value (for pointers: to a variable holding the device
 * address). NULL stream = the device's default stream. */
TESSERA_API tessera_status tessera_kernel_launch(tessera_kernel kernel, const uint32_t grid[3], void **args,
                                                 tessera_stream stream);

/* ---- compiling without a device (compile-only checks, ahead-of-time builds) */

typedef struct tessera_binary_t *tessera_binary;
/* Compiles for options->target without loading (options->device is ignored
 * and no device is needed; the compile cache is not used). */
TESSERA_API tessera_status tessera_compile_binary(const tessera_compile_options *options, tessera_binary *binary);
/* "elf-shared-object", "cubin", "ptx"...; the bytes; the readable assembly
 * (PTX or LLVM IR); the launch facts. Owned by the binary. */
TESSERA_API const char *tessera_binary_format(tessera_binary binary);
TESSERA_API const void *tessera_binary_data(tessera_binary binary, size_t *size);
TESSERA_API const char *tessera_binary_assembly(tessera_binary binary);
TESSERA_API int tessera_binary_threads_per_program(tessera_binary binary);
TESSERA_API int64_t tessera_binary_shared_memory_bytes(tessera_binary binary);
TESSERA_API void tessera_binary_destroy(tessera_binary binary);

/* Which runtime arguments of the kernel options describe it may write
 * through (its frontend only: no target, device or cache): written[i] = 1
 * for each pointer or tensor map a store, atomic or call may write through,
 * else 0, for the first `capacity` arguments; *count = the kernel's
 * runtime arguments. Never misses a write: a store through a pointer not
 * traced to an argument (loaded from memory...) marks every pointer. */
TESSERA_API tessera_status tessera_kernel_writes(const tessera_compile_options *options, int *written,
                                                 size_t capacity, size_t *count);

/* 1 when `target` ("cpu", ...) can compile in this build, else 0. */
TESSERA_API int tessera_target_available(const char *target);

/* Runs the `tessera` command line (argv[0] is the program's name, argv[1]
 * the command: targets, compile, version...) and returns its exit status.
 * `bench` and `conformance` are the Python package's programs: this exits 2
 * saying so, and the `tessera` executable and console command run them. */
TESSERA_API int tessera_cli_main(int argc, const char **argv);

/* ---- the target registry
 *
 * One row per compile target ("cpu", "nvptx", "amdgpu", "spirv"), including
 * those whose code generator is not in this build yet: the names users may
 * give it, the runtime backend that runs its code, its binary formats and
 * the memory it takes. Tessera's Python package, conformance runner and
 * benchmarks read these rows instead of keeping their own lists.
 *
 * A target may have flavours that run on different runtimes (spirv:
 * "vulkan" on the vulkan backend, "opencl" on level_zero); a target with one
 * flavour has one named "". Names a target answers to: its name, an alias
 * ("cuda" -> nvptx, "level_zero" -> spirv's "opencl" flavour), or either
 * followed by ":flavour" ("spirv:opencl").
 *
 * Rows are owned by the library and live as long as the process. ABI: fields
 * are only ever added at the end of these structs, and arrays of them are
 * arrays of pointers, so a caller built against a newer header reads a
 * field only when it ends within struct_size. */

typedef struct tessera_target_flavour {
  size_t struct_size;
  const char *name;         /* "vulkan", "opencl"; "" for a target's only flavour */
  const char *backend;      /* the runtime backend that runs its code: "host", "cuda", "hip", "vulkan", "level_zero" */
  const char *torch_device; /* PyTorch's device type of its memory ("cpu", "cuda", "xpu"); "" = none */
  /* "" = any PyTorch; else the torch.version attribute ("cuda", "hip") that a
   * build of PyTorch sets when its torch_device means this flavour: ROCm's
   * PyTorch calls AMD GPUs "cuda" too, and sets torch.version.hip. */
  const char *torch_build;
  const int32_t *dlpack_devices; /* DLPack DLDeviceType values of its memory (kDLCUDA = 2, kDLROCM = 10...) */
  size_t num_dlpack_devices;
  const char *device_name; /* how Python names its devices: "cpu" (the host's), else the backend's name */
  /* 1: a launch picks its device only when asked by name (Vulkan, present
   * wherever a CPU emulates it); 0: it may be the default. */
  int explicit_only;
  /* 1: numpy arrays passed to its kernels are copied to the device before
   * the launch and back after it. */
  int stages_host_arrays;
  /* How its kernels are timed: "host_clock", "torch_events" (PyTorch's
   * events on torch_device), "device_timestamps" (tessera_event_*),
   * "host_clock_synchronized" (the host's clock around a device
   * synchronization). */
  const char *timer;
  const char *triton_backend; /* Triton's GPUTarget.backend for its devices: "cuda", "hip", "cpu"... */
} tessera_target_flavour;

typedef struct tessera_target_info {
  size_t struct_size;
  const char *name;                  /* "cpu", "nvptx", "amdgpu", "spirv" */
  int has_code_generator;            /* 1: this build can compile for it */
  const char *code_generator;        /* what produces its code, for people */
  const char *const *aliases;        /* other names users may give it */
  const char *const *alias_flavours; /* the flavour each alias selects ("" = the first) */
  size_t num_aliases;
  const tessera_target_flavour *const *flavours; /* at least one; the first is the default */
  size_t num_flavours;
  /* Binary formats it produces (as tessera_binary_format names them); the
   * first is what a complete toolchain produces ("cubin"; "ptx" without ptxas). */
  const char *const *formats;
  size_t num_formats;
  /* 1: its code may address a pointer argument with 32-bit offsets when the
   * argument's allocation is under 2 GiB, so callers specialize pointers on
   * that (the ":r32" of a signature, Triton's tt.pointer_range = 32). */
  int specializes_pointer_range;
  /* Prefixed to Triton's numeric architecture (GPUTarget("cuda", 90, 32)'s
   * 90) to name this target's ("sm_"); "" = its architectures have names only. */
  const char *arch_prefix;
} tessera_target_info;

TESSERA_API int tessera_target_count(void);
/* The row at `index` in [0, tessera_target_count()), else NULL. */
TESSERA_API const tessera_target_info *tessera_target_info_at(int index);
/* The row index and flavour index of a target name ("cuda", "spirv:opencl");
 * TESSERA_ERROR_NOT_FOUND with a message listing the known names otherwise.
 * Either output pointer may be NULL. */
TESSERA_API tessera_status tessera_target_lookup(const char *name, int *index, int *flavour);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TESSERA_H */
