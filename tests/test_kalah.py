"""Kalah(6,4): every rule on a hand-made position, undo/hash round trips, notation,
text form, random start boards, random playouts."""
import math
import random

import pytest
from mcts_arena.games.kalah import START_TEXT, Kalah, kalah_random_board, kalah_random_text

from mcts_arena import games

# (position before, move, position after, result after: None = ongoing, 0/1 winner, "draw")
RULES = [
    # sowing, last stone in the own store: the same player moves again
    ("extra turn", START_TEXT, "3", "4,4,0,5,5,5,1/4,4,4,4,4,4,0 0", None),
    # plain sowing hands the move over
    ("plain sowing", START_TEXT, "1", "0,5,5,5,5,4,0/4,4,4,4,4,4,0 1", None),
    # last stone in an empty own house, opposite house (p1 house 5) not empty: capture 5 + 1
    ("capture p0", "1,0,0,0,0,2,0/1,1,1,1,5,1,0 0", "1", "0,0,0,0,0,2,6/1,1,1,1,0,1,0 1", None),
    ("capture p1", "1,1,1,1,3,1,0/1,0,0,0,0,2,0 1", "1", "1,1,1,1,0,1,0/0,0,0,0,0,2,4 0", None),
    # same, but the opposite house is empty: no capture, the stone stays
    ("no capture, opposite empty", "1,0,0,0,0,2,0/1,1,1,1,0,1,0 0", "1",
     "0,1,0,0,0,2,0/1,1,1,1,0,1,0 1", None),
    # last stone in an empty house of the opponent: nothing happens
    ("no capture on opponent side", "1,0,0,0,0,2,0/0,1,1,1,1,1,0 0", "6",
     "1,0,0,0,0,0,1/1,1,1,1,1,1,0 1", None),
    # 13 stones go round once, skipping the opponent's store, and land in the emptied house,
    # which captures the opposite house (1 + the sown stone)
    ("13 stones, lap and capture", "13,0,0,0,0,0,0/1,1,1,1,1,1,0 0", "1",
     "0,1,1,1,1,1,4/2,2,2,2,2,0,0 1", None),
    # player 1 sows 20 stones from house 6: player 0's store is skipped twice
    ("20 stones skip the opponent's store", "1,1,1,1,1,1,0/0,0,0,0,0,20,0 1", "6",
     "3,3,3,3,3,3,0/1,1,1,1,1,1,2 0", None),
    # the mover empties its houses (last stone in its store): game over, the other side sweeps
    ("end sweep, mover empty", "0,0,0,0,0,1,10/2,3,0,0,0,0,5 0", "6",
     "0,0,0,0,0,0,11/0,0,0,0,0,0,10 0", 0),
    # a capture empties the opponent's houses: game over, the mover sweeps its own houses
    ("end sweep, opponent emptied", "1,0,0,0,0,3,0/0,0,0,0,5,0,0 0", "1",
     "0,0,0,0,0,0,9/0,0,0,0,0,0,0 1", 0),
    # the sweep decides for the side that did not move
    ("end sweep, other side wins", "0,0,0,0,0,1,10/2,3,0,0,0,0,6 0", "6",
     "0,0,0,0,0,0,11/0,0,0,0,0,0,11 0", "draw"),
    ("end sweep, sweeper wins", "0,0,0,0,0,1,10/2,3,0,0,0,0,7 0", "6",
     "0,0,0,0,0,0,11/0,0,0,0,0,0,12 0", 1),
    ("draw 24-24", "0,0,0,0,0,1,23/1,0,0,0,0,0,23 0", "6", "0,0,0,0,0,0,24/0,0,0,0,0,0,24 0",
     "draw"),
]


@pytest.mark.parametrize("name,before,move,after,result", RULES, ids=[r[0] for r in RULES])
def test_rule(name, before, move, after, result):
    s = Kalah.from_text(before)
    assert s.to_text() == before
    assert sum(s.board()) == sum(Kalah.from_text(after).board())   # stones are conserved
    h0 = s.zobrist()
    s.play(move)
    assert s.to_text() == after
    assert s.zobrist() == s.hash_from_scratch() == Kalah.from_text(after).zobrist()
    if result is None:
        assert not s.is_terminal() and s.winner() is None
        assert s.moves()
    elif result == "draw":
        assert s.is_terminal() and s.is_draw() and s.winner() is None
        assert s.moves() == []
        assert s.reward(0) == s.reward(1) == 0
    else:
        assert s.is_terminal() and s.winner() == result and not s.is_draw()
        assert s.moves() == []
        assert s.reward(result) == 1 and s.reward(1 - result) == -1
    s.undo()
    assert s.to_text() == before and s.zobrist() == h0


