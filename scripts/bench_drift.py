"""The drift corpus through the CLI (fixtures/drift/corpus.py): ``scripts/bench drift`` and what
each tolerance buys (``bench_tolerances``) both run it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fixtures"))

from serve import serve  # noqa: E402


def bench_drift(rank: bool = True) -> list[Any]:
    """The drift corpus (fixtures/drift/corpus.py) through the CLI: record, replay on its own version and
    on the drifted one, and `replay heal --agent builtin` on each divergence."""
    sys.path.insert(0, str(ROOT))
    from fixtures.drift.corpus import run

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rd-", dir="/tmp")
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            return run(replay, url, home, Path(work), rank=rank)
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
