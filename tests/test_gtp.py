"""External players: GTP engines (ours served by `arena gtp`, and misbehaving fakes) and Python
players, through the one game loop; bad engines refused at start-up with nothing written."""
import io
import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import DATA, FAKE, PY, canon, fake, job, one_game, start_text

from mcts_arena import players
from mcts_arena.cli import cli
from mcts_arena.players import SpecError
from mcts_arena.players.gtp_server import GTPServer
from mcts_arena.runner.match import play_game, play_job

EXAMPLE = Path(__file__).parent.parent / "examples" / "example_player.py"


def served(spec="MCTS(ipp)", game="breakthrough", name="served", tag="none"):
    """Our player served by `arena gtp`; `tag` marks the process (a harmless -W filter)."""
    cmd = (f"{PY} -W ignore:{tag} -m mcts_arena gtp '{spec}' --game {game} --seed {{seed}} "
           "--sims {sims}")
    return f'GTP(cmd="{cmd}", name={name})'


def procs_with(tag: str) -> list[str]:
    """Command lines of live processes holding `tag` (a /proc scan, like `ps`)."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if tag in cmd or (state == "Z" and str(os.getpid()) in
                          Path(f"/proc/{pid}/stat").read_text().split()[3:4]):
            out.append(f"{pid} {state} {cmd}")
    return out


def test_gtp_spec_canonical_round_trip_and_display_name():
    sp = players.parse('GTP( cmd = "./eng --level 3 (fast), \\"x\\"" , name=mine, time=2)',
                       "breakthrough")
    assert sp.kind == "GTP" and sp.target == './eng --level 3 (fast), "x"'
    assert sp.canonical == 'GTP(cmd="./eng --level 3 (fast), \\"x\\"",name=mine,time=2)'
    assert players.parse(sp.canonical, "breakthrough").canonical == sp.canonical
    assert sp.budget == {"time": 2.0}
    assert players.display_name(sp.canonical) == "mine"
    nameless = canon('GTP(cmd="./eng")')
    assert nameless == "GTP(cmd=./eng)" and players.display_name(nameless) == "./eng"
    assert players.display_name("MCTS(bl,im0.4)") == "MCTS(bl,im0.4)"
    assert canon('GTP(cmd="e", timeout=5, name="two words")') == \
        'GTP(cmd=e,name="two words",timeout=5)'


def test_py_spec_canonical_round_trip():
    target = f"{DATA / 'py_players.py'}:FirstMove"
    sp = players.parse(f"py({target}, skip=2, name=first)", "tictactoe")
    assert sp.canonical == f"py({target},skip=2,name=first)"
    assert players.parse(sp.canonical, "tictactoe").canonical == sp.canonical
    assert players.display_name(sp.canonical) == "first"
    s2 = players.parse(f'py({target}, skip="2", sims=5)', "tictactoe")
    assert s2.get("skip") == "2" and s2.canonical == f'py({target},skip="2",sims=5)'
    assert players.parse(s2.canonical, "tictactoe").get("skip") == "2"


BAD = [
    ('GTP(cmd="./eng)', "unterminated double quote in 'GTP(cmd=\"./eng)'"),
    ('GTP(cmd=e, name=a"b)', "'\"' outside double quotes in 'GTP(cmd=e, name=a\"b)'"),
    ("GTP(cmd=./eng --x(1))", "'(' outside double quotes in 'GTP(cmd=./eng --x(1))'; quote "
                              'the value, e.g. cmd="./engine --opt (x)"'),
    ('GTP(cmd="e", level=3)', "unknown option 'level' in 'GTP(cmd=\"e\", level=3)' for GTP; "
                              "valid: cmd, name, timeout, time, sims"),
    ("GTP(name=x)", "GTP player 'GTP(name=x)' needs cmd=\"...\" (the engine's command line)"),
    ('GTP(cmd="e {level}")', "GTP player 'GTP(cmd=\"e {level}\")': unknown placeholder {level} "
                             "in cmd; valid: {seed}, {sims}, {time}, {game}"),
    ('GTP(cmd="e",)', "empty token in 'GTP(cmd=\"e\",)' (a doubled or trailing comma?)"),
    ('GTP(cmd="e" x)', "unexpected 'x' after a quoted value in 'GTP(cmd=\"e\" x)' (a quoted "
                       "value must be the whole value)"),
    ("py(name=x)", "py player 'py(name=x)': the first argument must be module:Class, e.g. "
                   "py(mypackage.players:MyPlayer)"),
    ("py(nosuchmodule_xyz:Foo)", "player py(nosuchmodule_xyz:Foo): no module named "
                                 "'nosuchmodule_xyz' (not on the Python path nor in the "
                                 "current directory)"),
    ("py(json:NoSuchClass)", "player py(json:NoSuchClass): module 'json' has no class "
                             "'NoSuchClass'"),
    ("py(json:dumps)", "player py(json:dumps): 'dumps' in 'json' is not a class"),
    ("py(json:JSONDecoder)", "player py(json:JSONDecoder): class 'JSONDecoder' has no "
                             "choose(state, time=None, sims=None) method"),
    ("py(./no/such/file.py:X)", "player py(./no/such/file.py:X): no such file "
                                "'./no/such/file.py'"),
    ("py(json:JSONDecoder, seed=3)", "py player 'py(json:JSONDecoder, seed=3)': 'seed' is given "
                                     "by the runner (the constructor receives it); choose "
                                     "another keyword"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_external_specs_one_line(text, message):
    with pytest.raises(SpecError) as err:
        players.parse(text, "breakthrough")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_py_constructor_mismatch_and_failing_import_are_spec_errors(tmp_path):
    target = f"{DATA / 'py_players.py'}:FirstMove"
    with pytest.raises(SpecError, match=r"FirstMove\(\): got an unexpected keyword argument "
                                        "'depth'"):
        players.parse(f"py({target}, depth=3)", "breakthrough")
    (tmp_path / "broken_mod.py").write_text("x = 1 / 0\n")
    with pytest.raises(SpecError, match=r"importing '.*broken_mod.py' failed: "
                                        "ZeroDivisionError: division by zero"):
        players.parse(f"py({tmp_path / 'broken_mod.py'}:X)", "breakthrough")


# ---- arena gtp: the server -------------------------------------------------------------------
def converse(lines, spec="MCTS(ipp)", game="breakthrough", **kw):
    out = io.StringIO()
    GTPServer(spec, game, **kw).serve(io.StringIO("".join(s + "\n" for s in lines)), out)
    return [a for a in out.getvalue().split("\n\n") if a]


def test_server_answers_the_standard_commands():
    ans = converse(["protocol_version", "7 name", "boardsize 8", "boardsize 9", "clear_board",
                    "play b a7-a6", "play w a2-a3", "genmove w", "genmove b", "bogus",
                    "known_command set_position", "known_command bogus", "# comment",
                    "komi 6.5", "undo", "quit", "name"], sims=30)
    assert ans[:7] == ["= 2", "=7 mcts_arena", "=", "? unacceptable size", "=",
                       "? illegal move", "="]
    assert ans[7] == "? it is not w's turn" and ans[8].startswith("= ")
    assert ans[9:14] == ["? unknown command", "= true", "= false", "=", "="]
    assert ans[14] == "="           # quit; nothing answered after it
    assert len(ans) == 15


def test_server_set_position_and_time_settings_kalah():
    ans = converse(["list_commands", "set_position 1,2,3,4,5,6,0/6,5,4,3,2,1,0 1",
                    "genmove b", "genmove w", "time_settings 0 0.01 1", "time_left w 0.01 1",
                    "set_position nonsense"], spec="MCTS", game="kalah")
    assert "set_position" in ans[0] and "genmove" in ans[0]
    assert ans[1] == "=" and ans[2] == "? it is not b's turn"
    assert ans[3] in {f"= {i}" for i in range(1, 7)}
    assert ans[4:6] == ["=", "="] and ans[6].startswith("? bad position")


def test_arena_gtp_bad_spec_is_one_line_exit_2():
    res = CliRunner().invoke(cli, ["gtp", "MCTS(zzz)", "--game", "breakthrough"])
    assert res.exit_code == 2
    assert res.output.startswith("arena: error: unknown token 'zzz'")
    assert res.output.count("\n") == 1
    res = CliRunner().invoke(cli, ["gtp", "MCTS", "--game", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


# ---- the round trip: served MCTS(ipp) plays the internal MCTS(ipp)'s games -----------------
@pytest.mark.parametrize("game,kind,plies,opp", [
    ("breakthrough", "start", 0, "MCTS(ege0.1)"),
    ("breakthrough", "random_plies", 4, "Random"),
    ("kalah", "random_boards", 0, "Greedy"),
])
def test_round_trip_plays_exactly_the_internal_players_games(game, kind, plies, opp):
    tag = uuid.uuid4().hex
    ours = served("MCTS(ipp)" if game == "breakthrough" else "MCTS", game, tag=tag)
    ext = list(play_job(job((canon(ours, game), opp), game, kind=kind, plies=plies), players))
    internal = "MCTS(ipp)" if game == "breakthrough" else "MCTS"
    ref = list(play_job(job((internal, opp), game, kind=kind, plies=plies), players))
    assert [r.reason for r in ext] == ["normal", "normal"], [r.error for r in ext]
    for a, b in zip(ext, ref):
        assert a.moves == b.moves and a.winner == b.winner and a.plies == b.plies
        assert a.opening == b.opening
    assert not procs_with(tag)


def test_round_trip_differs_with_another_seed():
    """The seed really travels: the same engine under other seeds plays other games."""
    a = list(play_job(job((canon(served()), "Random")), players))
    b = list(play_job(job((canon(served()), "Random"), seeds=((12, 22), (34, 44))), players))
    assert a[0].moves != b[0].moves or a[1].moves != b[1].moves


# ---- misbehaving engines ---------------------------------------------------------------------
def test_crash_is_an_error_game_with_the_engines_last_stderr_lines_and_a_fresh_engine_next():
    tag = uuid.uuid4().hex
    recs = list(play_job(job((canon(fake("crash", after=2, tag=tag)), "Random")), players))
    assert [r.reason for r in recs] == ["error", "error"]
    for r in recs:
        assert r.winner is None and r.score is None
        assert r.plies >= 4                     # two good moves each game: a fresh engine
        assert "engine exited (exit status 11)" in r.error
        assert "fake: Segmentation fault (simulated)" in r.error
        assert "fake: stderr line 11" in r.error and "fake: stderr line 2 " not in r.error
        assert r.error.startswith("seat ")
    assert not procs_with(tag)


@pytest.mark.process
def test_hang_under_a_time_budget_is_a_time_forfeit_and_the_engine_is_killed():
    tag = uuid.uuid4().hex
    r = one_game(fake("hang", after=1, tag=tag), budget={"time": 0.05})
    assert r.reason == "time_forfeit" and r.winner == 1
    assert "no answer to genmove within 0.600 s (engine killed)" in r.error
    assert r.plies == 2
    assert not procs_with(tag)


@pytest.mark.process
def test_hang_under_a_simulation_budget_ends_at_the_specs_timeout():
    tag = uuid.uuid4().hex
    r = one_game(fake("hang", tag=tag, extra=", timeout=0.3"))
    assert r.reason == "time_forfeit" and r.winner == 1 and r.plies == 0
    assert "within 0.3 s in which the engine did not compute" in r.error
    assert not procs_with(tag)


@pytest.mark.process
def test_an_engine_computing_past_its_timeout_under_a_simulation_budget_forfeits():
    tag = uuid.uuid4().hex
    r = one_game(fake("spin", tag=tag, extra=", timeout=0.3"))
    assert r.reason == "time_forfeit" and r.winner == 1 and r.plies == 0
    assert "within 0.3 s of the engine's CPU time (engine killed)" in r.error
    assert not procs_with(tag)


@pytest.mark.process
def test_a_starved_engine_under_a_simulation_budget_keeps_its_move():
    # a work budget's move is as long as its work: an engine given a small share of a loaded
    # machine answers after its timeout in wall time (here about 0.75 s against 0.6 s) having
    # computed less than it (0.25 s), and plays on
    tag = uuid.uuid4().hex
    r = one_game(fake("starved", tag=tag, extra=", timeout=0.6"))
    assert r.reason != "time_forfeit" and r.error is None and r.plies > 2
    assert not procs_with(tag)


@pytest.mark.parametrize("mode,reason,text", [
    ("illegal", "illegal_move", "illegal move 'z9-z9' answered to genmove w (legal: a1-a2 "),
    ("pass", "illegal_move", "illegal move 'pass'"),
    ("resign", "resign", "resigned"),
])
def test_illegal_move_and_resignation_lose_the_game(mode, reason, text):
    tag = uuid.uuid4().hex
    r = one_game(fake(mode, after=1, tag=tag))
    assert r.reason == reason and r.winner == 1 and r.score == 0.0
    assert text in r.error and r.plies == 2
    assert not procs_with(tag)


@pytest.mark.process
@pytest.mark.parametrize("mode", ["spawn", "deaf_spawn"])
def test_no_process_outlives_its_game(mode):
    """An engine's children and an engine that ignores quit are killed with the game."""
    tag = uuid.uuid4().hex
    r = one_game(fake(mode, tag=tag))
    assert r.reason == "normal", r.error
    assert not procs_with(tag)


