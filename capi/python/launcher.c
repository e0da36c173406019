/* _tessera_launch: the JIT's launch fast lane, a CPython extension on the
 * limited API (abi3: one build loads in every CPython >= 3.10).
 *
 * A warm launch from Python repeats the same work every time: bind the
 * arguments to the kernel's parameters, derive the specialization key
 * (argument types, alignment and divisibility facts, constexpr values),
 * find the compiled kernel, read torch's current stream, pack the values
 * and call tessera_kernel_launch. In Python (python/tessera/jit.py) that
 * costs 15-20 µs; here a few.
 *
 * The fast lane only ever answers for a launch the Python path has already
 * made with the same key: Python compiles, checks and launches the first
 * time, then calls `remember`, which stores the kernel under the key this
 * file derives. Anything unusual (numpy read-only or empty arrays, float or
 * object constexprs other than the language's dtypes, unknown devices,
 * dtypes or streams, changed globals,
 * the checked mode) returns None, and the Python path runs instead, with
 * its own error messages. So this file never compiles, never words a user
 * error, and cannot launch with a key the Python path did not choose.
 *
 * libtessera is not linked: `configure` receives tessera_kernel_launch's
 * address from ctypes, so the extension works with any libtessera build
 * (the sanitizer build included). */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <structmember.h>

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* PEP 590's vectorcall, in the limited API from 3.12 on but a stable ABI
 * since 3.8 (CPython 3.10 and 3.11 honour a heap type's
 * __vectorcalloffset__ and flag alike): a call through it makes no
 * argument tuple or keyword dict. */
typedef PyObject *(*VectorcallFn)(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames);
#define HAVE_VECTORCALL (1UL << 11)
#define VECTORCALL_ARGUMENTS_OFFSET ((size_t)1 << (8 * sizeof(size_t) - 1))

typedef int (*LaunchFn)(void *kernel, const uint32_t grid[3], void **args, void *stream);

/* What `configure` hands over, shared by every Launcher. */
static struct {
  LaunchFn launch;
  PyObject *dtypes;       /* dtype object -> "*<sig dtype>" */
  PyObject *devices;      /* torch.device -> device name ("cuda:0") */
  PyObject *streams;      /* device name -> (getter, index, {native stream: tessera stream handle}) or None */
  PyObject *tensor_types; /* tuple: torch.Tensor, torch.nn.Parameter (exact types) */
  PyObject *ndarray_type; /* numpy.ndarray or None */
  PyObject *normalize;    /* jit.normalize_grid(grid, meta) */
  PyObject *ignored;      /* launch options the JIT drops (a frozenset of names) */
  PyObject *constexpr_types; /* tuple: exact types of objects that key as constexprs by ==, hash (tl.dtype) */
  PyObject *descriptor_type; /* tools.tensor_descriptor.TensorDescriptor (exact type) */
  PyObject *sizes;        /* "*<sig dtype>" -> element size in bytes */
  PyObject *cpu;          /* "cpu" */
  PyObject *environ;      /* os.environ's dict of encoded names and values, or NULL */
  PyObject *debug_variable; /* b"TESSERA_DEBUG" (its encoded name) */
} cfg;

/* Interned names and signature words, made once. */
static PyObject *s_data_ptr, *s_get_device, *s_is_cuda, *s_dtype, *s_device, *s_array_interface, *s_data, *s_size, *s_cell_contents;
static PyObject *s_base, *s_shape, *s_strides, *s_block_shape;
static PyObject *s_i1, *s_i32, *s_i64, *s_u64, *s_fp32;
static PyObject *s_num_warps, *s_num_stages, *s_debug, *s_grid, *s_run;

enum { MAX_PARAMS = 256 };
#define TENSOR_DEVICE_UNSEEN (-2L)
/* FLAG_SPECIALIZE: on values equal to 1; FLAG_ALIGNMENT: also on multiples
 * of 16 and 16-byte aligned pointers (not under Triton's
 * do_not_specialize_on_alignment). classify_* take the level: 0, 1 or 2. */
enum { FLAG_CONSTEXPR = 1, FLAG_SPECIALIZE = 2, FLAG_ALIGNMENT = 4 };

typedef union {
  int8_t b;
  int32_t i;
  int64_t l;
  uint64_t u;
  float f;
  void *p;
} Slot;

typedef struct {
  PyObject_HEAD
  Py_ssize_t n;        /* parameters */
  PyObject *names;     /* tuple of str */
  PyObject *defaults;  /* tuple; `missing` where a parameter has none */
  PyObject *missing;
  PyObject *index;     /* dict: name -> int */
  unsigned char *flags;
  PyObject *cache;     /* dict: key -> (kernel, handle int) */
  PyObject *watch;     /* tuple of (dict or cell, name or None, value seen) */
  PyObject *on_error;  /* callable(kernel, status): raises the launch's error */
  Py_ssize_t launches; /* launches made here (tests read it) */
  /* The last key found and its entry: repeated launches compare words
   * instead of building and hashing a tuple. */
  PyObject **last_words; /* 2 * n + 3 strong references, or NULL */
  PyObject *last_entry;
  PyObject *last_grid_launch; /* kernel[grid]'s last answer: reused for the same grid */
} Launcher;

/* One launch's arguments as this file understands them. A tensor
 * descriptor packs 1 + 2 * rank runtime arguments (base, shape, strides). */
enum { MAX_WORDS = 2 * MAX_PARAMS + 3, MAX_SLOTS = 4 * MAX_PARAMS, MAX_DESCRIPTOR_RANK = 5 };

typedef struct {
  PyObject *values[MAX_PARAMS]; /* borrowed */
  PyObject *words[MAX_WORDS];   /* the key's words, borrowed (or held in owned[]) */
  PyObject *owned[MAX_PARAMS];  /* words made for this launch (descriptor facts) */
  Py_ssize_t n_owned;
  Slot slots[MAX_SLOTS];
  void *ptrs[MAX_SLOTS];
  Py_ssize_t runtime;           /* runtime arguments packed */
  PyObject *device;             /* borrowed device name of the pointers; NULL: none */
  long tensor_device;           /* torch's get_device() of the first tensor; TENSOR_DEVICE_UNSEEN: none yet */
} Bound;

static void release_words(Bound *b) {
  for (Py_ssize_t i = 0; i < b->n_owned; ++i) Py_DECREF(b->owned[i]);
  b->n_owned = 0;
}

/* *slot = value (a new reference), releasing what it held. */
static void replace(PyObject **slot, PyObject *value) {
  PyObject *old = *slot;
  *slot = value;
  Py_XDECREF(old);
}

#define NOT_HANDLED 0
#define HANDLED 1
#define FAILED (-1)

/* A launch's arguments in either calling convention: positional values,
 * then keywords as a dict (tp_call, Launcher.launch) or as names whose
 * values follow the positional ones (vectorcall). */
typedef struct {
  PyObject *tuple;        /* positional values in a tuple, or NULL: */
  PyObject *const *pos;   /* in an array (with the keywords' values after them) */
  Py_ssize_t npos;
  PyObject *kwdict;       /* or NULL */
  PyObject *kwnames;      /* or NULL; values at pos[npos + i] */
} Args;

/* The launch options a keyword may carry beside the parameters: kernel[grid]'s
 * call takes them as JITFunction.run does. */
typedef struct {
  PyObject *num_warps, *num_stages; /* Py_None when not given */
  int python_path;                  /* debug (not None) or grid= given: run() decides */
} Options;

static int is_name(PyObject *key, PyObject *interned) {
  return key == interned || (PyUnicode_Check(key) && PyUnicode_Compare(key, interned) == 0);
}

/* One keyword: a parameter's value, else a launch option (collected in
 * *opt, or skipped where opt is NULL: the caller has them), else one the
 * JIT ignores; anything else is the Python path's to word. */
