# backgammon.pyx's text forms (included in place): the names of points and dice outcomes,
# and the position text `X/O side dice turns` parsed with one-line errors (format_move,
# parse_move, to_text, from_text and draw call these).


def _point_name(int q):
    return "bar" if q == BAR else ("off" if q == OFF else str(q))


def _format_outcome(int move):
    m = move - OUTCOME
    who, hi, lo = m >> 6, (m >> 3) & 7, m & 7
    return ("", "x", "o")[who] + f"{hi}{lo}"


def _parse_outcome(str t):
    """The outcome id of `31`, `13`, `x31`, `o31`; None when t is not a roll."""
    who = 0
    if t[:1] in ("x", "o"):
        who = 1 if t[0] == "x" else 2
        t = t[1:]
    if len(t) != 2 or not t.isdigit():
        return None
    a, b = int(t[0]), int(t[1])
    if not (1 <= a <= 6 and 1 <= b <= 6) or (who and a == b):
        return None
    hi, lo = max(a, b), min(a, b)
    return OUTCOME + who * 64 + hi * 8 + lo


def _parse_point(str word, str text):
    w = word.strip().lower()
    if w == "bar":
        return BAR
    if w == "off":
        return OFF
    if w.isdigit() and 1 <= int(w) <= 24:
        return int(w)
    raise ValueError(f"bad backgammon move {text!r}: {word!r} is not a point (1-24, bar, off)")


def _parse_segments(str text):
    """[(path of points, count, points marked hit)] of a notation like `24/18*/13 8/5(2)`."""
    out = []
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("empty backgammon move")
    for w in words:
        count = 1
        if w.endswith(")") and "(" in w:
            w, _, num = w[:len(w) - 1].rpartition("(")
            if not num.isdigit() or not 1 <= int(num) <= 4:
                raise ValueError(f"bad backgammon move {text!r}: bad repeat ({num})")
            count = int(num)
        parts = w.split("/")
        if len(parts) < 2:
            raise ValueError(f"bad backgammon move {text!r}: expected moves like 8/5 6/5, "
                             "bar/22, 6/off or pass")
        path, hits = [], set()
        for part in parts:
            star = part.endswith("*")
            q = _parse_point(part.rstrip("*"), text)
            path.append(q)
            if star:
                hits.add(q)
        for a, b in zip(path, path[1:]):
            if b >= a or a == OFF or b == BAR:
                raise ValueError(f"bad backgammon move {text!r}: a checker moves down, from "
                                 "the bar or a higher point to a lower one or off")
        out.append((path, count, hits))
    return out


def _side_text(list cnt):
    parts = []
    if cnt[BAR]:
        parts.append(f"bar:{cnt[BAR]}")
    for q in range(24, 0, -1):
        if cnt[q]:
            parts.append(f"{q}:{cnt[q]}")
    if cnt[OFF]:
        parts.append(f"off:{cnt[OFF]}")
    return ",".join(parts)


def _parse_side(str field, str who, str text):
    cnt = [0] * NPT
    seen = set()
    for item in field.split(","):
        key, sep, num = item.partition(":")
        key = key.strip().lower()
        if not sep or not num.strip().isdigit():
            raise ValueError(f"bad backgammon position {text!r}: {who}'s {item!r} is not "
                             "point:count")
        if key == "bar":
            q = BAR
        elif key == "off":
            q = OFF
        elif key.isdigit() and 1 <= int(key) <= 24:
            q = int(key)
        else:
            raise ValueError(f"bad backgammon position {text!r}: {who}'s point {key!r} is not "
                             "1-24, bar or off")
        if q in seen:
            raise ValueError(f"bad backgammon position {text!r}: {who}'s point {key} is listed "
                             "twice")
        seen.add(q)
        cnt[q] = int(num)
    total = sum(cnt)
    if total != NCHK:
        raise ValueError(f"bad backgammon position {text!r}: {who} has {total} checkers, "
                         f"expected {NCHK}")
    return cnt


def parse_position(str text, int max_turns=500):
    """(x counts, o counts, side, high die, low die, turns) of a text form; one-line
    ValueError naming the problem."""
    form = "'X/O side dice turns', e.g. " + repr(START_TEXT)
    parts = text.split()
    if len(parts) != 4 or parts[0].count("/") != 1:
        raise ValueError(f"bad backgammon position {text!r}: expected {form}")
    xs, os_ = parts[0].split("/")
    x = _parse_side(xs, "x", text)
    o = _parse_side(os_, "o", text)
    for q in range(1, 25):
        if x[q] and o[25 - q]:
            raise ValueError(f"bad backgammon position {text!r}: x and o both have checkers "
                             f"on x's point {q} (o's point {25 - q})")
    side, dice, turns = parts[1].lower(), parts[2], parts[3]
    if side not in ("x", "o", "-"):
        raise ValueError(f"bad backgammon position {text!r}: side must be x, o or - (the "
                         "opening roll)")
    if not turns.isdigit() or int(turns) > max_turns + 1:
        raise ValueError(f"bad backgammon position {text!r}: turns must be 0 to "
                         f"{max_turns + 1}, got {turns!r}")
    d0 = d1 = 0
    if dice != "-":
        if len(dice) != 2 or not dice.isdigit() or not all("1" <= ch <= "6" for ch in dice):
            raise ValueError(f"bad backgammon position {text!r}: dice must be - or two "
                             f"numbers 1-6 like 31, got {dice!r}")
        d0, d1 = max(int(dice[0]), int(dice[1])), min(int(dice[0]), int(dice[1]))
    if x[OFF] == NCHK and o[OFF] == NCHK:
        raise ValueError(f"bad backgammon position {text!r}: both sides have borne off every "
                         "checker")
    over = x[OFF] == NCHK or o[OFF] == NCHK or int(turns) > max_turns
    if side == "-" and (dice != "-" or int(turns) != 0 or over):
        raise ValueError(f"bad backgammon position {text!r}: at the opening roll (side -) "
                         "the dice are - and no turn has been played")
    if over and dice != "-":
        raise ValueError(f"bad backgammon position {text!r}: the game is over, so no dice")
    return x, o, side, d0, d1, int(turns)
