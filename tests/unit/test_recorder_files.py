"""The file a person chose, read off DevTools (``DOM.getFileInfo``): only a file on disk has a path."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from replay.drivers.web.hands import FRAME, WebHands, Where


class Devtools:
    """A DevTools session whose file input holds one file, at ``path`` ("" for bytes on no disk)."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "Runtime.evaluate":
            first = params["expression"].endswith(", 0)")
            return {"result": {"objectId": "file-0"} if first else {"type": "object", "subtype": "null"}}
        assert method == "DOM.getFileInfo"
        return {"path": self.path}

    async def detach(self) -> None:
        pass


def chosen(path: str) -> list[str]:
    async def new_cdp_session(page: Any) -> Devtools:
        return Devtools(path)

    driver = SimpleNamespace(context=SimpleNamespace(new_cdp_session=new_cdp_session))
    hands = WebHands(driver, None)
    where = Where(SimpleNamespace(page=object()), 1)  # type: ignore[arg-type]
    return asyncio.run(hands.files_of({FRAME: where, "path": [1, 0, 2]}))


def test_a_chosen_file_on_disk_is_read_by_its_path() -> None:
    assert chosen("/home/ada/receipt.txt") == ["/home/ada/receipt.txt"]


def test_a_file_of_bytes_on_no_disk_has_no_path_and_no_file_is_read() -> None:
    assert chosen("") == []