static int bind_keyword(Launcher *self, PyObject *key, PyObject *value, Bound *b, Options *opt) {
  PyObject *at = PyDict_GetItemWithError(self->index, key);
  if (at) {
    Py_ssize_t i = PyLong_AsSsize_t(at);
    if (b->values[i]) return NOT_HANDLED; /* given twice */
    b->values[i] = value;
    return HANDLED;
  }
  if (PyErr_Occurred()) return FAILED;
  if (is_name(key, s_num_warps)) {
    if (opt) opt->num_warps = value;
    return HANDLED;
  }
  if (is_name(key, s_num_stages)) {
    if (opt) opt->num_stages = value;
    return HANDLED;
  }
  if (is_name(key, s_debug)) {
    if (opt && value != Py_None) opt->python_path = 1;
    return HANDLED;
  }
  if (opt && is_name(key, s_grid)) {
    opt->python_path = 1;
    return HANDLED;
  }
  int skip = PySet_Contains(cfg.ignored, key);
  if (skip < 0) return FAILED;
  return skip ? HANDLED : NOT_HANDLED;
}

/* values[] in parameter order, or NOT_HANDLED (the Python path binds and words errors). */
static int bind_arguments(Launcher *self, const Args *a, Bound *b, Options *opt) {
  if (a->npos > self->n) return NOT_HANDLED;
  for (Py_ssize_t i = 0; i < self->n; ++i) b->values[i] = NULL;
  for (Py_ssize_t i = 0; i < a->npos; ++i) b->values[i] = a->tuple ? PyTuple_GetItem(a->tuple, i) : a->pos[i];
  if (a->kwnames) {
    for (Py_ssize_t i = 0, n = PyTuple_Size(a->kwnames); i < n; ++i) {
      int st = bind_keyword(self, PyTuple_GetItem(a->kwnames, i), a->pos[a->npos + i], b, opt);
      if (st != HANDLED) return st;
    }
  } else if (a->kwdict) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(a->kwdict, &pos, &key, &value)) {
      int st = bind_keyword(self, key, value, b, opt);
      if (st != HANDLED) return st;
    }
  }
  if (opt && opt->python_path) return NOT_HANDLED;
  for (Py_ssize_t i = 0; i < self->n; ++i) {
    if (b->values[i]) continue;
    PyObject *d = PyTuple_GetItem(self->defaults, i);
    if (d == self->missing) return NOT_HANDLED;
    b->values[i] = d;
  }
  return HANDLED;
}

/* Args of a tuple and a dict (or NULL). */
static Args tuple_args(PyObject *args, PyObject *kwargs) {
  Args a = {args, NULL, PyTuple_Size(args), kwargs && PyDict_Size(kwargs) ? kwargs : NULL, NULL};
  return a;
}

/* Whether every global and closure variable the kernel was compiled from
 * still holds the object it held when the key was remembered. */
static int globals_unchanged(Launcher *self) {
  Py_ssize_t n = PyTuple_Size(self->watch);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *w = PyTuple_GetItem(self->watch, i);
    PyObject *where = PyTuple_GetItem(w, 0), *name = PyTuple_GetItem(w, 1), *seen = PyTuple_GetItem(w, 2);
    if (name != Py_None) {
      PyObject *now = PyDict_GetItemWithError(where, name);
      if (now != seen) {
        if (PyErr_Occurred()) return FAILED;
        return NOT_HANDLED;
      }
    } else {
      PyObject *now = PyObject_GetAttr(where, s_cell_contents);
      if (!now) {
        PyErr_Clear();
        return NOT_HANDLED;
      }
      Py_DECREF(now);
      if (now != seen) return NOT_HANDLED;
    }
  }
  return HANDLED;
}

static int is_exact(PyObject *value, PyObject *type) { return (PyObject *)Py_TYPE(value) == type; }

/* Whether value's type is exactly one of the tuple `types` (NULL: none). */
static int is_exact_one_of(PyObject *value, PyObject *types) {
  Py_ssize_t n = types ? PyTuple_Size(types) : 0;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (is_exact(value, PyTuple_GetItem(types, i))) return 1;
  return 0;
}

static int is_tensor(PyObject *value) { return is_exact_one_of(value, cfg.tensor_types); }

/* The pointer's device must be the one every other pointer is on. */
static int same_device(Bound *b, PyObject *device) {
  if (!b->device) {
    b->device = device;
    return HANDLED;
  }
  if (b->device == device) return HANDLED;
  int eq = PyObject_RichCompareBool(b->device, device, Py_EQ);
  return eq < 0 ? FAILED : eq ? HANDLED : NOT_HANDLED;
}

/* table[value.attr] (borrowed) in *out, or NOT_HANDLED when the table
 * has no entry: the Python path fills the tables. */
static int look_up(PyObject *value, PyObject *attr, PyObject *table, PyObject **out) {
  PyObject *key = PyObject_GetAttr(value, attr);
  if (!key) return FAILED;
  *out = PyDict_GetItemWithError(table, key);
  Py_DECREF(key);
  if (!*out) return PyErr_Occurred() ? FAILED : NOT_HANDLED;
  return HANDLED;
}

/* An address from a Python int. Where unsigned long holds 64 bits its
 * conversion is preferred: CPython converts a multi-digit int to unsigned
 * long long through a byte array, 3% of a warm launch. */
static unsigned long long as_address(PyObject *value) {
  if (sizeof(unsigned long) >= sizeof(unsigned long long)) {
    unsigned long a = PyLong_AsUnsignedLong(value);
    return a == (unsigned long)-1 ? (unsigned long long)-1 : (unsigned long long)a;
  }
  return PyLong_AsUnsignedLongLong(value);
}

/* A pointer argument's slot and key words: its signature dtype and the
 * 16-byte alignment fact. */
static int pointer(PyObject *address_obj, PyObject *sig, int specialize, Bound *b, PyObject **word,
                   PyObject **fact) {
  unsigned long long address = as_address(address_obj);
  if (address == (unsigned long long)-1 && PyErr_Occurred()) return FAILED;
  b->slots[b->runtime].p = (void *)(uintptr_t)address;
  *word = sig;
  *fact = specialize == 2 && address % 16 == 0 ? Py_True : Py_False;
  return HANDLED;
}

/* torch.Tensor's dtype getter and its data_ptr and get_device methods,
 * called directly: no attribute lookup per tensor. */
static struct {
  PyObject *dtype, *is_cuda, *data_ptr, *get_device; /* descriptors */
  descrgetfunc get_dtype, get_is_cuda;
} torch_api;

/* PyObject_Vectorcall where the interpreter exports it (3.11 on; the
 * limited API has it from 3.12): a call of one argument without varargs. */
static VectorcallFn vectorcall_entry;

static PyObject *call_one(PyObject *callable, PyObject *arg) {
  if (vectorcall_entry) {
    PyObject *args[2] = {NULL, arg};
    return vectorcall_entry(callable, args + 1, 1 | VECTORCALL_ARGUMENTS_OFFSET, NULL);
  }
  return PyObject_CallFunctionObjArgs(callable, arg, NULL);
}

/* torch's get_device(): the CUDA device's index, -1 on the CPU. */
static int tensor_device_index(PyObject *value, long *index) {
  PyObject *r = call_one(torch_api.get_device, value);
  if (!r) return FAILED;
  *index = PyLong_AsLong(r);
  Py_DECREF(r);
  return *index == -1 && PyErr_Occurred() ? FAILED : HANDLED;
}

/* The names of CUDA devices by index, as the devices table gave them: a
 * CUDA tensor's device is then known from is_cuda and get_device()
 * without making a torch.device. */
enum { MAX_CUDA_DEVICES = 64 };
static PyObject *cuda_device_names[MAX_CUDA_DEVICES];

/* The launch's device from its first tensor (get_device() said `index`). */
static int first_tensor_device(PyObject *value, long index, Bound *b) {
  int cuda = 0;
  if (index >= 0 && index < MAX_CUDA_DEVICES) {
    PyObject *is_cuda = torch_api.get_is_cuda(torch_api.is_cuda, value, (PyObject *)Py_TYPE(value));
    if (!is_cuda) return FAILED;
    cuda = is_cuda == Py_True;
    Py_DECREF(is_cuda);
    if (cuda && cuda_device_names[index]) return same_device(b, cuda_device_names[index]);
  }
  PyObject *device;
  int st = look_up(value, s_device, cfg.devices, &device);
  if (st != HANDLED) return st;
  if (cuda) {
    Py_INCREF(device);
    replace(&cuda_device_names[index], device);
  }
  return same_device(b, device);
}

