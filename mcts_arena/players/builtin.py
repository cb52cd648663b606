"""Player objects around the Cython searches, and the factory `make`.

Budgets: a call gives `time` (seconds per move) or `sims` (simulations for MCTS and FlatMC,
nodes for αβ); a budget written in the spec (`time=`, `sims=`) overrides it. An αβ depth
(`d4`/`depth=`) replaces a node budget but never a time budget: the search stops at the depth or
when the time is up, whichever comes first. Budgets outside mcts_arena.budgets' ranges (NaN,
infinite, too large) are refused with a ValueError before any search starts.
"""
from __future__ import annotations

import hashlib
import random
import time as _time

from mcts_arena import budgets, games
from mcts_arena.games.state import POLICY_IDS
from mcts_arena.players.spec import PlayerSpec, SpecError, parse


def derive_seed(*parts) -> int:
    """A 63-bit seed from any parts (stable across runs and machines, unlike hash())."""
    h = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") >> 1


class Player:
    """Base: holds the spec and the seed; subclasses implement `_choose`."""

    def __init__(self, spec: PlayerSpec, seed: int):
        self.spec = spec
        self.effort: float | None = None   # paper-seconds of the current move's effort budget
        self.seed = derive_seed(seed, spec.seed_salt) if spec.seed_salt else seed

    @property
    def name(self) -> str:
        return self.spec.canonical

    def choose(self, state, time: float | None = None, sims: int | None = None,
               effort: float | None = None):
        """(move id, stats dict) for `state`, which is left unchanged. `effort` (matched-effort
        budgets: the paper-seconds that `sims` stands for) scales bare node priors."""
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        budget = self.spec.budget_dict
        if budget:
            time, sims = budget.get("time"), budget.get("sims")
        if time is not None and not budgets.time_ok(time):
            raise ValueError(f"time budget must be {budgets.TIME_TEXT}, got {time}")
        if sims is not None and not budgets.sims_ok(sims):
            raise ValueError(f"simulation budget must be {budgets.SIMS_TEXT}, got {sims}")
        self.effort = effort if not budget else None
        return self._choose(state, time, sims)

    def _choose(self, state, time, sims):
        raise NotImplementedError

    # Hooks the game loop (arena/match.py) calls; players that keep their own board (GTP
    # engines) use them, the others need nothing.
    def new_game(self, state, history: list[str] | None, budget: dict,
                 move_limit: float | None = None) -> None:
        """A game starts from `state` (a copy); `history`: the moves (notation) that lead to it
        from the game's start position, or None when no move sequence does; `budget`: this
        seat's budget per move ({"time": s} or {"sims": n}); `move_limit`: seconds after which
        one move forfeits the game (None: the loop sets none, as for simulation budgets)."""

    def observe(self, seat: int, notation: str) -> None:
        """`seat` has just played `notation` (every move of the game, this player's too)."""

    def close(self) -> None:
        """The game is over (or abandoned): free what the player holds (processes, files)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class PlayerForfeit(Exception):
    """Raised by `choose` when the player loses the game by its own fault rather than by a bug:
    `forfeit` is the game's end reason (`illegal_move`, `time_forfeit`, `resign`)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.forfeit = reason


class RandomPlayer(Player):
    """Uniformly random legal moves (seeded)."""

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        self.rng = random.Random(self.seed)

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        move = self.rng.choice(state.move_ids())
        return move, {"sims": 0, "nodes": 1, "depth": 0, "time": _time.perf_counter() - t0}


class GreedyPlayer(Player):
    """Best 1-ply evaluation for the mover (ties at random)."""

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        self.rng = random.Random(self.seed)
        self.evalfn = eval_id(spec)

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        s = state.copy()
        me = s.to_move()
        best, moves = None, []
        for m in s.move_ids():
            s.play(m)
            e = s.evaluation(self.evalfn)
            if s.to_move() != me:
                e = -e
            s.undo()
            if best is None or e > best:
                best, moves = e, [m]
            elif e == best:
                moves.append(m)
        move = self.rng.choice(moves)
        return move, {"sims": 0, "nodes": len(state.move_ids()), "depth": 1,
                      "time": _time.perf_counter() - t0, "value": best}


def eval_id(spec: PlayerSpec) -> int:
    """The game-local id of the spec's evaluation function."""
    return games.info_of(spec.game).eval_id(spec.evalfn)


