"""The built-in players around the Cython searches (players/search/): Random, Greedy, MCTS,
FlatMC (MCTS that never expands below the root), αβ, the *-minimax family (expectimax, Star1,
Star2, MCMS), PigOptimal (a game's exact solution: Pig's); players/kinds.py names the class
of each kind.

Budgets: a call gives `time` (seconds per move) or `sims` (simulations for MCTS and FlatMC,
nodes for αβ), and on a clock the move's hard limit (`self.hard`), which every search is given
as its `hard` time; see players/player.py. An αβ depth (`d4`/`depth=`) replaces a node budget
but never a time budget: the search stops at the depth or when the time is up, whichever comes
first.
"""
from __future__ import annotations

import random
import time as _time

from mcts_arena import games
from mcts_arena.games import evalfile, netfile
from mcts_arena.games.state import POLICY_IDS
from mcts_arena.players.adaptive import ARMS, AlphaBandit
from mcts_arena.players.options import BY_FIELD
from mcts_arena.players.player import Player, derive_seed
from mcts_arena.players.spec import PlayerSpec


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
        self.knowledge = knowledge_of(spec)

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        s = state.copy()
        me = s.to_move()
        k = self.knowledge or s.knowledge()
        best, moves = None, []
        for m in s.move_ids():
            s.play(m)
            e = k.value(s, self.evalfn)
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


class PigOptimalPlayer(Player):
    """The exact solution's move (GameInfo.exact_solver: Pig's value iteration, solved once per
    process and game)."""

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        game = games.resolve(spec.game)
        self.solution = game.info.exact_solver(dict(game.params))

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        move = self.solution.move(state)
        return move, {"sims": 0, "nodes": 1, "depth": 0, "time": _time.perf_counter() - t0,
                      "value": self.solution.win_probability_at(state)}


def eval_id(spec: PlayerSpec) -> int:
    """The game-local id of the spec's evaluation function (a fitted file's: 0, unused: its
    knowledge replaces the game's, see `knowledge_of`)."""
    if evalfile.is_file_eval(spec.evalfn):
        return 0
    return games.info_of(spec.game).eval_id(spec.evalfn)


def knowledge_of(spec: PlayerSpec):
    """The knowledge the spec's searches hold: a fitted evaluation's (`ef=FILE`, on the game's
    own knowledge), a network's (`nn=FILE`), or None for the game's own."""
    if netfile.is_net(spec.evalfn):
        return netfile.knowledge(spec.evalfn, spec.game)
    if evalfile.is_file_eval(spec.evalfn):
        return evalfile.knowledge(spec.evalfn, spec.game)
    return None


def node_prior_visits(spec: PlayerSpec, time: float | None) -> int:
    """Virtual visits of node priors for this move (-1: off). Bare `np` scales with the budget
    as the paper did: 10 virtual visits per second (10 at 1 s, 50 at 5 s)."""
    n = spec.get("np")
    if n is None:
        return -1
    return int(n) if n else max(1, round(10 * (time if time else 1.0)))


def mcts_options(spec: PlayerSpec) -> dict:
    """The MCTSSearch option dict for this spec, from the option table (players/options.py):
    each option's value under its `engine` key, as its type; `im`/`cb`/`pbim` choose the
    blend of the evaluation in selection (`sel`) with its weight (`alpha`); `puctp` is PUCT
    (`puct`) with the game's priors (`prior`); `ima` is im, its α the player's to set each
    move, `imas` im with the search's own α bandits (`arms`); `ipp` names the playout
    policy."""
    opts: dict = {"C": float(games.info_of(spec.game).default_c), "evalfn": eval_id(spec)}
    for name, value in spec.options:
        o = BY_FIELD[name]
        if o.engine is None or "MCTS" not in o.kinds:
            continue
        if o.engine == "sel":
            opts["sel"], opts["alpha"] = name, float(value)
        elif o.engine == "adapt_alpha":
            # im, its α set before each move by the player's bandit (players/adaptive.py)
            opts["sel"], opts["alpha"] = "im", ARMS[0]
        elif o.engine == "adapt_alpha_sims":
            # im, its α drawn per simulation by each side's bandit in the search
            opts["sel"], opts["alpha"], opts["arms"] = "im", ARMS[0], ARMS
        elif o.engine == "puct_prior":
            opts["puct"], opts["prior"] = float(value), True
        elif o.engine == "policy":
            opts["policy"] = POLICY_IDS[value]
        else:
            opts[o.engine] = _AS_TYPE[o.type](value)
    return opts


_AS_TYPE = {"int": int, "float": float, "flag": bool}


