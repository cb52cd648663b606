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
and losses; `stats.score_interval`). A drawn game (the turn limit) or an error game has no
result to adjust and is left out, counted apart. Nothing is written to the store.
"""
from __future__ import annotations

import math
import os
import re
import subprocess
import tempfile
from pathlib import Path

from mcts_arena import games, stats
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


def text(rows: list[dict], plies: int) -> str:
    """The table `arena luck` prints."""
    head = ["pairing", "games", "W-L", "score % [95%]", "ppg [95%]", "luck-adj. ppg [95%]",
            "var. ratio"]
    body = []
    for r in rows:
        name = f"{display_name(r['player'])} vs {display_name(r['opponent'])}"
        if not r["games"]:
            body.append([name, "0", "-", "-", "-", "-", "-"])
            continue
        ratio = r["variance_ratio"]
        body.append([name, str(r["games"]), f"{r['wins']}-{r['losses']}",
                     _cell(r["score"], 100, 1), _cell(r["ppg"]), _cell(r["luck_ppg"]),
                     "-" if ratio is None else f"{ratio:.1f}"])
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(row, widths))) for row in [head, *body]]
    lines.insert(1, "-" * len(lines[0]))
    left = sum(r["left_out"] for r in rows)
    lines.append(f"gnubg {plies}-ply analysis, cube off; ppg: the pairing's player's points "
                 f"a game under the game's scoring; var. ratio: the raw ppg's variance over the "
                 f"luck-adjusted one (how many times fewer games the luck-adjusted figure "
                 f"needs)"
                 + (f"; {left} drawn or error game(s) left out" if left else ""))
    return "\n".join(lines) + "\n"
