"""MCTS with explicit chance nodes (players/search/mcts.pyx): a chance node's children are its
outcomes, selection samples them by probability, playouts roll the dice by probability, the
implicit minimax value of a chance node is the expectation of its outcomes' and it is proven
only when every outcome is proven the same way."""
from __future__ import annotations

import pytest
from mcts_arena.players.search.mcts import MCTSSearch

from mcts_arena import games, players
from mcts_arena.errors import SpecError
from mcts_arena.games import pig_solve
from mcts_arena.players.builtin import mcts_options


def search(spec: str, game: str, text: str, sims: int, seed: int = 1):
    s = games.new_state(game, text)
    move, stats = MCTSSearch(mcts_options(players.parse(spec, game)), seed).search(s, sims=sims)
    return s, move, stats


def test_a_loss_is_proven_through_the_dice():
    """x cannot bear off both checkers with 21; o then bears off its last checker with any
    roll: every outcome of o's chance node is proven, so every x move is a proven loss."""
    s, move, st = search("MCTS", "backgammon", "6:1,5:1,off:13/1:1,off:14 x 21 10", 5000)
    assert st["proven"] == -1
    assert all(c[4] == -1 for c in st["children"])


def test_implicit_minimax_backs_up_the_expectation():
    """A bear-off small enough for the tree to hold it whole: each move's implicit value is
    the exact expectation over o's rolls and x's replies (-5/18 for both, computed by the
    plain recursion of test_expectimax.exact_value)."""
    _, _, st = search("MCTS(im0.3)", "backgammon", "4:1,2:1,off:13/5:1,1:1,off:13 o 31 20",
                      20000)
    assert len(st["children"]) == 2
    for c in st["children"]:
        assert c[1] > 1000 and c[3] == pytest.approx(-5 / 18, abs=1e-5)


@pytest.mark.parametrize("spec", ["MCTS", "MCTS(im0.3)", "MCTS(fet20)", "FlatMC",
                                  "MCTS(mb100,exp1)", "MCTS(ol)", "MCTS(ol,im0.3)"])
def test_pig_endgames_against_the_optimal_policy(spec):
    """Both players at 94 or more of 100: 3,000 simulations choose the optimal policy's move
    in all 96 positions (turn totals 0 and 2 up to the target), closed loop and open loop
    (MCTS(ol): test_mcts_open_loop.py) alike."""
    sol = pig_solve.solution(100)
    for i in range(94, 100, 2):
        for j in range(94, 100, 2):
            for k in [0] + list(range(2, 100 - i)):
                s = games.new_state("pig", f"{i},{j} {k} 0 move 0")
                move, _ = players.make(spec, "pig", seed=1).choose(s, sims=3000)
                assert move == sol.move(s), (spec, i, j, k)


def test_seeded_and_repeatable_in_backgammon():
    text = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 1"
    _, m1, st1 = search("MCTS(im0.3)", "backgammon", text, 2000, seed=9)
    _, m2, st2 = search("MCTS(im0.3)", "backgammon", text, 2000, seed=9)
    assert m1 == m2 and st1["children"] == st2["children"]
    assert sum(c[1] for c in st1["children"]) == 2000


def test_options_at_chance_nodes():
    """αβ playouts (abp) would search without chance nodes: neither game of dice declares
    the option, so it is refused in one line; the others keep working."""
    with pytest.raises(SpecError, match="token 'abp2' in 'MCTS.abp2.' does not apply to pig"):
        players.parse("MCTS(abp2)", "pig")
    assert players.parse("MCTS(im0.3,ege0.1)", "pig").canonical == "MCTS(ege0.1,im0.3)"
