"""Boards as SVG, for the game viewer of `arena serve`: the small builder every game's `draw`
hook uses, and the layouts several games share.

Each game declares how a position is drawn with one hook in its own file,
`GameInfo.draw(state, last=None) -> str`: an SVG document of the position `state`, `last` being
`(seat, move id)` of the move that led to it (marked on the board) or None. The result is plain
SVG text (no script, no external reference), so a browser shows it in an `<img>` and a test
can parse it as XML. Framework-free on purpose: the games know nothing of the web server.

Shared layouts: `square_board` (8x8 piece games: Breakthrough, LOA), `stone_grid` (stones on
the intersections of an n x n grid: Gomoku). Hex, Kalah, tic-tac-toe, Pig and
backgammon draw their own with `Svg`.
"""
from __future__ import annotations

from html import escape

FILES = "abcdefghijklmnopqrs"
LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
BLACK_STONE = "#222222"
WHITE_STONE = "#fafafa"
MARK = "#d62728"            # the last move
LABEL = "#555555"


def _n(x: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros (keeps the SVG small)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


class Svg:
    """An SVG document built from a few shapes; `str(svg)` is the document. Coordinates are
    user units of the viewBox (0, 0, width, height); text is escaped."""

    def __init__(self, width: float, height: float, title: str = ""):
        self.width, self.height = width, height
        self.items: list[str] = []
        if title:
            self.items.append(f"<title>{escape(title)}</title>")

    def add(self, tag: str, body: str | None = None, **attrs) -> None:
        """One element: `tag` with `attrs` (None left out; `stroke_width` is written
        `stroke-width`; numbers rounded to two decimals) and an optional text body."""
        parts = []
        for k, v in attrs.items():
            if v is None:
                continue
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = _n(float(v))
            parts.append(f'{k.replace("_", "-")}="{escape(str(v))}"')
        a = " ".join(parts)
        self.items.append(f"<{tag} {a}/>" if body is None
                          else f"<{tag} {a}>{escape(str(body))}</{tag}>")

    def rect(self, x, y, w, h, fill, **style) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, fill=fill, **style)

    def circle(self, cx, cy, r, fill, **style) -> None:
        self.add("circle", cx=cx, cy=cy, r=r, fill=fill, **style)

    def line(self, x1, y1, x2, y2, stroke, stroke_width=1.0) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=stroke_width)

    def polygon(self, points, fill, **style) -> None:
        self.add("polygon", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in points), fill=fill,
                 **style)

    def text(self, x, y, s, size=12, fill=LABEL, anchor="middle", **style) -> None:
        self.add("text", s, x=x, y=y, font_size=size, fill=fill, text_anchor=anchor,
                 dominant_baseline="central", font_family="sans-serif", **style)

    def __str__(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(self.width)} '
                f'{_n(self.height)}" width="{_n(self.width)}" height="{_n(self.height)}">')
        return head + "".join(self.items) + "</svg>"


def ranks_of(text: str) -> tuple[list[str], str]:
    """(rows as written, side word) of a text form `row/row/.../row SIDE [RULE]`."""
    parts = text.split()
    return parts[0].split("/"), parts[1]


def square_board(ranks: list[str], colours: dict[str, tuple[str, str]], last_squares=(),
                 title: str = "") -> str:
    """An 8x8 board, rank 8 at the top: `ranks` as the FEN-like text writes them (rank 8 first),
    `colours` maps a piece character to (fill, outline); `last_squares` are square indices
    (row * 8 + col, row 0 = rank 1) framed in red (the last move's from and to)."""
    cell, margin = 40, 20
    n = len(ranks)
    svg = Svg(margin + n * cell + 4, n * cell + margin + 4, title)
    for i, rank in enumerate(ranks):
        row = n - 1 - i
        for col, ch in enumerate(rank):
            x, y = margin + col * cell, i * cell + 2
            svg.rect(x, y, cell, cell, DARK_SQUARE if (row + col) % 2 == 0 else LIGHT_SQUARE)
            if ch in colours:
                fill, outline = colours[ch]
                svg.circle(x + cell / 2, y + cell / 2, cell * 0.36, fill, stroke=outline,
                           stroke_width=1.5)
        svg.text(margin / 2, i * cell + 2 + cell / 2, row + 1, size=11)
    for sq in last_squares:
        row, col = divmod(sq, n)
        svg.rect(margin + col * cell + 1.5, (n - 1 - row) * cell + 3.5, cell - 3, cell - 3,
                 "none", stroke=MARK, stroke_width=3)
    for col in range(n):
        svg.text(margin + col * cell + cell / 2, n * cell + 2 + margin / 2, FILES[col], size=11)
    return str(svg)


def stone_grid(rows: list[str], last_cell: int | None = None, title: str = "") -> str:
    """Stones on the intersections of an n x n grid (Gomoku, like a Go board): `rows` as the
    grid text writes them (row 1 first, drawn at the bottom), `x` black, `o` white; the stone of
    `last_cell` (row * n + col) gets a red dot."""
    n = len(rows)
    step, margin = 28, 34
    size = margin * 2 + (n - 1) * step
    svg = Svg(size, size, title)
    svg.rect(0, 0, size, size, "#dcb35c")

    def at(r, c):           # row 0 (row 1) at the bottom
        return margin + c * step, margin + (n - 1 - r) * step
    for i in range(n):
        x0, y0 = at(i, 0)
        x1, _ = at(i, n - 1)
        svg.line(x0, y0, x1, y0, "#5a4a2a", 1)
        x, y_bottom = at(0, i)
        _, y_top = at(n - 1, i)
        svg.line(x, y_top, x, y_bottom, "#5a4a2a", 1)
        svg.text(x, size - margin / 3, FILES[i], size=10)
        svg.text(margin / 3, y0, i + 1, size=10)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "xo":
                x, y = at(r, c)
                svg.circle(x, y, step * 0.44, BLACK_STONE if ch == "x" else WHITE_STONE,
                           stroke="#111111", stroke_width=1)
    if last_cell is not None and 0 <= last_cell < n * n:
        x, y = at(*divmod(last_cell, n))
        svg.circle(x, y, step * 0.14, MARK)
    return str(svg)
