"""Gomoku: rules on hand-made positions, the incremental patterns against a rebuild, urgent
moves, the search-move set, and known positions for the players (win in one, must block a four,
open-three defence, a VCF found by αβ and proven by MCTS-Solver, Browne's opponent-model case).
The shared conformance harness (test_game_conformance.py) covers perft, do/undo, hashes and
playouts. Fixed seeds and simulation budgets throughout."""
import random

import pytest
from click.testing import CliRunner
from mcts_arena.players.search.prover import Prover

from mcts_arena import games
from mcts_arena.cli import cli as main
from mcts_arena.players import make


def board(x, o, side=None, size=15, exact=False):
    """The text of a position with black stones `x`, white stones `o` (notation)."""
    g = games.new_state(f"gomoku(size={size})")
    rows = [["."] * size for _ in range(size)]
    for cells, ch in ((x, "x"), (o, "o")):
        for mv in cells:
            m = g.parse_move(mv)
            rows[m // size][m % size] = ch
    if side is None:
        side = "x" if len(x) == len(o) else "o"
    return "/".join("".join(r) for r in rows) + " " + side + (" exact" if exact else "")


def pos(x, o, side=None, size=15, exact=False, near=2):
    game = f"gomoku(size={size},exact={int(exact)},near={near})"
    return games.new_state(game, board(x, o, side, size, exact))


# ---- rules ------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [["c3", "d3", "e3", "f3"], ["c3", "c4", "c5", "c6"],
                                  ["c3", "d4", "e5", "f6"], ["c7", "d6", "e5", "f4"]])
def test_five_in_each_direction_wins(line):
    nxt = {"c3 d3 e3 f3": "g3", "c3 c4 c5 c6": "c7", "c3 d4 e5 f6": "g7", "c7 d6 e5 f4": "g3"}
    s = pos(line, ["k11", "k13", "m11", "m13"])
    s.play(nxt[" ".join(line)])
    assert s.is_terminal() and s.winner() == 0 and s.moves() == []
    assert s.evaluation() == -1.0          # from the side to move, who has lost


def test_overline_wins_freestyle_but_not_exact():
    x, o = ["c3", "d3", "e3", "g3", "h3"], ["k11", "k13", "m11", "m13", "a15"]
    free = pos(x, o)
    free.play("f3")                         # six in a row
    assert free.winner() == 0
    exact = pos(x, o, exact=True)
    exact.play("f3")
    assert not exact.is_terminal()
    assert not exact.py_is_decisive("i3")
    # exactly five still wins under exact
    ex5 = pos(["c3", "d3", "e3", "f3"], ["k11", "k13", "m11", "m13"], exact=True)
    assert ex5.py_is_decisive("g3") and ex5.five_points(0) == ["b3", "g3"]
    # a five-point that would make six is none under exact
    ex = pos(["c3", "d3", "e3", "f3", "h3"], ["k11", "k13", "m11", "m13", "a15"], exact=True)
    assert ex.five_points(0) == ["b3"]


def test_full_board_without_five_is_a_draw():
    rng = random.Random(0)
    for seed in range(200):
        rng.seed(seed)
        s = games.new_state("gomoku(size=7)")
        while not s.is_terminal():
            s.play(rng.choice(s.move_ids()))
        if s.is_draw():
            assert s.winner() is None and s.cells().count(0) == 0
            assert s.evaluation() == 0.0 and s.random_playout_result(1) == 2
            return
    pytest.fail("no drawn 7x7 random game in 200 seeds")


def test_bad_positions_and_moves_are_one_line_errors():
    s = games.new_state("gomoku")
    with pytest.raises(ValueError, match="bad Gomoku move 'p1'"):
        s.parse_move("p1")
    with pytest.raises(ValueError, match="bad Gomoku move 'a16'"):
        s.parse_move("a16")
    s.play("h8")
    with pytest.raises(ValueError, match="illegal move 'h8'"):
        s.play("h8")
    with pytest.raises(ValueError, match="cannot arise"):
        games.new_state("gomoku", board(["a1", "a2"], [], side="o"))
    with pytest.raises(ValueError, match="side to move has already won"):
        games.new_state("gomoku", board(["a1", "a2", "a3", "a4", "a5"],
                                        ["c1", "c2", "c3", "c4", "c6"], side="x"))
    with pytest.raises(ValueError, match="need N rows"):
        games.new_state("gomoku", "xx/oo x")
    with pytest.raises(ValueError, match="5x5|N rows"):
        games.new_state("gomoku(size=7)", "...../...../...../...../..... x")
    with pytest.raises(games.UnknownGameError, match="size=3 out of range: expected 7 to 19"):
        games.new_state("gomoku(size=3)")
    with pytest.raises(games.UnknownGameError, match="unknown parameter 'variant'"):
        games.new_state("gomoku(variant=renju)")


