"""Python-class players, `py(module:Class, key=value...)`: the class is loaded by name (a module
on the Python path or in the current directory, or a `path/to/file.py`) and must have
`choose(state, time=None, sims=None) -> (move, stats)`: `move` a move id from
`state.move_ids()` or its notation, `stats` a dict (may be empty; `time`, `sims`, `nodes`,
`depth` are reported when present). It must not change `state`. The constructor receives the
spec's other keywords, plus `seed` and `game` when it accepts them. An exception in it is an
error game (the game loop's rule for every player).
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import sys
import time as _time

from mcts_arena.errors import ExternalError
from mcts_arena.players.player import Player


def check_class(spec) -> None:
    """Load the class a py(...) spec names and check that its constructor takes the spec's
    keywords (ExternalError naming the player otherwise): at parse time, before any game."""
    _check_constructor(spec, load_class(spec))


_CLASS_CACHE: dict[tuple[str, str], type] = {}


def load_class(spec) -> type:
    """The class `module:Class` names (ExternalError naming the player if it cannot be had)."""
    module_name, _, attr = spec.target.rpartition(":")
    key = (module_name, attr)
    if key in _CLASS_CACHE:
        return _CLASS_CACHE[key]
    who = f"player {spec.canonical}"
    try:
        if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
            path = os.path.abspath(module_name)
            if not os.path.isfile(path):
                raise ExternalError(f"{who}: no such file {module_name!r}")
            mod_id = "_arena_py_" + re.sub(r"\W", "_", path)
            module = sys.modules.get(mod_id)
            if module is None:
                ispec = importlib.util.spec_from_file_location(mod_id, path)
                module = importlib.util.module_from_spec(ispec)
                sys.modules[mod_id] = module
                try:
                    ispec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[mod_id]
                    raise
        else:
            module = _import(module_name)
    except ExternalError:
        raise
    except ModuleNotFoundError as e:
        raise ExternalError(f"{who}: no module named {e.name!r} (not on the Python path nor "
                            "in the current directory)") from None
    except Exception as e:  # noqa: BLE001 - the user's module failed to import
        raise ExternalError(f"{who}: importing {module_name!r} failed: {type(e).__name__}: "
                            f"{' '.join(str(e).split())}") from None
    obj = module
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ExternalError(f"{who}: module {module_name!r} has no class {attr!r}")
    if not inspect.isclass(obj):
        raise ExternalError(f"{who}: {attr!r} in {module_name!r} is not a class")
    if not callable(getattr(obj, "choose", None)):
        raise ExternalError(f"{who}: class {attr!r} has no choose(state, time=None, sims=None) "
                            "method")
    _CLASS_CACHE[key] = obj
    return obj


def _import(module_name: str):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        top = module_name.split(".")[0]
        cwd = os.getcwd()
        if e.name not in (module_name, top) or cwd in sys.path:
            raise
        sys.path.append(cwd)          # `arena` (the console script) does not put it there
        return importlib.import_module(module_name)


def _accepts(cls: type, keyword: str) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == keyword and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               or p.kind == p.VAR_KEYWORD for p in params)


def _check_constructor(spec, cls: type) -> None:
    """The constructor accepts the spec's keywords (and seed/game where it takes them)."""
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return
    kwargs = dict(spec.options)
    for extra in ("seed", "game"):
        if _accepts(cls, extra):
            kwargs[extra] = 0 if extra == "seed" else spec.game
    try:
        sig.bind(**kwargs)
    except TypeError as e:
        raise ExternalError(f"player {spec.canonical}: {cls.__name__}(): {e}") from None


class PyPlayer(Player):
    """A Python class with `choose(state, time=None, sims=None) -> (move, stats)`."""

    def __init__(self, spec, seed: int):
        super().__init__(spec, seed)
        cls = load_class(spec)
        kwargs = dict(spec.options)
        if _accepts(cls, "seed"):
            kwargs["seed"] = self.seed
        if _accepts(cls, "game"):
            kwargs["game"] = spec.game
        self.impl = cls(**kwargs)

    @property
    def name(self) -> str:
        return self.spec.display_name

    def _choose(self, state, time, sims):
        t0 = _time.perf_counter()
        out = self.impl.choose(state, time=time, sims=sims)
        wall = _time.perf_counter() - t0
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"choose() must return (move, stats), got {out!r:.60}")
        move, stats = out
        if isinstance(move, str):
            move = state.parse_move(move)
        elif not isinstance(move, int) or isinstance(move, bool):
            raise TypeError(f"choose() returned a move of type {type(move).__name__}; expected "
                            "a move id (int) or its notation (str)")
        if stats is None:
            stats = {}
        if not isinstance(stats, dict):
            raise TypeError(f"choose() returned stats of type {type(stats).__name__}; "
                            "expected a dict")
        stats = dict(stats)
        stats.setdefault("time", wall)
        return move, stats
