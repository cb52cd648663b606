"""Backgammon: every rule on hand-made positions, the opening roll, scoring, the notation (as
written and as read), the text form and its validation, the evaluation's sign and ordering."""
import pytest
from mcts_arena.games.backgammon import START_TEXT, Backgammon

from mcts_arena import games


def pos(text, game="backgammon"):
    return games.new_state(game, text)


def turns(s):
    return sorted(s.moves())


def after(s, move):
    c = s.copy()
    c.play(move)
    return c.to_text()


def test_start_and_opening_roll():
    s = games.new_state("backgammon")
    assert s.to_text() == START_TEXT and s.is_chance_node() and not s.is_terminal()
    probs = {s.format_move(m): p for m, p in s.outcome_probs()}
    assert len(probs) == 30 and all(p == pytest.approx(1 / 30) for p in probs.values())
    assert "x31" in probs and "o31" in probs and "x33" not in probs     # no doubles
    s.play("o61")
    assert s.to_text() == "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 o 61 0"
    assert s.to_move() == 1 and s.dice() == (6, 1) and not s.is_chance_node()
    assert "13/7 8/7" in s.moves() and len(s.moves()) == s.perft(1)
    s.play("13/7 8/7")
    assert s.is_chance_node() and s.to_move() == 0 and s.turns_played() == 1
    probs = dict(s.outcome_probs())
    assert len(probs) == 21
    assert probs[s.parse_move("66")] == pytest.approx(1 / 36)
    assert probs[s.parse_move("21")] == pytest.approx(2 / 36)


def test_hit_and_enter_from_the_bar():
    # o has a blot on its 7-point, which is x's 18: moves that miss it leave it there
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,7:1,6:4 x 21 0")
    assert after(s, "13/11 6/5") == "24:2,13:4,11:1,8:3,6:4,5:1/24:2,13:5,8:3,7:1,6:4 o - 1"
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,7:1,6:4 x 64 0")
    # 24/18 lands on o's blot on its 7-point (x's 18): a hit, to the bar
    assert after(s, "24/18* 13/9") == \
        "24:1,18:1,13:4,9:1,8:3,6:5/bar:1,24:2,13:5,8:3,6:4 o - 1"
    s = pos("24:1,18:1,13:4,9:1,8:3,6:5/bar:1,24:2,13:5,8:3,6:4 o 64 1")
    # o must enter first: with the 4 (bar/21; its 19-point, x's 6, is closed to the 6)
    assert sorted(s.moves()) == ["bar/21 13/7*", "bar/21 21/15", "bar/21 24/18",
                                 "bar/21 8/2"]


def test_closed_board_means_pass_and_partial_entry():
    board = "6:2,5:2,4:2,3:2,2:2,13:5"
    s = pos(f"bar:2,13:4,8:3,6:4,5:2/{board} x 66 30")
    assert s.moves() == ["pass"]                    # x's 19-24 are o's 6-1: closed
    s.play("pass")
    assert s.to_move() == 1 and s.is_chance_node()
    s = pos("bar:2,13:4,8:3,6:4,5:2/6:2,5:2,4:2,3:2,2:2,13:4,8:1 x 61 30")
    # o's 1-point (x's 24) is open: one checker enters with the 1, the other stays out,
    # so the 6 cannot be played
    assert s.moves() == ["bar/24"]


def test_both_dice_must_be_used_and_the_larger_alone():
    # only the 1 can be used (every 6 is blocked, before and after a 1)
    s = pos("24:2,8:3,6:5,5:5/24:2,23:2,7:2,2:3,off:6 x 61 12")
    assert turns(s) == ["5/4", "6/5", "8/7"]
    # the 6 or the 5 but not both: the larger
    s = pos("24:1,1:14/12:2,3:5,2:5,off:3 x 65 40")
    assert s.moves() == ["24/18"]
    # both can be used only in one order: 5 first (24/19/13 is blocked at 18)
    s = pos("24:1,1:14/12:1,7:2,3:5,2:5,off:2 x 65 40")
    assert s.moves() == ["24/19 19/13*"]


