"""Plug-ins (mcts_arena/plugins.py, docs/extending.md): a game, a player kind with an option of
its own and a statistic, registered from outside the package by tests/data/plugin/toy_plugin.py,
are parsed, listed, played by a run's worker processes and reported, as the built-in ones; a
plug-in that cannot be loaded is one line. The registries are restored after each test."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena import api, games, plugins, results
from mcts_arena.cli import cli
from mcts_arena.players import kinds, options, spec
from mcts_arena.results import aggregates
from mcts_arena.serve.live import Live

PLUGIN = Path(__file__).resolve().parent / "data" / "plugin"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def registries(monkeypatch):
    """Every registry a plug-in adds to, as it was before the test (the objects the rest of the
    package imported by name, restored in place), and the environment that names plug-ins
    (set here so that monkeypatch removes what `plugins.use` adds)."""
    monkeypatch.setenv(plugins.ENV, "")
    saved = [(games._GAMES, dict(games._GAMES)), (games._RESOLVED, dict(games._RESOLVED)),
             (kinds.BY_NAME, dict(kinds.BY_NAME)), (kinds.SPELLINGS, dict(kinds.SPELLINGS)),
             (options.BY_FIELD, dict(options.BY_FIELD)), (plugins._loaded, dict(plugins._loaded)),
             (spec._MACRO_CACHE, dict(spec._MACRO_CACHE))]
    lists = [(kinds.KINDS, list(kinds.KINDS)), (options.OPTIONS, list(options.OPTIONS)),
             (aggregates.STATISTICS, list(aggregates.STATISTICS))]
    yield
    for d, old in saved:
        d.clear()
        d.update(old)
    for seq, old in lists:
        seq[:] = old


def _plugin_in(directory: Path, compiled: bool) -> Path:
    """The toy plug-in copied to `directory`, with its game compiled beside it if `compiled`."""
    shutil.copy(PLUGIN / "toy_plugin.py", directory)
    if compiled:
        shutil.copy(PLUGIN / "toy_nim.pyx", directory)
        build = ("from setuptools import Extension, setup\n"
                 "from Cython.Build import cythonize\n"
                 f"setup(script_args=['build_ext', '--inplace', '-q'], ext_modules=cythonize("
                 f"[Extension('toy_nim', ['toy_nim.pyx'])], include_path=[{str(ROOT)!r}], "
                 f"quiet=True))\n")
        r = subprocess.run([sys.executable, "-c", build], cwd=directory, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert r.returncode == 0, r.stderr[-3000:]
    return directory / "toy_plugin.py"


def _report_rows(directory: Path) -> list[dict]:
    r = CliRunner().invoke(cli, ["report", str(directory), "--format", "json", "--out",
                                 str(directory.parent / "report")])
    assert r.exit_code == 0, r.output
    return [row for row in json.loads(r.stdout) if "pairing_id" in row]


def test_a_plugin_kind_and_statistic_play_and_report(tmp_path, registries):
    plugins.use(_plugin_in(tmp_path, compiled=False))
    assert os.environ[plugins.ENV] == str(tmp_path / "toy_plugin.py")
    p = spec.parse("nth(n=2)", "tictactoe")
    assert p.canonical == "Nth(n=2)" and spec.parse("Nth(n=0)", "tictactoe").canonical == "Nth"
    listed = CliRunner().invoke(cli, ["players", "tictactoe"]).output
    assert "Nth(n=K)" in listed and "n=K" in listed
    bad = CliRunner().invoke(cli, ["play", "tictactoe", "Nth(d=3)", "Random"])
    assert bad.exit_code == 2 and bad.output.startswith("arena: error: ")

    out = tmp_path / "runs" / "nth"
    res = api.play_match("Nth(n=1)", "Random", game="tictactoe", games=4, sims=20, out=out)
    assert res.played == 4                          # by a worker process of the pool
    [row] = _report_rows(out)
    assert row["player"] == "Nth(n=1)" and row["games"] == 4
    assert row["decisive"] == row["wins"] + row["losses"]
    assert list(row)[-1] == "decisive"              # after every built-in field
    counts = results.pairing_counts(results.load(out))
    assert int(counts["decisive"].iloc[0]) == row["decisive"]
    text = CliRunner().invoke(cli, ["report", str(out), "--out", str(tmp_path / "rep")]).output
    head = next(line for line in text.splitlines() if line.startswith("pairing"))
    assert head.split()[-1] == "decisive"               # its own column, after the built-ins
    live = json.loads(Live(tmp_path / "runs").experiment("nth").body)
    assert live["statistics"] == {"head": ["decisive"],
                                  "cells": {row["pairing_id"]: [str(row["decisive"])]}}


@pytest.mark.slow
def test_a_plugin_game_compiled_outside_the_package_plays_and_reports(tmp_path, registries):
    plugins.use(_plugin_in(tmp_path, compiled=True))
    assert "toynim" in games.names()
    g = games.resolve("toynim(stones=7)")
    state = g.new_state()
    assert state.to_text() == "7 a" and sorted(state.move_ids()) == [1, 2, 3]
    listed = CliRunner().invoke(cli, ["games"]).output
    assert "toynim" in listed
    out = tmp_path / "runs" / "nim"
    api.play_match("MCTS", "Nth", game="toynim(stones=7)", games=4, sims=200, out=out)
    [row] = _report_rows(out)
    # 7 stones: the first mover takes 3 and wins with perfect play; MCTS with 200 simulations
    # finds it, and as second mover it wins whenever Nth's first stone leaves it a multiple
    assert row["games"] == 4 and row["wins"] == 4 and row["decisive"] == 4


def test_a_plugin_that_cannot_be_loaded_is_one_line(tmp_path, registries, monkeypatch):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no\\nengine here')\n")
    monkeypatch.setenv(plugins.ENV, str(broken))
    r = CliRunner().invoke(cli, ["games"])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        f"arena: error: plug-in {broken} (MCTS_ARENA_PLUGINS) cannot be loaded: RuntimeError: "
        "no engine here"]
    with pytest.raises(ValueError, match="taken"):
        kinds.register(kinds.Kind("MCTS", ("MCTS",), "again", "x:y"))
    with pytest.raises(ValueError, match="exists"):
        aggregates.register(aggregates.Statistic("wins", "again", lambda p: 0))
    with pytest.raises(ValueError, match="exists"):
        games.register("hex", "somewhere")
