"""The foundation CLI through click's CliRunner: games, perft, show, bench, players, play."""
import json

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli


def test_help_on_every_command(run):
    top = run("--help")
    assert top.exit_code == 0
    for cmd in ["games", "perft", "show", "bench", "players", "play", "run"]:
        r = run(cmd, "--help")
        assert r.exit_code == 0 and "Usage" in r.output, cmd


def test_games_lists_evaluations(run):
    r = run("games")
    assert r.exit_code == 0
    assert "breakthrough" in r.output and "efMS, efLH" in r.output and "efRS" in r.output
    assert "efWB" in r.output


@pytest.mark.parametrize("game,depth,count", [("breakthrough", 3, 11132), ("kalah", 5, 4690),
                                              ("tictactoe", 3, 504), ("loa", 2, 1244)])
def test_perft_prints_count_last(run, game, depth, count):
    r = run("perft", game, str(depth))
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == str(count)


def test_perft_from_position(run):
    r = run("perft", "kalah", "1", "--position", "0,0,0,0,0,1,0/1,1,1,1,1,1,0 0")
    assert r.output.strip().splitlines()[-1] == "1"


def test_show_start_and_position(run):
    r = run("show", "breakthrough")
    assert "White to move" in r.output and "legal moves (22)" in r.output
    r = run("show", "tictactoe", "--position", "x../.o./... x")
    assert r.exit_code == 0 and "legal moves (7)" in r.output


def test_bench_json(run):
    r = run("bench", "kalah", "tictactoe", "--seconds", "0.05", "--json")
    data = json.loads(r.output)
    assert set(data) == {"kalah", "tictactoe"}
    for row in data.values():
        assert row["playouts_per_s"] > 0 and row["avg_plies"] > 0
    assert data["tictactoe"]["avg_plies"] <= 9


def _random_ttt_length(cells=(0,) * 9, mover=1) -> float:
    """The exact mean length of a uniformly random tic-tac-toe game, by enumeration."""
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6))
    if any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in lines) or all(cells):
        return 0.0
    empty = [i for i in range(9) if not cells[i]]
    return 1.0 + sum(_random_ttt_length(cells[:i] + (mover,) + cells[i + 1:], 3 - mover)
                     for i in empty) / len(empty)


@pytest.mark.slow
def test_bench_mean_plies_are_exact_not_integer_divided():
    """`arena bench` printed tic-tac-toe's mean length as 7.0 (a C integer division)."""
    from mcts_arena.bench.loops import average_plies

    from mcts_arena import games
    exact = _random_ttt_length()
    assert exact == pytest.approx(7.6, abs=0.1)
    mean = average_plies(games.new_state("tictactoe"), 20000)
    assert mean == pytest.approx(exact, abs=0.05)       # sd 1.2 / sqrt(20000): 6 sigma
    assert mean != int(mean)


def test_bench_search_json(run):
    r = run("bench", "tictactoe", "--search", "--seconds", "0.05", "--json")
    data = json.loads(r.output)["tictactoe"]
    assert data["MCTS"]["sims_per_s"] > 0 and data["MCTS"]["bytes_per_node"] <= 100
    assert data["αβ(efTTT)"]["nodes_per_s"] > 0


def test_players_lists_tokens_and_macros(run):
    r = run("players", "breakthrough")
    assert "imα" in r.output and "macro bl " in r.output and "macro bl'" in r.output


def test_play_one_game(run):
    r = run("play", "tictactoe", "MCTS", "ab(d9)", "--sims", "2000", "--seed", "3")
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == "result: draw"


BAD = [
    (["perft", "chess", "3"], "arena: error: unknown game 'chess'; valid games: amazons, backgammon, breakthrough, einstein, gomoku, hex, kalah, loa, pig, tictactoe"),
    (["perft", "breakthrough", "-1"], "arena: error: DEPTH must be an integer from 0 to 1000, got -1"),
    (["perft", "breakthrough", "x"], "arena: error: DEPTH must be an integer from 0 to 1000, got x"),
    (["show", "breakthrough", "--position", "xx"], "arena: error: bad Breakthrough position 'xx': expected 8 ranks 'rank8/.../rank1' and a side 'w' or 'b'"),
    (["bench", "--seconds", "0"], "arena: error: --seconds must be a number of seconds from 0.0001 to 3600, got 0.0"),
    (["bench", "go"], "arena: error: unknown game 'go'; valid games: amazons, backgammon, breakthrough, einstein, gomoku, hex, kalah, loa, pig, tictactoe"),
    (["play", "breakthrough", "MCTS(foo)", "MCTS"], "arena: error: unknown token 'foo' in 'MCTS(foo)' for MCTS; valid tokens: abp, cb, det, df, ege, exp, fa, fet, gumbel, im, ima, imas, ipp, mb, np, ol, pb, pbim, pu, puct, puctp, rave, sfx, sl, tuned, ef…, key=value"),
    (["play", "breakthrough", "MCTS", "MCTS", "--sims", "0"], "arena: error: --sims must be an integer from 1 to 100000000, got 0"),
    (["players", "chess"], "arena: error: unknown game 'chess'; valid games: amazons, backgammon, breakthrough, einstein, gomoku, hex, kalah, loa, pig, tictactoe"),
    (["show", "kalah", "--id", "x"], "arena: error: a game id needs a results directory (holding arena.sqlite) or an exported file, not 'kalah'"),
    (["show", "kalah", "x"], "arena: error: a game id needs a results directory (holding arena.sqlite) or an exported file, not 'kalah'"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2(run, args, message):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert r.output.strip() == message
    assert "Traceback" not in r.output


def test_games_with_parameters_everywhere(run):
    """NAME(key=value) works in perft, show, play and bench; parameters are listed; a bad one is
    a one-line error naming it and its range."""
    assert "stones=4   stones in each house at the start (1 to 10)" in run("games").output
    assert run("perft", "kalah(stones=1)", "3").output.splitlines()[-1] == "179"
    assert run("perft", "kalah", "3").output.splitlines()[-1] == "185"
    shown = run("show", "kalah(stones=3)").output
    assert "position: 3,3,3,3,3,3,0/3,3,3,3,3,3,0 0" in shown
    out = run("play", "kalah(stones=2)", "Random", "Greedy", "--sims", "1").output
    assert out.splitlines()[-1].startswith("result: ")
    assert "kalah(stones=2)" in run("bench", "kalah(stones=2)", "--seconds", "0.05").output
    bad = CliRunner().invoke(cli, ["perft", "kalah(stones=0)", "2"])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("arena: error: kalah parameter stones=0 out of range: "
                                  "expected 1 to 10")


def test_config_with_game_parameters(tmp_path):
    from mcts_arena.runner import config
    p = tmp_path / "c.yaml"
    p.write_text("game: kalah( stones = 3 )\nbudget: {sims: 5}\ngames: 2\n"
                 "matches:\n  - {player: Random, opponent: Greedy}\n")
    exp = config.load(p)
    assert exp.game == "kalah(stones=3)" and exp.openings.kind == "random_boards"
