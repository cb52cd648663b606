"""Commands that play one game or serve a player: `arena play`, `arena gtp`."""
from __future__ import annotations

import click

from mcts_arena import budgets, games
from mcts_arena.budgets import Budget
from mcts_arena.cli.app import SEED, SIMS, check_budget_options, check_scale_options, cli, fail
from mcts_arena.errors import AllErrorGames

_HOW = {"time_forfeit": " by time forfeit", "illegal_move": " by an illegal move",
        "resign": " by resignation"}


@cli.command("play")
@click.argument("game")
@click.argument("spec_a")
@click.argument("spec_b")
@click.option("--time", "seconds", type=float, default=None, help="Seconds per move.")
@click.option("--sims", type=SIMS, default=None,
              help="Simulations (αβ: nodes) per move; with --clock a cap per move.")
@click.option("--clock", "clock_text", default=None,
              help="Play on a clock, as cutechess-cli writes one: 60, 40/60, 0:30+0.1, "
                   "10+0.1 (each side's time for the game plus an increment a move).")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed for both players.")
@click.option("--position", default=None, help="Start from this position (the game's text form).")
@click.option("--show", is_flag=True, help="Print the board after every move.")
def play_cmd(game, spec_a, spec_b, seconds, sims, clock_text, seed, position, show) -> None:
    """Play one game: SPEC_A in the first seat, SPEC_B in the second; print the moves and the
    result. The first seat moves first unless the game's rules say otherwise (EinStein's first
    move is the second seat's; in backgammon the opening roll decides)."""
    from mcts_arena import players
    from mcts_arena.runner.config import own_budget
    from mcts_arena.runner.match import play_one

    check_budget_options(seconds, sims)
    clock = _clock_option(clock_text, seconds)
    game = games.resolve(game)
    game.new_state(position)
    if seconds is None and sims is None and clock is None:
        seconds = 0.1
    specs = [players.parse(spec, game) for spec in (spec_a, spec_b)]
    names = [players.display_name(s.canonical) for s in specs]
    budget = Budget(time=seconds) if seconds is not None else Budget(sims=sims)
    own = tuple(own_budget(s, players.parse) for s in specs)    # an effort= resolved
    own = tuple(_on_clock(s, b, sims, clock) if clock is not None or
                (b is not None and b.clock is not None) else b for s, b in zip(specs, own))
    for s, b in zip(specs, own):    # an outside engine that cannot start: a command mistake, 2
        players.check_startup(s.canonical, game, b or budget, position is None)
    seat_names = _seat_names(game, position)
    sides = [b.clock for b in own if b is not None and b.clock is not None]
    shown_clock = clock if clock is not None else " / ".join(
        b.clock if b is not None and b.clock is not None else "none" for b in own)
    click.echo(f"{names[0]} ({seat_names[0]}) vs {names[1]} ({seat_names[1]})"
               + (f", clock {shown_clock}" if sides else ""))

    def shown(rec, st) -> None:
        s = rec.stats[-1]
        if s.get("chance"):                 # a game with dice: the roll the loop drew
            click.echo(f"{rec.plies:3d}. dice: {rec.moves[-1]}")
            if show:
                click.echo(str(st))
            return
        work = f"{s['sims']} sims, " if s.get("sims") else \
            f"{s['nodes']} nodes, " if "nodes" in s else ""      # an external engine: neither
        depth = f"depth {s['depth']}, " if "depth" in s else ""
        click.echo(f"{rec.plies:3d}. {names[s['seat']]}: {rec.moves[-1]}  ({work}{depth}"
                   f"{s.get('time', s['wall']):.3f} s)")
        if show:
            click.echo(str(st))

    # the one game loop (runner/match.py): illegal moves, time forfeits and player errors are
    # judged as in an experiment
    rec = play_one(game, tuple(s.canonical for s in specs),
                   tuple(b or budget for b in own), seed, position, players, on_move=shown)
    if rec.reason == "error":
        # nothing was measured: the status says so (3, the all-error rule of `arena run`)
        click.echo("result: error game (nothing measured; the error follows)")
        raise AllErrorGames(f"the game could not be played: {rec.error}")
    elif rec.winner is None:
        click.echo("result: draw" + (" (ply limit)" if rec.reason == "max_plies" else ""))
    else:
        how = _HOW.get(rec.reason, "")
        how += f" ({rec.error})" if how else ""
        seat = seat_names[rec.winner]
        click.echo(f"result: {names[rec.winner]} wins ({seat}"
                   f"{' player' if not seat.startswith('seat') else ''}){how}")


