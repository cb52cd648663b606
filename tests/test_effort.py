"""Matched-effort budgets: each player gets the paper engine's simulations/nodes for S seconds,
from the rate entry that fits it best; the resolved budget reaches the search and the store."""
import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.players import parse
from mcts_arena.runner import config, effort, plan

RATES = """
rates:
  - {game: breakthrough, player: "MCTS", unit: sims, per_second: 9000, source: test}
  - {game: breakthrough, player: "MCTS(ipp)", unit: sims, per_second: 4000, source: test}
  - {game: breakthrough, player: "MCTS(bl)", unit: sims, per_second: 3000, source: test}
  - {game: breakthrough, player: "MCTS(bl,im0.4)", unit: sims, per_second: 2500, source: test}
  - {game: breakthrough, player: "αβ(efMS)", unit: nodes, per_second: 800000, source: test}
  - {game: breakthrough, player: "αβ(efLH)", unit: nodes, per_second: 600000, source: test}
"""


@pytest.fixture
def rates(tmp_path, monkeypatch):
    p = tmp_path / "rates.yaml"
    p.write_text(RATES)
    monkeypatch.setenv(effort.RATES_ENV, str(p))
    return effort.load_rates()


@pytest.mark.parametrize("player, entry, sims", [
    ("MCTS", "MCTS", 4500),
    ("MCTS(ipp)", "MCTS(ipp)", 2000),
    ("MCTS(bl)", "MCTS(bl)", 1500),
    ("MCTS(bl,im0.6)", "MCTS(bl,im0.4)", 1250),      # alpha does not change the cost
    ("MCTS(bl,im0.6,np)", "MCTS(bl,im0.4)", 1250),   # np is cost-free
    ("MCTS(ipp,fet20)", "MCTS(ipp)", 2000),          # nearest listed kind
    ("MCTS(C=0.3)", "MCTS", 4500),
    ("αβ(efMS)", "αβ(efMS)", 400000),
    ("αβ(efLH)", "αβ(efLH)", 300000),
])
def test_most_specific_rate(rates, player, entry, sims):
    b = effort.resolve(parse(player, "breakthrough"), 0.5, parse)
    unit = "nodes" if player.startswith("αβ") else "sims"
    assert b == {"sims": sims, "effort": 0.5, "rate_of": entry, "unit": unit}


def test_no_rate_is_a_user_error(rates):
    with pytest.raises(effort.EffortError, match=r"no engine rate for MCTS\(fet4\) in kalah"):
        effort.resolve(parse("MCTS(fet4)", "kalah"), 1.0, parse)


def test_random_needs_no_rate(rates):
    assert effort.resolve(parse("Random", "kalah"), 2.0, parse) == {"sims": 1, "effort": 2.0}


def test_malformed_rates_file(tmp_path):
    with pytest.raises(effort.EffortError, match=r"rates\[0\].per_second: expected a positive"):
        effort.parse_rates({"rates": [{"game": "g", "player": "MCTS", "unit": "sims",
                                       "per_second": -3, "source": "x"}]}, "f")
    with pytest.raises(effort.EffortError, match=r"rates\[0\]: missing field 'source'"):
        effort.parse_rates({"rates": [{"game": "g", "player": "MCTS", "unit": "sims",
                                       "per_second": 3}]}, "f")


CFG = """name: eff
game: breakthrough
budget: {effort: 0.2}
games: 2
matches:
  - {player: "MCTS(bl,im0.4)", opponent: "αβ(efMS)"}
  - {player: "MCTS(ipp)", opponent: "MCTS(ipp,sims=77)"}
"""


def test_config_resolves_effort_per_player(rates):
    exp = config.loads(CFG)
    assert exp.budget == config.Budget(effort=0.2)
    p0, p1 = exp.pairings
    assert p0.player_budget.as_dict() == {"sims": 500, "effort": 0.2, "rate_of": "MCTS(bl,im0.4)",
                                           "unit": "sims"}
    assert p0.opponent_budget.as_dict() == {"sims": 160000, "effort": 0.2, "rate_of": "αβ(efMS)",
                                             "unit": "nodes"}
    assert p1.opponent_budget.as_dict() == {"sims": 77}     # a spec's own budget wins
    g = plan.pair_games(exp, p0, 0)
    assert g[1].budgets == (p0.opponent_budget.as_dict(), p0.player_budget.as_dict())


def test_config_without_rate_names_the_player(rates):
    with pytest.raises(config.ConfigError, match=r"matches\[0\].player: no engine rate for "
                                                 r"MCTS\(fet4\) in kalah"):
        config.loads("game: kalah\nbudget: {effort: 1}\nmatches:\n"
                     "  - {player: MCTS(fet4), opponent: Random}\n")


