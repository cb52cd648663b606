"""Deliberately simple reference rules (dicts and lists, full scans, no incremental state),
one small class per game, written from the rules in each game's module docstring.

The conformance harness (test_game_conformance.py) checks the game cores' perft counts against
tests/data/perft.json, and that file against these generators, so an error in a fast core and a
wrong number in the data file cannot agree by accident. A new game adds a class here and
registers it in REFERENCE under its registry name.

Each reference reads the core's own text form and exposes `moves(pos)` (successor positions,
one per legal move) and `over(pos)` (is the game finished?). A game with chance nodes also
exposes `chance(pos)`: [(successor, probability)] of the dice at a chance node, None at a
position where a player moves (`moves` lists a chance node's successors too, so plain perft
counts every outcome as a branch, as GameState.perft does).
"""
from __future__ import annotations

FILES = "abcdefgh"


def perft(ref, pos, depth: int) -> int:
    """Leaves of the move tree, counted the way GameState.perft counts them: a finished game
    has no moves, and the last ply is counted without looking at the children."""
    if depth == 0:
        return 1
    if ref.over(pos):
        return 0
    succ = ref.moves(pos)
    if depth == 1:
        return len(succ)
    return sum(perft(ref, s, depth - 1) for s in succ)


def perft_weighted(ref, pos, depth: int) -> float:
    """perft with every chance outcome weighted by its probability (GameState.perft_weighted):
    the expected number of leaves."""
    if depth == 0:
        return 1.0
    if ref.over(pos):
        return 0.0
    dice = ref.chance(pos)
    if dice is not None:
        return sum(p * perft_weighted(ref, s, depth - 1) for s, p in dice)
    succ = ref.moves(pos)
    if depth == 1:
        return float(len(succ))
    return sum(perft_weighted(ref, s, depth - 1) for s in succ)


def _ranks(text: str, chars: str):
    """{(row, col): owner} and the side of a FEN-like text `rank8/.../rank1 side`; chars are
    the piece letters of player 0 and player 1."""
    ranks, side = text.split()
    rows = ranks.split("/")
    grid = {}
    for i, rank in enumerate(rows):
        for c, ch in enumerate(rank):
            if ch != ".":
                grid[(len(rows) - 1 - i, c)] = chars.index(ch)
    return grid, len(rows), side


class Breakthrough:
    def start(self, params, text):
        grid, _, side = _ranks(text, "wb")
        return grid, "wb".index(side), None     # winner None: still going

    def over(self, pos):
        return pos[2] is not None

    def moves(self, pos):
        grid, p, _ = pos
        fwd = 1 if p == 0 else -1
        far = 7 if p == 0 else 0
        out = []
        for (r, c), owner in list(grid.items()):
            if owner != p:
                continue
            for dc in (-1, 0, 1):
                to = (r + fwd, c + dc)
                if not (0 <= to[0] < 8 and 0 <= to[1] < 8):
                    continue
                there = grid.get(to)
                if there == p or (dc == 0 and there is not None):
                    continue
                g = dict(grid)
                del g[(r, c)]
                g[to] = p
                won = to[0] == far or not any(o == 1 - p for o in g.values())
                out.append((g, 1 - p, p if won else None))
        return out


class Kalah:
    """Pits 0-5 player 0's houses, 6 its store, 7-12 player 1's houses, 13 its store."""

    def start(self, params, text):
        halves, side = text.split()
        b = [int(x) for half in halves.split("/") for x in half.split(",")]
        return self._settle(b, int(side))

    @staticmethod
    def _settle(b, p):
        if sum(b[0:6]) == 0 or sum(b[7:13]) == 0:
            return b, p, True
        return b, p, False

    def over(self, pos):
        return pos[2]

    def moves(self, pos):
        b, p, _ = pos
        out = []
        for h in range(6):
            i = 7 * p + h
            if b[i] == 0:
                continue
            nb = list(b)
            stones, nb[i] = nb[i], 0
            j = i
            while stones:
                j = (j + 1) % 14
                if j == (13 if p == 0 else 6):
                    continue
                nb[j] += 1
                stones -= 1
            own_store = 6 if p == 0 else 13
            if j != own_store and 7 * p <= j < 7 * p + 6 and nb[j] == 1 and nb[12 - j] > 0:
                nb[own_store] += nb[j] + nb[12 - j]
                nb[j] = nb[12 - j] = 0
            nxt = p if j == own_store else 1 - p
            out.append(self._settle(nb, nxt))
        return out


