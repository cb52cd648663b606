"""Open-loop MCTS (`MCTS(ol)`, players/search/mcts.pyx): a tree over the players' moves only,
the dice sampled afresh each simulation, the moves filtered at selection by the position the
simulation reached, availability counts in the exploration term, no proofs below the root.
Its play in Pig's endgames against the optimal policy is in test_mcts_chance.py."""
from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.errors import SpecError
from mcts_arena.players.builtin import mcts_options
from mcts_arena.players.search import mcts_search


def search(spec: str, game: str, text: str | None, sims: int, seed: int = 1):
    s = games.new_state(game, text)
    engine = mcts_search(mcts_options(players.parse(spec, game)), seed)
    move, stats = engine.search(s, sims=sims)
    return s, move, stats, engine


def test_backgammon_tree_holds_moves_only_filtered_by_the_dice():
    """After the opening 31 the tree's nodes below the root are reached through different
    rolls: a node's children are distinct (move, mover) pairs, never a dice outcome; each was
    available at least as often as it was chosen; the root's children are exactly the legal
    moves and share the simulations."""
    s, move, st, engine = search("MCTS(ol)", "backgammon",
                                 "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 1", 3000)
    assert move in s.move_ids()
    assert sorted(c[0] for c in st["children"]) == sorted(s.move_ids())
    assert sum(c[1] for c in st["children"]) == 3000
    nodes = engine.tree_nodes()
    wide = 0
    for nd in nodes:
        if nd["first"] < 0 or nd["move"] == -1 and nd["index"] != 0:
            continue
        kids = nodes[nd["first"]: nd["first"] + nd["nactive"]]
        assert len({(k["move"], k["mover"]) for k in kids}) == len(kids)
        assert all(k["move"] < 1 << 26 for k in kids), "a dice outcome in an open-loop tree"
        if nd["index"] != 0:
            assert all(k["amaf_n"] >= k["visits"] for k in kids), "availability >= visits"
            assert all(k["proven"] == 0 for k in kids), "no proof below the root"
        wide = max(wide, len(kids))
    # the other side's replies over many rolls: far more children than one roll's moves
    assert wide > max(len(s.move_ids()), 40)
    assert st["depth"] >= 3


def test_seeded_and_repeatable():
    text = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 1"
    _, m1, st1, _ = search("MCTS(ol,im0.3)", "backgammon", text, 1500, seed=4)
    _, m2, st2, _ = search("MCTS(ol,im0.3)", "backgammon", text, 1500, seed=4)
    assert m1 == m2 and st1["children"] == st2["children"]
    assert all(-1.0 <= c[3] <= 1.0 for c in st1["children"])


def test_implicit_values_are_backed_up():
    """With im the root's children carry values backed up from below, not only their
    creation's evaluation: after enough simulations they differ from the evaluation after
    the move (which is what cb keeps)."""
    text = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 x 31 1"
    _, _, im, _ = search("MCTS(ol,im0.3)", "backgammon", text, 3000)
    _, _, cb, _ = search("MCTS(ol,cb0.3)", "backgammon", text, 3000)
    v_im = {c[0]: c[3] for c in im["children"]}
    v_cb = {c[0]: c[3] for c in cb["children"]}
    assert set(v_im) == set(v_cb)
    changed = [m for m in v_im if abs(v_im[m] - v_cb[m]) > 1e-6]
    assert len(changed) > len(v_im) // 2


def test_einstein_open_loop_plays_legal_moves_to_the_end():
    s = games.new_state("einstein")
    p = players.make("MCTS(ol)", "einstein", seed=2)
    seen = Counter()
    import random

    rng = random.Random(1)
    while not s.is_terminal():
        if s.is_chance_node():
            s.play(s.outcome_at(rng.random()))
            continue
        move, st = p.choose(s, sims=300)
        assert move in s.move_ids()
        seen[len(s.move_ids())] += 1
        s.play(move)
    assert sum(seen.values()) >= 5


def test_a_chance_node_root_is_refused():
    s = games.new_state("pig", "10,10 4 0 dice 3")
    engine = mcts_search(mcts_options(players.parse("MCTS(ol)", "pig")), 1)
    with pytest.raises(ValueError, match="decision, not a chance node"):
        engine.search(s, sims=10)


@pytest.mark.parametrize("spec, game, why", [
    ("MCTS(ol)", "kalah", "does not apply to kalah: it has no chance nodes"),
    ("MCTS(ol,exp1)", "pig", "cannot be combined with exp1"),
    ("MCTS(ol,pu3)", "backgammon", "cannot be combined with pu"),
    ("MCTS(ol,rave100)", "pig", "cannot be combined with rave"),
    ("MCTS(ol,mb100)", "einstein", "cannot be combined with mb"),
])
def test_options_open_loop_cannot_take_are_refused(spec, game, why):
    with pytest.raises(SpecError, match=why):
        players.parse(spec, game)


def test_refusal_at_the_command_line_is_one_line_exit_2(tmp_path):
    r = CliRunner().invoke(cli, ["play", "pig", "MCTS(ol,rave100)", "Random", "--sims", "10"])
    assert r.exit_code == 2
    assert r.output.startswith("arena: error: token 'ol' in 'MCTS(ol,rave100)' cannot be "
                               "combined with rave")
    assert len(r.output.strip().splitlines()) == 1
    assert players.parse("MCTS(im0.3,ol)", "pig").canonical == "MCTS(ol,im0.3)"
