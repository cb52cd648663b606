"""Measure the paper engine's search rates: the ground every matched-effort budget stands on.

The paper's players ran in its authors' Java engine (tpepels/mcts_gameframe). A matched effort of
S seconds gives each of our players S x that engine's simulations (or αβ nodes) per second of
search (mcts_arena/runner/effort.py, runner/data/engine_rates.yaml). This script measures those
rates the same way for every entry, so any lab can re-run the measurement:

    # 1. a clone of the engine at the measured commit, patched, compiled (with our driver)
    git clone https://github.com/tpepels/mcts_gameframe ENGINE
    python benchmarks/paper_engine/measure.py build --src ENGINE --out /tmp/gameframe-build
    # 2. whole self-play games, 1 s per move, one JSON line per move (resumable: a finished game
    #    is never replayed); entries picked from the rates file by their `label`
    python benchmarks/paper_engine/measure.py play --build /tmp/gameframe-build \
        --data benchmarks/paper_engine/data --games 10 [--only "breakthrough:MCTS(bl)" ...]
    # 3. each entry's rate and its bootstrap 95% interval (over games); --update writes them
    #    into the rates file's entries (per_second, ci95, games, moves), nothing else touched
    python benchmarks/paper_engine/measure.py summarise --data benchmarks/paper_engine/data \
        [--update mcts_arena/runner/data/engine_rates.yaml]

What the patch adds (mcts_arena/players/data/gameframe/mcts_gameframe-e8e21fd6.patch, shared with
`arena gameframe build`): MCTSPlayer keeps the simulations its last search completed and whether
it stopped early (a win proven at the root); SimGame gives out the players it loaded; αβ may stop
at a node count (off unless set: the rates are timed searches). The driver (ArenaRates.java, our code, compiled into the engine's
`experiments` package) plays one game per JVM and times each search by the CPU time of the
searching thread (ThreadMXBean), so a loaded machine changes how long a search runs in CPU time,
not the rate it reports. `--cpu N` pins the engine to one CPU (taskset): on a loaded machine,
with every other process kept off that CPU, the search thread got 0.82-0.97 of the wall time
(unpinned at load 11: 0.2-0.27). Control, MCTS(bl), 10 games each: at load 18-22 pinned
(control-loaded/) 19,172 [16,921, 21,440] simulations per CPU-second, on the quiet machine
unpinned (data/) 19,347 [15,694, 22,984]: the load changes how much a move searches, not the
rate.

The rate of an entry is its work over its CPU time across the kept moves of all its games. Kept:
every move but the first 2 of each JVM (JIT warm-up), searches that stopped early (a proven win
says nothing of the rate) and searches whose own rate is over 10x the entry's median (the engine
finishing a trivially small tree). The interval resamples whole games (a game's moves are not
independent: rates climb as the board empties), 10,000 resamples, percentile method.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
COMMIT = "e8e21fd6aae1531e7f2f035478b3f4c3ec5f5b7d"
PATCH = HERE.parent.parent / "mcts_arena" / "players" / "data" / "gameframe" / \
    "mcts_gameframe-e8e21fd6.patch"
DRIVER = HERE / "ArenaRates.java"
RATES = HERE.parent.parent / "mcts_arena" / "runner" / "data" / "engine_rates.yaml"
WARMUP_MOVES = 2
OUTLIER_FACTOR = 10.0
RESAMPLES = 10_000
RANDOM_PLIES = 2


def fail(msg: str) -> None:
    print(f"measure.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- build


def build(src: Path, out: Path) -> None:
    """The engine built as `arena gameframe build` builds it (the measured commit, the patch,
    our GTP front end) with this script's driver, ArenaRates.java, compiled in beside it."""
    from mcts_arena.errors import UserError
    from mcts_arena.players import gameframe

    try:
        gameframe.build(src, out, extra=(DRIVER,))
    except UserError as e:
        fail(str(e))
    print(f"built {out} from {COMMIT[:8]} + {PATCH.name} + {DRIVER.name}")


# ---------------------------------------------------------------- entries


def label_of(entry: dict) -> str | None:
    lab = entry.get("label")
    if lab:
        return str(lab)
    m = re.search(r"label (\S+?)[,)]? ", str(entry.get("source", "")) + " ")
    return m.group(1) if m else None


def entries(rates_path: Path) -> list[dict]:
    """The rates file's entries that name an engine label (the paper engine's players)."""
    try:
        data = yaml.safe_load(rates_path.read_text())
    except (OSError, yaml.YAMLError) as e:
        fail(f"{rates_path}: {e}")
    out = []
    for e in data.get("rates", []):
        lab = e.get("label")
        if lab:
            out.append({"game": e["game"], "player": e["player"], "label": lab})
    return out


def key(e: dict) -> str:
    return f"{e['game']}:{e['player']}"


# ---------------------------------------------------------------- play


def game_file(data: Path, e: dict, i: int) -> Path:
    return data / e["game"] / e["label"] / f"game-{i:03d}.jsonl"


