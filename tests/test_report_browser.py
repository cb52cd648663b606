"""The HTML report in a real headless browser (tools/check_report_html.py): it renders and every
picture loads; a page with a broken picture is caught. Skipped where no Chromium is installed
(`apt-get install chromium`, or set CHROMIUM=/path/to/chrome), but not under CI."""
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_report_html.py"
SWEEP = ("name: sw\ngame: tictactoe\nbudget: {sims: 10}\ngames: 4\nseed: 5\nmatches:\n"
         "  - sweep: {player: 'MCTS(im{a})', opponent: 'MCTS', a: [0.0, 0.5, 1.0]}\n")


def _browser():
    spec = importlib.util.spec_from_file_location("check_report_html", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.find_browser()


# Skipped where no Chromium is installed, except under CI (CI=true), where `make test` installs
# it: there a missing browser is a failure, not a skip.
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(_browser() is None and not os.environ.get("CI"),
                                 reason="no Chromium installed (apt-get install chromium): the "
                                 "HTML report is not checked in a browser here")]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The html report of a small tictactoe α sweep (played once for the module; the tests
    only read it)."""
    base = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(base)
        exp = config.loads(SWEEP, players=importlib.import_module("mcts_arena.players"))
        run_experiment(exp, plan_mod.make_plan(exp), base / "sw", workers=1, progress=False)
        res = CliRunner().invoke(cli, ["report", str(base / "sw"), "--format", "html",
                                       "--compare", "paper", "--out", str(base / "page")])
    assert res.exit_code == 0, res.output
    return base / "page" / "report.html"


def _check(page, *args):
    return subprocess.run([sys.executable, str(TOOL), str(page), *args], capture_output=True,
                          text=True, timeout=300)


def test_html_report_renders_and_every_image_loads(tmp_path, page):
    assert _browser() is not None, "no Chromium: CI must run the browser tests (make test " \
                                   "installs it)"
    n = page.read_text().count("<img ")
    assert n == 3                     # forest plot, the sweep, the Bradley–Terry ladder
    r = _check(page, "--screenshot", str(tmp_path / "shot.png"), "--min-images", str(n))
    assert r.returncode == 0, r.stdout + r.stderr
    # the pairings, their seat-swapped pairs, the ratings
    assert r.stdout.startswith(f"ok: {n} images loaded, 3 tables")
    assert (tmp_path / "shot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # the check can fail: one picture's data cut short, another's made garbage
    text = page.read_text()
    i = text.index("data:image/png;base64,") + len("data:image/png;base64,")
    bad = tmp_path / "bad.html"
    bad.write_text(text[:i] + "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB" + text[i + 4000:])
    r = _check(bad)
    assert r.returncode == 1 and f"1 of {n} images did not load" in r.stdout, r.stdout


# the page never scrolls sideways, no table cell wraps (a wide table scrolls inside its box),
# and a phone lays the page out at its own width (no 980 px desktop viewport shrunk to fit)
FITS = ("const s = [...document.querySelectorAll('td')]; if (!s.length) return null;"
        "const wraps = s.filter(td => { const c = getComputedStyle(td); return td.clientHeight -"
        " parseFloat(c.paddingTop) - parseFloat(c.paddingBottom) > 1.5 * parseFloat("
        "c.lineHeight); }).map(td => td.textContent);"
        "return {page: document.documentElement.scrollWidth <= window.innerWidth + 1, wraps,"
        " viewport: document.documentElement.clientWidth, tables: document.querySelectorAll("
        "'.scroll > table').length};")


@pytest.mark.parametrize("width", [1280, 390])     # a laptop and a phone
def test_html_report_fits_a_laptops_and_a_phones_width(tmp_path, page, width):
    from helpers import browser_missing, save_screenshot
    missing = browser_missing(selenium=True)
    if missing and not os.environ.get("CI"):
        pytest.skip(f"{missing}: the report's layout is not checked in a browser here")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_missing(paths=True)
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars"):
        opts.add_argument(arg)
    if width < 500:      # a phone: its width in CSS pixels, and pages laid out for a phone
        opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": width, "height": 844, "pixelRatio": 1.0, "mobile": True, "touch": True}})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        if width >= 500:
            d.set_window_size(width, 900)
        d.get(page.resolve().as_uri())
        fits = d.execute_script(FITS)
        assert fits["viewport"] == width, fits
        assert fits["page"] and not fits["wraps"] and fits["tables"] == 3, fits
        save_screenshot(d, tmp_path / f"report-{width}.png")
    finally:
        d.quit()
