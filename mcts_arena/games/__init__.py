"""Game cores and their registry.

Adding a game is one `.pyx` file that ends with `GAME = GameInfo(...)` (see `info.py` and
"Adding a game" in docs/extending.md) plus one line in `_GAMES`. Modules are imported lazily so
a tool that needs one game does not pay for the others.

A game is named everywhere (configs, `arena play`, `perft`, `show`, `bench`, tournaments) by its
registry name, with parameters if it has any: `NAME` or `NAME(key=value,...)`. Parameters left
out take their defaults; `canonical` drops the ones at their default, so one game has one name.
`resolve` turns a name into a `Game` once: the canonical name carrying its parameters and facts,
which the rest of the program passes around instead of the text.
"""
from __future__ import annotations

import importlib
import re

from mcts_arena.errors import PositionError, UnknownGameError  # noqa: F401 - re-exported
from mcts_arena.games.info import GameInfo, Param  # noqa: F401 - re-exported for game modules

# name -> module whose `GAME` is the game's GameInfo (one line per game)
_GAMES: dict[str, str] = {
    "amazons": "mcts_arena.games.amazons",
    "backgammon": "mcts_arena.games.backgammon",
    "breakthrough": "mcts_arena.games.breakthrough",
    "einstein": "mcts_arena.games.einstein",
    "gomoku": "mcts_arena.games.gomoku",
    "hex": "mcts_arena.games.hex",
    "kalah": "mcts_arena.games.kalah",
    "loa": "mcts_arena.games.loa",
    "pig": "mcts_arena.games.pig",
    "tictactoe": "mcts_arena.games.tictactoe",
}

_SPEC_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


class Game(str):
    """A game resolved once: the canonical name (this string's value, e.g. `kalah(stones=3)`)
    carrying the registry name, every parameter with its value and the game's declared facts.

    Why a `str`: a game travels through configs, plans, jobs, player specs, stored JSON and
    messages, which all want its name; as its own canonical name it prints, compares, hashes
    and serialises like that name, while the code that needs the facts reads them from it
    instead of parsing the name again. It pickles as its name (a worker resolves it again, once).
    """

    name: str
    params: dict
    info: GameInfo

    def __new__(cls, canonical_name: str, name: str, params: dict, info: GameInfo):
        obj = super().__new__(cls, canonical_name)
        obj.name, obj.params, obj.info = name, dict(params), info
        return obj

    def __reduce__(self):
        return resolve, (str(self),)

    @property
    def changed(self) -> dict[str, int]:
        """The parameters that differ from their defaults (what the game's class is given)."""
        return {k: v for k, v in self.params.items() if v != self.info.params[k].default}

    def new_state(self, position: str | None = None):
        """A fresh start position, or `position` in the game's text form (PositionError, a
        UserError, when the game cannot read it)."""
        if position is None:
            return self.info.new_state(self.changed)
        try:
            return self.info.new_state(self.changed, position)
        except PositionError:
            raise
        except ValueError as e:
            raise PositionError(str(e)) from None

    def with_params(self, **changes: int) -> Game:
        """The same game with some parameters changed (checked against their ranges)."""
        params = {**self.params, **changes}
        return resolve(f"{self.name}({','.join(f'{k}={v}' for k, v in params.items())})")

    @property
    def pair_rule(self) -> bool:
        """Are a match's games scored by seat-swapped pairs (Kalah's rule)?"""
        return self.info.scoring == "pairs"


_RESOLVED: dict[str, Game] = {}


def resolve(game: str) -> Game:
    """The game named by `NAME` or `NAME(key=value,...)` (or a Game, returned as it is);
    UnknownGameError names an unknown game, or a bad parameter and its range."""
    if isinstance(game, Game):
        return game
    hit = _RESOLVED.get(game) if isinstance(game, str) else None
    if hit is not None:
        return hit
    name, params = _parse(game)
    info = info_of(name)
    changed = [f"{k}={v}" for k, v in params.items() if v != info.params[k].default]
    canon = f"{name}({','.join(changed)})" if changed else name
    g = _RESOLVED.get(canon) or Game(canon, name, params, info)
    _RESOLVED[canon] = _RESOLVED[game] = g
    return g


