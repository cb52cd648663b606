"""The results store: one SQLite database per experiment, `results/<name>/arena.sqlite`: its
schema, how a store is recognised as ours, and the reader (`Store`, read-only).

The writer is `mcts_arena.runner.writer.Writer` (a Store that also writes; only the driver
process writes): WAL journal, `synchronous=FULL`, a game on disk once `add_game` returns; games
keyed by their deterministic id (`runner.plan.game_id`), so storing a game twice keeps one row
(an `error` game is replaced by a later, successful play of the same id); `.lock` in the
results directory (fcntl.flock) keeps a second `arena run` out.

Schema (version 4; a version-1 store gains the two provenance columns of `game` when a run
opens it for writing, its old games keeping NULL there: "an unrecorded build"; a store of
version 2 or older gains the aggregates, `pair.points` and the two indexes in one transaction
when a run first opens it: see `Writer.open`; from version 4 the writer stores a game's
`moves_json` and `stats_json` packed, while the text games of an older store stay as they are:
both forms read the same):

    experiment(id=1, name, config_json, identity_json, version, machine_json, created, updated)
    pairing(pairing_id PK, position, player, opponent, games, player_budget, opponent_budget)
    game(game_id PK, pairing_id, pair_index, swap, seat0, seat1, budgets_json, seeds_json,
         opening, winner, score, reason, error, plies, moves_json, stats_json, duration, finished,
         version, build)   -- the mcts_arena version and build fingerprint that played it
    pair(pairing_id, pair_index, outcome, points, PK(pairing_id, pair_index))
                                   -- stats.pair_outcome(); points: the player's pair score in
                                   -- half points, NULL for a pair with an error game
    tally(...), pair_tally(...)    -- the aggregates (results/aggregates.py): kept by the writer
                                   -- in the same transaction as the games they count
    meta(key PK, value)            -- schema version; `sprt/<pairing id>` (the runner's SPRT
                                   -- decision, JSON); `tournament` (a tournament's settings, JSON);
                                   -- `mixed_builds` (when and which builds --allow-mixed-builds
                                   -- joined, JSON); `precision/<pairing id>` (arena reproduce's
                                   -- stop decision for a row, JSON); `build/<fingerprint>`
                                   -- (the git commit of that build, and whether its tree was
                                   -- dirty, JSON)

A store is recognised before anything is written to it: its SQLite header carries
`PRAGMA application_id = APPLICATION_ID` (set before the switch to WAL, so it is in the main
file); a store made before the id existed is recognised by its `meta.schema_version` row and
tables. Any other file named arena.sqlite (not SQLite, an other program's database) is refused
with one line and left as it is, and so is a store whose `meta.schema_version` is newer than
`SCHEMA_VERSION` ("written by a newer build", by every reader and the writer alike); a damaged
or truncated store (`PRAGMA quick_check` fails, or, above QUICK_CHECK_BYTES, the file is
shorter than its header says; a table without its columns) is refused the same way, and so is a
row holding a value its column cannot hold (results/rows.py: one line naming the store, the
row and the column).

Reading never writes nor creates a file (`ReadView`): while an `arena` writer holds the
directory's lock, the store is read through SQLite's read-only mode (`mode=ro`; the writer's
-wal and -shm files are there already); otherwise the reader holds the lock shared, so no writer
can start while it reads, and reads the file as it is (`immutable=1`), or, when a writer that
died left a write-ahead log behind, a private copy of the database and its log in a temporary
directory (the log holds committed games; opening it in place would create or change files).

`game.winner` is the winning seat (NULL: draw or error), `game.score` the pairing player's score
(1, 0.5, 0; NULL for an error game), `game.swap` 0 when the pairing's player sat in seat 0.
`moves_json` is the list of moves in notation, `stats_json` one object per move, each JSON text
packed (`rows.pack`: zlib-compressed into a BLOB; text in games written before schema 4;
`rows.packed_json_of` reads both), the statistics
(seat, sims, nodes, depth, time as the player reported it, wall as the match measured it, and
value: the search's value of the position for the mover in [-1, 1], where the player reports
one; games stored before it have none).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import stat
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Self

from mcts_arena.errors import UserError
from mcts_arena.results import aggregates, rows
from mcts_arena.results.rows import CorruptStoreError

__all__ = ["AGGREGATE_TABLES", "APPLICATION_ID", "DB_NAME", "GAME_TABLE_COLUMNS", "LOCK_NAME",
           "SCHEMA", "SCHEMA_VERSION", "CorruptStoreError", "ReadView", "Store", "check_intact",
           "check_ours", "pairing_id", "stored_schema", "text_factory", "writer_holds_lock"]

SCHEMA_VERSION = 4
DB_NAME = "arena.sqlite"
LOCK_NAME = ".lock"
APPLICATION_ID = 0x41524E41         # "ARNA" in the SQLite header (offset 68)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_OUR_TABLES = {"meta", "experiment", "pairing", "game", "pair"}
#: The tables a store of version 3 adds: the aggregates (a reader recounts them from the games
#: of an older store; the writer adds them).
AGGREGATE_TABLES = ("tally", "pair_tally")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS experiment (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL, config_json TEXT NOT NULL, identity_json TEXT NOT NULL,
    version TEXT NOT NULL, machine_json TEXT NOT NULL, created TEXT NOT NULL,
    updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairing (
    pairing_id TEXT PRIMARY KEY, position INTEGER NOT NULL, player TEXT NOT NULL,
    opponent TEXT NOT NULL, games INTEGER NOT NULL, player_budget TEXT, opponent_budget TEXT);
CREATE TABLE IF NOT EXISTS game (
    game_id TEXT PRIMARY KEY, pairing_id TEXT NOT NULL, pair_index INTEGER NOT NULL,
    swap INTEGER NOT NULL, seat0 TEXT NOT NULL, seat1 TEXT NOT NULL, budgets_json TEXT NOT NULL,
    seeds_json TEXT NOT NULL, opening TEXT NOT NULL, winner INTEGER, score REAL,
    reason TEXT NOT NULL, error TEXT, plies INTEGER NOT NULL, moves_json TEXT NOT NULL,
    stats_json TEXT NOT NULL, duration REAL NOT NULL, finished REAL NOT NULL,
    version TEXT, build TEXT);
CREATE INDEX IF NOT EXISTS game_pairing ON game (pairing_id, pair_index);
CREATE TABLE IF NOT EXISTS pair (
    pairing_id TEXT NOT NULL, pair_index INTEGER NOT NULL, outcome TEXT NOT NULL, points INTEGER,
    PRIMARY KEY (pairing_id, pair_index));
{tally};
CREATE TABLE IF NOT EXISTS pair_tally (
    pairing_id TEXT NOT NULL, outcome TEXT NOT NULL, points INTEGER NOT NULL,
    pairs INTEGER NOT NULL, PRIMARY KEY (pairing_id, outcome, points));
CREATE INDEX IF NOT EXISTS game_finished ON game (finished);
CREATE INDEX IF NOT EXISTS game_error ON game (pairing_id) WHERE reason = 'error';
""".replace("{tally}", aggregates.TALLY_TABLE)

