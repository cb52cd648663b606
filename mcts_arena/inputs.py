"""What the tool reads from its user, read by one set of rules: files, YAML, integers, keys.

- `read_text(path, what)`: the one reader of every file the tool reads (configs, suites,
  manifests, tournament files, rates, player files): a regular file (a FIFO is never opened, so
  it cannot hang; `/dev/zero` is never read), at most `MAX_BYTES`, UTF-8 (a byte-order mark is
  dropped). Anything else is one line naming the file.
- `load_yaml(path, what)` / `parse_yaml(text, source)`: the one YAML loader. Plain data only
  (strings, numbers, booleans, null, lists, mappings; a date reads as its text); a key given
  twice in one mapping is refused, a key must be a plain value (`? [a, b]` is refused), nesting
  at most `MAX_DEPTH` levels and at most `MAX_NODES` values once aliases are expanded (an alias
  bomb is refused before it is built, an alias inside the collection it names too). Merge keys
  (`<<: *defaults`) are supported as YAML defines them: the merged mapping's keys come first, a
  key written in the mapping itself overrides them.
- `integer(value, low, high, what)`: the one integer rule of every count option, config count
  and spec value: an integer (ASCII digits, no `1e3`, no `5_000`) from `low` to `high`, so no
  value too big for C ever reaches the compiled cores.
- `once(pairs, where)`: the one rule refusing a key given twice (player specs, game parameters,
  suite fields, command-line options).

Every refusal is a `UserError` (mcts_arena.errors): one line, exit status 2.
"""
from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, ScalarNode

from mcts_arena.errors import UserError

MAX_BYTES = 4 * 1024 * 1024     # the largest file the tool reads (a config is a few KB)
MAX_DEPTH = 32                  # nesting of YAML collections (a config nests 5 deep)
MAX_NODES = 100_000             # YAML values with aliases expanded (the paper's data: 2,000)
SEED_MAX = 2**63 - 1            # seeds are 63-bit everywhere (players.player.derive_seed)


class InputError(UserError, ValueError):
    """A file, a YAML document, an integer or a key the tool refuses to read."""


# ---- files -----------------------------------------------------------------------------------
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a plain file"


def _check_regular(shown: str, st: os.stat_result, what: str, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{shown}: is a directory, expected {what}")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{shown}: {_kind(st.st_mode)}, not a regular file; expected {what}")
    if st.st_size > limit:
        raise InputError(f"{shown}: {st.st_size:,} bytes, more than the {limit:,} {what} may "
                         f"have")


