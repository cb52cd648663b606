"""The store's writer: `Writer.open(dir)` creates or opens a results store for writing (taking the
directory's lock) and commits every finished game at once. Only the driver process writes.

WAL journal, `synchronous=FULL`: a game is on disk once `add_game` returns, whatever happens to
the machine after. Games are keyed by their deterministic id (`runner.plan.game_id`), so storing
a game twice keeps one row; an `error` game is the one exception: a later, successful play of
the same id replaces it (a resumed run retries error games). `.lock` in the results directory
(fcntl.flock) keeps a second writer out. The schema and the checks that recognise a store as
ours are the reader's (mcts_arena.results.store).

The aggregates (results/aggregates.py: the tables `tally` and `pair_tally`) change in the same
transaction as the game or pair they count: a game adds itself to its group, an error game a
later play replaces takes itself out first, a pair completed (or scored again) moves its count.
A store made before them gains them the first time a writer opens it, counted from its games,
in the one transaction that also adds the columns and indexes of this schema and its version:
a failure or a kill on the way leaves the store as it was (SQLite rolls the transaction back).
`write_aggregates` counts them again from the games (runner/recount.py: `arena recount`).
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import platform
import sqlite3
import time
from pathlib import Path

from mcts_arena import __version__
from mcts_arena.budgets import Budget
from mcts_arena.errors import StoreLockedError, StoreWriteError, UserError
from mcts_arena.results import aggregates
from mcts_arena.results.rows import pack
from mcts_arena.results.store import (
    ADDED_COLUMNS,
    AGGREGATE_TABLES,
    APPLICATION_ID,
    DB_NAME,
    GAME_TABLE_COLUMNS,
    LOCK_NAME,
    SCHEMA,
    SCHEMA_VERSION,
    Store,
    check_intact,
    check_ours,
    text_factory,
    writer_holds_lock,
)

NAME_MAX = 255          # bytes in one path component on Linux and macOS file systems


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
        is not ours or is damaged, or another writer holds the lock; StoreWriteError (exit
        status 1) when the store cannot be written (a full disk). Either way nothing it made
        is left behind: no directory, no lock file, no half-made database."""
        d = Path(directory)
        db = d / DB_NAME
        check_writable_dir(d)
        kind = check_ours(db) if db.exists() else "empty"
        if kind != "empty":
            check_intact(db)
        made = _Made(d)
        fd = None
        try:
            made.dirs()
            fd = acquire_lock(d)
            conn = sqlite3.connect(db, isolation_level=None)
            made.conn = conn
            conn.row_factory = sqlite3.Row
            conn.text_factory = text_factory
            if kind == "empty":         # the id goes into the main file before WAL
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA busy_timeout=10000")
            if kind == "legacy":
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            _upgrade(conn, Store(d, conn))
        except BaseException as e:
            made.undo(fd)
            if _disk_failure(e):        # a full disk, an I/O error: exit status 1
                raise StoreWriteError(f"{db}: cannot create the results store: "
                                      f"{_why(e)}") from None
            if isinstance(e, (sqlite3.Error, OSError)):     # a place no store can go
                raise UserError(f"{d}: cannot write results here: {_why(e)}") from None
            raise
        _write_pid(fd)
        return cls(d, conn, fd)

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:           # a last checkpoint that failed: the log keeps it
            pass
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
        with self.transaction("the experiment"):
            self.conn.execute(
                "INSERT INTO experiment VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE "
                "SET config_json = excluded.config_json, identity_json = excluded.identity_json, "
                "version = excluded.version, machine_json = excluded.machine_json, "
                "updated = excluded.updated",
                (name, config_json, json.dumps(identity, sort_keys=True), __version__,
                 json.dumps(machine_description(), sort_keys=True), now, now))
            self._note_build()
            for pos, p in enumerate(pairings):
                self.conn.execute(
                    "INSERT INTO pairing VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(pairing_id) DO "
                    "UPDATE SET position = excluded.position, games = excluded.games",
                    (p["pairing_id"], pos, p["player"], p["opponent"], p["games"],
                     _json_or_none(p.get("player_budget")),
                     _json_or_none(p.get("opponent_budget"))))

    def _note_build(self) -> None:
        """meta `build/<fingerprint>`: the git commit (and whether its tree was dirty) of the
        build this process plays with, so a reader can map a game's build to a commit. The
        first commit seen with a build is kept: the same fingerprint is the same code."""
        from mcts_arena import provenance

        version, build = provenance.build_identity()
        self.conn.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                          (f"build/{build}", json.dumps({"version": version,
                                                         **provenance.source_commit()},
                                                        sort_keys=True)))

    def add_game(self, rec) -> bool:
        """Commit one finished game (a match.GameRecord) at once; True if a row was written.

        Idempotent: a game already stored is kept as it is, except an `error` game, which a
        later play of the same id replaces. Also scores the game's pair once both are stored,
        and counts both in the aggregates (module docstring), in the same transaction.
        StoreWriteError when it cannot be stored (nothing of it is then).
        """
        values = _game_values(rec)
        with self.transaction(f"game {rec.game_id}"):
            old = self.conn.execute(
                "SELECT game_id, pairing_id, pair_index, swap, score, reason, finished, version, "
                "build FROM game WHERE game_id = ?", (rec.game_id,)).fetchone()
            cur = self.conn.execute(
                f"INSERT INTO game ({', '.join(GAME_TABLE_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(GAME_TABLE_COLUMNS))}) ON CONFLICT(game_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in GAME_TABLE_COLUMNS[1:])
                + " WHERE game.reason = 'error'", values)
            written = cur.rowcount > 0
            if written:
                if old is not None:
                    self._uncount(dict(old))
                self._count(dict(zip(GAME_TABLE_COLUMNS, values)) | {"stats": rec.stats})
                self._score_pair(rec.pairing_id, rec.pair_index)
        return written

    def restore(self, head: dict, games) -> int:
        """Fill this new, empty store from a published file (results/archive.py: its header and
        its games) in one transaction: the experiment row, pairings and meta as they were,
        every game through the same insert, count and pair scoring as a played one. Returns the
        games stored; nothing is stored if any of it fails."""
        exp = head["experiment"]
        n = 0
        with self.transaction("the restored experiment"):
            if self.conn.execute("SELECT COUNT(*) FROM experiment").fetchone()[0]:
                raise UserError(f"{self.directory}: already holds an experiment")
            self.conn.execute(
                "INSERT INTO experiment VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
                (exp["name"], json.dumps(exp["config"], sort_keys=True),
                 json.dumps(exp["identity"], sort_keys=True), exp["version"],
                 json.dumps(exp["machine"], sort_keys=True), exp["created"], exp["updated"]))
            for p in head["pairings"]:
                self.conn.execute("INSERT INTO pairing VALUES (?, ?, ?, ?, ?, ?, ?)",
                                  (p["pairing_id"], p["position"], p["player"], p["opponent"],
                                   p["games"], _json_or_none(p.get("player_budget")),
                                   _json_or_none(p.get("opponent_budget"))))
            for key, value in head["meta"].items():
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
            pairs = set()
            for g in games:
                values = _published_values(g)
                self.conn.execute(
                    f"INSERT INTO game ({', '.join(GAME_TABLE_COLUMNS)}) VALUES "
                    f"({', '.join('?' * len(GAME_TABLE_COLUMNS))})", values)
                self._count(dict(zip(GAME_TABLE_COLUMNS, values)) | {"stats": g["stats"]})
                pairs.add((g["pairing_id"], g["pair_index"]))
                n += 1
            for pid, index in sorted(pairs):
                self._score_pair(pid, index)
        return n

    def _count(self, game: dict) -> None:
        """Add one stored game to its group of the tally."""
        key, vals = aggregates.game_entry(game)
        cols = aggregates.TALLY_COLUMNS
        sets = ([f"{c} = {c} + excluded.{c}" for c in aggregates.SUMS]
                + [f"{c} = MIN({c}, excluded.{c})" for c in aggregates.MINS]
                + [f"{c} = MAX({c}, excluded.{c})" for c in aggregates.MAXES])
        self.conn.execute(
            f"INSERT INTO tally ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT({', '.join(aggregates.KEY)}) DO UPDATE SET {', '.join(sets)}",
            key + vals)

    def _uncount(self, old: dict) -> None:
        """Take a replaced error game out of its group of the tally (error games count in no
        sum but `games`; the group's first and last game are found again among its games)."""
        key = (old["pairing_id"], old["swap"], "error", old["reason"], old["version"] or "",
               old["build"] or "")
        where = " AND ".join(f"{c} = ?" for c in aggregates.KEY)
        self.conn.execute(f"UPDATE tally SET games = games - 1 WHERE {where}", key)
        self.conn.execute(f"DELETE FROM tally WHERE games <= 0 AND {where}", key)
        first, lo, hi = self.conn.execute(
            "SELECT MIN(2 * pair_index + swap), MIN(finished), MAX(finished) FROM game "
            "WHERE pairing_id = ? AND reason = 'error' AND swap = ? AND reason = ? "
            "AND COALESCE(version, '') = ? AND COALESCE(build, '') = ?",
            (key[0], key[1], *key[3:])).fetchone()
        if first is not None:
            self.conn.execute(f"UPDATE tally SET first_game = ?, first_finished = ?, "
                              f"last_finished = ? WHERE {where}", (first, lo, hi, *key))

    def _score_pair(self, pairing_id: str, pair_index: int) -> None:
        rows = self.select("game", "game_id, swap, score, reason",
                           "pairing_id = ? AND pair_index = ?", (pairing_id, pair_index))
        by_swap = {r["swap"]: r for r in rows}
        if set(by_swap) != {0, 1}:
            return
        s0, s1 = (by_swap[i]["score"] if by_swap[i]["reason"] != "error" else None for i in (0, 1))
        old = self.conn.execute("SELECT outcome, points FROM pair WHERE pairing_id = ? AND "
                                "pair_index = ?", (pairing_id, pair_index)).fetchone()
        if old is not None:
            okey = (pairing_id, old[0], -1 if old[1] is None else old[1])
            self.conn.execute("UPDATE pair_tally SET pairs = pairs - 1 WHERE pairing_id = ? AND "
                              "outcome = ? AND points = ?", okey)
            self.conn.execute("DELETE FROM pair_tally WHERE pairs <= 0")
        key = aggregates.pair_entry(pairing_id, s0, s1)     # (pairing, outcome, points)
        self.conn.execute("INSERT OR REPLACE INTO pair VALUES (?, ?, ?, ?)",
                          (pairing_id, pair_index, key[1], None if key[2] < 0 else key[2]))
        self.conn.execute("INSERT INTO pair_tally VALUES (?, ?, ?, 1) ON CONFLICT(pairing_id, "
                          "outcome, points) DO UPDATE SET pairs = pairs + 1", key)

    def set_meta(self, key: str, value: str) -> None:
        """Store (or replace) a meta value at once (writer only)."""
        with self.transaction(f"meta {key!r}"):
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def transaction(self, what: str = "results"):
        """`with writer.transaction(what):` the statements inside commit together (or not at
        all); a failure to write (sqlite3.Error, OSError) is a StoreWriteError naming `what`."""
        return _Transaction(self.conn, self.directory / DB_NAME, what)


