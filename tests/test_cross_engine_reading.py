"""The cross-engine page's reading: the authors' engine playing itself stands for the paper's
players (its rows judged against the paper's Table 4), ours against theirs has no paper row
(judged against 50%), and a built-in player keeps its own spec whatever entry its rate came
from."""
from mcts_arena.paper import paper_kinds
from mcts_arena.report.record_model import _paper_for


def row(player, opponent, rate_p, rate_o):
    return {"game": "breakthrough", "player": player, "opponent": opponent,
            "player_budget": {"effort": 0.1, "rate_of": rate_p, "sims": 1},
            "opponent_budget": {"effort": 0.1, "rate_of": rate_o, "sims": 1}}


def test_the_authors_engine_against_itself_is_the_paper_s_table_4_row():
    r = row("gameframe(mcts_s_h_efv0_ege0.1_det0.5_im0.4)", "gameframe(ab_ev0)",
            "MCTS(bl,im0.4)", "αβ(efMS,tt=0)")
    found = _paper_for(r, 1.0)
    assert found is not None and found.table == "Table 4"
    assert (found.player, found.opponent) == ("MCTS(bl,im0.4)", "αβ(efMS)")


def test_ours_against_theirs_has_no_paper_row():
    assert _paper_for(row("MCTS(bl)", "gameframe(mcts_s_h_efv0_ege0.1_det0.5)", "MCTS(bl)",
                          "MCTS(bl)"), 1.0) is None
    assert _paper_for(row("αβ(efMS,tt=0,hh=0)", "gameframe(ab_ev0)", "αβ(efMS,tt=0)",
                          "αβ(efMS,tt=0)"), 1.0) is None


def test_a_built_in_player_keeps_its_own_spec_whatever_entry_it_borrows():
    """MCTS(bl,im0.6) plays on MCTS(bl,im0.4)'s entry (α does not count): it is not read as
    the paper's im0.4 row."""
    assert {"MCTS", "αβ"} <= paper_kinds()
    r = row("MCTS(bl,im0.6)", "αβ(efMS)", "MCTS(bl,im0.4)", "αβ(efMS)")
    found = _paper_for(r, 1.0)
    assert found is None or found.player == "MCTS(bl,im0.6)"
