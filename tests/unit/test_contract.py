"""The daemon's operations are declared once (``session.contract``): each surface is derived from
the declaration, so a new ``run`` option is one line, and every surface offers it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from replay.options import Option, backend_options
from replay.session import requests
from replay.session.contract import OPERATIONS

# run in a fresh interpreter: the new option is declared before any surface is built from the contract
EVERY_SURFACE = r"""
import asyncio, json, sys
from replay.options import Option
from replay.session import contract

new = Option("slow_mo", "ms", metavar="MS", help="Pause between steps.")
contract.RUN = (*contract.RUN, new)
contract.OPERATIONS["run"] = contract.RUN

from replay.cli import main as cli
from replay.cli.fast import parse_run
from replay.client import Client
from replay.mcp.server import build_server
from replay.session.requests import parse

flow = sys.argv[1]
wanted = [o for o in contract.caller_options("run")]
click_flags = {flag for p in cli.commands["run"].params for flag in p.opts}
tool = next(t for t in asyncio.run(build_server().list_tools()) if t.name == "replay_run")
sent = []
client = Client("s")
client.request = lambda payload, **_: sent.append(payload) or {}
client.run(flow, **{o.name: o.default if o.kind != "ms" else 50 for o in wanted})
read = parse({**sent[0], "slow_mo": 50})
fast = parse_run(["run", flow, "--slow-mo", "50"])
print(json.dumps({
    "click": sorted(o.name for o in wanted if o.flag in click_flags),
    "mcp": sorted(o.name for o in wanted if o.name in tool.input_schema["properties"]),
    "client": sorted(o.name for o in wanted if o.wire in sent[0]),
    "request": sorted(o.name for o in wanted if hasattr(read, o.name)),
    "fast": fast[2] if fast else None,
    "wanted": sorted(o.name for o in wanted),
    "read": read.slow_mo,
}))
"""


def test_a_new_run_option_is_one_declaration_that_every_surface_offers(tmp_path: Path) -> None:
    flow = tmp_path / "flow.ad"
    flow.write_text("open http://x/\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", EVERY_SURFACE, str(flow)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert "slow_mo" in seen["wanted"]
    for surface in ("click", "mcp", "client", "request"):
        assert seen[surface] == seen["wanted"], surface
    assert seen["fast"] == {"slow_mo": 50} and seen["read"] == 50


CLOSE_ON_EVERY_SURFACE = r"""
import asyncio, json
from replay.options import Option
from replay.session import contract

contract.OPERATIONS["close"] = (*contract.OPERATIONS["close"], Option("force", "bool", False, help="Even so."))

from replay.cli import main as cli
from replay.client import Client
from replay.mcp.server import build_server
from replay.session.requests import parse

tool = next(t for t in asyncio.run(build_server().list_tools()) if t.name == "close")
sent = []
client = Client("s")
client._session_request = lambda payload, **_: sent.append(payload) or {}
client.close(force=True)
print(json.dumps({
    "click": any("--force" in p.opts for p in cli.commands["close"].params),
    "mcp": "force" in tool.input_schema["properties"],
    "client": sent[0].get("force"),
    "request": parse(sent[0]).force,
}))
"""


def test_a_new_close_option_is_one_declaration_that_every_surface_offers() -> None:
    done = subprocess.run([sys.executable, "-c", CLOSE_ON_EVERY_SURFACE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"click": True, "mcp": True, "client": True, "request": True}


def test_a_request_field_nobody_declares_is_refused() -> None:
    import pytest

    from replay.errors import InvalidArgs

    with pytest.raises(InvalidArgs, match="unknown field 'slow_mo' for run"):
        requests.parse({"op": "run", "path": "/x.ad", "slow_mo": 50})


def test_backend_options_travel_opaque_and_are_read_by_their_backend() -> None:
    import pytest

    from replay.drivers.base import BackendOptions
    from replay.errors import InvalidArgs

    run = requests.parse({"op": "run", "path": "/x.ad", "backend": {"headed": True, "serial": "emulator-5554"}})
    assert run.backend == {"headed": True, "serial": "emulator-5554"}
    web = BackendOptions.of("web", run.backend)  # another backend's option is not this one's
    assert dict(web.values) == {"browser": "chromium", "headed": True, "connect": None}
    with pytest.raises(InvalidArgs, match="no backend has an option 'greeting'"):
        requests.parse({"op": "run", "path": "/x.ad", "backend": {"greeting": "Hi"}})
    with pytest.raises(InvalidArgs, match="must be true or false"):
        requests.parse({"op": "run", "path": "/x.ad", "backend": {"headed": "yes"}})


def test_no_backend_option_is_named_by_an_operation() -> None:
    named = {o.name for options in OPERATIONS.values() for o in options}
    assert named.isdisjoint(o.name for o in backend_options())
    assert all(isinstance(o, Option) for o in backend_options())


def test_an_answer_is_the_daemons_object_with_its_fields_typed() -> None:
    from replay.results import Closed, RunResult, StepResult

    sent = {"planDigest": "d", "ran": 3, "elapsedSeconds": 1.25, "timings": [{"index": 1, "ms": 4.5, "drift": ["x"]}]}
    run = RunResult(sent)
    assert json.loads(json.dumps(run)) == sent and run["ran"] == 3  # printed and read as it was sent
    assert (run.ran, run.elapsed_seconds, run.timings[0].ms, run.timings[0].drift, run.repair) == (
        3,
        1.25,
        4.5,
        ["x"],
        None,
    )
    step = StepResult({"command": "click", "resolution": {"kind": "tree", "matchCount": 2}})
    assert (step.command, step.resolution_kind, step.match_count, step.effect, step.has_value) == (
        "click",
        "tree",
        2,
        None,
        False,
    )
    closed = Closed(
        {"closed": "s", "verify": {"passed": False, "divergence": {"kind": "not-found", "step": {"index": 4}}}}
    )
    assert closed.verify is not None and (closed.verify.diverged, closed.verify.divergence_step) == (True, 4)


def test_mcp_offers_one_tool_per_command_never_an_older_spelling_beside_it() -> None:
    import asyncio

    from replay.mcp.server import build_server

    names = {t.name for t in asyncio.run(build_server().list_tools())}
    assert "long_press" in names and "longpress" not in names
