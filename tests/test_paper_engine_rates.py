"""The paper engine's rate harness (benchmarks/paper_engine/measure.py) and the rates file's
measured fields: which searches count, the rate, its interval over games, and the rewrite of one
entry of the rates file."""
from __future__ import annotations

import importlib.util
import json
import textwrap
from pathlib import Path

import pytest
import yaml

from mcts_arena.runner import effort

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("measure", ROOT / "benchmarks/paper_engine/measure.py")
measure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(measure)


def _move(ply, work, cpu_s, early=False):
    return {"ply": ply, "player": 1 + ply % 2, "work": work, "cpu_ns": int(cpu_s * 1e9),
            "wall_ns": int(cpu_s * 1e9), "gc_ms": 0, "early": early}


def _write_game(d: Path, i: int, moves: list[dict]):
    d.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"game": "breakthrough", "player": "MCTS(bl)"})]
    lines += [json.dumps(m) for m in moves]
    lines.append(json.dumps({"end": True, "winner": 1, "plies": len(moves)}))
    (d / f"game-{i:03d}.jsonl").write_text("\n".join(lines) + "\n")


def test_kept_drops_warmup_early_and_outliers():
    game = [_move(0, 10, 1.0), _move(1, 10, 1.0),          # the JVM's first two: warm-up
            _move(2, 1000, 1.0), _move(3, 2000, 1.0),
            _move(4, 500, 0.1, early=True),                # a win proven at the root
            _move(5, 1000, 1.0), _move(6, 1_000_000, 1.0)]  # over 10x the median
    kept = measure.kept([game])
    assert kept == [[(1000, 10**9), (2000, 10**9), (1000, 10**9)]]
    assert measure.rate(kept) == pytest.approx(4000 / 3)


def test_rate_is_work_over_cpu_across_games_and_interval_resamples_games(tmp_path):
    d = tmp_path / "breakthrough" / "lab"
    warm = [_move(0, 1, 1.0), _move(1, 1, 1.0)]
    _write_game(d, 0, warm + [_move(2, 1000, 1.0), _move(3, 1000, 1.0)])   # 1000/s
    _write_game(d, 1, warm + [_move(2, 3000, 1.0), _move(3, 3000, 1.0)])   # 3000/s
    (d / "game-002.jsonl").write_text('{"game": "breakthrough"}\n' + json.dumps(_move(0, 1, 1)))
    games = measure.read_games(tmp_path, {"game": "breakthrough", "label": "lab"})
    assert len(games) == 2                      # the unfinished game is not read
    per_game = measure.kept(games)
    assert measure.rate(per_game) == pytest.approx(2000)
    lo, hi = measure.bootstrap(per_game)
    assert 1000 <= lo < 2000 < hi <= 3000
    assert (lo, hi) == measure.bootstrap(per_game)     # seeded: the same interval again


def test_rewrite_entry_changes_one_entry_only():
    text = textwrap.dedent('''\
        # a comment that stays
        rates:
          - {game: breakthrough, player: "MCTS(bl)", unit: sims, per_second: 27643, label: lab_a,
             source: "old"}
          - {game: kalah, player: "MCTS(bl)", unit: sims, per_second: 5, label: lab_b,
             source: "other"}
        ''')
    e = {"game": "breakthrough", "player": "MCTS(bl)", "label": "lab_a"}
    out = measure.rewrite_entry(text, e, 21000, (19000, 23500), 10, 480, 0.97, 0.384)
    assert out.startswith("# a comment that stays\n")
    data = yaml.safe_load(out)["rates"]
    assert data[0] | {"source": ""} == {"game": "breakthrough", "player": "MCTS(bl)",
                                        "unit": "sims", "per_second": 21000,
                                        "ci95": [19000, 23500], "games": 10, "moves": 480,
                                        "cpu_share": 0.97, "gc_share": 0.38,
                                        "label": "lab_a", "source": ""}
    assert data[1] == yaml.safe_load(text)["rates"][1]
    rates = effort.parse_rates(yaml.safe_load(out))
    assert rates[0].ci95 == (19000.0, 23500.0) and rates[0].games == 10


def test_the_cpu_share_leaves_out_the_collectors_pauses():
    """A search that ran 0.6 s of CPU in a 1 s move whose collectors paused it 0.4 s had the
    machine to itself: share 1.0, GC 0.4; one that ran 0.3 s with no pause had 0.3."""
    games = [[{"cpu_ns": 600_000_000, "wall_ns": 1_000_000_000, "gc_ms": 400},
              {"cpu_ns": 590_000_000, "wall_ns": 1_000_000_000, "gc_ms": 400}]]
    own, gc = measure.cpu_share(games)
    assert own == pytest.approx((1.0 + 590 / 600) / 2) and gc == pytest.approx(0.4)
    busy = [[{"cpu_ns": 300_000_000, "wall_ns": 1_000_000_000, "gc_ms": 0}]]
    assert measure.cpu_share(busy) == (pytest.approx(0.3), 0.0)


@pytest.mark.parametrize("field, value, message", [
    ("ci95", [30000, 40000], "ci95: expected [low, high] around per_second (27643)"),
    ("ci95", [1000], "ci95: expected [low, high] around per_second"),
    ("ci95", "wide", "ci95: expected [low, high] around per_second"),
    ("games", 0, "games: expected a positive whole number, got 0"),
    ("games", 2.5, "games: expected a positive whole number, got 2.5"),
])
def test_bad_measured_fields_are_one_line(field, value, message):
    entry = {"game": "breakthrough", "player": "MCTS(bl)", "unit": "sims", "per_second": 27643,
             "source": "s", field: value}
    with pytest.raises(effort.EffortError) as e:
        effort.parse_rates({"rates": [entry]}, "r.yaml")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_shipped_rates_name_their_engine_label():
    """Every rate of the paper's Java engine says which of its player labels it measured, so
    measure.py can replay the measurement."""
    rates = effort.load_rates(str(effort.RATES_FILE))
    java = [r for r in rates if "mcts_gameframe" in r.source]
    assert java and all(r.label for r in java)
    assert {r.label for r in java} <= {e["label"] for e in measure.entries(effort.RATES_FILE)}
