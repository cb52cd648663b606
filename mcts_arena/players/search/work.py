"""Work that cannot finish is refused before it starts: the size of a perft count and of an exact
proof, estimated from the game's branching and length, against what this machine does in an
hour.

- **perft** counts every leaf of the move tree to a depth. Knuth's estimator (1975) gives the
  leaf count without enumerating it: along a random path the product of the branching factors
  is an unbiased estimate of the number of leaves; `perft_estimate` averages it over random
  paths. `arena perft` refuses a depth whose estimate passes `PERFT_LEAVES_MAX`.
- **an exact proof** (`arena prove`, the Prover: αβ over win/draw/loss with a transposition
  table) visits far fewer positions than the tree holds, and how many depends on forcing
  lines a branching factor cannot see (a Gomoku four solves a 15x15 position at once). So the
  prover's speed on the position is measured first (`SPEED_NODES`), then the proof is *tried*
  for `TRY_SECONDS`' worth of nodes: small boards and tactical positions finish inside it and
  are answered at once. Otherwise the prover is probed to increasing depth limits for
  `PROBE_SECONDS`' worth; the growth of its node count from one depth to the next is the
  effective branching factor, and the proof's size is the last count times that factor for
  every ply still to go (the length of random games from the position, or the `--depth` asked
  for). A proof estimated to take more than `PROVE_SECONDS_MAX` at the measured speed is
  refused with the estimate in the message; a node budget (`--nodes`, per move) bounds the
  work by itself.
"""
from __future__ import annotations

import math
import random
import time

from mcts_arena.errors import UserError
from mcts_arena.players.search.prover import Prover, prove_position

PERFT_LEAVES_MAX = 10**11       # perft counts 10^7-10^8 leaves a second: about an hour
PROVE_NODES_MAX = 10**10        # the largest --nodes (a budget per move)
PROVE_SECONDS_MAX = 3600.0      # the longest proof `arena prove` starts
SPEED_NODES = 5_000             # measuring the prover's speed on the position
TRY_SECONDS = 0.5               # the first try
PROBE_SECONDS = 0.5             # the depth probes, in all
PATHS = 64                      # random paths of the estimators


class WorkError(UserError):
    """Work estimated too large to finish (the message gives the estimate)."""


def _paths(state, paths: int, depth: int, seed: int):
    """(branching factors along a random path from `state`) for `paths` paths, each to the
    end of the game or to `depth` plies (0: to the end)."""
    rng = random.Random(seed)
    for _ in range(paths):
        s = state.copy()
        branching = []
        while not s.is_terminal() and (depth == 0 or len(branching) < depth) \
                and len(branching) < 10_000:
            moves = s.move_ids()
            if not moves:
                break
            branching.append(len(moves))
            s.play(rng.choice(moves))
        yield branching


def perft_estimate(state, depth: int, paths: int = PATHS, seed: int = 1) -> float:
    """Knuth's estimate of `state.perft(depth)`: the mean over random paths of the product of
    the branching factors (0 for a path that ends before `depth`)."""
    total = 0.0
    for branching in _paths(state, paths, depth, seed):
        if len(branching) == depth:
            total += math.prod(float(b) for b in branching)
    return total / paths


def check_perft(state, depth: int) -> None:
    """Refuse (WorkError) a perft whose estimated leaf count passes PERFT_LEAVES_MAX."""
    est = perft_estimate(state, depth)
    if est > PERFT_LEAVES_MAX:
        raise WorkError(f"perft to depth {depth} would count about {_power(est)} leaves "
                        f"(Knuth's estimate from {PATHS} random paths), more than the "
                        f"{_power(PERFT_LEAVES_MAX)} it counts in about an hour; choose a "
                        f"smaller depth")


def mean_length(state, paths: int = 16, seed: int = 1) -> float:
    """The mean number of plies of random games from `state` to their end."""
    lengths = [len(b) for b in _paths(state, paths, 0, seed)]
    return sum(lengths) / len(lengths)


def speed(state) -> float:
    """Positions a CPU-second the prover searches from `state` (measured on SPEED_NODES). CPU
    time, not wall time: the try's and the probes' node budgets, and so the answer and the
    refusal, are then the same on a loaded machine as on an idle one."""
    p = Prover()
    t0 = time.process_time()
    p.prove(state, SPEED_NODES, 0)
    return max(1, p.nodes_searched) / max(time.process_time() - t0, 1e-4)


def proof_estimate(state, max_depth: int = 0, budget: int = 100_000
                   ) -> tuple[float, float, float]:
    """(estimated positions of the full proof, effective branching factor, plies to go), from
    depth-limited probes of the prover worth `budget` positions (module docstring)."""
    plies = mean_length(state)
    if max_depth:
        plies = min(plies, float(max_depth))
    counts: list[int] = []
    spent = 0
    d = 0
    while d < max(1.0, plies) and spent < budget:
        d += 1
        p = Prover(tt_bits=18)
        p.prove(state, budget - spent, d)
        n = p.nodes_searched
        spent += n
        if p.budget_ran_out:
            break
        counts.append(max(1, n))
    if not counts:                  # not even one ply within the probe
        return math.inf, math.inf, plies
    if len(counts) >= 3:            # αβ's counts alternate between odd and even depths
        factor = math.sqrt(counts[-1] / counts[-3])
    elif len(counts) == 2:
        factor = counts[-1] / counts[-2]
    else:
        factor = float(len(state.move_ids()))
    factor = max(factor, 1.0)
    return counts[-1] * factor ** max(0.0, plies - len(counts)), factor, plies


def prove(state, nodes: int = 0, depth: int = 0) -> dict:
    """`arena prove`: the Prover's answer (players.search.prover.prove_position), after the
    work is known to finish: a proof that fits in the try is answered at once, a node budget
    bounds the work itself, anything else is estimated and refused above PROVE_SECONDS_MAX."""
    moves = max(1, len(state.move_ids()))
    rate = speed(state)
    per_move = max(1, int(rate * TRY_SECONDS) // moves)
    if nodes and nodes <= per_move:
        return prove_position(state, nodes, depth)
    first = prove_position(state, per_move, depth)
    if first["aborted"] == 0:       # finished inside the try: this is the answer
        return first
    est, factor, plies = proof_estimate(state, depth, max(1, int(rate * PROBE_SECONDS)))
    work = min(est, nodes * moves) if nodes else est
    if work / rate > PROVE_SECONDS_MAX:
        raise WorkError(f"the proof would search about {_power(est)} positions (about "
                        f"{factor:.3g} per ply over {plies:.0f} more plies), "
                        f"{_duration(est / rate)} at the {rate:,.0f} positions a second it "
                        f"searches here; give a node budget per move (--nodes N, past it a "
                        f"value is unknown), a depth (--depth N) or a position nearer the end")
    return prove_position(state, nodes, depth)


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds) or seconds > 3.15e9:
        return "more than a century"
    for unit, size in (("years", 3.15e7), ("days", 86400.0), ("hours", 3600.0)):
        if seconds >= size:
            return f"about {seconds / size:,.0f} {unit}"
    return f"about {seconds / 60:,.0f} minutes"


def _power(x: float) -> str:
    if not math.isfinite(x):
        return "more than 10^300"
    return f"10^{math.log10(max(x, 1.0)):.0f}"