def test_engine_refusing_a_move_we_send_is_an_error_game():
    # the fake plays the first legal move; its board is right, so desync it: tictactoe engine
    # told it plays breakthrough would refuse our moves
    tag = uuid.uuid4().hex
    spec = (f'GTP(cmd="{PY} {FAKE} --mode good --game tictactoe --tag {tag}", name=confused)')
    r = play_game(job((canon(spec), "Random")), job((canon(spec), "Random")).games[1],
                  start_text("breakthrough"), players, [])
    assert r.reason == "error" and "engine answered '? illegal move' to 'play w " in r.error
    assert not procs_with(tag)


# ---- Python players --------------------------------------------------------------------------
def test_example_player_from_the_readme_plays_and_wins_when_it_can():
    spec = canon(f"py({EXAMPLE}:WinFirst, name=winfirst)", "tictactoe")
    recs = list(play_job(job((spec, "Random"), "tictactoe", pairs=3), players))
    assert all(r.reason == "normal" for r in recs)
    assert sum(r.score for r in recs) > 3          # one-move wins beat random play
    state = players.make(spec, "tictactoe", seed=1)
    from mcts_arena import games
    s = games.new_state("tictactoe")
    for m in ("b2", "a1", "b1", "a3"):
        s.play(m)
    move, stats = state.choose(s)
    assert s.format_move(move) == "b3" and stats["nodes"] == 5


