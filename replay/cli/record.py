"""`replay record URL`: a person records a flow by using the app (SPEC §16)."""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

import click

from replay.cli.app import handles_errors, json_option, main, session_option


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
@click.argument("url")
@click.option("-o", "--output", "output", default=None, metavar="FLOW.ad", help="Write the script here.")
@click.option("--headless", is_flag=True, help="No window (CI, and tests that drive the page over DevTools).")
@session_option
@json_option
@handles_errors
def record_cmd(url: str, output: str | None, headless: bool, session: str | None, as_json: bool) -> None:
    """Record a flow by using the app: each click, key and field typed is performed by replay and
    written with its identity and effect (default path: $REPLAY_HOME/scripts/NAME-<time>.ad)."""
    from replay.client import Client

    # Ctrl+C and a plain `kill` both stop and publish (even where a shell started it with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    client = Client(session)
    opened = client.record(url, save_script=os.path.abspath(output) if output else None, headed=not headless)
    _say(as_json, {"event": "ready", "session": opened.get("session"), "cdp": opened.get("devtools")})
    since = 0
    try:
        while True:
            got = client.record_events(since, wait_ms=1000)
            for event in got["events"]:
                _say(as_json, event)
            since = int(got["next"])
            if got["ended"]:
                return
    except KeyboardInterrupt:
        client.close()  # publishes the recording; its last event says where
        for event in client.record_events(since, wait_ms=0)["events"]:
            _say(as_json, event)
