"""Lines of Action core: rules, perft, incremental state, evaluations, categories, openings."""
import os
import random

import pytest
from mcts_arena.games.loa import LinesOfAction, loa_openings

from mcts_arena.games import loa

START = ".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b"
DATA = os.path.join(os.path.dirname(__file__), "data")

# ---- a deliberately simple reference implementation (dict board, full line scans) ---------

DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)]


def parse(text):
    ranks, side = text.split()
    grid = {}
    for i, rank in enumerate(ranks.split("/")):
        for c, ch in enumerate(rank):
            if ch != ".":
                grid[(7 - i, c)] = 0 if ch == "b" else 1
    return grid, 0 if side == "b" else 1


def name(sq):
    return "abcdefgh"[sq[1]] + str(sq[0] + 1)


def ref_moves(grid, p):
    out = []
    for (r, c), owner in grid.items():
        if owner != p:
            continue
        for dr, dc in DIRS:
            k = sum((r + s * dr, c + s * dc) in grid for s in range(-7, 8))
            tr, tc = r + k * dr, c + k * dc
            if not (0 <= tr < 8 and 0 <= tc < 8):
                continue
            if any(grid.get((r + i * dr, c + i * dc)) == 1 - p for i in range(1, k)):
                continue
            if grid.get((tr, tc)) == p:
                continue
            sep = "x" if grid.get((tr, tc)) == 1 - p else "-"
            out.append(name((r, c)) + sep + name((tr, tc)))
    return sorted(out)


def ref_connected(grid, p):
    pcs = {sq for sq, o in grid.items() if o == p}
    if not pcs:
        return True
    start = next(iter(pcs))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                n = (r + dr, c + dc)
                if n in pcs and n not in seen:
                    seen.add(n)
                    stack.append(n)
    return len(seen) == len(pcs)


def ref_apply(grid, p, move):
    fr = (int(move[1]) - 1, "abcdefgh".index(move[0]))
    to = (int(move[4]) - 1, "abcdefgh".index(move[3]))
    g = dict(grid)
    del g[fr]
    g[to] = p
    return g


def ref_perft(grid, p, depth):
    if depth == 0:
        return 1
    total = 0
    for m in ref_moves(grid, p):
        if depth == 1:
            total += 1
            continue
        g = ref_apply(grid, p, m)
        if ref_connected(g, p) or ref_connected(g, 1 - p) or not ref_moves(g, 1 - p):
            continue
        total += ref_perft(g, 1 - p, depth - 1)
    return total


def ref_groups(pieces):
    pcs, groups = set(pieces), 0
    while pcs:
        groups += 1
        stack = [pcs.pop()]
        while stack:
            r, c = stack.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (r + dr, c + dc) in pcs:
                        pcs.remove((r + dr, c + dc))
                        stack.append((r + dr, c + dc))
    return groups


def random_game_states(seed, max_plies=400):
    """Yield the state along one uniformly random game (the same object, moved on)."""
    rng = random.Random(seed)
    s = LinesOfAction()
    yield s
    while not s.is_terminal() and s.ply < max_plies:
        s.play(rng.choice(s.move_ids()))
        yield s


# ---- perft ---------------------------------------------------------------------------------

