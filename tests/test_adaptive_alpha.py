"""α adapted online: per move (`ima`, players/adaptive.py) and per simulation (`imas`,
search/alphaarms.pxd). The bandits' arithmetic on sequences worked by hand, the α the searches
are given, fixed-seed reproducibility (a game alone, and a run's games under one worker and
two), and the refusals."""
from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from helpers import play_into
from mcts_arena.players.search.alphaarms import arms_choice
from mcts_arena.players.search.mcts import MCTSSearch

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.players.adaptive import ARMS, AlphaBandit
from mcts_arena.players.builtin import mcts_options
from mcts_arena.players.spec import SpecError, describe_tokens, parse
from mcts_arena.results.export import records
from mcts_arena.results.store import Store


def test_the_bandit_on_a_sequence_worked_by_hand():
    b = AlphaBandit(seed=0, order=[2, 0, 3, 1])
    chosen = []

    def move(value):
        arm = b.choose()
        chosen.append(arm)
        b.record(arm, value)

    move(0.10)       # arm 2 (untried, first in order); its reward waits for the next value
    move(0.30)       # arm 0; arm 2 gets (0.30 - 0.10) / 2 = 0.10
    move(None)       # arm 3 for a move searched with no simulation: not played
    move(-0.10)      # arm 3 again; arm 0 gets (-0.10 - 0.30) / 2 = -0.20
    move(0.50)       # arm 1; arm 3 gets (0.50 + 0.10) / 2 = 0.30
    assert chosen == [2, 0, 3, 3, 1]
    assert b.plays == [1, 1, 1, 1] and b.rewarded == [1, 0, 1, 1]
    # every arm played once, N = 4: the same bonus sqrt(ln 4) for all, the means decide:
    # arm 3 (0.30) above arm 2 (0.10), arm 1 (0: no reward yet) and arm 0 (-0.20)
    move(0.40)       # arm 3; arm 1 gets (0.40 - 0.50) / 2 = -0.05
    # N = 5: arm 2: 0.10 + sqrt(ln 5) = 1.3686; arm 1: -0.05 + sqrt(ln 5) = 1.2186;
    # arm 3: 0.30 + sqrt(ln 5 / 2) = 1.1971; arm 0: -0.20 + sqrt(ln 5) = 1.0686
    assert b.choose() == 2
    assert chosen == [2, 0, 3, 3, 1, 3]
    assert b.plays == [1, 1, 1, 2] and b.rewarded == [1, 1, 1, 1]
    assert b.total == pytest.approx([-0.20, -0.05, 0.10, 0.30], abs=1e-12)
    assert b.pending == (3, 0.40)
    index = {a: b.mean(a) + math.sqrt(math.log(5) / b.plays[a]) for a in range(4)}
    assert index == pytest.approx({0: 1.0686, 1: 1.2186, 2: 1.3686, 3: 1.1971}, abs=1e-4)


def test_ties_go_to_the_first_arm_in_order_and_the_order_is_the_seeds():
    b = AlphaBandit(seed=0, order=[1, 3, 0, 2])
    for value in (0.0, 0.0, 0.0, 0.0, 0.0):       # every reward 0: every index equal
        b.record(b.choose(), value)
    assert b.plays == [1, 2, 1, 1]                 # arm 1, first in order, took the tie
    assert AlphaBandit(7).order == AlphaBandit(7).order
    assert {tuple(AlphaBandit(s).order) for s in range(20)} != {(0, 1, 2, 3)}
    with pytest.raises(ValueError):
        AlphaBandit(0, order=[0, 0, 1, 2])


def test_each_move_is_searched_with_the_bandits_alpha():
    """The first move of MCTS(bl,ima) is MCTS(bl,imα)'s with the same seed at the bandit's first
    α; over a game the player's α and values are the bandit's arms and rewards."""
    s = games.new_state("breakthrough")
    p = players.make("MCTS(bl,ima)", game="breakthrough", seed=11)
    first = p.bandit.arms[p.bandit.choose()]
    move, stats = p.choose(s, sims=300)
    assert stats["alpha"] == first
    fixed = players.make(f"MCTS(bl,im{first})", game="breakthrough", seed=11)
    move2, stats2 = fixed.choose(s, sims=300)
    assert (move, stats["children"]) == (move2, stats2["children"])

    # a game against Random: replaying the player's own (α, value) of each move through a
    # fresh bandit gives the player's bandit, so those numbers are what it learnt from
    p = players.make("MCTS(bl,ima)", game="breakthrough", seed=12)
    other = players.make("Random", game="breakthrough", seed=3)
    seen = []
    while not s.is_terminal():
        mover = p if s.to_move() == 0 else other
        m, st = mover.choose(s, sims=200)
        if mover is p:
            seen.append((st["alpha"], st.get("value") if st["sims"] > 0 else None))
        s.play(m)
    again = AlphaBandit(0, order=p.bandit.order)
    for alpha, value in seen:
        arm = again.choose()
        assert ARMS[arm] == alpha
        again.record(arm, value)
    assert (again.plays, again.total) == (p.bandit.plays, p.bandit.total)
    assert sum(p.bandit.plays) >= 4


