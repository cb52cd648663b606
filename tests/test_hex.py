"""Hex: perft against a second generator, winners on full boards, fill-and-test playouts, bridge
replies, swap rule, two-distance, text form, undo/hash round trips, search options on Hex."""
import random
import sys
from pathlib import Path

import pytest
from mcts_arena.games.hex import Hex

from mcts_arena import games, players

sys.path.insert(0, str(Path(__file__).parent / "data"))
from hex_reference import RefHex, connected  # noqa: E402

PERFT = [line.split("|") for line in (Path(__file__).parent / "data" / "hex_perft.txt")
         .read_text().splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("text,depth,count", PERFT, ids=[p[0].strip() for p in PERFT])
def test_perft_matches_the_reference_generator(text, depth, count):
    s = Hex.from_text(text.strip())
    assert s.perft(int(depth)) == int(count)


def test_perft_reference_live_small():
    for text in ("x../.o./... x", "..../.x../..o./.... x swap"):
        assert Hex.from_text(text).perft(3) == RefHex.from_text(text).perft(3)


def test_start_text_sizes_and_registry():
    assert games.new_state("hex").to_text() == "/".join(["." * 11] * 11) + " x"
    assert Hex(5).to_text() == "...../...../...../...../..... x"
    assert Hex(5, swap=True).to_text().endswith(" x swap")
    assert Hex(19).perft(1) == 361 and Hex(3).perft(1) == 9
    for bad in (2, 20):
        with pytest.raises(ValueError, match="bad Hex size"):
            Hex(bad)


def _random_full_board(rng, n):
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    board = {rc: ("x" if i % 2 == 0 else "o") for i, rc in enumerate(cells)}
    return board


@pytest.mark.parametrize("n", [3, 4, 5, 7, 11])
def test_exactly_one_side_connects_a_full_board(n):
    rng = random.Random(n)
    for _ in range(60):
        board = _random_full_board(rng, n)
        bx, bo = connected(n, board, "x"), connected(n, board, "o")
        assert bx != bo
        # the core agrees on who won when the stones are played one by one
        s = Hex(n)
        order = list(board)
        xs = [rc for rc in order if board[rc] == "x"]
        os_ = [rc for rc in order if board[rc] == "o"]
        seq = [m for pair in zip(xs, os_ + [None]) for m in pair if m is not None]
        for r, c in seq:
            if s.is_terminal():
                break
            s.play("abcdefghijklmnopqrs"[c] + str(r + 1))
        assert s.is_terminal() and s.winner() == (0 if bx else 1)


def test_random_games_undo_hash_text_round_trip():
    rng = random.Random(7)
    for n in (3, 5, 8, 11):
        for swap in (False, True):
            s = Hex(n, swap=swap)
            start = (s.to_text(), s.zobrist())
            trail = []
            while not s.is_terminal():
                moves = s.moves()
                m = rng.choice(moves)
                trail.append((s.to_text(), s.zobrist()))
                s.play(m)
                assert s.zobrist() == s.hash_from_scratch()
                t = Hex.from_text(s.to_text())
                assert t.zobrist() == s.zobrist() and t.to_text() == s.to_text()
                assert t.winner() == s.winner()
            ref = RefHex.from_text(s.to_text())
            assert {"x": 0, "o": 1}[ref.winner()] == s.winner()
            while trail:
                s.undo()
                assert (s.to_text(), s.zobrist()) == trail.pop()
            assert (s.to_text(), s.zobrist()) == start


@pytest.mark.slow
def test_union_find_win_test_survives_undo_clone_and_swap():
    """do_move's union-find (undone by undo_move) against the plain reference's breadth-first
    test from scratch: winner after every move of random walks that also undo 1-3 moves, swap
    and clone midway; is_decisive and the threats list against trying each cell."""
    rng = random.Random(11)
    for n in (3, 4, 6, 9):
        for swap in (False, True):
            for _ in range(3):
                s, ref = Hex(n, swap=swap), RefHex(n, swap=swap)
                for _step in range(4 * n * n):
                    if s.is_terminal() or (len(ref.history) and rng.random() < 0.25):
                        k = min(len(ref.history), rng.randint(1, 3))
                        for _ in range(k):
                            s.undo()
                            ref.undo()
                    else:
                        m = rng.choice(s.moves())
                        s.play(m)
                        ref.play(m)
                    if rng.random() < 0.1:
                        s = s.copy()
                    w = ref.winner()
                    assert s.winner() == (None if w is None else {"x": 0, "o": 1}[w])
                    if not s.is_terminal() and rng.random() < 0.3:
                        side = ref.side
                        other = "o" if side == "x" else "x"
                        wins, threats = set(), set()
                        for mv in s.moves():
                            if mv == "swap":
                                continue
                            rc = (int(mv[1:]) - 1, "abcdefghijklmnopqrs".index(mv[0]))
                            for colour, found in ((side, wins), (other, threats)):
                                ref.board[rc] = colour
                                if connected(n, ref.board, colour):
                                    found.add(mv)
                                del ref.board[rc]
                        assert {mv for mv in s.moves() if mv != "swap" and s.py_is_decisive(mv)} \
                            == wins
                        assert set(s.py_threats(99)) == threats


def test_bitboard_connection_test_matches_the_reference():
    """The playouts' bitboard test (six shifts per step across 64-bit words: sizes up to 19 use
    six words) and the flood fill against the plain reference, on random boards of every size
    and density, full boards included."""
    from mcts_arena.games.hex import connection_tests
    rng = random.Random(19)
    for n in range(3, 20):
        for density in (0.3, 0.5, 0.7, 1.0):
            for _ in range(12):
                cells = [0 if rng.random() > density else rng.choice((1, 2))
                         for _ in range(n * n)]
                board = {(i // n, i % n): ".xo"[v] for i, v in enumerate(cells) if v}
                want = connected(n, board, "x")
                assert connection_tests(n, cells) == (want, want)


def test_rave_recorded_playout_draws_as_the_move_by_move_loop():
    """Hex's recorded playout (RAVE) keeps the empty cells in order instead of listing them
    each ply: the same moves, movers, result and length as GameState's loop, seed for seed,
    with a short record cap too; the swap rule's early positions use the loop itself."""
    rng = random.Random(23)
    for n, swap in ((3, False), (5, False), (8, False), (11, False), (5, True), (9, True)):
        for _ in range(6):
            s = Hex(n, swap=swap)
            for _ in range(rng.randint(0, n * n // 2)):
                s.play(rng.choice(s.moves()))
                if s.is_terminal():
                    s.undo()
                    break
            before = (s.to_text(), s.zobrist())
            for seed in range(10):
                for cap in (400, 5):
                    fast = s.py_recorded_playout(seed, cap)
                    assert fast == s.py_recorded_playout(seed, cap, base=True)
                    assert len(fast[1]) == min(cap, fast[3])
                    assert (s.to_text(), s.zobrist()) == before


def test_swap_rule():
    s = Hex(5, swap=True)
    s.play("b1")
    assert "swap" in s.moves() and len(s.moves()) == 25
    s.play("swap")
    assert s.to_text() == "...../o..../...../...../..... x swap"   # b1 mirrored to a2, White
    assert "swap" not in s.moves()
    s.undo()
    assert s.to_text() == ".x.../...../...../...../..... o swap"
    assert "swap" not in Hex(5).moves() + Hex.from_text(".x.../...../...../...../..... o").moves()
    with pytest.raises(ValueError, match="illegal move"):
        Hex(5, swap=True).play("swap")


def test_fill_and_test_playout_matches_sequential_random_play():
    """The fill-and-test result has the distribution of playing uniformly random moves to the
    end (the winner of the filled board is the winner of the game)."""
    text = "..x../.o.../..x../.o.o./..x.. x"
    s = Hex.from_text(text)
    k = 4000
    fill = sum(s.random_playout_result(seed=i) == 0 for i in range(k)) / k
    rng = random.Random(3)
    seq = 0
    for _ in range(k):
        t = s.copy()
        while not t.is_terminal():
            t.play(rng.choice(t.move_ids()))
        seq += t.winner() == 0
    seq /= k
    assert abs(fill - seq) < 0.04, (fill, seq)
    assert s.to_text() == text


def test_bridge_reply_in_core_and_playouts():
    # Black stones c2 and b4 form a bridge (carriers b3, c3); White intrudes at b3
    s = Hex.from_text("o..../..x../...../.x.../..... o")
    s.play("b3")
    assert s.py_forced_move() == "c3" and s.py_move_order("c3") == 2
    s.undo()
    s.play("c3")
    assert s.py_forced_move() == "b3"
    # the edge bridge: c2 to the top edge over c1, d1
    s = Hex.from_text("...../..x../...../...../..... o")
    s.play("c1")
    assert s.py_forced_move() == "d1"
    s.undo()
    s.play("a5")
    assert s.py_forced_move() is None
    # a bridge playout answers every intrusion: from a position where Black's bridge chain
    # c1-d1 | c2 | b3-c3 | b4 | a5-b5 is complete, Black wins bridge playouts unless one
    # White stone intrudes two bridges at once (rare: Black's random stones must make the
    # second); random playouts lose a bridge to White a quarter of the time each
    chain = Hex.from_text("....o/..x../...../.x.../..... o")
    assert sum(chain.bridge_playout_result(seed=i) == 0 for i in range(1000)) >= 990
    assert 300 < sum(chain.random_playout_result(seed=i) == 0 for i in range(1000)) < 800
    b = chain.bridge_playout_board(seed=5)
    assert b.count(0) == 0 and b.count(1) == b.count(2) + 1


def test_two_distance_and_evaluation():
    s = Hex(5)
    assert s.two_distances(0, "first")[:5] == [1] * 5
    assert s.potential(0) == s.potential(1)
    assert s.evaluation() == 0.0
    t = Hex.from_text("...../...../..x../...../..... o")
    assert t.potential(0) < t.potential(1)
    assert t.evaluation() < 0      # White to move, Black has the centre
    # the transposed board with colours exchanged swaps the potentials
    u = Hex.from_text(".o.x./..x../.x.o./o..../..... x")
    rows = u.to_text().split()[0].split("/")
    swap = {"x": "o", "o": "x", ".": "."}
    v = Hex.from_text("/".join("".join(swap[rows[c][r]] for c in range(5)) for r in range(5))
                      + " x")
    assert (u.potential(0), u.potential(1)) == (v.potential(1), v.potential(0))
    assert u.evaluation() == -v.evaluation()
    with pytest.raises(ValueError, match="unknown evaluation"):
        t.evaluation("efMS")


@pytest.mark.parametrize("bad", [
    "..../..../.... x", "...../...../...../...../..... b", ".x.../...../...../...../.... x",
    "xxx/.../... x", "xo./.x./... x", "xoo/xo./x.. o", "../.. x", "...../...../...../...../..... x swp"])
def test_bad_text(bad):
    with pytest.raises(ValueError, match="bad Hex position"):
        Hex.from_text(bad)


def test_notation():
    s = Hex(11)
    assert s.parse_move("k11") == 120 and s.format_move(120) == "k11" and s.parse_move("a1") == 0
    for bad in ("l1", "a12", "a0", "", "zz"):
        with pytest.raises(ValueError, match="bad Hex move"):
            s.parse_move(bad)


@pytest.mark.parametrize("spec", ["MCTS", "MCTS(bridge)", "MCTS(rave100)", "MCTS(np)",
                                  "MCTS(PB)", "MCTS(im0.4)", "MCTS(bridge,im0.4,PB)",
                                  "αβ", "FlatMC", "Greedy"])
def test_players_find_the_win_in_one(spec):
    # Black to move wins at once at c3 (c1-c2 and c4-c5 connected through c3)
    s = Hex.from_text("..x../..x.o/o...o/..x.o/..x.. x")
    assert s.moves().count("c3") == 1
    p = players.make(spec, "hex", seed=3)
    move, _ = p.choose(s, sims=300)
    assert s.format_move(move) == "c3"


def test_bridge_macro_is_ipp_and_hex_only():
    assert players.parse("MCTS(ipp)", "hex").canonical == "MCTS(bridge)"
    with pytest.raises(players.SpecError):
        players.parse("MCTS(bridge)", "breakthrough")
