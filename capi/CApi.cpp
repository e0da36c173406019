// The C API over the runtime: errors, backends, devices, buffers, streams,
// events, and launching a loaded kernel. Compiling lives in Compile.cpp.
#include "capi/CApiInternal.h"

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
  }
  return fail(s, st.message());
}

tessera_device wrapDevice(runtime::Device *device) {
  static std::mutex mutex;
  static std::map<runtime::Device *, std::unique_ptr<tessera_device_t>> wrappers;
  std::lock_guard<std::mutex> lock(mutex);
  auto &w = wrappers[device];
  if (!w) {
    w = std::make_unique<tessera_device_t>();
    w->device = device, w->name = device->name(), w->backend = device->backend();
  }
  return w.get();
}

} // namespace tessera::capi

using capi::fail;
using capi::fromStatus;
using capi::guarded;

// `api` is the C function's name (__func__ inside a lambda says operator()).
#define REQUIRE(cond, what)                                                                                            \
  do {                                                                                                                 \
    if (!(cond)) return fail(TESSERA_ERROR_INVALID_ARGUMENT, std::string(api) + ": " + (what));                  \
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

const char *tessera_device_name(tessera_device device) { return device ? device->name.c_str() : ""; }
const char *tessera_device_backend(tessera_device device) { return device ? device->backend.c_str() : ""; }

tessera_status tessera_device_synchronize(tessera_device device) {
  static constexpr const char *api = "tessera_device_synchronize";
  return guarded([&] {
    REQUIRE(device, "null device");
    return fromStatus(device->device->synchronize());
  });
}

tessera_status tessera_buffer_alloc(tessera_device device, size_t bytes, tessera_buffer *buffer) {
  static constexpr const char *api = "tessera_buffer_alloc";
  return guarded([&] {
    REQUIRE(device && buffer, "null argument");
    auto b = std::make_unique<tessera_buffer_t>();
    if (Status st = device->device->allocate(bytes, b->buffer); !st) return fromStatus(st);
    *buffer = b.release();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_buffer_free(tessera_buffer buffer) {
  delete buffer;
  return TESSERA_SUCCESS;
}

tessera_status tessera_buffer_size(tessera_buffer buffer, size_t *bytes) {
  static constexpr const char *api = "tessera_buffer_size";
  REQUIRE(buffer && bytes, "null argument");
  *bytes = buffer->buffer->size();
  return TESSERA_SUCCESS;
}

tessera_status tessera_buffer_device_ptr(tessera_buffer buffer, void **ptr) {
  static constexpr const char *api = "tessera_buffer_device_ptr";
  REQUIRE(buffer && ptr, "null argument");
  *ptr = buffer->buffer->devicePointer();
  return TESSERA_SUCCESS;
}

tessera_status tessera_copy_host_to_device(tessera_buffer dst, size_t dst_offset, const void *src, size_t bytes,
                                           tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_host_to_device";
  return guarded([&] {
    REQUIRE(dst, "null buffer");
    runtime::Stream *s = stream ? stream->stream.get() : nullptr;
    return fromStatus(dst->buffer->device().copyToDevice(*dst->buffer, dst_offset, src, bytes, s));
  });
}

tessera_status tessera_copy_device_to_host(void *dst, tessera_buffer src, size_t src_offset, size_t bytes,
                                           tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_device_to_host";
  return guarded([&] {
    REQUIRE(src, "null buffer");
    runtime::Stream *s = stream ? stream->stream.get() : nullptr;
    return fromStatus(src->buffer->device().copyToHost(dst, *src->buffer, src_offset, bytes, s));
  });
}

tessera_status tessera_copy_device_to_device(tessera_buffer dst, size_t dst_offset, tessera_buffer src,
                                             size_t src_offset, size_t bytes, tessera_stream stream) {
  static constexpr const char *api = "tessera_copy_device_to_device";
  return guarded([&] {
    REQUIRE(dst && src, "null buffer");
    REQUIRE(&dst->buffer->device() == &src->buffer->device(), "the buffers belong to different devices");
    runtime::Stream *s = stream ? stream->stream.get() : nullptr;
    return fromStatus(dst->buffer->device().copyDeviceToDevice(*dst->buffer, dst_offset, *src->buffer, src_offset, bytes, s));
  });
}

tessera_status tessera_stream_create(tessera_device device, tessera_stream *stream) {
  static constexpr const char *api = "tessera_stream_create";
  return guarded([&] {
    REQUIRE(device && stream, "null argument");
    auto s = std::make_unique<tessera_stream_t>();
    if (Status st = device->device->createStream(s->stream); !st) return fromStatus(st);
    *stream = s.release();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_stream_wrap(tessera_device device, void *native, tessera_stream *stream) {
  static constexpr const char *api = "tessera_stream_wrap";
  return guarded([&] {
    REQUIRE(device && stream, "null argument");
    auto s = std::make_unique<tessera_stream_t>();
    if (Status st = device->device->wrapNativeStream(native, s->stream); !st) return fromStatus(st);
    *stream = s.release();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_stream_destroy(tessera_stream stream) {
  delete stream;
  return TESSERA_SUCCESS;
}

tessera_status tessera_stream_synchronize(tessera_stream stream) {
  static constexpr const char *api = "tessera_stream_synchronize";
  return guarded([&] {
    REQUIRE(stream, "null stream");
    return fromStatus(stream->stream->synchronize());
  });
}

tessera_status tessera_event_create(tessera_device device, tessera_event *event) {
  static constexpr const char *api = "tessera_event_create";
  return guarded([&] {
    REQUIRE(device && event, "null argument");
    auto e = std::make_unique<tessera_event_t>();
    if (Status st = device->device->createEvent(e->event); !st) return fromStatus(st);
    *event = e.release();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_event_destroy(tessera_event event) {
  delete event;
  return TESSERA_SUCCESS;
}

tessera_status tessera_event_record(tessera_event event, tessera_stream stream) {
  static constexpr const char *api = "tessera_event_record";
  return guarded([&] {
    REQUIRE(event && stream, "null argument");
    return fromStatus(stream->stream->record(*event->event));
  });
}

tessera_status tessera_event_synchronize(tessera_event event) {
  static constexpr const char *api = "tessera_event_synchronize";
  return guarded([&] {
    REQUIRE(event, "null event");
    return fromStatus(event->event->synchronize());
  });
}

tessera_status tessera_event_elapsed_ms(tessera_event start, tessera_event end, double *ms) {
  static constexpr const char *api = "tessera_event_elapsed_ms";
  return guarded([&] {
    REQUIRE(start && end && ms, "null argument");
    return fromStatus(end->event->elapsedMs(*start->event, *ms));
  });
}

tessera_status tessera_kernel_load(tessera_device device, const char *format, const void *binary, size_t size,
                                   const char *entry, size_t num_params, tessera_kernel *kernel) {
  static constexpr const char *api = "tessera_kernel_load";
  return guarded([&] {
    REQUIRE(device && format && binary && entry && kernel, "null argument");
    auto k = std::make_unique<tessera_kernel_t>();
    if (Status st = device->device->loadModule(format, binary, size, k->module); !st) return fromStatus(st);
    if (Status st = k->module->getKernel(entry, num_params, k->kernel); !st) return fromStatus(st);
    k->numParams = num_params;
    k->device = device;
    *kernel = k.release();
    return TESSERA_SUCCESS;
  });
}

tessera_status tessera_kernel_destroy(tessera_kernel kernel) {
  delete kernel;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_num_params(tessera_kernel kernel, size_t *count) {
  static constexpr const char *api = "tessera_kernel_num_params";
  REQUIRE(kernel && count, "null argument");
  *count = kernel->numParams;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_set_launch_params(tessera_kernel kernel, int threads_per_program,
                                                int64_t shared_memory_bytes) {
  static constexpr const char *api = "tessera_kernel_set_launch_params";
  REQUIRE(kernel, "null kernel");
  REQUIRE(threads_per_program >= 1, "threads per program must be at least 1, not " + std::to_string(threads_per_program));
  REQUIRE(shared_memory_bytes >= 0, "negative shared memory size");
  kernel->threadsPerProgram = threads_per_program;
  kernel->sharedMemoryBytes = shared_memory_bytes;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_device(tessera_kernel kernel, tessera_device *device) {
  static constexpr const char *api = "tessera_kernel_device";
  REQUIRE(kernel && device, "null argument");
  *device = kernel->device;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_from_cache(tessera_kernel kernel, int *from_cache) {
  static constexpr const char *api = "tessera_kernel_from_cache";
  REQUIRE(kernel && from_cache, "null argument");
  *from_cache = kernel->fromCache ? 1 : 0;
  return TESSERA_SUCCESS;
}

tessera_status tessera_kernel_launch(tessera_kernel kernel, const uint32_t grid[3], void **args,
                                     tessera_stream stream) {
  static constexpr const char *api = "tessera_kernel_launch";
  return guarded([&] {
    REQUIRE(kernel && grid, "null argument");
    REQUIRE(args || kernel->numParams == 0, "null args for a kernel with parameters");
    runtime::LaunchConfig config;
    config.grid = {grid[0], grid[1], grid[2]};
    config.threadsPerProgram = kernel->threadsPerProgram;
    config.sharedMemoryBytes = kernel->sharedMemoryBytes;
    return fromStatus(kernel->kernel->launch(config, args, kernel->numParams, stream ? stream->stream.get() : nullptr));
  });
}

} // extern "C"
