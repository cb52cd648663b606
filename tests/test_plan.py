"""Plan: seat-swapped pairs, sweep expansion, interleaving, deterministic seeds, pair scoring."""
import importlib
import pickle

import pytest

from mcts_arena import games
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.config import Openings
from mcts_arena.runner.openings import opening_text
from mcts_arena.runner.plan import derive_seed, make_plan
from mcts_arena.stats import pair_outcome


def exp(matches, games_=4, seed=7, extra=""):
    text = (f"name: e\ngame: breakthrough\nbudget: {{time: 0.1}}\ngames: {games_}\n"
            f"seed: {seed}\n{extra}matches:\n{matches}")
    return config.loads(text, players=importlib.import_module("fakes"))


ONE = "  - {player: 'Random(im0.4)', opponent: Random}\n"


def test_seats_swap_within_each_pair():
    p = make_plan(exp(ONE, games_=4))
    assert [j.job_id for j in p.jobs] == [f"e/{p.experiment.pairings[0].id}/{k}" for k in (0, 1)]
    for j in p.jobs:
        g0, g1 = j.games
        assert g0.seats == ("Random(im0.4)", "Random") and g0.swap == 0 and g0.player_seat == 0
        assert g1.seats == ("Random", "Random(im0.4)") and g1.swap == 1 and g1.player_seat == 1
        assert g0.pair_index == g1.pair_index == j.pair_index
        assert g0.game_id.endswith(f"/{j.pair_index}/0") and g1.game_id.endswith(f"/{j.pair_index}/1")


def test_odd_games_leave_the_last_pair_with_one_game():
    p = make_plan(exp(ONE, games_=5))
    assert [len(j.games) for j in p.jobs] == [2, 2, 1]
    assert p.total_games == 5 and len(set(p.game_ids())) == 5


def test_sweep_expands_in_order_and_pairings_interleave():
    p = make_plan(exp("  - sweep: {player: 'Random(im{alpha})', opponent: Random, "
                      "alpha: [0, 0.25, 1]}\n", games_=4))
    labels = [pp.label for pp in p.experiment.pairings]
    assert labels == ["Random(im0) vs Random", "Random(im0.25) vs Random", "Random(im1) vs Random"]
    ids = [pp.id for pp in p.experiment.pairings]
    # pair 0 of every pairing first, then pair 1: a half-done run scores every pairing
    assert [(j.games[0].pairing_id, j.pair_index) for j in p.jobs] == \
        [(i, 0) for i in ids] + [(i, 1) for i in ids]


def test_per_pairing_game_counts_interleave_to_the_longest():
    p = make_plan(exp("  - {player: Random, opponent: Boom, games: 2}\n"
                      "  - {player: Random, opponent: Slow, games: 6}\n"))
    assert [len(j.games) for j in p.jobs] == [2, 2, 2, 2]
    assert p.total_games == 8


def test_seeds_are_deterministic_distinct_and_depend_on_the_experiment_seed():
    a, b, c = (make_plan(exp(ONE, seed=s)) for s in (7, 7, 8))
    assert a == b
    seeds = [s for j in a.jobs for g in j.games for s in g.seeds]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2 ** 63 for s in seeds)
    seeds_c = [s for j in c.jobs for g in j.games for s in g.seeds]
    assert not set(seeds) & set(seeds_c)
    assert [j.opening_seed for j in a.jobs] != [j.opening_seed for j in c.jobs]


def test_derive_seed_is_a_fixed_function():
    # SHA-256 based: the same in every process and Python version (never Python's hash()).
    import hashlib
    want = int.from_bytes(hashlib.sha256(b"1\x1fx\x1f2").digest()[:8], "little") & (2 ** 63 - 1)
    assert derive_seed(1, "x", 2) == want
    assert derive_seed(1, "x", 2) != derive_seed(1, "x", 3)


def test_pair_k_shares_its_opening_across_pairings():
    p = make_plan(exp("  - {player: Random, opponent: Boom}\n  - {player: Random, opponent: Slow}\n",
                      extra="openings: {random_plies: 3}\n"))
    by_k = {}
    for j in p.jobs:
        by_k.setdefault(j.pair_index, set()).add(j.opening_seed)
    assert all(len(v) == 1 for v in by_k.values()) and len(by_k) == 2


def test_random_ply_openings():
    text = opening_text("breakthrough", Openings("random_plies", 4), 123, 0)
    s = games.new_state("breakthrough", text)
    assert s.to_move() == 0          # 4 plies: white to move again
    assert text == opening_text("breakthrough", Openings("random_plies", 4), 123, 5)
    assert text != opening_text("breakthrough", Openings("random_plies", 4), 124, 0)
    assert text != games.new_state("breakthrough").to_text()
    assert opening_text("breakthrough", Openings("start"), 1, 0) == \
        games.new_state("breakthrough").to_text()


def test_missing_trims_jobs_to_the_games_not_done():
    p = make_plan(exp(ONE, games_=4))
    ids = p.game_ids()
    left = p.missing({ids[0], ids[2], ids[3]})
    assert len(left) == 1 and [g.game_id for g in left[0].games] == [ids[1]]
    assert left[0].opening_seed == p.jobs[0].opening_seed
    assert p.missing(set(ids)) == []
    assert p.missing(set()) == list(p.jobs)


def test_jobs_and_plans_pickle():
    p = make_plan(exp(ONE))
    assert pickle.loads(pickle.dumps(p.jobs)) == p.jobs


# ---- Kalah pair scoring (docs/paper.md section 3) -------------------------------------------------
@pytest.mark.parametrize("first,second,outcome", [
    (1, 0, "discarded"),        # player won as first mover, lost as second: side 0 won twice
    (0, 1, "discarded"),        # side 1 won twice
    (1, 1, "player"),
    (1, 0.5, "player"),         # win + draw counts
    (0.5, 1, "player"),
    (0, 0, "opponent"),
    (0.5, 0, "opponent"),
    (0, 0.5, "opponent"),
    (0.5, 0.5, "draw"),         # draw + draw: a drawn pair
    (None, 1, "error"),
    (0.5, None, "error"),
])
def test_pair_outcome(first, second, outcome):
    assert pair_outcome(first, second) == outcome


def test_pair_outcome_rejects_other_scores():
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        pair_outcome(0.7, 1)


def test_dry_run_description():
    p = make_plan(exp(ONE, games_=4))
    ids = p.game_ids()
    text = plan_mod.describe(p, {ids[0]}, workers=2)
    lines = text.splitlines()
    assert lines[0] == "experiment e: breakthrough, 0.1 s/move, openings start, seed 7"
    assert lines[2].split() == ["Random(im0.4)", "vs", "Random", "4", "3", "0m18s"]
    # 3 games to play x 60 plies x 0.1 s per move = 18 s of CPU
    assert lines[-1] == ("1 pairings, 4 games, 3 to play; estimated 0m18s CPU, about 0m09s on "
                         "2 workers (at 60 plies per game)")


def test_kalah_and_loa_openings():
    from mcts_arena.games.kalah import kalah_random_board
    from mcts_arena.games.loa import loa_openings
    positions = loa_openings()
    assert opening_text("loa", Openings("opening_set"), 99, 3) == positions[3]
    assert opening_text("loa", Openings("opening_set"), 99, len(positions) + 3) == positions[3]
    text = opening_text("kalah", Openings("random_boards"), 42, 0)
    assert text == kalah_random_board(42).to_text()
    assert games.new_state("kalah", text).to_text() == text