def perft_table():
    rows = {}
    with open(os.path.join(DATA, "loa_perft.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                d, n = line.split()
                rows[int(d)] = int(n)
    return rows


def test_start_position_and_text_round_trip():
    s = LinesOfAction()
    assert s.to_text() == START
    assert s.to_move() == 0 and not s.is_terminal()
    assert LinesOfAction.from_text(START).zobrist() == s.zobrist()


def test_published_perft_values():
    assert perft_table()[1] == 36 and perft_table()[2] == 1244


@pytest.mark.parametrize("seed", range(12))
def test_moves_and_results_match_reference_in_random_games(seed):
    prev = None
    for s in random_game_states(seed):
        grid, p = parse(s.to_text())
        if prev is not None and not s.is_draw():
            mover = 1 - p
            if ref_connected(grid, mover):
                expect = mover
            elif ref_connected(grid, p):
                expect = p
            elif not ref_moves(grid, p):
                expect = mover
            else:
                expect = None
            assert s.winner() == expect, s.to_text()
        if not s.is_terminal():
            assert sorted(s.moves()) == ref_moves(grid, p), s.to_text()
        prev = s.to_text()


# ---- hand-made positions, one per rule -----------------------------------------------------

def pos(rows, side="b"):
    """Build a position from a dict {square: 'b'|'w'}."""
    board = [["."] * 8 for _ in range(8)]
    for sq, ch in rows.items():
        board[8 - int(sq[1])]["abcdefgh".index(sq[0])] = ch
    return LinesOfAction.from_text("/".join("".join(r) for r in board) + " " + side)


def test_jump_over_own_piece():
    s = pos({"a1": "b", "b1": "b", "h8": "b", "d5": "w", "f6": "w"})
    assert "a1-c1" in s.moves()


def test_blocked_by_enemy_piece():
    s = pos({"a1": "b", "b1": "w", "h8": "b", "g5": "w"})
    assert not any(m.startswith("a1") and m[3:] == "c1" for m in s.moves())
    assert "a1-c1" not in s.moves() and "a1xc1" not in s.moves()


def test_capture_by_landing_and_notation():
    s = pos({"a1": "b", "c1": "w", "h8": "b", "e5": "w"})
    assert "a1xc1" in s.moves()
    s.play("a1xc1")
    assert s.to_text().startswith(".......b")
    assert s.incremental_sums()[1][0] == 1


def test_exact_distance_on_all_four_line_types():
    # d4: row 4 has 2 pieces, column d 3, diagonal a1-h8 2, anti-diagonal a7-g1 2.
    s = pos({"d4": "b", "g4": "b", "d1": "b", "d8": "b", "h8": "w", "b6": "w"})
    from_d4 = sorted(m for m in s.moves() if m.startswith("d4"))
    assert from_d4 == sorted(["d4-f4", "d4-b4", "d4-d7", "d4-f6", "d4-b2", "d4xb6", "d4-f2"])
    # d4-d1 would land on its own piece
    assert "d4-d1" not in s.moves()


def test_win_by_connection():
    s = pos({"c1": "b", "d1": "b", "e4": "b", "e7": "w", "e8": "w", "a5": "w"})
    assert not s.is_terminal()
    decisive = [m for m in s.moves() if s.py_is_decisive(m)]
    assert decisive == ["e4-e1"]
    s.play("e4-e1")
    assert s.winner() == 0


def test_simultaneous_connection_mover_wins():
    s = pos({"c1": "b", "d1": "b", "e4": "b", "e1": "w", "e6": "w", "f7": "w"})
    s.play("e4xe1")
    assert s.is_connected(0) and s.is_connected(1)
    assert s.winner() == 0


def test_capture_leaving_opponent_connected_loses():
    s = pos({"c1": "b", "h1": "b", "e4": "b", "e1": "w", "e6": "w", "f7": "w"})
    assert not s.py_is_decisive("e4xe1")
    s.play("e4xe1")
    assert s.winner() == 1
    assert s.evaluation("efWB") == 1.0          # White to move and has won


def test_single_remaining_piece_is_connected():
    s = pos({"c1": "b", "h1": "b", "e4": "b", "e1": "w", "e6": "w"})
    s.play("e4xe1")
    assert s.is_connected(1) and s.winner() == 1
    one = pos({"a1": "w", "c3": "b", "h8": "b"}, side="b")
    assert one.winner() == 1


def test_no_legal_move_loses():
    s = pos({"a1": "w", "h8": "w",
             "b1": "b", "c1": "b", "a2": "b", "a3": "b", "b2": "b", "c3": "b",
             "g8": "b", "f8": "b", "h7": "b", "h6": "b", "g7": "b", "f6": "b"}, side="w")
    assert s.move_ids() == [] and s.winner() == 0
    grid, p = parse(s.to_text())
    assert ref_moves(grid, p) == []


def test_repetition_is_a_draw_on_first_repeat():
    s = LinesOfAction()
    for m in ["b1-b3", "a2-c2", "b3-b1"]:
        s.play(m)
        assert not s.is_terminal()
    s.play("c2-a2")
    assert s.to_text() == START and s.is_draw() and s.evaluation() == 0.0
    assert s.moves() == []
    s.undo()
    assert not s.is_terminal()


def test_fast_playout_plays_the_rules_game_for_game():
    """random_playout (local copies, no undo records) and the generic do/undo loop draw the
    same moves from the same generator, so they must end every game alike: repetition draws
    included, against positions the game itself reached before the playout."""
    rng = random.Random(12)
    draws = 0
    for _ in range(40):
        s = LinesOfAction()
        for _ in range(rng.randint(0, 60)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.move_ids()))
        fast = [s.random_playout_result(seed) for seed in range(40)]
        assert fast == [s.generic_playout_result(seed) for seed in range(40)], s.to_text()
        draws += fast.count(2)
    assert draws > 100        # random LOA games repeat often: the rule is exercised


def test_fast_playout_sees_the_games_own_history():
    # after b1-b3 a2-c2 b3-b1, c2-a2 repeats the start: a playout whose only choice that
    # matters is that move must be a draw at once; here: max_plies 1 over many seeds, and
    # every seed that plays c2-a2 first must return a draw, as the rules do
    s = LinesOfAction()
    for m in ["b1-b3", "a2-c2", "b3-b1"]:
        s.play(m)
    results = {s.random_playout_result(seed, 1) for seed in range(400)}
    assert 2 in results
    assert {s.generic_playout_result(seed, 1) for seed in range(400)} == results


def test_set_up_position_decided_by_connection():
    # The side that did not move last (Black, to move) is connected: Black wins.
    s = pos({"a1": "b", "b2": "b", "e5": "w", "g7": "w"})
    assert s.winner() == 0


@pytest.mark.parametrize("bad", ["", "x b", START.replace(" b", " x"),
                                 START.replace("w......w", "w.....w", 1),
                                 "8/8 b", START.replace(".bbbbbb.", ".bbqbbb.", 1),
                                 "......../w......w/......../......../......../......../......../........ b"])
def test_bad_text_is_rejected(bad):
    with pytest.raises(ValueError):
        LinesOfAction.from_text(bad)


def test_bad_move_text_is_rejected():
    s = LinesOfAction()
    with pytest.raises(ValueError, match="legal moves"):
        s.play("b1-b2")
    with pytest.raises(ValueError):
        s.parse_move("b1b3")
    with pytest.raises(ValueError):
        s.parse_move("z1-b3")


# ---- undo, incremental state ---------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_incremental_state_matches_recomputation(seed):
    for s in random_game_states(1000 + seed):
        assert s.line_counts() == s.line_counts_from_scratch()
        assert s.incremental_sums() == s.sums_from_scratch()
        assert s.zobrist() == s.hash_from_scratch()
        fresh = LinesOfAction.from_text(s.to_text())
        if not s.is_terminal():
            for ef in ("efWB", "efLOA0"):
                assert s.evaluation(ef) == pytest.approx(fresh.evaluation(ef), abs=1e-12)
            assert s.features(0) == fresh.features(0)
            assert s.features(1) == fresh.features(1)


def test_undo_whole_game_back_to_start():
    rng = random.Random(7)
    s = LinesOfAction()
    texts = []
    while not s.is_terminal():
        texts.append(s.to_text())
        s.play(rng.choice(s.move_ids()))
    while s.ply:
        s.undo()
        assert s.to_text() == texts[s.ply]
    assert s.zobrist() == LinesOfAction().zobrist()
    with pytest.raises(IndexError):
        s.undo()


# ---- evaluation ----------------------------------------------------------------------------

def test_euler_number_against_group_counts():
    shapes = {
        "single": ["d4"],
        "two apart": ["a1", "h8"],
        "diagonal pair": ["c3", "d4"],
        "corner pieces": ["a1", "h1", "a8", "h8"],
        "line on edge": ["a1", "b1", "c1", "d1"],
        "plus": ["d4", "c4", "e4", "d3", "d5"],
    }
    for label, sqs in shapes.items():
        extra = {"h5": "w"} if "h8" not in sqs else {"e5": "w"}
        s = pos({**{sq: "b" for sq in sqs}, **extra, "f2": "w"})
        grid, _ = parse(s.to_text())
        groups = ref_groups([sq for sq, o in grid.items() if o == 0])
        assert s.euler_number(0) == groups, label
    ring = pos({sq: "b" for sq in ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]} | {"h1": "w", "a8": "w"})
    assert ring.euler_number(0) == 0          # one group with one hole


