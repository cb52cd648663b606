#!/usr/bin/env python3
"""What the rules that adapt α online (`ima`, `imas`) have to learn from, in Breakthrough at 847
simulations a move against MCTS(bl), from random 4-ply openings (docs/future-work.md).

    python tools/alpha_bandit_signal.py td 12        # the TD reward under fixed α 0.2 and 0.8
    python tools/alpha_bandit_signal.py ima 20       # where ima's bandit plays, per game
    python tools/alpha_bandit_signal.py imas 20      # where imas's bandits play, per search

`td`: games of MCTS(bl,imα) for α 0.2 and 0.8; each side's reward as `ima` would count it, the
change of its root value from one of its searches to the next: their number, mean and spread
per α. `ima`: the share of a game's moves each α was played for, averaged over the games, and
the mean share of a game's most-played α. `imas`: the share of the adaptive side's own
simulations on each α over every search of at least 100 simulations, and the mean share of a
search's most-played α. Every number comes from fixed seeds: the same on every run.
"""
from __future__ import annotations

import random
import statistics
import sys

from mcts_arena import games, players
from mcts_arena.players.adaptive import ARMS

SIMS = 847


def _games(spec: str, n: int, first_seed: int, opening_seed: int):
    """n games of `spec` against MCTS(bl), seats alternating; yields (seat of spec, its player,
    the (stats, imas's arms after the search) of each of its moves, the finished state)."""
    for g in range(n):
        rng = random.Random(opening_seed + g)
        s = games.new_state("breakthrough")
        for _ in range(4):
            s.play(rng.choice(s.move_ids()))
        me = g % 2
        side = {me: players.make(spec, game="breakthrough", seed=first_seed + g),
                1 - me: players.make("MCTS(bl)", game="breakthrough", seed=first_seed + 68 + g)}
        moves = []
        while not s.is_terminal():
            mover = s.to_move()
            m, st = side[mover].choose(s, sims=SIMS)
            if mover == me:
                moves.append((st, side[me].search.alpha_arms()))
            s.play(m)
        yield me, side[me], moves, s


def td(n: int) -> None:
    for alpha in (0.2, 0.8):
        deltas, wins = [], 0
        for me, _, moves, s in _games(f"MCTS(bl,im{alpha})", n, 7, 1000):
            values = [st["value"] for st, _ in moves if st["sims"] > 0]
            deltas += [b - a for a, b in zip(values, values[1:])]
            wins += s.winner() == me
        print(f"α {alpha}: {len(deltas)} rewards over {n} games (won {wins}), change of the "
              f"root value: mean {statistics.mean(deltas):+.4f}, spread (sd) "
              f"{statistics.pstdev(deltas):.4f}")


def ima(n: int) -> None:
    shares = []
    for _, p, _, _ in _games("MCTS(bl,ima)", n, 31, 500):
        total = sum(p.bandit.plays)
        shares.append([k / total for k in p.bandit.plays])
    _print("ima", "a game's moves", shares)


def imas(n: int) -> None:
    shares = []
    for me, _, moves, _ in _games("MCTS(bl,imas)", n, 31, 500):
        for st, arms in moves:
            if st["sims"] >= 100:
                plays = [arm[1 + 2 * me] for arm in arms]
                shares.append([k / sum(plays) for k in plays])
    _print("imas", f"a search's simulations ({len(shares)} searches)", shares)


def _print(name: str, unit: str, shares: list[list[float]]) -> None:
    mean = [statistics.mean(sh[i] for sh in shares) for i in range(len(ARMS))]
    top = statistics.mean(max(sh) for sh in shares)
    print(f"{name}: share of {unit} per α " +
          ", ".join(f"{a:g}: {m:.3f}" for a, m in zip(ARMS, mean)) +
          f"; the most-played α's share {top:.3f} (uniform: {1 / len(ARMS):.3f})")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("td", "ima", "imas") or \
            not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        sys.exit("usage: alpha_bandit_signal.py td|ima|imas GAMES")
    {"td": td, "ima": ima, "imas": imas}[sys.argv[1]](int(sys.argv[2]))
