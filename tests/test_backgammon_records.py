"""Backgammon records for backgammon programs (`arena export --format mat`, results/jellyfish.py):
real games of a tiny tournament written as a Jellyfish match file, read back by GNU Backgammon
(Debian's gnubg, installed by `make test` as root), which imports them and writes them out again:
every game, every roll and every checker move (hits included) the same, and gnubg's own count of
the final position (single, gammon, backgammon) the stored game's. Other games and a game that
started elsewhere than the start are refused in one line, nothing written."""
from __future__ import annotations

import os
import re
import subprocess

import pytest
from click.testing import CliRunner
from helpers import GNUBG, needs_gnubg

from mcts_arena import games
from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.results import jellyfish
from mcts_arena.results.export import records
from mcts_arena.results.store import Store
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment

TOURNAMENT = """name: bgrec
game: backgammon
budget: {sims: 20}
games: 2
seed: 5
matches:
  - {player: MCTS, opponent: Random}
  - {player: "Greedy(efBG)", opponent: Random}
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("bgrec")
    exp = config.loads(TOURNAMENT)
    run_experiment(exp, plan_mod.make_plan(exp), base / "bgrec", workers=1, progress=False)
    return base / "bgrec"


def _stored(directory):
    with Store.open(directory) as s:
        return records(s)


def _export(directory, path):
    res = CliRunner().invoke(cli, ["export", str(directory), "--format", "mat", "--out",
                                   str(path)])
    assert res.exit_code == 0, res.output
    return path.read_text()


CELL = re.compile(r"([1-6])([1-6]):((?:\s+\d+/\d+\*?)*)")


def read_mat(text: str) -> list[dict]:
    """The games of a .mat file: names (left, right), turns [(column, dice, sorted steps)] and
    the win (column, points) or None; a second, plain reader of the format."""
    out = []
    for block in re.split(r"(?m)^ Game \d+\n", text)[1:]:
        lines = block.rstrip("\n").split("\n")
        names = tuple(n.strip() for n in re.findall(r"\s*([^:]+?)\s*:\s*\d+", lines[0]))
        turns, win = [], None
        for line in lines[1:]:
            if not line.strip():
                break
            m = re.match(r"(\s*)Wins (\d+) point", line)
            if m:
                win = (0 if len(m.group(1)) < 20 else 1, int(m.group(2)))
                continue
            body = line.split(")", 1)[1]
            for c in CELL.finditer(body):
                col = 0 if c.start() < 20 else 1
                turns.append((col, c.group(1) + c.group(2), sorted(c.group(3).split())))
        out.append({"names": names, "turns": turns, "win": win})
    return out


def _final_kind(rec) -> int:
    """1, 2 or 3: the stored game's win counted as a single game, gammon or backgammon."""
    s = games.new_state("backgammon(scoring=3)")
    for move in rec["moves"]:
        s.play(move)
    return s.points()


def test_the_file_has_every_game_roll_and_move(store, tmp_path):
    text = _export(store, tmp_path / "g.mat")
    recs = _stored(store)
    assert re.search(r"(?m)^ 0 point match$", text)
    ours = read_mat(text)
    assert len(ours) == len(recs) == 4
    for g, rec in zip(ours, recs):
        left = rec["swap"]
        assert g["names"] == (rec["seats"][left], rec["seats"][1 - left])
        rolls = [m.lstrip("xo") for m, st in zip(rec["moves"], rec["stats"]) if st.get("chance")]
        assert [t[1] for t in g["turns"]] == rolls
        s = games.new_state("backgammon")
        for col, _, steps in g["turns"]:
            while s.is_chance_node():
                s.play(rec["moves"][s.ply])
            assert col == (0 if s.to_move() == left else 1)
            # the steps read back are a legal turn in our core: `pass` where there are none
            s.play(" ".join(x.replace("25/", "bar/").replace("/0", "/off") for x in steps)
                   or "pass")
        while s.ply < len(rec["moves"]) and s.is_chance_node():
            s.play(rec["moves"][s.ply])
        final = games.new_state("backgammon")
        for move in rec["moves"]:
            final.play(move)
        assert s.to_text() == final.to_text() and s.is_terminal()
        assert g["win"] == (0 if rec["winner"] == left else 1, 1)
    # a double lists four steps, a roll with no legal move is the roll alone
    turns = [t for g in ours for t in g["turns"]]
    assert any(d[0] == d[1] and len(st) == 4 for _, d, st in turns)
    assert any(not st for _, _, st in turns)


@needs_gnubg
@pytest.mark.process
def test_gnubg_reads_the_games_back(store, tmp_path):
    assert GNUBG is not None, "no gnubg: CI must run the gnubg tests (make test installs it)"
    ours = tmp_path / "ours.mat"
    back = tmp_path / "back.mat"
    text = _export(store, ours)
    run = subprocess.run([GNUBG, "-t", "-q"], input=f"import mat {ours}\n"
                         f"export match mat {back}\n", capture_output=True, text=True,
                         timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    said = run.stdout + run.stderr
    assert back.exists(), said
    assert "Invalid move" not in said and "Unrecognised" not in said, said
    mine, theirs = read_mat(text), read_mat(back.read_text())
    recs = _stored(store)
    assert len(theirs) == len(mine) == len(recs)
    compared = 0
    for a, b, rec in zip(mine, theirs, recs):
        # gnubg's match has one pair of names, the last game's (one pairing a file keeps them)
        assert b["names"] == mine[-1]["names"]
        assert b["turns"] == a["turns"]       # rolls, steps and hits, as gnubg's board saw them
        compared += len(a["turns"])
        # gnubg scores a finished game itself (money: gammon 2, backgammon 3) from its board,
        # so its points say its final position is the stored game's
        assert b["win"] == (a["win"][0], _final_kind(rec))
    assert compared > 100


def test_refusals_are_one_line_and_write_nothing(store, tmp_path):
    # a game with no .mat form
    tt = tmp_path / "tt"
    exp = config.loads("name: tt\ngame: tictactoe\nbudget: {sims: 1}\ngames: 2\nmatches:\n"
                       "  - {player: Random, opponent: Random}\n")
    run_experiment(exp, plan_mod.make_plan(exp), tt, workers=1, progress=False)
    out = tmp_path / "t.mat"
    res = CliRunner().invoke(cli, ["export", str(tt), "--format", "mat", "--out", str(out)])
    assert res.exit_code == 2 and not out.exists()
    assert res.output.strip() == ("arena: error: tictactoe has no .mat form (a backgammon "
                                  "match file; its records are pgn); use --format pgn or jsonl")
    # a game that did not start at the start: the format has no starting position
    rec = dict(_stored(store)[0], opening="24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x - 3")
    with pytest.raises(UserError, match=r"^the \.mat format starts every game at backgammon's "
                       "start; game bgrec/"):
        jellyfish.write([rec])
