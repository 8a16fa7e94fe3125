"""Variable keys (``env KEY=…``, ``-e KEY=VALUE``): the rule, kept apart from the script language so
the CLI's fast path can check a key without importing it."""

from __future__ import annotations

import re

ENV_KEY = re.compile(r"[A-Z][A-Z0-9_]*\Z")
RESERVED_PREFIXES = ("REPLAY_", "AD_")
SHELL_PREFIX = "REPLAY_VAR_"


def valid_key(key: str) -> bool:
    """Whether ``key`` may name a user-defined variable."""
    return bool(ENV_KEY.match(key)) and not key.startswith(RESERVED_PREFIXES)
