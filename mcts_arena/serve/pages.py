"""The three HTML pages of arena serve: one shell (title, the shared style and script, the page's
own script) around each page's body. The pages are only this skeleton; what they show is drawn
by static/<page>.js from the JSON API. Kept as Python text, not as .html files, so the one head
is written once and the package's static/ holds only the script and style the shell links."""
from __future__ import annotations

_SHELL = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/style.css">
<script src="/static/arena.js" defer></script>
<script src="/static/{script}.js" defer></script>
</head>
<body>
{body}
</body>
</html>
"""

_BODIES = {
    "index": ("arena serve", """\
<header><h1>arena serve</h1>
<div class="sub"><span id="root"></span><span id="status"></span></div></header>
<main>
<div id="experiments-box"><table id="experiments"><tbody><tr><td>loading…</td></tr></tbody>
</table></div>
</main>"""),
    "experiment": ("arena serve: experiment", """\
<header><h1><a href="/">arena serve</a> / <span id="name"></span></h1>
<div class="sub"><span id="where"></span><span id="status"></span></div></header>
<main>
<div id="facts" class="facts"></div>
<div id="tune"></div>
<h2 id="standings-head">Standings</h2>
<div id="standings">loading…</div>
<div id="notes" class="facts"></div>
<h2 id="pictures-head">Pictures</h2>
<div id="pictures" class="pictures"></div>
<div id="tournament"></div>
<h2 id="games-head" hidden>Games</h2>
<div id="games"></div>
</main>"""),
    "game": ("arena serve: game", """\
<header><h1><a href="/">arena serve</a> / <a id="back"></a> / <span id="name"></span></h1>
<div class="sub"><span id="players"></span><span id="status"></span></div></header>
<main>
<div id="facts" class="facts"></div>
<div class="viewer">
  <div>
    <div class="board"><img id="board" alt="board"></div>
    <div class="controls">
      <button id="first" title="start (Home)">|◀</button>
      <button id="prev" title="back (←)">◀</button>
      <button id="play" title="play / pause (space)">play</button>
      <button id="next" title="forward (→)">▶</button>
      <button id="last" title="end (End)">▶|</button>
      <input id="slider" type="range" min="0" value="0">
    </div>
    <div id="where" class="facts"></div>
  </div>
  <div class="moves"><table id="moves"></table></div>
</div>
</main>"""),
}

PAGES = tuple(_BODIES)


def page_html(name: str) -> str:
    """The page `name` (one of PAGES) as served."""
    title, body = _BODIES[name]
    return _SHELL.format(title=title, script=name, body=body)
