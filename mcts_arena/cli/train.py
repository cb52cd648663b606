"""`arena train`: a value and policy network trained on stored games (learn/net.py), or improved
by self-play generations (`--self-play`, runner/selfplay.py), written to files a player names
(`MCTS(puctp1.5,fet0,nn=FILE)`; games/netfile.py). torch is an optional extra."""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import click

from mcts_arena.cli.app import JOBS, SEED, SIMS, Integer, cli, fail
from mcts_arena.games import evalfile, netfile
from mcts_arena.learn import net


def _widths(ctx, param, value):
    try:
        return [int(v) for v in value.split(",")]
    except ValueError:
        raise click.BadParameter(f"{value!r}: layer widths separated by commas (64,64)") \
            from None


@cli.command("train")
@click.argument("sources", nargs=-1, metavar="[SOURCE...]")
@click.option("--out", "out", required=True, type=click.Path(),
              help="The network file to write (JSON; refused if it exists, unless --force); "
              "with --self-play, a new folder for the generations.")
@click.option("--game", default=None, help="The game the sources must hold (checked); with "
              "--self-play, the game to play.")
@click.option("--hidden", default="64,64", show_default=True, callback=_widths,
              help="The hidden layers' widths (ReLU).")
@click.option("--epochs", type=Integer(1, 100_000), default=10, show_default=True)
@click.option("--lr", type=float, default=1e-3, show_default=True, help="Adam's step size.")
@click.option("--l2", type=float, default=1e-4, show_default=True, help="Weight decay.")
@click.option("--batch", type=Integer(1, 10**6), default=256, show_default=True)
@click.option("--per-game", type=Integer(1, 100_000), default=16, show_default=True,
              help="Positions sampled from each game at most.")
@click.option("--min-ply", type=Integer(0, 10_000), default=0, show_default=True,
              help="Positions from this ply on.")
@click.option("--test-share", type=float, default=0.1, show_default=True,
              help="The share of the games held out (their positions are never trained on).")
@click.option("--from", "start", type=click.Path(dir_okay=False), default=None,
              help="Start from this network file's weights (the same --hidden).")
@click.option("--self-play", type=Integer(2, 10**7), default=None,
              help="Instead of SOURCE: games per generation of --player against itself.")
@click.option("--generations", type=Integer(1, 10_000), default=1, show_default=True)
@click.option("--player", default="MCTS(puctp1.5,fet0)", show_default=True,
              help="With --self-play: the player, each generation's network added as nn=FILE.")
@click.option("--sims", type=SIMS, default=200, show_default=True,
              help="With --self-play: simulations per move.")
@click.option("--jobs", type=JOBS, default=0, help="With --self-play: worker processes "
              "(0: every core).")
@click.option("--window", type=Integer(1, 10_000), default=4, show_default=True,
              help="With --self-play: train on the last N generations' games.")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--force", is_flag=True, help="Write over an existing --out file.")
@click.option("--json", "as_json", is_flag=True, help="Print the training report as JSON.")
def train_cmd(sources, out, game, hidden, epochs, lr, l2, batch, per_game, min_ply,
              test_share, start, self_play, generations, player, sims, jobs, window, seed,
              force, as_json) -> None:
    """Train a value and policy network on stored games: positions sampled from SOURCE...
    (results directories or the record's published .jsonl.gz files), the value trained toward
    the outcome for the side to move and the policy toward the move played (imitation of the
    stored players), a held-out share of the games. Or, with --self-play N, --generations K and
    --game, improve it by playing itself. torch is needed: pip install 'mcts_arena[learn]'."""
    net.torch_module()
    if self_play is not None:
        _self_play(sources, game, out, self_play, generations, player, sims, jobs, window,
                   hidden, epochs, lr, l2, batch, per_game, seed)
        return
    if Path(out).exists() and not force:
        fail(f"{out} exists: give another --out, or --force to write over it")
    if not Path(out).parent.is_dir():
        fail(f"{out}: no such folder {Path(out).parent}")
    first = None
    if start is not None:
        first = dict(netfile.read(start, game), source=str(start))
    trained = net.train_from(list(sources), game, hidden, epochs, lr, l2, batch, per_game,
                             min_ply, test_share, seed, first,
                             progress=None if as_json else _epoch)
    created = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    evalfile.write(out, dict(trained.obj, created=created))
    report = trained.obj["training"]
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    for part in ("train", "held_out"):
        r = report[part]
        click.echo(f"{part}: {r['positions']:,} positions of {r['games']:,} games; value MSE "
                   f"{r['value_mse']} (0 everywhere: {r['value_mse_of_0']}), policy "
                   f"cross-entropy {r['policy_ce']} (uniform: {r['policy_ce_uniform']}), the "
                   f"move played ranked first {r['policy_top1']:.1%}")
    click.echo(f"wrote {out} ({netfile.sizes(trained.obj)}, {report['seconds']} s): a player "
               f"plays it as nn={out}, e.g. MCTS(puctp1.5,fet0,nn={out})")


def _epoch(h: dict) -> None:
    click.echo(f"epoch {h['epoch']}: value MSE {h['value_mse']}, policy cross-entropy "
               f"{h['policy_ce']}", err=True)


def _self_play(sources, game, out, n, generations, player, sims, jobs, window, hidden,
               epochs, lr, l2, batch, per_game, seed) -> None:
    from mcts_arena.runner.selfplay import self_play

    if sources:
        fail("--self-play plays its own games: give no SOURCE")
    if game is None:
        fail("--self-play needs --game")
    gens = self_play(game, player, Path(out), n, generations, sims, jobs, 2, window, hidden,
                     epochs, lr, l2, batch, per_game, seed,
                     say=lambda m: click.echo(m, err=True))
    click.echo(f"wrote {len(gens)} networks into {out} (gen0 untrained to gen{len(gens) - 1}); "
               f"the last plays as nn={gens[-1].file}")
