"""`arena report ROOT`: every experiment under a results root, after an index of them
(experiment, game, kind, games, pairings, state), in text, markdown, html (one page whose index
links each experiment's section) and json (the index first); a store that cannot be read is
named in the index and does not stop the report; nothing under the root is changed."""
import hashlib
import json

import pytest
from click.testing import CliRunner
from helpers import play_into

from mcts_arena.cli import cli

ONE = ("name: one\ngame: tictactoe\nbudget: {sims: 5}\ngames: 4\nseed: 5\n"
       "matches:\n  - {player: 'MCTS', opponent: 'Random'}\n")
TWO = ("name: two\ngame: kalah\nbudget: {sims: 5}\ngames: 4\nseed: 2\n"
       "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n"
       "  - {player: Random, opponent: 'Random(im0.2)'}\n")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    base = tmp_path_factory.mktemp("root") / "results"
    play_into(ONE, base / "one", "mcts_arena.players", workers=1)
    play_into(TWO, base / "nested" / "two", "fakes", workers=1)
    (base / "broken").mkdir()
    (base / "broken" / "arena.sqlite").write_bytes(b"not a database" * 100)
    return base


def _digests(root):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("arena.sqlite")}


def test_text_index_then_every_experiment(root, tmp_path):
    before = _digests(root)
    res = CliRunner().invoke(cli, ["report", str(root), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith(f"results root {root}: 3 experiments:\n")
    head = out.split("\n\n", 1)[0].splitlines()
    assert head[1].split() == ["experiment", "game", "kind", "games", "pairings", "state"]
    rows = {line.split()[0]: line.split() for line in head[3:]}
    assert rows["one"][1:6] == ["tictactoe", "experiment", "4", "1", "finished"]
    assert rows["nested/two"][1:6] == ["kalah", "experiment", "8", "2", "finished"]
    assert rows["broken"][1:5] == ["-", "experiment", "0", "0"]
    assert "unreadable" in rows["broken"][5]
    body = out.split("\n\n", 1)[1]
    assert "one: tictactoe" in body and "two: kalah" in body and "Random(im0.5)" in body
    assert _digests(root) == before


def test_json_is_a_list_with_the_index_first(root, tmp_path):
    res = CliRunner().invoke(cli, ["report", str(root), "--format", "json",
                                   "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert isinstance(data, list) and list(data[0]) == ["index"]
    index = {x["id"]: x for x in data[0]["index"]}
    assert set(index) == {"one", "nested/two", "broken"}
    assert index["nested/two"]["experiment"] == "two" and index["nested/two"]["games"] == 8
    assert index["nested/two"]["pairings"] == 2 and index["broken"]["state"] == "unreadable"
    assert index["broken"]["error"]
    assert sorted({r["experiment"] for r in data[1:]}) == ["one", "two"]


def test_html_one_page_linking_every_experiment(root, tmp_path):
    out = tmp_path / "page"
    res = CliRunner().invoke(cli, ["report", str(root), "--format", "html", "--out", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "report.html").read_text()
    # stores in the order of their paths under the root: nested/two, then one
    assert '<a href="#exp-0">nested/two</a>' in page and '<a href="#exp-1">one</a>' in page
    assert '<h2 id="exp-0">two</h2>' in page and '<h2 id="exp-1">one</h2>' in page
    assert page.count("<a href=") == 2           # the unreadable store links nowhere


def test_default_folder_of_a_root_is_its_report_folder(root, tmp_path, monkeypatch):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    res = CliRunner().invoke(cli, ["report", str(copy), "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert (copy / "report" / "report.md").is_file()
    assert res.output.startswith(f"## results root {copy}: 3 experiments")
    assert not (copy / "one" / "report").exists()


def test_an_empty_folder_is_still_no_results_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(cli, ["report", "empty"])
    assert res.exit_code == 2
    assert res.output == ("arena: error: empty: not a results directory (no arena.sqlite in "
                          "it); give a folder that 'arena run' or 'arena tournament' wrote, e.g. "
                          "results/<name>\n")


def test_a_root_of_unreadable_stores_still_prints_its_index(tmp_path):
    (tmp_path / "r" / "bad").mkdir(parents=True)
    (tmp_path / "r" / "bad" / "arena.sqlite").write_bytes(b"garbage" * 200)
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"results root {tmp_path / 'r'}: 1 experiment:\n")
    assert "unreadable" in res.output
