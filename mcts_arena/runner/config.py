"""Experiment configs: YAML validated into frozen dataclasses.

A config names one game, one budget per move, the number of games per pairing, a seed, how
games open, and the matches to play. Example::

    name: quickstart
    game: GAME                    # a registered game (`arena games`), e.g. NAME(key=value)
    budget: {time: 0.05}          # or {sims: 2000}, {effort: 0.1}; a player spec may carry
                                  # its own time=/sims=/effort=
    games: 40                     # per pairing, played as seat-swapped pairs
    seed: 1
    openings: start               # or {random_plies: 4}, a kind the game declares, or an
                                  # opening book {file: PATH, order: sequential|random}
    dice: common                  # a game with chance: both games of a pair see the same
                                  # dice (the default), or `independent`
    macros: {mybl: "ege0.1,det0.5"}
    sprt: {elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05}   # optional: stop a pairing early
    matches:
      - {player: "MCTS(ipp,im0.4)", opponent: "MCTS(ipp)"}
      - sweep: {player: "MCTS(bl,im{alpha})", opponent: "MCTS(bl)", alpha: [0.1, 0.4]}
      - round_robin: ["MCTS(bl)", "MCTS(ipp)", "MCTS"]
      - gauntlet: {player: "MCTS(bl,im0.4)", opponents: ["MCTS(bl)", "MCTS(ipp)"]}
        games: 100                # per-entry override of `games`
      - scaling: {players: ["MCTS(bl)", "MCTS(bl,im0.4)"], sims: {from: 250, doublings: 4}}

`scaling` (a doubling ladder; docs/scaling.md): each player at every level of a budget ladder
(`sims:`, `time:` or `effort:`, a growing list or `{from: B, doublings: K}` for B, 2B, ...,
2^K B), each level playing its neighbours (the same player one level below, the other players
at the same level) and the anchor (`anchor:` one of the players, at its lowest level, the
default being the first player's; or a player with its own budget, who plays every level).
The levels are the players' own budgets (`MCTS(bl,sims=500)`), so a ladder's player may not
carry one of its own; `arena report` fits their Elo against the budget (report/scaling.py). A
ladder of clocks (`clock: ["1+0.01", "2+0.02"]` or `{from: "1+0.01", doublings: K}`) gives
each level the player's own clock (`MCTS(bl,clock=2+0.02)`); its rungs scale one clock, base
and increment by one factor, so each doubling doubles the whole clock.

`dice` (games with chance nodes only): the match loop draws every chance outcome from
generators seeded per game (one stream per seat, runner/match.py); `common` (the default) seeds
both games of a seat-swapped pair alike, so each seat's k-th roll draws the same number in both
(common random numbers: each player gets the same dice once in each seat, so luck cancels
within the pair; pair k of every pairing sees them too, like its opening); `independent` seeds
every game on its own.

`sprt` (optional) runs a GSPRT on every pairing (mcts_arena.stats; pentanomial on the
seat-swapped pairs): once it accepts H0 (the player is at most `elo0` Elo stronger) or H1 (at
least `elo1`), the runner schedules no more games of that pairing. `alpha`, `beta` default to
0.05; `model` is `logistic` (default) or `normalized`. It does not change what a game is, so it
is not part of the experiment's identity.

Every mistake raises `ConfigError` (mcts_arena.errors, a UserError) with one line: the file,
the YAML path of the
field (`matches[2].sweep.alpha[3]`) and what was expected.

Player strings are checked and canonicalised by the players provider: the module named by the
environment variable MCTS_ARENA_PLAYERS (default `mcts_arena.players`) with the functions
`parse(text, game=, macros=)` and `make(spec_or_text, game=, seed=, macros=)`. Tests point it
at fake players; the product never sets it.
"""
from __future__ import annotations

import importlib
import itertools
import json
import math
import os
import re
import string
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from mcts_arena import budgets, inputs
from mcts_arena import games as _games
from mcts_arena.budgets import Budget
from mcts_arena.errors import ConfigError, EffortError
from mcts_arena.players import kinds as kind_table
from mcts_arena.players.notation import split
from mcts_arena.results.sprt import Sprt
from mcts_arena.results.store import pairing_id
from mcts_arena.runner import book, effort
from mcts_arena.runner.clock_rules import SIDE_CLOCK_FIELDS, ClockRules, unmanaged
from mcts_arena.runner.values import _is_number, is_int, shown

PLAYERS_ENV = "MCTS_ARENA_PLAYERS"
DEFAULT_PLAYERS = "mcts_arena.players"

# Opening kinds every game has; a game may declare more (GameInfo.openings).
OPENING_KINDS = ("start", "random_plies")
TOP_FIELDS = ("name", "game", "budget", "games", "seed", "openings", "max_plies", "macros",
              "matches", "description", "sprt", "dice", "clock", "timemargin")
