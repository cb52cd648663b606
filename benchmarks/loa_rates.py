"""The Lines of Action entries of the rates file: an anchor and measured cost ratios.

The paper's LOA engines (MC-LOA, MIA) are not public, so no rate of theirs can be measured the
way benchmarks/paper_engine measures the Breakthrough and Kalah engine. LOA's matched effort is
defined instead by one anchor and this engine's own cost ratios:

- the anchor, MCTS(ipp,abp2,det0.5) (MCTS with αβ playouts, MC-LOA's configuration), gets
  ANCHOR_RATE = 4,649 simulations a paper-second: this engine's rate before its αβ playouts were
  made faster (the same moves), which stands near MC-LOA's published rate with αβ playouts
  (about 4,000 simulations a second, Winands & Björnsson), so an LOA effort of S seconds stays
  about S seconds of MC-LOA and every LOA budget keeps its scale;
- every other LOA player gets ANCHOR_RATE x (its simulations, or αβ nodes, per CPU-second in this
  engine) / (the anchor's), each measured over whole self-play games at the budget the record's
  LOA pages (0.1 of the paper's effort) gave the anchor and αβ before this measurement (465
  simulations, 123,829 αβ nodes a move: fixed, so a game replays the same and the load of the
  machine changes only how long it takes), so a player that costs more per simulation than
  the anchor gets fewer, in the proportion this engine's code costs them.

    python benchmarks/loa_rates.py play --games 10 [--only "MCTS(ipp,det0.5)" ...]
    python benchmarks/loa_rates.py summarise [--update]

`play` writes one JSON line per move (work, CPU nanoseconds of the searching thread) under
benchmarks/loa_rates_data/ and resumes (a finished game is never replayed). `summarise` prints
each player's rate in this engine and its entry (ANCHOR_RATE x ratio) with a bootstrap 95%
interval of the ratio (10,000 resamples of whole games, each player's games resampled on their
own); `--update` writes per_second, ci95 and games into the LOA entries of the rates file.
Kept moves: every move whose search did at least half its budget (forced moves and roots solved
at once say nothing of the rate).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcts_arena import games  # noqa: E402
from mcts_arena.players import make, parse  # noqa: E402

RATES = ROOT / "mcts_arena" / "runner" / "data" / "engine_rates.yaml"
DATA = ROOT / "benchmarks" / "loa_rates_data"
ANCHOR = "MCTS(ipp,abp2,det0.5)"
ANCHOR_RATE = 4649
SIMS = 465              # MCTS simulations a move while measuring (0.1 x the anchor's rate)
NODES = 123_829         # αβ nodes a move while measuring (0.1 x αβ(efWB)'s entry before)
MAX_PLIES = 600
RESAMPLES = 10_000


def fail(msg: str) -> None:
    print(f"loa_rates: error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def loa_players(rates_path: Path) -> list[str]:
    try:
        data = yaml.safe_load(rates_path.read_text())
    except (OSError, yaml.YAMLError) as e:
        fail(f"{rates_path}: {e}")
    return [e["player"] for e in data.get("rates", []) if e.get("game") == "loa"]


def slug(player: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", player.replace("αβ", "ab")).strip("_")


def game_file(data: Path, player: str, i: int) -> Path:
    return data / slug(player) / f"game-{i:03d}.jsonl"


def finished(path: Path) -> bool:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return False
    return bool(lines) and json.loads(lines[-1]).get("end") is True


def budget_of(player: str) -> int:
    return NODES if parse(player, "loa").kind == "alphabeta" else SIMS


def play_game(player: str, seed: int) -> list[dict]:
    """One self-play game at the player's budget a move: a JSON record per move, then the end."""
    spec = parse(player, "loa")
    budget = budget_of(player)
    unit = "nodes" if spec.kind == "alphabeta" else "sims"
    agents = [make(spec, seed=seed * 2 + i) for i in (0, 1)]
    st = games.new_state("loa")
    rows, ply = [], 0
    while not st.is_terminal() and ply < MAX_PLIES:
        t0 = time.thread_time_ns()
        move, stats = agents[st.to_move()].choose(st, sims=budget)
        cpu = time.thread_time_ns() - t0
        work = int(stats.get(unit) or 0)
        rows.append({"ply": ply, "work": work, "cpu_ns": cpu})
        st.play(move)
        ply += 1
    rows.append({"end": True, "plies": ply, "terminal": bool(st.is_terminal())})
    return rows


def play(data: Path, players: list[str], n_games: int, seed0: int) -> None:
    from mcts_arena import provenance

    version, build = provenance.build_identity()
    for player in players:
        for i in range(n_games):
            path = game_file(data, player, i)
            if finished(path):
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.time()
            rows = play_game(player, seed0 + i)
            head = {"game": "loa", "player": player, "budget": budget_of(player),
                    "seed": seed0 + i, "mcts_arena": version, "build": build,
                    **provenance.source_commit(),
                    "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))}
            tmp = path.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(r) + "\n" for r in [head, *rows]))
            tmp.replace(path)
            print(f"{player} game {i}: {rows[-1]['plies']} plies in {time.time() - t0:.0f} s",
                  flush=True)


