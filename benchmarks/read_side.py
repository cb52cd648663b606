"""The read side at scale: how long `arena report` takes over a large store and how much memory
it needs, and how fast `arena serve` answers its API while a writer appends games.

    python benchmarks/read_side.py build DIR --games 100000      # a store of realistic games
    python benchmarks/read_side.py grow DIR BIG --times 10       # BIG: DIR's games 10 times
    python benchmarks/read_side.py report DIR [--arena PATH ...] # time and peak memory
    python benchmarks/read_side.py serve DIR [--copies 50] [--seconds 60] [--rate 100]
    python benchmarks/read_side.py index DIR [--copies 51] [--rounds 3] [--checkout PATH ...]

`build` writes the games straight through the store's writer (runner.writer.Writer.add_game,
one transaction a game, the aggregates kept as a run keeps them), copying real games: every
game of tests/data/store_v2/kalah.sqlite (Kalah at 40 simulations a move: 4.2 KB a game with its
moves and per-move statistics as text, the build before packed games; 0.93 KB packed) in
turn, with a seeded random result, one pairing, seat-swapped pairs, finish times 3.5 ms apart
(1.04 million games an hour). Only `synchronous` is off while it builds (no fsync a game:
minutes instead of hours); the rows are a run's rows.

`grow` makes a large store in minutes where `build` takes hours: BIG is DIR copied (SQLite's
backup), then DIR's games and pairs inserted again `--times` - 1 times by SQL, each copy at pair
indices shifted past the last (its game ids renumbered to match, finish times kept), and the
aggregates scaled by the same factor (every count and sum of the tally, the pairs of the pair
tally, the pairing's planned games): the store any reader opens agrees with its games, as the
writer would have kept it.

`report` runs `arena report DIR --format json` in a fresh process for each `--arena` given
(this checkout's first; `--arena /work/main/.venv/bin/arena` measures another build in the same
run) and prints wall seconds and the peak resident memory (the process's maxrss from wait4),
and whether every build's rows are the same (floats to 12 significant digits).

`serve` makes a results root: DIR copied (`live`, which a writer process appends `--rate` games
a second to, with the writer's full sync, for the whole measurement) and `--copies` hard links
of DIR's database (`copies/expNN`: the index over many large experiments; hard links so that
they take no disk, never written). It starts `arena serve` on it and asks, one request after
another for `--seconds`, for /api/index, /api/experiment of the live store, /api/games of its
pairing and /api/game of one of its games, without ETags (every answer
whole), and prints the latency of each route: median, 95th percentile, maximum, count.

`index` times the cold index alone: the first /api/index of a fresh `arena serve` over
`--copies` hard links of DIR's database, for each `--checkout` (this one by default; e.g.
`--checkout /work/main --checkout .` for before and after), alternating, `--rounds` times;
each twice: with nothing kept from an earlier server (`kept: false`: its own empty
MCTS_ARENA_CACHE folder), then with what that server kept (`kept: true`, serve/known.py;
a build without it reads every store again);
with each, `startup_s`: from the process's start to its listening (imports, the warm-up that
imports what the pages draw with), which the first request does not wait for.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "tests" / "data" / "store_v2" / "kalah.sqlite"
PERIOD = 3600.0 / 1.04e6        # seconds between finished games (the run)


def _templates() -> tuple[dict, dict, list[dict]]:
    """(experiment row, first pairing row, games) of the template store."""
    c = sqlite3.connect(f"file:{TEMPLATE}?mode=ro&immutable=1", uri=True)
    c.row_factory = sqlite3.Row
    exp = dict(c.execute("SELECT * FROM experiment").fetchone())
    pairing = dict(c.execute("SELECT * FROM pairing ORDER BY position").fetchone())
    games = [dict(r) for r in c.execute("SELECT * FROM game WHERE pairing_id = ? AND reason "
                                        "!= 'error'", (pairing["pairing_id"],))]
    c.close()
    return exp, pairing, games


def _record(t: dict, pairing: dict, i: int, rng: random.Random, finished: float):
    from mcts_arena.runner.match import GameRecord

    swap = i % 2
    seats = (pairing["player"], pairing["opponent"])
    return GameRecord(
        game_id=f"bench/{pairing['pairing_id']}/{i // 2}/{swap}",
        pairing_id=pairing["pairing_id"], pair_index=i // 2, swap=swap,
        seats=seats if swap == 0 else seats[::-1],
        budgets=tuple(json.loads(t["budgets_json"])), seeds=(rng.getrandbits(62), i),
        opening=t["opening"], winner=rng.choice((0, 0, 1, 1, None)),
        reason="normal", plies=t["plies"], moves=json.loads(t["moves_json"]),
        stats=json.loads(t["stats_json"]), duration=t["duration"], finished=finished,
        version=t["version"] or "", build=t["build"] or "")


def _open_writer(directory: Path, games: int):
    from mcts_arena.runner.writer import Writer

    exp, pairing, _ = _templates()
    cfg = json.loads(exp["config_json"])
    cfg["name"] = "bench"
    cfg["description"] = f"read-side benchmark: {games} Kalah games, one pairing"
    cfg["pairings"] = [dict(cfg["pairings"][0], games=games)]
    w = Writer.open(directory)
    w.save_experiment("bench", json.dumps(cfg, sort_keys=True), json.loads(exp["identity_json"]),
                      [{"pairing_id": pairing["pairing_id"], "player": pairing["player"],
                        "opponent": pairing["opponent"], "games": games,
                        "player_budget": None, "opponent_budget": None}])
    return w, pairing


def build(directory: Path, games: int, seed: int = 1) -> None:
    t0 = time.perf_counter()
    w, pairing = _open_writer(directory, games)
    _, _, templates = _templates()
    rng = random.Random(seed)
    w.conn.execute("PRAGMA synchronous=OFF")        # building only: no fsync a game
    start = time.time() - games * PERIOD
    try:
        for i in range(games):
            w.add_game(_record(templates[i % len(templates)], pairing, i, rng,
                               start + i * PERIOD))
            if (i + 1) % max(1, games // 10) == 0:
                print(f"  {i + 1} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        w.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        w.close()
    _made("built", directory, games, t0)


def _made(what: str, directory: Path, games: int, t0: float) -> None:
    """The line `build` and `grow` end with: the store, its games, the time, its size."""
    size = (directory / "arena.sqlite").stat().st_size
    print(json.dumps({what: str(directory), "games": games, "seconds":
                      round(time.perf_counter() - t0, 1), "bytes": size,
                      "bytes_per_game": round(size / games)}))


def grow(src: Path, dst: Path, times: int) -> None:
    """BIG (`dst`): the store at `src` with its games `times` times (module docstring)."""
    import sqlite3

    def refuse(why: str) -> None:
        print(f"read_side.py grow: {why}", file=sys.stderr)
        sys.exit(2)

    if times < 2:
        refuse("--times must be at least 2")
    if dst.exists():
        refuse(f"{dst} exists; name a new directory")
    if not (src / "arena.sqlite").is_file():
        refuse(f"{src}: no arena.sqlite (not a results directory)")
    t0 = time.perf_counter()
    dst.mkdir(parents=True)
    with sqlite3.connect(f"file:{src / 'arena.sqlite'}?mode=ro", uri=True) as old, \
            sqlite3.connect(dst / "arena.sqlite") as new:
        old.backup(new)
    conn = sqlite3.connect(dst / "arena.sqlite", isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("BEGIN")
        span = conn.execute("SELECT MAX(pair_index) + 1 FROM game").fetchone()[0]
        cfg = json.loads(conn.execute("SELECT config_json FROM experiment").fetchone()[0])
        name = cfg["name"]
        for k in range(1, times):
            conn.execute(
                "INSERT INTO game SELECT ? || '/' || pairing_id || '/' || (pair_index + ?) || '/' "
                "|| swap, pairing_id, pair_index + ?, swap, seat0, seat1, budgets_json, "
                "seeds_json, opening, winner, score, reason, error, plies, moves_json, stats_json, "
                "duration, finished, version, build FROM game WHERE pair_index < ?",
                (name, k * span, k * span, span))
            conn.execute("INSERT INTO pair SELECT pairing_id, pair_index + ?, outcome, points "
                         "FROM pair WHERE pair_index < ?", (k * span, span))
        sums = ("games", "plies", "player_moves", "player_sims", "player_nodes", "player_wall",
                "player_walled", "opponent_moves", "opponent_sims", "opponent_nodes",
                "opponent_wall", "opponent_walled")
        conn.execute("UPDATE tally SET " + ", ".join(f"{c} = {c} * ?" for c in sums),
                     (times,) * len(sums))
        conn.execute("UPDATE pair_tally SET pairs = pairs * ?", (times,))
        conn.execute("UPDATE pairing SET games = games * ?", (times,))
        cfg["pairings"] = [dict(p, games=p["games"] * times) for p in cfg["pairings"]]
        conn.execute("UPDATE experiment SET config_json = ?", (json.dumps(cfg, sort_keys=True),))
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        games = conn.execute("SELECT COUNT(*) FROM game").fetchone()[0]
    finally:
        conn.close()
    _made("grown", dst, games, t0)


def append(directory: Path, rate: float) -> None:
    """Append games at `rate` a second through the writer (full sync) until interrupted."""
    from mcts_arena.runner.writer import Writer

    w = Writer.open(directory)
    _, _, templates = _templates()
    pairing = w.pairings()[0]
    rng = random.Random(2)
    i = 2 * (w.conn.execute("SELECT MAX(pair_index) FROM game").fetchone()[0] + 1)
    n = 0
    t0 = time.monotonic()
    try:
        while True:
            w.add_game(_record(templates[i % len(templates)], pairing, i, rng, time.time()))
            i += 1
            n += 1
            lag = t0 + n / rate - time.monotonic()
            if lag > 0:
                time.sleep(lag)
    except KeyboardInterrupt:
        pass
    finally:
        w.close()
        print(json.dumps({"appended": n, "seconds": round(time.monotonic() - t0, 1)}))


def _peak_of(cmd: list[str]) -> tuple[float, int, int, bytes]:
    """(wall seconds, peak resident KiB, exit status, stdout) of one command (wait4)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as f:
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        f.seek(0)
        return wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status), f.read()


