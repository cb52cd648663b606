"""`arena solve`: test-position suites, run. A search against a position whose answer is known.
(Reading the stored runs back: results/suites.py; their table and picture: report/suites.py.)

Suite file: one position per line, fields separated by ` | `:

    GAME | POSITION | best: MOVE [MOVE...] | wrong: MOVE [MOVE...] | id: NAME | note: TEXT

GAME is a registered game, optionally with parameters (`hex(size=5)`, `hex(size=5,swap=0)`:
they must agree with the position); POSITION the game's text form; `best` the correct moves,
`wrong` (optional) the tempting wrong ones; `id` defaults to the line number. `#` starts a
comment line. Any mistake stops the run before anything is searched, with one line naming the
suite file and line.

Each player searches each position with several seeds at increasing budgets. An MCTS or FlatMC
search runs once to the largest budget and records the move it would play at each checkpoint
(for a simulation budget the first B simulations of a longer search with the same seed are
the search of budget B, so this is the independent search at B, without its random tie-break
among equally visited moves); αβ and Greedy search afresh at each budget (nodes); Random
chooses once per seed. Reported per player and budget: solved % (positions x seeds), the
median simulations until the choice becomes correct and stays correct (checkpoints 10 per
decade), and the mean seconds. Every finished (player, position, seed) is committed to
`DIR/arena.sqlite` at once, so a run resumes where it stopped.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import games, inputs
from mcts_arena.budgets import Budget
from mcts_arena.errors import UserError
from mcts_arena.players import kinds
from mcts_arena.results.suites import SUITE_SCHEMA, summarise


@dataclass
class Position:
    pid: str
    game: str
    text: str
    best: list[str]
    wrong: list[str] = field(default_factory=list)
    note: str = ""
    line: int = 0

    def state(self):
        return games.new_state(self.game, self.text)


@dataclass
class Suite:
    name: str
    path: str
    positions: list[Position]

    @property
    def game(self) -> str:
        """The game's name (without parameters), for parsing players."""
        return games.split(self.positions[0].game)[0]


def _parse_game(text: str, where: str) -> tuple[str, str]:
    """(name, the game spec as written) of a suite line's GAME field; one-line errors."""
    try:
        name, _ = games.parse(text.strip())
    except games.UnknownGameError as e:
        raise UserError(f"{where}: {e}") from None
    return name, text.strip()


def load_suite(path: str) -> Suite:
    p = Path(path)
    text = inputs.read_text(p, "a suite file (one position a line)")
    positions: list[Position] = []
    ids: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path}:{lineno}"
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 3:
            raise UserError(f"{where}: expected 'GAME | POSITION | best: MOVE ...' (fields "
                            "separated by ' | ')")
        game_name, game = _parse_game(fields[0], where)
        try:
            state = games.new_state(game, fields[1])
        except ValueError as e:
            raise UserError(f"{where}: illegal position: {e}") from None
        if state.is_terminal():
            raise UserError(f"{where}: the position is already finished (nothing to solve)")
        kv = {"best": "", "wrong": "", "id": str(lineno), "note": ""}
        for f in fields[2:]:
            key, colon, val = f.partition(":")
            key = key.strip()
            if not colon or key not in kv:
                raise UserError(f"{where}: bad field {f!r}: expected best:, wrong:, id: or note:")
            kv[key] = val.strip()
        legal = set(state.moves())
        best = kv["best"].split()
        wrong = kv["wrong"].split()
        if not best:
            raise UserError(f"{where}: no correct move (best: MOVE ...)")
        for label, moves in (("correct", best), ("wrong", wrong)):
            for mv in moves:
                if mv not in legal:
                    raise UserError(f"{where}: {label} move {mv!r} is not legal in this position")
        if set(best) & set(wrong):
            raise UserError(f"{where}: move(s) {' '.join(sorted(set(best) & set(wrong)))} "
                            "listed as both correct and wrong")
        if kv["id"] in ids:
            raise UserError(f"{where}: duplicate id {kv['id']!r}")
        ids.add(kv["id"])
        positions.append(Position(kv["id"], game, state.to_text(), best, wrong, kv["note"],
                                  lineno))
    if not positions:
        raise UserError(f"{path}: no positions in the suite")
    if len({games.split(q.game)[0] for q in positions}) > 1:
        raise UserError(f"{path}: positions of more than one game "
                        f"({', '.join(sorted({q.game for q in positions}))}); one game a suite")
    return Suite(p.stem, str(p), positions)


def checkpoints(budgets: list[int]) -> list[int]:
    """The budgets plus 10 points per decade up to the largest (for the stays-correct median)."""
    top = max(budgets)
    pts = set(budgets)
    k = 0
    while True:
        v = int(round(10 ** (k / 10)))
        if v > top:
            break
        pts.add(v)
        k += 1
    return sorted(pts)