class TicTacToe:
    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]

    def start(self, params, text):
        grid, _, side = _ranks(text, "xo")
        cells = [grid.get((r, c)) for r in range(3) for c in range(3)]
        return cells, "xo".index(side)

    def over(self, pos):
        cells = pos[0]
        if any(cells[a] is not None and cells[a] == cells[b] == cells[c]
               for a, b, c in self.LINES):
            return True
        return all(x is not None for x in cells)

    def moves(self, pos):
        cells, p = pos
        out = []
        for i in range(9):
            if cells[i] is None:
                nc = list(cells)
                nc[i] = p
                out.append((nc, 1 - p))
        return out


class LinesOfAction:
    """Repetition draws are ignored: perft from a position read from text has no history."""

    DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)]

    def start(self, params, text):
        grid, _, side = _ranks(text, "bw")
        return grid, "bw".index(side), False

    def over(self, pos):
        return pos[2]

    @staticmethod
    def connected(grid, p):
        pcs = {sq for sq, o in grid.items() if o == p}
        if not pcs:
            return True
        start = next(iter(pcs))
        seen, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    n = (r + dr, c + dc)
                    if n in pcs and n not in seen:
                        seen.add(n)
                        stack.append(n)
        return len(seen) == len(pcs)

    def _targets(self, grid, p):
        out = []
        for (r, c), owner in grid.items():
            if owner != p:
                continue
            for dr, dc in self.DIRS:
                k = sum((r + s * dr, c + s * dc) in grid for s in range(-7, 8))
                tr, tc = r + k * dr, c + k * dc
                if not (0 <= tr < 8 and 0 <= tc < 8):
                    continue
                if any(grid.get((r + i * dr, c + i * dc)) == 1 - p for i in range(1, k)):
                    continue
                if grid.get((tr, tc)) == p:
                    continue
                out.append(((r, c), (tr, tc)))
        return out

    def moves(self, pos):
        grid, p, _ = pos
        out = []
        for fr, to in self._targets(grid, p):
            g = dict(grid)
            del g[fr]
            g[to] = p
            over = (self.connected(g, p) or self.connected(g, 1 - p)
                    or not self._targets(g, 1 - p))
            out.append((g, 1 - p, over))
        return out


#: registry name -> reference rules

class Hex:
    """Cells as a tuple row by row ('x', 'o', None); a winner from scratch by breadth-first
    search; the swap rule: White's first move may mirror Black's lone stone into White's."""

    def start(self, params, text):
        parts = text.split()
        rows = parts[0].split("/")
        n = len(rows)
        cells = tuple(None if ch == "." else ch for row in rows for ch in row)
        return cells, parts[1], n, len(parts) == 3 or bool(params.get("swap"))

    @staticmethod
    def connected(cells, n, colour):
        start = [c for c in range(n) if cells[c] == "x"] if colour == "x" else \
            [r * n for r in range(n) if cells[r * n] == "o"]
        seen, todo = set(start), list(start)
        while todo:
            x = todo.pop()
            r, c = divmod(x, n)
            if (colour == "x" and r == n - 1) or (colour == "o" and c == n - 1):
                return True
            for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
                rr, cc = r + dr, c + dc
                y = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and y not in seen and cells[y] == colour:
                    seen.add(y)
                    todo.append(y)
        return False

    def over(self, pos):
        cells, _, n, _ = pos
        return self.connected(cells, n, "x") or self.connected(cells, n, "o")

    def moves(self, pos):
        cells, side, n, swap = pos
        other = "o" if side == "x" else "x"
        out = [(cells[:i] + (side,) + cells[i + 1:], other, n, swap)
               for i in range(n * n) if cells[i] is None]
        stones = [i for i in range(n * n) if cells[i] is not None]
        if swap and side == "o" and len(stones) == 1 and cells[stones[0]] == "x":
            r, c = divmod(stones[0], n)
            mirrored = [None] * (n * n)
            mirrored[c * n + r] = "o"
            out.append((tuple(mirrored), "x", n, swap))
        return out

