"""Rows of docs/tuning.md's α table from the tunes' stores under DIR (DIR/spsa-N, DIR/bo-N),
read-only:  python tools/tune_table.py results/tune"""
import sys
from pathlib import Path

from mcts_arena.results.store import Store
from mcts_arena.results.tune import read

root = Path(sys.argv[1])
for m in ("spsa", "bo"):
    for seed in range(1, 6):
        d = root / f"{m}-{seed}"
        if not (d / "arena.sqlite").exists():
            continue
        with Store.open(d) as s:
            st = read(s)
        e = st.estimate
        a, lo, hi = e.values["alpha"], e.low["alpha"], e.high["alpha"]
        ok = "yes" if 0.1 <= a <= 0.6 else "no"
        state = "" if st.search_done else " (unfinished)"
        print(f"| {m} | {seed} | {st.search_games}{state} | {a:g} [{lo:g}, {hi:g}] | {ok} |")
