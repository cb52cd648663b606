"""Amazons: the rules on hand-made positions, the notation and text form, the knowledge, and the
game against OpenSpiel's `amazons` (an oracle written by others; `pip install open_spiel`).

OpenSpiel plays one Amazons move as three decisions (the amazon, its destination, the arrow), so
its whole moves are enumerated by walking the three and compared with ours as whole moves."""
import math
import random
import statistics
from pathlib import Path

import pytest
from mcts_arena.games.state import POLICY_IDS

from mcts_arena import games

# a White amazon boxed in at a1 by arrows, the rest free
BOXED = "b....b/....../b....b/....../xx...w/wxw..w w"


def test_start_positions_as_openspiel_places_them():
    assert games.new_state("amazons").to_text() == (
        "...b..b.../........../........../b........b/........../........../w........w/"
        "........../........../...w..w... w")
    assert games.new_state("amazons(size=6)").to_text() == \
        ".b..b./b....b/....../....../w....w/.w..w. w"
    assert len(games.new_state("amazons").moves()) == 2176


def test_a_move_steps_then_shoots_and_may_shoot_back_where_it_came_from():
    s = games.new_state("amazons(size=6)")
    moves = set(s.moves())
    assert "b1-b2/b1" in moves            # the arrow onto the square the amazon left
    assert "b1-b2/b0" not in moves and "b1-b3/b1" in moves
    assert "b1-a1/c1" in moves            # the arrow back across the square it left
    assert "b1-b6/b5" not in moves        # no amazon lands on another
    assert "a2-a6/a5" not in moves        # nor passes one (a5 is Black's)
    s.play("b1-b2/c3")
    assert s.to_text() == ".b..b./b....b/....../..x.../ww...w/....w. b"
    black = s.moves()
    # the arrow on c3 stops a5's diagonal at b4
    assert any(m.startswith("a5-b4/") for m in black)
    assert not any(m.startswith(("a5-c3/", "a5-d2/")) for m in black)


def test_a_side_with_no_move_has_lost():
    s = games.new_state("amazons(size=6)", BOXED)
    # a1 is shut in by arrows at a2, b2 and b1; c1 and f1 still move
    assert all(not m.startswith("a1") for m in s.moves())
    assert s.winner() is None
    shut = games.new_state("amazons(size=6)", "b....b/....../b....b/xxxxxx/xxxxxx/wxwxww w")
    assert shut.is_terminal() and shut.moves() == [] and shut.winner() == 1
    assert shut.evaluation("efQD") == shut.evaluation("efMob") == -1.0
    # the same board with Black to move is Black's game to play on: not over
    other = games.new_state("amazons(size=6)", "b....b/....../b....b/xxxxxx/xxxxxx/wxwxww b")
    assert not other.is_terminal() and other.moves()


def test_notation_and_text_refusals_are_one_line():
    s = games.new_state("amazons(size=6)")
    assert s.parse_move(" B1-B2/C3 ") == s.parse_move("b1-b2/c3")
    for bad in ("b1-b2", "b1b2c3", "g1-b2/c3", "b1-b7/c3", "b1-b2/c0"):
        with pytest.raises(ValueError, match="bad Amazons move") as e:
            s.parse_move(bad)
        assert "\n" not in str(e.value)
    for bad, why in ((".b..b./b....b/....../....../w....w/.w..w. x", "side 'w' or 'b'"),
                     (".b..b./b....b/....../....../w....w/.w..ww w", "4 amazons"),
                     (".b..b./b....b/....../w....w/.w..w. w", "N ranks"),
                     (".b..b./b....b/....../....../w....w/.w..w? w", "N ranks")):
        with pytest.raises(ValueError, match=why):
            games.new_state("amazons(size=6)", bad)
    with pytest.raises(ValueError, match="6x6, but size=10"):
        games.new_state("amazons", ".b..b./b....b/....../....../w....w/.w..w. w")
    with pytest.raises(games.UnknownGameError, match="size=11 out of range"):
        games.new_state("amazons(size=11)")


