"""Facts of random backgammon measured on our core (fixed seeds):

- the most distinct turns one roll gave, over every roll at every chance node of N random
  games (max_moves must hold them: it is the proven bound 3060);
- game length in turns, the first player's win rate, gammon and backgammon rates;
- with --openspiel K: at every chance node of K random games, for every roll, how often
  OpenSpiel's turns include a double stopped short (its half-move rule lets a first pair of
  moves block the second pair although another first pair would not; the standard rule, ours,
  plays as many dice as it can);
- with --mirrored K: K games played in both engines (tests/test_openspiel_chance.py's mirrored
  game) comparing the positions of every roll at every chance node, not only every fourth.

Run:  .venv/bin/python benchmarks/backgammon_stats.py [--games 1000] [--openspiel 5]
      [--mirrored 10]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

from mcts_arena import games

DICE = [(hi, lo) for hi in range(1, 7) for lo in range(1, hi + 1)]


def random_games(n: int, seed: int):
    rng = random.Random(seed)
    most, where = 0, None
    lengths, first, gammons, backgammons = [], 0, 0, 0
    for _ in range(n):
        s = games.new_state("backgammon(scoring=3)")
        starter = None
        while not s.is_terminal():
            if s.is_chance_node():
                if s.turns_played() > 0 or starter is not None:
                    for hi, lo in DICE:
                        k = len(s.turns_for(hi, lo))
                        if k > most:
                            most, where = k, f"{s.to_text()} with {hi}{lo}"
                s.play(s.outcome_at(rng.random()))
                if starter is None:
                    starter = s.to_move()
                continue
            s.play(rng.choice(s.move_ids()))
        lengths.append(s.turns_played())
        first += s.winner() == starter
        gammons += s.points() >= 2
        backgammons += s.points() == 3
    return most, where, lengths, first / n, gammons / n, backgammons / n


def _oracle():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import test_openspiel_chance as osc
    return osc


def quirks(k: int, seed: int):
    osc = _oracle()
    rng = random.Random(seed)
    rolls = short = 0
    for _ in range(k):
        os_s = osc.BG.new_initial_state()
        while not os_s.is_terminal():
            if os_s.is_chance_node():
                if os_s.history():
                    for a in os_s.legal_actions():
                        c = os_s.child(a)
                        if not c.is_terminal():
                            rolls += 1
                            short += osc.standard(osc.os_turns(c))[1]
                os_s.apply_action(rng.choice(os_s.legal_actions()))
                continue
            std, _ = osc.standard(osc.os_turns(os_s))
            for a in std[rng.choice(sorted(std))][1]:
                os_s.apply_action(a)
    return rolls, short


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--openspiel", type=int, default=0, metavar="K")
    ap.add_argument("--mirrored", type=int, default=0, metavar="K")
    args = ap.parse_args()
    if args.mirrored:
        osc = _oracle()
        total = 0
        for seed in range(100, 100 + args.mirrored):
            compared, short = osc.mirrored_backgammon(seed, every=1)
            total += compared
        print(f"{args.mirrored} mirrored games: the positions of {total} rolls equal "
              "OpenSpiel's")
        return
    most, where, lengths, first, gam, bg = random_games(args.games, 1)
    q = statistics.quantiles(lengths, n=20)
    print(f"{args.games} random games (a uniformly random distinct turn, seed 1)")
    print(f"  most distinct turns of one roll: {most} ({where})")
    print(f"  turns per game: mean {statistics.mean(lengths):.1f}, sd "
          f"{statistics.stdev(lengths):.1f}, 5%-95% {q[0]:.0f}-{q[-1]:.0f}, max {max(lengths)}")
    print(f"  first player wins {100 * first:.1f}%, gammons (or more) {100 * gam:.1f}%, "
          f"backgammons {100 * bg:.1f}%")
    if args.openspiel:
        rolls, short = quirks(args.openspiel, 2)
        print(f"  OpenSpiel, {args.openspiel} games: {short} of {rolls} rolls let a double stop "
              "short of the dice it could use")


if __name__ == "__main__":
    main()
