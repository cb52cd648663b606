"""GTP engines as players, `GTP(cmd=..., name=...)`: the protocol over a players/gtp_process.py
engine, how a game is spoken over GTP (colours, board size, move spelling: the game's
`GameInfo.gtp_*`), the start-up conversation and its checks before a run.

A GTP player starts its engine when the game loop announces a game (`new_game`, before the
game's clock runs; at its first move when used outside the loop) and quits it (killing what is
left of its process group) when the game loop closes it, so a crashed or hung engine never
outlives its game and the next game gets a fresh one. Faults become game results:

- the engine dies, refuses a move we send, or answers what is not GTP: an error game whose
  record carries the engine's last stderr lines;
- no answer to `genmove` within the move's forfeit limit (time budgets), the time left on its
  clock and a second's grace (a game on a clock) or the spec's `timeout` (simulation budgets,
  counted in the engine's CPU seconds so that a loaded machine does not forfeit its moves, or
  in wall seconds without any computing): the engine is killed and the game is a time forfeit;
- on a clock the engine is told the time control as GTP defines it (GTP 2, 4.2 and 6.3.3):
  `time_settings MAIN 0 0` (absolute time; with an increment, `kgs-time_settings fischer MAIN
  INC` first where the engine knows it), `time_settings 0 BASE MOVES` for a clock with moves
  per period (Canadian byo-yomi of MOVES stones in BASE seconds), and before every `genmove`
  `time_left COLOR SECONDS STONES` (STONES: 0 in absolute time, else the moves to go);
- an answer that is not a legal move (`pass` included): a forfeit, reason `illegal_move`, the
  move in the record; `resign`: a loss, reason `resign`.
"""
from __future__ import annotations

import re
import shlex
import time as _time

from mcts_arena import games
from mcts_arena.budgets import Budget
from mcts_arena.errors import ExternalError
from mcts_arena.players.gtp_process import (
    CLOCK_GRACE_S,
    EngineError,
    EngineTimeout,
    GTPEngine,
    GTPRefused,
)
from mcts_arena.players.player import Player, PlayerForfeit
from mcts_arena.players.spec import PLACEHOLDERS

DEFAULT_TIMEOUT_S = 60.0        # one move under a simulation budget
START_TIMEOUT_S = 30.0          # each start-up command (protocol_version, name, boardsize, ...)


