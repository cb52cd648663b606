"""The reproduction record: one Markdown page per table or figure of the paper, ours beside the
paper's, with a verdict per row, and an index that counts the verdicts.

Read-only over the results stores (it goes through `build_report`, like `arena report`).

A page is written in two steps: `page_model` reads the stores and judges every row (plain data:
each row's verdict from the one rule, `row_verdict`, and the page's counts), and `render_page`
only formats that model as Markdown; `write_page` draws the pictures the model names and writes
the file.

Each judged row gets a verdict of two statements kept apart (report/verdict.py): its **side**
(our 95% interval excludes 50% on the paper's side: right; on the other side: wrong; holds 50%:
undecided) and its **value** (the paper's win rate inside our interval, above it or below it).
The paper's row is the one at the budget the experiment stands for: a scaled-down run of the 1 s
table is compared with the paper's 1 s numbers only. A row without a verdict says why: "no
games" (nothing counted yet: no percentage is shown) or "no paper row" (the paper publishes no
number for this pairing at this budget).

A tournament's matches get no verdict: the paper prints only its brackets, and the page shows
ours beside the paper's winner.

Kalah rows are scored by the paper's pair rule (a pair of games on one board with seats
swapped; decisive pairs only), as the paper scores them; the page states the unit and shows
both bases (per game and per pair) with the paper's decisive counts beside ours. A figure has
no published numbers, only the α range the paper reads as best and its claim there (above 50%):
each of our sweep points inside that range gets a side and no value, once: a point whose games
are also a row of the paper's tables is judged there, against the table's value, and not counted
again. A table's rows that an experiment does not play are named on its page, with the paper
data's note on why.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import inputs, stats
from mcts_arena.report.pairing_row import PairingRow
from mcts_arena.report.tables import Sweep, build_report, builds_text, strip_budget
from mcts_arena.report.verdict import SIDES, VALUE_TEXT, VALUES, Verdict, judge

#: Why a row has no verdict, as the pages and the index count it.
UNJUDGED = ("no games", "no paper row")


def _no_counts() -> dict[str, dict[str, int]]:
    return {"sides": dict.fromkeys(SIDES, 0), "values": dict.fromkeys(VALUES, 0),
            "unjudged": dict.fromkeys(UNJUDGED, 0)}


@dataclass
class PageResult:
    id: str
    title: str
    markdown: str
    #: {"sides": {side: rows}, "values": {value: rows}, "unjudged": {why: rows}}
    counts: dict[str, dict[str, int]] = field(default_factory=_no_counts)
    games: int = 0
    cpu_seconds: float = 0.0
    images: list[str] = field(default_factory=list)
    #: one entry per judged row (table rows with a paper value, figure points in the paper's
    #: best range, best-α rows): {"informative", "width" (points), "power" (or None)}
    judged: list[dict] = field(default_factory=list)
    command: str = ""
    scale: str = ""
    last_game: float | None = None      # unix time of the page's last stored game

    def summary(self) -> dict:
        """What the index keeps of this page (record.json)."""
        widths = [j["width"] for j in self.judged if j["width"] is not None]
        powers = [j["power"] for j in self.judged if j["power"] is not None]
        return {"title": self.title, "command": self.command, "scale": self.scale,
                "games": self.games, **self.counts, "rows": len(self.judged),
                "informative": sum(bool(j["informative"]) for j in self.judged),
                "median_width": _median(widths), "median_power": _median(powers),
                "written": _utc(self.last_game)}


def _utc(t: float | None) -> str:
    """A stored game's time as the pages print it: what a page says depends on its games only,
    so the same games always give the same page, byte for byte."""
    if t is None:
        return "—"
    return f"{_dt.datetime.fromtimestamp(t, _dt.UTC):%Y-%m-%d %H:%M} UTC"


def _median(xs: list[float]) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


#: The z of the power column: Z95 to six places, as the published record computed it (its
#: record.json keeps the median power to every digit).
POWER_Z = round(stats.Z95, 6)


def power(paper_pct: float | None, n: int | None, z: float = POWER_Z) -> float | None:
    """The chance that a two-sided 95% test of "no effect" (50%) rejects it with `n` trials
    when the true win rate is the paper's: the normal approximation of the binomial, variance
    1/4 under no effect and p(1-p) under the paper's p. `n` is what the verdict counts (games,
    games of complete pairs, or decisive pairs under the pair rule). It ignores the variance
    seat-swapped pairs remove, so it is, if anything, low for pair-judged rows. None without a
    paper value or games."""
    from scipy.stats import norm

    if paper_pct is None or not n:
        return None
    p = min(max(paper_pct / 100.0, 1e-6), 1 - 1e-6)
    d, sd = abs(p - 0.5) * math.sqrt(n), math.sqrt(p * (1 - p))
    return float(norm.cdf((d - z * 0.5) / sd) + norm.cdf((-d - z * 0.5) / sd))


# ---- the verdict model: what a page says of every row, as data ------------------------------
@dataclass(frozen=True)
class Ours:
    """An interval as a verdict judges it: score and bounds in percent, and its basis."""

    score: float
    low: float
    high: float
    basis: str          # "pair rule", "pairs" or "games" (tables.judged)

    @property
    def informative(self) -> bool:
        """Does the interval exclude 50%?"""
        return self.low > 50.0 or self.high < 50.0


def _ours(row: PairingRow) -> Ours | None:
    """A row's interval as its verdict judges it (`tables.judged`): the pair rule for games
    scored by pairs (Kalah), the pentanomial where seat-swapped pairs are complete, else the
    games; None with nothing counted."""
    j = row.get("judged")
    if j is None:
        return None
    return Ours(100 * j["score"], 100 * j["ci_low"], 100 * j["ci_high"], j["basis"])


def _per_game(row: PairingRow) -> Ours | None:
    """A pair-rule row's interval per game (draws half): the seat-swapped pairs' interval where
    pairs are complete, else the games'."""
    if row.get("pentanomial"):
        return Ours(100 * row["pair_score"], 100 * row["pair_ci_low"],
                    100 * row["pair_ci_high"], "pairs")
    if not row["games"]:
        return None
    return Ours(100 * row["score"], 100 * row["ci_low"], 100 * row["ci_high"], "games")


