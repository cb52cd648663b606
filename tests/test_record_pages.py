"""The record's pages as report/reproduction.py writes them from real stores (real games at tiny
simulation budgets): sweep points read from the token that carries the swept parameter, game
sets shared by a table and a figure judged once, sweep titles, the paper's rows a page leaves
out, and the unit of the Kalah pair rule."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.report import figures
from mcts_arena.report.reproduction import write_page
from mcts_arena.runner.reproduce import Page


def _store(tmp_path: Path, name: str, text: str) -> Path:
    """Play the config `text` (named `name`) into a real store; its directory."""
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(text)
    out = tmp_path / "results" / name
    r = CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def legends(monkeypatch):
    """The legend texts of every figure the page writes, by file name."""
    seen: dict[str, list[str]] = {}
    save = figures._save

    def keep(fig, path, *a, **k):
        for ax in fig.axes:
            if ax.get_legend() is not None:
                seen.setdefault(Path(path).name, []).extend(
                    t.get_text() for t in ax.get_legend().get_texts())
        return save(fig, path, *a, **k)

    monkeypatch.setattr(figures, "_save", keep)
    return seen


def _page(tmp_path, dirs, seconds, pid="pg", title="A page"):
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    res = write_page(Page(pid, title), dirs, seconds, docs, "arena reproduce --only " + pid)
    return res, (docs / f"{pid}.md").read_text()


# ---- the sweep's parameter -----------------------------------------------------------------
LOA_SWEEP = """name: loa_sweep
description: "Fig. 4 at a tiny budget"
game: loa
budget: {sims: 40}
games: 2
seed: 5
openings: start
matches:
  - sweep:
      player: "MCTS(ipp,det0.5,im{a})"
      opponent: "MCTS(ipp,det0.5)"
      a: [0.3, 0.5, 0.7]
"""


@pytest.mark.slow
def test_a_sweep_point_is_read_from_the_token_that_carries_the_swept_parameter(tmp_path,
                                                                                legends):
    """MCTS(ipp,det0.5,im0.5) once read as det0.5: Figure 4's α = 0.5 points left the curves,
    the in-range lists and the counts."""
    d = _store(tmp_path, "loa_sweep", LOA_SWEEP)
    res, page = _page(tmp_path, [d], {"loa_sweep": 1.0})
    curve = [t for texts in legends.values() for t in texts if t.startswith("ours, ")]
    assert len(curve) == 1 and curve[0].endswith("(6 games)"), legends
    assert "### MCTS(ipp,det0.5,imα) vs MCTS(ipp,det0.5) (loa)" in page
    # the paper's best range for plain LOA is [0.1, 0.5]: α = 0.3 and 0.5 are judged, 0.7 not
    listed = [ln for ln in page.splitlines() if ln.startswith("- α = ")]
    assert [ln.split(" (")[0] for ln in listed] == ["- α = 0.3", "- α = 0.5"], page
    assert sum(res.counts["sides"].values()) == 2 and len(res.judged) == 2
    assert res.games == 6


# ---- a game set counted once ---------------------------------------------------------------
BT_SWEEP = """name: bt_sweep
description: "Fig. 2 at a tiny budget"
game: breakthrough
budget: {sims: 10}
games: 2
seed: 5
openings: start
matches:
  - sweep:
      player: "MCTS(bl,im{alpha})"
      opponent: "MCTS(bl)"
      alpha: [0.5, 0.6, 0.75]
"""


@pytest.fixture(scope="module")
def bt_sweep(tmp_path_factory):
    """A Figure 2 sweep at 10 simulations: α = 0.5 and 0.6 inside the paper's best range
    [0.1, 0.6], α = 0.6 also Table 2's row, α = 0.75 outside; its page and rows by pairing."""
    tmp = tmp_path_factory.mktemp("bt_sweep")
    d = _store(tmp, "bt_sweep", BT_SWEEP)
    res, page = _page(tmp, [d], {"bt_sweep": 1.0})
    rows = {ln.split(" | ")[0][2:]: ln for ln in page.splitlines()
            if ln.startswith("| MCTS(bl,im")}
    listed = {ln.split(" (")[0]: ln for ln in page.splitlines() if ln.startswith("- α = ")}
    return res, page, rows, listed


