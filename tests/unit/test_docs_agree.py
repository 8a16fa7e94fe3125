"""What the docs count is what the code holds (the probe's inputs in README and docs/reliability.md)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_and_the_reliability_page_count_the_probes_the_probe_throws() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from probe import probes  # type: ignore[import-not-found]

    thrown = len(probes("http://127.0.0.1:1")) + 1  # and the last: the daemon answers after all of them
    readme = re.search(r"`scripts/probe` throws (\d+)", (ROOT / "README.md").read_text(encoding="utf-8"))
    run = re.search(r"\*\*(\d+) tried, (\d+) clean", (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8"))
    assert readme is not None and run is not None
    assert int(readme[1]) == int(run[1]) == thrown, (readme[1], run[1], thrown)
