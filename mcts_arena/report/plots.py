"""The pictures of one `arena report`, written as PNG files into a folder (matplotlib Agg).

`write_figures(report, folder)` draws, with the functions of `report.figures`:

- `forest-<experiment>.png`: one line per pairing, our win % with its 95% CI, the paper's value
  as a marker with `--compare paper`, a 50% line;
- `sweep-<slug>.png`: each parameter sweep (the form of the paper's Figures 1-4): win % against
  the parameter with our CI as a band, the paper's best-α range shaded and its published points;
- `elo-<experiment>.png`: a round robin's Bradley–Terry Elo ladder with 95% error bars;
- `bracket-<experiment>.png`: an elimination tournament's bracket as a tree.

It sets `Sweep.plot` and appends (title, path) to `report.figures`; the HTML writer embeds
every one of them as a base64 data URI (the page stays one self-contained file), markdown and
LaTeX refer to the files.
"""
from __future__ import annotations

import re
from pathlib import Path

from mcts_arena.report import figures
from mcts_arena.report.tables import Report, Sweep


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")[:120] or "x"


def plot_sweep(sweep: Sweep, path: str | Path) -> Path:
    """Draw `sweep` into the PNG file `path` (folders created); return the path."""
    return figures.sweep_plot(sweep, path)


def write_plots(sweeps: list[Sweep], out: str | Path) -> list[Path]:
    """One PNG per sweep into folder `out` (`sweep-<slug>.png`); sets each sweep's `plot`."""
    paths = []
    for sw in sweeps:
        p = plot_sweep(sw, Path(out) / f"sweep-{sw.slug}.png")
        sw.plot = str(p)
        paths.append(p)
    return paths


def write_figures(report: Report, out: str | Path) -> list[Path]:
    """Every picture of `report` into folder `out` (see the module docstring); returns the
    paths, sets `Sweep.plot` and `report.figures`."""
    out = Path(out)
    paths: list[Path] = []
    report.figures = []
    for e in report.experiments:
        name = e.info["experiment"]
        if e.rows:
            p = figures.forest_plot(e.rows, out / f"forest-{_slug(name)}.png",
                                    title=f"{name}: win % per pairing (95% CI)"
                                    + (", paper ◆" if report.comparisons is not None else ""))
            report.figures.append((f"{name}: win % per pairing", str(p)))
            paths.append(p)
        if e.ratings:
            p = figures.elo_ladder(e.ratings, out / f"elo-{_slug(name)}.png",
                                   title=f"{name}: Elo (Bradley–Terry)")
            report.figures.append((f"{name}: Elo ladder", str(p)))
            paths.append(p)
        st = e.tournament_state
        if st is None:
            continue
        if st.bracket is not None:
            labels = {label: f"{label} = {spec}" if label != spec else label
                      for label, spec in st.spec.entrants}
            p = figures.bracket_plot(st.bracket, out / f"bracket-{_slug(name)}.png",
                                     title=f"{name}: elimination bracket", labels=labels)
            report.figures.append((f"{name}: elimination bracket", str(p)))
            paths.append(p)
        elif st.spec.kind == "round_robin" and st.results:
            try:
                ladder = figures.bradley_terry_ladder(
                    {k: (v[0], v[2], v[1]) for k, v in st.results.items()})
            except ValueError:
                continue
            p = figures.elo_ladder(ladder, out / f"elo-{_slug(name)}.png",
                                   title=f"{name}: Elo (Bradley–Terry)")
            report.figures.append((f"{name}: Elo ladder", str(p)))
            paths.append(p)
    paths += write_plots(report.sweeps, out)
    return paths
