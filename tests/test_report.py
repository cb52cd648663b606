"""`arena report`: numbers against a direct count of the store, every format parses, sweep plots,
Kalah pair rule, the paper beside ours, read-only, and one-line errors."""
import hashlib
import io
import json
import sqlite3
import zlib

import pandas
import pytest
from click.testing import CliRunner
from helpers import pictures_named_not_drawn, play_into

from mcts_arena import stats
from mcts_arena.cli import cli
from mcts_arena.report import pairing_row, render, tables
from mcts_arena.report.tables import build_report, compare_paper, find_sweeps
from mcts_arena.runner import config

REAL = ("name: rep\ngame: tictactoe\nbudget: {sims: 20}\ngames: 6\nseed: 5\n"
        "matches:\n"
        "  - sweep: {player: 'MCTS(im{a})', opponent: 'MCTS', a: [0.0, 0.5, 1.0]}\n"
        "  - {player: 'MCTS', opponent: 'Random'}\n")
KALAH = ("name: kal\ngame: kalah\nbudget: {sims: 5}\ngames: 8\nseed: 2\n"
         "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n"
         "  - {player: Boom, opponent: Random}\n")


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    base = tmp_path_factory.mktemp("stores")
    real = play_into(REAL, base / "rep", "mcts_arena.players")
    kal = play_into(KALAH, base / "kal", "fakes")
    return real, kal


def _digest(d):
    return hashlib.sha256((d / "arena.sqlite").read_bytes()).hexdigest()


def test_rows_equal_a_direct_count(stores):
    real, _ = stores
    with sqlite3.connect(real / "arena.sqlite") as c:
        want = {}
        for pid, player, opponent in c.execute("SELECT pairing_id, player, opponent FROM pairing"):
            games = c.execute("SELECT swap, score, reason, plies, stats_json FROM game WHERE "
                              "pairing_id = ?", (pid,)).fetchall()
            ok = [g for g in games if g[2] != "error"]
            sims = [st["sims"] for g in ok for st in json.loads(zlib.decompress(g[4]))
                    if st["seat"] == g[0]]
            want[(player, opponent)] = {
                "games": len(ok), "wins": sum(g[1] == 1 for g in ok),
                "draws": sum(g[1] == 0.5 for g in ok), "losses": sum(g[1] == 0 for g in ok),
                "wins_first": sum(g[1] == 1 and g[0] == 0 for g in ok),
                "wins_second": sum(g[1] == 1 and g[0] == 1 for g in ok),
                "avg_plies": sum(g[3] for g in ok) / len(ok),
                "player_work": sum(sims) / len(sims)}
    rep = build_report([str(real)])
    rows = rep.rows
    assert len(rows) == 4 == len(want)
    for r in rows:
        w = want[(r["player"], r["opponent"])]
        for k, v in w.items():
            assert r[k] == pytest.approx(v), k
        assert r["score"] == pytest.approx((r["wins"] + r["draws"] / 2) / r["games"])
        assert 0 <= r["ci_low"] <= r["score"] <= r["ci_high"] <= 1
        assert r["ci_method"] == "wilson" and r["player_work_unit"] == "sims"
        assert r["budget"] == "20 sims" and r["pairs"] is None
    random_row = next(r for r in rows if r["opponent"] == "Random")
    assert random_row["opponent_work_unit"] == "nodes"


