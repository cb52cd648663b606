"""arena reproduce: manifest, scaling to matched effort, verdicts, pages (real SQLite stores)."""
import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.report.record_model import Ours, row_verdict
from mcts_arena.report.verdict import Verdict, judge
from mcts_arena.runner import config as cfg
from mcts_arena.runner import effort, reproduce

RATES = """rates:
  - {game: kalah, player: "MCTS", unit: sims, per_second: 3000, ci95: [2900, 3100], games: 10, source: test}
  - {game: kalah, player: "MCTS(fet4)", unit: sims, per_second: 2000, ci95: [1900, 2100], games: 10, source: test}
"""
CONFIG = """name: tiny_kalah
description: "tiny: Kalah at the paper's 1 s"
game: kalah
budget: {time: 1.0}
games: 1000
seed: 3
openings: random_boards
matches:
  - {player: "MCTS(fet4)", opponent: "MCTS"}
  - sweep: {player: "MCTS(fet4,im{alpha})", opponent: "MCTS(fet4)", alpha: [0.1, 0.3, 0.9]}
"""
MANIFEST = """pages:
  - {id: kal, title: "Tiny Kalah page", experiments: [tiny_kalah.yaml]}
  - {id: other, title: "Not played", experiments: [tiny_kalah.yaml]}
"""

PLAYERS = cfg.players_provider()


@pytest.fixture
def setup(tmp_path, monkeypatch):
    (tmp_path / "rates.yaml").write_text(RATES)
    monkeypatch.setenv(effort.RATES_ENV, str(tmp_path / "rates.yaml"))
    (tmp_path / "tiny_kalah.yaml").write_text(CONFIG)
    (tmp_path / "manifest.yaml").write_text(MANIFEST)
    return tmp_path


# every side (right, wrong, undecided) with every value (inside, above, below) that can occur,
# the paper on either side of 50%, and the bounds that touch 50% or the paper's value; a wrong
# side with the value inside cannot (the next test)
@pytest.mark.parametrize("lo, hi, paper, side, value", [
    (55, 70, 65, "right", "inside"),
    (55, 60, 80, "right", "above"),
    (70, 90, 60, "right", "below"),
    (10, 30, 40, "right", "above"),       # the paper below 50%, ours too
    (30, 45, 80, "wrong", "above"),
    (55, 65, 40, "wrong", "below"),
    (45, 70, 60, "undecided", "inside"),
    (40, 55, 80, "undecided", "above"),
    (45, 55, 20, "undecided", "below"),
    (50, 60, 55, "undecided", "inside"),  # a bound on 50% holds it
    (50.001, 60, 60, "right", "inside"),  # a bound on the paper's value holds it
    (45, 55, 50, "unclaimed", "inside"),  # the paper at 50% claims no side
    (52, 60, 50, "unclaimed", "below"),
])
def test_a_verdict_states_the_side_and_the_value_apart(lo, hi, paper, side, value):
    v = judge(lo, hi, paper)
    assert (v.side, v.value) == (side, value)
    assert v.text == f"side {side}, value " + {"inside": "inside", "above": "above ours",
                                                "below": "below ours"}[value]


def test_a_wrong_side_never_holds_the_papers_value():
    """An interval that excludes 50% on the side away from the paper's value cannot hold it:
    across a grid of intervals and values, "side wrong, value inside" never comes out, and
    every other pair does."""
    grid = [x / 2 for x in range(0, 201, 5)]
    seen = {(v.side, v.value) for lo in grid for hi in grid if lo <= hi for p in grid
            for v in [judge(lo, hi, p)]}
    assert ("wrong", "inside") not in seen
    assert len(seen) == 11          # right, undecided, unclaimed x 3 values; wrong x 2


@pytest.mark.parametrize("lo, hi, side", [(55, 70, "right"), (20, 45, "wrong"),
                                          (45, 60, "undecided")])
def test_a_figures_claim_gets_a_side_and_no_value(lo, hi, side):
    v = judge(lo, hi, claims_above=True)
    assert (v.side, v.value, v.text) == (side, None, f"side {side}")


