"""The Gumbel root (players/search/gumbel.pxd), a root policy of the MCTS core: Sequential
Halving's schedule worked by hand on bandits, the best arm found, the search seeded, the
options it refuses, time budgets, and a game of every registered game."""
from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import one_game
from mcts_arena.players.search.bandits import gumbel_bandit
from mcts_arena.players.search.mcts import MCTSSearch

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.players.builtin import mcts_options
from mcts_arena.players.search import mcts_search

VALUES = [0.9, -0.5, 0.2, 0.5, 0.0, 0.1, -0.2, 0.3]


def _engine(spec: str, game: str = "breakthrough", seed: int = 1):
    return mcts_search(mcts_options(players.parse(spec, game)), seed)


def _root_visits(eng) -> list[int]:
    nodes = eng.tree_nodes()
    first, n = nodes[0]["first"], nodes[0]["nchild"]
    return [c["visits"] for c in nodes[first:first + n]]


def test_sequential_halving_by_hand_m4_n16():
    # noise i for arm i, uniform priors: the 4 survivors are 7, 6, 5, 4 (best first); 2 phases
    # (ceil log2 4); phase 0 gives each 16 // (2 x 4) = 2 pulls (8 in all). Then q = 0.3, -0.2,
    # 0.1, 0.0 rescale over the root's least (-0.2) and greatest (0.3; an unpulled arm's mixed
    # value 8 x 0.05 / 9 lies between) to 1, 0, 0.6, 0.4, times c_visit + max N = 52: scores
    # 7 + 52, 6 + 0, 5 + 31.2, 4 + 20.8, so 7 and 5 stay and get 16 // (2 x 2) = 4 pulls each
    choice, rounds, pulls = gumbel_bandit(VALUES, 4, 16, noise=list(range(8)))
    assert rounds == [[7, 6, 5, 4], [7, 5]]
    assert pulls == [0, 0, 0, 0, 2, 6, 2, 6]
    assert choice == 7


def test_sequential_halving_by_hand_m8_n100_spends_what_the_phases_leave_on_the_last_two():
    # equal scores keep the arms' order; 3 phases: 100 // 24 = 4 pulls for each of 8 (32),
    # 100 // 12 = 8 for the best 4 by q (0, 3, 7, 2: 32), 100 // 6 = 16 for 0 and 3 (32); the 4
    # left go to the last two, as mctx's schedule does
    choice, rounds, pulls = gumbel_bandit(VALUES, 8, 100, noise=[0.0] * 8)
    assert rounds == [list(range(8)), [0, 3, 7, 2], [0, 3], [0, 3]]
    assert pulls == [30, 4, 12, 30, 4, 4, 4, 12]
    assert choice == 0


def test_the_noise_and_the_logits_weigh_against_sigma_q_by_c_visit_and_c_scale():
    # sigma(q) all but gone: the survivors and the choice are the best by noise alone
    choice, rounds, _ = gumbel_bandit(VALUES, 4, 16, noise=list(range(8)), c_visit=0.0,
                                      c_scale=0.001)
    assert rounds == [[7, 6, 5, 4], [7, 6]] and choice == 7
    # with no noise the logits (log of the priors) pick the m survivors
    _, rounds, pulls = gumbel_bandit([0.0] * 4, 2, 8, noise=[0.0] * 4,
                                     priors=[0.1, 0.4, 0.2, 0.3])
    assert rounds[0] == [1, 3] and pulls == [0, 4, 0, 4]


def test_a_noisy_bandit_s_best_arm_is_found():
    values = [0.6, 0.2, 0.0, -0.2, 0.3, -0.4, 0.1, 0.4, -0.1, 0.2]
    found = sum(gumbel_bandit(values, 10, 400, noisy=True, seed=s)[0] == 0 for s in range(40))
    assert found >= 36, found


def test_a_search_is_repeated_by_its_seed():
    s = games.new_state("breakthrough")
    one = [_engine("MCTS(bl,gumbel)", seed=7).search(s, sims=300) for _ in range(2)]
    assert one[0][0] == one[1][0]
    assert dict(one[0][1])["children"] == dict(one[1][1])["children"]
    other = _engine("MCTS(bl,gumbel)", seed=8)
    other.search(s, sims=300)
    assert _root_visits(other) != [c[1] for c in dict(one[0][1])["children"]]


