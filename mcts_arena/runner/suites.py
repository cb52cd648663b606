"""`arena solve`: test-position suites. A search against a position whose answer is known.

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
import math
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError



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
    if not p.is_file():
        raise UserError(f"suite {path!r} not found")
    positions: list[Position] = []
    ids: set[str] = set()
    for lineno, raw in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
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

_SCHEMA = """
CREATE TABLE IF NOT EXISTS solve (
    player TEXT NOT NULL, position_id TEXT NOT NULL, seed INTEGER NOT NULL,
    budgets_json TEXT NOT NULL, trace_json TEXT NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (player, position_id, seed, budgets_json));
"""


def _trace(player, state, cps: list[int], fresh=None) -> list[tuple[int, str, float]]:
    """The move chosen at each checkpoint. `fresh()` makes a new player of the same spec and
    seed: αβ and Greedy search afresh at each budget with one, since a player keeps its
    transposition table from search to search and a search at budget B would start from what
    the searches at the smaller budgets found."""
    kind = player.spec.kind
    if kind in ("MCTS", "FlatMC"):
        return [(b, state.format_move(m), t) for b, m, t in player.trace(state, cps)]
    if kind == "Random":
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
    from mcts_arena.players.builtin import derive_seed
    from mcts_arena.results.store import Store

    parsed = []
    for text in specs:
        try:
            parsed.append(players.parse(text, suite.positions[0].game))
        except players.SpecError as e:
            raise UserError(str(e)) from None
    cps = checkpoints(budgets)
    key = json.dumps(cps)
    with Store.open(directory) as store:
        store.conn.executescript(_SCHEMA)
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
                                lambda: players.make(spec, seed=seed))
                    with store._tx():
                        store.conn.execute("INSERT OR REPLACE INTO solve VALUES (?, ?, ?, ?, ?, ?)",
                                           (spec.canonical, pos.pid, i, key, json.dumps(tr),
                                            time.time()))
                if echo:
                    echo(f"  {spec.canonical}: {pos.pid} done")
    return summarise(directory, budgets=budgets,
                     players_order=[p.canonical for p in parsed])


def has_solve_results(directory) -> bool:
    """Does `directory` hold a store with solve results? A file that is not ours, or a damaged
    store, raises the store's one-line UserError (nothing is written)."""
    from mcts_arena.results.store import Store

    if not (Path(directory) / "arena.sqlite").is_file():
        return False
    with Store.open(directory, readonly=True) as store:
        row = store.conn.execute("SELECT name FROM sqlite_master WHERE name = 'solve'").fetchone()
        return row is not None and \
            store.conn.execute("SELECT COUNT(*) FROM solve").fetchone()[0] > 0


def summarise(directory, budgets: list[int] | None = None,
              players_order: list[str] | None = None) -> dict:
    """Solved %, median sims to a stable correct choice, mean seconds: per player and budget,
    and per position."""
    from mcts_arena.results.store import Store

    with Store.open(directory, readonly=True) as store:
        meta = json.loads(store.get_meta("solve") or "{}")
        rows = store.conn.execute("SELECT player, position_id, seed, budgets_json, trace_json "
                                  "FROM solve").fetchall()
    positions = {q["pid"]: q for q in meta.get("positions", [])}
    budgets = budgets or meta.get("budgets") or []
    order = players_order or meta.get("players") or sorted({r[0] for r in rows})
    out = {"suite": meta.get("suite"), "budgets": budgets, "seeds": meta.get("seeds"),
           "players": {}}
    for player in order:
        runs = [(r[1], json.loads(r[4])) for r in rows if r[0] == player and r[1] in positions]
        if not runs:
            continue
        per_budget = []
        for b in budgets:
            ok, secs = [], []
            for pid, tr in runs:
                entry = next((e for e in tr if e[0] == b), None)
                if entry is None:
                    continue
                ok.append(entry[1] in positions[pid]["best"])
                secs.append(entry[2])
            per_budget.append({"budget": b, "solved_pct": 100.0 * sum(ok) / len(ok) if ok else None,
                               "runs": len(ok), "mean_seconds": statistics.fmean(secs) if secs else None})
        stable = []
        for pid, tr in runs:
            best = positions[pid]["best"]
            s = math.inf
            for b, mv, _ in reversed(tr):
                if mv in best:
                    s = b
                else:
                    break
            stable.append(s)
        med = statistics.median(stable) if stable else math.inf
        per_pos = {}
        for pid in positions:
            prs = [tr for p2, tr in runs if p2 == pid]
            if prs:
                per_pos[pid] = 100.0 * sum(tr[-1][1] in positions[pid]["best"] for tr in prs) / len(prs)
        out["players"][player] = {
            "per_budget": per_budget,
            "median_sims_to_stable": None if math.isinf(med) else med,
            "stable_runs": sum(not math.isinf(s) for s in stable), "runs": len(stable),
            "solved_pct_by_position_at_max": per_pos}
    return out


def format_table(summary: dict) -> str:
    budgets = summary["budgets"]
    head = f"{'player':28s}" + "".join(f"{_short(b):>9s}" for b in budgets) + \
        f"{'median to stable':>18s}{'s at max':>10s}"
    lines = [f"suite {summary.get('suite')}: solved % per budget (simulations; αβ nodes), "
             f"{summary.get('seeds')} seed(s) per position", head, "-" * len(head)]
    for player, r in summary["players"].items():
        cells = "".join(f"{pb['solved_pct']:8.1f}%" if pb["solved_pct"] is not None else f"{'-':>9s}"
                        for pb in r["per_budget"])
        med = r["median_sims_to_stable"]
        med_s = f"{med:,.0f}" if med is not None else f">{_short(max(budgets))}"
        last = r["per_budget"][-1]["mean_seconds"] if r["per_budget"] else None
        lines.append(f"{player:28s}{cells}{med_s:>18s}{(last or 0):10.3f}")
    return "\n".join(lines) + "\n"


def _short(b: int) -> str:
    if b >= 1_000_000 and b % 1_000_000 == 0:
        return f"{b // 1_000_000}M"
    if b >= 1000 and b % 1000 == 0:
        return f"{b // 1000}k"
    return str(b)


def write_plot(summary: dict, path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4))
    for player, r in summary["players"].items():
        xs = [pb["budget"] for pb in r["per_budget"] if pb["solved_pct"] is not None]
        ys = [pb["solved_pct"] for pb in r["per_budget"] if pb["solved_pct"] is not None]
        ax.plot(xs, ys, marker="o", label=player)
    ax.set_xscale("log")
    ax.set_ylim(-3, 103)
    ax.set_xlabel("budget (simulations; αβ nodes)")
    ax.set_ylabel("solved %")
    ax.set_title(f"suite {summary.get('suite')}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
