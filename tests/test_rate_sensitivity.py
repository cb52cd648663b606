"""benchmarks/rate_sensitivity.py: a row replayed at its rate ratio's ends is the record's row
(the same openings as the record's experiment of that game), and each end is printed by the basis
the row is judged by."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

from mcts_arena.runner import config

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("rate_sensitivity",
                                               ROOT / "benchmarks/rate_sensitivity.py")
rate_sensitivity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rate_sensitivity)


@pytest.mark.parametrize("game, record_experiment, player, opponent", [
    ("breakthrough", "breakthrough_table2.yaml", "MCTS(ipp)", "MCTS"),
    ("kalah", "kalah_table7.yaml", "MCTS(fet3)", "MCTS(fet4)"),
    ("loa", "loa_table5.yaml", "MCTS(ipp,abp2,det0.5,im0.2)", "MCTS(ipp,abp2,det0.5)"),
])
def test_a_row_opens_its_games_as_the_records_experiment_of_its_game_does(
        tmp_path, game, record_experiment, player, opponent):
    row = tmp_path / "row.yaml"
    row.write_text(yaml.safe_dump(rate_sensitivity.row_config(game, player, opponent, 0.1, 200,
                                                              2014), allow_unicode=True))
    ours = config.load(row)
    record = config.load(ROOT / "configs" / record_experiment)
    assert ours.openings == record.openings
    assert (ours.seed, ours.game) == (record.seed, record.game)


def test_an_end_is_printed_by_the_basis_it_is_judged_by():
    """Kalah's rows are judged by the paper's pair rule: its score (3 of 5 decisive pairs won)
    is printed with its interval, not the per-game score beside it."""
    row = {"player_budget": {"sims": 42713}, "opponent_budget": {"sims": 52580}, "games": 200,
           "score": 0.505,
           "judged": {"basis": "pair rule", "score": 0.6, "ci_low": 0.2307, "ci_high": 0.8824}}
    assert rate_sensitivity.describe(row) == (
        "   42,713 vs    52,580: 60.0% [23.1, 88.2] (200 games, judged by pair rule)")