def test_cli_bad_gomoku_input_exits_2_with_one_line():
    r = CliRunner().invoke(main, ["perft", "gomoku(size=3)", "1"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "size=3" in r.output
    r = CliRunner().invoke(main, ["show", "gomoku", "--position", "x.o/... x"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "bad Gomoku position" in r.output
    r = CliRunner().invoke(main, ["perft", "gomoku(exact=2)", "1"])
    assert r.exit_code == 2 and "exact=2 out of range" in r.output


# ---- incremental patterns, search moves -------------------------------------------------------

def test_incremental_patterns_equal_a_rebuild_along_random_games():
    for game in ("gomoku", "gomoku(size=9,exact=1)", "gomoku(size=19,near=1)"):
        for seed in range(6):
            rng = random.Random(seed)
            s = games.new_state(game)
            sums = [s.pattern_sums()]
            while not s.is_terminal():
                s.play(rng.choice(s.search_move_ids()))
                rebuilt = games.new_state(game, s.to_text())
                assert s.pattern_sums() == rebuilt.pattern_sums()
                assert s.evaluation() == rebuilt.evaluation()
                sums.append(s.pattern_sums())
            while s.ply:
                s.undo()
                sums.pop()
                assert s.pattern_sums() == sums[-1]


def test_eval_after_is_the_evaluation_after_the_move():
    for game in ("gomoku", "gomoku(size=9,exact=1)"):
        for seed in range(4):
            rng = random.Random(seed)
            s = games.new_state(game)
            while not s.is_terminal():
                for m in s.search_move_ids()[:12]:
                    want = s.py_eval_after(m)
                    s.play(m)
                    slow = -s.evaluation() if not s.is_terminal() or s.winner() is None \
                        else (1.0 if s.winner() != s.to_move() else -1.0)
                    s.undo()
                    assert want == pytest.approx(slow, abs=1e-12), (s.to_text(), m)
                s.play(rng.choice(s.search_move_ids()))


def test_search_moves_are_the_empty_cells_near_stones():
    for near in (0, 1, 2, 4):
        s = games.new_state(f"gomoku(size=11,near={near})")
        assert s.search_move_ids() == s.move_ids()          # empty board: every cell
        rng = random.Random(near)
        for _ in range(12):
            s.play(rng.choice(s.move_ids()))
        cells = s.cells()
        stones = [(i // 11, i % 11) for i in range(121) if cells[i]]
        want = [i for i in range(121) if not cells[i] and (near == 0 or any(
            max(abs(i // 11 - r), abs(i % 11 - c)) <= near for r, c in stones))]
        assert s.search_move_ids() == want
        assert len(s.move_ids()) == 121 - 12                  # the rules keep every empty cell


def test_pattern_evaluation_orders_the_shapes():
    """Black's shapes, White to move, White's stones far away and the same in every position:
    open four > four > open three > three > open two > nothing, from Black's view."""
    far_o = ["o15", "i15", "o9", "c15"]      # no two of them within one five-cell window

    def black_view(shape, filler):
        return -pos(shape + filler, far_o, side="o").evaluation()

    pads = ["a1", "g1", "m1", "a7", "m7"]     # lone Black stones, one per missing shape stone
    open4 = black_view(["f8", "g8", "h8", "i8"], pads[:1])
    closed4 = -pos(["f8", "g8", "h8", "i8", "a1"], far_o[:3] + ["e8"], side="o").evaluation()
    open3 = black_view(["g8", "h8", "i8"], pads[:2])
    closed3 = -pos(["g8", "h8", "i8", "a1", "g1"], far_o[:3] + ["f8"], side="o").evaluation()
    open2 = black_view(["h8", "i8"], pads[:3])
    nothing = black_view([], pads[:5])
    assert open4 > closed4 > open3 > closed3 > open2 > nothing
    assert open4 == pytest.approx(0.9) and -1 < nothing < 0.1


def test_single_point_score_and_threat_first_order():
    s = pos(["g8", "h8", "i8", "j8", "c3", "d3"], ["g4", "h4", "i4", "a15", "c15", "e15"])
    assert s.py_move_order("f8") == 6 and s.py_move_order("k8") == 6      # five
    # White to move facing Black's open four: blocking a five scores 5, White's own four-makers
    s3 = pos(["g8", "h8", "i8", "j8", "c3"], ["g4", "h4", "i4", "a15"], side="o")
    assert s3.py_move_order("f8") == 5
    assert s3.py_move_order("j4") == 4 and s3.py_move_order("f4") == 4   # open fours
    assert s3.py_move_order("c12") == 0
    assert s3.point_score("j4") > s3.point_score("d4") > s3.point_score("c12")
    assert 0 <= s3.py_move_bias("c12") < s3.py_move_bias("j4") < 1


# ---- urgent moves (heavy playouts, forced actions) --------------------------------------------

def test_urgent_moves_in_priority_order():
    # own five first, even with the opponent's five on the board
    s = pos(["g8", "h8", "i8", "j8", "b2"], ["c3", "c4", "c5", "c6", "m13"], side="x")
    assert s.urgent_move() in ("f8", "k8")
    # no five of our own: block the opponent's
    s = pos(["g8", "h8", "b2", "m2"], ["c3", "c4", "c5", "c6"], side="x")
    assert s.urgent_move() in ("c2", "c7") and s.five_points(1) == ["c2", "c7"]
    # our open four before stopping theirs
    s = pos(["g8", "h8", "i8", "b2"], ["c4", "c5", "c6", "m13"], side="x")
    assert s.urgent_move() in ("f8", "j8")
    # stop the opponent's open four (its open three)
    s = pos(["b2", "m2", "b13"], ["f10", "g10", "h10"], side="x")
    assert s.urgent_move() in ("e10", "i10")
    # nothing urgent
    assert pos(["h8"], [], side="o").urgent_move() is None


def test_heavy_playouts_restore_the_state_and_finish_games():
    s = games.new_state("gomoku", board(["h8", "i9"], ["h9"], side="o"))
    text, h = s.to_text(), s.zobrist()
    results = [s.heavy_playout_result(seed) for seed in range(1, 201)]
    assert s.to_text() == text and s.zobrist() == h
    assert set(results) <= {0, 1, 2} and results.count(2) < 20
    assert results == [s.heavy_playout_result(seed) for seed in range(1, 201)]


# ---- known positions for the players -----------------------------------------------------------

WIN_IN_ONE = board(["g8", "h8", "i8", "j8", "c3"], ["g4", "h4", "i4", "a15", "c15"], side="x")
BLOCK_FOUR = board(["c2", "m2", "h8", "m13"], ["c3", "c4", "c5", "c6"], side="x")
OPEN_THREE = board(["b2", "m2", "b13"], ["f10", "g10", "h10"], side="x")
# Black wins by continuous fours: k4 (four; White must take l4) then k7 (two fours), or k7
# first (White must take j7) then k4; nothing wins sooner (no move makes two five-points now).
VCF = (".............../.............../.......oo....../......oxxx...../..........x..../"
       "..........x..../...........xxxo/..........o..../.............../.............../"
       ".............../.............../.............../.............../o.o...........o x")
# Browne's opponent-model case on 9x9: White threatens five at b7; h5 would give Black four
# five-points (two open fours), so random playouts love it, but White simply wins at b7.
BROWNE = ("o.......o/.x......./.o......./.o......./.o..xxx../.o.....x./.......x./.......x./"
          "o........ x")


def choose(spec, text, game="gomoku", seed=1, **budget):
    s = games.new_state(game, text)
    mv, stats = make(spec, game, seed=seed).choose(s, **budget)
    return s.format_move(mv), stats


@pytest.mark.parametrize("spec,budget", [("MCTS", {"sims": 2000}), ("MCTS(full)", {"sims": 2000}),
                                         ("αβ(efPT,d2)", {"time": 5})])
def test_players_win_in_one_and_block_a_four(spec, budget):
    assert choose(spec, WIN_IN_ONE, **budget)[0] in ("f8", "k8")
    assert choose(spec, BLOCK_FOUR, **budget)[0] == "c7"


@pytest.mark.slow
def test_open_three_defence():
    ends = ("e10", "i10")     # every other move loses within 5 plies (solver: suites/gomoku_tactics.txt)
    assert choose("αβ(efPT,d5)", OPEN_THREE, time=30)[0] in ends
    mv, stats = choose("MCTS(fa)", OPEN_THREE, sims=1000)
    assert mv in ("e10", "i10") and stats.get("forced") and stats["sims"] == 0
    # plain UCT with random playouts needs ~100,000 simulations to see it (20,000: 2 of 4
    # seeds); heavy playouts see it at 10,000
    for seed in (1, 2, 3):
        assert choose("MCTS(heavy)", OPEN_THREE, seed=seed, sims=10000)[0] in ends


@pytest.mark.slow
def test_vcf_found_by_alphabeta_and_proven_by_mcts_solver():
    solver = Prover()
    for first in ("k4", "k7"):               # both proven: the defender loses within 4 plies
        s = games.new_state("gomoku", VCF)
        s.play(first)
        assert solver.prove(s, max_nodes=2_000_000, max_depth=4) == -1
    assert choose("αβ(efPT,d5)", VCF, time=30)[0] in ("k4", "k7")
    mv, stats = choose("MCTS", VCF, sims=100000)
    assert mv in ("k4", "k7") and stats["proven"] == 1


def test_browne_opponent_model_flat_mc_picks_the_losing_move():
    g = "gomoku(size=9)"
    # ground truth: every move but b7 lets White make five at once
    values, _ = Prover().prove_moves(games.new_state(g, BROWNE), max_nodes=1_000_000,
                                     max_depth=2)
    s = games.new_state(g, BROWNE)
    losing = {s.format_move(m) for m, v in values.items() if v == -1}
    assert losing == set(s.moves()) - {"b7"}
    for seed in (1, 2, 3):
        assert choose("FlatMC", BROWNE, g, seed=seed, sims=20000)[0] == "h5"
        assert choose("MCTS", BROWNE, g, seed=seed, sims=2000)[0] == "b7"


# ---- player options ---------------------------------------------------------------------------

def test_fa_npk_npb_tokens():
    from mcts_arena import players
    sp = players.parse("MCTS(np10,npk=2,npb=-0.5,fa)", "gomoku")
    assert sp.canonical == "MCTS(np10,npk=2,npb=-0.5,fa)"
    assert players.parse("MCTS(full)", "gomoku").canonical == "MCTS(full)"
    with pytest.raises(players.SpecError, match="add np"):
        players.parse("MCTS(npk=2)", "gomoku")
    # a sigmoid prior steers the first visits: with a steep k the search of a quiet position
    # still plays, and the prior changes the tree (same seed, different visit counts)
    quiet = board(["h8", "i9"], ["h9"], side="o")
    a = choose("MCTS(np10)", quiet, sims=3000)[1]["children"]
    b = choose("MCTS(np10,npk=20)", quiet, sims=3000)[1]["children"]
    assert [c[1] for c in a] != [c[1] for c in b]
    # fa plays nothing special in a quiet position: a normal search runs
    assert choose("MCTS(fa)", quiet, sims=500)[1]["sims"] == 500


@pytest.mark.parametrize("spec", ["MCTS(im0.4)", "MCTS(heavy,im0.2)", "MCTS(ege0.1)",
                                  "MCTS(fet8)", "MCTS(abp1)", "MCTS(rave500,np5,npk=2,npb=0.1)",
                                  "MCTS(pb5,pu3)", "MCTS(full,im0.2)", "αβ(efPT)", "Greedy"])
def test_every_option_plays_a_whole_game(spec):
    """Each option that applies to Gomoku plays a full 9x9 game against plain MCTS."""
    g = "gomoku(size=9)"
    a, b = make(spec, g, seed=5), make("MCTS", g, seed=6)
    s = games.new_state(g)
    while not s.is_terminal():
        p = a if s.to_move() == 0 else b
        budget = {"sims": 60} if p.spec.kind == "MCTS" else {"time": 0.01}
        mv, _ = p.choose(s.copy(), **budget)
        s.play(mv)
    assert s.is_terminal() and s.ply >= 9
