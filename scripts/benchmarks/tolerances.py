"""What each tolerance buys (docs/design.md §5, Tolerances): ``scripts/bench drift --without NAME[,NAME…]|all``.

The drift corpus and the widget corpus are each recorded and run once with every tolerance on, then
once per named tolerance with it switched off (``REPLAY_WITHOUT`` in the environment of the CLI, and so
of the daemon it starts: recording, verification and healing all run without it). A row per tolerance:
the cases that end as expected, the false heals, and which cases the tolerance buys (as expected with
it, not without) or costs (the other way). Suggestion ranks are not measured (``rank=False``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from replay.tree.tolerances import ENV, TABLE, unknown


@dataclass
class Row:
    """One corpus run: with ``without`` switched off (None: every tolerance on)."""

    without: str | None
    outcomes: list[Any]

    @property
    def correct(self) -> set[str]:
        return {o.case.name for o in self.outcomes if o.correct}

    @property
    def false(self) -> int:
        return sum(1 for o in self.outcomes if o.false_heal)


def _corpora(without: str | None, corpora: tuple[str, ...], apps: set[str] | None) -> Row:
    from benchmarks.drift import bench_drift
    from benchmarks.widgets import bench_widget_drift

    before = os.environ.get(ENV)
    if without is None:
        os.environ.pop(ENV, None)
    else:
        os.environ[ENV] = without
    try:
        outcomes = bench_drift(rank=False) if "drift" in corpora else []
        outcomes += bench_widget_drift(peer=False, rank=False, apps=apps)[0] if "widgets" in corpora else []
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before
    print(f"  {without or 'every tolerance on'}: {sum(o.correct for o in outcomes)}/{len(outcomes)}", file=sys.stderr)
    return Row(without, outcomes)


def bench_without(
    given: list[str], corpora: tuple[str, ...] = ("drift", "widgets"), apps: set[str] | None = None
) -> list[Row]:
    """The run with every tolerance on, then one per tolerance of ``given`` (``["all"]``: the table), on
    ``corpora`` (``drift``, ``widgets``: ``--corpus NAME`` keeps one; ``--only APP,…`` keeps those apps of
    the widget corpus — the ones a tolerance was demanded by, when a whole run per tolerance is too long)."""
    if not given:
        raise SystemExit("scripts/bench drift --without NAME[,NAME…]|all: name the tolerances (docs/design.md §5)")
    names = [t.name for t in TABLE] if given == ["all"] else [n.strip() for n in given[0].split(",") if n.strip()]
    bad = unknown(",".join(names))
    if bad:
        raise SystemExit(f"no tolerance named {bad[0]!r}; the table: {', '.join(t.name for t in TABLE)}")
    return [_corpora(None, corpora, apps), *(_corpora(name, corpora, apps) for name in names)]


def print_without(rows: list[Row]) -> None:
    base = rows[0]
    total = len(base.outcomes)
    print(f"## What each tolerance buys: {total} cases of the drift corpora\n")
    print("| switched off | as expected | false heals | buys (as expected only with it) | costs |")
    print("|---|---:|---:|---|---|")
    print(f"| (none) | {len(base.correct)}/{total} | {base.false} | — | — |")
    for row in rows[1:]:
        buys = sorted(base.correct - row.correct)
        costs = sorted(row.correct - base.correct)
        print(
            f"| `{row.without}` | {len(row.correct)}/{total} | {row.false} | {', '.join(buys) or 'nothing'}"
            f" | {', '.join(costs) or '—'} |"
        )
    print()
