"""`arena serve` without a browser: the catalog of stores under a root (ids, symlinks, state from
the lock, rates), the web application answering over real HTTP on a loopback port (standings
equal to the report's, pictures, games, boards, ETags), what it refuses (ids not ours, paths
out of the root, foreign hosts), damaged and foreign stores shown as such, nothing written,
and the command's one-line errors. The browser test is tests/test_serve_browser.py."""
import contextlib
import json
import os
import shutil
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import FAKE_TUNE, play_into, tree

from mcts_arena.cli import cli
from mcts_arena.provenance import build_identity
from mcts_arena.report import tables
from mcts_arena.results.store import DB_NAME, Store
from mcts_arena.runner.recount import recount
from mcts_arena.runner.writer import Writer, write_aggregates
from mcts_arena.serve import catalog, live
from mcts_arena.serve.app import build_app
from mcts_arena.serve.server import bind, url_of

BT = ("name: bt\ngame: breakthrough\nbudget: {sims: 20}\ngames: 4\nseed: 5\nmatches:\n"
      "  - sweep: {player: 'MCTS(ipp,im{a})', opponent: 'MCTS(ipp)', a: [0.0, 0.5, 1.0]}\n")
HX = ("name: hx\ngame: hex(size=4)\nbudget: {sims: 10}\ngames: 2\nseed: 5\nmatches:\n"
      "  - {player: MCTS, opponent: Random}\n")
SVG = "{http://www.w3.org/2000/svg}svg"


def _run(text: str, directory: Path) -> None:
    play_into(text, directory, "mcts_arena.players", workers=1)


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A results root: two finished experiments (one nested a level deeper), a damaged store,
    a foreign SQLite file, a symlink to a store outside the root and one to a store inside."""
    base = tmp_path_factory.mktemp("serve")
    r = base / "results"
    _run(BT, r / "bt")
    _run(HX, r / "deeper" / "hx")
    (r / "broken").mkdir()
    data = (r / "bt" / DB_NAME).read_bytes()
    (r / "broken" / DB_NAME).write_bytes(data[:len(data) // 3])
    (r / "foreign").mkdir()
    with sqlite3.connect(r / "foreign" / DB_NAME) as c:
        c.execute("CREATE TABLE t (x)")
    _run(HX.replace("name: hx", "name: outside"), base / "outside")
    (r / "link_out").symlink_to(base / "outside")
    (r / "link_in").symlink_to(r / "bt")
    return r


@contextlib.contextmanager
def serving(root):
    """The application over `root` on a free loopback port, served by uvicorn in a thread:
    (base URL, its Live)."""
    import uvicorn

    sock = bind("127.0.0.1", 0)
    app = build_app(root)
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                        lifespan="off"))
    t = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    end = time.monotonic() + 20
    while not srv.started and time.monotonic() < end:
        time.sleep(0.02)
    assert srv.started
    try:
        yield url_of(sock).rstrip("/"), app.live
    finally:
        srv.should_exit = True
        t.join(10)
        sock.close()


@pytest.fixture(scope="module")
def server(root):
    """The application on a free loopback port, served by uvicorn in a thread."""
    with serving(root) as s:
        yield s


def get(base, path, headers=None):
    """(status, headers, body) of a GET, errors included."""
    req = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def get_json(base, path):
    status, _, body = get(base, path)
    assert status == 200, (path, status, body)
    return json.loads(body)


# ---- the catalog ----------------------------------------------------------------------------
def test_stores_are_found_under_the_root_only(root):
    ids = [e.id for e in catalog.find_stores(root)]
    # link_in is the same folder as bt (visited once); link_out leaves the root
    assert ids == ["broken", "bt", "deeper/hx", "foreign"]


def test_damaged_and_foreign_stores_are_unreadable_not_fatal(root):
    found = {e.id: e for e in catalog.find_stores(root)}
    broken = catalog.summary(found["broken"])
    assert broken["state"] == "unreadable" and "damaged store" in broken["error"]
    foreign = catalog.summary(found["foreign"])
    assert foreign["state"] == "unreadable" and "not an arena results store" in foreign["error"]
    ok = catalog.summary(found["bt"])
    assert (ok["state"], ok["stored"], ok["planned"], ok["errors"]) == ("finished", 12, 12, 0)
    assert ok["budget"] == "20 sims"            # the index tells kalah_im from kalah_im_t
    version, build = build_identity()
    assert ok["builds"] == [{"version": version, "build": build, "games": 12}]
    assert ok["game"] == "breakthrough"


def test_builds_are_the_stored_games_own(root, tmp_path):
    """Games stored before games carried their build count as unrecorded (build None) under the
    experiment's version, beside the build that played the rest."""
    shutil.copytree(root / "bt", tmp_path / "bt")
    c = sqlite3.connect(tmp_path / "bt" / DB_NAME)
    with c:
        c.execute("UPDATE game SET version = NULL, build = NULL WHERE rowid IN "
                  "(SELECT rowid FROM game ORDER BY finished LIMIT 5)")
    c.close()
    recount(tmp_path / "bt")            # games changed by hand: their aggregates counted again
    with Store.open(tmp_path / "bt") as store:
        builds = catalog.builds_of(store)
        exp_version = store.experiment()["version"]
    version, build = build_identity()
    assert sorted(builds, key=lambda b: b["games"]) == [
        {"version": exp_version, "build": None, "games": 5},
        {"version": version, "build": build, "games": 7}]


