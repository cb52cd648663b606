"""The pictures of one report: which there are (`pictures`), and `arena report` writing them as
PNG files into a folder (matplotlib Agg).

`pictures(report)` lists, each drawn by a function of `report.figures`:

- `forest-<experiment>`: one line per pairing, our win % with its 95% CI, the paper's value
  as a marker with `--compare paper`, a 50% line;
- `elo-<experiment>`: a round robin's Bradley–Terry Elo ladder with 95% error bars;
- `bracket-<experiment>`: an elimination tournament's bracket as a tree;
- `sweep-<slug>`: each parameter sweep (the form of the paper's Figures 1-4): win % against
  the parameter with our CI as a band, the paper's best-α range shaded and its published points.

`write_figures(report, folder)` draws every one into `<folder>/<name>.png`, sets `Sweep.plot`
and appends (title, path) to `report.figures`; the HTML writer embeds every one of them as a
base64 data URI (the page stays one self-contained file), markdown and LaTeX refer to the files.
`arena serve` draws the same list into memory (`Picture.draw(file_object)`).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mcts_arena.report import figures
from mcts_arena.report.tables import Report, Sweep


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")[:120] or "x"


@dataclass(frozen=True)
class Picture:
    """One picture of a report: its file stem, its title, and `draw(target)`, which writes the
    PNG to a path or a binary file object."""

    name: str
    title: str
    draw: Callable
    sweep: Sweep | None = None


def plot_sweep(sweep: Sweep, path: str | Path) -> Path:
    """Draw `sweep` into the PNG file `path` (folders created); return the path."""
    return figures.sweep_plot(sweep, path)


def _experiment_pictures(report: Report, e) -> list[Picture]:
    name = e.info["experiment"]
    out = []
    if e.rows:
        title = f"{name}: win % per pairing (95% CI)" + (
            ", paper ◆" if report.comparisons is not None else "")
        out.append(Picture(f"forest-{_slug(name)}", f"{name}: win % per pairing",
                           lambda t, rows=e.rows, title=title:
                           figures.forest_plot(rows, t, title=title)))
    if e.ratings:
        out.append(Picture(f"elo-{_slug(name)}", f"{name}: Elo ladder",
                           lambda t, r=e.ratings: figures.elo_ladder(
                               r, t, title=f"{name}: Elo (Bradley–Terry)")))
    st = e.tournament_state
    if st is None:
        return out
    if st.bracket is not None:
        labels = {label: f"{label} = {spec}" if label != spec else label
                  for label, spec in st.spec.entrants}
        out.append(Picture(f"bracket-{_slug(name)}", f"{name}: elimination bracket",
                           lambda t: figures.bracket_plot(
                               st.bracket, t, title=f"{name}: elimination bracket",
                               labels=labels)))
    elif st.spec.kind == "round_robin" and st.results:
        try:
            ladder = figures.bradley_terry_ladder(
                {k: (v[0], v[2], v[1]) for k, v in st.results.items()})
        except ValueError:
            return out
        out.append(Picture(f"elo-{_slug(name)}", f"{name}: Elo ladder",
                           lambda t: figures.elo_ladder(
                               ladder, t, title=f"{name}: Elo (Bradley–Terry)")))
    return out


def pictures(report: Report) -> list[Picture]:
    """Every picture of `report` (see the module docstring), experiments first, then sweeps."""
    out = [p for e in report.experiments for p in _experiment_pictures(report, e)]
    out += [Picture(f"sweep-{sw.slug}", sw.title, lambda t, sw=sw: figures.sweep_plot(sw, t),
                    sweep=sw) for sw in report.sweeps]
    return out


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
    for pic in pictures(report):
        p = pic.draw(out / f"{pic.name}.png")
        if pic.sweep is not None:
            pic.sweep.plot = str(p)
        else:
            report.figures.append((pic.title, str(p)))
        paths.append(p)
    return paths
