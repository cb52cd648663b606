"""This engine's search effort per CPU-second, over whole games, for the paper's players.

The matched-effort budget (mcts_arena/runner/effort.py) gives each player the paper engine's
simulations or nodes per second; this script measures ours the same way the paper engine's
rates were measured (sims or nodes per CPU-second of the searching thread, averaged over every
move of self-play games, so the rate reflects the whole game and not the start position), so
the two can be set side by side: `ours / theirs` is how much faster this engine is per player
kind. CPU time, not wall time, so a loaded machine does not distort it.

    .venv/bin/python benchmarks/engine_rates.py --sims 2000 --games 1 --out rates-ours.yaml

Per move it runs a fixed simulation (node) budget and divides by `time.process_time()`.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time

import yaml

from mcts_arena import games
from mcts_arena.players import make, parse

PLAYERS = [
    ("breakthrough", "MCTS"), ("breakthrough", "MCTS(ipp)"), ("breakthrough", "MCTS(bl)"),
    ("breakthrough", "MCTS(bl,im0.4)"), ("breakthrough", "MCTS(bl')"),
    ("breakthrough", "MCTS(bl',im0.6)"), ("breakthrough", "MCTS(ege0.1)"),
    ("breakthrough", "MCTS(ipp,fet20)"), ("breakthrough", "αβ(efMS)"), ("breakthrough", "αβ(efLH)"),
    ("kalah", "MCTS(fet4)"), ("kalah", "MCTS(fet4,im0.4)"), ("kalah", "MCTS(ege1.0)"),
    ("kalah", "αβ(efRS)"),
    ("loa", "MCTS(ipp,det0.5)"), ("loa", "MCTS(ipp,det0.5,im0.2)"),
    ("loa", "MCTS(ipp,abp2,det0.5)"), ("loa", "MCTS(ipp,abp2,det0.5,im0.2)"), ("loa", "αβ(efWB)"),
]


def measure(game: str, player: str, sims: int, n_games: int, seed: int, max_plies: int) -> dict:
    """Self-play `n_games` games with `sims` per move (nodes x 50 for αβ); effort per CPU-s."""
    spec = parse(player, game)
    budget = sims * 50 if spec.kind == "alphabeta" else sims
    per_move = []
    for g in range(n_games):
        agents = [make(spec, seed=seed + 2 * g + i) for i in (0, 1)]
        st = games.new_state(game)
        plies = 0
        while not st.is_terminal() and plies < max_plies:
            t0 = time.process_time()
            move, stats = agents[st.to_move()].choose(st, sims=budget)
            cpu = time.process_time() - t0
            work = stats.get("sims") or stats.get("nodes") or 0
            if cpu > 0 and work >= budget // 2:     # forced moves and solved roots say nothing
                per_move.append(work / cpu)
            st.play(move)
            plies += 1
    unit = "nodes" if spec.kind == "alphabeta" else "sims"
    return {"game": game, "player": player, "unit": unit,
            "per_second": round(statistics.mean(per_move)) if per_move else None,
            "median_per_second": round(statistics.median(per_move)) if per_move else None,
            "moves_measured": len(per_move), "budget_per_move": budget}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=2000, help="simulations per move (αβ: x50 nodes)")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--only", default=None, help="comma-separated games")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    rows = []
    for game, player in PLAYERS:
        if only and game not in only:
            continue
        r = measure(game, player, a.sims, a.games, a.seed, a.max_plies)
        print(f"{game:13s} {player:32s} {r['per_second'] or 0:>12,} {r['unit']}/CPU-s "
              f"({r['moves_measured']} moves)", flush=True)
        rows.append(r)
    out = {"machine": f"{platform.processor() or platform.machine()}",
           "python": platform.python_version(), "measured": time.strftime("%Y-%m-%d"),
           "method": "sims or nodes per CPU-second (process_time) over self-play games",
           "rates": rows}
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            yaml.safe_dump(out, f, sort_keys=False, allow_unicode=True)


if __name__ == "__main__":
    main()
