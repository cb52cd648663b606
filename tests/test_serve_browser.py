"""`arena serve` in a real browser: headless Chromium (Debian's `chromium`) driven by Selenium
through Debian's `chromedriver`, one browser session for the module. The server (`arena serve ROOT
--port 0`, loopback) watches a results root holding a Breakthrough α sweep that a real `arena run`
is playing in the background (tiny budgets), finished Hex and backgammon experiments, a finished
elimination tournament and a finished SPSA tune. The tests check that the index shows the run as
running, that the standings appear and change as games are stored, that every picture loads (forest
plot, α curve with the paper's range, Bradley–Terry ladder, bracket tree), that a tune shows its
panel and path, that the game viewer steps through a Hex, a Breakthrough and a backgammon game (its
dice too), and that a stopped run reads as interrupted. Screenshots are saved (into
$ARENA_SCREENSHOTS too when it is set).
`make test` installs chromium and chromium-driver with apt when they are missing (as root);
elsewhere these tests skip with the reason, except under CI (CI=true), where a missing browser
is a failure: CI must run them.
"""
import importlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import browser_missing, save_screenshot, stored, wait_for

from mcts_arena.cli import cli
from mcts_arena.results.store import DB_NAME
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment

MISSING = browser_missing(selenium=True)
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(MISSING is not None and not os.environ.get("CI"),
                                 reason=f"{MISSING}: arena serve is not checked in a browser "
                                        f"here")]

# a run that outlasts the tests that watch it play (games of about 0.05 s on one idle worker);
# stopped by the test of a stopped run
RUNNING = ("name: alpha\ngame: breakthrough\nbudget: {sims: 150}\ngames: 2000\nseed: 7\n"
           "matches:\n  - sweep: {player: 'MCTS(bl,im{a})', opponent: 'MCTS(bl)', "
           "a: [0.0, 0.3, 0.6]}\n")
HEX = ("name: hex\ngame: hex(size=5)\nbudget: {sims: 30}\ngames: 4\nseed: 3\nmatches:\n"
       "  - {player: 'MCTS(bridge)', opponent: MCTS}\n")
# a game of chance: the viewer shows the dice as plies of their own
DICE = ("name: dice\ngame: backgammon\nbudget: {sims: 10}\ngames: 2\nseed: 3\nmatches:\n"
        "  - {player: Greedy, opponent: Random}\n")
# a tune: four SPSA steps of MCTS(bl,imα) at 5 simulations, two confirmation games under an
# SPRT that one pair cannot decide
TUNE = ("name: tune\ngame: breakthrough\ntemplate: 'MCTS(bl,im{a})'\nparams:\n"
        "  a: {low: 0, high: 1, start: 0.5}\nbudget: {sims: 5}\ngames: 8\nmethod: spsa\n"
        "spsa: {batch: 2}\nconfirm: {games: 2, sprt: {elo0: 0, elo1: 100}}\n")
WAIT = 90.0


