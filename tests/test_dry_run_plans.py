"""Plans before long jobs: `--dry-run` of `arena run` and `arena tournament` say what a move
of each player searches and costs under a simulation or effort budget (measured, so there is a
CPU estimate), where a fixed depth overrides the node budget, and where an odd game count
unbalances the seats; nothing is played or written."""
from __future__ import annotations

import re

from click.testing import CliRunner

from mcts_arena.budgets import Budget
from mcts_arena.cli.app import cli
from mcts_arena.runner.estimate import move_cost


def _dry(tmp_path, text: str, *extra: str):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--dry-run", "--out",
                                   str(tmp_path / "r"), *extra])
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "r").exists()
    return res.output


def test_a_simulation_budget_gets_a_measured_cpu_estimate(tmp_path):
    out = _dry(tmp_path, "name: s\ngame: breakthrough\nbudget: {sims: 100}\ngames: 4\n"
                         "matches: [{player: 'MCTS(ipp)', opponent: MCTS}]\n")
    assert "CPU time unknown" not in out
    assert re.search(r"estimated \d+m\d\ds CPU", out), out
    assert "  MCTS(ipp): 100 sims/move, about " in out
    assert "note:" not in out


def test_an_effort_says_what_each_player_gets(tmp_path):
    out = _dry(tmp_path, "name: e\ngame: breakthrough\nbudget: {effort: 0.01}\ngames: 2\n"
                         "matches: [{player: 'MCTS(bl,im0.4)', opponent: 'MCTS(bl)'}]\n")
    lines = [x for x in out.splitlines() if x.startswith("  MCTS(") and "effort" in x]
    assert len(lines) == 2
    for line in lines:      # the simulations each player gets, and what a move costs
        assert re.search(r"effort 0.01 s = [\d,]+ sims/move, about ", line), line
    assert "CPU time unknown" not in out


def test_a_fixed_depth_that_overrides_the_node_budget_is_noted(tmp_path):
    out = _dry(tmp_path, "name: d\ngame: breakthrough\nbudget: {sims: 20}\ngames: 2\n"
                         "matches: [{player: 'αβ(efMS,d3)', opponent: MCTS}]\n")
    assert "note: αβ(efMS,d3) has a fixed depth, which overrides the budget of 20 sims" in out
    cost = move_cost("αβ(efMS,d3)", "breakthrough", Budget(sims=20))
    assert cost.overrides and cost.work > 40 and cost.unit == "nodes"
    plain = move_cost("αβ(efMS)", "breakthrough", Budget(sims=5000))
    assert not plain.overrides and plain.work == 5000


def test_an_odd_game_count_is_noted(tmp_path):
    text = "name: o\ngame: tictactoe\nbudget: {time: 0.01}\nmatches: [{player: MCTS, " \
           "opponent: Random}]\n"
    assert "odd number of games" in _dry(tmp_path, text, "--games", "3")
    assert "odd number of games" not in _dry(tmp_path, text, "--games", "4")


def test_a_tournament_has_a_dry_run(tmp_path):
    out_dir = tmp_path / "t"
    res = CliRunner().invoke(cli, ["tournament", "fet", "--games", "2", "--sims", "50",
                                   "--dry-run", "--out", str(out_dir)])
    assert res.exit_code == 0, res.output
    assert "at most" in res.output and "games" in res.output
    assert re.search(r"estimated at most \d+m\d\ds CPU", res.output), res.output
    assert "50 sims/move, about" in res.output and "dry run: nothing played" in res.output
    assert not out_dir.exists()


def test_reproduce_has_a_dry_run(tmp_path):
    out, docs = tmp_path / "r", tmp_path / "d"
    res = CliRunner().invoke(cli, ["reproduce", "--dry-run", "--only", "table3", "--scale",
                                   "0.01", "--games", "2", "--out", str(out), "--docs",
                                   str(docs)])
    assert res.exit_code == 0, res.output
    assert "page table3" in res.output and "experiments in all: about" in res.output
    assert re.search(r"MCTS\(bl,im0.4\): effort 0.01 s = [\d,]+ sims/move, about", res.output)
    assert not out.exists() and not docs.exists()