@pytest.mark.slow
def test_run_plays_resolved_budgets_and_scales_np(rates, tmp_path):
    cfg = tmp_path / "eff.yaml"
    cfg.write_text("name: eff\ngame: breakthrough\nbudget: {effort: 0.2}\ngames: 2\nmatches:\n"
                   "  - {player: 'MCTS(bl,np)', opponent: 'MCTS(ipp)'}\n")
    r = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "res"), "--jobs", "1",
                                 "--quiet"])
    assert r.exit_code == 0, r.output
    from mcts_arena.results.store import Store
    with Store.open(tmp_path / "res") as st:
        recs = st.games()
    assert len(recs) == 2
    for rec in recs:
        seat_bl = 0 if rec["seat0"] == "MCTS(bl,np)" else 1
        per_seat = {0: [], 1: []}
        for s in rec["stats"]:
            per_seat[s["seat"]].append(s["sims"])
        assert rec["budgets"][seat_bl]["sims"] == 600      # MCTS(bl) rate 3000 x 0.2
        assert rec["budgets"][1 - seat_bl]["sims"] == 800   # MCTS(ipp) rate 4000 x 0.2
        # the search spent exactly its budget on every move that was searched at all
        assert max(per_seat[seat_bl]) == 600 and max(per_seat[1 - seat_bl]) == 800


def test_cli_effort_excludes_time(tmp_path):
    r = CliRunner().invoke(cli, ["run", "configs/quickstart.yaml", "--effort", "1", "--time", "1"])
    assert r.exit_code == 2 and "--effort excludes --time and --sims" in r.output


@pytest.mark.slow
def test_changed_rates_refuse_to_mix_games(rates, tmp_path, monkeypatch):
    cfg = tmp_path / "eff.yaml"
    cfg.write_text("name: eff\ngame: breakthrough\nbudget: {effort: 0.05}\ngames: 2\nmatches:\n"
                   "  - {player: 'MCTS(ipp)', opponent: 'MCTS'}\n")
    args = ["run", str(cfg), "--out", str(tmp_path / "res"), "--jobs", "1", "--quiet"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    # a rate this experiment does not use changes nothing for it (a new entry for another
    # player must not lock every stored experiment) ...
    unused = tmp_path / "rates1.yaml"
    unused.write_text(RATES.replace("per_second: 3000", "per_second: 3100"))
    monkeypatch.setenv(effort.RATES_ENV, str(unused))
    r = CliRunner().invoke(cli, args + ["--games", "4"])
    assert r.exit_code == 0, r.output
    # ... one it uses refuses, naming the pairing and both budgets
    other = tmp_path / "rates2.yaml"
    other.write_text(RATES.replace("per_second: 4000", "per_second: 4100"))
    monkeypatch.setenv(effort.RATES_ENV, str(other))
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2
    assert ("holds 4 games of MCTS(ipp) vs MCTS played with the player's budget "
            '{"effort": 0.05, "rate_of": "MCTS(ipp)", "sims": 200, "unit": "sims"}, now '
            '{"effort": 0.05, "rate_of": "MCTS(ipp)", "sims": 205, "unit": "sims"} (an engine '
            "rate changed?)") in r.output


def test_equal_features_prefer_equal_values(tmp_path):
    rates = effort.parse_rates({"rates": [
        {"game": "breakthrough", "player": "MCTS(efLH,ipp,fet20,np)", "unit": "sims",
         "per_second": 50000, "source": "t"},
        {"game": "breakthrough", "player": "MCTS(efLH,ipp,fet8)", "unit": "sims",
         "per_second": 100000, "source": "t"}]}, "t")
    def pick(p):
        return effort.rate_for(parse(p, "breakthrough"), parse, rates).per_second
    assert pick("MCTS(efLH,ipp,fet8)") == 100000
    assert pick("MCTS(bl')") == 50000          # efLH,ipp,fet20,np: fet20 and np match
    assert pick("MCTS(efLH,ipp,fet30)") == 50000   # a tie on values: the first listed


def test_alphabeta_with_and_without_a_transposition_table_have_their_own_rates():
    """The authors' αβ searches several times the nodes per second without its table, so
    αβ(...,tt=0) and αβ(...) (table on) must not share an entry (the shipped rates file; the
    figures themselves are measurements, benchmarks/paper_engine)."""
    def entry(p):
        return effort.rate_for(parse(p, "breakthrough"), parse, effort.load_rates()).player

    assert entry("αβ(efMS,tt=0,hh=0)") == "αβ(efMS,tt=0)"
    assert entry("αβ(efMS,hh=0)") == entry("αβ(efMS)") == "αβ(efMS)"
    assert entry("αβ(efLH,tt=0,hh=0)") == "αβ(efLH,tt=0)"
    assert entry("αβ(efLH,hh=0)") == "αβ(efLH)"


def test_the_bias_controls_cost_what_implicit_minimax_costs():
    """cb and pbim evaluate every child at expansion as im does: in the shipped rates file they
    take MCTS(bl,im)'s entry, not MCTS(bl)'s, so Table 2's im-against-control rows are matched."""
    def entry(p):
        return effort.rate_for(parse(p, "breakthrough"), parse, effort.load_rates()).player

    assert entry("MCTS(bl,im0.4)") == entry("MCTS(bl,cb0.4)") == entry("MCTS(bl,pbim0.4)")
    assert entry("MCTS(bl,cb0.4)") != entry("MCTS(bl)") == "MCTS(bl)"
    assert entry("MCTS(bl,mb1000)") == "MCTS(bl)"
