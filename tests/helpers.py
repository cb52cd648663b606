"""Helpers the tests share (not tests themselves): the environment of an `arena` subprocess
with the fake players, counting stored games, hashing a directory tree, playing an experiment
into a directory, waiting for a condition, a GameRecord to store, a report whose pictures are
named but not drawn; a stored golden report compared by its numbers; GNU Backgammon's command and the mark of the tests that need it; GTP
engines (tests/data/external/fake_gtp.py) and one-game jobs for the external players."""
import csv
import dataclasses
import hashlib
import importlib
import importlib.util
import io
import json
import math
import os
import random
import re
import shlex
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from mcts_arena import games, players
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.config import Openings
from mcts_arena.runner.experiment import run_experiment
from mcts_arena.runner.match import GameRecord, play_game
from mcts_arena.runner.plan import GameSpec, Job

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data" / "external"
FAKE = DATA / "fake_gtp.py"
PY = shlex.quote(sys.executable)

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
# Skipped where gnubg is not installed, except under CI (CI=true), where `make test` installs
# it: there a missing gnubg is a failure, not a skip.
needs_gnubg = pytest.mark.skipif(GNUBG is None and not os.environ.get("CI"),
                                 reason="GNU Backgammon is not installed (make test installs "
                                 "it with apt when run as root)")


def pictures_named_not_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, `arena report` names its pictures and creates their files, empty, without
    drawing them: for tests of what a report says, where drawing (tests/test_figures.py)
    would be most of the time."""
    from mcts_arena.report import plots

    def touch(path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
        return path

    every = plots.pictures
    monkeypatch.setattr(plots, "pictures", lambda *args, **kw: [
        dataclasses.replace(p, draw=touch) for p in every(*args, **kw)])


def record(gid="e/p1/0/0", pair=0, swap=0, winner=0, reason="normal", error=None):
    return GameRecord(game_id=gid, pairing_id="p1", pair_index=pair, swap=swap,
                      seats=("A", "B") if swap == 0 else ("B", "A"), budgets=({"sims": 5},) * 2,
                      seeds=(11, 12), opening="start", winner=winner, reason=reason, error=error,
                      plies=3, moves=["a2-a3", "a7-a6", "b2-b3"],
                      stats=[{"seat": 0, "sims": 5, "wall": 0.001}] * 3, duration=0.01,
                      finished=1.0)


def arena_env():
    env = dict(os.environ)
    env[config.PLAYERS_ENV] = "fakes"
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT), env.get("PYTHONPATH", "")])
    return env


def stored(db: Path) -> int:
    """Games in the store file `db` (0 while it does not exist or is not yet readable)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return c.execute("SELECT COUNT(*) FROM game").fetchone()[0]
    except sqlite3.Error:
        return 0


def tree(root: Path) -> dict[str, bytes]:
    """Every path under `root` with its bytes' hash (a directory or a link by its kind): any
    file made, changed or removed shows, and a failed comparison names it."""
    out = {}
    for p in sorted(Path(root).rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = b"link:" + str(p.readlink()).encode()
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).digest()
        else:
            out[rel] = b"dir"
    return out


def play_into(text: str, directory: Path, provider: str, workers: int = 2) -> Path:
    """Run the experiment of config `text` into `directory` with the players of `provider`
    (the real players, or the fakes); the directory."""
    exp = config.loads(text, players=importlib.import_module(provider))
    run_experiment(exp, plan_mod.make_plan(exp), directory, workers=workers, progress=False,
                   players=provider)
    return directory


def wait_for(pred, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def browser_missing(selenium: bool = False, paths: bool = False):
    """Why a real-browser test cannot run here, or None: Debian's `chromium` ($CHROMIUM) and,
    for Selenium, its `chromedriver` ($CHROMEDRIVER) and the selenium package. With
    `paths`: (chromium, chromedriver) instead."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if paths:
        return chromium, driver
    if chromium is None:
        return "no Chromium installed (apt-get install chromium)"
    if selenium and driver is None:
        return "no chromedriver installed (apt-get install chromium-driver)"
    if selenium and importlib.util.find_spec("selenium") is None:
        return "no selenium package (pip install selenium, in the test extras)"
    return None


# ---- GTP engines --------------------------------------------------------------------------
def save_screenshot(driver, path: Path) -> Path:
    """A PNG of the browser's window at `path`, copied into $ARENA_SCREENSHOTS too when set."""
    driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("ARENA_SCREENSHOTS"):
        out = Path(os.environ["ARENA_SCREENSHOTS"])
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, out / path.name)
    return path


