"""The `arena` command line: parses options and wires the parts together (no logic of its own).

Every user mistake ends as one line on stderr and exit status 2 (see `main`).
"""
from __future__ import annotations

import json

import click

from mcts_arena import __version__, games
from mcts_arena.errors import EXIT_ALL_ERRORS, EXIT_INTERRUPTED, AllErrorGames, UserError


def _fail(message: str) -> None:
    raise UserError(message)


def _check_budget_options(time_s: float | None, sims: int | None,
                          effort: float | None = None) -> None:
    """--time/--sims/--effort of `run`, `tournament` and `play`: one of them, inside
    mcts_arena.budgets' ranges (finite; an effort is paper-seconds, in the range of --time)."""
    from mcts_arena import budgets

    if time_s is not None and sims is not None:
        _fail("--time and --sims exclude each other; give one budget")
    if effort is not None and (time_s is not None or sims is not None):
        _fail("--effort excludes --time and --sims; give one budget")
    if effort is not None and not budgets.time_ok(effort):
        _fail(f"--effort must be {budgets.TIME_TEXT} (paper-seconds), got {effort}")
    if time_s is not None and not budgets.time_ok(time_s):
        _fail(f"--time must be {budgets.TIME_TEXT}, got {time_s}")
    if sims is not None and not budgets.sims_ok(sims):
        _fail(f"--sims must be {budgets.SIMS_TEXT}, got {sims}")


def _check_scale_options(games: int | None, time_s: float | None, sims: int | None,
                         effort: float | None = None) -> None:
    """The --games/--time/--sims/--effort overrides shared by `run` and `tournament`."""
    from mcts_arena import budgets

    _check_budget_options(time_s, sims, effort)
    if games is not None and not budgets.games_ok(games):
        _fail(f"--games must be {budgets.GAMES_TEXT}, got {games}")


def _load_state(game: str, position: str | None):
    try:
        return games.new_state(game, position)
    except games.UnknownGameError as e:
        _fail(str(e))
    except ValueError as e:
        _fail(str(e))