/* Key words and slot of a torch tensor. The first tensor's device is
 * looked up by name (first_tensor_device); the others need only be on the same one, which
 * get_device() tells at a third of the cost of a torch.device (torch
 * builds for one accelerator: one index names one device beside the CPU,
 * whose tensors, like meta ones, are -1: a null pointer is not launched). */
static int classify_tensor(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact) {
  PyObject *dtype = torch_api.get_dtype(torch_api.dtype, value, (PyObject *)Py_TYPE(value));
  if (!dtype) return FAILED;
  PyObject *sig = PyDict_GetItemWithError(cfg.dtypes, dtype);
  Py_DECREF(dtype);
  if (!sig) return PyErr_Occurred() ? FAILED : NOT_HANDLED;
  long index;
  int st = tensor_device_index(value, &index);
  if (st != HANDLED) return st;
  if (b->tensor_device == TENSOR_DEVICE_UNSEEN) {
    st = first_tensor_device(value, index, b);
    if (st != HANDLED) return st;
    b->tensor_device = index;
  } else if (index != b->tensor_device) {
    return NOT_HANDLED;
  }
  PyObject *ptr = call_one(torch_api.data_ptr, value);
  if (!ptr) return FAILED;
  st = pointer(ptr, sig, specialize, b, word, fact);
  Py_DECREF(ptr);
  if (st == HANDLED && index < 0 && !b->slots[b->runtime].p) return NOT_HANDLED; /* a meta tensor, or empty */
  return st;
}

/* Key words and slot of a writable, non-empty numpy array (host memory). */
static int classify_ndarray(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact) {
  PyObject *size = PyObject_GetAttr(value, s_size);
  if (!size) return FAILED;
  Py_ssize_t elements = PyLong_AsSsize_t(size);
  Py_DECREF(size);
  if (elements == -1 && PyErr_Occurred()) return FAILED;
  if (elements == 0) return NOT_HANDLED; /* the guard page: Python's business */
  PyObject *sig;
  int st = look_up(value, s_dtype, cfg.dtypes, &sig);
  if (st == HANDLED) st = same_device(b, cfg.cpu);
  if (st != HANDLED) return st;
  PyObject *iface = PyObject_GetAttr(value, s_array_interface);
  if (!iface) return FAILED;
  PyObject *data = PyDict_Check(iface) ? PyDict_GetItemWithError(iface, s_data) : NULL;
  if (!data || !PyTuple_Check(data) || PyTuple_Size(data) != 2 || PyTuple_GetItem(data, 1) != Py_False)
    st = PyErr_Occurred() ? FAILED : NOT_HANDLED; /* read-only arrays: Python checks what the kernel writes */
  else
    st = pointer(PyTuple_GetItem(data, 0), sig, specialize, b, word, fact);
  Py_DECREF(iface);
  return st;
}

/* Key words and slot of an int: i32 / i64 / u64 by range, ":1" and ":16" facts. */
static int classify_int(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (v == -1 && PyErr_Occurred()) return FAILED;
  unsigned long long magnitude;
  if (overflow) {
    if (overflow < 0) return NOT_HANDLED;
    magnitude = PyLong_AsUnsignedLongLong(value);
    if (magnitude == (unsigned long long)-1 && PyErr_Occurred()) {
      PyErr_Clear();
      return NOT_HANDLED; /* beyond 64 bits: Python raises */
    }
    b->slots[b->runtime].u = magnitude;
    *word = s_u64;
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    b->slots[b->runtime].i = (int32_t)v;
    *word = s_i32;
    magnitude = (unsigned long long)v;
  } else {
    b->slots[b->runtime].l = v;
    *word = s_i64;
    magnitude = (unsigned long long)v;
  }
  static PyObject *one, *sixteen, *zero;
  if (!one) {
    one = PyLong_FromLong(1), sixteen = PyLong_FromLong(16), zero = PyLong_FromLong(0);
    if (!one || !sixteen || !zero) return FAILED;
  }
  /* Two's complement: v % 16 == 0 exactly when the low four bits are clear. */
  *fact = !specialize ? zero : (!overflow && v == 1) ? one : specialize == 2 && (magnitude & 15) == 0 ? sixteen : zero;
  return HANDLED;
}

/* The rank ints of a list attribute of `value` (a descriptor's shape or
 * strides) into out[]. */
static int int64_list(PyObject *value, PyObject *attr, Py_ssize_t rank, int64_t out[]) {
  PyObject *list = PyObject_GetAttr(value, attr);
  if (!list) return FAILED;
  int st = PyList_CheckExact(list) && PyList_Size(list) == rank ? HANDLED : NOT_HANDLED;
  for (Py_ssize_t i = 0; st == HANDLED && i < rank; ++i) {
    PyObject *item = PyList_GetItem(list, i);
    int overflow = 0;
    long long v = PyLong_CheckExact(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : 0;
    if (!PyLong_CheckExact(item) || overflow) st = NOT_HANDLED;
    else if (v == -1 && PyErr_Occurred()) st = FAILED;
    else out[i] = v;
  }
  Py_DECREF(list);
  return st;
}

/* A host TensorDescriptor: its base as a pointer argument, then shape and
 * strides as int64 arguments. The words are the base's dtype word and a
 * tuple (block shape, tensor-map ready, extents % 16 == 0): the ":16" and
 * ":e16" facts of jit.py's signature, derived the same way. */
static int classify_descriptor(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact) {
  PyObject *block = PyObject_GetAttr(value, s_block_shape);
  if (!block) return FAILED;
  PyObject *block_key = PyList_CheckExact(block) ? PyList_AsTuple(block) : NULL;
  Py_DECREF(block);
  if (!block_key) return PyErr_Occurred() ? FAILED : NOT_HANDLED;
  Py_ssize_t rank = PyTuple_Size(block_key);
  int64_t shape[MAX_DESCRIPTOR_RANK], strides[MAX_DESCRIPTOR_RANK];
  int st = rank >= 1 && rank <= MAX_DESCRIPTOR_RANK && b->runtime + 1 + 2 * rank <= MAX_SLOTS ? HANDLED : NOT_HANDLED;
  if (st == HANDLED) st = int64_list(value, s_shape, rank, shape);
  if (st == HANDLED) st = int64_list(value, s_strides, rank, strides);
  PyObject *base = st == HANDLED ? PyObject_GetAttr(value, s_base) : NULL;
  if (st == HANDLED && !base) st = FAILED;
  PyObject *aligned = NULL;
  if (st == HANDLED) {
    if (is_tensor(base)) st = classify_tensor(base, specialize, b, word, &aligned);
    else if (cfg.ndarray_type && is_exact(base, cfg.ndarray_type)) st = classify_ndarray(base, specialize, b, word, &aligned);
    else st = NOT_HANDLED;
  }
  Py_XDECREF(base);
  PyObject *size_obj = st == HANDLED ? PyDict_GetItemWithError(cfg.sizes, *word) : NULL;
  if (st == HANDLED && !size_obj) st = PyErr_Occurred() ? FAILED : NOT_HANDLED;
  if (st != HANDLED) {
    Py_DECREF(block_key);
    return st;
  }
  long long size = PyLong_AsLongLong(size_obj);
  int ready = aligned == Py_True, e16 = specialize == 2;
  for (Py_ssize_t i = 0; i < rank; ++i) {
    ready = ready && shape[i] >= 1 && shape[i] <= (1LL << 31);
    if (i + 1 < rank) ready = ready && strides[i] > 0 && strides[i] * size % 16 == 0 && strides[i] * size < (1LL << 40);
    e16 = e16 && shape[i] % 16 == 0;
  }
  *fact = Py_BuildValue("(NOO)", block_key, ready ? Py_True : Py_False, e16 ? Py_True : Py_False);
  if (!*fact) return FAILED;
  b->owned[b->n_owned++] = *fact;
  b->ptrs[b->runtime] = &b->slots[b->runtime];
  b->runtime++;
  for (Py_ssize_t i = 0; i < 2 * rank; ++i) {
    b->slots[b->runtime].l = i < rank ? shape[i] : strides[i - rank];
    b->ptrs[b->runtime] = &b->slots[b->runtime];
    b->runtime++;
  }
  return HANDLED;
}

static int classify_value(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact, int depth);

/* A tuple argument (Triton's): its word is a tuple of its type (a
 * namedtuple's class keeps its fields apart) and its elements' words, its
 * fact the tuple of their facts; each runtime leaf packs its slots, depth
 * first, in the order jit.py's _tuple_argument gives the kernel's
 * parameters. None, and where specialized an int equal to 1, are
 * compile-time leaves (no slot), as jit.py's _compile_time_leaf says; the
 * other compile-time leaves (tl.constexpr values, dtypes, @jit functions)
 * are the Python path's. */
static int classify_tuple(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact, int depth) {
  if (depth > 8 || b->n_owned + 2 > MAX_PARAMS) return NOT_HANDLED;
  Py_ssize_t n = PyTuple_Size(value);
  PyObject *words = PyTuple_New(n + 1);
  if (!words) return FAILED;
  b->owned[b->n_owned++] = words; /* released with the launch's other words, on every path */
  PyObject *facts = PyTuple_New(n);
  if (!facts) return FAILED;
  b->owned[b->n_owned++] = facts;
  Py_INCREF((PyObject *)Py_TYPE(value));
  PyTuple_SetItem(words, 0, (PyObject *)Py_TYPE(value));
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject *item = PyTuple_GetItem(value, k), *w = NULL, *f = NULL;
    int st = HANDLED;
    int one = 0;
    if (specialize && PyLong_CheckExact(item)) {
      one = PyLong_AsLongLongAndOverflow(item, &st) == 1 && st == 0;
      st = HANDLED;
    }
    if (item == Py_None || one) {
      w = (PyObject *)Py_TYPE(item);
      f = item;
    } else {
      st = classify_value(item, specialize, b, &w, &f, depth + 1);
    }
    if (st != HANDLED) return st;
    Py_INCREF(w);
    PyTuple_SetItem(words, k + 1, w);
    Py_INCREF(f);
    PyTuple_SetItem(facts, k, f);
  }
  *word = words;
  *fact = facts;
  return HANDLED;
}