class _Transaction:
    def __init__(self, conn: sqlite3.Connection, db: Path, what: str):
        self.conn = conn
        self.db = db
        self.what = what

    def __enter__(self):
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise StoreWriteError(f"{self.db}: cannot store {self.what}: {_why(e)}") from None

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return False
            except sqlite3.Error as e:
                exc = e
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error:           # SQLite rolled back already (a full disk does)
            pass
        if isinstance(exc, (sqlite3.Error, OSError)):
            raise StoreWriteError(f"{self.db}: cannot store {self.what}: {_why(exc)}") from None
        return False


_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG}
_SQLITE_DISK = {10, 13}         # SQLITE_IOERR, SQLITE_FULL (primary codes)


def _disk_failure(e: BaseException) -> bool:
    """Is `e` the disk failing (full, quota, I/O) rather than a place no store can go?"""
    if isinstance(e, OSError):
        return e.errno in _DISK_ERRNOS
    if isinstance(e, sqlite3.Error):
        code = getattr(e, "sqlite_errorcode", None)
        return code is None or code & 0xFF in _SQLITE_DISK
    return False


def _why(e: BaseException) -> str:
    return " ".join(str(getattr(e, "strerror", None) or e).split())


class _Made:
    """What Writer.open made, so a failure can take it away again (module docstring)."""

    def __init__(self, d: Path):
        self.d = d
        self.new_dirs: list[Path] = []
        p = d
        while not p.exists():
            self.new_dirs.append(p)
            p = p.parent
        self.lock_existed = (d / LOCK_NAME).exists()
        db = d / DB_NAME
        self.db_size = db.stat().st_size if db.exists() else None
        self.sidecars = {s: Path(f"{db}{s}").exists() for s in ("-wal", "-shm", "-journal")}
        self.conn: sqlite3.Connection | None = None

    def dirs(self) -> None:
        self.d.mkdir(parents=True, exist_ok=True)

    def undo(self, fd: int | None) -> None:
        db = self.d / DB_NAME
        if self.conn is not None:
            try:
                self.conn.close()
            except sqlite3.Error:
                pass
        for suffix, existed in self.sidecars.items():
            if not existed:
                _unlink(Path(f"{db}{suffix}"))
        if self.db_size is None:
            _unlink(db)
        elif self.db_size == 0 and db.exists():
            os.truncate(db, 0)          # an empty file it was (the store was to go there)
        if fd is not None:
            if not self.lock_existed:
                _unlink(self.d / LOCK_NAME)
            os.close(fd)
        for p in self.new_dirs:         # deepest first; only if still empty
            try:
                p.rmdir()
            except OSError:
                break


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except FileNotFoundError:
        pass


