"""The reproduction record: one Markdown page per table or figure of the paper, ours beside the
paper's, with a verdict per row, and an index with the count of each verdict.

Read-only over the results stores (it goes through `build_report`, like `arena report`).

Verdicts (a row is one pairing; the paper's row is the one at the budget the experiment stands
for — a scaled-down run of the 1 s table is compared with the paper's 1 s numbers only):

    consistent       the paper's win rate lies inside our 95% interval
    same direction   outside it, but ours and the paper's are on the same side of 50%
    opposite         ours and the paper's are on opposite sides of 50%
    level            outside it, and ours is exactly 50% (no side)
    no games         nothing counted yet: no percentage is shown
    no paper row     the paper publishes no number for this pairing at this budget

A tournament's matches get no verdict: the paper prints only its brackets, and the page shows
ours beside the paper's winner.

Kalah rows are scored by the paper's pair rule (a pair of games on one board with seats
swapped; decisive pairs only), as the paper scores them. A figure has no published numbers,
only the α range the paper reads as best; each of our sweep points inside that range counts
as "same direction" when our win rate is above 50% (the paper's claim) and "opposite" when below.
"""
from __future__ import annotations

import datetime as _dt
import platform
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena.report.tables import build_report, strip_budget

VERDICTS = ("consistent", "same direction", "opposite", "level", "no games", "no paper row")
COUNTED = VERDICTS[:4]


def classify(ours_pct: float | None, lo_pct: float | None, hi_pct: float | None,
             paper_pct: float | None) -> str:
    """The verdict of one row (percentages)."""
    if ours_pct is None:
        return "no games"
    if paper_pct is None:
        return "no paper row"
    if lo_pct - 1e-9 <= paper_pct <= hi_pct + 1e-9:
        return "consistent"
    side = (ours_pct - 50.0) * (paper_pct - 50.0)
    if side > 0:
        return "same direction"
    return "opposite" if side < 0 or paper_pct == 50.0 else "level"


@dataclass
class PageResult:
    id: str
    title: str
    markdown: str
    counts: dict[str, int] = field(default_factory=dict)
    games: int = 0
    cpu_seconds: float = 0.0
    images: list[str] = field(default_factory=list)


def _pct(x: float | None, d: int = 1) -> str:
    return "—" if x is None else f"{x:.{d}f}"


def _side_budget(b: dict | None, work: float | None, unit: str | None) -> str:
    if not b:
        return "?"
    if b.get("time") is not None:
        return f"{b['time']:g} s"
    n = b.get("sims")
    u = b.get("unit", "sims")
    mean = f", {work:,.0f} {unit}/move used" if work is not None and unit else ""
    return f"{n:,} {u}{mean}" if n is not None else "?"


def _ours(row: dict) -> tuple[float | None, float | None, float | None, str]:
    """(score %, low %, high %, what was counted) of a row; Kalah by the pair rule."""
    pairs = row.get("pairs")
    if pairs is not None:
        decisive = pairs["won"] + pairs["lost"]
        if not decisive:
            return None, None, None, f"{pairs['won']}-{pairs['lost']} decisive pairs"
        return (100 * pairs["score"], 100 * pairs["ci_low"], 100 * pairs["ci_high"],
                f"{pairs['won']}-{pairs['lost']} pairs ({pairs['discarded']} discarded)")
    if not row["games"]:
        return None, None, None, "0 games"
    return (100 * row["score"], 100 * row["ci_low"], 100 * row["ci_high"],
            f"{row['wins']}-{row['draws']}-{row['losses']} of {row['games']}")


def _paper_for(row: dict, seconds: float | None):
    from mcts_arena.paper import match_paper

    try:
        found = match_paper(row["game"], strip_budget(row["player"]),
                            strip_budget(row["opponent"]), seconds=seconds)
    except ValueError:
        found = []
    return found[0] if found else None


