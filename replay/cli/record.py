"""`replay record URL`: a person records a flow by using the app (SPEC §16)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from typing import Any

import click

from replay.cli.app import handles_errors, json_option, main, session_option
from replay.errors import InvalidArgs, SessionNotFound


def _say(as_json: bool, event: dict[str, Any]) -> None:
    """One event: a JSON line, or the line a person reads (the step as written, as `replay click` says it)."""
    if as_json:
        sys.stdout.write(json.dumps(event, ensure_ascii=False) + "\n")
    else:
        kind = event.get("event")
        if kind == "ready":
            sys.stdout.write(
                f"recording in session {event['session']}: use the browser; Ctrl+C (or closing the window) "
                f"writes the script\n  DevTools: {event.get('cdp')}\n"
            )
        elif kind == "step":
            sys.stdout.write(f"{event['step']:>3}  {event.get('line')}  ({event.get('verification', '')})\n")
            if event.get("effect"):
                sys.stdout.write(f"       effect: {event['effect']}\n")
            if event.get("warning"):
                sys.stdout.write(f"       warning: {event['warning']}\n")
        elif kind == "variable":
            sys.stdout.write(f"       a secret: written as ${{{event['name']}}} (give it when the script runs)\n")
        elif kind == "refused":
            sys.stdout.write(f"  not recorded: {event.get('code')}: {event.get('message')}\n")
            if event.get("hint"):
                sys.stdout.write(f"    hint: {event['hint']}\n")
        elif kind == "stopped":
            names = event.get("variables") or []
            written = event.get("script")
            sys.stdout.write(f"script written to {written}\n" if written else "nothing written\n")
            if names:
                given = ", ".join(f"-e {n}=… (or REPLAY_VAR_{n})" for n in names)
                sys.stdout.write(f"replaying it needs {given}\n")
    sys.stdout.flush()


@main.command("record")
@click.argument("target", metavar="URL | FLOW.ad")
@click.option("-o", "--output", "output", default=None, metavar="OUT.ad", help="Write the script here.")
@click.option("--from", "from_step", type=int, default=None, metavar="N", help="FLOW.ad: replay steps 1…N−1 first.")
@click.option("-e", "values", multiple=True, metavar="KEY=VALUE", help="A variable the flow's steps use.")
@click.option("--headless", is_flag=True, help="No window (CI, and tests that drive the page over DevTools).")
@session_option
@json_option
@handles_errors
def record_cmd(
    target: str,
    output: str | None,
    from_step: int | None,
    values: tuple[str, ...],
    headless: bool,
    session: str | None,
    as_json: bool,
) -> None:
    """Record a flow by using the app: each click, key and field typed is performed by replay and
    written with its identity and effect (default path: $REPLAY_HOME/scripts/NAME-<time>.ad).
    `replay record FLOW.ad --from N` replays its steps before N, verified, then records on; the
    output (default FLOW.fromN.ad) holds those steps and the new ones, and FLOW.ad is never written."""
    from replay.client import Client
    from replay.script.variables import parse_cli_assignment

    flow = target if target.endswith(".ad") or os.path.isfile(target) else None
    if flow is None and from_step is not None:
        raise InvalidArgs("--from N continues a flow: give FLOW.ad, not a URL", hint="replay record FLOW.ad --from 4")
    if flow is not None:
        flow = os.path.abspath(flow)
        stem = flow.removesuffix(".ad")
        output = output or f"{stem}.from{from_step or 'end'}.ad"
        if os.path.abspath(output) == flow:
            raise InvalidArgs(f"-o {output}: the flow itself is never written over", hint="-o another path")
    # Ctrl+C and a plain `kill` both stop and publish (even where a shell started it with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    client = Client(session)
    saved = os.path.abspath(output) if output else None
    since = 0
    try:
        if flow is None:
            opened = client.record(target, save_script=saved, headless=headless)
        else:
            given = dict(parse_cli_assignment(p) for p in values)
            opened = client.record(None, save_script=saved, headless=headless, flow=flow, start=from_step, values=given)
        _say(as_json, {"event": "ready", "session": opened.get("session"), "cdp": opened.get("devtools")})
        while True:
            got = client.record_events(since, wait_ms=1000)
            for event in got["events"]:
                _say(as_json, event)
            since = int(got["next"])
            if got["ended"]:
                return
    except KeyboardInterrupt:
        with contextlib.suppress(SessionNotFound):  # (stopped before it started: nothing to publish)
            client.close()  # publishes the recording; its last event says where
            for event in client.record_events(since, wait_ms=0)["events"]:
                _say(as_json, event)
