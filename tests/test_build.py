"""A quiet build: setup.py reads its configuration without a setuptools warning, and Hex's core
compiles without a compiler warning (a setuptools "beta" warning and a
-Wmaybe-uninitialized in Hex.do_move are what such warnings looked like)."""
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_setup_reads_its_configuration_without_a_warning():
    res = subprocess.run([sys.executable, "-W", "default", "setup.py", "--name"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "mcts_arena"
    assert "Warning" not in res.stderr and "beta" not in res.stderr, res.stderr


def _hex_c(tmp_path: Path) -> Path:
    """Hex's C source: the one the build generated (`make build`, which `make test` runs
    first) when it is newer than every Cython source it is made from, else generated here
    with the build's directives (the Cython step costs about a fifth of the test)."""
    built = ROOT / "mcts_arena/games/hex.c"
    sources = [ROOT / "mcts_arena/games/hex.pyx", *ROOT.glob("mcts_arena/**/*.pxd")]
    if built.exists() and built.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return built
    c_file = tmp_path / "hex.c"
    cy = subprocess.run([sys.executable, "-m", "cython", "-3", "-I", str(ROOT),
                         "-X", "boundscheck=False", "-X", "wraparound=False",
                         "-X", "cdivision=True", "-X", "initializedcheck=False",
                         str(ROOT / "mcts_arena/games/hex.pyx"), "-o", str(c_file)],
                        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cy.returncode == 0, cy.stderr
    return c_file


@pytest.mark.slow
def test_the_hex_core_compiles_without_a_compiler_warning(tmp_path):
    import numpy
    from Cython.Build import cythonize  # noqa: F401 - Cython is there (the build needs it)

    # the flags the build uses: Python's own CFLAGS (-Wall among them) and setup.py's, less
    # -g (debug information changes no diagnostic), at -Og rather than -O3: -Og runs the flow
    # analysis that -Wmaybe-uninitialized needs (it flags the old Hex.do_move swap loop, as -O3
    # did) in a quarter of -O3's compile, which spends the rest on inlining and vectorising
    flags = [f for f in shlex.split(sysconfig.get_config_var("CFLAGS") or "")
             if f != "-g" and not f.startswith("-O")] + [
        "-Og", "-Wno-unused-function", "-Wno-unreachable-code", "-fPIC"]
    cc = subprocess.run(["gcc", *flags, "-I", sysconfig.get_paths()["include"],
                         "-I", numpy.get_include(), "-c", str(_hex_c(tmp_path)),
                         "-o", str(tmp_path / "hex.o")],
                        capture_output=True, text=True, timeout=600)
    assert cc.returncode == 0, cc.stderr
    assert "warning:" not in cc.stderr, cc.stderr
