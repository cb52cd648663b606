"""Commands that look at games and players: `arena games`, `players`, `show`, `perft`, `bench`."""
from __future__ import annotations

import json
from pathlib import Path

import click

from mcts_arena import bench, budgets, games
from mcts_arena.cli.app import Integer, cli, fail


@cli.command("games")
def games_cmd() -> None:
    """List the games with their evaluation functions and parameters (what each one means,
    its default and range): a game is written NAME or NAME(key=value,...)."""
    for name in games.names():
        try:
            info = games.info_of(name)
        except ImportError:
            click.echo(f"{name:13s} (not built)")
            continue
        click.echo(f"{name:13s} {info.description}")
        solved = "; solved exactly: arena prove, PigOptimal" if info.exact_solver else ""
        click.echo(f"{'':13s} evaluations: {', '.join(info.evals)} (arena players {name})"
                   f"{solved}")
        for key, p in info.params.items():
            setting = f"{key}={p.default}"
            click.echo(f"{'':13s} {setting:10s} {p.meaning} ({p.low} to {p.high})")


@cli.command("players")
@click.argument("game", required=False)
def players_cmd(game: str | None) -> None:
    """List player kinds, tokens, options and macros with one-line meanings; with GAME, only
    what that game accepts, and its evaluation functions described."""
    from mcts_arena import players

    if game is not None:
        game = games.resolve(game)
    click.echo("kinds: MCTS(...), αβ(...) (also ab, alphabeta), Random, Greedy(ef...), FlatMC, "
               "PigOptimal (a game's exact solution: pig)")
    click.echo("  games of chance: expectimax(...), Star1(...), Star2(...) (*-minimax, Ballard "
               "1983), MCMS(cN,...) (Monte Carlo *-minimax), gnubg(plies=N) (backgammon: GNU "
               "Backgammon, one point match)")
    click.echo('external: GTP(cmd="./engine ...", name=N), py(module:Class, key=value...) '
               "(see docs/engines.md)")
    click.echo("tokens and options (a placeholder is the letter its meaning uses):")
    for tok, meaning in players.describe_tokens(game):
        click.echo(f"  {tok:12s} {meaning}")
    for g in [game] if game else games.names():
        info = games.info_of(g)
        click.echo(f"{g}: evaluations (default {info.default_eval}), C={info.default_c}")
        for ev in info.evals:
            click.echo(f"  {ev:12s} {info.eval_meanings[ev]}")
        if info.has_chance:
            solved = ", PigOptimal (its exact solution)" if info.exact_solver else ""
            click.echo(f"  a game with dice: MCTS and FlatMC (chance nodes sampled by "
                       f"probability), expectimax, Star1, Star2, MCMS, Random, "
                       f"Greedy(ef...){solved} and py(...) play it; αβ and GTP engines cannot")
        for name, body in info.macros.items():
            click.echo(f"  macro {name:6s} = {body}")


@cli.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("depth", type=Integer(0, 1000))
@click.option("--position", default=None, help="Start from this position (the game's text form).")
def perft_cmd(game: str, depth: int, position: str | None) -> None:
    """Count the leaves of the move tree of GAME to DEPTH plies (the count is printed last)."""
    from mcts_arena.players.search import work

    state = games.new_state(game, position)
    work.check_perft(state, depth)          # refused first when it cannot finish
    click.echo(f"perft {game} depth {depth}")
    click.echo(state.perft(depth))


#: File endings of the game records `arena export` writes: a missing one is no game name.
RECORD_SUFFIXES = (".pgn", ".sgf", ".jsonl", ".json")


@cli.command("show")
@click.argument("target", metavar="GAME|RESULTS_DIR|FILE")
@click.argument("record_id", required=False, metavar="[ID]")
@click.option("--position", default=None, help="The position in the game's text form.")
@click.option("--id", "id_option", default=None, metavar="ID",
              help="The game to replay (the same as the positional ID).")
@click.option("--game", "old_id", default=None, metavar="ID", hidden=True,
              help="Deprecated spelling of --id (--game names a game in every other command).")
@click.option("--move", "moves", multiple=True, metavar="MOVE",
              help="Play this move first (repeat the option for several, in order; the dice "
                   "of a game with chance are moves too: --move x31 --move '8/5 6/5').")
