/* A stand-in for libze_loader.so.1 with no GPU behind it, for the Level
 * Zero backend's tests. Compiled by the tests with:
 *   -DINIT_RESULT=n   what zeInit returns (0x78000001 = uninitialized)
 *   -DDEVICE_COUNT=n  devices of its one driver
 *   -DOMIT_LAUNCH     leave zeCommandListAppendLaunchKernel out
 *   -DMODULE_FLAGS=n  the devices' ze_device_module_flags_t (default: fp16,
 *                     fp64 and 64-bit atomics)
 * With a device, memory is the host's (allocations are malloc, copies are
 * memcpy at once), the device runs subgroups of 8, 16 and 32 with 64 KiB of
 * shared memory, timestamps advance by 1000 ticks of 2 ns per write, a
 * module containing the text "fail_build" does not build (with a log), and
 * launches run nothing: they are recorded for fake_ze_last_launch (with
 * $FAKE_ZE_ASSERT set, a launch stores that number where its last argument
 * points, as a failing device assertion does in its record). */
#define _GNU_SOURCE
#include <level_zero/ze_api.h>
#include <stdlib.h>
#include <string.h>

#ifndef INIT_RESULT
#define INIT_RESULT 0x78000001
#endif
#ifndef DEVICE_COUNT
#define DEVICE_COUNT 0
#endif
#ifndef MODULE_FLAGS
#define MODULE_FLAGS (ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS)
#endif

static char driver_token, device_tokens[4], context_token, list_token, pool_token, event_token, kernel_token;
static unsigned long long clock_ticks = 0;

struct fake_module {
  char *il;
  size_t size;
};

/* The last launch, for the tests. */
static struct {
  unsigned group[3], count[3], num_args;
  size_t arg_size[16];
  unsigned char arg[16][8];
  int launches;
} last;

static unsigned pending_size[16];
static unsigned char pending[16][8];
static unsigned group_size[3];

int fake_ze_last_launch(unsigned *group, unsigned *count, unsigned *num_args, size_t *arg_size, unsigned char (*arg)[8]) {
  memcpy(group, last.group, sizeof last.group);
  memcpy(count, last.count, sizeof last.count);
  *num_args = last.num_args;
  memcpy(arg_size, last.arg_size, sizeof last.arg_size);
  memcpy(arg, last.arg, sizeof last.arg);
  return last.launches;
}

