"""A second, deliberately plain Hex: dict board, breadth-first connectivity from scratch after
every move. The tests compare the Cython core (perft, winners, text) with it; run as a script it
prints tests/data/hex_perft.txt."""
from __future__ import annotations

from collections import deque

FILES = "abcdefghijklmnopqrs"


def neighbours(n, r, c):
    for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def connected(n, board, colour):
    """Does `colour` ('x' top-bottom, 'o' left-right) connect its edges on board {(r,c): ch}?"""
    if colour == "x":
        start = [(0, c) for c in range(n) if board.get((0, c)) == "x"]
        goal = lambda rc: rc[0] == n - 1  # noqa: E731
    else:
        start = [(r, 0) for r in range(n) if board.get((r, 0)) == "o"]
        goal = lambda rc: rc[1] == n - 1  # noqa: E731
    seen = set(start)
    todo = deque(start)
    while todo:
        rc = todo.popleft()
        if goal(rc):
            return True
        for nb in neighbours(n, *rc):
            if nb not in seen and board.get(nb) == colour:
                seen.add(nb)
                todo.append(nb)
    return False


class RefHex:
    def __init__(self, n, swap=False):
        self.n, self.swap, self.board, self.side, self.history = n, swap, {}, "x", []

    @classmethod
    def from_text(cls, text):
        parts = text.split()
        rows = parts[0].split("/")
        h = cls(len(rows), swap=len(parts) == 3)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    h.board[(r, c)] = ch
        h.side = parts[1]
        return h

    def winner(self):
        for colour in "xo":
            if connected(self.n, self.board, colour):
                return colour
        return None

    def moves(self):
        if self.winner():
            return []
        out = [f"{FILES[c]}{r + 1}" for r in range(self.n) for c in range(self.n)
               if (r, c) not in self.board]
        if self.swap and self.side == "o" and list(self.board.values()) == ["x"]:
            out.append("swap")
        return out

    def play(self, move):
        self.history.append(dict(self.board))
        if move == "swap":
            (r, c), = self.board
            self.board = {(c, r): "o"}
        else:
            self.board[(int(move[1:]) - 1, FILES.index(move[0]))] = self.side
        self.side = "o" if self.side == "x" else "x"

    def undo(self):
        self.board = self.history.pop()
        self.side = "o" if self.side == "x" else "x"

    def perft(self, depth):
        if depth == 0:
            return 1
        total = 0
        for m in self.moves():
            self.play(m)
            total += self.perft(depth - 1)
            self.undo()
        return total


CASES = [
    (".../.../... x", 7),
    ("..../..../..../.... x", 4),
    ("..../..../..../.... x swap", 3),
    ("x../.o./... x", 6),
    (".x./o../.x. o", 5),
    ("...../...../...../...../..... x", 3),
    ("..x../.o.../..x../.o.o./..x.. x", 4),
]

if __name__ == "__main__":
    print("# position | depth | perft (from tests/data/hex_reference.py)")
    for text, depth in CASES:
        print(f"{text} | {depth} | {RefHex.from_text(text).perft(depth)}")
