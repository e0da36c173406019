// The C API over the runtime: errors, backends, devices, buffers, streams,
// events, and launching a loaded kernel. Compiling lives in Compile.cpp.
#include "capi/CApiInternal.h"

#include "capi/Handles.h"

#include <map>
#include <mutex>

using namespace tessera;
using runtime::Status;
using runtime::StatusCode;

namespace tessera::capi {

namespace {
thread_local std::string lastError;
}

tessera_status fail(tessera_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

tessera_status fromStatus(const Status &st) {
  if (st.isOk()) return TESSERA_SUCCESS;
  tessera_status s = TESSERA_ERROR_INTERNAL;
  switch (st.code()) {
  case StatusCode::Ok: return TESSERA_SUCCESS;
  case StatusCode::InvalidArgument: s = TESSERA_ERROR_INVALID_ARGUMENT; break;
  case StatusCode::NotFound: s = TESSERA_ERROR_NOT_FOUND; break;
  case StatusCode::Unavailable: s = TESSERA_ERROR_UNAVAILABLE; break;
  case StatusCode::OutOfMemory: s = TESSERA_ERROR_OUT_OF_MEMORY; break;
  case StatusCode::LoadFailed: s = TESSERA_ERROR_LOAD; break;
  case StatusCode::LaunchFailed: s = TESSERA_ERROR_LAUNCH; break;
  case StatusCode::AssertFailed: s = TESSERA_ERROR_ASSERT; break;
  case StatusCode::Unsupported: s = TESSERA_ERROR_UNSUPPORTED; break;
  case StatusCode::IoError: s = TESSERA_ERROR_IO; break;
  case StatusCode::Internal: s = TESSERA_ERROR_INTERNAL; break;
  case StatusCode::Interrupted: s = TESSERA_ERROR_INTERRUPTED; break;
  }
  return fail(s, st.message());
}

tessera_device wrapDevice(runtime::Device *device) {
  static std::mutex mutex;
  static auto *wrappers = new std::map<runtime::Device *, tessera_device>();
  std::lock_guard<std::mutex> lock(mutex);
  tessera_device &h = (*wrappers)[device];
  if (!h) {
    auto w = std::make_unique<tessera_device_t>();
    w->device = device, w->name = device->name(), w->backend = device->backend();
    w->architecture = device->architecture();
    h = handles<tessera_device_t>().add(std::move(w));
  }
  return h;
}

tessera_device_t *liveDevice(tessera_device handle) { return handles<tessera_device_t>().get(handle); }

} // namespace tessera::capi

using capi::fail;
using capi::fromStatus;
using capi::guarded;

// `api` is the C function's name (__func__ inside a lambda says operator()).
#define REQUIRE(cond, what)                                                                                            \
  do {                                                                                                                 \
    if (!(cond)) return fail(TESSERA_ERROR_INVALID_ARGUMENT, std::string(api) + ": " + (what));                  \
  } while (0)

// `var` = the live object of handle `h` (a `type` handle), else an error.
#define RESOLVE(var, type, h)                                                                                          \
  type##_t *var = capi::handles<type##_t>().get(h);                                                                    \
  REQUIRE(var, (h) ? "not a live " #type " (destroyed already, or not a handle)" : "null " #type)

// Destroys handle `h` of `type`: null is a no-op, a dead or garbage one an error.
#define DESTROY(type, h)                                                                                               \
  do {                                                                                                                 \
    if (!(h)) return TESSERA_SUCCESS;                                                                                  \
    REQUIRE(capi::handles<type##_t>().remove(h), "not a live " #type " (destroyed already, or not a handle)");        \
    return TESSERA_SUCCESS;                                                                                            \
  } while (0)

extern "C" {

const char *tessera_last_error(void) { return capi::lastError.c_str(); }

const char *tessera_status_string(tessera_status status) {
  switch (status) {
  case TESSERA_SUCCESS: return "success";
  case TESSERA_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case TESSERA_ERROR_NOT_FOUND: return "not found";
  case TESSERA_ERROR_UNAVAILABLE: return "unavailable";
  case TESSERA_ERROR_OUT_OF_MEMORY: return "out of memory";
  case TESSERA_ERROR_COMPILATION: return "compilation error";
  case TESSERA_ERROR_LOAD: return "load error";
  case TESSERA_ERROR_LAUNCH: return "launch error";
  case TESSERA_ERROR_ASSERT: return "device assertion failed";
  case TESSERA_ERROR_UNSUPPORTED: return "unsupported";
  case TESSERA_ERROR_IO: return "I/O error";
  case TESSERA_ERROR_INTERNAL: return "internal error";
  case TESSERA_ERROR_INTERRUPTED: return "interrupted";
  case TESSERA_ERROR_OUT_OF_RESOURCES: return "out of resources";
  }
  return "unknown status";
}

const char *tessera_version(void) { return capi::compilerVersion().c_str(); }

const char *tessera_backend_name(int index) {
  static const std::vector<std::string> names = runtime::backendNames();
  return index >= 0 && size_t(index) < names.size() ? names[size_t(index)].c_str() : nullptr;
}

tessera_status tessera_device_count(const char *backend, int *count) {
  static constexpr const char *api = "tessera_device_count";
  return guarded([&] {
    REQUIRE(backend && count, "null argument");
    Status st;
    runtime::Backend *b = runtime::getBackend(backend, &st);
    if (!b) return fromStatus(st);
    *count = b->deviceCount();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_get_device(const char *backend, int index, tessera_device *device) {
  static constexpr const char *api = "tessera_get_device";
  return guarded([&] {
    REQUIRE(backend && device, "null argument");
    runtime::Device *d = nullptr;
    if (Status st = runtime::getDevice(backend, index, d); !st) return fromStatus(st);
    *device = capi::wrapDevice(d);
    return TESSERA_SUCCESS;
  });
}

const char *tessera_device_name(tessera_device device) {
  tessera_device_t *d = capi::liveDevice(device);
  return d ? d->name.c_str() : "";
}
const char *tessera_device_backend(tessera_device device) {
  tessera_device_t *d = capi::liveDevice(device);
  return d ? d->backend.c_str() : "";
}
const char *tessera_device_architecture(tessera_device device) {
  tessera_device_t *d = capi::liveDevice(device);
  return d ? d->architecture.c_str() : "";
}

tessera_status tessera_device_synchronize(tessera_device device) {
  static constexpr const char *api = "tessera_device_synchronize";
  return guarded([&] {
    RESOLVE(d, tessera_device, device);
    return fromStatus(d->device->synchronize());
  });
}

tessera_status tessera_device_attribute(tessera_device device, const char *name, int64_t *value) {
  static constexpr const char *api = "tessera_device_attribute";
  return guarded([&] {
    REQUIRE(name && value, "null argument");
    RESOLVE(d, tessera_device, device);
    return fromStatus(d->device->attribute(name, *value));
  });
}

tessera_status tessera_buffer_alloc(tessera_device device, size_t bytes, tessera_buffer *buffer) {
  static constexpr const char *api = "tessera_buffer_alloc";
  return guarded([&] {
    REQUIRE(buffer, "null argument");
    RESOLVE(d, tessera_device, device);
    auto b = std::make_unique<tessera_buffer_t>();
    if (Status st = d->device->allocate(bytes, b->buffer); !st) return fromStatus(st);
    *buffer = capi::handles<tessera_buffer_t>().add(std::move(b));
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_buffer_free(tessera_buffer buffer) {
  static constexpr const char *api = "tessera_buffer_free";
  return guarded([&] { DESTROY(tessera_buffer, buffer); });
}

tessera_status tessera_buffer_size(tessera_buffer buffer, size_t *bytes) {
  static constexpr const char *api = "tessera_buffer_size";
  REQUIRE(bytes, "null argument");
  RESOLVE(b, tessera_buffer, buffer);
  *bytes = b->buffer->size();
  return TESSERA_SUCCESS;
}

tessera_status tessera_buffer_device_ptr(tessera_buffer buffer, void **ptr) {
  static constexpr const char *api = "tessera_buffer_device_ptr";
  REQUIRE(ptr, "null argument");
  RESOLVE(b, tessera_buffer, buffer);
  *ptr = b->buffer->devicePointer();
  return TESSERA_SUCCESS;
}

tessera_status tessera_copy_host_to_device(tessera_buffer dst, size_t dst_offset, const void *src, size_t bytes,
                                           tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_host_to_device";
  return guarded([&] {
    RESOLVE(d, tessera_buffer, dst);
    runtime::Stream *s = nullptr;
    if (stream) {
      RESOLVE(st, tessera_stream, stream);
      s = st->stream.get();
    }
    return fromStatus(d->buffer->device().copyToDevice(*d->buffer, dst_offset, src, bytes, s));
  });
}

tessera_status tessera_copy_device_to_host(void *dst, tessera_buffer src, size_t src_offset, size_t bytes,
                                           tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_device_to_host";
  return guarded([&] {
    RESOLVE(b, tessera_buffer, src);
    runtime::Stream *s = nullptr;
    if (stream) {
      RESOLVE(st, tessera_stream, stream);
      s = st->stream.get();
    }
    return fromStatus(b->buffer->device().copyToHost(dst, *b->buffer, src_offset, bytes, s));
  });
}

tessera_status tessera_copy_device_to_device(tessera_buffer dst, size_t dst_offset, tessera_buffer src,
                                             size_t src_offset, size_t bytes, tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_device_to_device";
  return guarded([&] {
    RESOLVE(d, tessera_buffer, dst);
    RESOLVE(b, tessera_buffer, src);
    REQUIRE(&d->buffer->device() == &b->buffer->device(), "the buffers belong to different devices");
    runtime::Stream *s = nullptr;
    if (stream) {
      RESOLVE(st, tessera_stream, stream);
      s = st->stream.get();
    }
    return fromStatus(d->buffer->device().copyDeviceToDevice(*d->buffer, dst_offset, *b->buffer, src_offset, bytes, s));
  });
}

tessera_status tessera_stream_create(tessera_device device, tessera_stream *stream) {
  static constexpr const char *api = "tessera_stream_create";
  return guarded([&] {
    REQUIRE(stream, "null argument");
    RESOLVE(d, tessera_device, device);
    auto s = std::make_unique<tessera_stream_t>();
    if (Status st = d->device->createStream(s->stream); !st) return fromStatus(st);
    *stream = capi::handles<tessera_stream_t>().add(std::move(s));
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_stream_wrap(tessera_device device, void *native, tessera_stream *stream) {
  static constexpr const char *api = "tessera_stream_wrap";
  return guarded([&] {
    REQUIRE(stream, "null argument");
    RESOLVE(d, tessera_device, device);
    auto s = std::make_unique<tessera_stream_t>();
    if (Status st = d->device->wrapNativeStream(native, s->stream); !st) return fromStatus(st);
    *stream = capi::handles<tessera_stream_t>().add(std::move(s));
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_stream_destroy(tessera_stream stream) {
  static constexpr const char *api = "tessera_stream_destroy";
  return guarded([&] { DESTROY(tessera_stream, stream); });
}

tessera_status tessera_stream_synchronize(tessera_stream stream) {
  static constexpr const char *api = "tessera_stream_synchronize";
  return guarded([&] {
    RESOLVE(s, tessera_stream, stream);
    return fromStatus(s->stream->synchronize());
  });
}

tessera_status tessera_event_create(tessera_device device, tessera_event *event) {
  static constexpr const char *api = "tessera_event_create";
  return guarded([&] {
    REQUIRE(event, "null argument");
    RESOLVE(d, tessera_device, device);
    auto e = std::make_unique<tessera_event_t>();
    if (Status st = d->device->createEvent(e->event); !st) return fromStatus(st);
    *event = capi::handles<tessera_event_t>().add(std::move(e));
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_event_destroy(tessera_event event) {
  static constexpr const char *api = "tessera_event_destroy";
  return guarded([&] { DESTROY(tessera_event, event); });
}

tessera_status tessera_event_record(tessera_event event, tessera_stream stream) {
  static constexpr const char *api = "tessera_event_record";
  return guarded([&] {
    RESOLVE(e, tessera_event, event);
    RESOLVE(s, tessera_stream, stream);
    return fromStatus(s->stream->record(*e->event));
  });
}

tessera_status tessera_event_synchronize(tessera_event event) {
  static constexpr const char *api = "tessera_event_synchronize";
  return guarded([&] {
    RESOLVE(e, tessera_event, event);
    return fromStatus(e->event->synchronize());
  });
}

tessera_status tessera_event_elapsed_ms(tessera_event start, tessera_event end, double *ms) {
  static constexpr const char *api = "tessera_event_elapsed_ms";
  return guarded([&] {
    REQUIRE(ms, "null argument");
    RESOLVE(a, tessera_event, start);
    RESOLVE(b, tessera_event, end);
    return fromStatus(b->event->elapsedMs(*a->event, *ms));
  });
}

tessera_status tessera_kernel_load(tessera_device device, const char *format, const void *binary, size_t size,
                                   const char *entry, size_t num_params, tessera_kernel *kernel) {
  static constexpr const char *api = "tessera_kernel_load";
  return guarded([&] {
    REQUIRE(format && binary && entry && kernel, "null argument");
    RESOLVE(d, tessera_device, device);
    auto k = std::make_unique<tessera_kernel_t>();
    if (Status st = d->device->loadModule(format, binary, size, k->module); !st) return fromStatus(st);
    if (Status st = k->module->getKernel(entry, num_params, k->kernel); !st) return fromStatus(st);
    k->numParams = num_params;
    k->device = device;
    *kernel = capi::handles<tessera_kernel_t>().add(std::move(k));
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_kernel_destroy(tessera_kernel kernel) {
  static constexpr const char *api = "tessera_kernel_destroy";
  return guarded([&] { DESTROY(tessera_kernel, kernel); });
}

tessera_status tessera_kernel_num_params(tessera_kernel kernel, size_t *count) {
  static constexpr const char *api = "tessera_kernel_num_params";
  REQUIRE(count, "null argument");
  RESOLVE(k, tessera_kernel, kernel);
  *count = k->numParams;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_param_written(tessera_kernel kernel, size_t index, int *written) {
  static constexpr const char *api = "tessera_kernel_param_written";
  REQUIRE(written, "null argument");
  RESOLVE(k, tessera_kernel, kernel);
  REQUIRE(index < k->numParams, "parameter " + std::to_string(index) + " of a kernel with " + std::to_string(k->numParams));
  *written = index < k->written.size() && k->written[index] ? 1 : 0;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_attribute(tessera_kernel kernel, const char *name, int64_t *value) {
  static constexpr const char *api = "tessera_kernel_attribute";
  return guarded([&] {
    REQUIRE(name && value, "null argument");
    RESOLVE(k, tessera_kernel, kernel);
    std::string n = name;
    if (n == "threads") {
      *value = k->threadsPerProgram;
      return TESSERA_SUCCESS;
    }
    if (n == "shared_bytes") {
      *value = k->sharedMemoryBytes;
      return TESSERA_SUCCESS;
    }
    if (n == "num_regs" || n == "local_bytes") return fromStatus(k->kernel->attribute(n, *value));
    return fail(TESSERA_ERROR_INVALID_ARGUMENT, std::string(api) + ": no attribute '" + n +
                                                   "' (known: threads, shared_bytes, num_regs, local_bytes)");
  });
}

tessera_status tessera_kernel_set_launch_params(tessera_kernel kernel, int threads_per_program,
                                                int64_t shared_memory_bytes) {
  static constexpr const char *api = "tessera_kernel_set_launch_params";
  RESOLVE(k, tessera_kernel, kernel);
  REQUIRE(threads_per_program >= 1, "threads per program must be at least 1, not " + std::to_string(threads_per_program));
  REQUIRE(shared_memory_bytes >= 0, "negative shared memory size");
  k->threadsPerProgram = threads_per_program;
  k->sharedMemoryBytes = shared_memory_bytes;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_device(tessera_kernel kernel, tessera_device *device) {
  static constexpr const char *api = "tessera_kernel_device";
  REQUIRE(device, "null argument");
  RESOLVE(k, tessera_kernel, kernel);
  *device = k->device;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_from_cache(tessera_kernel kernel, int *from_cache) {
  static constexpr const char *api = "tessera_kernel_from_cache";
  REQUIRE(from_cache, "null argument");
  RESOLVE(k, tessera_kernel, kernel);
  *from_cache = k->fromCache ? 1 : 0;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_launch(tessera_kernel kernel, const uint32_t grid[3], void **args,
                                     tessera_stream stream) {
  static constexpr const char *api = "tessera_kernel_launch";
  return guarded([&] {
    REQUIRE(grid, "null argument");
    RESOLVE(k, tessera_kernel, kernel);
    REQUIRE(args || k->numParams == 0, "null args for a kernel with parameters");
    for (size_t i = 0; i < k->numParams; ++i)
      REQUIRE(args[i], "args[" + std::to_string(i) + "] is null (each entry points at that argument's value)");
    runtime::Stream *s = nullptr;
    if (stream) {
      RESOLVE(st, tessera_stream, stream);
      s = st->stream.get();
    }
    runtime::LaunchConfig config;
    config.grid = {grid[0], grid[1], grid[2]};
    config.threadsPerProgram = k->threadsPerProgram;
    config.sharedMemoryBytes = k->sharedMemoryBytes;
    return fromStatus(k->kernel->launch(config, args, k->numParams, s));
  });
}

} // extern "C"