@dataclass(frozen=True)
class Judgement:
    """A row's verdict, or why it has none."""

    verdict: Verdict | None
    #: without a verdict: "no games", "no paper row", or "not judged" (a sweep point outside
    #: the figure's best range)
    reason: str | None = None

    @property
    def text(self) -> str:
        return self.verdict.text if self.verdict is not None else str(self.reason)


def row_verdict(ours: Ours | None, paper_pct: float | None, claim: bool = False,
                on_curve: bool | None = None) -> Judgement:
    """The verdict of one row or sweep point: the one rule of every page. Against the paper's
    claim (above 50%: a side, no value) where a figure judges it (`claim`: a best-α row;
    `on_curve`: a point of the figure's curve, True inside its best α range, False outside,
    where it is not judged), else against the paper's table value `paper_pct`."""
    if on_curve is False:
        return Judgement(None, "not judged")
    if ours is None:
        return Judgement(None, "no games")
    if claim or on_curve:
        return Judgement(judge(ours.low, ours.high, claims_above=True))
    if paper_pct is None:
        return Judgement(None, "no paper row")
    return Judgement(judge(ours.low, ours.high, paper_pct))


@dataclass(frozen=True)
class RowModel:
    """One row of an experiment's table on a page."""

    row: PairingRow
    ours: Ours | None
    paper: object | None            # the paper's row at the experiment's budget (paper.py)
    #: the paper figure whose claim judges the row: a best-α row's, or the figure whose curve
    #: the row is a point of
    figure: object | None
    #: a point of `figure`'s curve: True inside its best α range, False outside; None: not one
    on_curve: bool | None
    judgement: Judgement | None     # None: a tournament's match (the bracket is judged)
    counted: bool                   # counted in the page's verdicts as this table's row
    power: float | None


@dataclass(frozen=True)
class PairRuleModel:
    """One row of the Kalah unit table: the paper's decisive counts beside ours, both bases."""

    row: PairingRow
    paper_decisive: tuple[int, int] | None      # (decisive results, n) of the paper's row
    decisive_pairs: tuple[int, int]             # (decisive pairs, complete pairs)
    decisive_games: tuple[int, int]             # (decisive games, games)
    per_game: Ours | None
    per_game_verdict: Judgement
    by_pairs: Ours | None
    by_pairs_verdict: Judgement


@dataclass(frozen=True)
class ExperimentModel:
    """An experiment's part of a page."""

    info: dict
    seconds: float | None           # the paper's seconds per move it stands for
    rows: list[RowModel]
    pair_rule: list[PairRuleModel]
    #: the paper's rows of the table the experiment stands for that it does not play, at its
    #: budget, and {seconds: rows} of the table's rows at other budgets
    not_played: list
    other_budgets: dict
    tables: list[str]               # the tables of those rows
    forest: list[dict]              # the forest plot's points (figures.forest_plot)
    forest_image: str | None
    tournament: str | None


@dataclass(frozen=True)
class PointModel:
    """A sweep point inside the paper's best α range, listed under its figure."""

    x: float
    label: str                      # the curve (budget and other variables)
    row: PairingRow
    ours: Ours | None
    judgement: Judgement
    #: the verdict of the table row with the same games, where the point is also one (judged
    #: there, not counted again); None otherwise
    table_judgement: Judgement | None


@dataclass(frozen=True)
class SweepModel:
    sweep: Sweep
    figure: object | None           # the paper figure that reads it, if any
    image: str
    points: list[PointModel]        # the points inside the figure's best α range
    best: tuple[float, float] | None    # (α, our %) of our best point


@dataclass(frozen=True)
class PageModel:
    id: str
    title: str
    command: str
    scale: str
    experiments: list[ExperimentModel]
    sweeps: list[SweepModel]
    brackets: list[bool]            # per finished bracket: won by the paper's winner?
    counts: dict[str, dict[str, int]]
    judged: list[dict]              # PageResult.judged
    games: int
    last_game: float | None
    played: bool = True