def test_evaluations_in_range_and_symmetric_at_start():
    s = LinesOfAction()
    assert s.evaluation("efWB") == pytest.approx(0.0)
    assert s.evaluation("efLOA0") == pytest.approx(0.0)
    assert s.evaluation() == s.evaluation("efWB")
    for st in random_game_states(5):
        for ef in ("efWB", "efLOA0"):
            v = st.evaluation(ef)
            assert -1.0 <= v <= 1.0
            if st.is_terminal():
                assert v == (0.0 if st.is_draw() else (1.0 if st.winner() == st.to_move() else -1.0))


def test_evaluation_side_to_move_view():
    """Swapping colours and the side to move gives the same value."""
    for st in random_game_states(11, max_plies=60):
        if st.is_terminal():
            break
        board, side = st.to_text().split()
        swapped = board.replace("b", "t").replace("w", "b").replace("t", "w")
        other = LinesOfAction.from_text(swapped + (" w" if side == "b" else " b"))
        assert other.evaluation("efWB") == pytest.approx(st.evaluation("efWB"))


def test_unknown_evaluation_is_rejected():
    with pytest.raises(ValueError, match="efWB"):
        LinesOfAction().evaluation("efMS")


def test_concentration_prefers_packed_pieces():
    packed = pos({"c3": "b", "d3": "b", "e3": "b", "c4": "b", "e5": "b",
                  "a1": "w", "h1": "w", "a8": "w", "h8": "w", "a5": "w"})
    assert packed.features(0)["concentration"] < packed.features(1)["concentration"]
    assert packed.evaluation("efLOA0") > 0.5
    assert packed.evaluation("efWB") > 0.5


