"""The record's verdict on one row: two statements, kept apart.

- **Side**: is our 95% interval on the paper's side of 50%? *right* (it excludes 50% on the
  paper's side), *wrong* (it excludes 50% on the other side) or *undecided* (it holds 50%). At a
  tenth of the paper's effort this is what a row can test: whether the paper's effect is there.
- **Value**: does our interval hold the paper's win rate? *inside*, *above* (written "above
  ours": the paper's value lies above our interval) or *below* ("below ours"). A value may
  differ for a reason (a tenth of the effort, the engine's rates), so it is said on its own, not
  folded into the side. It is *judged* only at the paper's own effort: matched effort does not
  keep the paper's balances over a factor of ten (the headline replay: MCTS(bl) against the
  TT-less αβ wins 24.5% at 0.1 of the effort and 51.0% at 1.0), so at a fraction of it where the
  paper's value lies is shown and not counted, and such a row tests the side alone.

The interval judged is the one the row's stop rule states: 95% for a row played to a fixed
count, and for a row played in looks (a sequential stop) the interval at the rule's own level,
its 5% split over the looks (stats.looks_z: z = 2.50 for four). Intervals at that level cover at
every look at once with chance at least 95% (Bonferroni), so the one read at the look the data
chose still does; the uncorrected 95% interval at that look does not. An exact sequential
interval (ordering the outcomes of the whole stop rule) would be narrower, but the rule stops on
precision as well as on a decision, and on pair counts with five classes, so it has no simple
exact form; the split is exact as a bound, stated in advance on every page, and the same one
the rows stopped by.

A figure of the paper publishes no value, only a claim (above 50% in its best α range): its
points get a side and no value. Where the claim is only that α does no harm there (Figure 4
with progressive bias: "does not significantly decrease the performance"), a point is on its
side unless its interval lies wholly below 50%. A paper row whose own interval holds 50% (its ±
or its n games; a value of exactly 50% always) claims no side, so ours has none to be on: its
side is *unclaimed*, counted apart, and its value is judged as any other.
"""
from __future__ import annotations

from dataclasses import dataclass

SIDES = ("right", "wrong", "undecided", "unclaimed")
VALUES = ("inside", "above", "below")
#: how a page writes a value: where the paper's value lies from our interval
VALUE_TEXT = {"inside": "inside", "above": "above ours", "below": "below ours"}

#: how far a bound may miss a value and still hold it (percentage points: rounding of stored
#: fractions)
_EPS = 1e-9


@dataclass(frozen=True)
class Verdict:
    side: str               # one of SIDES
    value: str | None       # one of VALUES; None where the paper states a side only
    #: is the value a test of the paper's (a row at the paper's own effort), or only shown?
    value_judged: bool = True

    @property
    def text(self) -> str:
        """"side right, value inside", "side right, value above ours"; "side right" for a
        claim without a value; "side right (value above ours: shown, not judged at this
        effort)" for a value at a fraction of the paper's effort."""
        if not self.value:
            return f"side {self.side}"
        if not self.value_judged:
            return (f"side {self.side} (value {VALUE_TEXT[self.value]}: shown, not judged at "
                    f"this effort)")
        return f"side {self.side}, value {VALUE_TEXT[self.value]}"


def judge(lo_pct: float, hi_pct: float, paper_pct: float | None = None,
          claims_above: bool = False, value_judged: bool = True,
          paper_range: tuple[float, float] | None = None, no_loss: bool = False) -> Verdict:
    """The verdict on our interval [lo_pct, hi_pct] (percent) against the paper's win rate
    `paper_pct`, or, with `claims_above` and no value, against the paper's claim that the row
    lies above 50%. `value_judged`: False at a fraction of the paper's effort, where the value
    is shown and not judged. `paper_range`: the paper's own 95% interval of its value (percent),
    where it is known: one that holds 50% claims no side. `no_loss` (with `claims_above`): the
    claim is only "not below 50%"."""
    if paper_pct is None and not claims_above:
        raise ValueError("judge: a paper value or a claim is needed")
    paper_side = 1 if claims_above or paper_pct > 50.0 else -1 if paper_pct < 50.0 else 0
    if not claims_above and paper_range is not None and paper_range[0] <= 50.0 <= paper_range[1]:
        paper_side = 0
    ours = 1 if lo_pct > 50.0 else -1 if hi_pct < 50.0 else 0
    if claims_above and no_loss:
        side = "wrong" if ours == -1 else "right"
    elif paper_side == 0:
        side = "unclaimed"
    else:
        side = "undecided" if ours == 0 else "right" if ours == paper_side else "wrong"
    value = None
    if paper_pct is not None:
        value = ("above" if paper_pct > hi_pct + _EPS else
                 "below" if paper_pct < lo_pct - _EPS else "inside")
    return Verdict(side, value, value_judged)
