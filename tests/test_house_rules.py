"""The house rules that a reviewer would otherwise have to remember, read from the source:

- no Cython `DEF` (a compile-time macro: typed module constants and enums say the same);
- no "issue N" in any tracked text file (history lives in git, not in the tree);
- no Cython line over 100 characters (ruff holds the Python to the same width);
- no source file over FILE_LINES lines and no function over FUNCTION_LINES, as budgets that can
  only shrink: the files and functions over them today are listed with their sizes (none is
  now); one that grows, or a new one over the line, fails, and one that shrank asks for its
  entry to shrink too;
- no branch on a player kind's name outside the kind table, beyond the ones counted here.

A function's size is its span from the `def` line to its last line, docstring and comments
included: `ast` for Python, an indentation scan for Cython.
"""
from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ("mcts_arena", "tests", "tools", "benchmarks", "examples")
PY = (".py",)
CYTHON = (".pyx", ".pxd", ".pxi")
FILE_LINES = 900
FUNCTION_LINES = 80
CYTHON_LINE = 100

#: Files over FILE_LINES today, with their lines: each may only shrink (none now: a file that
#: outgrows the line splits, as the games' <game>_*.pxi include files do).
FILES_OVER: dict[str, int] = {}

#: Functions over FUNCTION_LINES today ("path::Class.function"), with their lines: each may
#: only shrink (none now: a function that outgrows the line splits into named steps).
FUNCTIONS_OVER: dict[str, int] = {}

#: Cython lines over CYTHON_LINE today, by file: the count may only shrink (none now).
LONG_LINES_LEFT: dict[str, int] = {}

#: Lines of the package (outside the kind table) that branch on a player kind's name, by file:
#: what a kind is and does belongs in its entry of players/kinds.py (docs/extending.md, "Adding
#: a player kind"); the count may only shrink.
KIND_BRANCHES = {
    "mcts_arena/players/builtin.py": 1,         # StarPlayer: its own four kinds
    "mcts_arena/players/spec.py": 8,            # MCTS's macros and C, gnubg's path, the outside
                                                #   kinds' syntax (GTP, gameframe)
    "mcts_arena/runner/config.py": 1,           # a GTP command's {sims} placeholder
}

_DEF = re.compile(r"^[ \t]*DEF[ \t]+\w+[ \t]*=", re.M)
_ISSUE = re.compile(r"\bissue[ \t]*#?[ \t]*\d+", re.I)
_CY_FUNC = re.compile(r"^(?P<indent>[ \t]*)(?:(?:cdef[ \t]+)?class[ \t]+(?P<cls>\w+)"
                      r"|(?:cp?def|def)[ \t][^=:]*?\b(?P<name>\w+)[ \t]*\()")


def _sources(suffixes: tuple[str, ...]) -> list[Path]:
    out = []
    for top in SOURCE_DIRS:
        for f in sorted((ROOT / top).rglob("*")):
            if (f.suffix in suffixes and f.is_file() and "__pycache__" not in f.parts
                    and "build" not in f.relative_to(ROOT).parts):
                out.append(f)
    return out


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _tracked_text_files() -> list[Path]:
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                               check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = []
    for name in filter(None, names):
        f = ROOT / name
        if f.is_file():
            head = f.read_bytes()[:8192]
            if b"\0" not in head and not head.startswith(b"\x1f\x8b"):
                out.append(f)
    return out


