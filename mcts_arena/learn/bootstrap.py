"""Online bootstrapping of a linear evaluation from its own search (`arena fit --self-play`), as
the paper suggests (its refs [12], [31]: Veness, Silver, Uther & Blair, *Bootstrapping from Game
Tree Search*, 2009): the weights play self-play games and are moved, after every search, toward
the values the search found. Two rules of Veness et al.'s family, both on αβ:

- **TreeStrap** (the default): every node the αβ search valued (its TT entries: an exact value,
  a lower bound where it failed high, an upper bound where it failed low) moves its own
  evaluation toward that value, a bound only where the evaluation lies on the wrong side of it:

      w <- w + lr * mean over the nodes of  e (1 - v^2) / 2 f(s),
      e = V - v (exact), max(0, V - v) (at least V), min(0, V - v) (at most V)

  Many updates per search (the search records each node's features, αβ's `record`), so it
  learns far faster than RootStrap in Veness et al.'s chess experiments;
- **RootStrap**: only the root, toward the search's value: w <- w + lr (V - v) (1 - v^2)/2 f.

v(s) = tanh(w . f(s) / 2); a proven win or loss counts as ±1. The weights start from a file
(e.g. a Texel fit) or from zero; the first `random_plies` plies of each game are random (αβ is
deterministic) and a share `epsilon` of the later moves too. TD-Leaf (the principal variation's
leaf) is not here: TreeStrap updates every node that leaf is one of.

Python runs once a move (the update, in numpy), never per node: the search is Cython.
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

#: The most nodes of one search TreeStrap learns from (the first ones the search valued).
RECORD_NODES = 200_000


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


def treestrap_step(w: np.ndarray, f: np.ndarray, values: np.ndarray, bounds: np.ndarray,
                   lr: float) -> float:
    """One TreeStrap update of w (in place) from a search's recorded nodes (features f, one row
    a node; values; bounds 1 exact, 2 at least, 3 at most); returns the mean squared error
    before it, over the nodes whose bound the evaluation breaks."""
    if len(values) == 0:
        return 0.0
    v = np.tanh(0.5 * (f @ w))
    target = np.clip(values, -1.0, 1.0)
    e = target - v
    e = np.where(bounds == 2, np.maximum(e, 0.0), np.where(bounds == 3, np.minimum(e, 0.0), e))
    w += lr * ((e * (1.0 - v * v) * 0.5) @ f) / len(values)
    return float(np.mean(e * e))


def bootstrap(game: str, self_play: int, start: dict | None = None, nodes: int = 5000,
              lr: float = 0.05, random_plies: int = 4, epsilon: float = 0.05,
              max_plies: int = 400, seed: int = 1, progress=None,
              rule: str = "treestrap") -> tuple[str, Fit]:
    """TreeStrap or RootStrap (`rule`) over `self_play` games of `game` (module docstring):
    the game's registry name and the Fit (its weights and report)."""
    from mcts_arena.players.search.alphabeta import AlphaBeta

    g = games.resolve(game)
    names = evalfile.feature_names(g)
    if not names:
        raise UserError(f"{g.name}'s knowledge has no features to fit")
    if rule not in ("treestrap", "rootstrap"):
        raise UserError(f"unknown bootstrapping rule {rule!r}: treestrap or rootstrap")
    if self_play < 1 or nodes < 100 or not 0 < lr <= 10 or not 0 <= epsilon < 1 \
            or random_plies < 0:
        raise UserError("--self-play must be >= 1, --nodes >= 100, --lr in (0, 10], "
                        "--epsilon in [0, 1) and --random-plies >= 0")
    w = np.array(start["weights"] if start else [0.0] * len(names), float)
    rng = random.Random(seed)
    base = games.new_state(g).knowledge()
    sq_err, updates, learned, errors_by_game = 0.0, 0, 0, []
    for n in range(self_play):
        s = games.new_state(g)
        search = AlphaBeta(0, seed + n, use_tt=True)
        if rule == "treestrap":
            search.record(min(nodes + 1024, RECORD_NODES))
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
            if rule == "treestrap":
                f, values, bounds = search.recorded()
                learned += len(values)
                sq = treestrap_step(w, np.array(f, float).reshape(len(values), len(names)),
                                    np.array(values, float), np.array(bounds), lr)
                err = math.sqrt(sq)
            else:
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
    report = {"rule": "TreeStrap(αβ)" if rule == "treestrap" else "RootStrap(αβ)",
              "self_play_games": self_play, "updates": updates, "nodes_learned": learned,
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