# ---- running ----------------------------------------------------------------------------------

def _trace(player, state, cps: list[int], fresh=None) -> list[tuple[int, str, float]]:
    """The move chosen at each checkpoint. `fresh()` makes a new player of the same spec and
    seed: αβ and Greedy search afresh at each budget with one, since a player keeps its
    transposition table from search to search and a search at budget B would start from what
    the searches at the smaller budgets found."""
    trace = kinds.of(player.spec).trace
    if trace == "checkpoints":
        return [(b, state.format_move(m), t) for b, m, t in player.trace(state, cps)]
    if trace == "once":
        t0 = time.perf_counter()
        m, _ = player.choose(state, sims=1)
        dt = time.perf_counter() - t0
        return [(b, state.format_move(m), dt) for b in cps]
    out = []
    for b in cps:
        if fresh is not None:
            player = fresh()
        m, st = player.choose(state, sims=b)
        out.append((b, state.format_move(m), st.get("time", 0.0)))
    return out


def run_suite(suite: Suite, specs: list[str], budgets: list[int], seeds: int, directory,
              base_seed: int = 1, echo=None) -> dict:
    """Search every (player, position, seed) not stored yet; return the summary (summarise)."""
    from mcts_arena import players
    from mcts_arena.players.player import derive_seed
    from mcts_arena.runner.writer import Writer

    parsed = [players.parse(text, suite.positions[0].game) for text in specs]
    cps = checkpoints(budgets)
    # an outside engine that cannot start is refused before the store is made; the suite's
    # positions are read from text, so a GTP engine must know set_position
    for spec in parsed:
        players.check_startup(spec.canonical, suite.positions[0].game,
                              Budget(sims=max(budgets)), reached_by_moves=False)
    key = json.dumps(cps)
    with Writer.open(directory) as store:
        store.conn.executescript(SUITE_SCHEMA)
        store.set_meta("solve", json.dumps({"suite": suite.name, "path": suite.path,
                                            "budgets": budgets, "seeds": seeds,
                                            "players": [p.canonical for p in parsed],
                                            "positions": [q.__dict__ for q in suite.positions]}))
        done = {(r[0], r[1], r[2]) for r in store.conn.execute(
            "SELECT player, position_id, seed FROM solve WHERE budgets_json = ?", (key,))}
        for spec in parsed:
            for pos in suite.positions:
                state = pos.state()
                for i in range(seeds):
                    if (spec.canonical, pos.pid, i) in done:
                        continue
                    seed = derive_seed(base_seed, spec.canonical, pos.pid, i)
                    player = players.make(spec, seed=seed)
                    tr = _trace(player, state, cps,
                                lambda spec=spec, seed=seed: players.make(spec, seed=seed))
                    with store.transaction():
                        store.conn.execute("INSERT OR REPLACE INTO solve VALUES (?, ?, ?, ?, ?, ?)",
                                           (spec.canonical, pos.pid, i, key, json.dumps(tr),
                                            time.time()))
                if echo:
                    echo(f"  {spec.canonical}: {pos.pid} done")
    return summarise(directory, budgets=budgets,
                     players_order=[p.canonical for p in parsed])


def parse_budgets(text: str) -> list[int]:
    """`--budgets 100,1000,10000`: the distinct budgets, smallest first (UserError otherwise)."""
    try:
        values = [int(b) for b in text.split(",") if b.strip()]
    except ValueError:
        values = []
    if not values or min(values) <= 0:
        raise UserError(f"--budgets must be comma-separated positive integers, got {text!r}")
    return sorted(set(values))


def default_players(suite: Suite) -> list[str]:
    """The sanity players, plain UCT, and UCT with the game's playout policy where it has one."""
    return ["Random", "FlatMC", "MCTS"] + (
        ["MCTS(ipp)"] if "policy" in games.info_of(suite.game).options else [])


def run(suite_path: str, specs: list[str], budgets_text: str, seeds: int, seed: int = 1,
        out: str | None = None, echo=None) -> tuple[dict, Path]:
    """`arena solve`: the suite run (resumed where it stopped) and its summary, also written to
    DIR/solve.json. Returns (summary, DIR)."""
    budgets = parse_budgets(budgets_text)
    if seeds <= 0:
        raise UserError(f"--seeds must be a positive integer, got {seeds}")
    suite = load_suite(suite_path)
    directory = Path(out) if out else Path("results") / f"solve-{suite.name}"
    summary = run_suite(suite, list(specs) or default_players(suite), budgets, seeds, directory,
                        base_seed=seed, echo=echo)
    (directory / "solve.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary, directory