def test_a_row_without_a_verdict_says_why():
    ours = Ours(60.0, 55.0, 65.0, "pairs")
    assert row_verdict(None, 60.0).reason == "no games"
    assert row_verdict(ours, None).reason == "no paper row"
    assert row_verdict(ours, None, on_curve=False).text == "not judged"
    assert row_verdict(ours, 80.0).verdict == Verdict("right", "above")
    assert row_verdict(ours, 80.0, claim=True).verdict == Verdict("right", None)
    assert row_verdict(ours, None, on_curve=True).text == "side right"
    with pytest.raises(ValueError):
        judge(40, 60)


def test_scaled_experiment_is_matched_effort_with_capped_games(setup):
    sc = reproduce.Scale(effort=0.05, games=6, sweep_games=2)
    exp = reproduce.scaled_experiment(setup / "tiny_kalah.yaml", sc)
    assert exp.budget.effort == pytest.approx(0.05) and exp.budget.time is None
    first, *sweep = exp.pairings
    assert first.games == 6 and [p.games for p in sweep] == [2, 2, 2]
    assert first.player_budget.sims == 100 and first.opponent_budget.sims == 150
    assert reproduce.paper_seconds(exp) == pytest.approx(0.05)


@pytest.mark.parametrize("name, game, ev", [
    ("fet", "kalah", None), ("ege", "kalah", None), ("fet", "breakthrough", "efMS"),
    ("ege", "breakthrough", "efMS"), ("det", "breakthrough", "efMS"),
    ("fet", "breakthrough", "efLH"), ("ege", "breakthrough", "efLH")])
def test_a_bracket_gives_every_entrant_the_rate_of_the_papers_winner(name, game, ev):
    """On the shipped rates, an entrant measured for Tables 7-9 (Breakthrough's fet4, 3.4x
    fet20's rate) would search more than its bracket's others by the per-player rule: every
    entrant takes the paper's winner's rate instead."""
    from mcts_arena.paper import load_paper_results

    spec = reproduce.scaled_tournament(reproduce.TournamentEntry(name, game, ev),
                                       reproduce.Scale(effort=0.1, games=10, sweep_games=10))
    paper = next(t for t in load_paper_results().tournaments if t.id == spec.paper)
    label, text = reproduce.reference_entrant(spec)
    assert label == paper.winner
    want = effort.resolve(PLAYERS.parse(text, game=game), 0.1, PLAYERS.parse)
    assert len(spec.entrants) >= 13
    assert all(spec.budgets[lab] == want for lab, _ in spec.entrants)
    assert want.rate_of is not None and want.sims > 0


def test_a_bracket_without_a_paper_winner_takes_its_first_entrants_rate():
    import dataclasses

    from mcts_arena.runner import tournament

    spec = dataclasses.replace(tournament.resolve("fet", "breakthrough", "efMS"), paper=None)
    assert reproduce.reference_entrant(spec) == spec.entrants[0]


def test_manifest_mistakes_are_one_line(setup):
    bad = setup / "bad.yaml"
    bad.write_text("pages:\n  - {id: x, experiments: [nope.yaml]}\n")
    with pytest.raises(UserError, match=r"pages\[0\].experiments\[0\]: no such config"):
        reproduce.load_manifest(bad)
    m = reproduce.load_manifest(setup / "manifest.yaml")
    with pytest.raises(UserError, match="--only 'zz': no such page; valid: kal, other"):
        m.select(["zz"])


@pytest.mark.slow
def test_reproduce_plays_and_writes_pages(setup, monkeypatch):
    monkeypatch.chdir(setup)
    args = ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.02", "--games", "4",
            "--sweep-games", "2", "--jobs", "1", "--quiet", "--only", "kal"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    page = (setup / "docs/reproduction/kal.md").read_text()
    assert "MCTS(fet4) vs MCTS |" in page and "Stands for the paper's 1 s per move" in page
    assert "40 sims" in page and "60 sims" in page           # 2000 and 3000 per s x 0.02
    index = (setup / "docs/reproduction/index.md").read_text()
    assert "[Tiny Kalah page](kal.md)" in index and "Not played" not in index
    # resumable: a second call plays nothing new and writes the same verdict counts
    from mcts_arena.results.store import Store
    with Store.open(setup / "results/reproduction/tiny_kalah") as st:
        n = st.game_count()
    assert n == 4 + 3 * 2
    r2 = CliRunner().invoke(cli, args)
    assert r2.exit_code == 0, r2.output
    with Store.open(setup / "results/reproduction/tiny_kalah") as st:
        assert st.game_count() == n
    assert (setup / "docs/reproduction/index.md").read_text().split("**Totals**")[1] == \
        index.split("**Totals**")[1]


