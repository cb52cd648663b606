"""A suite run's summary as a text table and a picture (solved % per budget)."""
from __future__ import annotations

from pathlib import Path


def format_table(summary: dict) -> str:
    budgets = summary["budgets"]
    head = f"{'player':28s}" + "".join(f"{_short(b):>9s}" for b in budgets) + \
        f"{'median to stable':>18s}{'s at max':>10s}"
    lines = [f"suite {summary.get('suite')}: solved % per budget (simulations; αβ nodes), "
             f"{summary.get('seeds')} seed(s) per position", head, "-" * len(head)]
    for player, r in summary["players"].items():
        cells = "".join(f"{pb['solved_pct']:8.1f}%" if pb["solved_pct"] is not None
                        else f"{'-':>9s}"
                        for pb in r["per_budget"])
        med = r["median_sims_to_stable"]
        med_s = f"{med:,.0f}" if med is not None else f">{_short(max(budgets))}"
        last = r["per_budget"][-1]["mean_seconds"] if r["per_budget"] else None
        lines.append(f"{player:28s}{cells}{med_s:>18s}{(last or 0):10.3f}")
    return "\n".join(lines) + "\n"


def _short(b: int) -> str:
    if b >= 1_000_000 and b % 1_000_000 == 0:
        return f"{b // 1_000_000}M"
    if b >= 1000 and b % 1000 == 0:
        return f"{b // 1000}k"
    return str(b)


def write_plot(summary: dict, path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for player, r in summary["players"].items():
        xs = [pb["budget"] for pb in r["per_budget"] if pb["solved_pct"] is not None]
        ys = [pb["solved_pct"] for pb in r["per_budget"] if pb["solved_pct"] is not None]
        ax.plot(xs, ys, marker="o", label=player)
    ax.set_xscale("log")
    ax.set_ylim(-3, 103)
    ax.set_xlabel("budget (simulations; αβ nodes)")
    ax.set_ylabel("solved %")
    ax.set_title(f"suite {summary.get('suite')}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
