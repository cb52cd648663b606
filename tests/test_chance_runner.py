"""Games of chance through the runner and the CLI: the match loop draws every chance outcome
from the game's dice seed and records it with the moves (a stored game replays exactly, dice
shown); both games of a seat-swapped pair see the same dice unless the config asks for
independent dice; the players that cannot play dice are refused in one line; PigOptimal and
`arena prove` for Pig; bad input is one line, exit status 2, nothing written."""
import json
import re

import pytest

from mcts_arena import games, players
from mcts_arena.errors import ConfigError, SpecError
from mcts_arena.runner import config
from mcts_arena.runner.match import play_job_list
from mcts_arena.runner.plan import make_plan

HEAD = """
name: dice
game: {game}
budget: {{sims: 1}}
games: {games}
seed: 3
"""


def experiment(game="backgammon", games_=6, dice=None, matches=None):
    text = HEAD.format(game=game, games=games_)
    if dice is not None:
        text += f"dice: {dice}\n"
    text += "matches:\n" + (matches or '  - {player: "Greedy(efBG)", opponent: Random}\n')
    return config.loads(text)


def dice_of(rec, game="backgammon"):
    """{seat: the rolls that seat made, in order} of a record, replayed from its opening."""
    s = games.new_state(game, rec.opening)
    out = {0: [], 1: []}
    for m, st in zip(rec.moves, rec.stats):
        if st.get("chance"):
            assert s.is_chance_node()
            out[s.to_move()].append(m)
        s.play(m)
    return out


# ---- plan and config ----------------------------------------------------------------------

def test_dice_seeds_common_by_default_and_independent_on_request():
    exp = experiment(matches='  - round_robin: [Random, "Greedy(efPip)", "Greedy(efBG)"]\n')
    assert exp.dice == "common" and exp.identity()["dice"] == "common"
    plan = make_plan(exp)
    by_pair = {}
    for job in plan.jobs:
        for g in job.games:
            by_pair.setdefault(g.pair_index, set()).add(g.dice_seed)
    # one seed per pair index: both games of the pair, in every pairing
    assert all(len(seeds) == 1 for seeds in by_pair.values())
    assert len({next(iter(s)) for s in by_pair.values()}) == len(by_pair)
    ind = make_plan(experiment(dice="independent",
                               matches='  - round_robin: [Random, "Greedy(efPip)"]\n'))
    seeds = [g.dice_seed for job in ind.jobs for g in job.games]
    assert len(set(seeds)) == len(seeds)


def test_dice_config_errors_and_identity_of_deterministic_games():
    with pytest.raises(ConfigError, match=r"dice: expected common or independent, got "
                                          r"'sometimes'"):
        experiment(dice="sometimes")
    with pytest.raises(ConfigError, match="dice: kalah has no chance nodes, so no dice to draw"):
        experiment(game="kalah", dice="common", matches='  - {player: Random, opponent: '
                                                        'Random}\n')
    exp = experiment(game="kalah", matches='  - {player: Random, opponent: Random}\n')
    assert "dice" not in exp.identity()       # results of before stay compatible


# ---- the match loop ----------------------------------------------------------------------

@pytest.mark.parametrize("game,player", [("backgammon", "Greedy(efBG)"), ("pig", "PigOptimal")])
def test_a_pair_sees_the_same_dice(game, player):
    exp = experiment(game=game, games_=4,
                     matches=f'  - {{player: "{player}", opponent: Random}}\n')
    for job in make_plan(exp).jobs:
        a, b = play_job_list(job, players)
        assert a.reason == b.reason == "normal" and a.winner is not None
        # each seat rolls the same dice in both games, whoever sits there
        da, db = dice_of(a, game), dice_of(b, game)
        for seat in (0, 1):
            n = min(len(da[seat]), len(db[seat]))
            assert n > 3 and da[seat][:n] == db[seat][:n]
        # the record replays: every move and roll legal, the same end
        s = games.new_state(game, a.opening)
        for m in a.moves:
            s.play(m)
        assert s.winner() == a.winner and a.plies == len(a.moves) == len(a.stats)


def test_independent_dice_differ_within_a_pair():
    exp = experiment(dice="independent", games_=2)
    a, b = play_job_list(make_plan(exp).jobs[0], players)
    assert dice_of(a)[0][:10] != dice_of(b)[0][:10]


