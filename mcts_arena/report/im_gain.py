"""Implicit minimax's gain against one opponent, the paper's headline quantity: the score of
MCTS with implicit minimax minus that of the same MCTS without it, both against the same
opponent (Table 4: MCTS(bl,im0.4) 45.05% and MCTS(bl) 27.55% against αβ, a gain of +17.5
points). A page shows it for every such pair of its rows, with an interval, on the points and
the Elo scale, beside the paper's gain with the paper's own uncertainty.

The two rows are independent samples (their own games), so the difference's variance is the sum
of the two means' variances: each row's plug-in variance on the basis its verdict judges (the
seat-swapped pairs' five classes, the pair rule's decisive pairs, else the games); the interval
is normal, at the stricter of the two rows' levels (a row played in looks is read at its stop
rule's z, report/verdict.py). The Elo gain's interval is the delta method's. The paper's gain
has the uncertainty of its two rows' n games each (binomial). Its verdict is a row's verdict
around 0 instead of 50% (report/verdict.py's `judge`): the *side* (our gain's interval excludes
0 on the paper's side) and, at the paper's own effort only, where the paper's gain lies against
our interval; beside it the z of ours minus the paper's with both uncertainties counted.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from mcts_arena import stats
from mcts_arena.players.notation import parts
from mcts_arena.report.pairing_row import PairingRow
from mcts_arena.report.verdict import Verdict, judge

_ELO_SLOPE = 400.0 / math.log(10.0)     # d Elo / d score = _ELO_SLOPE / (p (1 - p))


def without_im(spec: str) -> str | None:
    """The player `spec` (a display name) without its implicit-minimax token, or None when it
    has none: "MCTS(bl,im0.4)" -> "MCTS(bl)", "MCTS(im0.2)" -> "MCTS"."""
    head, toks = parts(spec)
    kept = [t for t in toks if not (t.startswith("im") and _is_number(t[2:]))]
    if len(kept) == len(toks):
        return None
    return f"{head}({','.join(kept)})" if kept else head


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def mean_variance(row: PairingRow) -> tuple[float, float] | None:
    """(mean score, variance of the mean) of a row on its judged basis; None without one."""
    j = row.get("judged")
    if j is None:
        return None
    if j["basis"] == "pairs":
        return stats.mean_variance(row["pentanomial"], stats.PENTA_SCORES)
    if j["basis"] == "pair rule":
        return stats.mean_variance((row["pairs"]["lost"], row["pairs"]["won"]), (0.0, 1.0))
    return stats.mean_variance((row["losses"], row["draws"], row["wins"]), stats.TRI_SCORES)


def _elo_slope(p: float) -> float:
    return _ELO_SLOPE / (p * (1.0 - p)) if 0.0 < p < 1.0 else math.inf


@dataclass(frozen=True)
class Gain:
    """One gain of implicit minimax against one opponent, ours beside the paper's (points are
    percentage points; Elo the logistic scale)."""

    player: str                     # the row with implicit minimax
    base: str                       # the same player without it
    opponent: str
    points: float                   # ours
    low: float
    high: float
    elo: float | None               # None where a row scored 0 or 100%
    elo_low: float | None
    elo_high: float | None
    z: float                        # the level of our interval
    paper: float                    # the paper's gain, points
    paper_half: float | None        # its 95% half-width (None without the paper's n)
    paper_elo: float
    verdict: Verdict
    #: ours minus the paper's over both uncertainties (None without the paper's n)
    z_diff: float | None


def gain(im_row: PairingRow, base_row: PairingRow, paper_im: float, paper_base: float,
         paper_n: tuple[int | None, int | None], z: float, value_judged: bool) -> Gain | None:
    """The gain of `im_row` over `base_row` (the same opponent), against the paper's rows'
    win rates (percent) and games; our interval at `z`. None when a row has nothing counted."""
    a, b = mean_variance(im_row), mean_variance(base_row)
    if a is None or b is None:
        return None
    (m1, v1), (m0, v0) = a, b
    d, se = m1 - m0, math.sqrt(v1 + v0)
    elo = elo_half = None
    s1, s0 = _elo_slope(m1), _elo_slope(m0)
    if math.isfinite(s1) and math.isfinite(s0):
        elo = stats.score_to_elo(m1) - stats.score_to_elo(m0)
        elo_half = z * math.sqrt(s1 * s1 * v1 + s0 * s0 * v0)
    p1, p0 = paper_im / 100.0, paper_base / 100.0
    paper_se = None
    if paper_n[0] and paper_n[1]:
        paper_se = math.sqrt(p1 * (1 - p1) / paper_n[0] + p0 * (1 - p0) / paper_n[1])
    lo, hi = 100.0 * (d - z * se), 100.0 * (d + z * se)
    paper = 100.0 * (p1 - p0)
    paper_ci = None
    if paper_se is not None:
        half = 100.0 * stats.Z95_ROUNDED * paper_se
        paper_ci = (50.0 + paper - half, 50.0 + paper + half)
    verdict = judge(50.0 + lo, 50.0 + hi, 50.0 + paper, value_judged=value_judged,
                    paper_range=paper_ci)
    z_diff = None
    if paper_se is not None and se + paper_se > 0:
        z_diff = (d - (p1 - p0)) / math.sqrt(se * se + paper_se * paper_se)
    return Gain(im_row["player"], base_row["player"], im_row["opponent"], 100.0 * d, lo, hi,
                elo, None if elo is None else elo - elo_half,
                None if elo is None else elo + elo_half, z, paper,
                None if paper_se is None else 100.0 * stats.Z95_ROUNDED * paper_se,
                stats.score_to_elo(p1) - stats.score_to_elo(p0), verdict, z_diff)