def check_writable_dir(d: Path, what: str = "a results directory") -> None:
    """Refuse (UserError, one line) a results directory (or `what` else) that is a file or
    cannot be made; writes nothing."""
    for part in d.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise UserError(f"{_short(d)}: cannot make {what} here: the name "
                            f"{_short(Path(part))} is longer than {NAME_MAX} bytes")
    # exists() is False for a loop, and mkdir/connect then fail: the directory, every folder
    # on the way to it and its database
    for p in (*(Path(*d.parts[:i]) for i in range(1, len(d.parts) + 1)), d / DB_NAME):
        if p.is_symlink() and not p.exists():
            raise UserError(f"{p}: a symbolic link that leads nowhere (a loop, or its target "
                            f"is missing); refusing to use it")
    if d.exists():
        if not d.is_dir():
            raise UserError(f"{d}: is a file, not {what}")
        if not os.access(d, os.W_OK | os.X_OK):
            raise UserError(f"{d}: cannot write results here: permission denied")
        lock = d / LOCK_NAME
        if lock.exists() or lock.is_symlink():
            if lock.is_symlink() or not lock.is_file():
                raise UserError(f"{lock}: not a regular file; refusing to use {d} as a results "
                                f"directory")
        return
    parent = d.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"{d}: cannot make {what} under {parent}, which is a file")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(f"{d}: cannot make {what} here: permission denied")


