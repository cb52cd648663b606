"""Carry the record's unfinished runs across machines, in the published games format.

A long run's stores (results/reproduction/<experiment>/) live on one machine; when a session ends
on a machine that is not there the next time, its finished games would be played again. `save`
writes each store, as it stands, to DIR/<experiment>.jsonl.gz (results/archive.py's format, from
a consistent snapshot of the store, so a run may go on playing meanwhile); `restore` makes a
store of every such file whose store is missing. A store restored this way resumes exactly: the
run plays on from its next game as if it had never stopped (tests/test_record_checkpoint.py).

    python tools/record_checkpoint.py save    DIR [--results results/reproduction] NAME...
    python tools/record_checkpoint.py restore DIR [--results results/reproduction]

These files are not the record: a page is rebuilt only from docs/reproduction/data, where a run's
games go (`arena reproduce --publish`) once the page they belong to is finished.
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.results import archive
from mcts_arena.results.store import DB_NAME
from mcts_arena.runner.restore import restore_all


def save(folder: Path, results: Path, names: list[str]) -> list[str]:
    """Write every named store of `results` to `folder`; one line per store saved."""
    stores = []
    for name in names:
        db = results / name / DB_NAME
        if not db.is_file():
            raise UserError(f"{results / name}: holds no results store")
        stores.append((name, db))
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, db in stores:
        with tempfile.TemporaryDirectory(prefix="arena-checkpoint-") as tmp:
            # the backup API copies one consistent state, even while a writer goes on
            src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            dst = sqlite3.connect(Path(tmp) / DB_NAME)
            try:
                src.backup(dst)
            finally:
                dst.close()
                src.close()
            n = archive.dump(tmp, folder / f"{name}{archive.SUFFIX}")
        lines.append(f"saved {n} games of {name} in {folder}")
    return lines


def restore_missing(folder: Path, results: Path) -> list[str]:
    """A store in `results` for every file of `folder` whose store is not there (through
    runner/restore.py's `restore_all`, which checks the folder and each file)."""
    names = ({f.name[: -len(archive.SUFFIX)] for f in folder.glob("*" + archive.SUFFIX)}
             if folder.is_dir() else set())
    kept = sorted(n for n in names if (results / n / DB_NAME).exists())
    if names - set(kept):
        results.mkdir(parents=True, exist_ok=True)
    done = restore_all(folder, results, names - set(kept))
    return ([f"{n}: kept the store in {results / n} (not restored)" for n in kept]
            + [f"restored {k} games of {n} into {results / n}" for n, k in sorted(done.items())])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=["save", "restore"])
    ap.add_argument("folder", type=Path)
    ap.add_argument("names", nargs="*", help="save: the experiments' directory names")
    ap.add_argument("--results", type=Path, default=Path("results/reproduction"))
    a = ap.parse_intermixed_args(argv)
    try:
        if a.action == "save":
            if not a.names:
                raise UserError("save: name at least one experiment directory")
            lines = save(a.folder, a.results, a.names)
        else:
            if a.names:
                raise UserError("restore: takes no names (it restores every missing store)")
            lines = restore_missing(a.folder, a.results)
    except (UserError, sqlite3.Error, OSError) as e:
        print(f"record_checkpoint: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
