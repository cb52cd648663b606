"""The shipped test-position suites (suites/*.txt): every file loads, a sample of answers is
proven again by the exact solver (node budgets), and `arena solve` runs each with a quick player.
How the suites were made: docs/suites.md and tools/make_suites.py."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcts_arena.players.search.prover import Prover

from mcts_arena.cli import cli
from mcts_arena.runner.suites import load_suite

SUITES = Path(__file__).resolve().parent.parent / "suites"
ALL = sorted(SUITES.glob("*.txt"))
# the suites proven by the solver (tools/make_suites.py, benchmarks/make_hex_suite.py):
# (file, positions, sample checked again here)
PROVEN = {
    "hex5.txt": (8, [0, 4, 7]),
    "breakthrough_tactics.txt": (12, [0, 3, 7, 10]),
    "kalah_endgames.txt": (12, [0, 5, 11]),
    "loa_tactics.txt": (10, [0, 4, 9]),
}
BUDGET = 300_000      # solver nodes per move; the sampled positions need far fewer


def _value(sv, state, move, depth=0):
    """Value of `move` for the side to move (+1 win, 0 draw, -1 loss, None unknown)."""
    t = state.copy()
    t.play(move)
    if t.is_terminal():
        w = t.winner()
        return 0 if w is None else (1 if w == state.to_move() else -1)
    v = sv.prove(t, BUDGET, depth - 1 if depth > 1 else 0)
    if v is None:
        return None
    return v if t.to_move() == state.to_move() else -v


def test_every_shipped_suite_loads():
    assert {p.name for p in ALL} >= set(PROVEN)
    for path in ALL:
        suite = load_suite(str(path))
        assert suite.positions and all(q.best for q in suite.positions)
        if path.name in PROVEN:
            assert len(suite.positions) == PROVEN[path.name][0]


@pytest.mark.parametrize("name", sorted(PROVEN))
def test_sampled_answers_are_proven_again(name):
    """The sampled positions: every correct move reaches the position's best value and every
    other legal move (the listed wrong ones included) falls short of it. Win-in-N lines: the
    correct moves win within N plies, the others are proven not to win (no ply limit). Each
    move gets a fresh solver (LOA's repetition draws make values path-dependent)."""
    suite = load_suite(str(SUITES / name))
    for i in PROVEN[name][1]:
        pos = suite.positions[i]
        s = pos.state()
        m = re.search(r"win in (\d+) pl", pos.note)
        if m:
            n = int(m.group(1))
            assert all(_value(Prover(tt_bits=18), s, mv, n) == 1 for mv in pos.best), pos.pid
            others = {mv: _value(Prover(tt_bits=18), s, mv) for mv in s.moves()
                      if mv not in pos.best}
            assert all(v is not None and v < 1 for v in others.values()), (pos.pid, others)
            assert set(pos.wrong) <= set(others)
            continue
        vals = {mv: _value(Prover(tt_bits=18), s, mv) for mv in s.moves()}
        assert None not in vals.values(), (pos.pid, "unproven within the budget")
        top = max(vals.values())
        assert {mv for mv, v in vals.items() if v == top} == set(pos.best), pos.pid
        assert all(vals[w] < top for w in pos.wrong), pos.pid


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_arena_solve_runs_each_suite(path, tmp_path):
    suite = load_suite(str(path))
    res = CliRunner().invoke(cli, ["solve", str(path), "--players", "MCTS", "--budgets",
                                   "10,100", "--seeds", "1", "--out", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    mcts = summary["players"]["MCTS"]
    assert mcts["runs"] == len(suite.positions)
    assert [pb["budget"] for pb in mcts["per_budget"]] == [10, 100]
    by_pos = mcts["solved_pct_by_position_at_max"]
    assert set(by_pos) == {q.pid for q in suite.positions}
    # MCTS-Solver proves a win in one while expanding the root: solved at any budget
    for q in suite.positions:
        if "win in 1 ply" in q.note:
            assert by_pos[q.pid] == 100.0, q.pid