/* A runtime value's two words and its packed slots, or NOT_HANDLED. */
static int classify_value(PyObject *value, int specialize, Bound *b, PyObject **word, PyObject **fact, int depth) {
  if (b->runtime >= MAX_SLOTS) return NOT_HANDLED;
  if (cfg.descriptor_type && is_exact(value, cfg.descriptor_type))
    return classify_descriptor(value, specialize, b, word, fact); /* packs its own slots */
  if (PyTuple_Check(value)) return classify_tuple(value, specialize, b, word, fact, depth);
  int st;
  if (PyBool_Check(value)) {
    b->slots[b->runtime].b = value == Py_True;
    *word = s_i1;
    *fact = Py_None;
    st = HANDLED;
  } else if (PyLong_CheckExact(value)) {
    st = classify_int(value, specialize, b, word, fact);
  } else if (PyFloat_CheckExact(value)) {
    b->slots[b->runtime].f = (float)PyFloat_AsDouble(value);
    *word = s_fp32;
    *fact = Py_None;
    st = HANDLED;
  } else if (is_tensor(value)) {
    st = classify_tensor(value, specialize, b, word, fact);
  } else if (cfg.ndarray_type && is_exact(value, cfg.ndarray_type)) {
    st = classify_ndarray(value, specialize, b, word, fact);
  } else {
    return NOT_HANDLED;
  }
  if (st == HANDLED) {
    b->ptrs[b->runtime] = &b->slots[b->runtime];
    b->runtime++;
  }
  return st;
}

/* The key's two words for parameter i and its packed slots (runtime
 * arguments), or NOT_HANDLED. */
static int classify(Launcher *self, Py_ssize_t i, Bound *b, PyObject **word, PyObject **fact) {
  PyObject *value = b->values[i];
  if ((self->flags[i] & FLAG_CONSTEXPR) || value == Py_None) {
    /* Compile-time values: the type keeps True apart from 1. Floats (0.0 ==
     * -0.0, NaN) and other objects are the Python path's; a dtype (equal
     * exactly when the Python path's constexpr text is) is the lane's. */
    if (value != Py_None && !PyLong_CheckExact(value) && !PyBool_Check(value) && !PyUnicode_CheckExact(value) &&
        !is_exact_one_of(value, cfg.constexpr_types))
      return NOT_HANDLED;
    *word = (PyObject *)Py_TYPE(value);
    *fact = value;
    return HANDLED;
  }
  int specialize = !(self->flags[i] & FLAG_SPECIALIZE) ? 0 : (self->flags[i] & FLAG_ALIGNMENT) ? 2 : 1;
  return classify_value(value, specialize, b, word, fact, 0);
}

/* The specialization key's words in b->words (2 per parameter, then
 * num_warps, num_stages and the device), or NOT_HANDLED. */
static int key_words(Launcher *self, Bound *b, PyObject *num_warps, PyObject *num_stages) {
  b->runtime = 0;
  b->device = NULL;
  b->tensor_device = TENSOR_DEVICE_UNSEEN;
  for (Py_ssize_t i = 0; i < self->n; ++i) {
    int st = classify(self, i, b, &b->words[2 * i], &b->words[2 * i + 1]);
    if (st != HANDLED) return st;
  }
  b->words[2 * self->n] = num_warps;
  b->words[2 * self->n + 1] = num_stages;
  b->words[2 * self->n + 2] = b->device ? b->device : Py_None;
  return HANDLED;
}

static PyObject *key_tuple(Launcher *self, Bound *b) {
  Py_ssize_t n = 2 * self->n + 3;
  PyObject *k = PyTuple_New(n);
  if (!k) return NULL;
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_INCREF(b->words[i]);
    PyTuple_SetItem(k, i, b->words[i]);
  }
  return k;
}

/* Whether the words are the last key's (the same objects, or equal ones). */
static int same_as_last(Launcher *self, Bound *b) {
  if (!self->last_words) return 0;
  for (Py_ssize_t i = 0, n = 2 * self->n + 3; i < n; ++i) {
    PyObject *x = b->words[i], *y = self->last_words[i];
    if (x == y) continue;
    if (Py_TYPE(x) != Py_TYPE(y)) return 0;
    int eq = PyObject_RichCompareBool(x, y, Py_EQ);
    if (eq <= 0) {
      PyErr_Clear();
      return 0;
    }
  }
  return 1;
}

static void forget_last(Launcher *self) {
  if (self->last_words)
    for (Py_ssize_t i = 0, n = 2 * self->n + 3; i < n; ++i) Py_DECREF(self->last_words[i]);
  PyMem_Free(self->last_words);
  self->last_words = NULL;
  Py_CLEAR(self->last_entry);
}

static void remember_last(Launcher *self, Bound *b, PyObject *entry) {
  forget_last(self);
  Py_ssize_t n = 2 * self->n + 3;
  self->last_words = (PyObject **)PyMem_Malloc((size_t)n * sizeof(PyObject *));
  if (!self->last_words) return; /* only a missed shortcut */
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_INCREF(b->words[i]);
    self->last_words[i] = b->words[i];
  }
  Py_INCREF(entry);
  self->last_entry = entry;
}

/* The cache entry (borrowed) for the words, NULL with no error when absent. */
static PyObject *find_entry(Launcher *self, Bound *b) {
  if (same_as_last(self, b)) return self->last_entry;
  PyObject *key = key_tuple(self, b);
  if (!key) return NULL;
  PyObject *entry = PyDict_GetItemWithError(self->cache, key);
  Py_DECREF(key);
  if (entry) remember_last(self, b, entry);
  return entry;
}

/* The tessera stream handle for torch's current stream on the launch's
 * device (NULL: the default stream), or NOT_HANDLED. */
static int current_stream(Bound *b, void **stream) {
  *stream = NULL;
  if (!b->device) return HANDLED;
  PyObject *entry = PyDict_GetItemWithError(cfg.streams, b->device);
  if (!entry) return PyErr_Occurred() ? FAILED : NOT_HANDLED;
  if (entry == Py_None) return HANDLED; /* the host, or no torch stream to follow */
  PyObject *native = call_one(PyTuple_GetItem(entry, 0), PyTuple_GetItem(entry, 1));
  if (!native) return FAILED;
  PyObject *handle = PyDict_GetItemWithError(PyTuple_GetItem(entry, 2), native);
  Py_DECREF(native);
  if (!handle) return PyErr_Occurred() ? FAILED : NOT_HANDLED;
  *stream = PyLong_AsVoidPtr(handle);
  return PyErr_Occurred() ? FAILED : HANDLED;
}

