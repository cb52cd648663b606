"""The experiments under a results root, as `arena serve` may show them: where their stores lie
(only under the root: no path from outside reaches a file), whether a run is writing one now, and
the cheap facts of the index (state, games stored of planned, games per hour, ETA, builds).

Nothing here writes: a store is read through `results.store.Store` (read-only, `mode=ro`;
`immutable=1` only while no `-wal` file exists, so no `-wal`/`-shm` file is ever created and a
running writer is never locked out), and whether a run holds a directory's `.lock` is read from
the kernel's lock table (/proc/locks) instead of by trying the lock, which for an instant would
make a starting `arena run` refuse ("in use by another run").
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from mcts_arena import budgets
from mcts_arena.errors import UserError
from mcts_arena.results import aggregates
from mcts_arena.results.store import DB_NAME, LOCK_NAME, Store

#: How deep under the root stores are looked for (results/<name>/arena.sqlite is depth 1;
#: `arena reproduce` and hand-made trees nest a little deeper) and how many are listed at most.
MAX_DEPTH = 4
MAX_STORES = 2000
#: The games-per-hour window: games finished in the last RATE_WINDOW seconds before the newest
#: one (a run resumed after a pause is not averaged over the pause), at least RATE_MIN_GAMES and
#: at most RATE_MAX_GAMES (a fast run's rate from its newest games: the store's index of finish
#: times is walked over at most that many, however many games the window holds).
RATE_WINDOW = 1800.0
RATE_MIN_GAMES = 20
RATE_MAX_GAMES = 5000


@dataclass(frozen=True)
class Entry:
    """One store under the root: its id (the path below the root, `/`-separated) and folder."""

    id: str
    directory: Path


def find_stores(root: Path) -> list[Entry]:
    """Every results folder (holding arena.sqlite) under `root` (the root itself included),
    sorted by id. Symbolic links are followed only where they stay inside the root; a folder is
    visited once (no link loops); at most MAX_DEPTH levels and MAX_STORES stores."""
    root = root.resolve()
    out: list[Entry] = []
    seen: set[Path] = set()

    def visit(d: Path, rel: tuple[str, ...]) -> None:
        real = d.resolve()
        if real in seen or not real.is_relative_to(root) or len(out) >= MAX_STORES:
            return
        seen.add(real)
        db = d / DB_NAME
        if db.exists() and db.resolve().is_relative_to(root):
            out.append(Entry("/".join(rel) or root.name or "root", d))
        if len(rel) >= MAX_DEPTH:
            return
        try:
            children = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            return
        for child in children:
            if child.name.startswith(".") or not child.is_dir():
                continue
            visit(Path(child.path), (*rel, child.name))

    visit(root, ())
    return sorted(out, key=lambda e: e.id)


def data_key(directory: Path) -> tuple:
    """What changes whenever a writer commits to the store in `directory`: size and time of the
    database and of its write-ahead log (stat calls only, nothing opened)."""
    key = []
    for name in (DB_NAME, DB_NAME + "-wal"):
        try:
            st = os.stat(directory / name)
            key.append((st.st_size, st.st_mtime_ns, st.st_ino))
        except OSError:
            key.append(None)
    return tuple(key)


def kernel_locks() -> list[tuple[int, int, int, int]] | None:
    """(pid, device major, device minor, inode) of every flock lock in the kernel's table, or
    None where there is no /proc/locks to read."""
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    out = []
    for line in lines:
        fields = [x for x in line.split() if x != "->"]
        if len(fields) < 6 or fields[1] != "FLOCK":
            continue
        try:
            major, minor, inode = fields[5].split(":")
            out.append((int(fields[4]), int(major, 16), int(minor, 16), int(inode)))
        except ValueError:
            continue
    return out


def lock_held(directory: Path, locks=None) -> bool:
    """Is a run writing to `directory` now (some process holds its `.lock`)? Read from the
    kernel's lock table, matched by device and inode (or by inode and the pid the run wrote
    into the file, for file systems that show another device there); where no lock table can
    be read, whether the pid written in `.lock` is alive."""
    path = directory / LOCK_NAME
    try:
        st = os.stat(path)
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return False
    pid = int(text) if text.isdigit() else None
    locks = kernel_locks() if locks is None else locks
    if locks is None:
        if pid is None:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    dev = (os.major(st.st_dev), os.minor(st.st_dev))
    return any(ino == st.st_ino and ((maj, mi) == dev or p == pid)
               for p, maj, mi, ino in locks)


def rate_and_eta(finished: list[float], remaining: int, running: bool) -> tuple[float | None,
                                                                              float | None]:
    """(games per hour, seconds to go) from the finish times of the stored games: the rate
    over the games finished in the RATE_WINDOW before the newest (at least RATE_MIN_GAMES of
    the newest); the ETA only for a running experiment with games left and a rate."""
    if len(finished) < 2:
        return None, None
    finished = sorted(finished)
    newest = finished[-1]
    recent = [t for t in finished if t >= newest - RATE_WINDOW][-RATE_MAX_GAMES:]
    if len(recent) < RATE_MIN_GAMES:
        recent = finished[-RATE_MIN_GAMES:]
    return _rate(len(recent), recent[-1] - recent[0], remaining, running)


def _rate(recent: int, span: float, remaining: int, running: bool
          ) -> tuple[float | None, float | None]:
    if span <= 0:
        return None, None
    per_hour = 3600.0 * (recent - 1) / span
    eta = remaining / per_hour * 3600.0 if running and remaining and per_hour > 0 else None
    return per_hour, eta


def stored_rate(store: Store, tally: list[dict], remaining: int, running: bool
                ) -> tuple[float | None, float | None]:
    """`rate_and_eta` over the store's games: how many and the newest finish time from its
    aggregates (`tally`, checked against the games), the window from its index of finish times
    (at most RATE_MAX_GAMES entries walked, however many games it holds)."""
    n = sum(r["games"] for r in tally)
    if n < 2:
        return None, None
    newest = max(r["last_finished"] for r in tally)
    # a full window (the common case of a fast run): its oldest game is the RATE_MAX_GAMES-th
    # newest, found by stepping the index without reading a row out (a third of the cost of
    # counting them); otherwise the window holds fewer, counted
    full = store.conn.execute(
        "SELECT finished FROM game WHERE finished >= ? ORDER BY finished DESC LIMIT 1 OFFSET ?",
        (newest - RATE_WINDOW, RATE_MAX_GAMES - 1)).fetchone()
    if full is not None:
        recent, oldest = RATE_MAX_GAMES, full[0]
    else:
        recent, oldest = store.conn.execute(
            "SELECT COUNT(*), MIN(finished) FROM game WHERE finished >= ?",
            (newest - RATE_WINDOW,)).fetchone()
    if recent < RATE_MIN_GAMES:
        recent, oldest = store.conn.execute(
            "SELECT COUNT(*), MIN(finished) FROM (SELECT finished FROM game ORDER BY finished "
            "DESC LIMIT ?)", (RATE_MIN_GAMES,)).fetchone()
    return _rate(recent, newest - oldest, remaining, running)


def builds_of(store: Store, tally: list[dict] | None = None, exp: dict | None = None
              ) -> list[dict]:
    """[{"version", "build", "games"}] of the stored games, oldest build first (the store's own
    `builds`, the report's source too; from `tally`, its aggregates, where the caller has read
    them); a game stored before games carried their build counts under the experiment's
    version with build None ("unrecorded"); `exp`: the experiment row, where read already."""
    exp_version = ((store.experiment() if exp is None else exp) or {}).get("version")
    found = store.builds() if tally is None else aggregates.builds(tally)
    return [{"version": v if b is not None else (v or exp_version), "build": b, "games": n}
            for (v, b), n in found.items()]


def summary(entry: Entry, locks=None) -> dict:
    """The index's facts of one store: {"id", "name", "game", "state" ("running", "finished",
    "interrupted", "unreadable"), "stored", "errors", "planned", "games_per_hour",
    "eta_seconds", "builds", "updated", "kind" ("experiment", "tournament" or "tune"), "tune"
    (a tune's method, template, games of its budget and where it stands: results.tune's
    `index_facts`, `bracket_facts`), "error" (why a store is unreadable: damaged, not
    ours)}. Never raises for a bad store. A tune is read from the store's aggregates
    (`results.tune.read_counted`), never from every game."""
    running = lock_held(entry.directory, locks)
    base = {"id": entry.id, "name": entry.id, "game": None, "running": running,
            "stored": 0, "errors": 0, "planned": 0, "games_per_hour": None, "eta_seconds": None,
            "builds": [], "updated": None, "kind": "experiment", "tune": None,
            "error": None}
    try:
        with Store.open(entry.directory, whole=False) as store:
            return {**base, **_facts(store, running)}
    except UserError as e:
        return {**base, "state": "unreadable", "error": str(e)}
    except (sqlite3.Error, ValueError, KeyError, TypeError) as e:
        return {**base, "state": "unreadable", "error": f"{entry.directory / DB_NAME}: "
                f"cannot read the store: {e}"}


def _facts(store: Store, running: bool) -> dict:
    from mcts_arena.results import rows, tournament, tune

    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    done: dict[str, list[int]] = {}         # pairing -> [counted games, error games]
    tally = store.tally()
    for r in tally:
        done.setdefault(r["pairing_id"], [0, 0])[r["result"] == "error"] += r["games"]
    # through the store's checked reader: a damaged value is one line ("unreadable"), and a
    # value of the wrong shape (not an object) counts as undecided rather than raising
    sprt = {k: store.meta_json(k) for k in store.meta_items("sprt/")}
    decided = {k.split("/", 1)[1] for k, v in sprt.items()
               if isinstance(v, dict) and v.get("decision")}
    planned = remaining = 0
    for p in store.pairings():
        ok = done.get(p["pairing_id"], (0, 0))[0]
        stop = p["pairing_id"] in decided
        planned += ok if stop else p["games"]
        remaining += 0 if stop else max(0, p["games"] - ok)
    per_hour, eta = stored_rate(store, tally, remaining, running)
    updated = max((r["last_finished"] for r in tally), default=None)
    kind, tuned = "experiment", None
    state = tournament.stored_state(store)
    if state is not None:
        kind = "tournament"
        remaining += 0 if state.done else 1
    tune_st = tune.read_counted(store, tally)
    if tune_st is not None:         # a tune plans its budget, not the pairings asked so far
        kind, tuned = "tune", tune.index_facts(tune_st)
        # a confirmation its SPRT decided plans the games it played, not its cap
        planned = tuned["games"] + (tuned["confirm_played"] if tuned["confirm_decided"]
                                    else tuned["confirm_games"])
        remaining = 0 if tune_st.done else max(1, planned - sum(v[0] for v in done.values()))
        per_hour, eta = stored_rate(store, tally, remaining, running)
    elif state is not None and store.get_meta(tune.BRACKET_KEY) is not None:
        kind, tuned = "tune", tune.bracket_facts(store.meta_json(tune.BRACKET_KEY, rows.obj()),
                                                 state)
    return {"name": exp.get("name", store.directory.name), "game": cfg.get("game"),
            "state": "running" if running else ("finished" if not remaining
                                                else "interrupted"),
            "stored": sum(v[0] for v in done.values()),
            "errors": sum(v[1] for v in done.values()), "planned": planned,
            "games_per_hour": per_hour, "eta_seconds": eta, "builds": builds_of(store, tally, exp),
            "updated": updated,
            "created": exp.get("created"), "kind": kind,
            "budget": budgets.text(cfg.get("budget")) if cfg.get("budget") else None,
            "description": cfg.get("description", ""), "tune": tuned}


def expand_roots(paths: list[str]) -> tuple[list[str], list[dict] | None]:
    """PATH... with each results root (a folder that is no results or suite directory itself
    but holds some below it, as `arena serve` reads one) replaced by its results directories,
    and the roots' index: per store `arena serve`'s index facts (serve/catalog.py: name, game,
    kind, games stored and planned, state, why it is unreadable) with its `root` and
    `directory`. A store that cannot be read is in the index, not among the directories (its
    tables would stop the report). None: no root among PATH..."""
    from mcts_arena.results.suites import has_suite_results

    dirs: list[str] = []
    index: list[dict] | None = None
    for p in paths:
        d = Path(p)
        found = (find_stores(d) if d.is_dir() and not (d / DB_NAME).exists()
                 and not has_suite_results(p) else [])
        if not found:
            dirs.append(p)
            continue
        index = index or []
        locks = kernel_locks()
        for entry in found:
            facts = summary(entry, locks)
            index.append({**facts, "root": p, "directory": str(entry.directory)})
            if facts["state"] != "unreadable":
                dirs.append(str(entry.directory))
    return dirs, index
