"""Fitting an evaluation to game outcomes (Texel's method): positions sampled from stored games,
the game knowledge's features of each, and a logistic regression of the result (from the side
to move's view) on them, with L2 and a held-out split by game (`arena fit`).

    P(side to move wins | s) = 1 / (1 + e^-(w . f(s)))       value(s) = tanh(w . f(s) / 2)

A draw counts as half a win (the cross-entropy takes the soft label). The features are
standardised for the fit (so L2 weighs them alike) and the weights converted back to the raw
features' scale; the first feature is the constant (the tempo), never penalised.

Sources: results directories (`arena run`'s stores) and the record's published game files
(`EXPERIMENT.jsonl.gz`, docs/reproduction/data/README.md). Games that ended in an error are
left out; positions come from plies min_ply onwards (the openings' first moves say little),
at most per_game of them from a game, drawn with a seeded generator; the held-out games are a
seeded share of the games, so no position of a held-out game is fitted.
"""
from __future__ import annotations

import gzip
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.games import evalfile
from mcts_arena.results.frames import load as load_games
from mcts_arena.results.replay import is_results_dir


@dataclass
class Game:
    """One stored game, as the fit reads it."""

    source: str
    game: str               # the game's canonical name as stored
    opening: str | None
    moves: list
    winner: int | None      # winning seat; None: a draw
    draw: bool


@dataclass
class Sample:
    """Positions with their features, labels and the hand-written evaluation's value."""

    x: np.ndarray           # features, one row a position
    y: np.ndarray           # 1 win, 0.5 draw, 0 loss for the side to move
    hand: np.ndarray        # the game's own default evaluation at each position
    games: int = 0


@dataclass
class Fit:
    weights: list
    report: dict = field(default_factory=dict)


def read_games(source: str | Path) -> list[Game]:
    """The finished (not error) games of a results directory or a published .jsonl.gz file."""
    src = str(source)
    p = Path(source)
    if is_results_dir(p):
        frame = load_games(p, moves=True)
        out = []
        for r in frame.itertuples():
            if r.result == "error":
                continue
            winner = None if pd.isna(r.winner) else int(r.winner)
            out.append(Game(src, r.game, r.opening, list(r.moves), winner,
                            draw=r.result == "draw"))
        return out
    if p.is_file() and p.name.endswith(".jsonl.gz"):
        return _published(p)
    raise UserError(f"{source}: neither a results directory nor a published .jsonl.gz file")


def _published(path: Path) -> list[Game]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            header = json.loads(f.readline())
            game = header["experiment"]["config"]["game"]
            out = []
            for line in f:
                g = json.loads(line)
                if g.get("error") or g.get("reason") == "error":
                    continue
                out.append(Game(str(path), game, g.get("opening"), g["moves"], g.get("winner"),
                                draw=g.get("winner") is None))
            return out
    except (OSError, EOFError, ValueError, KeyError, TypeError) as e:
        raise UserError(f"{path}: not a published game file ({e})") from None


def sample(all_games: list[Game], game: str, per_game: int, min_ply: int,
           rng: random.Random) -> Sample:
    """Up to per_game positions of each game from ply min_ply on, their features (the game's
    own knowledge's), labels and the game's default evaluation there."""
    xs, ys, hs = [], [], []
    used = 0
    for g in all_games:
        state = games.new_state(g.game, None if g.opening in (None, "", "start") else g.opening)
        know = state.knowledge()
        positions = []
        for ply, move in enumerate(g.moves):
            if ply >= min_ply and not state.is_terminal() and not state.is_chance_node():
                positions.append(ply)
            state.play(move)
        if not positions:
            continue
        chosen = set(rng.sample(positions, min(per_game, len(positions))))
        state = games.new_state(g.game, None if g.opening in (None, "", "start") else g.opening)
        used += 1
        for ply, move in enumerate(g.moves):
            if ply in chosen:
                mover = state.to_move()
                xs.append(know.py_features(state))
                ys.append(0.5 if g.draw else (1.0 if g.winner == mover else 0.0))
                hs.append(know.value(state))
            state.play(move)
    if not xs:
        raise UserError(f"no positions to fit: the {game} games have none past ply {min_ply}")
    return Sample(np.array(xs, float), np.array(ys, float), np.array(hs, float), used)