@pytest.mark.slow
def test_every_format_parses_and_plots_are_written(stores, tmp_path, monkeypatch):
    real, kal = stores
    before = (_digest(real), _digest(kal))
    out = tmp_path / "out"
    run = CliRunner()
    res = run.invoke(cli, ["report", str(real), str(kal), "--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert isinstance(data, list) and len(data) == 6
    for row in data:
        for k in ("experiment", "player", "opponent", "games", "wins", "draws", "losses",
                  "score", "ci_low", "ci_high", "elo", "elo_low", "elo_high", "elo_text", "los", "budget"):
            assert k in row
        if row["games"]:
            assert 0 <= row["ci_low"] <= row["ci_high"] <= 1
        else:       # Boom: every game an error; no percentage at all
            assert row["score"] is row["ci_low"] is row["ci_high"] is row["los"] is None
    pngs = list(out.glob("sweep-*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 1000
    assert pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    res = run.invoke(cli, ["report", str(real), str(kal), "--format", "html", "--out", str(out)])
    assert res.exit_code == 0 and res.output == f"wrote {out / 'report.html'}\n"
    page = (out / "report.html").read_text()
    # two experiments, each with its seat-swapped pairs table, the Kalah pair-rule table, the
    # ratings
    assert page.count("<table>") == 6 and "LL-LD-WL/DD-WD-WW" in page
    assert "MCTS(im0.5) vs MCTS" in page and "data:image/png;base64," in page

    pictures_named_not_drawn(monkeypatch)     # the other formats are read for their text
    res = run.invoke(cli, ["report", str(real), str(kal), "--format", "csv", "--out", str(out)])
    df = pandas.read_csv(io.StringIO(res.output))
    assert len(df) == 6 and set(df["player"]) >= {"MCTS(im0.5)", "Boom"}
    assert df["wins"].sum() == sum(r["wins"] for r in data)

    for fmt, needle in (("markdown", "| MCTS vs Random |"), ("latex", r"\begin{tabular}"),
                        ("text", "MCTS vs Random")):
        res = run.invoke(cli, ["report", str(real), "--format", fmt, "--out", str(out)])
        assert res.exit_code == 0 and needle in res.output, fmt
    assert (_digest(real), _digest(kal)) == before          # the report never writes a store


@pytest.mark.slow
def test_default_plot_folder_is_the_results_report_folder(stores):
    real, _ = stores
    res = CliRunner().invoke(cli, ["report", str(real)])
    assert res.exit_code == 0
    assert "sweep MCTS(imα) vs MCTS (tictactoe): 20 sims (3 points)" in res.output
    assert list((real / "report").glob("sweep-*.png"))


def test_kalah_pair_rule_and_error_games(stores):
    _, kal = stores
    rows = build_report([str(kal)], ci="wald").rows
    rnd = next(r for r in rows if r["player"] == "Random")
    boom = next(r for r in rows if r["player"] == "Boom")
    with sqlite3.connect(kal / "arena.sqlite") as c:
        counts = dict(c.execute("SELECT outcome, COUNT(*) FROM pair WHERE pairing_id = ? "
                                "GROUP BY outcome", (rnd["pairing_id"],)).fetchall())
    p = rnd["pairs"]
    assert (p["won"], p["drawn"], p["lost"], p["discarded"]) == tuple(
        counts.get(k, 0) for k in ("player", "draw", "opponent", "discarded"))
    assert sum(counts.values()) == 4 and rnd["ci_method"] == "wald"
    assert boom["errors"] == 8 and boom["games"] == 0 and boom["pairs"]["errors"] == 4
    text = render.render_text(build_report([str(kal)]))
    assert "Kalah pair rule" in text


def _row(player, opponent, score=0.6, budget="1 s", game="breakthrough", games=100):
    return {"experiment": "e", "game": game, "player": player, "opponent": opponent,
            "budget": budget, "score": score, "ci_low": max(0, score - 0.05),
            "ci_high": min(1, score + 0.05),
            "games": games}


def test_sweep_detection_without_a_recorded_sweep_merges_budgets():
    rows = [_row(f"MCTS(bl,im{a})", "MCTS(bl)", budget=b) for a in ("0.1", "0.4", "0.6")
            for b in ("1 s", "5 s")]
    rows += [_row("MCTS(ipp,fet20)", "MCTS(ipp)"), _row("MCTS(ipp,fet4)", "MCTS(bl)")]
    (sw,) = find_sweeps(rows)
    assert sw.player == "MCTS(bl,im{})" and sw.title == "MCTS(bl,imα) vs MCTS(bl) (breakthrough)"
    assert sorted(sw.curves) == ["1 s", "5 s"]
    assert [x for x, _ in sw.curves["1 s"]] == [0.1, 0.4, 0.6]
    assert rows[0]["sweep"] == {"param": "im", "value": 0.1} and rows[-1].get("sweep") is None


def test_two_points_are_no_guessed_sweep():
    rows = [_row("MCTS(bl,im0.1)", "MCTS(bl)"), _row("MCTS(bl,im0.4)", "MCTS(bl)")]
    assert find_sweeps(rows) == []


@pytest.mark.parametrize("player,opponent,score,paper_pct,verdict", [
    ("MCTS(ipp)", "MCTS", 0.94, 94.30, "side right, value inside"),
    ("MCTS", "MCTS(ipp)", 0.5, 5.70, "side undecided, value below ours"),  # seen reversed
    ("MCTS(bl,im0.4)", "MCTS(bl,cb0.4)", 0.3, 67.80, "side wrong, value above ours"),
])
def test_compare_paper(player, opponent, score, paper_pct, verdict):
    rows = [_row(player, opponent, score), _row("MCTS(fet4)", "Random")]
    (c,) = compare_paper(rows)
    assert c["paper_win_pct"] == pytest.approx(paper_pct) and c["verdict"] == verdict
    assert c["paper_games"] == 1000 and c["paper_seconds"] == 1 and c["budget"] == "1 s"
    assert rows[1]["paper"] == []


@pytest.mark.slow
def test_compare_paper_in_the_text_report(stores):
    real, _ = stores
    res = CliRunner().invoke(cli, ["report", str(real), "--compare", "paper"])
    assert "Compared with the paper" in res.output
    assert "no pairing matches a published result" in res.output     # tic-tac-toe


@pytest.mark.parametrize("args,message", [
    (["nowhere"], "nowhere: not a results directory (no such directory)"),
    (["."], ".: not a results directory (no arena.sqlite in it)"),
    ([".", "--format", "pdf"], "Invalid value for '--format'"),
])
def test_bad_paths_and_options_are_one_line_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["report", *args])
    assert res.exit_code == 2
    assert res.output.startswith("arena: error: ") and message in res.output
    assert res.output.count("\n") == 1


@pytest.mark.slow
def test_every_row_field_is_documented_on_the_row_type_and_written_in_its_order(stores):
    """Each field of PairingRow carries its own `#:` comment, and `--format json` writes
    exactly the row type's fields, in its order."""
    import ast
    import inspect

    source = inspect.getsource(pairing_row)
    lines = source.splitlines()
    (cls,) = [n for n in ast.parse(source).body
              if isinstance(n, ast.ClassDef) and n.name == "PairingRow"]
    fields = [n for n in cls.body if isinstance(n, ast.AnnAssign)]
    assert [f.target.id for f in fields] == list(pairing_row.PairingRow.__annotations__)
    for f in fields:
        assert lines[f.lineno - 2].strip().startswith("#:"), f.target.id
    real, _ = stores
    res = CliRunner().invoke(cli, ["report", str(real), "--format", "json"])
    written = [x for x in json.loads(res.output) if "pairing_id" in x]
    assert written and all(list(x) == list(pairing_row.ROW_FIELDS) for x in written)
    assert set(pairing_row.ROW_FIELDS) == set(pairing_row.PairingRow.__required_keys__)


@pytest.mark.slow
def test_linked_pairings_get_bradley_terry_ratings(stores, tmp_path):
    """Pairings that link three or more players (here a sweep and a match sharing MCTS) give a
    Bradley–Terry ladder in the report, equal to the ratings of the stored counts."""
    from mcts_arena import stats

    real, _ = stores
    rep = build_report([str(real)])
    e = rep.experiments[0]
    players = {r["player"] for r in e.rows} | {r["opponent"] for r in e.rows}
    assert e.ratings and {x["name"] for x in e.ratings} == players
    want = stats.bradley_terry({(r["player"], r["opponent"]): (r["wins"], r["draws"], r["losses"])
                                for r in e.rows})
    assert all(x["elo"] == pytest.approx(want[x["name"]]) for x in e.ratings)
    assert [x["elo"] for x in e.ratings] == sorted((x["elo"] for x in e.ratings), reverse=True)
    res = CliRunner().invoke(cli, ["report", str(real), "--out", str(tmp_path)])
    assert res.exit_code == 0 and "Bradley–Terry Elo" in res.output
    assert (tmp_path / "elo-rep.png").is_file()
    # two players only: no ladder
    assert tables.experiment_ratings([r for r in e.rows if r["opponent"] == "Random"]) is None


# ---- documents for a paper --------------------------------------------------------
@pytest.mark.slow
def test_markdown_and_latex_link_pictures_by_relative_paths(stores, tmp_path, monkeypatch):
    """A report of results given by absolute paths embedded those absolute paths."""
    import re
    real, _ = stores
    out = tmp_path / "paper" / "figs"
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    link = {"markdown": re.compile(r"!\[[^\]]*\]\(([^)]+)\)"),
            "latex": re.compile(r"\\includegraphics\[[^\]]*\]\{([^}]+)\}")}
    for fmt, doc in (("markdown", "report.md"), ("latex", "report.tex")):
        res = CliRunner().invoke(cli, ["report", str(real), "--format", fmt, "--out", str(out)])
        assert res.exit_code == 0, res.output
        written = (out / doc).read_text()
        for text, base in ((res.output, work), (written, out)):
            assert str(tmp_path) not in text, fmt
            links = link[fmt].findall(text)
            assert links and all(not p.startswith("/") for p in links)
            assert all((base / p).is_file() for p in links), (fmt, links)


def test_the_elo_interval_is_the_score_interval_through_the_elo_function():
    from mcts_arena.results.standings import elo_text
    assert elo_text(10, 0, 0) == "≥ +166 (all won)"
    assert elo_text(0, 0, 10) == "≤ -166 (all lost)"
    assert elo_text(0, 2, 0) == "+0.0 [-392.5, +392.5]"        # was "+0.0 ± undefined"
    assert elo_text(9, 0, 1) == "+381.7 [+67.4, +696.0]"       # was "+381.7 ± undefined"
    assert elo_text(6, 2, 2) == "+147.2 [-72.8, +367.2]"
    for w, d, lo in ((9, 0, 1), (1, 0, 1), (0, 4, 0), (3, 1, 7), (120, 30, 50)):
        low, high, _ = stats.score_interval(w, d, lo)
        text = elo_text(w, d, lo)
        assert "inf" not in text and "∞" not in text and "undefined" not in text
        shown = [float(x) for x in text.split("[")[1].rstrip("]").split(", ")]
        assert shown == pytest.approx([stats.score_to_elo(low), stats.score_to_elo(high)],
                                      abs=0.051)
    assert render.rating_cells({"name": "a", "elo": 3.0, "error": None, "games": 2})[2] == \
        "undefined"
    row = {"games": 12, "elo_text": elo_text(12, 0, 0)}
    assert render._elo_cell(row) == "≥ +198 (all won)"


@pytest.mark.slow
def test_one_elo_notation_in_every_format(tmp_path, monkeypatch):
    """The Elo cells of markdown and LaTeX are the JSON row's `elo_text` (LaTeX escaped), its
    ends the score interval's through the Elo function, and none says inf or undefined."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "e.yaml").write_text(
        "name: e\ngame: tictactoe\nbudget: {sims: 5}\ngames: 4\nmatches:\n"
        "  - {player: 'Random', opponent: 'Random(im0.5)'}\n")
    assert CliRunner().invoke(cli, ["run", "e.yaml", "--quiet", "--jobs", "1"]).exit_code == 0
    data = json.loads(CliRunner().invoke(cli, ["report", "results/e", "--format", "json",
                                               "--out", "j"]).output)
    (row,) = data
    assert row["elo_text"] and "inf" not in row["elo_text"]
    if 0 < row["score"] < 1:
        assert row["elo_low"] == pytest.approx(stats.score_to_elo(row["ci_low"]))
        assert row["elo_high"] == pytest.approx(stats.score_to_elo(row["ci_high"]))
    for fmt in ("markdown", "latex"):
        out = CliRunner().invoke(cli, ["report", "results/e", "--format", fmt, "--out", fmt])
        assert out.exit_code == 0, out.output
        shown = row["elo_text"] if fmt == "markdown" else render.tex(row["elo_text"])
        assert shown in out.output
        assert "inf " not in out.output and "undefined" not in out.output


def test_the_budgets_table_lists_the_pairings_whose_sides_differ_from_the_experiment():
    """Time odds (a match entry's clock per side, a player's own budget or clock) show in every
    text format; a matched effort resolved into an engine's simulations is no difference."""
    from types import SimpleNamespace

    from mcts_arena.report.render import _more_tables

    def row(p, o, pb, ob):
        return {"player": p, "opponent": o, "player_budget": pb, "opponent_budget": ob}
    e = SimpleNamespace(info={"budget": "effort 0.5 s"}, luck=None, scaling=[], rows=[
        row("A", "B", {"effort": 0.5, "sims": 900, "rate_of": "A", "unit": "sims"},
            {"effort": 0.5, "sims": 700, "rate_of": "B", "unit": "sims"}),
        row("A", "C", {"effort": 0.5, "sims": 900, "rate_of": "A", "unit": "sims"},
            {"sims": 30}),
        row("D", "E", {"clock": "10+0.1"}, {"clock": "5+0.1", "margin": 0.2})])
    ((caption, head, body),) = _more_tables(e)
    assert caption.startswith("Budgets of the pairings that differ from the experiment's")
    assert body == [["A vs C", "effort 0.5 s = 900 sims", "30 sims"],
                    ["D vs E", "clock 10+0.1", "clock 5+0.1, margin 0.2 s"]]
    e.rows = e.rows[:1]
    assert _more_tables(e) == []
