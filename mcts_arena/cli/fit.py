"""`arena fit`: an evaluation fitted to the outcomes of stored games (learn/fit.py), or
bootstrapped from its own search in self-play (`--self-play`, learn/bootstrap.py), written to
a file a player names (`MCTS(bl,ef=FILE)`; games/evalfile.py)."""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import click

from mcts_arena.cli.app import SEED, Integer, cli, fail
from mcts_arena.games import evalfile
from mcts_arena.learn import fit as fitting


@cli.command("fit")
@click.argument("sources", nargs=-1, metavar="[SOURCE...]")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The evaluation file to write (JSON; refused if it exists, unless --force).")
@click.option("--game", default=None, help="The game the sources must hold (checked); with "
              "--self-play, the game to play.")
@click.option("--l2", type=float, default=1e-3, show_default=True,
              help="L2 penalty on the standardised weights (the tempo's is not penalised).")
@click.option("--per-game", type=Integer(1, 10_000), default=8, show_default=True,
              help="Positions sampled from each game at most.")
@click.option("--min-ply", type=Integer(0, 10_000), default=4, show_default=True,
              help="Positions from this ply on.")
@click.option("--test-share", type=float, default=0.2, show_default=True,
              help="The share of the games held out (their positions are never fitted).")
@click.option("--self-play", type=Integer(1, 1_000_000), default=None,
              help="Instead of SOURCE: bootstrap the weights from their own αβ search over "
              "this many self-play games (RootStrap; docs/learned.md).")
@click.option("--from", "start", type=click.Path(dir_okay=False), default=None,
              help="With --self-play: start from this evaluation file's weights (default: 0).")
@click.option("--nodes", type=Integer(100, 10**9), default=5000, show_default=True,
              help="With --self-play: αβ nodes per search.")
@click.option("--lr", type=float, default=0.05, show_default=True,
              help="With --self-play: the step size of each update.")
@click.option("--rule", type=click.Choice(["treestrap", "rootstrap"]), default="treestrap",
              show_default=True, help="With --self-play: learn from every node the search "
              "valued (TreeStrap) or from its root only (RootStrap).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--force", is_flag=True, help="Write over an existing --out.")
@click.option("--json", "as_json", is_flag=True, help="Print the fit's report as JSON.")
def fit_cmd(sources, out, game, l2, per_game, min_ply, test_share, self_play, start, nodes,
            lr, rule, seed, force, as_json) -> None:
    """Fit a linear evaluation to the outcomes of stored games (Texel's method): positions
    sampled from SOURCE... (results directories or the record's published .jsonl.gz files),
    the game knowledge's features of each, and a logistic regression of the result for the
    side to move, with L2 and a held-out share of the games. Or, with --self-play N and
    --game, bootstrap it from its own αβ search (TreeStrap, or RootStrap). Writes --out,
    which a player plays by naming it: `MCTS(bl,ef=FILE)`, `αβ(ef=FILE)`."""
    if Path(out).exists() and not force:
        fail(f"{out} exists: give another --out, or --force to write over it")
    if not Path(out).parent.is_dir():
        fail(f"{out}: no such folder {Path(out).parent}")
    if self_play is not None:
        name, result = _self_play(sources, game, self_play, start, nodes, lr, rule, seed)
    elif not sources:
        fail("arena fit needs SOURCE... (results directories or published files), or "
             "--self-play N with --game")
    else:
        name, result = fitting.fit(list(sources), game, l2, per_game, min_ply, test_share,
                                   seed)
    created = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    evalfile.write(out, fitting.file_object(name, result, created))
    if as_json:
        click.echo(json.dumps(result.report, indent=1))
    else:
        _show(name, result, out)


def _self_play(sources, game, self_play, start, nodes, lr, rule, seed):
    from mcts_arena.learn.bootstrap import bootstrap

    if sources:
        fail("--self-play plays its own games: give no SOURCE")
    if game is None:
        fail("--self-play needs --game")
    first = None
    if start is not None:
        first = dict(evalfile.read(start, game), source=str(start))
    return bootstrap(game, self_play, first, nodes, lr, seed=seed, rule=rule)


def _show(name, result, out) -> None:
    r = result.report["fit"]
    if "log_loss" in r:
        ll = r["log_loss"]
        click.echo(f"{name}: {r['positions']['train']:,} positions of {r['games']['train']:,} "
                   f"games fitted, {r['positions']['held_out']:,} of "
                   f"{r['games']['held_out']:,} held out")
        click.echo(f"held-out log-loss {ll['held_out']:.4f} (train {ll['train']:.4f}; a coin "
                   f"{ll['coin']:.4f}; the hand-written evaluation, calibrated, "
                   f"{ll['hand_written_calibrated']:.4f}); accuracy {r['held_out_accuracy']}")
    else:
        e = r["mean_squared_error"]
        click.echo(f"{name}: {r['rule']}, {r['self_play_games']:,} self-play games, "
                   f"{r['updates']:,} searches learned from; squared error to their values "
                   f"{e['first_tenth']} in the first tenth of the games, {e['last_tenth']} in "
                   f"the last")
    for f, w in zip(evalfile.feature_names(name), result.weights):
        click.echo(f"  {f:16s} {w:+.5f}")
    click.echo(f"wrote {out}: a player plays it as ef={out}, e.g. MCTS(ef={out}) or "
               f"αβ(ef={out})")
