"""`arena bench --openspiel`: ours against OpenSpiel's game and MCTS at the same settings.

What is checked is the comparison's structure and that both sides play the same game (a speed
figure, never a test of speed): tiny times, the counts and settings each side used."""
import json

import pytest
from click.testing import CliRunner

from mcts_arena import games
from mcts_arena.bench import openspiel as vs
from mcts_arena.cli import cli

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("ours, theirs", [
    ("breakthrough", "breakthrough"), ("hex", "hex(board_size=11)"),
    ("hex(size=7)", "hex(board_size=7)"), ("gomoku", "gomoku(size=15)"), ("kalah", "mancala"),
    ("loa", "lines_of_action"), ("tictactoe", "tic_tac_toe")])
def test_counterparts_start_with_the_same_moves(ours, theirs):
    """Each counterpart is OpenSpiel's same game at matching parameters: the start offers as
    many moves on both sides (Gomoku searched over every empty cell, as OpenSpiel's is)."""
    spec, os_text, note = vs.counterpart(ours)
    assert os_text == theirs and note
    ours_moves = games.new_state(spec).moves()
    assert len(ours_moves) == len(pyspiel.load_game(os_text).new_initial_state().legal_actions())


def test_counterpart_parameters_and_refusals():
    assert vs.counterpart("gomoku")[0] == "gomoku(near=0)"
    assert vs.counterpart("pig(target=50)")[1] == "pig(diceoutcomes=6,horizon=1000,winscore=50)"
    assert vs.counterpart("backgammon")[1] == "backgammon(max_player_turns=500)"
    assert vs.counterpart("backgammon(scoring=2)") == "OpenSpiel's backgammon has no scoring=2"
    assert vs.counterpart("hex(swap=1)") == "OpenSpiel's hex has no swap=1"
    assert vs.counterpart("kalah(stones=3)") == "OpenSpiel's mancala has no stones=3"


def test_compare_measures_both_sides_alike():
    out = vs.compare(["kalah", "pig", "hex(swap=1)"], 0.02, rounds=2, length_games=5)
    assert out["rounds"] == 2 and out["seconds"] == 0.02
    assert out["games"]["hex(swap=1)"] == {"skipped": "OpenSpiel's hex has no swap=1"}
    for game in ("kalah", "pig"):
        row = out["games"][game]
        assert row["openspiel_game"] in ("mancala", "pig(diceoutcomes=6,horizon=1000,winscore=100)")
        s, g = row["search"], row["random_games"]
        n = row["sims_per_search"]
        # the same simulations per search on both sides, one OpenSpiel search a round
        assert s["openspiel_sims"] == 2 * n and s["ours_sims"] % n == 0 and s["ours_sims"] >= 2 * n
        # the ratio is printed to 2 decimals (under load it may fall below 1)
        assert s["ratio"] == pytest.approx(s["ours_sims_per_s"] / s["openspiel_sims_per_s"],
                                           rel=0.01, abs=0.005)
        assert g["ours_games"] > 0 and g["openspiel_games"] > 0 and g["ratio"] > 0
        for ratios in (s["ratio_range"], g["ratio_range"]):
            assert len(ratios) == 2 and 0 < ratios[0] <= ratios[1]
        assert g["ours_avg_plies"] > 1 and g["openspiel_avg_plies"] > 1
    assert out["games"]["kalah"]["C"] == games.info_of("kalah").default_c
    text = "\n".join(vs.format_table(out))
    assert "hex(swap=1)   skipped: OpenSpiel's hex has no swap=1" in text
    assert "kalah: ours kalah, OpenSpiel mancala" in text


def test_rounds_alternate_which_side_goes_first(monkeypatch):
    """Even rounds time ours first, odd rounds OpenSpiel's: a load that changes during the run
    falls on both sides."""
    order = []
    for name in ("our_search", "os_search", "our_games", "os_games"):
        monkeypatch.setattr(vs._Pair, name, lambda self, r, name=name: order.append((r, name)))
    monkeypatch.setattr(vs._Pair, "rates", lambda self: dict.fromkeys(
        ("ours_sims", "os_sims", "ours_games", "os_games"), 1.0))
    vs.compare(["tictactoe"], 0.01, rounds=2, length_games=2)
    assert order == [(0, "our_search"), (0, "os_search"), (0, "our_games"), (0, "os_games"),
                     (1, "os_search"), (1, "our_search"), (1, "os_games"), (1, "our_games")]


def test_cli_openspiel_json_and_table():
    r = CliRunner().invoke(cli, ["bench", "tictactoe", "--openspiel", "--seconds", "0.02",
                                 "--rounds", "2", "--json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)["games"]["tictactoe"]
    assert row["openspiel_game"] == "tic_tac_toe" and row["search"]["ratio"] > 0
    r = CliRunner().invoke(cli, ["bench", "tictactoe", "--openspiel", "--seconds", "0.02",
                                 "--rounds", "1"])
    assert r.exit_code == 0 and "random games/s" in r.output and "ours/OS" in r.output
    bad = CliRunner().invoke(cli, ["bench", "kalah", "--openspiel", "--search"])
    assert bad.exit_code == 2
    assert bad.output.strip() == ("arena: error: --search and --openspiel are two different "
                                  "benches: give one")