def test_unswept_terminal_text_is_scored_with_houses():
    # Player 1's houses are empty: over; player 0 has 5 + 2 = 7 against 6.
    s = Kalah.from_text("0,0,0,0,0,2,5/0,0,0,0,0,0,6 0")
    assert s.is_terminal() and s.winner() == 0 and s.moves() == []


def test_efRS():
    s = Kalah.from_text("0,0,0,0,0,2,6/1,1,1,1,0,1,0 1")
    assert s.evaluation("efRS") == pytest.approx(math.tanh((0 - 6) / 10))
    assert s.evaluation() == s.evaluation("efRS")
    s = Kalah.from_text("0,0,0,0,0,2,6/1,1,1,1,0,1,3 0")
    assert s.evaluation("efRS") == pytest.approx(math.tanh((6 - 3) / 10))
    assert Kalah().evaluation() == 0.0
    # finished games are +-1 / 0 from the side to move
    assert Kalah.from_text("0,0,0,0,0,0,30/0,0,0,0,0,0,18 1").evaluation() == -1.0
    assert Kalah.from_text("0,0,0,0,0,0,30/0,0,0,0,0,0,18 0").evaluation() == 1.0
    assert Kalah.from_text("0,0,0,0,0,0,24/0,0,0,0,0,0,24 0").evaluation() == 0.0
    with pytest.raises(ValueError, match="efMS.*valid: efRS"):
        s.evaluation("efMS")


def test_move_order_and_bias():
    s = Kalah()
    assert [s.py_move_order(m) for m in s.moves()] == [0, 0, 2, 0, 0, 0]
    assert [s.py_move_bias(m) for m in s.moves()] == [0, 0, 1.0, 0, 0, 0]
    s = Kalah.from_text("1,0,0,0,0,2,0/1,1,1,1,5,1,0 0")
    assert s.py_move_order("1") == 1 and s.py_move_bias("1") == 0.5
    assert s.py_move_order("6") == 0
    s = Kalah.from_text("1,0,0,0,0,2,0/1,1,1,1,0,1,0 0")   # opposite empty: not a capture
    assert s.py_move_order("1") == 0
    s = Kalah.from_text("13,0,0,0,0,0,0/1,1,1,1,1,1,0 0")  # lap capture
    assert s.py_move_order("1") == 1
    s = Kalah.from_text("1,1,1,1,1,1,0/0,0,0,0,0,14,0 1")  # 14 = 13 + 1: a lap, then the store
    assert s.py_move_order("6") == 2


def random_game(s, rng, max_plies=400):
    """Play random moves, checking hash and text at each ply; return the (text, hash) trail."""
    trail = []
    while not s.is_terminal() and len(trail) < max_plies:
        trail.append((s.to_text(), s.zobrist()))
        s.play(rng.choice(s.moves()))
        assert s.zobrist() == s.hash_from_scratch()
        assert s.evaluation() == pytest.approx(_efrs(s))
    return trail


def _efrs(s):
    r = s.winner()
    if s.is_terminal():
        return 0.0 if r is None else (1.0 if r == s.to_move() else -1.0)
    st = s.stores()
    return math.tanh((st[s.to_move()] - st[1 - s.to_move()]) / 10)


@pytest.mark.parametrize("seed", range(30))
def test_undo_round_trip(seed):
    rng = random.Random(seed)
    s = Kalah() if seed % 2 == 0 else kalah_random_board(seed)
    trail = random_game(s, rng)
    assert s.is_terminal()
    assert sum(s.board()) == 48 and s.board()[6] + s.board()[13] == 48
    copy = s.copy()
    for text, h in reversed(trail):
        s.undo()
        assert s.to_text() == text and s.zobrist() == h
    with pytest.raises(IndexError):
        s.undo()
    # the copy kept the finished game and its history
    assert copy.is_terminal() and copy.to_text() != s.to_text()
    copy.undo()
    assert copy.to_text() == trail[-1][0]


def test_hash_depends_on_side_and_stones():
    a = Kalah.from_text("4,4,4,4,4,4,0/4,4,4,4,4,4,0 0")
    b = Kalah.from_text("4,4,4,4,4,4,0/4,4,4,4,4,4,0 1")
    c = Kalah.from_text("4,4,4,4,4,5,0/4,4,4,4,4,3,0 0")
    assert len({a.zobrist(), b.zobrist(), c.zobrist()}) == 3


