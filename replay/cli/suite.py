"""`replay test`: run a suite of scripts, with live progress, a summary and reports."""

from __future__ import annotations

import os
import platform as platform_module
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click

from replay import __version__
from replay.cli.app import MS, emit, handles_errors, json_option, main, platform_option
from replay.cli.options import backend_flags
from replay.suite import TRACE_MODES

if TYPE_CHECKING:
    from replay.suite.runner import SuiteResult


@main.command("test")
@click.argument("paths", nargs=-1, required=True)
@click.option("--workers", type=click.IntRange(1, 16), default=1, metavar="N", help="Scripts run in parallel.")
@click.option("--shard", default=None, metavar="I/N", help="Run the I-th of N deterministic slices.")
@click.option("--retries", type=click.IntRange(0, 3), default=0, metavar="N", help="Re-run a failed script.")
@click.option("--timeout", type=MS, default=None, metavar="MS", help="Each script's deadline.")
@click.option("--step-timeout", type=MS, default=None, metavar="MS", help="Each step's timeout.")
@click.option(
    "--trace",
    type=click.Choice(TRACE_MODES),
    default="retain-on-failure",
    show_default=True,
    help="Which attempts keep a Playwright trace.",
)
@click.option("--fail-fast", is_flag=True, help="Start no script after the first failure.")
@platform_option
@backend_flags
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable for every script.")
@click.option("--artifacts-dir", default="replay-results", metavar="DIR", help="Per-attempt artifacts.")
@click.option("--junit", default=None, metavar="FILE", help="Write a JUnit XML report.")
@click.option("--html", "html_dir", default=None, metavar="DIR", help="Write a static HTML report.")
@click.option("--heal", default=None, metavar="builtin|CMD", help="Run replay heal on each divergence.")
@click.option(
    "--baseline", default=None, metavar="PREVIOUS", help="An earlier run's results: new, fixed, still failing."
)
@click.option("--from", "from_step", default=None, hidden=True)
@json_option
@handles_errors
def test_cmd(
    paths: tuple[str, ...],
    workers: int,
    shard: str | None,
    retries: int,
    timeout: int | None,
    step_timeout: int | None,
    trace: str,
    fail_fast: bool,
    platform: str | None,
    backend: dict[str, Any],
    env_pairs: tuple[str, ...],
    artifacts_dir: str,
    junit: str | None,
    html_dir: str | None,
    heal: str | None,
    baseline: str | None,
    from_step: str | None,
    as_json: bool,
) -> None:
    """Run a suite: .ad files, directories (recursively) or globs; exit 0 only if every script passed."""
    from replay.errors import InvalidArgs
    from replay.script.variables import parse_cli_assignment
    from replay.suite import discover, reports
    from replay.suite.merge import compare, load_run
    from replay.suite.runner import Suite, SuiteOptions

    if from_step is not None:
        raise InvalidArgs(
            "replay test runs whole scripts: --from is for resuming one run", hint="use replay run --from"
        )
    slice_of = discover.parse_shard(shard) if shard else None  # bad input first, before reading scripts
    reports.check_targets(junit, html_dir)
    previous = load_run(baseline) if baseline else None  # a bad baseline is refused before anything runs
    found = discover.entries(list(paths), platform)
    order = {e.path: k for k, e in enumerate(found)}  # each script's place in the unsharded suite: merges keep it
    if slice_of:
        found = discover.shard(found, *slice_of)
    options = SuiteOptions(
        workers=workers,
        retries=retries,
        timeout_ms=timeout,
        step_timeout_ms=step_timeout,
        trace=trace,
        fail_fast=fail_fast,
        values=dict(parse_cli_assignment(p) for p in env_pairs),
        artifacts_dir=artifacts_dir,
        heal=heal,
        backend=backend,
    )
    say = (lambda _: None) if as_json else (lambda line: click.echo(line))
    started = datetime.now(UTC).isoformat(timespec="seconds")
    suite = Suite(found, options, say).run()
    if previous is not None:
        compare(suite, previous)
    meta = {"started": started, "shard": shard, "replay": __version__, "python": platform_module.python_version()}
    written = [f"results: {reports.write_results(suite, os.path.join(artifacts_dir, 'results.json'), meta, order)}"]
    if heal and (patch := reports.write_heals_diff(suite, os.path.join(artifacts_dir, "heals.diff"))):
        written.append(f"heals: {patch} (git apply {patch})")
    if junit:
        written.append(f"junit: {reports.write_junit(suite, junit)}")
    if html_dir:
        written.append(f"html: {reports.write_html(suite, html_dir)}")
    text, payload = _report(suite)
    emit(as_json, {"result": payload}, "\n".join([*written, text]))
    sys.exit(suite.exit_code)


