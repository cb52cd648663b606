"""`arena gameframe build | check`: the paper authors' engine built for `gameframe(LABEL)`."""
from __future__ import annotations

import json
from pathlib import Path

import click

from mcts_arena.cli.app import cli, fail


@cli.group("gameframe")
def gameframe_group() -> None:
    """The paper authors' engine (tpepels/mcts_gameframe at e8e21fd6) as a player,
    `gameframe(LABEL)`: build it from a clone, check the build (docs/engines.md)."""


@gameframe_group.command("build")
@click.option("--src", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="A git clone of tpepels/mcts_gameframe (its whole history).")
@click.option("--out", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="The build folder [$MCTS_ARENA_GAMEFRAME, else ~/.cache/mcts_arena/...].")
def build_cmd(src: Path, out: Path | None) -> None:
    """Check out the measured commit in SRC, apply our patch, compile the engine with our GTP
    front end into the build folder (SRC is left at the commit, unpatched)."""
    from mcts_arena.players import gameframe

    built = gameframe.build(src, out)
    click.echo(f"built the authors' engine ({gameframe.COMMIT[:8]} + {gameframe.PATCH.name} + "
               f"{gameframe.FRONT_END.name}) in {built}")


@gameframe_group.command("check")
@click.option("--build", "build_dir", default=None,
              type=click.Path(file_okay=False, path_type=Path), help="The build folder.")
def check_cmd(build_dir: Path | None) -> None:
    """Say where the build is and what it was built from (one line and exit 2 if unusable)."""
    from mcts_arena.players import gameframe

    b = gameframe.check_build(build_dir)
    try:
        meta = json.loads((b / "BUILD.json").read_text())
    except (OSError, ValueError) as e:
        fail(f"{b}: {e}")
    click.echo(f"{b}: commit {meta['commit'][:8]}, {meta['patch']}, {meta['front_end']}, "
               f"{meta['java']}")
