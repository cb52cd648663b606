"""Rows of docs/tuning.md's tables from the tunes' stores under DIR (DIR/spsa-N, DIR/bo-N for
N = 1.., and DIR/bracket), read-only:

    python tools/tune_table.py DIR [--near LOW HIGH]

A row per tune: method, seed, the search's games, the value found with its range, whether it
lies in [LOW, HIGH] (the paper's range; default 0.1 0.6, Figure 2's α), and the confirmation
(W-D-L, score and 95% interval; with an SPRT, its outcome). The bracket's row: its games and winner."""
import argparse
import sys
from pathlib import Path

from mcts_arena.results import tournament
from mcts_arena.results.store import Store
from mcts_arena.results.tune import read


def tune_row(method: str, seed: int, d: Path, near: tuple[float, float]) -> str:
    with Store.open(d) as s:
        st = read(s)
    p = st.settings.params[0]
    e = st.estimate
    v, lo, hi = e.values[p.name], e.low[p.name], e.high[p.name]
    ok = "yes" if near[0] <= v <= near[1] else "no"
    state = "" if st.search_done else " (unfinished)"
    c = st.confirmation
    if c is None or not c.played:
        conf = "not played"
    else:
        score, clo, chi = c.interval()
        conf = (f"{c.played} games vs {c.reference}: {c.wins:g}-{c.draws:g}-{c.losses:g}, "
                f"{100 * score:.1f}% [{100 * clo:.1f}, {100 * chi:.1f}]")
        if c.sprt is not None:          # an SPRT confirmation: its outcome, as the report says it
            conf += f"; {c.sprt_line()}"
    return (f"| {method} | {seed} | {st.search_games}{state} | {p.text(v)} [{p.text(lo)}, "
            f"{p.text(hi)}] | {ok} | {conf} |")


def bracket_row(d: Path) -> str:
    with Store.open(d) as s:
        st = tournament.stored_state(s)
        games = s.game_count()
    winner = st.bracket.winner if st.done else "(unfinished)"
    return f"| bracket | {st.spec.games} a match | {games} | {winner} | | |"


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--near", nargs=2, type=float, default=(0.1, 0.6), metavar=("LOW", "HIGH"))
    a = ap.parse_args(argv)
    for m in ("spsa", "bo"):
        for d in sorted(a.root.glob(f"{m}-*"), key=lambda x: int(x.name.split("-")[1])):
            if (d / "arena.sqlite").exists():
                print(tune_row(m, int(d.name.split("-")[1]), d, tuple(a.near)))
    if (a.root / "bracket" / "arena.sqlite").exists():
        print(bracket_row(a.root / "bracket"))


if __name__ == "__main__":
    main(sys.argv[1:])
