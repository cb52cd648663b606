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
    """Saved as a file and run by a fresh Python, as a user runs it: no main guard, two
    workers, which never run the script again."""
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


SCRIPT = """\
from pathlib import Path
from mcts_arena import api
from mcts_arena.runner import pool

pool.start_method = lambda: {method!r}      # the way this test starts the workers
with open("ran.txt", "a") as f:             # once per execution of this file's top level
    f.write("ran\\n")
{guard}res = api.play_match("MCTS", "Random", game="tictactoe", sims=20, games=4, seed=3,
{indent}                     jobs=2, out="r")
{indent}row = res.report().iloc[0]
{indent}print("played", res.played, "games", row["games"], "errors", row["errors"])
"""


@pytest.mark.parametrize("method", ["forkserver", pytest.param("spawn", marks=pytest.mark.slow)])
@pytest.mark.parametrize("guarded", [False, True], ids=["no-main-guard", "main-guard"])
def test_a_script_plays_its_games_with_or_without_a_main_guard(tmp_path, method, guarded):
    """A notebook-style script (the calls at top level, no `if __name__ == "__main__":`) plays
    as the guarded one does: the workers never run the user's script again, so its top level
    runs once, no worker trips over the store's lock, and every game is played."""
    script = tmp_path / "nb.py"
    script.write_text(SCRIPT.format(method=method, guard='if __name__ == "__main__":\n    '
                                    if guarded else "", indent="    " if guarded else ""),
                      encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "played 4 games 4 errors 0" in done.stdout, done.stdout + done.stderr[-2000:]
    assert (tmp_path / "ran.txt").read_text().count("ran") == 1
