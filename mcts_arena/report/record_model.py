"""The record's pages as data: what a page of docs/reproduction says of every row, judged by
the one rule (`row_verdict`, on report/verdict.py's `judge`), and its counts. No text is
written here: report/record_markdown.py formats this model, report/reproduction.py writes it.

Read-only over the results stores (it goes through `build_report`, like `arena report`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import stats
from mcts_arena.paper import spec_key
from mcts_arena.report.im_gain import Gain, gain, without_im
from mcts_arena.report.pairing_row import PairingRow
from mcts_arena.report.tables import (
    Sweep,
    build_report,
    judged,
    judged_at,
    stop_looks,
    strip_budget,
)
from mcts_arena.report.verdict import SIDES, VALUES, Verdict, judge

#: Why a row has no verdict, as the pages and the index count it.
UNJUDGED = ("no games", "no paper row")


def no_counts() -> dict[str, dict[str, int]]:
    """A page's counts before any row: {"sides": {side: 0}, "values": ..., "unjudged": ...}."""
    return {"sides": dict.fromkeys(SIDES, 0), "values": dict.fromkeys(VALUES, 0),
            "unjudged": dict.fromkeys(UNJUDGED, 0)}


def median(xs: list[float]) -> float | None:
    """The median of `xs`; None without any."""
    if not xs:
        return None
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


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
    """An interval as a verdict judges it: score and bounds in percent, its basis, and its
    level: `z` None for 95%, else the z of a sequential stop rule's split (stats.looks_z)."""

    score: float
    low: float
    high: float
    basis: str          # "pair rule", "pairs" or "games" (tables.judged)
    z: float | None = None

    @property
    def informative(self) -> bool:
        """Does the interval exclude 50%?"""
        return self.low > 50.0 or self.high < 50.0


def verdict_z(row: PairingRow) -> float | None:
    """The z a row's verdict is read at: its stop rule's level for a row played in more than
    one possible look (report/verdict.py says why), None (95%) otherwise."""
    looks = stop_looks(row)
    return stats.looks_z(looks) if looks and looks > 1 else None


def _ours(row: PairingRow) -> Ours | None:
    """A row's interval as its verdict judges it (`tables.judged`): the pair rule for games
    scored by pairs (Kalah), the pentanomial where seat-swapped pairs are complete, else the
    games; at the level of the row's stop rule (`verdict_z`); None with nothing counted."""
    z = verdict_z(row)
    j = row.get("judged") if z is None else judged_at(row, z)
    if j is None:
        return None
    return Ours(100 * j["score"], 100 * j["ci_low"], 100 * j["ci_high"], j["basis"], z)


def _per_game(row: PairingRow) -> Ours | None:
    """A pair-rule row's interval per game (draws half): the seat-swapped pairs' interval where
    pairs are complete, else the games'; at the level of the row's stop rule, as `_ours`."""
    z = verdict_z(row)
    per_game = {**row, "pairs": None}         # judged as if the game were scored game by game
    j = judged(per_game) if z is None else judged_at(per_game, z)
    if j is None:
        return None
    return Ours(100 * j["score"], 100 * j["ci_low"], 100 * j["ci_high"], j["basis"], z)


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


def paper_range(pr) -> tuple[float, float] | None:
    """The paper's own 95% interval of a row's value (percent): its printed ±, else the Wald
    interval of its n games; None where the paper gives neither."""
    if pr is None:
        return None
    p = pr.win_pct
    if pr.ci_pct is not None:
        return p - pr.ci_pct, p + pr.ci_pct
    if pr.games:
        half = 100.0 * stats.wald_half_width(p / 100.0, pr.games)
        return p - half, p + half
    return None


def row_verdict(ours: Ours | None, paper_pct: float | None, claim: bool = False,
                on_curve: bool | None = None, value_judged: bool = True,
                paper_ci: tuple[float, float] | None = None, no_loss: bool = False
                ) -> Judgement:
    """The verdict of one row or sweep point: the one rule of every page. Against the paper's
    claim (above 50%: a side, no value) where a figure judges it (`claim`: a best-α row;
    `on_curve`: a point of the figure's curve, True inside its best α range, False outside,
    where it is not judged), else against the paper's table value `paper_pct` (its value
    judged only at the paper's own effort: `value_judged`; its side unclaimed where the paper's
    own interval `paper_ci` holds 50%; `no_loss`: the figure claims only "not below 50%")."""
    if on_curve is False:
        return Judgement(None, "not judged")
    if ours is None:
        return Judgement(None, "no games")
    if claim or on_curve:
        return Judgement(judge(ours.low, ours.high, claims_above=True, no_loss=no_loss))
    if paper_pct is None:
        return Judgement(None, "no paper row")
    return Judgement(judge(ours.low, ours.high, paper_pct, value_judged=value_judged,
                           paper_range=paper_ci))


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