def _report(suite: SuiteResult) -> tuple[str, dict[str, Any]]:
    """A suite's outcome: the lines a person reads, and the JSON object."""
    from replay.suite import reports
    from replay.suite.triage import Triage, expected_observed, triage

    slowest = sorted(suite.results, key=lambda r: -r.seconds)[:3]
    lines = []
    for cls, found in suite.classes().items():  # regressions first, with what was expected and seen
        for r in found:
            since = f" ({reports.since_words(r)})" if r.since else ""
            lines.append(f"{cls}: {r.path}: {r.why()}{since}")
            if (seen := expected_observed(r)) is not None and cls == Triage.REGRESSION:
                lines += [f"    expected: {seen[0]}", f"    observed: {seen[1]}"]
    if slowest:
        lines.append("slowest: " + ", ".join(f"{r.path} {r.seconds:.1f} s" for r in slowest))
    flaky = [r.path for r in suite.results if r.status == "flaky"]
    if flaky:
        lines.append("flaky (passed on a retry): " + ", ".join(flaky))
    healed = [f"{r.healed} ({r.heal_status})" for r in suite.results if r.healed]
    if healed:
        lines.append("healed scripts pending review: " + ", ".join(healed))
    fixed = [r.path for r in suite.results if r.since == "fixed"]
    if fixed:
        lines.append("fixed since the baseline: " + ", ".join(fixed))
    lines.append(suite.summary())  # the last line counts the classes (design §10)
    payload = {
        "summary": suite.summary(),
        "exitCode": suite.exit_code,
        "results": [
            {
                "path": r.path,
                "status": r.status,
                "seconds": round(r.seconds, 3),
                "attempts": len(r.attempts),
                "class": triage(r),
                "since": r.since,
                "failingRuns": r.failing_runs,
                "why": r.why(),
                "healed": r.healed,
                "heal": r.heal_status,
            }
            for r in suite.results
        ],
    }
    return "\n".join(lines), payload


@main.group("report")
def report_group() -> None:
    """Suite reports: `report merge` joins shards' results into one."""


@report_group.command("merge")
@click.argument("folders", nargs=-1, required=True)
@click.option("--html", "html_dir", default=None, metavar="DIR", help="Write the merged HTML report.")
@click.option("--junit", default=None, metavar="FILE", help="Write the merged JUnit XML.")
@click.option("--json", "json_file", default=None, metavar="FILE", help="Write the merged results.json.")
@click.option("--heals", default=None, metavar="FILE", help="Write the shards' heals.diff as one patch.")
@click.option("--baseline", default=None, metavar="PREVIOUS", help="An earlier run's results folder or JSON.")
@handles_errors
def merge_cmd(
    folders: tuple[str, ...],
    html_dir: str | None,
    junit: str | None,
    json_file: str | None,
    heals: str | None,
    baseline: str | None,
) -> None:
    """Merge the results folders of N shards (`replay test --shard I/N`) into one report, equal to an
    unsharded run's: counts, order, artifacts linked. Exit 0 only if every script passed."""
    from replay.files import open_private
    from replay.suite import reports
    from replay.suite.merge import compare, load_run, merge, merged_patch

    reports.check_targets(junit, html_dir)
    runs = [load_run(f) for f in folders]  # every folder read before anything is written
    previous = load_run(baseline) if baseline else None
    suite, order = merge(runs)
    if previous is not None:
        compare(suite, previous)
    written = []
    if json_file:
        meta = {"merged": [r.meta for r in runs], "shards": len(runs)}
        places = {r.path: k for r, k in zip(suite.results, order, strict=True)}
        written.append(f"results: {reports.write_results(suite, json_file, meta, places)}")
    if junit:
        written.append(f"junit: {reports.write_junit(suite, junit)}")
    if html_dir:
        written.append(f"html: {reports.write_html(suite, html_dir)}")
    if heals and (patch := merged_patch(runs)):
        with open_private(heals) as fh:
            fh.write(patch)
        written.append(f"heals: {heals}")
    text, _ = _report(suite)
    click.echo("\n".join([*written, text]))
    sys.exit(suite.exit_code)
