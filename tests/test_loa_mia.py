"""The MIA-like αβ's switches: pvs, qs, nm, etc, lmr. Off, they are today's αβ node
for node (tests/test_loa_identity.py checks its digests); each changes the search when on; PVS
alone keeps the minimax value; the LOA hooks they use (captures, the pass) follow the rules."""
import pytest
from helpers import positions_with_a_win_in_one

from mcts_arena import games, players
from mcts_arena.players import parse

MIA = "αβ(efWB,pvs=1,qs=2,nm=1,etc=1,lmr=1)"


def openings(count):
    path = games.__file__.replace("__init__.py", "data/loa_openings.txt")
    with open(path) as f:
        return [games.new_state("loa", line.strip()) for line in f.read().splitlines()[:count]]


def test_switches_off_are_todays_alphabeta():
    spec = parse("αβ(efWB,pvs=0,qs=0,nm=0,etc=0,lmr=0)", "loa")
    assert spec.canonical == "αβ(efWB)"
    assert parse("ab(lmr=1,qs=2,pvs=1,etc=1,nm=1)", "loa").canonical == MIA
    s = games.new_state("loa")
    a = players.make("αβ(efWB)", "loa", seed=4).search.search(s, depth=4)
    b = players.make("αβ(efWB,pvs=0,qs=0)", "loa", seed=4).search.search(s, depth=4)
    assert a[0] == b[0] and a[1]["nodes"] == b[1]["nodes"]


def test_pvs_keeps_the_minimax_value():
    # without a table (tt=0, hh=0) both searches compute the exact depth-3 minimax value
    for s in openings(6):
        plain = players.make("αβ(efWB,tt=0,hh=0)", "loa", seed=2).search.search(s, depth=3)
        pvs = players.make("αβ(efWB,tt=0,hh=0,pvs=1)", "loa", seed=2).search.search(s, depth=3)
        assert pvs[1]["value"] == pytest.approx(plain[1]["value"], abs=1e-9)
        assert pvs[1]["nodes"] != plain[1]["nodes"] or pvs[0] == plain[0]


@pytest.mark.parametrize("switch,fewer", [("nm=1", True), ("lmr=1", True), ("etc=1", True),
                                          ("qs=2", False)])
def test_each_switch_changes_the_search(switch, fewer):
    s = games.new_state("loa")
    base = players.make("αβ(efWB,pvs=1)", "loa", seed=1).search.search(s, depth=5)[1]
    on = players.make(f"αβ(efWB,pvs=1,{switch})", "loa", seed=1).search.search(s, depth=5)[1]
    assert on["depth"] == 5
    assert (on["nodes"] < base["nodes"]) if fewer else (on["nodes"] > base["nodes"])
    if switch == "qs=2":
        assert on["seldepth"] > 5          # captures searched past the horizon


def test_tactical_moves_are_the_captures():
    for s in openings(10):
        opp = s.bitboards()[1 - s.player]
        captures = [m for m in s.move_ids() if (opp >> (m >> 6)) & 1]
        assert s.py_tactical_moves() == captures


def test_null_move_is_a_pass_and_refused_where_unsound():
    s = openings(1)[0]
    text, key, player = s.to_text(), s.zobrist(), s.player
    assert s.py_do_null()
    assert s.player == 1 - player and s.zobrist() != key
    s.py_undo_null()
    assert (s.to_text(), s.zobrist(), s.player) == (text, key, player)
    # four pieces to move: a blockade may leave only bad moves (zugzwang), no pass there
    few = games.new_state("loa", "b......./......../......../........"
                                 "/......../......../w.w.w.../b..b.b.. w")
    assert sum(bin(b).count("1") for b in [few.bitboards()[few.player]]) == 3
    assert not few.py_do_null()
    # other games never pass
    assert not games.new_state("breakthrough").py_do_null()


def test_mia_alphabeta_takes_a_win_in_one():
    for state, wins in positions_with_a_win_in_one():
        move, _ = players.make(MIA, "loa", seed=1).choose(state, sims=3000)
        assert state.format_move(move) in wins