def finished(path: Path) -> bool:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return False
    return bool(lines) and json.loads(lines[-1]).get("end") is True


def play(build_dir: Path, data: Path, wanted: list[dict], n_games: int, timelimit: int,
         seed0: int, cpu: str | None = None) -> None:
    info = json.loads((build_dir / "BUILD.json").read_text())
    for e in wanted:
        for i in range(n_games):
            path = game_file(data, e, i)
            if finished(path):
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            seed = seed0 + i
            pin = ["taskset", "-c", cpu] if cpu else []
            cmd = pin + ["java", "-Xmx2g", "-cp", str(build_dir), "experiments.ArenaRates",
                   "--game", e["game"], "--label", e["label"], "--timelimit", str(timelimit),
                   "--seed", str(seed), "--random-plies", str(RANDOM_PLIES)]
            t0 = time.time()
            load0 = os.getloadavg()[0]
            res = subprocess.run(cmd, capture_output=True, text=True)
            moves = [ln for ln in res.stdout.splitlines() if ln.startswith("{")]
            if res.returncode or not moves or not json.loads(moves[-1]).get("end"):
                print(f"{key(e)} game {i}: the engine failed (exit {res.returncode}): "
                      f"{res.stderr.strip()[-300:]}", file=sys.stderr)
                continue
            head = {"game": e["game"], "player": e["player"], "label": e["label"], "seed": seed,
                    "timelimit_ms": timelimit, "engine": info, "host": platform.node(),
                    "machine": platform.machine(), "cpus": os.cpu_count(), "pinned_cpu": cpu,
                    "loadavg_start": round(load0, 2), "loadavg_end": round(os.getloadavg()[0], 2),
                    "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))}
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(head) + "\n" + "\n".join(moves) + "\n")
            tmp.replace(path)
            end = json.loads(moves[-1])
            print(f"{key(e)} game {i}: {end['plies']} plies in {time.time() - t0:.0f} s "
                  f"(load {load0:.1f})", flush=True)


# ---------------------------------------------------------------- summarise


def read_games(data: Path, e: dict) -> list[list[dict]]:
    """Each finished game of the entry: its searches (the moves), in order."""
    games = []
    for path in sorted((data / e["game"] / e["label"]).glob("game-*.jsonl")):
        if not finished(path):
            continue
        lines = [json.loads(x) for x in path.read_text().splitlines()[1:]]
        games.append([m for m in lines if "ply" in m])
    return games


def conditions(data: Path, e: dict, games: list[list[dict]]) -> tuple[float, float, float]:
    """What the machine was doing meanwhile: the load averages the games started and ended at
    (lowest, highest), and the searches' median CPU time over their wall time (the share of its
    second a search had the CPU; the rate is work per CPU-second, so a low share slows the
    measurement, not the rate, up to the caches the other processes disturb)."""
    loads = []
    for path in sorted((data / e["game"] / e["label"]).glob("game-*.jsonl")):
        if finished(path):
            head = json.loads(path.read_text().split("\n", 1)[0])
            loads += [head.get("loadavg_start", math.nan), head.get("loadavg_end", math.nan)]
    shares = [m["cpu_ns"] / m["wall_ns"] for g in games for m in g if m.get("wall_ns")]
    return (min(loads, default=math.nan), max(loads, default=math.nan),
            statistics.median(shares) if shares else math.nan)


def cpu_share(games: list[list[dict]]) -> tuple[float, float]:
    """(the searches' median CPU time over their wall time less the collectors' pauses; the
    median share of the wall time the collectors took). The first is the share the machine
    gave the searching thread — what a loaded machine lowers; the second is the engine's own:
    an αβ with a table allocates 2^25 entries a move, and collecting them stops its search."""
    own, gc = [], []
    for g in games:
        for m in g:
            wall = m.get("wall_ns") or 0
            pause = m.get("gc_ms", 0) * 1e6
            if wall > pause:
                own.append(min(1.0, m["cpu_ns"] / (wall - pause)))
                gc.append(pause / wall)
    return ((statistics.median(own), statistics.median(gc)) if own else (math.nan, math.nan))


def kept(games: list[list[dict]]) -> list[list[tuple[int, int]]]:
    """(work, cpu_ns) of each kept search, per game (see the module's text for the rule)."""
    cand = [[(m["work"], m["cpu_ns"]) for m in g[WARMUP_MOVES:]
             if not m["early"] and m["cpu_ns"] > 0 and m["work"] > 0] for g in games]
    rates = [w / c for g in cand for w, c in g]
    if not rates:
        return cand
    cap = OUTLIER_FACTOR * statistics.median(rates)
    return [[(w, c) for w, c in g if w / c <= cap] for g in cand]


def rate(per_game: list[list[tuple[int, int]]]) -> float:
    work = sum(w for g in per_game for w, _ in g)
    cpu = sum(c for g in per_game for _, c in g)
    return work / (cpu / 1e9)