def test_doubles_move_four_times_or_as_often_as_they_can():
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 66 3")
    assert "24/18(2) 13/7(2)" in s.moves()
    assert all(sum(int(p[p.index("(") + 1]) if "(" in p else 1 for p in m.split()) == 4
               for m in s.moves())
    # 6-6 with o holding x's 18: the back checkers cannot move, the 13s can: 13/7(4) etc.
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,7:2,6:3 x 66 3")
    assert "24/18" not in " ".join(s.moves())
    # only two sixes can be played in total
    s = pos("24:2,14:1,1:12/7:2,6:5,5:5,4:3 x 66 40")
    assert turns(s) == ["14/8 8/2"]


def test_bearing_off():
    s = pos("6:2,5:3,3:4,1:2,off:4/6:3,4:4,2:3,off:5 x 64 80")
    assert "6/off 4/off" not in s.moves()          # no checker on 4
    assert "6/2 6/off" in s.moves() and "6/off(2)" not in s.moves()
    # a larger number than the highest point bears off from it
    s = pos("3:2,1:1,off:12/6:3,4:4,2:3,off:5 x 65 80")
    assert turns(s) == ["3/off(2)"]
    # not all home: no bearing off until the 6 brings the last checker home
    s = pos("7:1,6:2,1:1,off:11/6:3,4:4,2:3,off:5 x 61 80")
    assert sorted(s.moves()) == ["7/1 1/off", "7/1 6/5"]


def test_winning_gammon_backgammon_and_scoring():
    text = "20:3,18:2,bar:1,13:9/1:1,off:14 o 11 55"
    for scoring, points, reward in ((1, 1, -1.0), (2, 2, -1.0), (3, 3, -1.0)):
        s = pos(text, f"backgammon(scoring={scoring})")
        s.play("1/off")
        assert s.winner() == 1 and s.points() == points
        assert s.final_reward() == pytest.approx(reward)
        assert s.evaluation() == pytest.approx(reward)      # x, the loser, is to move next
    # a gammon without a backgammon: x has no checker on the bar or in o's home board
    s = pos("12:5,13:10/1:1,off:14 o 11 55", "backgammon(scoring=3)")
    s.play("1/off")
    assert s.points() == 2 and s.final_reward() == pytest.approx(-2 / 3)
    # a single game: x has borne off one
    s = pos("12:5,13:9,off:1/1:1,off:14 o 11 55", "backgammon(scoring=3)")
    s.play("1/off")
    assert s.points() == 1 and s.final_reward() == pytest.approx(-1 / 3)
    assert s.reward(1) == 1 and s.reward(0) == -1


def test_max_turns_draw():
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 21 10", "backgammon(max_turns=10)")
    s.play(s.moves()[0])
    assert s.is_terminal() and s.is_draw() and s.points() == 0 and s.final_reward() == 0
    assert games.new_state("backgammon(max_turns=10)", "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 "
                           "o - 10").is_chance_node()


def test_notation_read_in_many_spellings():
    # o has a blot on x's 18 and x's 19 open: 24/13 with 6-5 can hit on the way or not
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,7:1,5:4 x 65 0")
    hit = s.parse_move("24/18* 18/13")
    assert s.format_move(hit) == "24/18* 18/13"
    for spelling in ("24/18*/13", "24/18* 18/13", "18/13 24/18*", "24/18*,18/13"):
        assert s.parse_move(spelling) == hit
    # unmarked, a hit is not made
    assert s.format_move(s.parse_move("24/13")) == "24/19 19/13"
    assert s.parse_move("24/19/13") == s.parse_move("24/13")
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 33 0")
    assert s.format_move(s.parse_move("8/5(2) 6/3(2)")) == "8/5(2) 6/3(2)"
    assert s.parse_move("8/5 8/5 6/3 6/3") == s.parse_move("8/5(2) 6/3(2)")
    assert s.parse_move("13/7(2)") == s.parse_move("13/10/7(2)") == \
        s.parse_move("13/10(2) 10/7(2)")
    for move in s.moves():
        assert s.format_move(s.parse_move(move)) == move


