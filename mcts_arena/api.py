"""The Python API for notebooks: play a match or an experiment from code and get the games and the
report's rows as DataFrames, with the same store and resume as `arena run` (an experiment built
here is validated by the same config rules and played by the same runner).

    from mcts_arena import api

    res = api.play_match("MCTS(im0.4)", "MCTS", game="breakthrough", sims=200, games=10,
                         seed=1, jobs=2, out="results/nb")
    res.games()         # one row per game (mcts_arena.results.load's frame)
    res.report()        # one row per pairing (the columns of `arena report --format csv`)

    res = api.play_experiment("configs/quickstart.yaml", games=4, out="results/qs")
    res = api.play_experiment({"game": "kalah", "budget": {"sims": 100}, "games": 4,
                               "matches": [{"player": "MCTS(im0.3)", "opponent": "MCTS"}]})

    t = api.tune("configs/tune/breakthrough_alpha_spsa.yaml", jobs=2)    # `arena tune`
    t.estimate.values, t.confirmation.interval(), print(t.report())

Run it again with the same arguments and only the missing games are played; a change that
changes the games (budget, seed, openings, players) is refused as `arena run` refuses it, unless
`new=True` (the old directory is kept, renamed). Mistakes raise `mcts_arena.errors.UserError`
with the line `arena` would print, in the API's words (`new=True`, not `--new`).

A script may call the API at its top level, as a notebook does: the workers start in a fresh
Python (a fork server's, or spawned) that never imports the script that started them
(runner/pool.py), so no `if __name__ == "__main__":` guard is needed. A call whose games of some
pairing all failed raises `mcts_arena.errors.AllErrorGames` (`arena run`'s exit status 3), with
the games stored as error games that the next call replays.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcts_arena.errors import AllErrorGames, UserError
from mcts_arena.runner.config import Overrides

__all__ = ["Results", "TuneResults", "load", "play_experiment", "play_match", "tune"]

#: The command line's words in a refusal and the API's for the same thing.
API_WORDS = (("--new", "new=True"), ("another --out DIR", "another out=DIR"),
             ("--out DIR", "out=DIR"), ("--allow-mixed-builds", "the command line's "
                                        "--allow-mixed-builds (the API never mixes builds)"),
             ("--jobs", "jobs"), ("--games", "games"), ("--time", "time"),
             ("--sims", "sims"), ("--openings", "openings"))


def in_api_words(e: UserError) -> UserError:
    """`e` with the command line's option names replaced by the API's arguments."""
    text = str(e)
    for flag, arg in API_WORDS:
        text = re.sub(re.escape(flag) + r"(?![\w-])", arg, text)
    e.args = (text,)
    return e


@dataclass(frozen=True)
class Results:
    """A results directory (what `arena run` writes), read on demand."""

    directory: Path
    played: int = 0         # games played by the call that returned it
    interrupted: bool = False

    def games(self):
        """The stored games, one row per game (`mcts_arena.results.load`)."""
        from mcts_arena.results.frames import load as load_games

        return load_games(self.directory)

    def report(self, ci: str = "auto"):
        """The report's rows, one per pairing (the columns of `arena report --format csv`)."""
        from mcts_arena.report.render import report_frame

        return report_frame([self.directory], ci=ci)

    def export(self, fmt: str = "auto", **filters) -> str:
        """The games as `arena export` writes them (PGN, SGF, backgammon's .mat or JSON
        lines); `filters`: pairing, player, result."""
        from mcts_arena.results.export import export

        return "".join(export(self.directory, fmt, **filters)[0])


def load(directory: str | os.PathLike) -> Results:
    """A results directory already played (nothing is played)."""
    from mcts_arena.results.frames import require_results_dir

    return Results(Path(require_results_dir(directory)))


def play_match(player: str, opponent: str, game: str, *, games: int = 20,
               time: float | None = None, sims: int | None = None, seed: int = 1,
               jobs: int = 1, openings: Any = None, max_plies: int | None = None,
               name: str = "match", out: str | os.PathLike | None = None, new: bool = False,
               progress: bool = False) -> Results:
    """Play `games` games (seat-swapped pairs) of `player` against `opponent` (specs as in a
    config) on `game`, each move searched for `time` seconds or `sims` simulations (default:
    sims=1000), and store them in `out` (default results/<name>). `openings` is what a config's
    `openings:` takes (`"start"`, `{"random_plies": 4}`, `{"file": PATH, "order": "random"}`)
    or the path of an opening book."""
    cfg: dict[str, Any] = {"name": name, "game": game, "games": games, "seed": seed,
                           "matches": [{"player": player, "opponent": opponent}]}
    cfg["budget"] = {"time": time} if time is not None else {"sims": 1000 if sims is None
                                                              else sims}
    if max_plies is not None:
        cfg["max_plies"] = max_plies
    if openings is not None:
        cfg["openings"] = openings
    return play_experiment(cfg, jobs=jobs, out=out, new=new, progress=progress)


