"""The import directions of the whole package, read from the source (every import, inside
functions too; `.py` files with `ast`, `.pyx`/`.pxd` by their import lines):

- no import circle between modules;
- the read side (results/) never imports the write side (runner/), the report or the CLI;
- the report imports only the read side, the leaves (stats, paper, budgets, errors), games and
  the player notation; the live page (serve/) the same and the report;
- games import nothing above them; players nothing of the runner, the results or the report;
- cli modules hold no orchestration: no function longer than CLI_FUNCTION_LINES lines, no
  private name of another module, no store or process machinery of their own.

Nothing outside the repository is imported: the rules live here.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "mcts_arena"
CLI_FUNCTION_LINES = 60
_CYTHON_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(mcts_arena(?:\.\w+)*)[ \t]+c?import[ \t]+"
                            r"(\([^)]*\)|[^\n#]+)|c?import[ \t]+(mcts_arena(?:\.\w+)+))", re.M)


def _modules() -> dict[str, Path]:
    mods = {}
    for f in sorted(PKG.rglob("*")):
        if f.suffix not in (".py", ".pyx", ".pxd") or "__pycache__" in f.parts:
            continue
        parts = list(f.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods.setdefault(".".join(parts), f)
    return mods


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported(module: str, path: Path) -> set[tuple[str, str]]:
    """(module imported, name imported from it or "") for every import in the file."""
    out: set[tuple[str, str]] = set()
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                out |= {(a.name, "") for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:                      # relative import
                    pkg = module.split(".")[: len(module.split(".")) - node.level +
                                            (path.name == "__init__.py")]
                    base = ".".join(pkg + ([base] if base else []))
                out |= {(base, a.name) for a in node.names}
    else:
        for m in _CYTHON_IMPORT.finditer(text):
            if m.group(3):
                out.add((m.group(3), ""))
            else:
                names = [n.split()[0] for n in re.split(r"[,()]", m.group(2)) if n.strip()]
                out |= {(m.group(1), n) for n in names}
    return out


def _edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        # a Cython module with a .pxd is both files: the .pxd declares, the .pyx imports too
        both = [path, path.with_suffix(".pyx")] if path.suffix == ".pxd" and \
            path.with_suffix(".pyx").exists() else [path]
        for base, name in {i for f in both for i in _imported(m, f)}:
            if not base.startswith("mcts_arena"):
                continue
            target = _resolve(f"{base}.{name}" if name and f"{base}.{name}" in MODULES
                              else base)
            if target and target != m and not m.startswith(target + ".") \
                    and target != "mcts_arena":
                edges[m].add(target)
    return edges


EDGES = _edges()


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_the_module_graph_is_read():
    # the rules below would pass on an empty graph: make sure it is the package's
    assert {"mcts_arena.runner.experiment", "mcts_arena.results.store",
            "mcts_arena.players.search.mcts", "mcts_arena.cli.app"} <= set(MODULES)
    assert "mcts_arena.results.store" in EDGES["mcts_arena.runner.writer"]
    assert "mcts_arena.players.search.alphabeta" in EDGES["mcts_arena.players.search.mcts"]


def test_no_import_circle_between_modules():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:          # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in EDGES[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in EDGES:
        if v not in index:
            visit(v)
    assert circles == []


def _violations(source: str, allowed) -> list[str]:
    return sorted(f"{m} -> {t}" for m, ts in EDGES.items() if _unit(m) == source
                  or m == f"mcts_arena.{source}" for t in ts if not allowed(t))


LEAVES = {"mcts_arena.errors", "mcts_arena.budgets", "mcts_arena.stats", "mcts_arena.rng",
          "mcts_arena.bits", "mcts_arena.clock", "mcts_arena.inputs", "mcts_arena.procstat"}


@pytest.mark.parametrize("unit,allowed", [
    # the read side: stored results only, never what writes them
    ("results", lambda t: t in LEAVES or _unit(t) in ("results", "games")
     or t in ("mcts_arena.paper", "mcts_arena.players.notation")),
    # the report: the read side and what names and judges its numbers
    ("report", lambda t: t in LEAVES or _unit(t) in ("results", "report", "games")
     or t in ("mcts_arena.paper", "mcts_arena.players.notation")),
    ("games", lambda t: t in LEAVES or _unit(t) == "games"),
    ("players", lambda t: t in LEAVES or _unit(t) in ("players", "games")),
    ("runner", lambda t: _unit(t) not in ("cli", "report", "serve")),
    # learned knowledge: fitted from the read side's games or bootstrapped from the searches
    ("learn", lambda t: t in LEAVES or _unit(t) in ("learn", "games", "results", "players")),
    # the live page: a reader like the report (and the report's pictures), never the runner
    ("serve", lambda t: t in LEAVES or _unit(t) in ("results", "report", "games", "serve")
     or t in ("mcts_arena.paper", "mcts_arena.players.notation")),
    ("stats", lambda t: False),
    ("errors", lambda t: False),
    ("inputs", lambda t: t == "mcts_arena.errors"),     # the one reader: a leaf
    ("budgets", lambda t: False),
    ("paper", lambda t: t == "mcts_arena.players.notation" or t in LEAVES),
    ("plugins", lambda t: t == "mcts_arena.errors"),     # a leaf: it names nothing it loads
    ("procstat", lambda t: False),
])
def test_imports_go_one_way(unit, allowed):
    assert _violations(unit, allowed) == []


def test_the_notation_needs_no_game():
    assert EDGES["mcts_arena.players.notation"] <= {"mcts_arena.errors"}


CLI_MACHINERY = {"sqlite3", "multiprocessing", "subprocess", "signal", "threading",
                 "mcts_arena.results.store", "mcts_arena.runner.writer"}


def test_cli_modules_hold_no_orchestration():
    found = []
    for m, path in MODULES.items():
        if _unit(m) != "cli":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                body = node.body[1:] if ast.get_docstring(node) else node.body
                lines = body[-1].end_lineno - body[0].lineno + 1 if body else 0
                if lines > CLI_FUNCTION_LINES:
                    found.append(f"{m}.{node.name}: {lines} lines")
        for base, name in _imported(m, path):
            if name.startswith("_") and not name.startswith("__"):
                found.append(f"{m} imports the private {base}.{name}")
            if base in CLI_MACHINERY and m != "mcts_arena.cli.app":
                found.append(f"{m} imports {base}")
    assert found == []


def test_the_runners_workers_import_no_dataframes():
    """Every worker process (and Ray task) imports the game loop and the local backend: they
    must not pull pandas or scipy in (seconds per worker start on a small machine)."""
    import subprocess
    import sys

    code = ("import sys, mcts_arena.runner.pool, mcts_arena.runner.ray_backend, "
            "mcts_arena.runner.match; "
            "print(sorted(m for m in ('pandas', 'scipy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
