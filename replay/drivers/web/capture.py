"""What the web driver's capture brings back: ``capture.js`` (the web pruning of design §4, run in the
page), the framing of its answer, and the web page's screen identity."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any
from urllib.parse import urlparse

TEST_ID_ATTRIBUTES = ["data-testid", "data-test-id", "data-test"]
CAPTURE_JS = resources.files("replay.drivers.web").joinpath("capture.js").read_text(encoding="utf-8")


def read_capture(text: str) -> dict[str, Any]:
    """The raw capture from capture.js's text: a line of JSON (generation, url, title, viewport,
    frames), a newline, then the XML of the tree (``xml``)."""
    head, _, xml = text.partition("\n")
    raw: dict[str, Any] = json.loads(head)
    raw["xml"] = xml
    return raw


def page_path(url: str, base: str | None = None) -> str:
    """The ``page.path`` of ``url``: relative to the directory of ``base`` (the latest opened URL)
    when it lies under it, so a flow replayed under another base URL keeps its pages (design §5)."""
    path = urlparse(url).path or "/"
    if base:
        directory = (urlparse(base).path or "/").rsplit("/", 1)[0] + "/"
        if directory != "/" and path.startswith(directory):
            return path[len(directory) :] or "./"
    return path


PLAIN = re.compile(r"[\x20-\x7e]*")  # capture.js's PLAIN: printable ASCII


def viewable(spec: dict[str, Any]) -> bool:
    """Whether capture.js can take the view ``spec`` asks for, as far as its links tell (its ``cssFor``):
    each link names roles other than ``generic`` (a div's or a span's: no selector narrows the page to
    them) or an id. False: the full capture answers, and no evaluate is spent learning that."""

    def plain(value: object) -> bool:
        return isinstance(value, str) and PLAIN.fullmatch(value) is not None

    def term(terms: list[dict[str, Any]], key: str, op: str) -> Any:
        return next((t["value"] for t in terms if t["key"] == key and t["op"] == op), None)

    for terms in spec.get("links", []):
        among, role, ident = term(terms, "role", "in"), term(terms, "role", "="), term(terms, "id", "=")
        if isinstance(among, list):
            if not all(plain(r) and r != "generic" for r in among):
                return False
        elif isinstance(role, str):
            if role.lower() == "generic" or not plain(role):
                return False
        elif not (ident and plain(ident)):
            return False
    return True
