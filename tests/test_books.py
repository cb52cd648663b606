"""Opening books: `arena openings` writes one, `arena run --openings FILE` (or
`openings: {file: ..., order: ...}`) starts pair k of every pairing from one line, both games of
a pair from the same line; a bad line is one error naming the file and line; a changed book
refuses a resume; `--balanced` keeps what the reference search values near even."""
import pytest
from click.testing import CliRunner

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.results.store import Store
from mcts_arena.runner import book, config
from mcts_arena.runner import plan as plan_mod

CFG = ("name: b\ngame: breakthrough\nbudget: {sims: 10}\ngames: 6\nseed: 3\n"
       "matches:\n  - {player: 'Random(im0.5)', opponent: Random}\n"
       "  - {player: 'Random(im0.2)', opponent: Random}\n")


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "b.yaml").write_text(CFG)
    return tmp_path


def arena(*args):
    return CliRunner().invoke(cli, list(args))


def test_openings_writes_a_book_a_run_plays_from(cwd):
    made = arena("openings", "breakthrough", "--plies", "4", "--count", "2", "--out", "book.txt")
    assert made.exit_code == 0, made.output
    lines = book.read_book(cwd / "book.txt", "breakthrough")
    assert len(lines) == 2 and all(len(x.moves) == 4 for x in lines)
    res = arena("run", "b.yaml", "--openings", "book.txt", "--quiet", "--jobs", "1")
    assert res.exit_code == 0, res.output
    with Store.open(cwd / "results" / "b") as store:
        got = store.games()
    assert len(got) == 12
    for g in got:               # pair k from line k (cycling), both seats of the pair alike
        assert g["opening"] == lines[g["pair_index"] % 2].text


def test_random_order_uses_every_line_once_per_pass():
    exp = config.Openings("file", 0, "x", "random", tuple((str(i), None) for i in range(5)))
    for seed in (1, 2):
        picks = [plan_mod.book_index(exp, seed, k) for k in range(10)]
        assert sorted(picks[:5]) == sorted(picks[5:]) == list(range(5))


def test_a_bad_line_is_one_error_naming_file_and_line(cwd):
    (cwd / "bad.txt").write_text("# a comment\na2-a3 b7-b6\na2-a9\n")
    res = arena("run", "b.yaml", "--openings", "bad.txt", "--quiet")
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1, res.output
    assert res.output.startswith("arena: error: ") and "bad.txt:3: " in res.output
    assert "move 1 'a2-a9'" in res.output
    assert not (cwd / "results").exists()


def test_a_changed_book_refuses_a_resume(cwd):
    (cwd / "book.txt").write_text("a2-a3 b7-b6\nb2-b3\n")
    assert arena("run", "b.yaml", "--openings", "book.txt", "--quiet", "--games", "2",
                 "--jobs", "1").exit_code == 0
    db = cwd / "results" / "b" / "arena.sqlite"
    before = db.read_bytes()
    (cwd / "book.txt").write_text("a2-a3 b7-b6\nc2-c3\n")
    res = arena("run", "b.yaml", "--openings", "book.txt", "--quiet", "--games", "2")
    assert res.exit_code == 2 and "openings" in res.output, res.output
    assert db.read_bytes() == before


def test_a_position_line_is_taken_as_it_is(cwd):
    start = games.new_state("breakthrough").to_text()
    (cwd / "book.txt").write_text(start + "\n")
    lines = book.read_book(cwd / "book.txt", "breakthrough")
    assert lines == (book.BookLine(start, None),)


def test_balanced_keeps_positions_the_reference_values_near_even():
    """Every kept position searched again (the same reference, seed and simulations) is valued
    within the window, and the window did reject candidates."""
    bal = book.Balance("MCTS", 300, 0.1)
    lines, tried = book.make_book("tictactoe", 2, 4, seed=5, balance=bal)
    assert len(lines) == 4 and tried > 4
    g = games.resolve("tictactoe")
    for line in lines:
        state = g.new_state()
        for m in line.split():
            state.play(m)
        _, st = players.make("MCTS", g, seed=5).choose(state, sims=300)
        assert abs(st["value"]) <= 0.2
