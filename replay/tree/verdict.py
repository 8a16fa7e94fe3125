"""The kinds a binding check can end in (SPEC §5, §6), defined once for every layer.

Light on purpose (standard library only): the CLI's report renderer reads it too.
"""

from __future__ import annotations

from enum import StrEnum


class DivergenceKind(StrEnum):
    """Why a step could not continue; its value is the ``kind`` of a divergence."""

    SELECTOR_MISS = "selector-miss"
    IDENTITY_MISMATCH = "identity-mismatch"
    IDENTITY_UNVERIFIABLE = "identity-unverifiable"
    ACTION_FAILURE = "action-failure"