def test_the_simulation_bandit_on_arms_worked_by_hand():
    # 11 simulations: 0.333 + sqrt(ln 11 / 3) = 1.227, -0.5 + sqrt(ln 11 / 2) = 0.595,
    # 0.4 + sqrt(ln 11 / 5) = 1.093, 0 + sqrt(ln 11) = 1.549: the last
    assert arms_choice([(3, 1.0), (2, -1.0), (5, 2.0), (1, 0.0)]) == 3
    # c = 0.1: 0.333 + 0.089 = 0.423, -0.5 + 0.110 = -0.390, 0.4 + 0.069 = 0.469,
    # 0 + 0.155 = 0.155: the third (the best mean wins once exploration weighs little)
    assert arms_choice([(3, 1.0), (2, -1.0), (5, 2.0), (1, 0.0)], c=0.1) == 2
    assert arms_choice([(2, 1.0), (0, 0.0), (0, 0.0)]) == 1         # untried, lowest first
    assert arms_choice([(4, 0.0), (4, 0.0)]) == 0                   # ties to the lower index


def test_the_simulations_play_each_sides_arm_and_count_the_searchs_simulations():
    """One arm is a fixed α: the search is im's at that α; with several, each side's counts
    add up to the search's simulations (every search starts its bandits afresh)."""
    s = games.new_state("breakthrough")
    opts = mcts_options(parse("MCTS(bl,im0.4)", "breakthrough"))
    fixed, one = MCTSSearch(dict(opts), 5), MCTSSearch(dict(opts, arms=(0.4,)), 5)
    assert fixed.search(s, sims=400)[1]["children"] == one.search(s, sims=400)[1]["children"]
    (alpha, n0, w0, n1, w1), = one.alpha_arms()
    assert (alpha, n0, n1) == (0.4, 400, 400) and w0 == -w1
    both = MCTSSearch(dict(opts, arms=ARMS), 5)
    both.search(s, sims=300)
    m, _ = both.search(s, sims=200)
    arms = both.alpha_arms()
    assert [a[0] for a in arms] == list(ARMS)
    assert sum(a[1] for a in arms) == sum(a[3] for a in arms) == 200
    assert all(a[1] > 0 and a[3] > 0 for a in arms)
    assert sum(a[2] for a in arms) == -sum(a[4] for a in arms)
    p = players.make("MCTS(bl,imas)", game="breakthrough", seed=5)
    p.choose(s, sims=300)
    assert sum(a[1] for a in p.search.alpha_arms()) == 300


def _game(spec, seed):
    s = games.new_state("breakthrough")
    a = players.make(spec, game="breakthrough", seed=seed)
    b = players.make("MCTS(bl)", game="breakthrough", seed=seed + 1)
    moves, alphas, arms = [], [], []
    while not s.is_terminal():
        side = a if s.to_move() == 0 else b
        m, st = side.choose(s, sims=150)
        if side is a:
            alphas.append(st.get("alpha"))
            arms.append(a.search.alpha_arms())
        moves.append(s.format_move(m))
        s.play(m)
    return moves, alphas, arms


@pytest.mark.parametrize("spec", ["MCTS(bl,ima)", "MCTS(bl,imas)"])
def test_a_fixed_seed_plays_the_same_game(spec):
    moves, alphas, arms = _game(spec, 21)
    assert (moves, alphas, arms) == _game(spec, 21)
    if spec.endswith("ima)"):
        assert len(set(alphas)) == len(ARMS)       # every arm was tried
    else:       # the first search tried every arm for the side to move (seat 0)
        assert len(arms[0]) == len(ARMS) and all(a[1] > 0 for a in arms[0])
    assert _game(spec, 22)[0] != moves


