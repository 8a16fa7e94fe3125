"""``scripts/bench capture``: the tree capture beside Playwright's ``aria_snapshot`` on the same pages, by
tree nodes (generated and mixed pages)."""

from __future__ import annotations

import time

from benchmarks.kit import REPEAT, median_ms
from benchmarks.pages import mixed_page, sized


def generated_page(nodes: int, look_alikes: bool = False) -> str:
    """A page of about ``nodes`` elements: sections of lists, cards, buttons, inputs and text.

    ``look_alikes``: every card also has an unlabeled checkbox and a "Delete" button with no test id
    (rows of repeated controls, the case anchored materialization exists for).
    """
    extra = '<input type="checkbox"><button>Delete</button>' if look_alikes else ""
    parts = ["<!doctype html><html><head><title>Generated</title></head><body><main>"]
    count = 2
    i = 0
    while count < nodes:
        parts.append(
            f'<section aria-label="Section {i}"><h2>Section {i}</h2><ul>'
            + "".join(
                f"<li><article><h3>Item {i}.{j}</h3><p>Some text for item {j} of {i}.</p>"
                f'<button data-testid="b-{i}-{j}">Add {j}</button>{extra}'
                f"<div><div><span>wrapper</span></div></div></article></li>"
                for j in range(5)
            )
            + f'</ul><label>Note {i} <input placeholder="note {i}"></label></section>'
        )
        count += 2 + 5 * (11 if look_alikes else 9) + 2
        i += 1
    parts.append("</main></body></html>")
    return "".join(parts)


def _generated(blocks: int) -> str:
    return generated_page(blocks * 50)


async def bench_capture() -> list[tuple[str, int, int, float, float]]:
    """Capture beside Playwright's aria_snapshot on the same page, by *tree* nodes, on the generated
    page and on the mixed one."""
    from replay.drivers.web.browser import WebBrowser

    browser = WebBrowser()
    rows = []
    for name, make in (("generated", _generated), ("mixed", mixed_page)):
        for size in (1000, 5000, 20000):
            driver = await browser.new_driver()
            await sized(driver, make, size)
            dom_nodes = await driver.page.evaluate("() => document.getElementsByTagName('*').length")
            ours, theirs = [], []
            for gen in range(3, 3 + REPEAT + 2):
                t = time.perf_counter()
                cap = await driver.capture(gen)
                ours.append(time.perf_counter() - t)
                t = time.perf_counter()
                await driver.page.locator("body").aria_snapshot()
                theirs.append(time.perf_counter() - t)
            rows.append((name, dom_nodes, len(cap.nodes), median_ms(ours[2:]), median_ms(theirs[2:])))
            await driver.close()
    await browser.stop()
    return rows


def print_capture(rows: list[tuple[str, int, int, float, float]]) -> None:
    print("## Tree capture beside Playwright aria_snapshot (same page, same run) — goal ≤ 0.45×, linear\n")
    print("| page | DOM elements | tree nodes | replay capture (ms) | aria_snapshot (ms) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for page, dom, kept, ours, theirs in rows:
        print(f"| {page} | {dom} | {kept} | {ours} | {theirs} | {ours / theirs:.2f}× |")
    print("\n| budget (SPEC §13) | figure | |\n|---|---|---|")
    for page, _, kept, ours, theirs in rows:
        ratio = ours / theirs
        print(
            f"| capture ≤ 0.45× aria_snapshot, {page} page, {kept} tree nodes | {ratio:.2f}× | "
            f"{'met' if ratio <= 0.45 else 'not met'} |"
        )
    print()
