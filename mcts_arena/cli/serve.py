"""`arena serve [RESULTS_ROOT]`: a live, read-only web page over the results (mcts_arena.serve)."""
from __future__ import annotations

import click

from mcts_arena.cli.app import cli


@cli.command("serve")
@click.argument("root", default="results", metavar="[RESULTS_ROOT]")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default answers this machine only.")
@click.option("--port", default=8000, show_default=True, type=int,
              help="Port to listen on (0: any free port, printed at start).")
def serve_cmd(root: str, host: str, port: int) -> None:
    """Watch runs in a browser: every experiment under RESULTS_ROOT [results] with its state,
    live standings, the report's pictures beside the paper's values, and a viewer that
    replays any stored game move by move. Read-only: the stores are never written or locked."""
    from mcts_arena.serve.server import serve

    serve(root, host, port, echo=lambda line: click.echo(line))
