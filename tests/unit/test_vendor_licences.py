"""Vendored fixture packages keep their licences (fixtures/from_npm.py; issue 59): every folder has its
licence file, and fixtures/web/vendor/NOTICE.md is the manifest the folders give."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))

import from_npm  # type: ignore[import-not-found]  # noqa: E402


def test_every_vendored_package_keeps_a_licence_file() -> None:
    bare = [p.name for p in from_npm.packages() if not any(from_npm.is_licence(f.name) for f in p.iterdir())]
    assert bare == []


def test_the_vendor_manifest_is_the_one_the_folders_give() -> None:
    assert (from_npm.VENDOR / "NOTICE.md").read_text(encoding="utf-8") == from_npm.notice()


def test_every_licence_in_the_manifest_is_one_it_can_name() -> None:
    assert "| unknown |" not in from_npm.notice()


def test_the_repository_has_a_licence_of_its_own_as_pyproject_says() -> None:
    assert (
        'license = "MIT"' in (ROOT / "pyproject.toml").read_text() and "MIT License" in (ROOT / "LICENSE").read_text()
    )