def play_experiment(config: str | os.PathLike | dict, *, games: int | None = None,
                    time: float | None = None, sims: int | None = None, jobs: int = 1,
                    openings: str | os.PathLike | None = None, out: str | os.PathLike | None = None,
                    new: bool = False, progress: bool = False) -> Results:
    """Play an experiment: a config file (YAML) or the same settings as a dict, with the
    overrides `arena run` has (games per pairing, time or sims per move, an opening book), into
    `out` (default results/<name>); `progress` prints the standings to stderr as `arena run`."""
    try:
        return _play(config, games, time, sims, jobs, openings, out, new, progress)
    except UserError as e:
        raise in_api_words(e) from None


def _play(config, games, time, sims, jobs, openings, out, new, progress) -> Results:
    import yaml

    from mcts_arena.runner import config as config_mod
    from mcts_arena.runner import run
    from mcts_arena.runner.experiment import all_error_message

    if isinstance(config, dict):
        cfg = dict(config)
        if isinstance(cfg.get("openings"), (str, os.PathLike)) and \
                Path(cfg["openings"]).is_file():
            cfg["openings"] = {"file": str(cfg["openings"])}
        text, source, default = yaml.safe_dump(cfg), "<api>", cfg.get("name", "experiment")
    else:
        p = Path(config)
        text, source, default = None, str(p), p.stem
    overrides = Overrides(games=games, time=time, sims=sims,
                          openings=None if openings is None else str(openings))
    if text is None:
        exp = config_mod.load(source, overrides)
    else:
        exp = config_mod.loads(text, source, default, overrides)
    job = run.prepare_experiment(exp, None if out is None else str(out), jobs, new=new)
    result = run.play(job, new=new, progress=progress,
                      echo=lambda m: print(m, file=sys.stderr)
                      if progress or m.startswith("warning:") else None)
    if result.all_error and not result.interrupted:     # nothing measured: never a silent result
        raise AllErrorGames(all_error_message(result.all_error).replace(
            "see the errors above", f"api.load({str(job.directory)!r}).games() holds the errors"))
    return Results(job.directory, result.played, result.interrupted)


@dataclass(frozen=True)
class TuneResults:
    """A tune played (`arena tune`): its state (results/tune.py's TuneState: the SPSA path or
    the BO trials, the estimate, the confirmation) and its results directory."""

    directory: Path
    state: Any
    played: int = 0
    interrupted: bool = False

    @property
    def estimate(self):
        return self.state.estimate

    @property
    def confirmation(self):
        return self.state.confirmation

    def report(self) -> str:
        """What `arena tune` prints."""
        from mcts_arena.report.tune import render

        return render(self.state)

    def as_dict(self) -> dict:
        """The tune as plain data, as `arena report DIR --format json` gives it: the value
        found with its range, the path or trials, the confirmation with its interval and
        SPRT (results/tune.py's `panel`)."""
        from mcts_arena.results.tune import panel

        return panel(self.state)

    def picture(self, path: str | os.PathLike) -> Path:
        """The picture of the path (PNG, SVG or PDF by the suffix)."""
        from mcts_arena.report.tune import picture

        return picture(self.state, path)


def tune(config: str | os.PathLike | dict, *, jobs: int = 1, out: str | os.PathLike | None = None,
         progress: bool = False) -> TuneResults:
    """Tune a player (`arena tune CONFIG`): a tune config file (YAML) or the same settings as a
    dict, played (or resumed) into `out` (default results/<name>)."""
    import yaml

    from mcts_arena.runner import tune as tune_mod
    from mcts_arena.runner.pool import worker_count

    workers = worker_count(jobs)
    if isinstance(config, dict):
        data = yaml.safe_load(yaml.safe_dump(dict(config)))

        def made(games: int | None = None):
            return tune_mod.loads({**data, "games": games} if games else data, "<api>",
                                  config.get("name", "tune"))
        spec = made()
        where = Path(out) if out is not None else Path("results") / spec.name
        spec = tune_mod.extended(spec, where, made)
        directory = tune_mod.check_directory(spec, None if out is None else str(out))
    else:
        spec, directory = tune_mod.prepare(str(config), None if out is None else str(out))
    r = tune_mod.run_tune(spec, directory, workers=workers,
                          echo=(lambda m: print(m, file=sys.stderr)) if progress else
                          (lambda m: None))
    return TuneResults(directory, r.state, r.played, r.interrupted)
