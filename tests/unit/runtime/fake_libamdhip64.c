/* A stand-in for libamdhip64.so with no GPU behind it, for the HIP backend's
 * tests. Compiled by the tests with:
 *   -DINIT_RESULT=n   what hipInit returns (100 = hipErrorNoDevice)
 *   -DDEVICE_COUNT=n  what hipGetDeviceCount reports
 *   -DOMIT_LAUNCH     leave hipModuleLaunchKernel out (a library too old)
 * With a device, memory is the host's (hipMalloc is malloc, copies are
 * memcpy), the device is a gfx942, code objects "load" and launches fail
 * with hipErrorLaunchFailure (719), so everything but running a kernel can
 * be tested. */
#include <stdlib.h>
#include <string.h>

#ifndef INIT_RESULT
#define INIT_RESULT 100
#endif
#ifndef DEVICE_COUNT
#define DEVICE_COUNT 0
#endif

static int current = 0;
static char module_token, function_token, stream_token, event_token;

int hipInit(unsigned flags) { (void)flags; return INIT_RESULT; }
int hipGetDeviceCount(int *count) { *count = DEVICE_COUNT; return 0; }
int hipDeviceGetName(char *name, int len, int device) { (void)device; strncpy(name, "Fake AMD GPU", (size_t)len); return 0; }
/* Like HIP's struct: the arch name somewhere inside, after other fields. */
int hipGetDeviceProperties(void *props, int device) {
  (void)device;
  memset(props, 0, 1024);
  strcpy((char *)props, "Fake AMD GPU");
  strcpy((char *)props + 512, "gfx942:sramecc+:xnack-");
  return 0;
}
int hipSetDevice(int device) { current = device; return 0; }
int hipGetDevice(int *device) { *device = current; return 0; }
int hipDeviceSynchronize(void) { return 0; }
int hipMalloc(void **p, size_t n) { *p = malloc(n); return *p ? 0 : 2; }
int hipFree(void *p) { free(p); return 0; }
int hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream) {
  (void)kind, (void)stream;
  memcpy(dst, src, n);
  return 0;
}
int hipStreamCreate(void **s) { *s = &stream_token; return 0; }
int hipStreamDestroy(void *s) { (void)s; return 0; }
int hipStreamSynchronize(void *s) { (void)s; return 0; }
int hipStreamWaitEvent(void *s, void *e, unsigned f) { (void)s, (void)e, (void)f; return 0; }
int hipEventCreate(void **e) { *e = &event_token; return 0; }
int hipEventDestroy(void *e) { (void)e; return 0; }
int hipEventRecord(void *e, void *s) { (void)e, (void)s; return 0; }
int hipEventSynchronize(void *e) { (void)e; return 0; }
int hipEventElapsedTime(float *ms, void *a, void *b) { (void)a, (void)b; *ms = 0.5f; return 0; }
int hipModuleLoadData(void **m, const void *image) { (void)image; *m = &module_token; return 0; }
int hipModuleUnload(void *m) { (void)m; return 0; }
int hipModuleGetFunction(void **f, void *m, const char *name) {
  (void)m;
  if (strcmp(name, "missing") == 0) return 500; /* hipErrorNotFound */
  *f = &function_token;
  return 0;
}
#ifndef OMIT_LAUNCH
int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params, void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)stream, (void)params, (void)extra;
  return 719;
}
#endif
const char *hipGetErrorName(int e) {
  switch (e) {
  case 100: return "hipErrorNoDevice";
  case 500: return "hipErrorNotFound";
  case 719: return "hipErrorLaunchFailure";
  default: return "hipErrorUnknown";
  }
}
const char *hipGetErrorString(int e) {
  switch (e) {
  case 100: return "no ROCm-capable device is detected";
  case 500: return "named symbol not found";
  case 719: return "unspecified launch failure";
  default: return "unknown error";
  }
}