def test_documented_example_player_is_the_shipped_one():
    readme = (Path(__file__).parent.parent / "docs" / "engines.md").read_text()
    blocks = [b.split("```", 1)[0] for b in readme.split("```python\n")[1:]]
    block = next((b for b in blocks if "class WinFirst" in b), "")
    assert "class WinFirst" in block and len(block.strip().splitlines()) <= 12
    shipped = [ln for ln in EXAMPLE.read_text().splitlines() if ln.strip()]
    assert [ln for ln in block.splitlines() if ln.strip()] == shipped[-len(block.strip()
                                                                             .splitlines()):]


def test_py_player_options_seed_and_game_reach_the_constructor():
    spec = canon(f"py({DATA / 'py_players.py'}:FirstMove, skip=1)", "tictactoe")
    p = players.make(spec, "tictactoe", seed=77)
    assert (p.impl.skip, p.impl.seed, p.impl.game) == (1, 77, "tictactoe")
    r = list(play_job(job((spec, "Random"), "tictactoe"), players))[0]
    assert r.reason == "normal" and r.moves[0] == "b1" and r.stats[0]["sims"] == 1


@pytest.mark.parametrize("cls,message", [
    ("Raises", "ZeroDivisionError: my prototype divides by zero"),
    ("ReturnsMoveOnly", "TypeError: choose() must return (move, stats), got 1032"),
])
def test_errors_in_a_py_player_are_error_games(cls, message):
    spec = canon(f"py({DATA / 'py_players.py'}:{cls})")
    r = list(play_job(job((spec, "Random")), players))[0]
    assert r.reason == "error" and r.score is None
    assert message in r.error and r.error.startswith("seat 0 py(")


