"""LOA search options: αβ playouts, early cut-off, progressive bias, αβ player."""

import pytest
from helpers import positions_with_a_win_in_one

from mcts_arena import games, players


@pytest.mark.parametrize("spec", ["αβ(efWB)", "MCTS(ipp,det0.5)", "MCTS(ipp,abp2,det0.5)",
                                  "MCTS(ipp,PB,det0.5)", "MCTS(ipp,abp2,PB,im0.2)"])
def test_takes_a_win_in_one(spec):
    for state, wins in positions_with_a_win_in_one():
        move, _ = players.make(spec, "loa", seed=1).choose(state, sims=300)
        assert state.format_move(move) in wins, spec


def test_abp_playouts_are_deterministic_and_cut_off():
    s = games.new_state("loa")
    a = players.make("MCTS(ipp,abp2,det0.5)", "loa", seed=9).choose(s, sims=60)
    b = players.make("MCTS(ipp,abp2,det0.5)", "loa", seed=9).choose(s, sims=60)
    assert a[0] == b[0] and a[1]["nodes"] == b[1]["nodes"]
    # det cuts LOA playouts far below a random game's ~190 plies
    assert a[1]["playout_plies"] / a[1]["sims"] < 100


def test_abp_width_changes_the_search():
    from mcts_arena.players.search.mcts import MCTSSearch

    s = games.new_state("loa")
    narrow = MCTSSearch({"abp": 2, "abw": 2, "evalfn": 4, "fet": 3}, 1)
    full = MCTSSearch({"abp": 2, "abw": 0, "evalfn": 4, "fet": 3}, 1)
    r1, m1 = narrow.playout_once(s)
    r2, m2 = full.playout_once(s)
    assert len(m1) == len(m2) == 3
    for m in m1 + m2:
        assert isinstance(m, int)


def test_alphabeta_loa_iterative_deepening():
    s = games.new_state("loa")
    move, stats = players.make("αβ(efWB)", "loa", seed=1).choose(s, sims=20000)
    assert move in s.move_ids() and stats["depth"] >= 2 and stats["nodes"] >= 20000
