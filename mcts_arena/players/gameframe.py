"""The paper authors' engine as a player, `gameframe(LABEL)`: one of the labelled players of
tpepels/mcts_gameframe at the commit the paper's rates were measured on (e8e21fd6), playing
Breakthrough or Kalah inside `arena` over GTP (the player: players/gameframe_player.py).

The engine is never part of this repository. `arena gameframe build --src SNAPSHOT` takes a git
clone of it, checks out the commit, applies `data/gameframe/mcts_gameframe-e8e21fd6.patch` (what
it adds: a node limit for its αβ, the work each search did, the players SimGame made) and
compiles it with our GTP front end (`data/gameframe/ArenaGtp.java`, our code, compiled into the
engine's `experiments` package) into the build folder: $MCTS_ARENA_GAMEFRAME, else
~/.cache/mcts_arena/gameframe-e8e21fd6. A game then runs
`java -cp BUILD experiments.ArenaGtp --game G --label LABEL (--work N | --time S) --seed N`,
a GTP engine like any other (players/gtp_player.py: faults are game results, an illegal move a
forfeit); after each move it is asked `arena_stats`, so the record holds the simulations (MCTS
labels) or nodes and depth (αβ labels) the engine searched.

Budgets: `sims=N` (or an experiment's `sims`) is N simulations for an MCTS label and N nodes for
an αβ label (`ab...`), the engine stopping on the count (its `_sl` loop; the patch's node limit);
`time=S` is the engine's own clock, S seconds a move, after a second of JIT warm-up before the
first move; a matched effort `{effort: S}` gives the label the work its own rates entry
(runner/data/engine_rates.yaml, looked up by `label`) times S, exactly as our players get theirs,
so `gameframe(ab)` against `αβ(efMS,tt=0,hh=0)` is like for like.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from mcts_arena import games
from mcts_arena.budgets import Budget
from mcts_arena.errors import ExternalError, SpecError

COMMIT = "e8e21fd6aae1531e7f2f035478b3f4c3ec5f5b7d"
DATA = Path(__file__).with_name("data") / "gameframe"
PATCH = DATA / "mcts_gameframe-e8e21fd6.patch"
FRONT_END = DATA / "ArenaGtp.java"
BUILD_ENV = "MCTS_ARENA_GAMEFRAME"
#: The engine's source folders its experiments compile from (scripts/make.sh at the commit).
SOURCE_DIRS = ("alphabeta BRUE domineering cannon checkers chinesecheckers kalah lostcities mcts "
               "mcts_tt nogo pentalath amazons experiments breakthrough penguin").split()
#: The games the front end speaks, with the parameters the engine plays (Kalah: 48 stones).
GAMES = ("breakthrough", "kalah")
#: A label: the engine's player kind and its underscore-separated tags (SimGame.loadPlayer).
LABEL_RE = re.compile(r"^(mcts|ab)(_[A-Za-z0-9.]+)*$")
JAVA_HEAP = "-Xmx2g"          # the αβ table of `ab_tt` labels is 2^25 entries
WARMUP_MS = 1000


def default_build() -> Path:
    """Where the build lives: $MCTS_ARENA_GAMEFRAME, else the user's cache folder."""
    env = os.environ.get(BUILD_ENV)
    if env:
        return Path(env)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "mcts_arena" / f"gameframe-{COMMIT[:8]}"


def java() -> str:
    """The java command; ExternalError when no Java runtime is installed."""
    found = shutil.which("java")
    if not found:
        raise ExternalError("gameframe: no Java runtime (java) on the PATH; install a JDK "
                            "(apt-get install default-jdk-headless)")
    return found


def check_build(build: Path | None = None) -> Path:
    """The build folder, checked (ExternalError naming what is missing)."""
    build = default_build() if build is None else Path(build)
    java()
    info = build / "BUILD.json"
    if not info.is_file():
        raise ExternalError(f"gameframe: the authors' engine is not built in {build}; run "
                            "`arena gameframe build --src CLONE` (a git clone of "
                            "tpepels/mcts_gameframe)")
    try:
        meta = json.loads(info.read_text())
    except (OSError, ValueError) as e:
        raise ExternalError(f"gameframe: {info}: unreadable ({e}); build it again") from None
    if not isinstance(meta, dict) or meta.get("commit") != COMMIT:
        raise ExternalError(f"gameframe: {build} is not a build of {COMMIT[:8]}; build it again")
    if meta.get("patch_sha") != _sha(PATCH) or meta.get("front_end_sha") != _sha(FRONT_END):
        raise ExternalError(f"gameframe: {build} was built from another patch or front end "
                            "than this mcts_arena's; run `arena gameframe build` again")
    return build