def _paper_for(row: PairingRow, seconds: float | None):
    from mcts_arena.paper import match_paper

    try:
        found = match_paper(row["game"], strip_budget(row["player"]),
                            strip_budget(row["opponent"]), seconds=seconds)
    except ValueError:
        found = []
    return found[0] if found else None


def _figure_claims(sweeps) -> list[dict]:
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


def _in_range(fig, x: float) -> bool:
    lo_a, hi_a = fig.best_alpha
    return lo_a - 1e-9 <= x <= hi_a + 1e-9


def _figure_points(claims: list[dict]) -> dict[int, tuple]:
    """{id(row): (figure, inside its best α range)} of every sweep point a paper figure reads."""
    out = {}
    for c in claims:
        fig = c["figure"]
        if fig is None:
            continue
        for pts in c["sweep"].curves.values():
            for x, row in pts:
                out[id(row)] = (fig, _in_range(fig, x))
    return out


def _not_played(info: dict, matched: list, secs: float | None) -> tuple[list, dict, list[str]]:
    """The rows of the paper's table an experiment stands for that it does not play: at its own
    budget (listed), and {seconds: rows} at other budgets; and the tables. The table is the one
    the experiment's description names ("Table 9: ...") and its rows matched."""
    import re

    from mcts_arena.paper import load_paper_results

    named = set(re.findall(r"^Table \d+", info.get("description") or ""))
    tables = {m.table for m in matched} & named
    if not tables:
        return [], {}, []
    played = {m.id for m in matched}
    same, other = [], {}
    for r in load_paper_results().rows:
        if r.table not in tables or r.game != info["game"] or r.id in played:
            continue
        if secs is not None and r.seconds is not None and float(r.seconds) == float(secs):
            same.append(r)
        else:
            other[r.seconds] = other.get(r.seconds, 0) + 1
    return same, other, sorted(tables)


def _pair_rule_models(rows: list[PairingRow], secs: float | None) -> list[PairRuleModel]:
    """For games scored by pairs (Kalah): each row on both bases, each with its verdict."""
    out = []
    for r in rows:
        if r.get("pairs") is None or not r["games"]:
            continue
        pr = _paper_for(r, secs)
        pairs = r["pairs"]
        dp = pairs["won"] + pairs["lost"]
        paper = None
        if pr is not None and pr.wins_a is not None and pr.games:
            paper = (pr.wins_a + pr.wins_b, pr.games)
        p_pct = pr.win_pct if pr else None
        g, o = _per_game(r), _ours(r)
        out.append(PairRuleModel(r, paper, (dp, dp + pairs["drawn"] + pairs["discarded"]),
                                 (r["wins"] + r["losses"], r["games"]), g,
                                 row_verdict(g, p_pct), o, row_verdict(o, p_pct)))
    return out


def _bracket_winner(st) -> bool | None:
    """For a finished elimination bracket of one of the paper's tournaments: is our winner the
    paper's? None for anything else (no verdict is given to a bracket's matches)."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    if st is None or st.bracket is None or not st.spec.paper or not st.bracket.done:
        return None
    paper = load_paper_results().tournament(st.spec.paper)
    return normalize_spec(st.spec.spec_of(st.bracket.winner)) == \
        normalize_spec(paper.winner_spec)


def _row_claim(row: PairingRow):
    """(figure, α) when `row` is one point of a paper figure inside its best range (a best-α
    row of the record), else None."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    for fig in load_paper_results().figures:
        if fig.game != row["game"]:
            continue
        for a in _alphas_in(row["player"]):
            try:
                same = (normalize_spec(fig.player.replace("{alpha}", a)) ==
                        normalize_spec(strip_budget(row["player"])) and
                        normalize_spec(fig.opponent) ==
                        normalize_spec(strip_budget(row["opponent"])))
            except ValueError:
                same = False
            if same and _in_range(fig, float(a)):
                return fig, float(a)
    return None


def _alphas_in(spec: str) -> list[str]:
    import re

    return re.findall(r"im(\d*\.?\d+)", spec)


class _Tally:
    """A page's counts and judged rows as the model is built."""

    def __init__(self):
        self.counts = _no_counts()
        self.judged: list[dict] = []

    def add(self, j: Judgement, ours: Ours | None, pw: float | None) -> None:
        if j.verdict is not None:
            self.counts["sides"][j.verdict.side] += 1
            if j.verdict.value is not None:
                self.counts["values"][j.verdict.value] += 1
            self.judged.append({"informative": ours.informative, "width": ours.high - ours.low,
                                "power": pw})
        elif j.reason in UNJUDGED:
            self.counts["unjudged"][j.reason] += 1


