"""`arena upgrade DIR`: a store written by an older build rewritten in this build's schema, in
place, without a moment at which its games could be lost.

A store written before schema 4 keeps each game's moves and per-move statistics as JSON text
(about five times their packed size), and one written before schema 3 has no aggregates; a
writer that opens such a store adds what its schema lacks but leaves its text games as they are.
Upgrading writes a new store beside the old one, in `DIR/.upgrade/` (hidden: no reader lists
it): every table's rows as they are, with their row ids (so every order is kept), each text
game's moves and statistics packed (`rows.pack` of the very same text), the aggregates copied
(for a store made before them, counted from its games as a writer would count them). The new
file is then read back and compared with the old one row by row, column by column: the packed
columns unpacked to the old text byte for byte, every other value equal and of the same type
(games: ids, seats, budgets, seeds, opening, results, reason, error, plies, duration, finish
time, version and build; the experiment, pairings, meta, pairs, solve runs), every value
checked by the reader's rules (results/rows.py), and the aggregates read through the reader
(checked against the games) equal to the old store's. Only then does one rename put it in the
old one's place.

Safety. It runs under the directory's lock: a running experiment holds it, so its store is
refused; readers (which hold it shared) are waited for, as a writer waits for them. A
write-ahead log left by a writer that died is first folded into the old file by SQLite (what
any writer opening the store does; the games are the same), so that no log of the old file can
ever be replayed onto the new one. The new file is synced to disk before the rename and the
directory after it: a crash at any moment before the rename leaves the old store as it was
(the next upgrade removes the leftover folder), and after it, the new, checked store. Bad input
(not a store, a damaged store or row, a store newer than this build, aggregates that disagree
with the games) is one line and changes nothing.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import zlib
from itertools import zip_longest
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.results import rows
from mcts_arena.results.store import (
    AGGREGATE_TABLES,
    DB_NAME,
    LOCK_NAME,
    SCHEMA_VERSION,
    Store,
    check_ours,
    stored_schema,
)
from mcts_arena.runner.writer import Writer, acquire_lock, check_writable, write_aggregates

#: The folder the new store is built in, beside the old one.
WORK_NAME = ".upgrade"
#: The game columns a store of schema 4 keeps packed.
PACKED = ("moves_json", "stats_json")
_BATCH = 2000


def upgrade(directory: str | os.PathLike) -> str:
    """Rewrite the store in `directory` in this build's schema (module docstring); one line
    saying what was done. UserError (one line, nothing changed) for bad input or a store a
    run is writing."""
    d = Path(directory)
    db = d / DB_NAME
    if check_ours(db) == "empty":
        raise UserError(f"{db}: empty file, no results stored; nothing to upgrade")
    check_writable(d)       # a running experiment, a newer or damaged store: before any write
    lock_existed = (d / LOCK_NAME).exists()
    fd = acquire_lock(d)
    work = d / WORK_NAME
    try:
        _settle_log(db)
        before = db.stat().st_size
        if work.is_symlink() or work.is_file():     # never followed: the store stays here
            work.unlink()
        shutil.rmtree(work, ignore_errors=True)     # what a killed upgrade left
        with Store.open(d, whole=False) as old:
            current = _current(old)
            old_aggregates = old.aggregates()       # disagreeing: one line, recount first
            if current:
                if not lock_existed:
                    _unlink(d / LOCK_NAME)
                return (f"{d}: already in this build's schema ({SCHEMA_VERSION}), every game "
                        f"packed; nothing to do")
            games, packed = _build(old, work)
            _compare(old, work, old_aggregates)
        new = work / DB_NAME
        os.chmod(new, stat.S_IMODE(db.stat().st_mode))
        _sync(new)
        os.replace(new, db)
        _sync(d)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        if not lock_existed:
            _unlink(d / LOCK_NAME)
        raise
    finally:
        os.close(fd)
    shutil.rmtree(work, ignore_errors=True)
    after = db.stat().st_size
    return (f"{d}: upgraded to schema {SCHEMA_VERSION}: {games} games, {packed} of them "
            f"packed, every row checked against the old store; {before:,} -> {after:,} bytes")


def _current(old: Store) -> bool:
    """Is the store in this build's schema already: its version, the aggregates, no text game?"""
    if stored_schema(old.directory / DB_NAME, old.conn) != SCHEMA_VERSION or \
            not all(old.has_table(t) for t in AGGREGATE_TABLES):
        return False
    return old.conn.execute(
        "SELECT 1 FROM game WHERE typeof(moves_json) = 'text' OR typeof(stats_json) = 'text' "
        "LIMIT 1").fetchone() is None


def _settle_log(db: Path) -> None:
    """Fold a write-ahead log left by a writer that died into the database (under the lock: no
    writer runs), so that none is left beside the file the new one replaces."""
    wal = Path(f"{db}-wal")
    if not (wal.exists() and wal.stat().st_size) and not Path(f"{db}-journal").exists():
        return
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        conn.close()
    if busy or (wal.exists() and wal.stat().st_size):
        raise UserError(f"{db}: its write-ahead log could not be folded into it (another "
                        f"process has it open); nothing was upgraded")


