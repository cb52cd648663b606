"""Pig: the rules on hand-made positions, the text form, the notation, the evaluation, and the
exact solution (value iteration) against an independent computation and the published 0.5306."""
import random

import pytest
from mcts_arena.games.pig import Pig
from mcts_arena.games.pig_solve import MAX_SOLVE_TARGET, solution, solve

from mcts_arena import games


def test_start_and_moves():
    s = games.new_state("pig")
    assert s.to_text() == "0,0 0 0 move 0"
    assert s.moves() == ["roll", "stop"] and not s.is_chance_node()
    s.play("roll")
    assert s.is_chance_node() and s.to_move() == 0
    assert s.moves() == ["1", "2", "3", "4", "5", "6"]
    assert s.outcome_probs() == [(m, pytest.approx(1 / 6)) for m in s.move_ids()]
    with pytest.raises(ValueError, match="illegal move 'roll'"):
        s.play("roll")                      # the die is rolled now, not the player's choice


# (position before, move, position after, winner after: None = going on, 0/1, "draw")
RULES = [
    ("a roll of 2-6 adds to the turn total", "10,20 4 0 dice 7", "5", "10,20 9 0 move 7", None),
    ("a 1 loses the turn total, the turn passes", "10,20 9 0 dice 7", "1", "10,20 0 1 move 7",
     None),
    ("stop banks the turn total", "10,20 9 0 move 7", "stop", "19,20 0 1 move 8", None),
    ("roll counts a decision", "10,20 9 1 move 7", "roll", "10,20 9 1 dice 8", None),
    ("stop at the target wins", "95,20 6 0 move 7", "stop", "101,20 0 1 move 8", 0),
    ("a stop at 0 passes", "10,20 0 1 move 7", "stop", "10,20 0 0 move 8", None),
    # the 1,000th decision ends the game drawn, even a roll (OpenSpiel's horizon)
    ("horizon", "10,20 4 0 move 999", "roll", "10,20 4 0 dice 1000", "draw"),
    ("a win on the last decision is a win", "95,20 6 0 move 999", "stop",
     "101,20 0 1 move 1000", 0),
]


@pytest.mark.parametrize("name,before,move,after,result", RULES, ids=[r[0] for r in RULES])
def test_rule(name, before, move, after, result):
    s = games.new_state("pig", before)
    assert s.to_text() == before
    h0 = s.zobrist()
    s.play(move)
    assert s.to_text() == after
    assert s.zobrist() == s.hash_from_scratch()
    assert s.zobrist() == games.new_state("pig", after).zobrist()
    if result is None:
        assert not s.is_terminal()
    elif result == "draw":
        assert s.is_draw() and s.moves() == [] and not s.is_chance_node()
    else:
        assert s.winner() == result
    s.undo()
    assert s.to_text() == before and s.zobrist() == h0


def test_at_the_target_only_stop():
    s = games.new_state("pig", "90,20 10 0 move 7")
    assert s.moves() == ["stop"]
    s = games.new_state("pig(target=50)", "40,20 9 0 move 7")
    assert s.moves() == ["roll", "stop"]
    s = games.new_state("pig(target=50)", "40,20 10 0 move 7")
    assert s.moves() == ["stop"]


def test_parameters():
    s = games.new_state("pig(target=20,sides=2,horizon=50)")
    assert (s.target, s.sides, s.horizon, s.max_outcomes) == (20, 2, 50, 2)
    s.play("roll")
    assert s.moves() == ["1", "2"]
    c = s.copy()
    assert (c.target, c.sides, c.horizon) == (20, 2, 50)
    with pytest.raises(games.UnknownGameError, match=r"^pig parameter target=0 out of range: "
                       r"expected 1 to 1000$"):
        games.new_state("pig(target=0)")
    with pytest.raises(ValueError, match="pig parameter sides=1 out of range"):
        Pig(sides=1)


@pytest.mark.parametrize("text,problem", [
    ("0,0 0 0 move", "expected 'score0,score1 turn_total side move|dice decisions'"),
    ("0,0 0 2 move 0", "side to move must be 0 or 1"),
    ("0,0 0 0 wait 0", "phase must be 'move' or 'dice'"),
    ("0,-1 0 0 move 0", "non-negative integers"),
    ("0,0 1 0 move 0", "a turn total of 1 cannot happen"),
    ("100,100 0 0 move 0", "both players have reached the target 100"),
    ("100,10 5 1 move 9", "the game is over"),
    ("200,10 0 1 move 9", "score of player 0 200 is more than 105"),
    ("95,10 5 0 dice 9", "at the target a player must stop"),
    ("50,10 60 0 move 9", "score plus its turn total is more than 105"),
    ("5,10 0 0 move 1001", "1001 decisions is more than the horizon 1000"),
])
def test_bad_positions_are_one_line_errors(text, problem):
    with pytest.raises(ValueError) as e:
        games.new_state("pig", text)
    assert problem in str(e.value) and "\n" not in str(e.value)


