"""Suggestion ranking as a figure (issue 47): on every stored drift screen where the recorded element
still exists (``fixtures/drift/screens.jsonl``, the calibration's screens: each divergence the healer
may act on, with the nodes that are right), how often a right node is the top suggestion (top-1) and
among the first three (top-3) — what an agent that acts on the top suggestion gets."""

from __future__ import annotations

from fixtures.drift.calibration import load
from replay.tree.suggest import rank


def bench_ranking() -> list[tuple[str, int | None]]:
    """Each screen with a right node: its name, and the place of the first right node (None: not ranked)."""
    out = []
    for screen in load():
        if not screen.right:
            continue
        ranked = [s.node for s in rank(screen.capture, screen.evidence)]
        place = next((i + 1 for i, node in enumerate(ranked) if node in screen.right), None)
        out.append((screen.name, place))
    return out


def print_ranking(rows: list[tuple[str, int | None]]) -> None:
    top1 = sum(place == 1 for _, place in rows)
    top3 = sum(place is not None and place <= 3 for _, place in rows)
    print(f"## Suggestion ranking: {len(rows)} stored drift screens whose recorded element still exists\n")
    print("| figure | screens | share |\n|---|---:|---:|")
    print(f"| top-1 (the first suggestion is the recorded element) | {top1}/{len(rows)} | {top1 / len(rows):.0%} |")
    print(f"| top-3 | {top3}/{len(rows)} | {top3 / len(rows):.0%} |")
    missed = [(name, place) for name, place in rows if place != 1]
    if missed:
        print("\n| screen not ranked first | place |\n|---|---:|")
        for name, place in missed:
            print(f"| {name} | {place if place is not None else 'not ranked'} |")
    print()


if __name__ == "__main__":
    print_ranking(bench_ranking())