def names() -> list[str]:
    """Registered game names."""
    return list(_GAMES)


def register(name: str, module: str) -> None:
    """Add a game from outside the package (a plug-in, mcts_arena.plugins): `module` (a name
    importable where the game is played) ends with `GAME = GameInfo(...)` named `name`."""
    if name in _GAMES:
        raise ValueError(f"a game named {name!r} exists")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        raise ValueError(f"game name {name!r}: letters, digits and _, a letter first")
    _GAMES[name] = module


def built_names() -> list[str]:
    """Registered games whose core is compiled (importable)."""
    out = []
    for name in _GAMES:
        try:
            info_of(name)
        except ImportError:
            continue
        out.append(name)
    return out


def info_of(game: str) -> GameInfo:
    """The facts game `game` (a name, with or without parameters) declares about itself."""
    if isinstance(game, Game):
        return game.info
    name = split(game)[0]
    module = _GAMES.get(name)
    if module is None:
        raise UnknownGameError(f"unknown game {game!r}; valid games: {', '.join(_GAMES)}")
    return importlib.import_module(module).GAME


def describe(game: str) -> str:
    return info_of(game).description


def game_class(game: str):
    """The cdef class implementing `game`."""
    return info_of(game).cls


def split(game: str) -> tuple[str, str]:
    """(name, parameter text) of `NAME(key=value,...)`, syntax only."""
    if not isinstance(game, str):
        raise UnknownGameError(f"bad game {game!r}: expected a name such as {names()[0]!r}")
    m = _SPEC_RE.match(game)
    if not m:
        raise UnknownGameError(f"bad game {game!r}: expected NAME or NAME(key=value,...)")
    return m.group(1), (m.group(2) or "").strip()


def _parse(game: str) -> tuple[str, dict[str, int]]:
    name, args = split(game)
    info = info_of(name)
    params = {k: p.default for k, p in info.params.items()}
    if args:
        given: set[str] = set()
        for item in args.split(","):
            key, eq, raw = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise UnknownGameError(f"bad parameter {item.strip()!r} of {name}: expected "
                                       f"key=value")
            if key in given:        # the one rule: a key given twice is refused
                raise UnknownGameError(f"{key} given twice in {game!r}; give it once")
            given.add(key)
            if key not in info.params:
                valid = ", ".join(info.params) or "none"
                raise UnknownGameError(f"unknown parameter {key!r} of {name}; valid: {valid}")
            p = info.params[key]
            try:
                if not re.fullmatch(r"[+-]?[0-9]+", raw.strip()):     # no 1_0, no ١
                    raise ValueError(raw)
                val = int(raw.strip())
            except ValueError:
                raise UnknownGameError(f"bad value {raw.strip()!r} for {name} parameter {key}: "
                                       f"expected an integer {p.low} to {p.high}") from None
            if not p.low <= val <= p.high:
                raise UnknownGameError(f"{name} parameter {key}={val} out of range: expected "
                                       f"{p.low} to {p.high}")
            params[key] = val
    return name, params


def parse(game: str) -> tuple[str, dict[str, int]]:
    """(name, every parameter with its value) of a game spec; UnknownGameError names the
    parameter and its range."""
    g = resolve(game)
    return g.name, dict(g.params)


def canonical(game: str) -> str:
    """The one name of a game spec: parameters at their default left out, the rest in the order
    the game declares them (`hex(size=5)`; `kalah` for `kalah()`)."""
    return str(resolve(game))


def new_state(game: str, position: str | None = None):
    """A fresh start position of `game`, or the position given in the game's text form."""
    return resolve(game).new_state(position)


def pair_rule(game: str | None) -> bool:
    """Does `game` score a match by seat-swapped pairs (Kalah's rule) instead of by game?
    False for a name this registry does not know (a results folder from elsewhere)."""
    try:
        return info_of(game).scoring == "pairs" if game else False
    except ValueError:
        return False
