"""Plug-ins: code from outside the package that registers games (`games.register`), player
kinds and their options (`players.options.register_kind`, `players.options.register`) or
statistics (`results.aggregates.register`) when it is imported (docs/extending.md).

A plug-in is a module name (`mylab.arena_plugin`) or the path of a `.py` file. `arena` imports
those that the environment variable MCTS_ARENA_PLUGINS names (separated by the path separator,
`:` on POSIX) before any command; in Python, `use(...)` imports them and names them there, so
the worker processes of a run, which start with the driver's environment, import them too
(runner/pool.py). Each is imported once per process.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from mcts_arena.errors import UserError

ENV = "MCTS_ARENA_PLUGINS"
_loaded: dict[str, object] = {}


def named() -> list[str]:
    """The plug-ins the environment names, in order."""
    return [t for t in os.environ.get(ENV, "").split(os.pathsep) if t.strip()]


def load() -> None:
    """Import every plug-in the environment names (each once per process)."""
    for target in named():
        _import(target)


def use(*targets: str | os.PathLike) -> None:
    """Import each plug-in (a module name or a .py file's path) and name it in the environment,
    so that the processes a run starts import it too."""
    have = named()
    for t in targets:
        target = str(Path(t).resolve()) if str(t).endswith(".py") else str(t)
        _import(target)
        if target not in have:
            have.append(target)
    os.environ[ENV] = os.pathsep.join(have)


def _import(target: str) -> None:
    if target in _loaded:
        return
    try:
        if target.endswith(".py"):
            name = f"mcts_arena_plugin_{Path(target).stem}_{len(_loaded)}"
            spec = importlib.util.spec_from_file_location(name, target)
            if spec is None or spec.loader is None:
                raise ImportError("not a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
    except Exception as e:  # noqa: BLE001 - any fault of a plug-in is the user's to fix
        raise UserError(f"plug-in {target} ({ENV}) cannot be loaded: "
                        f"{type(e).__name__}: {' '.join(str(e).split())}") from None
    _loaded[target] = module