def _loss_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray, l2: np.ndarray):
    z = x @ w
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-12
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + 0.5 * np.sum(l2 * w * w)
    grad = x.T @ (p - y) / len(y) + l2 * w
    return loss, grad


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def logistic(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Weights of the L2-penalised logistic regression of y on x (x[:, 0] the constant, not
    penalised), fitted on standardised columns and returned on x's own scale."""
    mu = x[:, 1:].mean(axis=0)
    sd = x[:, 1:].std(axis=0)
    sd[sd == 0] = 1.0
    z = np.column_stack([np.ones(len(x)), (x[:, 1:] - mu) / sd])
    pen = np.full(z.shape[1], l2)
    pen[0] = 0.0
    res = minimize(_loss_grad, np.zeros(z.shape[1]), args=(z, y, pen), jac=True,
                   method="L-BFGS-B")
    v = res.x
    w = np.empty_like(v)
    w[1:] = v[1:] / sd
    w[0] = v[0] - np.sum(v[1:] * mu / sd)
    return w


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict]:
    """Held-out positions by predicted probability in `bins` equal bins: each bin's count,
    mean prediction and mean outcome (draws half)."""
    out = []
    edges = np.linspace(0, 1, bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (p >= lo) & ((p < hi) if hi < 1 else (p <= hi))
        if m.any():
            out.append({"from": round(float(lo), 2), "to": round(float(hi), 2),
                        "positions": int(m.sum()), "predicted": round(float(p[m].mean()), 4),
                        "observed": round(float(y[m].mean()), 4)})
    return out


def hand_calibrated(train: Sample, test: Sample) -> float:
    """The held-out log-loss of the game's hand-written evaluation v at its best: P = 1 /
    (1 + e^-(a atanh(v) + b)) with a, b fitted on the training positions (an evaluation on
    another scale is not penalised for its scale)."""
    def col(s: Sample) -> np.ndarray:
        return np.column_stack([np.ones(len(s.hand)),
                                np.arctanh(np.clip(s.hand, -0.999999, 0.999999))])
    w = logistic(col(train), train.y, 0.0)
    return log_loss(1.0 / (1.0 + np.exp(-(col(test) @ w))), test.y)


def fit(sources: list[str], game: str | None = None, l2: float = 1e-3, per_game: int = 8,
        min_ply: int = 4, test_share: float = 0.2, seed: int = 1) -> tuple[str, Fit]:
    """Fit from the sources' games: (the game's registry name, the Fit with its report)."""
    if not sources:
        raise UserError("arena fit needs at least one results directory or published file")
    if not 0.0 < test_share < 1.0:
        raise UserError(f"--test-share must be between 0 and 1, got {test_share}")
    if not 0 <= l2 < math.inf or per_game < 1 or min_ply < 0:      # a NaN fails here too
        raise UserError("--l2 must be >= 0, --per-game >= 1 and --min-ply >= 0")
    read = [g for s in sources for g in read_games(s)]
    names = sorted({games.resolve(g.game).name for g in read})
    if not read:
        raise UserError(f"no finished games in {', '.join(map(str, sources))}")
    if len(names) > 1:
        raise UserError(f"the sources hold games of {', '.join(names)}: fit one game at a time")
    name = names[0]
    if game is not None and games.resolve(game).name != name:
        raise UserError(f"--game {game}, but the sources hold {name} games")
    if not evalfile.feature_names(name):
        raise UserError(f"{name}'s knowledge has no features to fit (games with them: "
                        f"{', '.join(n for n in games.names() if evalfile.feature_names(n))})")
    rng = random.Random(seed)
    order = list(range(len(read)))
    rng.shuffle(order)
    n_test = max(1, round(test_share * len(read)))
    if n_test >= len(read):
        raise UserError(f"{len(read)} game(s) cannot be split into a fitted and a held-out part")
    held = set(order[:n_test])
    train = sample([g for i, g in enumerate(read) if i not in held], name, per_game, min_ply, rng)
    test = sample([g for i, g in enumerate(read) if i in held], name, per_game, min_ply, rng)
    w = logistic(train.x, train.y, l2)
    p_train = 1.0 / (1.0 + np.exp(-(train.x @ w)))
    p_test = 1.0 / (1.0 + np.exp(-(test.x @ w)))
    decided = test.y != 0.5
    report = {
        "l2": l2,
        "positions": {"train": len(train.y), "held_out": len(test.y)},
        "games": {"train": train.games, "held_out": test.games},
        "log_loss": {"train": round(log_loss(p_train, train.y), 5),
                     "held_out": round(log_loss(p_test, test.y), 5),
                     "coin": round(log_loss(np.full(len(test.y), 0.5), test.y), 5),
                     "hand_written_calibrated": round(hand_calibrated(train, test), 5)},
        "held_out_accuracy": round(float(np.mean((p_test[decided] > 0.5) ==
                                                 (test.y[decided] == 1.0))), 4)
        if decided.any() else None,
        "calibration": calibration(p_test, test.y),
    }
    fitted_on = {"sources": [str(s) for s in sources], "games": len(read),
                 "per_game": per_game, "min_ply": min_ply, "test_share": test_share,
                 "seed": seed}
    return name, Fit([round(float(v), 8) for v in w], {"fit": report, "fitted_on": fitted_on})


def file_object(game: str, result: Fit, created: str) -> dict:
    """The evaluation file's object (games/evalfile.py) for a fit."""
    return {"format": evalfile.FORMAT, "game": game,
            "features": list(evalfile.feature_names(game)), "weights": result.weights,
            "fitted_on": result.report["fitted_on"], "fit": result.report["fit"],
            "created": created}
