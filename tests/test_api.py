"""The Python API: the example in docs/experiments.md runs as written (a fresh directory, the real
players at a small fixed budget), and a changed budget is refused as `arena run` refuses it."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mcts_arena import api
from mcts_arena.errors import UserError

DOC = Path(__file__).resolve().parents[1] / "docs" / "experiments.md"


def _example() -> str:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- api-example:[^>]*-->\n```python\n(.*?)```", text, re.S)
    assert m, "docs/experiments.md's API example block is missing"
    return m.group(1)


@pytest.mark.slow
def test_the_documented_example_runs_as_a_script(tmp_path):
    """Saved as a file and run by a fresh Python, as a user runs it: the spawned workers import
    the script, so only its guard keeps them from playing it again."""
    script = tmp_path / "example.py"
    script.write_text(_example(), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "MCTS(im0.4)" in done.stdout and "6 games; 6 JSON lines" in done.stdout
    assert (tmp_path / "results" / "notebook" / "arena.sqlite").is_file()


def test_a_refusal_speaks_the_apis_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    api.play_match("MCTS", "Random", game="tictactoe", sims=20, games=2, out="r")
    with pytest.raises(UserError) as refused:
        api.play_match("MCTS", "Random", game="tictactoe", sims=30, games=2, out="r")
    assert "new=True" in str(refused.value) and "out=DIR" in str(refused.value)
    assert "--" not in str(refused.value)


def test_a_changed_budget_is_refused_unless_new(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = api.play_match("MCTS", "Random", game="tictactoe", sims=20, games=2, out="r")
    assert first.played == 2 and len(first.games()) == 2
    with pytest.raises(UserError, match="budget was"):
        api.play_match("MCTS", "Random", game="tictactoe", sims=30, games=2, out="r")
    again = api.play_match("MCTS", "Random", game="tictactoe", sims=30, games=2, out="r",
                           new=True)
    assert again.played == 2
    assert len(api.load("r").report()) == 1
