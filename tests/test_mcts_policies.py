"""The MCTS core's policies and report (players/search/): PUCT as a selection rule, plain
(`puctc`, uniform prior) and with the game's node priors (`puctpc`); the typed SearchStats a
search returns, read as the dict a player's `choose` gives."""
from __future__ import annotations

import pytest
from click.testing import CliRunner
from mcts_arena.players.search.mcts import MCTSSearch

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.players.builtin import mcts_options
from mcts_arena.players.search import mcts_search
from mcts_arena.players.search.searchstats import SearchStats


def _engine(spec: str, game: str, seed: int = 1):
    return mcts_search(mcts_options(players.parse(spec, game)), seed)


def _root_children(eng) -> list[dict]:
    nodes = eng.tree_nodes()
    return [n for n in nodes[nodes[0]["first"]:nodes[0]["first"] + nodes[0]["nactive"]]]


def test_puct_tokens_reach_the_search_as_its_selection_rule():
    assert mcts_options(players.parse("MCTS(puct1.5)", "hex"))["puct"] == 1.5
    opts = mcts_options(players.parse("MCTS(puctp2)", "hex"))
    assert opts["puct"] == 2.0 and opts["prior"] is True
    assert players.parse("MCTS(puct1.5)", "hex").canonical == "MCTS(puct1.5)"


@pytest.mark.parametrize("text, why", [
    ("MCTS(puct1,pb)", "cannot be combined"),
    ("MCTS(puctp1,pu3)", "cannot be combined"),
    ("MCTS(puct1,puctp1)", "cannot be combined"),
])
def test_puct_refuses_the_options_whose_place_its_prior_takes(text, why):
    with pytest.raises(ValueError, match=why):
        players.parse(text, "hex")


def test_puct_with_priors_needs_a_game_with_node_priors_and_open_loop_refuses_puct():
    with pytest.raises(ValueError, match="does not apply to loa"):
        players.parse("MCTS(puctp1)", "loa")
    with pytest.raises(ValueError, match="cannot be combined with puct"):
        players.parse("MCTS(ol,puct1)", "pig")
    with pytest.raises(ValueError, match="open loop does not take"):
        mcts_search({"open_loop": True, "puct": 1.0})
    with pytest.raises(ValueError, match="prior is PUCT's"):
        MCTSSearch({"prior": True})


def test_arena_players_lists_puct_where_the_game_has_priors():
    hex_out = CliRunner().invoke(cli, ["players", "hex"]).output
    loa_out = CliRunner().invoke(cli, ["players", "loa"]).output
    assert "puctc" in hex_out and "puctpc" in hex_out
    assert "puctc" in loa_out and "puctpc" not in loa_out


def test_plain_puct_gives_every_move_the_same_prior():
    eng = _engine("MCTS(puct1.5)", "hex(size=5)")
    eng.search(games.new_state("hex(size=5)"), sims=200)
    kids = _root_children(eng)
    assert len(kids) == 25 and all(k["bias"] == pytest.approx(1 / 25) for k in kids)
    assert all(k["visits"] > 0 for k in kids) and sum(k["visits"] for k in kids) == 200


@pytest.mark.parametrize("game", ["hex(size=5)", "gomoku(size=9)"])
def test_puct_with_the_games_priors_takes_them_normalised(game):
    s = games.new_state(game)
    s.play(s.move_ids()[len(s.move_ids()) // 2])
    eng = _engine("MCTS(puctp1)", game, seed=3)
    eng.search(s, sims=100)
    kids = _root_children(eng)
    total = sum(s.py_move_prior(k["move"]) for k in kids)
    assert len({round(k["bias"], 6) for k in kids}) > 1
    for k in kids:
        assert k["bias"] == pytest.approx(s.py_move_prior(k["move"]) / total, rel=1e-5)


def test_puct_stops_a_win_in_one_and_is_seeded():
    s = games.new_state("tictactoe")
    for m in ("a1", "b1", "c3", "b2"):
        s.play(s.parse_move(m))
    for spec in ("MCTS(puct1.5)", "MCTS(puct0.5,im0.4)"):
        a = players.make(spec, "tictactoe", seed=7).choose(s, sims=300)
        b = players.make(spec, "tictactoe", seed=7).choose(s, sims=300)
        assert s.format_move(a[0]) == "b3" and a[0] == b[0]
        assert a[1]["sims"] > 0 and a[1]["children"] == b[1]["children"]


def test_a_search_reports_a_typed_searchstats_read_as_the_players_dict():
    s = games.new_state("breakthrough")
    eng = MCTSSearch({"C": 0.8}, 1)
    move, st = eng.search(s, sims=100, checkpoints=[10, 100])
    assert isinstance(st, SearchStats)
    assert st.sims == 100 and st["sims"] == 100 and st.value == st["value"]
    assert [c[:2] for c in st.trace] == [(10, st.trace[0][1]), (100, move)]
    assert set(st) == {"sims", "nodes", "playout_plies", "depth", "time", "proven",
                       "pool_full", "children", "value", "trace"}
    assert "settled" not in st and "forced" not in st and st.get("forced") is None
    _, d = players.make("MCTS", "breakthrough", seed=1).choose(s, sims=50)
    assert type(d) is dict and "value" in d and "trace" not in d


def test_a_forced_move_reports_no_value():
    st = SearchStats.forced_move(4, [5, 10])
    assert dict(st) == {"sims": 0, "nodes": 0, "playout_plies": 0, "depth": 0, "time": 0.0,
                        "proven": 0, "pool_full": False, "children": [], "forced": True,
                        "trace": [(5, 4, 0.0), (10, 4, 0.0)]}
