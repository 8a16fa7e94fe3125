"""The kinds a binding check can end in (design §5, §6), defined once for every layer.

Light on purpose (standard library only): the CLI's report renderer reads it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replay.tree.match import Resolution
    from replay.tree.model import Node


class DivergenceKind(StrEnum):
    """Why a step could not continue; its value is the ``kind`` of a divergence."""

    SELECTOR_MISS = "selector-miss"
    IDENTITY_MISMATCH = "identity-mismatch"
    IDENTITY_UNVERIFIABLE = "identity-unverifiable"
    ACTION_FAILURE = "action-failure"


@dataclass
class Verdict:
    """The outcome of verification before acting (``tree.identity.verify``)."""

    kind: str  # "verified" or a DivergenceKind
    match_count: int | None = None
    winner: Node | None = None
    target: Node | None = None
    matches: list[Node] = field(default_factory=list)
    members: list[Node] = field(default_factory=list)
    resolution: Resolution | None = None
    mismatches: list[str] = field(default_factory=list)
    drift: list[str] = field(default_factory=list)  # what changed around a verified target (design §5)

    @property
    def verified(self) -> bool:
        """True only on the path that may act."""
        return self.kind == "verified"

    def candidates(self) -> list[str]:
        """Up to 5 candidate lines."""
        from replay.tree.match import describe  # (lxml: not at this light module's import)

        pool = self.members or self.matches
        return [describe(n) for n in pool[:5]]