def show_cmd(target: str, record_id: str | None, position: str | None, id_option: str | None,
             old_id: str | None, moves: tuple[str, ...]) -> None:
    """Print a position of GAME (board, side to move, legal moves), or replay a recorded game.

    `arena show GAME` shows the start (or --position), after the --move moves if any;
    `arena show results/quickstart ID` replays a game of an experiment, `arena show games.pgn 3`
    the third game of an exported file (PGN, SGF or JSON lines, as `arena export` writes them);
    without an ID it lists the games.
    """
    from mcts_arena.results import replay

    if old_id is not None:
        click.echo("arena: warning: 'arena show RESULTS --game ID' is deprecated (--game is a "
                   "game in every other command); write 'arena show RESULTS ID' or --id ID",
                   err=True)
    ids = [x for x in (record_id, id_option, old_id) if x is not None]
    if len(set(ids)) > 1:
        fail(f"two game ids given ({', '.join(ids)}); give one")
    game_id = ids[0] if ids else None
    if replay.is_results_dir(target):
        if game_id is not None:
            click.echo(replay.replay_game(target, game_id))
            return
        ids, count = replay.stored_game_ids(target, 10)
        click.echo(f"{count} games stored; replay one with: arena show {target} ID, e.g.:")
        for gid in ids:
            click.echo(f"  {gid}")
        return
    if Path(target).is_file():
        if game_id is not None:
            click.echo(replay.replay_record(target, game_id))
            return
        lines, count = replay.record_ids(target, 10)
        click.echo(f"{count} games in {target}; replay one with: arena show {target} N "
                   f"(its number or game id):")
        for line in lines:
            click.echo(line)
        return
    if game_id is not None:
        fail(f"a game id needs a results directory (holding arena.sqlite) or an exported "
             f"file, not {target!r}")
    if Path(target).suffix.lower() in RECORD_SUFFIXES:
        fail(f"no such file {target!r} (a game record to replay: a file written by "
             f"'arena export'; a game is named as 'arena games' lists it)")
    if games.split(target)[0] not in games.names() and Path(target).exists():
        fail(f"{target!r} is neither a game nor a results directory (no arena.sqlite in it)")
    state = games.new_state(target, position)
    for i, move in enumerate(moves, 1):
        try:
            state.play(move)
        except ValueError as e:
            fail(f"--move {i}: {' '.join(str(e).split())}")
    click.echo(str(state))
    click.echo(f"position: {state.to_text()}")
    legal = state.moves()
    kind = "chance outcomes (dice)" if state.is_chance_node() else "legal moves"
    click.echo(f"{kind} ({len(legal)}): {' '.join(legal)}")


@cli.command("bench")
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--seconds", default=2.0, show_default=True, type=float,
              help="Time per game (per player with --search).")
@click.option("--search", is_flag=True,
              help="Search speed instead: MCTS simulations/s and αβ nodes/s from the start.")
@click.option("--openspiel", is_flag=True,
              help="Ours against OpenSpiel at the same settings: plain UCT simulations/s and "
                   "random games/s, in alternating rounds (needs open_spiel).")
@click.option("--rounds", default=4, show_default=True, type=click.IntRange(1, 100),
              help="With --openspiel: alternating rounds the seconds are split into.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object keyed by game.")
def bench_cmd(game_names: tuple[str, ...], seconds: float, search: bool, openspiel: bool,
              rounds: int, as_json: bool) -> None:
    """Random full-game playouts per second (and moves per second) on one core.

    With --search: simulations per second of the paper's MCTS players and nodes per second of
    αβ, from each game's start position, and the bytes each MCTS tree node takes.

    With --openspiel: for each game OpenSpiel also has, plain UCT with random rollouts (the
    same exploration constant and simulations per search, from the start) and random games,
    ours and OpenSpiel's, with the ratios; --seconds is each side's time per measure.
    """
    if not budgets.time_ok(seconds):
        fail(f"--seconds must be {budgets.TIME_TEXT}, got {seconds}")
    if search and openspiel:
        fail("--search and --openspiel are two different benches: give one")
    names = list(game_names) or games.built_names()
    for name in names:
        games.new_state(name)
    if openspiel:
        from mcts_arena.bench import openspiel as vs
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            fail("--openspiel needs open_spiel (pip install open_spiel)")
        out = vs.compare(names, seconds, rounds)
        lines = vs.format_table(out)
    else:
        out = (bench.search_speed(names, seconds) if search
               else bench.playout_speed(names, seconds))
        lines = bench.format_rows(out, search)
    if as_json:
        click.echo(json.dumps(out, indent=2))
    else:
        for line in lines:
            click.echo(line)