ze_result_t zeInit(ze_init_flags_t flags) { (void)flags; return (ze_result_t)INIT_RESULT; }
ze_result_t zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers) {
  if (drivers && *count) drivers[0] = (ze_driver_handle_t)&driver_token;
  *count = 1;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeDeviceGet(ze_driver_handle_t d, uint32_t *count, ze_device_handle_t *devices) {
  (void)d;
  if (devices)
    for (uint32_t i = 0; i < *count && i < DEVICE_COUNT; ++i) devices[i] = (ze_device_handle_t)&device_tokens[i];
  *count = DEVICE_COUNT;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeDeviceGetProperties(ze_device_handle_t d, ze_device_properties_t *p) {
  (void)d;
  p->timerResolution = 2;
  p->timestampValidBits = 64;
  strcpy(p->name, "Fake Intel GPU");
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeDeviceGetModuleProperties(ze_device_handle_t d, ze_device_module_properties_t *p) {
  (void)d;
  p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
  p->flags = MODULE_FLAGS;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t d, ze_device_compute_properties_t *p) {
  (void)d;
  p->maxTotalGroupSize = 1024;
  p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = 65535;
  p->maxSharedLocalMemory = 64 * 1024;
  p->numSubGroupSizes = 3;
  p->subGroupSizes[0] = 8, p->subGroupSizes[1] = 16, p->subGroupSizes[2] = 32;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeContextCreate(ze_driver_handle_t d, const ze_context_desc_t *desc, ze_context_handle_t *c) {
  (void)d, (void)desc;
  *c = (ze_context_handle_t)&context_token;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeContextDestroy(ze_context_handle_t c) { (void)c; return ZE_RESULT_SUCCESS; }
ze_result_t zeMemAllocDevice(ze_context_handle_t c, const ze_device_mem_alloc_desc_t *desc, size_t size, size_t align,
                             ze_device_handle_t d, void **p) {
  (void)c, (void)desc, (void)align, (void)d;
  *p = malloc(size);
  return *p ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}
ze_result_t zeMemAllocHost(ze_context_handle_t c, const ze_host_mem_alloc_desc_t *desc, size_t size, size_t align, void **p) {
  (void)c, (void)desc, (void)align;
  *p = malloc(size);
  return *p ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}
ze_result_t zeMemFree(ze_context_handle_t c, void *p) { (void)c; free(p); return ZE_RESULT_SUCCESS; }
ze_result_t zeCommandListCreateImmediate(ze_context_handle_t c, ze_device_handle_t d, const ze_command_queue_desc_t *desc,
                                         ze_command_list_handle_t *l) {
  (void)c, (void)d, (void)desc;
  *l = (ze_command_list_handle_t)&list_token;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeCommandListDestroy(ze_command_list_handle_t l) { (void)l; return ZE_RESULT_SUCCESS; }
ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t l, void *dst, const void *src, size_t n,
                                          ze_event_handle_t e, uint32_t nw, ze_event_handle_t *w) {
  (void)l, (void)e, (void)nw, (void)w;
  memcpy(dst, src, n);
  return ZE_RESULT_SUCCESS;
}
#ifndef OMIT_LAUNCH
ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t l, ze_kernel_handle_t k, const ze_group_count_t *g,
                                            ze_event_handle_t e, uint32_t nw, ze_event_handle_t *w) {
  (void)l, (void)k, (void)e, (void)nw, (void)w;
  memcpy(last.group, group_size, sizeof group_size);
  last.count[0] = g->groupCountX, last.count[1] = g->groupCountY, last.count[2] = g->groupCountZ;
  for (unsigned i = 0; i < 16; ++i) {
    last.arg_size[i] = pending_size[i];
    memcpy(last.arg[i], pending[i], 8);
    if (pending_size[i]) last.num_args = i + 1;
  }
  ++last.launches;
  const char *failing = getenv("FAKE_ZE_ASSERT");
  if (failing && last.num_args && last.arg_size[last.num_args - 1] == 8) {
    uint32_t *record;
    memcpy(&record, last.arg[last.num_args - 1], sizeof record);
    *record = (uint32_t)atoi(failing);
  }
  return ZE_RESULT_SUCCESS;
}
#endif
ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t l, ze_event_handle_t e, uint32_t nw, ze_event_handle_t *w) {
  (void)l, (void)e, (void)nw, (void)w;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t l, uint64_t *dst, ze_event_handle_t e,
                                                    uint32_t nw, ze_event_handle_t *w) {
  (void)l, (void)e, (void)nw, (void)w;
  clock_ticks += 1000;
  *dst = clock_ticks;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeEventPoolCreate(ze_context_handle_t c, const ze_event_pool_desc_t *desc, uint32_t n, ze_device_handle_t *d,
                              ze_event_pool_handle_t *p) {
  (void)c, (void)desc, (void)n, (void)d;
  *p = (ze_event_pool_handle_t)&pool_token;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeEventPoolDestroy(ze_event_pool_handle_t p) { (void)p; return ZE_RESULT_SUCCESS; }
ze_result_t zeEventCreate(ze_event_pool_handle_t p, const ze_event_desc_t *desc, ze_event_handle_t *e) {
  (void)p, (void)desc;
  *e = (ze_event_handle_t)&event_token;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeEventDestroy(ze_event_handle_t e) { (void)e; return ZE_RESULT_SUCCESS; }
ze_result_t zeEventHostSynchronize(ze_event_handle_t e, uint64_t timeout) { (void)e, (void)timeout; return ZE_RESULT_SUCCESS; }
ze_result_t zeEventHostReset(ze_event_handle_t e) { (void)e; return ZE_RESULT_SUCCESS; }

static const char build_log[] = "fake: error: the kernel does not build";

ze_result_t zeModuleCreate(ze_context_handle_t c, ze_device_handle_t d, const ze_module_desc_t *desc, ze_module_handle_t *m,
                           ze_module_build_log_handle_t *log) {
  (void)c, (void)d;
  int fails = memmem(desc->pInputModule, desc->inputSize, "fail_build", 10) != NULL;
  if (log) *log = (ze_module_build_log_handle_t)build_log;
  if (fails) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  struct fake_module *fm = malloc(sizeof *fm);
  fm->il = malloc(desc->inputSize);
  memcpy(fm->il, desc->pInputModule, desc->inputSize);
  fm->size = desc->inputSize;
  *m = (ze_module_handle_t)fm;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeModuleDestroy(ze_module_handle_t m) {
  struct fake_module *fm = (struct fake_module *)m;
  free(fm->il);
  free(fm);
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t log, size_t *size, char *text) {
  (void)log;
  if (text) memcpy(text, build_log, sizeof build_log);
  *size = sizeof build_log;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t log) { (void)log; return ZE_RESULT_SUCCESS; }
/* The kernel exists when its name is in the module's bytes. */
ze_result_t zeKernelCreate(ze_module_handle_t m, const ze_kernel_desc_t *desc, ze_kernel_handle_t *k) {
  struct fake_module *fm = (struct fake_module *)m;
  if (!memmem(fm->il, fm->size, desc->pKernelName, strlen(desc->pKernelName))) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  *k = (ze_kernel_handle_t)&kernel_token;
  memset(pending_size, 0, sizeof pending_size);
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeKernelDestroy(ze_kernel_handle_t k) { (void)k; return ZE_RESULT_SUCCESS; }
ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t k, uint32_t x, uint32_t y, uint32_t z) {
  (void)k;
  group_size[0] = x, group_size[1] = y, group_size[2] = z;
  return ZE_RESULT_SUCCESS;
}
ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t k, uint32_t i, size_t size, const void *value) {
  (void)k;
  if (i >= 16 || size > 8) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
  pending_size[i] = (unsigned)size;
  memcpy(pending[i], value, size);
  return ZE_RESULT_SUCCESS;
}
