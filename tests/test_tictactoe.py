"""Tic-tac-toe: perft and full game tree, wins on every line, draws, undo/hash, notation, text."""
import itertools
import math
import random

import pytest
from mcts_arena.games.tictactoe import TicTacToe

from mcts_arena import games

CELLS = [f + r for r in "123" for f in "abc"]          # a1 b1 c1 a2 ... c3 (ids 0..8)
LINES = [["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a3", "b3", "c3"],
         ["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"],
         ["a1", "b2", "c3"], ["c1", "b2", "a3"]]


def has_line(cells):
    return any(all(c in cells for c in line) for line in LINES)


def test_perft_and_full_tree():
    s = games.new_state("tictactoe")
    assert [s.perft(d) for d in (1, 2, 3)] == [9, 72, 504]
    assert s.count_games() == 255168
    assert s.to_text() == ".../.../... x"


def _filler(line, n):
    """n cells off `line` that do not make a line together (for the loser's moves)."""
    for combo in itertools.combinations([c for c in CELLS if c not in line], n):
        if not has_line(combo):
            return list(combo)
    raise AssertionError


@pytest.mark.parametrize("line", LINES, ids=["-".join(l) for l in LINES])
@pytest.mark.parametrize("winner", [0, 1])
def test_win_on_every_line(line, winner):
    s = TicTacToe()
    other = _filler(line, 2 if winner == 0 else 3)
    seq = (list(itertools.chain(*zip(line, other))) + [line[2]] if winner == 0
           else list(itertools.chain(*zip(other, line))))
    for i, m in enumerate(seq):
        assert not s.is_terminal()
        if i == len(seq) - 1:
            assert s.py_is_decisive(m) and s.py_move_order(m) == 2
        s.play(m)
    assert s.is_terminal() and s.winner() == winner and not s.is_draw()
    assert s.moves() == []
    assert s.reward(winner) == 1 and s.reward(1 - winner) == -1
    assert s.evaluation() == -1.0      # the side to move has lost
    # the same position read from text
    t = TicTacToe.from_text(s.to_text())
    assert t.winner() == winner and t.zobrist() == s.zobrist()


def test_draw():
    s = TicTacToe()
    for m in ["a3", "b3", "c3", "c2", "a2", "a1", "b2", "c1", "b1"]:
        assert not s.is_terminal()
        s.play(m)
    assert s.is_terminal() and s.is_draw() and s.winner() is None
    assert s.to_text() == "xox/xxo/oxo o"
    assert s.moves() == [] and s.evaluation() == 0.0
    t = TicTacToe.from_text("xox/xxo/oxo o")
    assert t.is_draw()
    assert "draw" in str(t)


def test_win_on_last_cell_is_not_a_draw():
    # X completes a line with the ninth mark: a win, not a draw
    s = TicTacToe.from_text("xox/oxo/ox. x")
    s.play("c1")
    assert s.winner() == 0 and not s.is_draw()


def test_move_order_blocks():
    s = TicTacToe.from_text("..x/x../oo. x")
    assert s.py_move_order("c1") == 1       # blocks O's a1-b1-c1
    assert s.py_move_order("b2") == 0
    assert not s.py_is_decisive("c1")


def _open(mine, theirs):
    return sum(1 for line in LINES if not any(c in theirs for c in line))


def test_efTTT_matches_definition():
    rng = random.Random(3)
    for _ in range(50):
        s = TicTacToe()
        while not s.is_terminal():
            text = s.to_text()
            x = {CELLS[i] for i in range(9) if _mark(text, i) == "x"}
            o = {CELLS[i] for i in range(9) if _mark(text, i) == "o"}
            me, them = (x, o) if s.to_move() == 0 else (o, x)
            expect = math.tanh((_open(me, them) - _open(them, me)) / 3)
            assert s.evaluation("efTTT") == pytest.approx(expect)
            s.play(rng.choice(s.moves()))
    assert TicTacToe().evaluation() == 0.0
    with pytest.raises(ValueError, match="valid: efTTT"):
        TicTacToe().evaluation("efRS")


def _mark(text, i):
    rows = text.split()[0].split("/")
    return rows[2 - i // 3][i % 3]


def test_notation_round_trip():
    s = TicTacToe()
    assert s.moves() == CELLS
    for m in CELLS:
        assert s.format_move(s.parse_move(m)) == m
    assert s.parse_move("a1") == 0 and s.parse_move("c3") == 8 and s.parse_move("b2") == 4
    for bad in ["d1", "a4", "a", "a10", "", "11"]:
        with pytest.raises(ValueError, match="a1'..'c3"):
            s.parse_move(bad)


def test_illegal_move():
    s = TicTacToe.from_text("x../.o./... x")
    with pytest.raises(ValueError) as e:
        s.play("b2")
    msg = str(e.value)
    assert "'b2'" in msg and "a1, b1, c1, a2, c2, b3, c3" in msg and "\n" not in msg
    with pytest.raises(ValueError, match="'z9'"):
        s.play("z9")


@pytest.mark.parametrize("bad", [
    "", ".../.../...", ".../.../... y", "../.../... x", ".../.../.... x", "..a/.../... x",
    ".../... x", "x../.../... x", "xx./.../... o", "o../.../... x", "xxx/ooo/x.. o",
    ".../.../... x x",
])
def test_from_text_rejects(bad):
    with pytest.raises(ValueError) as e:
        TicTacToe.from_text(bad)
    assert "bad tic-tac-toe position" in str(e.value) and "\n" not in str(e.value)


def test_text_and_board_str():
    s = games.new_state("tictactoe", "x.o/.x./o.. x")
    assert s.to_text() == "x.o/.x./o.. x"
    rows = str(s).splitlines()
    assert rows[0] == "3 x . o" and rows[2] == "1 o . ." and rows[3] == "  a b c"
    assert "X to move" in str(s)


def test_random_playout():
    s = TicTacToe()
    results = [s.random_playout_result(seed) for seed in range(500)]
    assert s.to_text() == ".../.../... x" and s.zobrist() == s.hash_from_scratch()
    assert set(results) == {0, 1, 2}
    # X to move with a single empty cell, which completes a line
    t = TicTacToe.from_text("xox/oxo/ox. x")
    assert all(t.random_playout_result(seed) == 0 for seed in range(5))