def page_model(page, dirs: list[Path], paper_seconds: dict[str, float | None], command: str,
               scale: str = "") -> PageModel:
    """What the page of `page` says, as data: every row judged by `row_verdict`, the figures'
    points, the counts. Reads the results directories of `dirs` that exist (read-only)."""
    have = [d for d in dirs if (d / "arena.sqlite").exists()]
    if not have:
        return PageModel(page.id, page.title, command, scale, [], [], [], _no_counts(), [], 0,
                         None, played=False)
    report = build_report([str(d) for d in have], compare=None)
    claims = _figure_claims(report.sweeps)
    points = _figure_points(claims)
    tally = _Tally()
    tabled: dict[int, Judgement] = {}        # id(row) -> its verdict, for rows judged in a table
    experiments = []
    for exp in report.experiments:
        name = exp.info["experiment"]
        secs = paper_seconds.get(name)
        models, forest, matched = [], [], []
        for row in exp.rows:
            o = _ours(row)
            pr = _paper_for(row, secs)
            if pr is not None and not row.get("sweep"):
                matched.append(pr)
            claim = None if pr is not None or row.get("sweep") else _row_claim(row)
            point = points.get(id(row)) if pr is None else None
            if pr is not None or not row.get("sweep"):
                forest.append({"player": row["player"], "opponent": row["opponent"],
                               "budget": row["budget"], "games": row["games"] if o is not None
                               else 0, "score": None if o is None else o.score / 100,
                               "ci_low": None if o is None else o.low / 100,
                               "ci_high": None if o is None else o.high / 100,
                               "paper_pct": pr.win_pct if pr else None})
            on_curve = point[1] if point else None
            j = row_verdict(o, pr.win_pct if pr else None, claim is not None, on_curve)
            pw = power(pr.win_pct, (row.get("judged") or {}).get("n")) if pr else None
            # a bracket's match is judged by the tournament's winner; a figure's point in the
            # figure's list; a sweep point no figure reads and no table has, not at all
            bracket = bool(exp.tournament) and pr is None
            counted = not bracket and point is None and not (
                j.reason == "no paper row" and row.get("sweep"))
            if counted:
                tally.add(j, o, pw)
                tabled[id(row)] = j
            figure = claim[0] if claim else point[0] if point else None
            models.append(RowModel(row, o, pr, figure, on_curve, None if bracket else j,
                                   counted, pw))
        not_played, other, tables = _not_played(exp.info, matched, secs)
        experiments.append(ExperimentModel(
            exp.info, secs, models, _pair_rule_models(exp.rows, secs), not_played, other,
            tables, forest, f"{page.id}-{name}-forest.png" if forest else None,
            exp.tournament))
    sweeps = []
    for claim in claims:
        sw, fig = claim["sweep"], claim["figure"]
        pts = []
        for label, curve in sw.curves.items():
            for x, row in curve if fig is not None else ():
                if not _in_range(fig, x):
                    continue
                o = _ours(row)
                j = row_verdict(o, None, on_curve=True)
                shared = tabled.get(id(row))
                if shared is None:
                    tally.add(j, o, None)
                pts.append(PointModel(x, label, row, o, j, shared))
        best = max(((x, _ours(r).score) for c in sw.curves.values() for x, r in c
                    if _ours(r) is not None), key=lambda t: t[1], default=None)
        sweeps.append(SweepModel(sw, fig, f"{page.id}-{sw.slug}.png", pts, best))
    brackets = [b for b in (_bracket_winner(e.tournament_state) for e in report.experiments)
                if b is not None]
    games = sum(r["games"] + r["errors"] for e in report.experiments for r in e.rows)
    return PageModel(page.id, page.title, command, scale, experiments, sweeps, brackets,
                     tally.counts, tally.judged, games, last_game(have))


# ---- the renderer: the model as Markdown, no verdict decided here ---------------------------
def _pct(x: float | None, d: int = 1) -> str:
    return "—" if x is None else f"{x:.{d}f}"


def _interval(o: Ours | None) -> str:
    return "—" if o is None else f"{o.score:.1f} [{o.low:.1f}, {o.high:.1f}]"


def _side_budget(b: dict | None, work: float | None, unit: str | None) -> str:
    if not b:
        return "?"
    if b.get("time") is not None:
        return f"{b['time']:g} s"
    n = b.get("sims")
    u = b.get("unit", "sims")
    mean = f", {work:,.0f} {unit}/move used" if work is not None and unit else ""
    return f"{n:,} {u}{mean}" if n is not None else "?"


def _counted(row: PairingRow) -> str:
    """W-D-L of the games, and the pairs the verdict counted."""
    pairs = row.get("pairs")
    if pairs is not None:
        return (f"{row['wins']}-{row['draws']}-{row['losses']}; pairs {pairs['won']}-"
                f"{pairs['lost']} ({pairs['discarded']} discarded)")
    if not row["games"]:
        return "0 games"
    return f"{row['wins']}-{row['draws']}-{row['losses']} of {row['games']}"


def _pair_cell(row: PairingRow) -> str:
    pe = row.get("pentanomial")
    if not pe:
        return "—"
    return (f"{'-'.join(map(str, pe))}: {100 * row['pair_score']:.1f} "
            f"[{100 * row['pair_ci_low']:.1f}, {100 * row['pair_ci_high']:.1f}]")