class Gomoku:
    """Cells as a tuple row by row ('x', 'o', None); five from scratch by scanning every line
    of every cell; exact: a run of exactly five (freestyle: five or more); draw on a full board.
    Every empty cell is a legal move."""

    def start(self, params, text):
        parts = text.split()
        rows = parts[0].split("/")
        n = len(rows)
        cells = tuple(None if ch == "." else ch for row in rows for ch in row)
        return cells, parts[1], n, len(parts) == 3 or bool(params.get("exact"))

    @staticmethod
    def has_five(cells, n, colour, exact):
        for r in range(n):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    # only from the first stone of a run, so its whole length is measured
                    pr, pc = r - dr, c - dc
                    if 0 <= pr < n and 0 <= pc < n and cells[pr * n + pc] == colour:
                        continue
                    k, rr, cc = 0, r, c
                    while 0 <= rr < n and 0 <= cc < n and cells[rr * n + cc] == colour:
                        k, rr, cc = k + 1, rr + dr, cc + dc
                    if k == 5 or (k > 5 and not exact):
                        return True
        return False

    def over(self, pos):
        # only the side that just moved can have made five: a position where the side to move
        # had five is over already, and play never gets past it
        cells, side, n, exact = pos
        return None not in cells or self.has_five(cells, n, "o" if side == "x" else "x", exact)

    def moves(self, pos):
        cells, side, n, exact = pos
        other = "o" if side == "x" else "x"
        return [(cells[:i] + (side,) + cells[i + 1:], other, n, exact)
                for i in range(n * n) if cells[i] is None]


class Pig:
    """(scores, turn total, side, rolling?, decisions) tuples; the rules of pig.pyx's
    docstring (OpenSpiel's): roll or stop, a 1 loses the turn total, at the target only stop,
    drawn after `horizon` decisions."""

    def start(self, params, text):
        sc, turn, side, phase, dec = text.split()
        s0, s1 = (int(v) for v in sc.split(","))
        return ((s0, s1), int(turn), int(side), phase == "dice", int(dec),
                params["target"], params["sides"], params["horizon"])

    def over(self, pos):
        scores, _, _, _, dec, target, _, horizon = pos
        return max(scores) >= target or dec >= horizon

    def chance(self, pos):
        scores, turn, side, rolling, dec, target, sides, horizon = pos
        if not rolling:
            return None
        out = []
        for face in range(1, sides + 1):
            if face == 1:
                succ = (scores, 0, 1 - side, False, dec, target, sides, horizon)
            else:
                succ = (scores, turn + face, side, False, dec, target, sides, horizon)
            out.append((succ, 1 / sides))
        return out

    def moves(self, pos):
        dice = self.chance(pos)
        if dice is not None:
            return [s for s, _ in dice]
        scores, turn, side, _, dec, target, sides, horizon = pos
        banked = list(scores)
        banked[side] += turn
        stop = (tuple(banked), 0, 1 - side, False, dec + 1, target, sides, horizon)
        if scores[side] + turn >= target:
            return [stop]
        return [(scores, turn, side, True, dec + 1, target, sides, horizon), stop]


