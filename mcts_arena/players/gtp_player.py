"""Player objects for `GTP(...)` engines and `py(...)` classes (notation: players/external.py).

A GTP player starts its engine when the game loop announces a game (`new_game`, before the
game's clock runs; at its first move when used outside the loop) and quits it (killing what is
left of its process group) when the game loop closes it, so a crashed or hung engine never
outlives its game and the next game gets a fresh one. Faults become game results:

- the engine dies, refuses a move we send, or answers what is not GTP: an error game whose
  record carries the engine's last stderr lines;
- no answer to `genmove` within the move's forfeit limit (time budgets) or the spec's
  `timeout` (simulation budgets): the engine is killed and the game is a time forfeit;
- an answer that is not a legal move (`pass` included): a forfeit, reason `illegal_move`, the
  move in the record; `resign`: a loss, reason `resign`.
"""
from __future__ import annotations

import time as _time

from mcts_arena import games
from mcts_arena.players.builtin import Player, PlayerForfeit
from mcts_arena.players.gtp_process import (DEFAULT_TIMEOUT_S, EngineError, EngineTimeout,
                                         ExternalError, ExternalSpec, GTPRefused, _accepts,
                                         _knows, gtp_facts, load_class, start_engine)


def make(spec: ExternalSpec, seed: int) -> Player:
    return GTPPlayer(spec, seed) if spec.kind == "GTP" else PyPlayer(spec, seed)


class GTPPlayer(Player):
    """An engine over GTP (see the module docstring)."""

    def __init__(self, spec: ExternalSpec, seed: int):
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
        own = self.spec.budget_dict
        try:
            self._start(state, own or budget)
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

    # -- moves --
    def _gtp_move(self, notation: str) -> str:
        f = self.facts["to_gtp"]
        return f(notation) if f else notation

    def _color(self, seat: int) -> str:
        return self.facts["colors"][seat]

    def _start(self, state, budget: dict) -> None:
        if self._opening is None:               # used outside the game loop: start from here
            self._opening = (state.copy(), [] if state.to_text() == games.new_state(
                self.spec.game).to_text() else None)
        opening, history = self._opening
        try:
            self.engine, info = start_engine(self.spec, self.seed, budget)
        except ExternalError as e:
            raise EngineError(str(e).split(": ", 1)[-1]) from None
        self.engine_name = info["name"]
        start = games.new_state(self.spec.game)
        if history:
            for mv in history:
                self._send(f"play {self._color(start.to_move())} {self._gtp_move(mv)}")
                start.play(mv)
        elif history is None and opening.to_text() != start.to_text():
            if not _knows(self.engine, info, "set_position"):
                raise EngineError("this game starts from a position no move sequence reaches, "
                                  "and the engine does not know set_position")
            self._send(f"set_position {opening.to_text()}")
        if budget.get("time") is not None:
            try:        # byo-yomi of one move in `time` seconds; an engine may not manage time
                self._send(f"time_settings 0 {budget['time']:g} 1")
            except GTPRefused:
                pass

    def _send(self, command: str, timeout: float | None = None) -> str:
        from mcts_arena.players.gtp_process import START_TIMEOUT_S

        return self.engine.send(command, START_TIMEOUT_S if timeout is None else timeout)

    def _choose(self, state, time, sims):
        budget = {"time": time} if time is not None else {"sims": sims} if sims else {}
        try:
            if self.engine is None:
                self._start(state, budget)
            for seat, mv in self._pending:
                self._send(f"play {self._color(seat)} {self._gtp_move(mv)}")
            self._pending = []
            seat = state.to_move()
            color = self._color(seat)
            if time is not None:
                try:
                    self._send(f"time_left {color} {time:g} 1")
                except GTPRefused:
                    pass
            limit = self._move_limit if self._move_limit is not None else \
                float(self.spec.get("timeout", DEFAULT_TIMEOUT_S))
            t0 = _time.perf_counter()
            try:
                answer = self._send(f"genmove {color}", limit)
            except EngineTimeout:
                tail = self.engine.stderr_tail()
                self.close()
                raise PlayerForfeit("time_forfeit", f"no answer to genmove within {limit:.3f} s"
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


class PyPlayer(Player):
    """A Python class with `choose(state, time=None, sims=None) -> (move, stats)`."""

    def __init__(self, spec: ExternalSpec, seed: int):
        super().__init__(spec, seed)
        cls = load_class(spec)
        kwargs = dict(spec.options)
        if _accepts(cls, "seed"):
            kwargs["seed"] = self.seed
        if _accepts(cls, "game"):
            kwargs["game"] = spec.game
        self.impl = cls(**kwargs)

    @property
    def name(self) -> str:
        return self.spec.display_name

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        out = self.impl.choose(state, time=time, sims=sims)
        wall = _time.perf_counter() - t0
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"choose() must return (move, stats), got {out!r:.60}")
        move, stats = out
        if isinstance(move, str):
            move = state.parse_move(move)
        elif not isinstance(move, int) or isinstance(move, bool):
            raise TypeError(f"choose() returned a move of type {type(move).__name__}; expected "
                            "a move id (int) or its notation (str)")
        if stats is None:
            stats = {}
        if not isinstance(stats, dict):
            raise TypeError(f"choose() returned stats of type {type(stats).__name__}; "
                            "expected a dict")
        stats = dict(stats)
        stats.setdefault("time", wall)
        return move, stats
