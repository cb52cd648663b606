"""Generate the proven tactical suites of suites/: Breakthrough and LOA wins in a few
moves, Kalah endgames. Every answer comes from the exact solver (mcts_arena.players.search.prover, the one
behind `arena prove`); nothing is guessed.

    .venv/bin/python tools/make_suites.py breakthrough --seed 1 --count 12 > suites/breakthrough_tactics.txt
    .venv/bin/python tools/make_suites.py kalah --seed 1 --count 12 > suites/kalah_endgames.txt
    .venv/bin/python tools/make_suites.py loa --seed 1 --count 10 > suites/loa_tactics.txt

Candidates are late positions of uniformly random self-play games (the last plies before the
end, or for Kalah the positions with few seeds left in the houses), taken in a fixed order from
the seed, so the same command prints the same suite.

Breakthrough and LOA ("win in N"): the side to move has a forced win within N plies (N = 1, 3
or 5; the smallest N for which the solver finds one, searched with that ply limit); `best` is
every move that wins within N plies. A candidate is kept only when not every move wins and
every other move is proven by the full solver (no ply limit, within a node budget) not to win:
lost (Breakthrough has no draws; so has LOA in practice) or drawn. Positions whose other moves
the solver cannot settle within the budget are dropped, so every line is ground truth: a
correct move wins, a wrong move does not.

LOA draws a repeated position, so a position's value can depend on the path to it; there each
move is searched with its own fresh transposition table (what tests/test_suites.py repeats).
Breakthrough and Kalah positions never repeat.

Kalah (endgames): at most `--seeds-left` seeds in the houses; the full solver gives every move's
value (win, draw or loss for the mover, on the final score); `best` is every move of the best
value, kept when some move is worse.

`wrong` lists the tempting wrong move: flat Monte Carlo's choice at 1,000 simulations (seed 1)
when it is not correct (the move that looks good on average and is not), else the wrong move
with the most immediate appeal by the game's move ordering, if any.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from mcts_arena.players.search.prover import Prover

from mcts_arena import games, players

WORD = {1: "win", 0: "draw", -1: "loss"}


def random_game(game: str, rng: random.Random, max_plies: int = 2000) -> list[str]:
    s = games.new_state(game)
    moves = []
    while not s.is_terminal() and len(moves) < max_plies:
        m = rng.choice(s.moves())
        s.play(m)
        moves.append(m)
    return moves


def replay(game: str, moves: list[str]):
    s = games.new_state(game)
    for m in moves:
        s.play(m)
    # a fresh state from the text form: no history (what a suite line will load)
    return games.new_state(game, s.to_text())


def full_values(sv: Prover, s, budget: int) -> dict[int, int | None]:
    vals, _ = sv.prove_moves(s, budget, 0)
    return vals


def move_value(sv: Prover, s, m: int, budget: int, depth: int = 0) -> int | None:
    """The value of move m for the side to move in s (+1 win, 0 draw, -1 loss, None unknown)."""
    t = s.copy()
    t.play(s.format_move(m))
    if t.is_terminal():
        w = t.winner()
        return 0 if w is None else (1 if w == s.to_move() else -1)
    v = sv.prove(t, budget, depth)
    if v is None:
        return None
    return v if t.to_move() == s.to_move() else -v


def shortest_win(sv: Prover, s, depths=(1, 3, 5), budget: int = 400_000, fresh=False):
    """(N, moves winning within N plies) for the smallest N in `depths` with a forced win."""
    for d in depths:
        if d == 1:
            wins = [m for m in s.move_ids() if s.py_is_decisive(s.format_move(m))]
        elif fresh:
            wins = [m for m in s.move_ids()
                    if move_value(Prover(tt_bits=18), s, m, budget, d - 1) == 1]
        else:
            vals, _ = sv.prove_moves(s, budget, d)
            wins = [m for m, v in vals.items() if v == 1]
        if wins:
            return d, wins
    return None, []


def tempting(game: str, s, correct: set[str], wrong_pool: list[str]) -> list[str]:
    fm, _ = players.make("FlatMC", games.split(game)[0], seed=1).choose(s, sims=1000)
    fm = s.format_move(fm)
    if fm not in correct:
        return [fm]
    return []


def win_in_n_suite(game: str, seed: int, count: int, seconds: float, budget: int,
                   spread: tuple[int, ...], fresh: bool = False) -> list[str]:
    """Breakthrough/LOA lines: see the module docstring. `fresh`: each move is searched with a
    new transposition table (LOA: a repetition is a draw, so a position's value depends on the
    path to it, and a table shared between the moves' searches can carry a value across)."""
    rng = random.Random(seed)
    sv = Prover(tt_bits=20)
    per_depth = {d: 0 for d in spread}
    quota = {d: -(-count // len(spread)) for d in spread}
    out, seen = [], set()
    t0 = time.time()
    g = 0
    while len(out) < count and time.time() - t0 < seconds:
        g += 1
        hist = random_game(game, rng)
        for back in range(1, 13):
            if len(out) >= count or back >= len(hist):
                break
            s = replay(game, hist[:len(hist) - back])
            if s.is_terminal() or s.to_text() in seen:
                continue
            seen.add(s.to_text())
            d, wins = shortest_win(sv, s, spread, budget, fresh)
            if d is None or per_depth[d] >= quota[d]:
                continue
            n_moves = len(s.moves())
            if len(wins) * 3 > n_moves:       # a real choice: at most a third of the moves win
                continue
            # every other move: proven not to win, by the full solver within the budget
            others = {}
            for m in s.move_ids():
                if m in wins:
                    continue
                v = move_value(Prover(tt_bits=18) if fresh else sv, s, m, budget)
                if v is None or v == 1:
                    break
                others[m] = v
            if len(others) + len(wins) != n_moves:
                continue
            best = [s.format_move(m) for m in wins]
            wrong = tempting(game, s, set(best), [s.format_move(m) for m in others])
            per_depth[d] += 1
            kinds = sorted({WORD[v] for v in others.values()})
            out.append(f"{game} | {s.to_text()} | best: {' '.join(best)}"
                       + (f" | wrong: {' '.join(wrong)}" if wrong else "")
                       + f" | id: {game[:2]}{d}-{seed}-{g}-{back}"
                       + f" | note: win in {d} pl{'ies' if d > 1 else 'y'}; {len(best)} of {n_moves}"
                       f" moves win, the others {'/'.join(kinds)} (proven)")
            print(f"# found {len(out)}: game {g}, {back} plies from the end, win in {d}",
                  file=sys.stderr, flush=True)
            break                                 # one position a game: no near-duplicates
    return out


def _houses(s) -> int:
    return sum(int(x) for side in s.to_text().split()[0].split("/") for x in side.split(",")[:6])


def kalah_suite(seed: int, count: int, seconds: float, budget: int, seeds_left: int,
                game: str = "kalah") -> list[str]:
    rng = random.Random(seed)
    sv = Prover(tt_bits=20)
    out, seen = [], set()
    t0 = time.time()
    g = 0
    while len(out) < count and time.time() - t0 < seconds:
        g += 1
        hist = random_game(game, rng)
        late = []                   # the plies with at most seeds_left seeds in the houses
        for i in range(len(hist) - 1, 0, -1):
            if _houses(replay(game, hist[:i])) > seeds_left:
                break
            late.append(i)
        for i in reversed(late):    # the most seeds first: the hardest endgame of the game
            s = replay(game, hist[:i])
            houses = _houses(s)
            if s.is_terminal() or s.to_text() in seen or len(s.moves()) < 2:
                continue
            seen.add(s.to_text())
            vals = full_values(sv, s, budget)
            if any(v is None for v in vals.values()):
                continue
            top = max(vals.values())
            best = [s.format_move(m) for m, v in vals.items() if v == top]
            if top < 0 or len(best) == len(vals):
                continue
            if len(best) * 2 > len(vals):       # a real choice: at most half the moves
                continue
            wrong = tempting(game, s, set(best), [])
            out.append(f"{game} | {s.to_text()} | best: {' '.join(best)}"
                       + (f" | wrong: {' '.join(wrong)}" if wrong else "")
                       + f" | id: ka-{seed}-{g}-{i}"
                       + f" | note: {houses} seeds in the houses; best {WORD[top]}, "
                       + ", ".join(f"{s.format_move(m)} {WORD[v]}" for m, v in vals.items())
                       + " (proven)")
            print(f"# found {len(out)}: game {g}, ply {i}, {houses} seeds", file=sys.stderr,
                  flush=True)
            break                                 # one position a game: no near-duplicates
    return out


HEADERS = {
    "breakthrough": "# Breakthrough wins in 1, 3 and 5 plies from late positions of random games: 'best' is every\n"
                    "# move that wins within that many plies, and every other move is proven not to win (full\n"
                    "# solver, no ply limit); 'wrong' is flat Monte Carlo's choice (1,000 simulations) when wrong.\n",
    "loa": "# Lines of Action wins in 1 and 3 plies from late positions of random games: 'best' is every\n"
           "# move that wins within that many plies, and every other move is proven not to win (full\n"
           "# solver, no ply limit); 'wrong' is flat Monte Carlo's choice (1,000 simulations) when wrong.\n",
    "kalah": "# Kalah(6,4) endgames (few seeds left in the houses) from random games: 'best' is every move\n"
             "# of the best proven value (win/draw/loss on the final score; full solver), and some move is\n"
             "# worse; 'wrong' is flat Monte Carlo's choice (1,000 simulations) when wrong.\n",
}


def main() -> None:
    ap = argparse.ArgumentParser(description="Print a proven tactical suite (see the module docstring).")
    ap.add_argument("game", choices=["breakthrough", "loa", "kalah"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=1800.0,
                    help="give up after this long (a cap: the suite depends on the seed only)")
    ap.add_argument("--budget", type=int, default=400_000, help="solver nodes per move")
    ap.add_argument("--seeds-left", type=int, default=12, help="Kalah: most seeds in the houses")
    args = ap.parse_args()
    if args.game == "kalah":
        lines = kalah_suite(args.seed, args.count, args.seconds, args.budget, args.seeds_left)
    else:
        spread = (1, 3, 5) if args.game == "breakthrough" else (1, 3)
        lines = win_in_n_suite(args.game, args.seed, args.count, args.seconds, args.budget,
                               spread, fresh=args.game == "loa")
    cmd = " ".join(["tools/make_suites.py", args.game, f"--seed {args.seed}",
                    f"--count {args.count}", f"--budget {args.budget}"]
                   + ([f"--seeds-left {args.seeds_left}"] if args.game == "kalah" else []))
    sys.stdout.write(HEADERS[args.game] + f"# Generated by: .venv/bin/python {cmd}\n")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