static int grid_dims(PyObject *grid, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  if (PyLong_CheckExact(grid)) {
    long long g = PyLong_AsLongLong(grid);
    if (g < 0 || g >= (1LL << 31)) {
      PyErr_Clear();
      return 0;
    }
    out[0] = (uint32_t)g;
    return 1;
  }
  if (!PyTuple_CheckExact(grid)) return 0;
  Py_ssize_t n = PyTuple_Size(grid);
  if (n < 1 || n > 3) return 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *d = PyTuple_GetItem(grid, i);
    if (!PyLong_CheckExact(d)) return 0;
    long long g = PyLong_AsLongLong(d);
    if (g < 0 || g >= (1LL << 31) || (i > 0 && g > 65535)) {
      PyErr_Clear();
      return 0;
    }
    out[i] = (uint32_t)g;
  }
  return 1;
}

static PyObject *meta_dict(Launcher *self, Bound *b) {
  PyObject *meta = PyDict_New();
  if (!meta) return NULL;
  for (Py_ssize_t i = 0; i < self->n; ++i) {
    if (PyDict_SetItem(meta, PyTuple_GetItem(self->names, i), b->values[i]) < 0) {
      Py_DECREF(meta);
      return NULL;
    }
  }
  return meta;
}

/* The grid as 3 dimensions: a tuple or int as is; a callable gets the meta
 * dict; anything else goes through normalize_grid (which raises Python's
 * errors for bad grids). */
static int resolve_grid(Launcher *self, Bound *b, PyObject *grid, uint32_t out[3]) {
  if (grid_dims(grid, out)) return HANDLED;
  PyObject *meta = meta_dict(self, b);
  if (!meta) return FAILED;
  PyObject *result = NULL;
  if (PyCallable_Check(grid)) {
    result = PyObject_CallFunctionObjArgs(grid, meta, NULL);
    if (!result) {
      Py_DECREF(meta);
      return FAILED;
    }
    if (grid_dims(result, out)) {
      Py_DECREF(meta);
      Py_DECREF(result);
      return HANDLED;
    }
  } else {
    result = grid;
    Py_INCREF(result);
  }
  PyObject *normal = PyObject_CallFunctionObjArgs(cfg.normalize, result, meta, NULL);
  Py_DECREF(result);
  Py_DECREF(meta);
  if (!normal) return FAILED;
  int ok = grid_dims(normal, out);
  Py_DECREF(normal);
  if (!ok) {
    PyErr_SetString(PyExc_ValueError, "normalize_grid returned something other than 3 dimensions");
    return FAILED;
  }
  return HANDLED;
}

/* Whether TESSERA_DEBUG asks for the checked mode (the Python path's), read
 * as _checked.py reads it: os.environ, through its dict of encoded names
 * and values (a dict lookup; getenv scans the whole environment). */
static int checked_by_environment(void) {
  if (!cfg.environ) {
    const char *debug = getenv("TESSERA_DEBUG");
    return debug && *debug && strcmp(debug, "0") != 0;
  }
  PyObject *v = PyDict_GetItemWithError(cfg.environ, cfg.debug_variable);
  if (!v) return PyErr_Occurred() ? -1 : 0;
  if (!PyBytes_Check(v)) return 1; /* not os.environ's own kind: let Python read it */
  Py_ssize_t n = PyBytes_Size(v);
  return n > 1 || (n == 1 && PyBytes_AsString(v)[0] != '0');
}

static PyObject *launch_bound(Launcher *self, Bound *b, const Args *a, PyObject *grid_arg, const Options *given);

/* The kernel launched (a new reference), None when the Python path must
 * run this launch, NULL on an error. given: the launch options, or NULL
 * when they are among the keywords (kernel[grid]'s call). */
static PyObject *launch(Launcher *self, const Args *a, PyObject *grid_arg, const Options *given) {
  if (!cfg.launch) Py_RETURN_NONE;
  int checked = checked_by_environment();
  if (checked) return checked < 0 ? NULL : (Py_INCREF(Py_None), Py_None);
  Bound b;
  b.n_owned = 0;
  PyObject *r = launch_bound(self, &b, a, grid_arg, given);
  release_words(&b);
  return r;
}

static PyObject *launch_bound(Launcher *self, Bound *b, const Args *a, PyObject *grid_arg, const Options *given) {
  Options opt = given ? *given : (Options){Py_None, Py_None, 0};
  int st = bind_arguments(self, a, b, given ? NULL : &opt);
  if (st == HANDLED) st = globals_unchanged(self);
  if (st == HANDLED) st = key_words(self, b, opt.num_warps, opt.num_stages);
  if (st == FAILED) return NULL;
  if (st == NOT_HANDLED) Py_RETURN_NONE;
  PyObject *entry = find_entry(self, b);
  if (!entry) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
  }
  Py_INCREF(entry); /* the grid callable may run arbitrary code, even clear() */
  PyObject *kernel = PyTuple_GetItem(entry, 0);
  void *handle = PyLong_AsVoidPtr(PyTuple_GetItem(entry, 1));
  void *stream = NULL;
  st = current_stream(b, &stream);
  if (st != HANDLED) {
    Py_DECREF(entry);
    if (st == FAILED) return NULL;
    Py_RETURN_NONE;
  }
  uint32_t grid[3];
  if (resolve_grid(self, b, grid_arg, grid) != HANDLED) {
    Py_DECREF(entry);
    return NULL;
  }
  int status;
  /* As ctypes does: a host launch runs the kernel before it returns, and
   * other Python threads go on meanwhile. */
  Py_BEGIN_ALLOW_THREADS
  status = cfg.launch(handle, grid, b->runtime ? b->ptrs : NULL, stream);
  Py_END_ALLOW_THREADS
  if (status != 0) {
    if (!self->on_error) {
      Py_DECREF(entry);
      PyErr_Format(PyExc_RuntimeError, "kernel launch failed (status %d) after its JITFunction was collected", status);
      return NULL;
    }
    PyObject *r = PyObject_CallFunction(self->on_error, "Oi", kernel, status);
    Py_DECREF(entry);
    Py_XDECREF(r);
    if (r) PyErr_SetString(PyExc_RuntimeError, "on_error returned instead of raising");
    return NULL;
  }
  self->launches++;
  Py_INCREF(kernel);
  Py_DECREF(entry);
  return kernel;
}

/* launch(args, kwargs, grid, num_warps, num_stages) -> the kernel, or None
 * when the Python path must run this launch. */
static PyObject *Launcher_launch(Launcher *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 5 || !PyTuple_Check(argv[0]) || (argv[1] != Py_None && !PyDict_Check(argv[1]))) {
    PyErr_SetString(PyExc_TypeError, "launch(args, kwargs, grid, num_warps, num_stages)");
    return NULL;
  }
  Args a = tuple_args(argv[0], argv[1] == Py_None ? NULL : argv[1]);
  Options opt = {argv[3], argv[4], 0};
  return launch(self, &a, argv[2], &opt);
}

/* kernel[grid] while the fast lane has kernels: calling it launches (the
 * launch options num_warps, num_stages and debug as keywords, as
 * JITFunction.run takes them), or calls `kernel.run(*args, grid=grid,
 * **kwargs)` when the Python path must. The kernel, not its bound `run`:
 * a bound method per launch is an allocation the garbage collector counts. */
typedef struct {
  PyObject_HEAD
  Launcher *launcher;
  PyObject *grid;
  PyObject *kernel;
  VectorcallFn vectorcall;
} GridLaunch;

static PyObject *GridLaunch_fallback(GridLaunch *self, PyObject *args, PyObject *kwargs) {
  PyObject *all = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
  if (!all) return NULL;
  /* A grid= keyword wins, as with functools.partial(run, grid=grid). */
  int given = PyDict_Contains(all, s_grid);
  if (given < 0 || (!given && PyDict_SetItem(all, s_grid, self->grid) < 0)) {
    Py_DECREF(all);
    return NULL;
  }
  PyObject *run = PyObject_GetAttr(self->kernel, s_run);
  PyObject *r = run ? PyObject_Call(run, args, all) : NULL;
  Py_XDECREF(run);
  Py_DECREF(all);
  return r;
}