def measure_report(directory: Path, arenas: list[str]) -> list[dict]:
    out = []
    for arena in arenas:
        with tempfile.TemporaryDirectory() as tmp:
            wall, peak, code, stdout = _peak_of([arena, "report", str(directory), "--format",
                                                 "json", "--out", tmp])
        rows = json.loads(stdout) if code == 0 else []
        out.append({"arena": arena, "exit": code, "seconds": round(wall, 2),
                    "peak_mb": round(peak / 1024), "games": [r["games"] for r in rows],
                    "rows": rows})
    return out


def _rounded(rows) -> str:
    def r(x):
        if isinstance(x, float):
            return float(f"{x:.12g}")
        if isinstance(x, dict):
            return {k: r(v) for k, v in x.items()}
        if isinstance(x, list):
            return [r(v) for v in x]
        return x
    return json.dumps(r(rows), sort_keys=False)


def _get(conn: http.client.HTTPConnection, path: str) -> tuple[float, int, bytes]:
    t0 = time.perf_counter()
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    return time.perf_counter() - t0, r.status, body


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def serve(directory: Path, copies: int, seconds: float, rate: float) -> dict:
    root = Path(tempfile.mkdtemp(prefix="read-side-"))
    try:
        (root / "live").mkdir()
        shutil.copyfile(directory / "arena.sqlite", root / "live" / "arena.sqlite")
        for k in range(copies):
            (root / "copies" / f"exp{k:02d}").mkdir(parents=True)
            os.link(directory / "arena.sqlite", root / "copies" / f"exp{k:02d}" / "arena.sqlite")
        writer = subprocess.Popen([sys.executable, __file__, "append", str(root / "live"),
                                   "--rate", str(rate)], stdout=subprocess.PIPE, text=True)
        server = subprocess.Popen([sys.executable, "-m", "mcts_arena", "serve", str(root),
                                   "--port", "0"], stdout=subprocess.PIPE, text=True)
        port = int(server.stdout.readline().split("open http://127.0.0.1:")[1].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        pid = json.loads(_get(conn, "/api/experiment?id=live")[2])["rows"][0]["pairing_id"]
        gid = json.loads(_get(conn, f"/api/games?id=live&pairing={pid}")[2])["games"][0][
            "game_id"]
        routes = {"index": "/api/index", "experiment": "/api/experiment?id=live",
                  "games": f"/api/games?id=live&pairing={pid}",
                  "game": f"/api/game?id=live&game={gid}"}
        lat: dict[str, list[float]] = {k: [] for k in routes}
        first = {}
        t_end = time.monotonic() + seconds
        while time.monotonic() < t_end:
            for name, path in routes.items():
                dt, status, _body = _get(conn, path)
                assert status == 200, (path, status)
                first.setdefault(name, dt)
                lat[name].append(dt)
        found = {k: {"p50_ms": round(1000 * _pct(v, 0.5), 1),
                     "p95_ms": round(1000 * _pct(v, 0.95), 1),
                     "max_ms": round(1000 * max(v), 1), "first_ms": round(1000 * first[k], 1),
                     "requests": len(v)} for k, v in lat.items()}
        print(json.dumps({"routes": found}), file=sys.stderr, flush=True)  # before the stops
        writer.send_signal(signal.SIGINT)
        try:
            appended = json.loads(writer.communicate(timeout=300)[0].strip().splitlines()[-1])
        except subprocess.TimeoutExpired:       # the latencies above stand; the count is lost
            writer.kill()
            appended = None
        server.send_signal(signal.SIGINT)
        server.wait(30)
        index = json.loads(_get_fresh(root, copies))
        return {"routes": found, "writer": appended, "cold_index": index}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _get_fresh(root: Path, copies: int) -> str:
    """The index of a fresh server over the root (nothing cached): its first answer's time."""
    server = subprocess.Popen([sys.executable, "-m", "mcts_arena", "serve", str(root),
                               "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split("open http://127.0.0.1:")[1].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        dt, status, body = _get(conn, "/api/index")
        n = len(json.loads(body)["experiments"])
        return json.dumps({"experiments": n, "first_index_ms": round(1000 * dt, 1)})
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)


def cold_index(directory: Path, copies: int, rounds: int, checkouts: list[str]) -> list[dict]:
    """The first /api/index of a fresh `arena serve` over `copies` hard links of DIR's database,
    for each checkout (its .venv's python, run in it, so that it imports its own mcts_arena),
    the checkouts alternating, `rounds` times."""
    root = Path(tempfile.mkdtemp(prefix="read-side-index-"))
    out = []
    try:
        for k in range(copies):
            (root / f"exp{k:02d}").mkdir()
            os.link(directory / "arena.sqlite", root / f"exp{k:02d}" / "arena.sqlite")
        for r, (checkout, cache) in itertools.product(range(rounds), zip(
                checkouts, [root / f".cache{k}" for k in range(len(checkouts))])):
            for kept in (False, True):
                if not kept:                # serve/known.py: none kept yet, then the last's
                    shutil.rmtree(cache, ignore_errors=True)
                t0 = time.perf_counter()
                server = subprocess.Popen(
                    [str(Path(checkout) / ".venv" / "bin" / "python"), "-m", "mcts_arena",
                     "serve", str(root), "--port", "0"], stdout=subprocess.PIPE, text=True,
                    cwd=checkout, env=dict(os.environ, MCTS_ARENA_CACHE=str(cache)))
                try:
                    line = server.stdout.readline()
                    started = time.perf_counter() - t0
                    port = int(line.split("open http://127.0.0.1:")[1].split("/")[0])
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
                    dt, status, body = _get(conn, "/api/index")
                    found = json.loads(body)["experiments"] if status == 200 else []
                    out.append({"checkout": checkout, "round": r, "kept": kept,
                                "experiments": len(found), "startup_s": round(started, 2),
                                "first_index_ms": round(1000 * dt, 1)})
                    print(json.dumps(out[-1]), flush=True)
                finally:
                    server.send_signal(signal.SIGINT)
                    server.wait(30)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir", type=Path)
    b.add_argument("--games", type=int, default=100000)
    g = sub.add_parser("grow")
    g.add_argument("dir", type=Path)
    g.add_argument("big", type=Path)
    g.add_argument("--times", type=int, default=10)
    a = sub.add_parser("append")
    a.add_argument("dir", type=Path)
    a.add_argument("--rate", type=float, default=100.0)
    r = sub.add_parser("report")
    r.add_argument("dir", type=Path)
    r.add_argument("--arena", action="append", default=None)
    s = sub.add_parser("serve")
    s.add_argument("dir", type=Path)
    s.add_argument("--copies", type=int, default=50)
    s.add_argument("--seconds", type=float, default=60.0)
    s.add_argument("--rate", type=float, default=100.0)
    i = sub.add_parser("index")
    i.add_argument("dir", type=Path)
    i.add_argument("--copies", type=int, default=51)
    i.add_argument("--rounds", type=int, default=3)
    i.add_argument("--checkout", action="append", default=None)
    args = ap.parse_args()
    if args.what == "build":
        build(args.dir, args.games)
    elif args.what == "grow":
        grow(args.dir, args.big, args.times)
    elif args.what == "append":
        append(args.dir, args.rate)
    elif args.what == "index":
        cold_index(args.dir.resolve(), args.copies, args.rounds, args.checkout or [str(ROOT)])
    elif args.what == "report":
        arenas = args.arena or [str(Path(sys.executable).with_name("arena"))]
        found = measure_report(args.dir, arenas)
        for m in found:
            print(json.dumps({k: v for k, v in m.items() if k != "rows"}))
        print(json.dumps({"rows_equal": len({_rounded(m["rows"]) for m in found}) == 1}))
    else:
        print(json.dumps(serve(args.dir, args.copies, args.seconds, args.rate),
                         indent=1))


if __name__ == "__main__":
    main()