def test_a_damaged_sprt_value_makes_the_store_unreadable_not_the_page(root, tmp_path):
    """SPRT decisions are read through the store's checked reader: a value that is not JSON is
    one line ("unreadable"), a value of another shape counts as undecided; neither raises."""
    shutil.copytree(root / "bt", tmp_path / "bt")
    shutil.copytree(root / "bt", tmp_path / "bt2")
    for name, raw in (("bt", "{not json"), ("bt2", "[1, 2]")):
        c = sqlite3.connect(tmp_path / name / DB_NAME)
        with c:
            c.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('sprt/x', ?)", (raw,))
        c.close()
    bad, odd = (catalog.summary(e) for e in sorted(catalog.find_stores(tmp_path),
                                                    key=lambda e: e.id))
    assert bad["state"] == "unreadable" and "corrupt store" in bad["error"], bad
    assert odd["state"] == "finished" and odd["stored"] == 12, odd


def test_a_store_of_schema_1_is_shown_and_its_games_unrecorded(root, tmp_path):
    """A store made before games carried their build (no provenance columns) is read as it is,
    never migrated: its games count as unrecorded and its standings are the report's."""
    shutil.copytree(root / "bt", tmp_path / "bt")
    c = sqlite3.connect(tmp_path / "bt" / DB_NAME)
    c.executescript("ALTER TABLE game DROP COLUMN version; ALTER TABLE game DROP COLUMN build; "
                    "UPDATE meta SET value = '1' WHERE key = 'schema_version'; "
                    "DROP TABLE tally; DROP TABLE pair_tally; DROP INDEX game_finished; "
                    "DROP INDEX game_error; ALTER TABLE pair DROP COLUMN points;")
    c.close()
    before = tree(tmp_path)
    s = catalog.summary(catalog.Entry("bt", tmp_path / "bt"))
    assert s["state"] == "finished" and s["builds"][0]["build"] is None
    assert s["builds"][0]["games"] == 12
    rows = json.loads(live.Live(tmp_path).experiment("bt").body)["rows"]
    assert [r["builds"] for r in rows] == [{"unrecorded": 4}] * 3
    assert tree(tmp_path) == before

def test_state_follows_the_lock_and_the_plan(tmp_path):
    _run(HX, tmp_path / "hx")
    entry = catalog.Entry("hx", tmp_path / "hx")
    assert catalog.summary(entry)["state"] == "finished"
    with Writer.open(tmp_path / "hx"):           # a run holds the lock
        assert catalog.lock_held(tmp_path / "hx")
        assert catalog.summary(entry)["state"] == "running"
    assert not catalog.lock_held(tmp_path / "hx")
    with Writer.open(tmp_path / "hx") as w:       # one game fewer than planned: interrupted
        w.conn.execute("DELETE FROM game WHERE game_id = (SELECT MAX(game_id) FROM game)")
        write_aggregates(w.conn, w)     # a game taken away by hand: counted again
    s = catalog.summary(entry)
    assert (s["state"], s["stored"], s["planned"]) == ("interrupted", 1, 2)


