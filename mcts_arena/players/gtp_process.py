"""External players: engines that speak GTP, and Python classes loaded by name.

Notation (one form for both kinds; a value may be double-quoted, and must be when it holds a
comma, a parenthesis or a double quote; inside quotes `\\"` is a quote and `\\\\` a backslash)::

    GTP(cmd="./my_engine --level 3", name=mine)
    GTP(cmd="arena gtp 'MCTS(ipp)' --game breakthrough --seed {seed} --sims {sims}", name=ours)
    GTP(cmd="./slow_engine", name=slow, time=2, timeout=120)
    py(mypackage.players:MyPlayer, depth=3, name=proto)
    py(examples/example_player.py:WinFirst, name=winfirst)

GTP keys: `cmd` (required: the engine's command line, split like a shell would, never run by a
shell), `name` (what reports call the player; default the command), `timeout` (seconds an
engine may take for one move under a simulation budget, default 60; under a time budget the
match's forfeit limit applies), `time=`/`sims=` (this seat's own budget). In `cmd`, `{seed}`,
`{sims}`, `{time}` and `{game}` are replaced by the game's seed for this seat, its budget and
the game name, so an engine can be driven reproducibly from the command line.

py keys: the first argument is `module:Class` (a module importable from the Python path or the
current directory, or a `path/to/file.py`); `name`, `time=`, `sims=` as above; every other
`key=value` is passed to the class's constructor (numbers as numbers, `true`/`false` as
booleans, anything else as a string), plus `seed` and `game` when the constructor accepts them.

The class needs one method, `choose(state, time=None, sims=None) -> (move, stats)`: `move` is
a move id from `state.move_ids()` or its notation (`state.moves()`), `stats` a dict (may be
empty; `time`, `sims`, `nodes`, `depth` are reported when present). It must not change `state`.
"""
from __future__ import annotations

import collections
import importlib
import importlib.util
import inspect
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time as _time
import weakref
from dataclasses import dataclass

EXTERNAL_KINDS = {"GTP": "GTP", "gtp": "GTP", "py": "py"}
GTP_KEYS = ("cmd", "name", "timeout", "time", "sims")
DEFAULT_TIMEOUT_S = 60.0        # one move under a simulation budget
START_TIMEOUT_S = 30.0          # each start-up command (protocol_version, name, boardsize, ...)
QUIT_WAIT_S = 1.0               # how long `quit` may take before the engine is killed
STDERR_LINES = 8                # engine stderr lines kept for the record
PLACEHOLDERS = ("seed", "sims", "time", "game")
_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*")
_BARE_RE = re.compile(r"^[A-Za-z0-9_.:/+\-]+$")


class ExternalError(ValueError):
    """An external player that cannot be set up (a SpecError: one line naming the player)."""


# ---- notation -------------------------------------------------------------------------------
def split_args(args: str, text: str) -> list[tuple[str | None, str, bool]]:
    """Split `a, key=value, key="quoted, value"` into [(key or None, value, quoted)]."""
    from mcts_arena.players.spec import SpecError

    out: list[tuple[str | None, str, bool]] = []
    if not args.strip():
        return out
    i, n = 0, len(args)
    while True:
        while i < n and args[i].isspace():
            i += 1
        key = None
        m = _KEY_RE.match(args, i)
        if m:
            key, i = m.group(1), m.end()
        if i < n and args[i] == '"':
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise SpecError(f"unterminated double quote in {text!r}")
                c = args[j]
                if c == "\\" and j + 1 < n and args[j + 1] in '"\\':
                    buf.append(args[j + 1])
                    j += 2
                    continue
                if c == '"':
                    j += 1
                    break
                buf.append(c)
                j += 1
            value, quoted, i = "".join(buf), True, j
            while i < n and args[i].isspace():
                i += 1
            if i < n and args[i] != ",":
                raise SpecError(f"unexpected {args[i]!r} after a quoted value in {text!r} "
                                "(a quoted value must be the whole value)")
        else:
            j = i
            while j < n and args[j] != ",":
                if args[j] in '()"':
                    raise SpecError(f"{args[j]!r} outside double quotes in {text!r}; quote the "
                                    'value, e.g. cmd="./engine --opt (x)"')
                j += 1
            value, quoted, i = args[i:j].strip(), False, j
        if not value and not quoted:
            raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")
        out.append((key, value, quoted))
        if i >= n:
            return out
        i += 1          # the comma
        if not args[i:].strip():
            raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")