def test_notation_round_trip():
    s = Kalah.from_text("1,0,3,0,5,6,0/2,2,0,0,0,1,0 0")
    assert s.moves() == ["1", "3", "5", "6"]
    for m in s.moves():
        assert s.format_move(s.parse_move(m)) == m
    s = Kalah.from_text("1,0,3,0,5,6,0/2,2,0,0,0,1,0 1")
    assert s.moves() == ["1", "2", "6"]
    for bad in ["0", "7", "a", "12", ""]:
        with pytest.raises(ValueError, match="house number 1-6"):
            s.parse_move(bad)


def test_illegal_move_names_move_and_legal_ones():
    s = Kalah.from_text("1,0,3,0,5,6,0/2,2,0,0,0,1,0 0")
    with pytest.raises(ValueError) as e:
        s.play("2")        # empty house
    msg = str(e.value)
    assert "'2'" in msg and "1, 3, 5, 6" in msg and "\n" not in msg
    with pytest.raises(ValueError, match=r"'7'.*1, 3, 5, 6"):
        s.play("7")
    assert s.to_text() == "1,0,3,0,5,6,0/2,2,0,0,0,1,0 0"
    done = Kalah.from_text("0,0,0,0,0,0,24/0,0,0,0,0,0,24 0")
    with pytest.raises(ValueError, match="game is over"):
        done.play("1")


@pytest.mark.parametrize("bad", [
    "", "4,4,4,4,4,4,0/4,4,4,4,4,4,0", "4,4,4,4,4,4,0/4,4,4,4,4,4,0 2",
    "4,4,4,4,4,4,0/4,4,4,4,4,4,0 x", "4,4,4,4,4,4,0 0", "4,4,4,4,4,4/4,4,4,4,4,4,0 0",
    "4,4,4,4,4,4,0/4,4,4,4,4,4,0,0 0", "4,4,-4,4,4,4,0/4,4,4,4,4,4,0 0",
    "4,4,a,4,4,4,0/4,4,4,4,4,4,0 0", "4,4,4,4,4,4,0/4,4,4,4,4,4,0/1 0",
    "4,4,4,4,4,4,0/4,4,4,4,4,4,0 0 1",
])
def test_from_text_rejects(bad):
    with pytest.raises(ValueError) as e:
        Kalah.from_text(bad)
    assert "bad Kalah position" in str(e.value) and "\n" not in str(e.value)


def test_new_state_and_board_str():
    s = games.new_state("kalah", "1,0,3,0,5,6,7/2,2,0,0,0,1,9 1")
    text = str(s)
    assert "player 1 to move" in text
    rows = text.splitlines()
    assert rows[1].split() == ["1", "0", "0", "0", "2", "2"]    # player 1's houses 6..1
    assert rows[2].split()[:2] == ["9", "7"]                     # stores: player 1, player 0
    assert rows[3].split() == ["1", "0", "3", "0", "5", "6"]
    assert "has won" in str(Kalah.from_text("0,0,0,0,0,0,30/0,0,0,0,0,0,18 1"))


def test_random_board_deterministic():
    for seed in range(20):
        a, b = kalah_random_board(seed), kalah_random_board(seed)
        assert a.to_text() == b.to_text() == kalah_random_text(seed)
        board = a.board()
        assert sum(board) == 48 and board[6] == board[13] == 0
        assert a.to_move() == 0 and not a.is_terminal()
    texts = {kalah_random_text(seed) for seed in range(50)}
    assert len(texts) == 50
    # stones really are spread at random, not the standard 4 per house
    assert all(t != START_TEXT for t in texts)
    with pytest.raises(ValueError, match="seed"):
        kalah_random_board("x")


def test_random_playout_restores_and_is_seeded():
    s = kalah_random_board(3)
    before = (s.to_text(), s.zobrist())
    results = [s.random_playout_result(seed) for seed in range(300)]
    assert (s.to_text(), s.zobrist()) == before
    assert set(results) <= {0, 1, 2} and {0, 1} <= set(results)
    assert results == [s.random_playout_result(seed) for seed in range(300)]
    # a position with one legal move that ends the game
    s = Kalah.from_text("0,0,0,0,0,1,10/2,3,0,0,0,0,7 0")
    assert all(s.random_playout_result(seed) == 1 for seed in range(10))
    # max_plies cuts the playout short
    assert Kalah().random_playout_result(1, 2) == -1