def test_dice_are_seeded():
    job = make_plan(experiment(games_=2)).jobs[0]
    first = [r.moves for r in play_job_list(job, players)]
    assert first == [r.moves for r in play_job_list(job, players)]


def test_random_plies_openings_roll_dice_by_probability():
    exp = config.loads(HEAD.format(game="backgammon", games=2) +
                       "openings: {random_plies: 5}\nmatches:\n  - {player: Random, opponent: "
                       "Random}\n")
    from mcts_arena.runner.openings import opening_history, opening_text
    job = make_plan(exp).jobs[0]
    text = opening_text(exp.game, exp.openings, job.opening_seed, 0)
    s = games.new_state("backgammon")
    for m in opening_history(exp.game, exp.openings, job.opening_seed, 0):
        s.play(m)
    assert s.to_text() == text and s.ply == 5


# ---- players -------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,game,problem", [
    ("αβ", "pig", "αβ cannot play pig, a game with dice: the αβ search has no chance nodes "
                  "(expectimax, Star1 and Star2 are αβ with them); MCTS, Random, Greedy, FlatMC, "
                  "expectimax, Star1, Star2, MCMS, PigOptimal and py(...) can"),
    ("αβ(efBG)", "backgammon", "αβ(efBG) cannot play backgammon, a game with dice: the αβ "
                               "search has no chance nodes (expectimax, Star1 and Star2 are αβ "
                               "with them); MCTS, Random, Greedy, FlatMC, expectimax, Star1, "
                               "Star2, MCMS, gnubg and py(...) can"),
    ("MCTS(abp2)", "backgammon", "token 'abp2' in 'MCTS(abp2)' does not apply to backgammon"),
    ('GTP(cmd="gnubg")', "backgammon", "GTP carries no dice"),
    ("PigOptimal", "backgammon", "PigOptimal plays pig, not backgammon: it needs a game that is "
                                 "solved exactly"),
    ("PigOptimal", "pig(target=500)", "PigOptimal cannot play pig(target=500): Pig is solved "
                                      "for targets 1 to 300"),
])
def test_players_that_cannot_play_dice_are_refused(spec, game, problem):
    with pytest.raises(SpecError) as e:
        players.parse(spec, game)
    assert problem in str(e.value) and "\n" not in str(e.value)


def test_pig_optimal_plays_the_solution():
    from mcts_arena.games.pig_solve import solution
    p = players.make("PigOptimal", "pig(target=30)", seed=1)
    s = games.new_state("pig(target=30)", "20,25 8 0 move 9")
    move, stats = p.choose(s)
    assert move == solution(30).move(s)
    assert stats["value"] == pytest.approx(solution(30).win_probability(20, 25, 8))
    assert players.parse("pigoptimal", "pig").canonical == "PigOptimal"


# ---- the command line ---------------------------------------------------------------------

def test_play_pig_optimal_against_random(run):
    r = run("play", "pig", "PigOptimal", "Random", "--seed", "2")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "PigOptimal (first) vs Random (second)"
    assert any(". dice: " in x for x in lines) and lines[-1].startswith("result: ")


def test_play_names_the_seat_that_moves_first(run):
    """EinStein's first seat only sets up its pieces: the second seat makes the first move, so
    `arena play einstein A B` calls B the first player; in backgammon the opening roll decides
    who moves first, so the seats are named as seats."""
    r = run("play", "einstein", "Random", "Greedy", "--seed", "2")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Random (second) vs Greedy(efProgress) (first)"
    first_move = next(x for x in lines[1:] if ". dice: " not in x)
    assert ". Greedy(" in first_move
    winner = lines[-1].split(" wins ")[0].removeprefix("result: ")
    assert lines[-1].startswith("result: ") and \
        ("(first player)" in lines[-1]) == (winner.startswith("Greedy"))
    r = run("play", "backgammon", "Random", "Random(seed=3)", "--seed", "2")
    assert r.exit_code == 0, r.output
    head = r.output.splitlines()[0]
    assert head.startswith("Random (seat 0) vs ") and head.endswith(" (seat 1)")


def test_prove_pig(run):
    r = run("prove", "pig(target=20)")
    assert r.exit_code == 0 and "first player wins with probability" in r.output
    r = run("prove", "pig", "--json")
    assert json.loads(r.output)["first_player_win"] == pytest.approx(0.5306, abs=5e-5)
    r = run("prove", "pig(target=30)", "--position", "20,25 8 0 move 9", "--json")
    out = json.loads(r.output)
    assert out["move"] in ("roll", "stop") and 0 < out["win_probability"] < 1


