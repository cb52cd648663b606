"""Shared test set-up.

- tests/ is on the import path of the tests and of every process they start (worker
  processes by 'spawn' inherit sys.path; `arena` subprocesses get it from helpers.arena_env),
  so the fake players providers (fakes.py, fault_fakes.py) and helpers.py import by name.
- Markers (registered in pyproject.toml): `slow` (seconds of search or many games), `process`
  (starts `arena` subprocesses or signals processes), `ray` (a local Ray cluster), `browser`
  (headless Chromium). `make test` runs everything (what CI runs); `make test-fast` leaves out
  slow, process, ray and browser tests.
"""
import os
import re

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.runner import config


@pytest.fixture(autouse=True, scope="session")
def _own_cache(tmp_path_factory):
    """What `arena serve` keeps between servers (serve/known.py) goes to a folder of the
    session (and of the processes it starts), never the user's cache."""
    from mcts_arena.serve.known import CACHE_ENV

    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = old


@pytest.fixture
def fake_players(monkeypatch):
    """The runner's players are the fakes of tests/fakes.py (MCTS_ARENA_PLAYERS=fakes)."""
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    return "fakes"


@pytest.fixture
def run():
    """`run("play", ...)`: the arena command in this process (click's CliRunner), exceptions
    raised rather than turned into an exit status."""
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, list(args), catch_exceptions=False)
    return invoke


# ---- running in parallel (pytest-xdist) ---------------------------------------------------
# `make test` runs the suite on every core with `-n auto --dist loadgroup`: tests go to the
# workers one by one, except those given an xdist_group here, which all run in one worker:
# - the tests of a module that use one of its module-scoped fixtures (a store played once, a
#   Ray cluster, a served application): split over workers, each would build it again;
# - every `ray` test: one local Ray cluster at a time on the machine.
# Without xdist the marks are inert. Every test writes only under its own tmp_path (or a
# fixture's tmp_path_factory folder), never into the checkout, so workers never share a file.
def _shares_a_module_fixture(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope == "module" for defs in info.name2fixturedefs.values())


# xdist hands out the groups first (most tests first), then the other tests in collection
# order; a long test handed out last keeps one worker busy while the other has nothing left.
# So under xdist the long kinds (the marks below) are collected first and the short unit
# tests fill the end evenly. A run in one process keeps the file order (a module's fixture
# is then built once).
LONG_KINDS = ("slow", "process", "ray", "browser")


def _is_long(item) -> bool:
    return any(item.get_closest_marker(kind) is not None for kind in LONG_KINDS)


# tryfirst: xdist's own hook turns the group marks into node ids, so the marks must be set
# before it runs
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):     # -p no:xdist: no xdist_group marker
        return
    for item in items:
        if item.get_closest_marker("ray") is not None:
            item.add_marker(pytest.mark.xdist_group("ray"))
        elif _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    if getattr(config, "workerinput", None) is not None:        # an xdist worker
        items.sort(key=lambda item: not _is_long(item))         # stable: file order kept


def pytest_configure(config):
    """pytest 9.2's structured node ids lose the group that xdist's loadgroup writes into them:
    the groups are then spread over the workers and every Ray cluster and shared fixture is built
    once per worker, silently (https://github.com/pytest-dev/pytest-xdist/issues/1386). Stop such
    a run at its start, naming the cause (pyproject.toml asks for pytest<9.2)."""
    if getattr(config, "workerinput", None) is not None or config.getoption("dist", "no") != "loadgroup":
        return
    major_minor = re.match(r"(\d+)\.(\d+)", pytest.__version__)       # 9.2.0, 9.2.0.dev340
    if major_minor and tuple(map(int, major_minor.groups())) >= (9, 2):
        raise pytest.UsageError(f"--dist loadgroup does not group tests under pytest "
                                f"{pytest.__version__}: install pytest<9.2 "
                                "(https://github.com/pytest-dev/pytest-xdist/issues/1386)")