DICE_MODES = ("common", "independent")
SPRT_FIELDS = ("elo0", "elo1", "alpha", "beta", "model")
MATCH_KINDS = ("player", "sweep", "round_robin", "gauntlet", "scaling")
SCALING_FIELDS = ("players", "sims", "time", "effort", "clock", "anchor")
LADDER_KINDS = ("sims", "time", "effort", "clock")
#: The most levels one ladder may have (2^20 from the lowest: past every budget's range).
LADDER_MAX = 21
BUDGET_KEYS = ("time", "sims", "effort")
BOOK_FIELDS = ("file", "order")
GAUNTLET_FIELDS = ("player", "opponents")
MATCH_FIELDS = ("player", "opponent", "games", "clock")  # a plain `- {player:, opponent:}`
# The settings docs/config.md documents (tests/test_config_docs.py holds the page to them).
DEFAULTS = {"games": 100, "seed": 1, "max_plies": 1000, "dice": "common"}
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def default_openings(game: str) -> str:
    """The opening kind a game's experiments use unless the config says otherwise."""
    return _games.info_of(game).default_opening


def openings_warning(exp: Experiment) -> str | None:
    """A line for the dry run and the start of a run when the config's `openings: start`
    replaces a game's own default opening (Kalah's random boards, LOA's opening set, Gomoku's
    centre stones): every pair then opens from the one start position, where the first mover
    can decide the game (Kalah from the start: the first mover won every game of two
    pairings), so the seat-swapped pairs measure the seat, not the players. None otherwise."""
    default = default_openings(exp.game)
    if exp.openings.kind != "start" or default == "start":
        return None
    return (f"warning: openings 'start' replace {exp.game.name}'s default '{default}': every "
            f"pair opens from the same start position, where the first mover may decide the "
            f"game; leave openings out (or write openings: {default}) unless that is the point")


# ---- the validated experiment --------------------------------------------------------------
@dataclass(frozen=True)
class Openings:
    """How games start: `start`, `random_plies` (N uniformly random plies), a kind the game
    declares (e.g. a set of shipped positions, random boards), or `file`: an opening book
    (runner/book.py) read from `file` when the config was loaded, its `lines` (position text,
    moves from the start or None) taken in `order` (sequential or random)."""

    kind: str = "start"
    plies: int = 0
    file: str = ""
    order: str = "sequential"
    lines: tuple[tuple[str, tuple[str, ...] | None], ...] = ()

    def as_dict(self) -> dict:
        """What decides the openings (the experiment's identity): for a book its order and the
        digest of its lines, not where the file lies."""
        if self.kind == "file":
            return {"kind": "file", "order": self.order, "book": book.digest(self.lines),
                    "positions": len(self.lines)}
        return {"kind": self.kind, "plies": self.plies}

    @property
    def reached_by_moves(self) -> bool:
        """Can an engine that knows only `clear_board` and `play` reach every opening? (start,
        random plies, a book of move lists; not random boards or positions)"""
        if self.kind == "file":
            return all(moves is not None for _, moves in self.lines)
        return self.kind in OPENING_KINDS

    def __str__(self) -> str:
        if self.kind == "file":
            return f"book {self.file} ({len(self.lines)} positions, {self.order})"
        return f"{self.plies} random plies" if self.kind == "random_plies" else self.kind


@dataclass(frozen=True)
class Pairing:
    """One match: `player` (the first named, whose score is reported) against `opponent`.
    Specs are canonical strings; `*_budget` is a spec's own budget (None: the experiment's)."""

    id: str
    player: str
    opponent: str
    games: int
    where: str                      # YAML path of the entry that made it, e.g. "matches[1]"
    player_budget: Budget | None = None
    opponent_budget: Budget | None = None
    sweep: tuple[tuple[str, str], ...] = ()     # a sweep's (variable, value) pairs that made it

    @property
    def label(self) -> str:
        return f"{self.player} vs {self.opponent}"


@dataclass(frozen=True)
class Ladder:
    """A `scaling` entry: `players` (canonical specs without a budget) at every level of
    `levels` (budgets of `kind`: sims, time or effort; of a ladder of clocks, each rung's base
    seconds), `specs[i][k]` the canonical spec of player i at level k (its own budget or
    clock), `anchor` the canonical spec the report rates 0, `clocks` a clock ladder's rungs
    (their one text form; empty for the other kinds)."""

    players: tuple[str, ...]
    kind: str
    levels: tuple[float, ...]
    specs: tuple[tuple[str, ...], ...]
    anchor: str
    where: str
    clocks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Experiment:
    name: str
    game: _games.Game
    budget: Budget
    games: int
    seed: int
    openings: Openings
    max_plies: int
    macros: tuple[tuple[str, str], ...]
    pairings: tuple[Pairing, ...]
    source: str = ""
    description: str = ""
    sprt: Sprt | None = None
    # the pairings the SPRT tests (a tune's confirmation, not its search steps); empty: all
    sprt_pairings: tuple[str, ...] = ()
    dice: str = "common"            # DICE_MODES; a game without chance has no dice to draw
    ladders: tuple[Ladder, ...] = ()    # the `scaling` entries, for the report's fit

    def sprt_tests(self, pairing_id: str) -> bool:
        """Whether the SPRT (if any) runs on this pairing."""
        return self.sprt is not None and (not self.sprt_pairings
                                          or pairing_id in self.sprt_pairings)

    def macros_dict(self) -> dict[str, str] | None:
        return dict(self.macros) if self.macros else None

    def identity(self) -> dict:
        """The settings that decide what every game is: changing any of them changes games."""
        # What an engine rate decides (each player's simulations under a matched effort) is
        # checked per pairing, against the budgets stored with it (runner.experiment:
        # check_compatible), so that a rate added for one player locks no other experiment.
        ident = {"name": self.name, "game": str(self.game), "budget": self.budget.as_dict(),
                 "seed": self.seed, "openings": self.openings.as_dict(),
                 "max_plies": self.max_plies, "macros": dict(self.macros)}
        if self.game.info.has_chance:           # the dice decide what the games are
            ident["dice"] = self.dice
        return ident

    def to_json(self) -> str:
        """The resolved config (what the store keeps)."""
        return json.dumps(asdict(self), sort_keys=True)


