"""Standings: one plain line per pairing (games, W/D/L, score with its interval, Elo, the
pentanomial score of the seat-swapped pairs once some are complete, the SPRT's LLR), as
`arena run` prints them while it plays into a log file, and the one way an Elo difference is
written (the report's tables use it too).

    >>> standing_line("MCTS(ipp) vs MCTS", Counts(wins=5, draws=2, losses=3))
    'MCTS(ipp) vs MCTS: 10 games +5 =2 -3, score 60.0% [31.3, 83.2], Elo +70.4 [-136.8, +277.7]'

The numbers are the report's: `stats.tally` counts, `stats.score_interval` is the interval
rule `arena run`'s summary and `arena report` print, `elo_text` the Elo difference and its
interval (the score's, through the Elo function), `stats.pentanomial_interval` the pair
interval the report's verdicts judge.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from mcts_arena import stats

#: An interval the data do not define (a rating's error bar that is not finite).
UNDEFINED = "undefined"


def _edge(elo: float, digits: int) -> str:
    return "+∞" if elo == math.inf else "-∞" if elo == -math.inf else f"{elo + 0.0:+.{digits}f}"


def elo_interval_text(score: float | None, low: float, high: float, games: int = 0,
                      digits: int = 1) -> str:
    """The one way an Elo difference is written: the Elo of `score` and its interval, the
    score's own interval [low, high] through the Elo function (`stats.elo_bounds`), so it is
    finite wherever the score's interval lies inside (0, 1): "+381.7 [+63.0, +667.3]". A score
    of 1 (or 0) has no finite difference; the text gives the bound its interval supports,
    "≥ +113 (all won)" ("≤ -113 (all lost)"), from Wilson's interval of the `games` where the
    given one collapses to the point (the paper's Wald at 0 or 1). "—" without a score."""
    if score is None:
        return "—"
    if (score >= 1 and low >= 1) or (score <= 0 and high <= 0):
        low, high = stats.wilson_interval(score * games, games) if games else (low, high)
    lo_e, hi_e = stats.elo_bounds(low, high)
    if score >= 1:
        return f"≥ {_edge(lo_e, 0)} (all won)"
    if score <= 0:
        return f"≤ {_edge(hi_e, 0)} (all lost)"
    return (f"{stats.score_to_elo(score) + 0.0:+.{digits}f} "
            f"[{_edge(lo_e, digits)}, {_edge(hi_e, digits)}]")


def elo_text(wins: float, draws: float, losses: float, digits: int = 1) -> str:
    """`elo_interval_text` of a W/D/L count with the score interval `arena run` and `arena
    report` print beside it (`stats.score_interval`); "—" without games."""
    n = wins + draws + losses
    if not n:
        return "—"
    lo, hi, _ = stats.score_interval(wins, draws, losses)
    return elo_interval_text(stats.score(wins, draws, losses), lo, hi, int(n), digits)


@dataclass
class Counts:
    """What a pairing has so far: W/D/L of its player, error games, and the scores of its
    seat-swapped pairs (pair index -> {swap: score}) for the pentanomial."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0
    pairs: dict[int, dict[int, float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, pair_index: int, swap: int, score: float | None) -> None:
        """One finished game of the pairing (score None: an error game, counted apart)."""
        if score is None:
            self.errors += 1
            return
        if score == 1.0:
            self.wins += 1
        elif score == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        self.pairs.setdefault(pair_index, {})[swap] = score

    def pentanomial(self) -> tuple[int, int, int, int, int]:
        return stats.pentanomial((p[0], p[1]) for p in self.pairs.values() if len(p) == 2)


def standing_line(label: str, c: Counts, sprt=None) -> str:
    """One pairing's standing (see the module docstring); with an `sprt` (results.sprt.Sprt)
    the log-likelihood ratio of its GSPRT on the complete pairs and the bounds it is heading for."""
    if not c.games:
        line = f"{label}: no games yet"
    else:
        lo, hi, _ = stats.score_interval(c.wins, c.draws, c.losses)
        score = stats.score(c.wins, c.draws, c.losses)
        games = f"{c.games} game" + ("s" if c.games != 1 else "")
        line = (f"{label}: {games} +{c.wins} ={c.draws} -{c.losses}, score "
                f"{100 * score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], Elo "
                f"{elo_text(c.wins, c.draws, c.losses)}")
        penta = c.pentanomial()
        if sum(penta):      # the pair interval the report's verdicts use, where pairs exist
            plo, phi = stats.pentanomial_interval(penta)
            line += (f", pentanomial score {100 * stats.pentanomial_score(penta):.1f}% "
                     f"[{100 * plo:.1f}, {100 * phi:.1f}] of {sum(penta)} pairs")
    if c.errors:
        line += f", {c.errors} error game(s)"
    if sprt is not None:
        penta = c.pentanomial()
        lower, upper = stats.sprt_bounds(sprt.alpha, sprt.beta)
        llr = stats.sprt_llr_pentanomial(penta, sprt.elo0, sprt.elo1, sprt.model) \
            if sum(penta) else 0.0
        line += f", LLR {llr:+.2f} ({lower:.2f}, {upper:.2f})"
    return line
