"""The terminal table and the per-workload plots.

Layer 4, api (python/tessera/__init__.py lists the layers)."""
import os


def _fmt(v, unit):
    if v is None:
        return "-"
    return f"{v:.3f}" if unit == "TFLOP/s" else f"{v:.1f}"


def table(rows):
    head = ["target", "workload", "shape", "dtype", "ms", "tessera", "unit", "ceiling", "of ceiling", "peers", "max rel err"]
    lines = []
    for r in rows:
        if "skip" in r:
            lines.append([r["target"], r["workload"], r.get("shape", ""), r.get("dtype", ""), "skip: " + r["skip"],
                          "", "", "", "", "", ""])
            continue
        unit = r["unit"]
        peers = ", ".join(f"{k} {_fmt(v, unit)}" for k, v in r["peers"].items())
        frac = f"{100 * r['of_ceiling']:.0f}% of {r['ceiling_name']}" if r.get("of_ceiling") else "-"
        err = f"{r['max_rel_err']:.1e}" + (" WRONG" if r["wrong"] else "")
        lines.append([r["target"], r["workload"], r["shape"], r["dtype"], f"{r['ms']:.3f}", _fmt(r["value"], unit), unit,
                      _fmt(r.get("ceiling"), unit), frac, peers, err])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *lines)]
    out = ["  ".join(str(x).ljust(w) for x, w in zip(head, widths))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(str(x).ljust(w) for x, w in zip(line, widths)) for line in lines]
    return "\n".join(out)


def plot(rows, directory):
    """One bar chart per workload: Tessera, its peers and the ceiling."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plots skipped: matplotlib is not installed")
        return []
    os.makedirs(directory, exist_ok=True)
    paths = []
    for workload in sorted({r["workload"] for r in rows if "skip" not in r}):
        sel = [r for r in rows if r["workload"] == workload and "skip" not in r]
        labels = [f"{r['target']}\n{r['shape']} {r['dtype']}" for r in sel]
        # One bar series per name, a value (or 0) for every row: peers that
        # did not run a row (no int8 Triton, a failed peer) leave a gap.
        series = {}
        for i, r in enumerate(sel):
            for name, v in [("tessera", r["value"])] + list(r["peers"].items()) + [(r["ceiling_name"], r.get("ceiling"))]:
                series.setdefault(name, [0.0] * len(sel))[i] = v or 0.0
        fig, ax = plt.subplots(figsize=(max(4, 2 + 1.8 * len(labels)), 3.5))
        width = 0.8 / len(series)
        for i, (name, values) in enumerate(series.items()):
            ax.bar([x + i * width for x in range(len(labels))], values, width, label=name)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(labels))], labels)
        ax.set_ylabel(sel[0]["unit"])
        ax.set_title(f"tessera bench: {workload}")
        ax.legend()
        fig.tight_layout()
        path = os.path.join(directory, f"{workload}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