@dataclass(frozen=True)
class Overrides:
    """Command-line overrides: games per pairing, budget."""

    games: int | None = None
    time: float | None = None
    sims: int | None = None
    effort: float | None = None
    openings: str | None = None         # an opening book file (`--openings`)
    openings_order: str | None = None   # its order (`--openings-order`)


# ---- players provider ----------------------------------------------------------------------
def players_provider(name: str | None = None) -> ModuleType:
    """The module that parses and makes players (see the module docstring)."""
    return importlib.import_module(name or os.environ.get(PLAYERS_ENV) or DEFAULT_PLAYERS)


def spec_budget(spec) -> Budget | None:
    """A player spec's own budget, or None (the experiment's). Accepts a provider's spec whose
    `budget` is a Budget, a dict ({"time": s} / {"sims": n}) or a tuple of (key, value) pairs."""
    b = getattr(spec, "budget", None)
    if callable(b):
        b = b()
    return Budget.of(b) if b else None


def own_budget(spec, parse, effort_s: float | None = None) -> Budget | None:
    """A spec's own budget with a matched effort (its own `effort=`, else `effort_s`, the
    experiment's) resolved into its engine's simulations or nodes (EffortError when no rate
    gives them); None: the experiment's budget."""
    own = spec_budget(spec)
    if own is not None and own.clock is not None:
        return own                  # its own clock decides each move's time
    paper_s = own.effort if own is not None else effort_s
    if paper_s is not None and (own is None or own.sims is None):
        return effort.resolve(spec, paper_s, parse)
    return own


def _try_sprt(sprt: Sprt, fail) -> None:
    """Compute the test once on every kind of outcome before a game is played: bounds it
    cannot be computed for (far from 0 in the normalized model) failed mid-run before."""
    from mcts_arena.results.sprt import SprtTracker

    for pattern in ((1.0,), (0.0,), (0.5,), (1.0, 0.5, 0.0), (1.0, 0.0)):
        tracker = SprtTracker(sprt)
        try:
            for i in range(8):
                for swap in (0, 1):
                    tracker.add("trial", i, swap, pattern[(2 * i + swap) % len(pattern)])
        except (ArithmeticError, ValueError) as e:
            fail(f"the test cannot be computed for elo0 {sprt.elo0:g}, elo1 {sprt.elo1:g} "
                 f"({sprt.model}): {e}; choose bounds nearer 0")


# ---- loading -------------------------------------------------------------------------------
def load(path: str | os.PathLike, overrides: Overrides | None = None,
         players: ModuleType | None = None) -> Experiment:
    """Read and validate the YAML config at `path` (ConfigError on any mistake; the file is
    read by the one reader, mcts_arena.inputs)."""
    text = inputs.read_text(path, "a YAML file")
    return loads(text, source=str(path), default_name=Path(path).stem, overrides=overrides,
                 players=players)


def loads(text: str, source: str = "<config>", default_name: str = "experiment",
          overrides: Overrides | None = None, players: ModuleType | None = None) -> Experiment:
    """Validate a config given as YAML text; `source` names it in messages."""
    data = inputs.parse_yaml(text, source)
    return Validator(source, players).experiment(data, default_name, overrides or Overrides())


def with_budget(spec: str, kind: str, value: float) -> str:
    """`spec` with its own budget `kind=value` added: MCTS(bl) -> MCTS(bl,sims=500)."""
    head, args = split(spec)
    arg = f"{kind}={format_value(value)}"
    return f"{head}({args},{arg})" if args and args.strip() else f"{head}({arg})"


def format_value(v: Any) -> str:
    """How a sweep value is written into a template: 0.4 -> '0.4', 5 -> '5'."""
    return repr(v) if isinstance(v, float) else str(v)


