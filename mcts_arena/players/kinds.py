"""The player kinds: one table, `KINDS`, one entry per kind a spec may name.

An entry says how the kind is spelled (`αβ`, `ab`, `alphabeta`, ...), how a canonical spec
writes it, what `arena players` says of it, which callable builds its player, what it needs
(an evaluation function; a game capability declared in `GameInfo`), whether it plays games
with chance nodes (and if not, why), and the unit of its matched-effort budget. The parser
(players/spec.py: spellings, refusals, the list of valid kinds), `arena players`, building a
player (`players.make`) and the effort budget (runner/effort.py) all read this table; the
option table (players/options.py) says which options each kind takes.

Adding a kind is one entry here plus its player class (players/player.py's interface).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from mcts_arena.games.info import CAPABILITIES

#: What a kind may do with an evaluation function: none (Random, the outside engines), take the
#: game's default when the spec names none (written only when it is another), or always write it
#: (αβ and Greedy are nothing without one, so their canonical spec names it).
EVALUATION = ("none", "default", "shown")
TRACES = ("search", "checkpoints", "once")


@dataclass(frozen=True)
class Kind:
    """One player kind (see the module docstring)."""

    name: str                   # the kind a parsed spec keeps (PlayerSpec.kind)
    spellings: tuple[str, ...]  # how a spec may write it (the first: how a canonical one does)
    summary: str                # its line in `arena players`
    factory: str                # "module:callable": callable(spec, seed) -> Player
    written: str = ""           # how `arena players` writes its form, e.g. MCTS(...)
    evaluation: str = "none"    # one of EVALUATION
    needs: str | None = None    # the game capability it needs (games/info.py CAPABILITIES)
    #: why it cannot play a game with chance nodes; "" = it can
    no_chance: str = ""
    unit: str | None = None     # its effort budget's unit (sims, nodes); None: no engine rate
    external: bool = False      # an outside program or class (GTP, py): its own `key=value` syntax
    #: its effort budget comes from the rates entry carrying its label (the authors' engine)
    rated_by_label: bool = False
    #: what its search counts and reports per move: "sims", "nodes" or None (no search)
    counts: str | None = None
    seeded: bool = False        # takes a `seed=` salt (players/options.py)
    #: how `arena solve` reads its move at each budget: "search" (a fresh search per budget),
    #: "checkpoints" (one search, `player.trace(state, budgets)`), "once" (no budget: one move)
    trace: str = "search"
    #: "module:callable": callable(spec, budget, reached_by_moves) starts the engine once and
    #: raises ExternalError on a fault, before anything is written (None: nothing to start)
    startup: str | None = None
    probed: bool = True         # a probe move measures its cost (an outside engine's: no)
    #: the heading of its tokens in `arena players` ("" for MCTS's, listed first)
    tokens_heading: str = ""

    def __post_init__(self):
        if self.evaluation not in EVALUATION:
            raise ValueError(f"{self.name}: evaluation {self.evaluation!r} not in {EVALUATION}")
        if self.needs is not None and self.needs not in CAPABILITIES:
            raise ValueError(f"{self.name}: needs {self.needs!r}, not in {sorted(CAPABILITIES)}")
        for what, v in (("unit", self.unit), ("counts", self.counts)):
            if v not in (None, "sims", "nodes"):
                raise ValueError(f"{self.name}: {what} {v!r} is not sims or nodes")
        if self.trace not in TRACES:
            raise ValueError(f"{self.name}: trace {self.trace!r} not in {TRACES}")

    @property
    def display(self) -> str:
        """How a canonical spec writes the kind."""
        return self.spellings[0]

    @property
    def plays_chance(self) -> bool:
        return not self.no_chance

    def playable(self, info) -> bool:
        """Can the kind play the game `info` (a GameInfo) describes?"""
        return (self.plays_chance or not info.has_chance) and (
            self.needs is None or info.has(self.needs))

    @property
    def searches(self) -> bool:
        """Does it search under a budget (takes time=, sims=)?"""
        return self.counts is not None

    def make(self, spec, seed: int):
        """The player `spec` describes."""
        return _load(self.factory)(spec, int(seed))

    def check_startup(self, spec, budget, reached_by_moves: bool = True) -> None:
        """Start the kind's engine once (its `startup`), ExternalError naming a fault."""
        if self.startup is not None:
            _load(self.startup)(spec, budget, reached_by_moves)


def _load(target: str):
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


_BUILTIN = "mcts_arena.players.builtin"
_STAR = "mcts_arena.players.builtin:StarPlayer"
_NO_AB_CHANCE = ("the αβ search has no chance nodes (expectimax, Star1 and Star2 are αβ with "
                 "them)")

