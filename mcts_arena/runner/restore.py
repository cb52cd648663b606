"""Rebuild stores from published games files (results/archive.py), through the writer.

`restore(file, directory)` makes `directory` a store holding exactly the file's experiment and
games: built in a sibling temporary directory and renamed into place, so a damaged file or a
full disk leaves no half-made store behind. `restore_all(folder, out)` does it for every
`*.jsonl.gz` of a folder (the record's data), each into out/<its name>.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.results import archive
from mcts_arena.results.store import DB_NAME
from mcts_arena.runner.writer import Writer


def restore(path: str | os.PathLike, directory: str | os.PathLike) -> int:
    """The games restored from `path` into the new store `directory`."""
    path, d = Path(path), Path(directory)
    if (d / DB_NAME).exists():
        raise UserError(f"{d}: already holds a results store; restore into a new directory")
    if d.exists() and (not d.is_dir() or any(d.iterdir())):
        raise UserError(f"{d}: exists and is not an empty directory")
    head, games = archive.read(path)
    tmp = d.with_name(d.name + ".restoring")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with Writer.open(tmp) as w:
            n = w.restore(head, games)
        if d.exists():
            d.rmdir()
        os.replace(tmp, d)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return n


def restore_all(folder: str | os.PathLike, out: str | os.PathLike,
                names: set[str] | None = None) -> dict[str, int]:
    """{experiment directory name: games} for every published file in `folder` (`names`: only
    the experiments of these directory names)."""
    folder, out = Path(folder), Path(out)
    if not folder.is_dir():
        raise UserError(f"{folder}: no such folder of published games")
    files = sorted(folder.glob("*" + archive.SUFFIX))
    if not files:
        raise UserError(f"{folder}: holds no published games (*{archive.SUFFIX})")
    done = {}
    for f in files:
        name = f.name[: -len(archive.SUFFIX)]
        if names is None or name in names:
            done[name] = restore(f, out / name)
    return done
