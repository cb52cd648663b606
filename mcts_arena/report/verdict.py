"""The record's verdict on one row: two statements, kept apart.

- **Side**: is our 95% interval on the paper's side of 50%? *right* (it excludes 50% on the
  paper's side), *wrong* (it excludes 50% on the other side) or *undecided* (it holds 50%). At a
  tenth of the paper's effort this is what a row can test: whether the paper's effect is there.
- **Value**: does our interval hold the paper's win rate? *inside*, *above* (written "above
  ours": the paper's value lies above our interval) or *below* ("below ours"). A value may
  differ for a reason (a tenth of the effort, the engine's rates), so it is said on its own, not
  folded into the side.

A figure of the paper publishes no value, only a claim (above 50% in its best α range): its
points get a side and no value. A paper value of exactly 50% claims no side: our interval is
then on its side when it holds 50%, else on the wrong one.
"""
from __future__ import annotations

from dataclasses import dataclass

SIDES = ("right", "wrong", "undecided")
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

    @property
    def text(self) -> str:
        """"side right, value inside", "side right, value above ours"; "side right" for a
        claim without a value."""
        return f"side {self.side}" + (f", value {VALUE_TEXT[self.value]}" if self.value else "")


def judge(lo_pct: float, hi_pct: float, paper_pct: float | None = None,
          claims_above: bool = False) -> Verdict:
    """The verdict on our 95% interval [lo_pct, hi_pct] (percent) against the paper's win rate
    `paper_pct`, or, with `claims_above` and no value, against the paper's claim that the row
    lies above 50%."""
    if paper_pct is None and not claims_above:
        raise ValueError("judge: a paper value or a claim is needed")
    paper_side = 1 if claims_above or paper_pct > 50.0 else -1 if paper_pct < 50.0 else 0
    ours = 1 if lo_pct > 50.0 else -1 if hi_pct < 50.0 else 0
    if paper_side == 0:
        side = "right" if ours == 0 else "wrong"
    else:
        side = "undecided" if ours == 0 else "right" if ours == paper_side else "wrong"
    value = None
    if paper_pct is not None:
        value = ("above" if paper_pct > hi_pct + _EPS else
                 "below" if paper_pct < lo_pct - _EPS else "inside")
    return Verdict(side, value)
