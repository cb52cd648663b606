#!/usr/bin/env python3
"""Check an `arena report --format html` page in a real headless browser (Chromium).

    python tools/check_report_html.py results/x/report/report.html [--screenshot shot.png]

What it checks: the page loads and renders in Chromium, and every <img> on it loaded and
decoded (`complete` and `naturalWidth > 0`). How: it copies the page to a temporary file with
one <script> added at the end which, on the window's `load` event, writes the result into a
marker element; `chromium --headless --dump-dom` prints the DOM after loading and the marker
is read back. The page under test is otherwise byte-for-byte the report. `--screenshot` also
saves a full-page PNG to look at.

Exit status 0 and a line `ok: N images loaded` when all is well; 1 with the reason otherwise;
77 (the "skipped" code of automake-style test drivers) when no Chromium is installed.
Install one with `apt-get install chromium` (Debian) or set CHROMIUM=/path/to/chrome.

Used by tests/test_report_browser.py (skipped where no Chromium is installed).
"""
from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_PROBE = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                .map(function (i) { return i.alt || i.src.slice(0, 60); });
  var out = {images: imgs.length, broken: bad, width: document.body.scrollWidth,
             height: document.body.scrollHeight, tables: document.querySelectorAll("table").length,
             title: document.title};
  var m = document.createElement("pre");
  m.id = "arena-browser-check";
  m.textContent = "ARENA-CHECK " + JSON.stringify(out) + " ARENA-END";
  document.body.appendChild(m);
});
</script>"""
_MARK = re.compile(r'<pre id="arena-browser-check">ARENA-CHECK (.*?) ARENA-END</pre>', re.S)


def find_browser() -> str | None:
    """The Chromium executable: $CHROMIUM, else the first of BROWSERS on the PATH."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env if shutil.which(env) or Path(env).exists() else None
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _flags(browser: str, tmp: str) -> list[str]:
    return [browser, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
            "--disable-dev-shm-usage", f"--user-data-dir={tmp}/profile",
            "--virtual-time-budget=15000", "--hide-scrollbars"]


def check(page: str | Path, screenshot: str | Path | None = None, browser: str | None = None,
          timeout: float = 120.0) -> dict:
    """Load `page` in headless Chromium; return the probe's result
    {"images", "broken" (alt texts), "width", "height", "tables", "title"}.
    Raises FileNotFoundError without a browser, RuntimeError when the page did not render."""
    browser = browser or find_browser()
    if browser is None:
        raise FileNotFoundError("no Chromium found (apt-get install chromium, or set CHROMIUM)")
    text = Path(page).read_text(encoding="utf-8")
    probed = text.replace("</body>", _PROBE + "</body>") if "</body>" in text \
        else text + _PROBE
    with tempfile.TemporaryDirectory(prefix="arena-html-") as tmp:
        copy = Path(tmp) / "page.html"
        copy.write_text(probed, encoding="utf-8")
        url = copy.resolve().as_uri()
        proc = subprocess.run(_flags(browser, tmp) + ["--dump-dom", url], capture_output=True,
                              text=True, timeout=timeout)
        m = _MARK.search(proc.stdout)
        if not m:
            raise RuntimeError(f"the page did not render in {browser} (exit {proc.returncode}):"
                               f" {proc.stderr.strip().splitlines()[-1:]}")
        result = json.loads(html.unescape(m.group(1)))
        if screenshot:
            h = max(600, min(int(result.get("height") or 2000) + 100, 16000))
            w = max(1000, min(int(result.get("width") or 1200) + 50, 4000))
            shot = Path(screenshot).resolve()
            shot.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(_flags(browser, tmp) + [f"--screenshot={shot}",
                                                   f"--window-size={w},{h}", url],
                           capture_output=True, text=True, timeout=timeout)
            result["screenshot"] = str(shot) if shot.exists() else None
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page", help="the report.html to check")
    ap.add_argument("--screenshot", help="also save a full-page screenshot (PNG) here")
    ap.add_argument("--min-images", type=int, default=1,
                    help="fail when the page has fewer images than this [1]")
    args = ap.parse_args(argv)
    try:
        r = check(args.page, args.screenshot)
    except FileNotFoundError as e:
        print(f"skipped: {e}")
        return SKIP
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"error: {e}")
        return 1
    if r["broken"]:
        print(f"error: {len(r['broken'])} of {r['images']} images did not load: "
              f"{', '.join(r['broken'])}")
        return 1
    if r["images"] < args.min_images:
        print(f"error: {r['images']} images on the page, expected at least {args.min_images}")
        return 1
    print(f"ok: {r['images']} images loaded, {r['tables']} tables, page "
          f"{r['width']}x{r['height']} px" + (f"; screenshot {r['screenshot']}"
                                              if r.get("screenshot") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
