"""Test-position suite runs read from a results store (`arena solve`, `arena report` on its
directory): whether a directory holds any, and their summary per player and budget."""
from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

from mcts_arena.results.store import Store

#: The table `arena solve` keeps its runs in, beside the store's own (created by the runner).
SUITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS solve (
    player TEXT NOT NULL, position_id TEXT NOT NULL, seed INTEGER NOT NULL,
    budgets_json TEXT NOT NULL, trace_json TEXT NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (player, position_id, seed, budgets_json));
"""


def has_suite_results(directory) -> bool:
    """Does `directory` hold a store with solve results? A file that is not ours, or a damaged
    store, raises the store's one-line UserError (nothing is written)."""
    if not (Path(directory) / "arena.sqlite").is_file():
        return False
    with Store.open(directory) as store:
        row = store.conn.execute("SELECT name FROM sqlite_master WHERE name = 'solve'").fetchone()
        return row is not None and \
            store.conn.execute("SELECT COUNT(*) FROM solve").fetchone()[0] > 0


def summarise(directory, budgets: list[int] | None = None,
              players_order: list[str] | None = None) -> dict:
    """Solved %, median sims to a stable correct choice, mean seconds: per player and budget,
    and per position."""
    with Store.open(directory) as store:
        meta = json.loads(store.get_meta("solve") or "{}")
        rows = store.conn.execute("SELECT player, position_id, seed, budgets_json, trace_json "
                                  "FROM solve").fetchall()
    positions = {q["pid"]: q for q in meta.get("positions", [])}
    budgets = budgets or meta.get("budgets") or []
    order = players_order or meta.get("players") or sorted({r[0] for r in rows})
    out = {"suite": meta.get("suite"), "budgets": budgets, "seeds": meta.get("seeds"),
           "players": {}}
    for player in order:
        runs = [(r[1], json.loads(r[4])) for r in rows if r[0] == player and r[1] in positions]
        if not runs:
            continue
        per_budget = []
        for b in budgets:
            ok, secs = [], []
            for pid, tr in runs:
                entry = next((e for e in tr if e[0] == b), None)
                if entry is None:
                    continue
                ok.append(entry[1] in positions[pid]["best"])
                secs.append(entry[2])
            per_budget.append({"budget": b,
                               "solved_pct": 100.0 * sum(ok) / len(ok) if ok else None,
                               "runs": len(ok),
                               "mean_seconds": statistics.fmean(secs) if secs else None})
        stable = []
        for pid, tr in runs:
            best = positions[pid]["best"]
            s = math.inf
            for b, mv, _ in reversed(tr):
                if mv in best:
                    s = b
                else:
                    break
            stable.append(s)
        med = statistics.median(stable) if stable else math.inf
        per_pos = {}
        for pid in positions:
            prs = [tr for p2, tr in runs if p2 == pid]
            if prs:
                solved = sum(tr[-1][1] in positions[pid]["best"] for tr in prs)
                per_pos[pid] = 100.0 * solved / len(prs)
        out["players"][player] = {
            "per_budget": per_budget,
            "median_sims_to_stable": None if math.isinf(med) else med,
            "stable_runs": sum(not math.isinf(s) for s in stable), "runs": len(stable),
            "solved_pct_by_position_at_max": per_pos}
    return out