static PyObject *GridLaunch_call(GridLaunch *self, PyObject *args, PyObject *kwargs) {
  Args a = tuple_args(args, kwargs);
  PyObject *r = launch(self->launcher, &a, self->grid, NULL);
  if (r != Py_None) return r;
  Py_DECREF(r);
  return GridLaunch_fallback(self, args, kwargs);
}

/* The call without a tuple and a dict per launch (PEP 590); the fallback
 * makes them. */
static PyObject *GridLaunch_vectorcall(PyObject *callable, PyObject *const *argv, size_t nargsf, PyObject *kwnames) {
  GridLaunch *self = (GridLaunch *)callable;
  Args a = {NULL, argv, (Py_ssize_t)(nargsf & ~VECTORCALL_ARGUMENTS_OFFSET), NULL,
            kwnames && PyTuple_Size(kwnames) ? kwnames : NULL};
  PyObject *r = launch(self->launcher, &a, self->grid, NULL);
  if (r != Py_None) return r;
  Py_DECREF(r);
  PyObject *args = PyTuple_New(a.npos);
  PyObject *kwargs = a.kwnames ? PyDict_New() : NULL;
  int failed = !args || (a.kwnames && !kwargs);
  for (Py_ssize_t i = 0; !failed && i < a.npos; ++i) {
    Py_INCREF(argv[i]);
    PyTuple_SetItem(args, i, argv[i]);
  }
  for (Py_ssize_t i = 0, n = a.kwnames ? PyTuple_Size(a.kwnames) : 0; !failed && i < n; ++i)
    failed = PyDict_SetItem(kwargs, PyTuple_GetItem(a.kwnames, i), argv[a.npos + i]) < 0;
  r = failed ? NULL : GridLaunch_fallback(self, args, kwargs);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  return r;
}

/* A GridLaunch and its Launcher hold each other (the Launcher keeps the
 * last one): the collector sees through both. */
static int GridLaunch_traverse(GridLaunch *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->launcher);
  Py_VISIT(self->grid);
  Py_VISIT(self->kernel);
  return 0;
}

static int GridLaunch_clear(GridLaunch *self) {
  Py_CLEAR(self->launcher);
  Py_CLEAR(self->grid);
  Py_CLEAR(self->kernel);
  return 0;
}

/* The memory of a heap type's instance, its references released; the
 * instance holds one on its type. */
static void free_instance(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  freefunc free_fn = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free_fn(self);
  Py_DECREF(type);
}

static void GridLaunch_dealloc(GridLaunch *self) {
  PyObject_GC_UnTrack(self);
  GridLaunch_clear(self);
  free_instance((PyObject *)self);
}

static PyMemberDef grid_launch_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(GridLaunch, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot grid_launch_slots[] = {
    {Py_tp_call, (void *)GridLaunch_call},
    {Py_tp_traverse, (void *)GridLaunch_traverse},
    {Py_tp_clear, (void *)GridLaunch_clear},
    {Py_tp_members, grid_launch_members},
    {Py_tp_dealloc, (void *)GridLaunch_dealloc},
    {Py_tp_doc, (void *)"kernel[grid] on the launch fast lane"},
    {0, NULL},
};

static PyType_Spec grid_launch_spec = {"_tessera_launch.GridLaunch", sizeof(GridLaunch), 0,
                                       Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | HAVE_VECTORCALL, grid_launch_slots};
static PyObject *grid_launch_type;

static PyObject *new_grid_launch(Launcher *launcher, PyObject *grid, PyObject *kernel) {
  allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)grid_launch_type, Py_tp_alloc);
  GridLaunch *g = (GridLaunch *)alloc((PyTypeObject *)grid_launch_type, 0);
  if (!g) return NULL;
  Py_INCREF(launcher);
  g->launcher = launcher;
  Py_INCREF(grid);
  g->grid = grid;
  Py_INCREF(kernel);
  g->kernel = kernel;
  g->vectorcall = GridLaunch_vectorcall;
  return (PyObject *)g;
}

/* Whether two grids launch alike: the same object, or tuples of the same ints. */
static int same_grid(PyObject *a, PyObject *b) {
  if (a == b) return 1;
  if (!PyTuple_CheckExact(a) || !PyTuple_CheckExact(b)) return 0;
  Py_ssize_t n = PyTuple_Size(a);
  if (n != PyTuple_Size(b)) return 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *x = PyTuple_GetItem(a, i), *y = PyTuple_GetItem(b, i);
    if (x == y) continue;
    if (!PyLong_CheckExact(x) || !PyLong_CheckExact(y)) return 0;
    int eq = PyObject_RichCompareBool(x, y, Py_EQ);
    if (eq <= 0) {
      PyErr_Clear();
      return 0;
    }
  }
  return 1;
}

/* kernel[grid]'s GridLaunch: the last one again for the same grid (one
 * allocation fewer per launch), else a new one, kept for next time. */
static PyObject *grid_launch_for(Launcher *launcher, PyObject *grid, PyObject *kernel) {
  GridLaunch *last = (GridLaunch *)launcher->last_grid_launch;
  if (last && last->kernel == kernel && same_grid(last->grid, grid)) {
    Py_INCREF(last);
    return (PyObject *)last;
  }
  PyObject *g = new_grid_launch(launcher, grid, kernel);
  if (g) {
    Py_INCREF(g);
    replace(&launcher->last_grid_launch, g);
  }
  return g;
}

/* at(grid, kernel) -> a callable for kernel[grid] (see GridLaunch). */
static PyObject *Launcher_at(Launcher *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 2) {
    PyErr_SetString(PyExc_TypeError, "at(grid, kernel)");
    return NULL;
  }
  return grid_launch_for(self, argv[0], argv[1]);
}

/* remember(args, kwargs, num_warps, num_stages, kernel, handle, watch) ->
 * whether the launch can take the fast lane next time; called by the Python
 * path after it launched `kernel` for these arguments. */
static PyObject *Launcher_remember(Launcher *self, PyObject *const *argv, Py_ssize_t argc) {
  if (argc != 7 || !PyTuple_Check(argv[0]) || (argv[1] != Py_None && !PyDict_Check(argv[1])) ||
      !PyTuple_Check(argv[6])) {
    PyErr_SetString(PyExc_TypeError, "remember(args, kwargs, num_warps, num_stages, kernel, handle, watch)");
    return NULL;
  }
  Bound b;
  b.n_owned = 0;
  Args a = tuple_args(argv[0], argv[1] == Py_None ? NULL : argv[1]);
  int st = bind_arguments(self, &a, &b, NULL);
  if (st == HANDLED) st = key_words(self, &b, argv[2], argv[3]);
  PyObject *key = st == HANDLED ? key_tuple(self, &b) : NULL;
  release_words(&b); /* the key holds its own references */
  if (st == FAILED || (st == HANDLED && !key)) return NULL;
  if (st == NOT_HANDLED) Py_RETURN_FALSE;
  PyObject *entry = PyTuple_Pack(2, argv[4], argv[5]);
  forget_last(self);
  int failed = !entry || PyDict_SetItem(self->cache, key, entry) < 0;
  Py_XDECREF(entry);
  Py_DECREF(key);
  if (failed) return NULL;
  Py_INCREF(argv[6]);
  replace(&self->watch, argv[6]);
  Py_RETURN_TRUE;
}

static PyObject *Launcher_launches(Launcher *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromSsize_t(self->launches);
}

static PyObject *Launcher_clear(Launcher *self, PyObject *unused) {
  (void)unused;
  PyDict_Clear(self->cache);
  forget_last(self);
  Py_RETURN_NONE;
}

