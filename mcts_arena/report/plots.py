"""The pictures of one `arena report`, written into a folder (matplotlib Agg) as PNG (at `dpi`),
SVG or PDF (`arena report --figures png|svg|pdf --dpi N`).

`write_figures(report, folder, fmt, dpi)` draws, with the functions of `report.figures`:

- `forest-<experiment>.png`: one line per pairing, our win % with its 95% CI, the paper's value
  as a marker with `--compare paper`, a 50% line;
- `sweep-<slug>.png`: each parameter sweep (the form of the paper's Figures 1-4): win % against
  the parameter with our CI as a band, the paper's best-α range shaded and its published points;
- `elo-<experiment>.png`: a round robin's Bradley–Terry Elo ladder with 95% error bars;
- `bracket-<experiment>.png`: an elimination tournament's bracket as a tree.

It sets `Sweep.plot` and appends (title, path) to `report.figures`; the HTML writer embeds
every one of them as a base64 data URI (the page stays one self-contained file), markdown and
LaTeX refer to the files. Titles are the experiment's description (its config's `description:`),
its name only where it has none.
"""
from __future__ import annotations

import re
from pathlib import Path

from mcts_arena.report import figures
from mcts_arena.report.tables import Report, Sweep


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")[:120] or "x"


def plot_sweep(sweep: Sweep, path: str | Path, title: str | None = None,
               dpi: int = figures.DEFAULT_DPI) -> Path:
    """Draw `sweep` into the file `path` (its suffix the format; folders created)."""
    return figures.sweep_plot(sweep, path, title=title, dpi=dpi)


def _sweep_title(sw: Sweep, described: dict[str, str]) -> str | None:
    """The descriptions of the experiments a sweep's points come from (None: none has one)."""
    names = sorted({r.get("experiment") for pts in sw.curves.values() for _, r in pts} - {None})
    texts = [described[n] for n in names if described.get(n)]
    return "; ".join(texts) if texts else None


def write_plots(sweeps: list[Sweep], out: str | Path, fmt: str = "png",
                dpi: int = figures.DEFAULT_DPI, described: dict[str, str] | None = None
                ) -> list[Path]:
    """One picture per sweep into folder `out` (`sweep-<slug>.<fmt>`); sets each sweep's
    `plot`. `described`: experiment name -> description, for the titles."""
    paths = []
    for sw in sweeps:
        p = plot_sweep(sw, Path(out) / f"sweep-{sw.slug}.{fmt}",
                       _sweep_title(sw, described or {}), dpi)
        sw.plot = str(p)
        paths.append(p)
    return paths


def write_figures(report: Report, out: str | Path, fmt: str = "png",
                  dpi: int = figures.DEFAULT_DPI) -> list[Path]:
    """Every picture of `report` into folder `out` as `fmt` (see the module docstring);
    returns the paths, sets `Sweep.plot` and `report.figures`."""
    out = Path(out)
    paths: list[Path] = []
    report.figures = []
    described = {e.info["experiment"]: e.info.get("description") or ""
                 for e in report.experiments}
    for e in report.experiments:
        name = e.info["experiment"]
        shown = described[name] or name
        if e.rows:
            p = figures.forest_plot(e.rows, out / f"forest-{_slug(name)}.{fmt}",
                                    title=f"{shown}: win % per pairing (95% CI)"
                                    + (", paper ◆" if report.comparisons is not None else ""),
                                    dpi=dpi)
            report.figures.append((f"{name}: win % per pairing", str(p)))
            paths.append(p)
        if e.ratings:
            p = figures.elo_ladder(e.ratings, out / f"elo-{_slug(name)}.{fmt}",
                                   title=f"{shown}: Elo (Bradley–Terry)", dpi=dpi)
            report.figures.append((f"{name}: Elo ladder", str(p)))
            paths.append(p)
        st = e.tournament_state
        if st is None:
            continue
        if st.bracket is not None:
            labels = {label: f"{label} = {spec}" if label != spec else label
                      for label, spec in st.spec.entrants}
            p = figures.bracket_plot(st.bracket, out / f"bracket-{_slug(name)}.{fmt}",
                                     title=f"{shown}: elimination bracket", labels=labels,
                                     dpi=dpi)
            report.figures.append((f"{name}: elimination bracket", str(p)))
            paths.append(p)
        elif st.spec.kind == "round_robin" and st.results:
            try:
                ladder = figures.bradley_terry_ladder(
                    {k: (v[0], v[2], v[1]) for k, v in st.results.items()})
            except ValueError:
                continue
            p = figures.elo_ladder(ladder, out / f"elo-{_slug(name)}.{fmt}",
                                   title=f"{shown}: Elo (Bradley–Terry)", dpi=dpi)
            report.figures.append((f"{name}: Elo ladder", str(p)))
            paths.append(p)
    paths += write_plots(report.sweeps, out, fmt, dpi, described)
    return paths
