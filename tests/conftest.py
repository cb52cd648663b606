"""Shared test set-up.

- tests/ is on the import path of the tests and of every process they start (worker
  processes by 'spawn' inherit sys.path; `arena` subprocesses get it from helpers.arena_env),
  so the fake players providers (fakes.py, fault_fakes.py) and helpers.py import by name.
- Markers (registered in pyproject.toml): `slow` (seconds of search or many games), `process`
  (starts `arena` subprocesses or signals processes), `ray` (a local Ray cluster), `browser`
  (headless Chromium). `make test` runs everything (what CI runs); `make test-fast` leaves out
  slow, process, ray and browser tests.
"""
import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.runner import config


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