def _games_cell(row: PairingRow) -> str:
    if not row["games"]:
        return "—"
    return (f"{100 * row['score']:.1f} [{100 * row['ci_low']:.1f}, "
            f"{100 * row['ci_high']:.1f}]")


def _stop_cell(row: PairingRow) -> str:
    prec = row.get("precision")
    if not prec or prec.get("games") != row["games"] + row["errors"] and \
            prec.get("games") != row.get("planned"):
        return "—"
    hw = prec.get("half_width")
    why = {"precision": "±{:.1f} reached", "decided": "decided (±{:.1f})",
           "cap": "cap (±{:.1f})"}.get(prec.get("stop") or "", "playing (±{:.1f})")
    return why.format(hw if hw is not None else float("nan"))


def _paper_cell(pr) -> str:
    if pr is None:
        return "—"
    ci = f" ± {pr.ci_pct:.2f}" if pr.ci_pct is not None else ""
    n = f", n={pr.games}" if pr.games else ""
    return f"{pr.win_pct:.2f}{ci} ({pr.seconds:g} s{n})"


def _claim_cell(fig) -> str:
    return f"above 50 ({fig.id}: best α in [{fig.best_alpha[0]:g}, {fig.best_alpha[1]:g}])"


def _verdict_cell(m: RowModel) -> str:
    """The row's verdict with the interval it judged, or why it has none."""
    j = m.judgement
    if j is None:
        return "—"
    if j.reason == "not judged":
        return (f"a point of {m.figure.id}'s curve outside the paper's best α "
                f"[{m.figure.best_alpha[0]:g}, {m.figure.best_alpha[1]:g}]: not judged")
    judged = "" if m.ours is None else f" ({m.ours.basis}: {_interval(m.ours)})"
    where = f"; a point of {m.figure.id}'s curve, counted below" if m.on_curve else ""
    return f"{j.text}{judged if j.reason != 'no games' else ''}{where}"


def _row_line(m: RowModel) -> str:
    row = m.row
    paper = (_claim_cell(m.figure) if m.figure is not None and m.on_curve is not False
             else "—" if m.on_curve is False else _paper_cell(m.paper))
    bud = "; ".join(_side_budget(row[f"{s}_budget"], row[f"{s}_work"], row[f"{s}_work_unit"])
                    for s in ("player", "opponent"))
    err = f", {row['errors']} error games" if row["errors"] else ""
    inf = "—" if m.ours is None else "yes" if m.ours.informative else "no"
    pw = "—" if m.power is None else f"{100 * m.power:.0f}%"
    return (f"| {row['player']} vs {row['opponent']} | {bud} | {_counted(row)}{err} "
            f"| {_games_cell(row)} | {_pair_cell(row)} | {paper} | {_verdict_cell(m)} | "
            f"{inf} | {pw} | {_stop_cell(row)} |")


def _share(part: int, whole: int) -> str:
    return f"{part:,} of {whole:,} ({100 * part / whole:.0f}%)" if whole else "—"


def _pair_rule_lines(models: list[PairRuleModel]) -> list[str]:
    """For games scored by pairs (Kalah): the unit stated, both bases shown (per game and the
    pair rule, each with its verdict) and the choice argued from the paper's counts."""
    if not models:
        return []
    out = ["Unit: these rows are judged by the paper's pair rule. The paper plays each board "
           "twice with seats swapped; \"a player is declared a winner if that player won one of "
           "the games and at least tied the other game. If the same side wins both games, the "
           "game is discarded\" (its Section 4.1): its Kalah \"game\" is such a pair, and its "
           "counts are decisive pairs. Both bases:", "",
           "| pairing | paper: decisive of n | ours: decisive pairs of complete pairs | "
           "ours: decisive games of games | per game (draws half): verdict | "
           "pair rule: verdict |",
           "|---|---|---|---|---|---|"]
    over = []
    for m in models:
        paper = "—" if m.paper_decisive is None else _share(*m.paper_decisive)
        if m.paper_decisive is not None and 2 * m.paper_decisive[0] > m.paper_decisive[1]:
            over.append(f"{m.paper_decisive[0]:,} of {m.paper_decisive[1]:,}")
        out.append(f"| {m.row['player']} vs {m.row['opponent']} | {paper} | "
                   f"{_share(*m.decisive_pairs)} | {_share(*m.decisive_games)} | "
                   f"{m.per_game_verdict.text} ({_interval(m.per_game)}) | "
                   f"{m.by_pairs_verdict.text} ({_interval(m.by_pairs)}) |")
    out.append("")
    if over:
        out += [f"The paper's n counts pairs, not single games: {', '.join(over)} decisive "
                f"results exceed the n/2 pairs that n single games would make. Pairs split by seat "
                f"(discarded) are common where drawn single games are rare, so the paper's "
                f"share of decisive results is to be set beside our decisive pairs, not our "
                f"decisive games (the table above gives both).", ""]
    return out


