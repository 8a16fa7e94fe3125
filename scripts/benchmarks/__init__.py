"""The benchmarks (not tests): figures for docs/benchmarks.md, measured side by side in one run. One module a
benchmark, ``kit`` what they share, ``__main__`` the command (``scripts/bench NAME …`` runs ``python -m
benchmarks NAME …`` with ``scripts/`` on the path).

Importing the package puts the repository's root (the ``fixtures`` package) and ``fixtures/`` (its flat
modules: ``serve``, ``widgets`` …) at the end of the path: the ``replay`` imported stays the installed one."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

for _place in (ROOT, ROOT / "fixtures"):
    if str(_place) not in sys.path:
        sys.path.append(str(_place))
