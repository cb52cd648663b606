"""Config validation: every mistake is one line (file, YAML path, expectation), exit status 2.

Player strings go through the players provider; these tests use the fake provider of
tests/fakes.py (MCTS_ARENA_PLAYERS=fakes), so the player messages are the fake's.
"""
import importlib

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.runner import config

FAKE = "fakes"
HEAD = "game: breakthrough\nbudget: {sims: 10}\ngames: 2\n"
M = "matches:\n  - {player: Random, opponent: Random(im0.5)}\n"
V = "valid fields: name, game, budget, games, seed, openings, max_plies, macros, matches, description, sprt, dice, clock, timemargin"

MALFORMED = [
    ("missing game", "budget: {sims: 10}\n" + M, "game: missing required field"),
    ("missing budget", "game: breakthrough\n" + M, "budget: missing required field"),
    ("missing matches", "game: breakthrough\nbudget: {sims: 10}\n",
     "matches: missing required field"),
    ("unknown game", "game: chess\nbudget: {sims: 10}\n" + M,
     "game: unknown game 'chess'; valid games: amazons, backgammon, breakthrough, einstein, gomoku, hex, kalah, loa, pig, tictactoe"),
    ("game parameter out of range", "game: kalah(stones=11)\nbudget: {sims: 10}\n" + M,
     "game: kalah parameter stones=11 out of range: expected 1 to 10"),
    ("unknown game parameter", "game: kalah(houses=7)\nbudget: {sims: 10}\n" + M,
     "game: unknown parameter 'houses' of kalah; valid: stones"),
    ("game not a string", "game: {kalah: 3}\nbudget: {sims: 10}\n" + M,
     "game: expected a game name such as 'amazons' or NAME(key=value,...), got dict "
     '{"kalah": 3}'),
    ("games wrong type", HEAD.replace("games: 2", "games: ten") + M,
     "games: expected an integer from 1 to 100000 (games per pairing), got 'ten'"),
    ("games zero", HEAD.replace("games: 2", "games: 0") + M,
     "games: expected an integer from 1 to 100000 (games per pairing), got 0"),
    ("games bool", HEAD.replace("games: 2", "games: true") + M,
     "games: expected an integer from 1 to 100000 (games per pairing), got True"),
    ("negative budget", "game: breakthrough\nbudget: {time: -1}\n" + M,
     "budget.time: expected a number of seconds from 0.0001 to 3600, got -1"),
    ("two budgets", "game: breakthrough\nbudget: {time: 1, sims: 5}\n" + M,
     "budget: expected exactly one of 'time' (seconds per move), 'sims' (simulations per move) "
     "or 'effort' (paper-seconds per move)"),
    ("fractional sims", "game: breakthrough\nbudget: {sims: 1.5}\n" + M,
     "budget.sims: expected an integer from 1 to 100000000, got 1.5"),
    ("budget not a mapping", "game: breakthrough\nbudget: 1\n" + M,
     ("budget: expected a mapping with 'time' (seconds per move), 'sims' (simulations per "
     "move) or 'effort' (paper-seconds per move), got 1")),
    ("unknown budget field", "game: breakthrough\nbudget: {seconds: 1}\n" + M,
     "budget.seconds: unknown field; valid fields: time, sims, effort"),
    ("unknown top field", HEAD + "gmae: kalah\n" + M, f"gmae: unknown field; {V}"),
    ("unknown player token", HEAD + "matches:\n  - {player: Randm, opponent: Random}\n",
     ("matches[0].player: bad player 'Randm': unknown player 'Randm'; valid players: Random, "
     "Boom, Slow, Crash, Doom, Sleepy, Escape, NodeKill")),
    ("unknown player option", HEAD + "matches:\n  - {player: Random, opponent: Random(zz3)}\n",
     ("matches[0].opponent: bad player 'Random(zz3)': unknown option 'zz3'; valid: imX, dX, "
     "time=S, sims=N, greedy")),
    ("alpha 1.5", HEAD + "matches:\n  - {player: Random, opponent: Boom}\n"
     "  - {player: Random, opponent: Slow}\n  - sweep:\n      player: Random(im{alpha})\n"
     "      opponent: Random\n      alpha: [0, 0.1, 0.5, 1.5]\n",
     "matches[2].sweep.alpha[3]: bad player 'Random(im1.5)': im1.5: alpha must be in [0, 1]"),
    ("empty sweep", HEAD + "matches:\n  - sweep: {player: 'Random(im{alpha})', opponent: Random, "
     "alpha: []}\n", "matches[0].sweep.alpha: expected a non-empty list of values, got list []"),
    ("sweep without variables", HEAD + "matches:\n  - sweep: {player: 'Random(im{alpha})', "
     "opponent: Random}\n",
     "matches[0].sweep: expected at least one variable list such as alpha: [0.1, 0.2]"),
    ("sweep placeholder undefined", HEAD + "matches:\n  - sweep: {player: 'Random(im{alpha})', "
     "opponent: 'Random(d{beta})', alpha: [0.1]}\n",
     "matches[0].sweep.opponent: template uses {beta} but the sweep defines only alpha"),
    ("sweep variable unused", HEAD + "matches:\n  - sweep: {player: 'Random(im{alpha})', "
     "opponent: Random, alpha: [0.1], beta: [1]}\n",
     ("matches[0].sweep.beta: variable is not used in the player or opponent template "
     "(write {beta} in one)")),
    ("sweep value wrong type", HEAD + "matches:\n  - sweep: {player: 'Random(im{alpha})', "
     "opponent: Random, alpha: [0.1, [2]]}\n",
     "matches[0].sweep.alpha[1]: expected a number or a string, got list [2]"),
    ("duplicate pairing reversed", HEAD + "matches:\n  - {player: Random, opponent: Boom}\n"
     "  - {player: Boom, opponent: Random}\n",
     "matches[1]: duplicate pairing Boom vs Random: the same players as matches[0]"),
    ("duplicate pairing by canonical name", HEAD + "matches:\n  - {player: Random(im0.50), "
     "opponent: Boom}\n  - {player: Random(im.5), opponent: Boom}\n",
     "matches[1]: duplicate pairing Random(im0.5) vs Boom: the same players as matches[0]"),
    ("duplicate YAML key", HEAD + "game: kalah\n" + M,
     "YAML syntax error: line 4, column 1: duplicate key 'game'"),
    ("YAML syntax error", HEAD + "matches:\n  - {player: Random, opponent: Random\n",
     "YAML syntax error: line 6, column 1: expected ',' or '}', but got '<stream end>'"),
    ("empty matches", HEAD + "matches: []\n",
     "matches: expected a non-empty list of matches, got list []"),
    ("entry of no kind", HEAD + "matches:\n  - {games: 4}\n",
     "matches[0]: expected one of: player, sweep, round_robin, gauntlet, scaling"),
    ("entry of two kinds", HEAD + "matches:\n  - {player: Random, opponent: Boom, "
     "round_robin: [Random, Boom]}\n", "matches[0]: expected only one of: player, round_robin"),
    ("unknown entry field", HEAD + "matches:\n  - {player: Random, opponent: Boom, budget: 3}\n",
     "matches[0].budget: unknown field; valid fields: player, opponent, games, clock"),
    ("missing opponent", HEAD + "matches:\n  - {player: Random}\n",
     "matches[0].opponent: missing required field"),
    ("player not a string", HEAD + "matches:\n  - {player: 3, opponent: Random}\n",
     "matches[0].player: expected a player spec string such as 'MCTS(ipp)', got 3"),
    ("round robin of one", HEAD + "matches:\n  - round_robin: [Random]\n",
     'matches[0].round_robin: expected a list of at least 2 players, got list ["Random"]'),
    ("gauntlet opponents not a list", HEAD + "matches:\n  - gauntlet: {player: Random, "
     "opponents: Boom}\n",
     "matches[0].gauntlet.opponents: expected a non-empty list of players, got 'Boom'"),
    ("kalah openings in breakthrough", HEAD + "openings: random_boards\n" + M,
     "openings: unknown openings 'random_boards' for breakthrough; valid: start, random_plies"),
    ("unknown openings", HEAD + "openings: book\n" + M,
     "openings: unknown openings 'book' for breakthrough; valid: start, random_plies"),
    ("negative random plies", HEAD + "openings: {random_plies: -2}\n" + M,
     "openings.random_plies: expected a non-negative integer, got -2"),
    ("name with a slash", "name: a/b\n" + HEAD + M,
     ("name: expected a name of letters, digits, '_', '.', '-' (it names the results "
     "directory), got 'a/b'")),
    ("negative seed", HEAD + "seed: -1\n" + M,
     "seed: expected an integer from 0 to 9223372036854775807, got -1"),
    ("top level a list", "- game: breakthrough\n",
     'expected a mapping at the top level, got list [{"game": "breakthrough"}]'),
    ("empty file", "",
     "empty config; expected a mapping with at least 'game', 'budget' and 'matches'"),
    ("negative games in an entry", HEAD + "matches:\n  - {player: Random, opponent: Boom, "
     "games: -4}\n", "matches[0].games: expected an integer from 1 to 100000 (games per pairing), got -4"),
    ("macro not a string", HEAD + "macros: {bl: 3}\n" + M,
     "macros.bl: expected an option list such as 'ege0.1,det0.5', got 3"),
]


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, FAKE)
    return tmp_path