def _left_out_lines(e: ExperimentModel) -> list[str]:
    """The paper's rows the experiment does not play: each at its budget with the paper data's
    note on why, those at other budgets counted."""
    out = []
    for r in e.not_played:
        label = r.paper_label or f"{r.player} vs {r.opponent}"
        why = r.notes.rstrip(".") if r.notes else "no pairing of this experiment plays it"
        out.append(f"Not played: the paper's {r.table} row {label} ({r.win_pct:.1f}%, "
                   f"{r.seconds:g} s" + (f", n={r.games}" if r.games else "") + f"): {why}.")
    if e.other_budgets:
        at = ", ".join(f"{n} at {s:g} s" if s is not None else f"{n} without a budget"
                       for s, n in sorted(e.other_budgets.items(),
                                          key=lambda kv: (kv[0] is None, kv[0])))
        out.append(f"The paper's {', '.join(e.tables)} also has rows at other budgets "
                   f"({at}), not played in this experiment (it stands for {e.seconds:g} s).")
    return [" ".join(out), ""] if out else []


def _brackets_text(same: list[bool]) -> str:
    if not same:
        return ""
    return (f" **Brackets**: {sum(same)} of {len(same)} finished brackets won by the paper's "
            f"winner (a bracket is judged by its winner only).")


def _counts_text(counts: dict[str, dict[str, int]]) -> str:
    """"side: 11 right, 1 undecided; value: 7 inside, 3 above ours, 2 below ours; 1 no paper
    row"."""
    parts = []
    for key, word, text in (("sides", "side", {}), ("values", "value", VALUE_TEXT)):
        said = ", ".join(f"{n} {text.get(k, k)}" for k, n in counts[key].items() if n)
        if said:
            parts.append(f"{word}: {said}")
    parts += [f"{n} {k}" for k, n in counts["unjudged"].items() if n]
    return "; ".join(parts) or "none"


#: What a page's verdict says, once per page, under its counts.
VERDICT_LEGEND = ("Each verdict says two things apart. *Side*: our 95% interval excludes 50% on "
                  "the paper's side (right), on the other side (wrong), or holds 50% "
                  "(undecided). *Value*: the paper's win rate lies inside our interval, above ours "
                  "or below ours (a figure's claim, above 50% in its best α range, has no "
                  "value).")