def test_players_and_games_describe_chance(run):
    r = run("players", "backgammon")
    assert "a game with dice" in r.output and "αβ, GTP(...) and gameframe(...) cannot" in r.output
    assert "PigOptimal" in run("players", "pig").output
    assert re.search(r"^pig .*\n +evaluations: .*; solved exactly: arena prove, PigOptimal$",
                     run("games").output, re.M)


def test_show_plays_moves_and_rolls(run):
    r = run("show", "backgammon", "--move", "x31", "--move", "8/5 6/5")
    assert r.exit_code == 0
    assert "position: 24:2,13:5,8:2,6:4,5:2/24:2,13:5,8:3,6:5 o - 1" in r.output
    assert "chance outcomes (dice) (21): 11 21" in r.output


@pytest.mark.parametrize("args,message", [
    (["show", "backgammon", "--position", "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:4 x 31 0"],
     "arena: error: bad backgammon position '24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:4 x 31 0': o "
     "has 14 checkers, expected 15"),
    (["show", "backgammon", "--position", "24:2,13:5,8:3,5:5/24:2,13:5,8:3,20:5 x 31 0"],
     "arena: error: bad backgammon position '24:2,13:5,8:3,5:5/24:2,13:5,8:3,20:5 x 31 0': x "
     "and o both have checkers on x's point 5 (o's point 20)"),
    (["show", "backgammon", "--move", "x31", "--move", "8/4 6/5"],
     "arena: error: --move 2: illegal backgammon move '8/4 6/5' with 31; legal: 24/23 24/21, "
     "24/21 21/20, 24/21 8/7, 24/21 6/5, 24/23 13/10, 13/10 10/9, 13/10 8/7, 13/10 6/5, ... "
     "(16 in all)"),
    (["play", "pig(target=0)", "Random", "Random"],
     "arena: error: pig parameter target=0 out of range: expected 1 to 1000"),
    (["prove", "pig(target=0)"],
     "arena: error: pig parameter target=0 out of range: expected 1 to 1000"),
    (["play", "pig", "αβ", "Random"],
     "arena: error: αβ cannot play pig, a game with dice: the αβ search has no chance nodes "
     "(expectimax, Star1 and Star2 are αβ with them); MCTS, Random, Greedy, FlatMC, expectimax, "
     "Star1, Star2, MCMS, PigOptimal and py(...) can"),
    (["prove", "backgammon"],
     "arena: error: arena prove searches games without chance nodes; backgammon has dice and "
     "no exact solution"),
    (["gtp", "Random", "--game", "pig"],
     "arena: error: arena gtp cannot serve pig, a game with dice: GTP carries no dice"),
])
def test_bad_input_is_one_line_exit_2(run, args, message):
    r = run(*args)
    assert r.exit_code == 2 and r.output.strip() == message


def test_run_with_a_bad_pig_writes_nothing(run, tmp_path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(HEAD.format(game="pig(target=0)", games=2) +
                   "matches:\n  - {player: Random, opponent: Random}\n")
    out = tmp_path / "out"
    r = run("run", str(cfg), "--out", str(out))
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert "pig parameter target=0 out of range" in r.output and not out.exists()


def test_a_run_replays_with_its_dice(run, tmp_path):
    cfg = tmp_path / "pig.yaml"
    cfg.write_text(HEAD.format(game="pig(target=30)", games=2) +
                   "matches:\n  - {player: PigOptimal, opponent: Random}\n")
    out = tmp_path / "out"
    r = run("run", str(cfg), "--out", str(out), "--jobs", "1", "--quiet")
    assert r.exit_code == 0, r.output
    ids = [w for w in run("show", str(out)).output.split() if w.startswith("dice/")]
    assert len(ids) == 2
    r = run("show", str(out), "--game", ids[0])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert any(". dice " in x for x in lines) and any(". seat 0 " in x for x in lines)
    assert re.match(r"result: (.+ wins \(seat [01], \w+\)|draw)", lines[-1]), lines[-1]
    # the report judges the pair like any other (the seat-swapped pair statistics)
    row = json.loads(run("report", str(out), "--format", "json").output)[0]
    assert sum(row["pentanomial"]) == 1 and row["pair_ci_low"] <= row["pair_score"] <= \
        row["pair_ci_high"]
