"""Ray backend vs the local pool on the same short config, and the driver's memory over a long
plan (see benchmarks/README.md).

    .venv/bin/python benchmarks/bench_ray.py --games 12 --memory-games 10000 --out x.json

1. Throughput: the same experiment (Kalah, MCTS(im0.4) vs MCTS, `--time` per move) played by
   the local pool and by Ray (a local Ray instance with as many CPUs as the pool has workers)
   in this process through `run_experiment`, timed as the runner times a run (worker start-up
   included; Ray's own start-up, a one-off per run, is reported apart as ray_startup_s).
   Scheduling overhead per game is the workers' time not spent inside games:
   (wall x workers - sum of game durations) / games; its share is that over the mean game.
2. Trivial games (tictactoe, Random vs Random): nearly all the time is scheduling and the store,
   so worker-seconds per game is the steady per-game cost of each backend. On Ray the plan is
   long (10,000 games by default); for both backends the driver's resident memory (VmRSS) is
   sampled after every 1,000 stored games: flat means no per-game state kept beyond what the
   store holds.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

THROUGHPUT = """\
name: bench_ray
game: kalah
budget: {time: %g}
games: %d
seed: 1
openings: {random_plies: 2}
matches:
  - {player: "MCTS(im0.4)", opponent: "MCTS"}
"""

MEMORY = """\
name: bench_ray_memory
game: tictactoe
budget: {sims: 1}
games: %d
seed: 1
matches:
  - {player: "Random", opponent: "Random"}
"""


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _experiment(text: str, tmp: str):
    from mcts_arena.runner import config, plan

    cfg = Path(tmp, "c.yaml")
    cfg.write_text(text)
    exp = config.load(str(cfg))
    return exp, plan.make_plan(exp)


def _backend(name: str, workers: int):
    from mcts_arena.runner.pool import LocalPoolBackend

    if name == "local":
        return LocalPoolBackend(workers)
    from mcts_arena.runner.ray_backend import RayBackend

    return RayBackend()         # joins the Ray instance main() started


def throughput(backend_name: str, workers: int, games: int, move_s: float) -> dict:
    from mcts_arena.results.store import Store
    from mcts_arena.runner.experiment import run_experiment

    with tempfile.TemporaryDirectory() as tmp:
        exp, p = _experiment(THROUGHPUT % (move_s, games), tmp)
        res = run_experiment(exp, p, Path(tmp, "out"), workers=workers,
                             backend=_backend(backend_name, workers), progress=False)
        wall = res.seconds
        with Store.open(Path(tmp, "out")) as store:
            durations = [g["duration"] for g in store.games()]
    in_games = sum(durations)
    overhead = (wall * workers - in_games) / len(durations)
    return {"backend": backend_name, "workers": workers, "games": len(durations),
            "move_s": move_s, "wall_s": round(wall, 2),
            "games_per_hour": round(len(durations) / wall * 3600, 1),
            "mean_game_s": round(in_games / len(durations), 3),
            "overhead_per_game_s": round(overhead, 4),
            "overhead_share_of_game": round(overhead / (in_games / len(durations)), 4)}


def trivial(backend_name: str, workers: int, games: int) -> dict:
    """Games of a few microseconds: all the time is scheduling (and the store); with Ray the
    driver's memory is sampled every 1,000 games."""
    from mcts_arena.runner.experiment import run_experiment

    with tempfile.TemporaryDirectory() as tmp:
        exp, p = _experiment(MEMORY % games, tmp)
        backend = _backend(backend_name, workers)
        samples = []
        run = backend.run

        def sampled(jobs, on_record, should_stop, skip=None):
            n = [0]

            def record(rec):
                on_record(rec)
                n[0] += 1
                if n[0] % 1000 == 0:
                    samples.append((n[0], round(rss_mib(), 1)))
            return run(jobs, record, should_stop, skip)

        backend.run = sampled
        res = run_experiment(exp, p, Path(tmp, "out"), workers=workers, backend=backend,
                             progress=False)
    out = {"backend": backend_name, "games": res.played, "wall_s": round(res.seconds, 1),
           "worker_seconds_per_game": round(res.seconds * workers / res.played, 5)}
    if len(samples) > 1:
        grow = samples[-1][1] - samples[0][1]
        out.update({"driver_rss_mib_by_games": samples,
                    "driver_rss_growth_mib_first_to_last_sample": round(grow, 1),
                    "bytes_per_game_after_first_1000": round(grow * 2**20 /
                                                             max(1, games - 1000))})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12, help="games per backend (throughput)")
    ap.add_argument("--time", type=float, default=0.05, help="seconds per move (throughput)")
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--memory-games", type=int, default=10000,
                    help="trivial games on Ray (driver memory)")
    ap.add_argument("--local-trivial-games", type=int, default=2000)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    import ray

    out = {"cpus": len(os.sched_getaffinity(0)), "workers": a.workers,
           "throughput": [throughput("local", a.workers, a.games, a.time)],
           "trivial_games": [trivial("local", a.workers, a.local_trivial_games)]}
    t0 = time.perf_counter()
    ray.init(num_cpus=a.workers, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    out["ray_startup_s"] = round(time.perf_counter() - t0, 2)
    try:
        out["throughput"].append(throughput("ray", a.workers, a.games, a.time))
        out["trivial_games"].append(trivial("ray", a.workers, a.memory_games))
    finally:
        ray.shutdown()
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