def greedy_move(s, ef, rng):
    best, moves = -2.0, []
    for m in s.move_ids():
        s.play(m)
        v = -s.evaluation(ef)
        s.undo()
        if v > best + 1e-12:
            best, moves = v, [m]
        elif abs(v - best) <= 1e-12:
            moves.append(m)
    return rng.choice(moves)


@pytest.mark.parametrize("ef", ["efWB", "efLOA0"])
def test_greedy_evaluation_player_beats_random(ef):
    wins = 0
    for g in range(10):
        rng = random.Random(g)
        s = LinesOfAction()
        me = g % 2
        while not s.is_terminal() and s.ply < 400:
            s.play(greedy_move(s, ef, rng) if s.to_move() == me else rng.choice(s.move_ids()))
        wins += s.winner() == me
    assert wins >= 9


# ---- move categories -----------------------------------------------------------------------

def test_category_weights_shape():
    w = loa.category_weights()
    assert len(w) == 96 and min(w) >= 1 and max(w) == 192
    # capture doubles, toward the centre of mass beats away, centre destination beats the edge
    assert all(w[48 + i] >= w[i] for i in range(48))
    assert w[2 * 12 + 3 * 3 + 0] > w[2 * 12 + 3 * 3 + 2]
    assert w[2 * 12 + 3 * 3 + 1] > w[2 * 12 + 1 * 3 + 1]