# ---- arena run: start-up checks, end to end, report ------------------------------------------
def write_cfg(tmp_path, player, game="breakthrough", extra=""):
    cfg = tmp_path / "x.yaml"
    cfg.write_text(f"name: x\ngame: {game}\nbudget: {{sims: 20}}\ngames: 2\nseed: 4\n{extra}"
                   f"matches:\n  - player: {json.dumps(player)}\n    opponent: Random\n")
    return cfg


@pytest.mark.parametrize("spec,game,message", [
    ('GTP(cmd="/no/such/engine -v", name=ghost)', "breakthrough",
     "player ghost: cannot start '/no/such/engine': no such command"),
    (fake("exit"), "breakthrough", "player fake_exit: engine exited (exit status 3) while "
                                   "answering 'protocol_version'; engine stderr: fake: cannot "
                                   "load my weights file"),
    (fake("refuse_boardsize"), "breakthrough",
     "player fake_refuse_boardsize: engine answered '? unacceptable size' to 'boardsize 8'"),
    (fake("malformed"), "breakthrough", "player fake_malformed: malformed GTP response to "
                                        "'protocol_version': 'hello there' (an answer starts "
                                        "with '=' or '?')"),
    (fake("good", game="kalah"), "kalah", "player fake_good: the openings of this experiment "
                                          "are positions no move sequence reaches"),
    ('GTP(cmd="e --budget {time}", name=t)', "breakthrough",
     "player t: cmd uses {time} but this seat has a simulation budget ({'sims': 20})"),
    ("py(nosuchmodule_xyz:Foo)", "breakthrough", "bad player 'py(nosuchmodule_xyz:Foo)': player "
                                                 "py(nosuchmodule_xyz:Foo): no module named"),
])
def test_bad_engines_stop_the_run_at_start_up_with_nothing_written(tmp_path, monkeypatch, spec,
                                                                   game, message):
    monkeypatch.chdir(tmp_path)
    write_cfg(tmp_path, spec, game)
    res = CliRunner().invoke(cli, ["run", "x.yaml", "--quiet", "--jobs", "1", "--out", "res"])
    assert res.exit_code == 2, res.output
    assert res.output.startswith("arena: error: ") and message in res.output, res.output
    assert res.output.count("\n") == 1
    assert not (tmp_path / "res").exists()


