"""How much common random numbers (the same dice in both games of a seat-swapped pair, the
runner's default for games with chance) narrow a pairing's interval, against independent dice.

Two experiments that differ only in `dice: common` / `dice: independent` are planned and played
by the runner's own match loop (in this process, nothing stored); for each the script prints
the first player's score with two 95% intervals: over games (Wilson, each game on its own, as
if independent) and over pairs (the report's pair interval: the likelihood-ratio interval of
the pentanomial, mcts_arena.stats, which counts the correlation between the two games of a
pair; it is the interval verdicts judge). With common dice the luck of the dice largely
cancels within a pair, so the pair interval narrows. Error games would leave a pair incomplete:
such pairs are left out, as the report leaves them out.

Run:  .venv/bin/python benchmarks/crn_pairs.py [--pairs 400] [--game pig]
      [--player PigOptimal] [--opponent "py(examples/pig_hold.py:HoldAt,k=20)"]
"""
from __future__ import annotations

import argparse
import time

from mcts_arena import players, stats
from mcts_arena.runner import config
from mcts_arena.runner.match import play_job_list
from mcts_arena.runner.plan import make_plan


def play(game: str, player: str, opponent: str, pairs: int, dice: str, seed: int):
    exp = config.loads(f"""
name: crn
game: "{game}"
budget: {{sims: 1}}
games: {2 * pairs}
seed: {seed}
dice: {dice}
max_plies: 100000
matches:
  - {{player: "{player}", opponent: "{opponent}"}}
""")
    scores = []
    for job in make_plan(exp).jobs:
        recs = play_job_list(job, players)
        pair = [r.score for r in recs]
        if len(pair) == 2 and None not in pair:
            scores.append(pair)
    return scores


def intervals(pairs: list[list[float]]):
    """The score, the half width of its per-game interval (Wilson, as if the games were
    independent) and that of its pair interval: the report's own (mcts_arena.stats:
    likelihood-ratio interval of the pentanomial, the one verdicts judge), halved."""
    games = [s for p in pairs for s in p]
    n, wins = len(games), sum(games)
    mean = wins / n
    lo, hi = stats.wilson_interval(wins, n)
    plo, phi = stats.pentanomial_interval(stats.pentanomial(pairs))
    return mean, (hi - lo) / 2, (phi - plo) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=400)
    ap.add_argument("--game", default="pig")
    ap.add_argument("--player", default="PigOptimal")
    ap.add_argument("--opponent", default="py(examples/pig_hold.py:HoldAt,k=20)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{args.game}: {args.player} vs {args.opponent}, {args.pairs} seat-swapped pairs "
          f"each way, seed {args.seed}")
    halves = {}
    for dice in ("common", "independent"):
        t = time.time()
        pairs = play(args.game, args.player, args.opponent, args.pairs, dice, args.seed)
        mean, gh, ph = intervals(pairs)
        halves[dice] = ph
        split = sum(1 for p in pairs if len(p) == 2 and p[0] + p[1] == 1) / len(pairs)
        print(f"  dice {dice:11s}: score {mean:.3f}; 95% interval over games +-{gh:.3f}, over "
              f"pairs +-{ph:.3f} ({100 * split:.0f}% of pairs split 1-1; {time.time() - t:.0f} s)")
    ratio = halves["common"] / halves["independent"]
    print(f"  common dice narrow the pair interval by {100 * (1 - ratio):.0f}% (an interval as "
          f"narrow needs {ratio ** 2:.2f}x the games)")


if __name__ == "__main__":
    main()