def read_games(data: Path, player: str) -> list[list[tuple[int, int]]]:
    """Per game, the kept moves' (work, cpu_ns)."""
    out = []
    for path in sorted((data / slug(player)).glob("game-*.jsonl")):
        if not finished(path):
            continue
        lines = path.read_text().splitlines()
        half = json.loads(lines[0])["budget"] / 2
        moves = [json.loads(ln) for ln in lines[1:-1]]
        out.append([(m["work"], m["cpu_ns"]) for m in moves if m["work"] >= half])
    return out


def rate(per_game: list[list[tuple[int, int]]]) -> float:
    work = sum(w for g in per_game for w, _ in g)
    cpu = sum(c for g in per_game for _, c in g)
    return work / (cpu / 1e9) if cpu else 0.0


def ratio_interval(mine, anchor, seed: int = 1) -> tuple[float, float]:
    rng = random.Random(seed)
    draws = []
    for _ in range(RESAMPLES):
        a = [mine[rng.randrange(len(mine))] for _ in mine]
        b = [anchor[rng.randrange(len(anchor))] for _ in anchor]
        draws.append(rate(a) / rate(b))
    draws.sort()
    return draws[int(0.025 * RESAMPLES)], draws[int(0.975 * RESAMPLES) - 1]


def summarise(data: Path, rates_path: Path, update: bool, min_games: int) -> None:
    players = loa_players(rates_path)
    anchor = read_games(data, ANCHOR)
    if len(anchor) < min_games:
        fail(f"{ANCHOR}: {len(anchor)} finished games in {data}, {min_games} needed")
    base = rate(anchor)
    entries = {}
    for player in players:
        mine = read_games(data, player)
        if len(mine) < min_games:
            print(f"{player:36s} {len(mine)} games: not enough (need {min_games})")
            continue
        r = rate(mine) / base
        lo, hi = ratio_interval(mine, anchor) if player != ANCHOR else (1.0, 1.0)
        entry = (round(ANCHOR_RATE * r), [round(ANCHOR_RATE * lo), round(ANCHOR_RATE * hi)],
                 len(mine), sum(len(g) for g in mine))
        entries[player] = entry
        print(f"{player:36s} ours {rate(mine):>12,.0f}/CPU-s  ratio {r:.4f} [{lo:.4f}, {hi:.4f}]"
              f"  entry {entry[0]:>10,} [{entry[1][0]:,}, {entry[1][1]:,}]  "
              f"{entry[2]} games, {entry[3]} moves")
    if update:
        text = rates_path.read_text()
        for player, (v, ci, n, moves) in entries.items():
            text = rewrite_entry(text, player, v, ci, n, moves)
        rates_path.write_text(text)
        print(f"updated {rates_path}")


def rewrite_entry(text: str, player: str, v: int, ci: list[int], n: int, moves: int) -> str:
    """The LOA entry of `player` (its two lines) with the new figures; nothing else touched."""
    lines = text.splitlines(keepends=True)
    key = f'{{game: loa, player: "{player}",'
    for i, ln in enumerate(lines):
        if ln.strip().startswith("- " + key):
            unit = re.search(r"unit: (\w+)", ln).group(1)
            lines[i] = (f'  - {{game: loa, player: "{player}", unit: {unit}, per_second: {v}, '
                        f'ci95: [{ci[0]}, {ci[1]}], games: {n}, moves: {moves},\n')
            src = ("anchor: MC-LOA's scale (benchmarks/loa_rates.py)" if player == ANCHOR else
                   f"{ANCHOR} x its cost ratio in this engine, {n} whole games at "
                   f"the record's 0.1 budgets (benchmarks/loa_rates.py)")
            lines[i + 1] = f'     source: "{src}"}}\n'
            return "".join(lines)
    fail(f"no LOA entry for {player} in the rates file")
    return text


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", action="append", help="a player of the LOA entries (repeatable)")
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--rates", type=Path, default=RATES)
    s = sub.add_parser("summarise")
    s.add_argument("--data", type=Path, default=DATA)
    s.add_argument("--rates", type=Path, default=RATES)
    s.add_argument("--update", action="store_true")
    s.add_argument("--min-games", type=int, default=10)
    a = ap.parse_args(argv)
    if a.cmd == "play":
        players = loa_players(a.rates)
        if a.only:
            bad = [o for o in a.only if o not in players]
            if bad:
                fail(f"--only {bad[0]}: not an LOA entry of {a.rates} ({', '.join(players)})")
            players = a.only
        if ANCHOR not in players and not a.only:
            fail(f"{a.rates}: no entry for the anchor {ANCHOR}")
        play(a.data, players, a.games, a.seed)
    else:
        summarise(a.data, a.rates, a.update, a.min_games)


if __name__ == "__main__":
    main()
