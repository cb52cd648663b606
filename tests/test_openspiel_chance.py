"""Pig and backgammon against OpenSpiel's implementations (`pip install open_spiel`; `make test`
installs it), an oracle written by others:

- mirrored games: both engines play the same game (the same dice, the same turns); at every
  turn the SET of positions each roll reaches is equal. OpenSpiel splits a backgammon turn in
  half-moves of up to two checkers; its turns are enumerated until the player changes. It
  makes each half-move use as many dice as it can, where the standard rule (ours) asks it of
  the whole turn, so a double's first half could in principle leave the second short; the
  comparison keeps OpenSpiel's turns that use the most dice (benchmarks/backgammon_stats.py
  counts how often that drops any: never in 12,204 rolls of random games);
- random games: each engine plays its own games with the same random policy (a uniformly
  random legal Pig decision; a uniformly random distinct backgammon turn) from fixed seeds,
  and the game-length distribution, the first player's win rate and the gammon rate agree
  within the stated tolerances.
"""
import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open_spiel; make test does)")

from mcts_arena import games  # noqa: E402

# ---- backgammon --------------------------------------------------------------------------

BG = pyspiel.load_game("backgammon(scoring_type=full_scoring)")
# OpenSpiel's 36 chance outcomes (and the first 30 at the opening: an even index means x
# starts), in its order
OS_DICE = [(1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1), (1, 5), (5, 1), (1, 6), (6, 1),
           (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3),
           (3, 5), (5, 3), (3, 6), (6, 3), (4, 5), (5, 4), (4, 6), (6, 4), (5, 6), (6, 5),
           (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]


def os_counts(s):
    """(x's 26 counts, o's 26 counts) in their own numbering ([off, points 1-24, bar]) of an
    OpenSpiel state, from its observation tensor (x first): a point's four numbers are one
    checker, two, three, and the count above three."""
    t = s.observation_tensor(0)
    out = []
    for side in range(2):
        c = [0] * 26
        for pos in range(24):
            a, b, d, more = t[96 * side + 4 * pos: 96 * side + 4 * pos + 4]
            n = 1 if a else 2 if b else 3 if d else (3 + int(more) if more else 0)
            # OpenSpiel position pos is x's point 24 - pos and o's point pos + 1
            c[24 - pos if side == 0 else pos + 1] = n
        c[25] = int(t[192 + 3 * side])
        c[0] = int(t[193 + 3 * side])
        out.append(tuple(c))
    return tuple(out)


def os_turns(s):
    """{final position: (checker moves used, action path)} of every full turn from the
    decision node s (half-moves followed while the same player moves)."""
    p = s.current_player()
    found = {}

    def rec(st, used, path):
        for a in st.legal_actions():
            c = st.child(a)
            u = used + sum(1 for m in st.spiel_move_to_checker_moves(p, a) if m.pos >= 0)
            if c.is_terminal() or c.current_player() != p:
                key = str(c)            # the board, bar and borne-off of the position
                if key not in found or found[key][0] < u:
                    found[key] = (u, path + [a], c)
            else:
                rec(c, u, path + [a])
    rec(s, 0, [])
    return {os_counts(c): (u, path) for u, path, c in found.values()}


def standard(turns):
    """The turns that use the most dice (the standard rule); and whether OpenSpiel allowed
    fewer somewhere."""
    most = max(u for u, _ in turns.values())
    return {k: v for k, v in turns.items() if v[0] == most}, len(turns) > sum(
        1 for u, _ in turns.values() if u == most)


def ours_after(s):
    """{final position: move id} of our side to move's turns."""
    out = {}
    for m in s.move_ids():
        c = s.copy()
        c.play(m)
        out[(tuple(c.counts(0)), tuple(c.counts(1)))] = m
    return out


def roll_text(s, os_action, opening):
    a, b = OS_DICE[os_action]
    hi, lo = max(a, b), min(a, b)
    return (("x" if os_action % 2 == 0 else "o") if opening else "") + f"{hi}{lo}"


def mirrored_backgammon(seed, every):
    """Play one game in both engines; compare each turn's positions at the roll played, and at
    every `every`-th chance node for all 21 rolls. Returns (rolls compared, quirks seen)."""
    rng = random.Random(seed)
    os_s = BG.new_initial_state()
    ours = games.new_state("backgammon(scoring=3)")
    compared = quirks = nodes = 0
    while not os_s.is_terminal():
        assert not ours.is_terminal()
        if os_s.is_chance_node():
            assert ours.is_chance_node()
            opening = ours.to_text().split()[1] == "-"
            outcomes = [a for a, _ in os_s.chance_outcomes()]
            assert len(outcomes) == (30 if opening else 36)
            assert len(ours.outcome_probs()) == (30 if opening else 21)
            if not opening and nodes % every == 0:
                for a in outcomes[::2][:15] + outcomes[30:]:   # one of each unordered roll
                    child = os_s.child(a)
                    if child.is_terminal():
                        continue
                    std, quirk = standard(os_turns(child))
                    quirks += quirk
                    c = ours.copy()
                    c.play(roll_text(ours, a, False))
                    assert set(ours_after(c)) == set(std), (ours.to_text(), OS_DICE[a])
                    compared += 1
            nodes += 1
            a = rng.choice(outcomes)
            ours.play(roll_text(ours, a, opening))
            os_s.apply_action(a)
            continue
        std, quirk = standard(os_turns(os_s))
        quirks += quirk
        mine = ours_after(ours)
        assert set(mine) == set(std), ours.to_text()
        compared += 1
        key = rng.choice(sorted(std))
        for a in std[key][1]:
            os_s.apply_action(a)
        ours.play(mine[key])
        assert (tuple(ours.counts(0)), tuple(ours.counts(1))) == os_counts(os_s)
    assert ours.is_terminal() and ours.winner() is not None
    returns = os_s.returns()
    assert returns[ours.winner()] == ours.points() == -returns[1 - ours.winner()]
    # OpenSpiel's full_scoring and ours (scoring=3) scaled into [-1, 1]
    assert ours.final_reward() == pytest.approx(returns[0] / 3)
    return compared, quirks


@pytest.mark.slow
def test_backgammon_turns_equal_openspiel_in_mirrored_games():
    compared = 0
    for seed in (1, 2):
        c, _ = mirrored_backgammon(seed, every=4)
        compared += c
    assert compared > 500


def test_backgammon_opening_roll_as_openspiel():
    os_s = BG.new_initial_state()
    ours = games.new_state("backgammon")
    assert ours.is_chance_node() and os_s.is_chance_node()
    os_probs = dict(os_s.chance_outcomes())
    mine = {ours.format_move(m): p for m, p in ours.outcome_probs()}
    assert len(mine) == len(os_probs) == 30
    for a, p in os_probs.items():
        text = roll_text(ours, a, True)
        assert mine[text] == pytest.approx(p)
        c = ours.copy()
        c.play(text)
        child = os_s.child(a)
        # the same side starts with the same two numbers
        assert c.to_move() == child.current_player()
        assert sorted(c.dice()) == sorted(int(v) for v in child.observation_tensor(0)[-2:])


def _our_random_backgammon(rng):
    s = games.new_state("backgammon(scoring=3)")
    while not s.is_terminal():
        if s.is_chance_node():
            s.play(s.outcome_at(rng.random()))
        else:
            s.play(rng.choice(s.move_ids()))
    return s.turns_played(), s.winner(), s.points()


def _os_random_backgammon(rng):
    s = BG.new_initial_state()
    turns = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        std, _ = standard(os_turns(s))
        for a in std[rng.choice(sorted(std))][1]:
            s.apply_action(a)
        turns += 1
    r = s.returns()
    return turns, 0 if r[0] > 0 else 1, int(abs(r[0]))


@pytest.mark.slow
def test_backgammon_random_game_statistics_agree():
    """A uniformly random distinct turn each turn, in each engine, fixed seeds (400 games of
    ours, 24 of OpenSpiel's: its turns are enumerated in Python, so its side is small and the
    test coarse; the mirrored games above are the exact check). The first player's win rate,
    the gammon-or-better rate and the mean number of turns agree within 4 standard errors."""
    rng = random.Random(1)
    ours = [_our_random_backgammon(rng) for _ in range(400)]
    rng = random.Random(2)
    theirs = [_os_random_backgammon(rng) for _ in range(24)]
    for stat in (lambda g: g[1] == 0, lambda g: g[2] >= 2):
        p1 = sum(map(stat, ours)) / len(ours)
        p2 = sum(map(stat, theirs)) / len(theirs)
        pool = (p1 * len(ours) + p2 * len(theirs)) / (len(ours) + len(theirs))
        se = (pool * (1 - pool) * (1 / len(ours) + 1 / len(theirs))) ** 0.5
        assert abs(p1 - p2) < 4 * se + 1e-9, (p1, p2)
    import statistics
    a, b = [g[0] for g in ours], [g[0] for g in theirs]
    se = (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5
    assert abs(statistics.mean(a) - statistics.mean(b)) < 4 * se


# ---- pig -------------------------------------------------------------------------------------

def _os_pig_state_text(s, decisions):
    """Our text form of an OpenSpiel Pig state (its string: scores, turn total, player)."""
    text = str(s)
    scores = text.split("Scores: ")[1].split(",")[0].split()
    turn = text.split("Turn total: ")[1].split()[0]
    player = text.split("Current player: ")[1].split()[0]
    phase = "dice" if s.is_chance_node() else "move"
    return f"{scores[0]},{scores[1]} {turn} {player} {phase} {decisions}"


@pytest.mark.parametrize("spec,os_spec", [
    ("pig", "pig"), ("pig(target=30,sides=4)", "pig(winscore=30,diceoutcomes=4)"),
    ("pig(horizon=40)", "pig(horizon=40)")])
def test_pig_mirrored_games(spec, os_spec):
    """The same actions in both engines: the same legal moves, dice, text, end and returns
    at every step of 30 random games."""
    game = pyspiel.load_game(os_spec)
    rng = random.Random(7)
    for _ in range(30):
        os_s = game.new_initial_state()
        ours = games.new_state(spec)
        decisions = 0
        while True:
            assert ours.to_text() == _os_pig_state_text(os_s, decisions) or os_s.is_terminal()
            assert ours.is_terminal() == os_s.is_terminal()
            if os_s.is_terminal():
                break
            assert ours.is_chance_node() == os_s.is_chance_node()
            if os_s.is_chance_node():
                outcomes = os_s.chance_outcomes()
                assert [(ours.format_move(m), p) for m, p in ours.outcome_probs()] == \
                    [(str(a + 1), pytest.approx(p)) for a, p in outcomes]
                a = rng.choice([a for a, _ in outcomes])
                ours.play(str(a + 1))
            else:
                assert ours.to_move() == os_s.current_player()
                legal = os_s.legal_actions()
                assert ours.moves() == [("roll", "stop")[a] for a in legal]
                a = rng.choice(legal)
                ours.play(("roll", "stop")[a])
                decisions += 1
            os_s.apply_action(a)
        r = os_s.returns()
        assert [ours.reward(0), ours.reward(1)] == r


def test_pig_random_game_statistics_agree():
    """Uniformly random decisions and fair dice in each engine, 1,000 games each from fixed
    seeds: the first player's win rate within 4 standard errors, the mean number of decisions
    within 4 standard errors, and the distributions of decisions by a two-sample
    Kolmogorov-Smirnov test (statistic below its 0.1% critical value)."""
    game = pyspiel.load_game("pig")
    n = 1000
    rng = random.Random(11)
    os_len, os_win = [], []
    for _ in range(n):
        s = game.new_initial_state()
        d = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                d += 1
        os_len.append(d)
        os_win.append(s.returns()[0] > 0)
    rng = random.Random(12)
    our_len, our_win = [], []
    for _ in range(n):
        s = games.new_state("pig")
        while not s.is_terminal():
            s.play(s.outcome_at(rng.random()) if s.is_chance_node() else rng.choice(s.move_ids()))
        our_len.append(s.decisions_made())
        our_win.append(s.winner() == 0)
    p1, p2 = sum(os_win) / n, sum(our_win) / n
    assert abs(p1 - p2) < 4 * ((p1 * (1 - p1) + p2 * (1 - p2)) / n) ** 0.5
    import statistics
    m1, m2 = statistics.mean(os_len), statistics.mean(our_len)
    se = ((statistics.variance(os_len) + statistics.variance(our_len)) / n) ** 0.5
    assert abs(m1 - m2) < 4 * se
    from scipy.stats import ks_2samp
    d = ks_2samp(os_len, our_len).statistic
    assert d < 1.95 * (2 / n) ** 0.5


def test_bench_measures_openspiel_beside_ours():
    """`arena bench` times OpenSpiel's random games of the same game in the same run as ours,
    random games against random games (a speed figure, not a test of speed: only that it is
    there)."""
    from mcts_arena import bench
    from mcts_arena.bench.openspiel import random_games_rate

    out = bench.playout_speed(["pig"], 0.05)["pig"]
    assert out["openspiel_games_per_s"] > 0 and out["ratio_to_openspiel"] > 0
    assert "OpenSpiel's random games (C++)" in "\n".join(
        bench.format_rows({"pig": out}, search=False))
    assert random_games_rate("pig(target=50)", 0.02) > 0          # its winscore=50
    assert random_games_rate("backgammon(scoring=2)", 0.02) is None     # no counterpart
