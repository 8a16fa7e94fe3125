"""The bounds of every number and choice a request carries, and their checks: one home, read by the
CLI, the MCP server and the daemon alike (design §12: bounded inputs, the same refusal on every surface).

Light on purpose (no click, no typing at run time): the CLI's fast path imports it.
"""

from __future__ import annotations

import math

from replay.errors import InvalidArgs

MAX_MS = 3_600_000  # every duration: at most an hour
DEFAULT_TIMEOUT_MS = 5000  # a step's timeout when neither the script's context nor the caller sets one
LEVELS = ("digest", "default", "full")  # a divergence report's size (engine/divergence.py sizes them)
MAX_REPAIR = 3  # repair rounds per divergence


def check_ms(name: str, value: object, *, low: int = 1) -> int | None:
    """A duration in whole milliseconds, ``low``..MAX_MS (``None`` when not given)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_MS:
        raise InvalidArgs(
            f"{name} must be a whole number of milliseconds from {low} to {MAX_MS} (an hour), got {_shown(value)}",
            hint=f"e.g. {name}=5000",
        )
    return value


def check_level(value: object) -> str:
    """A report level: one of LEVELS."""
    if value not in LEVELS:
        raise InvalidArgs(f"level must be one of {', '.join(LEVELS)}, got {_shown(value)}", hint="level=default")
    return str(value)


def check_repair(value: object) -> int:
    """Repair rounds per divergence: 0..MAX_REPAIR."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_REPAIR:
        raise InvalidArgs(f"repair must be 0 to {MAX_REPAIR} rounds, got {_shown(value)}", hint="repair=2")
    return value


MAX_TRIALS = 5  # candidates tried in fresh sessions per divergence (design §8): each replays the whole flow


def check_trials(value: object) -> int:
    """Candidates the built-in healer may try in fresh sessions: 0..MAX_TRIALS."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TRIALS:
        raise InvalidArgs(f"trials must be 0 to {MAX_TRIALS} candidates, got {_shown(value)}", hint="trials=3")
    return value


def check_amount(name: str, value: object) -> float | None:
    """A non-negative, finite amount (seconds, dollars); ``None`` when not given."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise InvalidArgs(f"{name} must be a finite number of at least 0, got {_shown(value)}", hint=f"e.g. {name}=60")
    return float(value)


def check_values(values: object) -> dict[str, str]:
    """``-e`` values: KEY=VALUE pairs whose keys may name a user variable."""
    from replay.keys import valid_key

    if values is None:
        return {}
    if not isinstance(values, dict):
        raise InvalidArgs("values must be an object of KEY: VALUE", hint='e.g. {"EMAIL": "ada@example.com"}')
    for key, value in values.items():
        if not isinstance(key, str) or not valid_key(key):
            raise InvalidArgs(
                f"invalid variable name {_shown(key)}",
                hint="A-Z, digits and _, starting with a letter; not REPLAY_ or AD_",
            )
        if not isinstance(value, str):
            raise InvalidArgs(f"the value of {key} must be a string, got {_shown(value)}", hint=f'"{key}": "…"')
    return dict(values)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"
