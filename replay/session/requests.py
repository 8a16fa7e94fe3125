"""The daemon's requests, typed: one frozen dataclass per op, read from the client's JSON object in one
place (``parse``), so a handler gets fields of the right type and never a raw ``dict``.

The client (``replay.client``) writes these objects by hand: it stays free of ``dataclasses``, which
would cost every command ~18 ms of imports. A key the client sends that its request does not declare
is refused (``INVALID_ARGS``), so the two ends cannot drift apart unnoticed.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from replay.errors import InvalidArgs
from replay.limits import check_level, check_ms, check_values
from replay.platforms import DEFAULT_PLATFORM
from replay.session.protocol import check_session_name


def _wire(name: str) -> dict[str, str]:
    """Field metadata: the key this field has on the wire (where it is not the field's name)."""
    return {"wire": name}


@dataclass(frozen=True, kw_only=True)
class Request:
    """A request: its ``op`` names it on the wire."""

    op: ClassVar[str] = ""


@dataclass(frozen=True, kw_only=True)
class Ping(Request):
    op: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class ListSessions(Request):
    op: ClassVar[str] = "sessions"


@dataclass(frozen=True, kw_only=True)
class Shutdown(Request):
    op: ClassVar[str] = "shutdown"


@dataclass(frozen=True, kw_only=True)
class CommandOptions:
    """How an interactive command or script line runs (``open``'s also say how its session is made)."""

    cwd: str | None = None  # the caller's working directory: relative paths are theirs
    timeout: int | None = None
    values: dict[str, str] = field(default_factory=dict)  # ${VAR} values of a script line
    text_only: bool = field(default=False, metadata=_wire("textOnly"))  # the caller prints the text only
    save_script: str | None = None  # `open --save-script`: "" for the default path
    platform: str = DEFAULT_PLATFORM
    browser: str = "chromium"
    headed: bool = False
    connect: str | None = None
    serial: str | None = None  # android: the device (else the only one attached)
    devtools: bool = False  # web: a DevTools endpoint (set by `record`, never sent)


@dataclass(frozen=True, kw_only=True)
class Command(Request):
    """One interactive command (``argv``: shell words, literal) or script line (``line``: ``${VAR}``s)."""

    op: ClassVar[str] = "command"
    session: str
    argv: list[str] | None = None
    line: str | None = None
    options: CommandOptions = field(default_factory=CommandOptions)


@dataclass(frozen=True, kw_only=True)
class Run(Request):
    """``replay run``: a script in a session of its own (named, or ephemeral) — see ``Client.run``."""

    op: ClassVar[str] = "run"
    path: str
    display: str | None = None
    cwd: str | None = None
    session: str | None = None
    from_step: int | None = field(default=None, metadata=_wire("from"))
    plan_digest: str | None = None
    values: dict[str, str] = field(default_factory=dict)
    shell: dict[str, str] = field(default_factory=dict)
    timeout: int | None = None
    platform: str | None = None
    level: str = "default"
    headed: bool = False
    save_script: str | None = None
    trace_path: str | None = None
    trace_always: bool = False
    deadline_ms: int | None = None
    screenshot_path: str | None = None
    artifacts_dir: str | None = None
    connect: str | None = None
    serial: str | None = None
    effects: bool = True  # check each step's recorded effect (SPEC §15)


@dataclass(frozen=True, kw_only=True)
class Close(Request):
    op: ClassVar[str] = "close"
    session: str
    save_script: str | None = None
    discard: bool = False
    verify: bool = False


@dataclass(frozen=True, kw_only=True)
class ShowDivergence(Request):
    op: ClassVar[str] = "divergence"
    session: str
    level: str = "default"


@dataclass(frozen=True, kw_only=True)
class HealBuiltin(Request):
    op: ClassVar[str] = "heal_builtin"
    session: str


@dataclass(frozen=True, kw_only=True)
class Record(Request):
    """``replay record URL``: a recording session a person drives (SPEC §16)."""

    op: ClassVar[str] = "record"
    session: str
    url: str | None = None
    options: CommandOptions = field(default_factory=CommandOptions)
    flow: str | None = None  # `replay record FLOW.ad --from N`: its steps 1…N−1 replay first (SPEC §16)
    from_step: int | None = field(default=None, metadata=_wire("from"))
    shell: dict[str, str] = field(default_factory=dict)  # REPLAY_VAR_* of the caller (the flow's ${VAR}s)


@dataclass(frozen=True, kw_only=True)
class RecordEvents(Request):
    """What a recording by hand did from event ``since`` on (waiting up to ``wait_ms`` for one)."""

    op: ClassVar[str] = "record_events"
    session: str
    since: int = 0
    wait_ms: int = 1000


REQUESTS: dict[str, type[Request]] = {
    r.op: r
    for r in (Ping, ListSessions, Shutdown, Command, Run, Close, ShowDivergence, HealBuiltin, Record, RecordEvents)
}


def _from_step(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgs(f"--from must be a step number, got {value!r}", hint="--from 7")
    return value


# values checked beyond their type, by (request, field): the messages every surface gives
_CHECKS: dict[tuple[str, str], Any] = {
    **{
        (kind, "session"): lambda v: check_session_name(str(v or ""))
        for kind in ("Command", "Close", "ShowDivergence", "HealBuiltin", "Record", "RecordEvents")
    },
    ("Run", "session"): lambda v: check_session_name(v) if v else None,  # none: an ephemeral session
    ("Run", "from_step"): _from_step,
    ("Record", "from_step"): _from_step,
    ("Run", "values"): check_values,
    ("CommandOptions", "timeout"): lambda v: check_ms("timeout", v),
    ("Run", "timeout"): lambda v: check_ms("timeout", v),
    ("Run", "deadline_ms"): lambda v: check_ms("deadline_ms", v),
    ("Run", "level"): check_level,
    ("RecordEvents", "wait_ms"): lambda v: min(max(int(v), 0), 30_000),
    ("ShowDivergence", "level"): check_level,
}
# fields whose check says what they must be (their type included)
_CHECKED_TYPE_ITSELF = {"session", "from", "timeout", "deadline_ms", "level", "values"}


def parse(obj: dict[str, Any]) -> Request:
    """The typed request of a client's JSON object; ``INVALID_ARGS`` saying what is wrong."""
    op = obj.get("op")
    kind = REQUESTS.get(op) if isinstance(op, str) else None
    if kind is None:
        raise InvalidArgs(f"unknown request {obj.get('op')!r}", hint="see replay.client.Client for the requests")
    return _read(kind, obj, "op")


def _read(kind: type[Any], obj: dict[str, Any], *ignored: str) -> Any:
    declared = {f.metadata.get("wire", f.name): f for f in fields(kind)}
    unknown = sorted(set(obj) - set(declared) - set(ignored))
    if unknown:
        raise InvalidArgs(f"bad request: unknown field {unknown[0]!r} for {getattr(kind, 'op', '') or kind.__name__}")
    given: dict[str, Any] = {}
    for key, f in declared.items():
        if key not in obj or (obj[key] is None and f.default is not MISSING):
            if f.default is MISSING and f.default_factory is MISSING:
                raise InvalidArgs(f"bad request: {key!r} is missing", hint="a JSON object per line")
            continue
        check = _CHECKS.get((kind.__name__, f.name))
        value = obj[key] if check is not None and key in _CHECKED_TYPE_ITSELF else _typed(key, str(f.type), obj[key])
        given[f.name] = check(value) if check is not None else value
    return kind(**given)


def _typed(key: str, kind: str, value: Any) -> Any:
    """``value`` when it has the field's declared type (as written in the class above)."""
    if kind == "CommandOptions":
        if not isinstance(value, dict):
            raise InvalidArgs(f"bad request: {key!r} must be a JSON object", hint="a JSON object per line")
        return _read(CommandOptions, value)
    if kind.startswith("dict["):
        if not isinstance(value, dict):
            raise InvalidArgs(f"bad request: {key!r} must be a JSON object", hint="a JSON object per line")
        return {str(k): str(v) for k, v in value.items()}
    if kind.startswith("list["):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidArgs(f"bad request: {key!r} must be a list of strings", hint="a JSON object per line")
        return value
    base = kind.removesuffix(" | None")
    if base == "bool":
        if not isinstance(value, bool):
            raise InvalidArgs(f"bad request: {key!r} must be true or false", hint="a JSON object per line")
    elif base == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgs(f"bad request: {key!r} must be a whole number", hint="a JSON object per line")
    elif base == "str":
        if not isinstance(value, str):
            raise InvalidArgs(f"bad request: {key!r} must be a string", hint="a JSON object per line")
    return value
