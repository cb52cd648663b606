"""Backgammon results with the dice's luck taken out (`arena luck RESULTS`): GNU Backgammon
analyses every finished game of a pairing, cubeless, and its luck-adjusted result per game
(the points won, less the equity the rolls gave: what backgammon testers compare bots by) is
reported beside the raw score and points per game, each with its 95% interval.

A pairing's finished games are written as one .mat session (results/jellyfish.py: the pairing's
player in the left column) into a temporary folder, and one `gnubg -t -q` reads commands on its
standard input: `set cube use off` (our games have no cube; with it on, gnubg reports cube
errors that are not there), the chequer play and luck analysis at `plies`, `import mat`,
`analyse match`, then `show statistics game` for each game in turn. Its per-game "Luck adjusted
result" of the left player is the luck-adjusted points of the pairing's player.

Both ppg figures are in our game's points: with `scoring` 1 (the default) a game is worth 1
and gnubg's Jacoby rule is on (with no cube turned, its equities then count a gammon single);
with 2 or 3 the rule is off and gnubg's equities count a gammon 2 and a backgammon 3 (it has no
rule that counts gammons but not backgammons, so under scoring 2 its backgammons count one
point more than ours). Intervals: the mean ± 1.96 standard errors of the games'
values (a normal interval over games, taken as independent). The raw score is the report's (wins
and losses; `stats.score_interval`). Under scoring 1 a game's points are +1 or -1, so the
luck-adjusted score is (1 + luck-adjusted ppg) / 2, with its interval through the same map,
beside the raw score. A drawn game (the turn limit) or an error game has no result to adjust
and is left out, counted apart.

Nothing is written to the store. `arena luck --save` keeps the analysis in LUCK_FILE beside it
(each pairing's replacing its earlier one), which `arena report` reads (`panel`): it never runs
gnubg itself, says so plainly where no analysis is kept, and marks a pairing whose decided
games are no longer the ones analysed (more were played since) as stale.
"""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import tempfile
from pathlib import Path

from mcts_arena import games, inputs, stats
from mcts_arena.errors import UserError
from mcts_arena.players.notation import display_name
from mcts_arena.results import jellyfish
from mcts_arena.results.export import records
from mcts_arena.results.store import Store

PLIES = (0, 1, 2)
#: gnubg at 0 ply analyses a game in about 0.1 s; 2 plies take a second or more a game
SECONDS_PER_GAME = {0: 2.0, 1: 10.0, 2: 60.0}
_LUCK = re.compile(r"^Luck adjusted result\s+([-+]?\d+(?:\.\d+)?)", re.M)


def commands(mat: Path, games_count: int, plies: int, jacoby: bool) -> str:
    """What gnubg is told: cube off, the Jacoby rule on (`jacoby`: gammons count single) or
    off, the analysis at `plies`, the file (by its name: gnubg runs in its folder), a game's
    statistics each in turn."""
    lines = ["set cube use off", f"set jacoby {'on' if jacoby else 'off'}",
             f"set analysis chequerplay evaluation plies {plies}",
             f"set analysis luckanalysis plies {plies}",
             f"import mat {mat.name}", "analyse match", "first game", "show statistics game"]
    lines += ["next game", "show statistics game"] * (games_count - 1)
    return "\n".join(lines) + "\n"


def luck_per_game(text: str, expected: int) -> list[float]:
    """The left player's luck-adjusted result of each game from gnubg's output (one
    statistics table per game); UserError when gnubg gave another number of them."""
    found = [float(m.group(1)) for m in _LUCK.finditer(text)]
    if len(found) != expected:
        tail = " ".join(text.strip().splitlines()[-3:])[:200]
        raise UserError(f"gnubg's analysis gave {len(found)} luck-adjusted results for "
                        f"{expected} games (its last words: {tail!r})")
    return found


def run_gnubg(gnubg: str, mat_text: str, games_count: int, plies: int, jacoby: bool
              ) -> list[float]:
    """gnubg's luck-adjusted result of each game of the .mat session `mat_text`."""
    with tempfile.TemporaryDirectory(prefix="arena-luck-") as tmp:
        mat = Path(tmp) / "games.mat"
        mat.write_text(mat_text, encoding="utf-8")
        try:
            said = commands(mat, games_count, plies, jacoby)
            done = subprocess.run([gnubg, "-t", "-q"], input=said, capture_output=True,
                                  text=True, cwd=tmp,
                                  env={**os.environ, "HOME": tmp},    # its settings stay here
                                  timeout=30 + SECONDS_PER_GAME[plies] * games_count)
        except subprocess.TimeoutExpired:
            raise UserError(f"gnubg did not finish analysing {games_count} games in time") \
                from None
        except OSError as e:
            raise UserError(f"cannot start gnubg ({gnubg}): {e.strerror or e}") from None
    return luck_per_game(done.stdout, games_count)