def _share(wins: int, losses: int) -> float:
    """`wins`' share of the decisive results, in percent (50 without any)."""
    return 100.0 * wins / (wins + losses) if wins + losses else 50.0


@dataclass(frozen=True)
class PaperMatch:
    """A match of our bracket that the paper's printed bracket also played, from the side of
    the paper's winner of it. Wins are the bracket's own unit (games; pairs won under a pair
    rule), as both brackets print them."""

    round: int                      # our round it was played in
    winner: str                     # the paper's winner of the match (entrant label)
    loser: str
    paper_wins: tuple[int, int]     # (winner's, loser's) in the paper's bracket
    our_wins: tuple[int, int]       # the same entrants' wins in ours
    #: the paper winner's share of the wins in ours and its 95% interval (percent; the
    #: record's interval: Wilson below 100, Wald from 100), None without a decisive result
    ours: tuple[float, float, float] | None
    verdict: Verdict | None         # our interval against the paper's share
    same_winner: bool               # the paper's winner won ours too (a tie: by our tie rule)

    @property
    def paper_pct(self) -> float:
        """The paper winner's share of the match's wins in the paper (percent)."""
        return _share(*self.paper_wins)

    @property
    def paper_interval(self) -> tuple[float, float]:
        """The 95% interval of the paper's share, by the record's rule (percent): how sure the
        paper's own match was."""
        return _paper_share_interval(*self.paper_wins)


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
    #: [(the rates-file entry, [players whose budgets it set])] for the players of a matched
    #: effort without a rate of their own: each took the rate of the entry named
    rates_taken: list[tuple[str, list[str]]]
    #: the one rates-file entry every budget of the experiment came from; None if several (or
    #: none: budgets in seconds or simulations)
    one_rate: str | None
    #: a bracket of the paper's: its matches the paper's bracket played too
    paper_matches: list[PaperMatch] = field(default_factory=list)
    #: implicit minimax's gain for each pair of rows the paper has both of (report/im_gain.py)
    gains: list[Gain] = field(default_factory=list)
    #: [(row with im, the paper's row without it that is not played here, its paper value)]
    gains_unplayed: list[tuple[str, str, float]] = field(default_factory=list)


@dataclass(frozen=True)
class MatchTally:
    """The matches of one or more of our brackets that the paper's brackets played too,
    summed: how many of ours they are, how often the same entrant won, and where the paper's
    share lies against our interval."""

    shared: int                     # matches the paper's brackets played too
    played: int                     # matches our brackets played
    same_winner: int
    judged: int                     # shared matches with a decisive result of ours
    values: dict[str, int]          # {"inside" | "above" | "below": matches}


def match_tally(experiments: list[ExperimentModel]) -> MatchTally:
    """The tally of the tournaments among `experiments`."""
    brackets = [e for e in experiments if e.tournament]
    ms = [m for e in brackets for m in e.paper_matches]
    values = dict.fromkeys(VALUES, 0)
    for m in ms:
        if m.verdict is not None:
            values[m.verdict.value] += 1
    return MatchTally(len(ms), sum(1 for e in brackets for r in e.rows if r.row["games"]),
                      sum(m.same_winner for m in ms), sum(values.values()), values)


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
    values_judged: bool = True      # at the paper's own effort (`at_paper_effort`)


def _paper_for(row: PairingRow, seconds: float | None, player: str | None = None):
    """The paper's row for `row` (or for `player` against its opponent) at `seconds`. A side
    the paper never names (the authors' own engine, an outside player) playing on a rates entry
    of the paper's engine stands for that entry's player: their MCTS(bl) against their αβ is
    the paper's Table 4 row; ours against theirs (the same entry on both sides) has no paper
    row and is judged against 50%."""
    from mcts_arena.paper import match_paper

    p = _stands_for(player or strip_budget(row["player"]), row.get("player_budget"))
    o = _stands_for(strip_budget(row["opponent"]), row.get("opponent_budget"))
    try:
        found = match_paper(row["game"], p, o, seconds=seconds)
    except ValueError:
        found = []
    return found[0] if found else None


def _stands_for(spec: str, budget: dict | None) -> str:
    """The paper player `spec` stands for: itself, unless it is of a kind the paper never names
    and its budget came from a rates entry (`rate_of`), whose player it then is."""
    from mcts_arena.paper import paper_kinds
    from mcts_arena.players.notation import parts

    if budget and budget.get("rate_of") and parts(spec)[0] not in paper_kinds():
        return budget["rate_of"]
    return spec