def fake(mode, game="breakthrough", after=0, tag="", extra=""):
    cmd = f"{PY} {FAKE} --mode {mode} --game {game} --after {after} --tag {tag or 'none'}"
    return f'GTP(cmd="{cmd}", name=fake_{mode}{extra})'


def job(seats, game="breakthrough", budgets=({"sims": 40}, {"sims": 40}), kind="start",
        plies=0, pairs=1, seeds=((11, 22), (33, 44))):
    gs = []
    for k in range(pairs):
        for swap in (0, 1):
            s = seats if swap == 0 else seats[::-1]
            b = budgets if swap == 0 else budgets[::-1]
            gs.append(GameSpec(f"x/p/{k}/{swap}", "p", k, swap, s, b,
                               tuple(x + 100 * k for x in seeds[swap])))
    return Job("x/p/0", game, Openings(kind, plies), 5, 0, 1000, (), tuple(gs))


def canon(text, game="breakthrough"):
    return players.parse(text, game).canonical


# ---- notation --------------------------------------------------------------------------------


def one_game(spec, budget=(("sims", 20),), opp="Random", game="breakthrough"):
    budget = dict(budget)
    j = job((canon(spec, game), opp), game, budgets=(budget, budget))
    return play_game(j, j.games[0], start_text(game), players, [])


def start_text(game):
    return games.new_state(game).to_text()


def positions_with_a_win_in_one(count=3, seed=5):
    """Positions from random games where the side to move can connect at once."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        s = games.new_state("loa")
        while not s.is_terminal():
            ids = s.move_ids()
            wins = [m for m in ids if s.py_is_decisive(s.format_move(m))]
            if wins and len(found) < count:
                found.append((s.copy(), {s.format_move(m) for m in wins}))
                break
            s.play(rng.choice(ids))
    return found


# A tune of the fakes' Sleepy player's α (tests/test_tune.py, tests/test_serve.py): every
# method's section, 2 confirmation games.
FAKE_TUNE = """name: {name}
game: breakthrough
template: "Sleepy(d{d},im{{a}})"
params:
  a: {{low: 0, high: 1, start: 0.5}}
budget: {{sims: 5}}
games: {games}
method: {method}
seed: 4
opponent: "Sleepy(d{d})"
spsa: {{batch: 2}}
bo: {{games_per_trial: 2, batch: 2, startup: 2}}
confirm: {{games: 2}}
"""


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?", re.I)


def _close(a, b) -> bool:
    """`a` (a stored output's value, parsed) holds `b` (the golden's): numbers equal to 12
    significant digits (the means of wall seconds and work per move may sum their games in
    another order than the build that wrote the golden), a mapping every key of `b` (columns
    added since are not the golden's business), a list item for item."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and _close(a[k], b[k]) for k in b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _csv_rows(text: str) -> list[dict]:
    def num(c):
        try:
            return float(c) if _NUMBER.fullmatch(c) else c
        except ValueError:
            return c
    return [{k: num(v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(text))]


def same_numbers(got: str, want: str, fmt: str) -> None:
    """A report of a stored golden says what the golden says, compared by its numbers, not its
    layout, so a statistic added since rewrites no golden: json and csv value by value (every
    field of the golden's rows, floats to 12 digits; new fields allowed), a text format by the
    numbers it prints, in order (the golden's a subsequence of the output's)."""
    if fmt == "json":
        assert _close(json.loads(got), json.loads(want))
    elif fmt == "csv":
        assert _close(_csv_rows(got), _csv_rows(want))
    else:
        numbers = iter(_NUMBER.findall(got))
        missing = [n for n in _NUMBER.findall(want) if not any(n == m for m in numbers)]
        assert not missing, f"the golden's numbers missing, in order, from the output: {missing}"


def ongoing_positions(game: str, n: int, seed: int, min_plies: int = 0, max_plies: int = 60):
    """n positions of `game` still going on, each reached by a seeded random number of random
    plies (min_plies to max_plies - 1) from the start."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = games.new_state(game)
        for _ in range(rng.randrange(min_plies, max_plies)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.move_ids()))
        if not s.is_terminal():
            out.append(s)
    return out
