"""LOA's rates (benchmarks/loa_rates.py): an anchor times this engine's measured cost ratios,
which moves count, the ratio's interval over games, the rewrite of the rates file's LOA entries,
and one real game of the measurement."""
from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
import yaml

from mcts_arena.runner import effort

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("loa_rates", ROOT / "benchmarks/loa_rates.py")
loa_rates = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loa_rates)

RATES = """rates:
  - {game: breakthrough, player: "MCTS", unit: sims, per_second: 1000, source: x}
  - {game: loa, player: "MCTS(ipp,abp2,det0.5)", unit: sims, per_second: 4649,
     source: "old"}
  - {game: loa, player: "αβ(efWB)", unit: nodes, per_second: 1238292,
     source: "old"}
"""


def _games(data: Path, player: str, per_game: list[list[tuple[int, float]]]):
    d = data / loa_rates.slug(player)
    d.mkdir(parents=True, exist_ok=True)
    for i, moves in enumerate(per_game):
        rows = [{"game": "loa", "player": player, "budget": max(w for w, _ in moves)}]
        rows += [{"ply": k, "work": w, "cpu_ns": int(s * 1e9)} for k, (w, s) in enumerate(moves)]
        rows.append({"end": True, "plies": len(moves), "terminal": True})
        (d / f"game-{i:03d}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_entries_are_the_anchor_times_the_cost_ratio_with_an_interval(tmp_path, capsys):
    rates = tmp_path / "rates.yaml"
    rates.write_text(RATES)
    data = tmp_path / "data"
    # the anchor: 1,000 simulations per CPU-second; a move that did under half its budget
    # (a forced move, a root solved at once) says nothing and is left out
    _games(data, loa_rates.ANCHOR, [[(100, 0.1), (100, 0.1), (1, 0.0001)]] * 3)
    # αβ: 50,000 then 70,000 nodes per CPU-second in its two games: 60,000 overall, 60x the anchor
    _games(data, "αβ(efWB)", [[(5000, 0.1), (5000, 0.1)], [(7000, 0.1), (7000, 0.1)]])
    loa_rates.summarise(data, rates, update=True, min_games=2)
    got = {(r.game, r.player): r for r in effort.load_rates(str(rates))}
    anchor, ab = got[("loa", loa_rates.ANCHOR)], got[("loa", "αβ(efWB)")]
    assert anchor.per_second == loa_rates.ANCHOR_RATE and anchor.ci95 == (4649, 4649)
    assert ab.per_second == round(60 * loa_rates.ANCHOR_RATE)
    assert ab.ci95 == (50 * loa_rates.ANCHOR_RATE, 70 * loa_rates.ANCHOR_RATE)
    assert ab.games == 2 and anchor.games == 3
    assert got[("breakthrough", "MCTS")].per_second == 1000       # the other games untouched
    text = rates.read_text()
    assert "moves: 6" in text and "αβ(efWB)\", unit: nodes" in text
    yaml.safe_load(text)


def test_too_few_anchor_games_is_one_line_and_exit_2(tmp_path, capsys):
    rates = tmp_path / "rates.yaml"
    rates.write_text(RATES)
    with pytest.raises(SystemExit) as e:
        loa_rates.summarise(tmp_path / "none", rates, update=True, min_games=10)
    assert e.value.code == 2
    assert rates.read_text() == RATES
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "0 finished games" in err[0]


def test_an_unknown_player_is_refused(tmp_path, capsys):
    rates = tmp_path / "rates.yaml"
    rates.write_text(RATES)
    with pytest.raises(SystemExit) as e:
        loa_rates.main(["play", "--rates", str(rates), "--data", str(tmp_path / "d"),
                        "--only", "MCTS(ipp)"])
    assert e.value.code == 2 and "not an LOA entry" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_one_measured_game_is_whole_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr(loa_rates, "SIMS", 8)
    rates = tmp_path / "rates.yaml"
    rates.write_text(RATES)
    data = tmp_path / "d"
    loa_rates.main(["play", "--rates", str(rates), "--data", str(data), "--games", "1",
                    "--only", loa_rates.ANCHOR])
    path = loa_rates.game_file(data, loa_rates.ANCHOR, 0)
    rows = [json.loads(ln) for ln in path.read_text().splitlines()]
    assert rows[0]["player"] == loa_rates.ANCHOR and rows[-1]["end"] is True
    assert len(rows) - 2 == rows[-1]["plies"] > 0
    assert rows[0]["budget"] == 8
    assert all(0 <= r["work"] <= 8 and r["cpu_ns"] > 0 for r in rows[1:-1])
    assert sum(r["work"] == 8 for r in rows[1:-1]) > len(rows) // 2
    before = path.read_bytes()
    loa_rates.main(["play", "--rates", str(rates), "--data", str(data), "--games", "1",
                    "--only", loa_rates.ANCHOR])
    assert path.read_bytes() == before                 # a finished game is never replayed
    shutil.rmtree(data)