def test_territory_and_mobility_count_by_hand():
    s = games.new_state("amazons(size=6)", BOXED)
    # White a1 (shut in), c1, f1, f2; Black a4, f4, a6, f6, counted by hand ray by ray
    assert s.mobility(0) == 0 + 9 + 6 + 9 and s.mobility(1) == 11 + 10 + 9 + 8
    w, b = s.territory()
    assert 0 < w + b <= 36 - 8 - 3
    assert s.evaluation("efQD") == pytest.approx(math.tanh((w - b) / 6))
    assert s.evaluation("efMob") == pytest.approx(math.tanh((24 - 38) / 12))


def test_ipp_prefers_arrows_beside_enemy_amazons():
    """With ipp the playouts' arrows land next to an enemy amazon about 4 times as often per
    move as a uniformly random arrow (the policy's weight), and the games are legal."""
    s = games.new_state("amazons(size=6)")
    ids = s.move_ids()
    enemy = {5 * 6 + 1, 5 * 6 + 4, 4 * 6, 4 * 6 + 5}
    near = {r * 6 + c for e in enemy for r in range(e // 6 - 1, e // 6 + 2)
            for c in range(e % 6 - 1, e % 6 + 2) if 0 <= r < 6 and 0 <= c < 6}
    touching = sum(1 for m in ids if m % 36 in near)
    picks = [s.py_playout_move(POLICY_IDS["ipp"], ids, seed) for seed in range(4000)]
    share = sum(1 for m in picks if m % 36 in near) / len(picks)
    want = 4 * touching / (len(ids) + 3 * touching)
    assert share == pytest.approx(want, abs=0.03)
    assert set(picks) <= set(ids)


# ---- every command -----------------------------------------------------------------------

def test_players_play_and_run(tmp_path):
    """`arena players amazons` describes its evaluations; `arena play` plays a game to its end
    in the d1-d7/g7 notation; the shipped config runs, scaled down, and its games are stored."""
    from click.testing import CliRunner

    from mcts_arena.cli import cli

    r = CliRunner().invoke(cli, ["players", "amazons"])
    assert r.exit_code == 0 and "efQD" in r.output and "efMob" in r.output
    r = CliRunner().invoke(cli, ["play", "amazons(size=6)", "MCTS(bl,im0.3)", "MCTS(ipp)",
                                 "--sims", "30"])
    assert r.exit_code == 0, r.output
    assert "  1. MCTS(bl,im0.3): " in r.output and "/" in r.output.splitlines()[1]
    assert "result: " in r.output and " wins " in r.output
    out = tmp_path / "amazons_im"
    config = Path(__file__).resolve().parents[1] / "configs" / "amazons_im.yaml"
    r = CliRunner().invoke(cli, ["run", str(config), "--games", "2", "--sims",
                                 "20", "--out", str(out), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    from mcts_arena import results
    frame = results.load(str(out))
    import yaml
    alphas = yaml.safe_load(config.read_text())["matches"][0]["sweep"]["alpha"]
    assert len(frame) == 2 * len(alphas) and set(frame["result"]) <= {"win", "loss"}


# ---- against OpenSpiel -------------------------------------------------------------------

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open_spiel; make test does)")


def os_square(action: int, n: int) -> int:
    """Our square of an OpenSpiel cell action (its row 0 is the top rank)."""
    r, c = divmod(action, n)
    return (n - 1 - r) * n + c


def os_moves(state, n: int) -> dict[int, tuple[int, int, int]]:
    """{our move id: OpenSpiel's three actions} of every whole move at an OpenSpiel state."""
    nc = n * n
    out = {}
    for a in state.legal_actions():
        s1 = state.child(a)
        for b in s1.legal_actions():
            s2 = s1.child(b)
            for c in s2.legal_actions():
                mid = (os_square(a, n) * nc + os_square(b, n)) * nc + os_square(c, n)
                out[mid] = (a, b, c)
    return out


def os_text(state) -> str:
    """Our text form of an OpenSpiel state at a player's first decision."""
    rows = str(state).split()
    side = "w" if state.current_player() == 0 else "b"
    return "/".join(r.translate(str.maketrans("XO#", "wbx")) for r in rows) + " " + side


def mirrored(n: int, seed: int) -> int:
    """One uniformly random game (over whole moves) played in both engines: at every ply the
    boards, the side to move and the set of whole moves agree, and at the end the winner.
    Returns its plies."""
    rng = random.Random(seed)
    game = pyspiel.load_game("amazons", {"board_size": n})
    theirs = game.new_initial_state()
    ours = games.new_state(f"amazons(size={n})")
    while not theirs.is_terminal():
        assert ours.to_text() == os_text(theirs)
        table = os_moves(theirs, n)
        assert sorted(table) == sorted(ours.move_ids()), ours.to_text()
        m = rng.choice(ours.move_ids())
        for a in table[m]:
            theirs.apply_action(a)
        ours.play(m)
    assert ours.is_terminal() and ours.moves() == []
    assert theirs.returns()[ours.winner()] == 1.0
    return ours.ply


@pytest.mark.parametrize("n", [6, 8, 10])
def test_mirrored_games_equal_openspiel(n):
    assert sum(mirrored(n, seed) for seed in range(6 if n == 6 else 3)) > 100


def _lengths_and_wins(play, n_games, seed):
    rng = random.Random(seed)
    out = [play(rng) for _ in range(n_games)]
    return [p for p, _ in out], [w for _, w in out]


def _ours(n):
    def play(rng):
        s = games.new_state(f"amazons(size={n})")
        while not s.is_terminal():
            s.play(rng.choice(s.move_ids()))
        return s.ply, s.winner() == 0
    return play


def _theirs(n):
    game = pyspiel.load_game("amazons", {"board_size": n})

    def play(rng):
        s = game.new_initial_state()
        plies = 0
        while not s.is_terminal():
            table = os_moves(s, n)
            for a in table[rng.choice(sorted(table))]:
                s.apply_action(a)
            plies += 1
        return plies, s.returns()[0] > 0
    return play


def statistics_agree(n, n_ours, n_theirs):
    """Uniformly random whole moves in each engine from fixed seeds: the first player's win
    rate and the mean length within 4 standard errors, and the length distributions by a
    two-sample Kolmogorov-Smirnov test (statistic below its 0.1% critical value)."""
    a_len, a_win = _lengths_and_wins(_ours(n), n_ours, 1)
    b_len, b_win = _lengths_and_wins(_theirs(n), n_theirs, 2)
    p1, p2 = sum(a_win) / n_ours, sum(b_win) / n_theirs
    pool = (sum(a_win) + sum(b_win)) / (n_ours + n_theirs)
    assert abs(p1 - p2) < 4 * (pool * (1 - pool) * (1 / n_ours + 1 / n_theirs)) ** 0.5
    se = (statistics.variance(a_len) / n_ours + statistics.variance(b_len) / n_theirs) ** 0.5
    assert abs(statistics.mean(a_len) - statistics.mean(b_len)) < 4 * se
    from scipy.stats import ks_2samp
    d = ks_2samp(a_len, b_len).statistic
    assert d < 1.95 * ((n_ours + n_theirs) / (n_ours * n_theirs)) ** 0.5
    return statistics.mean(a_len), p1


def test_random_game_statistics_agree_with_openspiel_6x6():
    mean, _ = statistics_agree(6, 400, 400)
    assert 20 < mean < 30


@pytest.mark.slow
def test_random_game_statistics_agree_with_openspiel_10x10():
    mean, _ = statistics_agree(10, 300, 100)
    assert 60 < mean < 85
