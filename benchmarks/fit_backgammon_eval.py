"""Fit the weights of backgammon's contact evaluation (efBG, mcts_arena/games/backgammon.pyx).

The evaluation is a logistic model: P(the side on roll wins) = 1 / (1 + exp(-w . f)) over the
features `Backgammon.features()` (f0 = 1 for being on roll, then pip counts, home points,
primes, anchors, exposed blots, bar, borne off, back checkers; each the mover's minus the
other side's). Its weights are the logistic regression of who won on those features:

1. play games of 1-ply greedy self-play (each side takes the turn whose position is worth most
   to it by the current evaluation; a random turn one time in ten, so the positions vary),
   first with the pip-count evaluation (efPip) everywhere;
2. at every chance node with contact, record the features from the view of the side about to
   roll and whether that side went on to win;
3. fit w by Newton's method (iteratively reweighted least squares, a tiny ridge);
4. repeat 1-3 with the fitted contact evaluation (race positions keep the Kleinman count), so
   the positions are those a player using it reaches.

Run:  .venv/bin/python benchmarks/fit_backgammon_eval.py [--games 3000] [--rounds 6]
It prints each round's weights with standard errors and log loss, and the weights to paste
into `W` in backgammon.pyx (the defaults made the weights there: their sixth round). The seeds
are fixed: the same command prints the same numbers. Successive rounds move the weights less
and less (rounds 3-6 agree in every sign). `--check N` then plays N seat-swapped pairs of
1-ply greedy players, efBG (the compiled weights) against efPip, and prints efBG's score.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np

from mcts_arena import games


def value_after(s, w) -> float:
    """The value for the side that just moved of the chance node s (the other side on roll)."""
    if w is None or not s.is_contact():
        return -s.evaluation("efPip")
    z = float(np.dot(w, s.features()))
    return -(2.0 / (1.0 + np.exp(-z)) - 1.0)


def play_game(w, rng: random.Random, eps: float = 0.1):
    """One greedy self-play game; [(features, on-roll side)] at contact chance nodes, winner."""
    s = games.new_state("backgammon")
    rows = []
    while not s.is_terminal():
        if s.is_chance_node():
            if s.ply > 0 and s.is_contact():
                rows.append((s.features(), s.to_move()))
            s.play(s.outcome_at(rng.random()))
            continue
        moves = s.move_ids()
        if len(moves) == 1:
            s.play(moves[0])
            continue
        if rng.random() < eps:
            s.play(rng.choice(moves))
            continue
        me = s.to_move()
        best, best_v = None, -9.0
        for m in moves:
            s.play(m)
            if s.is_terminal():
                v = 1.0 if s.winner() == me else -1.0
            else:
                v = value_after(s, w)
            s.undo()
            if v > best_v:
                best, best_v = m, v
        s.play(best)
    return rows, s.winner()


def collect(w, n_games: int, seed: int):
    rng = random.Random(seed)
    X, y = [], []
    for _ in range(n_games):
        rows, winner = play_game(w, rng)
        if winner is None:
            continue
        for f, side in rows:
            X.append(f)
            y.append(1.0 if side == winner else 0.0)
    return np.array(X), np.array(y)


def fit(X, y, ridge: float = 1e-3):
    """Logistic regression by Newton's method; (weights, standard errors, mean log loss)."""
    w = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-X @ w))
        g = X.T @ (y - p) - ridge * w
        H = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(X.shape[1])
        step = np.linalg.solve(H, g)
        w += step
        if np.max(np.abs(step)) < 1e-9:
            break
    p = np.clip(1.0 / (1.0 + np.exp(-X @ w)), 1e-12, 1 - 1e-12)
    se = np.sqrt(np.diag(np.linalg.inv(H)))
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return w, se, loss


def check(pairs: int) -> None:
    """Seat-swapped pairs of 1-ply greedy players with the compiled evaluations."""
    rng = random.Random(99)
    score = 0.0
    for k in range(pairs):
        dice_seed = rng.randrange(2**31)
        for bg_seat in (0, 1):
            dice = random.Random(dice_seed)         # both games of a pair see the same dice
            s = games.new_state("backgammon")
            while not s.is_terminal():
                if s.is_chance_node():
                    s.play(s.outcome_at(dice.random()))
                    continue
                ef = "efBG" if s.to_move() == bg_seat else "efPip"
                s.play(s.py_best_successor(ef, k))
            score += 1.0 if s.winner() == bg_seat else (0.5 if s.winner() is None else 0.0)
    n = 2 * pairs
    p = score / n
    print(f"greedy efBG against greedy efPip: {score:g} of {n} games, {100 * p:.1f}% "
          f"(+- {196 * (p * (1 - p) / n) ** 0.5:.1f})")


NAMES = ["on roll", "pips/100", "home points", "prime", "anchors", "exposed blots", "bar",
         "borne off", "back checkers"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="only play N pairs of greedy efBG against greedy efPip")
    args = ap.parse_args()
    if args.check:
        check(args.check)
        return
    w = None
    for rnd in range(args.rounds):
        t = time.time()
        X, y = collect(w, args.games, seed=1000 + rnd)
        w, se, loss = fit(X, y)
        base = -np.mean(y * np.log(y.mean()) + (1 - y) * np.log(1 - y.mean()))
        print(f"round {rnd + 1}: {args.games} games, {len(y)} positions, "
              f"{time.time() - t:.0f} s; log loss {loss:.4f} (constant model {base:.4f})")
        for name, wi, si in zip(NAMES, w, se):
            print(f"  {name:14s} {wi:+.4f}  (se {si:.4f})")
    print("W[:] = [" + ", ".join(f"{v:.4f}" for v in w) + "]")


if __name__ == "__main__":
    main()