def quote(value: str) -> str:
    """A value as the notation writes it: bare when it can be, else double-quoted."""
    if value and _BARE_RE.match(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _num(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _py_value(value: str, quoted: bool):
    if quoted:
        return value
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            pass
    return value


def _format_py_value(v) -> str:
    if isinstance(v, (bool, int, float)):
        return _num(v)
    s = str(v)
    if _py_value(s, False) != s:        # looks like a number or a boolean: keep it a string
        return quote(s) if not _BARE_RE.match(s) else '"' + s + '"'
    return quote(s)


@dataclass(frozen=True)
class ExternalSpec:
    """A parsed `GTP(...)` or `py(...)` player (duck-compatible with PlayerSpec)."""

    kind: str                   # "GTP" or "py"
    game: str
    target: str                 # GTP: the command line; py: module:Class
    name: str = ""
    options: tuple = ()         # py: constructor keywords; GTP: (("timeout", s),) if given
    budget: tuple = ()
    label: str = ""
    seed_salt: int = 0
    evalfn: str = ""

    def get(self, key: str, default=None):
        return dict(self.options).get(key, default)

    @property
    def budget_dict(self) -> dict | None:
        return dict(self.budget) or None

    @property
    def display_name(self) -> str:
        """What reports call the player: its `name`, else the command (or module:Class)."""
        return self.name or self.target

    @property
    def canonical(self) -> str:
        if self.kind == "GTP":
            parts = [f"cmd={quote(self.target)}"]
            if self.name:
                parts.append(f"name={quote(self.name)}")
            if "timeout" in dict(self.options):
                parts.append(f"timeout={_num(self.get('timeout'))}")
        else:
            parts = [self.target]
            parts += [f"{k}={_format_py_value(v)}" for k, v in self.options]
            if self.name:
                parts.append(f"name={quote(self.name)}")
        parts += [f"{k}={_num(v)}" for k, v in self.budget]
        return f"{self.kind}({','.join(parts)})"

    def __str__(self) -> str:
        return self.canonical


def parse(kind_text: str, args: str | None, text: str, game: str) -> ExternalSpec:
    """Parse the inside of `GTP(...)` / `py(...)`; SpecError names the problem."""
    from mcts_arena.players.spec import KEY_OPTIONS, SpecError, _number

    kind = EXTERNAL_KINDS[kind_text]
    items = split_args(args or "", text)
    budget: dict = {}
    name = ""
    label = " ".join(text.split())

    def budget_value(key, value, quoted):
        _, typ, lo, hi, _ = KEY_OPTIONS[key]
        return _number(value, typ, lo, hi, f"{key}={value}", text)

    if kind == "GTP":
        cmd, opts = None, {}
        for key, value, quoted in items:
            if key is None:
                raise SpecError(f"GTP player {text!r}: expected key=value, got {value!r}; "
                                'write GTP(cmd="./engine --args", name=mine)')
            if key not in GTP_KEYS:
                raise SpecError(f"unknown option {key!r} in {text!r} for GTP; valid: "
                                f"{', '.join(GTP_KEYS)}")
            if key == "cmd":
                cmd = value
            elif key == "name":
                name = value
            elif key == "timeout":
                t = _number(value, "float", 0.001, 1e6, f"timeout={value}", text)
                opts["timeout"] = float(t)
            else:
                budget = {key: budget_value(key, value, quoted)}
        if cmd is None or not cmd.strip():
            raise SpecError(f'GTP player {text!r} needs cmd="..." (the engine\'s command line)')
        try:
            argv = shlex.split(cmd)
        except ValueError as e:
            raise SpecError(f"GTP player {text!r}: bad command line: {e}") from None
        if not argv:
            raise SpecError(f'GTP player {text!r} needs cmd="..." (the engine\'s command line)')
        for field in re.findall(r"\{([^{}]*)\}", cmd):
            if field not in PLACEHOLDERS:
                raise SpecError(f"GTP player {text!r}: unknown placeholder {{{field}}} in cmd; "
                                f"valid: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
        return ExternalSpec("GTP", game, cmd.strip(), name, tuple(sorted(opts.items())),
                            tuple(budget.items()), label)

    # py(module:Class, ...)
    if not items or items[0][0] is not None:
        raise SpecError(f"py player {text!r}: the first argument must be module:Class, "
                        "e.g. py(mypackage.players:MyPlayer)")
    target = items[0][1].strip()
    if ":" not in target or not target.rpartition(":")[2]:
        raise SpecError(f"py player {text!r}: expected module:Class, got {target!r}")
    kwargs = {}
    for key, value, quoted in items[1:]:
        if key is None:
            raise SpecError(f"py player {text!r}: expected key=value after module:Class, "
                            f"got {value!r}")
        if key == "name":
            name = value
        elif key in ("time", "sims"):
            budget = {key: budget_value(key, value, quoted)}
        elif key in ("seed", "game"):
            raise SpecError(f"py player {text!r}: {key!r} is given by the runner (the "
                            "constructor receives it); choose another keyword")
        else:
            if key in kwargs:
                raise SpecError(f"py player {text!r}: {key!r} given twice")
            kwargs[key] = _py_value(value, quoted)
    spec = ExternalSpec("py", game, target, name, tuple(sorted(kwargs.items())),
                        tuple(budget.items()), label)
    cls = load_class(spec)          # an unknown module or class is a start-up error
    _check_constructor(spec, cls)
    return spec


def display_name(canonical: str) -> str:
    """What reports call a player given by its canonical spec: an external player's `name`
    (or its command / module:Class); any other spec unchanged."""
    m = re.match(r"^\s*(GTP|gtp|py)\s*\((.*)\)\s*$", canonical or "", re.DOTALL)
    if not m:
        return canonical
    try:
        items = split_args(m.group(2), canonical)
    except ValueError:
        return canonical
    for key, value, _ in items:
        if key == "name" and value:
            return value
    for key, value, _ in items:
        if (m.group(1) == "py" and key is None) or key == "cmd":
            return value
    return canonical


# ---- Python players -------------------------------------------------------------------------
_CLASS_CACHE: dict[tuple[str, str], type] = {}


def load_class(spec: ExternalSpec) -> type:
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


def _check_constructor(spec: ExternalSpec, cls: type) -> None:
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


# ---- the GTP conversation -------------------------------------------------------------------
class EngineError(RuntimeError):
    """The engine broke the conversation: it died, or sent what is not a GTP response."""


class EngineTimeout(EngineError):
    """No complete answer within the time allowed."""


class GTPRefused(EngineError):
    """The engine answered `? ...` to a command."""


_LIVE: weakref.WeakSet = weakref.WeakSet()
_OLD_SIGTERM = None


def _on_sigterm(signum, frame):          # a worker terminated: take its engines along
    for eng in list(_LIVE):
        eng.kill()
    signal.signal(signal.SIGTERM, _OLD_SIGTERM if callable(_OLD_SIGTERM) else signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _guard_sigterm() -> None:
    global _OLD_SIGTERM
    if threading.current_thread() is not threading.main_thread():
        return
    cur = signal.getsignal(signal.SIGTERM)
    if cur is _on_sigterm:
        return
    if cur in (signal.SIG_DFL, None) or callable(cur):
        _OLD_SIGTERM = cur
        signal.signal(signal.SIGTERM, _on_sigterm)


def _death_signal():
    """A preexec_fn that makes the engine die with the process that started it (Linux
    PR_SET_PDEATHSIG), so even a worker killed outright (SIGKILL) leaves no engine behind."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def child() -> None:                # runs in the child between fork and exec
        prctl(1, signal.SIGKILL)        # PR_SET_PDEATHSIG = 1

    return child


_PREEXEC = _death_signal()


class GTPEngine:
    """One engine process and the GTP conversation with it (stdin/stdout pipes, stderr kept)."""

    def __init__(self, argv: list[str], who: str):
        self.argv = argv
        self.who = who
        self.stderr = collections.deque(maxlen=STDERR_LINES)
        self.proc = None
        self._buf = b""
        self._err_thread = None
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True,
                                         close_fds=True, preexec_fn=_PREEXEC)
        except FileNotFoundError:
            raise EngineError(f"cannot start {argv[0]!r}: no such command") from None
        except PermissionError:
            raise EngineError(f"cannot start {argv[0]!r}: permission denied") from None
        except OSError as e:
            raise EngineError(f"cannot start {argv[0]!r}: {e.strerror or e}") from None
        _LIVE.add(self)
        _guard_sigterm()
        self._err_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._err_thread.start()

    def _drain_stderr(self) -> None:
        try:
            for raw in iter(self.proc.stderr.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip()
                if line:
                    self.stderr.append(line)
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        if self._err_thread is not None and self.proc is not None and self.proc.poll() is not None:
            self._err_thread.join(0.5)
        lines = list(self.stderr)
        return "; engine stderr: " + " | ".join(lines) if lines else "; engine stderr: (empty)"

    def _died(self, doing: str) -> EngineError:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exit status {code}" if code is not None and code >= 0 else \
            f"killed by signal {-code}" if code is not None else "closed its output"
        return EngineError(f"engine exited ({status}) {doing}{self.stderr_tail()}")

    def send(self, command: str, timeout: float | None) -> str:
        """Send one command; the text of its `=` answer. GTPRefused on `?`, EngineTimeout when
        no complete answer comes within `timeout` seconds, EngineError otherwise."""
        if self.proc is None or self.proc.poll() is not None:
            raise self._died(f"before {command!r}")
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(f"before {command!r}") from None
        deadline = None if timeout is None else _time.monotonic() + timeout
        lines: list[str] = []
        while True:
            line = self._readline(deadline, command)
            if not lines and not line.strip():
                continue                    # blank lines before an answer
            if lines and not line.strip():
                break                       # the blank line that ends the answer
            lines.append(line)
        head = lines[0]
        m = re.match(r"^([=?])(\d*)(?:\s+(.*))?$", head)
        if not m or (m.group(2) == "" and len(head) > 1 and not head[1].isspace()):
            raise EngineError(f"malformed GTP response to {command!r}: {head[:80]!r} (an answer "
                              "starts with '=' or '?')")
        text = "\n".join([(m.group(3) or "").strip()] + [ln.rstrip() for ln in lines[1:]]).strip()
        if m.group(1) == "?":
            raise GTPRefused(f"engine answered '? {text}' to {command!r}")
        return text

    def _readline(self, deadline: float | None, command: str) -> str:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = None if deadline is None else deadline - _time.monotonic()
            if left is not None and left <= 0:
                raise EngineTimeout(f"no answer to {command!r} within the time allowed")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._died(f"while answering {command!r}")
            self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\n")
        return raw.decode("utf-8", "replace").replace("\r", "").replace("\t", " ")

    def kill(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.kill()
        except OSError:
            pass

    def close(self) -> None:
        """`quit`, then kill the engine's whole process group; wait for it (no zombie)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=QUIT_WAIT_S)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()              # what is left of its process group, even after a clean quit
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        if self._err_thread is not None:
            self._err_thread.join(1.0)
        try:
            self.proc.stderr.close()
        except OSError:
            pass
        _LIVE.discard(self)
        self.proc = None


def gtp_facts(game: str) -> dict:
    """How a game is spoken over GTP, as the game declares it (GameInfo.gtp_*): colours of
    seat 0 and 1, the board size (or None), and the move spelling (to_gtp/from_gtp, None: the
    game's own notation)."""
    from mcts_arena import games

    info = games.info_of(game)
    size = info.gtp_boardsize
    if isinstance(size, str):                   # the name of a parameter, e.g. hex's "size"
        size = games.parse(game)[1][size]
    return {"colors": tuple(info.gtp_colors), "boardsize": size, "to_gtp": info.gtp_move,
            "from_gtp": info.gtp_parse}


COLOR_WORDS = {"b": "black", "w": "white"}


def parse_color(word: str, colors: tuple[str, str]) -> int | None:
    """Seat of a GTP colour word (`b`, `black`, `w`, `white`, any case) or None."""
    w = word.strip().lower()
    for seat, c in enumerate(colors):
        if w in (c, COLOR_WORDS.get(c, c)):
            return seat
    return None


def fill_command(spec: ExternalSpec, seed: int, budget: dict) -> list[str]:
    """The engine's argv with {seed}, {sims}, {time}, {game} filled in for this seat."""
    values = {"seed": str(seed), "game": spec.game}
    if budget.get("sims") is not None:
        values["sims"] = str(int(budget["sims"]))
    if budget.get("time") is not None:
        values["time"] = f"{budget['time']:g}"
    argv = []
    for arg in shlex.split(spec.target):
        def sub(m):
            key = m.group(1)
            if key not in values:
                have = "a time" if "time" in values else "a simulation"
                raise ExternalError(f"player {spec.display_name}: cmd uses {{{key}}} but this "
                                    f"seat has {have} budget ({budget})")
            return values[key]
        argv.append(re.sub(r"\{(" + "|".join(PLACEHOLDERS) + r")\}", sub, arg))
    return argv


def start_engine(spec: ExternalSpec, seed: int, budget: dict, need_position: bool = False
                 ) -> tuple[GTPEngine, dict]:
    """Start the engine and hold the start-up conversation. ExternalError on any fault, with
    the engine already closed. Returns (engine, info: name, commands)."""
    who = f"player {spec.display_name}"
    facts = gtp_facts(spec.game)
    argv = fill_command(spec, seed, budget)
    try:
        eng = GTPEngine(argv, who)
    except EngineError as e:
        raise ExternalError(f"{who}: {e}") from None
    info: dict = {"name": "", "commands": None}
    try:
        eng.send("protocol_version", START_TIMEOUT_S)
        info["name"] = eng.send("name", START_TIMEOUT_S)
        try:
            info["commands"] = set(eng.send("list_commands", START_TIMEOUT_S).split())
        except GTPRefused:
            info["commands"] = None
        if facts["boardsize"]:
            eng.send(f"boardsize {facts['boardsize']}", START_TIMEOUT_S)
        eng.send("clear_board", START_TIMEOUT_S)
        if need_position and not _knows(eng, info, "set_position"):
            raise ExternalError(f"{who}: the openings of this experiment are positions no move "
                                "sequence reaches, and the engine does not know the "
                                "set_position command (see README, GTP players)")
    except ExternalError:
        eng.close()
        raise
    except EngineTimeout as e:
        tail = eng.stderr_tail()
        eng.close()
        raise ExternalError(f"{who}: {e} ({START_TIMEOUT_S:g} s){tail}") from None
    except EngineError as e:
        eng.close()
        raise ExternalError(f"{who}: {e}") from None
    return eng, info


def _knows(eng: GTPEngine, info: dict, command: str) -> bool:
    if info["commands"] is not None:
        return command in info["commands"]
    try:
        return eng.send(f"known_command {command}", START_TIMEOUT_S).strip().lower() == "true"
    except GTPRefused:
        return False


def preflight(spec: ExternalSpec, budget: dict, openings_kind: str = "start") -> None:
    """Start the engine once, hold the start-up conversation and quit (ExternalError on any
    fault): run before the store is opened, so a broken engine writes nothing."""
    if spec.kind != "GTP":
        return
    eng, _ = start_engine(spec, 1, budget,
                          need_position=openings_kind not in ("start", "random_plies"))
    eng.close()
