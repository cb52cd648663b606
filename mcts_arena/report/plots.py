"""The pictures of one `arena report`, written into a folder (matplotlib Agg) as PNG (at `dpi`),
SVG or PDF (`arena report --figures png|svg|pdf --dpi N`).

`pictures(report, dpi)` lists them, each drawn by a function of `report.figures`;
`write_figures(report, folder, fmt, dpi)` writes every one into the folder:

- `forest-<experiment>.png`: one line per pairing, our win % with its 95% CI, the paper's value
  as a marker with `--compare paper`, a 50% line;
- `sweep-<slug>.png`: each parameter sweep (the form of the paper's Figures 1-4): win % against
  the parameter with our CI as a band, the paper's best-α range shaded and its published points;
- `elo-<experiment>.png`: a round robin's Bradley–Terry Elo ladder with 95% error bars;
- `scaling-<experiment>-<k>.png`: the k-th doubling ladder's Elo against budget (log axis);
- `bracket-<experiment>.png`: an elimination tournament's bracket as a tree.

It sets `Sweep.plot` and appends (title, path) to `report.figures`; the HTML writer embeds
every one of them as a base64 data URI (the page stays one self-contained file), markdown and
LaTeX refer to the files. Every title says what was played (`played_text`: the budgets and the
games behind the picture, never the config's intentions) and then, marked as such, the config's
`description:` (which may state the paper's budget); "paper ◆" only where a paper value is
drawn. `arena serve` draws the same list into memory (`Picture.draw(file_object)`, PNG).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from mcts_arena.report import figures
from mcts_arena.report.pairing_row import PairingRow
from mcts_arena.report.tables import Report, Sweep


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")[:120] or "x"


def plot_sweep(sweep: Sweep, path: str | Path, title: str | None = None,
               dpi: int = figures.DEFAULT_DPI) -> Path:
    """Draw `sweep` into the file `path` (its suffix the format; folders created)."""
    return figures.sweep_plot(sweep, path, title=title, dpi=dpi)


def played_text(rows: list[PairingRow], per: str = "pairing") -> str:
    """What the rows were played with: "played: 0.05 s per move, 2 games per pairing" (every
    budget the rows used; the games as one count or a range)."""
    rows = [r for r in rows if r.get("games")]
    if not rows:
        return "played: no games yet"
    shown = sorted({str(r.get("budget") or "?") for r in rows})
    counts = sorted({int(r["games"]) for r in rows})
    games = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return (f"played: {', '.join(shown)} per move, {games} game{'s' if counts[-1] != 1 else ''} "
            f"per {per}")


def titled(head: str, rows: list[PairingRow], descriptions=(), per: str = "pairing") -> str:
    """A picture's title: its subject, what was played, and the configs' descriptions marked
    as descriptions (they may state another budget than the one played)."""
    texts = [d for d in dict.fromkeys(descriptions) if d]
    return "\n".join([head, played_text(rows, per)]
                     + [f"description: {d}" for d in texts])


def _sweep_title(sw: Sweep, described: dict[str, str]) -> str:
    """A sweep's title: its players, the games of its points, the descriptions of the
    experiments its points come from."""
    points = [r for pts in sw.curves.values() for _, r in pts]
    names = sorted({r.get("experiment") for r in points} - {None})
    return titled(sw.title, points, [described.get(n, "") for n in names], per="point")


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


@dataclass(frozen=True)
class Picture:
    """One picture of a report: its file stem, its title, and `draw(target)`, which writes it to
    a path (the format its suffix names) or as PNG into a binary file object."""

    name: str
    title: str
    draw: Callable
    sweep: Sweep | None = None
    directory: str | None = None    # the store it shows (None: a sweep across stores)


def _experiment_pictures(e, dpi: int) -> list[Picture]:
    name = e.info["experiment"]
    described = [e.info.get("description") or ""]
    out = []
    if e.rows:
        drawn = any(figures.paper_marker(r)[0] is not None for r in e.rows)
        title = titled(f"{name}: win % per pairing (95% CI)" + (", paper ◆" if drawn else ""),
                       e.rows, described)
        out.append(Picture(f"forest-{_slug(name)}", f"{name}: win % per pairing",
                           lambda t, rows=e.rows, title=title:
                           figures.forest_plot(rows, t, title=title, dpi=dpi)))
    if e.ratings:
        out.append(Picture(f"elo-{_slug(name)}", f"{name}: Elo ladder",
                           lambda t, r=e.ratings: figures.elo_ladder(
                               r, t, title=titled(f"{name}: Elo (Bradley–Terry)", e.rows,
                                                  described), dpi=dpi)))
    for k, sc in enumerate(sc for sc in e.scaling if not sc.note):
        out.append(Picture(f"scaling-{_slug(name)}-{k}", f"{name}: Elo against budget",
                           lambda t, sc=sc: figures.scaling_plot(
                               sc, t, title=titled(f"{name}: Elo against budget (95% intervals)",
                                                   e.rows, described), dpi=dpi)))
    st = e.tournament_state
    if st is None:
        return out
    if st.bracket is not None:
        labels = {label: f"{label} = {spec}" if label != spec else label
                  for label, spec in st.spec.entrants}
        out.append(Picture(f"bracket-{_slug(name)}", f"{name}: elimination bracket",
                           lambda t: figures.bracket_plot(
                               st.bracket, t, title=titled(f"{name}: elimination bracket",
                                                           e.rows, described),
                               labels=labels, dpi=dpi)))
    elif st.spec.kind == "round_robin" and st.results:
        try:
            ladder = figures.bradley_terry_ladder(
                {k: (v[0], v[2], v[1]) for k, v in st.results.items()})
        except ValueError:
            return out
        out.append(Picture(f"elo-{_slug(name)}", f"{name}: Elo ladder",
                           lambda t: figures.elo_ladder(
                               ladder, t, title=titled(f"{name}: Elo (Bradley–Terry)", e.rows,
                                                       described), dpi=dpi)))
    return out


def pictures(report: Report, dpi: int = figures.DEFAULT_DPI) -> list[Picture]:
    """Every picture of `report` (see the module docstring), experiments first, then sweeps."""
    described = {e.info["experiment"]: e.info.get("description") or ""
                 for e in report.experiments}
    out = [replace(p, directory=e.info.get("directory")) for e in report.experiments
           for p in _experiment_pictures(e, dpi)]
    out += [Picture(f"sweep-{sw.slug}", sw.title,
                    lambda t, sw=sw: plot_sweep(sw, t, _sweep_title(sw, described), dpi),
                    sweep=sw) for sw in report.sweeps]
    return out


def write_figures(report: Report, out: str | Path, fmt: str = "png",
                  dpi: int = figures.DEFAULT_DPI, own_folders: bool = False) -> list[Path]:
    """Every picture of `report` into folder `out` as `fmt` (see the module docstring), or with
    `own_folders` each store's pictures into that store's `report/` (a sweep across stores
    into `out`); returns the paths, sets `Sweep.plot` and `report.figures`."""
    out = Path(out)
    paths: list[Path] = []
    report.figures = []
    for pic in pictures(report, dpi):
        folder = Path(pic.directory) / "report" if own_folders and pic.directory else out
        p = pic.draw(folder / f"{pic.name}.{fmt}")
        if pic.sweep is not None:
            pic.sweep.plot = str(p)
        else:
            report.figures.append((pic.title, str(p)))
        paths.append(p)
    return paths