def test_a_lock_file_alone_is_not_a_running_run(tmp_path, monkeypatch):
    # the pid a finished run left in .lock is this very process, but nothing holds the lock
    (tmp_path / ".lock").write_text(f"{os.getpid()}\n")
    assert catalog.kernel_locks() is not None and not catalog.lock_held(tmp_path)
    # with no kernel lock table to read, the pid written in the file decides
    monkeypatch.setattr(catalog, "kernel_locks", lambda: None)
    assert catalog.lock_held(tmp_path)
    (tmp_path / ".lock").write_text("999999999\n")
    assert not catalog.lock_held(tmp_path)


def test_rate_and_eta():
    t = [1000.0 + 2 * k for k in range(31)]              # a game every 2 s
    per_hour, eta = catalog.rate_and_eta(t, remaining=90, running=True)
    assert per_hour == pytest.approx(1800) and eta == pytest.approx(180)
    assert catalog.rate_and_eta(t, 90, running=False)[1] is None
    # a pause of a day before the recent games is not averaged in
    old = [-86400.0 + k for k in range(30)]
    assert catalog.rate_and_eta(old + t, 0, False)[0] == pytest.approx(1800)
    assert catalog.rate_and_eta([5.0], 3, True) == (None, None)


@pytest.mark.parametrize("cap", [5, 10000])
def test_the_stored_rate_is_the_rate_of_the_stored_finish_times(root, monkeypatch, cap):
    """The index's rate, read from the aggregates and at most RATE_MAX_GAMES entries of the
    index of finish times, is `rate_and_eta` over every stored finish time."""
    monkeypatch.setattr(catalog, "RATE_MAX_GAMES", cap)
    monkeypatch.setattr(catalog, "RATE_MIN_GAMES", 3)
    with Store.open(root / "bt") as store:
        finished = [g["finished"] for g in store.games(columns="finished")]
        got = catalog.stored_rate(store, store.tally(), remaining=7, running=True)
    want = catalog.rate_and_eta(finished, remaining=7, running=True)
    assert got[0] is not None and got == pytest.approx(want)
    assert catalog.summary(catalog.Entry("bt", root / "bt"))["updated"] == max(finished)


def test_reading_creates_and_changes_nothing(root):
    before = tree(root)
    with Store.open(root / "bt") as s:
        s.game_count()
    for e in catalog.find_stores(root):
        catalog.summary(e)
    assert tree(root) == before
    assert not (root / "bt" / (DB_NAME + "-wal")).exists()
    assert not (root / "bt" / (DB_NAME + "-shm")).exists()


# ---- over HTTP ------------------------------------------------------------------------------
def test_index_lists_every_store_with_its_state(server):
    base, _ = server
    d = get_json(base, "/api/index")
    states = {x["id"]: x["state"] for x in d["experiments"]}
    assert states == {"bt": "finished", "broken": "unreadable", "deeper/hx": "finished",
                      "foreign": "unreadable"}


def test_standings_are_the_reports_rows(server, root):
    base, _ = server
    d = get_json(base, "/api/experiment?id=bt")
    with Store.open(root / "bt") as store:
        rows = tables.pairing_rows(store)
    assert [(r["pairing_id"], r["wins"], r["draws"], r["losses"], r["score"], r["ci_low"])
            for r in d["rows"]] == [(r["pairing_id"], r["wins"], r["draws"], r["losses"],
                                     r["score"], r["ci_low"]) for r in rows]
    assert d["summary"]["state"] == "finished" and d["info"]["game"] == "breakthrough"
    names = [p["name"] for p in d["pictures"]]
    assert names[0] == "forest-bt" and any(n.startswith("sweep-") for n in names)
    for n in names:
        status, headers, png = get(base, f"/api/picture?id=bt&name={n}&v={d['version']}")
        assert status == 200 and headers["content-type"] == "image/png"
        assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unchanged_answer_is_a_304(server):
    base, _ = server
    status, headers, _ = get(base, "/api/experiment?id=bt")
    assert status == 200 and headers["etag"]
    status, _, body = get(base, "/api/experiment?id=bt", {"If-None-Match": headers["etag"]})
    assert status == 304 and body == b""
    status, headers, png = get(base, "/api/picture?id=bt&name=forest-bt")
    assert status == 200 and png[:4] == b"\x89PNG"
    assert get(base, "/api/picture?id=bt&name=forest-bt",
               {"If-None-Match": headers["etag"]})[:3:2] == (304, b"")


