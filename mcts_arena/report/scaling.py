"""Strength against budget: the fit behind a `scaling` experiment (runner/config.py: a doubling
ladder of each player's own budget, or of its own clock), from the report's pairing rows. On a
ladder of clocks a level's budget is its rung's base seconds: the rungs scale one clock, so
log2 of the base is log2 of the whole clock, and Elo per doubling is per doubling of the
clock (the STC/LTC question).

One Bradley–Terry fit (stats.bradley_terry) over every pairing among the ladder's levels gives
each level an Elo, shown relative to the anchor level (0 by definition), and the covariance of
the fit (stats.bradley_terry_covariance) gives every interval:

- a level's Elo: z·sd of its difference from the anchor (covariances included);
- a step (Elo gained from level k to k+1, one doubling on a ladder of doublings): z·sd of
  that difference;
- Elo per doubling: the least-squares slope of Elo on log2(budget) over a player's levels,
  and its curvature (half the quadratic coefficient's change per doubling: negative when the
  gain shrinks with budget);
- the crossover of two players on one ladder: the budget where the difference of their Elo at
  the same level changes sign (linear in log2(budget) between the two levels around it).

The slope, curvature and crossover are not linear in the ratings (the crossover not even
continuous), so their intervals come from the ratings drawn `DRAWS` times from the fit's normal
approximation (a fixed seed, so a report is reproducible): the 2.5 and 97.5 percentiles, and
for the crossover the share of draws that cross inside the range played at all.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from mcts_arena import stats
from mcts_arena.budgets import Budget, Clock, parse_clock
from mcts_arena.report.pairing_row import PairingRow

DRAWS = 4000
SEED = 20140901        # the draws' seed: one report, one set of intervals


@dataclass
class Level:
    player: str
    budget: float
    spec: str
    elo: float | None = None
    error: float | None = None          # half-width of the 95% interval
    games: int = 0                      # counted games this level played


@dataclass
class Scaling:
    """One ladder's fit (see the module docstring); `note` says why there is none."""

    where: str
    kind: str                               # sims, time, effort or clock
    anchor: str
    players: list[str]
    #: a ladder of clocks: its rungs (each level's number is its rung's base seconds)
    clocks: list[str] = field(default_factory=list)
    levels: dict[str, list[Level]] = field(default_factory=dict)
    steps: dict[str, list[dict]] = field(default_factory=dict)     # per step up the ladder
    slopes: dict[str, dict] = field(default_factory=dict)          # Elo per doubling
    crossovers: list[dict] = field(default_factory=list)
    games: int = 0
    note: str = ""

    def as_dict(self) -> dict:
        """The fit as plain JSON values (`arena report --format json`): the ladder (where,
        kind, anchor, players, games, note), per player its levels (budget, spec, Elo, the
        95% half-width, games), its steps and its Elo per doubling (elo, low, high; with
        three levels or more curvature, curvature_low, curvature_high), and the crossovers
        (budget, low, high, share, the leaders, the gaps [Elo, half-width] at both ends)."""
        d = asdict(self)
        for c in d["crossovers"]:
            c["gaps"] = [list(g) for g in c.get("gaps", [])]
        return d

    def unit(self, v: float) -> str:
        """A level or crossover budget as text: whole simulations, seconds to 3 digits; on a
        ladder of clocks the first rung scaled to base `v` seconds (`clock 2+0.02`)."""
        if self.clocks:
            c = parse_clock(self.clocks[0])
            return Budget(clock=Clock(float(f"{v:.3g}"), float(f"{c.inc * v / c.base:.3g}"),
                                      c.moves).text()).text()
        return Budget(**{self.kind: round(v) if self.kind == "sims" else
                         float(f"{v:.3g}")}).text()


def _results(rows: list[PairingRow], specs: set[str]
             ) -> dict[tuple[str, str], tuple[int, int, int]]:
    out: dict[tuple[str, str], tuple[int, int, int]] = {}
    for r in rows:
        a, b = r["player_spec"], r["opponent_spec"]
        if a in specs and b in specs and r["games"]:
            w, d, lo = out.get((a, b), (0, 0, 0))
            out[(a, b)] = (w + r["wins"], d + r["draws"], lo + r["losses"])
    return out


