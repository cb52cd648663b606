"""`arena prove` (the exact prover) and `arena solve` (test-position suites)."""
from __future__ import annotations

import json

import click

from mcts_arena import games
from mcts_arena.cli.app import cli, fail


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
    `hex(size=4)`. For small boards: Hex up to 5x5, endgames and short tactics elsewhere.

    A game with its own exact solution (Pig: value iteration, e.g. `pig(target=50)`) prints
    the first player's winning probability and the optimal policy; with --position, the side
    to move's winning probability there and its optimal move."""
    from mcts_arena.players.search.prover import prove_position

    if nodes < 0 or depth < 0:
        fail("--nodes and --depth must be >= 0")
    g = games.resolve(game)
    if g.info.exact_solver is not None:
        if nodes or depth:
            fail(f"{g} is solved exactly (value iteration): --nodes and --depth do not apply")
        _prove_exact(g, position, as_json)
        return
    if g.info.has_chance:
        fail(f"arena prove searches games without chance nodes; {g} has dice and no exact "
             "solution")
    state = games.new_state(game, position)
    name = games.split(game)[0]
    if state.is_terminal():
        fail("the position is already finished (nothing to prove)")
    res = prove_position(state, nodes, depth)
    if as_json:
        click.echo(json.dumps({"game": name, "position": state.to_text(), **res}, indent=2))
        return
    click.echo(f"{name}: {state.to_text()}")
    click.echo(f"value for the side to move: {res['value']}  ({res['nodes']:,} nodes, "
               f"{res['time']:.2f} s)")
    wins = res["winning_moves"]
    click.echo(f"winning moves ({len(wins)}): {' '.join(wins) or '-'}")
    for w in ("draw", "loss", "unknown"):
        ms = [m for m, x in res["moves"].items() if x == w]
        if ms:
            click.echo(f"{w} ({len(ms)}): {' '.join(ms)}")


def _prove_exact(g: games.Game, position: str | None, as_json: bool) -> None:
    """`arena prove` of a game with an exact solution (GameInfo.exact_solver)."""
    state = g.new_state(position) if position is not None else None
    if state is not None and state.is_terminal():
        fail("the position is already finished (nothing to prove)")
    try:
        sol = g.info.exact_solver(dict(g.params))
    except ValueError as e:
        fail(str(e))
    out = {"game": str(g), "first_player_win": sol.first_player_win()}
    if state is not None:
        out["position"] = state.to_text()
        out["win_probability"] = sol.win_probability_at(state)
        if not state.is_chance_node():
            out["move"] = state.format_move(sol.move(state))
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(sol.summary())
    if state is not None:
        where = "rolls the die" if state.is_chance_node() else f"plays {out['move']}"
        click.echo(f"position {out['position']}: the side to move wins with probability "
                   f"{out['win_probability']:.6f} and {where}")


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
    from mcts_arena.report.suites import format_table, write_plot
    from mcts_arena.runner import suites

    echo = None if quiet or as_json else (lambda m: click.echo(m, err=True))
    summary, directory = suites.run(suite_path, list(specs), budgets, seeds, seed, out, echo)
    png = write_plot(summary, directory / "solve.png")
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(format_table(summary), nl=False)
    click.echo(f"results: {directory} (solve.json, {png.name})")
