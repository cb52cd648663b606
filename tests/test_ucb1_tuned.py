"""UCB1-Tuned as MCTS's selection rule (`MCTS(tuned)`, players/search/selection.pxd): the token
and its refusals, the rule on a bandit worked by hand, the sums of squared rewards it keeps
beside the pool, and a search that plays, is seeded and differs from UCT's."""
from __future__ import annotations

import math
import re

import pytest
from click.testing import CliRunner
from mcts_arena.players.search.bandits import bandit_choice
from mcts_arena.players.search.mcts import NODE_BYTES, MCTSSearch

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.players.builtin import mcts_options
from mcts_arena.players.search import mcts_search


def _engine(spec: str, game: str, seed: int = 1):
    return mcts_search(mcts_options(players.parse(spec, game)), seed)


def test_the_token_reaches_the_search_and_prints_in_the_canonical_order():
    spec = players.parse("MCTS(tuned,im0.4,PB)", "hex")
    assert spec.canonical == "MCTS(PB,im0.4,tuned)"
    assert mcts_options(spec)["tuned"] is True
    assert players.parse("MCTS(bl,tuned)", "breakthrough").canonical == "MCTS(bl,tuned)"
    assert "tuned" in CliRunner().invoke(cli, ["players", "hex"]).output


@pytest.mark.parametrize("text, game, why", [
    ("MCTS(tuned,puct1)", "hex", "tokens tuned and puct in 'MCTS(tuned,puct1)' cannot be "
                                 "combined"),
    ("MCTS(puctp1,tuned)", "hex", "tokens tuned and puctp in"),
    ("MCTS(ol,tuned)", "pig", "token 'ol' in 'MCTS(ol,tuned)' cannot be combined with tuned"),
])
def test_it_is_refused_beside_another_rule_and_in_open_loop(text, game, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        players.parse(text, game)


def test_the_search_refuses_it_beside_puct_and_in_open_loop():
    with pytest.raises(ValueError, match="tuned is UCT's exploration term"):
        MCTSSearch({"puct": 1.0, "tuned": True})
    with pytest.raises(ValueError, match="open loop does not take .*tuned"):
        mcts_search({"open_loop": True, "tuned": True})


def test_on_a_bandit_it_stops_exploring_a_move_whose_rewards_do_not_spread():
    # arm 0: 2,000 draws (mean 0, no spread); arm 1: 8,000 games won 51%, lost 49% (mean 0.02,
    # variance 1 - 0.02^2); N = 10,000, ln N = 9.2103. UCT at C = 1:
    #   arm 0: 0 + sqrt(9.2103 / 2000) = 0.0679;  arm 1: 0.02 + sqrt(9.2103 / 8000) = 0.0539
    # UCB1-Tuned: arm 0's V = 0 + 4 sqrt(2 x 9.2103 / 2000) = 0.3839, so its term is
    #   sqrt(9.2103 / 2000 x 0.3839) = 0.0420 < 0.0539; arm 1's V is over 1, its term UCT's
    arms = [(2000, 0.0, 0.0), (8000, 160.0, 8000.0)]
    assert bandit_choice(arms) == 0
    assert bandit_choice(arms, tuned=True) == 1
    # where every arm's rewards spread fully, the terms are UCT's and so is the choice
    wide = [(2000, 0.0, 2000.0), (8000, 160.0, 8000.0)]
    assert bandit_choice(wide, tuned=True) == bandit_choice(wide) == 0
    # at C = 0 both rules are the greedy mean
    assert bandit_choice(arms, C=0.0, tuned=True) == bandit_choice(arms, C=0.0) == 1
    assert math.isclose(math.sqrt(math.log(10000) / 2000 * min(
        1, 4 * math.sqrt(2 * math.log(10000) / 2000))), 0.0420, abs_tol=1e-4)


def test_every_node_keeps_the_sum_of_its_rewards_squares():
    # Hex has no draws and plain playouts end the game: every reward is +-1, so the sum of
    # squares is the visit count
    eng = _engine("MCTS(tuned)", "hex(size=5)")
    eng.search(games.new_state("hex(size=5)"), sims=400)
    nodes = eng.tree_nodes()
    assert nodes[0]["visits"] == 400 and all(n["sq"] == n["visits"] for n in nodes)
    # fixed early termination: rewards are evaluations inside [-1, 1], so w^2 / n <= sq <= n
    # (Cauchy-Schwarz), and some are fractions
    eng = _engine("MCTS(fet4,tuned)", "breakthrough")
    eng.search(games.new_state("breakthrough"), sims=400)
    visited = [n for n in eng.tree_nodes() if n["visits"] > 0]
    assert all(n["wins"] ** 2 / n["visits"] <= n["sq"] + 1e-9 and n["sq"] <= n["visits"] + 1e-9
               for n in visited)
    assert any(n["sq"] != int(n["sq"]) for n in visited)


def test_node_priors_virtual_visits_count_as_rewards_of_their_mean():
    eng = _engine("MCTS(tuned)", "hex(size=5)")
    eng.search(games.new_state("hex(size=5)"), sims=200, np_visits=10)
    fresh = [n for n in eng.tree_nodes()[1:] if n["visits"] == 10]
    assert fresh and all(n["sq"] == pytest.approx(n["wins"] ** 2 / 10) for n in fresh)


def test_it_plays_is_seeded_and_searches_otherwise_than_uct():
    # its term leaves UCT's only once a child has more than 32 ln N visits (below that V's
    # own allowance, 4 sqrt(2 ln N / n), is over 1): seven moves and 2,000 simulations are
    # past it, where the draws of a centre opening keep the rewards' spread low
    s = games.new_state("tictactoe")
    for m in ("b2", "a1"):
        s.play(s.parse_move(m))
    a = players.make("MCTS(tuned)", "tictactoe", seed=5).choose(s, sims=2000)
    b = players.make("MCTS(tuned)", "tictactoe", seed=5).choose(s, sims=2000)
    u = players.make("MCTS", "tictactoe", seed=5).choose(s, sims=2000)
    assert a[0] == b[0] and a[1]["children"] == b[1]["children"] and a[1]["sims"] == 2000
    assert [c[1] for c in a[1]["children"]] != [c[1] for c in u[1]["children"]]
    # a win in one is taken, a loss in one stopped
    for moves, answer in ((("a1", "b1", "a2", "b2"), "a3"), (("a1", "b1", "c3", "b2"), "b3")):
        s = games.new_state("tictactoe")
        for m in moves:
            s.play(s.parse_move(m))
        move, _ = players.make("MCTS(tuned)", "tictactoe", seed=2).choose(s, sims=500)
        assert s.format_move(move) == answer


def test_only_the_tuned_search_pays_for_the_squares():
    assert MCTSSearch({}).bytes_per_node == NODE_BYTES
    assert MCTSSearch({"puct": 1.0}).bytes_per_node == NODE_BYTES
    assert MCTSSearch({"tuned": True}).bytes_per_node == NODE_BYTES + 8
    eng = _engine("MCTS", "tictactoe")
    eng.search(games.new_state("tictactoe"), sims=20)
    assert "sq" not in eng.tree_nodes()[0]


def test_it_searches_a_game_of_dice_closed_loop():
    # Pig's rewards are +-1 (a playout ends the game): the squares count the visits at the
    # decision nodes and at the chance nodes between them
    s = games.new_state("pig")
    eng = _engine("MCTS(tuned)", "pig", seed=4)
    move, st = eng.search(s, sims=500)
    nodes = eng.tree_nodes()
    assert st.sims == 500 and move in s.move_ids()
    assert len(nodes) > 20 and all(n["sq"] == n["visits"] for n in nodes)