def _mean_interval(xs: list[float]) -> dict:
    """The mean with its 95% normal interval (None for one game: no spread to measure)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return {"mean": mean, "sd": None, "low": None, "high": None}
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return {"mean": mean, "sd": sd, "low": mean - half, "high": mean + half}


def pairing_luck(recs: list[dict], gnubg: str, plies: int) -> dict:
    """One pairing's raw and luck-adjusted results (module docstring) from its records."""
    first = recs[0]
    done = [r for r in recs if r["winner"] is not None and r["reason"] != "error"]
    out = {"pairing_id": first["pairing_id"], "player": first["player"],
           "opponent": first["opponent"], "games": len(done), "left_out": len(recs) - len(done)}
    if not done:
        return out
    points, scores = [], (0.0, 0.0, 0.0)
    for number, r in enumerate(done, 1):
        _, won = jellyfish.game(r, number, (0, 0))
        mine = r["winner"] == r["swap"]
        points.append(won if mine else -won)
        scores = (scores[0] + mine, 0.0, scores[2] + (not mine))
    single = games.resolve(first["game"]).params.get("scoring", 1) == 1
    lucky = run_gnubg(gnubg, "".join(jellyfish.write(done)), len(done), plies, single)
    lo, hi, _ = stats.score_interval(*scores)
    raw, luck = _mean_interval(points), _mean_interval(lucky)
    out.update(wins=int(scores[0]), losses=int(scores[2]),
               score={"mean": stats.score(*scores), "low": lo, "high": hi},
               luck_score={k: None if v is None else (1 + v) / 2 for k, v in luck.items()
                           if k != "sd"} if single else None,
               ppg=raw, luck_ppg=luck,
               variance_ratio=(raw["sd"] / luck["sd"]) ** 2 if luck["sd"] else None)
    # (raw["sd"] is None exactly when luck["sd"] is: one game)
    return out


def analyse(directory: Path, gnubg: str, plies: int = 0, pairing: str | None = None
            ) -> list[dict]:
    """Every pairing's (or `pairing`'s) raw and luck-adjusted results in the backgammon store
    in `directory` (read-only); UserError for a store of another game."""
    if plies not in PLIES:
        raise UserError(f"--plies: expected one of {', '.join(map(str, PLIES))}, got {plies}")
    with Store.open(directory) as store:
        game = (store.experiment() or {}).get("config", {}).get("game")
        if not game or not games.info_of(game).match_file:
            raise UserError(f"{directory}: luck-adjusted results are backgammon's (gnubg "
                            f"analyses them); this store holds {game or 'no experiment'}")
        recs = records(store, pairing)
    by: dict[str, list[dict]] = {}
    for r in recs:
        by.setdefault(r["pairing_id"], []).append(r)
    return [pairing_luck(rs, gnubg, plies) for rs in by.values()]


def _cell(d: dict | None, scale: float = 1.0, digits: int = 3) -> str:
    if not d:
        return "-"
    f = f"{{:+.{digits}f}}" if scale == 1.0 else f"{{:.{digits}f}}"
    if d["low"] is None:
        return f.format(scale * d["mean"])
    return (f"{f.format(scale * d['mean'])} [{f.format(scale * d['low'])}, "
            f"{f.format(scale * d['high'])}]")


HEAD = ["pairing", "games", "W-L", "score % [95%]", "luck-adj. score % [95%]", "ppg [95%]",
        "luck-adj. ppg [95%]", "var. ratio"]


def cells(r: dict) -> list[str]:
    """One pairing's row of HEAD (`arena luck` and the report's luck table)."""
    name = f"{display_name(r['player'])} vs {display_name(r['opponent'])}"
    if not r["games"]:
        return [name, "0"] + ["-"] * (len(HEAD) - 2)
    ratio = r["variance_ratio"]
    return [name, str(r["games"]), f"{r['wins']}-{r['losses']}", _cell(r["score"], 100, 1),
            _cell(r.get("luck_score"), 100, 1), _cell(r["ppg"]), _cell(r["luck_ppg"]),
            "-" if ratio is None else f"{ratio:.1f}"]