def node_prior_visits(spec: PlayerSpec, time: float | None) -> int:
    """Virtual visits of node priors for this move (-1: off). Bare `np` scales with the budget
    as the paper did: 10 virtual visits per second (10 at 1 s, 50 at 5 s)."""
    n = spec.get("np")
    if n is None:
        return -1
    return int(n) if n else max(1, round(10 * (time if time else 1.0)))


def mcts_options(spec: PlayerSpec) -> dict:
    """The MCTSSearch option dict for this spec."""
    o = dict(spec.options)
    opts: dict = {"C": float(o.get("C", games.info_of(spec.game).default_c)),
                  "evalfn": eval_id(spec)}
    if "policy" in o:
        opts["policy"] = POLICY_IDS[o["policy"]]
    for key in ("fet", "df", "mb", "rave", "pu", "abp", "abw"):
        if key in o:
            opts[key] = int(o[key])
    for key in ("det", "ege", "pb", "npk", "npb"):
        if key in o:
            opts[key] = float(o[key])
    for sel in ("im", "cb", "pbim"):
        if sel in o:
            opts["sel"] = sel
            opts["alpha"] = float(o[sel])
    if o.get("exp1"):
        opts["exp1"] = True
    if o.get("fa"):
        opts["fa"] = True
    return opts


class MCTSPlayer(Player):
    """MCTS (mcts.pyx) with the spec's enhancements; MCTS-Solver always on."""

    def __init__(self, spec, seed, flat: bool = False):
        super().__init__(spec, seed)
        from mcts_arena.players.search.mcts import MCTSSearch

        opts = mcts_options(spec)
        if flat:
            opts["flat"] = True
        self.search = MCTSSearch(opts, self.seed)

    def _choose(self, state, time, sims):
        if not time and not sims:
            raise ValueError(f"{self.name} needs a budget: time or sims")
        move, stats = self.search.search(
            state, seconds=time or 0.0, sims=sims or 0,
            np_visits=node_prior_visits(self.spec, time if time else self.effort))
        return move, stats

    def trace(self, state, checkpoints: list[int]):
        """One search of max(checkpoints) simulations; [(sims, move, seconds)]: the move it
        would play after each checkpoint (the prefix of a longer search with the same seed
        is the shorter search, so this stands for independent searches at each budget)."""
        _, stats = self.search.search(state, sims=max(checkpoints),
                                      np_visits=node_prior_visits(self.spec, None),
                                      checkpoints=sorted(checkpoints))
        return stats["trace"]


class AlphaBetaPlayer(Player):
    """αβ (alphabeta.pyx): iterative deepening, TT, killers, history, static ordering."""

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        from mcts_arena.players.search.alphabeta import AlphaBeta

        self.depth = int(spec.get("depth", 0) or 0)
        self.search = AlphaBeta(eval_id(spec), self.seed,
                                use_tt=bool(spec.get("tt", 1)), use_history=bool(spec.get("hh", 1)))

    def _choose(self, state, time, sims):
        if self.depth:      # a depth replaces a node budget, never a time budget
            return self.search.search(state, seconds=time or 0.0, depth=self.depth)
        if not time and not sims:
            raise ValueError(f"{self.name} needs a budget: time, sims (nodes) or depth")
        return self.search.search(state, seconds=time or 0.0, nodes=sims or 0)


_KINDS = {"MCTS": MCTSPlayer, "alphabeta": AlphaBetaPlayer, "Random": RandomPlayer,
          "Greedy": GreedyPlayer, "FlatMC": lambda spec, seed: MCTSPlayer(spec, seed, flat=True)}


def make(spec: PlayerSpec | str, game: str | None = None, seed: int = 1,
         macros: dict[str, str] | None = None) -> Player:
    """Build a player from a spec (or its text, parsed for `game`); GTP(...) and py(...)
    players come from players/external_players.py."""
    if isinstance(spec, str):
        if game is None:
            raise SpecError("a player given as text needs its game")
        spec = parse(spec, game, macros)
    elif game is not None and spec.game != game:
        raise SpecError(f"player {spec.canonical} was parsed for {spec.game}, not {game}")
    if spec.kind in ("GTP", "py"):
        from mcts_arena.players import gtp_player as external_players

        return external_players.make(spec, int(seed))
    return _KINDS[spec.kind](spec, int(seed))