class CliError(click.ClickException):
    """A user mistake: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"arena: error: {self.format_message()}", err=True, file=file)


class ArenaGroup(click.Group):
    """Turns the UserError (and ValueError from parsers) a command raises into a CliError."""

    def invoke(self, ctx: click.Context):
        import sqlite3
        import sys

        try:
            return super().invoke(ctx)
        except UserError as e:
            raise CliError(str(e)) from None
        except click.UsageError as e:
            sub = e.ctx is not None and e.ctx.parent is not None
            where = f"arena {e.ctx.info_name}" if sub else "arena"
            raise CliError(f"{e.format_message()} (see '{where} --help')") from None
        except sqlite3.DatabaseError as e:     # a store damaged after it was opened
            raise CliError(f"results store unreadable: {e}") from None
        except AllErrorGames as e:
            click.echo(f"arena: error: {e}", err=True)
            sys.exit(EXIT_ALL_ERRORS)
        except KeyboardInterrupt:               # Ctrl-C outside a run's own handling
            click.echo("arena: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def cli() -> None:
    """mcts_arena: head-to-head game-AI tournaments on compiled game cores."""


@cli.command("games")
def games_cmd() -> None:
    """List the games, their parameters and their evaluation functions."""
    for name in games.names():
        try:
            info = games.info_of(name)
        except ImportError:
            click.echo(f"{name:13s} (not built)")
            continue
        params = ", ".join(f"{k}={p.default} ({p.low}-{p.high})" for k, p in info.params.items())
        extra = f"  [parameters: {params}]" if params else ""
        click.echo(f"{name:13s} {info.description}  [evaluations: {', '.join(info.evals)}]{extra}")


@cli.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("depth", type=int)
@click.option("--position", default=None, help="Start from this position (the game's text form).")
def perft_cmd(game: str, depth: int, position: str | None) -> None:
    """Count the leaves of the move tree of GAME to DEPTH plies (the count is printed last)."""
    from mcts_arena.gametools import perft

    if depth < 0:
        _fail(f"perft depth must be a non-negative integer, got {depth}")
    state = _load_state(game, position)
    click.echo(f"perft {game} depth {depth}")
    click.echo(perft(state, depth))


@cli.command("show")
@click.argument("target", metavar="GAME|RESULTS_DIR")
@click.option("--position", default=None, help="The position in the game's text form.")
@click.option("--game", "game_id", default=None, metavar="ID",
              help="With a results directory: replay this recorded game move by move.")
def show_cmd(target: str, position: str | None, game_id: str | None) -> None:
    """Print a position of GAME (board, side to move, legal moves), or replay a recorded game.

    `arena show GAME` shows the start; `arena show results/quickstart --game ID` replays
    a game of an experiment (without --game it lists the stored game ids).
    """
    from pathlib import Path

    if Path(target, "arena.sqlite").is_file():
        from mcts_arena.arena.summary import replay_game

        if game_id is None:
            from mcts_arena.store import Store

            with Store.open(target, readonly=True) as store:
                ids = store.game_ids()
            click.echo(f"{len(ids)} games stored; replay one with --game ID, e.g.:")
            for gid in ids[:10]:
                click.echo(f"  {gid}")
            return
        click.echo(replay_game(target, game_id))
        return
    if game_id is not None:
        _fail(f"--game needs a results directory holding arena.sqlite, not {target!r}")
    if games.split(target)[0] not in games.names() and Path(target).exists():
        _fail(f"{target!r} is neither a game nor a results directory (no arena.sqlite in it)")
    state = _load_state(target, position)
    click.echo(str(state))
    click.echo(f"position: {state.to_text()}")
    moves = state.moves()
    click.echo(f"legal moves ({len(moves)}): {' '.join(moves)}")


@cli.command("bench")
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--seconds", default=2.0, show_default=True, type=float,
              help="Time per game (per player with --search).")
@click.option("--search", is_flag=True,
              help="Search speed instead: MCTS simulations/s and αβ nodes/s from the start.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object keyed by game.")
def bench_cmd(game_names: tuple[str, ...], seconds: float, search: bool, as_json: bool) -> None:
    """Random full-game playouts per second (and moves per second) on one core.

    With --search: simulations per second of the paper's MCTS players and nodes per second of
    αβ, from each game's start position, and the bytes each MCTS tree node takes.
    """
    from mcts_arena import bench

    from mcts_arena import budgets

    if not budgets.time_ok(seconds):
        _fail(f"--seconds must be {budgets.TIME_TEXT}, got {seconds}")
    names = list(game_names) or [g for g in games.names() if _built(g)]
    for name in names:
        _load_state(name, None)
    out = bench.search_speed(names, seconds) if search else bench.playout_speed(names, seconds)
    if as_json:
        click.echo(json.dumps(out, indent=2))
    else:
        for line in bench.format_rows(out, search):
            click.echo(line)


@cli.command("players")
@click.argument("game", required=False)
def players_cmd(game: str | None) -> None:
    """List player kinds, tokens and macros (for GAME, if given) with one-line meanings."""
    from mcts_arena import players

    if game is not None:
        _load_state(game, None)
    click.echo("kinds: MCTS(...), αβ(...) (also ab, alphabeta), Random, Greedy(ef...), FlatMC")
    click.echo('external: GTP(cmd="./engine ...", name=N), py(module:Class, key=value...) '
               "(see README)")
    click.echo("tokens:")
    for tok, meaning in players.describe_tokens(game):
        click.echo(f"  {tok:12s} {meaning}")
    for g in [game] if game else games.names():
        info = games.info_of(g)
        click.echo(f"{g}: evaluations {', '.join(info.evals)} (default "
                   f"{info.default_eval}), C={info.default_c}")
        for name, body in info.macros.items():
            click.echo(f"  macro {name:4s} = {body}")


@cli.command("play")
@click.argument("game")
@click.argument("spec_a")
@click.argument("spec_b")
@click.option("--time", "seconds", type=float, default=None, help="Seconds per move.")
@click.option("--sims", type=int, default=None, help="Simulations (αβ: nodes) per move.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for both players.")
@click.option("--position", default=None, help="Start from this position (the game's text form).")
@click.option("--show", is_flag=True, help="Print the board after every move.")
def play_cmd(game, spec_a, spec_b, seconds, sims, seed, position, show) -> None:
    """Play one game: SPEC_A moves first, SPEC_B second; print the moves and the result."""
    from mcts_arena import players
    from mcts_arena.arena.config import Openings, spec_budget
    from mcts_arena.arena.match import play_game
    from mcts_arena.arena.plan import GameSpec, Job
    from mcts_arena.players.base import derive_seed

    _check_budget_options(seconds, sims)
    state = _load_state(game, position)
    game = games.canonical(game)
    if seconds is None and sims is None:
        seconds = 0.1
    try:
        specs = [players.parse(spec, game) for spec in (spec_a, spec_b)]
    except players.SpecError as e:
        _fail(str(e))
    names = [players.display_name(s.canonical) for s in specs]
    budget = {"time": seconds} if seconds is not None else {"sims": sims}
    budgets = tuple(spec_budget(s) or budget for s in specs)
    # the one game loop (arena.match): illegal moves, time forfeits and player errors are
    # judged as in an experiment
    g = GameSpec(game_id="play", pairing_id="play", pair_index=0, swap=0,
                 seats=tuple(s.canonical for s in specs),
                 budgets=budgets, seeds=tuple(derive_seed(seed, i) for i in range(2)))
    job = Job(job_id="play", game=game, openings=Openings(), opening_seed=seed, pair_index=0,
              max_plies=100000, macros=(), games=(g,))
    click.echo(f"{names[0]} (first) vs {names[1]} (second)")

    def shown(rec, st) -> None:
        s = rec.stats[-1]
        work = f"{s['sims']} sims, " if s.get("sims") else \
            f"{s['nodes']} nodes, " if "nodes" in s else ""      # an external engine: neither
        depth = f"depth {s['depth']}, " if "depth" in s else ""
        click.echo(f"{rec.plies:3d}. {names[s['seat']]}: {rec.moves[-1]}  ({work}{depth}"
                   f"{s.get('time', s['wall']):.3f} s)")
        if show:
            click.echo(str(st))

    start = games.new_state(game).to_text()
    rec = play_game(job, g, state.to_text(), players, [] if state.to_text() == start else None,
                    on_move=shown)
    if rec.reason == "error":
        click.echo(f"result: error game ({rec.error})")
    elif rec.winner is None:
        click.echo("result: draw" + (" (ply limit)" if rec.reason == "max_plies" else ""))
    else:
        how = {"time_forfeit": " by time forfeit", "illegal_move": " by an illegal move",
               "resign": " by resignation"}.get(rec.reason, "")
        how += f" ({rec.error})" if how else ""
        click.echo(f"result: {names[rec.winner]} wins "
                   f"({'first' if rec.winner == 0 else 'second'} player){how}")


@cli.command("gtp")
@click.argument("spec")
@click.option("--game", required=True, help="The game to serve.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The player's seed (the runner fills it from the game's seed: {seed}).")
@click.option("--time", "seconds", type=float, default=None,
              help="Seconds per move [default: the engine's time_settings, else 1].")
@click.option("--sims", type=int, default=None, help="Simulations (αβ: nodes) per move.")
def gtp_cmd(spec: str, game: str, seed: int, seconds: float | None, sims: int | None) -> None:
    """Serve the player SPEC over GTP on stdin/stdout, for GUIs and tournament managers.

    Moves are in the game's notation (the one `arena show` prints); extensions set_position
    (the game's text form) and set_random_seed. Example:
    arena gtp "MCTS(bl,im0.4)" --game breakthrough --sims 2000
    """
    from mcts_arena import players
    from mcts_arena.players.gtp_server import GTPServer

    _load_state(game, None)
    _check_scale_options(None, seconds, sims)
    if seed < 0:
        _fail(f"--seed must be a non-negative integer, got {seed}")
    try:
        server = GTPServer(spec, game, seed=seed, time=seconds, sims=sims)
    except players.SpecError as e:
        _fail(str(e))
    try:
        server.serve()
    except (KeyboardInterrupt, BrokenPipeError):     # the controller went away: just stop
        pass


def _built(name: str) -> bool:
    try:
        games.game_class(name)
        return True
    except ImportError:
        return False


def main() -> None:
    """Console entry point (`arena`). Exit statuses: see mcts_arena.errors."""
    import sys

    try:
        cli(prog_name="arena")
    except KeyboardInterrupt:
        click.echo("arena: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)


@cli.command("run")
@click.argument("config_path", metavar="CONFIG")
@click.option("--jobs", "jobs", default=0, show_default=True, type=int,
              help="Games played at once, one worker pinned per CPU; 0 = every CPU this "
                   "process may use (never more).")
@click.option("--games", type=int, default=None, help="Games per pairing (overrides the config).")
@click.option("--time", "time_s", type=float, default=None,
              help="Seconds per move (overrides the config's budget).")
@click.option("--sims", type=int, default=None,
              help="Simulations per move (overrides the config's budget).")
@click.option("--effort", type=float, default=None, metavar="S",
              help="Matched effort: each player gets the simulations/nodes the paper's engine "
                   "searched in S seconds (overrides the config's budget).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Results directory of this experiment [default: results/<name>].")
@click.option("--dry-run", is_flag=True, help="Print the plan and the estimated CPU time; play nothing.")
@click.option("--new", "new", is_flag=True,
              help="Start afresh: an existing results directory is renamed to "
                   "<dir>.<YYYYmmdd-HHMMSS> (kept, never deleted) and a new one is started.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where games run: local worker processes, or a Ray cluster.")
@click.option("--ray-address", default=None, metavar="ADDR",
              help="With --backend ray: the cluster to join, HOST:PORT of its head or 'auto' "
                   "(default: start Ray locally).")
@click.option("--verbose", is_flag=True, help="Let Ray's own log lines through (--backend ray).")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise); reports list the builds behind each pairing.")
def run_cmd(config_path: str, jobs: int, games: int | None, time_s: float | None,
            sims: int | None, effort: float | None, out: str | None, dry_run: bool, new: bool,
            quiet: bool, backend: str, ray_address: str | None, verbose: bool,
            allow_mixed_builds: bool) -> None:
    """Play the experiment CONFIG (YAML) and store every game in RESULTS/arena.sqlite.

    Run again to resume: only missing games are played. A config change that changes the games
    (players, budget, game, seed, openings) is refused unless --new; more games or more
    pairings extend the experiment. Ctrl-C stops cleanly, keeping finished games.

    Exit status: 0 done; 2 a mistake in the command, the config or the results directory
    (nothing changed); 3 some pairing's games are all error games (nothing measured; the next
    run replays them); 130 interrupted.
    """
    import sys

    from mcts_arena.arena import config as config_mod
    from mcts_arena.arena import plan as plan_mod
    from mcts_arena.arena import scheduler
    from mcts_arena.arena.summary import summary_table
    from mcts_arena.store import Store, preflight

    _check_scale_options(games, time_s, sims, effort)
    if ray_address is not None and backend != "ray":
        _fail("--ray-address needs --backend ray")
    workers = scheduler.worker_count(jobs)
    exp = config_mod.load(config_path, config_mod.Overrides(games=games, time=time_s, sims=sims,
                                                            effort=effort))
    the_plan = plan_mod.make_plan(exp)
    directory = scheduler.results_dir(exp, out)
    preflight(directory, busy_ok=dry_run)       # every check before any change on disk

    if dry_run:
        done: set[str] = set()
        if scheduler.has_results(directory) and not new:
            with Store.open(directory, readonly=True) as store:
                scheduler.check_compatible(store, exp)
                done = store.done_ids()
        click.echo(plan_mod.describe(the_plan, done, workers))
        click.echo(f"results: {directory} (dry run: nothing played)")
        return

    scheduler.preflight(exp)            # external engines answer, before anything on disk
    engine = None
    if backend == "ray":        # reach the cluster (and check its nodes) before any change on disk
        from mcts_arena.arena.ray_backend import RayBackend

        engine = RayBackend(address=ray_address, verbose=verbose)
        workers = engine.workers
    try:
        if new and directory.exists():
            moved = scheduler.move_aside(directory)
            click.echo(f"moved the old results to {moved}", err=True)

        def announce(stored: int, to_play: int) -> None:
            where = f"{workers} worker(s)" if engine is None else \
                f"Ray cluster with {workers} CPU(s)"
            click.echo(f"{exp.name}: {len(exp.pairings)} pairing(s), {the_plan.total_games} "
                       f"games ({stored} stored, {to_play} to play), {where}, results in "
                       f"{directory}", err=True)

        result = scheduler.run_experiment(exp, the_plan, directory, workers=workers,
                                          backend=engine, progress=not quiet,
                                          announce=announce, check_players=False,
                                          allow_mixed_builds=allow_mixed_builds)
    finally:
        if engine is not None:
            engine.close()
    with Store.open(directory, readonly=True) as store:
        click.echo(summary_table(store))
    if result.interrupted:
        again = f"run {config_path}" + "".join(
            f" {flag} {value}" for flag, value in (("--jobs", jobs), ("--games", games),
                                                  ("--time", time_s), ("--sims", sims),
                                                  ("--effort", effort), ("--out", out),
                                                  ("--backend", backend),
                                                  ("--ray-address", ray_address))
            if value and value != "local") + (" --allow-mixed-builds" if allow_mixed_builds
                                              else "")
        click.echo(f"arena: interrupted: {result.stored_before + result.played} of "
                   f"{result.planned} games stored, {result.missing} to play; resume with: "
                   f"arena {again}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    line = (f"{result.played} games played in {result.seconds:.1f} s; "
            f"{result.stored_planned}/{result.planned} stored in {directory}")
    if result.errors:
        line += f", {result.errors} of them error games (the next run replays them)"
    if result.skipped:
        line += f"; {result.skipped} not played (the SPRT decided their pairing)"
    extra = result.stored_total - result.stored_planned
    if extra > 0:
        line += (f"; the store holds {result.stored_total} games in all, {extra} beyond this "
                 f"plan (counted in the table above and by 'arena report')")
    click.echo(line)
    if result.all_error:
        raise AllErrorGames(scheduler.all_error_message(result.all_error))


@cli.command("reproduce")
@click.option("--scale", "scale", type=float, default=0.1, show_default=True,
              help="Fraction of the paper's search effort (matched effort: each player gets the "
                   "paper engine's simulations/nodes for scale x the paper's seconds).")
@click.option("--games", type=int, default=40, show_default=True,
              help="Games per pairing (with --precision: the first look).")
@click.option("--precision", type=float, default=None, metavar="H",
              help="Play each row (not sweep points) in looks of 1.5x more games until its "
                   "95% interval is at most ±H points or excludes 50% (at a level split "
                   "over the looks), at most --max-games.")
@click.option("--max-games", type=int, default=None, metavar="N",
              help="With --precision: games per row at most [default: 4 x --games].")
@click.option("--sweep-games", type=int, default=None,
              help="At most this many games per point of an α sweep [default: --games].")
@click.option("--tournament-games", type=int, default=20, show_default=True,
              help="Games per match of the Appendix B tournaments (even).")
@click.option("--only", default=None, metavar="IDS",
              help="Comma-separated page ids (table2, fig1, ...; see configs/reproduction.yaml).")
@click.option("--jobs", "jobs", default=0, show_default=True, type=int,
              help="Games played at once; 0 = every CPU this process may use.")
@click.option("--out", "out", default="results/reproduction", show_default=True, metavar="DIR",
              help="Where the experiments' results directories go.")
@click.option("--docs", "docs", default="docs/reproduction", show_default=True, metavar="DIR",
              help="Where the pages go (index.md, one page per table or figure, PNGs).")
@click.option("--manifest", default="configs/reproduction.yaml", show_default=True,
              help="The list of pages and their experiments.")
@click.option("--pages-only", is_flag=True, help="Write the pages from what is stored; play nothing.")
@click.option("--replace-record", is_flag=True,
              help="Write pages into --docs over a record made at another scale (refused "
                   "otherwise); the other pages and their index rows are kept.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where games run: local worker processes, or a Ray cluster.")
@click.option("--ray-address", default=None, metavar="ADDR",
              help="With --backend ray: the cluster to join (default: start Ray locally).")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise); the pages list the builds behind each row.")
def reproduce_cmd(scale: float, games: int, precision: float | None, max_games: int | None,
                  sweep_games: int | None, tournament_games: int,
                  only: str | None, jobs: int, out: str, docs: str, manifest: str,
                  pages_only: bool, replace_record: bool, quiet: bool, backend: str,
                  ray_address: str | None, allow_mixed_builds: bool) -> None:
    """Play the paper's tables and figures at a fraction of its budget and write the record:
    docs/reproduction/index.md and a page per table or figure, ours beside the paper's with a
    verdict per row. Resumable: run it again to continue; finished experiments are not replayed."""
    import sys
    from pathlib import Path

    from mcts_arena.arena import reproduce, scheduler
    from mcts_arena.report import reproduction

    if not 0 < scale <= 100:
        _fail(f"--scale must be in (0, 100], got {scale}")
    for flag, v in (("--games", games), ("--sweep-games", sweep_games),
                    ("--tournament-games", tournament_games), ("--max-games", max_games)):
        if v is not None and v <= 0:
            _fail(f"{flag} must be a positive integer, got {v}")
    if max_games is not None and precision is None:
        _fail("--max-games needs --precision")
    prec = None
    if precision is not None:
        if not 0 < precision < 50:
            _fail(f"--precision must be a half-width in points in (0, 50), got {precision:g}")
        cap = max_games if max_games is not None else 4 * games
        if cap < games:
            _fail(f"--max-games ({cap}) must be at least --games ({games})")
        prec = reproduce.Precision(half_width=precision, cap=cap)
    sc = reproduce.Scale(effort=scale, games=games, sweep_games=sweep_games,
                         tournament_games=tournament_games, precision=prec)
    man = reproduce.load_manifest(manifest)
    pages = man.select([x.strip() for x in only.split(",") if x.strip()] if only else None)
    out_dir, docs_dir = Path(out), Path(docs)
    if ray_address is not None and backend != "ray":
        _fail("--ray-address needs --backend ray")
    workers = scheduler.worker_count(jobs)
    # every config and rate is checked before anything is played or written, and so is the
    # record the pages go into
    plan = [(p, reproduce.page_dirs(p, sc, out_dir)) for p in pages]
    reproduction.check_overwrite(docs_dir, [p.id for p in pages], scale, replace_record)
    # the command that plays these pages (where they run and are written does not change them)
    command = (f"arena reproduce --scale {scale:g} --games {games}"
               + (f" --precision {precision:g} --max-games {prec.cap}" if prec else "")
               + (f" --sweep-games {sweep_games}" if sweep_games else "")
               + f" --tournament-games {tournament_games}" + (f" --only {only}" if only else ""))
    all_error: tuple[tuple[str, int], ...] = ()
    if not pages_only:
        engine = None
        if backend == "ray":
            from mcts_arena.arena.ray_backend import RayBackend

            engine = RayBackend(address=ray_address)
            workers = engine.workers
        try:
            for page, _dirs in plan:
                ran = reproduce.run_page(page, sc, out_dir, workers=workers, backend=engine,
                                         progress=not quiet,
                                         echo=lambda m: click.echo(m, err=True),
                                         allow_mixed_builds=allow_mixed_builds)
                all_error += ran.all_error
                if ran.interrupted:
                    click.echo(f"arena: interrupted; resume with: {command}", err=True)
                    sys.exit(130)
        finally:
            if engine is not None:
                engine.close()
    docs_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for page, dirs in plan:
        results.append(reproduction.write_page(page, dirs, reproduce.page_seconds(page),
                                               docs_dir, command, sc.describe()))
    notes = docs_dir / "notes.md"
    idx = reproduction.write_index(results, docs_dir, [p.id for p in man.pages], scale,
                                   "See [notes.md](notes.md) for what departs from the paper "
                                   "and why." if notes.exists() else "")
    click.echo(f"wrote {idx} and {len(results)} page(s)")
    if all_error:
        # the pages are written (their other rows stand), but a row without a measurement
        # must not pass for a finished record: the all-error rule of `arena run`
        raise AllErrorGames(scheduler.all_error_message(all_error))


@cli.command("report")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "markdown", "csv", "latex", "html", "json"]),
              help="Output format; html is one self-contained page (pictures embedded as "
                   "base64 PNGs) written to the --out folder.")
@click.option("--ci", default="auto", show_default=True,
              type=click.Choice(["auto", "wald", "wilson"]),
              help="95% interval: wald (the paper's), wilson, or auto (Wilson below 100 games).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Folder for plots and the html page [default: <first PATH>/report].")
@click.option("--compare", default=None, type=click.Choice(["paper"]),
              help="Put the paper's published numbers beside ours, with a verdict.")
def report_cmd(paths: tuple[str, ...], fmt: str, ci: str, out: str | None,
               compare: str | None) -> None:
    """Tables (W/D/L, score with CI, Elo, LOS, per-seat wins, game length, sims per move),
    sweep plots and tournament brackets for the results directories PATH... (read-only)."""
    from pathlib import Path

    from mcts_arena.report import plots, render, tables
    from mcts_arena import solve

    solve_dirs = [p for p in paths if solve.has_solve_results(p)]
    if solve_dirs:
        for p in solve_dirs:
            summary = solve.summarise(p)
            if fmt == "json":
                click.echo(json.dumps(summary, indent=2))
            else:
                click.echo(solve.format_table(summary), nl=False)
        paths = tuple(p for p in paths if p not in solve_dirs)
        if not paths:
            return
    folder = Path(out) if out else Path(paths[0]) / "report"
    if folder.exists() and not folder.is_dir():
        _fail(f"--out {folder}: is a file, expected a folder for the report")
    report = tables.build_report(list(paths), ci=ci, compare=compare)
    try:
        plots.write_figures(report, folder)
        text = render.render(report, fmt)
        if fmt == "html":
            folder.mkdir(parents=True, exist_ok=True)
            page = folder / "report.html"
            page.write_text(text, encoding="utf-8")
    except OSError as e:
        _fail(f"cannot write the report in {folder}: {e.strerror or e}")
    if fmt == "html":
        click.echo(f"wrote {page}")
    else:
        click.echo(text, nl=False)


@cli.command("tournament")
@click.argument("name")
@click.option("--game", default=None, help="Game of a built-in tournament [default: the first registered game].")
@click.option("--eval", "evalfn", default=None, type=click.Choice(["efMS", "efLH"]),
              help="Breakthrough evaluation of the built-in tournaments [default: efMS].")
@click.option("--games", type=int, default=None,
              help="Games per match [default: the paper's, 1000 Kalah / 200 otherwise].")
@click.option("--time", "time_s", type=float, default=None, help="Seconds per move [default 1].")
@click.option("--sims", type=int, default=None, help="Simulations per move instead of --time.")
@click.option("--jobs", "jobs", default=0, show_default=True, type=int,
              help="Games played at once (0 = every usable CPU).")
@click.option("--tie", default=None, type=click.Choice(["first", "playoff"]),
              help="Elimination ties: first (the paper's) or playoff (extra pairs, capped).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Results directory [default: results/tournament-<name>-<game>].")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise).")
def tournament_cmd(name: str, game: str | None, evalfn: str | None, games: int | None,
                   time_s: float | None, sims: int | None, jobs: int, tie: str | None,
                   out: str | None, quiet: bool, allow_mixed_builds: bool) -> None:
    """Play the tournament NAME: fet, det, ege, im (the paper's tuning brackets) or a YAML file
    (configs/tournaments/*.yaml: elimination, round_robin or gauntlet). Run again to resume."""
    import dataclasses
    import sys
    from pathlib import Path

    from mcts_arena.arena import scheduler, tournament
    from mcts_arena.arena.config import Budget
    from mcts_arena.store import preflight

    _check_scale_options(games, time_s, sims)
    workers = scheduler.worker_count(jobs)
    spec = tournament.resolve(name, game, evalfn)
    changes = {}
    if games is not None:
        changes["games"] = games
    if time_s is not None or sims is not None:
        changes["budget"] = Budget(time=time_s, sims=sims)
    if tie is not None:
        changes["tie"] = tie
    spec = dataclasses.replace(spec, **changes)
    if spec.kind == "elimination" and spec.games % 2:
        _fail(f"--games must be even for an elimination (seat-swapped pairs), got {spec.games}")
    directory = Path(out) if out else Path("results") / spec.name
    preflight(directory)        # a busy or foreign directory is refused before any output
    click.echo(f"tournament {spec.title}: {workers} worker(s), results in {directory}", err=True)
    click.echo(tournament.header(spec) + "\n")
    result = tournament.run_tournament(spec, directory, workers=workers, progress=not quiet,
                                       echo=click.echo, allow_mixed_builds=allow_mixed_builds)
    if result.interrupted:
        click.echo(tournament.render(result.state, with_header=False).rstrip())
        click.echo(f"arena: interrupted; resume with the same command (results in {directory})",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)


@cli.command("prove")
@click.argument("game", metavar="GAME")
@click.option("--position", default=None, help="The position in the game's text form.")
@click.option("--nodes", type=int, default=0, show_default=True,
              help="Node budget per move (0 = no limit); past it a value is unknown.")
@click.option("--depth", type=int, default=0, show_default=True,
              help="Only results reached within this many plies (0 = to the end).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def prove_cmd(game: str, position: str | None, nodes: int, depth: int, as_json: bool) -> None:
    """Solve a position exactly (αβ over win/draw/loss with a transposition table): the value
    for the side to move and the value of every legal move. GAME may carry parameters, e.g.
    `hex(size=4)`. For small boards: Hex up to 5x5, endgames and short tactics elsewhere."""
    from mcts_arena.solver import Solver

    if nodes < 0 or depth < 0:
        _fail("--nodes and --depth must be >= 0")
    state = _load_state(game, position)
    name = games.split(game)[0]
    if state.is_terminal():
        _fail("the position is already finished (nothing to prove)")
    values, stats = Solver().solve_moves(state, nodes, depth)
    word = {1: "win", 0: "draw", -1: "loss", None: "unknown"}
    known = [v for v in values.values() if v is not None]
    overall = max(known) if known else None
    if overall is not None and overall < 1 and None in values.values():
        overall = None            # an unknown move might still be better
    rows = [(state.format_move(m), word[v]) for m, v in values.items()]
    wins = [m for m, w in rows if w == "win"]
    if as_json:
        click.echo(json.dumps({"game": name, "position": state.to_text(),
                               "value": word[overall], "moves": dict(rows),
                               "winning_moves": wins, **stats}, indent=2))
        return
    click.echo(f"{name}: {state.to_text()}")
    click.echo(f"value for the side to move: {word[overall]}  ({stats['nodes']:,} nodes, "
               f"{stats['time']:.2f} s)")
    click.echo(f"winning moves ({len(wins)}): {' '.join(wins) or '-'}")
    for w in ("draw", "loss", "unknown"):
        ms = [m for m, x in rows if x == w]
        if ms:
            click.echo(f"{w} ({len(ms)}): {' '.join(ms)}")


@cli.command("solve")
@click.argument("suite_path", metavar="SUITE")
@click.option("--players", "specs", multiple=True,
              help="A player (repeat the option); default: Random, FlatMC, MCTS, and MCTS(ipp) "
                   "where the game has a playout policy (bridge playouts in Hex).")
@click.option("--budgets", default="100,1000,10000", show_default=True,
              help="Comma-separated simulation budgets (αβ: nodes).")
@click.option("--seeds", type=int, default=10, show_default=True,
              help="Independent searches per player and position.")
@click.option("--seed", type=int, default=1, show_default=True, help="Base seed.")
@click.option("--out", default=None, metavar="DIR",
              help="Results directory [default: results/solve-<suite name>].")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def solve_cmd(suite_path, specs, budgets, seeds, seed, out, as_json, quiet) -> None:
    """Run test-position suite SUITE: per player, position and seed, the move chosen at each
    budget; prints solved % per budget, the median simulations until the choice is correct and
    stays so, and time; writes solve.json and solve.png. Resumable (DIR/arena.sqlite)."""
    from pathlib import Path

    from mcts_arena import solve

    try:
        budget_list = [int(b) for b in budgets.split(",") if b.strip()]
    except ValueError:
        _fail(f"--budgets must be comma-separated positive integers, got {budgets!r}")
    if not budget_list or min(budget_list) <= 0:
        _fail(f"--budgets must be comma-separated positive integers, got {budgets!r}")
    if seeds <= 0:
        _fail(f"--seeds must be a positive integer, got {seeds}")
    suite = solve.load_suite(suite_path)
    if not specs:     # the sanity players, plain UCT, and UCT with the game's playout policy
        specs = ["Random", "FlatMC", "MCTS"] + (
            ["MCTS(ipp)"] if "policy" in games.info_of(suite.game).options else [])
    directory = Path(out) if out else Path("results") / f"solve-{suite.name}"
    echo = None if quiet or as_json else (lambda m: click.echo(m, err=True))
    summary = solve.run_suite(suite, list(specs), sorted(set(budget_list)), seeds, directory,
                              base_seed=seed, echo=echo)
    (directory / "solve.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    png = solve.write_plot(summary, directory / "solve.png")
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(solve.format_table(summary), nl=False)
    click.echo(f"results: {directory} (solve.json, {png.name})")
