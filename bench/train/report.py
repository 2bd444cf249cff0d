"""The training benchmark's output: a line per row while it runs, a markdown table, and a
speed-versus-memory scatter plot."""

from __future__ import annotations

import math
import sys

from configs import BASELINE


def mib(x) -> str:
    if x is None:
        return "-"
    return f"{x / 2**20:.2f}" if x >= 2**16 or x == 0 else f"{x / 2**20:.4f}"


def _grad_cell(r) -> str:
    if r.get("grad_err") is None:
        return "not checked"
    return f"{r['grad_verdict']} ({r['grad_err']:.0e} / tol {r['grad_tol']:.0e})"


def _time_cell(r) -> str:
    """Median time (the one the ratios use) and its interquartile range."""
    return f"{r['time_ms']:.3f} ± {r['time_iqr_ms'] / 2:.3f}"


def _ratio_cell(r) -> str:
    if r.get("step_vs_default") is None:
        return "-"
    cell = f"{r['step_vs_default']:.2f}"
    ci = r.get("step_vs_default_ci")
    if ci and r["config"] != BASELINE:
        cell += f" [{ci[0]:.2f}-{ci[1]:.2f}]" + (" ~" if r.get("within_noise") else "")
    return cell


def row_line(r) -> str:
    if r["status"] != "ok":
        return f"{r['model']:13s} {r['config']:18s} {r['status']}"
    comp = "-" if r.get("compile_s") is None else f"{r['compile_s']:.1f}s"
    return (
        f"{r['model']:13s} {r['config']:18s} {r['time_kind']} {_time_cell(r)} ms "
        f"x{_ratio_cell(r)} ({r['steps']} steps)  saved act {mib(r['saved_act_bytes'])} MiB"
        f"  compile {comp}  grads {_grad_cell(r)}"
        + (f"  FALLBACK: {r['fallback_reasons'][0][:80]}" if r.get("fallback") else "")
    )


def prepared_line(r, first_s) -> str:
    """One configuration once compiled and checked, before the interleaved timing: what a run
    cut short by a timeout still reports (its saved bytes, peak and gradients)."""
    if r["status"] != "ok":
        return f"{r['model']:13s} {r['config']:18s} prepared: {r['status'].splitlines()[0][:160]}"
    peak = "" if r.get("peak_bytes") is None else f"  peak {mib(r['peak_bytes'])} MiB"
    first = "" if first_s is None else f"  first step {first_s:.1f}s"
    return (f"{r['model']:13s} {r['config']:18s} prepared: saved act {mib(r['saved_act_bytes'])} "
            f"MiB{peak}{first}  grads {_grad_cell(r)}")


