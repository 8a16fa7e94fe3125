#!/usr/bin/env python3
"""A complete small repair agent for `replay heal --agent "python examples/agent.py"`.

It follows the agent protocol of docs/healing.md: one JSON object on stdin, the session driven
through the `replay` CLI, one JSON result line on stdout. Its strategy is deliberately simple:

  - record-and-heal: perform the failed step on the top suggestion when it scores >= 0.6;
  - state-repair: click a visible "Continue", "OK", "Accept" or "Close" button with --no-record
    (a state fix, kept out of the healed script);
  - anything else: give up, so the orchestrator escalates to a person.

A real agent would reason over the divergence and the screen instead; the protocol is the same.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

DISMISS = ("Continue", "OK", "Accept", "Close")


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    """Run one `replay` command on the session (the CLI on PATH)."""
    return subprocess.run([shutil.which("replay") or "replay", *args], capture_output=True, text=True)


def result(status: str, *notes: str) -> None:
    """Print the one result line the orchestrator reads."""
    print(json.dumps({"status": status, "notes": list(notes), "cost_usd": 0.0, "conversation_id": None}))


def main() -> None:
    request = json.load(sys.stdin)
    session = request["session"]
    d = request["divergence"]
    verb = d["action"].split()[0]
    if d["repairHint"] == "record-and-heal":
        top = (d.get("suggestions") or [None])[0]
        if top is None or top["score"] < 0.6 or verb in ("fill", "select", "type"):
            return result("failed", "no suggestion I trust for this step")
        done = replay(verb, top["ref"], "--session", session)
        if done.returncode != 0:
            return result("failed", done.stderr.strip()[:200])
        return result("done", f"{verb} {top['ref']} {top.get('label') or top.get('text') or top['role']}")
    if d["repairHint"] == "state-repair":
        for label in DISMISS:
            if replay("click", label, "--no-record", "--session", session).returncode == 0:
                return result("done", f"dismissed the interstitial with {label!r} (not recorded)")
        return result("failed", "no interstitial button to dismiss")
    return result("failed", f"I do not handle {d['repairHint']}")


if __name__ == "__main__":
    main()
