"""MCTS: solver, tactics, implicit minimax backups, playout options, determinism, strength.

Every test uses simulation budgets and fixed seeds, so it is deterministic and independent of
the machine's speed.
"""
import math

import pytest
from mcts_arena.players.search.mcts import NODE_BYTES, MCTSSearch

from mcts_arena import games, players


def bt(squares: dict, side="w"):
    grid = [["."] * 8 for _ in range(8)]
    for sq, c in squares.items():
        grid[int(sq[1]) - 1]["abcdefgh".index(sq[0])] = c
    text = "/".join("".join(grid[r]) for r in range(7, -1, -1)) + " " + side
    return games.new_state("breakthrough", text)


def play_game(game, a, b, sims, opening=None):
    """Play a game between player objects a (moves first) and b; return the winner 0/1/None."""
    s = games.new_state(game) if opening is None else opening.copy()
    seats = (a, b)
    while not s.is_terminal():
        move, _ = seats[s.to_move()].choose(s, sims=sims)
        s.play(move)
    return s.winner()


def test_node_is_small():
    assert NODE_BYTES <= 100


# ---- tic-tac-toe --------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["MCTS", "MCTS(im0.5)", "MCTS(exp1)", "ab(d9)"])
def test_tictactoe_never_loses_against_random(spec):
    for seed in range(6):
        p = players.make(spec, "tictactoe", seed=seed)
        r = players.make("Random", "tictactoe", seed=100 + seed)
        w = play_game("tictactoe", p, r, 3000) if seed % 2 == 0 else play_game("tictactoe", r, p, 3000)
        me = 0 if seed % 2 == 0 else 1
        assert w in (me, None), f"{spec} lost game {seed}"


def test_tictactoe_self_play_is_a_draw():
    a = players.make("MCTS", "tictactoe", seed=1)
    b = players.make("ab(d9)", "tictactoe", seed=2)
    assert play_game("tictactoe", a, b, 20000) is None
    assert play_game("tictactoe", b, a, 20000) is None


def test_tictactoe_solver_proves_forced_win():
    # X in a corner, O on an adjacent edge: X has a forced win (a fork).
    s = games.new_state("tictactoe", ".../o../x.. x")
    move, stats = players.make("MCTS", "tictactoe", seed=1).choose(s, sims=20000)
    assert stats["proven"] == 1
    after = s.copy()
    after.play(move)
    _, ab = players.make("ab(d9)", "tictactoe", seed=1).choose(after)
    assert ab["value"] <= -900        # the move keeps the forced win
    assert stats["sims"] < 20000      # a proven root ends the search early


def test_tictactoe_alphabeta_start_is_a_draw():
    _, stats = players.make("ab(d9)", "tictactoe", seed=1).choose(games.new_state("tictactoe"))
    assert stats["value"] == 0 and stats["depth"] == 9


# ---- Breakthrough tactics -----------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["MCTS", "MCTS(bl,im0.4)", "MCTS(bl',im0.6)", "ab(efMS)"])
def test_breakthrough_win_in_one(spec):
    s = bt({"c7": "w", "a1": "w", "b1": "w", "h8": "b", "g8": "b", "f7": "b"})
    move, _ = players.make(spec, "breakthrough", seed=3).choose(s, sims=500)
    assert s.format_move(move) in ("c7-c8", "c7-b8", "c7-d8")


@pytest.mark.parametrize("spec", ["MCTS", "MCTS(bl,im0.4)", "ab(efMS)"])
def test_breakthrough_stop_win_in_one(spec):
    s = bt({"a1": "w", "c1": "w", "e3": "w", "f3": "w", "b2": "b", "h8": "b", "g8": "b"})
    move, _ = players.make(spec, "breakthrough", seed=3).choose(s, sims=3000)
    assert s.format_move(move) in ("a1xb2", "c1xb2")