def test_pages_only_on_nothing_played(setup, monkeypatch):
    monkeypatch.chdir(setup)
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--pages-only"])
    assert r.exit_code == 0, r.output
    assert "Not played yet." in (setup / "docs/reproduction/other.md").read_text()


@pytest.mark.parametrize("args, msg", [
    (["--scale", "0"], "--scale must be in (0, 100], got 0.0"),
    (["--games", "0"], "--games must be an integer from 1 to 100000, got 0"),
    (["--only", "nope"], "--only 'nope': no such page"),
])
def test_bad_options(setup, monkeypatch, args, msg):
    monkeypatch.chdir(setup)
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", *args])
    assert r.exit_code == 2 and msg in r.output


@pytest.mark.slow
def test_a_pairing_of_only_error_games_ends_with_exit_3_after_the_pages(setup, monkeypatch):
    """The all-error rule of `arena run` holds for `arena reproduce`: the pages are written
    (their other rows stand), then one line and exit status 3."""
    import dataclasses

    from mcts_arena.errors import EXIT_ALL_ERRORS
    from mcts_arena.runner import experiment as scheduler

    real = scheduler.run_experiment

    def all_failed(*a, **k):      # as if every game of the first pairing had been an error game
        return dataclasses.replace(real(*a, **k), all_error=(("MCTS(fet4) vs MCTS", 4),))

    monkeypatch.setattr(scheduler, "run_experiment", all_failed)
    monkeypatch.chdir(setup)
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.02",
                                 "--games", "4", "--sweep-games", "2", "--jobs", "1", "--quiet",
                                 "--only", "kal"])
    assert r.exit_code == EXIT_ALL_ERRORS, r.output
    assert (setup / "docs/reproduction/kal.md").is_file()
    assert r.output.splitlines()[-1] == (
        "arena: error: every game of 1 pairing(s) is an error game, nothing was measured: "
        "MCTS(fet4) vs MCTS (4 of 4); see the errors above, fix the cause and run again "
        "(error games are replayed)")


def test_the_index_counts_sides_and_values_apart_and_dashes_an_entry_without_them(tmp_path):
    """record.json keeps each page's sides and values; the index shows both counts per page
    and in total, and an entry that holds one combined verdict per row as dashes."""
    import json

    from mcts_arena.report.reproduction import PageResult, write_index

    old = {"title": "Old page", "command": "arena reproduce --only old", "scale": "",
           "games": 10, "counts": {"consistent": 1}, "rows": 1, "informative": 1,
           "median_width": 10.0, "median_power": None, "written": "—", "effort": 0.1}
    (tmp_path / "record.json").write_text(json.dumps({"pages": {"old": old}}))
    res = PageResult("new", "New page", "", games=5,
                     judged=[{"informative": True, "width": 8.0, "power": 0.9}] * 3)
    res.counts["sides"].update(right=2, undecided=1)
    res.counts["values"].update(inside=1, below=1)
    write_index([res], tmp_path, ["new", "old"], 0.1)
    index = (tmp_path / "index.md").read_text()
    assert "| side right | side wrong | side undecided | side unclaimed | value inside | value " \
           "above ours | value below ours | no games | no paper row |" in index
    assert "| [New page](new.md) | 0.1 | 5 | 3 of 3 | 8.0 | 90% | 2 | 0 | 1 | 0 | 1 | 0 | 1 | 0 " \
           "| 0 |" in index
    assert "| [Old page](old.md) | 0.1 | 10 | 1 of 1 | 10.0 | — |" + " — |" * 9 in index
    assert "side: 2 right, 1 undecided; value: 1 inside, 1 below ours (over 1 of 2 pages" in index
    pages = json.loads((tmp_path / "record.json").read_text())["pages"]
    assert pages["new"]["sides"] == {"right": 2, "wrong": 0, "undecided": 1, "unclaimed": 0}
    assert pages["new"]["values"] == {"inside": 1, "above": 0, "below": 1}
    assert pages["old"] == old
