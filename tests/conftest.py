from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # the pytest plugin's tests run pytest on generated .ad flows

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


# No test touches the user's real $REPLAY_HOME (~/.replay): every test runs on a private home. What
# that folder holds when the run starts is noted; if it appeared, or changed, the run fails (issue 32).
def real_home() -> Path:
    return Path.home() / ".replay"


def _state(home: Path) -> dict[str, tuple[int, int]] | None:
    if not home.exists():
        return None
    return {str(p.relative_to(home)): (p.stat().st_mtime_ns, p.stat().st_size) for p in home.rglob("*") if p.exists()}


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_HOME] = real_home()
    session.config.stash[_BEFORE] = _state(session.config.stash[_HOME])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):  # a worker of -n: the controller looks once, at the end
        return
    home = session.config.stash.get(_HOME, real_home())
    before, after = session.config.stash.get(_BEFORE, None), _state(home)
    if after != before:
        changed = sorted(set(after or {}) ^ set(before or {})) or ["(entries changed)"]
        session.config.stash[_ESCAPED] = f"a test touched the real {home}: {', '.join(changed[:5])}"
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    escaped = terminalreporter.config.stash.get(_ESCAPED, None)
    if escaped:
        terminalreporter.write_line(f"FAILED (guard): {escaped}", red=True, bold=True)


_HOME = pytest.StashKey[Path]()
_BEFORE = pytest.StashKey[dict[str, tuple[int, int]] | None]()
_ESCAPED = pytest.StashKey[str]()
