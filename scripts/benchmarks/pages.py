"""The generated pages the capture benchmarks load (a realistic app page, by blocks), shared by
``benchmarks.capture`` and ``benchmarks.capture_ab``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def mixed_block(i: int) -> str:
    """One block of a realistic app page: a form, a table, a list of cards with icon buttons, a nested
    scroll region, and a custom element whose controls live in shadow DOM."""
    rows = "".join(
        f"<tr><td>{i}-{r}</td><td>Customer {r}</td><td><span class=badge>paid</span></td>"
        f'<td><button aria-label="Edit row {r}">✎</button><button>Delete</button></td></tr>'
        for r in range(6)
    )
    cards = "".join(
        f'<li class=card><img alt="" src="data:,"><div><a href="#c{j}">Card {i}.{j}</a><p>Text {j}</p></div>'
        f'<button title="More">⋯</button><input type=checkbox></li>'
        for j in range(4)
    )
    return (
        f'<section aria-label="Block {i}"><h2>Block {i}</h2>'
        f"<form><fieldset><legend>Details {i}</legend><label>Name <input name=n{i}></label>"
        f"<label>Email <input type=email></label><select><option>One</option><option>Two</option></select>"
        f"<textarea placeholder=Notes></textarea><label><input type=radio name=r{i}> Yes</label>"
        f"<label><input type=radio name=r{i}> No</label><button type=submit>Save</button></fieldset></form>"
        f"<table><thead><tr><th>ID</th><th>Name</th><th>Status</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        f'<div style="height:120px;overflow:auto"><ul>{cards}</ul></div>'
        f"<x-widget></x-widget></section>"
    )


MIXED_HEAD = """<!doctype html><html><head><title>Mixed</title><script>
customElements.define('x-widget', class extends HTMLElement { connectedCallback() {
  const root = this.attachShadow({mode: 'open'});
  root.innerHTML = '<div role=toolbar aria-label=Tools><button>Bold</button><button>Italic</button>'
    + '<input aria-label="Font size" type=number></div>';
}});
</script></head><body><nav><a href=#>Home</a><a href=#>Reports</a></nav><main>"""


def mixed_page(blocks: int) -> str:
    return MIXED_HEAD + "".join(mixed_block(i) for i in range(blocks)) + "</main></body></html>"


async def sized(driver: Any, make: Callable[[int], str], tree_nodes: int) -> Any:
    """Load the page ``make(k)`` whose capture has about ``tree_nodes`` nodes (k from a 4-block probe)."""
    await driver.page.set_content(make(4))
    per_block = len((await driver.capture(1)).nodes) / 4
    await driver.page.set_content(make(max(1, round(tree_nodes / per_block))))
    return await driver.capture(2)
