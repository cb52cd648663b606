"""Speed figures for `arena bench`: playouts/s of the game cores, simulations/s of the searches.

Measured on one core in this process; compare ratios within one run (machines are shared).
"""
from __future__ import annotations

from mcts_arena import games

# Each game names its search-benchmark players (`GameInfo.bench_players`, the paper's
# configurations) and how many playouts estimate its average length (`bench_playouts`).


def playout_speed(names: list[str], seconds: float) -> dict:
    from mcts_arena.bench.loops import average_plies, playout_rate
    from mcts_arena.bench.openspiel import random_games_rate

    out = {}
    for name in names:
        state = games.new_state(name)
        plies = average_plies(state, games.info_of(name).bench_playouts, max_plies=2000)
        count, elapsed = playout_rate(state, seconds)
        rate = count / elapsed
        out[name] = {"playouts_per_s": round(rate, 1), "avg_plies": round(plies, 2),
                     "moves_per_s": round(rate * plies, 1), "playouts": count,
                     "seconds": round(elapsed, 3)}
        ref = c_reference(name, seconds)
        if ref:
            out[name]["c_reference_playouts_per_s"] = ref
            out[name]["ratio_to_c"] = round(rate / ref, 3)
        ref = random_games_rate(name, seconds)
        if ref:
            out[name]["openspiel_games_per_s"] = round(ref, 1)
            out[name]["ratio_to_openspiel"] = round(rate / ref, 2)
    return out


def c_reference(game: str, seconds: float) -> float | None:
    """Playouts/s of the game's plain C loop `benchmarks/<name>_playout_ref.c` (the yardstick
    a speed target is set against: Gomoku's random stones with a five check around the last
    one), compiled with gcc now and run in this process's run; None when the game has no such
    file, the game spec has parameters (the loop knows the default board only) or gcc is
    missing."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    name, params = games.split(game)
    src = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}_playout_ref.c"
    if params or not src.is_file() or shutil.which("gcc") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "playout_ref"
        subprocess.run(["gcc", "-O3", "-o", str(exe), str(src)], check=True)
        res = subprocess.run([str(exe), str(seconds)], check=True, capture_output=True,
                             text=True)
    return float(res.stdout.split()[0])


def search_speed(names: list[str], seconds: float) -> dict:
    """Simulations/s of each game's bench MCTS players (nodes/s of αβ and the *-minimax
    searches) at its start and benchmark positions; a game of dice starts at its first
    decision (the first outcome of the opening roll). OpenSpiel's MCTS at the same settings:
    `bench.openspiel.compare` (`arena bench --openspiel`)."""
    from mcts_arena import players
    from mcts_arena.players import kinds
    from mcts_arena.players.search.mcts import NODE_BYTES

    out = {}
    for name in names:
        info = games.info_of(name)
        rows = {}
        # the start position, then the game's other benchmark positions (a middle game)
        for where, text in [("start", None), *info.bench_positions.items()]:
            state = games.new_state(name, text)
            while state.is_chance_node():
                state.play(state.outcome_probs()[0][0])
            for spec in info.bench_players:
                p = players.make(spec, name, seed=1)
                _, st = p.choose(state, time=seconds)
                key = p.name if where == "start" else f"{p.name} @{where}"
                if kinds.of(p.spec).counts == "nodes":
                    rows[key] = {"nodes_per_s": round(st["nodes"] / st["time"], 1),
                                 "depth": st["depth"], "seconds": round(st["time"], 3)}
                else:
                    # a node's bytes by the player's search: UCB1-Tuned's are 8 more
                    size = getattr(getattr(p, "search", None), "bytes_per_node", NODE_BYTES)
                    rows[key] = {"sims_per_s": round(st["sims"] / st["time"], 1),
                                 "nodes": st["nodes"], "bytes_per_node": size,
                                 "tree_mb": round(st["nodes"] * size / 2**20, 1),
                                 "seconds": round(st["time"], 3)}
        out[name] = rows
    return out


def format_rows(out: dict, search: bool) -> list[str]:
    lines = []
    for name, r in out.items():
        if not search:
            lines.append(f"{name:13s} {r['playouts_per_s']:12,.0f} playouts/s  "
                         f"{r['moves_per_s']:14,.0f} moves/s  (avg {r['avg_plies']:.1f} plies, "
                         f"{r['playouts']} playouts in {r['seconds']:.2f} s)")
            if "openspiel_games_per_s" in r:
                lines.append(f"{'':13s} OpenSpiel's random games (C++) "
                             f"{r['openspiel_games_per_s']:,.0f} games/s: ours "
                             f"{r['ratio_to_openspiel']:.1f}x")
            if "c_reference_playouts_per_s" in r:
                lines.append(f"{'':13s} plain C loop (benchmarks/{name}_playout_ref.c) "
                             f"{r['c_reference_playouts_per_s']:,.0f} playouts/s: ours "
                             f"{r['ratio_to_c']:.2f}x")
            continue
        if not r:
            lines.append(f"{name:13s} no search to measure (the game names no bench players: "
                         "its searches are not written yet)")
        for spec, row in r.items():
            if "sims_per_s" in row:
                lines.append(f"{name:13s} {spec:30s} {row['sims_per_s']:12,.0f} sims/s   "
                             f"{row['nodes']:>10,} nodes x {row['bytes_per_node']} B = "
                             f"{row['tree_mb']} MB")
            else:
                lines.append(f"{name:13s} {spec:30s} {row['nodes_per_s']:12,.0f} nodes/s  "
                             f"depth {row['depth']}")
    return lines
