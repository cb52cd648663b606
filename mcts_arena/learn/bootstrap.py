"""Online bootstrapping of a linear evaluation from its own search (`arena fit --self-play`), as
the paper suggests (its refs [12], [31]: Veness, Silver, Uther & Blair, *Bootstrapping from Game
Tree Search*, 2009): the weights play self-play games and are moved, after every search, toward
the value the search found.

The rule is RootStrap (αβ), the simplest of Veness et al.'s family: at each move an αβ search of
a fixed node budget with the current weights values the root; the evaluation of the root is
moved toward that value by one gradient step of the squared error,

    w <- w + lr (V - v(s)) dv/dw,     v(s) = tanh(w . f(s) / 2),  dv/dw = (1 - v^2) / 2 f(s)

where V is the search's value (a proven win or loss counts as ±1). TreeStrap would update every
interior node of the search toward its own searched value (far more updates per search, the
paper's [31] finds it learns much faster); it needs the search to report its interior values, a
hook αβ does not have yet, while RootStrap needs only what every search returns. Unlike TD-Leaf
it needs no principal variation. The weights start from a file (e.g. a Texel fit) or from zero
(nothing known: every position 0), the first move of each game is drawn at random among the
first `random_plies` plies (the games would otherwise repeat: αβ is deterministic) and a share
`epsilon` of the later moves too.

Python runs once a move (the update), never per node: the search itself is Cython.
"""
from __future__ import annotations

import math
import random

import numpy as np

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.games import evalfile
from mcts_arena.games.learned import LinearKnowledge
from mcts_arena.learn.fit import Fit


def _target(value: float) -> float:
    """The search's value on the evaluation's scale: a proven result (αβ's win score) is ±1."""
    if value > 1.0:
        return 1.0
    if value < -1.0:
        return -1.0
    return value


def rootstrap_step(w: np.ndarray, f: np.ndarray, target: float, lr: float) -> float:
    """One update of w (in place) toward the search's value `target` at a position with
    features f; returns the error before it (target - v)."""
    v = math.tanh(0.5 * float(w @ f))
    err = _target(target) - v
    w += lr * err * (1.0 - v * v) * 0.5 * f
    return err


def bootstrap(game: str, self_play: int, start: dict | None = None, nodes: int = 5000,
              lr: float = 0.05, random_plies: int = 4, epsilon: float = 0.05,
              max_plies: int = 400, seed: int = 1, progress=None) -> tuple[str, Fit]:
    """RootStrap over `self_play` games of `game` (module docstring): the game's registry name
    and the Fit (its weights and report)."""
    from mcts_arena.players.search.alphabeta import AlphaBeta

    g = games.resolve(game)
    names = evalfile.feature_names(g)
    if not names:
        raise UserError(f"{g.name}'s knowledge has no features to fit")
    if self_play < 1 or nodes < 100 or not 0 < lr <= 10 or not 0 <= epsilon < 1 \
            or random_plies < 0:
        raise UserError("--self-play must be >= 1, --nodes >= 100, --lr in (0, 10], "
                        "--epsilon in [0, 1) and --random-plies >= 0")
    w = np.array(start["weights"] if start else [0.0] * len(names), float)
    rng = random.Random(seed)
    base = games.new_state(g).knowledge()
    sq_err, updates, errors_by_game = 0.0, 0, []
    for n in range(self_play):
        s = games.new_state(g)
        search = AlphaBeta(0, seed + n, use_tt=True)
        game_err, game_n = 0.0, 0
        while not s.is_terminal() and s.ply < max_plies:
            ids = s.move_ids()
            if s.is_chance_node():
                s.play(s.outcome_at(rng.random()))
                continue
            if s.ply < random_plies or rng.random() < epsilon:
                s.play(rng.choice(ids))
                continue
            k = LinearKnowledge(base, w.tolist())
            search.knowledge = k
            move, stats = search.search(s, nodes=nodes)
            err = rootstrap_step(w, np.array(k.py_features(s)), stats["value"], lr)
            game_err += err * err
            game_n += 1
            s.play(move)
        if game_n:
            errors_by_game.append(game_err / game_n)
            sq_err += game_err
            updates += game_n
        if progress:
            progress(n + 1, self_play)
    tenth = max(1, len(errors_by_game) // 10)
    report = {"rule": "RootStrap(αβ)", "self_play_games": self_play, "updates": updates,
              "nodes": nodes, "lr": lr, "epsilon": epsilon, "random_plies": random_plies,
              "mean_squared_error": {
                  "first_tenth": round(float(np.mean(errors_by_game[:tenth])), 5)
                  if errors_by_game else None,
                  "last_tenth": round(float(np.mean(errors_by_game[-tenth:])), 5)
                  if errors_by_game else None,
                  "all": round(sq_err / updates, 5) if updates else None}}
    fitted_on = {"self_play": self_play, "started_from": (start or {}).get("source", "zero"),
                 "seed": seed}
    return g.name, Fit([round(float(x), 8) for x in w], {"fit": report, "fitted_on": fitted_on})
