"""A GTP engine that misbehaves on purpose, for tests/test_gtp.py.

    fake_gtp.py --mode MODE --game GAME [--after N] [--tag TAG]

It plays the first legal move for `--after` genmoves (default 0), then does what MODE says:
good (keep playing), crash (a few stderr lines, exit 11), hang (sleep), illegal (answer z9),
resign, pass, slow (sleep 0.3 s, then play), spin (compute forever), starved (at one genmove,
compute 0.25 s of CPU time in bursts of 0.05 s between sleeps of 0.1 s, as an engine given a
small share of a loaded machine does, then keep playing). Start-up modes: exit (exit at once, status 3), refuse_boardsize ('?' to
boardsize), malformed (no '=' in the answer to protocol_version), no_list (no list_commands).
spawn: also starts a child process that sleeps (the process group must be killed with it);
deaf: ignores `quit`. `--tag` only marks the process for the tests' process scan; `--log FILE`
appends every command received to FILE; time_settings and time_left are answered `=`.
"""
import argparse
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="good")
ap.add_argument("--game", default="breakthrough")
ap.add_argument("--after", type=int, default=0)
ap.add_argument("--tag", default="")
ap.add_argument("--colors", default="")
ap.add_argument("--log", default="")
a = ap.parse_args()

if a.mode == "exit":
    print("fake: cannot load my weights file", file=sys.stderr)
    sys.exit(3)
if a.mode in ("spawn", "deaf_spawn"):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", "--tag", a.tag])

from mcts_arena import games  # noqa: E402

state = games.new_state(a.game)
cls = games.game_class(a.game)
colors = tuple(getattr(cls, "gtp_colors", ("b", "w")))
genmoves = 0


def answer(text="", ok=True):
    sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd, args = words[0], words[1:]
    if a.log:
        with open(a.log, "a") as f:
            f.write(line.strip() + "\n")
    if cmd in ("time_settings", "time_left"):
        answer()
        continue
    if cmd == "quit":
        if a.mode.startswith("deaf"):
            continue
        answer()
        break
    if cmd == "protocol_version":
        if a.mode == "malformed":
            sys.stdout.write("hello there\n\n")
            sys.stdout.flush()
        else:
            answer("2")
    elif cmd == "name":
        answer("fake")
    elif cmd == "list_commands":
        if a.mode == "no_list":
            answer("unknown command", ok=False)
        else:
            answer("\n".join(["protocol_version", "name", "boardsize", "clear_board", "play",
                              "genmove", "quit", "list_commands"]))
    elif cmd == "boardsize":
        if a.mode == "refuse_boardsize":
            answer("unacceptable size", ok=False)
        else:
            answer()
    elif cmd == "clear_board":
        state = games.new_state(a.game)
        answer()
    elif cmd == "play":
        try:
            state.play(args[1])
            answer()
        except (ValueError, IndexError):
            answer("illegal move", ok=False)
    elif cmd == "genmove":
        genmoves += 1
        if genmoves > a.after and a.mode != "good" and not a.mode.endswith("spawn"):
            if a.mode == "crash":
                for i in range(12):
                    print(f"fake: stderr line {i}", file=sys.stderr)
                print("fake: Segmentation fault (simulated)", file=sys.stderr)
                sys.stderr.flush()
                sys.exit(11)
            if a.mode.startswith("hang"):
                time.sleep(3600)
            if a.mode == "slow":
                time.sleep(0.3)
            if a.mode == "spin":
                while True:
                    pass
            if a.mode == "starved" and genmoves == a.after + 1:
                for _ in range(5):
                    t = time.process_time()
                    while time.process_time() - t < 0.05:
                        pass
                    time.sleep(0.1)
            if a.mode == "illegal":
                answer("z9-z9")
                continue
            if a.mode == "resign":
                answer("resign")
                continue
            if a.mode == "pass":
                answer("pass")
                continue
        move = state.move_ids()[0]
        text = state.format_move(move)
        state.play(move)
        answer(text)
    else:
        answer("unknown command", ok=False)