def test_breakthrough_solver_proves_win_in_three():
    # d6 walks in: no black piece can reach d7/d8 or win first.
    s = bt({"d6": "w", "a1": "w", "b1": "w", "h8": "b", "h7": "b", "a8": "b"})
    move, stats = players.make("MCTS", "breakthrough", seed=3).choose(s, sims=50000)
    assert stats["proven"] == 1
    assert s.format_move(move) in ("d6-d7", "d6-c7", "d6-e7")


def test_breakthrough_proven_loss_reported():
    # Black to move cannot stop White's d7 piece from winning next move.
    s = bt({"d7": "w", "a1": "w", "h8": "b", "a8": "b"}, "b")
    _, stats = players.make("MCTS", "breakthrough", seed=3).choose(s, sims=5000)
    assert stats["proven"] == -1


def test_kalah_extra_turn_chain():
    # Player 0: house 6 has 1 stone, house 5 has 2: "6" first keeps every extra turn.
    s = games.new_state("kalah", "0,0,0,3,2,1,0/1,1,1,1,1,1,0 0")
    for spec in ["MCTS(fet4)", "MCTS(fet4,im0.4)", "ab(efRS)"]:
        move, _ = players.make(spec, "kalah", seed=1).choose(s, sims=3000)
        assert s.format_move(move) == "6", spec


# ---- implicit minimax ---------------------------------------------------------------------------

def _tree_states(root_state, nodes):
    """Map node index -> state, following the moves from the root."""
    states = {0: root_state.copy()}
    for nd in nodes:
        if nd["first"] >= 0:
            for c in range(nd["first"], nd["first"] + nd["nactive"]):
                st = states[nd["index"]].copy()
                st.play(nodes[c]["move"])
                states[c] = st
    return states


@pytest.mark.parametrize("game,opts", [
    ("breakthrough", {"C": 0.8, "policy": 1, "evalfn": 1, "sel": "im", "alpha": 0.4}),
    ("breakthrough", {"C": 0.8, "evalfn": 2, "sel": "im", "alpha": 0.6, "fet": 4}),
    ("kalah", {"C": 1.0, "evalfn": 3, "sel": "im", "alpha": 0.4, "fet": 4}),
])
def test_implicit_values_are_negamax_of_children(game, opts):
    root = games.new_state(game)
    eng = MCTSSearch(opts, 11)
    eng.search(root, sims=400)
    nodes = eng.tree_nodes()
    states = _tree_states(root, nodes)
    checked = 0
    for nd in nodes:
        st = states[nd["index"]]
        if nd["first"] < 0:
            if nd["index"] == 0:
                continue
            # an unexpanded node keeps v0 from its mover's view
            e = st.evaluation(opts["evalfn"])
            want = e if st.to_move() == nd["mover"] else -e
            assert nd["v"] == pytest.approx(want, abs=1e-6)
            continue
        kids = nodes[nd["first"]:nd["first"] + nd["nactive"]]
        best = max(k["v"] for k in kids)
        want = best if nd["tomove"] == nd["mover"] else -best
        if nd["index"] != 0:
            assert nd["v"] == pytest.approx(want, abs=1e-6)
            checked += 1
    assert checked > 20


def test_im0_is_exactly_plain_uct():
    s = games.new_state("breakthrough")
    a = MCTSSearch({"C": 0.8, "policy": 1, "evalfn": 1}, 5)
    b = MCTSSearch({"C": 0.8, "policy": 1, "evalfn": 1, "sel": "im", "alpha": 0.0}, 5)
    ma, sa = a.search(s, sims=2000)
    mb, sb = b.search(s, sims=2000)
    assert ma == mb and sa["nodes"] == sb["nodes"]
    assert [c[:3] for c in sa["children"]] == [c[:3] for c in sb["children"]]


def test_im1_with_no_exploration_picks_by_implicit_value():
    s = bt({"d4": "w", "a1": "w", "b2": "w", "e6": "b", "c5": "b", "h8": "b", "g7": "b"})
    eng = MCTSSearch({"C": 0.0, "policy": 1, "evalfn": 1, "sel": "im", "alpha": 1.0}, 2)
    move, stats = eng.search(s, sims=300)
    kids = stats["children"]
    best_v = max(c[3] for c in kids if c[4] != -1)
    chosen = next(c for c in kids if c[0] == move)
    assert chosen[3] == pytest.approx(best_v)


def test_cb_keeps_static_values():
    s = games.new_state("breakthrough")
    eng = MCTSSearch({"C": 0.8, "policy": 1, "evalfn": 1, "sel": "cb", "alpha": 0.4}, 2)
    eng.search(s, sims=300)
    nodes = eng.tree_nodes()
    states = _tree_states(s, nodes)
    for nd in nodes[1:]:
        st = states[nd["index"]]
        e = st.evaluation("efMS")
        assert nd["v"] == pytest.approx(e if st.to_move() == nd["mover"] else -e, abs=1e-6)


# ---- playout options ----------------------------------------------------------------------------

def test_fet0_returns_the_evaluation_without_a_move():
    s = games.new_state("kalah", "1,2,3,4,5,6,3/0,0,2,3,4,5,2 0")
    eng = MCTSSearch({"fet": 0, "evalfn": 3}, 1)
    r0, moves = eng.playout_once(s)
    assert moves == [] and r0 == pytest.approx(math.tanh(1 / 10))


def test_fet_stops_after_x_moves():
    eng = MCTSSearch({"fet": 7, "evalfn": 1}, 1)
    r0, moves = eng.playout_once(games.new_state("breakthrough"))
    assert len(moves) == 7 and -1 < r0 < 1


def test_det0_stops_at_the_first_check_and_det_is_checked_every_df_moves():
    s = games.new_state("breakthrough")
    for df in (1, 3, 5):
        r0, moves = MCTSSearch({"det": 0.0, "df": df, "evalfn": 1}, 1).playout_once(s)
        # |v0| >= 0 always holds: the playout stops at its first check, after df moves
        assert len(moves) == df and r0 in (1.0, -1.0)
        st = s.copy()
        for m in moves:
            st.play(m)
        e = st.evaluation("efMS")
        assert r0 == ((1.0 if e >= 0 else -1.0) * (1 if st.to_move() == 0 else -1))
    for df in (3, 5):
        for seed in range(10):
            r0, moves = MCTSSearch({"det": 0.3, "df": df, "evalfn": 1}, seed).playout_once(s)
            st = s.copy()
            for m in moves:
                st.play(m)
            if not st.is_terminal():
                assert len(moves) % df == 0 and len(moves) > 0 and r0 in (1.0, -1.0)


def test_ege0_is_greedy():
    s = games.new_state("breakthrough")
    eng = MCTSSearch({"ege": 0.0, "evalfn": 1}, 3)
    _, moves = eng.playout_once(s)
    st = s.copy()
    for m in moves[:40]:
        vals = {x: st.py_eval_after(st.format_move(x), "efMS") for x in st.move_ids()}
        assert vals[m] == max(vals.values())
        st.play(m)


def test_ege1_is_uniform():
    s = games.new_state("breakthrough")
    counts = {}
    eng = MCTSSearch({"ege": 1.0, "evalfn": 1, "fet": 1}, 3)
    n = 4400
    for _ in range(n):
        _, moves = eng.playout_once(s)
        counts[moves[0]] = counts.get(moves[0], 0) + 1
    assert len(counts) == 22
    expected = n / 22
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 50        # 21 degrees of freedom: p < 0.001 only above ~46.8... tolerant bound


def test_node_priors_give_virtual_visits():
    s = games.new_state("breakthrough")
    _, stats = players.make("MCTS(ipp,np50)", "breakthrough", seed=1).choose(s, sims=1)
    assert all(c[1] >= 50 for c in stats["children"])
    _, stats = players.make("MCTS(ipp,np)", "breakthrough", seed=1).choose(s, time=0.5)
    assert min(c[1] for c in stats["children"]) >= 5       # 10 per second of budget


def test_every_option_runs():
    s = games.new_state("breakthrough")
    for spec in ["MCTS(mb100)", "MCTS(PB)", "MCTS(pb2,ipp)", "MCTS(rave300)", "MCTS(pu3)",
                 "MCTS(exp1,im0.4)", "MCTS(bl,cb0.4)", "MCTS(bl,pbim0.4)", "MCTS(abp1,fet3)",
                 "MCTS(ipp,det0.5,df3)", "FlatMC"]:
        move, stats = players.make(spec, "breakthrough", seed=1).choose(s, sims=300)
        assert move in s.move_ids() and stats["sims"] == 300, spec


def test_rave_collects_amaf_statistics():
    eng = MCTSSearch({"rave": 500}, 1)
    eng.search(games.new_state("breakthrough"), sims=200)
    kids = [n for n in eng.tree_nodes()[1:23]]
    assert sum(k["amaf_n"] for k in kids) > sum(k["visits"] for k in kids)


def test_exp1_adds_one_child_per_simulation():
    eng = MCTSSearch({"exp1": True}, 1)
    _, stats = eng.search(games.new_state("breakthrough"), sims=10)
    assert len(stats["children"]) == 11       # root activates one child per simulation (+1 at expansion)


# ---- determinism and strength -------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["MCTS(bl,im0.4)", "MCTS(bl',im0.6)", "ab(efLH)"])
def test_same_seed_same_search(spec):
    s = games.new_state("breakthrough")
    s.play("d2-d3")
    runs = [players.make(spec, "breakthrough", seed=42).choose(s, sims=1500) for _ in range(2)]
    assert runs[0][0] == runs[1][0]
    assert runs[0][1]["nodes"] == runs[1][1]["nodes"]


def test_state_is_not_changed():
    s = games.new_state("breakthrough")
    before = (s.to_text(), s.zobrist())
    players.make("MCTS(bl,im0.4)", "breakthrough", seed=1).choose(s, sims=500)
    players.make("ab", "breakthrough", seed=1).choose(s, sims=5000)
    assert (s.to_text(), s.zobrist()) == before


def test_mcts_beats_a_random_player():
    for g in range(4):
        a = players.make("MCTS(ipp)", "breakthrough", seed=g)
        b = players.make("Random", "breakthrough", seed=100 + g)
        if g % 2 == 0:
            assert play_game("breakthrough", a, b, 500) == 0
        else:
            assert play_game("breakthrough", b, a, 500) == 1


def test_forced_move_is_played_without_search():
    s = games.new_state("kalah", "0,0,0,0,0,2,0/1,1,1,1,1,1,0 0")
    move, stats = players.make("MCTS(fet4)", "kalah", seed=1).choose(s, sims=1000)
    assert s.format_move(move) == "6" and stats["sims"] == 0


def test_ipp_forced_moves_come_before_epsilon_greedy():
    # b2 threatens to win; greedy alone prefers d6xe7 (a capture that also advances the lead
    # piece): ipp's capture from the home row must win out, as in bl = ipp,ege,det.
    s = bt({"a1": "w", "e3": "w", "d6": "w", "b2": "b", "h2": "b", "e7": "b", "h8": "b"})
    eng = MCTSSearch({"policy": 1, "ege": 0.0, "evalfn": 1, "fet": 1}, 4)
    for _ in range(30):
        _, moves = eng.playout_once(s)
        assert s.format_move(moves[0]) == "a1xb2"
    plain = MCTSSearch({"ege": 0.0, "evalfn": 1, "fet": 1}, 4)
    firsts = {s.format_move(plain.playout_once(s)[1][0]) for _ in range(60)}
    assert firsts == {"d6xe7"}           # without ipp the greedy choice is not forced


def test_a_mistyped_search_option_is_an_error():
    from mcts_arena.players.search.mcts import MCTSSearch
    with pytest.raises(ValueError, match=r"unknown MCTS option\(s\) 'fett'; valid: C, evalfn"):
        MCTSSearch({"C": 1.0, "fett": 3})