def fit(ladder: dict, rows: list[PairingRow]) -> Scaling:
    """The fit of one ladder (the stored config's form of runner.config.Ladder)."""
    players, levels = list(ladder["players"]), [float(v) for v in ladder["levels"]]
    sc = Scaling(ladder["where"], ladder["kind"], ladder["anchor"], players,
                 list(ladder.get("clocks") or ()))
    specs = {s for row in ladder["specs"] for s in row} | {sc.anchor}
    for p, row in zip(players, ladder["specs"]):
        sc.levels[p] = [Level(p, b, s) for b, s in zip(levels, row)]
    results = _results(rows, specs)
    sc.games = sum(sum(v) for v in results.values())
    for lv in (x for lvs in sc.levels.values() for x in lvs):
        lv.games = sum(sum(v) for k, v in results.items() if lv.spec in k)
    if {s for k in results for s in k} != specs:
        sc.note = "not every level has played yet"
        return sc
    try:
        ratings = stats.bradley_terry(results)
    except ValueError as e:
        sc.note = f"no fit: {e}"
        return sc
    names, cov = stats.bradley_terry_covariance(results, ratings)
    idx = {n: i for i, n in enumerate(names)}
    a = idx[sc.anchor]
    mean = np.array([ratings[n] for n in names])

    def sd(i: int, j: int) -> float:
        v = cov[i, i] + cov[j, j] - 2 * cov[i, j]
        return math.sqrt(v) if v > 0 else 0.0

    for lvs in sc.levels.values():
        for lv in lvs:
            i = idx[lv.spec]
            lv.elo = float(mean[i] - mean[a])
            lv.error = stats.Z95_ROUNDED * sd(i, a)
    x = np.log2(np.array(levels) / levels[0])
    rng = np.random.default_rng(SEED)
    draws = rng.multivariate_normal(mean, (cov + cov.T) / 2, size=DRAWS,
                                    check_valid="ignore", method="eigh")
    curves = {p: draws[:, [idx[lv.spec] for lv in sc.levels[p]]] for p in players}
    for p in players:
        lvs = sc.levels[p]
        sc.steps[p] = [{"from": lvs[k].budget, "to": lvs[k + 1].budget,
                        "elo": lvs[k + 1].elo - lvs[k].elo,
                        "error": stats.Z95_ROUNDED * sd(idx[lvs[k + 1].spec], idx[lvs[k].spec])}
                       for k in range(len(lvs) - 1)]
        point = np.array([lv.elo for lv in lvs])
        sc.slopes[p] = _slope(x, point, curves[p])
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            lp, lq = sc.levels[players[i]], sc.levels[players[j]]
            c = _crossover(players[i], players[j], levels, x, [lv.elo for lv in lp],
                           [lv.elo for lv in lq], curves[players[i]] - curves[players[j]])
            # the gap at both ends of the range: which way it goes and how sure that is
            c["gaps"] = [(lp[k].elo - lq[k].elo,
                          stats.Z95_ROUNDED * sd(idx[lp[k].spec], idx[lq[k].spec]))
                         for k in (0, len(levels) - 1)]
            sc.crossovers.append(c)
    return sc


def _slope(x: np.ndarray, point: np.ndarray, drawn: np.ndarray) -> dict:
    """Elo per doubling (least-squares slope on log2 budget) and, with three levels or more,
    the curvature: how much the gain of one doubling changes per doubling (2c of the quadratic
    fit a + b x + c x^2), each with the percentiles of the drawn ratings."""
    out = {"elo": float(np.polyfit(x, point, 1)[0])}
    lo, hi = np.percentile(np.polyfit(x, drawn.T, 1)[0], [2.5, 97.5])
    out["low"], out["high"] = float(lo), float(hi)
    if len(x) >= 3:
        out["curvature"] = float(2 * np.polyfit(x, point, 2)[0])
        lo, hi = np.percentile(2 * np.polyfit(x, drawn.T, 2)[0], [2.5, 97.5])
        out["curvature_low"], out["curvature_high"] = float(lo), float(hi)
    return out


def _first_cross(x: np.ndarray, d: np.ndarray) -> np.ndarray:
    """log2 budget where each row of differences `d` (levels along axis 1) first changes sign
    (NaN: it never does), linear between the two levels around it."""
    out = np.full(d.shape[0], np.nan)
    for k in range(d.shape[1] - 1):
        a, b = d[:, k], d[:, k + 1]
        hit = np.isnan(out) & (np.sign(a) != np.sign(b))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(a == b, 0.0, a / (a - b))
        out[hit] = x[k] + t[hit] * (x[k + 1] - x[k])
    return out


