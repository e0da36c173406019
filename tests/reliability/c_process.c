/* Launches from C around process events, for tests/reliability/cases.py:
 *   c_process atexit   a launch from an atexit handler registered before
 *                      the first Tessera call (it runs after the runtime's
 *                      static destructors)
 *   c_process fork     a launch, fork(), a launch in the child
 *   c_process cuda     CUDA initialized (a device, a buffer), fork(): in the
 *                      child every CUDA call is a clear error, the host works
 *                      ("ok (no CUDA)" where CUDA is not usable at all)
 *   c_process fsize    a file-size limit (ulimit -f) of 1 KiB with SIGXFSZ
 *                      left at its default (which ends the process): the
 *                      compile is an error naming the limit; raised again,
 *                      it compiles
 * Prints "ok" and exits 0 when every launch computed the right sums. */
#include <tessera/tessera.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *kSource =
    "import tessera\n"
    "import tessera.language as tl\n"
    "@tessera.jit\n"
    "def add(x_ptr, o_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)\n";

enum { N = 4000, BLOCK = 64 };
static tessera_kernel kernel;

static int launch_and_check(const char *where) {
  float *x = malloc(N * sizeof(float)), *o = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) x[i] = (float)i, o[i] = -1.0f;
  void *px = x, *po = o;
  int32_t n = N;
  void *args[] = {&px, &po, &n};
  uint32_t grid[3] = {(N + BLOCK - 1) / BLOCK, 1, 1};
  tessera_status st = tessera_kernel_launch(kernel, grid, args, NULL);
  if (st != TESSERA_SUCCESS) {
    fprintf(stderr, "%s: launch failed: %s\n", where, tessera_last_error());
    return 1;
  }
  for (int i = 0; i < N; ++i)
    if (o[i] != x[i] + 1.0f) {
      fprintf(stderr, "%s: o[%d] = %g\n", where, i, o[i]);
      return 1;
    }
  free(x), free(o);
  return 0;
}

static void at_exit(void) {
  if (launch_and_check("atexit") == 0) {
    printf("ok\n");
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "atexit") == 0) atexit(at_exit); /* before any Tessera call */
  const char *signature[] = {"*fp32:16", "*fp32:16", "i32"};
  tessera_constexpr constexprs[] = {{"BLOCK", "64"}};
  tessera_compile_options options = {0};
  options.source = kSource, options.filename = "c_process.py", options.entry = "add";
  options.signature = signature, options.num_signature = 3;
  options.constexprs = constexprs, options.num_constexprs = 1;
  options.target = "cpu";
  struct rlimit fsize;
  getrlimit(RLIMIT_FSIZE, &fsize);
  if (strcmp(mode, "fsize") == 0) {
    struct rlimit small = fsize;
    small.rlim_cur = 1024;
    setrlimit(RLIMIT_FSIZE, &small);
    if (tessera_compile(&options, &kernel) == TESSERA_SUCCESS || !strstr(tessera_last_error(), "File too large")) {
      fprintf(stderr, "under ulimit -f 1: %s\n", tessera_last_error());
      return 1;
    }
    setrlimit(RLIMIT_FSIZE, &fsize);
  }
  if (tessera_compile(&options, &kernel) != TESSERA_SUCCESS) {
    fprintf(stderr, "compile: %s\n", tessera_last_error());
    return 1;
  }
  if (launch_and_check("main")) return 1;
  if (strcmp(mode, "atexit") == 0) return 0; /* the handler prints ok */
  if (strcmp(mode, "fsize") == 0) {
    printf("ok\n");
    return 0;
  }
  if (strcmp(mode, "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) _exit(launch_and_check("child") || launch_and_check("child, again"));
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    if (launch_and_check("parent after fork")) return 1;
    printf("ok\n");
    return 0;
  }
  if (strcmp(mode, "cuda") == 0) {
    tessera_device gpu;
    tessera_buffer buf;
    if (tessera_get_device("cuda", 0, &gpu) != TESSERA_SUCCESS) {
      printf("ok (no CUDA: %s)\n", tessera_last_error());
      return 0;
    }
    if (tessera_buffer_alloc(gpu, 1024, &buf) != TESSERA_SUCCESS) {
      fprintf(stderr, "parent: buffer: %s\n", tessera_last_error());
      return 1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      tessera_device again;
      tessera_buffer other;
      tessera_status a = tessera_get_device("cuda", 0, &again);
      printf("child get_device: %s: %s\n", tessera_status_string(a), tessera_last_error());
      tessera_status b = tessera_buffer_alloc(gpu, 1024, &other);
      printf("child alloc: %s: %s\n", tessera_status_string(b), tessera_last_error());
      float host[4] = {0};
      tessera_status c = tessera_copy_device_to_host(host, buf, 0, sizeof host, NULL);
      printf("child copy: %s: %s\n", tessera_status_string(c), tessera_last_error());
      int bad = a == TESSERA_SUCCESS || b == TESSERA_SUCCESS || c == TESSERA_SUCCESS ||
                !strstr(tessera_last_error(), "fork");
      fflush(stdout);
      _exit(bad || launch_and_check("child (host)"));
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
    tessera_buffer_free(buf);
    printf("ok\n");
    return 0;
  }
  fprintf(stderr, "usage: c_process atexit|fork|cuda|fsize\n");
  return 2;
}