class MCTSPlayer(Player):
    """MCTS (mcts.pyx) with the spec's enhancements; MCTS-Solver always on."""

    def __init__(self, spec, seed, flat: bool = False):
        super().__init__(spec, seed)
        from mcts_arena.players.search import mcts_search

        opts = mcts_options(spec)
        if flat:
            opts["flat"] = True
        self.search = mcts_search(opts, self.seed)
        self.search.knowledge = knowledge_of(spec)
        # ima: the game's α bandit (players/adaptive.py); the player lives one game
        self.bandit = AlphaBandit(derive_seed(self.seed, "ima")) if spec.get("ima") else None

    def _choose(self, state, time, sims):
        if not time and not sims:
            raise ValueError(f"{self.name} needs a budget: time or sims")
        arm = None
        if self.bandit is not None:
            arm = self.bandit.choose()
            self.search.alpha = self.bandit.arms[arm]
        move, stats = self.search.search(
            state, seconds=time or 0.0, sims=sims or 0,
            np_visits=node_prior_visits(self.spec, time if time else self.effort),
            hard=self.hard or 0.0)
        stats = dict(stats)
        if arm is not None:
            self.bandit.record(arm, stats.get("value") if stats["sims"] > 0 else None)
            stats["alpha"] = self.bandit.arms[arm]
        return move, stats

    def trace(self, state, checkpoints: list[int]):
        """One search of max(checkpoints) simulations; [(sims, move, seconds)]: the move it
        would play after each checkpoint (the prefix of a longer search with the same seed
        is the shorter search, so this stands for independent searches at each budget). The
        Gumbel root plans its phases on the budget, so there a prefix is not the shorter
        search: one search per checkpoint."""
        if self.spec.get("gumbel"):
            out = []
            for sims in sorted(checkpoints):
                move, stats = self.search.search(state, sims=sims)
                out.append((sims, move, stats.time))
            return out
        _, stats = self.search.search(state, sims=max(checkpoints),
                                      np_visits=node_prior_visits(self.spec, None),
                                      checkpoints=sorted(checkpoints))
        return stats.trace


class AlphaBetaPlayer(Player):
    """αβ (alphabeta.pyx): iterative deepening, TT, killers, history, static ordering."""

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        from mcts_arena.players.search.alphabeta import AlphaBeta

        self.depth = int(spec.get("depth", 0) or 0)
        # tt and hh (the option table's `use_tt`, `use_history`) are on unless the spec says 0
        # the MIA-like switches (pvs, qs, nm, etc, lmr) are off unless the spec sets them
        self.search = AlphaBeta(eval_id(spec), self.seed,
                                use_tt=bool(spec.get("tt", 1)), use_history=bool(spec.get("hh", 1)),
                                pvs=bool(spec.get("pvs", 0)), qs=int(spec.get("qs", 0)),
                                null=bool(spec.get("nm", 0)), etc=bool(spec.get("etc", 0)),
                                lmr=bool(spec.get("lmr", 0)))
        self.search.knowledge = knowledge_of(spec)

    def _choose(self, state, time, sims):
        if self.depth:      # a depth replaces a node budget, never a time budget
            return self.search.search(state, seconds=time or 0.0, depth=self.depth,
                                      hard=self.hard or 0.0)
        if not time and not sims:
            raise ValueError(f"{self.name} needs a budget: time, sims (nodes) or depth")
        return self.search.search(state, seconds=time or 0.0, nodes=sims or 0,
                                  hard=self.hard or 0.0)


class StarPlayer(Player):
    """expectimax, Star1, Star2 and MCMS (players/search/expectimax.pyx) for games with chance
    nodes (on a deterministic game expectimax is minimax and Star1/Star2 are αβ): iterative
    deepening under the time or node budget, or a fixed depth (`d3`)."""

    ALGO = {"expectimax": 0, "Star1": 1, "Star2": 2}

    def __init__(self, spec, seed):
        super().__init__(spec, seed)
        from mcts_arena.players.search.expectimax import StarSearch

        self.depth = int(spec.get("depth", 0) or 0)
        if spec.kind == "MCMS":
            algo, samples = int(spec.get("star", 2)), int(spec.get("samples", 5))
        else:
            algo, samples = self.ALGO[spec.kind], 0
        self.search = StarSearch(algo, eval_id(spec), self.seed, samples,
                                 use_tt=bool(spec.get("tt", 1)))
        self.search.knowledge = knowledge_of(spec)

    def _choose(self, state, time, sims):
        if self.depth:      # a depth replaces a node budget, never a time budget
            return self.search.search(state, seconds=time or 0.0, depth=self.depth,
                                      hard=self.hard or 0.0)
        if not time and not sims:
            raise ValueError(f"{self.name} needs a budget: time, sims (nodes) or depth")
        return self.search.search(state, seconds=time or 0.0, nodes=sims or 0,
                                  hard=self.hard or 0.0)


def flat_mc(spec: PlayerSpec, seed: int) -> Player:
    """FlatMC: MCTS that never expands below the root."""
    return MCTSPlayer(spec, seed, flat=True)