@pytest.mark.parametrize("text,message", [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_config_is_one_line_and_exit_2(in_tmp, text, message):
    (in_tmp / "bad.yaml").write_text(text)
    res = CliRunner().invoke(cli, ["run", "bad.yaml", "--dry-run"])
    assert res.exit_code == 2
    assert res.output == f"arena: error: bad.yaml: {message}\n"
    assert "Traceback" not in res.output


def test_table_is_large_enough():
    assert len(MALFORMED) >= 20


@pytest.mark.parametrize("args,message", [
    (["run", "nope.yaml"], "nope.yaml: no such file"),
    (["run", ".", "--dry-run"], ".: is a directory, expected a YAML file"),
])
def test_missing_or_unreadable_file(in_tmp, args, message):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2 and res.output == f"arena: error: {message}\n"


def fake():
    return importlib.import_module(FAKE)


def test_valid_config_all_match_kinds():
    text = (HEAD + "macros: {strong: 'im0.4,d0'}\n"
            "matches:\n"
            "  - {player: Random(strong), opponent: Random, games: 6}\n"
            "  - sweep: {player: 'Random(im{a})', opponent: 'Sleepy(d{b})', a: [0.1, 0.2], b: [0, 1]}\n"
            "  - round_robin: [Boom, Slow, Crash]\n"
            "  - gauntlet: {player: Doom, opponents: [Random, Boom]}\n"
            "    games: 4\n")
    exp = config.loads(text, source="x.yaml", players=fake())
    labels = [p.label for p in exp.pairings]
    assert labels == [
        "Random(im0.4,d0) vs Random",
        "Random(im0.1) vs Sleepy(d0)", "Random(im0.1) vs Sleepy(d1)",
        "Random(im0.2) vs Sleepy(d0)", "Random(im0.2) vs Sleepy(d1)",
        "Boom vs Slow", "Boom vs Crash", "Slow vs Crash",
        "Doom vs Random", "Doom vs Boom"]
    assert [p.games for p in exp.pairings] == [6] + [2] * 7 + [4, 4]
    assert [p.where for p in exp.pairings] == ["matches[0]"] + ["matches[1]"] * 4 + ["matches[2]"] * 3 + ["matches[3]"] * 2
    assert exp.macros == (("strong", "im0.4,d0"),)
    assert exp.openings == config.Openings("start", 0) and exp.seed == 1
    assert len({p.id for p in exp.pairings}) == len(exp.pairings)


def test_overrides_and_spec_budget():
    text = HEAD + "matches:\n  - {player: 'Random(time=0.5)', opponent: Random, games: 10}\n"
    exp = config.loads(text, players=fake(),
                       overrides=config.Overrides(games=3, time=0.25))
    assert exp.budget == config.Budget(time=0.25) and exp.games == 3
    (p,) = exp.pairings
    assert p.games == 3 and p.player_budget == config.Budget(time=0.5)
    assert p.opponent_budget is None


def test_default_openings_per_game():
    for game, kind in (("kalah", "random_boards"), ("loa", "opening_set"),
                       ("breakthrough", "start")):
        text = f"game: {game}\nbudget: {{sims: 5}}\n" + M
        assert config.loads(text, players=fake()).openings.kind == kind


def test_pairing_id_depends_on_players_only():
    a = config.pairing_id("MCTS(bl,im0.4)", "MCTS(bl)")
    assert a == config.pairing_id("MCTS(bl,im0.4)", "MCTS(bl)")
    assert a != config.pairing_id("MCTS(bl)", "MCTS(bl,im0.4)")
    assert a.startswith("p") and len(a) == 9


def test_shipped_configs_are_valid_yaml_with_the_papers_alpha_set():
    from pathlib import Path

    import yaml
    root = Path(__file__).resolve().parents[1] / "configs"
    quick = yaml.safe_load((root / "quickstart.yaml").read_text())
    assert quick["budget"] == {"time": 0.05} and quick["games"] == 40
    assert quick["matches"] == [{"player": "MCTS(ipp,im0.4)", "opponent": "MCTS(ipp)"}]
    alpha = yaml.safe_load((root / "breakthrough_alpha.yaml").read_text())
    sweep = alpha["matches"][0]["sweep"]
    assert sweep["alpha"] == [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55,
                              0.6, 0.75, 1]
    assert alpha["budget"] == {"time": 1.0} and alpha["games"] == 1000


@pytest.mark.parametrize("text,message", [
    (HEAD + "matches:\n  - sweep: {player: 'MCTS(bl,im{alpha})', opponent: 'MCTS(bl)', "
     "alpha: [0.1, 1.5]}\n",
     ("matches[0].sweep.alpha[1]: bad player 'MCTS(bl,im1.5)': value out of range in token "
     "'im1.5' of 'MCTS(bl,im1.5)': expected 0 to 1")),
    (HEAD + "matches:\n  - {player: 'MCTS(ipp)', opponent: 'MCTS(zz)'}\n",
     ("matches[0].opponent: bad player 'MCTS(zz)': unknown token 'zz' in 'MCTS(zz)' for MCTS; "
     "valid tokens: ")),
])
def test_real_player_tokens_are_checked_by_players_parse(tmp_path, monkeypatch, text, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(config.PLAYERS_ENV, raising=False)
    (tmp_path / "bad.yaml").write_text(text)
    res = CliRunner().invoke(cli, ["run", "bad.yaml", "--dry-run"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith(f"arena: error: bad.yaml: {message}")


def test_real_players_canonical_names_and_macros():
    text = (HEAD + "macros: {mine: 'ipp,im0.3'}\n"
            "matches:\n  - {player: 'MCTS(mine)', opponent: 'MCTS(ipp, sims=100)'}\n")
    exp = config.loads(text, players=importlib.import_module("mcts_arena.players"))
    (p,) = exp.pairings
    assert (p.player, p.opponent) == ("MCTS(ipp,im0.3)", "MCTS(ipp,sims=100)")
    assert p.opponent_budget == config.Budget(sims=100) and p.player_budget is None