def test_the_search_follows_the_schedule_and_below_the_root_the_selection_rule():
    eng = _engine("MCTS(gumbel8)")
    _, stats = eng.search(games.new_state("breakthrough"), sims=600)
    visits = sorted(_root_visits(eng), reverse=True)
    # 3 phases: 25 each for 8, + 50 for 4, + 100 for 2, the 0 left over: 175, 175, 75 x 2, 25 x 4
    assert visits[:8] == [175, 175, 75, 75, 25, 25, 25, 25]
    assert sum(v > 0 for v in visits) == 8
    assert stats["depth"] >= 3          # UCT grew the tree below the survivors


@pytest.mark.slow
def test_a_time_budget_halves_by_shares_of_the_time():
    eng = _engine("MCTS(gumbel4)")
    move, stats = eng.search(games.new_state("breakthrough"), seconds=0.2)
    visits = sorted(_root_visits(eng), reverse=True)
    assert sum(v > 0 for v in visits) == 4
    # the last two survivors had the last phase's half of the time besides
    assert visits[1] > visits[2] and stats["sims"] == sum(visits)


@pytest.mark.slow
def test_the_gumbel_root_plays_a_game_of_every_game():
    for game in games.names():
        r = one_game("MCTS(gumbel4)", budget=(("sims", 24),), opp="MCTS", game=game)
        assert r.error is None and r.winner in (0, 1, None), (game, r.error)


def test_tokens_canonical_and_engine_options():
    assert players.parse("MCTS(gumbel16)", "breakthrough").canonical == "MCTS(gumbel)"
    assert players.parse("MCTS(gumbel8,cvisit=50,cscale=1)", "hex").canonical == \
        "MCTS(gumbel8)"
    opts = mcts_options(players.parse("MCTS(gumbel,cvisit=10,cscale=0.5,puct1)", "hex"))
    assert (opts["gumbel"], opts["gumbel_cv"], opts["gumbel_cs"], opts["puct"]) == \
        (16, 10.0, 0.5, 1.0)


@pytest.mark.parametrize("text, game, why", [
    ("MCTS(gumbel,exp1)", "breakthrough", "cannot be combined with exp: its Sequential"),
    ("MCTS(gumbel,np)", "breakthrough", "cannot be combined with np: node priors'"),
    ("MCTS(gumbel,stop=0.5)", "breakthrough", "cannot be combined with stop: its schedule"),
    ("MCTS(ol,gumbel)", "pig", "cannot be combined with gumbelM: its root's moves"),
    ("MCTS(cvisit=10)", "breakthrough", "add gumbel"),
    ("MCTS(gumbel1)", "breakthrough", "gumbel"),
])
def test_the_spec_refuses_what_breaks_the_schedule(text, game, why):
    with pytest.raises(ValueError, match=why):
        players.parse(text, game)


def test_the_search_refuses_them_too():
    with pytest.raises(ValueError, match="must be 2 to"):
        MCTSSearch({"gumbel": 1})
    with pytest.raises(ValueError, match="does not take ol, exp1 or stop"):
        MCTSSearch({"gumbel": 16, "exp1": True})
    with pytest.raises(ValueError, match="virtual visits"):
        MCTSSearch({"gumbel": 16}).search(games.new_state("breakthrough"), sims=10,
                                          np_visits=5)


def test_a_refusal_is_one_line_and_status_2():
    r = CliRunner().invoke(cli, ["play", "breakthrough", "MCTS(gumbel,exp1)", "MCTS",
                                 "--sims", "10"])
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and r.output.startswith("arena: error: ")


def test_arena_players_lists_it():
    out = CliRunner().invoke(cli, ["players", "breakthrough"]).output
    assert "gumbelM" in out and "cvisit=c" in out and "cscale=c" in out


def test_a_trace_searches_each_budget_afresh():
    # the schedule is planned on the budget, so a longer search's prefix is not the shorter
    # search: `arena solve`'s trace runs one search per checkpoint
    s = games.new_state("breakthrough")
    trace = players.make("MCTS(bl,gumbel4)", "breakthrough", seed=3).trace(s, [64, 16])
    fresh = players.make("MCTS(bl,gumbel4)", "breakthrough", seed=3).search
    assert [(b, m) for b, m, _ in trace] == [(b, fresh.search(s, sims=b)[0]) for b in (16, 64)]