def text(rows: list[dict], plies: int) -> str:
    """The table `arena luck` prints."""
    head, body = HEAD, [cells(r) for r in rows]
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(row, widths))) for row in [head, *body]]
    lines.insert(1, "-" * len(lines[0]))
    left = sum(r["left_out"] for r in rows)
    lines.append(f"gnubg {plies}-ply analysis, cube off; {LEGEND}"
                 + (f"; {left} drawn or error game(s) left out" if left else ""))
    return "\n".join(lines) + "\n"


LEGEND = ("ppg: the pairing's player's points a game under the game's scoring; luck-adj. "
          "score: (1 + luck-adj. ppg) / 2, under scoring 1 only (unbounded: a game's "
          "luck-adjusted result may exceed the point it won, so the score may pass 100%); "
          "var. ratio: the raw ppg's "
          "variance over the luck-adjusted one (how many times fewer games the luck-adjusted "
          "figure needs)")
#: The file `arena luck --save` keeps its analysis in, in the results directory beside the
#: store (never inside it: the store is the runner's alone).
LUCK_FILE = "luck.json"


def save(directory: Path, rows: list[dict], plies: int) -> Path:
    """Keep `rows` (analyse's, at `plies`) in the results directory's LUCK_FILE, each pairing's
    replacing its earlier analysis, the others kept; written whole, then renamed into place."""
    try:
        kept = stored(directory) or {}
    except UserError:           # a damaged file: this analysis starts it again
        kept = {}
    kept.update({r["pairing_id"]: {**r, "plies": plies} for r in rows})
    path = Path(directory) / LUCK_FILE
    tmp = path.with_name(f".{LUCK_FILE}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"pairings": kept}, indent=1, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)
    return path


def stored(directory: Path) -> dict[str, dict] | None:
    """The kept analysis of each pairing by its id, or None where none is kept; UserError
    (one line) for a file that is not one."""
    path = Path(directory) / LUCK_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(inputs.read_text(path, "a luck analysis"))
        kept = data["pairings"]
        if not isinstance(kept, dict) or not all(
                isinstance(r, dict) and isinstance(r.get("games"), int) for r in kept.values()):
            raise ValueError("no pairings")
    except (ValueError, TypeError, KeyError, inputs.InputError) as e:
        raise UserError(f"{path}: not a luck analysis of arena luck --save ({e}); run it "
                        f"again") from None
    return kept


def panel(directory: Path, game: str | None, rows: list) -> dict | None:
    """What `arena report` shows of a backgammon experiment's kept analysis: each pairing's,
    `stale` where its decided games (the report's wins and losses) are not the number
    analysed, and a `note` saying what is missing; None for a game gnubg does not analyse.
    Reads LUCK_FILE only: gnubg is never run here; a damaged one is the note (the store's own
    results, and the other stores of a results root, are reported all the same)."""
    if not game or not games.info_of(game).match_file:
        return None
    try:
        kept = stored(directory) or {}
    except UserError as e:
        return {"pairings": [], "note": str(e)}
    out, stale = [], 0
    for r in rows:
        k = kept.get(r["pairing_id"])
        if k is not None:
            decided = r["wins"] + r["losses"]
            out.append({**k, "decided": decided, "stale": k["games"] != decided})
            stale += out[-1]["stale"]
    fix = f"`arena luck {directory} --save` runs gnubg's analysis and keeps it for this report"
    note = (f"no gnubg analysis kept: {fix}" if not kept else
            f"{len(rows) - len(out)} pairing(s) without an analysis and {stale} whose decided "
            f"games are no longer the ones analysed: {fix}" if stale or len(out) < len(rows)
            else "")
    return {"pairings": out, "note": note}


def tables(p: dict) -> list[tuple[str, list[str], list[list[str]]]]:
    """The report's luck table of `panel`'s `p`: a note alone where nothing is kept."""
    cap = "Luck-adjusted results (gnubg's analysis, cube off, kept by arena luck --save)"
    if not p["pairings"]:
        return [(f"{cap}: {p['note']}", [], [])]
    body = [cells(r) + [f"{r['plies']}-ply" + (f", stale: {r['decided']} decided now"
                                                if r["stale"] else "")]
            for r in p["pairings"]]
    return [(f"{cap}; {LEGEND}" + (f". {p['note']}" if p["note"] else ""),
             HEAD + ["analysis"], body)]