class GTPPlayer(Player):
    """An engine over GTP (see the module docstring)."""

    def __init__(self, spec, seed: int):
        super().__init__(spec, seed)
        self.facts = gtp_facts(spec.game)
        self.engine = None
        self.engine_name = ""
        self._opening = None            # (state, history) from new_game
        self._pending: list[tuple[int, str]] = []
        self._own: tuple[int, str] | None = None
        self._move_limit: float | None = None   # the game loop's forfeit limit for one move

    @property
    def name(self) -> str:
        return self.spec.display_name

    # -- hooks of the game loop --
    def new_game(self, state, history, budget, move_limit=None):
        """Start the engine and set up the opening, before the game's clock starts."""
        self.close()
        self._move_limit = move_limit
        self._opening = (state.copy(), None if history is None else list(history))
        self._pending, self._own = [], None
        own = self.spec.budget
        budget = Budget.of(budget)
        try:
            self._start(state, budget if budget.clock is not None else own or budget)
        except (EngineError, OSError) as e:
            self.close()
            raise EngineError(str(e)) from None

    def observe(self, seat, notation):
        if self._own == (seat, notation):
            self._own = None            # the engine played it itself (genmove)
            return
        self._pending.append((seat, notation))

    def close(self):
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def engine_argv(self, seed: int, budget: Budget) -> list[str]:
        """The engine's command line for a game under `budget` (ExternalError if it cannot be
        made): the spec's `cmd` with its placeholders filled in."""
        return fill_command(self.spec, seed, budget)

    # -- moves --
    def _gtp_move(self, notation: str) -> str:
        f = self.facts["to_gtp"]
        return f(notation) if f else notation

    def _color(self, seat: int) -> str:
        return self.facts["colors"][seat]

    def _start(self, state, budget: Budget) -> None:
        if self._opening is None:               # used outside the game loop: start from here
            self._opening = (state.copy(), [] if state.to_text() == games.new_state(
                self.spec.game).to_text() else None)
        opening, history = self._opening
        try:
            self.engine, info = start_engine(self.spec, self.seed, budget,
                                             argv=self.engine_argv(self.seed, budget))
        except ExternalError as e:
            raise EngineError(str(e).split(": ", 1)[-1]) from None
        self.engine_name = info["name"]
        start = games.new_state(self.spec.game)
        if history:
            for mv in history:
                self._send(f"play {self._color(start.to_move())} {self._gtp_move(mv)}")
                start.play(mv)
        elif history is None and opening.to_text() != start.to_text():
            if not knows(self.engine, info, "set_position"):
                raise EngineError("this game starts from a position no move sequence reaches, "
                                  "and the engine does not know set_position")
            self._send(f"set_position {opening.to_text()}")
        clock = budget.clock_of()
        if clock is not None:
            self._clock_settings(clock, info)
        elif budget.time is not None:
            try:        # byo-yomi of one move in `time` seconds; an engine may not manage time
                self._send(f"time_settings 0 {budget.time:g} 1")
            except GTPRefused:
                pass

    def _clock_settings(self, clock, info: dict) -> None:
        """The game's time control as GTP says it (see the module docstring); an engine that
        refuses it plays on, told the time left before each move."""
        try:
            if clock.moves:
                self._send(f"time_settings 0 {clock.base:g} {clock.moves}")
                return
            if clock.inc > 0 and knows(self.engine, info, "kgs-time_settings"):
                self._send(f"kgs-time_settings fischer {clock.base:g} {clock.inc:g}")
                return
            self._send(f"time_settings {clock.base:g} 0 0")
        except GTPRefused:
            pass

    def _send(self, command: str, timeout: float | None = None) -> str:
        return self.engine.send(command, START_TIMEOUT_S if timeout is None else timeout)

    def _choose(self, state, time, sims):
        if self.clock is not None:
            time = None                 # the engine manages its clock itself (time_left)
        budget = Budget(time=time) if time is not None else Budget(sims=sims) if sims else Budget()
        try:
            if self.engine is None:
                self._start(state, budget)
            for seat, mv in self._pending:
                self._send(f"play {self._color(seat)} {self._gtp_move(mv)}")
            self._pending = []
            seat = state.to_move()
            color = self._color(seat)
            clock = self.clock
            if clock is not None or time is not None:
                told = f"{max(0.0, round(clock.left, 3)):g} {clock.to_go}" \
                    if clock is not None else f"{time:g} 1"
                try:
                    self._send(f"time_left {color} {told}")
                except GTPRefused:
                    pass
            limit = self._move_limit if self._move_limit is not None else \
                float(self.spec.get("timeout", DEFAULT_TIMEOUT_S))
            if clock is not None:
                limit = clock.left + CLOCK_GRACE_S
            # a move under a work budget is as long as its work, whatever the machine's load:
            # its limit is the engine's CPU time (gtp_process), the others' the wall clock
            cpu = clock is None and time is None and self._move_limit is None
            t0 = _time.perf_counter()
            try:
                answer = self.engine.send(f"genmove {color}", limit, cpu=cpu)
            except EngineTimeout as e:
                tail = self.engine.stderr_tail()
                self.close()
                within = e.allowed if cpu else f"{limit:.3f} s"
                raise PlayerForfeit("time_forfeit", f"no answer to genmove within {within}"
                                    f" (engine killed){tail}") from None
            wall = _time.perf_counter() - t0
        except (EngineError, OSError) as e:
            tail = ""
            if self.engine is not None and "engine stderr" not in str(e):
                tail = self.engine.stderr_tail()
            self.close()
            raise EngineError(f"{e}{tail}") from None
        word = answer.strip()
        if word.lower() == "resign":
            raise PlayerForfeit("resign", "resigned")
        text = self.facts["from_gtp"](word) if self.facts["from_gtp"] else word
        move = None
        for candidate in (text, text.lower()):
            try:
                move = state.parse_move(candidate)
                break
            except (ValueError, TypeError):
                continue
        if move is None or move not in state.move_ids():
            raise PlayerForfeit("illegal_move", f"illegal move {word!r} answered to genmove "
                                f"{color} (legal: {' '.join(state.moves())})")
        self._own = (seat, state.format_move(move))
        return move, {"time": round(wall, 6)}