def _crossover(p: str, q: str, levels: list[float], x: np.ndarray, ep: list[float],
               eq: list[float], drawn: np.ndarray) -> dict:
    """Where `q` overtakes `p` (or `p` overtakes `q`): the budget of the first change of sign
    of Elo(p) - Elo(q) along the ladder, its 95% interval over the draws that cross, and the
    share of draws that cross inside the range at all."""
    d = np.array(ep) - np.array(eq)
    at = _first_cross(x, d[None, :])[0]
    drawn_at = _first_cross(x, drawn)
    crossed = drawn_at[~np.isnan(drawn_at)]
    out = {"player": p, "other": q, "share": float(len(crossed) / len(drawn_at)),
           "budget": None, "low": None, "high": None,
           "leader_below": p if d[0] > 0 else q, "leader_above": p if d[-1] > 0 else q}
    if not math.isnan(at):
        out["budget"] = float(levels[0] * 2 ** at)
    if len(crossed):
        lo, hi = np.percentile(crossed, [2.5, 97.5])
        out["low"], out["high"] = float(levels[0] * 2 ** lo), float(levels[0] * 2 ** hi)
    return out


def fits(config: dict, rows: list[PairingRow]) -> list[Scaling]:
    """Every ladder of a stored config (`ladders`), fitted from its rows."""
    return [fit(ladder, rows) for ladder in config.get("ladders") or ()]


# ---- the tables the renderers print ---------------------------------------------------------
def tables(sc: Scaling) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, head, rows) of one ladder: the levels, the steps, Elo per doubling and the
    crossovers; a note alone when there is no fit."""
    cap = f"Strength against budget ({sc.where}; Elo relative to {sc.anchor}, 95% intervals, " \
          f"{sc.games} games)"
    if sc.note:
        return [(f"{cap}: {sc.note}", [], [])]
    out = []
    levels = [[lv.player, sc.unit(lv.budget), f"{lv.elo:+.0f}", f"{lv.error:.0f}",
               str(lv.games)] for p in sc.players for lv in sc.levels[p]]
    out.append((cap, ["player", "budget", "Elo", "± 95%", "games"], levels))
    steps = [[p, f"{sc.unit(s['from'])} → {sc.unit(s['to'])}", f"{s['elo']:+.0f}",
              f"{s['error']:.0f}"] for p in sc.players for s in sc.steps[p]]
    out.append(("Elo gained by each step up the ladder", ["player", "step", "Elo", "± 95%"],
                steps))
    slopes = []
    for p in sc.players:
        s = sc.slopes[p]
        curv = (f"{s['curvature']:+.0f} [{s['curvature_low']:+.0f}, {s['curvature_high']:+.0f}]"
                if "curvature" in s else "-")
        slopes.append([p, f"{s['elo']:+.0f} [{s['low']:+.0f}, {s['high']:+.0f}]", curv])
    out.append(("Elo per doubling (least-squares slope on log2 budget) and its change per "
                "doubling (negative: the gain shrinks with budget)",
                ["player", "Elo per doubling", "change per doubling"], slopes))
    if sc.crossovers:
        rows = []
        for c in sc.crossovers:
            at = "none in range" if c["budget"] is None else sc.unit(c["budget"])
            ci = "-" if c["low"] is None else f"[{sc.unit(c['low'])}, {sc.unit(c['high'])}]"
            gaps = [f"{g:+.0f} ± {e:.0f}" for g, e in c["gaps"]]
            rows.append([f"{c['player']} − {c['other']}", gaps[0], gaps[1], f"{c['leader_below']} "
                         f"→ {c['leader_above']}", at, ci, f"{100 * c['share']:.0f}%"])
        out.append(("Crossover: the Elo gap at the lowest and highest level, the budget where "
                    "the leader changes, its interval over the draws that cross, and the share "
                    "of draws that cross inside the range (near 100% by noise alone when the gap "
                    "stays inside its interval at every level)",
                    ["players", "gap lowest", "gap highest", "leader low → high", "crossover",
                     "95% interval", "share"], rows))
    return out
