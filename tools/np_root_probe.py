#!/usr/bin/env python3
"""Root statistics of two MCTS(bl') searches from the same Breakthrough positions (notes.md §9.4).

    python tools/np_root_probe.py positions GAMES.jsonl.gz N SEEDS > pos.txt
    python tools/np_root_probe.py ours pos.txt SIMS "MCTS(efLH,ipp,fet20,np10)" > ours.txt
    java -cp $MCTS_ARENA_GAMEFRAME:PROBE RootProbe SIMS 10 < pos.txt > theirs.txt
    python tools/np_root_probe.py compare pos.txt ours.txt theirs.txt

`positions` takes N positions from a published games file (one from each of its first N games,
at plies spread from the opening to near the end) and writes a line each: `ID SEEDS MOVE ...` (the
moves from the start position). `ours` searches each position SEEDS times (seeds 1..SEEDS) with
the given player and writes one line per search: `ID SEED SIMS CHOSEN | MOVE VISITS MEAN ; ...`
(the root's children, visits counting node priors' virtual ones, the mean reward of the mover
in [-1, 1]). The authors' side writes the same lines (RootProbe.java beside the notes' data).
Files may be gzip-compressed (.gz). `compare` prints, per position, each side's visit share of the most visited move, the share of
its searches that chose each side's favourite, the L1 distance between the two mean visit
distributions, and the mean of the chosen move's value. Exit status 2 with one line on bad input.
"""
from __future__ import annotations

import gzip
import json
import sys
from collections import Counter, defaultdict


def positions(path: str, n: int, seeds: int) -> list[str]:
    """N lines `ID SEEDS MOVE ...`: from the k-th game the position after ply 8 + 7k mod (its
    length less 12), so the plies spread from the opening to a few moves before the end."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        f.readline()
        for k, line in enumerate(f):
            if len(out) >= n:
                break
            g = json.loads(line)
            moves = g["moves"]
            span = max(1, len(moves) - 12)
            ply = 8 + (7 * k) % span
            out.append(f"g{k}p{ply} {seeds} " + " ".join(moves[:ply]))
    return out


def ours(lines: list[str], sims: int, spec: str) -> list[str]:
    """Our search's root children from each position, SEEDS searches each."""
    from mcts_arena.games.breakthrough import Breakthrough

    from mcts_arena.players import make
    from mcts_arena.players.builtin import node_prior_visits

    out = []
    for line in lines:
        pid, nseeds, *moves = line.split()
        for seed in range(1, int(nseeds) + 1):
            s = Breakthrough()
            for m in moves:
                s.play(s.parse_move(m))
            player = make(spec, "breakthrough", seed=seed)
            move, st = player.search.search(s, sims=sims,
                                            np_visits=node_prior_visits(player.spec, None))
            kids = " ".join(f"{s.format_move(c[0])} {c[1]} {c[2]:.4f} ;" for c in st.children)
            out.append(f"{pid} {seed} {st.sims} {s.format_move(move)} | {kids}")
    return out


def _open(path: str):
    """A text file, gzip-compressed where its name ends in .gz."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _read(path: str) -> dict[str, list[tuple[str, dict[str, tuple[int, float]]]]]:
    """{position: [(chosen, {move: (visits, mean)})]} from a side's lines."""
    res: dict[str, list] = defaultdict(list)
    with _open(path) as f:
        for line in f:
            head, _, body = line.partition("|")
            pid, _seed, _sims, chosen = head.split()
            kids = {}
            for item in body.split(";"):
                if item.strip():
                    mv, vis, mean = item.split()
                    kids[mv] = (int(vis), float(mean))
            res[pid].append((chosen, kids))
    return res


def _visit_shares(runs) -> dict[str, float]:
    """The mean share of the root's visits of each move over a side's searches."""
    acc: Counter = Counter()
    for _, kids in runs:
        total = sum(v for v, _ in kids.values()) or 1
        for mv, (v, _) in kids.items():
            acc[mv] += v / total / len(runs)
    return dict(acc)


def compare(pos_path: str, a_path: str, b_path: str) -> list[str]:
    a, b = _read(a_path), _read(b_path)
    with _open(pos_path) as f:
        ids = [line.split()[0] for line in f if line.strip()]
    out = [f"{'position':>10s} {'ours: top share':>15s} {'theirs':>7s} {'L1':>5s} "
           f"{'ours pick':>10s} {'theirs pick':>11s} {'same favourite':>14s} "
           f"{'ours value':>10s} {'theirs value':>12s}"]
    for pid in ids:
        if pid not in a or pid not in b:
            continue
        sa, sb = _visit_shares(a[pid]), _visit_shares(b[pid])
        moves = set(sa) | set(sb)
        l1 = sum(abs(sa.get(m, 0.0) - sb.get(m, 0.0)) for m in moves)
        fa = Counter(c for c, _ in a[pid]).most_common(1)[0][0]
        fb = Counter(c for c, _ in b[pid]).most_common(1)[0][0]
        va = sum(k[c][1] for c, k in a[pid] if c in k) / len(a[pid])
        vb = sum(k[c][1] for c, k in b[pid] if c in k) / len(b[pid])
        out.append(f"{pid:>10s} {max(sa.values()):15.3f} {max(sb.values()):7.3f} {l1:5.2f} "
                   f"{fa:>10s} {fb:>11s} {str(fa == fb):>14s} {va:10.3f} {vb:12.3f}")
    return out


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 4 and argv[0] == "positions":
            print("\n".join(positions(argv[1], int(argv[2]), int(argv[3]))))
        elif len(argv) == 4 and argv[0] == "ours":
            with _open(argv[1]) as f:
                lines = [x for x in f.read().splitlines() if x.strip()]
            print("\n".join(ours(lines, int(argv[2]), argv[3])))
        elif len(argv) == 4 and argv[0] == "compare":
            print("\n".join(compare(argv[1], argv[2], argv[3])))
        else:
            print(__doc__.strip().splitlines()[0], file=sys.stderr)
            return 2
    except (OSError, ValueError, KeyError) as e:
        print(f"np_root_probe: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
