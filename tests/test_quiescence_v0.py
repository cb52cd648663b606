"""v0(s) by a quiescence search (MCTS's `v0q=N`): Breakthrough's tactical moves against a
recomputation from the text form, the quiescence value against a plain recursive one (negamax
with stand-pat, no window), the values a search gives its children, and the refusals."""
from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import ongoing_positions
from mcts_arena.players.search.mcts import MCTSSearch
from mcts_arena.players.search.quiesce import quiesce_value

from mcts_arena import games, players
from mcts_arena.cli import cli


def random_positions(game: str, n: int, seed: int = 5, plies: int = 50):
    return ongoing_positions(game, n, seed, 4, plies)


def bt_tactical_reference(s) -> set[str]:
    """Captures and moves onto the far row, from the moves' notation and the text form."""
    rows, side = s.to_text().split()
    grid = list(reversed(rows.split("/")))          # grid[rank - 1][file]
    enemy = "b" if side == "w" else "w"
    goal = "8" if side == "w" else "1"
    out = set()
    for m in s.moves():
        to = m[-2:]
        if grid[int(to[1]) - 1]["abcdefgh".index(to[0])] == enemy or to[1] == goal:
            out.add(m)
    return out


def test_breakthrough_tactical_moves_are_its_captures_and_winning_steps():
    seen = 0
    for s in random_positions("breakthrough", 200):
        got = {s.format_move(m) for m in s.py_tactical_moves()}
        assert got == bt_tactical_reference(s), s.to_text()
        seen += len(got)
    assert seen > 100


def reference(s, depth: int) -> float:
    """The quiescence value by plain negamax over every tactical move (no αβ window)."""
    if s.is_terminal():
        w = s.winner()
        return 0.0 if w is None else (1.0 if w == s.to_move() else -1.0)
    stand = s.evaluation()
    if depth == 0:
        return stand
    best = stand
    me = s.to_move()
    for m in s.py_tactical_moves():
        s.play(m)
        v = reference(s, depth - 1)
        best = max(best, v if s.to_move() == me else -v)
        s.undo()
    return best


@pytest.mark.parametrize("game", ["breakthrough", "loa"])
def test_the_quiescence_value_is_negamax_with_stand_pat_over_the_tactical_moves(game):
    for s in random_positions(game, 25 if game == "loa" else 60):
        for depth in (0, 1, 2, 3):
            text = s.to_text()
            assert quiesce_value(s, depth) == pytest.approx(reference(s, depth), abs=1e-12), \
                (text, depth)
            assert s.to_text() == text


def test_a_search_gives_each_new_child_the_quiescence_value_as_v0():
    s = next(p for p in random_positions("breakthrough", 50, seed=9)
             if len(p.py_tactical_moves()) >= 2)
    spec = players.parse("MCTS(bl,im0.4,v0q=3)", "breakthrough")
    from mcts_arena.players.builtin import mcts_options
    search = MCTSSearch(mcts_options(spec), 3)
    search.search(s, sims=1)
    nodes = search.tree_nodes()
    root = nodes[0]
    checked = 0
    for c in nodes[root["first"]:root["first"] + root["nchild"]]:
        t = s.copy()
        t.play(c["move"])
        if t.is_terminal():
            continue
        want = -quiesce_value(t, 3) if t.to_move() != s.to_move() else quiesce_value(t, 3)
        assert c["v"] == pytest.approx(want, abs=1e-6)
        checked += 1
    assert checked == root["nchild"] - sum(1 for c in nodes[1:root["nchild"] + 1]
                                           if c["proven"])


def test_v0q_changes_the_play_and_plays():
    s = games.new_state("breakthrough")
    a = players.make(players.parse("MCTS(bl,im0.4,v0q=4)", "breakthrough"), seed=2)
    moves = []
    for _ in range(8):
        m, _stats = a.choose(s, None, 300)
        moves.append(m)
        s.play(m)
    assert len(moves) == 8


@pytest.mark.parametrize(("spec", "game", "says"), [
    ("MCTS(bl,v0q=2)", "breakthrough", "add one of them"),
    ("MCTS(im0.3,v0q=2)", "kalah", "v0q"),
    ("MCTS(bl,im0.4,v0q=0)", "breakthrough", "v0q"),
    ("MCTS(bl,im0.4,v0q=17)", "breakthrough", "v0q"),
])
def test_v0q_is_refused_where_it_does_not_apply(spec, game, says):
    with pytest.raises(players.SpecError, match=says):
        players.parse(spec, game)
    r = CliRunner().invoke(cli, ["play", game, spec, "Random", "--sims", "10"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output


def test_v0q_is_listed_for_the_games_with_tactical_moves():
    assert any(t.startswith("v0q=") for t, _ in players.describe_tokens("breakthrough"))
    assert any(t.startswith("v0q=") for t, _ in players.describe_tokens("loa"))
    assert not any(t.startswith("v0q=") for t, _ in players.describe_tokens("kalah"))