/* Launcher(names, defaults, missing, flags: bytes, on_error) */
static PyObject *Launcher_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *names, *defaults, *missing, *flags, *on_error;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Launcher takes positional arguments");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "O!O!OSO", &PyTuple_Type, &names, &PyTuple_Type, &defaults, &missing, &flags,
                        &on_error))
    return NULL;
  Py_ssize_t n = PyTuple_Size(names);
  if (n > MAX_PARAMS || PyTuple_Size(defaults) != n || PyBytes_Size(flags) != n) {
    PyErr_SetString(PyExc_ValueError, "Launcher: names, defaults and flags must agree (at most 256 parameters)");
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  Launcher *self = (Launcher *)alloc(type, 0);
  if (!self) return NULL;
  self->n = n;
  self->flags = (unsigned char *)PyMem_Malloc(n ? (size_t)n : 1);
  self->index = PyDict_New();
  self->cache = PyDict_New();
  self->watch = PyTuple_New(0);
  if (!self->flags || !self->index || !self->cache || !self->watch) {
    Py_DECREF(self);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  memcpy(self->flags, PyBytes_AsString(flags), (size_t)n);
  Py_INCREF(names), self->names = names;
  Py_INCREF(defaults), self->defaults = defaults;
  Py_INCREF(missing), self->missing = missing;
  Py_INCREF(on_error), self->on_error = on_error;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *at = PyLong_FromSsize_t(i);
    if (!at || PyDict_SetItem(self->index, PyTuple_GetItem(names, i), at) < 0) {
      Py_XDECREF(at);
      Py_DECREF(self);
      return NULL;
    }
    Py_DECREF(at);
  }
  return (PyObject *)self;
}

/* The garbage collector's view: a JITFunction holds its Launcher, whose
 * on_error is the JITFunction's bound method, a cycle that only a
 * collector seeing through the Launcher can free. */
static int Launcher_traverse(Launcher *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->names);
  Py_VISIT(self->defaults);
  Py_VISIT(self->missing);
  Py_VISIT(self->index);
  Py_VISIT(self->cache);
  Py_VISIT(self->watch);
  Py_VISIT(self->on_error);
  Py_VISIT(self->last_entry);
  Py_VISIT(self->last_grid_launch);
  if (self->last_words)
    for (Py_ssize_t i = 0, n = 2 * self->n + 3; i < n; ++i) Py_VISIT(self->last_words[i]);
  return 0;
}

/* Breaks cycles; the Launcher stays usable (it only launches no more: its
 * kernels and on_error are gone). */
static int Launcher_clear_refs(Launcher *self) {
  forget_last(self);
  Py_CLEAR(self->last_grid_launch);
  if (self->cache) PyDict_Clear(self->cache);
  Py_CLEAR(self->on_error);
  return 0;
}

static void Launcher_dealloc(Launcher *self) {
  PyObject_GC_UnTrack(self);
  Py_XDECREF(self->names);
  Py_XDECREF(self->defaults);
  Py_XDECREF(self->missing);
  Py_XDECREF(self->index);
  Py_XDECREF(self->cache);
  Py_XDECREF(self->watch);
  Py_XDECREF(self->on_error);
  Py_XDECREF(self->last_grid_launch);
  forget_last(self);
  PyMem_Free(self->flags);
  free_instance((PyObject *)self);
}

static PyMethodDef launcher_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))Launcher_launch, METH_FASTCALL,
     "launch(args, kwargs, grid, num_warps, num_stages): the kernel launched, or None (the Python path's turn)"},
    {"remember", (PyCFunction)(void (*)(void))Launcher_remember, METH_FASTCALL,
     "remember(args, kwargs, num_warps, num_stages, kernel, handle, watch): keys `kernel` for these arguments"},
    {"at", (PyCFunction)(void (*)(void))Launcher_at, METH_FASTCALL,
     "at(grid, kernel): a callable launching kernel[grid](...), else calling kernel.run(*args, grid=grid, **kwargs)"},
    {"launches", (PyCFunction)Launcher_launches, METH_NOARGS, "launches made by the fast lane"},
    {"clear", (PyCFunction)Launcher_clear, METH_NOARGS, "forgets every remembered kernel"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot launcher_slots[] = {
    {Py_tp_new, (void *)Launcher_new},
    {Py_tp_dealloc, (void *)Launcher_dealloc},
    {Py_tp_traverse, (void *)Launcher_traverse},
    {Py_tp_clear, (void *)Launcher_clear_refs},
    {Py_tp_methods, launcher_methods},
    {Py_tp_doc, (void *)"A JITFunction's launch fast lane (see capi/python/launcher.c)."},
    {0, NULL},
};

static PyType_Spec launcher_spec = {"_tessera_launch.Launcher", sizeof(Launcher), 0,
                                    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, launcher_slots};

/* JITFunction.__getitem__ in C (_launch.py installs it): kernel[grid]
 * with no Python frame. Its type is a method descriptor, so the
 * subscript slot calls it unbound, as subscript(kernel, grid), through
 * vectorcall. The fast lane's GridLaunch when the kernel has a Launcher,
 * no checked mode and jit.launch_hook is None (jit.py's own test), else
 * `fallback(kernel, grid)` (KernelInterface.__getitem__). */
typedef struct {
  PyObject_HEAD
  PyObject *fallback;
  PyObject *globals; /* jit.py's module dict */
  PyObject *bind;    /* functools.partial: what __get__ binds with */
  VectorcallFn vectorcall;
} Subscript;

static PyObject *launcher_type;
static PyObject *s_fast, *s_launch_hook;

static PyObject *subscript(Subscript *self, PyObject *kernel, PyObject *grid) {
  PyObject *fast = PyObject_GetAttr(kernel, s_fast);
  if (!fast) return NULL;
  int lane = (PyObject *)Py_TYPE(fast) == launcher_type;
  if (lane) {
    PyObject *debug = PyObject_GetAttr(kernel, s_debug);
    int checked = debug ? PyObject_IsTrue(debug) : -1;
    Py_XDECREF(debug);
    PyObject *hook = checked < 0 ? NULL : PyDict_GetItemWithError(self->globals, s_launch_hook);
    if (checked < 0 || (!hook && PyErr_Occurred())) {
      Py_DECREF(fast);
      return NULL;
    }
    lane = !checked && hook == Py_None;
  }
  PyObject *r = lane ? grid_launch_for((Launcher *)fast, grid, kernel)
                     : PyObject_CallFunctionObjArgs(self->fallback, kernel, grid, NULL);
  Py_DECREF(fast);
  return r;
}

static PyObject *Subscript_vectorcall(PyObject *callable, PyObject *const *argv, size_t nargsf, PyObject *kwnames) {
  if ((nargsf & ~VECTORCALL_ARGUMENTS_OFFSET) != 2 || (kwnames && PyTuple_Size(kwnames))) {
    PyErr_SetString(PyExc_TypeError, "__getitem__(kernel, grid)");
    return NULL;
  }
  return subscript((Subscript *)callable, argv[0], argv[1]);
}

static PyObject *Subscript_call(Subscript *self, PyObject *args, PyObject *kwargs) {
  if (PyTuple_Size(args) != 2 || (kwargs && PyDict_Size(kwargs))) {
    PyErr_SetString(PyExc_TypeError, "__getitem__(kernel, grid)");
    return NULL;
  }
  return subscript(self, PyTuple_GetItem(args, 0), PyTuple_GetItem(args, 1));
}

/* kernel.__getitem__: bound as functools.partial(subscript, kernel). */
static PyObject *Subscript_get(PyObject *self, PyObject *obj, PyObject *type) {
  (void)type;
  if (!obj || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  return PyObject_CallFunctionObjArgs(((Subscript *)self)->bind, self, obj, NULL);
}

/* Subscript(fallback, jit_globals, partial) */
static PyObject *Subscript_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  PyObject *fallback, *globals, *bind;
  if ((kwargs && PyDict_Size(kwargs)) || !PyArg_ParseTuple(args, "OO!O", &fallback, &PyDict_Type, &globals, &bind)) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Subscript(fallback, jit_globals, partial)");
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  Subscript *self = (Subscript *)alloc(type, 0);
  if (!self) return NULL;
  Py_INCREF(fallback), self->fallback = fallback;
  Py_INCREF(globals), self->globals = globals;
  Py_INCREF(bind), self->bind = bind;
  self->vectorcall = Subscript_vectorcall;
  return (PyObject *)self;
}

static int Subscript_traverse(Subscript *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->fallback);
  Py_VISIT(self->globals);
  Py_VISIT(self->bind);
  return 0;
}