def read_bytes(path: str | os.PathLike, what: str = "a text file",
               limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file `path` (at most `limit`); InputError (one line) for a
    missing file, a directory, a FIFO, a device, a socket or a file too large."""
    shown = os.fspath(path)
    fd = _open_regular(path, what, limit)
    try:
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise InputError(f"{shown}: cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:               # grew while we read it
        raise InputError(f"{shown}: more than the {limit:,} bytes {what} may have")
    return data


def open_binary(path: str | os.PathLike, what: str):
    """The regular file `path` opened for reading in binary, of any size (the record's
    published games): refused as `read_bytes` refuses, so a FIFO is never waited on."""
    fd = _open_regular(path, what, 1 << 62)
    try:
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _open_regular(path: str | os.PathLike, what: str, limit: int) -> int:
    """A descriptor of the regular file `path` (non-blocking), refused as the module says
    before it is opened (a FIFO is never opened) and again once open."""
    shown = os.fspath(path)
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"{shown}: no such file") from None
    except (OSError, ValueError) as e:
        raise InputError(f"{shown}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    _check_regular(shown, st, what, limit)
    try:
        # O_NONBLOCK: should the path become a FIFO after the stat, open must not wait for a
        # writer; fstat below refuses it then
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise InputError(f"{shown}: cannot read: {e.strerror or e}") from None
    try:
        _check_regular(shown, os.fstat(fd), what, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_text(path: str | os.PathLike, what: str = "a text file",
              limit: int = MAX_BYTES) -> str:
    """The text of the regular file `path`, UTF-8 (see the module docstring); InputError."""
    data = read_bytes(path, what, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputError(f"{os.fspath(path)}: not UTF-8 text (byte 0x{data[e.start]:02x} on "
                         f"line {line}); save it as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


# ---- YAML ------------------------------------------------------------------------------------
_MERGE_TAG = "tag:yaml.org,2002:merge"


class SafeLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader with the limits of the module docstring (pure Python, so that the
    nesting limit holds in the composer; libyaml's composer recurses in C)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._values = 0                # values composed so far, aliases expanded
        self._size: dict[int, int] = {}     # id(node) -> its values, aliases expanded

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None:
                if id(node) not in self._size:
                    raise ComposerError(None, None, f"the alias *{event.anchor} is inside the "
                                        f"collection it names", event.start_mark)
                self._count(self._size[id(node)], event.start_mark)
            return super().compose_node(parent, index)
        mark = self.peek_event().start_mark
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
        before = self._values
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._count(1, mark)
        self._size[id(node)] = self._values - before
        return node

    def _count(self, n: int, mark) -> None:
        self._values += n
        if self._values > MAX_NODES:
            raise ComposerError(None, None, f"more than {MAX_NODES:,} values once its aliases "
                                f"are expanded", mark)


def _construct_mapping(loader: SafeLoader, node: MappingNode, deep: bool = False) -> dict:
    """A mapping: plain keys, each written once (merge keys: see the module docstring)."""
    seen: dict[Any, Any] = {}
    for key_node, _ in node.value:
        if key_node.tag == _MERGE_TAG:
            continue
        if not isinstance(key_node, ScalarNode):
            raise ConstructorError(None, None, "a key must be a plain value (a name or a "
                                   "number), not a list or a mapping", key_node.start_mark)
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen[key] = True
    loader.flatten_mapping(node)
    for key_node, _ in node.value:      # the merged mappings' keys too
        if not isinstance(key_node, ScalarNode):
            raise ConstructorError(None, None, "a key must be a plain value (a name or a "
                                   "number), not a list or a mapping", key_node.start_mark)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


def _refuse_tag(loader: SafeLoader, node) -> None:
    short = node.tag.replace("tag:yaml.org,2002:", "!!")
    raise ConstructorError(None, None, f"the tag {short} is not supported here (plain strings, "
                           "numbers, lists and mappings only)", node.start_mark)


def _timestamp_as_text(loader: SafeLoader, node) -> str:
    return loader.construct_scalar(node)


SafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
for _tag in ("binary", "set", "omap", "pairs"):
    SafeLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)
SafeLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_text)
SafeLoader.add_constructor(None, _refuse_tag)


def parse_yaml(text: str, source: str) -> Any:
    """The data of one YAML document; InputError naming `source`, the line and the problem."""
    try:
        return yaml.load(text, Loader=SafeLoader)     # noqa: S506 - our SafeLoader
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = " ".join(str(e.problem or e.context or "invalid YAML").split())
        raise InputError(f"{source}: YAML syntax error: {where}{problem}") from None
    except yaml.YAMLError as e:
        raise InputError(f"{source}: YAML syntax error: {' '.join(str(e).split())}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        # a scalar its type cannot hold (a float past the largest double in `!!int`, ...)
        text = " ".join(str(e).split())[:200]
        raise InputError(f"{source}: YAML syntax error: {text}") from None


def load_yaml(path: str | os.PathLike, what: str = "a YAML file") -> Any:
    """`read_text` then `parse_yaml`: the data of the YAML file `path`."""
    return parse_yaml(read_text(path, what), os.fspath(path))


# ---- integers and keys -----------------------------------------------------------------------
_INT_RE = re.compile(r"^[+-]?[0-9]+$")


def int_text(low: int, high: int) -> str:
    """How the rule names a range: `an integer from 1 to 100000`."""
    return f"an integer from {low} to {high}"


def integer(value: Any, low: int, high: int, what: str) -> int:
    """`value` (an int, or its text in ASCII digits) as an int from `low` to `high`;
    InputError `{what} must be an integer from LOW to HIGH, got VALUE` otherwise."""
    if isinstance(value, str) and _INT_RE.match(value.strip()):
        n: Any = int(value.strip())
    elif isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        n = None
    if n is None or not low <= n <= high:
        raise InputError(f"{what} must be {int_text(low, high)}, got {_shown(value)}")
    return n


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def once(keys: Iterable[Any], where: str) -> None:
    """Refuse a key that occurs twice in `keys` (InputError: `KEY given twice in WHERE`)."""
    seen = set()
    for k in keys:
        if k in seen:
            raise InputError(f"{k} given twice in {where}; give it once")
        seen.add(k)