def _gains(models: list[RowModel], secs: float | None, value_judged: bool
           ) -> tuple[list[Gain], list[tuple[str, str, float]]]:
    """Implicit minimax's gain for every row with im and a paper value whose twin without im
    (the same opponent) is a row too, and the paper's twins that are not played."""
    rows = [m for m in models if m.paper is not None and not m.row.get("sweep")]
    out, unplayed = [], []
    for m in rows:
        base = without_im(strip_budget(m.row["player"]))
        if base is None:
            continue
        twin = next((t for t in rows if strip_budget(t.row["player"]) == base
                     and t.row["opponent"] == m.row["opponent"]), None)
        if twin is None:
            pr = _paper_for(m.row, secs, base)
            if pr is not None:
                unplayed.append((m.row["player"], f"{base} vs {m.row['opponent']}", pr.win_pct))
            continue
        zs = [verdict_z(r) for r in (m.row, twin.row)]
        z = max([x for x in zs if x is not None], default=stats.Z95)
        g = gain(m.row, twin.row, m.paper.win_pct, twin.paper.win_pct,
                 (m.paper.games, twin.paper.games), z, value_judged)
        if g is not None:
            out.append(g)
    return out, unplayed


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


#: a bracket's match in the Kalah unit table: the bracket is judged by its winner
BRACKET_MATCH = "a bracket's match, not judged"


def _pair_rule_models(models: list[RowModel], value_judged: bool = True
                      ) -> list[PairRuleModel]:
    """For games scored by pairs (Kalah): each row on both bases, each judged as its row is (a
    figure's point against the figure's claim, a table row against the paper's value)."""
    out = []
    for m in models:
        r, pr = m.row, m.paper
        if r.get("pairs") is None or not r["games"]:
            continue
        pairs = r["pairs"]
        dp = pairs["won"] + pairs["lost"]
        paper = None
        if pr is not None and pr.wins_a is not None and pr.games:
            paper = (pr.wins_a + pr.wins_b, pr.games)
        g, o = _per_game(r), _ours(r)
        out.append(PairRuleModel(r, paper, (dp, dp + pairs["drawn"] + pairs["discarded"]),
                                 (r["wins"] + r["losses"], r["games"]), g,
                                 _as_row_is(m, g, value_judged), o,
                                 _as_row_is(m, o, value_judged)))
    return out


def _as_row_is(m: RowModel, x: Ours | None, value_judged: bool) -> Judgement:
    """Interval `x` of row `m` judged as the row is: a bracket's match not at all, a figure's
    point against the figure's claim, a table row against the paper's value."""
    if m.judgement is None:
        return Judgement(None, BRACKET_MATCH)
    pr = m.paper
    return row_verdict(x, pr.win_pct if pr else None, m.figure is not None and m.on_curve is None,
                       m.on_curve, value_judged, paper_range(pr), _no_loss(m.figure))


def _no_loss(fig) -> bool:
    """Does figure `fig` (or None) claim only that α does no harm in its best range?"""
    return bool(getattr(fig, "no_loss", False))


def _paper_share_interval(wins: int, losses: int) -> tuple[float, float]:
    """The 95% interval of the paper's share of a match's wins (percent), by the record's rule."""
    low, high = stats.interval(wins, 0, losses)
    return 100.0 * low, 100.0 * high


def paper_matches(st) -> list[PaperMatch]:
    """The matches of a bracket of the paper's tournaments (finished or running) that the
    paper's printed bracket played too, in our order; [] for anything else."""
    from mcts_arena.paper import load_paper_results
    from mcts_arena.results.bracket import parse_printed

    if st is None or st.bracket is None or not st.spec.paper:
        return []
    printed, _winner = parse_printed(load_paper_results().tournament(st.spec.paper).bracket)
    theirs = {frozenset((m.a, m.b)): m for r in printed for m in r.matches}
    rounds = list(st.bracket.rounds)
    if st.bracket.current_round is not None:
        rounds.append(st.bracket.current_round)
    out = []
    for r in rounds:
        for m in r.matches:
            p = theirs.get(frozenset((m.a, m.b)))
            if p is None or not m.recorded:
                continue
            wins = {m.a: m.wins_a, m.b: m.wins_b}
            w, lo = wins[p.a], wins[p.b]
            ours = verdict = None
            if w + lo:
                low, high = stats.interval(w, 0, lo)
                ours = (_share(w, lo), 100.0 * low, 100.0 * high)
                share = _share(p.wins_a, p.wins_b)
                verdict = judge(ours[1], ours[2], share,
                                paper_range=_paper_share_interval(p.wins_a, p.wins_b))
            out.append(PaperMatch(r.number, p.a, p.b, (p.wins_a, p.wins_b), (w, lo), ours,
                                  verdict, m.winner == p.a))
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
        self.counts = no_counts()
        self.judged: list[dict] = []

    def add(self, j: Judgement, ours: Ours | None, pw: float | None) -> None:
        if j.verdict is not None:
            self.counts["sides"][j.verdict.side] += 1
            if j.verdict.value is not None and j.verdict.value_judged:
                self.counts["values"][j.verdict.value] += 1
            self.judged.append({"informative": ours.informative, "width": ours.high - ours.low,
                                "power": pw})
        elif j.reason in UNJUDGED:
            self.counts["unjudged"][j.reason] += 1


