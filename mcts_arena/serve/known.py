"""What the index of `arena serve` last knew of the stores under a root, kept between servers: a
small JSON file per results root in the user's cache folder (`cache_dir`:
`~/.cache/mcts_arena/` by default), never beside the stores (the server writes nothing there).

Why: a fresh server's first index would open every store and count its games (the check that
its aggregates count every game: a few milliseconds for each 100,000 games), so an index over
many large experiments took seconds. A store that no run holds and whose database and log have
the same size, modification time and inode as when its facts were computed holds the same
bytes, so its facts (a function of those bytes and the lock state alone) are taken from the
file; any change (a game stored, a recount, an upgrade's rename, an edit by hand) makes them be
computed again from the store. Only the facts of stores no run holds are kept (a running store
changes with every game), and only those the build that reads them wrote (`FORMAT` and the
version). A file that is missing, unreadable or not this shape is no cache; one that cannot be
written is no error (the index is the same without it).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path

from mcts_arena import __version__

FORMAT = 2          # raised whenever the facts change shape (an index fact added)
CACHE_ENV = "MCTS_ARENA_CACHE"
#: The states whose facts are kept (no run holds the store; its facts were read from it).
KEPT_STATES = ("finished", "interrupted")


def _plain(x):
    """A value as JSON gives it back (tuples as lists), so keys compare after a round trip."""
    return json.loads(json.dumps(x))


def cache_dir() -> Path:
    """`$MCTS_ARENA_CACHE` if set (the tests' own folder), else `$XDG_CACHE_HOME/mcts_arena`,
    else `~/.cache/mcts_arena`."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mcts_arena"


class Known:
    """The facts of the stores under `root` as the last server computed them."""

    def __init__(self, root: Path):
        self.root = root
        digest = hashlib.sha256(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:16]
        self.path = cache_dir() / f"serve-index-{digest}.json"
        self._guard = threading.Lock()     # the server's threads note while one saves
        self._stores = self._read()
        self._saved = dict(self._stores)

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or data.get("version") != __version__ or \
                    data.get("root") != str(self.root) or not isinstance(data["stores"], dict):
                return {}
            return {k: v for k, v in data["stores"].items()
                    if isinstance(v, dict) and isinstance(v.get("summary"), dict)}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def summary(self, eid: str, key: tuple) -> dict | None:
        """The facts kept for store `eid` if it is in the state `key` (`Live._key`) still."""
        with self._guard:
            found = self._stores.get(eid)
        if found is None or found.get("key") != _plain(key):
            return None
        return found["summary"]

    def note(self, eid: str, key: tuple, summary: dict) -> None:
        """The facts of store `eid` in the state `key`, kept if no run holds it."""
        try:
            kept = {"key": _plain(key), "summary": _plain(summary)}
        except (TypeError, ValueError):     # not plain JSON: not kept
            return
        with self._guard:
            if summary.get("state") in KEPT_STATES:
                self._stores[eid] = kept
            else:
                self._stores.pop(eid, None)

    def save(self, present) -> None:
        """Write the facts of the stores `present` (ids) where they changed (atomically: a
        file beside it, renamed over it)."""
        present = set(present)
        with self._guard:
            self._stores = {k: v for k, v in self._stores.items() if k in present}
            if self._stores == self._saved:
                return
            stores = dict(self._stores)
        body = json.dumps({"format": FORMAT, "version": __version__, "root": str(self.root),
                           "stores": stores}, separators=(",", ":"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".serve-index-")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(body)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return
        with self._guard:
            self._saved = stores