static int Subscript_clear(Subscript *self) {
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->globals);
  Py_CLEAR(self->bind);
  return 0;
}

static void Subscript_dealloc(Subscript *self) {
  PyObject_GC_UnTrack(self);
  Subscript_clear(self);
  free_instance((PyObject *)self);
}

static PyMemberDef subscript_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Subscript, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot subscript_slots[] = {
    {Py_tp_new, (void *)Subscript_new},
    {Py_tp_call, (void *)Subscript_call},
    {Py_tp_descr_get, (void *)Subscript_get},
    {Py_tp_members, subscript_members},
    {Py_tp_traverse, (void *)Subscript_traverse},
    {Py_tp_clear, (void *)Subscript_clear},
    {Py_tp_dealloc, (void *)Subscript_dealloc},
    {Py_tp_doc, (void *)"JITFunction.__getitem__ on the launch fast lane"},
    {0, NULL},
};

/* Py_TPFLAGS_METHOD_DESCRIPTOR (CPython >= 3.8; a stable bit): called unbound. */
#define METHOD_DESCRIPTOR (1UL << 17)

static PyType_Spec subscript_spec = {"_tessera_launch.Subscript", sizeof(Subscript), 0,
                                     Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | HAVE_VECTORCALL | METHOD_DESCRIPTOR,
                                     subscript_slots};

/* configure(launch_address, dtypes, devices, streams, tensor_types, ndarray_type, normalize, ignored,
 *           constexpr_types, descriptor_type, sizes) */
static PyObject *configure(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *address, *dtypes, *devices, *streams, *tensor_types, *ndarray_type, *normalize, *ignored, *constexpr_types;
  PyObject *descriptor_type, *sizes;
  if (!PyArg_ParseTuple(args, "OO!O!O!O!OOOO!OO!", &address, &PyDict_Type, &dtypes, &PyDict_Type, &devices,
                        &PyDict_Type, &streams, &PyTuple_Type, &tensor_types, &ndarray_type, &normalize, &ignored,
                        &PyTuple_Type, &constexpr_types, &descriptor_type, &PyDict_Type, &sizes))
    return NULL;
  void *fn = PyLong_AsVoidPtr(address);
  if (!fn) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "configure: null tessera_kernel_launch address");
    return NULL;
  }
  if (!PyAnySet_Check(ignored)) {
    PyErr_SetString(PyExc_TypeError, "configure: ignored options must be a set");
    return NULL;
  }
  cfg.launch = (LaunchFn)fn;
  PyObject **slots[] = {&cfg.dtypes, &cfg.devices, &cfg.streams, &cfg.tensor_types, &cfg.ndarray_type,
                        &cfg.normalize, &cfg.ignored, &cfg.constexpr_types, &cfg.descriptor_type, &cfg.sizes};
  PyObject *values[] = {dtypes, devices, streams, tensor_types, ndarray_type == Py_None ? NULL : ndarray_type,
                        normalize, ignored, constexpr_types, descriptor_type, sizes};
  for (size_t i = 0; i < sizeof(values) / sizeof(*values); ++i) {
    Py_XINCREF(values[i]);
    replace(slots[i], values[i]);
  }
  Py_RETURN_NONE;
}

/* set_tensor_types(tuple): torch may be imported after tessera. The
 * first type is torch.Tensor: its accessors are taken from it. */
static PyObject *set_tensor_types(PyObject *module, PyObject *types) {
  (void)module;
  if (!PyTuple_Check(types) || PyTuple_Size(types) < 1) {
    PyErr_SetString(PyExc_TypeError, "set_tensor_types takes a tuple of types, torch.Tensor first");
    return NULL;
  }
  PyObject *tensor = PyTuple_GetItem(types, 0);
  PyObject *dtype = PyObject_GetAttr(tensor, s_dtype);
  PyObject *data_ptr = PyObject_GetAttr(tensor, s_data_ptr);
  PyObject *get_device = PyObject_GetAttr(tensor, s_get_device);
  PyObject *is_cuda = PyObject_GetAttr(tensor, s_is_cuda);
  descrgetfunc get = dtype ? (descrgetfunc)PyType_GetSlot(Py_TYPE(dtype), Py_tp_descr_get) : NULL;
  descrgetfunc get_is_cuda = is_cuda ? (descrgetfunc)PyType_GetSlot(Py_TYPE(is_cuda), Py_tp_descr_get) : NULL;
  if (!dtype || !data_ptr || !get_device || !get || !get_is_cuda) {
    Py_XDECREF(dtype);
    Py_XDECREF(data_ptr);
    Py_XDECREF(get_device);
    Py_XDECREF(is_cuda);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "set_tensor_types: the first type has no dtype getter");
    return NULL;
  }
  replace(&torch_api.dtype, dtype);
  replace(&torch_api.data_ptr, data_ptr);
  replace(&torch_api.get_device, get_device);
  replace(&torch_api.is_cuda, is_cuda);
  torch_api.get_dtype = get;
  torch_api.get_is_cuda = get_is_cuda;
  Py_INCREF(types);
  replace(&cfg.tensor_types, types);
  Py_RETURN_NONE;
}

/* set_environment(os.environ._data, os.environ.encodekey("TESSERA_DEBUG")) */
static PyObject *set_environment(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *data, *name;
  if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &data, &name)) return NULL;
  Py_INCREF(data);
  replace(&cfg.environ, data);
  Py_INCREF(name);
  replace(&cfg.debug_variable, name);
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_environment", set_environment, METH_VARARGS,
     "set_environment(environ_data, encoded_name): read TESSERA_DEBUG from os.environ's dict"},
    {"configure", configure, METH_VARARGS,
     "configure(launch_address, dtypes, devices, streams, tensor_types, ndarray_type, normalize, ignored, "
     "constexpr_types, descriptor_type, sizes)"},
    {"set_tensor_types", set_tensor_types, METH_O, "set_tensor_types(tuple of exact tensor types)"},
    {NULL, NULL, 0, NULL},
};

static int intern_all(void) {
  struct {
    PyObject **slot;
    const char *text;
  } words[] = {
      {&s_data_ptr, "data_ptr"}, {&s_get_device, "get_device"}, {&s_is_cuda, "is_cuda"}, {&s_dtype, "dtype"}, {&s_device, "device"},
      {&s_array_interface, "__array_interface__"}, {&s_data, "data"}, {&s_size, "size"},
      {&s_cell_contents, "cell_contents"}, {&s_base, "base"}, {&s_shape, "shape"}, {&s_strides, "strides"},
      {&s_block_shape, "block_shape"}, {&s_i1, "i1"}, {&s_i32, "i32"}, {&s_i64, "i64"},
      {&s_u64, "u64"}, {&s_fp32, "fp32"}, {&cfg.cpu, "cpu"}, {&s_num_warps, "num_warps"},
      {&s_num_stages, "num_stages"}, {&s_debug, "debug"}, {&s_grid, "grid"}, {&s_run, "run"},
      {&s_fast, "_fast"}, {&s_launch_hook, "launch_hook"},
  };
  for (size_t i = 0; i < sizeof(words) / sizeof(*words); ++i) {
    if (*words[i].slot) continue;
    *words[i].slot = PyUnicode_InternFromString(words[i].text);
    if (!*words[i].slot) return -1;
  }
  return 0;
}

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_tessera_launch",
                                        "The JIT's launch fast lane (capi/python/launcher.c).", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tessera_launch(void) {
  if (intern_all() < 0) return NULL;
  vectorcall_entry = (VectorcallFn)dlsym(RTLD_DEFAULT, "PyObject_Vectorcall");
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  PyObject *type = PyType_FromSpec(&launcher_spec);
  if (!type || PyModule_AddObject(m, "Launcher", type) < 0) {
    Py_XDECREF(type);
    Py_DECREF(m);
    return NULL;
  }
  launcher_type = type; /* the module holds it */
  PyObject *sub = PyType_FromSpec(&subscript_spec);
  if (!sub || PyModule_AddObject(m, "Subscript", sub) < 0) {
    Py_XDECREF(sub);
    Py_DECREF(m);
    return NULL;
  }
  if (!grid_launch_type) grid_launch_type = PyType_FromSpec(&grid_launch_spec);
  if (!grid_launch_type) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
