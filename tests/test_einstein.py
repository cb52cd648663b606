"""EinStein würfelt nicht! (games/einstein.pyx): exact against OpenSpiel's
`einstein_wurfelt_nicht` (an oracle written by others) in mirrored random games, its text form's
refusals, and the searches of chance nodes playing it.

Mirrored games (80): both engines play the same game (the same arrangements, dice and moves, chosen
at random from fixed seeds); at every decision the legal moves are the same list in the same
order (ours mapped to OpenSpiel's action numbers) and write the same way, and both games end
at the same ply with the same winner. The conformance harness (test_game_conformance.py) adds
perft against the second generator in reference_games.py, the round trips and the drawing.
"""
import random

import pytest

from mcts_arena import games, players
from mcts_arena.errors import PositionError

DIE, SETUP = 100, 1000          # einstein.pyx's outcome ids: DIE + face, SETUP + rank


def os_action(s, move: int) -> int:
    """OpenSpiel's action number of our cube move `move` at our state s: its mixed-base rank
    of (row, column, direction 0-5, capture)."""
    cell, o = divmod(move, 3)
    p = s.to_move()
    steps = (((1, 1), (1, 0), (0, 1)), ((-1, 0), (-1, -1), (0, -1)))[p]
    to = cell + steps[o][0] * 5 + steps[o][1]
    capture = 1 if s.cells()[to] else 0
    return ((cell // 5 * 5 + cell % 5) * 6 + p * 3 + o) * 2 + capture


def test_mirrored_random_games_equal_openspiel():
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install open_spiel; make test does)")
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    wins = [0, 0]
    decisions = 0
    for seed in range(80):
        rng = random.Random(seed)
        os_s, ours = game.new_initial_state(), games.new_state("einstein")
        while not os_s.is_terminal():
            assert not ours.is_terminal()
            assert os_s.is_chance_node() == ours.is_chance_node()
            if os_s.is_chance_node():
                outcomes = os_s.chance_outcomes()
                probs = ours.outcome_probs()
                assert len(outcomes) == len(probs)
                assert [p for _, p in probs] == pytest.approx([p for _, p in outcomes])
                a = rng.randrange(len(outcomes))
                mine = SETUP + a if len(outcomes) == 720 else DIE + a + 1
                assert mine in [m for m, _ in probs]
            else:
                assert os_s.current_player() == ours.to_move()
                mapped = [os_action(ours, m) for m in ours.move_ids()]
                assert mapped == os_s.legal_actions(), ours.to_text()
                assert [ours.format_move(m) for m in ours.move_ids()] == \
                    [os_s.action_to_string(os_s.current_player(), a)
                     for a in os_s.legal_actions()]
                i = rng.randrange(len(mapped))
                a, mine = mapped[i], ours.move_ids()[i]
                decisions += 1
            os_s.apply_action(a)
            ours.play(mine)
        assert ours.is_terminal()
        w = ours.winner()
        assert os_s.returns() == ([1.0, -1.0] if w == 0 else [-1.0, 1.0])
        wins[w] += 1
    assert decisions > 80 * 10 and min(wins) > 10      # real games, both sides winning


@pytest.mark.parametrize("text, why", [
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5b6 w roll -", "twice"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5x6 w roll -", "is not --"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5w6 w move 7", "die '7' is not 1-6"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5w6 w move -", "die '-' is not 1-6"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5w6 w roll 3", "shown only"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5 w roll -", "five rows"),
    ("b1b2b3----/b4b5------/--b6------/----------/---------- w setup -", "black's six cubes"),
    ("----------/----------/------b1--/----------/---------- b setup -", "empty"),
    ("w1--------/----------/----------/----------/--------b1 w roll -", "both sides"),
    ("w1--------/b2--------/----------/----------/------w4-- b move 2", "game is over"),
    ("b1b2b3----/b4b5------/b6------w1/------w2w3/----w4w5w6 x roll -", "side must be"),
])
def test_bad_position_text_is_one_line(text, why):
    with pytest.raises(PositionError, match=why) as err:
        games.new_state("einstein", text)
    assert "\n" not in str(err.value)


def test_rules_at_set_positions():
    # white to move with a 4, its cube 4 gone: its cubes 3 and 5 may move (cell order)
    s = games.new_state("einstein",
                        "b1b2b3----/b4b5------/b6------w1/------w2w3/------w5w6 w move 4")
    assert s.moves() == ["W3-up*", "W3-diag", "W3-left*", "W5-up*", "W5-diag", "W5-left"]
    # black's cube 6 steps onto the white cube at (3, 3)... from (2, 2) diagonally: a capture
    s = games.new_state("einstein",
                        "b1b2b3----/b4b5------/----b6--w1/------w2w3/----w4w5w6 b move 6")
    assert s.moves() == ["B6-diag*", "B6-down", "B6-right"]
    s.play("B6-diag*")
    assert "w2" not in s.to_text() and s.to_text().endswith(" w roll -")
    # reaching the far corner wins; so does taking the last cube
    s = games.new_state("einstein", "----------/----------/----------/------b1--/--------w1 "
                        "b move 1")
    s.play("B1-diag*")
    assert s.is_terminal() and s.winner() == 0
    s = games.new_state("einstein", "----------/----------/----------/------b1--/--------w2 "
                        "b move 5")
    s.play("B1-down")
    assert not s.is_terminal()
    # the evaluation is the same position seen from the other side, negated
    a = games.new_state("einstein", "b1b2------/b4b5------/b6------w1/------w2w3/----w4w5w6 "
                        "w roll -")
    assert 0 < a.evaluation() < 1       # white to roll, a cube up (black lost b3)
    b = games.new_state("einstein", "b1b2------/b4b5------/b6------w1/------w2w3/----w4w5w6 "
                        "b roll -")
    assert b.evaluation() == pytest.approx(-a.evaluation())


@pytest.mark.parametrize("spec", ["MCTS", "MCTS(ol)", "MCTS(ol,im0.3)", "expectimax(d2)",
                                  "Star2(d2)", "MCMS(c3,d2)"])
def test_searches_take_the_win_in_one(spec):
    # white to move with a 2: W2 steps diagonally onto (0, 0) and wins; every search sees it
    text = "b1--b3----/b4w2b5----/b6------w1/------b2w3/----w4w5w6 w move 2"
    s = games.new_state("einstein", text)
    assert s.moves() == ["W2-up", "W2-diag*", "W2-left*"]
    p = players.make(players.parse(spec, "einstein"), seed=3)
    move, _ = p.choose(s, None, 2000)
    assert s.format_move(move) == "W2-diag*"
