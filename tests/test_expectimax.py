"""The *-minimax searches (players/search/expectimax.pyx): expectimax, Star1, Star2 and MCMS.

Exactness: Star1's and Star2's pruning (and the transposition table) must not change a
fixed-depth value, so all three agree with expectimax at equal depth on backgammon and Pig
positions; searched to the end, tiny backgammon bear-offs give the winning chances a plain
recursion over every roll computes; Pig endgames give the exact values and moves of the optimal
policy (value iteration, games/pig_solve.pyx).
"""
from __future__ import annotations

import random

import pytest
from mcts_arena.players.search.expectimax import ALGORITHMS, StarSearch

from mcts_arena import games, players
from mcts_arena.errors import SpecError
from mcts_arena.games import pig_solve

ALGOS = (ALGORITHMS["expectimax"], ALGORITHMS["Star1"], ALGORITHMS["Star2"])


def random_decision(game: str, seed: int, steps: int):
    """A decision node after `steps` seeded random steps (dice drawn by their probability)."""
    r = random.Random(seed)
    s = games.new_state(game)
    for _ in range(steps):
        s.play(s.outcome_at(r.random()) if s.is_chance_node() else r.choice(s.move_ids()))
    while s.is_chance_node():
        s.play(s.outcome_at(r.random()))
    assert not s.is_terminal()
    return s


def values(state, depth, use_tt=True):
    return [StarSearch(a, 0, 1, 0, use_tt).value(state, depth) for a in ALGOS]


@pytest.mark.parametrize("seed,steps", [(3, 9), (5, 14)])
def test_pruning_keeps_the_backgammon_value(seed, steps):
    s = random_decision("backgammon", seed, steps)
    for depth in (1, 2):
        for tt in (False, True):
            got = values(s, depth, tt)
            assert got[1][0] == pytest.approx(got[0][0], abs=1e-9)
            assert got[2][0] == pytest.approx(got[0][0], abs=1e-9)
    # Ballard's order at depth 2: Star1 searches fewer nodes than expectimax, Star2 fewer still
    (_, n0), (_, n1), (_, n2) = values(s, 2, False)
    assert n2 < n1 < n0


def test_pruning_keeps_the_pig_value():
    for text in ("0,0 0 0 move 0", "12,15 6 1 move 7", "17,18 0 0 dice 3"):
        s = games.new_state("pig(target=20)", text)
        for depth in range(0, 7):
            for tt in (False, True):
                got = values(s, depth, tt)
                assert got[1][0] == pytest.approx(got[0][0], abs=1e-9), (text, depth)
                assert got[2][0] == pytest.approx(got[0][0], abs=1e-9), (text, depth)


def exact_value(s) -> float:
    """The value for the side to move by a plain recursion over every move and roll (no depth
    limit, no pruning): a second, simple implementation for finite games."""
    if s.is_terminal():
        r = s.final_reward()
        return r if s.to_move() == 0 else -r
    me = s.to_move()
    options = s.outcome_probs() if s.is_chance_node() else [(m, None) for m in s.move_ids()]
    vals = []
    for m, p in options:
        s.play(m)
        v = exact_value(s)
        v = v if s.to_move() == me else -v
        s.undo()
        vals.append(v if p is None else p * v)
    return sum(vals) if s.is_chance_node() else max(vals)


@pytest.mark.parametrize("text", ["3:1,1:1,off:13/2:2,off:13 x - 10",
                                  "4:1,2:1,off:13/5:1,1:1,off:13 o - 20",
                                  "6:1,off:14/2:1,1:1,off:13 x 21 30"])
def test_bearoff_values_are_exact(text):
    s = games.new_state("backgammon", text)
    want = exact_value(s.copy())
    for a in ALGOS:
        v, _ = StarSearch(a, 0, 1).value(s, 12)
        assert v == pytest.approx(want, abs=1e-12)