def _python_functions(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    sizes: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    sizes[name] = child.end_lineno - child.lineno + 1
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return sizes


def _cython_functions(path: Path) -> dict[str, int]:
    """Each function's span by indentation: from its `def`/`cdef`/`cpdef` line to the last
    line indented deeper than it (declarations without a body, as in a .pxd, are skipped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    sizes: dict[str, int] = {}
    scopes: list[tuple[int, str]] = []          # (indent, class name) of the enclosing classes
    i = 0
    while i < len(lines):
        m = _CY_FUNC.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group("indent").expandtabs())
        scopes = [s for s in scopes if s[0] < indent]
        header_end, depth = i, 0
        while True:                             # the header may span lines inside brackets
            depth += lines[header_end].count("(") - lines[header_end].count(")")
            if depth <= 0 or header_end + 1 == len(lines):
                break
            header_end += 1
        if not lines[header_end].split("#")[0].rstrip().endswith(":"):
            i = header_end + 1
            continue
        last = header_end
        for j in range(header_end + 1, len(lines)):
            text = lines[j]
            if not text.strip():
                continue
            if len(text) - len(text.lstrip()) <= indent:
                if text.lstrip().startswith("#"):   # a comment at the margin: not the body's
                    continue
                break
            last = j
        prefix = "".join(name + "." for _, name in scopes)
        if m.group("cls"):
            scopes.append((indent, m.group("cls")))
        else:
            sizes[prefix + m.group("name")] = last - i + 1
        i = header_end + 1
    return sizes


def _functions() -> dict[str, int]:
    sizes = {}
    for f in _sources(PY + CYTHON):
        measure = _python_functions if f.suffix in PY else _cython_functions
        for name, n in measure(f).items():
            sizes[f"{_rel(f)}::{name}"] = n
    return sizes


def _budget(measured: dict[str, int], allowed: dict[str, int], limit: int, what: str) -> None:
    over = {k: n for k, n in measured.items() if n > limit}
    grown = [f"{k}: {n} {what} (budget {allowed[k]})" for k, n in sorted(over.items())
             if k in allowed and n > allowed[k]]
    new = [f"{k}: {n} {what} (limit {limit})" for k, n in sorted(over.items())
           if k not in allowed]
    shrunk = [f"{k}: {measured.get(k, 0)} {what} now (budget {n}): lower or remove its entry"
              for k, n in sorted(allowed.items()) if measured.get(k, 0) < n]
    assert not (grown or new or shrunk), "\n".join(grown + new + shrunk)


def test_no_cython_def():
    found = [f"{_rel(f)}:{text[:m.start()].count(chr(10)) + 1}"
             for f in _sources(CYTHON)
             for text in [f.read_text(encoding="utf-8")]
             for m in _DEF.finditer(text)]
    assert not found, f"DEF (use a typed module constant or an enum): {found}"


def test_no_issue_numbers_in_the_tree():
    found = []
    for f in _tracked_text_files():
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if _ISSUE.search(line):
                found.append(f"{_rel(f)}:{n}: {line.strip()[:80]}")
    assert not found, "history belongs in git, not in the tree:\n" + "\n".join(found)


def test_cython_lines_fit_in_100_characters():
    long_lines: dict[str, list[int]] = {}
    for f in _sources(CYTHON):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > CYTHON_LINE:
                long_lines.setdefault(_rel(f), []).append(n)
    _budget({f: len(ns) for f, ns in long_lines.items()}, LONG_LINES_LEFT, 0, "long lines")


_KIND_TEST = re.compile(r"\bkind\b(?:\.name)?\s*(?:==|!=|(?:not\s+)?in\b)(.*)")


def test_the_code_asks_the_kind_table_not_a_kinds_name():
    from mcts_arena.players.kinds import SPELLINGS

    names = set(SPELLINGS) | {k.name for k in SPELLINGS.values()}
    found: dict[str, int] = {}
    for f in _sources(PY):
        rel = _rel(f)
        if not rel.startswith("mcts_arena/") or rel == "mcts_arena/players/kinds.py":
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            m = _KIND_TEST.search(line.split("#")[0])
            if m and set(re.findall(r"[\"']([^\"']+)[\"']", m.group(1))) & names:
                found[rel] = found.get(rel, 0) + 1
    _budget(found, KIND_BRANCHES, 0, "kind-name branches")


def test_source_files_keep_their_line_budget():
    sizes = {_rel(f): len(f.read_text(encoding="utf-8").splitlines())
             for f in _sources(PY + CYTHON)}
    _budget(sizes, FILES_OVER, FILE_LINES, "lines")


def test_functions_keep_their_line_budget():
    _budget(_functions(), FUNCTIONS_OVER, FUNCTION_LINES, "lines")


@pytest.mark.parametrize("source, sizes", [
    ("def f(x):\n    '''doc'''\n    return x\n\n\nclass A:\n    def g(self):\n"
     "        if self:\n\n            return 1\n        return 2\n", {"f": 3, "A.g": 5}),
])
def test_python_function_sizes_are_spans(tmp_path, source, sizes):
    f = tmp_path / "m.py"
    f.write_text(source)
    assert _python_functions(f) == sizes


def test_cython_function_sizes_follow_indentation(tmp_path):
    f = tmp_path / "m.pyx"
    f.write_text("cdef int N = 3\n"
                 "cdef inline int add(int a,\n                    int b) noexcept nogil:\n"
                 "    # a comment\n    return a + b\n"
                 "# a comment at the margin ends nothing\n    \n"
                 "cdef class Box:\n    cdef int x\n    cdef int get(self) noexcept:\n"
                 "        return self.x\n\n    def py(self):\n        return 1\n"
                 "cdef int declared(int a) noexcept nogil\n")
    assert _cython_functions(f) == {"add": 4, "Box.get": 2, "Box.py": 2}