def gtp_facts(game: str) -> dict:
    """How a game is spoken over GTP, as the game declares it (GameInfo.gtp_*): colours of
    seat 0 and 1, the board size (or None), and the move spelling (to_gtp/from_gtp, None: the
    game's own notation)."""
    info = games.info_of(game)
    size = info.gtp_boardsize
    if isinstance(size, str):                   # the name of a parameter, e.g. hex's "size"
        size = games.parse(game)[1][size]
    return {"colors": tuple(info.gtp_colors), "boardsize": size, "to_gtp": info.gtp_move,
            "from_gtp": info.gtp_parse}


COLOR_WORDS = {"b": "black", "w": "white"}


def parse_color(word: str, colors: tuple[str, str]) -> int | None:
    """Seat of a GTP colour word (`b`, `black`, `w`, `white`, any case) or None."""
    w = word.strip().lower()
    for seat, c in enumerate(colors):
        if w in (c, COLOR_WORDS.get(c, c)):
            return seat
    return None


def fill_command(spec, seed: int, budget: Budget) -> list[str]:
    """The engine's argv with {seed}, {sims}, {time}, {game} filled in for this seat."""
    values = {"seed": str(seed), "game": spec.game}
    if budget.sims is not None:
        values["sims"] = str(int(budget.sims))
    if budget.time is not None:
        values["time"] = f"{budget.time:g}"
    argv = []
    for arg in shlex.split(spec.target):
        def sub(m):
            key = m.group(1)
            if key not in values:
                have = "a time" if "time" in values else "a simulation"
                raise ExternalError(f"player {spec.display_name}: cmd uses {{{key}}} but this "
                                    f"seat has {have} budget ({budget.as_dict()})")
            return values[key]
        argv.append(re.sub(r"\{(" + "|".join(PLACEHOLDERS) + r")\}", sub, arg))
    return argv


def start_engine(spec, seed: int, budget: Budget, need_position: bool = False,
                 argv: list[str] | None = None) -> tuple[GTPEngine, dict]:
    """Start the engine (`argv`, else the spec's `cmd` filled in) and hold the start-up
    conversation. ExternalError on any fault, with the engine already closed. Returns (engine,
    info: name, commands)."""
    who = f"player {spec.display_name}"
    facts = gtp_facts(spec.game)
    if argv is None:
        argv = fill_command(spec, seed, Budget.of(budget) or Budget())
    try:
        eng = GTPEngine(argv, who)
    except EngineError as e:
        raise ExternalError(f"{who}: {e}") from None
    info: dict = {"name": "", "commands": None}
    try:
        eng.send("protocol_version", START_TIMEOUT_S)
        info["name"] = eng.send("name", START_TIMEOUT_S)
        try:
            info["commands"] = set(eng.send("list_commands", START_TIMEOUT_S).split())
        except GTPRefused:
            info["commands"] = None
        if facts["boardsize"]:
            eng.send(f"boardsize {facts['boardsize']}", START_TIMEOUT_S)
        eng.send("clear_board", START_TIMEOUT_S)
        if need_position and not knows(eng, info, "set_position"):
            raise ExternalError(f"{who}: the openings of this experiment are positions no move "
                                "sequence reaches, and the engine does not know the "
                                "set_position command (see docs/engines.md)")
    except ExternalError:
        eng.close()
        raise
    except EngineTimeout as e:
        tail = eng.stderr_tail()
        eng.close()
        raise ExternalError(f"{who}: {e} ({START_TIMEOUT_S:g} s){tail}") from None
    except EngineError as e:
        eng.close()
        raise ExternalError(f"{who}: {e}") from None
    return eng, info


def knows(eng: GTPEngine, info: dict, command: str) -> bool:
    if info["commands"] is not None:
        return command in info["commands"]
    try:
        return eng.send(f"known_command {command}", START_TIMEOUT_S).strip().lower() == "true"
    except GTPRefused:
        return False


def check_startup(spec, budget: Budget, reached_by_moves: bool = True,
                  argv: list[str] | None = None) -> None:
    """Start the engine once (`argv`, else the spec's `cmd`), hold the start-up conversation
    and quit (ExternalError on any fault): run before the store is opened, so a broken engine
    writes nothing. Openings that no move sequence reaches (`reached_by_moves` False: random
    boards, positions of a set or a book) need an engine that knows set_position."""
    eng, _ = start_engine(spec, 1, budget, need_position=not reached_by_moves, argv=argv)
    eng.close()
