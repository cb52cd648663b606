"""The value checks every part of a config shares (runner.config, its clock rules, the tune's
and tournament's configs): a YAML integer, a YAML number (never a bool), and a value as an
error line shows it."""
from __future__ import annotations

import json
from typing import Any


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def shown(v: Any) -> str:
    if isinstance(v, (dict, list)):
        return type(v).__name__ + " " + json.dumps(v, default=str)[:40]
    return repr(v)