def test_a_sweep_point_that_is_a_paper_table_row_is_judged_once(bt_sweep):
    """Figure 2's α = 0.6 is Table 2's row too: it was counted as the table row and again as a
    figure point, without a word."""
    res, page, rows, listed = bt_sweep
    assert "63.30" in rows["MCTS(bl,im0.6) vs MCTS(bl)"]          # Table 2's value, 1 s
    assert set(listed) == {"- α = 0.5", "- α = 0.6"}
    assert "judged above against the paper's table value" in listed["- α = 0.6"]
    assert "not counted again" in listed["- α = 0.6"]
    assert "1 of these points is also a row of the paper's tables" in page
    # two game sets, two verdicts: the table row and the α = 0.5 point
    assert sum(res.counts["sides"].values()) == 2 and len(res.judged) == 2


def test_a_sweep_points_row_says_how_it_is_judged_not_no_paper_row(bt_sweep):
    """Figure 1's sweep table said "no paper row" for the points its summary counted."""
    _res, page, rows, _listed = bt_sweep
    assert "no paper row" not in page
    inside = rows["MCTS(bl,im0.5) vs MCTS(bl)"]
    assert "above 50 (fig2" in inside and "counted below" in inside
    assert "outside the paper's best α [0.1, 0.6]: not judged" in \
        rows["MCTS(bl,im0.75) vs MCTS(bl)"]


def test_each_verdict_states_the_side_and_the_value_apart(bt_sweep):
    """A table row against the paper's value says both; a figure's point (a claim, no value)
    says its side; the page's counts count each."""
    import re

    res, page, rows, listed = bt_sweep
    table_row = rows["MCTS(bl,im0.6) vs MCTS(bl)"].split(" | ")[6]
    assert re.fullmatch(r"side (right|wrong|undecided), value (inside|above ours|below ours) "
                        r"\(pairs: .*\)", table_row), table_row
    assert re.search(r": side (right|wrong|undecided)$", listed["- α = 0.5"]), listed
    assert sum(res.counts["sides"].values()) == 2 and sum(res.counts["values"].values()) == 1
    assert "**Verdicts** (2 judged rows): side: " in page and "*Side*: our interval" in page


# ---- titles --------------------------------------------------------------------------------
KALAH_FET = """name: kalah_fet
description: "fet against fet4"
game: kalah
budget: {sims: 20}
games: 2
seed: 5
openings: random_boards
matches:
""" + "".join(f'  - {{player: "MCTS(fet{n})", opponent: "MCTS(fet4)"}}\n' for n in (1, 2, 3))


@pytest.mark.slow
def test_a_sweep_title_puts_a_symbol_where_its_value_goes(tmp_path):
    """Appendix B's titles read "fetfet", "detdet", "egeege"."""
    d = _store(tmp_path, "kalah_fet", KALAH_FET)
    _res, page = _page(tmp_path, [d], {"kalah_fet": 1.0})
    assert "### MCTS(fetX) vs MCTS(fet4) (kalah)" in page
    assert "fetfet" not in page


def test_every_pages_title_names_the_seconds_its_experiments_stand_for():
    """Table 5's title said "(1 s and 5 s)"; its config plays the paper's 5 s rows only."""
    import re

    from mcts_arena.runner import config as cfg
    from mcts_arena.runner import reproduce

    root = Path(__file__).resolve().parents[1]
    manifest = reproduce.load_manifest(root / "configs" / "reproduction.yaml")
    checked = 0
    for page in manifest.pages:
        named = {float(x) for x in re.findall(r"(\d+(?:\.\d+)?) s\b", page.title)}
        if not named or not page.experiments:
            continue
        played = {reproduce.paper_seconds(cfg.load(p)) for p in page.experiments}
        assert named == played, f"{page.id}: title {page.title!r}, configs at {played} s"
        checked += 1
    assert checked >= 4