def bootstrap(per_game: list[list[tuple[int, int]]], seed: int = 1) -> tuple[float, float]:
    sums = [(sum(w for w, _ in g), sum(c for _, c in g) / 1e9) for g in per_game]
    rng = random.Random(seed)
    n = len(sums)
    vals = []
    for _ in range(RESAMPLES):
        pick = [sums[rng.randrange(n)] for _ in range(n)]
        vals.append(sum(w for w, _ in pick) / sum(c for _, c in pick))
    vals.sort()
    return vals[int(0.025 * RESAMPLES)], vals[int(0.975 * RESAMPLES) - 1]


def summarise(data: Path, rates_path: Path, update: bool, min_games: int) -> None:
    rows = []
    for e in entries(rates_path):
        games = read_games(data, e)
        if not games:
            continue
        per_game = kept(games)
        n_moves = sum(len(g) for g in per_game)
        r = rate(per_game)
        lo, hi = bootstrap(per_game)
        rows.append((e, r, lo, hi, len(games), n_moves))
        load_lo, load_hi, share = conditions(data, e, games)
        own, gc = cpu_share(games)
        rows[-1] += (own, gc)
        print(f"{key(e):40s} {r:14,.0f}  [{lo:,.0f}, {hi:,.0f}]  {len(games)} games, "
              f"{n_moves} moves; load {load_lo:.1f}-{load_hi:.1f}, CPU {share:.0%} of wall, "
              f"{own:.0%} of it outside GC pauses (GC {gc:.0%})")
    if update:
        text = rates_path.read_text()
        for e, r, lo, hi, n_games, n_moves, own, gc in rows:
            if n_games < min_games:
                print(f"{key(e)}: {n_games} games, fewer than {min_games}: not written")
                continue
            text = rewrite_entry(text, e, round(r), (round(lo), round(hi)), n_games, n_moves,
                                 own, gc)
        tmp = rates_path.with_suffix(".tmp")
        tmp.write_text(text)
        yaml.safe_load(tmp.read_text())
        tmp.replace(rates_path)
        print(f"updated {rates_path}")


def rewrite_entry(text: str, e: dict, per_second: int, ci: tuple[int, int], n_games: int,
                  n_moves: int, own: float, gc: float) -> str:
    """Replace the measured fields of the one entry with this game, player and label."""
    pat = re.compile(r"^  - \{game: " + re.escape(e["game"]) + r", player: \"" +
                     re.escape(e["player"]) + r"\",.*?\}$", re.M | re.S)
    found = [m for m in pat.finditer(text) if f'label: {e["label"]},' in m.group(0)]
    if len(found) != 1:
        fail(f"{key(e)}: expected one entry with label {e['label']} in the rates file")
    m = found[0]
    unit = re.search(r"unit: (\w+)", m.group(0)).group(1)
    new = (f'  - {{game: {e["game"]}, player: "{e["player"]}", unit: {unit}, '
           f'per_second: {per_second}, ci95: [{ci[0]}, {ci[1]}], games: {n_games}, '
           f'moves: {n_moves}, cpu_share: {own:.2f}, gc_share: {gc:.2f}, label: {e["label"]},\n'
           f'     source: "mcts_gameframe e8e21fd6 + benchmarks/paper_engine, label {e["label"]}, '
           f'{n_games} whole games at 1 s a move, {n_moves} searches kept"}}')
    return text[:m.start()] + new + text[m.end():]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--src", type=Path, required=True)
    b.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("play")
    p.add_argument("--build", type=Path, required=True)
    p.add_argument("--data", type=Path, default=HERE / "data")
    p.add_argument("--rates", type=Path, default=RATES)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--timelimit", type=int, default=1000, help="ms a move (the paper's 1 s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", action="append", default=[], help="GAME:PLAYER (repeatable)")
    p.add_argument("--cpu", help="run the engine pinned to this CPU (taskset -c): keep every "
                   "other process off it, so the JIT compiler and the search have it to themselves")
    s = sub.add_parser("summarise")
    s.add_argument("--data", type=Path, default=HERE / "data")
    s.add_argument("--rates", type=Path, default=RATES)
    s.add_argument("--update", action="store_true", help="write into the rates file")
    s.add_argument("--min-games", type=int, default=10)
    a = ap.parse_args(argv)
    if a.cmd == "build":
        build(a.src, a.out)
    elif a.cmd == "play":
        if not (a.build / "BUILD.json").exists():
            fail(f"{a.build}: not a build of this script (run `build` first)")
        all_e = entries(a.rates)
        wanted = all_e
        if a.only:
            by_key = {key(e): e for e in all_e}
            missing = [k for k in a.only if k not in by_key]
            if missing:
                fail(f"no entry with a label for {', '.join(missing)}")
            wanted = [by_key[k] for k in a.only]
        play(a.build, a.data, wanted, a.games, a.timelimit, a.seed, a.cpu)
    else:
        summarise(a.data, a.rates, a.update, a.min_games)


if __name__ == "__main__":
    main()
