"""Speed of the games of chance against OpenSpiel, measured in one run on this machine.

Ours: whole random games per second by the game core's `random_playout` (uniformly random
moves, the dice by probability; backgammon: a uniformly random one of the distinct positions a
roll reaches). OpenSpiel: its C++ MCTS with random rollouts (`MCTSBot` + `RandomRolloutEvaluator`,
one rollout per simulation, from the position after the opening roll), whose simulations per
second are its rollout rate: each simulation plays one whole random game (uniform over
OpenSpiel's actions). The issue quotes 888 backgammon simulations/s on this machine.

Run:  .venv/bin/python benchmarks/chance_speed.py [--seconds 5]
"""
from __future__ import annotations

import argparse
import time

from mcts_arena.bench.loops import playout_rate

from mcts_arena import games


def ours(game: str, seconds: float) -> float:
    count, elapsed = playout_rate(games.new_state(game), seconds)
    return count / elapsed


def openspiel_mcts(name: str, seconds: float) -> float | None:
    """Simulations/s of OpenSpiel's C++ MCTS with one random rollout per simulation."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    while state.is_chance_node():                       # past backgammon's opening roll
        state.apply_action(state.legal_actions()[0])
    sims = 100
    while True:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims,
                              10**9, False, 1, False)
        t = time.perf_counter()
        bot.step(state)
        dt = time.perf_counter() - t
        if dt >= seconds or sims >= 10**7:
            return sims / dt
        sims = int(sims * max(2.0, 1.2 * seconds / max(dt, 1e-3)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    for game, os_name in (("backgammon", "backgammon"), ("pig", "pig")):
        a = ours(game, args.seconds)
        b = openspiel_mcts(os_name, args.seconds)
        line = f"{game:11s} ours {a:12,.0f} random games/s"
        if b is not None:
            line += f"   OpenSpiel MCTS, random rollouts: {b:10,.0f} sims/s   ours / theirs " \
                    f"{a / b:6.1f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