# ---- the paper's rows a page leaves out ----------------------------------------------------
def _config_store(tmp_path, config: str, *args) -> Path:
    root = Path(__file__).resolve().parents[1]
    name = Path(config).stem
    out = tmp_path / "results" / name
    r = CliRunner().invoke(cli, ["run", str(root / "configs" / config), "--jobs", "1", "--quiet",
                                 "--out", str(out), *args])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.slow
def test_table_9s_row_that_is_not_played_is_named_on_the_page_with_the_reason(tmp_path):
    d = _config_store(tmp_path, "breakthrough_table9.yaml", "--sims", "10", "--games", "2")
    _res, page = _page(tmp_path, [d], {"breakthrough_table9": 1.0})
    assert ("Not played: the paper's Table 9 row MCTS(ege0.3) vs. MCTS(ipp,fet0.7) using efLH "
            "(51.0%, 1 s, n=1000): opponent printed as MCTS(ipp,fet0.7), not a value of the fet "
            "set; probably a typo (MCTS(ege0.7)?).") in page
    assert page.count("Not played") == 1                # the other five rows are played


# ---- Kalah's unit --------------------------------------------------------------------------
@pytest.mark.slow
def test_table_7_states_its_unit_and_shows_both_bases(tmp_path):
    """Table 7's decisive results (66 + 1,032 of "2000 games") exceed 1,000 pairs; the page
    judged by pairs without saying why."""
    d = _config_store(tmp_path, "kalah_table7.yaml", "--sims", "20", "--games", "4")
    _res, page = _page(tmp_path, [d], {"kalah_table7": 1.0})
    assert "Unit: these rows are judged by the paper's pair rule" in page
    assert "| per game (draws half): verdict | pair rule: verdict |" in page
    unit = [ln for ln in page.splitlines() if ln.startswith("| MCTS(ege0.9) vs MCTS(fet4) | ")
            and " of 2,000 " in ln]
    assert len(unit) == 1 and "| 1,098 of 2,000 (55%) | " in unit[0]
    assert "The paper's n counts pairs, not single games: " in page
    assert "1,098 of 2,000" in page.split("The paper's n counts pairs")[1].split("\n")[0]


