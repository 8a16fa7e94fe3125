"""What a saved Playwright trace may not keep: anything typed (design §6, §12)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import re
import zipfile
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote, quote_plus

from replay.drivers.web.errors import from_playwright
from replay.files import make_private, private_mode
from replay.script.redact import REDACTED
from replay.scrubbing import ECHO

VIEWER = "python -m playwright show-trace {path}"  # how a person opens a saved trace (suite reports say so)

# where a Playwright trace keeps what was typed: the value of every field in each DOM snapshot, and
# the parameters of the calls that type
_FIELD_VALUE = "__playwright_value_"
_TYPING_PARAMS = ("value", "text")
_TYPING = re.compile("fill|type|inserttext", re.IGNORECASE)  # Frame.fill, Page.keyboardType, …
_PIXELS = (".jpeg", ".jpg", ".png", ".webp", ".gif")


class Tracing:
    """A driver's Playwright trace of its browser context (``Driver.trace_start``/``trace_stop``)."""

    context: Any

    def _failed(self, exc: BaseException, **where: Any) -> Any:
        raise NotImplementedError  # (the driver's own: a Playwright failure in our words)

    async def trace_start(self) -> None:
        """Start a Playwright trace of this context (screenshots and DOM snapshots)."""
        try:
            await self.context.tracing.start(screenshots=True, snapshots=True)
        except Exception as exc:  # noqa: BLE001 - mapped in one place
            raise self._failed(exc, action="start the trace") from None

    async def trace_stop(self, path: str | None, secrets: Sequence[tuple[str, str]] = ()) -> None:
        """Stop the trace; save it (viewable with ``playwright show-trace``) with every value of
        ``secrets`` replaced by its shown form and every field's value masked, or drop it."""
        if not path:
            try:
                await self.context.tracing.stop()
            except Exception as exc:  # noqa: BLE001 - a trace is evidence, not the outcome
                raise self._failed(exc, action="stop the trace") from None
            return
        await save_trace(self.context, path, secrets)


async def save_trace(context: Any, path: str, secrets: Sequence[tuple[str, str]]) -> None:
    """Stop ``context``'s trace into ``path`` scrubbed: Playwright writes the raw trace beside the
    target; only the scrubbed one takes the name, and the raw one is removed whatever happens."""
    raw = f"{path}.{os.getpid()}.raw"
    try:
        await context.tracing.stop(path=raw)
        make_private(raw)
        await asyncio.to_thread(scrub_trace, raw, path, secrets)
    except Exception as exc:  # noqa: BLE001 - a trace is evidence, not the outcome
        raise from_playwright(exc, action="save the trace") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(raw)


def scrub_trace(raw: str, path: str, secrets: Sequence[tuple[str, str]]) -> None:
    """Write the trace at ``raw`` to ``path`` (0600) with nothing typed left in it (design §6, §12).

    Its JSON-lines entries are rewritten value by value: every field value in a DOM snapshot and every
    ``value``/``text`` parameter of a call is ``<redacted>``, and in every string each secret (also
    URL-encoded or HTML-escaped) is replaced by its shown form; other text entries (network bodies)
    have the secrets replaced in their bytes. Pixels (screencast frames) are kept as they are.
    """
    forms = _secret_forms(secrets)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, private_mode())
    with os.fdopen(fd, "wb") as out_fh, zipfile.ZipFile(raw) as src, zipfile.ZipFile(out_fh, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.lower().endswith(_PIXELS):
                pass
            elif info.filename.endswith((".trace", ".network")):
                data = b"".join(_scrub_json_line(line, forms) for line in data.splitlines(keepends=True))
            else:
                for secret, shown in forms:
                    data = data.replace(secret.encode("utf-8"), shown.encode("utf-8"))
            dst.writestr(info, data)


def _secret_forms(secrets: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each secret as it may appear in a trace: as typed, upper- or lower-cased, reversed (a page's echo),
    each URL-encoded and HTML-escaped; longest first."""
    forms: dict[str, str] = {}
    for secret, shown in secrets:
        echoed = {secret, secret.upper(), secret.lower(), secret[::-1], secret[::-1].upper(), secret[::-1].lower()}
        for said in sorted(echoed) if len(secret) >= ECHO else [secret]:
            for form in (said, quote(said, safe=""), quote(said), quote_plus(said), html.escape(said)):
                if form:
                    forms.setdefault(form, shown)
    return sorted(forms.items(), key=lambda item: -len(item[0]))


def _scrub_json_line(line: bytes, forms: list[tuple[str, str]]) -> bytes:
    try:
        event = json.loads(line)
    except ValueError:  # not JSON after all: bytes, as other entries
        for secret, shown in forms:
            line = line.replace(secret.encode("utf-8"), shown.encode("utf-8"))
        return line
    end = b"\n" if line.endswith(b"\n") else b""
    return json.dumps(_scrub_value(event, forms, None), ensure_ascii=False, separators=(",", ":")).encode("utf-8") + end


def _scrub_value(value: Any, forms: list[tuple[str, str]], key: str | None) -> Any:
    if isinstance(value, str):
        if key == _FIELD_VALUE:
            return REDACTED
        for secret, shown in forms:
            if secret in value:
                value = value.replace(secret, shown)
        return value
    if isinstance(value, list):
        return [_scrub_value(v, forms, None) for v in value]
    if isinstance(value, dict):
        out = {k: _scrub_value(v, forms, k) for k, v in value.items()}
        params = out.get("params")
        if out.get("type") == "before" and isinstance(params, dict):
            for name in _TYPING_PARAMS:
                if isinstance(params.get(name), str) and _TYPING.search(str(out.get("method") or "")):
                    params[name] = REDACTED
        return out
    return value