def _clock_option(text: str | None, seconds: float | None) -> str | None:
    """--clock in its one text form (None: no clock, `inf` included); one line for a bad
    one or one beside --time."""
    if text is None or text.strip() == budgets.NO_CLOCK:
        return None
    if seconds is not None:
        fail("--clock and --time exclude each other: the clock decides each move's time "
             "(--sims may cap it)")
    try:
        return budgets.parse_clock(text).text()
    except ValueError as e:
        fail(f"--clock: {e}")


def _on_clock(spec, own: Budget | None, sims: int | None, clock: str | None) -> Budget:
    """A player's budget on the clock (--clock, or its own `clock=`): its own sims= or --sims
    as the cap per move; a fixed time per move, a clock given twice, or no time management
    without a cap, refused in one line."""
    if own is not None and own.clock is not None:
        if clock is not None:
            fail(f"{spec.canonical} has a clock of its own ({own.clock}) beside --clock "
                 f"{clock}: give one of them")
        clock = own.clock
    if own is not None and (own.time is not None or own.effort is not None):
        fail(f"{spec.canonical} carries a fixed budget ({own.text()} per move), which the clock "
             f"{clock} contradicts: it decides each move's time")
    cap = own.sims if own is not None else sims
    if cap is None and spec.get("tm") == 0 and not spec.get("depth"):
        fail(f"{spec.canonical} has no time management (tm=0), so on a clock ({clock}) it "
             f"searches each move to its cap: give it sims= or --sims (a cap per move)")
    return Budget(sims=cap, clock=clock)


def _seat_names(game: games.Game, position: str | None) -> tuple[str, str]:
    """How `arena play` names the two seats: `first` and `second` by who makes the first move
    (not the first roll of the dice: EinStein's second seat moves first), or `seat 0` and
    `seat 1` where the dice decide it (backgammon's opening roll)."""
    movers = set()
    for k in range(16):                 # the start's chance nodes, at outcomes across [0, 1)
        s = game.new_state(position)
        while s.is_chance_node():
            s.play(s.outcome_at(k / 16))
        if s.is_terminal():
            return ("first", "second")
        movers.add(s.to_move())
    if len(movers) > 1:
        return ("seat 0", "seat 1")
    return ("first", "second") if movers == {0} else ("second", "first")


@cli.command("gtp")
@click.argument("spec")
@click.option("--game", required=True, help="The game to serve.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="The player's seed (the runner fills it from the game's seed: {seed}).")
@click.option("--time", "seconds", type=float, default=None,
              help="Seconds per move [default: the engine's time_settings, else 1].")
@click.option("--sims", type=SIMS, default=None, help="Simulations (αβ: nodes) per move.")
def gtp_cmd(spec: str, game: str, seed: int, seconds: float | None, sims: int | None) -> None:
    """Serve the player SPEC over GTP on stdin/stdout, for GUIs and tournament managers.

    Moves are in the game's notation (the one `arena show` prints); extensions set_position
    (the game's text form) and set_random_seed. Example:
    arena gtp "MCTS(bl,im0.4)" --game breakthrough --sims 2000
    """
    from mcts_arena.players.gtp_server import GTPServer

    games.new_state(game)
    if games.info_of(game).has_chance:
        fail(f"arena gtp cannot serve {games.canonical(game)}, a game with dice: GTP carries "
             "no dice")
    check_scale_options(None, seconds, sims)
    if seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    server = GTPServer(spec, game, seed=seed, time=seconds, sims=sims)
    try:
        server.serve()
    except (KeyboardInterrupt, BrokenPipeError):     # the controller went away: just stop
        pass
