"""What the pages of `arena serve` show, read from the stores under one results root and kept
until a store changes: the index, an experiment's standings and pictures, a pairing's games, one
game with its moves, and its boards.

Why cached, and throttled: many browsers poll the same pages while runs write the stores. An
answer is computed once per change of its store (`catalog.data_key`: a few `stat` calls tell
whether anything was committed since) and shared by every client; and one experiment's
standings are computed again at most once per `max(MIN_INTERVAL, COST_FACTOR x what they
cost)` (smoothed over the last computations), its pictures drawn again at most once per
`max(PICTURE_INTERVAL, PICTURE_COST_FACTOR x what drawing them all costs)`: however many
clients poll and however fast games are stored, the server takes at most about 1/COST_FACTOR +
1/PICTURE_COST_FACTOR of one core for a watched experiment. While one thread recomputes, the
other requests get the previous answer at once. Every answer
carries an ETag (its version), so an unchanged poll is a 304.

The numbers are the report's own (`report.tables.build_report` with the paper beside ours, and
`report.plots.pictures`): the page and `arena report` never disagree.
"""
from __future__ import annotations

import collections
import hashlib
import html
import io
import json
import math
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.players.notation import display_name
from mcts_arena.results import aggregates
from mcts_arena.results.replay import result_text
from mcts_arena.results.store import Store
from mcts_arena.serve import catalog, known

MIN_INTERVAL = 2.0          # seconds: an experiment's standings are recomputed at most this often
COST_FACTOR = 30.0          # ... and at most once per COST_FACTOR x their (smoothed) cost
PICTURE_INTERVAL = 10.0     # seconds: an experiment's pictures are drawn again at most this often
PICTURE_COST_FACTOR = 60.0  # ... and at most once per this x what drawing them all costs
INDEX_THREADS = 4           # threads that read the stores of an index
SCAN_TTL = 2.0              # seconds before the root is searched for new stores again
LOCKS_TTL = 1.0             # seconds the kernel's lock table is reused
GAMES_KEPT = 256            # stored games kept decoded (the viewer steps through one at a time)
GAMES_PAGE = 100            # seat-swapped pairs a page of a pairing's game list shows
BOARDS_KEPT = 4096          # boards kept drawn


class NotFound(Exception):
    """What was asked for is not here: an id that is not one of ours, a game not stored, a
    board past the game's end. The server answers 404 with the message."""


@dataclass
class View:
    """One computed answer: the JSON body, its version (ETag), the store state it reflects,
    when it was made (monotonic seconds) and what it cost (CPU seconds of the thread)."""

    key: tuple
    body: bytes
    etag: str
    made: float
    cost: float
    extra: object = None