def _short(p: Path) -> str:
    text = str(p)
    return text if len(text) <= 60 else text[:40] + "..." + text[-15:]


def check_writable(d: Path, busy_ok: bool = False, damaged_ok: bool = False) -> None:
    """Every check `Writer.open(d)` makes before writing, without writing anything: a usable
    directory, an arena.sqlite that is ours and intact (if any; `damaged_ok`: ours, damaged or
    not, for `--new`, which moves it aside untouched), and (unless busy_ok) no other run
    holding the lock. UserError (one line) otherwise."""
    d = Path(d)
    check_writable_dir(d)
    db = d / DB_NAME
    if db.exists() and check_ours(db) != "empty" and not damaged_ok:
        check_intact(db)
    if not busy_ok and writer_holds_lock(d):
        raise _locked(d)


def _locked(d: Path) -> StoreLockedError:
    return StoreLockedError(f"{d} is in use by another 'arena run' (lock {d / LOCK_NAME} is "
                            f"held); wait for it to finish")


#: How long a writer waits for readers (`arena report`, `arena show`, which hold the lock
#: shared while they read) before it refuses.
READER_WAIT_S = 30.0


def acquire_lock(directory: Path, reader_wait_s: float | None = None) -> int:
    """Take the experiment's lock or refuse (another `arena run` is writing here). Readers hold
    it shared for as long as they read; a writer waits for them (up to READER_WAIT_S)."""
    wait = READER_WAIT_S if reader_wait_s is None else reader_wait_s
    path = directory / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            pass
        if writer_holds_lock(directory) is not False or time.monotonic() > deadline:
            os.close(fd)
            raise _locked(directory) from None
        time.sleep(0.05)                # only readers hold it: they finish soon