def test_every_game_replays_on_its_board(server):
    base, _ = server
    for eid in ("bt", "deeper/hx"):
        d = get_json(base, f"/api/experiment?id={eid}")
        pid = d["rows"][0]["pairing_id"]
        gl = get_json(base, f"/api/games?id={eid}&pairing={pid}")
        assert len(gl["games"]) == d["rows"][0]["games"]
        assert {g["result"] for g in gl["games"]} <= {"win", "draw", "loss"}
        gid = gl["games"][0]["game_id"]
        g = get_json(base, f"/api/game?id={eid}&game={urllib.parse.quote(gid)}")
        assert g["boards"] == len(g["moves"]) + 1 == g["plies"] + 1
        assert all({"ply", "seat", "move", "sims", "wall"} <= set(m) for m in g["moves"])
        boards = set()
        for ply in range(g["boards"]):
            status, headers, svg = get(
                base, f"/api/board?id={eid}&game={urllib.parse.quote(gid)}&ply={ply}")
            assert status == 200 and headers["content-type"].startswith("image/svg+xml")
            assert ET.fromstring(svg).tag == SVG
            boards.add(svg)
        assert len(boards) == g["boards"]          # every move changes the picture
        final = ET.fromstring(svg).find("{http://www.w3.org/2000/svg}title")
        assert final is not None and "game over" in final.text and "to move" not in final.text
        status, _, _ = get(base, f"/api/board?id={eid}&game={urllib.parse.quote(gid)}"
                                 f"&ply={g['boards']}")
        assert status == 404


@pytest.mark.parametrize("path", [
    "/api/experiment?id=nope", "/api/experiment?id=../bt", "/api/experiment?id=link_out",
    "/api/experiment?id=%2Fetc%2Fpasswd", "/api/experiment", "/api/games?id=bt&pairing=p0",
    "/api/game?id=bt&game=bt/p0/0/0", "/api/picture?id=bt&name=../../x",
    "/api/board?id=bt&game=x&ply=0", "/experiment?id=nope", "/game?id=bt&game=nope",
    "/static/../bt/arena.sqlite", "/static/%2e%2e/%2e%2e/bt/arena.sqlite",
    "/static/..%2f..%2fbt%2farena.sqlite", "/bt/arena.sqlite", "/nothing",
])
def test_what_is_not_ours_is_404(server, path):
    base, _ = server
    status, _, body = get(base, path)
    assert status == 404, (path, status, body[:200])
    assert b"SQLite format" not in body


def test_a_damaged_store_is_shown_as_such(server):
    base, _ = server
    d = get_json(base, "/api/experiment?id=broken")
    assert d["summary"]["state"] == "unreadable" and "damaged" in d["summary"]["error"]
    assert d["rows"] == [] and d["pictures"] == []
    status, _, body = get(base, "/api/games?id=broken&pairing=x")
    assert status == 503 and "damaged" in json.loads(body)["error"]
    assert get_json(base, "/api/index")["experiments"]          # still serving


def test_pages_and_assets_come_from_the_package(server):
    base, _ = server
    for path in ("/", "/experiment?id=bt", "/static/arena.js", "/static/style.css"):
        status, headers, body = get(base, path)
        assert status == 200, path
        assert "script-src 'self'" in headers["content-security-policy"]
        assert b"http://" not in body and b"https://" not in body      # nothing from elsewhere


def test_every_page_is_laid_out_at_a_phones_own_width():
    """Without the viewport line a phone lays a page out 980 px wide and shrinks it."""
    from mcts_arena.serve.pages import _BODIES, page_html
    for name in _BODIES:
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' \
            in page_html(name), name


def test_only_loopback_host_names_are_answered(server):
    base, _ = server
    assert get(base, "/api/index", {"Host": "localhost"})[0] == 200
    assert get(base, "/api/index", {"Host": "attacker.example"})[0] == 400


def test_standings_are_recomputed_at_most_once_per_interval(root, tmp_path, monkeypatch):
    shutil.copytree(root / "bt", tmp_path / "bt")
    lv = live.Live(tmp_path)
    first = lv.experiment("bt")
    assert lv.experiment("bt") is first                     # nothing changed: the same answer
    with Writer.open(tmp_path / "bt") as w:                  # a game less: the store changed
        w.conn.execute("DELETE FROM game WHERE game_id = (SELECT MAX(game_id) FROM game)")
        write_aggregates(w.conn, w)     # a game taken away by hand: counted again
    monkeypatch.setattr(live, "MIN_INTERVAL", 3600.0)
    assert lv.experiment("bt") is first                     # within the interval: kept
    monkeypatch.setattr(live, "MIN_INTERVAL", 0.0)
    monkeypatch.setattr(live, "COST_FACTOR", 0.0)
    again = lv.experiment("bt")
    assert again is not first and sum(r["games"] for r in json.loads(again.body)["rows"]) == 11


