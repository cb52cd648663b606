"""Pictures of results: forest plot, α-sweep curves, Elo ladder, elimination bracket.

Every function here draws on a `matplotlib.figure.Figure` with the Agg canvas (no pyplot
state, no display), writes one file (folders created) in the format its suffix names (PNG,
SVG or PDF: FORMATS; `dpi` for the PNG's resolution) and returns its path (or writes PNG into
a binary file object given instead of a path: `arena serve`), so a caller can use any of them
on its own, e.g. `arena reproduce` writing into docs/reproduction/::

    from mcts_arena.report.figures import forest_plot, sweep_plot
    forest_plot(rows, "docs/reproduction/table2.png", title="Table 2")

`arena report` calls them through `plots.write_figures(report, folder)`; the HTML page embeds
the PNGs as base64 data URIs (one self-contained file), markdown and LaTeX link the files.

Inputs are plain dicts (the report's rows, `tables.py`) or the report's objects (`Sweep`,
`results.bracket.Bracket`); each function's docstring lists the keys it reads.

Fit for a paper: the file is cut to the drawing's tight bounding box (a title, tick labels or a
legend outside the axes are never cut off), long titles are wrapped, the win-% axes run a little
past 0 and 100 so a point at 0% or 100% is drawn whole, and legends sit outside the data.
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from mcts_arena.report.pairing_row import work_differs, work_text

#: Colours: ours, the paper's, the paper's best-α ranges.
OURS = "#1f77b4"
PAPER = "#d62728"
RANGES = ("#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")
#: The file formats a picture is written in (by its path's suffix).
FORMATS = ("png", "svg", "pdf")
DEFAULT_DPI = 100
#: Win-% axes run from -PCT_PAD to 100 + PCT_PAD: a marker at 0% or 100% is drawn whole.
PCT_PAD = 4.0


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _save(fig, path: str | Path, dpi: int = DEFAULT_DPI) -> Path:
    """Write `fig` to `path` in the format of its suffix, cut to the drawing's bounds (nothing
    outside the axes is lost); SVG and PDF carry no date, so the same figure is the same file.
    A binary file object instead of a path gets PNG (a picture served from memory)."""
    if hasattr(path, "write"):
        fig.savefig(path, format="png", dpi=dpi, bbox_inches="tight", pad_inches=0.08)
        return path
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise ValueError(f"{path}: a picture is written as {', '.join(FORMATS)}, not {fmt!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
    from matplotlib import rc_context

    # TrueType (Type 42) fonts in a PDF: journals' checks refuse Type 3 bitmaps
    with rc_context({"pdf.fonttype": 42}):
        fig.savefig(path, format=fmt, dpi=dpi, bbox_inches="tight", pad_inches=0.08,
                    metadata=meta)
    return path


def _title(ax, title: str | None, width_in: float, fontsize: float) -> None:
    """The title wrapped to the figure's width (about 0.6 em a character), each of its lines
    on its own."""
    if title:
        chars = max(30, int(0.8 * width_in * 72 / (0.55 * fontsize)))   # the axes' width
        ax.set_title("\n".join(textwrap.fill(line, chars) for line in title.split("\n")),
                     fontsize=fontsize)


def _pct_axis(set_lim, set_ticks) -> None:
    set_lim(-PCT_PAD, 100 + PCT_PAD)
    set_ticks(np.arange(0, 101, 10))


def _pct(x) -> float | None:
    return None if x is None else 100.0 * float(x)


# ---- forest plot ---------------------------------------------------------------------------
def paper_marker(row: Mapping) -> tuple[float | None, bool]:
    """(paper win %, comparable) for a row: `paper_pct` if given, else the first entry of
    `paper` (the report's `--compare paper` list), preferring one at a comparable budget."""
    if row.get("paper_pct") is not None:
        return float(row["paper_pct"]), bool(row.get("paper_comparable", True))
    entries = row.get("paper") or []
    for e in entries:
        if e.get("comparable", True):
            return float(e["win_pct"]), True
    if entries:
        return float(entries[0]["win_pct"]), False
    return None, False


def forest_label(row: Mapping) -> str:
    """"A vs B (budget, n games)", with what a move searched on average where it differs from
    the budget ("200 sims, played 165 / 813n a move": budgets.WORK_NOTE says why)."""
    budget = row.get("budget", "?")
    if work_differs(row):
        budget += f", played {work_text(row)} a move"
    return f"{row['player']} vs {row['opponent']} ({budget}, {row['games']} games)"


def forest_plot(rows: Sequence[Mapping], path: str | Path, title: str | None = None,
                dpi: int = DEFAULT_DPI, interval: str = "95% CI") -> Path:
    """One line per pairing: our win % with its interval (95% CI, or what `interval` names) as a
    horizontal bar, the paper's value as a red diamond (hollow when the paper's budget is far
    from ours), a dashed line at 50%.

    Row keys: `player`, `opponent`, `budget` (text), `games` (counted games), `score`,
    `ci_low`, `ci_high` (fractions in [0, 1]; None or `games` 0: drawn as "no games", no bar).
    Optional: `paper` (list of {"win_pct", "comparable"}, as `tables.compare_paper` sets it) or
    `paper_pct` (a number, percent) with `paper_comparable` (bool, default True).
    Rows are drawn top to bottom in the order given.
    """
    rows = list(rows)
    n = max(len(rows), 1)
    longest = max((len(forest_label(r)) for r in rows), default=20)
    width = min(max(9.0, 6.5 + 0.065 * longest), 20.0)
    fig = _figure(width, min(1.2 + 0.32 * n, 60.0))
    ax = fig.add_subplot(1, 1, 1)
    ys = np.arange(len(rows))[::-1]
    labels = []
    drawn = {"ours": False, "paper": False, "far": False}
    for y, r in zip(ys, rows):
        labels.append(forest_label(r))
        if r.get("games") and r.get("score") is not None:
            s, lo, hi = _pct(r["score"]), _pct(r["ci_low"]), _pct(r["ci_high"])
            ax.plot([lo, hi], [y, y], color=OURS, linewidth=2.5, solid_capstyle="butt",
                    label=None if drawn["ours"] else f"ours, {interval}")
            ax.plot([s], [y], "o", color=OURS, markersize=5)
            drawn["ours"] = True
        else:
            ax.text(50.0, y, "no games", ha="center", va="center", fontsize=8, color="grey")
        pct, comparable = paper_marker(r)
        if pct is not None:
            key = "paper" if comparable else "far"
            ax.plot([pct], [y], "D", markersize=6, color=PAPER,
                    markerfacecolor=PAPER if comparable else "none",
                    label=None if drawn[key] else (
                        "paper" if comparable else "paper (budget differs)"))
            drawn[key] = True
    ax.axvline(50.0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    _pct_axis(ax.set_xlim, ax.set_xticks)
    ax.set_xlabel(f"win % of the first player (draws half), {interval}")
    ax.grid(True, axis="x", alpha=0.3)
    _title(ax, title, width, 10)
    if any(drawn.values()):
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return _save(fig, path, dpi)


# ---- α sweeps ------------------------------------------------------------------------------
def paper_figures(game: str, player_template: str, opponent: str) -> list:
    """The paper's figures (`PaperFigure`) whose curve is `player_template` (with '{}' where
    the swept value goes) against `opponent` in `game`."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    out = []
    for f in load_paper_results().figures:
        if f.game.casefold() != game.casefold():
            continue
        try:
            same = all(normalize_spec(f.player.format(alpha=v)) ==
                       normalize_spec(player_template.format(v)) for v in (0.37, 0.0))
            same = same and normalize_spec(f.opponent) == normalize_spec(opponent)
        except (ValueError, IndexError, KeyError):
            continue
        if same:
            out.append(f)
    return out


def paper_points(game: str, player_template: str, opponent: str,
                 values: Sequence[float] = ()) -> list[tuple[float, float, object]]:
    """Published single points on a sweep's curve: (x, win %, PaperRow) for every value among
    `values` and the paper's `im` parameter set that has a row in the paper's tables."""
    from mcts_arena.paper import load_paper_results, match_paper

    xs = {float(v) for v in values}
    xs |= {float(v) for v in load_paper_results().parameter_sets.get("im", ())}
    out = []
    for x in sorted(xs):
        try:
            found = match_paper(game, player_template.format(f"{x:g}"), opponent)
        except ValueError:
            continue
        out += [(x, r.win_pct, r) for r in found]
    return out


def sweep_plot(sweep, path: str | Path, title: str | None = None,
               paper: bool = True, dpi: int = DEFAULT_DPI) -> Path:
    """Win % against the swept parameter, one curve per budget: points joined by a line, our
    95% CI as a shaded band, a dashed line at 50%; with `paper`, the paper's best-α range of each
    matching figure shaded (data/paper_results.yaml `figures`) and the paper's published
    points on the curve as red diamonds (rows of its tables, e.g. Table 2's α = 0.6).

    `sweep`: a `tables.Sweep` or any object with `game`, `player` (template, '{}' where the
    value goes), `opponent`, `title`, `symbol` and `curves` = {label: [(x, row), ...]}, where each
    row has `score`, `ci_low`, `ci_high` (fractions; None for a point without games, skipped)
    and `games`.
    """
    fig = _figure(7.0, 4.4)
    ax = fig.add_subplot(1, 1, 1)
    xs_all: list[float] = []
    if paper:
        for i, f in enumerate(paper_figures(sweep.game, sweep.player, sweep.opponent)):
            lo, hi = f.best_alpha
            secs = ", ".join(f"{s:g} s" for s in f.seconds)
            ax.axvspan(lo, hi, color=RANGES[i % len(RANGES)], alpha=0.15,
                       label=f"paper's best α {lo:g}–{hi:g} ({f.id.replace('fig', 'Fig. ')}, "
                             f"{secs})")
            xs_all += [lo, hi]
    for label, pts in sorted(sweep.curves.items()):
        pts = [(x, r) for x, r in pts if r.get("games") and r.get("score") is not None]
        if not pts:
            continue
        xs = np.array([x for x, _ in pts], dtype=float)
        ys = np.array([_pct(r["score"]) for _, r in pts])
        lo = np.array([_pct(r["ci_low"]) for _, r in pts])
        hi = np.array([_pct(r["ci_high"]) for _, r in pts])
        n = sum(r["games"] for _, r in pts)
        line, = ax.plot(xs, ys, marker="o", label=f"ours, {label} ({n} games)")
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
        xs_all += list(xs)
    if paper:
        xs_ours = sorted({x for pts in sweep.curves.values() for x, _ in pts})
        pp = paper_points(sweep.game, sweep.player, sweep.opponent, xs_ours)
        first = True
        for x, pct, r in pp:
            ax.plot([x], [pct], "D", color=PAPER, markersize=7,
                    label="paper (tables, " + ", ".join(
                        sorted({f"{q.table} {q.seconds:g} s" if q.seconds else q.table
                                for _, _, q in pp})) + ")" if first else None)
            if r.seconds:
                ax.annotate(f"{r.seconds:g} s", (x, pct), textcoords="offset points",
                            xytext=(6, -3), fontsize=7, color=PAPER)
            first = False
            xs_all.append(x)
    ax.axhline(50.0, color="grey", linestyle="--", linewidth=1)
    sym = getattr(sweep, "symbol", "x")
    ax.set_xlabel(f"{sym} ({sweep.param})" if sym != getattr(sweep, "param", sym) else sym)
    ax.set_ylabel("win % (draws half), 95% CI band")
    _pct_axis(ax.set_ylim, ax.set_yticks)
    if xs_all:
        lo_x, hi_x = min(xs_all), max(xs_all)
        pad = (hi_x - lo_x) * 0.05 or 0.05
        ax.set_xlim(lo_x - pad, hi_x + pad)
    _title(ax, title or sweep.title, 7.0, 9)
    ax.grid(True, alpha=0.3)
    # below the axes, never over a curve (inside, "best" covered Fig. 2's points)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1,
              frameon=False)
    fig.tight_layout()
    return _save(fig, path, dpi)


# ---- Elo ladder ----------------------------------------------------------------------------
# the ratings with their intervals are numbers, not pictures: they live in stats
from mcts_arena.stats import bradley_terry_ladder  # noqa: E402,F401 - re-exported


def elo_ladder(ladder: Sequence[Mapping], path: str | Path, title: str | None = None,
               dpi: int = DEFAULT_DPI) -> Path:
    """Ratings as a ladder: one line per player, best at the top, a point at its Elo with a
    horizontal error bar (95%), a dashed line at 0 (the mean).

    Entry keys: `name`, `elo`; optional `error` (95% half-width, None: no bar) and `games`.
    `bradley_terry_ladder` makes such a list; it is drawn sorted by `elo`, highest first.
    """
    ladder = sorted(ladder, key=lambda e: -e["elo"])
    n = max(len(ladder), 1)
    fig = _figure(7.0, min(1.3 + 0.35 * n, 40.0))
    ax = fig.add_subplot(1, 1, 1)
    ys = np.arange(len(ladder))[::-1]
    for y, e in zip(ys, ladder):
        err = e.get("error")
        ax.errorbar([e["elo"]], [y], xerr=None if err is None else [[err], [err]], fmt="o",
                    color=OURS, capsize=3)
        ax.text(e["elo"], y + 0.22, f"{e['elo']:+.0f}" + ("" if err is None else f" ± {err:.0f}"),
                ha="center", fontsize=7)
    ax.axvline(0.0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{i + 1}. {e['name']}" + (f" ({e['games']} games)" if e.get("games")
                                                     else "") for i, e in enumerate(ladder)],
                       fontsize=8)
    ax.set_ylim(-0.7, n - 0.2)
    ax.set_xlabel("Elo (Bradley–Terry, mean 0), 95% interval")
    ax.grid(True, axis="x", alpha=0.3)
    _title(ax, title, 7.0, 10)
    fig.tight_layout()
    return _save(fig, path, dpi)


# ---- elimination bracket -------------------------------------------------------------------
def scaling_plot(sc, path: str | Path, title: str | None = None,
                 dpi: int = DEFAULT_DPI) -> Path:
    """Elo against budget (report/scaling.Scaling): one line per player over its levels on a
    log2 axis, 95% error bars, the anchor at 0 (dashed), each crossover's budget as a dotted
    vertical line."""
    fig = _figure(7.0, 4.2)
    ax = fig.add_subplot(1, 1, 1)
    colours = [OURS, "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    n = len(sc.players)
    for k, p in enumerate(sc.players):
        lvs = sc.levels[p]
        s = sc.slopes.get(p)
        label = p + (f" ({s['elo']:+.0f} Elo/doubling)" if s else "")
        shift = 2 ** (0.04 * (k - (n - 1) / 2))     # side by side, so the bars do not hide
        ax.errorbar([lv.budget * shift for lv in lvs], [lv.elo for lv in lvs],
                    yerr=[lv.error for lv in lvs], fmt="o-", capsize=3, label=label,
                    color=colours[k % len(colours)])
    for c in sc.crossovers:
        if c["budget"] is not None:
            ax.axvline(c["budget"], color="grey", linestyle=":", linewidth=1)
    ax.axhline(0.0, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    levels = [lv.budget for lvs in sc.levels.values() for lv in lvs]
    ax.set_xticks(sorted(set(levels)))
    ax.set_xticklabels([f"{b:g}" for b in sorted(set(levels))], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel(f"the clock's base time ({sc.clocks[0]} scaled; seconds, log scale)"
                  if sc.clocks else
                  f"budget per move ({'simulations' if sc.kind == 'sims' else 'seconds'}, "
                  "log scale)")
    ax.set_ylabel(f"Elo relative to {sc.anchor}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    _title(ax, title, 7.0, 10)
    fig.tight_layout()
    return _save(fig, path, dpi)


def bracket_tree(bracket) -> list[dict]:
    """The bracket as a tree laid out for drawing: a list of nodes
    {"name", "col", "y", "parent" (index or None), "wins" (its wins in the match that decides
    its edge to the parent, None for a bye or an undecided match), "bye", "won", "champion"}.

    Column c holds the entrants of round c + 1 (0-based columns); a finished bracket has one
    more column with the champion. A node in column c + 1 has as children the two entrants of
    its round-(c + 1) match (or itself alone, with a bye), so leaves are round 1's entrants,
    in order, and there are no crossing edges. A running bracket's roots are the entrants of
    the round being played, in match order.
    """
    rounds = list(bracket.rounds)
    if bracket.done:
        roots = [(bracket.winner, len(rounds))]
    else:
        rd = bracket.current_round
        roots = [(n, len(rounds)) for m in rd.matches for n in (m.a, m.b)]
        if rd.bye is not None:
            roots.append((rd.bye, len(rounds)))
    nodes: list[dict] = []
    leaf = [0]

    def build(name: str, col: int, parent: int | None, info: dict) -> int:
        idx = len(nodes)
        nodes.append({"name": name, "col": col, "parent": parent, "y": 0.0, **info})
        kids = []
        if col > 0:
            rd = rounds[col - 1]
            for m in rd.matches:
                if name in (m.a, m.b):
                    for who, wins in ((m.a, m.wins_a), (m.b, m.wins_b)):
                        kids.append(build(who, col - 1, idx, {
                            "wins": wins, "bye": False, "won": who == m.winner}))
                    break
            else:
                kids.append(build(name, col - 1, idx, {"wins": None, "bye": True, "won": True}))
        if kids:
            nodes[idx]["y"] = sum(nodes[k]["y"] for k in kids) / len(kids)
        else:
            nodes[idx]["y"] = float(leaf[0])
            leaf[0] += 1
        return idx

    rd = bracket.current_round
    for name, col in roots:
        info = {"wins": None, "bye": False, "won": None, "champion": bracket.done}
        if rd is not None:
            for m in rd.matches:
                if name in (m.a, m.b) and m.recorded:
                    info["wins"] = m.wins_a if name == m.a else m.wins_b
                    info["won"] = name == m.winner
            info["bye"] = name == rd.bye
        build(name, col, None, info)
    return nodes


def bracket_plot(bracket, path: str | Path, title: str | None = None,
                 labels: Mapping[str, str] | None = None, dpi: int = DEFAULT_DPI) -> Path:
    """Draw an elimination bracket (`results.bracket.Bracket`, finished or running) as a tree:
    rounds left to right, the two entrants of each match joined to the one who advances, the
    entrant's wins in that match written on its edge (a bye marked "bye"), losers grey, the
    champion in the last column. A running bracket ends with the round being played (its
    decided matches' wins in the boxes).

    `bracket` needs `rounds` (each with `matches` of `a`, `b`, `wins_a`, `wins_b`, `winner`,
    `recorded`, and a `bye`), `current_round`, `done` and `winner` (see `bracket_tree`).
    `labels` maps an entrant's name to the text of its box (e.g. "fet4 = MCTS(fet4)").
    """
    nodes = bracket_tree(bracket)
    labels = labels or {}
    ncols = max(n["col"] for n in nodes) + 1
    nleaves = sum(1 for n in nodes if n["col"] == 0) or 1
    width = max(4.5, 2.4 * ncols)
    fig = _figure(width, min(1.3 + 0.38 * nleaves, 30.0))
    ax = fig.add_subplot(1, 1, 1)
    ax.set_axis_off()
    top = nleaves - 1
    for n in nodes:
        x, y = n["col"], top - n["y"]
        if n["parent"] is not None:
            p = nodes[n["parent"]]
            px, py = p["col"], top - p["y"]
            mid = x + 0.55
            ax.plot([x + 0.42, mid, mid, px - 0.3], [y, y, py, py],
                    color="#333333" if n["won"] else "#bbbbbb", linewidth=1.2 if n["won"] else 1)
            edge = "bye" if n["bye"] else ("" if n["wins"] is None else str(n["wins"]))
            ax.text((x + 0.42 + mid) / 2, y + 0.08, edge, ha="center", va="bottom", fontsize=7,
                    color="#333333" if n["won"] else "#999999")
        text = labels.get(n["name"], n["name"])
        if n.get("champion"):
            text = "Winner: " + text
        elif n["parent"] is None and n["wins"] is not None:
            text += f" ({n['wins']})"
        lost = n["won"] is False
        ax.text(x, y, text, ha="center", va="center", fontsize=7,
                fontweight="bold" if n.get("champion") or (n["won"] and not n["bye"]) else "normal",
                color="#999999" if lost else "black",
                bbox=dict(boxstyle="round,pad=0.25", linewidth=1,
                          facecolor="#fff2b3" if n.get("champion") else "white",
                          edgecolor="#bbbbbb" if lost else "black"))
    nrounds = len(bracket.rounds) + (bracket.current_round is not None)
    for c in range(ncols):
        ax.text(c, top + 0.8, f"round {c + 1}" if c < nrounds else "winner", ha="center",
                va="bottom", fontsize=8, color="#555555")
    ax.set_xlim(-0.6, ncols - 0.4)
    ax.set_ylim(-0.6, top + 1.4)
    _title(ax, title, width, 10)
    fig.tight_layout()
    return _save(fig, path, dpi)
