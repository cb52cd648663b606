"""The store's writer: `Writer.open(dir)` creates or opens a results store for writing (taking the
directory's lock) and commits every finished game at once. Only the driver process writes.

WAL journal, `synchronous=FULL`: a game is on disk once `add_game` returns, whatever happens to
the machine after. Games are keyed by their deterministic id (`runner.plan.game_id`), so storing
a game twice keeps one row; an `error` game is the one exception: a later, successful play of
the same id replaces it (a resumed run retries error games). `.lock` in the results directory
(fcntl.flock) keeps a second writer out. The schema and the checks that recognise a store as
ours are the reader's (mcts_arena.results.store).
"""
from __future__ import annotations

import fcntl
import json
import os
import platform
import sqlite3
import time
from pathlib import Path

from mcts_arena import __version__
from mcts_arena.budgets import Budget
from mcts_arena.errors import StoreLockedError, UserError
from mcts_arena.results.store import (
    ADDED_COLUMNS,
    APPLICATION_ID,
    DB_NAME,
    GAME_TABLE_COLUMNS,
    LOCK_NAME,
    SCHEMA,
    SCHEMA_VERSION,
    Store,
    check_intact,
    check_ours,
)


def machine_description() -> dict:
    """CPU model, cores, Python and OS: kept with the experiment so figures can be compared."""
    model = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {"cpu": model, "cores": os.cpu_count(), "usable_cores": usable,
            "python": platform.python_version(), "platform": platform.platform(),
            "host": platform.node()}


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class Writer(Store):
    """A results store open for writing (see the module docstring); also reads like a Store."""

    def __init__(self, directory: Path, conn: sqlite3.Connection, lock_fd: int | None):
        super().__init__(directory, conn)
        self._lock_fd = lock_fd

    @classmethod
    def open(cls, directory: str | os.PathLike) -> Writer:
        """Open (or create) the store in `directory` for writing, taking its lock. UserError
        (one line, nothing written) when the directory cannot hold a store, its arena.sqlite
        is not ours or is damaged, or another writer holds the lock."""
        d = Path(directory)
        db = d / DB_NAME
        check_writable_dir(d)
        kind = check_ours(db) if db.exists() else "empty"
        if kind != "empty":
            check_intact(db)
        try:
            d.mkdir(parents=True, exist_ok=True)
            fd = acquire_lock(d)
        except OSError as e:
            raise UserError(f"{d}: cannot write results here: {e.strerror or e}") from None
        try:
            conn = sqlite3.connect(db, isolation_level=None)
            conn.row_factory = sqlite3.Row
            if kind == "empty":         # the id goes into the main file before WAL
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=10000")
            if kind == "legacy":
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.executescript(SCHEMA)
            _add_missing_columns(conn)
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                         (str(SCHEMA_VERSION),))
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version' AND "
                         "CAST(value AS INTEGER) < ?", (str(SCHEMA_VERSION), SCHEMA_VERSION))
        except sqlite3.Error as e:
            os.close(fd)
            raise UserError(f"{db}: cannot open the store: {e}") from None
        except BaseException:
            os.close(fd)
            raise
        return cls(d, conn, fd)

    def close(self) -> None:
        self.conn.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)     # closing the descriptor releases the flock
            self._lock_fd = None

    def save_experiment(self, name: str, config_json: str, identity: dict,
                        pairings: list[dict]) -> None:
        """Record (or update, when extending) the experiment and its pairings in one transaction.

        `pairings`: dicts with pairing_id, player, opponent, games, player_budget,
        opponent_budget (dict or None), in config order.
        """
        now = _now()
        with self.transaction():
            self.conn.execute(
                "INSERT INTO experiment VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE "
                "SET config_json = excluded.config_json, identity_json = excluded.identity_json, "
                "version = excluded.version, machine_json = excluded.machine_json, "
                "updated = excluded.updated",
                (name, config_json, json.dumps(identity, sort_keys=True), __version__,
                 json.dumps(machine_description(), sort_keys=True), now, now))
            for pos, p in enumerate(pairings):
                self.conn.execute(
                    "INSERT INTO pairing VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(pairing_id) DO "
                    "UPDATE SET position = excluded.position, games = excluded.games",
                    (p["pairing_id"], pos, p["player"], p["opponent"], p["games"],
                     _json_or_none(p.get("player_budget")),
                     _json_or_none(p.get("opponent_budget"))))

    def add_game(self, rec) -> bool:
        """Commit one finished game (a match.GameRecord) at once; True if a row was written.

        Idempotent: a game already stored is kept as it is, except an `error` game, which a
        later play of the same id replaces. Also scores the game's pair once both are stored.
        """
        values = _game_values(rec)
        with self.transaction():
            cur = self.conn.execute(
                f"INSERT INTO game ({', '.join(GAME_TABLE_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(GAME_TABLE_COLUMNS))}) ON CONFLICT(game_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in GAME_TABLE_COLUMNS[1:])
                + " WHERE game.reason = 'error'", values)
            written = cur.rowcount > 0
            if written:
                self._score_pair(rec.pairing_id, rec.pair_index)
        return written

    def _score_pair(self, pairing_id: str, pair_index: int) -> None:
        from mcts_arena.stats import pair_outcome

        rows = self.conn.execute(
            "SELECT swap, score, reason FROM game WHERE pairing_id = ? AND pair_index = ?",
            (pairing_id, pair_index)).fetchall()
        by_swap = {r["swap"]: r for r in rows}
        if set(by_swap) != {0, 1}:
            return
        s0, s1 = (by_swap[i]["score"] if by_swap[i]["reason"] != "error" else None for i in (0, 1))
        self.conn.execute("INSERT OR REPLACE INTO pair VALUES (?, ?, ?)",
                          (pairing_id, pair_index, pair_outcome(s0, s1)))

    def set_meta(self, key: str, value: str) -> None:
        """Store (or replace) a meta value at once (writer only)."""
        with self.transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def transaction(self):
        """`with writer.transaction():` the statements inside commit together (or not at all)."""
        return _Transaction(self.conn)


