"""The pytest plugin (entry point ``pytest11``): ``pytest flows/`` collects ``.ad`` files as test items.

Each item replays its script in a fresh session, with the artifacts ``replay test`` writes; a
divergence fails the item with the divergence report. Items carry a marker of their platform
(``-m web``), are selected by name (``-k checkout``), and run under ``pytest-xdist`` (``-n 2``),
each xdist worker with a daemon and a browser of its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from replay.options import Option, backend_options
from replay.platforms import DEFAULT_PLATFORM, PLATFORMS
from replay.suite import TRACE_MODES
from replay.suite.discover import REVIEW_SUFFIXES, Entry
from replay.suite.runner import DIVERGED, FAILED, Attempt, ScriptResult, SuiteOptions, run_attempt


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("replay", ".ad flows")
    group.addoption("--replay-timeout", type=int, default=None, metavar="MS", help="Each .ad flow's deadline.")
    group.addoption("--replay-step-timeout", type=int, default=None, metavar="MS", help="Each step's timeout.")
    group.addoption(
        "--replay-trace",
        choices=TRACE_MODES,
        default="retain-on-failure",
        help="Which .ad flows keep a Playwright trace (default: retain-on-failure).",
    )
    group.addoption("--replay-var", action="append", default=[], metavar="KEY=VALUE", help="A variable for every flow.")
    group.addoption(
        "--replay-artifacts", default="replay-results", metavar="DIR", help="Per-attempt artifacts of .ad flows."
    )
    for option in backend_options():  # each backend's own (--replay-headed, --replay-serial …)
        group.addoption(f"--replay-{option.name.replace('_', '-')}", **_pytest_option(option))


def _pytest_option(option: Option) -> dict[str, Any]:
    """A backend option as pytest's (argparse's) keywords."""
    if option.kind == "bool":
        return {"action": "store_true", "default": None, "help": option.help}
    kind = {"int": int, "ms": int, "float": float}.get(option.kind, str)
    return {
        "type": kind,
        "default": None,
        "metavar": option.metavar,
        "choices": option.choices or None,
        "help": option.help,
    }


def _backend(config: pytest.Config) -> dict[str, Any]:
    """The backend options given on pytest's command line."""
    given = {o.name: config.getoption(f"--replay-{o.name.replace('_', '-')}") for o in backend_options()}
    return {name: value for name, value in given.items() if value is not None}


def pytest_configure(config: pytest.Config) -> None:
    for platform in PLATFORMS:
        config.addinivalue_line("markers", f"{platform}: an .ad flow for the {platform} platform")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".ad" and not file_path.name.endswith(REVIEW_SUFFIXES):
        return AdFile.from_parent(parent, path=file_path)
    return None


class AdFile(pytest.File):
    """An ``.ad`` script: one item."""

    def collect(self) -> Any:
        from replay.script.loader import load

        platform = load(str(self.path)).platform
        item = AdItem.from_parent(self, name=self.path.stem)
        item.add_marker(getattr(pytest.mark, platform))
        yield item


CLASS_PROPERTY = "replay-class"
LETTERS = {"regression": "R", "drift": "D", "healed": "H", "broken": "B", "failed": "F"}


def _class_of(report: pytest.TestReport) -> str | None:
    found = dict(report.user_properties).get(CLASS_PROPERTY) if report.when == "call" and report.failed else None
    return str(found) if found is not None else None


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, str] | None:
    """A failed flow shows its class (design §10) — ``D`` and ``DRIFT``, ``R`` and ``REGRESSION`` — while
    pytest still counts it failed (its report in FAILURES, ``--lf``, the exit code stay pytest's)."""
    cls = _class_of(report)
    return ("failed", LETTERS[cls], cls.upper()) if cls in LETTERS else None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """``replay: 1 regression, 2 drift`` and each failed flow by its class, regressions first."""
    failed = [(str(_class_of(r)), r.nodeid) for r in terminalreporter.stats.get("failed", []) if _class_of(r)]
    if not failed:
        return
    order = list(LETTERS)
    failed.sort(key=lambda f: order.index(f[0]) if f[0] in order else len(order))
    counts = {c: sum(f[0] == c for f in failed) for c in order}
    terminalreporter.write_sep("=", "replay: " + ", ".join(f"{n} {c}" for c, n in counts.items() if n))
    for cls, nodeid in failed:
        terminalreporter.write_line(f"{cls.upper()} {nodeid}")


class ReplayFailed(Exception):
    """An attempt that did not pass: a divergence or an error, with its report."""

    def __init__(self, attempt: Attempt, report: str) -> None:
        super().__init__(report)
        self.attempt = attempt
        self.report = report


class AdItem(pytest.Item):
    """Replays one script; fails with the divergence report when the app drifted."""

    def runtest(self) -> None:
        from replay.script.variables import parse_cli_assignment
        from replay.session.protocol import replay_home

        config = self.config
        options = SuiteOptions(
            timeout_ms=config.getoption("--replay-timeout"),
            step_timeout_ms=config.getoption("--replay-step-timeout"),
            trace=config.getoption("--replay-trace"),
            values=dict(parse_cli_assignment(v) for v in config.getoption("--replay-var")),
            artifacts_dir=config.getoption("--replay-artifacts"),
            backend=_backend(config),
        )
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        home = os.path.join(replay_home(), "workers", f"pytest-{worker}")
        platform = next((m.name for m in self.iter_markers() if m.name in PLATFORMS), DEFAULT_PLATFORM)
        attempt = run_attempt(Entry(str(self.path), platform, None), options, home, 1)
        if attempt.status in (DIVERGED, FAILED):
            from replay.suite.triage import triage

            cls = triage(ScriptResult(str(self.path), attempt.status, [attempt]))
            self.user_properties.append((CLASS_PROPERTY, str(cls)))  # in --junitxml too
            raise ReplayFailed(attempt, _report(str(self.path), attempt))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ReplayFailed):
            return excinfo.value.report
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"replay: {self.path.name}"


def _report(path: str, attempt: Attempt) -> str:
    from replay.suite.reports import failure_text

    return failure_text(path, attempt) + f"\nartifacts: {attempt.directory}"
