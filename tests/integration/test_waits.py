"""Waits and page evidence on real Chromium: a timed-out wait classifies like a binding step; page
paths are relative to the opened base URL."""

from __future__ import annotations

import json
from pathlib import Path

from replay.script.loader import load

from .conftest import Cli, diverge


def record_wait(cli: Cli, web: str, tmp_path: Path) -> Path:
    """Record `wait text "Full name"` on the checkout page; the base URL becomes ${SHOP}."""
    out = tmp_path / "wait.ad"
    cli("open", f"{web}/shop/checkout.html", f"--save-script={out}", "--session", "waits")
    assert "wait" in cli("wait", "text", "Full name", "--session", "waits").stdout
    cli("close", "--session", "waits")
    text = out.read_text().replace(f"open {web}/shop/checkout.html", "open ${SHOP}/checkout.html")
    out.write_text(text.replace("context platform=web\n", f'context platform=web\nenv SHOP="{web}/shop"\n'))
    return out


def test_a_recorded_wait_text_carries_the_evidence_of_the_node_that_held_the_text(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = record_wait(cli, web, tmp_path)
    wait = load(str(flow)).actions[1]
    assert wait.command == "wait" and wait.annotation is not None
    assert wait.annotation.text == "Full name" or wait.annotation.label == "Full name"
    assert ("form", "Checkout") in wait.annotation.ancestry  # the container a timed-out wait is judged by
    assert cli("run", str(flow)).stdout.startswith("replayed 2 steps")


def test_a_timed_out_wait_on_an_interstitial_is_state_repair_not_manual(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = record_wait(cli, web, tmp_path)
    d = diverge(cli, "run", str(flow), "-e", f"SHOP={web}/drift/interstitial", "--timeout", "800")
    assert (d["kind"], d["repairHint"], d["step"]["index"]) == ("selector-miss", "state-repair", 2)


def test_page_evidence_is_the_same_under_two_base_urls(cli: Cli, web: str, tmp_path: Path) -> None:
    paths = []
    for base in ("shop", "drift/noids"):
        out = tmp_path / f"{base.replace('/', '-')}.ad"
        cli("open", f"{web}/{base}/checkout.html", f"--save-script={out}", "--session", "pages")
        cli("check", "I accept the terms", "--session", "pages")
        cli("close", "--session", "pages")
        annotation = next(line for line in out.read_text().splitlines() if line.startswith("# replay:target-v1 "))
        paths.append(json.loads(annotation.split(" ", 2)[2])["page"]["path"])
    assert paths == ["checkout.html", "checkout.html"]