def test_pig_endgames_against_the_optimal_policy():
    """With both players at 94 or more of 100, depth 8 sees so far that the evaluation at the
    leaves hardly counts: every value is within 0.002 of the exact one (2P - 1) and every move
    is the optimal policy's (measured: the largest difference is 0.0018 over 92..99)."""
    sol = pig_solve.solution(100)
    n = 0
    for i in range(94, 100):
        for j in range(94, 100):
            for k in [0] + list(range(2, 100 - i)):
                s = games.new_state("pig", f"{i},{j} {k} 0 move 0")
                v, _ = StarSearch(2, 0, 1, 0, True, 16).value(s, 8)
                assert abs(v - (2 * sol.win_probability(i, j, k) - 1)) < 0.002
                move, _ = StarSearch(2, 0, 1, 0, True, 16).search(s, depth=8)
                assert move == sol.move(s), (i, j, k)
                n += 1
    assert n == 96          # 36 score pairs, turn totals 0 and 2 up to the target


def test_mcms_samples_outcomes():
    s = random_decision("backgammon", 3, 9)
    exact, _ = StarSearch(2, 0, 1).value(s, 2)
    # c at least the 21 rolls: no chance node is sampled, the value is Star2's
    same, _ = StarSearch(2, 0, 1, 21).value(s, 2)
    assert same == pytest.approx(exact, abs=1e-12)
    # c = 3: a cheaper estimate, repeatable from the seed
    a, na = StarSearch(2, 0, 7, 3).value(s, 2)
    b, nb = StarSearch(2, 0, 7, 3).value(s, 2)
    _, n_full = StarSearch(2, 0, 1, 0).value(s, 2)
    assert (a, na) == (b, nb) and na < n_full / 3
    assert -1.0 <= a <= 1.0


def test_budgets_and_iterative_deepening():
    s = random_decision("backgammon", 5, 14)
    move, st = StarSearch(2, 0, 1).search(s, nodes=20000)
    assert move in s.move_ids() and st["depth"] >= 1 and st["nodes"] <= 20000 + 256
    move2, st2 = StarSearch(2, 0, 1).search(s, nodes=20000)
    assert (move2, st2["nodes"], st2["value"]) == (move, st["nodes"], st["value"])
    _, st3 = StarSearch(2, 0, 1).search(s, depth=1)
    assert st3["depth"] == 1
    with pytest.raises(ValueError, match="budget"):
        StarSearch(2, 0, 1).search(s)
    with pytest.raises(ValueError, match="dice"):
        StarSearch(2, 0, 1).search(games.new_state("backgammon"), depth=1)


@pytest.mark.parametrize("text,canonical", [
    ("Star2(d2)", "Star2(d2)"), ("star1", "Star1"), ("expectimax(efPip,d1)", "expectimax(efPip,d1)"),
    ("MCMS(c3)", "MCMS(c3)"), ("MCMS(c3,star=1)", "MCMS(c3,star=1)"), ("MCMS(star=2)", "MCMS"),
    ("Star2(tt=0,d3)", "Star2(d3,tt=0)"),
])
def test_specs(text, canonical):
    assert players.parse(text, "backgammon").canonical == canonical


@pytest.mark.parametrize("text,msg", [("Star2(c3)", "unknown token 'c3'"),
                                      ("MCMS(c0)", "out of range"),
                                      ("MCMS(star=3)", "out of range"),
                                      ("Star1(im0.4)", "unknown token")])
def test_bad_specs(text, msg):
    with pytest.raises(SpecError, match=msg):
        players.parse(text, "pig")


@pytest.mark.parametrize("text", ["expectimax(d2)", "Star1(d2)", "Star2(d2)", "MCMS(c4,d2)"])
def test_players_play_backgammon_and_pig(text):
    for game, steps in (("backgammon", 9), ("pig", 5)):
        s = random_decision(game, 3, steps)
        p = players.make(text, game, seed=4)
        move, stats = p.choose(s, sims=5000)
        assert move in s.move_ids() and stats["nodes"] > 0
        assert players.make(text, game, seed=4).choose(s, sims=5000)[0] == move
