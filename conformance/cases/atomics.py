"""Atomics under contention: many programs updating few addresses with
add (fp32, int32, ...), max, min, and, or, xor, xchg, and cas used as a
counter handing out unique tickets."""

import numpy as np

import tessera
import tessera.language as tl
from tessera.conformance import Case, Out, full_range, rand

PROGRAMS, BLOCK, SLOTS = 64, 64, 8


@tessera.jit
def rmw_kernel(x_ptr, acc_ptr, old_ptr, OP: tl.constexpr, SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    # Every program sends BLOCK values to only SLOTS addresses.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    p = acc_ptr + offs % SLOTS
    if OP == "add":
        old = tl.atomic_add(p, x)
    elif OP == "add_masked":
        old = tl.atomic_add(p, x, mask=offs % 3 != 0)
    elif OP == "max":
        old = tl.atomic_max(p, x)
    elif OP == "min":
        old = tl.atomic_min(p, x)
    elif OP == "and":
        old = tl.atomic_and(p, x)
    elif OP == "or":
        old = tl.atomic_or(p, x)
    elif OP == "xor":
        old = tl.atomic_xor(p, x, sem="relaxed")
    else:
        tl.static_assert(OP == "xchg", "unknown op")
        old = tl.atomic_xchg(p, x)
    tl.store(old_ptr + offs, old)


def rmw_inputs(op):
    def inputs(rng, dt):
        n = PROGRAMS * BLOCK
        if op in ("and", "or", "xor"):
            x = full_range(rng, n, dt)
            acc = full_range(rng, SLOTS, dt)
        else:
            x = rand(rng, n, dt, *((-1000, 1000) if dt in ("i32", "i64") else (None, None)))
            if dt == "fp32" and op.startswith("add"):
                x = (rand(rng, n, "i32", -64, 64) / 16.0).astype(np.float32)   # exact sums in any order
            acc = rand(rng, SLOTS, dt)
        return dict(x_ptr=x, acc_ptr=acc, old_ptr=Out(n, dt), OP=op, SLOTS=SLOTS, BLOCK=BLOCK)
    return inputs


def rmw_ref(op):
    ufunc = {"add": np.add, "add_masked": np.add, "max": np.maximum, "min": np.minimum, "and": np.bitwise_and,
             "or": np.bitwise_or, "xor": np.bitwise_xor}

    def ref(a):
        x, acc = a["x_ptr"], a["acc_ptr"]
        slots = np.arange(len(x)) % SLOTS
        if op == "xchg":
            # The final value is one of the exchanged ones; the initial one came back as an old value.
            vals = x.reshape(-1, SLOTS).T
            return {"acc_ptr": lambda fin: None if all(fin[s] in set(vals[s].tolist()) for s in range(SLOTS))
                    else "final values are not among the exchanged ones",
                    "old_ptr": lambda old: xchg_check(old, x, acc)}
        use = np.ones(len(x), bool) if op != "add_masked" else np.arange(len(x)) % 3 != 0
        expected = acc.copy()
        for s in range(SLOTS):
            sel = (slots == s) & use
            expected[s] = ufunc[op].reduce(np.concatenate([[acc[s]], x[sel]]).astype(acc.dtype))
        return {"acc_ptr": expected, "old_ptr": lambda old: old_check(op, old, x, acc, use, slots)}
    return ref


def old_check(op, old, x, acc, use, slots):
    """The old values must come from some serial order: for max/min each
    lies between the initial and the final value; for integer add with
    positive values, sorted old values chain (old + own x = next old)."""
    if op in ("max", "min"):
        for s in range(SLOTS):
            o = old[(slots == s)].astype(np.float64)
            lo, hi = (acc[s], max(acc[s], x[slots == s].max())) if op == "max" else \
                (min(acc[s], x[slots == s].min()), acc[s])
            if ((o < lo) | (o > hi)).any():
                return "slot %d: an old value outside [%r, %r]" % (s, lo, hi)
    if op == "add" and x.dtype.kind == "i":
        for s in range(SLOTS):
            sel = slots == s
            # Sorted by old value, each old + its own x is the next old value.
            order = np.argsort(old[sel].astype(np.int64), kind="stable")
            o, v = old[sel][order].astype(np.int64), x[sel][order].astype(np.int64)
            if not np.all(o[1:] == (o + v)[:-1]) and np.all(v > 0):
                return "slot %d: old values are not a serialization of the adds" % s
    return None


def xchg_check(old, x, acc):
    slots = np.arange(len(x)) % SLOTS
    for s in range(SLOTS):
        seen = set(old[slots == s].tolist())
        if acc[s] not in seen:
            return "slot %d: its initial value %r was never returned" % (s, acc[s])
    return None


for _op, _dts in [("add", ["fp32", "i32", "u32", "i64", "fp64"]), ("add_masked", ["fp32", "i32"]),
                  ("max", ["i32", "u32", "i64", "fp32"]), ("min", ["i32", "u64", "fp32"]),
                  ("and", ["i32", "u32", "i64"]), ("or", ["i32", "u64"]), ("xor", ["i32", "u32", "i64"]),
                  ("xchg", ["i32", "fp32", "i64"])]:
    Case("atomic." + _op, rmw_kernel, rmw_inputs(_op), rmw_ref(_op), dtypes=_dts, grid=(PROGRAMS,),
         tol=(1e-6, 1e-4))


def ticket_check(tickets, start):
    if sorted(tickets.tolist()) == list(range(start, start + len(tickets))):
        return None
    return "tickets are not unique and consecutive from %d: %r..." % (start, sorted(tickets.tolist())[:8])


@tessera.jit
def cas_counter_kernel(counter_ptr, tickets_ptr, TRIES: tl.constexpr):
    # A lock-free counter from compare-and-swap: read, try to swap in +1 and
    # retry (a bounded number of times, no spinning on another program) until
    # this program's swap wins; the value it replaced is its ticket.
    ticket = -1
    for _ in range(TRIES):
        if ticket < 0:
            seen = tl.atomic_add(counter_ptr, 0)
            if tl.atomic_cas(counter_ptr, seen, seen + 1) == seen:
                ticket = seen
    tl.store(tickets_ptr + tl.program_id(0), ticket)


Case("atomic.cas_counter", cas_counter_kernel,
     lambda rng, dt: dict(counter_ptr=np.full(1, int(rng.integers(1, 1000)), np.int32),
                          tickets_ptr=Out(256, "i32"), TRIES=100000),
     lambda a: {"counter_ptr": a["counter_ptr"] + 256,
                "tickets_ptr": lambda t: ticket_check(t, int(a["counter_ptr"][0]))},
     dtypes=["i32"], grid=(256,),
     skip_run_on={"interpreter": "25.6 million loop iterations (100,000 tries in each of 256 programs): minutes "
                                 "in the interpreter, which runs the programs one after another, so each wins "
                                 "its first try"})
