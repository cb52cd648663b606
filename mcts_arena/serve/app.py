"""The web application of `arena serve` (Starlette): three pages and the JSON, PNG and SVG they
poll, over the read-only views of `live.Live`.

    /                                   the index of experiments under the results root
    /experiment?id=ID                   live standings, pictures, a pairing's games
    /game?id=ID&game=GAME_ID            the game viewer
    /api/index                          the index (JSON)
    /api/experiment?id=ID               standings (JSON)
    /api/picture?id=ID&name=NAME        a picture of the report (PNG)
    /api/games?id=ID&pairing=PAIRING    a pairing's games (JSON)
    /api/game?id=ID&game=GAME_ID        one game: moves and their statistics (JSON)
    /api/board?id=ID&game=GAME_ID&ply=N the board after N moves (SVG)
    /static/...                         the pages' script and style, shipped in the package

Ids travel as query values and are only ever looked up among the stores found under the root,
so no request names a path; anything else is a 404. The pages poll (every 2-3 s, with ETags:
an unchanged answer is an empty 304), which needs no open connection per client and survives a
restarted server; see docs/serve.md.
"""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mcts_arena.errors import UserError
from mcts_arena.serve.live import Live, NotFound, View
from mcts_arena.serve.pages import page_html

STATIC = Path(__file__).resolve().parent / "static"
#: The pages load only their own script, style and pictures (no inline script, nothing from
#: elsewhere); they are never framed by another site.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; "
                                 b"img-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                                 b"base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every answer (a plain ASGI wrapper: no per-request task)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                   *SECURITY_HEADERS]}
            await send(message)
        await self.app(scope, receive, with_headers)


def _param(request: Request, name: str) -> str:
    value = request.query_params.get(name)
    if not value:
        raise NotFound(f"missing query parameter {name!r}")
    return value


def _cached(request: Request, body: bytes, etag: str,
            media_type: str = "application/json") -> Response:
    """The answer, or an empty 304 when the client has this version (ETag) already."""
    headers = {"etag": etag, "cache-control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def _json(request: Request, view: View) -> Response:
    return _cached(request, view.body, view.etag)


def _errors(endpoint):
    """A missing thing is a 404, an unreadable store a 503, each with a one-line JSON reason;
    never a traceback to the client, and the server goes on."""
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except NotFound as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        except (UserError, sqlite3.Error) as e:
            return JSONResponse({"error": " ".join(str(e).split())}, status_code=503)
        except Exception as e:  # noqa: BLE001 - one bad answer, never a stopped server
            return JSONResponse({"error": f"{type(e).__name__}: {' '.join(str(e).split())}"},
                                status_code=500)
    return wrapped


def build_app(root: str | Path, host: str = "127.0.0.1") -> SecurityHeaders:
    """The application serving the results under `root` (see the module docstring). Bound to a
    loopback address it answers only requests addressed to a loopback name (a page elsewhere
    cannot reach it through a DNS name pointed at 127.0.0.1)."""
    from starlette.concurrency import run_in_threadpool

    live = Live(root)
    live.warm()

    def page(name: str, *required: str):
        html = page_html(name)

        async def endpoint(request: Request) -> Response:
            if required:
                eid = _param(request, "id")
                live.entry(eid)
                if "game" in required:
                    await run_in_threadpool(live.game, eid, _param(request, "game"))
            return HTMLResponse(html, headers={"cache-control": "no-cache"})
        return _errors(endpoint)

    def api(fn):
        async def endpoint(request: Request) -> Response:
            return await run_in_threadpool(fn, request)
        return _errors(endpoint)

    def index(request):
        return _json(request, live.index())

    def experiment(request):
        return _json(request, live.experiment(_param(request, "id")))

    def picture(request):
        png = live.picture(_param(request, "id"), _param(request, "name"))
        return _cached(request, png.body, png.etag, "image/png")

    def game_list(request):
        start = request.query_params.get("start") or "0"
        if not start.isdigit():
            raise NotFound(f"start must be a pair number, not {start!r}")
        return _json(request, live.game_list(_param(request, "id"), _param(request, "pairing"),
                                             int(start)))

    def game(request):
        return _json(request, live.game(_param(request, "id"), _param(request, "game")))

    def board(request):
        try:
            ply = int(_param(request, "ply"))
        except ValueError:
            raise NotFound("ply must be a whole number") from None
        svg = live.board(_param(request, "id"), _param(request, "game"), ply).encode()
        return _cached(request, svg, '"' + hashlib.sha1(svg).hexdigest()[:20] + '"',
                       "image/svg+xml")

    routes = [
        Route("/", page("index")),
        Route("/experiment", page("experiment", "id")),
        Route("/game", page("game", "id", "game")),
        Route("/api/index", api(index)),
        Route("/api/experiment", api(experiment)),
        Route("/api/picture", api(picture)),
        Route("/api/games", api(game_list)),
        Route("/api/game", api(game)),
        Route("/api/board", api(board)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = list(LOOPBACK) if host in LOOPBACK or host.startswith("127.") else ["*"]
    if host not in hosts and hosts != ["*"]:
        hosts.append(host)
    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware,
                                                          allowed_hosts=hosts)])
    wrapped = SecurityHeaders(app)
    wrapped.live = live
    return wrapped
