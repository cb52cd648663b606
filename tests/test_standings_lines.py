"""Live standings in plain lines: an `arena run` whose stderr is a pipe (nohup, CI,
a cluster job's log) prints every pairing's standings every N games, no progress bar (which
in a log file was one line of thousands of characters showing only the last pairing)."""
import io
import re
import subprocess
import sys

import pytest
from helpers import arena_env

from mcts_arena.results.standings import Counts
from mcts_arena.runner.progress import Progress

CFG = ("name: s\ngame: breakthrough\nbudget: {sims: 10}\ngames: 6\nseed: 3\n"
       "sprt: {elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05}\n"
       "matches:\n  - {player: 'Random(im0.5)', opponent: Random}\n"
       "  - {player: 'Random(im0.2)', opponent: Random}\n")
LINE = re.compile(r"^  Random\(im0\.[25]\) vs Random: \d+ games? \+\d+ =\d+ -\d+, score "
                  r"[\d.]+% \[[\d.]+, [\d.]+\], Elo .*, pentanomial score [\d.]+% .* pairs, LLR")


@pytest.mark.process
def test_a_run_into_a_pipe_prints_standings_lines(tmp_path):
    (tmp_path / "s.yaml").write_text(CFG)
    res = subprocess.run([sys.executable, "-m", "mcts_arena", "run", "s.yaml", "--jobs", "1",
                          "--standings-every", "4", "--standings-seconds", "0"],
                         cwd=tmp_path, env=arena_env(), capture_output=True, text=True,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    err = res.stderr
    assert "\r" not in err and "game/s" not in err        # no tqdm bar in a log
    heads = [i for i, line in enumerate(err.splitlines()) if line.startswith("standings after")]
    lines = err.splitlines()
    assert [lines[i].split(" games")[0] for i in heads] == [
        "standings after 4/12", "standings after 8/12", "standings after 12/12"], err
    for i in heads:                 # every pairing in every block, not only the last one
        block = lines[i + 1:i + 3]
        assert all(LINE.match(x) for x in block), block
        assert {x.split(":")[0].strip() for x in block} == {
            "Random(im0.5) vs Random", "Random(im0.2) vs Random"}
    assert max(len(x) for x in lines) < 200


def test_on_a_terminal_the_block_is_written_above_one_bar():
    out = io.StringIO()
    p = Progress({"a": "A vs B", "b": "C vs D"}, {"a": Counts(), "b": Counts()}, 4, 0,
                 every_games=2, every_seconds=0, stream=out, tty=True)
    for k, pid in enumerate(["a", "b", "a", "b"]):
        p.game(pid, k // 2, k % 2, 1.0)
    p.close()
    text = out.getvalue()
    assert text.count("standings after") == 2
    assert text.count("  A vs B: ") == 2 and text.count("  C vs D: ") == 2
    assert "4/4" in text                                   # the bar itself