class Backgammon:
    """Each side's 26 counts in its own numbering ([off, points 1-24, bar]; x's point q is o's
    25 - q), the side to move, the dice (None at a chance node), the turns played and whether
    it is the opening roll. A turn is found by trying every order of the dice, one checker
    step at a time with a full legality check, keeping the distinct positions that use the
    most dice (and, when only one of two different numbers can be used, the larger if it
    can be)."""

    def start(self, params, text):
        sides, side, dice, turns = text.split()
        cnt = []
        for half in sides.split("/"):
            c = [0] * 26
            for item in half.split(","):
                k, v = item.split(":")
                c[{"bar": 25, "off": 0}[k] if k in ("bar", "off") else int(k)] = int(v)
            cnt.append(tuple(c))
        d = None if dice == "-" else tuple(sorted((int(dice[0]), int(dice[1])), reverse=True))
        return (cnt[0], cnt[1], 0 if side in "-x" else 1, d, int(turns), side == "-",
                params["max_turns"])

    def over(self, pos):
        x, o, _, _, turns, _, max_turns = pos
        return x[0] == 15 or o[0] == 15 or turns > max_turns

    def chance(self, pos):
        x, o, side, dice, turns, opening, mt = pos
        if dice is not None:
            return None
        out = []
        for a in range(1, 7):
            for b in range(1, 7):
                if opening:
                    if a == b:
                        continue
                    # x throws a, o throws b: the higher starts with both numbers
                    out.append(((x, o, 0 if a > b else 1, (max(a, b), min(a, b)), turns,
                                 False, mt), 1 / 30))
                else:
                    out.append(((x, o, side, (max(a, b), min(a, b)), turns, False, mt),
                                1 / 36))
        merged = {}
        for s, p in out:                # the same roll in either order is one outcome
            merged[s] = merged.get(s, 0.0) + p
        return list(merged.items())

    @staticmethod
    def step(me, op, s, d):
        """(me, op) after moving my checker on point s by d, or None when illegal."""
        if me[s] == 0 or (me[25] and s != 25):
            return None
        t = s - d
        if t >= 1:
            if op[25 - t] >= 2:
                return None
        else:
            if any(me[q] for q in range(7, 26)):
                return None                         # not all home: no bearing off
            if t < 0 and any(me[q] for q in range(s + 1, 7)):
                return None                         # larger number: highest point only
            t = 0
        me, op = list(me), list(op)
        me[s] -= 1
        me[t] += 1
        if t >= 1 and op[25 - t] == 1:
            op[25 - t] = 0
            op[25] += 1
        return tuple(me), tuple(op)

    def turns(self, me, op, dice):
        """{(me, op) after the turn: (dice used, first number used)}."""
        from itertools import permutations
        seqs = set(permutations(dice))
        found = {}

        def rec(me, op, rest, used, first):
            progressed = False
            if rest:
                for s in range(1, 26):
                    nxt = self.step(me, op, s, rest[0])
                    if nxt is not None:
                        progressed = True
                        rec(nxt[0], nxt[1], rest[1:], used + 1,
                            first if first is not None else rest[0])
            if not progressed:
                key = (me, op)
                prev = found.get(key)
                if prev is None or (used, first or 0) > (prev[0], prev[1] or 0):
                    found[key] = (used, first)
        for seq in seqs:
            rec(me, op, seq, 0, None)
        most = max(u for u, _ in found.values())
        keep = {k for k, (u, _) in found.items() if u == most}
        if most == 1 and len(set(dice)) == 2:
            big = {k for k in keep if found[k][1] == max(dice)}
            keep = big or keep
        return keep

    def moves(self, pos):
        dice = self.chance(pos)
        if dice is not None:
            return [s for s, _ in dice]
        x, o, side, d, turns, _, mt = pos
        dice4 = d * 2 if d[0] == d[1] else d
        me, op = (x, o) if side == 0 else (o, x)
        out = []
        for me2, op2 in self.turns(me, op, dice4):
            nx, no = (me2, op2) if side == 0 else (op2, me2)
            out.append((nx, no, 1 - side, None, turns + 1, False, mt))
        return out