def table(rows, meta) -> str:
    """Markdown table: one row per (model, config), ratios against torch's default partitioner.

    time: the median step time the ratios use (thread CPU time on a single-threaded CPU run,
    else wall) ± half its interquartile range; x default: the median of the per-round ratios
    to torch_default with its 95% interval, "~" when that interval contains 1."""
    gpu = meta["device"] == "cuda"
    kind = next((r["time_kind"] for r in rows if r.get("time_kind")), "wall")
    head = ["model", "config", f"{kind} ms (median ± IQR/2)", "x default [95%]", "steps",
            "saved act MiB", "x default", "saved total MiB"]
    if gpu:
        head += ["peak MiB", "x default", "max batch", "x default"]
    head += ["compile s", "grads (err / tol)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if r["status"] != "ok":
            cells = [r["model"], r["config"], r["status"].split(":", 1)[0]]
            lines.append("| " + " | ".join(cells + [""] * (len(head) - 3)) + " |")
            continue
        ratio = lambda k: "-" if r.get(k) is None else f"{r[k]:.2f}"  # noqa: E731
        cells = [r["model"], r["config"], _time_cell(r), _ratio_cell(r), str(r["steps"]),
                 mib(r["saved_act_bytes"]), ratio("saved_act_vs_default"), mib(r["saved_bytes"])]
        if gpu:
            batch = r.get("max_batch", "-")
            if r.get("max_batch_stopped_by") == "estimate":
                batch = f"{batch}*"
            cells += [mib(r.get("peak_bytes")), ratio("peak_vs_default"), str(batch),
                      ratio("max_batch_vs_default")]
        cells += ["-" if r.get("compile_s") is None else f"{r['compile_s']:.1f}",
                  _grad_cell(r) + (" FALLBACK" if r.get("fallback") else "")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


_STYLE = {
    "eager": ("tab:gray", "o"),
    "torch_default": ("tab:blue", "s"),
    "default_partition": ("tab:orange", "^"),
    "fusioncut_runtime": ("tab:green", "D"),
    "fusioncut_memory": ("tab:red", "v"),
}


def _style(config: str):
    return _STYLE.get(config, ("tab:purple", "x"))


def plot(rows, meta, path):
    """Speed versus memory: an overview normalised to torch's default partitioner, then one
    panel per model in absolute units. Lower-left is better on every panel."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r["status"] == "ok" and r.get("time_ms")]
    models = list(dict.fromkeys(r["model"] for r in ok))
    use_peak = meta["device"] == "cuda" and all(r.get("peak_bytes") for r in ok)
    mem_key, mem_label = ("peak_bytes", "peak memory") if use_peak else ("saved_act_bytes", "saved activations")
    time_label = "thread CPU" if ok and all(r.get("time_kind") == "cpu" for r in ok) else "wall"
    n = len(models) + 1
    cols = min(4, n)
    nrows = math.ceil(n / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.6 * nrows), squeeze=False)
    ax0 = axes[0][0]
    # Memory is normalised to eager's (the fraction of what autograd would keep): torch's
    # default already saves almost nothing on some models, which makes it a poor denominator.
    mem_ref_cfg = "eager" if any(r["config"] == "eager" for r in ok) else None
    for r in ok:
        base = next((b for b in ok if b["model"] == r["model"] and b["config"] == BASELINE), None)
        peers = [b[mem_key] for b in ok if b["model"] == r["model"]
                 and (mem_ref_cfg is None or b["config"] == mem_ref_cfg)]
        mem_ref = max(peers) if peers else 0
        if base is None or not mem_ref or not base["time_ms"]:
            continue
        c, m = _style(r["config"])
        ax0.scatter(r[mem_key] / mem_ref, r["time_ms"] / base["time_ms"], c=c, marker=m, s=28, alpha=0.75)
    ax0.axhline(1, color="0.8", lw=0.8)
    ax0.margins(0.08)
    ax0.set_xlim(left=0)
    ax0.set_ylim(bottom=0)
    ax0.set_title("all models", fontsize=9)
    ref_label = "eager" if mem_ref_cfg else "largest config"
    ax0.set_xlabel(f"{mem_label} (x {ref_label})", fontsize=8)
    ax0.set_ylabel(f"step {time_label} time (x torch default)", fontsize=8)
    for i, model in enumerate(models, start=1):
        ax = axes[i // cols][i % cols]
        for r in (r for r in ok if r["model"] == model):
            c, m = _style(r["config"])
            q1 = r.get("step_cpu_ms_q1" if r["time_kind"] == "cpu" else "step_ms_q1", r["time_ms"])
            q3 = r.get("step_cpu_ms_q3" if r["time_kind"] == "cpu" else "step_ms_q3", r["time_ms"])
            ax.errorbar(r[mem_key] / 2**20, r["time_ms"], yerr=[[r["time_ms"] - q1], [q3 - r["time_ms"]]],
                        c=c, marker=m, ms=6, alpha=0.75, lw=1, capsize=2)
        ax.set_title(model, fontsize=9)
        ax.set_xlabel(f"{mem_label} (MiB)", fontsize=8)
        ax.set_ylabel(f"step ({time_label}, ms; IQR bars)", fontsize=8)
        ax.tick_params(labelsize=7)
        pts = [(r[mem_key] / 2**20, r["time_ms"]) for r in ok if r["model"] == model]
        ax.set_xlim(0, max(max(x for x, _ in pts) * 1.12, 1e-3))
        ax.set_ylim(0, max(y for _, y in pts) * 1.15)
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].axis("off")
    present = list(dict.fromkeys(r["config"] for r in ok))
    handles = [plt.Line2D([], [], color=_style(k)[0], marker=_style(k)[1], ls="", label=k)
               for k in present]
    fig.legend(handles=handles, loc="lower center", ncol=max(len(handles), 1), fontsize=8,
               frameon=False)
    fig.suptitle(f"training step, {meta['device_name']}, torch {meta['torch']}, {meta['date_utc']}",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_or_say_why(rows, meta, path) -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"bench_train.py: matplotlib is not installed; no plot written to {path} "
              "(pip install matplotlib)", file=sys.stderr)
        return False
    plot(rows, meta, path)
    return True
