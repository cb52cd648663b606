"""Print hashes of Lines of Action behaviour, one per part, from fixed seeds: two builds that print
the same hash for a part behave identically in it, so a speed change must leave them all as
they were (the αβ playouts' moves for a fixed seed among them).

Parts: `rules` (move lists, results, hashes and the text form along random games, perft),
`evals` (efWB and efLOA0 to the last bit, the raw efWB score and features, move categories,
is_decisive), `abp` (αβ playout move sequences: 2-ply selective, 2-ply full width, 1- and
3-ply, with and without ipp and early cut-off, from 60 positions and many seeds), `trees`
(whole MCTS trees with αβ playouts: visits, sums of rewards to the last bit, implicit values),
`alphabeta` (the αβ search object as the old `αβ(efWB)` builds it: move, nodes, depth, value
by node budget) and `playouts` (the fast uniformly random playout's results, which the
repetition rule changed on purpose).

    .venv/bin/python tools/loa_identity.py                            # this tree
    (cd /tmp/loa-base && PYTHONPATH=. $OLDPWD/.venv/bin/python $OLDPWD/tools/loa_identity.py)

`--quick` checks a fifth of everything (the test suite's form); `--check` compares with the
digests recorded from main's build before the MIA-like αβ and the playouts' repetition rule
(tests/data/loa_identity.json; for the one part changed on purpose, `playouts`, the corrected
digest the file records with the reason) and exits 1 when a part differs.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from mcts_arena.players.search.alphabeta import AlphaBeta
from mcts_arena.players.search.mcts import MCTSSearch

from mcts_arena import games

EF_WB, EF_LOA0 = 1, 2        # loa.pyx's evaluation ids (0, the default, is efWB)


def positions(count: int, seed: int = 23) -> list:
    """Positions from seeded random games (start, openings and middle games; some near the
    end), each with its played history (repetitions count)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = games.new_state("loa")
        stop = rng.randint(0, 60)
        for _ in range(stop):
            if s.is_terminal():
                break
            s.play(rng.choice(s.move_ids()))
        if not s.is_terminal():
            out.append(s)
    return out


def rules(h, scale: int) -> None:
    rng = random.Random(1)
    for _ in range(12 * scale):
        s = games.new_state("loa")
        while not s.is_terminal() and s.ply < 400:
            ids = s.move_ids()
            h.update(repr((ids, s.zobrist(), s.to_text())).encode())
            s.play(rng.choice(ids))
        h.update(repr((s.winner(), s.is_draw(), s.ply)).encode())
    h.update(repr([games.new_state("loa").perft(d) for d in range(4)]).encode())


def evals(h, scale: int) -> None:
    rng = random.Random(2)
    for _ in range(8 * scale):
        s = games.new_state("loa")
        while not s.is_terminal() and s.ply < 200:
            h.update(repr((s.evaluation("efWB"), s.evaluation("efLOA0"), s.wb_raw(),
                           s.features(0), s.features(1))).encode())
            ids = s.move_ids()
            h.update(repr([(s.move_category(m), s.py_move_bias(m), s.py_is_decisive(m))
                           for m in ids]).encode())
            s.play(rng.choice(ids))


ABP_OPTIONS = [
    {"abp": 2, "policy": 1, "fet": 30, "evalfn": EF_WB},                # MC-LOA's: 2-ply, 8 wide
    {"abp": 2, "policy": 1, "det": 0.5, "evalfn": EF_WB},               # the benchmark player
    {"abp": 2, "abw": 0, "policy": 1, "fet": 12, "evalfn": EF_WB},      # full width
    {"abp": 1, "fet": 30, "evalfn": EF_WB},
    {"abp": 3, "abw": 5, "fet": 8, "evalfn": EF_WB},
    {"abp": 2, "fet": 20, "evalfn": EF_LOA0},
]


def abp(h, scale: int) -> None:
    for i, s in enumerate(positions(12 * scale)):
        for k, opts in enumerate(ABP_OPTIONS):
            search = MCTSSearch(dict(opts), 1000 * i + k)
            for _ in range(4):
                h.update(repr(search.playout_once(s)).encode())


def trees(h, scale: int) -> None:
    for i, s in enumerate(positions(2 * scale, seed=5)):
        for opts in ({"abp": 2, "policy": 1, "det": 0.5, "evalfn": EF_WB, "C": 0.6},
                     {"abp": 2, "policy": 1, "det": 0.5, "evalfn": EF_WB, "C": 0.6,
                      "sel": "im", "alpha": 0.2, "pb": 1.0}):
            search = MCTSSearch(dict(opts), 77 + i)
            move, st = search.search(s, sims=150)
            h.update(repr((move, st["nodes"], st["playout_plies"],
                           [(n["move"], n["visits"], n["wins"], n["v"], n["proven"])
                            for n in search.tree_nodes()])).encode())


def alphabeta(h, scale: int) -> None:
    for i, s in enumerate(positions(3 * scale, seed=7)):
        for evalfn in (EF_WB, EF_LOA0):
            ab = AlphaBeta(evalfn, 5 + i)       # the constructor's defaults: today's αβ(efWB)
            for nodes in (3000, 20000):
                move, st = ab.search(s, nodes=nodes)
                h.update(repr((move, st["nodes"], st["depth"], st["value"])).encode())


def playouts(h, scale: int) -> None:
    for s in positions(4 * scale, seed=9):
        h.update(repr([s.random_playout_result(seed) for seed in range(100)]).encode())


PARTS = {"rules": rules, "evals": evals, "abp": abp, "trees": trees, "alphabeta": alphabeta,
         "playouts": playouts}


def digests(scale: int = 5, parts=PARTS) -> dict:
    out = {}
    for name in parts:
        h = hashlib.sha256()
        PARTS[name](h, scale)
        out[name] = h.hexdigest()[:16]
    return out


RECORDED = Path(__file__).resolve().parents[1] / "tests" / "data" / "loa_identity.json"


if __name__ == "__main__":
    scale = "quick" if "--quick" in sys.argv else "full"
    recorded = json.loads(RECORDED.read_text())
    # main's digests, but for the parts changed on purpose since (the file says why)
    want = {**recorded[scale], **recorded["corrected"][scale]} if "--check" in sys.argv else {}
    differ = False
    for part, digest in digests(1 if scale == "quick" else 5).items():
        note = ""
        if want:
            note = "  same as main" if want.get(part) == digest else f"  DIFFERS (main: {want.get(part)})"
            differ |= want.get(part) != digest
        print(f"{part:10s} {digest}{note}")
    sys.exit(1 if differ else 0)
