"""The solver's sibling check (`sfx`, the authors' engine's `solverFix`): where the solver
proves a child lost for its mover, each sibling not yet expanded nor proven is proven at once
where the side to move after it wins in one ply. Two Breakthrough positions where every white
move but the captures of a black piece on the second rank lets black win at once."""
from __future__ import annotations

import pytest
from mcts_arena.games.breakthrough import Breakthrough

from mcts_arena import players

# white to move; the black piece on b2 wins next move unless a1 or c1 takes it
ONE_THREAT = "bbbbbbbb/......../......../......../......../......../.b....ww/w.wwwwww w"
# two black pieces on the second rank, b2 and f2, and no white move takes both: white is lost
TWO_THREATS = "bbbbbbbb/......../......../......../......../......../.b...b.w/w.www.ww w"


def root_children(search):
    nodes = search.tree_nodes()
    root = nodes[0]
    return root, nodes[root["first"]:root["first"] + root["nchild"]]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("base", ["MCTS(ipp)", "MCTS(efLH,ipp,fet20,np10)"])
def test_a_lost_position_is_proven_after_one_expansion(base, seed):
    """Without the check each of the n moves is proven lost only when it is expanded, on its
    second visit: the root is proven after 2n simulations. With it, the first proof proves
    every other move one ply deep: n + 1 simulations, the other moves never expanded."""
    found = {}
    for spec in (base, base[:-1] + ",sfx)"):
        s = Breakthrough.from_text(TWO_THREATS)
        p = players.make(spec, "breakthrough", seed=seed)
        _move, stats = p.search.search(s, sims=500)
        root, kids = root_children(p.search)
        assert root["proven"] == 1                  # black, who moved into the root, wins
        assert all(k["proven"] == -1 for k in kids)
        found[spec] = (stats.sims, sum(1 for k in kids if k["first"] < 0), len(kids))
    (plain, plain_unexpanded, n), (sfx, sfx_unexpanded, _) = found.values()
    assert plain == 2 * n and plain_unexpanded == 0, found
    assert sfx == n + 1 and sfx_unexpanded == n - 1, found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_moves_that_leave_a_win_in_one_are_proven_and_the_captures_are_not(seed):
    """bl' from ONE_THREAT, 60 simulations: with the check every white move but a1xb2 and
    c1xb2 is proven lost, most of them never expanded; the captures stay open."""
    s = Breakthrough.from_text(ONE_THREAT)
    p = players.make("MCTS(efLH,ipp,fet20,np10,sfx)", "breakthrough", seed=seed)
    move, _stats = p.search.search(s, sims=60)
    _root, kids = root_children(p.search)
    open_moves = {s.format_move(k["move"]) for k in kids if k["proven"] == 0}
    assert open_moves == {"a1xb2", "c1xb2"}
    assert s.format_move(move) in open_moves
    assert sum(1 for k in kids if k["first"] < 0 and k["proven"] == -1) >= len(kids) - 4


def test_sfx_is_a_flag_of_its_own():
    spec = players.parse("MCTS(bl',sfx)", "breakthrough")
    assert "sfx" in spec.canonical
    assert players.parse(spec.canonical, "breakthrough") == spec