def _line(proc: subprocess.Popen, timeout: float) -> str:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    return proc.stdout.readline() if ready else ""


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(url, results root, the running `arena run`): the server over the root described in
    the module docstring."""
    if MISSING:
        pytest.fail(f"{MISSING}: CI must run the browser tests (make test installs them)")
    base = tmp_path_factory.mktemp("site")
    root = base / "results"
    exp = config.loads(HEX, players=importlib.import_module("mcts_arena.players"))
    run_experiment(exp, plan_mod.make_plan(exp), root / "hex", workers=1, progress=False)
    exp = config.loads(DICE, players=importlib.import_module("mcts_arena.players"))
    run_experiment(exp, plan_mod.make_plan(exp), root / "dice", workers=1, progress=False)
    mp = pytest.MonkeyPatch()
    try:
        mp.chdir(base)                  # the tournament writes results/tournament-fet-tictactoe
        res = CliRunner().invoke(cli, ["tournament", "fet", "--game", "tictactoe", "--sims",
                                       "10", "--games", "2", "--jobs", "1", "--quiet"])
        assert res.exit_code == 0, res.output
        (base / "tune.yaml").write_text(TUNE)
        res = CliRunner().invoke(cli, ["tune", "tune.yaml", "--jobs", "1", "--quiet"])
        assert res.exit_code == 0, res.output
    finally:
        mp.undo()
    (base / "alpha.yaml").write_text(RUNNING)
    env = {k: v for k, v in os.environ.items() if k != config.PLAYERS_ENV}
    # at the lowest priority: the run only has to be playing, and it would otherwise take a
    # whole core from the rest of the suite for as long as it plays
    run = subprocess.Popen([sys.executable, "-m", "mcts_arena", "run", "alpha.yaml", "--out",
                            str(root / "alpha"), "--jobs", "1", "--quiet"], cwd=base, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           preexec_fn=lambda: os.nice(19))
    server = subprocess.Popen([sys.executable, "-m", "mcts_arena", "serve", str(root),
                               "--port", "0"], cwd=base, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = _line(server, 60)
        assert "open http://127.0.0.1:" in line, line + server.stderr.read()
        url = line.split("open ", 1)[1].split()[0].rstrip("/")
        assert wait_for(lambda: stored(root / "alpha" / DB_NAME) >= 3, WAIT)
        yield url, root, run
    finally:
        _stop(run)
        _stop(server)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_missing(paths=True)
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1100", "--hide-scrollbars"):
        opts.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver), options=opts)
    d.set_page_load_timeout(60)
    yield d
    d.quit()


def until(d, script: str, timeout: float = WAIT):
    """The first truthy value of `script` (JavaScript returning a value) within `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = d.execute_script(script)
        if v:
            return v
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s: {script}")


def shot(d, tmp_path_factory, name: str) -> Path:
    return save_screenshot(d, tmp_path_factory.getbasetemp() / f"serve-{name}.png")


IMAGES_LOADED = ("const i = [...document.images]; return i.length && i.every(x => x.complete && "
                 "x.naturalWidth > 0) ? i.map(x => x.alt) : null;")
GAMES_STORED = ("const c = [...document.querySelectorAll('#standings td.games')]; return c.length "
                "? c.reduce((s, x) => s + parseInt(x.textContent), 0) : null;")


def test_index_shows_each_experiment_and_its_state(site, browser, tmp_path_factory):
    url, _, _ = site
    browser.get(url + "/")
    states = until(browser, "const r = [...document.querySelectorAll('tr[data-id]')]; return "
                            "r.length === 5 ? Object.fromEntries(r.map(x => [x.dataset.id, "
                            "x.querySelector('.badge').textContent])) : null;")
    assert states == {"alpha": "running", "dice": "finished", "hex": "finished",
                      "tournament-fet-tictactoe": "finished", "tune": "finished"}
    shot(browser, tmp_path_factory, "index")


def test_standings_change_as_games_are_stored_and_every_picture_loads(site, browser,
                                                                       tmp_path_factory):
    url, root, run = site
    browser.get(url + "/experiment?id=alpha")
    first = until(browser, GAMES_STORED)
    assert 0 < first < 300
    assert run.poll() is None, "the run ended before the page was read"
    on_page = []
    assert wait_for(lambda: on_page.append(browser.execute_script(GAMES_STORED) or 0)
                    or on_page[-1] > first, WAIT), "the standings did not change"
    later = on_page[-1]
    assert later > first
    assert stored(root / "alpha" / DB_NAME) >= later
    head = browser.execute_script("return document.querySelector('#standings thead').textContent")
    assert "score % [95% CI]" in head and "Elo" in head and "paper" in head
    alts = until(browser, IMAGES_LOADED)
    assert len(alts) == 3 and any("win % per pairing" in a for a in alts)
    assert any("Elo ladder" in a for a in alts) and any("MCTS(bl,imα)" in a for a in alts)
    shot(browser, tmp_path_factory, "experiment")


# Stopping the run comes right after the two tests that need it playing: the tests below read
# stored games only, and a run left playing would take a core from the rest of the suite.
def test_a_stopped_run_reads_as_interrupted(site, browser):
    url, _, run = site
    _stop(run)
    assert run.returncode == 130
    browser.get(url + "/")
    until(browser, "const b = document.querySelector('tr[data-id=\"alpha\"] .badge'); "
                   "return b && b.textContent === 'interrupted';", 30)


# the page itself never scrolls sideways; a wide table scrolls inside its box and no cell wraps
FITS = ("const s = [...document.querySelectorAll('#standings td')]; if (!s.length) return null;"
        "const wraps = s.filter(td => { const c = getComputedStyle(td); return td.clientHeight -"
        " parseFloat(c.paddingTop) - parseFloat(c.paddingBottom) > 1.5 * parseFloat("
        "c.lineHeight); }).map(td => td.textContent);"
        "return {page: document.documentElement.scrollWidth <= window.innerWidth + 1, wraps};")


@pytest.mark.parametrize("width", [1280, 390])     # a laptop and a phone
def test_the_standings_fit_at_a_laptops_and_a_phones_width(site, browser, tmp_path_factory,
                                                           width):
    url, _, _ = site
    browser.set_window_size(width, 900)
    try:
        browser.get(url + "/experiment?id=alpha")
        fits = until(browser, FITS)
        assert fits["page"] and not fits["wraps"], fits
        browser.get(url + "/")
        index = until(browser, "const r = document.querySelectorAll('tr[data-id] td.budget');"
                               " return r.length ? [...r].map(x => x.textContent) : null;")
        assert "150 sims" in index and "30 sims" in index
        assert browser.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1")
        shot(browser, tmp_path_factory, f"index-{width}")
        browser.get(url + "/experiment?id=alpha")
        until(browser, FITS)
        shot(browser, tmp_path_factory, f"standings-{width}")
    finally:
        browser.set_window_size(1400, 1100)


def test_the_tournament_bracket_loads(site, browser):
    url, _, _ = site
    browser.get(url + "/experiment?id=tournament-fet-tictactoe")
    alts = until(browser, IMAGES_LOADED)
    assert any("elimination bracket" in a for a in alts)
    assert "Winner:" in until(browser, "const p = document.querySelector('#tournament pre'); "
                                       "return p && p.textContent;")


def test_a_tune_shows_its_panel_and_path(site, browser, tmp_path_factory):
    url, _, _ = site
    browser.get(url + "/")
    assert "(tune: spsa)" in until(browser, "const r = document.querySelector("
                                            "'tr[data-id=\"tune\"]'); return r && r.textContent;")
    browser.get(url + "/experiment?id=tune")
    panel = until(browser, "const t = document.querySelector('#tune h2'); "
                           "return t && document.getElementById('tune').textContent;")
    assert panel.startswith("Tune (spsa)") and "value found a " in panel
    assert "confirmation MCTS(bl,im" in panel and "2 of 2 games" in panel
    assert "SPRT SPRT: no decision after 2 games (LLR " in panel
    assert "undecided at the cap" in panel and "LLR bounds -2.94, 2.94; at most 2 games" in panel
    alts = until(browser, IMAGES_LOADED)
    assert alts == ["tune: path of the parameters"]
    assert browser.execute_script("return document.getElementById('standings-head').hidden")
    shot(browser, tmp_path_factory, "tune")


def _step_through(d, tmp_path_factory, name: str) -> None:
    """Arrow keys, the buttons and End through the game open in `d`: the board follows."""
    total = until(d, "return window.document.querySelectorAll('#moves tbody tr').length - 1;")
    assert total > 3
    board = "const b = document.getElementById('board'); return b.complete && b.naturalWidth " \
            "> 0 && new URL(b.src).searchParams.get('ply') === '{}' && b.src;"
    first = until(d, board.format(0))
    body = d.find_element("css selector", "body")
    for ply in (1, 2, 3):
        body.send_keys("\ue014")                        # ArrowRight
        until(d, board.format(ply))
    d.find_element("id", "prev").click()
    until(d, board.format(2))
    d.find_element("id", "last").click()
    last = until(d, board.format(total))
    assert last != first
    assert d.execute_script("return document.getElementById('where').dataset.ply") == str(total)
    sel = d.execute_script("return document.querySelector('#moves tr.sel').dataset.ply")
    assert sel == str(total)
    body.send_keys("\ue011")                            # Home
    until(d, board.format(0))
    body.send_keys("\ue014")
    until(d, board.format(1))
    shot(d, tmp_path_factory, f"viewer-{name}")


def test_viewer_steps_through_a_breakthrough_game_from_the_standings(site, browser,
                                                                      tmp_path_factory):
    url, _, _ = site
    browser.get(url + "/experiment?id=alpha")
    until(browser, GAMES_STORED)
    browser.find_element("css selector", "#standings a.games-link").click()
    link = until(browser, "const a = document.querySelector('#games a.view'); return a && a.href;")
    browser.get(link)
    until(browser, "return document.getElementById('players').textContent.includes("
                   "'breakthrough');")
    _step_through(browser, tmp_path_factory, "breakthrough")


def test_viewer_steps_through_a_hex_game(site, browser, tmp_path_factory):
    url, _, _ = site
    browser.get(url + "/experiment?id=hex")
    until(browser, GAMES_STORED)
    browser.find_element("css selector", "#standings a.games-link").click()
    browser.get(until(browser, "const a = document.querySelector('#games a.view'); "
                               "return a && a.href;"))
    until(browser, "return document.getElementById('players').textContent.includes('hex');")
    _step_through(browser, tmp_path_factory, "hex")


def test_viewer_steps_through_a_backgammon_game_and_its_dice(site, browser, tmp_path_factory):
    url, _, _ = site
    browser.get(url + "/experiment?id=dice")
    until(browser, GAMES_STORED)
    browser.find_element("css selector", "#standings a.games-link").click()
    browser.get(until(browser, "const a = document.querySelector('#games a.view'); "
                               "return a && a.href;"))
    until(browser, "return document.getElementById('players').textContent.includes("
                   "'backgammon');")
    # ply 1 is the opening roll: a row of the dice, not of a seat
    assert browser.execute_script("return document.querySelector('#moves tr[data-ply=\"1\"]')"
                                  ".cells[1].textContent") == "dice"
    _step_through(browser, tmp_path_factory, "backgammon")
    browser.find_element("css selector", "#moves tr[data-ply='1']").click()
    assert "the dice rolled" in until(browser, "const w = document.getElementById('where'); "
                                               "return w.dataset.ply === '1' && w.textContent;")