RUN = """
name: ima
game: breakthrough
budget: {sims: 60}
games: 4
seed: 9
openings: {random_plies: 2}
matches:
  - {player: "MCTS(bl,ima)", opponent: "MCTS(bl,im0.65)"}
  - {player: "MCTS(bl,imas)", opponent: "MCTS(bl)"}
"""


def test_a_run_plays_the_same_games_with_one_worker_or_two(tmp_path):
    """The bandit lives in the player, made for each game: a game does not depend on which
    worker plays it, nor on the games played before it there."""
    def games_of(directory):
        with Store.open(directory) as s:
            return sorted((r["game_id"], tuple(r["moves"])) for r in records(s))
    one = games_of(play_into(RUN, tmp_path / "one", "mcts_arena.players", workers=1))
    two = games_of(play_into(RUN, tmp_path / "two", "mcts_arena.players", workers=2))
    assert one == two and len(one) == 8


@pytest.mark.parametrize("spec, says", [
    ("MCTS(bl,ima,im0.4)", "options im and ima in 'MCTS(bl,ima,im0.4)' cannot be combined"),
    ("MCTS(ima,cb0.3)", "options cb and ima in 'MCTS(ima,cb0.3)' cannot be combined"),
    ("MCTS(pbim0.3,ima)", "options pbim and ima in 'MCTS(pbim0.3,ima)' cannot be combined"),
    ("MCTS(ima0.4)", "token 'ima0.4' in 'MCTS(ima0.4)' takes no number"),
    ("ab(ima)", "unknown token 'ima' in 'ab(ima)' for αβ"),
    ("FlatMC(ima)", "unknown token 'ima' in 'FlatMC(ima)' for FlatMC"),
    ("MCTS(bl,imas,ima)", "options ima and imas in 'MCTS(bl,imas,ima)' cannot be combined"),
    ("MCTS(im0.6,imas)", "options im and imas in 'MCTS(im0.6,imas)' cannot be combined"),
    ("MCTS(imas2)", "token 'imas2' in 'MCTS(imas2)' takes no number"),
    ("ab(imas)", "unknown token 'imas' in 'ab(imas)' for αβ"),
])
def test_ima_and_imas_are_refused_in_one_line_where_they_do_not_apply(spec, says):
    with pytest.raises(SpecError) as err:
        parse(spec, "breakthrough")
    assert str(err.value).startswith(says)
    r = CliRunner().invoke(cli, ["play", "breakthrough", spec, "MCTS", "--sims", "10"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"arena: error: {says}")


def test_imas_is_refused_beside_open_loop():
    says = "token 'ol' in 'MCTS(ol,imas)' cannot be combined with imas"
    with pytest.raises(SpecError, match="cannot be combined with imas"):
        parse("MCTS(ol,imas)", "backgammon")
    r = CliRunner().invoke(cli, ["play", "backgammon", "MCTS(ol,imas)", "MCTS", "--sims", "10"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"arena: error: {says}")


def test_ima_is_listed_canonical_and_takes_v0q():
    assert parse("MCTS( ima , bl)", "breakthrough").canonical == "MCTS(bl,ima)"
    assert parse("MCTS(bl,ima,v0q=2)", "breakthrough").get("ima")
    assert parse("MCTS(imas,bl)", "breakthrough").canonical == "MCTS(bl,imas)"
    assert {"ima", "imas"} <= set(dict(describe_tokens("breakthrough")))
    r = CliRunner().invoke(cli, ["players", "breakthrough"])
    assert r.exit_code == 0 and "ima " in r.output and "imas " in r.output


def test_a_search_takes_a_new_alpha_only_where_it_blends():
    plain, im = MCTSSearch({}), MCTSSearch({"sel": "im", "alpha": 0.4})
    im.alpha = 0.8
    assert im.alpha == 0.8
    with pytest.raises(ValueError, match="blends none"):
        plain.alpha = 0.5
    with pytest.raises(ValueError, match="0 to 1"):
        im.alpha = 1.5
    with pytest.raises(ValueError, match="give sel 'im'"):
        MCTSSearch({"arms": (0.4,)})
    with pytest.raises(ValueError, match="0 to 1"):
        MCTSSearch({"sel": "im", "arms": (0.4, 1.2)})
    with pytest.raises(ValueError, match="at most 8 arms"):
        MCTSSearch({"sel": "im", "arms": (0.5,) * 9})
