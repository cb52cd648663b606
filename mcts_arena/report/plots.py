"""Sweep plots: win rate against the swept parameter, one curve per budget (PNG, matplotlib Agg).

The form of the paper's Figures 1-4: x is the parameter (α for `im`), y the win rate of the
swept player in percent with its 95% interval as error bars, and a dashed line at 50%.
Figures are drawn on `matplotlib.figure.Figure` with the Agg canvas (no pyplot state, no
display needed).
"""
from __future__ import annotations

from pathlib import Path

from mcts_arena.report.tables import Sweep


def plot_sweep(sweep: Sweep, path: str | Path) -> Path:
    """Draw `sweep` into the PNG file `path` (folders created); return the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(6.4, 4.2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    xs_all = []
    for label, pts in sorted(sweep.curves.items()):
        xs = [x for x, _ in pts]
        ys = [100 * r["score"] for _, r in pts]
        lo = [100 * (r["score"] - r["ci_low"]) for _, r in pts]
        hi = [100 * (r["ci_high"] - r["score"]) for _, r in pts]
        n = sum(r["games"] for _, r in pts)
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3,
                    label=f"{label} ({n} games)")
        xs_all += xs
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel(sweep.symbol if sweep.symbol == sweep.param or sweep.symbol != "α"
                  else f"α ({sweep.param})")
    ax.set_ylabel("win rate (%), 95% CI")
    ax.set_ylim(0, 100)
    if xs_all:
        lo_x, hi_x = min(xs_all), max(xs_all)
        pad = (hi_x - lo_x) * 0.05 or 0.05
        ax.set_xlim(lo_x - pad, hi_x + pad)
    ax.set_title(sweep.title, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def write_plots(sweeps: list[Sweep], out: str | Path) -> list[Path]:
    """One PNG per sweep into folder `out` (`sweep-<slug>.png`); sets each sweep's `plot`."""
    paths = []
    for sw in sweeps:
        p = plot_sweep(sw, Path(out) / f"sweep-{sw.slug}.png")
        sw.plot = str(p)
        paths.append(p)
    return paths