@dataclass
class Validator(ClockRules):
    source: str
    players: ModuleType | None = None
    _parse: Any = field(default=None, init=False)
    # an effort budget is resolved per player
    _budget: Budget | None = field(default=None, init=False)
    _ladders: list = field(default_factory=list, init=False)
    _game: Any = field(default=None, init=False)
    _macros: dict | None = field(default=None, init=False)
    _margin: float | None = field(default=None, init=False)     # `timemargin`, in seconds

    # -- helpers --
    def seed(self, seed, path: str) -> int:
        """A seed: an integer from 0 to SEED_MAX (seeds are 63-bit everywhere)."""
        if not is_int(seed) or not 0 <= seed <= inputs.SEED_MAX:
            self.fail(path, f"expected an integer from 0 to {inputs.SEED_MAX}, got "
                            f"{shown(seed)}")
        return seed

    def fail(self, path: str, what: str):
        where = f"{path}: " if path else ""
        raise ConfigError(f"{self.source}: {where}{what}")

    def mapping(self, v: Any, path: str, what: str = "a mapping") -> dict:
        if not isinstance(v, dict):
            self.fail(path, f"expected {what}, got {shown(v)}")
        return v

    def known_keys(self, d: dict, path: str, valid: tuple[str, ...]) -> None:
        prefix = f"{path}." if path else ""
        for k in d:
            if k not in valid:
                self._cut_at_a_comma(d, k, prefix)
        for k in d:
            if k not in valid:
                self.fail(f"{prefix}{k}", f"unknown field; valid fields: {', '.join(valid)}")

    def _cut_at_a_comma(self, d: dict, k: Any, prefix: str) -> None:
        """A spec with a comma left unquoted in a YAML flow mapping (`{player: MCTS(bl, im0.4),
        ...}`) is split there: `player: 'MCTS(bl'` and a key `im0.4)`. Named at the field it
        was meant for, with the quoting that keeps it whole."""
        if not isinstance(k, str) or k.count(")") <= k.count("("):
            return
        keys = list(d)
        for field_name, v in d.items():
            if isinstance(v, str) and v.count("(") > v.count(")"):
                rest = keys[keys.index(field_name) + 1: keys.index(k) + 1]    # the cut pieces
                whole = ", ".join([v] + [f"{x}" if d[x] is None else f"{x}: {d[x]}"
                                         for x in rest])
                self.fail(f"{prefix}{field_name}", f"{v!r} was cut at a comma: a flow mapping "
                          f"{{...}} splits at every unquoted comma; quote the spec: "
                          f"{field_name}: '{whole}'")

    def positive_int(self, v: Any, path: str, what: str) -> int:
        if not is_int(v) or v <= 0:
            self.fail(path, f"expected a positive integer ({what}), got {shown(v)}")
        return v

    def games(self, v: Any, path: str, what: str = "games per pairing") -> int:
        if not budgets.games_ok(v):
            self.fail(path, f"expected {budgets.GAMES_TEXT} ({what}), got {shown(v)}")
        return v

    def player(self, text: Any, path: str, game: str, macros: dict | None):
        if not isinstance(text, str) or not text.strip():
            self.fail(path, f"expected a player spec string such as 'MCTS(ipp)', got {shown(text)}")
        if self._parse is None:
            self._parse = (self.players or players_provider()).parse
        try:
            spec = self._parse(text.strip(), game=game, macros=macros)
        except ValueError as e:
            self.fail(path, f"bad player {text.strip()!r}: {e}")
        try:
            own = own_budget(spec, self._parse,
                             self._budget.effort if self._budget is not None else None)
        except EffortError as e:
            self.fail(path, str(e))
        if own is not None and own.clock is not None:     # its own clock, with the margin
            if own.sims is None and unmanaged(spec):
                self.fail(path, f"{spec.canonical} has no time management (tm=0), so on its "
                                f"own clock ({own.clock}) it searches each move to its cap: "
                                f"give it sims=")
            own = self.clocked(Budget(sims=own.sims) if own.sims else None, own.clock, path)
        return spec.canonical, own

    # -- sections --
    def experiment(self, data: Any, default_name: str, ov: Overrides) -> Experiment:
        if data is None:
            self.fail("", "empty config; expected a mapping with at least 'game', 'budget' "
                          "and 'matches'")
        d = self.mapping(data, "", "a mapping at the top level")
        self.known_keys(d, "", TOP_FIELDS)
        # a clock, or ladders alone (each level carries its budget), need no budget
        ladders_only = isinstance(d.get("matches"), list) and bool(d["matches"]) and all(
            isinstance(e, dict) and "scaling" in e for e in d["matches"])
        for req in ("game", "matches") if "clock" in d or ladders_only else \
                ("game", "budget", "matches"):
            if req not in d:
                self.fail(req, "missing required field")

        name = d.get("name", default_name)
        if not isinstance(name, str) or not NAME_RE.match(name):
            self.fail("name", f"expected a name of letters, digits, '_', '.', '-' (it names the "
                              f"results directory), got {shown(name)}")
        game = self.game(d["game"], "game")
        if "timemargin" in d:
            self._margin = self.timemargin(d["timemargin"], "timemargin")
        budget = self.budget(d["budget"], "budget") if "budget" in d else None
        if ov.time is not None or ov.sims is not None or ov.effort is not None:
            # an override obeys the config's own rule (a scaled effort below the minimum too)
            for key, v in (("time", ov.time), ("effort", ov.effort)):
                if v is not None and not budgets.time_ok(v):
                    self.fail(f"budget.{key}", f"expected {budgets.TIME_TEXT}, got {v:g}")
            budget = Budget(time=ov.time, sims=ov.sims, effort=ov.effort)
        if "clock" in d:
            budget = self.clocked(budget, self.clock(d["clock"], "clock"), "clock")
        games = self.games(d.get("games", DEFAULTS["games"]), "games")
        if ov.games is not None:
            games = ov.games
        seed = d.get("seed", DEFAULTS["seed"])
        self.seed(seed, "seed")
        raw_openings = d.get("openings", default_openings(game))
        if ov.openings is not None:
            raw_openings = {"file": ov.openings, "order": ov.openings_order or (
                raw_openings.get("order", "sequential") if isinstance(raw_openings, dict)
                else "sequential")}
        openings = self.openings(raw_openings, "openings", game)
        max_plies = self.positive_int(d.get("max_plies", DEFAULTS["max_plies"]), "max_plies",
                                      "plies before a game is drawn")
        macros = self.macros(d.get("macros", {}), "macros")
        description = d.get("description", "")
        if not isinstance(description, str):
            self.fail("description", f"expected a string, got {shown(description)}")
        sprt = self.sprt(d["sprt"], "sprt") if d.get("sprt") is not None else None
        dice = self.dice(d["dice"], "dice", game) if "dice" in d else DEFAULTS["dice"]
        pairings = self.matches(d["matches"], "matches", game, dict(macros) or None,
                                games, ov.games, budget)
        if budget is None:          # ladders alone: the experiment's budget is their first level
            first = self._ladders[0]
            budget = Budget(clock=first.clocks[0], margin=self._margin) if first.clocks else \
                Budget(**{first.kind: first.levels[0]})
        if "timemargin" in d and not any(
                b is not None and b.clock is not None
                for b in (budget, *(x for p in pairings
                                    for x in (p.player_budget, p.opponent_budget)))):
            self.fail("timemargin", "no game of this config is on a clock, so a time margin "
                                    "has nothing to act on; give a clock or leave it out")
        total = sum(p.games for p in pairings)
        if total > budgets.PLAN_MAX:
            self.fail("matches", f"{len(pairings)} pairings of {total} games in all; one "
                                 f"experiment holds at most {budgets.PLAN_MAX} games (split it, "
                                 f"or lower games)")
        return Experiment(name=name, game=game, budget=budget, games=games, seed=seed,
                          openings=openings, max_plies=max_plies, macros=macros,
                          pairings=tuple(pairings), source=self.source, description=description,
                          sprt=sprt, dice=dice, ladders=tuple(self._ladders))

    def sprt(self, v: Any, path: str) -> Sprt:
        d = self.mapping(v, path, "a mapping with elo0, elo1 and optionally alpha, beta, model")
        self.known_keys(d, path, SPRT_FIELDS)
        for req in ("elo0", "elo1"):
            if req not in d:
                self.fail(f"{path}.{req}", "missing required field (an Elo difference)")
        for k in ("elo0", "elo1"):
            if not _is_number(d[k]) or not math.isfinite(d[k]):
                self.fail(f"{path}.{k}", f"expected a finite number (Elo), got {shown(d[k])}")
        if not d["elo0"] < d["elo1"]:
            self.fail(f"{path}.elo1", f"expected elo1 above elo0 ({d['elo0']!r}), "
                                      f"got {d['elo1']!r}")
        for k in ("alpha", "beta"):
            if k in d and (not _is_number(d[k]) or not 0 < d[k] < 1):
                self.fail(f"{path}.{k}", f"expected a probability strictly between 0 and 1, "
                                         f"got {shown(d[k])}")
        alpha, beta = float(d.get("alpha", 0.05)), float(d.get("beta", 0.05))
        if alpha + beta >= 1:
            self.fail(path, f"alpha + beta must be below 1, got {alpha + beta:g}")
        model = d.get("model", "logistic")
        if model not in ("logistic", "normalized"):
            self.fail(f"{path}.model", f"unknown model {shown(model)}; valid: logistic, "
                                       f"normalized")
        sprt = Sprt(float(d["elo0"]), float(d["elo1"]), alpha, beta, model)
        _try_sprt(sprt, lambda why: self.fail(path, why))
        return sprt

    def budget(self, v: Any, path: str) -> Budget:
        d = self.mapping(v, path, "a mapping with 'time' (seconds per move), 'sims' "
                                  "(simulations per move) or 'effort' (paper-seconds per move)")
        self.known_keys(d, path, BUDGET_KEYS)
        if len(d) != 1:
            self.fail(path, "expected exactly one of 'time' (seconds per move), 'sims' "
                            "(simulations per move) or 'effort' (paper-seconds per move)")
        if "time" in d or "effort" in d:
            key = "time" if "time" in d else "effort"
            t = d[key]
            if not budgets.time_ok(t):
                self.fail(f"{path}.{key}", f"expected {budgets.TIME_TEXT}, got {shown(t)}")
            return Budget(time=float(t)) if key == "time" else Budget(effort=float(t))
        s = d["sims"]
        if not budgets.sims_ok(s):
            self.fail(f"{path}.sims", f"expected {budgets.SIMS_TEXT}, got {shown(s)}")
        return Budget(sims=s)

    def game(self, v: Any, path: str) -> _games.Game:
        """The game a game spec names (`hex(size=5)`), resolved once; one line naming the bad
        part."""
        if not isinstance(v, str):
            self.fail(path, f"expected a game name such as {_games.names()[0]!r} or "
                            f"NAME(key=value,...), got {shown(v)}")
        try:
            return _games.resolve(v)
        except ValueError as e:
            self.fail(path, str(e))

    def openings(self, v: Any, path: str, game: str) -> Openings:
        valid = _games.info_of(game).opening_kinds()
        kinds = ", ".join(valid)
        if isinstance(v, dict) and "file" in v:
            return self.book(v, path, game)
        if isinstance(v, str):
            kind, plies = v, 0
            if kind == "random_plies":
                self.fail(path, "random_plies needs a count: write {random_plies: N}")
        elif isinstance(v, dict) and len(v) == 1 and "random_plies" in v:
            kind, plies = "random_plies", v["random_plies"]
            if not is_int(plies) or plies < 0:
                self.fail(f"{path}.random_plies",
                          f"expected a non-negative integer, got {shown(plies)}")
        else:
            self.fail(path, f"expected one of {kinds} (random_plies as {{random_plies: N}}, a "
                            f"book as {{file: PATH, order: sequential|random}}), got {shown(v)}")
        if kind not in valid:
            self.fail(path, f"unknown openings {kind!r} for {game}; valid: {kinds}")
        return Openings(kind, plies)

    def book(self, d: dict, path: str, game: str) -> Openings:
        """`{file: PATH, order: sequential|random}`: the book read and every line checked now
        (one error naming the book's file and line)."""
        self.known_keys(d, path, BOOK_FIELDS)
        f = d["file"]
        if not isinstance(f, str) or not f.strip():
            self.fail(f"{path}.file", f"expected the path of an opening book, got {shown(f)}")
        order = d.get("order", "sequential")
        if order not in book.ORDERS:
            self.fail(f"{path}.order", f"expected one of {', '.join(book.ORDERS)}, got "
                                       f"{shown(order)}")
        try:
            lines = book.read_book(f, game)
        except ConfigError as e:
            self.fail(f"{path}.file", str(e))
        return Openings("file", 0, f, order, tuple((x.text, x.moves) for x in lines))

    def dice(self, v: Any, path: str, game: _games.Game) -> str:
        if not game.info.has_chance:
            self.fail(path, f"{game} has no chance nodes, so no dice to draw; leave dice out")
        if v not in DICE_MODES:
            self.fail(path, f"expected {' or '.join(DICE_MODES)}, got {shown(v)}")
        return v

    def macros(self, v: Any, path: str) -> tuple[tuple[str, str], ...]:
        d = self.mapping(v, path, "a mapping of macro name to expansion")
        out = []
        for k, exp in d.items():
            if not isinstance(k, str) or not re.match(r"^[A-Za-z_][A-Za-z0-9_']*$", k):
                self.fail(f"{path}.{k}", "expected a macro name of letters, digits, '_'")
            if not isinstance(exp, str) or not exp.strip():
                self.fail(f"{path}.{k}", f"expected an option list such as 'ege0.1,det0.5', "
                                         f"got {shown(exp)}")
            out.append((k, exp.strip()))
        return tuple(sorted(out))

    def matches(self, v: Any, path: str, game: str, macros: dict | None,
                default_games: int, forced_games: int | None,
                budget: Budget | None = None) -> list[Pairing]:
        self._budget, self._game, self._macros = budget, game, macros
        if not isinstance(v, list) or not v:
            self.fail(path, f"expected a non-empty list of matches, got {shown(v)}")
        pairings: list[Pairing] = []
        seen: dict[frozenset | tuple, str] = {}
        for i, entry in enumerate(v):
            ep = f"{path}[{i}]"
            e = self.mapping(entry, ep, "a mapping with one of: " + ", ".join(MATCH_KINDS))
            kinds = [k for k in MATCH_KINDS if k in e]
            if len(kinds) != 1:
                if not kinds:
                    self.fail(ep, f"expected one of: {', '.join(MATCH_KINDS)}")
                self.fail(ep, f"expected only one of: {', '.join(kinds)}")
            kind = kinds[0]
            allowed = MATCH_FIELDS if kind == "player" else (kind, "games", "clock")
            self.known_keys(e, ep, allowed)
            games = e.get("games")
            if games is not None:
                games = self.games(games, f"{ep}.games")
            games = forced_games or games or default_games
            clock_a, clock_b = self.match_clocks(e, ep, kind, budget)
            self._sweep_values: tuple[tuple[str, str], ...] = ()
            for a, b, wa, wb in getattr(self, "_" + kind)(e, ep):
                swept = self._sweep_values
                ca, ba = self.player(a, wa, game, macros)
                cb, bb = self.player(b, wb, game, macros)
                ba = self.side_budget(ca, ba, clock_a, e, SIDE_CLOCK_FIELDS[0], budget, wa)
                bb = self.side_budget(cb, bb, clock_b, e, SIDE_CLOCK_FIELDS[1], budget, wb)
                self.managed(ca, ba or budget, wa)
                self.managed(cb, bb or budget, wb)
                key = frozenset((ca, cb)) if ca != cb else (ca, cb)
                if key in seen:
                    self.fail(ep, f"duplicate pairing {ca} vs {cb}: the same players as "
                                  f"{seen[key]}")
                seen[key] = ep
                pairings.append(Pairing(pairing_id(ca, cb), ca, cb, games, ep, ba, bb, swept))
        return pairings

    # each match kind yields (player, opponent, player's path, opponent's path)
    def _player(self, e: dict, ep: str):
        if "opponent" not in e:
            self.fail(f"{ep}.opponent", "missing required field")
        yield e["player"], e["opponent"], f"{ep}.player", f"{ep}.opponent"

    def _round_robin(self, e: dict, ep: str):
        lst = e["round_robin"]
        rp = f"{ep}.round_robin"
        if not isinstance(lst, list) or len(lst) < 2:
            self.fail(rp, f"expected a list of at least 2 players, got {shown(lst)}")
        for i, j in itertools.combinations(range(len(lst)), 2):
            yield lst[i], lst[j], f"{rp}[{i}]", f"{rp}[{j}]"

    def _gauntlet(self, e: dict, ep: str):
        gp = f"{ep}.gauntlet"
        g = self.mapping(e["gauntlet"], gp, "a mapping with 'player' and 'opponents'")
        self.known_keys(g, gp, GAUNTLET_FIELDS)
        for req in ("player", "opponents"):
            if req not in g:
                self.fail(f"{gp}.{req}", "missing required field")
        opp = g["opponents"]
        if not isinstance(opp, list) or not opp:
            self.fail(f"{gp}.opponents", f"expected a non-empty list of players, got {shown(opp)}")
        for j, o in enumerate(opp):
            yield g["player"], o, f"{gp}.player", f"{gp}.opponents[{j}]"

    def _scaling(self, e: dict, ep: str):
        sp = f"{ep}.scaling"
        s = self.mapping(e["scaling"], sp, "a mapping with 'players' and a ladder of 'sims', "
                                           "'time', 'effort' or 'clock'")
        self.known_keys(s, sp, SCALING_FIELDS)
        players = s.get("players")
        if not isinstance(players, list) or not players:
            self.fail(f"{sp}.players", f"expected a non-empty list of players, got "
                                       f"{shown(players)}")
        kinds = [k for k in LADDER_KINDS if k in s]
        if len(kinds) != 1:
            self.fail(sp, "expected exactly one ladder: 'sims', 'time', 'effort' or 'clock'")
        kind = kinds[0]
        clocks = self.clock_ladder(s[kind], f"{sp}.{kind}", LADDER_MAX) if kind == "clock" \
            else ()
        levels = tuple(budgets.parse_clock(c).base for c in clocks) if clocks else \
            self.ladder(s[kind], f"{sp}.{kind}", kind)
        bases, specs = [], []
        for i, text in enumerate(players):
            path = f"{sp}.players[{i}]"
            base = self.player(text, path, self._game, self._macros)[0]
            spec = self._parse(base, game=self._game, macros=self._macros)
            own = spec_budget(spec)
            if own is not None:
                self.fail(path, f"{base} carries its own budget ({own.text()}), which "
                                f"contradicts the ladder's; leave time=/sims=/effort=/clock= "
                                f"out")
            if base in bases:
                self.fail(path, f"{base} is named twice")
            if kind == "clock" and unmanaged(spec):
                self.fail(path, f"{base} has no time management (tm=0), and a ladder's player "
                                f"carries no cap of its own: on a ladder of clocks its players "
                                f"manage their time")
            its = kind_table.of(spec)
            external = its.external and not its.rated_by_label     # no engine rate
            if kind == "sims" and external and spec.kind == "GTP" and \
                    "{sims}" not in spec.target:
                self.fail(path, f"{base} cannot be given simulations: its cmd has no {{sims}} "
                                f"placeholder; use a ladder of time")
            if kind == "effort" and external:
                self.fail(path, f"{base} is an external player: no engine rate gives it a "
                                f"matched effort; use a ladder of time or sims")
            bases.append(base)
            specs.append(tuple(self.player(with_budget(base, kind, v), path, self._game,
                                           self._macros)[0] for v in clocks or levels))
        anchor = self.anchor(s.get("anchor"), f"{sp}.anchor", bases, specs)
        self._ladders.append(Ladder(tuple(bases), kind, levels, tuple(specs), anchor, sp,
                                    clocks))
        where = [[f"{sp}.{kind}[{k}]" for k in range(len(levels))]] * len(specs)
        done = set()
        for i, row in enumerate(specs):                 # each level against the one below
            for k in range(1, len(row)):
                done.add(frozenset((row[k], row[k - 1])))
                yield row[k], row[k - 1], where[i][k], where[i][k - 1]
        for k in range(len(levels)):                    # the players at the same level
            for i, j in itertools.combinations(range(len(specs)), 2):
                done.add(frozenset((specs[i][k], specs[j][k])))
                yield specs[i][k], specs[j][k], where[i][k], where[j][k]
        for i, row in enumerate(specs):                 # every other level against the anchor
            for k, spec in enumerate(row):
                if spec != anchor and frozenset((spec, anchor)) not in done:
                    yield spec, anchor, where[i][k], f"{sp}.anchor"

    def ladder(self, v: Any, path: str, kind: str) -> tuple[float, ...]:
        """The budgets of a ladder: a list that grows, or {from: B, doublings: K}."""
        ok, text = (budgets.sims_ok, budgets.SIMS_TEXT) if kind == "sims" else \
            (budgets.time_ok, budgets.TIME_TEXT)
        if isinstance(v, dict):
            self.known_keys(v, path, ("from", "doublings"))
            for req in ("from", "doublings"):
                if req not in v:
                    self.fail(f"{path}.{req}", "missing required field")
            if not ok(v["from"]):
                self.fail(f"{path}.from", f"expected {text}, got {shown(v['from'])}")
            n = v["doublings"]
            if not is_int(n) or not 1 <= n < LADDER_MAX:
                self.fail(f"{path}.doublings", f"expected an integer from 1 to "
                                               f"{LADDER_MAX - 1}, got {shown(n)}")
            levels = [v["from"] * 2 ** k for k in range(n + 1)]
            if not ok(levels[-1]):
                self.fail(f"{path}.doublings", f"the top level {format_value(levels[-1])} is "
                                               f"out of range: expected {text}")
            return tuple(levels)
        if not isinstance(v, list) or len(v) < 2:
            self.fail(path, f"expected a list of at least 2 budgets or {{from: B, doublings: "
                            f"K}}, got {shown(v)}")
        if len(v) > LADDER_MAX:
            self.fail(path, f"expected at most {LADDER_MAX} levels, got {len(v)}")
        for k, b in enumerate(v):
            if not ok(b):
                self.fail(f"{path}[{k}]", f"expected {text}, got {shown(b)}")
            if k and not b > v[k - 1]:
                self.fail(f"{path}[{k}]", f"a ladder must grow: {b!r} does not exceed "
                                          f"{v[k - 1]!r}")
        return tuple(v)

    def anchor(self, v: Any, path: str, bases: list[str], specs: list[tuple[str, ...]]) -> str:
        """The level rated 0: a ladder's player at its lowest level (default the first), or a
        player with its own budget, who then plays every level."""
        if v is None:
            return specs[0][0]
        spec, own = self.player(v, path, self._game, self._macros)
        if spec in bases:
            return specs[bases.index(spec)][0]
        if own is None:
            self.fail(path, f"expected one of the ladder's players ({', '.join(bases)}) or a "
                            f"player with its own budget (time= or sims=), got {spec}")
        if any(spec in row for row in specs):
            self.fail(path, f"{spec} is a level of the ladder; name its player instead")
        return spec

    def _sweep(self, e: dict, ep: str):
        sp = f"{ep}.sweep"
        s = self.mapping(e["sweep"], sp, "a mapping with 'player', 'opponent' and value lists")
        for req in ("player", "opponent"):
            if req not in s:
                self.fail(f"{sp}.{req}", "missing required field")
        templates = {}
        for role in ("player", "opponent"):
            t = s[role]
            if not isinstance(t, str) or not t.strip():
                self.fail(f"{sp}.{role}", f"expected a player template such as "
                                          f"'MCTS(bl,im{{alpha}})', got {shown(t)}")
            try:
                names = [f for _, f, _, _ in string.Formatter().parse(t) if f is not None]
            except ValueError as err:
                self.fail(f"{sp}.{role}", f"bad template {t!r}: {err}")
            for n in names:
                if not n.isidentifier():
                    self.fail(f"{sp}.{role}", f"bad placeholder {{{n}}} in {t!r}; expected "
                                              f"{{name}} of a sweep variable")
            templates[role] = (t, names)
        variables = {k: val for k, val in s.items() if k not in ("player", "opponent")}
        if not variables:
            self.fail(sp, "expected at least one variable list such as alpha: [0.1, 0.2]")
        for role in ("player", "opponent"):
            for n in templates[role][1]:
                if n not in variables:
                    self.fail(f"{sp}.{role}", f"template uses {{{n}}} but the sweep defines only "
                                              f"{', '.join(map(str, variables))}")
        used = set(templates["player"][1]) | set(templates["opponent"][1])
        for k, vals in variables.items():
            if not isinstance(k, str) or not k.isidentifier():
                self.fail(f"{sp}.{k}", "expected a variable name (letters, digits, '_')")
            if k not in used:
                self.fail(f"{sp}.{k}", f"variable is not used in the player or opponent template "
                                       f"(write {{{k}}} in one)")
            if not isinstance(vals, list) or not vals:
                self.fail(f"{sp}.{k}", f"expected a non-empty list of values, got {shown(vals)}")
            for j, val in enumerate(vals):
                if not (_is_number(val) or isinstance(val, str)):
                    self.fail(f"{sp}.{k}[{j}]", f"expected a number or a string, got {shown(val)}")
        keys = list(variables)
        for combo in itertools.product(*(range(len(variables[k])) for k in keys)):
            values = {k: format_value(variables[k][j]) for k, j in zip(keys, combo)}
            # the path of the value that made this pairing: the last swept variable's entry
            where = f"{sp}.{keys[-1]}[{combo[-1]}]"
            if len(keys) > 1:
                where = ", ".join(f"{sp}.{k}[{j}]" for k, j in zip(keys, combo))
            where_p = where if templates["player"][1] else f"{sp}.player"
            where_o = where if templates["opponent"][1] else f"{sp}.opponent"
            self._sweep_values = tuple(values.items())
            yield (templates["player"][0].format(**values),
                   templates["opponent"][0].format(**values), where_p, where_o)