# ---- Appendix B's brackets -----------------------------------------------------------------
@pytest.mark.slow
def test_an_appendix_b_page_says_how_many_bracket_winners_are_the_papers(tmp_path):
    """Appendix B said "0 compared" where none of its 7 bracket winners was the paper's."""
    import re

    out = tmp_path / "results" / "fet"
    r = CliRunner().invoke(cli, ["tournament", "fet", "--game", "kalah", "--games", "2",
                                 "--sims", "20", "--jobs", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    _res, page = _page(tmp_path, [out], {})
    assert "Paper (B.2.1, 1000 games per match at 1 s/move): Winner: mcts_h_fet4" in page
    ours = re.search(r"^Winner: (\S+)$", page, re.M).group(1)
    assert f"**Brackets**: {int(ours == 'mcts_h_fet4')} of 1 finished brackets won by the " \
           f"paper's winner" in page
    assert "fetfet" not in page and "2 games per match at 20 sims/move" in page


@pytest.mark.slow
def test_an_appendix_b_bracket_sets_each_match_the_paper_played_too_beside_the_papers(tmp_path):
    """A bracket was judged by its winner alone: whether its matches agree with the paper's,
    match by match, took reading two brackets side by side."""
    import re

    out = tmp_path / "results" / "fet"
    r = CliRunner().invoke(cli, ["tournament", "fet", "--game", "kalah", "--games", "4",
                                 "--sims", "20", "--jobs", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    _res, page = _page(tmp_path, [out], {})
    ours, winner = {}, {}       # from our printed bracket, by the pair: wins, the winner
    for w, wn, lo, ln in re.findall(r"^winner (\S+) \((\d+)\) vs\. loser (\S+) \((\d+)\)$",
                                    page, re.M):
        ours[frozenset((w, lo))] = {w: int(wn), lo: int(ln)}
        winner[frozenset((w, lo))] = w
    rows = re.findall(r"^\| (\d) \| (\S+) vs (\S+) \| (\d+)-(\d+) \| [^|]+ \| (\d+)-(\d+) \| "
                      r"([^|]+) \| (yes|no) \| ([^|]+) \|$", page, re.M)
    # round 1 pairs the same entrants in both brackets: its six matches at least
    assert 6 <= len(rows) <= 12
    assert f"Matches the paper's bracket played too: {len(rows)} of our 12." in page
    paper = {("mcts_h_fet0", "mcts_h_fet1000"): (368, 61), ("mcts_h_fet4", "mcts_h_fet20"):
             (429, 44), ("mcts_h_fet4", "mcts_h_fet3"): (139, 110)}
    for _round, w, lo, pw, pl, ow, ol, share, same, verdict in rows:
        mine = ours[frozenset((w, lo))]
        assert (int(ow), int(ol)) == (mine[w], mine[lo])
        assert same == ("yes" if winner[frozenset((w, lo))] == w else "no")
        if (w, lo) in paper:
            assert (int(pw), int(pl)) == paper[(w, lo)]
        assert (share.strip() == "—") == (int(ow) + int(ol) == 0)
        assert verdict.strip() == "—" or verdict.startswith("side ")
    row = next(x for x in rows if x[1:3] == ("mcts_h_fet0", "mcts_h_fet1000"))
    assert row[0] == "1" and "| 368-61 | 85.8 [82.5, 89.1] |" in page
    # the page's header sums the brackets' tables: here the one bracket's
    values = [v for *_x, v in rows]
    assert (f"**Matches the paper's brackets played too**: {len(rows)} of our 12; the paper's "
            f"winner of the match won ours in {sum(x[8] == 'yes' for x in rows)}; the paper's "
            f"share of the match's wins lies inside our 95% interval in "
            f"{sum(v.endswith('value inside') for v in values)}, above it in "
            f"{sum(v.endswith('value above ours') for v in values)}, below it in "
            f"{sum(v.endswith('value below ours') for v in values)}.") in page
    assert "**Verdicts**" not in page      # a page of brackets alone has no judged rows


# ---- the basis of each matched effort ------------------------------------------------------
def test_a_rates_file_entry_is_the_players_own_whatever_its_spelling():
    from mcts_arena.paper import spec_key

    assert spec_key("MCTS(ege1.0)") == spec_key("MCTS(ege1)")
    assert spec_key("MCTS(ipp,abp2,det0.5,im0.2)") == spec_key("MCTS(ipp,det0.5,im0.2,abp2)")
    assert spec_key("αβ(efMS,tt=0)") == spec_key("αβ(efMS, tt=0)")
    assert spec_key("MCTS(bl,im0.4)") != spec_key("MCTS(bl,im0.6)")
    assert spec_key("αβ(efMS,tt=0)") != spec_key("αβ(efMS,hh=0,tt=0)")
    assert spec_key("αβ(efMS,tt=0)") != spec_key("αβ(efMS)")
    assert spec_key("MCTS") != spec_key("FlatMC")


def _effort_store(tmp_path, name: str, matches: list[tuple[str, str]]) -> Path:
    """Two Breakthrough games a match at a tiny matched effort (each side's rate entry)."""
    lines = "".join(f'  - {{player: "{a}", opponent: "{b}"}}\n' for a, b in matches)
    return _store(tmp_path, name, f"name: {name}\ngame: breakthrough\nbudget: {{effort: 0.002}}\n"
                                  f"games: 2\nseed: 3\nopenings: start\nmatches:\n{lines}")


@pytest.mark.slow
def test_a_page_names_the_players_whose_budgets_another_players_rate_set(tmp_path):
    """A matched effort gives a player without a rate of its own the rate of the most specific
    entry of its kind; the page names which, so no budget's basis is hidden."""
    d = _effort_store(tmp_path, "basis", [("MCTS(bl,im0.6)", "MCTS(bl)"),
                                          ("MCTS(bl,np,im0.6)", "MCTS(ipp)")])
    _res, page = _page(tmp_path, [d], {"basis": 1.0})
    line = next(ln for ln in page.splitlines() if ln.startswith("Budgets set by another"))
    assert line.endswith(": MCTS(bl,im0.4)'s for MCTS(bl,im0.6), MCTS(bl,np,im0.6).")
    assert page.count("Budgets set by another") == 1


@pytest.mark.slow
def test_a_page_whose_players_all_have_rates_of_their_own_names_none(tmp_path):
    d = _effort_store(tmp_path, "own", [("MCTS(bl)", "MCTS(ipp)")])
    _res, page = _page(tmp_path, [d], {"own": 1.0})
    assert "Budgets set by another" not in page and "| MCTS(bl) vs MCTS(ipp) |" in page


@pytest.mark.slow
def test_a_brackets_page_says_every_entrant_searches_at_one_rate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("m.yaml").write_text("pages:\n  - {id: bb, title: \"Brackets\", tournaments: "
                              "[{name: fet, game: kalah}]}\n")
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "m.yaml", "--scale", "0.0002",
                                 "--tournament-games", "2", "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    page = Path("docs/reproduction/bb.md").read_text()
    assert ("Budgets: every entrant searches at one measured rate, MCTS(fet4)'s, so the "
            "bracket compares its values at equal simulations a move") in page
    assert "Budgets set by another" not in page
    # every match of the bracket at the same simulations: MCTS(fet3), measured at a rate of
    # its own, among them
    rows = [ln for ln in page.splitlines() if ln.startswith("| MCTS(fet") and "sims/move" in ln]
    assert any(ln.startswith("| MCTS(fet3) vs ") for ln in rows)
    assert len({ln.split(" | ")[1].split(",")[0] for ln in rows}) == 1


def test_a_rewritten_page_drops_the_pictures_it_no_longer_draws(tmp_path):
    """Appendix B's replay drew other curves than its first play and left seven old pictures
    behind. Only the page's own listed pictures go: another page's (whose id extends this one's)
    and a file no page lists stay."""
    import json

    from mcts_arena.report.reproduction import PageResult, _remove_stale_pictures

    before = {"headline": {"images": ["headline-a.png", "headline-old.png"]},
              "headline-tt": {"images": ["headline-tt-b.png"]}}
    (tmp_path / "record.json").write_text(json.dumps({"pages": before}))
    for name in ("headline-a.png", "headline-old.png", "headline-tt-b.png", "headline-mine.png"):
        (tmp_path / name).write_bytes(b"png")
    _remove_stale_pictures(tmp_path, before, [PageResult("headline", "t", "md",
                                                         images=["headline-a.png"])])
    assert sorted(p.name for p in tmp_path.glob("*.png")) == \
        ["headline-a.png", "headline-mine.png", "headline-tt-b.png"]


def test_rows_whose_looks_end_at_the_papers_own_games_show_their_own_stop_rule():
    """Table 4's 5 s page printed its first row's rule, looks ending at 500 games (the paper's
    own for that row), as the rule of every row, whose looks end at 600."""
    from mcts_arena.report.record_markdown import _stop_rule_lines

    def row(player, rule):
        return {"player": player, "opponent": "B", "precision": {"rule": rule}}

    assert _stop_rule_lines([row("A", "looks to 500"), row("C", "looks to 500")]) == \
        ["Stop rule: looks to 500.", ""]
    assert _stop_rule_lines([row("A", "looks to 500"), row("C", "looks to 600"),
                             row("D", "looks to 600"), {"player": "E", "opponent": "B"}]) == [
        "Stop rules (a row plays no more games than the paper played for it):", "",
        "- looks to 500: A vs B.", "- looks to 600: C vs B, D vs B.", ""]
    assert _stop_rule_lines([{"player": "E", "opponent": "B"}]) == []
