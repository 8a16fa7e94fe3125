"""``replay test``: run a suite of scripts, each in a fresh session, over N parallel workers.

Every worker has a daemon, a browser and a ``$REPLAY_HOME`` of its own (``HOME/workers/wK``), so
workers share no state and use both cores; a script runs in an ephemeral session of its worker.
A failed attempt is retried up to ``retries`` times; a pass on a retry is ``flaky``. Every attempt
leaves its artifacts: the script, ``result.json`` and ``timing.ndjson``, and on failure the
divergence report, a screenshot and (by default) a Playwright trace.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replay.client import Client
from replay.engine.report import Reported
from replay.errors import DaemonUnavailable, DivergenceError, ReplayError, TargetExists
from replay.files import open_private
from replay.results import Timing, timings_of
from replay.script.loader import read_text
from replay.script.redact import script_excerpt
from replay.session.protocol import replay_home
from replay.suite.discover import MAESTRO_SUFFIXES, Entry
from replay.suite.triage import ORDER, Triage, triage

log = logging.getLogger("replay.suite")

MAX_RETRIES = 3


class Status(StrEnum):
    """A script's (or an attempt's) outcome in a suite; its value is what reports and JSON show."""

    PASSED = "passed"
    FLAKY = "flaky"  # passed on a retry
    DIVERGED = "diverged"
    FAILED = "failed"


PASSED, FLAKY, DIVERGED, FAILED = Status.PASSED, Status.FLAKY, Status.DIVERGED, Status.FAILED


@dataclass
class Attempt:
    """One run of one script."""

    number: int
    status: Status  # passed | diverged | failed
    seconds: float
    directory: str
    divergence: Reported | None = None
    error: dict[str, Any] | None = None
    screenshot: str | None = None
    timings: list[Timing] = field(default_factory=list)


@dataclass
class ScriptResult:
    """A script's outcome over its attempts."""

    path: str
    status: Status
    attempts: list[Attempt]
    healed: str | None = None  # with --heal: the healed script pending review
    heal_status: str | None = None  # healed | rejected | escalated
    since: str | None = None  # against --baseline: new | fixed | still failing
    failing_runs: int = 0  # nights in a row it has not passed, this one included (with --baseline)

    @property
    def seconds(self) -> float:
        """Wall time of all its attempts."""
        return sum(a.seconds for a in self.attempts)

    @property
    def last(self) -> Attempt:
        """The attempt that decided the status."""
        return self.attempts[-1]

    def why(self) -> str:
        """One line on a failure: the divergence kind and step, or the error."""
        a = self.last
        if a.divergence is not None:
            d = a.divergence
            return f"{d.kind} at step {d.index} ({d.repair_hint})"
        if a.error is not None:
            return f"{a.error.get('code')}: {a.error.get('message')}"
        return ""


@dataclass
class SuiteResult:
    """Every script's result, in suite order, and the wall time."""

    results: list[ScriptResult]
    seconds: float

    def count(self, status: Status) -> int:
        """How many scripts ended ``status``."""
        return sum(1 for r in self.results if r.status == status)

    @property
    def exit_code(self) -> int:
        """0 only if every script passed (flaky counts as passed), else 1."""
        return 0 if all(r.status in (PASSED, FLAKY) for r in self.results) else 1

    def classes(self) -> dict[Triage, list[ScriptResult]]:
        """The scripts that did not pass by their class (design §10), each class in suite order."""
        out: dict[Triage, list[ScriptResult]] = {t: [] for t in ORDER}
        for r in self.results:
            if (t := triage(r)) is not None:
                out[t].append(r)
        return out

    def summary(self) -> str:
        """``40 passed, 1 flaky, 2 regressions, 5 drifted (4 healed), 1 broken, 0 failed in 192.0 s``."""
        c = {t: len(rs) for t, rs in self.classes().items()}
        regressions = f"{c[Triage.REGRESSION]} regression{'' if c[Triage.REGRESSION] == 1 else 's'}"
        drifted = f"{c[Triage.DRIFT] + c[Triage.HEALED]} drifted ({c[Triage.HEALED]} healed)"
        counts = f"{self.count(PASSED)} passed, {self.count(FLAKY)} flaky, {regressions}, {drifted}"
        line = f"{counts}, {c[Triage.BROKEN]} broken, {c[Triage.FAILED]} failed in {self.seconds:.1f} s"
        if any(r.since for r in self.results):
            since = {s: sum(r.since == s for r in self.results) for s in ("new", "fixed", "still failing")}
            line += "; since the baseline: " + ", ".join(f"{n} {s}" for s, n in since.items())
        return line


