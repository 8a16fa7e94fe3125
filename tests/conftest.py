from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # the pytest plugin's tests run pytest on generated .ad flows

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES
