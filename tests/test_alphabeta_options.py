"""αβ without transposition table and history (tt=0, hh=0): the paper's αβ, for matched-effort
comparisons. Defaults are unchanged; the plain search still finds forced wins."""
from mcts_arena import games
from mcts_arena.players import make, parse


def test_canonical_forms():
    assert parse("αβ(efMS,tt=1,hh=1)", "breakthrough").canonical == "αβ(efMS)"
    assert parse("ab(hh=0,tt=0)", "breakthrough").canonical == "αβ(efMS,hh=0,tt=0)"


def test_plain_search_is_deterministic_and_shallower_per_node():
    st = games.new_state("breakthrough")
    full = make("αβ(efMS)", "breakthrough", seed=3).choose(st, sims=100_000)
    plain = make("αβ(efMS,tt=0,hh=0)", "breakthrough", seed=3).choose(st, sims=100_000)
    again = make("αβ(efMS,tt=0,hh=0)", "breakthrough", seed=3).choose(st, sims=100_000)
    assert plain[0] == again[0] and plain[1]["nodes"] == again[1]["nodes"]
    assert plain[1]["depth"] <= full[1]["depth"]


def test_plain_search_takes_a_win_in_one():
    # X (first player) to move with a1, a2 taken: a3 wins at once
    for seed in range(3):
        st = games.new_state("tictactoe")
        for m in ("a1", "b1", "a2", "b2"):
            st.play(st.parse_move(m))
        move, stats = make("αβ(tt=0,hh=0)", "tictactoe", seed=seed).choose(st, sims=10_000)
        assert st.format_move(move) == "a3"
