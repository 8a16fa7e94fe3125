"""A page's JavaScript dialogs (``alert``, ``confirm``, ``prompt``, ``beforeunload``), held open until a
step answers them (``alert accept [TEXT]`` / ``alert dismiss``) — as a person would, and as the
agent-device command does on a phone.

While one is open the page's JavaScript waits, so nothing can look at it: the action that opened it
is over from the step's point of view (the dialog proves it landed) and finishes once the dialog is
answered; a look raises ``DialogOpen``. A person recording answers it in the browser: the answer is
read from DevTools' ``Page.javascriptDialogClosed`` and handed to the recorder.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from playwright.async_api import Dialog, Page

from replay.errors import ActionFailed, DialogOpen
from replay.script.text import normalize

T = TypeVar("T")
FINISH_S = 5.0  # how long the action a dialog interrupted may take to finish once it is answered


class Dialogs:
    """The dialogs of one page: the one open now, and how the last one was answered by a person."""

    def __init__(self, page: Page) -> None:
        self.open: Dialog | None = None
        self._opened = asyncio.Event()
        self._interrupted: list[asyncio.Future[Any]] = []  # actions waiting for the dialog's answer
        self._answered: list[dict[str, Any]] = []  # a person's answers not taken by a step yet, oldest first
        self.on_answer: Callable[[dict[str, Any]], Any] | None = None  # a recording hears a person's
        page.on("dialog", self._shown)

    def _shown(self, dialog: Dialog) -> None:
        if dialog.type == "beforeunload":  # a step that leaves the page means to (as Playwright's default)
            asyncio.ensure_future(dialog.accept()).add_done_callback(_retrieve)
            return
        self.open = dialog  # (answers a person gave the ones before it stay: each is a step, in order)
        self._opened.set()

    def said(self) -> dict[str, Any] | None:
        """The open dialog as a step result says it (``{"type": "confirm", "message": …}``)."""
        return None if self.open is None else _said(self.open)

    def refuse_look(self) -> None:
        """Raise ``DialogOpen`` when a dialog is open (the page cannot answer a look)."""
        if self.open is not None:
            said = _said(self.open)
            raise DialogOpen(
                f"a {said['type']} dialog is open: {said['message']!r}",
                hint="answer it: `alert accept` (a prompt: `alert accept TEXT`) or `alert dismiss`",
                details={"dialog": said},
            )

    async def during(self, work: Awaitable[T]) -> T | None:
        """Run ``work`` (an input action, a look); a dialog it opens ends the wait: None then, and the
        work finishes in the background once the dialog is answered."""
        try:
            self.refuse_look()
        except DialogOpen:
            if asyncio.iscoroutine(work):
                work.close()  # (never started)
            raise
        self._opened.clear()
        task = asyncio.ensure_future(work)
        opened = asyncio.ensure_future(self._opened.wait())
        try:
            await asyncio.wait({task, opened}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            opened.cancel()
        if task.done() or self.open is None:
            return await task
        task.add_done_callback(_retrieve)  # (its outcome is the dialog's: a timeout there says nothing)
        self._interrupted.append(task)
        return None

    async def step(self, verb: str, text: str | None, timeout_ms: int, expect: str | None) -> dict[str, Any] | None:
        """``alert``: the open dialog (``get``: None when there is none), waited for, or answered."""
        if verb == "get":
            return self.said()
        if verb == "wait":
            return await self.wait(timeout_ms, expect)
        return await self.answer(verb == "accept", text, timeout_ms, expect)

    async def wait(self, timeout_ms: int, expect: str | None = None) -> dict[str, Any]:
        """The open dialog, waiting up to ``timeout_ms`` for one (``alert wait``); ``expect``: what it
        must say (another message raises ``ActionFailed``, the dialog left as it is)."""
        if self.open is None and not self._answered:
            try:
                await asyncio.wait_for(self._opened.wait(), timeout_ms / 1000)
            except TimeoutError:
                raise ActionFailed(
                    f"no dialog opened within {timeout_ms} ms",
                    hint="the step before it no longer opens one: check the app, or remove the `alert` step",
                ) from None
        said = self._answered[0]["dialog"] if self._answered else self.said()  # (the oldest first)
        assert said is not None
        if expect is not None and normalize(str(said["message"])) != normalize(expect):
            raise ActionFailed(
                f"the {said['type']} dialog says {said['message']!r}, not {expect!r}",
                hint="the app asks something else now: a person decides how to answer it",
                details={"dialog": said},
            )
        return dict(said)

    async def answer(
        self, accept: bool, text: str | None, timeout_ms: int, expect: str | None = None
    ) -> dict[str, Any]:
        """Answer the dialog (waiting up to ``timeout_ms`` for one to open); the action it interrupted
        then finishes. A dialog a person already answered this way is taken as answered."""
        said = await self.wait(timeout_ms, expect)
        if self._answered:  # a person answered it in the browser: the step takes that answer
            self._answered.pop(0)
        else:
            dialog, self.open = self.open, None
            assert dialog is not None
            self._opened.clear()  # (the next one it lets the page open sets it again)
            with contextlib.suppress(Exception):  # (answered meanwhile in the browser: the same end)
                if accept:  # a prompt answered with no text keeps what it showed, as a person's OK does
                    await dialog.accept(dialog.default_value if text is None else text)
                else:
                    await dialog.dismiss()
        await self._resumed()
        return said

    async def _resumed(self) -> None:
        """The actions the answered dialog interrupted go on: wait (at most ``FINISH_S``) until they end or
        open the next dialog (three alerts in a row); one still waiting then waits for the next answer."""
        pending = [t for t in self._interrupted if not t.done()]
        self._interrupted = pending
        if not pending or self.open is not None:
            return
        opened = asyncio.ensure_future(self._opened.wait())
        try:
            await asyncio.wait({*pending, opened}, timeout=FINISH_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            opened.cancel()
        self._interrupted = [t for t in pending if not t.done()]

    def later(self, work: Awaitable[Any]) -> None:
        """Run ``work`` once the open dialog is answered (the page waits until then)."""
        asyncio.ensure_future(work).add_done_callback(_retrieve)

    def closed(self, event: dict[str, Any]) -> None:
        """DevTools says the dialog was closed — by a person, when no step answered it."""
        if self.open is None:
            return  # a step answered it
        answer = {"dialog": _said(self.open), "accept": bool(event.get("result")), "text": event.get("userInput")}
        self.open = None
        self._opened.clear()
        self._answered.append(answer)
        if self.on_answer is not None:
            self.on_answer(answer)


def _said(dialog: Dialog) -> dict[str, Any]:
    said: dict[str, Any] = {"type": dialog.type, "message": dialog.message}
    if dialog.type == "prompt":
        said["default"] = dialog.default_value
    return said


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()