KINDS: list[Kind] = [
    Kind("MCTS", ("MCTS", "mcts"), "Monte Carlo tree search (the tokens below)",
         f"{_BUILTIN}:MCTSPlayer", written="MCTS(...)", evaluation="default", unit="sims",
         counts="sims", seeded=True, trace="checkpoints"),
    Kind("alphabeta", ("αβ", "ab", "alphabeta", "AB"), "αβ: iterative deepening minimax",
         f"{_BUILTIN}:AlphaBetaPlayer", written="αβ(...)", evaluation="shown",
         no_chance=_NO_AB_CHANCE, unit="nodes", counts="nodes", seeded=True,
         tokens_heading="αβ"),
    Kind("Random", ("Random", "random"), "uniformly random legal moves",
         f"{_BUILTIN}:RandomPlayer", seeded=True, trace="once"),
    Kind("Greedy", ("Greedy", "greedy"), "the best 1-ply evaluation",
         f"{_BUILTIN}:GreedyPlayer", written="Greedy(ef...)", evaluation="shown", seeded=True),
    Kind("FlatMC", ("FlatMC", "flatmc"), "flat Monte Carlo: UCB over the root's moves",
         f"{_BUILTIN}:flat_mc", written="FlatMC(...)", evaluation="default", unit="sims",
         counts="sims", seeded=True, trace="checkpoints"),
    Kind("expectimax", ("expectimax", "Expectimax"), "minimax with chance nodes averaged",
         _STAR, written="expectimax(...)", evaluation="default", counts="nodes", seeded=True),
    Kind("Star1", ("Star1", "star1"), "*-minimax, Ballard 1983: expectimax with αβ bounds",
         _STAR, written="Star1(...)", evaluation="default", counts="nodes", seeded=True),
    Kind("Star2", ("Star2", "star2"), "Star1 with probing of chance nodes", _STAR,
         written="Star2(...)", evaluation="default", counts="nodes", seeded=True),
    Kind("MCMS", ("MCMS", "mcms"), "Monte Carlo *-minimax: outcomes sampled at chance nodes",
         _STAR, written="MCMS(cN,...)", evaluation="default", counts="nodes", seeded=True),
    Kind("PigOptimal", ("PigOptimal", "pigoptimal"), "the game's exact solution's moves",
         f"{_BUILTIN}:PigOptimalPlayer", needs="exact_solution"),
    Kind("gnubg", ("gnubg",), "GNU Backgammon over its external socket, one point match",
         "mcts_arena.players.gnubg_player:GnubgPlayer", written="gnubg(plies=N)",
         needs="gnubg", startup="mcts_arena.players.gnubg_player:check_startup"),
    Kind("GTP", ("GTP", "gtp"), "an outside engine over GTP (docs: bring your own engine)",
         "mcts_arena.players.gtp_player:GTPPlayer",
         written='GTP(cmd="...",...)', no_chance="GTP carries no dice",
         external=True, startup="mcts_arena.players.gtp_player:check_startup", probed=False),
    Kind("gameframe", ("gameframe",), "the paper authors' Java engine (mcts_gameframe "
         "e8e21fd6), one of its labelled players, over GTP (docs/engines.md)",
         "mcts_arena.players.gameframe_player:GameframePlayer", written="gameframe(LABEL,...)",
         needs="gameframe", no_chance="the authors' engine plays Breakthrough and Kalah",
         external=True, rated_by_label=True,
         startup="mcts_arena.players.gameframe_player:check_startup", probed=False),
    Kind("py", ("py",), "a Python class (docs: bring your own engine)",
         "mcts_arena.players.python_player:PyPlayer",
         written="py(module:Class,...)", external=True),
]

BY_NAME: dict[str, Kind] = {k.name: k for k in KINDS}
_UNKNOWN = Kind("?", ("?",), "a kind outside the table", "")
#: Every spelling -> its kind.
SPELLINGS: dict[str, Kind] = {s: k for k in KINDS for s in k.spellings}


def register(kind: Kind) -> None:
    """Add a kind from outside the package (a plug-in): its name and spellings not taken. The
    parser, `arena players`, `players.make`, the options that every searching or seeded kind
    takes (players/options.py) and the runner follow it from then on; options of its own are
    `options.register`'s."""
    taken = [s for s in dict.fromkeys((kind.name, *kind.spellings))
             if s in BY_NAME or s in SPELLINGS]
    if taken:
        raise ValueError(f"kind {kind.name}: {', '.join(taken)} taken")
    KINDS.append(kind)
    BY_NAME[kind.name] = kind
    SPELLINGS.update({s: kind for s in kind.spellings})


def of(spec) -> Kind:
    """The kind of a parsed spec; a spec of another players provider (a test's fakes) that
    names no kind of the table gets a plain one (no search, nothing to start, probed)."""
    return BY_NAME.get(getattr(spec, "kind", None)) or _UNKNOWN


def kind_of(text: str) -> Kind | None:
    """The kind a spelling names, or None."""
    return SPELLINGS.get(text)


def valid_kinds() -> str:
    """The kinds as an error lists them: `MCTS, αβ (ab, alphabeta), Random, ...` (spellings that
    differ from the display only in case left out)."""
    out = []
    for k in KINDS:
        seen = {k.display.lower()}
        others = []
        for s in k.spellings[1:]:
            if s.lower() not in seen:
                seen.add(s.lower())
                others.append(s)
        out.append(f"{k.display} ({', '.join(others)})" if others else k.display)
    return ", ".join(out)


def playing(info=None) -> tuple[Kind, ...]:
    """The kinds that can play the game `info` describes (every kind without one)."""
    return tuple(k for k in KINDS if info is None or k.playable(info))


def listed(kinds) -> str:
    """`A, B and C` of the kinds' display names (py as `py(...)`)."""
    names = [f"{k.display}(...)" if k.external else k.display for k in kinds]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
