"""`arena serve`: check the results root, bind the address, run the web server (uvicorn) until
Ctrl-C. Every mistake is a one-line UserError before anything listens: a root that does not
exist or holds no store, a port in use or not ours to bind."""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.serve.catalog import find_stores


def check_root(root: str | Path) -> Path:
    """The results root as a Path if it exists, is a folder and holds at least one store."""
    d = Path(root)
    if not d.exists():
        raise UserError(f"{root}: no such directory; give the folder your runs write into "
                        f"(results/ by default)")
    if not d.is_dir():
        raise UserError(f"{root}: not a directory; give the folder your runs write into")
    if not find_stores(d):
        raise UserError(f"{root}: no results stores (arena.sqlite) in it or below it; run "
                        f"'arena run CONFIG' first, or give the folder it wrote")
    return d


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0: any free port)."""
    if not 0 <= port <= 65535:
        raise UserError(f"--port must be 0 to 65535, got {port}")
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        family = socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise UserError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


#: Addresses that mean "every interface": not an address a browser can open, so the URL shown
#: is this machine's own loopback address.
WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


def url_of(sock: socket.socket) -> str:
    """The URL to open: the bound address, or the loopback one for a wildcard."""
    host, port = sock.getsockname()[:2]
    host = WILDCARDS.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(root: str | Path, host: str = "127.0.0.1", port: int = 8000,
          echo: Callable[[str], None] = print) -> None:
    """Serve the results under `root` on host:port until interrupted (see serve/app.py)."""
    import uvicorn

    from mcts_arena.serve.app import LOOPBACK, build_app

    d = check_root(root)
    sock = bind(host, port)
    app = build_app(d, host)
    echo(f"arena serve: {len(find_stores(d))} results store(s) under {d.resolve()}, read-only; "
         f"open {url_of(sock)} (Ctrl-C stops)")
    if host not in LOOPBACK and not host.startswith("127."):
        echo(f"arena serve: listening on {host}, not only this machine: anyone who reaches "
             f"it can read these results")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=2)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
