"""Shards and history (design §10): a run read back from its ``results.json`` — to merge N shards into
the report an unsharded run would have written, and to compare tonight with an earlier night."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

from replay.engine.report import Reported
from replay.errors import FileNotFound, InvalidArgs
from replay.results import Timing
from replay.session.gate import HEALED_SUFFIX
from replay.suite.runner import Attempt, ScriptResult, Status, SuiteResult

RESULTS = "results.json"
PASSING = (Status.PASSED, Status.FLAKY)


@dataclass
class Loaded:
    """A run read back: its results (each with its place in the unsharded suite), its metadata, and
    its folder (where its attempts' folders and heals.diff are)."""

    suite: SuiteResult
    order: list[int]
    meta: dict[str, Any]
    folder: str


def results_path(where: str) -> str:
    """``where`` itself when it is a file, else its ``results.json``."""
    path = where if os.path.isfile(where) else os.path.join(where, RESULTS)
    if not os.path.isfile(path):
        raise FileNotFound(
            f"{where}: no {RESULTS} there", hint="give a replay-results folder of `replay test`, or its results.json"
        )
    return path


def load_run(where: str) -> Loaded:
    """A results folder (or its results.json) read back; a malformed one is ``INVALID_ARGS`` naming it."""
    path = results_path(where)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        with open(path, encoding="utf-8") as fh:
            payload = json.load(fh)
        records = payload["results"]
        results = [_script(r, folder) for r in records]
        order = [int(r.get("order", k)) for k, r in enumerate(records)]
        meta = dict(payload.get("run") or {})
        seconds = float(meta.get("seconds") or 0.0)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:  # (nested 100k deep)
        raise InvalidArgs(
            f"{path}: not a results.json of replay test ({type(exc).__name__}: {str(exc)[:200]})",
            hint="give the folder `replay test` wrote (--artifacts-dir, replay-results by default)",
        ) from None
    return Loaded(SuiteResult(results, seconds), order, meta, folder)


def _within(folder: str, given: str) -> str | None:
    """``given`` (a shard's record names it) when it lies inside ``folder``, else None: a shard says where
    its own files are, never where anything else is (``/etc``, ``../other``) — what lies outside is not
    read, quoted or linked."""
    path = os.path.realpath(os.path.join(folder, given))
    inside = os.path.commonpath([path, os.path.realpath(folder)]) == os.path.realpath(folder)
    return path if inside else None


def _script(record: dict[str, Any], folder: str) -> ScriptResult:
    runs = [p for run in record.get("runs") or [] if (p := _within(folder, str(run))) is not None]
    attempts = [_attempt(run, k + 1) for k, run in enumerate(runs) if os.path.isfile(os.path.join(run, "result.json"))]
    if not attempts:  # only results.json was kept (a baseline between nights): the record alone
        attempts = [Attempt(1, Status(record["status"]), float(record.get("seconds") or 0.0), folder)]
    status = Status(record["status"])
    failing_runs = int(record.get("failingRuns") or (0 if status in PASSING else 1))  # no baseline then: this run
    if not isinstance(record["path"], str) or not record["path"]:
        raise TypeError(f"a script's path is {record['path']!r}, not a file name")
    healed = record.get("healed")  # read and quoted only as the healed script beside the record's own
    beside = os.path.normpath(record["path"].removesuffix(".ad") + HEALED_SUFFIX)
    if not (isinstance(healed, str) and f"/{os.path.normpath(healed)}".endswith(f"/{beside}")):
        healed = None
    return ScriptResult(
        record["path"],
        status,
        attempts,
        healed=healed,
        heal_status=record.get("heal"),
        since=record.get("since"),
        failing_runs=failing_runs,
    )


def _attempt(directory: str, number: int) -> Attempt:
    """An attempt from its folder's result.json (what the runner wrote beside its artifacts)."""
    with open(os.path.join(directory, "result.json"), encoding="utf-8") as fh:
        r = json.load(fh)
    d = r.get("divergence")
    shot = os.path.join(directory, "screenshot.png")
    return Attempt(
        int(r.get("attempt") or number),
        Status(r["status"]),
        float(r.get("seconds") or 0.0),
        directory,
        divergence=Reported.from_dict(d) if isinstance(d, dict) else None,
        error=r.get("error"),
        screenshot=shot if r.get("screenshot") and os.path.exists(shot) else None,
        timings=[Timing(t) for t in r.get("timings") or [] if isinstance(t, dict)],
    )


def merge(runs: list[Loaded]) -> tuple[SuiteResult, list[int]]:
    """The shards as one run: every script in its unsharded place; the wall time is the longest
    shard's (shards run side by side). A folder given twice, or a script two shards both ran (shards of
    different runs), is refused: the report would count it twice."""
    folders = [os.path.realpath(run.folder) for run in runs]
    if len(set(folders)) != len(folders):
        twice = next(f for f in folders if folders.count(f) > 1)
        raise InvalidArgs(f"{twice} is given twice", hint="give each shard's results folder once")
    seen: dict[str, str] = {}
    for run in runs:
        for r in run.suite.results:
            if r.path in seen:
                raise InvalidArgs(
                    f"{r.path} is in two shards ({seen[r.path]} and {run.folder})",
                    hint="merge the shards of one run (`replay test --shard I/N` with the same N and scripts)",
                )
            seen[r.path] = run.folder
    placed = sorted(
        ((place, k, r) for k, run in enumerate(runs) for place, r in zip(run.order, run.suite.results, strict=True)),
        key=lambda x: (x[0], x[1]),
    )
    seconds = max((run.suite.seconds for run in runs), default=0.0)
    return SuiteResult([r for _, _, r in placed], seconds), [p for p, _, _ in placed]


def merged_patch(runs: list[Loaded]) -> str:
    """The shards' heals.diff files, one after another (they heal different scripts) — only the hunks of
    the scripts the shards ran and healed: a hunk for `.github/workflows/…` or `../../…` is dropped."""
    ran = [r.path for run in runs for r in run.suite.results if r.healed]
    healed = {os.path.normpath(p) for path in ran for p in (path, _rel(path))}
    parts = []
    for run in runs:
        path = os.path.join(run.folder, "heals.diff")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                parts += [f for f in _files_of(fh.read()) if _patched(f) in healed]
    return "".join(parts)


def _rel(path: str) -> str:
    return os.path.relpath(path) if os.path.isabs(path) else path  # (heals.diff names scripts from the cwd)


def _files_of(patch: str) -> list[str]:
    """A unified diff split at each file's ``--- `` header (each part one file's hunks)."""
    return [part for part in re.split(r"(?m)^(?=--- )", patch) if part.strip()]


def _patched(part: str) -> str:
    """The script a file's part of a diff patches (its ``--- a/PATH`` line), normalized."""
    head = part.split("\n", 1)[0].removeprefix("--- ").split("\t", 1)[0].strip()
    return os.path.normpath(head.removeprefix("a/"))


NEW, FIXED, STILL = "new", "fixed", "still failing"


def compare(suite: SuiteResult, baseline: Loaded) -> None:
    """Mark each script against an earlier run: ``new`` (failing now, passing then or not there),
    ``fixed`` (passing now, failing then) or ``still failing`` — and for how many runs in a row."""
    then = {r.path: r for r in baseline.suite.results if r.status not in PASSING}  # what failed then
    for r in suite.results:
        before, failing = then.get(r.path), r.status not in PASSING
        r.failing_runs = (before.failing_runs + 1 if before is not None else 1) if failing else 0
        r.since = (STILL if before is not None else NEW) if failing else (FIXED if before is not None else None)