GAME_TABLE_COLUMNS = ("game_id", "pairing_id", "pair_index", "swap", "seat0", "seat1",
                      "budgets_json", "seeds_json", "opening", "winner", "score", "reason",
                      "error", "plies", "moves_json", "stats_json", "duration", "finished",
                      "version", "build")
#: Columns a store of an older schema lacks, added (NULL for its games) when a run opens it.
ADDED_COLUMNS = {"game": (("version", "TEXT"), ("build", "TEXT")),
                 "pair": (("points", "INTEGER"),)}


#: The columns each of our tables must have (a store missing one is damaged; the columns a
#: later schema added are added by the writer, and read as NULL until then).
_COLUMNS = {table: set(cols) - {c for c, _t in ADDED_COLUMNS.get(table, ())}
            for table, cols in rows.TABLES.items() if table != "solve"}


def pairing_id(player: str, opponent: str) -> str:
    """The id a pairing is stored under, from its canonical specs (stable when matches
    reorder): the runner keys new games by it, tournaments find their matches' games by it."""
    return "p" + hashlib.sha256(f"{player}\0{opponent}".encode()).hexdigest()[:8]


class Store:
    """One experiment's database, read-only: `Store.open(dir)` (report, show, dry-run). The
    runner writes through its subclass `runner.writer.Writer`. Every row leaves through
    `select` (or the methods built on it), checked by results/rows.py."""

    def __init__(self, directory: Path, conn: sqlite3.Connection, view: ReadView | None = None):
        self.directory = directory
        self.conn = conn
        self._view = view
        self._recounted: tuple[list[dict], list[dict]] | None = None

    # ---- opening / closing --------------------------------------------------------------
    @classmethod
    def open(cls, directory: str | os.PathLike, whole: bool = True) -> Store:
        """Open the store in `directory` read-only (see the module docstring). UserError (one
        line) when the directory holds no store, or its arena.sqlite is not ours or is damaged.
        `whole=False` (the live index, which reads a few aggregate rows of many stores) checks
        the file against its header and the tables for their columns, not every page: a damaged
        page it reads is still a sqlite3.DatabaseError, never a wrong answer."""
        d = Path(directory)
        db = d / DB_NAME
        if d.exists() and not d.is_dir():
            raise UserError(f"{d}: is a file, not a results directory")
        if not db.exists():
            raise UserError(f"{d}: no results here (no {DB_NAME})")
        if check_ours(db) == "empty":
            raise UserError(f"{db}: empty file, no results stored")
        view = ReadView(db)
        try:
            _check_intact(db, view.conn, whole)
        except BaseException:
            view.close()
            raise
        return cls(d, view.conn, view)

    def close(self) -> None:
        if self._view is not None:
            self._view.close()
            self._view = None
        else:
            self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- rows, checked ------------------------------------------------------------------
    def corrupt(self, row: str, column: str, why: str) -> CorruptStoreError:
        """The error for a bad value (see results/rows.py); the caller raises it."""
        return CorruptStoreError(f"{self.directory / DB_NAME}: corrupt store: {row}, column "
                                 f"{column}: {why}; nothing was changed")

    def select(self, table: str, columns: str = "*", where: str = "", args: tuple = (),
               order: str = "", limit: int | None = None) -> list[dict]:
        """Rows of `table` (dicts; JSON columns decoded, see rows.check_row), every value
        checked; CorruptStoreError (one line) for the first bad one."""
        return list(self.iter_select(table, columns, where, args, order, limit))

    def iter_select(self, table: str, columns: str = "*", where: str = "", args: tuple = (),
                    order: str = "", limit: int | None = None) -> Iterator[dict]:
        """`select`, one row at a time (a pass over many games holds one in memory)."""
        q = f"SELECT {columns} FROM {table}"
        if where:
            q += f" WHERE {where}"
        if order:
            q += f" ORDER BY {order}"
        if limit:
            q += f" LIMIT {int(limit)}"
        for r in self.conn.execute(q, args):
            row, col, why = rows.check_row(table, dict(r))
            if col is not None:
                raise self.corrupt(rows.row_name(table, dict(r)), col, why)
            yield row

    def meta_json(self, key: str, rule: rows.Rule = rows.anything):
        """The meta value `key` decoded from JSON and checked by `rule` (None if absent)."""
        raw = self.get_meta(key)
        if raw is None:
            return None
        try:
            return rows.json_of(rule)(raw)
        except rows.Bad as e:
            raise self.corrupt(f"meta {key!r}", "value", str(e)) from None

    # ---- experiment ---------------------------------------------------------------------
    def experiment(self) -> dict | None:
        found = self.select("experiment", where="id = 1")
        return found[0] if found else None

    def pairings(self) -> list[dict]:
        """The pairings in config order; budgets decoded (dict or None)."""
        return self.select("pairing", order="position")

    # ---- games --------------------------------------------------------------------------
    def done_ids(self) -> set[str]:
        """Ids of stored games that need no replay (every game but error games)."""
        return {r["game_id"] for r in self.select("game", "game_id", "reason != 'error'")}

    def game_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM game").fetchone()[0]

    def game(self, game_id: str) -> dict | None:
        found = self.select("game", where="game_id = ?", args=(game_id,))
        return found[0] if found else None

    def games(self, pairing_id: str | None = None, columns: str = "*") -> list[dict]:
        """Stored games (all columns, or the comma-separated `columns`), in pairing and pair
        order; JSON columns decoded (`moves`, `stats`, `budgets`, `seeds`)."""
        if pairing_id is None:
            return self.select("game", columns, order="pairing_id, pair_index, swap")
        return self.select("game", columns, "pairing_id = ?", (pairing_id,),
                           "pairing_id, pair_index, swap")

    def game_list(self, pairing_id: str, start: int = 0, stop: int | None = None
                  ) -> list[dict]:
        """The games of one pairing without their moves (game_id, pair_index, swap, seat0,
        seat1, winner, score, reason, error, plies, duration, finished), in pair order: those
        of pairs `start` to `stop` (excluded; None: to the last)."""
        rows = self.conn.execute(
            "SELECT game_id, pair_index, swap, seat0, seat1, winner, score, reason, error, plies, "
            "duration, finished FROM game WHERE pairing_id = ? AND pair_index >= ? AND "
            "pair_index < ? ORDER BY pair_index, swap",
            (pairing_id, start, 2 ** 62 if stop is None else stop))
        return [dict(r) for r in rows]

    def game_ids(self, limit: int | None = None) -> list[str]:
        return [r["game_id"] for r in self.select("game", "game_id",
                                                  order="pairing_id, pair_index, swap",
                                                  limit=limit)]

    def builds(self, pairing_id: str | None = None, errors: bool = True
               ) -> dict[tuple[str | None, str | None], int]:
        """{(version, build): games} of the stored games (of one pairing; without error games
        unless `errors`), oldest build first; (None, None) counts the games of a store made
        before games carried their build."""
        return aggregates.builds(self.aggregates()[0], pairing_id, errors)

    def last_finished(self) -> float | None:
        """The unix time the last stored game finished (None: no games)."""
        t = self.conn.execute("SELECT MAX(finished) FROM game").fetchone()[0]
        return None if t is None else float(t)

    def has_column(self, table: str, column: str) -> bool:
        return any(r[1] == column for r in self.conn.execute(f"PRAGMA table_info({table})"))

    def has_table(self, table: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                 "name = ?", (table,)).fetchone() is not None

    def pair_outcomes(self, pairing_id: str) -> dict[str, int]:
        """{outcome: pairs} of one pairing's complete pairs (stats.pair_outcome)."""
        return aggregates.pair_outcomes(self.aggregates()[1], pairing_id)

    def pairing_games_count(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.aggregates()[0]:
            out[r["pairing_id"]] = out.get(r["pairing_id"], 0) + r["games"]
        return out

    # ---- aggregates (results/aggregates.py) -----------------------------------------------
    def aggregates(self) -> tuple[list[dict], list[dict]]:
        """(tally rows, pair_tally rows): the writer's aggregates, checked to count every
        stored game and pair (CorruptStoreError, one line, where they do not: a store changed
        by hand or by a writer that does not keep them); for a store made before them, counted
        from its games in memory (once per open, read-only: nothing is written)."""
        return self._aggregates(("tally", "pair_tally"))

    def tally(self) -> list[dict]:
        """The tally rows of `aggregates`, checked against the games only (the live index
        reads no pair, so it counts none)."""
        return self._aggregates(("tally",))[0]

    def _aggregates(self, tables: tuple[str, ...]) -> tuple[list[dict], list[dict]]:
        if self._recounted is not None:
            return self._recounted
        if not all(self.has_table(t) for t in AGGREGATE_TABLES):
            found = aggregates.recount(self.recount_games())
            if self._view is not None:      # a reader's snapshot: no writer changes it
                self._recounted = found
            return found
        counted_in = {"tally": ("games", "game", "games"), "pair_tally": ("pairs", "pair", "pairs")}
        own = not self.conn.in_transaction      # one snapshot while a writer commits games
        if own:
            self.conn.execute("BEGIN")
        try:
            found = tuple(self.select(t) if t in tables else [] for t in AGGREGATE_TABLES)
            stored = {t: self.conn.execute(f"SELECT COUNT(*) FROM {counted_in[t][1]}"
                                           ).fetchone()[0] for t in tables}
        finally:
            if own:
                self.conn.execute("COMMIT")
        for table, rows_ in zip(AGGREGATE_TABLES, found):
            if table not in tables:
                continue
            column, _, what = counted_in[table]
            counted = sum(r[column] for r in rows_)
            if counted != stored[table]:
                raise CorruptStoreError(
                    f"{self.directory / DB_NAME}: its aggregates disagree with its {what} "
                    f"(they count {counted}, the store holds {stored[table]}); nothing was "
                    f"changed; "
                    f"'arena recount {self.directory}' counts them again from the games")
        return found

    def recount_games(self) -> Iterator[dict]:
        """Every stored game as `aggregates.game_entry` takes it (no moves), one at a time."""
        cols = "game_id, pairing_id, pair_index, swap, score, reason, plies, finished, stats_json"
        if self.has_column("game", "build"):
            cols += ", version, build"
        return self.iter_select("game", cols)

    # ---- meta -------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        found = self.select("meta", where="key = ?", args=(key,))
        return found[0]["value"] if found else None

    def meta_items(self, prefix: str = "") -> dict[str, str]:
        found = self.select("meta", where="key LIKE ? ESCAPE '\\'",
                            args=(prefix.replace("%", "\\%").replace("_", "\\_") + "%",))
        return {r["key"]: r["value"] for r in found}


# ---- reading without writing -----------------------------------------------------------------
def text_factory(b: bytes) -> str:
    # bytes that are not UTF-8 become lone surrogates, which rows.text refuses by name (the
    # default factory would fail inside sqlite3 with a message naming no row)
    return b.decode("utf-8", "surrogateescape")


def connect_read(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True)
    conn.row_factory = sqlite3.Row
    conn.text_factory = text_factory
    return conn


def writer_holds_lock(directory: Path) -> bool | None:
    """True if an `arena` writer holds `directory`'s lock now, False if not, None if there is
    no lock file (no writer has ever opened this copy of the directory). Opens nothing for
    writing."""
    fd = _open_lock_read(directory)
    if fd is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _open_lock_read(directory: Path) -> int | None:
    """The lock file opened read-only (never created; a lock that is not a regular file is
    treated as none: a FIFO must not block the reader)."""
    try:
        fd = os.open(directory / LOCK_NAME, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


class ReadView:
    """A read-only connection to `db` that creates and changes no file (module docstring)."""

    def __init__(self, db: Path):
        self.db = db
        self._lock_fd: int | None = None
        self._tmp: str | None = None
        writer = False
        fd = _open_lock_read(db.parent)
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                self._lock_fd = fd          # held until close: no writer starts meanwhile
            except BlockingIOError:
                os.close(fd)
                writer = True
        try:
            self.conn = self._connect(writer)
        except sqlite3.Error as e:
            self.close()
            raise UserError(f"{db}: cannot read the store: {e}") from None
        except BaseException:
            self.close()
            raise

    def _connect(self, writer: bool) -> sqlite3.Connection:
        wal, shm = Path(f"{self.db}-wal"), Path(f"{self.db}-shm")
        if writer and wal.exists() and shm.exists():    # a writer's open log: read through it
            return connect_read(f"{_uri(self.db)}?mode=ro")
        # no writer, or one holding the lock without its log open yet (starting): opening in
        # WAL mode would create the -wal and -shm files, so read the file as it is
        if not wal.exists() or wal.stat().st_size == 0:
            return connect_read(f"{_uri(self.db)}?mode=ro&immutable=1")
        # a log left by a writer that died: its committed games are in it; read a copy
        self._tmp = tempfile.mkdtemp(prefix="arena-read-")
        copy = Path(self._tmp) / DB_NAME
        shutil.copyfile(self.db, copy)
        shutil.copyfile(wal, f"{copy}-wal")
        return connect_read(f"{_uri(copy)}?mode=ro")

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()
            self.conn = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


def _uri(path: Path) -> str:
    return "file:" + urllib.parse.quote(str(Path(path).absolute()))


# ---- recognition -----------------------------------------------------------------------------
def check_ours(db: Path) -> str:
    """What the file `db` is, read without writing a byte: "empty" (a zero-length file),
    "ours" (our application id), "legacy" (a store made before the id: our tables and
    schema_version, id 0). Anything else raises UserError (one line)."""
    if not db.is_file():
        raise UserError(f"{db}: not a regular file; refusing to use it as a results store")
    try:
        with open(db, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise UserError(f"{db}: cannot read: {e.strerror or e}") from None
    if not head:
        return "empty"
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise UserError(f"{db}: not an arena results store (not an SQLite database); "
                        f"left untouched")
    app_id = int.from_bytes(head[68:72], "big")
    if app_id == APPLICATION_ID:
        return "ours"
    if app_id != 0:
        raise UserError(f"{db}: an SQLite database of another program (application id "
                        f"{app_id:#x}), not an arena results store; left untouched")
    if _legacy_store(db):
        return "legacy"
    raise UserError(f"{db}: an SQLite database that is not an arena results store (no arena "
                    f"tables); left untouched")


def _legacy_store(db: Path) -> bool:
    """True if `db` (application id 0) has our tables and schema_version row (read only)."""
    try:
        view = ReadView(db)
    except UserError:
        return False
    try:
        tables = {r[0] for r in view.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        return _OUR_TABLES <= tables and view.conn.execute(
            "SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone() is not None
    except sqlite3.Error:
        return False
    finally:
        view.close()


def check_intact(db: Path) -> None:
    """UserError unless the database is intact (PRAGMA quick_check, every table with its
    columns); reads only, creates nothing."""
    view = ReadView(db)
    try:
        _check_intact(db, view.conn)
    finally:
        view.close()


#: A store up to this size is checked whole when it is opened (PRAGMA quick_check reads every
#: page: seconds for a store of 100,000 games); a larger one by its header, which counts its
#: pages (a file shorter than that is truncated), so that a report or the live page over a
#: large store reads its aggregates, not all of it.
QUICK_CHECK_BYTES = 64 << 20


def _truncated(db: Path) -> bool:
    """Is `db` shorter than the pages its header counts (where the count is valid)?"""
    with open(db, "rb") as f:
        head = f.read(100)
    if len(head) < 100 or head[24:28] != head[92:96]:     # the count is not kept up to date
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    return int.from_bytes(head[28:32], "big") * page > db.stat().st_size


def stored_schema(db: Path, conn: sqlite3.Connection) -> int | None:
    """The schema version the store says it was written with (None: no meta table or row yet,
    a store being created). UserError (one line) for a store of a schema newer than this build
    reads: its rows may mean what this build cannot know, so no reader guesses and no writer
    adds rows of an older kind to it."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
                        ).fetchone():
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        return None
    try:
        version = int(row[0])
    except (TypeError, ValueError):
        raise UserError(f"{db}: damaged store (meta schema_version is {row[0]!r}, not a "
                        f"number); nothing was changed") from None
    if version > SCHEMA_VERSION:
        raise UserError(f"{db}: written by a newer build (schema {version}; this build reads up "
                        f"to {SCHEMA_VERSION}); read it with that build or a later one; "
                        f"nothing was changed")
    return version


def _check_intact(db: Path, conn: sqlite3.Connection, whole: bool = True) -> None:
    try:
        if not whole or db.stat().st_size > QUICK_CHECK_BYTES:
            if _truncated(db):
                raise UserError(f"{db}: damaged store (database disk image is malformed; "
                                f"shorter than its header says); nothing was changed")
        else:
            row = conn.execute("PRAGMA quick_check(1)").fetchone()
            if row is None or row[0] != "ok":
                raise UserError(f"{db}: damaged store ({' '.join(str(row and row[0]).split())}"
                                f"); nothing was changed")
        stored_schema(db, conn)     # before the columns: a newer schema's tables may differ
        for table, columns in _COLUMNS.items():
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            if have and not columns <= have:
                missing = ", ".join(sorted(columns - have))
                raise UserError(f"{db}: damaged store (table {table} has no column {missing}); "
                                f"nothing was changed")
    except sqlite3.DatabaseError as e:
        raise UserError(f"{db}: damaged store ({e}); nothing was changed") from None