class EinStein:
    """EinStein würfelt nicht! as a dict {(row, col): (side, number)}, the side to move, the
    phase ("setup", "roll" or "move") and the die; the rules of einstein.pyx's docstring
    (OpenSpiel's), written again from them: the die's cube or its nearest neighbours in
    number, one step towards the far corner, whatever stands there removed; reaching the far
    corner or taking the last cube wins. Arrangements are the 720 orders of 1-6 on the
    corner cells, taken in lexicographic order."""

    CORNERS = ([(r, c) for r in range(5) for c in range(5) if r + c <= 2],
               [(r, c) for r in range(5) for c in range(5) if r + c >= 6])
    STEPS = (((1, 1), (1, 0), (0, 1)), ((-1, 0), (-1, -1), (0, -1)))

    def start(self, params, text):
        rows, side, phase, die = text.split()
        board = {}
        for r, row in enumerate(rows.split("/")):
            for c in range(5):
                cell = row[2 * c: 2 * c + 2]
                if cell != "--":
                    board[(r, c)] = ("bw".index(cell[0]), int(cell[1]))
        return (tuple(sorted(board.items())), "bw".index(side), phase,
                None if die == "-" else int(die))

    def winner(self, pos):
        board, _, phase, _ = pos
        if phase == "setup":
            return None
        b = dict(board)
        sides = [s for s, _ in b.values()]
        if b.get((4, 4), (None,))[0] == 0 or 1 not in sides:
            return 0
        if b.get((0, 0), (None,))[0] == 1 or 0 not in sides:
            return 1
        return None

    def over(self, pos):
        return self.winner(pos) is not None

    def chance(self, pos):
        from itertools import permutations
        board, side, phase, _ = pos
        if phase == "move":
            return None
        if phase == "roll":
            return [((board, side, "move", f), 1 / 6) for f in range(1, 7)]
        out = []
        for order in permutations(range(1, 7)):
            b = dict(board)
            for cell, number in zip(self.CORNERS[side], order):
                b[cell] = (side, number)
            nxt = (tuple(sorted(b.items())), 1, "setup" if side == 0 else "roll", None)
            out.append((nxt, 1 / 720))
        return out

    def moves(self, pos):
        dice = self.chance(pos)
        if dice is not None:
            return [s for s, _ in dice]
        board, side, _, die = pos
        b = dict(board)
        mine = {n: cell for cell, (s, n) in b.items() if s == side}
        if die in mine:
            chosen = [die]
        else:
            lower = [n for n in mine if n < die]
            higher = [n for n in mine if n > die]
            chosen = ([max(lower)] if lower else []) + ([min(higher)] if higher else [])
        out = []
        for n in chosen:
            r, c = mine[n]
            for dr, dc in self.STEPS[side]:
                to = (r + dr, c + dc)
                if 0 <= to[0] < 5 and 0 <= to[1] < 5:
                    nb = dict(b)
                    del nb[(r, c)]
                    nb[to] = (side, n)
                    out.append((tuple(sorted(nb.items())), 1 - side, "roll", None))
        return out


class Amazons:
    """The board as a dict {(row, col): 'w' | 'b' | 'x'} (row 0 = rank 1); a move steps an
    amazon along one of the eight lines over empty squares, then shoots along one from where
    it landed, with the square it left empty; a side with no move has lost."""

    LINES = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]

    def start(self, params, text):
        ranks, side = text.split()
        rows = ranks.split("/")
        n = len(rows)
        board = {(n - 1 - i, c): ch for i, rank in enumerate(rows)
                 for c, ch in enumerate(rank) if ch != "."}
        return board, side, n

    def reach(self, board, n, r, c):
        out = []
        for dr, dc in self.LINES:
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n and (rr, cc) not in board:
                out.append((rr, cc))
                rr, cc = rr + dr, cc + dc
        return out

    def moves(self, pos):
        board, side, n = pos
        out = []
        for sq, ch in list(board.items()):
            if ch != side:
                continue
            rest = {k: v for k, v in board.items() if k != sq}
            for to in self.reach(rest, n, *sq):
                landed = {**rest, to: side}
                for arrow in self.reach(landed, n, *to):
                    out.append(({**landed, arrow: "x"}, "b" if side == "w" else "w", n))
        return out

    def over(self, pos):
        board, side, n = pos
        return not any(self.reach(board, n, *sq) for sq, ch in board.items() if ch == side)


REFERENCE = {"amazons": Amazons(), "breakthrough": Breakthrough(), "kalah": Kalah(),
             "tictactoe": TicTacToe(), "hex": Hex(), "gomoku": Gomoku(),
             "loa": LinesOfAction(), "pig": Pig(), "backgammon": Backgammon(),
             "einstein": EinStein()}