# ---- the command ----------------------------------------------------------------------------
def test_command_errors_are_one_line(tmp_path, root):
    r = CliRunner().invoke(cli, ["serve", str(tmp_path / "missing")])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert r.output.startswith(f"arena: error: {tmp_path / 'missing'}: no such directory")
    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(cli, ["serve", str(tmp_path / "empty")])
    assert r.exit_code == 2 and "no results stores (arena.sqlite)" in r.output
    (tmp_path / "file").write_text("x")
    r = CliRunner().invoke(cli, ["serve", str(tmp_path / "file")])
    assert r.exit_code == 2 and "not a directory" in r.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = CliRunner().invoke(cli, ["serve", str(root), "--port", str(port)])
    assert r.exit_code == 2 and r.output.startswith(f"arena: error: cannot listen on "
                                                    f"127.0.0.1:{port}")
    r = CliRunner().invoke(cli, ["serve", str(root), "--port", "70000"])
    assert r.exit_code == 2 and "--port must be 0 to 65535" in r.output


# ---- a tune's live progress -----------------------------------------------------------------


class _Stop(Exception):
    """Ends a tune after its first batch: its store as a kill between batches leaves it."""


@pytest.fixture(scope="module")
def tune_root(tmp_path_factory):
    """A results root with an SPSA tune stopped after its first batch (4 of 8 games), a BO tune
    finished with its confirmation, and a bracket a tune config made."""
    from mcts_arena.cli.tune import tune_cmd
    from mcts_arena.runner import config, tune

    base = tmp_path_factory.mktemp("tunes")
    r = base / "results"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(config.PLAYERS_ENV, "fakes")
        for name, method in (("mid", "spsa"), ("done", "bo")):
            f = base / f"{name}.yaml"
            f.write_text(FAKE_TUNE.format(name=name, d=0, games=8, method=method))
            spec, d = tune.prepare(str(f), str(r / name))

            def stop(_line):
                raise _Stop
            try:
                tune.run_tune(spec, d, workers=1, echo=stop if name == "mid" else print)
            except _Stop:
                pass
        f = base / "br.yaml"
        f.write_text(FAKE_TUNE.format(name="br", d=0, games=8, method="bracket").replace(
            "confirm: {games: 2}\n", "").replace(
            "start: 0.5}", "start: 0.5, grid: [0.1, 0.4, 0.7]}") + "bracket: {games: 2}\n")
        res = CliRunner().invoke(tune_cmd, [str(f), "--out", str(r / "br"), "--quiet"])
        assert res.exit_code == 0, res.output
    return r


def test_a_tune_is_read_from_the_aggregates_as_from_its_games(tune_root, monkeypatch):
    from mcts_arena.results import tune as tune_state

    for name in ("mid", "done"):
        with Store.open(tune_root / name) as store:
            games = tune_state.read(store)
            with monkeypatch.context() as mp:     # the serve side never reads every game
                mp.setattr(tune_state, "scores_by_pair", None)
                counted = tune_state.read_counted(store)
        assert (counted.path, counted.trials, counted.estimate, counted.confirmation) == (
            games.path, games.trials, games.estimate, games.confirmation)


