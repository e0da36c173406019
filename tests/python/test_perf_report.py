"""tessera.testing's Triton benchmarking helpers: perf_report / Benchmark
(the tutorials' benchmark sections) and do_bench_cudagraph."""
import numpy as np

import tessera
import tessera.language as tl
from tessera import testing


@tessera.jit
def _add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


def test_perf_report_measures_every_x_and_line(cpu_target, tmp_path, capsys):
    calls = []

    @testing.perf_report(testing.Benchmark(x_names=["size"], x_vals=[1024, 4096], line_arg="provider",
                                           line_vals=["tessera", "numpy"], line_names=["Tessera", "NumPy"],
                                           styles=[("blue", "-"), ("green", "--")], ylabel="GB/s",
                                           plot_name="vector-add", args={"scale": 2}))
    def bench(size, provider, scale):
        calls.append((size, provider, scale))
        x, y = np.ones(size, np.float32), np.ones(size, np.float32)
        out = np.empty_like(x)
        if provider == "tessera":
            fn = lambda: _add[(tessera.cdiv(size, 1024),)](x, y, out, size, BLOCK=1024)
        else:
            fn = lambda: np.add(x, y, out=out)
        ms, lo, hi = testing.do_bench(fn, warmup=1, rep=2, quantiles=[0.5, 0.2, 0.8])
        gbps = lambda t: 3 * x.nbytes / t * 1e-6
        return gbps(ms), gbps(hi), gbps(lo)

    df = bench.run(print_data=True, save_path=str(tmp_path), return_df=True)
    assert calls == [(1024, "tessera", 2), (1024, "numpy", 2), (4096, "tessera", 2), (4096, "numpy", 2)]
    printed = capsys.readouterr().out
    assert printed.startswith("vector-add:") and "Tessera" in printed and "NumPy" in printed and "4096" in printed
    rows = df.to_dict("records") if hasattr(df, "to_dict") else df
    assert [r["size"] for r in rows] == [1024, 4096] and all(r["Tessera"] > 0 and r["NumPy"] > 0 for r in rows)
    assert (tmp_path / "vector-add.csv").read_text().splitlines()[0] == "size,Tessera,NumPy"
    assert (tmp_path / "vector-add.png").stat().st_size > 0


def test_benchmark_rejects_mismatched_lines():
    import pytest
    with pytest.raises(ValueError, match="2 line_vals for 1 line_names"):
        testing.Benchmark(x_names=["n"], x_vals=[1], line_arg="p", line_vals=["a", "b"], line_names=["A"],
                          plot_name="bad", args={})


def test_do_bench_cudagraph_times_a_callable():
    t = testing.do_bench_cudagraph(lambda: sum(range(100)), rep=2)
    assert t > 0
