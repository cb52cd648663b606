"""What a backgammon search does in a given CPU time: the fixed budgets (nodes or simulations)
that stand for "equal time" in docs/chance.md's experiments, measured in CPU time so that the
load of a shared machine does not enter.

Positions: every 4th decision with more than one legal move of seeded self-play games of
`expectimax(d1)` (one ply on efBG, the dice by probability), until --positions are collected.
Each player is made with a node or simulation budget (`sims=`) and timed by the CPU time of
this thread (time.thread_time), which a loaded machine does not lengthen the way it does wall
time:

1. probe: each position searched with the probe budget (--probe-nodes for the *-minimax
   searches, --probe-sims for MCTS); the budget is --seconds times the nodes (or simulations)
   per CPU second over all positions (total work / total CPU time), rounded to 2 significant
   digits;
2. check: each position searched again at that budget. Where the mean CPU time is more than 5%
   off --seconds (a search's speed depends on its size: the table, the tree), the budget is
   scaled by --seconds / that mean, once, and checked again.

Printed per player: the rate at the budget (mean over positions, 95% interval, normal), the
budget, the mean CPU seconds per move at it with its 95% interval, and for the *-minimax
searches (iterative deepening under the node budget, playing the last finished depth's move)
how often each depth was finished.

    python benchmarks/chance_budgets.py --positions 200 --seconds 0.02 --json out.json
    python benchmarks/chance_budgets.py --positions 40 --players "" --gnubg 0,1,2

`--gnubg PLIES` also times GNU Backgammon at those plies on the same positions: the CPU time of
its process per move (it plays at fixed plies, so this is what its moves cost, not a budget).

Bad arguments are one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter

from mcts_arena import games, players
from mcts_arena.errors import SpecError

SPECS = ("expectimax", "Star2", "MCMS(c5)", "MCTS")


def positions(n: int, seed: int = 1) -> list:
    """`n` backgammon decision positions (more than one legal move) from seeded games of
    expectimax(d1) against itself: every 4th such decision of each game."""
    out = []
    g = seed
    while len(out) < n:
        r = random.Random(g)
        p = players.make("expectimax(d1)", "backgammon", seed=g)
        s = games.new_state("backgammon")
        k = 0
        while not s.is_terminal() and len(out) < n:
            if s.is_chance_node():
                s.play(s.outcome_at(r.random()))
                continue
            if len(s.move_ids()) > 1:
                if k % 4 == 0:
                    out.append(s.copy())
                k += 1
            move, _ = p.choose(s)
            s.play(move)
        g += 1
    return out


def with_budget(spec: str, n: int) -> str:
    """`spec` with its own budget of `n` nodes or simulations: MCMS(c5) -> MCMS(c5,sims=n)."""
    if spec.endswith(")"):
        return f"{spec[:-1]},sims={n})"
    return f"{spec}(sims={n})"


def measure(spec: str, budget: int, states: list, seed: int = 1) -> list[dict]:
    """One search of `spec` at `budget` nodes/simulations per state: CPU seconds, the work done
    (nodes for the *-minimax searches, simulations for MCTS) and the depth finished."""
    p = players.make(with_budget(spec, budget), "backgammon", seed=seed)
    rows = []
    for s in states:
        t0 = time.thread_time()
        _move, st = p.choose(s)
        cpu = time.thread_time() - t0
        work = st.get("sims") or st.get("nodes") or 0
        rows.append({"cpu": cpu, "work": int(work), "depth": int(st.get("depth") or 0)})
    return rows


def mean_interval(xs: list[float]) -> tuple[float, float, float]:
    """The mean of `xs` and its 95% interval (normal approximation; one value: no width)."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - half, m + half


def round2(x: float) -> int:
    """`x` rounded to 2 significant digits (at least 1)."""
    if x < 1:
        return 1
    d = int(math.floor(math.log10(x))) - 1
    return max(1, int(round(x / 10 ** d) * 10 ** d))