@pytest.mark.parametrize("text,move,problem", [
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "8/4 6/5",
     "illegal backgammon move '8/4 6/5' with 31; legal: 24/23 24/21, "),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "8/5", "(16 in all)"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "9/6 6/5", "moves more checkers"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "5/8", "a checker moves down"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "8/5 6/x", "'x' is not a point"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0", "eight", "expected moves like 8/5"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 - - 0", "8/5 6/5", "no side is to move with dice"),
])
def test_bad_moves_are_one_line_errors(text, move, problem):
    s = pos(text)
    with pytest.raises(ValueError) as e:
        s.play(move)
    assert problem in str(e.value) and "\n" not in str(e.value)


def test_a_roll_the_dice_do_not_allow():
    s = pos("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 0")
    with pytest.raises(ValueError, match=r"illegal backgammon move '13/7' with 31"):
        s.parse_move("13/7")
    with pytest.raises(ValueError, match="illegal move '31' in this position; legal: 24/23"):
        s.play("31")                    # dice are not the player's move


@pytest.mark.parametrize("text,problem", [
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:4 x 31 0", "o has 14 checkers, expected 15"),
    ("24:2,13:5,8:3,6:6/24:2,13:5,8:3,6:5 x 31 0", "x has 16 checkers, expected 15"),
    ("24:2,13:5,8:3,5:5/24:2,13:5,8:3,20:5 x 31 0", "x and o both have checkers on x's point 5"),
    ("24:2,13:5,8:3,6:5 x 31 0", "expected 'X/O side dice turns'"),
    ("24:2,13:5,8:3,26:5/24:2,13:5,8:3,6:5 x 31 0", "x's point '26' is not 1-24, bar or off"),
    ("24:2,13:5,8:3,8:5/24:2,13:5,8:3,6:5 x 31 0", "x's point 8 is listed twice"),
    ("24:2,13:5,8:3,6/24:2,13:5,8:3,6:5 x 31 0", "is not point:count"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 y 31 0", "side must be x, o or -"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 71 0", "dice must be - or two numbers 1-6"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 - 31 0", "at the opening roll (side -)"),
    ("off:15/off:15 x - 9", "both sides have borne off every checker"),
    ("off:15/24:15 o 31 9", "the game is over, so no dice"),
    ("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 502", "turns must be 0 to 501"),
])
def test_bad_positions_are_one_line_errors(text, problem):
    with pytest.raises(ValueError) as e:
        pos(text)
    assert problem in str(e.value) and "\n" not in str(e.value)


def test_text_round_trip_and_board():
    for text in (START_TEXT, "bar:2,13:4,8:3,6:4,5:2/13:4,8:2,6:2,5:2,4:1,3:2,2:2 x 44 30",
                 "off:15/bar:1,24:2,13:12 o - 77"):
        s = pos(text)
        assert s.to_text() == text
        assert Backgammon.from_text(text).zobrist() == s.zobrist() == s.hash_from_scratch()
    s = pos("off:15/bar:1,24:2,13:12 o - 77", "backgammon(scoring=3)")
    assert s.winner() == 0 and s.points() == 3 and "x has won (backgammon)" in str(s)


# ---- evaluation --------------------------------------------------------------------------------

def mirrored(text):
    """The same position with the colours swapped (x's checkers become o's)."""
    sides, side, dice, turns = text.split()
    x, o = sides.split("/")
    return f"{o}/{x} {dict(x='o', o='x').get(side, side)} {dice} {turns}"


POSITIONS = [
    "24:2,13:5,8:3,6:5/24:2,13:4,8:2,7:1,6:5,5:1 x - 2",
    "bar:1,22:1,13:4,8:4,6:5/24:2,21:1,13:4,8:1,7:1,6:5,5:1 x - 4",
    "6:2,5:3,3:4,1:2,off:4/6:3,4:4,2:3,off:5 o - 80",
    "18:2,13:3,10:1,8:3,6:4,2:2/bar:2,24:4,13:3,8:1,6:5 x 63 10",
]


@pytest.mark.parametrize("ef", ["efBG", "efPip"])
def test_evaluation_is_colour_blind_and_inside(ef):
    for text in POSITIONS:
        a, b = pos(text), pos(mirrored(text))
        assert a.evaluation(ef) == pytest.approx(b.evaluation(ef), abs=1e-12)
        assert -1.0 < a.evaluation(ef) < 1.0


def test_race_follows_the_kleinman_count():
    s = pos("6:5,5:5,4:3,3:2,off:0/6:5,5:5,4:5,off:0 x - 50")
    x, o = s.pip_counts()
    assert (x, o) == (73, 75) and not s.is_contact()
    w = (s.evaluation() + 1) / 2
    z = 0.706 * (o - x + 4) / (o + x - 4) ** 0.5
    from math import erf
    assert w == pytest.approx(0.5 * (1 + erf(z / 2 ** 0.5)), abs=1e-5)
    # more pips behind is worse, monotone, and a race evaluation is the same for both evals
    vals = [pos(f"6:{n},5:{15 - n}/6:8,5:7 x - 50").evaluation() for n in range(0, 16, 3)]
    assert vals == sorted(vals, reverse=True)
    assert s.evaluation("efBG") == s.evaluation("efPip")


def test_features_count_what_they_say():
    # x: bar 1, blots on 24 and 9, points 8, 6, 5; o: anchor on its 23, blots on 7 and 3
    s = pos("bar:1,24:1,13:3,9:1,8:3,6:4,5:2/23:2,13:4,8:2,7:1,6:3,5:2,3:1 x - 20")
    assert s.pip_counts() == (155, 152)
    assert s.features() == pytest.approx([
        1.0,        # on roll
        -0.03,      # pips: (152 - 155) / 100
        0,          # home points: 6, 5 against 6, 5
        0,          # longest prime: 2 (6-5) each
        -1,         # anchors: none against o's 23-point
        0,          # exposed blots: 2 (24 and 9) against 2 (o's 7 and 3, open to x's bar)
        1,          # bar: 1 against 0
        0,          # borne off
        0])         # back checkers: 24 and the bar against o's two on its 23


def test_contact_features_push_the_right_way():
    base = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x - 2"
    assert pos(base).evaluation() > 0           # being on roll is worth something
    better = {
        # 31 played 8/5 6/5 (a home point) against 6/5 6/3 (two blots), same pips
        "24:2,13:5,8:2,6:4,5:2/24:2,13:5,8:3,6:5 x - 2":
            "24:2,13:5,8:3,6:3,5:1,3:1/24:2,13:5,8:3,6:5 x - 2",
        # o on the bar against not
        "24:2,13:5,8:3,6:5/bar:1,24:1,13:5,8:3,6:5 x - 2": base,
        # the 7-point made against a blot there, although the blot position has a pip less
        "24:2,13:3,8:4,7:2,6:4/24:2,13:5,8:3,6:5 x - 2":
            "24:2,13:3,8:4,7:1,6:5/24:2,13:5,8:3,6:5 x - 2",
    }
    for good, bad in better.items():
        assert pos(good).evaluation() > pos(bad).evaluation(), (good, bad)
    # a checker borne off against one on the 1-point (contact: o's checkers are back)
    assert pos("6:3,4:4,2:3,off:5/22:2,13:5,8:3,6:5 x - 60").evaluation() > \
        pos("6:3,4:4,2:3,1:1,off:4/22:2,13:5,8:3,6:5 x - 60").evaluation()


def test_opening_evaluates_to_zero_and_greedy_play_uses_the_evaluation():
    s = games.new_state("backgammon")
    assert s.evaluation() == 0.0 and s.evaluation("efPip") == 0.0
    s.play("x31")
    assert s.format_move(s.py_best_successor("efBG")) == "8/5 6/5"     # makes the 5-point
