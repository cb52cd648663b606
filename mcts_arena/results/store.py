"""The results store: one SQLite database per experiment, `results/<name>/arena.sqlite`: its
schema, how a store is recognised as ours, and the reader (`Store`, read-only).

The writer is `mcts_arena.runner.writer.Writer` (a Store that also writes; only the driver
process writes): WAL journal, `synchronous=FULL`, a game on disk once `add_game` returns; games
keyed by their deterministic id (`runner.plan.game_id`), so storing a game twice keeps one row
(an `error` game is replaced by a later, successful play of the same id); `.lock` in the
results directory (fcntl.flock) keeps a second `arena run` out.

Schema (version 2; a version-1 store gains the two provenance columns of `game` when a run
opens it for writing, its old games keeping NULL there: "an unrecorded build"):

    experiment(id=1, name, config_json, identity_json, version, machine_json, created, updated)
    pairing(pairing_id PK, position, player, opponent, games, player_budget, opponent_budget)
    game(game_id PK, pairing_id, pair_index, swap, seat0, seat1, budgets_json, seeds_json,
         opening, winner, score, reason, error, plies, moves_json, stats_json, duration, finished,
         version, build)   -- the mcts_arena version and build fingerprint that played it
    pair(pairing_id, pair_index, outcome, PK(pairing_id, pair_index))   -- pair_outcome()
    meta(key PK, value)            -- schema version; `sprt/<pairing id>` (the runner's SPRT
                                   -- decision, JSON); `tournament` (a tournament's settings, JSON);
                                   -- `mixed_builds` (when and which builds --allow-mixed-builds
                                   -- joined, JSON); `precision/<pairing id>` (arena reproduce's
                                   -- stop decision for a row, JSON)

A store is recognised before anything is written to it: its SQLite header carries
`PRAGMA application_id = APPLICATION_ID` (set before the switch to WAL, so it is in the main
file); a store made before the id existed is recognised by its `meta.schema_version` row and
tables, read without writing (`immutable=1`). Any other file named arena.sqlite (not SQLite, an
other program's database) is refused with one line and left as it is; a damaged or truncated
store (`PRAGMA quick_check` fails) is refused the same way.

`game.winner` is the winning seat (NULL: draw or error), `game.score` the pairing player's score
(1, 0.5, 0; NULL for an error game), `game.swap` 0 when the pairing's player sat in seat 0.
`moves_json` is the list of moves in notation, `stats_json` one object per move
(seat, sims, nodes, depth, time as the player reported it, wall as the match measured it, and
value: the search's value of the position for the mover in [-1, 1], where the player reports
one; games stored before it have none).
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Self
from urllib.parse import quote

from mcts_arena.errors import UserError

SCHEMA_VERSION = 2
DB_NAME = "arena.sqlite"
LOCK_NAME = ".lock"
APPLICATION_ID = 0x41524E41         # "ARNA" in the SQLite header (offset 68)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_OUR_TABLES = {"meta", "experiment", "pairing", "game", "pair"}

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
    pairing_id TEXT NOT NULL, pair_index INTEGER NOT NULL, outcome TEXT NOT NULL,
    PRIMARY KEY (pairing_id, pair_index));
"""

GAME_TABLE_COLUMNS = ("game_id", "pairing_id", "pair_index", "swap", "seat0", "seat1",
                      "budgets_json", "seeds_json", "opening", "winner", "score", "reason",
                      "error", "plies", "moves_json", "stats_json", "duration", "finished",
                      "version", "build")
#: Columns a store of an older schema lacks, added (NULL for its games) when a run opens it.
ADDED_COLUMNS = {"game": (("version", "TEXT"), ("build", "TEXT"))}


def pairing_id(player: str, opponent: str) -> str:
    """The id a pairing is stored under, from its canonical specs (stable when matches
    reorder): the runner keys new games by it, tournaments find their matches' games by it."""
    return "p" + hashlib.sha256(f"{player}\0{opponent}".encode()).hexdigest()[:8]