def _tables(conn: sqlite3.Connection) -> dict[str, str]:
    """{table: its CREATE statement} of a store, ours and any other (a `solve` table)."""
    return {r[0]: r[1] for r in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")}


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _build(old: Store, work: Path) -> tuple[int, int]:
    """The new store in `work` (a Writer's new store, then every old row); (games, games
    packed now)."""
    recount = not all(old.has_table(t) for t in AGGREGATE_TABLES)
    games = packed = 0
    w = Writer.open(work)
    try:
        with w.transaction("the upgraded store"):
            new_tables = _tables(w.conn)
            for table, sql in _tables(old.conn).items():
                if table not in new_tables:
                    w.conn.execute(sql)
                cols = [c for c in _columns(old.conn, table) if c in _columns(w.conn, table)]
                # the row ids as they were (meta's: the new store's schema_version has one)
                rowid = [] if table == "meta" else ["rowid"]
                insert = (f"INSERT OR REPLACE INTO {table} ({', '.join(rowid + cols)}) VALUES "
                          f"({', '.join('?' * (len(rowid) + len(cols)))})")
                batch = []
                for r in old.conn.execute(f"SELECT {', '.join(rowid + cols)} FROM {table} "
                                          f"ORDER BY rowid"):
                    r = list(r)
                    if table == "meta" and r[0] == "schema_version":
                        continue
                    if table == "game":
                        games += 1
                        packed += _pack_row(old, cols, r)
                    batch.append(r)
                    if len(batch) >= _BATCH:
                        w.conn.executemany(insert, batch)
                        batch = []
                w.conn.executemany(insert, batch)
            if recount:
                write_aggregates(w.conn, w)
    finally:
        w.close()
    return games, packed


def _pack_row(old: Store, cols: list[str], r: list) -> int:
    """Pack the text moves and statistics of one game row (row id first) in place; 1 if any
    was text."""
    was_text = 0
    for c in PACKED:
        i = cols.index(c) + 1
        if isinstance(r[i], str):
            try:
                r[i] = rows.pack(r[i])
            except UnicodeEncodeError:
                raise old.corrupt(f"game {r[cols.index('game_id') + 1]}", c,
                                  "not UTF-8 text") from None
            was_text = 1
    return was_text


def _compare(old: Store, work: Path, old_aggregates: tuple[list[dict], list[dict]]) -> None:
    """UserError unless the new store in `work` holds every row of `old` as it was (module
    docstring); the aggregates read through the reader, which checks them against the games."""
    with Store.open(work) as new:
        recounted = not all(old.has_table(t) for t in AGGREGATE_TABLES)
        for table in _tables(old.conn):
            cols = _columns(old.conn, table)
            if table == "meta":
                _same(old, table, _meta(old.conn), _meta(new.conn))
            elif table == "pair" and recounted:     # scored again: same pairs, same outcomes
                q = f"SELECT {', '.join(cols)} FROM pair ORDER BY pairing_id, pair_index"
                _same(old, table, [tuple(r) for r in old.conn.execute(q)],
                      [tuple(r) for r in new.conn.execute(q)])
            else:
                _same_rows(old, new, table, cols)
        if _key_sorted(new.aggregates()) != _key_sorted(old_aggregates):
            raise _mismatch(old, "the aggregates")


def _meta(conn: sqlite3.Connection) -> dict:
    return {r[0]: r[1] for r in conn.execute("SELECT key, value FROM meta")
            if r[0] != "schema_version"}


def _same_rows(old: Store, new: Store, table: str, cols: list[str]) -> None:
    q = f"SELECT rowid, {', '.join(cols)} FROM {table} ORDER BY rowid"
    checked = table in rows.TABLES
    for a, b in zip_longest(old.conn.execute(q), new.conn.execute(q)):
        if a is None or b is None:
            raise _mismatch(old, f"the {table} table's row count")
        for c, x, y in zip(("rowid", *cols), a, b):
            if table == "game" and c in PACKED:
                same = isinstance(y, bytes) and (x == y if isinstance(x, bytes) else
                                                 _unpacked(y) == x)
            else:
                same = x == y and type(x) is type(y)
            if not same:
                raise _mismatch(old, f"{table} row {a[0]}, column {c}")
        if checked:
            row = dict(zip(cols, b[1:]))
            _decoded, col, why = rows.check_row(table, row)
            if col is not None:
                raise old.corrupt(rows.row_name(table, row), col, why)


def _unpacked(blob: bytes) -> str | None:
    try:
        return zlib.decompress(blob).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        return None


def _same(old: Store, table: str, a, b) -> None:
    if a != b:
        raise _mismatch(old, f"the {table} table")


def _key_sorted(found: tuple[list[dict], list[dict]]) -> list[list]:
    return [sorted((sorted(r.items()) for r in t), key=repr) for t in found]


def _mismatch(old: Store, what: str) -> UserError:
    return UserError(f"{old.directory / DB_NAME}: the upgraded copy differs from the store in "
                     f"{what}; the store was left as it was")


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except FileNotFoundError:
        pass