@dataclass
class SuiteOptions:
    """How to run the suite."""

    workers: int = 1
    retries: int = 0
    timeout_ms: int | None = None  # each attempt's deadline, the whole script (Playwright's --timeout)
    step_timeout_ms: int | None = None  # each step's (else the script's `context timeout=`, else 5 s)
    trace: str = "retain-on-failure"  # one of TRACE_MODES
    fail_fast: bool = False
    values: dict[str, str] = field(default_factory=dict)
    artifacts_dir: str = "replay-results"
    home: str | None = None  # the root $REPLAY_HOME; workers live under it
    heal: str | None = None  # "builtin" or an agent command: run `replay heal` on each divergence
    backend: dict[str, Any] = field(default_factory=dict)  # the backends' options every session is made with


MARK = ".replay-test"  # in every folder `replay test` makes: the only folders it ever deletes


def script_folder(options: SuiteOptions, entry: Entry) -> str:
    """Where one script's artifacts go: ``ARTIFACTS/<its unique slug>``."""
    return os.path.abspath(os.path.join(options.artifacts_dir, entry.folder_name))


def check_claimable(folder: str) -> None:
    """Refuse a script's artifacts folder that exists and was not made by `replay test` (a user's own
    folder: `replay test src.ad --artifacts-dir .` must not touch ``./src``)."""
    if os.path.lexists(folder) and (os.path.islink(folder) or not os.path.isfile(os.path.join(folder, MARK))):
        raise TargetExists(
            f"{folder} exists and was not made by replay test: its artifacts would replace it",
            hint="pass another --artifacts-dir (replay test only ever deletes folders it made)",
        )


def claim(folder: str) -> None:
    """A script's artifacts folder for this run: an earlier run's (marked) is replaced, so a folder
    never mixes two runs; anything else is refused."""
    check_claimable(folder)
    if os.path.lexists(folder):
        shutil.rmtree(folder)
    os.makedirs(folder, mode=0o700)
    open_private(os.path.join(folder, MARK)).close()


