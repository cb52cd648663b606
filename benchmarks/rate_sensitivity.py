"""How far a row's result moves across its rate ratio's interval.

A matched-effort row gives each side the paper engine's simulations (or nodes) in the same time,
so it rests on the ratio of two measured rates (runner/data/engine_rates.yaml, each with a
bootstrap 95% interval over whole games). This plays the row three times from the same seeds:
at the ratio's measured value and at both ends of its 95% interval (the player's rate moved,
the opponent's kept), and prints the three results with their intervals:

    python benchmarks/rate_sensitivity.py --game breakthrough \
        --player "MCTS(ipp,im0.4)" --opponent "MCTS(ipp)" --effort 0.1 --games 200 \
        --out results/sensitivity [--jobs 2] [--seed 2014]

The ratio's interval on the log scale: log(p/o) ± 1.96·sqrt(s_p² + s_o²), each s the half-width
of that rate's interval on the log scale over 1.96 (the two measurements are independent games).
Each end is played into its own results directory (resumable: run the same command again).
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcts_arena.errors import UserError  # noqa: E402
from mcts_arena.players.spec import parse  # noqa: E402
from mcts_arena.runner import effort  # noqa: E402
from mcts_arena.stats import Z95  # noqa: E402


def fail(msg: str) -> None:
    print(f"rate_sensitivity: error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def log_sd(rate) -> float:
    """The rate's standard error on the log scale, from its 95% interval."""
    if rate.ci95 is None:
        fail(f"{effort.rates_source()}: {rate.game} {rate.player}: no ci95 (measure it first: "
             "benchmarks/paper_engine/measure.py)")
    lo, hi = rate.ci95
    return (math.log(hi) - math.log(lo)) / (2 * Z95)


def ratio_ends(p, o) -> tuple[float, float, float]:
    """(low end, value, high end) of the rate ratio p/o."""
    r = p.per_second / o.per_second
    half = Z95 * math.hypot(log_sd(p), log_sd(o))
    return r * math.exp(-half), r, r * math.exp(half)


def rates_file_with(path: Path, rates: dict, game: str, player: str, per_second: int) -> None:
    """A copy of the rates file in force with `player`'s entry at `per_second` (its interval
    widened to hold it: the entry says it is a sensitivity end, not a measurement)."""
    data = copy.deepcopy(rates)
    for e in data["rates"]:
        if e["game"] == game and e["player"] == player:
            e["per_second"] = per_second
            if e.get("ci95"):
                e["ci95"] = [min(e["ci95"][0], per_second), max(e["ci95"][1], per_second)]
            e["source"] = f"sensitivity end: {e.get('source', '')}"
            break
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


def play(cfg: Path, out: Path, rates: Path, effort_s: float, games: int, jobs: int) -> dict:
    env = dict(os.environ, MCTS_ARENA_RATES=str(rates))
    arena = [sys.executable, "-c", "import sys; from mcts_arena.cli import main; "
             "sys.argv[0] = 'arena'; main()"]
    run = subprocess.run(arena + ["run", str(cfg), "--effort", str(effort_s), "--games",
                                  str(games), "--jobs", str(jobs), "--out", str(out), "--quiet"],
                         env=env, cwd=ROOT, capture_output=True, text=True)
    if run.returncode:
        fail(f"arena run {cfg} ({out.name}): {(run.stderr or run.stdout).strip()}")
    rep = subprocess.run(arena + ["report", str(out), "--format", "json"], env=env, check=True,
                         cwd=ROOT, capture_output=True, text=True)
    return json.loads(rep.stdout)[0]


def row_config(game: str, player: str, opponent: str, effort_s: float, games: int,
               seed: int) -> dict:
    """The row as an experiment. Its openings are the game's own default, the ones the record's
    experiments play (Breakthrough's start, Kalah's random boards, LOA's opening set), so that
    the measured end replays the page's games; Kalah from its start position alone is won by
    the first player nearly every game, and every pair splits."""
    return {"name": "rate_sensitivity", "game": game, "budget": {"effort": effort_s},
            "games": games, "seed": seed, "matches": [{"player": player, "opponent": opponent}]}


def describe(row: dict) -> str:
    """One end's result: both budgets, then the score and interval of the basis the row is judged
    by (the pentanomial's, or the pair rule's for Kalah), with that basis named."""
    def budget(b: dict) -> int:
        return b.get("sims") or b.get("nodes")
    j = row["judged"]
    return (f"{budget(row['player_budget']):>9,} vs {budget(row['opponent_budget']):>9,}: "
            f"{100 * j['score']:.1f}% [{100 * j['ci_low']:.1f}, {100 * j['ci_high']:.1f}] "
            f"({row['games']} games, judged by {j['basis']})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--player", required=True)
    ap.add_argument("--opponent", required=True)
    ap.add_argument("--effort", type=float, default=0.1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2014)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "sensitivity")
    a = ap.parse_args(argv)

    try:
        table = effort.load_rates()
        p = effort.rate_for(parse(a.player, a.game), parse, table)
        o = effort.rate_for(parse(a.opponent, a.game), parse, table)
    except UserError as e:
        fail(str(e))
    if p is o:
        fail(f"{a.player} and {a.opponent} take one rate entry ({p.player}): their ratio is 1 "
             "whatever the rate, so there is nothing to vary")
    lo, r, hi = ratio_ends(p, o)
    rates = yaml.safe_load(Path(effort.rates_source()).read_text())
    name = f"{a.player}_vs_{a.opponent}".translate(str.maketrans("(),' ", "_____"))
    base = a.out / name
    base.mkdir(parents=True, exist_ok=True)
    cfg = base / "row.yaml"
    cfg.write_text(yaml.safe_dump(row_config(a.game, a.player, a.opponent, a.effort, a.games,
                                             a.seed), allow_unicode=True))
    print(f"{a.player} ({p.player}: {p.per_second:,.0f}) vs {a.opponent} ({o.player}: "
          f"{o.per_second:,.0f}): rate ratio {r:.3f} [{lo:.3f}, {hi:.3f}]")
    for label, ratio in (("low", lo), ("measured", r), ("high", hi)):
        rf = base / f"rates-{label}.yaml"
        rates_file_with(rf, rates, p.game, p.player, round(ratio * o.per_second))
        row = play(cfg, base / label, rf, a.effort, a.games, a.jobs)
        print(f"  ratio {ratio:.3f} ({label:8s}) {describe(row)}")


if __name__ == "__main__":
    main()
