"""`arena luck`: backgammon results with the dice's luck taken out by GNU Backgammon's analysis
(cube off), beside the raw score and points per game with their intervals; the .mat says the
games are cubeless; bad input is one line, exit 2, nothing written."""
from __future__ import annotations

import json
import os
import re
import subprocess

import pytest
from click.testing import CliRunner
from helpers import GNUBG, needs_gnubg, play_into

from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.results import luck

BG = """name: bgluck
game: backgammon
budget: {sims: 10}
games: 6
seed: 3
matches:
  - {player: "Star2(d1)", opponent: Random}
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return play_into(BG, tmp_path_factory.mktemp("luck") / "bgluck", "mcts_arena.players", 1)


def test_commands_turn_the_cube_off_and_ask_every_game():
    text = luck.commands(__import__("pathlib").Path("/x/games.mat"), 3, 1, True)
    lines = text.splitlines()
    assert lines[:3] == ["set cube use off", "set jacoby on",
                         "set analysis chequerplay evaluation plies 1"]
    assert "import mat games.mat" in lines and lines.count("show statistics game") == 3
    assert "set jacoby off" in luck.commands(__import__("pathlib").Path("g.mat"), 1, 0, False)


def test_the_per_game_results_are_read_and_counted():
    out = "\n".join(f"Player  A  B\nLuck adjusted result   {v}   {-v}\n" for v in (1.25, -0.5))
    assert luck.luck_per_game(out, 2) == [1.25, -0.5]
    with pytest.raises(UserError, match="gave 2 luck-adjusted results for 3 games"):
        luck.luck_per_game(out, 3)


def test_the_mat_says_the_games_are_cubeless(store, tmp_path):
    out = tmp_path / "g.mat"
    res = CliRunner().invoke(cli, ["export", str(store), "--format", "mat", "--out", str(out)])
    assert res.exit_code == 0, res.output
    head = out.read_text().split(" 0 point match")[0]
    assert "; cubeless games: no doubling cube was used" in head
    assert "'set cube use off' before 'import mat'" in head


@needs_gnubg
@pytest.mark.process
def test_luck_adjusted_results_beside_the_raw_ones(store, tmp_path):
    assert GNUBG is not None, "no gnubg: CI must run the gnubg tests (make test installs it)"
    res = CliRunner().invoke(cli, ["luck", str(store), "--format", "json"])
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output)
    assert row["player"] == "Star2(d1)" and row["games"] + row["left_out"] == 6
    n = row["games"]
    assert row["wins"] + row["losses"] == n
    assert row["score"]["low"] <= row["score"]["mean"] <= row["score"]["high"]
    # raw points per game under scoring 1: 2 x score - 1
    assert row["ppg"]["mean"] == pytest.approx(2 * row["score"]["mean"] - 1)
    lo, mean, hi = (row["luck_ppg"][k] for k in ("low", "mean", "high"))
    assert lo < mean < hi
    # the games' luck-adjusted results add up to gnubg's own total for the whole session
    mat = tmp_path / "all.mat"
    CliRunner().invoke(cli, ["export", str(store), "--format", "mat", "--out", str(mat)])
    run = subprocess.run([GNUBG, "-t", "-q"], input="set cube use off\nset jacoby on\n"
                         f"import mat {mat}\nanalyse match\nshow statistics match\n",
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "HOME": str(tmp_path)})
    total = float(re.search(r"^Luck adjusted result\s+([-+]?[\d.]+)", run.stdout, re.M)[1])
    assert mean * n == pytest.approx(total, abs=0.002 * n)
    # no cube decisions were analysed: the cube was off
    assert re.search(r"^Total cube decisions\s+0\s+0", run.stdout, re.M)
    text = CliRunner().invoke(cli, ["luck", str(store)])
    assert text.exit_code == 0 and "Star2(d1) vs Random" in text.output
    assert "gnubg 0-ply analysis, cube off" in text.output


def test_bad_input_is_one_line(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    other = play_into("name: k\ngame: kalah\nbudget: {sims: 5}\ngames: 2\nseed: 1\n"
                      "matches:\n  - {player: Random, opponent: Random}\n", tmp_path / "k",
                      "mcts_arena.players", 1)
    before = sorted(p.name for p in other.iterdir())
    for args, message in (
            (["luck", str(other)], f"arena: error: {other}: luck-adjusted results are "
                                   f"backgammon's (gnubg analyses them); this store holds kalah"),
            (["luck", "nowhere"], "arena: error: nowhere: not a results directory (no such "
                                  "directory)")):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2 and res.output.startswith(message), res.output
        assert res.output.count("\n") == 1
    res = CliRunner().invoke(cli, ["luck", str(store), "--plies", "3"])
    assert res.exit_code == 2 and "--plies" in res.output
    assert sorted(p.name for p in other.iterdir()) == before


def _report(store, fmt="text"):
    res = CliRunner().invoke(cli, ["report", str(store), "--format", fmt])
    assert res.exit_code == 0, res.output
    return res.output


def test_the_report_says_plainly_when_no_analysis_is_kept(store):
    assert not (store / luck.LUCK_FILE).exists()
    assert f"no gnubg analysis kept: `arena luck {store} --save`" in _report(store)
    (panel,) = [x for x in json.loads(_report(store, "json")) if "luck" in x]
    assert panel["luck"]["pairings"] == [] and panel["experiment"] == "bgluck"
    assert not (store / luck.LUCK_FILE).exists()        # the report ran no gnubg


def test_the_report_shows_the_kept_analysis_and_marks_it_stale(store, tmp_path):
    """The luck columns from a kept analysis (here written by hand: no gnubg needed), beside
    the raw score; an analysis of fewer games than are decided now is marked stale."""
    import shutil

    copy = tmp_path / "bgluck"
    shutil.copytree(store, copy)
    (row,) = json.loads(_report(copy, "json"))[:1]
    decided = row["wins"] + row["losses"]
    kept = {"pairing_id": row["pairing_id"], "player": row["player_spec"],
            "opponent": row["opponent_spec"], "games": decided, "left_out": 0,
            "wins": row["wins"], "losses": row["losses"],
            "score": {"mean": 0.5, "low": 0.2, "high": 0.8},
            "luck_score": {"mean": 0.6, "low": 0.55, "high": 0.65},
            "ppg": {"mean": 0.0, "sd": 1.0, "low": -0.6, "high": 0.6},
            "luck_ppg": {"mean": 0.2, "sd": 0.2, "low": 0.1, "high": 0.3},
            "variance_ratio": 25.0}
    luck.save(copy, [kept], 0)
    text = _report(copy)
    assert "Luck-adjusted results (gnubg's analysis, cube off" in text
    line = next(x for x in text.splitlines() if x.startswith("Star2(d1) vs Random") and "0-ply"
                in x)
    assert "60.0 [55.0, 65.0]" in line and "+0.200 [+0.100, +0.300]" in line and "25.0" in line
    assert "stale" not in line
    _report(copy, "html")
    html = (copy / "report" / "report.html").read_text(encoding="utf-8")
    assert "Luck-adjusted results" in html and "60.0 [55.0, 65.0]" in html
    (panel,) = [x for x in json.loads(_report(copy, "json")) if "luck" in x]
    assert panel["luck"]["pairings"][0]["luck_ppg"]["mean"] == 0.2
    assert panel["luck"]["note"] == ""
    luck.save(copy, [{**kept, "games": decided - 1}], 0)       # more games played since
    text = _report(copy)
    assert f"stale: {decided} decided now" in text and "whose decided games are no" in text
    # a damaged file is said in the luck table's place; the rest of the report stands
    (copy / luck.LUCK_FILE).write_text("{not json", encoding="utf-8")
    text = _report(copy)
    assert f"{copy / luck.LUCK_FILE}: not a luck analysis of arena luck --save" in text
    assert "Star2(d1) vs Random" in text


@needs_gnubg
@pytest.mark.process
def test_arena_luck_save_keeps_what_the_report_then_shows(store, tmp_path):
    import shutil

    copy = tmp_path / "bgluck"
    shutil.copytree(store, copy)
    res = CliRunner().invoke(cli, ["luck", str(copy), "--save", "--format", "json"])
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output)
    assert row["luck_score"]["mean"] == pytest.approx((1 + row["luck_ppg"]["mean"]) / 2)
    (panel,) = [x for x in json.loads(_report(copy, "json")) if "luck" in x]
    (kept,) = panel["luck"]["pairings"]
    assert kept["luck_ppg"] == row["luck_ppg"] and kept["plies"] == 0 and not kept["stale"]