class Suite:
    """Runs entries over workers; ``say`` gets one progress line per finished script."""

    def __init__(self, entries: list[Entry], options: SuiteOptions, say: Callable[[str], None]) -> None:
        self.entries = entries
        self.options = options
        self.say = say
        self.root = os.path.abspath(options.home or replay_home())
        self.results: dict[str, ScriptResult] = {}
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> SuiteResult:
        """Run every entry (until the first failure with ``fail_fast``) and return the results in order;
        a script's artifacts folder that `replay test` did not make stops the suite before it starts."""
        for e in self.entries:
            check_claimable(script_folder(self.options, e))
        t0 = time.monotonic()
        todo: queue.Queue[Entry] = queue.Queue()
        for e in self.entries:
            todo.put(e)
        homes = [os.path.join(self.root, "workers", f"w{k + 1}") for k in range(max(1, self.options.workers))]
        threads = [threading.Thread(target=self._work, args=(home, todo), daemon=True) for home in homes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for home in homes:
            try:
                Client(home=home).shutdown()
            except DaemonUnavailable as exc:  # (the suite's results stand: a wedged worker daemon is said)
                log.warning("%s", exc)
        ordered = [self.results[e.path] for e in self.entries if e.path in self.results]
        return SuiteResult(ordered, time.monotonic() - t0)

    def _work(self, home: str, todo: queue.Queue[Entry]) -> None:
        while not self.stop.is_set():
            try:
                entry = todo.get_nowait()
            except queue.Empty:
                return
            result = self._script(entry, home)
            with self.lock:
                self.results[entry.path] = result
                self.say(progress_line(result))
            if self.options.fail_fast and result.status not in (PASSED, FLAKY):
                self.stop.set()

    def _script(self, entry: Entry, home: str) -> ScriptResult:
        retries = min(MAX_RETRIES, entry.retries if entry.retries is not None else self.options.retries)
        attempts: list[Attempt] = []
        for number in range(1, retries + 2):
            try:
                attempt = self._attempt(entry, home, number)
            except ReplayError as err:  # its folder could not be claimed: nothing ran
                failed = Attempt(number, FAILED, 0.0, script_folder(self.options, entry), error=err.to_dict())
                return ScriptResult(entry.path, FAILED, [failed])
            attempts.append(attempt)
            if attempt.status == PASSED:
                return ScriptResult(entry.path, PASSED if number == 1 else FLAKY, attempts)
        result = ScriptResult(entry.path, attempts[-1].status, attempts)
        if result.status == DIVERGED and self.options.heal:
            self._heal(result, entry, home)
        return result

    def _heal(self, result: ScriptResult, entry: Entry, home: str) -> None:
        """`replay heal` on a diverged script: its healed script is left beside it for review."""
        from replay.heal.orchestrator import HealOptions, HealRun

        options = HealOptions(
            agent=str(self.options.heal),
            values=self.options.values,
            timeout_ms=self.options.step_timeout_ms,
            artifacts_dir=os.path.join(script_folder(self.options, entry), "heal"),
            backend=self.options.backend,
        )
        try:
            outcome = HealRun(result.path, options, home=home).run()
        except ReplayError as err:  # e.g. a healed script from an earlier night is still waiting for review
            result.heal_status = f"not run: {err.code}"
            return
        result.heal_status, result.healed = outcome.status, outcome.healed

    def _attempt(self, entry: Entry, home: str, number: int) -> Attempt:
        return run_attempt(entry, self.options, home, number)


def run_attempt(entry: Entry, options: SuiteOptions, home: str, number: int) -> Attempt:
    """One attempt of one script in a fresh ephemeral session of the daemon at ``home``, with its artifacts."""
    folder = script_folder(options, entry)
    if number == 1:
        claim(folder)
    directory = os.path.join(folder, f"attempt-{number}")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    with open_private(os.path.join(directory, os.path.basename(entry.path))) as dst:
        dst.write(script_excerpt(read_text(entry.path)))  # the script as run, without what it types
    script = entry.path
    if entry.path.endswith(MAESTRO_SUFFIXES):  # a Maestro flow: what it imports to is what runs
        from replay.formats.maestro.importer import import_flow

        script = os.path.join(directory, os.path.splitext(os.path.basename(entry.path))[0] + ".imported.ad")
        with open_private(script) as dst:
            dst.write(import_flow(entry.path))
    client = Client(home=home, fresh=True, backend=options.backend)  # a fresh ephemeral session per attempt
    t0 = time.monotonic()
    shot = os.path.join(directory, "screenshot.png")
    traced = options.trace in ("on", "retain-on-failure") or (options.trace == "on-first-retry" and number == 2)
    try:
        result = client.run(
            script,
            values=options.values,
            timeout=options.step_timeout_ms,
            trace_path=os.path.join(directory, "trace.zip") if traced else None,
            trace_always=options.trace != "retain-on-failure",
            deadline_ms=options.timeout_ms,
            screenshot_path=shot,
            artifacts_dir=directory,
        )
        attempt = Attempt(number, PASSED, time.monotonic() - t0, directory, timings=result.timings)
    except DivergenceError as err:
        reported = Reported.from_dict(err.divergence)
        attempt = Attempt(number, DIVERGED, time.monotonic() - t0, directory, divergence=reported)
        attempt.timings = timings_of(err.details)
        _keep_divergence(home, reported, directory)
    except ReplayError as err:
        attempt = Attempt(number, FAILED, time.monotonic() - t0, directory, timings=timings_of(err.details))
        err.details.pop("timings", None)
        attempt.error = err.to_dict()
    if attempt.status != PASSED and os.path.exists(shot):
        attempt.screenshot = shot
    write_artifacts(entry, attempt)
    return attempt


def _keep_divergence(home: str, d: Reported, directory: str) -> None:
    """Write the divergence, then close its session: a suite keeps the evidence, not the session."""
    with open_private(os.path.join(directory, "divergence.json")) as fh:
        json.dump(d.json, fh, ensure_ascii=False, indent=2)
    try:
        Client(d.session, home=home).close(discard=True)
    except ReplayError:
        pass


def write_artifacts(entry: Entry, a: Attempt) -> None:
    """An attempt's result.json and timing.ndjson in its folder (what a merge reads back)."""
    result = {
        "script": entry.path,
        "attempt": a.number,
        "status": a.status,
        "seconds": round(a.seconds, 3),
        "timings": a.timings,
        "divergence": a.divergence.json if a.divergence is not None else None,
        "error": a.error,
        "screenshot": a.screenshot,
    }
    with open_private(os.path.join(a.directory, "result.json")) as fh:
        json.dump(result, fh, ensure_ascii=False, indent=2)
    with open_private(os.path.join(a.directory, "timing.ndjson")) as fh:
        for t in a.timings:
            fh.write(json.dumps(t, ensure_ascii=False) + "\n")


def progress_line(r: ScriptResult) -> str:
    """One line per finished script: status, path, duration, and why it failed."""
    label = {PASSED: "PASS ", FLAKY: "FLAKY", DIVERGED: "DIVERGED", FAILED: "FAIL "}[r.status]
    extra = f" — {r.why()}" if r.status in (DIVERGED, FAILED) else ""
    tries = f", {len(r.attempts)} attempts" if len(r.attempts) > 1 else ""
    return f"{label} {r.path} ({r.seconds:.1f} s{tries}){extra}"