def _clean(x):
    """Plain JSON values: NaN and infinities as null, tuples as lists, numpy scalars as numbers."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):      # numpy scalar
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha1(body).hexdigest()[:20] + '"'


def _view(key: tuple, payload: dict, made: float, cost: float, extra=None) -> View:
    body = json.dumps(_clean(payload), ensure_ascii=False, separators=(",", ":")).encode()
    return View(key, body, _etag(body), made, cost, extra)


class Live:
    """The cached, throttled views of every store under `root` (read-only; thread-safe: the
    web server calls it from its worker threads)."""

    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._entries: dict[str, catalog.Entry] = {}
        self._scanned = -math.inf
        self._kernel = None
        self._kernel_at = -math.inf
        self._known = known.Known(self.root)      # the facts a last server computed
        self._summaries: dict[str, View] = {}
        self._indexes: dict[str, View] = {}
        self._standings: dict[str, View] = {}
        self._pictures: dict[tuple[str, str], View] = {}
        self._game_lists: dict[tuple[str, str], View] = {}
        self._games: collections.OrderedDict = collections.OrderedDict()
        self._boards: collections.OrderedDict = collections.OrderedDict()

    # ---- what lies under the root ---------------------------------------------------------
    def _lock(self, name: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(name, threading.Lock())

    def entries(self) -> dict[str, catalog.Entry]:
        """The stores under the root by id (searched again every SCAN_TTL seconds)."""
        with self._lock("scan"):
            if time.monotonic() - self._scanned > SCAN_TTL:
                self._entries = {e.id: e for e in catalog.find_stores(self.root)}
                self._scanned = time.monotonic()
            return self._entries

    def entry(self, eid: str) -> catalog.Entry:
        e = self.entries().get(eid)
        if e is None:
            raise NotFound(f"no experiment {eid!r} under {self.root}")
        return e

    def _kernel_locks(self):
        with self._lock("kernel"):
            if time.monotonic() - self._kernel_at > LOCKS_TTL:
                self._kernel = catalog.kernel_locks()
                self._kernel_at = time.monotonic()
            return self._kernel

    def _key(self, entry: catalog.Entry) -> tuple:
        """The state of a store as far as a view depends on it: its data and whether a run
        holds it."""
        return (catalog.data_key(entry.directory),
                catalog.lock_held(entry.directory, self._kernel_locks()))

    def _refresh(self, cache: dict, k, key: tuple, make, interval) -> View:
        """The cached answer `cache[k]` for the store state `key`. Made by `make()` (a View)
        when there is none; when the store changed and `interval(old)` seconds have passed
        since the answer was made, made again by one thread while every other request is
        given the previous answer meanwhile (no request waits for a recomputation but the
        very first). Its cost, the thread's CPU seconds, is smoothed over the last ones."""
        old = cache.get(k)
        if old is not None and (old.key == key or time.monotonic() - old.made < interval(old)):
            return old
        lock = self._lock(f"{id(cache)}/{k}")
        if not lock.acquire(blocking=old is None):
            return old
        try:
            cur = cache.get(k)
            if cur is not old and cur is not None:      # made while this thread waited
                return cur
            t0 = time.thread_time()
            view = make()
            spent = time.thread_time() - t0
            view.made = time.monotonic()
            view.cost = spent if old is None else 0.5 * (old.cost + spent)
            cache[k] = view
            return view
        finally:
            lock.release()

    @staticmethod
    def warm() -> None:
        """Import what the views use (pandas, scipy, matplotlib's Agg canvas) before the first
        request, so that no answer's measured cost, which sets its throttle, is import time."""
        from mcts_arena.report import figures, plots, tables  # noqa: F401
        from mcts_arena.results import frames, tournament  # noqa: F401

        figures._figure(1, 1)

    # ---- the index ------------------------------------------------------------------------
    def summary(self, entry: catalog.Entry, fresh: bool = False) -> View:
        """The index's facts of one store (`fresh`: computed now if the store changed, not
        throttled: the standings embed them)."""
        key = self._key(entry)

        def make():
            s = self._known.summary(entry.id, key)
            if s is None:
                s = catalog.summary(entry, self._kernel_locks())
                self._known.note(entry.id, key, s)
            return _view(key, s, 0.0, 0.0, s)
        return self._refresh(self._summaries, entry.id, key, make, lambda old: 0.0 if fresh
                             else max(MIN_INTERVAL, COST_FACTOR * old.cost))

    def index(self) -> View:
        """Every experiment under the root with its state, counts, rate, ETA and builds: of a
        store unchanged since a server computed them, its facts as kept (serve/known.py); the
        other stores are read in INDEX_THREADS threads (SQLite lets go of the interpreter while it
        reads: a cold index over many large stores is mostly the count of each one's games
        that checks its aggregates)."""
        entries = list(self.entries().values())
        if len(entries) > 1:
            with ThreadPoolExecutor(min(INDEX_THREADS, len(entries))) as pool:
                views = list(pool.map(self.summary, entries))
        else:
            views = [self.summary(e) for e in entries]
        self._known.save(e.id for e in entries)
        key = tuple(v.etag for v in views)
        return self._refresh(self._indexes, "index", key, lambda: _view(
            key, {"root": str(self.root), "experiments": [v.extra for v in views]}, 0.0, 0.0),
            lambda old: 0.0)

    # ---- one experiment: standings and pictures --------------------------------------------
    def experiment(self, eid: str) -> View:
        """The standings of experiment `eid`: the index's facts, the report's rows (the paper
        beside ours), the tournament's text, the pictures' names and titles (a tune: its panel
        and its picture instead of the rows); recomputed at most once per
        max(MIN_INTERVAL, COST_FACTOR x their cost)."""
        entry = self.entry(eid)
        key = self._key(entry)

        def make():
            payload, report, pics = self._standings_of(entry)
            payload["version"] = hashlib.sha1(repr(key).encode()).hexdigest()[:12]
            return _view(key, payload, 0.0, 0.0, (report, pics))
        return self._refresh(self._standings, eid, key, make,
                             lambda old: max(MIN_INTERVAL, COST_FACTOR * old.cost))

    def _standings_of(self, entry: catalog.Entry):
        from mcts_arena.report import plots, tables

        summary = self.summary(entry, fresh=True).extra
        payload = {"id": entry.id, "summary": summary, "made": time.time(), "info": None,
                   "rows": [], "pictures": [], "tournament": None, "ratings": None,
                   "tune": None}
        if summary["state"] == "unreadable":
            return payload, None, {}
        if summary["kind"] == "tune" and summary["tune"]["method"] != "bracket":
            return self._tune_of(entry, payload)
        try:
            report = tables.build_report([str(entry.directory)], compare="paper")
        except UserError as e:
            payload["summary"] = {**summary, "state": "unreadable", "error": str(e)}
            return payload, None, {}
        e = report.experiments[0]
        pics = {p.name: p for p in plots.pictures(report)}
        payload.update(info=e.info, rows=e.rows, tournament=e.tournament, ratings=e.ratings,
                       pictures=[{"name": p.name, "title": p.title} for p in pics.values()],
                       statistics={"head": [s.heading for s in aggregates.shown()],
                                   "cells": {r["pairing_id"]: aggregates.cells(r)
                                             for r in e.rows}})
        return payload, report, pics

    @staticmethod
    def _tune_of(entry: catalog.Entry, payload: dict):
        """A tune's page: its panel (results.tune.panel) and its path picture, both from the
        store's aggregates; no per-pairing rows (a tune's pairings are its hundreds of SPSA
        steps or BO trials: the report over them costs seconds and says nothing the path
        does not)."""
        from mcts_arena.report import plots
        from mcts_arena.report import tune as tune_report
        from mcts_arena.results import tune

        summary = payload["summary"]
        try:
            with Store.open(entry.directory) as store:
                st = tune.read_counted(store)
                exp = store.experiment() or {}
        except UserError as e:
            payload["summary"] = {**summary, "state": "unreadable", "error": str(e)}
            return payload, None, {}
        s = st.settings
        name = f"tune-{re.sub(r'[^A-Za-z0-9_.-]+', '_', s.name)}"
        title = f"{s.name}: {'path of the parameters' if s.method == 'spsa' else 'trials'}"
        pics = {name: plots.Picture(name, title, lambda t, st=st: tune_report.picture(st, t))}
        payload.update(info={"experiment": s.name, "directory": str(entry.directory),
                             "game": s.game, "budget": summary.get("budget"),
                             "seed": s.seed, "created": exp.get("created")},
                       tune=tune.panel(st), pictures=[{"name": name, "title": title}])
        return payload, None, pics

    def picture(self, eid: str, name: str) -> View:
        """The PNG (`body`) of picture `name` of experiment `eid`, drawn from the standings the page
        shows now; the experiment's pictures are drawn again at most once per
        max(PICTURE_INTERVAL, PICTURE_COST_FACTOR x what drawing all of them cost): matplotlib
        takes a good part of a second a picture, so they lag the standings a little while
        games stream in rather than take the run's CPU."""
        view = self.experiment(eid)
        _report, pics = view.extra
        if name not in pics:
            raise NotFound(f"no picture {name!r} in experiment {eid!r}")

        def make():
            buf = io.BytesIO()
            pics[name].draw(buf)
            png = buf.getvalue()
            return View((view.etag,), png, _etag(png), 0.0, 0.0)

        def interval(_old):
            total = sum(v.cost for (e, _n), v in list(self._pictures.items()) if e == eid)
            return max(PICTURE_INTERVAL, PICTURE_COST_FACTOR * total)
        return self._refresh(self._pictures, (eid, name), (view.etag,), make, interval)

    # ---- games ----------------------------------------------------------------------------
    def game_list(self, eid: str, pairing: str, start: int = 0) -> View:
        """One page of the games of one pairing of `eid` (no moves): the games of GAMES_PAGE
        pairs from pair `start` on, with the result for the pairing's player, reason, plies,
        seconds, when each finished; `stored` games of the pairing in all, and the first pair
        of the `previous`, `next` and `last` pages (None where there is none)."""
        entry = self.entry(eid)
        key = (catalog.data_key(entry.directory),)

        def make():
            with Store.open(entry.directory) as store:
                found = [p for p in store.pairings() if p["pairing_id"] == pairing]
                if not found:
                    raise NotFound(f"no pairing {pairing!r} in experiment {eid!r}")
                rows = store.game_list(pairing, start, start + GAMES_PAGE)
                stored = store.pairing_games_count().get(pairing, 0)
                top = store.conn.execute("SELECT MAX(pair_index) FROM game WHERE "
                                         "pairing_id = ?", (pairing,)).fetchone()[0]
            p = found[0]
            for g in rows:
                g["result"] = ("error" if g["reason"] == "error" else
                               {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(g["score"]))
            last = 0 if top is None else top // GAMES_PAGE * GAMES_PAGE
            return _view(key, {"id": eid, "pairing_id": pairing,
                               "player": display_name(p["player"]),
                               "opponent": display_name(p["opponent"]), "planned": p["games"],
                               "stored": stored, "start": start, "pairs": GAMES_PAGE,
                               "previous": max(0, start - GAMES_PAGE) if start else None,
                               "next": start + GAMES_PAGE if start + GAMES_PAGE <= last
                               else None, "last": last, "games": rows}, 0.0, 0.0)
        return self._refresh(self._game_lists, (eid, pairing, start), key, make,
                             lambda old: 0.0)

    def _record(self, eid: str, gid: str) -> tuple[dict, str | None]:
        """(the stored game, its game's name): kept once read, except an error game, which a
        later run may replace (read again when the store changes)."""
        entry = self.entry(eid)
        key = catalog.data_key(entry.directory)
        with self._lock(f"record/{eid}"):
            hit = self._games.get((eid, gid))
            if hit is not None and (hit[0]["reason"] != "error" or hit[2] == key):
                self._games.move_to_end((eid, gid))
                return hit[0], hit[1]
            with Store.open(entry.directory) as store:
                g = store.game(gid)
                exp = store.experiment() or {}
                labels = {p["pairing_id"]: (p["player"], p["opponent"]) for p in store.pairings()}
            if g is None:
                raise NotFound(f"no game {gid!r} in experiment {eid!r}")
            g["pairing"] = labels.get(g["pairing_id"])
            name = exp.get("config", {}).get("game")
            self._games[(eid, gid)] = (g, name, key)
            while len(self._games) > GAMES_KEPT:
                self._games.popitem(last=False)
            return g, name

    def game(self, eid: str, gid: str) -> View:
        """One stored game for the viewer: players by seat, the opening, every move with its
        statistics, the result in words, and how many boards it has (plies + 1)."""
        g, name = self._record(eid, gid)
        moves = [{"ply": i + 1, "move": m, **st} for i, (m, st) in enumerate(zip(g["moves"],
                                                                              g["stats"]))]
        drawable = self._drawable(name)
        pairing = g["pairing"] or (None, None)
        payload = {"id": eid, "game_id": g["game_id"], "game": name, "pairing_id": g["pairing_id"],
                   "player": display_name(pairing[0]) if pairing[0] else None,
                   "opponent": display_name(pairing[1]) if pairing[1] else None,
                   "seats": [g["seat0"], g["seat1"]], "names": [display_name(g["seat0"]),
                                                                display_name(g["seat1"])],
                   "player_seat": g["swap"], "pair_index": g["pair_index"],
                   "budgets": g["budgets"], "opening": g["opening"], "moves": moves,
                   "result": result_text(g, name), "reason": g["reason"], "winner": g["winner"],
                   "plies": g["plies"], "duration": g["duration"], "finished": g["finished"],
                   "boards": len(moves) + 1 if drawable else 0,
                   "no_board": None if drawable else f"no board drawing for game {name!r} here"}
        return _view((gid,), payload, time.monotonic(), 0.0)

    @staticmethod
    def _drawable(name: str | None) -> bool:
        try:
            return name is not None and games.info_of(name).draw is not None
        except (UserError, ImportError, ValueError):
            return False

    def board(self, eid: str, gid: str, ply: int) -> str:
        """The SVG of game `gid`'s position after `ply` moves (0: the opening position), the
        last move marked, drawn by the game's own `draw` hook."""
        g, name = self._record(eid, gid)
        if not self._drawable(name):
            raise NotFound(f"no board drawing for game {name!r}")
        if not 0 <= ply <= len(g["moves"]):
            raise NotFound(f"game {gid!r} has boards 0 to {len(g['moves'])}, not {ply}")
        k = (eid, gid, ply, len(g["moves"]))
        with self._lock(f"boards/{eid}"):
            if k in self._boards:
                self._boards.move_to_end(k)
                return self._boards[k]
        game = games.resolve(name)
        try:
            state = game.new_state(g["opening"] or None)
            last = None
            for move in g["moves"][:ply]:
                seat, mid = state.to_move(), state.parse_move(move)
                state.play(mid)
                last = (seat, mid)
        except (UserError, ValueError) as e:
            raise NotFound(f"game {gid!r} cannot be replayed here: {e}") from None
        svg = game.info.draw(state, last)
        if state.is_terminal():         # a finished game has nobody to move: say who won
            w = state.winner()
            end = "drawn" if w is None else \
                f"won by seat {w} ({display_name(g['seat0'] if w == 0 else g['seat1'])})"
            svg = re.sub(r"<title>[^<]*</title>",
                         lambda _m: f"<title>{html.escape(f'{name}: game over, {end}')}</title>",
                         svg, count=1)
        with self._lock(f"boards/{eid}"):
            self._boards[k] = svg
            while len(self._boards) > BOARDS_KEPT:
                self._boards.popitem(last=False)
        return svg
