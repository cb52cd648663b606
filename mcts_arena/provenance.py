"""Which build of mcts_arena plays a game: its version and a fingerprint of its code.

Every stored game carries both (the store's `game.version`, `game.build`), so a results
directory tells which code played each of its games, a resumed run refuses to mix builds
unless asked to (`arena run --allow-mixed-builds`), and the Ray backend refuses a node whose
build differs from the driver's. A leaf: it imports nothing of ours but the version.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

#: Tests only: a value here replaces this process's build fingerprint (how a test makes one node
#: of a local cluster, or one run, look like a different build).
FAKE_BUILD_ENV = "MCTS_ARENA_FAKE_BUILD"

_identity: tuple[str, str] | None = None


def build_identity() -> tuple[str, str]:
    """(version, build fingerprint) of the mcts_arena this process imports.

    The fingerprint hashes the package's sources (.py, .pyx, .pxd) and the names of its compiled
    modules (data files are not code: what they decide about a game, its budgets and opening,
    is stored with the game itself): two processes agree
    when they run the same code with the same cores built, wherever and however each was built
    (hashing the .so files themselves would tell apart identical sources compiled on different
    paths or compilers)."""
    global _identity
    if _identity is None:
        import mcts_arena

        root = Path(mcts_arena.__file__).resolve().parent
        h = hashlib.sha256()
        for p in sorted(root.rglob("*")):
            if "__pycache__" in p.parts or not p.is_file():
                continue
            rel = p.relative_to(root).as_posix()
            if p.suffix in (".py", ".pyx", ".pxd"):
                h.update(rel.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
            elif p.suffix in (".so", ".pyd"):
                h.update(b"compiled\0" + rel.split(".", 1)[0].encode())
        _identity = (mcts_arena.__version__, h.hexdigest()[:12])
    fake = os.environ.get(FAKE_BUILD_ENV)
    return (_identity[0], fake) if fake else _identity


_source: dict | None = None


def source_commit() -> dict:
    """The git commit of the tree this mcts_arena is imported from, and whether that tree had
    changes to tracked files (`dirty`): {"git_commit": sha or None, "dirty": bool or None}.
    None where the package is not in a git checkout (an installed wheel) or git is missing.
    The build fingerprint names the code; the commit is what a reader can check out."""
    global _source
    if _source is None:
        import mcts_arena

        root = Path(mcts_arena.__file__).resolve().parent
        _source = {"git_commit": None, "dirty": None}
        try:
            head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                  capture_output=True, text=True, timeout=10)
            if head.returncode == 0:
                status = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                         "--untracked-files=no"],
                                        capture_output=True, text=True, timeout=10)
                _source = {"git_commit": head.stdout.strip(),
                           "dirty": bool(status.stdout.strip()) if status.returncode == 0
                           else None}
        except (OSError, subprocess.SubprocessError):
            pass
    return dict(_source)


def describe(version: str | None, build: str | None) -> str:
    """One build as the messages and reports name it."""
    if not build:
        return "an unrecorded build (played before games carried their build)"
    return f"build {build} (mcts_arena {version or '?'})"
