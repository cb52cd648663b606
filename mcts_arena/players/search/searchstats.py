"""What one MCTS search reports besides its move: `SearchStats`, a typed record that also reads
as the mapping a player's `choose` returns (players/player.py: a dict with at least sims,
nodes, depth and time; `dict(stats)` is that dict).

The optional fields (`value`, `forced`, `settled`, `trace`) are keys only where they say
something: a forced move has no search value, `settled` appears only when the STOP rule ended
a search, `trace` only when checkpoints were asked for.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields

#: One root move: (move id, visits, mean reward, implicit value v, proven), its mover's view.
Child = tuple[int, int, float, float, int]
#: One checkpoint: (simulations, the move the search would play then, seconds).
Checkpoint = tuple[int, int, float]


@dataclass(frozen=True, slots=True)
class SearchStats(Mapping):
    """The statistics of one MCTS search (players/search/mcts.pyx `MCTSSearch.search`)."""

    sims: int                   # simulations run
    nodes: int                  # tree nodes allocated
    playout_plies: int          # moves played in playouts
    depth: int                  # deepest tree ply reached
    time: float                 # seconds
    proven: int                 # +1 the side to move has a proven win, -1 a proven loss, 0 unknown
    pool_full: bool             # the node pool reached its limit
    children: list[Child]       # one entry per root move
    value: float | None = None  # the chosen move's mean reward (+-1 once proven); None: forced
    forced: bool = False        # the game's urgent move, played without search (`fa`)
    settled: bool = False       # the STOP rule ended the search early
    trace: list[Checkpoint] | None = None   # with checkpoints: the move after each

    @classmethod
    def forced_move(cls, move: int, checkpoints) -> SearchStats:
        """The record of a move played without search (every checkpoint names it)."""
        return cls(sims=0, nodes=0, playout_plies=0, depth=0, time=0.0, proven=0,
                   pool_full=False, children=[], forced=True,
                   trace=[(cp, move, 0.0) for cp in checkpoints] if checkpoints else None)

    def _present(self, name: str) -> bool:
        if name in _OPTIONAL:
            return bool(getattr(self, name)) if name != "value" else self.value is not None
        return name in _FIELDS

    def __getitem__(self, key: str):
        if isinstance(key, str) and self._present(key):
            return getattr(self, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (name for name in _FIELDS if self._present(name))

    def __len__(self) -> int:
        return sum(1 for _ in self)


_FIELDS = tuple(f.name for f in fields(SearchStats))
_OPTIONAL = frozenset({"value", "forced", "settled", "trace"})
