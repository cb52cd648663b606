"""What `arena run` shows while it plays: the standings of every pairing, every N games or T
seconds (whichever comes first) and at the end.

- On a terminal: a tqdm bar (games, time left, CPUs and games per hour) with the standings
  block printed above it (`tqdm.write`), so every pairing stays visible, not only the last one
  to finish a game. One bar per pairing was the other choice; it does not scale to a round
  robin of dozens of pairings (more bars than rows) and tqdm's stacked bars break on a resize,
  while a block that scrolls above one bar reads the same in any terminal.
- Anywhere else (nohup, CI, a cluster job's log file): no bar (a bar there is one line of
  thousands of characters), only the standings block, in plain lines:

      standings after 12/24 games (2 CPUs, 1,230 games/h, 35 s):
        MCTS(ipp) vs MCTS: 6 games +4 =0 -2, score 66.7% [30.0, 90.3], Elo +120.4 ± 315.4
        MCTS(bl) vs MCTS: 6 games +3 =1 -2, score 58.3% [24.5, 86.0], Elo +58.5 ± 289.8, ...

The lines are results/standings.py's (games, W/D/L, score with the report's interval, Elo, and
the LLR with its bounds when the config has an SPRT).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable

# results/standings.py (statistics, numpy) is imported where a run shows progress, so the
# command line that reads these defaults stays light
#: Defaults of `--standings-every` (games) and `--standings-seconds`.
EVERY_GAMES = 10
EVERY_SECONDS = 60.0


class Progress:
    """The run's display: `game(pairing_id, pair_index, swap, score)` after each stored game,
    `skip(n)` for games an SPRT made unnecessary, `close()` at the end (the last standings)."""

    def __init__(self, labels: dict[str, str], counts: dict, total: int,
                 initial: int, sprt=None, every_games: int = EVERY_GAMES,
                 every_seconds: float = EVERY_SECONDS, stream=None, tty: bool | None = None,
                 cpus: Callable[[], int] = lambda: 1):
        self.labels = labels
        self.counts = counts
        self.total = total
        self.done = initial
        self.played = 0
        self.sprt = sprt
        self.every_games = every_games
        self.every_seconds = every_seconds
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.cpus = cpus
        self.t0 = self.last_time = time.monotonic()
        self.last_games = 0
        self.bar = None
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=initial, unit="game", file=self.stream,
                            dynamic_ncols=True, smoothing=0.1,
                            bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} "
                                       "[{elapsed}<{remaining}, {rate_fmt}] {postfix}")

    def _rate(self) -> float:
        return 3600.0 * self.played / max(1e-9, time.monotonic() - self.t0)

    def block(self) -> list[str]:
        """The standings block: a header line, then one line per pairing in config order."""
        from mcts_arena.results.standings import standing_line

        secs = time.monotonic() - self.t0
        head = (f"standings after {self.done}/{self.total} games ({self.cpus()} CPUs, "
                f"{self._rate():,.0f} games/h, {secs:.0f} s):")
        return [head] + [f"  {standing_line(label, self.counts[pid], self.sprt)}"
                         for pid, label in self.labels.items()]

    def _show(self) -> None:
        for line in self.block():
            if self.bar is not None:
                self.bar.write(line, file=self.stream)
            else:
                print(line, file=self.stream, flush=True)
        self.last_time = time.monotonic()
        self.last_games = self.played

    def game(self, pairing_id: str, pair_index: int, swap: int, score: float | None) -> None:
        from mcts_arena.results.standings import Counts

        self.counts.setdefault(pairing_id, Counts()).add(pair_index, swap, score)
        self.played += 1
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(f"{self.cpus()} CPUs {self._rate():,.0f} games/h",
                                     refresh=False)
        due_games = self.every_games and self.played - self.last_games >= self.every_games
        due_time = self.every_seconds and time.monotonic() - self.last_time >= self.every_seconds
        if due_games or due_time:
            self._show()

    def skip(self, n: int) -> None:
        """n planned games will not be played (an SPRT decided their pairing)."""
        self.total -= n
        if self.bar is not None:
            self.bar.total -= n

    def close(self) -> None:
        """The last standings (unless the last games were just shown), then the bar closed."""
        if self.played and self.played != self.last_games:
            self._show()
        if self.bar is not None:
            self.bar.close()