def _write_pid(fd: int) -> None:
    """The lock file says which process writes (for a person looking; nothing reads it)."""
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:                     # a full disk: the lock holds without it
        pass


def _json_or_none(v) -> str | None:
    return None if v is None else json.dumps(v, sort_keys=True)


def _game_values(rec) -> tuple:
    return (rec.game_id, rec.pairing_id, rec.pair_index, rec.swap, rec.seats[0], rec.seats[1],
            json.dumps([Budget.of(b).as_dict() for b in rec.budgets], sort_keys=True),
            json.dumps(list(rec.seeds)),
            rec.opening, rec.winner, rec.score, rec.reason, rec.error, rec.plies,
            pack(json.dumps(rec.moves)), pack(json.dumps(rec.stats, sort_keys=True)), rec.duration,
            rec.finished, rec.version or None, rec.build or None)


def _published_values(g: dict) -> tuple:
    """A published game line (results/archive.py) as the game table's values, encoded as
    `_game_values` encodes a played game."""
    return (g["game_id"], g["pairing_id"], g["pair_index"], g["swap"], g["seats"][0],
            g["seats"][1], json.dumps(g["budgets"], sort_keys=True), json.dumps(g["seeds"]),
            g["opening"], g["winner"], g["score"], g["reason"], g["error"], g["plies"],
            pack(json.dumps(g["moves"])), pack(json.dumps(g["stats"], sort_keys=True)),
            g["duration"],
            g["finished"], g["version"], g["build"])


def _upgrade(conn: sqlite3.Connection, store: Store) -> None:
    """Bring the store up to this schema in one transaction (module docstring): its tables,
    the columns a later schema added, the indexes, and, where they are missing, the aggregates
    counted from its games; then its schema version. Nothing of it stays if any step fails."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        fresh = not all(store.has_table(t) for t in AGGREGATE_TABLES)
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        _add_missing_columns(conn)
        if fresh:
            write_aggregates(conn, store)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                     (str(SCHEMA_VERSION),))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version' AND "
                     "CAST(value AS INTEGER) < ?", (str(SCHEMA_VERSION), SCHEMA_VERSION))
        conn.execute("COMMIT")
    except BaseException:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        raise


def write_aggregates(conn: sqlite3.Connection, store: Store) -> tuple[int, int]:
    """Replace the aggregates and the pair table (inside the caller's transaction) by a count
    of the stored games; (games, complete pairs) counted."""
    found = aggregates.counted(store.recount_games())
    tally, pairs, scored = found.tally_rows(), found.pair_rows(), found.pairs_scored()
    for table in ("tally", "pair_tally", "pair"):
        conn.execute(f"DELETE FROM {table}")
    cols = aggregates.TALLY_COLUMNS
    conn.executemany(f"INSERT INTO tally ({', '.join(cols)}) VALUES "
                     f"({', '.join('?' * len(cols))})", [tuple(r[c] for c in cols) for r in tally])
    conn.executemany("INSERT INTO pair_tally VALUES (?, ?, ?, ?)",
                     [tuple(r[c] for c in aggregates.PAIR_COLUMNS) for r in pairs])
    conn.executemany("INSERT INTO pair (pairing_id, pair_index, outcome, points) VALUES "
                     "(?, ?, ?, ?)", scored)
    return sum(r["games"] for r in tally), len(scored)


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring an older store's tables up to this schema (the writer, inside its open)."""
    for table, cols in ADDED_COLUMNS.items():
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        for name, kind in cols:
            if name not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


