/* A stand-in for libcuda.so.1 with no GPU behind it, for the CUDA backend's
 * "unavailable" tests. Compiled by the tests with:
 *   -DINIT_RESULT=n   what cuInit returns (100 = CUDA_ERROR_NO_DEVICE)
 *   -DDEVICE_COUNT=n  what cuDeviceGetCount reports
 *   -DOMIT_LAUNCH     leave cuLaunchKernel out (a driver that is too old)
 * Every other entry point fails with CUDA_ERROR_NOT_INITIALIZED (3). */
#ifndef INIT_RESULT
#define INIT_RESULT 100
#endif
#ifndef DEVICE_COUNT
#define DEVICE_COUNT 0
#endif

int cuInit(unsigned flags) { (void)flags; return INIT_RESULT; }
int cuDeviceGetCount(int *count) { *count = DEVICE_COUNT; return 0; }

int cuGetErrorName(int error, const char **name) {
  switch (error) {
  case 3: *name = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
  case 100: *name = "CUDA_ERROR_NO_DEVICE"; return 0;
  default: *name = 0; return 1;
  }
}

int cuGetErrorString(int error, const char **text) {
  switch (error) {
  case 3: *text = "initialization error"; return 0;
  case 100: *text = "no CUDA-capable device is detected"; return 0;
  default: *text = 0; return 1;
  }
}

#define FAIL(name) int name(void) { return 3; }
FAIL(cuDriverGetVersion) FAIL(cuDeviceGet) FAIL(cuDeviceGetName) FAIL(cuDeviceGetAttribute)
FAIL(cuDevicePrimaryCtxRetain) FAIL(cuCtxSetCurrent) FAIL(cuCtxGetCurrent) FAIL(cuCtxSynchronize)
FAIL(cuModuleLoadDataEx) FAIL(cuModuleUnload) FAIL(cuModuleGetFunction) FAIL(cuFuncSetAttribute)
FAIL(cuFuncGetAttribute)
FAIL(cuMemAlloc_v2) FAIL(cuMemFree_v2) FAIL(cuMemcpyHtoD_v2) FAIL(cuMemcpyDtoH_v2) FAIL(cuMemcpyDtoD_v2)
FAIL(cuMemcpyHtoDAsync_v2) FAIL(cuMemcpyDtoHAsync_v2) FAIL(cuMemcpyDtoDAsync_v2)
FAIL(cuStreamCreate) FAIL(cuStreamSynchronize) FAIL(cuStreamDestroy_v2) FAIL(cuStreamWaitEvent)
FAIL(cuEventCreate) FAIL(cuEventRecord) FAIL(cuEventSynchronize) FAIL(cuEventElapsedTime) FAIL(cuEventDestroy_v2)
#ifndef OMIT_LAUNCH
FAIL(cuLaunchKernel)
#endif