def test_exit_at_once_before_protocol_version_is_reported(tmp_path):
    """An engine that dies before answering anything: the first command names it."""
    from mcts_arena.players import gtp_player as external
    sp = players.parse(f'GTP(cmd="{PY} -c \\"import sys; sys.exit(4)\\"", name=quick)',
                       "breakthrough")
    with pytest.raises(external.ExternalError, match=r"player quick: engine exited \(exit "
                                                     r"status 4\) (before|while answering) "
                                                     r"'protocol_version'"):
        external.check_startup(sp, {"sims": 1})


@pytest.mark.slow
def test_run_with_a_served_engine_then_report_names_it_and_shows_time_per_move(tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_cfg(tmp_path, served(name="ours"))
    res = CliRunner().invoke(cli, ["run", "x.yaml", "--quiet", "--jobs", "1", "--out", "res"])
    assert res.exit_code == 0, res.output
    assert "ours vs Random" in res.output
    res = CliRunner().invoke(cli, ["report", "res", "--format", "json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output)[0]
    assert row["player"] == "ours" and row["player_spec"].startswith("GTP(cmd=")
    assert row["games"] == 2 and row["errors"] == 0
    assert row["player_time"] > 0 and row["opponent_time"] > 0
    assert row["player_work"] is None and row["opponent_work_unit"] == "nodes"
    text = CliRunner().invoke(cli, ["report", "res"]).output
    head = next(line for line in text.splitlines() if line.startswith("pairing"))
    assert "s/move P / O" in head
    line = next(line for line in text.splitlines() if line.startswith("ours vs Random"))
    assert "  - / 1n " in line


WORKER = """
import sys
sys.path.insert(0, {tests!r})
from helpers import one_game, fake
one_game(fake("hang", tag={tag!r}, extra=", timeout=3600"))
"""


@pytest.mark.process
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_a_terminated_worker_takes_its_engine_along(sig):
    """The pool terminates busy workers on Ctrl-C (SIGTERM), a watchdog may kill one outright
    (SIGKILL): their engines die with them."""
    import signal
    import subprocess
    import time
    sig = getattr(signal, sig)
    tag = uuid.uuid4().hex
    script = WORKER.format(tests=str(Path(__file__).parent), tag=tag)
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        for _ in range(600):                    # until the engine hangs in genmove
            if any("fake_gtp.py" in p for p in procs_with(tag)):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the engine never started")
        time.sleep(0.3)
        proc.send_signal(sig)
        assert proc.wait(30) == -sig
    finally:
        proc.kill()
    for _ in range(100):
        if not procs_with(tag):
            break
        time.sleep(0.05)
    assert not procs_with(tag)


def test_an_effort_budget_needs_an_external_players_own_budget(tmp_path):
    from mcts_arena.runner import config
    text = ("game: breakthrough\nbudget: {effort: 1}\nmatches:\n"
            "  - {player: 'GTP(cmd=./eng, name=e)', opponent: Random}\n")
    with pytest.raises(config.ConfigError, match=r"matches\[0\].player: .*an external player "
                                                 r"\(GTP\(cmd=./eng,name=e\)\) has no engine "
                                                 "rate .*give it a time= or sims= budget"):
        config.loads(text)
    exp = config.loads(text.replace("name=e", "name=e, sims=7"))
    assert exp.pairings[0].player_budget.sims == 7


def test_arena_play_with_a_served_engine_plays_the_internal_players_game():
    def moves(args):
        res = CliRunner().invoke(cli, ["play", "breakthrough", *args, "--sims", "30",
                                       "--seed", "5"])
        assert res.exit_code == 0, res.output
        lines = res.output.splitlines()
        return [ln.split(":")[1].split()[0] for ln in lines[1:-1]], lines[-1]
    ext, ext_result = moves([served(), "MCTS(ege0.1)"])
    ref, ref_result = moves(["MCTS(ipp)", "MCTS(ege0.1)"])
    assert ext == ref and len(ext) > 10
    assert ext_result.replace("served", "MCTS(ipp)") == ref_result


def test_arena_play_reports_a_forfeit_and_a_crash_in_one_line():
    res = CliRunner().invoke(cli, ["play", "breakthrough", fake("illegal", after=1), "Random",
                                   "--sims", "5"])
    assert res.exit_code == 0
    last = res.output.splitlines()[-1]
    assert last.startswith("result: Random wins (second player) by an illegal move (seat 0 GTP(")
    assert "name=fake_illegal): illegal move 'z9-z9' answered to genmove w (legal: " in last
    res = CliRunner().invoke(cli, ["play", "breakthrough", fake("crash"), "Random"])
    assert res.exit_code == 3           # nothing measured: the all-error status
    last, error = res.output.splitlines()[-2:]
    assert error.startswith("arena: error: the game could not be played: seat 0 GTP(")
    assert last == "result: error game (nothing measured; the error follows)"   # said once
    assert ("EngineError: engine exited (exit status 11) while answering 'genmove w'; engine "
            "stderr: ") in error and "fake: Segmentation fault (simulated)" in error
    assert ".py:" not in error          # the engine's fault, not a place in our code


def test_tournament_entrants_are_named_by_their_name(tmp_path):
    from mcts_arena.runner import tournament
    path = tmp_path / "t.yaml"
    path.write_text("name: t\nkind: round_robin\ngame: tictactoe\nbudget: {sims: 5}\ngames: 2\n"
                    f"entrants: ['MCTS', {json.dumps(served('MCTS', 'tictactoe'))}, "
                    f"'py({EXAMPLE}:WinFirst)']\n")
    spec = tournament.resolve(str(path), None, None)
    assert [label for label, _ in spec.entrants] == ["MCTS", "served", str(EXAMPLE) + ":WinFirst"]
    assert spec.entrants[1][1].startswith("GTP(cmd=")


def test_gtp_facts_come_from_the_game(monkeypatch):
    import dataclasses

    from mcts_arena import games
    from mcts_arena.players.gtp_player import gtp_facts
    assert gtp_facts("breakthrough")["colors"] == ("w", "b")
    assert gtp_facts("breakthrough")["boardsize"] == 8 and gtp_facts("kalah")["boardsize"] is None
    real = games.info_of
    kalah = dataclasses.replace(real("kalah"), gtp_boardsize="stones",
                                gtp_move=lambda m: "h" + m, gtp_parse=lambda t: t[1:])
    monkeypatch.setattr(games, "info_of", lambda g: kalah if g.startswith("kalah") else real(g))
    f = gtp_facts("kalah(stones=3)")
    assert f["boardsize"] == 3 and f["to_gtp"]("4") == "h4" and f["from_gtp"]("h4") == "4"


def test_boardsize_switches_a_game_whose_size_is_a_parameter():
    ans = converse(["boardsize 9", "play b e5", "genmove w", "showboard", "boardsize 5",
                    "boardsize 20", "boardsize x", "boardsize 15", "play b h8"],
                   spec="MCTS", game="gomoku(exact=1)", sims=50)
    assert ans[0] == "=" and ans[1] == "=" and ans[2].startswith("= ")
    board = ans[3]
    assert "    a b c d e f g h i\n" in board and " j " not in board
    assert ans[4:7] == ["? unacceptable size"] * 3
    assert ans[7] == "=" and ans[8] == "="        # 15x15 again: h8 is on the board, empty
    # the other parameters stay: still the exact-five rule
    out = io.StringIO()
    srv = GTPServer("MCTS", "gomoku(exact=1)", sims=10)
    srv.serve(io.StringIO("boardsize 11\n"), out)
    assert srv.game == "gomoku(size=11,exact=1)" and srv.state.to_text().endswith(" exact")
    assert srv.spec.game == "gomoku(size=11,exact=1)"


# ---- Hex over GTP at every size ---------------------------------------------------
def test_arena_gtp_serves_hex_at_every_size_in_its_range():
    """`arena gtp MCTS --game hex` answered '? unacceptable size' to every boardsize."""
    sizes = list(range(3, 20))
    ans = converse([f"boardsize {n}" for n in sizes] + ["boardsize 2", "boardsize 20",
                                                         "boardsize 7", "play b g7", "genmove w"],
                   spec="MCTS", game="hex", sims=20)
    assert ans[:len(sizes)] == ["="] * len(sizes)
    assert ans[len(sizes):len(sizes) + 2] == ["? unacceptable size"] * 2
    assert ans[-3] == "=" and ans[-2] == "="        # g7 is the last cell of a 7x7 board
    assert ans[-1].startswith("= ")


def test_a_gtp_player_is_told_the_hex_size():
    from mcts_arena.players.gtp_player import gtp_facts
    assert [gtp_facts(f"hex(size={n})")["boardsize"] for n in (3, 5, 11, 19)] == [3, 5, 11, 19]


@pytest.mark.process
def test_a_served_hex_engine_plays_hex_5_on_a_5x5_board():
    """Before: never sent `boardsize 5`, the engine played on 11x11 and forfeited (k11 ...)."""
    tag = uuid.uuid4().hex
    game = "hex(size=5)"
    ext = list(play_job(job((canon(served("MCTS", "hex", tag=tag), game), "Random"), game,
                            budgets=({"sims": 30}, {"sims": 30})), players))
    assert [r.reason for r in ext] == ["normal", "normal"], [r.error for r in ext]
    ref = list(play_job(job(("MCTS", "Random"), game, budgets=({"sims": 30}, {"sims": 30})),
                        players))
    assert [r.moves for r in ext] == [r.moves for r in ref]
    assert not procs_with(tag)


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"),
                    reason="this kernel has no scheduler autogroups")
def test_an_engine_runs_at_its_runners_priority_in_a_session_of_its_own():
    """A run lowered in priority (its autogroup at nice 7 here) starts each engine in a session
    of its own, whose new autogroup would start at nice 0: the engine's group takes the
    runner's nice, so a background run's engine does not take a core from the foreground."""
    code = textwrap.dedent("""
        from mcts_arena.players.gtp_process import GTPEngine, _autogroup_nice
        with open("/proc/self/autogroup", "w") as f:
            f.write("7")
        engine = GTPEngine(["sleep", "30"], "sleep")
        try:
            print(_autogroup_nice(engine.proc.pid))
        finally:
            engine.kill()
    """)
    out = subprocess.run([sys.executable, "-c", code], start_new_session=True,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "7"
