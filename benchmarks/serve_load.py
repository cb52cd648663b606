"""What watching costs a run: games per hour of a 2-worker `arena run` with and without 50
clients polling its `arena serve` page, and how fast the page answers.

    python benchmarks/serve_load.py [--clients 50] [--phase 45] [--blocks 3] [--json out.json]

One run (Breakthrough, an α sweep of MCTS(bl,imα) against MCTS(bl), a budget in simulations so
that the games are CPU-bound and games per hour measure what the workers get done) plays on 2
workers from start to end; `arena serve` watches its results root. The time is cut into phases
of `--phase` seconds in blocks A B B A (A: no client; B: `--clients` clients), `--blocks`
times, so a slow drift of the machine falls on both alike. Each client does what the
experiment page does: it asks for the standings every 2 s (with the ETag of the last answer:
an unchanged one is an empty 304) and fetches the pictures again when their version changes,
at most every 10 s (the server redraws them no more often).
The clients are threads of this process on 127.0.0.1 (loopback only), they stop with their
phase, and every request has a timeout.

Games per hour of a phase: the games whose stored finish time falls in it (the first 5 s of a
phase left out), over its length. The drop is 1 - mean(B) / mean(A), with a 95% interval from
the blocks (t over the per-block drops). Latency: every request of the clients, from sending
to the last byte. The CPU seconds of the server and of the clients per phase are printed too:
on this machine the clients take CPU from the workers as well, so the drop is an upper bound
of what the server alone costs.
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

CONFIG = """\
name: watched
game: breakthrough
budget: {sims: %d}
games: 5000
seed: 11
matches:
  - sweep: {player: 'MCTS(bl,im{a})', opponent: 'MCTS(bl)', a: [0.0, 0.4, 0.6]}
