"""A scripted repair agent for the heal tests: it follows the agent protocol (docs/healing.md).

    python tests/agents/scripted.py MODE STATE_DIR

Every request it gets is appended to STATE_DIR/requests.jsonl. MODE says what it does:
  click-through   click the interstitial's "Continue" with --no-record (a state fix), then done
  fail-N          report "failed" doing nothing for its first N turns, then click the suggestion
  prune           report "prune" (skip the step)
  crash-once      die without a result on its first call, then click the top suggestion
  spend-X         click the top suggestion and report a cost of X dollars
  tell-typed      click the top suggestion and say, at length, what the flow types (its secrets)
  bad-cost        do nothing and report a cost of "abc" (a result that is not to be trusted)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPLAY = str(Path(sys.executable).with_name("replay"))  # the CLI of the same environment


def replay(*args: str) -> None:
    subprocess.run([REPLAY, *args], check=True, capture_output=True)


def main() -> None:
    mode, state = sys.argv[1], Path(sys.argv[2])
    request = json.loads(sys.stdin.read())
    state.mkdir(parents=True, exist_ok=True)
    with (state / "requests.jsonl").open("a") as fh:
        fh.write(json.dumps(request) + "\n")
    calls = sum(1 for _ in (state / "requests.jsonl").open())
    session = request["session"]
    top = (request["divergence"].get("suggestions") or [{}])[0].get("ref")
    cost = 0.0
    if mode == "click-through":
        replay("click", "Continue", "--no-record", "--session", session)
    elif mode.startswith("fail-"):
        if calls <= int(mode.split("-")[1]):
            print(json.dumps({"status": "failed", "notes": [f"turn {calls}: not yet"], "conversation_id": "conv-1"}))
            return
        replay("click", top, "--session", session)
    elif mode == "prune":
        print(json.dumps({"status": "prune", "notes": ["the step is obsolete"], "conversation_id": "conv-1"}))
        return
    elif mode == "crash-once":
        if calls == 1:
            sys.exit(7)
        replay("click", top, "--session", session)
    elif mode == "crash-always":
        sys.exit(7)
    elif mode == "bad-cost":
        print(json.dumps({"status": "done", "cost_usd": "abc"}))
        return
    elif mode == "tell-escapes":  # a terminal's control sequences in what it says (ESC [ …, CSI 0x9b)
        replay("click", top, "--session", session)
        said = "done \x1b[2J\x1b]0;owned\x07 and \x9b31m red"
        print(json.dumps({"status": "done", "notes": [said], "conversation_id": "conv-\x1b[1m-\x9b"}))
        return
    elif mode == "tell-typed":
        replay("click", top, "--session", session)
        said = "typed correct-horse-battery, correct-h and ada@example.com into the form; " + "x" * 10_000
        print(json.dumps({"status": "done", "notes": [said, said], "conversation_id": "conv-1"}))
        return
    elif mode.startswith("spend-"):
        cost = float(mode.split("-")[1])
        replay("click", top, "--session", session)
    print(json.dumps({"status": "done", "notes": [f"{mode}: done"], "cost_usd": cost, "conversation_id": "conv-1"}))


if __name__ == "__main__":
    main()
