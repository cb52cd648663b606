"""One vocabulary: every command the docs and configs quote exists with the options
they give it; `arena players GAME` lists only what the game accepts, each value's placeholder
being the letter its meaning uses, every evaluation described; `arena games` explains every
parameter; `arena show RESULTS ID` (positional, or --id; the old --game ID still works, with a
warning)."""
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.players import kinds
from mcts_arena.players.options import OPTIONS

ROOT = Path(__file__).resolve().parents[1]
#: words after "arena" in prose: "the arena command", "an arena results store"
PROSE = ("command", "results")
QUOTED = re.compile(r"(?<![\w/.-])arena ([a-z]+)((?:[ \t]+[^\s`#|;)&'\"]+)*)")


def _quoting_files():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").glob("*.md"))
    yield from sorted((ROOT / "configs").rglob("*.yaml"))
    yield from sorted((ROOT / "mcts_arena").rglob("*.py"))
    yield from sorted((ROOT / "mcts_arena").rglob("*.pyx"))


def test_every_quoted_command_exists_with_its_options():
    bad = []
    for path in _quoting_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in QUOTED.finditer(line):
                name, rest = m.group(1), m.group(2)
                if name in PROSE:
                    continue
                cmd = cli.commands.get(name)
                if cmd is None:
                    bad.append(f"{path.relative_to(ROOT)}:{n}: no command 'arena {name}'")
                    continue
                words = shlex.split(rest.replace("{", " ").replace("}", " "), posix=False)
                if isinstance(cmd, click.Group) and words and words[0] in cmd.commands:
                    cmd = cmd.commands[words[0]]        # a group's command: its own options
                opts = {o for p in cmd.params for o in getattr(p, "opts", [])}
                for word in words:
                    flag = word.split("=")[0]
                    if flag.startswith("--") and flag not in opts and flag != "--help":
                        bad.append(f"{path.relative_to(ROOT)}:{n}: 'arena {name}' has no "
                                   f"option {flag}")
    assert bad == []


def _example(o, game=None) -> str:
    """A spec text that uses option `o` with a value in its range, for a kind that can play
    `game` where one takes the option (a game with dice: not the searches)."""
    able = [k.display for k in kinds.KINDS if not k.external and k.name in o.kinds
            and k.name in players.spec.playing_kinds(game)]
    kind = able[0] if able else ("MCTS" if "MCTS" in o.kinds else "αβ")
    value = {"flag": "", "int": o.example, "float": o.example, "clock": o.example}[o.type]
    if o.role == "budget":
        value = "1" if o.field == "time" else "100"
    if o.type in ("int", "float") and not (o.low <= float(value) <= o.high):
        value = str(o.low if o.type == "float" else int(o.low))
    extra = {"npk": "np10,", "npb": "np10,", "v0q": "im0.4,", "msv": "ms=2,", "cvisit": "gumbel,",
             "cscale": "gumbel,"}.get(o.field, "")
    return f"{kind}({extra}{o.field}={value})" if o.key else \
        f"{kind}({extra}{o.token}{value})"


@pytest.mark.parametrize("game", games.names())
def test_players_lists_only_what_the_game_accepts(game):
    listed = dict(players.describe_tokens(game))
    for o in OPTIONS:
        if o.token is None and not o.key:
            continue
        text = _example(o, game)
        try:
            players.parse(text, game)
            accepted = True
        except ValueError:
            accepted = False
        label_listed = any(lbl.split(" ")[0].startswith(o.token or "\0") or
                           lbl.startswith(f"{o.field}=") for lbl in listed)
        assert accepted == label_listed, (game, text, accepted)


def test_loa_lists_no_node_priors():
    """`arena players loa` listed np=V, npk, npb, which LOA then refused."""
    out = CliRunner().invoke(cli, ["players", "loa"]).output
    assert not re.search(r"^\s+(np|npk|npb)\b", out, re.M)
    assert re.search(r"^\s+np / npN\b", CliRunner().invoke(cli, ["players", "breakthrough"])
                     .output, re.M)
    with pytest.raises(ValueError, match="does not apply to loa"):
        players.parse("MCTS(np10,npk=2)", "loa")


def test_placeholders_are_the_letters_their_meanings_use():
    for label, meaning in players.describe_tokens():
        head = re.sub(r" \((αβ|MCMS|\*-minimax)\)$", "", label).split(" / ")[-1]
        if head in ("ef=FILE", "nn=FILE"):  # a file, not an option of the table: named in it
            assert "FILE" in meaning
            continue
        o = next(o for o in OPTIONS if head in (f"{o.token}{o.symbol}", f"{o.field}={o.symbol}")
                 or head == (o.label or o.token))
        if o.type == "flag" or head == o.label:
            continue
        symbol = o.symbol
        if symbol == "0|1":
            # a switch says what 1 and 0 mean and which is the default
            assert re.search(r"\(1\b.*\(0\b", meaning), meaning
            assert "default" in meaning, meaning
            continue
        assert re.search(rf"(?<![A-Za-z]){re.escape(symbol)}(?![A-Za-z])", meaning), \
            (label, meaning)


@pytest.mark.parametrize("game", games.names())
def test_every_evaluation_is_described(game):
    info = games.info_of(game)
    out = CliRunner().invoke(cli, ["players", game]).output
    for ev in info.evals:
        assert info.eval_meanings[ev].strip()
        assert re.search(rf"^  {ev}\s+{re.escape(info.eval_meanings[ev][:30])}", out, re.M)


def test_games_explains_every_parameter():
    out = CliRunner().invoke(cli, ["games"]).output
    for name in games.names():
        for key, p in games.info_of(name).params.items():
            assert re.search(rf"^\s+{key}={p.default}\s+{re.escape(p.meaning)} \({p.low} to "
                             rf"{p.high}\)$", out, re.M), (name, key)


def test_show_takes_the_record_id_as_argument_or_id_and_the_old_spelling_warns(tmp_path):
    from helpers import record

    from mcts_arena.runner.writer import Writer
    with Writer.open(tmp_path / "r") as w:
        w.save_experiment("e", '{"game": "breakthrough"}', {}, [])
        w.add_game(record())
    run = CliRunner()
    a = run.invoke(cli, ["show", str(tmp_path / "r"), "e/p1/0/0"])
    b = run.invoke(cli, ["show", str(tmp_path / "r"), "--id", "e/p1/0/0"])
    c = run.invoke(cli, ["show", str(tmp_path / "r"), "--game", "e/p1/0/0"])
    assert a.exit_code == b.exit_code == c.exit_code == 0, (a.output, c.output)
    assert a.output == b.output and "a2-a3" in a.output
    assert c.output.startswith("arena: warning: 'arena show RESULTS --game ID' is deprecated")
    assert c.output.endswith(a.output)