def test_a_tune_in_the_index_and_its_page_mid_run_and_finished(tune_root, monkeypatch):
    from mcts_arena.results import tune as tune_state

    monkeypatch.setattr(tune_state, "scores_by_pair", None)     # aggregates only
    with serving(tune_root) as (base, _):
        index = {x["id"]: x for x in get_json(base, "/api/index")["experiments"]}
        mid, done, br = index["mid"], index["done"], index["br"]
        assert (mid["kind"], mid["tune"]["method"], mid["state"]) == ("tune", "spsa",
                                                                      "interrupted")
        assert (mid["stored"], mid["planned"], mid["tune"]["search_games"]) == (4, 10, 4)
        assert mid["tune"]["now_is"] == "theta" and not mid["tune"]["search_done"]
        assert mid["tune"]["line"].startswith("spsa step 2/4 (4 games): a ")
        assert (done["kind"], done["tune"]["method"], done["state"]) == ("tune", "bo",
                                                                         "finished")
        assert (done["stored"], done["planned"], done["tune"]["confirm_played"]) == (10, 10, 2)
        assert (br["kind"], br["tune"]["method"], br["state"]) == ("tune", "bracket",
                                                                   "finished")
        assert (br["tune"]["decided"], br["tune"]["matches"]) == (2, 2)
        assert br["tune"]["winner"].startswith("a=")

        m = get_json(base, "/api/experiment?id=mid")
        t = m["tune"]
        assert m["rows"] == [] and t["method"] == "spsa" and t["steps"] == 4
        assert [p["games"] for p in t["path"]] == [0, 2, 4]
        assert t["path"][0]["values"] == {"a": "0.5"} and t["confirmation"] is None
        assert not t["estimate"]["final"] and t["now"] == t["path"][-1]["values"]
        assert t["params"] == [{"name": "a", "kind": "float", "low": "0", "high": "1",
                                "log": False, "choices": [], "start": "0.5"}]
        d = get_json(base, "/api/experiment?id=done")["tune"]
        assert len(d["trials"]) == 4 and all(x["games"] == 2 for x in d["trials"])
        assert d["estimate"]["final"] and d["search_done"] and d["now_is"] == "estimate"
        c = d["confirmation"]
        assert c["played"] == c["games"] == 2 and c["wins"] + c["draws"] + c["losses"] == 2
        assert c["low"] <= c["score"] <= c["high"] and c["tuned"].startswith("Sleepy(d0,im")
        for eid, page in (("mid", m), ("done", get_json(base, "/api/experiment?id=done"))):
            [pic] = page["pictures"]
            status, headers, png = get(base, f"/api/picture?id={eid}&name={pic['name']}")
            assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
        games = get_json(base, "/api/games?id=done&pairing=confirm")
        assert games["stored"] == 2
        b = get_json(base, "/api/experiment?id=br")
        assert b["summary"]["tune"]["method"] == "bracket" and "Winner: a=" in b["tournament"]


def test_a_fresh_server_takes_the_facts_of_unchanged_stores_from_the_last_one(tmp_path,
                                                                              monkeypatch):
    """serve/known.py: a second Live over the same root answers the same index without opening
    a store no run holds and nothing changed; a store changed since (a game stored: its file's
    size and time) is read again; a garbled file is no cache."""
    from mcts_arena.serve import known

    monkeypatch.setenv(known.CACHE_ENV, str(tmp_path / "cache"))
    root = tmp_path / "r"
    for name in ("a", "b"):
        (root / name).mkdir(parents=True)
        shutil.copyfile(V3_STORE, root / name / DB_NAME)
    first = live.Live(root).index().body
    assert len(list((tmp_path / "cache").iterdir())) == 1
    opened = []
    real = catalog.summary
    monkeypatch.setattr(catalog, "summary", lambda e, *a: opened.append(e.id) or real(e, *a))
    assert live.Live(root).index().body == first and opened == []
    with Store.open(root / "a") as s:
        model = s.games()[0]
    with Writer.open(root / "a") as w:
        w.add_game(_copy_of(model, "new/0", pair_index=500))
    again = json.loads(live.Live(root).index().body)
    assert opened == ["a"]
    stored = {e["id"]: e["stored"] for e in again["experiments"]}
    assert stored == {"a": 7, "b": 6}
    for f in (tmp_path / "cache").iterdir():
        f.write_text("{not json")
    opened.clear()
    assert live.Live(root).index().body == live.Live(root).index().body
    assert sorted(opened) == ["a", "b"]


V3_STORE = Path(__file__).resolve().parent / "data" / "store_v3" / "bt.sqlite"


def _copy_of(model: dict, gid: str, pair_index: int):
    from mcts_arena.runner.match import GameRecord

    return GameRecord(
        game_id=gid, pairing_id=model["pairing_id"], pair_index=pair_index, swap=0,
        seats=(model["seat0"], model["seat1"]), budgets=tuple(model["budgets"]),
        seeds=tuple(model["seeds"]), opening=model["opening"], winner=model["winner"],
        reason=model["reason"], plies=model["plies"], moves=model["moves"],
        stats=model["stats"], duration=model["duration"], finished=model["finished"] + 1,
        version="v", build="b")
