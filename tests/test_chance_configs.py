"""The backgammon experiments at equal CPU time (docs/chance.md): every search carries its own
fixed budget (nodes or simulations, nothing measured in wall time), and the gnubg gauntlets use
the round robin's budgets, so the two sets of results stand for the same players."""
from __future__ import annotations

from pathlib import Path

from mcts_arena.runner import tournament

DIR = Path(__file__).resolve().parent.parent / "configs/tournaments"
GAUNTLETS = ("backgammon-gnubg-gauntlet.yaml", "backgammon-gnubg1-gauntlet.yaml",
             "backgammon-gnubg2-gauntlet.yaml")


def test_the_round_robin_gives_every_search_a_fixed_budget():
    spec = tournament.resolve(str(DIR / "backgammon-chance-rr.yaml"))
    assert spec.games == 200 and len(spec.entrants) == 4
    for label, _spec in spec.entrants:
        b = spec.budgets[label]
        assert b is not None and b.sims and b.time is None, label


def test_the_gnubg_gauntlets_use_the_round_robins_players_and_no_time_limit():
    import yaml

    rr = yaml.safe_load((DIR / "backgammon-chance-rr.yaml").read_text())["entrants"]
    plies = []
    for name in GAUNTLETS:
        g = yaml.safe_load((DIR / name).read_text())
        assert g["entrants"] == rr and g["games"] == 200, name
        assert "time" not in g["budget"], name    # gnubg's limit: 60 s, not 2t + 0.5 s
        plies.append(g["player"])
    assert plies == ["gnubg", "gnubg(plies=1)", "gnubg(plies=2)"]