class _Transaction:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


def check_writable_dir(d: Path) -> None:
    """Refuse (UserError, one line) a results directory that is a file or cannot be made;
    writes nothing."""
    if d.exists():
        if not d.is_dir():
            raise UserError(f"{d}: is a file, not a results directory")
        if not os.access(d, os.W_OK | os.X_OK):
            raise UserError(f"{d}: cannot write results here: permission denied")
        return
    parent = d.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"{d}: cannot make a results directory under {parent}, which is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"{d}: cannot make a results directory here: permission denied")


def check_writable(d: Path, busy_ok: bool = False) -> None:
    """Every check `Writer.open(d)` makes before writing, without writing anything: a usable
    directory, an arena.sqlite that is ours (if any), and (unless busy_ok) no other run
    holding the lock. UserError (one line) otherwise."""
    d = Path(d)
    check_writable_dir(d)
    db = d / DB_NAME
    if db.exists():
        check_ours(db)
    if not busy_ok and (d / LOCK_NAME).is_file():
        try:
            fd = os.open(d / LOCK_NAME, os.O_RDONLY)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreLockedError(f"{d} is in use by another 'arena run' (lock {d / LOCK_NAME} "
                                   f"is held); wait for it to finish") from None
        finally:
            os.close(fd)


def acquire_lock(directory: Path) -> int:
    """Take the experiment's lock or refuse (another `arena run` is writing here)."""
    path = directory / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreLockedError(f"{directory} is in use by another 'arena run' (lock {path} is "
                               f"held); wait for it to finish") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def _json_or_none(v) -> str | None:
    return None if v is None else json.dumps(v, sort_keys=True)


def _game_values(rec) -> tuple:
    return (rec.game_id, rec.pairing_id, rec.pair_index, rec.swap, rec.seats[0], rec.seats[1],
            json.dumps([Budget.of(b).as_dict() for b in rec.budgets], sort_keys=True),
            json.dumps(list(rec.seeds)),
            rec.opening, rec.winner, rec.score, rec.reason, rec.error, rec.plies,
            json.dumps(rec.moves), json.dumps(rec.stats, sort_keys=True), rec.duration,
            rec.finished, rec.version or None, rec.build or None)


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring an older store's tables up to this schema (the writer, inside its open)."""
    for table, cols in ADDED_COLUMNS.items():
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        for name, kind in cols:
            if name not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


