"""Search speed of two builds of mcts_arena, side by side in one run: for a change that must not
cost speed (a refactor of the search core or of the game interface), the ratio new/old of every
benchmark player's simulations (MCTS) or nodes (αβ) a second, from `arena bench --search`.

The two builds are two source trees, each compiled in place (for example a worktree of the old
commit with its compiled modules, and the checkout of the new one). Rounds alternate old, new,
new, old, ... so that a machine getting busier or quieter during the run touches both alike;
each player's ratio is the median over rounds of new/old within a round pair.

    python benchmarks/compare_builds.py [--rounds 6] [--seconds 1.0] [--clock cpu] \
        [--json OUT.json] OLD_TREE NEW_TREE [GAME ...]

`--clock wall` (the default) takes the rates `arena bench --search` prints: work per second of
wall time, which a loaded machine lowers at random (on a quiet one the ratios hold to a few
percent; the spread is printed beside each median). `--clock cpu` instead gives each player a fixed
budget, the simulations (or αβ nodes) the old build searched in `--seconds` once at the start,
so that both builds search the same tree (the behaviour lock), from the same positions,
`--reps` times a round, and times the fastest with the searching thread's CPU clock (through
the API both builds share): time spent waiting for a core does not count. The measure to take
on a shared machine, where the wall clock's ratios spread by 10-50%.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def bench(tree: Path, games: list[str], seconds: float) -> dict:
    """`arena bench --search --json` run from `tree` (its package first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-m", "mcts_arena", "bench", "--search", "--json",
           "--seconds", str(seconds), *games]
    out = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


CPU_RATES = """
import json, sys, time
from mcts_arena import games, players
from mcts_arena.players import kinds
seconds, reps, budgets = float(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
out = {}
for name in sys.argv[4:]:
    info = games.info_of(name)
    for where, text in [("start", None), *info.bench_positions.items()]:
        state = games.new_state(name, text)
        while state.is_chance_node():
            state.play(state.outcome_probs()[0][0])
        for spec in info.bench_players:
            p = players.make(spec, name, seed=1)
            pk = p.name if where == "start" else f"{p.name} @{where}"
            key = name + "/" + pk
            best = None
            for _ in range(reps if key in budgets else 1):
                p = players.make(spec, name, seed=1)
                t = time.thread_time()
                if key in budgets:
                    _, st = p.choose(state, sims=budgets[key])
                else:
                    _, st = p.choose(state, time=seconds)
                cpu = time.thread_time() - t
                best = cpu if best is None else min(best, cpu)
            done = st["nodes"] if kinds.of(p.spec).counts == "nodes" else st["sims"]
            out.setdefault(name, {})[pk] = {"work": done, "per_cpu_s": done / best}
print(json.dumps(out))
"""


def bench_cpu(tree: Path, games: list[str], seconds: float, reps: int,
              budgets: dict[str, int]) -> dict:
    """{game: {player: {"work", "per_cpu_s"}}} run from `tree`: each bench player's search of its
    budget in `budgets` (simulations, or nodes for αβ), the fastest of `reps` by the searching
    thread's CPU clock; a player without one searches `seconds` once (its work is then the
    budget to give both builds)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", CPU_RATES, str(seconds), str(reps), json.dumps(budgets), *games]
    out = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def rates(result: dict) -> dict[tuple[str, str], float]:
    """{(game, player): simulations or nodes a second}."""
    return {(game, player): m.get("per_cpu_s", m.get("sims_per_s", m.get("nodes_per_s")))
            for game, players in result.items() for player, m in players.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--rounds", type=int, default=6, help="round pairs (old and new each)")
    ap.add_argument("--seconds", type=float, default=1.0, help="per player and round")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="rates per wall second (arena bench) or per CPU second of the search")
    ap.add_argument("--reps", type=int, default=5, help="--clock cpu: searches, the fastest kept")
    ap.add_argument("--json", type=Path, help="write the rates and ratios here")
    a = ap.parse_args(argv)
    for tree in (a.old, a.new):
        if not (tree / "mcts_arena" / "__init__.py").is_file():
            ap.error(f"{tree} is not a source tree of mcts_arena")
    ratios: dict[tuple[str, str], list[float]] = {}
    runs = []
    budgets = {}
    if a.clock == "cpu":
        first = bench_cpu(a.old, a.games, a.seconds, 1, {})
        budgets = {f"{g}/{p}": m["work"] for g, ps in first.items() for p, m in ps.items()}
    for r in range(a.rounds):
        order = [("old", a.old), ("new", a.new)] if r % 2 == 0 else [("new", a.new),
                                                                    ("old", a.old)]
        got = {name: rates(bench_cpu(tree, a.games, a.seconds, a.reps, budgets)
                           if a.clock == "cpu" else bench(tree, a.games, a.seconds))
               for name, tree in order}
        runs.append({name: {f"{g}/{p}": v for (g, p), v in got[name].items()} for name in got})
        for key, old in got["old"].items():
            if key in got["new"] and old:
                ratios.setdefault(key, []).append(got["new"][key] / old)
        print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    print(f"{'game':<14}{'player':<34}{'new/old':>9}{'min':>8}{'max':>8}")
    summary = {}
    for (game, player), rs in sorted(ratios.items()):
        med = statistics.median(rs)
        summary[f"{game}/{player}"] = {"median": med, "min": min(rs), "max": max(rs),
                                       "rounds": len(rs)}
        print(f"{game:<14}{player:<34}{med:>9.3f}{min(rs):>8.3f}{max(rs):>8.3f}")
    if a.json:
        a.json.write_text(json.dumps({"old": str(a.old), "new": str(a.new),
                                      "seconds": a.seconds, "clock": a.clock, "ratios": summary, "runs": runs},
                                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
