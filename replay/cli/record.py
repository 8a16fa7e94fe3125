"""`replay record URL`: a person records a flow by using the app (design §16)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys

import click

from replay.cli.app import handles_errors, json_option, main, session_option
from replay.errors import EXIT_FAILURE, EXIT_WRITE, InvalidArgs, SessionNotFound
from replay.results import RecordEvent


def _say(as_json: bool, event: RecordEvent) -> None:
    """One event: a JSON line, or the line a person reads (the step as written, as `replay click` says it)."""
    if as_json:
        sys.stdout.write(json.dumps(event, ensure_ascii=False) + "\n")
    elif event.event == "ready":
        sys.stdout.write(
            f"recording in session {event.session}: use the browser; Ctrl+C (or closing the window) "
            f"writes the script\n  DevTools relay for assistive tools (keep it to yourself): {event.cdp}\n"
        )
    elif event.event == "step":
        sys.stdout.write(f"{event.step:>3}  {event.line}  ({event.verification})\n")
        if event.effect:
            sys.stdout.write(f"       effect: {event.effect}\n")
        if event.warning:
            sys.stdout.write(f"       warning: {event.warning}\n")
    elif event.event == "variable":
        sys.stdout.write(f"       a secret: written as ${{{event.name}}} (give it when the script runs)\n")
    elif event.event == "refused":
        sys.stdout.write(f"  not recorded: {event.code}: {event.message}\n")
        if event.hint:
            sys.stdout.write(f"    hint: {event.hint}\n")
    elif event.event == "stopped":
        sys.stdout.write(f"script written to {event.script}\n" if event.script else "nothing written\n")
        for said in event.unwritten:
            sys.stdout.write(f"  not written: {said}\n")
        if event.variables:
            given = ", ".join(f"-e {n}=… (or REPLAY_VAR_{n})" for n in event.variables)
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

    url = "://" in target or target.startswith(("about:", "data:"))
    flow = target if target.endswith(".ad") or os.path.isfile(target) or (from_step is not None and not url) else None
    if flow is None and from_step is not None:
        raise InvalidArgs("--from N continues a flow: give FLOW.ad, not a URL", hint="replay record FLOW.ad --from 4")
    if flow is not None:
        flow = os.path.abspath(flow)
        stem = flow.removesuffix(".ad")
        output = output or f"{stem}.from{'end' if from_step is None else from_step}.ad"
        if os.path.abspath(output) == flow:
            raise InvalidArgs(f"-o {output}: the flow itself is never written over", hint="-o another path")
    # Ctrl+C and a plain `kill` both stop and publish (even where a shell started it with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    client = Client(session)
    saved = os.path.abspath(output) if output else None
    since = 0
    refused = 0  # gestures replay could not perform: the script lacks them, and the exit code says so
    unwritten = 0  # steps the script holds only as comments (no portable selector): the exit code says so too
    try:
        if flow is None:
            opened = client.record(target, save_script=saved, headless=headless)
        else:
            given = dict(parse_cli_assignment(p) for p in values)
            opened = client.record(None, save_script=saved, headless=headless, flow=flow, start=from_step, values=given)
        _say(as_json, RecordEvent(event="ready", session=opened.session, cdp=opened.devtools))
        while True:
            got = client.record_events(since, wait_ms=1000)
            for event in got.events:
                _say(as_json, event)
                refused += event.event == "refused"
                unwritten += len(event.unwritten)
            since = got.next
            if got.ended:
                break
    except KeyboardInterrupt:
        with contextlib.suppress(SessionNotFound):  # (stopped before it started: nothing to publish)
            client.close()  # publishes the recording; its last event says where
            for event in client.record_events(since, wait_ms=0).events:
                _say(as_json, event)
                refused += event.event == "refused"
                unwritten += len(event.unwritten)
    if refused:
        sys.stderr.write(
            f"error: {refused} gesture(s) could not be performed, and the script does not have them "
            "(each said why above)\n"
        )
        sys.exit(EXIT_FAILURE)
    if unwritten:
        sys.stderr.write(f"error: {unwritten} step(s) are in the script only as comments (each said why above)\n")
        sys.exit(EXIT_WRITE)
