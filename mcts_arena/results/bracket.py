"""Hierarchical elimination brackets exactly as the paper's Appendix B runs and prints them.

The rule (it reproduces every bracket of Appendix B): the entrants of a round stand in a list;
the i-th plays the (n-1-i)-th; with an odd count the middle entrant gets a bye; the next round's
list is the winners in match order followed by the bye. On equal wins the ``"first"`` tie rule
advances the first of the pair (the paper's brackets do this: ``fet5 (100) vs. fet16 (100)``);
the ``"playoff"`` rule plays extra games until one side leads, at most ``max_playoffs`` times, and
then falls back to the first of the pair.

The class is step-wise so a tournament driver can run every match of a round in parallel, store
the results, and rebuild the bracket from the store after an interruption::

    b = Bracket(["fet0", "fet1", "fet2"])
    while not b.done:
        for a, c in b.pending_matches():
            b.record(a, c, *play(a, c))        # wins of a, wins of c
        b.advance()
    print(b.render())

With the ``"playoff"`` rule a tied match stays in ``pending_matches()``; the driver plays extra
games and ``record``\\ s them (they are added to the match). Or pass ``playoff=callback`` and
``advance()`` calls ``callback(a, b) -> (wins_a, wins_b)`` itself.

``render()`` prints the paper's layout (``round 1`` / ``winner X (wins) vs. loser Y (wins)`` /
``Z gets a by`` / blank line / ... / ``Winner: W``), the paper's spelling "by" included;
``parse_printed()`` reads that layout back (the paper's brackets, to set ours beside them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

TIE_RULES = ("first", "playoff")
_MATCH_LINE = re.compile(r"winner (\S+) \((\d+)\) vs\. loser (\S+) \((\d+)\)")
_BYE_LINE = re.compile(r"(\S+) gets a by")

PlayoffFn = Callable[[str, str], tuple[int, int]]


def pair_round(entrants: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs of one round, i-th with (n-1-i)-th, and the bye (the middle entrant when n is odd)."""
    n = len(entrants)
    pairs = [(entrants[i], entrants[n - 1 - i]) for i in range(n // 2)]
    bye = entrants[n // 2] if n % 2 == 1 else None
    return pairs, bye


@dataclass
class Match:
    """One match of a round: ``a`` is the first of the pair (the one a tie favours)."""

    a: str
    b: str
    wins_a: int = 0
    wins_b: int = 0
    recorded: bool = False
    playoffs: int = 0  # extra records added after a tie (playoff rule)

    @property
    def tied(self) -> bool:
        return self.wins_a == self.wins_b

    @property
    def winner(self) -> str:
        """The entrant that advances: more wins, the first of the pair on a tie."""
        return self.b if self.wins_b > self.wins_a else self.a

    @property
    def loser(self) -> str:
        return self.a if self.winner == self.b else self.b

    def line(self) -> str:
        """``winner X (wins) vs. loser Y (wins)`` as the paper prints it."""
        if self.winner == self.a:
            return f"winner {self.a} ({self.wins_a}) vs. loser {self.b} ({self.wins_b})"
        return f"winner {self.b} ({self.wins_b}) vs. loser {self.a} ({self.wins_a})"


@dataclass
class Round:
    """A round: its number (1-based), its matches in pairing order, and the bye."""

    number: int
    matches: list[Match] = field(default_factory=list)
    bye: str | None = None

    def render(self, only_decided: bool = False) -> str:
        lines = [f"round {self.number}"]
        lines += [m.line() for m in self.matches if m.recorded or not only_decided]
        if self.bye is not None:
            lines.append(f"{self.bye} gets a by")
        return "\n".join(lines)


class Bracket:
    """A single-elimination bracket driven one round at a time (see the module docstring)."""

    def __init__(
        self,
        entrants: Sequence[str],
        tie_rule: str = "first",
        playoff: PlayoffFn | None = None,
        max_playoffs: int = 5,
    ) -> None:
        entrants = list(entrants)
        if not entrants:
            raise ValueError("a bracket needs at least one entrant")
        seen: set[str] = set()
        for name in entrants:
            if name in seen:
                raise ValueError(f"duplicate entrant {name!r} in bracket")
            seen.add(name)
        if tie_rule not in TIE_RULES:
            raise ValueError(f"unknown tie rule {tie_rule!r}; valid: {', '.join(TIE_RULES)}")
        if playoff is not None and tie_rule != "playoff":
            raise ValueError("a playoff callback needs tie_rule='playoff'")
        if max_playoffs < 0:
            raise ValueError(f"max_playoffs must be >= 0, got {max_playoffs}")
        self.entrants: tuple[str, ...] = tuple(entrants)
        self.tie_rule = tie_rule
        self.playoff = playoff
        self.max_playoffs = max_playoffs
        self.rounds: list[Round] = []  # finished rounds
        self._current: list[str] = entrants
        self._round: Round | None = None
        self._start_round()

    # -- state ---------------------------------------------------------------------------------

    def _start_round(self) -> None:
        if len(self._current) <= 1:
            self._round = None
            return
        pairs, bye = pair_round(self._current)
        self._round = Round(len(self.rounds) + 1, [Match(a, b) for a, b in pairs], bye)

    @property
    def done(self) -> bool:
        """True once one entrant is left."""
        return self._round is None

    @property
    def winner(self) -> str | None:
        """The last entrant standing, or None while the bracket runs."""
        return self._current[0] if self.done else None

    @property
    def round_number(self) -> int:
        """Number of the round being played (1-based); the number of rounds when done."""
        return self._round.number if self._round is not None else len(self.rounds)

    @property
    def current_round(self) -> Round | None:
        """The round being played (its matches so far), None when done."""
        return self._round

    @property
    def standing(self) -> tuple[str, ...]:
        """The entrant list of the current round, in bracket order."""
        return tuple(self._current)

    def _needs_games(self, m: Match) -> bool:
        if not m.recorded:
            return True
        return (
            self.tie_rule == "playoff"
            and self.playoff is None
            and m.tied
            and m.playoffs < self.max_playoffs
        )

    def pending_matches(self) -> list[tuple[str, str]]:
        """Pairs ``(a, b)`` of the current round whose (extra) games are still needed."""
        if self._round is None:
            return []
        return [(m.a, m.b) for m in self._round.matches if self._needs_games(m)]

    def _find(self, a: str, b: str) -> tuple[Match, bool]:
        if self._round is None:
            raise ValueError(f"the bracket is finished; no match {a} vs. {b} to record")
        for m in self._round.matches:
            if (m.a, m.b) == (a, b):
                return m, False
            if (m.a, m.b) == (b, a):
                return m, True
        pairs = ", ".join(f"{m.a} vs. {m.b}" for m in self._round.matches)
        raise ValueError(
            f"{a} vs. {b} is not a match of round {self._round.number}; matches: {pairs}"
        )

    def record(self, a: str, b: str, wins_a: int, wins_b: int) -> None:
        """Record the result of ``a`` against ``b`` (either order) in the current round.

        A further record of a match is allowed only for a tied match under the ``"playoff"`` rule,
        at most ``max_playoffs`` times; its wins are added to the match (extra games).
        """
        if wins_a < 0 or wins_b < 0:
            raise ValueError(f"wins must be non-negative, got {wins_a} and {wins_b}")
        m, swapped = self._find(a, b)
        if swapped:
            wins_a, wins_b = wins_b, wins_a
        if m.recorded:
            if not (self.tie_rule == "playoff" and m.tied and m.playoffs < self.max_playoffs):
                raise ValueError(
                    f"{m.a} vs. {m.b} is already decided in round {self._round.number}"
                )
            m.playoffs += 1
        m.wins_a += int(wins_a)
        m.wins_b += int(wins_b)
        m.recorded = True

    def advance(self) -> None:
        """Close the current round (every match decided) and pair the next one."""
        if self._round is None:
            raise ValueError("the bracket is finished")
        if self.playoff is not None:
            for m in self._round.matches:
                while m.recorded and m.tied and m.playoffs < self.max_playoffs:
                    wa, wb = self.playoff(m.a, m.b)
                    self.record(m.a, m.b, wa, wb)
        pending = self.pending_matches()
        if pending:
            todo = ", ".join(f"{a} vs. {b}" for a, b in pending)
            raise ValueError(f"round {self._round.number} is not finished; pending: {todo}")
        winners = [m.winner for m in self._round.matches]
        if self._round.bye is not None:
            winners.append(self._round.bye)
        self.rounds.append(self._round)
        self._current = winners
        self._start_round()

    def run(self, play: Callable[[str, str], tuple[int, int]]) -> str:
        """Play the whole bracket with ``play(a, b) -> (wins_a, wins_b)``; return the winner."""
        while not self.done:
            for a, b in self.pending_matches():
                self.record(a, b, *play(a, b))
            self.advance()
        assert self.winner is not None
        return self.winner

    # -- output --------------------------------------------------------------------------------

    def render(self) -> str:
        """The bracket in the paper's text layout; a running bracket shows its decided matches."""
        blocks = [r.render() for r in self.rounds]
        if self._round is not None:
            blocks.append(self._round.render(only_decided=True))
        else:
            blocks.append(f"Winner: {self.winner}")
        return "\n\n".join(blocks) + "\n"


def parse_printed(text: str) -> tuple[list[Round], str | None]:
    """The rounds of a bracket printed in the paper's layout (``render()``'s), and its winner
    (None while it runs). A match reads as printed, its winner first: ``a`` is the winner (the
    order the pair stood in is not printed). A line of another shape is a ValueError."""
    rounds: list[Round] = []
    winner = None
    for block in text.strip("\n").split("\n\n"):
        lines = block.strip("\n").splitlines()
        if not lines:
            continue
        if len(lines) == 1 and lines[0].startswith("Winner: "):
            winner = lines[0][len("Winner: "):].strip()
            continue
        head = re.fullmatch(r"round (\d+)", lines[0].strip())
        if head is None:
            raise ValueError(f"not a round of a printed bracket: {lines[0]!r}")
        rnd = Round(int(head[1]))
        for line in lines[1:]:
            if m := _MATCH_LINE.fullmatch(line.strip()):
                rnd.matches.append(Match(m[1], m[3], int(m[2]), int(m[4]), recorded=True))
            elif b := _BYE_LINE.fullmatch(line.strip()):
                rnd.bye = b[1]
            else:
                raise ValueError(f"round {rnd.number}: not a match or a bye: {line!r}")
        rounds.append(rnd)
    return rounds, winner
