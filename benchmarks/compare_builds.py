"""Search speed of two builds of mcts_arena, side by side in one run: for a change that must not
cost speed (a refactor of the search core or of the game interface), the ratio new/old of every
benchmark player's simulations (MCTS) or nodes (αβ) a second, from `arena bench --search`.

The two builds are two source trees, each compiled in place (for example a worktree of the old
commit with its compiled modules, and the checkout of the new one). Rounds alternate old, new,
new, old, ... so that a machine getting busier or quieter during the run touches both alike;
each player's ratio is the median over rounds of new/old within a round pair.

    python benchmarks/compare_builds.py OLD_TREE NEW_TREE [--rounds 6] [--seconds 1.0] \
        [GAME ...] [--json OUT.json]

Run it on a quiet machine: on a loaded one the ratios spread by more than the few percent such a
change is judged by (the spread is printed beside each median).
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


def rates(result: dict) -> dict[tuple[str, str], float]:
    """{(game, player): simulations or nodes a second}."""
    return {(game, player): m.get("sims_per_s", m.get("nodes_per_s"))
            for game, players in result.items() for player, m in players.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--rounds", type=int, default=6, help="round pairs (old and new each)")
    ap.add_argument("--seconds", type=float, default=1.0, help="per player and round")
    ap.add_argument("--json", type=Path, help="write the rates and ratios here")
    a = ap.parse_args(argv)
    for tree in (a.old, a.new):
        if not (tree / "mcts_arena" / "__init__.py").is_file():
            ap.error(f"{tree} is not a source tree of mcts_arena")
    ratios: dict[tuple[str, str], list[float]] = {}
    runs = []
    for r in range(a.rounds):
        order = [("old", a.old), ("new", a.new)] if r % 2 == 0 else [("new", a.new),
                                                                    ("old", a.old)]
        got = {name: rates(bench(tree, a.games, a.seconds)) for name, tree in order}
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
                                      "seconds": a.seconds, "ratios": summary, "runs": runs},
                                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