def rates_taken(rows: list[PairingRow]) -> list[tuple[str, list[str]]]:
    """[(rates entry, [players])]: the players of `rows` whose matched-effort budget came from
    another player's rate (runner/effort.py's `rate_for`: the most specific entry of the
    player's kind), by entry, in the order the rows first name them."""
    taken: dict[str, list[str]] = {}
    for row in rows:
        for who, budget in ((row["player"], row.get("player_budget")),
                            (row["opponent"], row.get("opponent_budget"))):
            entry = (budget or {}).get("rate_of")
            if entry and spec_key(entry) != spec_key(who) and who not in taken.get(entry, ()):
                taken.setdefault(entry, []).append(who)
    return list(taken.items())


def one_rate(rows: list[PairingRow]) -> str | None:
    """The rates entry every side of `rows` took its matched effort from, if there is one."""
    entries = {(b or {}).get("rate_of") for r in rows
               for b in (r.get("player_budget"), r.get("opponent_budget"))}
    return next(iter(entries)) if len(entries) == 1 else None


def at_paper_effort(effort: float | None) -> bool:
    """Is a page at `effort` (a fraction of the paper's search effort; None: not a scaled
    reproduction) one whose values are judged?"""
    return effort is None or abs(effort - 1.0) < 1e-9


def _forest_entry(row: PairingRow, o, pr) -> dict:
    """A row as the page's forest plot draws it: ours with its interval, the paper's value."""
    return {"player": row["player"], "opponent": row["opponent"], "budget": row["budget"],
            "games": row["games"] if o is not None else 0,
            "score": None if o is None else o.score / 100,
            "ci_low": None if o is None else o.low / 100,
            "ci_high": None if o is None else o.high / 100,
            "paper_pct": pr.win_pct if pr else None}


def page_model(page, dirs: list[Path], paper_seconds: dict[str, float | None], command: str,
               scale: str = "", effort: float | None = None) -> PageModel:
    """What the page of `page` says, as data: every row judged by `row_verdict`, the figures'
    points, the counts. Reads the results directories of `dirs` that exist (read-only). At an
    `effort` other than the paper's own the rows' values are shown, not judged."""
    value_judged = at_paper_effort(effort)
    have = [d for d in dirs if (d / "arena.sqlite").exists()]
    if not have:
        return PageModel(page.id, page.title, command, scale, [], [], [], no_counts(), [], 0,
                         None, played=False, values_judged=value_judged)
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
                forest.append(_forest_entry(row, o, pr))
            on_curve = point[1] if point else None
            figure = claim[0] if claim else point[0] if point else None
            j = row_verdict(o, pr.win_pct if pr else None, claim is not None, on_curve,
                            value_judged, paper_range(pr), _no_loss(figure))
            pw = (power(pr.win_pct, (row.get("judged") or {}).get("n"),
                        o.z if o is not None and o.z is not None else POWER_Z)
                  if pr else None)
            # a bracket's match is judged by the tournament's winner; a figure's point in the
            # figure's list; a sweep point no figure reads and no table has, not at all
            bracket = bool(exp.tournament) and pr is None
            counted = not bracket and point is None and not (
                j.reason == "no paper row" and row.get("sweep"))
            if counted:
                tally.add(j, o, pw)
                tabled[id(row)] = j
            models.append(RowModel(row, o, pr, figure, on_curve, None if bracket else j,
                                   counted, pw))
        not_played, other, tables = _not_played(exp.info, matched, secs)
        gains, unplayed = _gains(models, secs, value_judged)
        experiments.append(ExperimentModel(
            exp.info, secs, models, _pair_rule_models(models, value_judged), not_played, other,
            tables, forest, f"{page.id}-{name}-forest.png" if forest else None,
            exp.tournament, rates_taken(exp.rows), one_rate(exp.rows),
            paper_matches(exp.tournament_state), gains, unplayed))
    sweeps = []
    for claim in claims:
        sw, fig = claim["sweep"], claim["figure"]
        pts = []
        for label, curve in sw.curves.items():
            for x, row in curve if fig is not None else ():
                if not _in_range(fig, x):
                    continue
                o = _ours(row)
                j = row_verdict(o, None, on_curve=True, no_loss=_no_loss(fig))
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
                     tally.counts, tally.judged, games, last_game(have),
                     values_judged=value_judged)