class Store:
    """One experiment's database, read-only: `Store.open(dir)` (report, show, dry-run). The
    runner writes through its subclass `runner.writer.Writer`."""

    def __init__(self, directory: Path, conn: sqlite3.Connection):
        self.directory = directory
        self.conn = conn

    # ---- opening / closing --------------------------------------------------------------
    @classmethod
    def open(cls, directory: str | os.PathLike) -> Store:
        """Open the store in `directory` read-only. UserError (one line) when the directory
        holds no store, or its arena.sqlite is not ours or is damaged."""
        d = Path(directory)
        db = d / DB_NAME
        if d.exists() and not d.is_dir():
            raise UserError(f"{d}: is a file, not a results directory")
        if not db.exists():
            raise UserError(f"{d}: no results here (no {DB_NAME})")
        if check_ours(db) == "empty":
            raise UserError(f"{db}: empty file, no results stored")
        check_intact(db)
        try:
            # read-only without creating a -wal/-shm beside a store no writer has open (a plain
            # mode=ro connection to a WAL database makes both and leaves them behind)
            conn = sqlite3.connect(_read_uri(db), uri=True)
            conn.row_factory = sqlite3.Row
        except sqlite3.Error as e:
            raise UserError(f"{db}: cannot read the store: {e}") from None
        return cls(d, conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- experiment ---------------------------------------------------------------------
    def experiment(self) -> dict | None:
        row = self.conn.execute("SELECT * FROM experiment WHERE id = 1").fetchone()
        if row is None:
            return None
        d = dict(row)
        d["config"] = json.loads(d.pop("config_json"))
        d["identity"] = json.loads(d.pop("identity_json"))
        d["machine"] = json.loads(d.pop("machine_json"))
        return d

    def pairings(self) -> list[dict]:
        rows = self.conn.execute("SELECT * FROM pairing ORDER BY position").fetchall()
        return [dict(r) for r in rows]

    # ---- games --------------------------------------------------------------------------
    def done_ids(self) -> set[str]:
        """Ids of stored games that need no replay (every game but error games)."""
        rows = self.conn.execute("SELECT game_id FROM game WHERE reason != 'error'")
        return {r[0] for r in rows}

    def game_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM game").fetchone()[0]

    def game(self, game_id: str) -> dict | None:
        row = self.conn.execute("SELECT * FROM game WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else _game_dict(row)

    def games(self, pairing_id: str | None = None) -> list[dict]:
        q = "SELECT * FROM game"
        args: tuple = ()
        if pairing_id is not None:
            q += " WHERE pairing_id = ?"
            args = (pairing_id,)
        q += " ORDER BY pairing_id, pair_index, swap"
        return [_game_dict(r) for r in self.conn.execute(q, args)]

    def game_list(self, pairing_id: str) -> list[dict]:
        """The games of one pairing without their moves (game_id, pair_index, swap, seat0,
        seat1, winner, score, reason, error, plies, duration, finished), in pair order."""
        rows = self.conn.execute(
            "SELECT game_id, pair_index, swap, seat0, seat1, winner, score, reason, error, plies, "
            "duration, finished FROM game WHERE pairing_id = ? ORDER BY pair_index, swap",
            (pairing_id,))
        return [dict(r) for r in rows]

    def game_ids(self, limit: int | None = None) -> list[str]:
        q = "SELECT game_id FROM game ORDER BY pairing_id, pair_index, swap"
        if limit:
            q += f" LIMIT {int(limit)}"
        return [r[0] for r in self.conn.execute(q)]

    def builds(self, pairing_id: str | None = None, errors: bool = True
               ) -> dict[tuple[str | None, str | None], int]:
        """{(version, build): games} of the stored games (of one pairing; without error games
        unless `errors`), oldest build first; (None, None) counts the games of a store made
        before games carried their build."""
        where, args = [], []
        if pairing_id is not None:
            where.append("pairing_id = ?")
            args.append(pairing_id)
        if not errors:
            where.append("reason != 'error'")
        cond = (" WHERE " + " AND ".join(where)) if where else ""
        if not self.has_column("game", "build"):
            n = self.conn.execute("SELECT COUNT(*) FROM game" + cond, args).fetchone()[0]
            return {(None, None): n} if n else {}
        q = (f"SELECT version, build, COUNT(*) FROM game{cond} GROUP BY version, build "
             f"ORDER BY MIN(finished)")
        return {(r[0], r[1]): r[2] for r in self.conn.execute(q, args)}

    def has_column(self, table: str, column: str) -> bool:
        return any(r[1] == column for r in self.conn.execute(f"PRAGMA table_info({table})"))

    def pair_outcomes(self, pairing_id: str) -> dict[str, int]:
        rows = self.conn.execute("SELECT outcome, COUNT(*) FROM pair WHERE pairing_id = ? "
                                 "GROUP BY outcome", (pairing_id,))
        return {r[0]: r[1] for r in rows}

    def pairing_games_count(self) -> dict[str, int]:
        rows = self.conn.execute("SELECT pairing_id, COUNT(*) FROM game GROUP BY pairing_id")
        return {r[0]: r[1] for r in rows}

    # ---- meta -------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def meta_items(self, prefix: str = "") -> dict[str, str]:
        rows = self.conn.execute("SELECT key, value FROM meta WHERE key LIKE ? ESCAPE '\\'",
                                 (prefix.replace("%", "\\%").replace("_", "\\_") + "%",))
        return {r[0]: r[1] for r in rows}

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
        conn = sqlite3.connect(_read_uri(db), uri=True)
        try:
            tables = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            return _OUR_TABLES <= tables and conn.execute(
                "SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def _read_uri(db: Path) -> str:
    """A read-only URI that creates no file beside `db`: `immutable=1` while no -wal file is
    there (no writer has it open in WAL mode), plain read-only otherwise (a running writer's
    WAL is read through; its -wal and -shm exist already). The path is percent-encoded, so a
    folder named with `?`, `#` or `%` is still that folder."""
    path = quote(str(Path(db).absolute()))
    if Path(f"{db}-wal").exists():
        return f"file:{path}?mode=ro"
    return f"file:{path}?mode=ro&immutable=1"


def check_intact(db: Path) -> None:
    """UserError unless PRAGMA quick_check finds the database intact (truncated, damaged);
    reads only, creates nothing."""
    try:
        conn = sqlite3.connect(_read_uri(db), uri=True)
        try:
            row = conn.execute("PRAGMA quick_check(1)").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise UserError(f"{db}: damaged store ({e}); nothing was changed") from None
    if row is None or row[0] != "ok":
        raise UserError(f"{db}: damaged store ({' '.join(str(row and row[0]).split())}); "
                        f"nothing was changed")


def _game_dict(row: sqlite3.Row) -> dict:
    d = dict(row)
    d["budgets"] = json.loads(d.pop("budgets_json"))
    d["seeds"] = json.loads(d.pop("seeds_json"))
    d["moves"] = json.loads(d.pop("moves_json"))
    d["stats"] = json.loads(d.pop("stats_json"))
    return d