def test_notation():
    s = games.new_state("pig(sides=20)")
    for m in s.move_ids():
        assert s.parse_move(s.format_move(m)) == m
    assert s.parse_move("ROLL") == s.parse_move("roll")
    assert s.format_move(s.parse_move("20")) == "20"
    for bad in ("0", "21", "hold", ""):
        with pytest.raises(ValueError, match="bad Pig move"):
            s.parse_move(bad)


def test_evaluation_is_the_race_to_the_target():
    assert games.new_state("pig", "40,20 10 0 move 5").evaluation() == pytest.approx(0.3)
    assert games.new_state("pig", "40,20 10 1 move 5").evaluation() == pytest.approx(-0.1)
    # the roller's view at a chance node too; clipped to [-1, 1] past the target
    assert games.new_state("pig", "40,20 10 0 dice 5").evaluation() == pytest.approx(0.3)
    assert games.new_state("pig", "99,0 6 0 move 5").evaluation() == 1.0
    # more banked or on the turn is better, more for the other side worse
    e = [games.new_state("pig", t).evaluation() for t in
         ("30,50 0 0 move 5", "30,50 6 0 move 5", "40,50 6 0 move 5", "40,60 6 0 move 5")]
    assert e[0] < e[1] < e[2] and e[3] < e[2]


# ---- the exact solution ---------------------------------------------------------------------

def _reference_values(target, sides, sweeps=20000):
    """P(i, j, k) for every state by plain value iteration over all states at once (Jacobi
    sweeps to convergence), a second computation independent of pig_solve's order."""
    P = {(i, j, k): 0.5 for i in range(target) for j in range(target)
         for k in range(target - i)}

    def get(i, j, k):
        return 1.0 if i + k >= target else P[(i, j, k)]
    for _ in range(sweeps):
        new = {}
        for (i, j, k) in P:
            stop = 1.0 - get(j, i + k, 0) if i + k < target else 1.0
            roll = (1.0 - get(j, i, 0) + sum(get(i, j, k + f) for f in range(2, sides + 1))) \
                / sides
            new[(i, j, k)] = max(roll, stop)
        delta = max(abs(new[s] - P[s]) for s in P)
        P = new
        if delta < 1e-13:
            return P
    raise AssertionError("the reference iteration did not converge")


@pytest.mark.parametrize("target,sides", [(1, 6), (2, 2), (5, 3), (8, 6), (10, 4)])
def test_small_targets_match_plain_value_iteration(target, sides):
    sol = solve(target, sides)
    ref = _reference_values(target, sides)
    for (i, j, k), v in ref.items():
        assert sol.win_probability(i, j, k) == pytest.approx(v, abs=1e-9), (i, j, k)


def test_target_1_closed_form():
    # roll: 5/6 win at once, 1/6 hand the same position to the other: P = 5/6 + (1 - P)/6
    assert solve(1).first_player_win() == pytest.approx(6 / 7, abs=1e-12)


def test_neller_presser_0_5306():
    sol = solve(100, 6)
    assert round(sol.first_player_win(), 4) == 0.5306
    # the policy's shape as the paper shows it: roll to about 20 at the start, hold sooner
    # when ahead, roll on when far behind
    assert sol.hold_at(0, 0) == 21
    assert sol.hold_at(50, 0) < sol.hold_at(0, 0) < sol.hold_at(0, 80)
    assert not sol.should_roll(0, 0, 25) and sol.should_roll(0, 0, 10)
    assert "0.530593" in sol.summary()


def test_the_policy_wins_as_often_as_solved():
    """Both players by the solved policy in the real game (pig.pyx's rules): the first wins
    as often as P(0, 0, 0) says (10,000 games, fixed seed, within 4 standard errors)."""
    target = 10
    sol = solve(target, 6)
    rng = random.Random(3)
    wins, n = 0, 10000
    for _ in range(n):
        s = games.new_state(f"pig(target={target})")
        while not s.is_terminal():
            if s.is_chance_node():
                s.play(s.outcome_at(rng.random()))
                continue
            (s0, s1), k, p = s.scores(), s.turn_total(), s.to_move()
            i, j = (s0, s1) if p == 0 else (s1, s0)
            m = sol.move(s)
            assert s.format_move(m) == ("roll" if sol.should_roll(i, j, k) else "stop")
            s.play(m)
        wins += s.winner() == 0
    p = sol.first_player_win()
    assert abs(wins / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_solution_is_cached_and_checks_its_game():
    assert solution(12) is solution(12) and solution(12) is not solution(12, 5)
    with pytest.raises(ValueError, match=r"this solution is for pig\(target=12, sides=6\)"):
        solution(12).move(games.new_state("pig(target=13)"))
    s = games.new_state("pig(target=12)")
    s.play("roll")
    with pytest.raises(ValueError, match="no move to choose"):
        solution(12).move(s)


def test_solver_limits_are_one_line_errors():
    with pytest.raises(ValueError, match=rf"targets 1 to {MAX_SOLVE_TARGET}"):
        solve(MAX_SOLVE_TARGET + 1)
    with pytest.raises(ValueError, match="2 to 20 sides"):
        solve(10, 1)
    with pytest.raises(ValueError, match=r"no Pig state \(10, 0, 0\) below target 10"):
        solve(10).win_probability(10, 0, 0)