def _sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def build(src: Path, out: Path | None = None, extra: tuple[Path, ...] = ()) -> Path:
    """Check out COMMIT in the clone `src`, apply the patch, compile the engine with our front
    end (and any `extra` Java files of the `experiments` package) into `out`; the clone is left
    at COMMIT, unpatched. ExternalError on any fault, with nothing left half-built in `out`."""
    out = default_build() if out is None else Path(out)
    src = Path(src)
    if not shutil.which("javac"):
        raise ExternalError("gameframe: no Java compiler (javac); install a JDK "
                            "(apt-get install default-jdk-headless)")
    if not shutil.which("git"):
        raise ExternalError("gameframe: git is needed to check out the engine's commit")
    if not (src / ".git").exists():
        raise ExternalError(f"gameframe: {src} is not a git clone of tpepels/mcts_gameframe")
    if out.exists() and not out.is_dir():
        raise ExternalError(f"gameframe: {out} is a file, not a build folder; choose another "
                            "--out (or $MCTS_ARENA_GAMEFRAME)")
    if out.exists() and not (out / "BUILD.json").is_file() and any(out.iterdir()):
        raise ExternalError(f"gameframe: {out} exists and is not a gameframe build; choose "
                            "another --out")
    git = ["git", "-C", str(src)]
    if subprocess.run(git + ["cat-file", "-e", COMMIT + "^{commit}"],
                      capture_output=True).returncode:
        raise ExternalError(f"gameframe: {src}: commit {COMMIT[:8]} not found (a clone of the "
                            "whole history is needed)")
    tmp = out.with_name(out.name + ".building")
    try:
        _run(git + ["checkout", "-q", "--force", COMMIT], "checking out the commit")
        _run(git + ["apply", str(PATCH)], "applying the patch")
        if tmp.exists():
            shutil.rmtree(tmp)
        for d in SOURCE_DIRS:
            shutil.copytree(src / d / "src", tmp, dirs_exist_ok=True)
        for f in (FRONT_END, *extra):
            shutil.copy(f, tmp / "experiments" / Path(f).name)
        files = sorted(str(p) for p in tmp.rglob("*.java"))
        _run(["javac", "-nowarn", "-encoding", "UTF-8", "-cp", str(tmp), *files], "compiling")
        version = subprocess.run([java(), "-version"], capture_output=True, text=True)
        (tmp / "BUILD.json").write_text(json.dumps({
            "commit": COMMIT, "patch": PATCH.name, "patch_sha": _sha(PATCH),
            "front_end": FRONT_END.name, "front_end_sha": _sha(FRONT_END),
            "extra": [Path(f).name for f in extra],
            "java": (version.stderr.splitlines() or ["?"])[0]}) + "\n")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp.rename(out)
    except OSError as e:
        raise ExternalError(f"gameframe: building into {out}: {e}") from None
    finally:
        subprocess.run(git + ["checkout", "-q", "--force", COMMIT], capture_output=True)
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return out


def _run(argv: list[str], what: str) -> None:
    res = subprocess.run(argv, capture_output=True, text=True)
    if res.returncode:
        last = (res.stderr or res.stdout).strip().splitlines()[-3:]
        raise ExternalError(f"gameframe: {what} failed: {' / '.join(last)}")


def check_spec(label: str, game: games.Game, text: str) -> None:
    """Refuse, in one line, a label the front end cannot play or a game it does not speak."""
    if not LABEL_RE.match(label):
        raise SpecError(f"gameframe player {text!r}: {label!r} is not a label of the engine "
                        "(mcts_... or ab..., e.g. ab_tt_ev1, mcts_s_h_efv0_ege0.1_det0.5_im0.4)")
    if label.split("_")[0] == "mcts" and "sl" in label.split("_")[1:]:
        raise SpecError(f"gameframe player {text!r}: leave _sl out of the label: a sims= "
                        "budget plays the engine at a fixed count")
    if game.name not in GAMES:
        raise SpecError(f"gameframe plays {' and '.join(GAMES)}, not {game.name}")
    if dict(game.params) != {k: p.default for k, p in game.info.params.items()}:
        raise SpecError(f"gameframe plays {game.name} with its default parameters only "
                        f"(the engine's board), not {game}")


def unit(label: str) -> str:
    """What a work budget counts for this label."""
    return "nodes" if label.startswith("ab") else "sims"


def argv(label: str, game: str, seed: int, budget: Budget, build: Path | None = None
         ) -> list[str]:
    """The front end's command line for one game of `label` under `budget`."""
    b = check_build(build)
    cmd = [java(), JAVA_HEAP, "-cp", str(b), "experiments.ArenaGtp", "--game",
           games.split(game)[0], "--label", label, "--seed", str(seed)]
    if budget.sims is not None:
        return cmd + ["--work", str(int(budget.sims))]
    if budget.time is not None:
        return cmd + ["--time", f"{budget.time:g}", "--warmup", str(WARMUP_MS)]
    raise ExternalError(f"gameframe({label}): needs a simulation (work) or time budget, "
                        f"got {budget.as_dict()}")
