"""What a game declares about itself: `GameInfo`, one per game core, and its parameters.

Every game module (`breakthrough.pyx`, `kalah.pyx`, ...) ends with `GAME = GameInfo(...)`. The
rest of the program (player parsing, configs, openings, scoring, tournaments, bench, the CLI)
asks the registry (`mcts_arena.games.info_of`) for these facts instead of naming games.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

#: Player options that need knowledge from the game core, and what the game must provide.
#: `policy` (the `ipp` token): an improved playout policy and forced moves; `np`: move priors;
#: `abp`: αβ playouts (any game with an evaluation); `tactical`: tactical moves (captures: the
#: knowledge's `tactical_moves`) for a quiescence search.
KNOWLEDGE_OPTIONS = ("policy", "np", "abp", "tactical")
#: What a game can offer a player kind beyond its rules (players/kinds.py `Kind.needs`): a
#: capability a game declares in `GameInfo.capabilities`, or one read from another field;
#: each with what a game that has it is ("a game that ...", in a refusal).
CAPABILITIES = {
    "exact_solution": "is solved exactly (GameInfo.exact_solver)",
    "gnubg": "GNU Backgammon plays",
    "gameframe": "the paper authors' engine (mcts_gameframe) plays",
}
#: The capabilities another field of GameInfo declares (they are not listed in `capabilities`).
_DERIVED_CAPABILITIES = {"exact_solution": lambda info: info.exact_solver is not None}

#: How a match's games are scored: each game on its own, or Kalah's pair rule (a seat-swapped
#: pair counts only when one player wins both games or wins one and draws the other).
SCORING_RULES = ("game", "pairs")
#: How a game's records leave the tool (`arena export`): PGN-style text in the game's own
#: notation, or SGF FF[4] (what HexGui and Sabaki read).
RECORD_FORMATS = ("pgn", "sgf")


@dataclass(frozen=True)
class Param:
    """An integer parameter of a game (board size, stones per house, ...)."""

    default: int
    low: int
    high: int
    meaning: str = ""


@dataclass(frozen=True)
class GameInfo:
    """The facts a game declares about itself (see docs/architecture.md, "The game interface")."""

    name: str                           # registry name, lower case
    description: str                    # one line for `arena games`
    cls: type                           # the GameState subclass
    evals: dict[str, int]               # evaluation name -> id local to this game (0: default)
    default_eval: str
    #: evaluation name -> what it measures, one line each (`arena players GAME` prints them)
    eval_meanings: dict[str, str] = field(default_factory=dict)
    default_c: float = 1.0              # UCT exploration constant when a spec gives no C=
    macros: dict[str, str] = field(default_factory=dict)    # bl -> "efMS,ipp,ege0.1,det0.5"
    params: dict[str, Param] = field(default_factory=dict)  # hex(size=5): {"size": Param(...)}
    #: opening kinds beyond `start` and `random_plies`: kind -> f(params, seed, pair_index) -> text
    openings: dict[str, Callable] = field(default_factory=dict)
    default_opening: str = "start"
    scoring: str = "game"               # one of SCORING_RULES
    options: frozenset = frozenset()    # KNOWLEDGE_OPTIONS the game supports
    typical_plies: int = 60             # game length estimate for `arena run --dry-run`
    #: per-game defaults of the built-in tuning tournaments: `im_base` maps an evaluation ("" for
    #: any) to the baseline tokens of the `im` tournament; `ipp_for` lists the tournaments whose
    #: entrants use the improved playout policy; `games` is the games per match; `evals` the
    #: evaluations a tournament may be run with (`arena tournament --eval`)
    tuning: dict = field(default_factory=dict)
    bench_players: tuple[str, ...] = ("MCTS",)     # `arena bench --search` players
    #: how the game is spoken over GTP (players/external.py, `arena gtp`): the colour words of
    #: seat 0 and seat 1; the `boardsize` argument, an int or the name of the parameter that
    #: gives it (e.g. "size"), None for a game without a board size; moves travel in the game's
    #: own notation unless `gtp_move` (notation -> GTP text) and `gtp_parse` (GTP text ->
    #: notation) say otherwise
    gtp_colors: tuple[str, str] = ("b", "w")
    gtp_boardsize: int | str | None = None
    gtp_move: Callable | None = None
    gtp_parse: Callable | None = None
    bench_playouts: int = 2000          # playouts that estimate the average game length
    #: how `arena export` writes a game record (RECORD_FORMATS): "pgn" (the game's notation);
    #: "sgf" with its GM number `sgf_game`, the board size from `gtp_boardsize`, `sgf_move`
    #: (notation -> SGF move value) and `sgf_parse` (back; None: the notation as it is), and
    #: `sgf_setup` (a position's text -> (first player's cells, second's, side to move)) for
    #: games that start elsewhere than the empty board
    record: str = "pgn"
    sgf_game: int | None = None
    sgf_move: Callable | None = None
    sgf_parse: Callable | None = None
    sgf_setup: Callable | None = None
    #: whether `arena export --format mat` writes the game's records in the Jellyfish match
    #: format that backgammon programs import (results/jellyfish.py): backgammon only
    match_file: bool = False
    #: positions besides the start that `arena bench --search` measures: label -> text form
    bench_positions: dict[str, str] = field(default_factory=dict)
    #: how a position is drawn (the game viewer of `arena serve`): draw(state, last=None) -> an
    #: SVG document; `last` = (seat, move id) of the move that led to `state`, marked on the
    #: board (games/drawing.py has the builder and the shared layouts); every game has one
    draw: Callable | None = None
    #: the game solved exactly, where it can be (Pig): (params, check=False) -> a solution with
    #: `first_player_win()`, `win_probability_at(state)`, `move(state)` (the optimal move) and
    #: `summary()`; ValueError (one line) for parameters it cannot solve (check=True: only that
    #: test, nothing solved). `arena prove` prints it; the `PigOptimal` player plays its moves.
    #: None: no exact solution.
    exact_solver: Callable | None = None
    #: what outside the rules the game offers player kinds (CAPABILITIES: "gnubg")
    capabilities: frozenset = frozenset()

    def __post_init__(self):
        if self.default_eval not in self.evals:
            raise ValueError(f"{self.name}: default evaluation {self.default_eval!r} not in evals")
        if self.scoring not in SCORING_RULES:
            raise ValueError(f"{self.name}: scoring {self.scoring!r} not in {SCORING_RULES}")
        bad = set(self.options) - set(KNOWLEDGE_OPTIONS)
        if bad:
            raise ValueError(f"{self.name}: unknown player options {sorted(bad)}")
        undescribed = set(self.evals) - set(self.eval_meanings)
        if undescribed:
            raise ValueError(f"{self.name}: evaluations without a meaning {sorted(undescribed)}")
        if self.record not in RECORD_FORMATS:
            raise ValueError(f"{self.name}: record {self.record!r} not in {RECORD_FORMATS}")
        if self.record == "sgf" and (self.sgf_game is None or self.sgf_setup is None):
            raise ValueError(f"{self.name}: an SGF record needs sgf_game and sgf_setup")
        bad = set(self.capabilities) - (set(CAPABILITIES) - set(_DERIVED_CAPABILITIES))
        if bad:
            raise ValueError(f"{self.name}: unknown or derived capabilities {sorted(bad)}")

    def has(self, capability: str) -> bool:
        """Does the game offer `capability` (CAPABILITIES)?"""
        if capability in _DERIVED_CAPABILITIES:
            return _DERIVED_CAPABILITIES[capability](self)
        return capability in self.capabilities

    @property
    def has_chance(self) -> bool:
        """Does the game have chance nodes (dice)? Read from the class, so there is one truth."""
        return bool(getattr(self.cls, "has_chance", False))

    def opening_kinds(self) -> list[str]:
        return ["start", "random_plies", *self.openings]

    def eval_id(self, evalfn: str) -> int:
        """The game-local id of an evaluation name ("default" or "" is 0)."""
        if evalfn in ("", "default"):
            return 0
        try:
            return self.evals[evalfn]
        except KeyError:
            raise ValueError(f"unknown evaluation {evalfn!r} for {self.name}; valid: "
                             f"{', '.join(self.evals)}") from None

    def new_state(self, params: dict | None = None, position: str | None = None):
        """A start position (or `position` in the game's text form) with these parameters."""
        kw = dict(params or {})
        if position is None:
            return self.cls(**kw)
        return self.cls.from_text(position, **kw)