def calibrate(spec: str, states: list, seconds: float, probe: int) -> dict:
    """Rate, budget and check (see the module docstring) for one player."""
    rows = measure(spec, probe, states)
    budget = round2(seconds * sum(r["work"] for r in rows) / sum(r["cpu"] for r in rows))
    check = measure(spec, budget, states)
    first = statistics.fmean(r["cpu"] for r in check)
    if abs(first - seconds) > 0.05 * seconds:
        # a search's speed depends on its size (the table, the tree): scale the budget by the
        # CPU time it took, once, and check again
        budget = round2(budget * seconds / first)
        check = measure(spec, budget, states)
    rate, lo, hi = mean_interval([r["work"] / r["cpu"] for r in check if r["cpu"] > 0])
    cpu, clo, chi = mean_interval([r["cpu"] for r in check])
    depths = Counter(r["depth"] for r in check)
    return {"spec": spec, "probe": probe, "rate": rate, "rate_lo": lo, "rate_hi": hi,
            "budget": budget, "cpu": cpu, "cpu_lo": clo, "cpu_hi": chi,
            "work": statistics.fmean(r["work"] for r in check),
            "depths": {str(d): depths[d] for d in sorted(depths)}, "positions": len(states)}


def gnubg_seconds(plies: int, states: list) -> list[dict]:
    """GNU Backgammon's CPU seconds (its own process) and wall seconds per move at `plies`."""
    from mcts_arena.players.gnubg_player import GnubgEngine, fibs_board
    from mcts_arena.procstat import cpu_seconds

    eng = GnubgEngine(plies)
    try:
        pid = eng.proc.proc.pid
        rows = []
        for s in states:
            c0, t0 = cpu_seconds(pid), time.perf_counter()
            eng.ask(fibs_board(s), 600.0)
            rows.append({"cpu": cpu_seconds(pid) - c0, "wall": time.perf_counter() - t0})
        return rows
    finally:
        eng.close()


def fail(msg: str) -> None:
    print(f"chance_budgets: error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.02, help="CPU seconds a move")
    ap.add_argument("--probe-nodes", type=int, default=120000)
    ap.add_argument("--probe-sims", type=int, default=400)
    ap.add_argument("--players", default=",".join(SPECS), help="comma-separated specs")
    ap.add_argument("--gnubg", default="", help="comma-separated plies (0-2) to time gnubg at")
    ap.add_argument("--json", default=None, help="write the rows here too")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        raise SystemExit(2 if e.code else 0) from None
    if args.positions < 2:
        fail(f"--positions must be 2 or more, got {args.positions}")
    if not (0 < args.seconds <= 60):
        fail(f"--seconds must be above 0 and at most 60, got {args.seconds:g}")
    if args.probe_nodes < 1 or args.probe_sims < 1:
        fail("--probe-nodes and --probe-sims must be 1 or more")
    try:
        plies = [int(p) for p in args.gnubg.split(",") if p.strip()]
    except ValueError:
        plies = [-1]
    if any(not 0 <= p <= 2 for p in plies):
        fail(f"--gnubg must be plies 0 to 2, comma-separated, got {args.gnubg!r}")
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    try:
        for s in specs:
            players.parse(s, game="backgammon")
    except SpecError as e:      # the parser's own one-line message
        fail(f"--players: {' '.join(str(e).split())}")
    states = positions(args.positions)
    out = []
    for spec in specs:
        probe = args.probe_sims if spec.startswith(("MCTS", "FlatMC")) else args.probe_nodes
        row = calibrate(spec, states, args.seconds, probe)
        out.append(row)
        depths = " ".join(f"d{d}:{n}" for d, n in row["depths"].items())
        print(f"{spec:10s} {row['rate']:>10,.0f}/CPU s [{row['rate_lo']:,.0f}, "
              f"{row['rate_hi']:,.0f}]  budget {row['budget']:,} "
              f"-> {row['cpu'] * 1000:.1f} ms CPU [{row['cpu_lo'] * 1000:.1f}, "
              f"{row['cpu_hi'] * 1000:.1f}], mean work {row['work']:,.0f}, depths {depths} "
              f"({row['positions']} positions)", flush=True)
    gnubg = []
    for p in plies:
        rows = gnubg_seconds(p, states)
        m, lo, hi = mean_interval([r["cpu"] for r in rows])
        gnubg.append({"plies": p, "cpu": m, "cpu_lo": lo, "cpu_hi": hi,
                      "cpu_max": max(r["cpu"] for r in rows),
                      "wall_max": max(r["wall"] for r in rows), "positions": len(rows)})
        print(f"gnubg {p} plies: CPU per move {m:.3f} s [{lo:.3f}, {hi:.3f}], at most "
              f"{gnubg[-1]['cpu_max']:.2f} s; wall at most {gnubg[-1]['wall_max']:.2f} s "
              f"({len(rows)} positions)", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seconds": args.seconds, "rows": out, "gnubg": gnubg}, f, indent=1)


if __name__ == "__main__":
    main()