def _paper_cell(pr) -> str:
    if pr is None:
        return "—"
    ci = f" ± {pr.ci_pct:.2f}" if pr.ci_pct is not None else ""
    n = f", n={pr.games}" if pr.games else ""
    return f"{pr.win_pct:.2f}{ci} ({pr.seconds:g} s{n})"


def _figure_claims(game: str, sweeps) -> list[dict]:
    """For each sweep, the paper figure that reads it (best α range), if any."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    out = []
    figs = load_paper_results().figures
    for sw in sweeps:
        for fig in figs:
            if fig.game != sw.game:
                continue
            try:
                same = (normalize_spec(fig.player.replace("{alpha}", "0.5")) ==
                        normalize_spec(sw.player.replace("{}", "0.5")) and
                        normalize_spec(fig.opponent) == normalize_spec(sw.opponent))
            except ValueError:
                same = False
            if same:
                out.append({"sweep": sw, "figure": fig})
                break
        else:
            out.append({"sweep": sw, "figure": None})
    return out


def write_page(page, dirs: list[Path], paper_seconds: dict[str, float | None], docs: Path,
               command: str) -> PageResult:
    """Write docs/<page.id>.md (and its PNGs) from the results directories that exist."""
    from mcts_arena.report.figures import forest_plot
    from mcts_arena.report.plots import plot_sweep

    have = [d for d in dirs if (d / "arena.sqlite").exists()]
    lines = [f"# {page.title}", "", f"Made by `{command}`.", ""]
    res = PageResult(page.id, page.title, "")
    counts = {v: 0 for v in VERDICTS}
    if not have:
        lines += ["Not played yet.", ""]
        res.markdown = "\n".join(lines)
        res.counts = counts
        (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
        return res
    report = build_report([str(d) for d in have], compare=None)
    for exp in report.experiments:
        info = exp.info
        name = info["experiment"]
        secs = paper_seconds.get(name)
        lines += [f"## {info.get('description') or name}", ""]
        if secs is not None:
            lines.append(f"Stands for the paper's {secs:g} s per move; played at "
                         f"{info.get('budget', '?')}.")
        lines += ["", "| pairing | budget per move (player; opponent) | ours: win % [95% CI] | "
                  "counted | paper: win % | verdict |", "|---|---|---|---|---|---|"]
        forest = []
        for row in exp.rows:
            o, lo, hi, what = _ours(row)
            pr = _paper_for(row, secs)
            if pr is not None or not row.get("sweep"):
                forest.append({"player": row["player"], "opponent": row["opponent"],
                               "budget": row["budget"], "games": row["games"] if o is not None
                               else 0, "score": None if o is None else o / 100,
                               "ci_low": None if o is None else lo / 100,
                               "ci_high": None if o is None else hi / 100,
                               "paper_pct": pr.win_pct if pr else None})
            v = classify(o, lo, hi, pr.win_pct if pr else None)
            if exp.tournament and pr is None:
                v = "—"            # a bracket's match: the tournament is judged by its winner
            elif not (v == "no paper row" and row.get("sweep")):   # a figure's point: below
                counts[v] += 1
            res.games += row["games"] + row["errors"]
            ours = "—" if o is None else f"{o:.1f} [{lo:.1f}, {hi:.1f}]"
            bud = "; ".join(_side_budget(row[f"{s}_budget"], row[f"{s}_work"],
                                         row[f"{s}_work_unit"]) for s in ("player", "opponent"))
            err = f", {row['errors']} error games" if row["errors"] else ""
            lines.append(f"| {row['player']} vs {row['opponent']} | {bud} | {ours} | "
                         f"{what}{err} | {_paper_cell(pr)} | {v} |")
        lines.append("")
        if forest:
            img = f"{page.id}-{name}-forest.png"
            forest_plot(forest, docs / img, title=f"{info.get('description') or name}: ours "
                        f"(95% CI) and the paper's value")
            res.images.append(img)
            lines += [f"![forest plot: {name}]({img})", ""]
        if exp.tournament:
            lines += ["```", exp.tournament.rstrip(), "```", ""]
    for claim in _figure_claims("", report.sweeps):
        sw, fig = claim["sweep"], claim["figure"]
        img = f"{page.id}-{sw.slug}.png"
        plot_sweep(sw, docs / img)
        res.images.append(img)
        lines += [f"### {sw.title}", "", f"![{sw.title}]({img})", ""]
        if fig is None:
            lines += ["The paper publishes no curve for this sweep.", ""]
            continue
        lo_a, hi_a = fig.best_alpha
        lines.append(f"The paper ({fig.id}): {fig.claim}. Our points inside [{lo_a:g}, {hi_a:g}]:")
        lines.append("")
        for label, pts in sw.curves.items():
            for x, row in pts:
                if not lo_a - 1e-9 <= x <= hi_a + 1e-9:
                    continue
                o, lo, hi, what = _ours(row)
                v = "no games" if o is None else ("same direction" if o > 50 else
                                                  "opposite" if o < 50 else "level")
                counts[v] += 1
                lines.append(f"- α = {x:g} ({label}): {_pct(o)}% [{_pct(lo)}, {_pct(hi)}], "
                             f"{what}: {v}")
        best = max(((x, _ours(r)[0]) for pts in sw.curves.values() for x, r in pts
                    if _ours(r)[0] is not None), key=lambda t: t[1], default=None)
        if best:
            lines += ["", f"Our best point: α = {best[0]:g} ({best[1]:.1f}%)."]
        lines.append("")
    n_counted = sum(counts[v] for v in COUNTED)
    summary = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    lines[3:3] = [f"**Verdicts**: {summary or 'none'} ({n_counted} compared).", ""]
    res.counts = counts
    res.markdown = "\n".join(lines)
    (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
    return res


def write_index(results: list[PageResult], docs: Path, command: str, scale_text: str,
                notes: str = "") -> Path:
    """docs/index.md: every page with its verdict counts, and the totals."""
    total = {v: sum(r.counts.get(v, 0) for r in results) for v in VERDICTS}
    lines = ["# The paper reproduced", "",
             "Lanctot, Winands, Pepels & Sturtevant, *Monte Carlo Tree Search with Heuristic "
             "Evaluations using Implicit Minimax Backups* (2014, arXiv:1406.0486), replayed by "
             "mcts_arena.", "",
             f"- command: `{command}`",
             f"- scale: {scale_text}",
             f"- written: {_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC on "
             f"{platform.machine()} ({platform.python_implementation()} "
             f"{platform.python_version()})",
             f"- games stored: {sum(r.games for r in results)}", "",
             "**Totals**: " + ", ".join(f"{total[v]} {v}" for v in VERDICTS), "",
             "| page | " + " | ".join(VERDICTS) + " |",
             "|---|" + "---|" * len(VERDICTS)]
    for r in results:
        lines.append(f"| [{r.title}]({r.id}.md) | " +
                     " | ".join(str(r.counts.get(v, 0)) for v in VERDICTS) + " |")
    lines += ["", "Verdicts: *consistent* = the paper's win rate lies inside our 95% interval; "
              "*same direction* = outside it, but on the same side of 50%; *opposite* = on the "
              "other side of 50%; *level* = outside it at exactly 50%. Figure points count only "
              "inside the α range the paper names "
              "as best (its claim there: above 50%).", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    p = docs / "index.md"
    p.write_text("\n".join(lines), encoding="utf-8")
    return p


def write_record(pages, docs: Path, command: str, scale_text: str) -> tuple[Path, int]:
    """Every page of a reproduction and its index into `docs`: `pages` holds (page, results
    directories, the paper's seconds per experiment) as runner/reproduce.py's Record lists
    them. Returns the index's path and the number of pages."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    results = [write_page(page, list(dirs), seconds, docs, command)
               for page, dirs, seconds in pages]
    notes = docs / "notes.md"
    idx = write_index(results, docs, command, scale_text,
                      "See [notes.md](notes.md) for what departs from the paper and why."
                      if notes.exists() else "")
    return idx, len(results)
