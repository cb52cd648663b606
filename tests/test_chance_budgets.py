"""The CPU-time budget measurement (benchmarks/chance_budgets.py): its positions are decisions,
a budget is the player's own, the work counted is what the search did, the rounding and the
interval, the refusal of bad arguments (one line, exit status 2), and a whole tiny run."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("chance_budgets",
                                               ROOT / "benchmarks/chance_budgets.py")
cb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cb)


def test_positions_are_decisions_with_a_choice():
    ps = cb.positions(3)
    assert len(ps) == 3
    assert len({p.to_text() for p in ps}) == 3
    for p in ps:
        assert not p.is_terminal() and not p.is_chance_node() and len(p.move_ids()) > 1


def test_budget_is_the_players_own():
    assert cb.with_budget("MCTS", 380) == "MCTS(sims=380)"
    assert cb.with_budget("MCMS(c5)", 90000) == "MCMS(c5,sims=90000)"


def test_rounding_and_interval():
    assert [cb.round2(x) for x in (0.4, 7.6, 384.9, 123456)] == [1, 7, 380, 120000]
    m, lo, hi = cb.mean_interval([1.0, 3.0])
    assert m == 2.0 and lo == pytest.approx(2 - 1.96) and hi == pytest.approx(2 + 1.96)
    assert cb.mean_interval([5.0]) == (5.0, 5.0, 5.0)


def test_measure_counts_the_searchs_work():
    ps = cb.positions(2)
    mcts = cb.measure("MCTS", 12, ps)
    assert [r["work"] for r in mcts] == [12, 12] and all(r["cpu"] >= 0 for r in mcts)
    star = cb.measure("Star2", 3000, ps)     # the search reads its node count every 256 nodes
    assert all(3000 <= r["work"] < 3000 + 256 and r["depth"] >= 1 for r in star)


@pytest.mark.parametrize("args, says", [
    (["--positions", "1"], "--positions must be 2 or more"),
    (["--seconds", "0"], "--seconds must be above 0"),
    (["--players", "Nonsense(x)"], "--players:"),
    (["--probe-sims", "0"], "--probe-nodes and --probe-sims must be 1 or more"),
    (["--gnubg", "3"], "--gnubg must be plies 0 to 2"),
    (["--gnubg", "x"], "--gnubg must be plies 0 to 2"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, says, tmp_path, capsys):
    out = tmp_path / "o.json"
    with pytest.raises(SystemExit) as e:
        cb.main([*args, "--json", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err.count("\n") == 1 and says in err and not out.exists()


def test_a_tiny_run_writes_its_rows(tmp_path, capsys):
    out = tmp_path / "o.json"
    cb.main(["--positions", "2", "--seconds", "0.001", "--players", "MCTS",
             "--probe-sims", "10", "--json", str(out)])
    row = json.loads(out.read_text())["rows"][0]
    assert row["spec"] == "MCTS" and row["positions"] == 2 and row["budget"] >= 1
    assert "MCTS" in capsys.readouterr().out


def test_gnubg_is_timed_by_its_own_process(tmp_path, capsys):
    from mcts_arena.errors import ExternalError
    from mcts_arena.players.gnubg_player import gnubg_path

    try:
        gnubg_path()
    except ExternalError:
        pytest.skip("gnubg is not installed (make gnubg)")
    out = tmp_path / "o.json"
    cb.main(["--positions", "2", "--players", "", "--gnubg", "0", "--json", str(out)])
    g = json.loads(out.read_text())["gnubg"]
    assert [(r["plies"], r["positions"]) for r in g] == [(0, 2)]
    assert 0 <= g[0]["cpu"] <= g[0]["cpu_max"]
