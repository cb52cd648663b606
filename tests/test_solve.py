"""arena solve (test-position suites): answers, storage, resume, report, bad suite lines."""
import json

import pytest
from click.testing import CliRunner
from mcts_arena.players.search.prover import Prover

from mcts_arena import games
from mcts_arena.cli import cli

LINE = "hex(size=4) | ..x./o.../..../.... x | best: {best} | wrong: a4 | id: p1"


def _winner_of(text):
    s = games.new_state("hex(size=4)", text)
    vals, _ = Prover().prove_moves(s)
    return [s.format_move(m) for m, v in vals.items() if v == 1]


@pytest.mark.slow
def test_solve_suite_stores_resumes_and_reports(tmp_path):
    text = "..x./o.../..../.... x"
    wins = _winner_of(text)
    assert wins and "a4" not in wins
    suite = tmp_path / "s.txt"
    suite.write_text("# a test suite\n" + LINE.format(best=" ".join(wins)) + "\n")
    out = tmp_path / "res"
    args = ["solve", str(suite), "--players", "MCTS", "--players", "Random", "--budgets",
            "10,300", "--seeds", "3", "--out", str(out), "--quiet"]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    assert "MCTS" in res.output and (out / "solve.png").is_file()
    summary = json.loads((out / "solve.json").read_text())
    mcts = summary["players"]["MCTS"]
    assert [pb["budget"] for pb in mcts["per_budget"]] == [10, 300]
    assert mcts["runs"] == 3
    # resumed: nothing new to search, the same summary
    res2 = CliRunner().invoke(cli, args + ["--json"])
    assert json.loads(res2.output) == summary
    rep = CliRunner().invoke(cli, ["report", str(out)])
    assert rep.exit_code == 0 and "solved %" in rep.output


@pytest.mark.parametrize("line,message", [
    ("chess | x | best: a1", "unknown game 'chess'"),
    ("hex(size=4,colour=1) | ..x./o.../..../.... x | best: d1", "unknown parameter 'colour'"),
    ("hex(size=5) | ..x./o.../..../.... x | best: d1", "illegal position"),
    ("hex | ..x./o.../..../.... | best: d1", "illegal position"),
    ("hex(size=4) | ..x./o.../..../.... x | best: c1", "correct move 'c1' is not legal"),
    ("hex(size=4) | ..x./o.../..../.... x | best: d1 | wrong: z9", "wrong move 'z9' is not legal"),
    ("hex(size=4) | x.../x.../x.../x.oo o | best: d1", "illegal position"),
    ("hex(size=4) | ..x./o.../..../.... x", "expected 'GAME | POSITION | best: MOVE"),
])
def test_bad_suite_lines_one_line_exit_2(tmp_path, line, message):
    suite = tmp_path / "bad.txt"
    suite.write_text("# header\n\n" + line + "\n")
    res = CliRunner().invoke(cli, ["solve", str(suite), "--out", str(tmp_path / "r")])
    assert res.exit_code == 2
    assert res.output.startswith(f"arena: error: {suite}:3: ") and message in res.output
    assert res.output.count("\n") == 1


def test_finished_position_is_refused(tmp_path):
    # White has connected left-right; Black to move: finished
    suite = tmp_path / "done.txt"
    suite.write_text("hex(size=3) | xx./ooo/x.. x | best: c1\n")
    res = CliRunner().invoke(cli, ["solve", str(suite), "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "already finished" in res.output and ":1:" in res.output


def test_alphabeta_searches_afresh_at_each_budget():
    # an αβ player keeps its transposition table between searches: reusing one player for the
    # increasing budgets made the search at budget 2 start from what budget 1 found
    from mcts_arena import players
    from mcts_arena.runner.suites import _trace

    state = games.new_state("breakthrough", ".....b../.bb..bbb/.ww..b../.b.bwbw./.ww.b.wb/"
                                            ".b.b..w./w.w.ww../......w. w")

    def make():
        return players.make("αβ(efLH)", "breakthrough", seed=5)

    alone = [state.format_move(make().choose(state, sims=b)[0]) for b in (1, 2, 3)]
    assert [mv for _, mv, _ in _trace(make(), state, [1, 2, 3], make)] == alone
    reused = make()
    carried = [state.format_move(reused.choose(state, sims=b)[0]) for b in (1, 2, 3)]
    assert carried != alone      # the position shows the difference