def _experiment_lines(e: ExperimentModel) -> list[str]:
    info = e.info
    name = info["experiment"]
    rows = [m.row for m in e.rows]
    lines = [f"## {info.get('description') or name}", ""]
    stored = sum(r["games"] + r["errors"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    per = sorted({r["games"] for r in rows})
    facts = []
    if e.seconds is not None:
        facts.append(f"Stands for the paper's {e.seconds:g} s per move; played at "
                     f"{info.get('budget', '?')}")
    facts.append(f"{stored} games stored" + (f" ({errors} error games, not counted)"
                                              if errors else "")
                 + (f", {per[0]} per pairing" if len(per) == 1 else
                    f", {per[0]}-{per[-1]} per pairing" if per else ""))
    builds = {b for r in rows for b in (r.get("builds") or {})}
    if builds:
        facts.append("played by build " + ", ".join(sorted(builds))
                     + (" (mixed: see the rows' builds)" if len(builds) > 1 else ""))
    lines += ["; ".join(facts) + ".", ""]
    if len(builds) > 1:
        lines += [f"- builds of {r['player']} vs {r['opponent']}: "
                  f"{builds_text(r.get('builds') or {})}" for r in rows]
        lines.append("")
    lines += ["| pairing | budget per move (player; opponent) | counted | per game: win % "
              "[95% CI] | pairs LL-LD-WL/DD-WD-WW: score % [95% CI] | paper: win % | "
              "verdict (interval judged) | informative | power | stop |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    lines += [_row_line(m) for m in e.rows]
    lines.append("")
    rule = next((r["precision"]["rule"] for r in rows if r.get("precision")), None)
    if rule:
        lines += [f"Stop rule: {rule}.", ""]
    lines += _pair_rule_lines(e.pair_rule)
    lines += _left_out_lines(e)
    if e.forest_image:
        lines += [f"![forest plot: {name}]({e.forest_image})", ""]
    if e.tournament:
        lines += ["```", e.tournament.rstrip(), "```", ""]
    return lines


def _sweep_lines(s: SweepModel) -> list[str]:
    sw, fig = s.sweep, s.figure
    lines = [f"### {sw.title}", "", f"![{sw.title}]({s.image})", ""]
    if fig is None:
        return lines + ["The paper publishes no curve for this sweep.", ""]
    lo_a, hi_a = fig.best_alpha
    lines += [f"The paper ({fig.id}): {fig.claim}. Our points inside [{lo_a:g}, {hi_a:g}]:", ""]
    for p in s.points:
        o = p.ours
        head = (f"- α = {p.x:g} ({p.label}): {_pct(o and o.score)}% [{_pct(o and o.low)}, "
                f"{_pct(o and o.high)}] ({o.basis if o else '—'}), {_counted(p.row)}")
        if p.table_judgement is not None:
            lines.append(f"{head}: judged above against the paper's table value "
                         f"({p.table_judgement.text}), not counted again")
        else:
            lines.append(f"{head}: {p.judgement.text}")
    shared = sum(p.table_judgement is not None for p in s.points)
    if shared:
        lines += ["", f"{shared} of these points {'is' if shared == 1 else 'are'} also "
                  f"a row of the paper's tables (the same games): judged once, against the "
                  f"table's value, and counted once in this page's verdicts."]
    if s.best:
        lines += ["", f"Our best point: α = {s.best[0]:g} ({s.best[1]:.1f}%)."]
    lines.append("")
    return lines


def render_page(m: PageModel) -> str:
    """The page's Markdown: the model formatted, nothing judged."""
    lines = [f"# {m.title}", "", f"Played by `{m.command}`" + (f" ({m.scale})" if m.scale else "")
             + ".", ""]
    if not m.played:
        return "\n".join(lines + ["Not played yet.", ""])
    widths = [j["width"] for j in m.judged if j["width"] is not None]
    powers = [j["power"] for j in m.judged if j["power"] is not None]
    width, pw = _median(widths), _median(powers)
    informative = sum(bool(j["informative"]) for j in m.judged)
    lines += [f"**Verdicts** ({len(m.judged)} judged rows): {_counts_text(m.counts)}. "
              f"**Informative**: {informative} of {len(m.judged)} judged rows have a 95% "
              f"interval that excludes 50%"
              + (f"; median interval width {width:.1f} points" if width is not None else "")
              + (f"; median power to detect the paper's effect at the games counted "
                 f"{100 * pw:.0f}%" if pw is not None else "")
              + "." + _brackets_text(m.brackets), "", VERDICT_LEGEND, ""]
    for e in m.experiments:
        lines += _experiment_lines(e)
    for s in m.sweeps:
        lines += _sweep_lines(s)
    return "\n".join(lines)


def write_page(page, dirs: list[Path], paper_seconds: dict[str, float | None], docs: Path,
               command: str, scale: str = "") -> PageResult:
    """Write docs/<page.id>.md (and its PNGs) from the results directories that exist.

    The page states the command that played it and its scale, and per experiment the games it
    holds and the builds that played them; each row shows the per-game interval, the pair
    statistics, the paper's value, the verdict (side and value) with the interval it judged
    (pairs where there are complete seat-swapped pairs), whether that interval excludes 50%
    (informative), the power to detect the paper's effect at the games counted, and why the
    row stopped."""
    from mcts_arena.report.figures import forest_plot
    from mcts_arena.report.plots import plot_sweep

    m = page_model(page, dirs, paper_seconds, command, scale)
    res = PageResult(page.id, page.title, render_page(m), m.counts, m.games,
                     judged=m.judged, command=command, scale=scale, last_game=m.last_game)
    for e in m.experiments:
        if e.forest_image:
            name = e.info["experiment"]
            forest_plot(e.forest, docs / e.forest_image,
                        title=f"{e.info.get('description') or name}: ours (95% CI) and the "
                              f"paper's value")
            res.images.append(e.forest_image)
    for s in m.sweeps:
        plot_sweep(s.sweep, docs / s.image)
        res.images.append(s.image)
    (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
    return res


RECORD_FILE = "record.json"       # what the index keeps of every page, page by page


def last_game(dirs: list[Path]) -> float | None:
    """The unix time of the last game stored in any of `dirs`' stores."""
    from mcts_arena.results.store import Store

    times = []
    for d in dirs:
        with Store.open(d) as store:
            t = store.last_finished()
            if t is not None:
                times.append(t)
    return max(times, default=None)


def load_record(docs: Path) -> dict[str, dict]:
    """{page id: summary} of the record in `docs` (empty when there is none)."""
    from mcts_arena.errors import UserError

    f = docs / RECORD_FILE
    if not f.exists():
        return {}
    try:
        data = json.loads(inputs.read_text(f, "the record's index (JSON)"))
        pages = data["pages"]
        if not isinstance(pages, dict):
            raise ValueError("pages is not a mapping")
        return pages
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise UserError(f"{f}: not a record index this tool wrote ({e}); move it aside") from None


def check_overwrite(docs: Path, page_ids: list[str], effort: float, replace: bool) -> None:
    """Refuse (UserError, before anything is played or written) to write pages into `docs`
    over a record made at another scale, unless `replace`: a quick run in a clone must not
    rewrite the committed record. Pages of the same scale are updated in place; the other
    pages and their index rows are always kept."""
    from mcts_arena.errors import UserError

    if replace or not docs.exists():
        return
    if not docs.is_dir():
        raise UserError(f"--docs {docs}: is a file, expected a folder for the record's pages")
    record = load_record(docs)
    if not record and (docs / "index.md").exists():
        raise UserError(f"{docs} holds a record written without {RECORD_FILE} (its scale is "
                        f"unknown); write elsewhere with --docs DIR, or over it with "
                        f"--replace-record")
    for pid in page_ids:
        old = record.get(pid, {}).get("effort")
        if old is not None and abs(old - effort) > 1e-12:
            raise UserError(f"{docs}/{pid}.md was played at scale {old:g}, this run is at "
                            f"{effort:g}; write elsewhere with --docs DIR, or over it with "
                            f"--replace-record")


def write_index(results: list[PageResult], docs: Path, order: list[str], effort: float,
                notes: str = "") -> Path:
    """docs/index.md from the pages just written and those the record already had (kept as
    they were, from record.json): per page its scale, games, judged and informative rows,
    median interval width, median power and verdict counts, and the command that played it."""
    record = load_record(docs)
    for r in results:
        record[r.id] = {**r.summary(), "effort": effort}
    ids = [i for i in order if i in record] + sorted(i for i in record if i not in order)
    pages = [(i, record[i]) for i in ids]
    rows = sum(p["rows"] for _, p in pages)
    inf = sum(p["informative"] for _, p in pages)
    columns = [("sides", k) for k in SIDES] + [("values", k) for k in VALUES] + \
        [("unjudged", k) for k in UNJUDGED]
    counted = [p for _, p in pages if "sides" in p]
    total = _no_counts()
    for key, k in columns:
        total[key][k] = sum(p[key].get(k, 0) for p in counted)

    def num(x, fmt):
        return "—" if x is None else fmt.format(x)

    def cells(p):
        if "sides" not in p:       # an entry that holds one combined verdict per row
            return ["—"] * len(columns)
        return [str(p[key].get(k, 0)) for key, k in columns]

    heads = [f"side {k}" for k in SIDES] + [f"value {VALUE_TEXT[k]}" for k in VALUES] + \
        list(UNJUDGED)
    lines = ["# The paper reproduced", "",
             "Lanctot, Winands, Pepels & Sturtevant, *Monte Carlo Tree Search with Heuristic "
             "Evaluations using Implicit Minimax Backups* (2014, arXiv:1406.0486), replayed by "
             "mcts_arena. Each page says the command that played it; the table below gives, per "
             "page, the scale (a fraction of the paper's search effort, as matched effort), the "
             "games stored, how many judged rows have a 95% interval that excludes 50% "
             "(informative), their median interval width, the median power to detect the "
             "paper's effect at the games counted, and the verdicts.", "",
             f"- last game played: "
             f"{max((p['written'] for _, p in pages if p['written'] != '—'), default='—')}",
             f"- games stored: {sum(p['games'] for _, p in pages)}", "",
             f"**Totals**: {inf} of {rows} judged rows informative; {_counts_text(total)}"
             + (f" (over {len(counted)} of {len(pages)} pages: the others hold one combined "
                f"verdict per row, shown —)" if len(counted) < len(pages) else ""), "",
             "| page | scale | games | informative | median width (points) | median power | "
             + " | ".join(heads) + " |",
             "|---|---|---|---|---|---|" + "---|" * len(heads)]
    for i, p in pages:
        lines.append(f"| [{p['title']}]({i}.md) | {p.get('effort', 0):g} | {p['games']} | "
                     f"{p['informative']} of {p['rows']} | {num(p['median_width'], '{:.1f}')} | "
                     f"{num(p['median_power'] and 100 * p['median_power'], '{:.0f}%')} | "
                     + " | ".join(cells(p)) + " |")
    lines += ["", "| page | played by | last game |", "|---|---|---|"]
    for i, p in pages:
        lines.append(f"| {i} | `{p['command']}` | {p['written']} |")
    lines += ["", VERDICT_LEGEND + " The interval judged is the seat-swapped pairs' "
              "(pentanomial) where both games of a pair are counted, the paper's pair rule in "
              "Kalah, else the games'. Figure points (and the best-α rows) count only inside the "
              "α range the paper names as best. Power: the chance that a 95% test rejects 50% "
              "at the games counted if the paper's win rate were true (normal approximation).",
              ""]
    if notes:
        lines += [notes.rstrip(), ""]
    (docs / RECORD_FILE).write_text(json.dumps({"pages": record}, indent=1, sort_keys=True)
                                    + "\n", encoding="utf-8")
    p = docs / "index.md"
    p.write_text("\n".join(lines), encoding="utf-8")
    return p


def write_record(pages, docs: Path, command: str, scale_text: str, order: list[str],
                 effort: float) -> tuple[Path, int]:
    """The pages of a reproduction and the index into `docs`: `pages` holds (page, results
    directories, the paper's seconds per experiment) as runner/reproduce.py's Record lists
    them; the index keeps the rows of the record's other pages (`order`: the manifest's page
    ids). Returns the index's path and the number of pages written."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    results = [write_page(page, list(dirs), seconds, docs, command, scale_text)
               for page, dirs, seconds in pages]
    notes = docs / "notes.md"
    idx = write_index(results, docs, list(order), effort,
                      "See [notes.md](notes.md) for what departs from the paper and why."
                      if notes.exists() else "")
    return idx, len(results)
