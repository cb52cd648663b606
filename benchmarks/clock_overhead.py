"""What a game clock itself costs, in one run on one core (docs/clocks.md):

1. the game loop: Random against Random (a move costs microseconds, so the loop is nearly all
   there is) with a simulation budget and on a clock, alternated in rounds; per ply, the
   game's wall time and the part of it charged to no clock (the loop's own work between two
   players' moves: applying, recording and announcing the move, the clock's bookkeeping);
2. the search: MCTS's simulations per second from Breakthrough's start under a 0.2 s time
   budget with the STOP rule off and on (stop=1), alternated in rounds: the cost of the
   rule's check, one pass over the root's children every 64 simulations. The rule may end a
   search before its time (counted, with the share of the time the searches used); the rate
   is simulations over the seconds actually searched either way.

Run:  nice -n 15 .venv/bin/python benchmarks/clock_overhead.py [--rounds 5] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from mcts_arena import games, players
from mcts_arena.budgets import Budget
from mcts_arena.runner.config import Openings
from mcts_arena.runner.match import play_game
from mcts_arena.runner.plan import GameSpec, Job


def loop_round(game: str, budget: Budget, n: int, seed: int) -> tuple[float, float, int]:
    """(wall seconds, seconds charged to no player, plies) of n Random-vs-Random games."""
    wall = uncharged = 0.0
    plies = 0
    start = games.new_state(game).to_text()
    for i in range(n):
        g = GameSpec(f"b/{i}", "b", i, 0, ("Random", "Random"), (budget, budget),
                     (seed + i, seed + i + 1))
        job = Job("b", games.resolve(game), Openings(), 1, i, 10_000, (), (g,))
        r = play_game(job, g, start, players, [])
        assert r.reason == "normal", r.error
        wall += r.duration
        uncharged += r.duration - sum(s.get("wall", 0.0) for s in r.stats)
        plies += r.plies
    return wall, uncharged, plies


def search_rate(spec: str, game: str, seconds: float, n: int) -> tuple[float, int, float]:
    """(simulations per second searched, searches the rule ended, share of the time used)."""
    p = players.make(spec, game=game, seed=7)
    s = games.new_state(game)
    sims = spent = 0.0
    settled = 0
    for _ in range(n):
        _, st = p.choose(s, time=seconds)
        settled += bool(st.get("settled"))
        sims += st["sims"]
        spent += st["time"]
    return sims / spent, settled, spent / (n * seconds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out: dict = {"rounds": a.rounds, "games_per_round": a.games, "loop": [], "search": []}
    for r in range(a.rounds):
        row = {}
        for label, b in (("sims", Budget(sims=1)), ("clock", Budget(clock="3600+0"))):
            wall, unch, plies = loop_round("breakthrough", b, a.games, 1000 * r)
            row[label] = {"us_per_ply": 1e6 * wall / plies, "uncharged_us_per_ply":
                          1e6 * unch / plies, "plies": plies}
        out["loop"].append(row)
        srow = {}
        for label, spec in (("stop_off", "MCTS"), ("stop_on", "MCTS(stop=1)")):
            rate, settled, used = search_rate(spec, "breakthrough", 0.2, 5)
            srow[label] = {"sims_per_s": rate, "ended_early": settled, "time_used": used}
        out["search"].append(srow)
        print(json.dumps({"loop": row, "search": srow}), flush=True)
    ratio = [x["clock"]["us_per_ply"] / x["sims"]["us_per_ply"] for x in out["loop"]]
    sratio = [x["stop_on"]["sims_per_s"] / x["stop_off"]["sims_per_s"] for x in out["search"]]
    out["median_loop_ratio_clock_over_sims"] = statistics.median(ratio)
    out["median_clock_uncharged_us_per_ply"] = statistics.median(
        x["clock"]["uncharged_us_per_ply"] for x in out["loop"])
    out["median_search_rate_ratio_stop_over_off"] = statistics.median(sratio)
    out["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(json.dumps({k: v for k, v in out.items() if k.startswith("median")}, indent=1))
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