def test_move_categories_by_hand():
    s = LinesOfAction()
    # b1-b3: from edge to second ring, toward Black's centre of mass (3.5, 3.5)
    cat, w = s.move_category("b1-b3")
    assert cat == 0 * 48 + 1 * 12 + 2 * 3 + 0
    assert w == round(16 * 1.5 * 1.0 * 2.0)
    # b1-d3: a diagonal move from the edge into the central 4x4, toward the centre of mass
    cat, _ = s.move_category("b1-d3")
    assert cat == 1 * 12 + 3 * 3 + 0
    cap = pos({"a1": "b", "c1": "w", "h8": "b", "e5": "w"})
    c2, w2 = cap.move_category("a1xc1")
    assert c2 // 48 == 1 and (c2 // 12) % 4 == 0 and (c2 // 3) % 4 == 1
    assert cap.py_move_bias("a1xc1") == pytest.approx(w2 / 192)


def test_move_order_and_bias_agree_in_random_games():
    for s in random_game_states(3, max_plies=80):
        if s.is_terminal():
            break
        for m in s.move_ids():
            b = s.py_move_bias(m)
            assert 0.0 < b <= 1.0
            assert s.py_move_order(m) == s.move_category(m)[1]


@pytest.mark.parametrize("seed", range(6))
def test_is_decisive_matches_playing_the_move(seed):
    for s in random_game_states(300 + seed):
        if s.is_terminal():
            break
        mover = s.to_move()
        for m in s.move_ids():
            d = s.py_is_decisive(m)
            s.play(m)
            assert d == (s.winner() == mover)
            s.undo()


def test_ipp_draws_in_proportion_to_category_weights():
    s = LinesOfAction()
    ids = s.move_ids()
    weights = {m: s.move_category(m)[1] for m in ids}
    total = sum(weights.values())
    n = 20000
    counts = {m: 0 for m in ids}
    for k in range(n):
        counts[s.py_playout_move(1, ids, k)] += 1
    for m in ids:
        expect = n * weights[m] / total
        assert abs(counts[m] - expect) < 5 * (expect ** 0.5) + 5
    rnd = {m: 0 for m in ids}
    for k in range(n):
        rnd[s.py_playout_move(0, ids, k)] += 1
    for m in ids:
        assert abs(rnd[m] - n / len(ids)) < 5 * (n / len(ids)) ** 0.5


# ---- playouts ------------------------------------------------------------------------------

def test_random_playout_restores_state_and_is_seeded():
    s = LinesOfAction()
    s.play("b1-b3")
    before = (s.to_text(), s.zobrist(), s.line_counts())
    results = [s.random_playout_result(seed) for seed in range(200)]
    assert (s.to_text(), s.zobrist(), s.line_counts()) == before
    assert set(results) == {0, 1, 2}        # wins of either side and repetition draws
    assert results == [s.random_playout_result(seed) for seed in range(200)]
    assert s.random_playout_result(1, max_plies=0) == -1     # capped: ONGOING


def test_random_playout_result_on_finished_game():
    s = pos({"c1": "b", "d1": "b", "e4": "b", "e7": "w", "e8": "w", "a5": "w"})
    s.play("e4-e1")
    assert s.random_playout_result(3) == 0


# ---- openings ------------------------------------------------------------------------------

def test_openings_load_distinct_legal_non_terminal():
    ops = loa_openings()
    assert len(ops) == 100 and len(set(ops)) == 100
    for text in ops:
        s = LinesOfAction.from_text(text)
        assert s.to_text() == text
        assert not s.is_terminal() and s.moves()
        assert abs(s.evaluation("efWB")) <= 0.1
        n_black = text.split()[0].count("b")
        n_white = text.split()[0].count("w")
        assert 10 <= n_black <= 12 and 10 <= n_white <= 12


def test_opening_generator_reproduces_the_file():
    """The generator script with its seed rebuilds exactly the shipped file."""
    import importlib.util
    path = os.path.join(os.path.dirname(loa.__file__), "data", "make_loa_openings.py")
    spec = importlib.util.spec_from_file_location("make_loa_openings", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.generate() == loa_openings()
    for text in loa_openings()[:10]:
        assert abs(mod.negamax(LinesOfAction.from_text(text), 2)) <= mod.SEARCH_LIMIT
