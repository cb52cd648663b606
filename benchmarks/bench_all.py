"""Record every speed figure of the project in one JSON file (see benchmarks/README.md)."""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcts_arena import bench, games

RUNNER_CONFIG = """\
name: bench_runner
game: breakthrough
budget: {time: 0.02}
games: %d
seed: 1
openings: {random_plies: 2}
matches:
  - {player: "MCTS(ipp)", opponent: "MCTS"}
"""


def runner_throughput(games_n: int, jobs: int) -> dict:
    """Wall time of a fixed short experiment with `jobs` workers, and the scheduling overhead:
    the worker time not spent inside games (process start-up included), per game."""
    from mcts_arena.results.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp, "bench.yaml")
        cfg.write_text(RUNNER_CONFIG % games_n)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mcts_arena", "run", str(cfg), "--jobs", str(jobs),
                        "--out", str(Path(tmp, "out")), "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        with Store.open(Path(tmp, "out")) as store:
            in_games = sum(g["duration"] for g in store.games())
    return {"games": games_n, "jobs": jobs, "wall_s": round(wall, 2),
            "games_per_hour": round(games_n / wall * 3600, 1),
            "seconds_in_games": round(in_games, 2),
            "overhead_per_game_s": round((wall * jobs - in_games) / games_n, 4),
            "overhead_fraction": round(1 - in_games / (wall * jobs), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runner-games", type=int, default=16)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    names = games.names()
    cpus = len(os.sched_getaffinity(0))
    out = {"machine": {"cpu": platform.processor() or platform.machine(), "cpus": cpus,
                       "python": platform.python_version()},
           "playouts": bench.playout_speed(names, a.seconds),
           "search": bench.search_speed(names, a.seconds)}
    one = runner_throughput(a.runner_games, 1)
    many = runner_throughput(a.runner_games, cpus)
    out["runner"] = {"jobs_1": one, f"jobs_{cpus}": many,
                     "parallel_efficiency": round(one["wall_s"] / (many["wall_s"] * cpus), 3)}
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