"""
SETTLE = 5.0        # seconds at the start of a phase not counted (clients starting or stopping)
POLL = 2.0          # the page's polling interval


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (and its reaped children) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class Client(threading.Thread):
    """One browser's experiment page: the standings every POLL seconds, the pictures again
    when their version changes (at most every 10 s). Records (seconds, status, kind) of every
    request."""

    def __init__(self, port: int, eid: str, until: float, out: list, rng: random.Random):
        super().__init__(daemon=True)
        self.port, self.eid, self.until, self.out = port, eid, until, out
        self.delay = rng.uniform(0, POLL)

    def get(self, conn, path, headers, kind):
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        body = r.read()
        self.out.append((time.perf_counter() - t0, r.status, kind))
        return r, body

    def run(self):
        time.sleep(self.delay)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        etag, version, pictures_at = None, None, -math.inf
        while time.time() < self.until:
            t0 = time.monotonic()
            try:
                r, body = self.get(conn, f"/api/experiment?id={self.eid}",
                                   {"If-None-Match": etag} if etag else {}, "standings")
                if r.status == 200:
                    etag = r.getheader("etag")
                    d = json.loads(body)
                    if d["version"] != version and time.monotonic() - pictures_at >= 10:
                        version, pictures_at = d["version"], time.monotonic()
                        for p in d["pictures"]:
                            self.get(conn, f"/api/picture?id={self.eid}&name={p['name']}"
                                           f"&v={version}", {}, "picture")
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.out.append((math.nan, 0, "failed"))
            time.sleep(max(0.0, POLL - (time.monotonic() - t0)))
        conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--phase", type=float, default=45.0, help="seconds per phase")
    ap.add_argument("--blocks", type=int, default=3, help="A B B A blocks")
    ap.add_argument("--sims", type=int, default=300, help="simulations per move")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    if not 1 <= args.clients <= 200 or not 10 <= args.phase <= 600 or not 1 <= args.blocks <= 10:
        sys.exit("clients 1-200, phase 10-600 s, blocks 1-10")

    tmp = Path(tempfile.mkdtemp(prefix="serve-load-"))
    root = tmp / "results"
    (tmp / "watched.yaml").write_text(CONFIG % args.sims)
    run = subprocess.Popen([sys.executable, "-m", "mcts_arena", "run", "watched.yaml",
                            "--jobs", "2", "--quiet", "--out", str(root / "watched")],
                           cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = root / "watched" / "arena.sqlite"
    while not db.exists():
        time.sleep(0.2)
    serve = subprocess.Popen([sys.executable, "-m", "mcts_arena", "serve", str(root),
                              "--port", "0"], stdout=subprocess.PIPE, text=True)
    port = int(serve.stdout.readline().split("open http://127.0.0.1:")[1].split("/")[0])
    time.sleep(10)                      # the run's workers up, the server warm
    phases, requests = _phases(args, port, serve.pid)
    run.send_signal(signal.SIGINT)
    run.wait(60)
    serve.send_signal(signal.SIGINT)
    serve.wait(30)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        finished = sorted(r[0] for r in c.execute("SELECT finished FROM game"))
    out = _figures(args, phases, requests, finished)
    print(json.dumps({k: v for k, v in out.items() if k != "phases"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


def _phases(args, port: int, server_pid: int) -> tuple[list[dict], dict[str, list]]:
    """Play the A B B A blocks: (each phase's times and CPU, the watched phases' requests)."""
    phases = []
    requests: dict[str, list] = {"A": [], "B": []}
    rng = random.Random(1)
    order = "ABBA" * args.blocks
    for kind in order:
        start = time.time()
        end = start + args.phase
        cpu0 = (cpu_seconds(server_pid), time.process_time())
        clients = []
        if kind == "B":
            clients = [Client(port, "watched", end, requests["B"], rng)
                       for _ in range(args.clients)]
            for c in clients:
                c.start()
        time.sleep(max(0.0, end - time.time()))
        for c in clients:
            c.join(35)
        phases.append({"kind": kind, "start": start, "end": end,
                       "server_cpu_s": cpu_seconds(server_pid) - cpu0[0],
                       "clients_cpu_s": time.process_time() - cpu0[1]})
        print(f"phase {len(phases)}/{len(order)} {kind} done", file=sys.stderr)
    return phases, requests


def _figures(args, phases: list[dict], requests: dict[str, list], finished: list[float]) -> dict:
    """Games per hour by phase and block, the drop while watched, the requests' latencies."""
    for p in phases:
        lo, hi = p["start"] + SETTLE, p["end"]
        p["games"] = sum(lo <= t < hi for t in finished)
        p["games_per_hour"] = 3600.0 * p["games"] / (hi - lo)
    drops = []
    for b in range(args.blocks):
        blk = phases[4 * b: 4 * b + 4]
        a = statistics.mean(p["games_per_hour"] for p in blk if p["kind"] == "A")
        w = statistics.mean(p["games_per_hour"] for p in blk if p["kind"] == "B")
        drops.append(1 - w / a)
    mean_a = statistics.mean(p["games_per_hour"] for p in phases if p["kind"] == "A")
    mean_b = statistics.mean(p["games_per_hour"] for p in phases if p["kind"] == "B")
    drop = 1 - mean_b / mean_a
    half = None
    if len(drops) > 1:
        from scipy import stats as st
        half = st.t.ppf(0.975, len(drops) - 1) * statistics.stdev(drops) / math.sqrt(len(drops))
    lat = sorted(x[0] for x in requests["B"] if x[2] != "failed")
    failed = sum(1 for x in requests["B"] if x[2] == "failed" or x[1] not in (200, 304))
    by = {k: sorted(x[0] for x in requests["B"] if x[2] == k and x[1] in (200, 304))
          for k in ("standings", "picture")}

    def q(xs, f):
        return xs[min(len(xs) - 1, int(f * len(xs)))] * 1000 if xs else math.nan

    out = {
        "clients": args.clients, "phase_s": args.phase, "blocks": args.blocks, "sims": args.sims,
        "games_A": sum(p["games"] for p in phases if p["kind"] == "A"),
        "games_B": sum(p["games"] for p in phases if p["kind"] == "B"),
        "games_per_hour_A": round(mean_a, 1), "games_per_hour_B": round(mean_b, 1),
        "drop": round(drop, 4), "drop_per_block": [round(d, 4) for d in drops],
        "drop_ci95_half_width": None if half is None else round(half, 4),
        "requests": len(lat), "failed": failed,
        "not_modified": sum(1 for x in requests["B"] if x[1] == 304),
        "latency_ms": {"median": round(q(lat, 0.5), 2), "p90": round(q(lat, 0.9), 2),
                       "p99": round(q(lat, 0.99), 2), "max": round(lat[-1] * 1000, 2)
                       if lat else None},
        "latency_ms_standings_median": round(q(by["standings"], 0.5), 2),
        "latency_ms_pictures_median": round(q(by["picture"], 0.5), 2),
        "server_cpu_share_A": round(sum(p["server_cpu_s"] for p in phases if p["kind"] == "A")
                                    / (args.phase * 2 * args.blocks), 4),
        "server_cpu_share_B": round(sum(p["server_cpu_s"] for p in phases if p["kind"] == "B")
                                    / (args.phase * 2 * args.blocks), 4),
        "clients_cpu_share_B": round(sum(p["clients_cpu_s"] for p in phases
                                         if p["kind"] == "B") / (args.phase * 2 * args.blocks),
                                     4),
        "phases": phases, "machine": {"cpus": os.cpu_count(), "load": os.getloadavg()},
    }
    return out


if __name__ == "__main__":
    main()
