"""The audit's findings that need no browser, each a rule (SPEC §6, §12)."""

from __future__ import annotations

import asyncio
import json
import os
import time
import zipfile
from pathlib import Path

import pytest

from replay.errors import Location, ReplayError
from replay.files import NotRegular, local_file, read_regular
from replay.heal.audit import Audit
from replay.script import parse
from replay.script.formatter import format_action
from replay.script.loader import read_text
from replay.script.redact import script_excerpt, secrets_of
from replay.script.resolve import resolve_action
from replay.script.selector import Term, compile_regex
from replay.suite.discover import discover, unique_slugs
from replay.tree.match import term_matches

from .treebuild import N, capture


def test_a_heal_reports_diff_shows_no_typed_text(tmp_path: Path) -> None:
    flow, healed = tmp_path / "login.ad", tmp_path / "login.healed.ad"
    flow.write_text('open http://x/\nfill id="password" "s3cret-pass"\nclick id="go"\n')
    healed.write_text('open http://x/\nfill id="password" "s3cret-pass"\nclick id="sign-in"\n')
    report = Path(
        Audit(str(tmp_path / "heal")).report(flow=str(flow), status="healed", healed=str(healed), acceptance="ok")
    )
    text = report.read_text()
    assert "s3cret-pass" not in text and 'fill id="password" <redacted>' in text and '+click id="sign-in"' in text


def test_a_script_excerpt_redacts_typed_text_env_values_and_unparsed_quotes() -> None:
    text = 'env PASSWORD="hunter2"\nfill id=a "${PASSWORD}x"\ntype "typed"\nfill id=a "broken\n# a comment\nclick id=b'
    shown = script_excerpt(text)
    assert "hunter2" not in shown and "typed" not in shown and "broken" not in shown
    assert shown.splitlines() == [
        "env PASSWORD=<var:PASSWORD>",
        'fill id="a" <var:PASSWORD><redacted>',
        "type <redacted>",
        "fill id=a <redacted>",
        "# a comment",
        "click id=b",
    ]


def test_a_runs_secrets_are_its_typed_texts_and_its_own_variables_not_builtins() -> None:
    script = parse('fill id=a "Ada"\nfill id=b "${PASSWORD}"\nclick id=c\n', "t.ad")
    values = {"PASSWORD": "pw-123", "REPLAY_SESSION": "default"}
    resolved = [resolve_action(a, values, "t.ad") for a in script.actions]
    assert secrets_of(resolved, values) == [("pw-123", "<var:PASSWORD>"), ("Ada", "<redacted>")]


def test_a_regex_that_would_expand_beyond_the_bound_is_refused_at_parse_quickly() -> None:
    started = time.monotonic()
    for pattern in ("a{1000000000}", "(a{100}){100}", "|".join(["a{1000}"] * 20), "x" * 5000):
        with pytest.raises(ReplayError) as err:
            parse(f'click label~="{pattern}"\n', "t.ad")
        assert err.value.code == "INVALID_ARGS" and err.value.location is not None
    assert time.monotonic() - started < 2  # refused before compiling, not after allocating


def test_a_bounded_regex_still_compiles() -> None:
    for pattern in ("a{5}b{7}", "(?:ab){1000}", "((a{10}){10}){10}", r"\{5000}", "[{]{3}", "x{2,}"):
        compile_regex(pattern)


def test_a_regex_a_variable_made_is_bounded_when_it_is_matched() -> None:
    node = capture(N("button", label="Save")).by_value("role", "button")[0]
    with pytest.raises(ReplayError) as err:
        term_matches(node, Term("label", "~=", "a{1000000000}"))
    assert err.value.code == "INVALID_ARGS"


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_only_a_regular_file_is_read_as_a_script(tmp_path: Path, kind: str) -> None:
    path = {"fifo": str(tmp_path / "f.ad"), "device": "/dev/zero", "directory": str(tmp_path)}[kind]
    if kind == "fifo":
        os.mkfifo(path)  # no writer: an open that blocked would hang this test
    with pytest.raises(ReplayError) as err:
        read_text(path)
    assert err.value.code == "INVALID_ARGS" and "regular file" in err.value.message


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_only_a_regular_file_is_uploaded_and_anything_else_says_what_it_is(tmp_path: Path, kind: str) -> None:
    path = {"fifo": str(tmp_path / "f.bin"), "device": "/dev/zero", "directory": str(tmp_path)}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(ReplayError) as err:
        local_file(path, str(tmp_path))
    assert err.value.code == "INVALID_ARGS" and "no such file" not in err.value.message
    assert ("a folder" if kind == "directory" else "not a regular file") in err.value.message


def test_an_upload_of_an_empty_path_says_the_path_is_empty_not_that_it_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="the file's path is empty"):
        local_file("", str(tmp_path))


def test_a_file_over_the_bound_is_refused_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.ad"
    big.write_bytes(b"#" * 2048)
    with pytest.raises(NotRegular):
        read_regular(str(big), limit=1024)


def test_slugs_are_unique_per_script_path() -> None:
    assert unique_slugs(["a/b.ad", "a_b.ad", "A_B.ad", "c.ad"]) == ["a_b", "a_b-2", "A_B-3", "c"]


def test_a_trace_is_written_with_field_values_and_secrets_replaced(tmp_path: Path) -> None:
    from replay.drivers.web.trace import scrub_trace

    raw, out = tmp_path / "raw.zip", tmp_path / "trace.zip"
    events = [
        {"type": "before", "method": "fill", "params": {"selector": "#p", "value": "x"}},
        {"type": "frame-snapshot", "html": ["INPUT", {"__playwright_value_": "typed by the app"}], "url": "/?k=K%2F1"},
        {"type": "before", "method": "goto", "params": {"url": "http://h/?k=K/1"}},
    ]
    with zipfile.ZipFile(raw, "w") as z:
        z.writestr("trace.trace", "".join(json.dumps(e) + "\n" for e in events))
        z.writestr("resources/abc.html", "<p>K/1</p>")
    scrub_trace(str(raw), str(out), [("K/1", "<var:KEY>")])
    with zipfile.ZipFile(out) as z:
        lines = [json.loads(line) for line in z.read("trace.trace").splitlines()]
        body = z.read("resources/abc.html")
    assert lines[0]["params"]["value"] == "<redacted>"
    assert lines[1]["html"][1]["__playwright_value_"] == "<redacted>" and lines[1]["url"] == "/?k=<var:KEY>"
    assert lines[2]["params"]["url"] == "http://h/?k=<var:KEY>" and body == b"<p><var:KEY></p>"
    assert os.stat(out).st_mode & 0o777 == 0o600


def test_a_trace_keeps_no_echo_of_a_secret_upper_cased_or_reversed(tmp_path: Path) -> None:
    from replay.drivers.web.trace import scrub_trace

    raw, out = tmp_path / "raw.zip", tmp_path / "trace.zip"
    with zipfile.ZipFile(raw, "w") as z:  # a page that shows the password back, shouted and mirrored
        z.writestr("resources/abc.html", "<p>HUNTER2-KEY</p><p>yek-2retnuh</p>")
    scrub_trace(str(raw), str(out), [("hunter2-key", "<var:PASSWORD>")])
    with zipfile.ZipFile(out) as z:
        assert z.read("resources/abc.html") == b"<p><var:PASSWORD></p><p><var:PASSWORD></p>"


def test_a_recursive_glob_never_follows_a_symlinked_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in ("dir/a.ad", "dir/sub/b.ad", "dir/.hidden/c.ad"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("open http://x/\n")
    (tmp_path / "dir" / "sub" / "up").symlink_to("..")  # a loop: glob.glob would walk it forever
    monkeypatch.chdir(tmp_path)
    assert discover(["dir/**/*.ad"]) == ["dir/a.ad", "dir/sub/b.ad"]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("click role=button nth=1234567", "nth is at most 999999"),
        ("scroll down -1", "amount must be a number of at least 0"),
        ("snapshot -d abc", "flag -d takes a whole number"),
    ],
)
def test_a_refusal_says_what_is_wrong_with_the_value(line: str, says: str) -> None:
    with pytest.raises(ReplayError) as err:
        parse(f"open http://x/\n{line}\n", "t.ad")
    assert err.value.code == "INVALID_ARGS" and says in err.value.message


def test_a_single_quoted_value_may_hold_a_double_quote() -> None:
    action = parse("click label='say \"hi\"'\n", "t.ad").actions[0]
    assert format_action(action) == 'click label="say \\"hi\\""'


def test_at_e0_the_document_is_a_ref() -> None:
    assert parse("get text @e0\n", "t.ad").actions[0].param("target").ref == "@e0"


def test_a_step_that_cannot_bind_shows_a_variables_value_as_its_name(tmp_path: Path) -> None:
    from replay.engine import step as pipeline
    from replay.engine.state import StepStopped
    from replay.script.parser import parse_action
    from replay.session.session import Session

    from ..fakes.driver import FakeClock, FakeDriver

    s = Session("s", str(tmp_path), FakeDriver(screen_of_one_button()), clock=FakeClock())
    line = parse_action('click label="${WHO}"', Location("<line>", 1))  # a script line: ${WHO} is a reference
    with pytest.raises(StepStopped) as stop:
        asyncio.run(pipeline.execute(s, line, values={"WHO": "Secret-Name-42"}, timeout_ms=50))
    assert "Secret-Name-42" not in stop.value.error.message and "<var:WHO>" in stop.value.error.message


def screen_of_one_button() -> dict[str, object]:
    from .treebuild import screen

    return screen(N("button", label="Save"))


def test_a_recording_profile_a_killed_daemon_left_is_removed_and_a_live_or_fresh_one_kept(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    from replay.drivers.web.relay import FRESH_S, remove_stale_profiles

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale, live, fresh, other = (tmp_path / f"replay-recording-{n}" for n in ("a", "b", "c", "d"))
    for folder in (stale, live, fresh, tmp_path / "elsewhere"):
        folder.mkdir()
    (stale / "SingletonLock").symlink_to(f"host-{dead.stdout.strip()}")  # its browser is gone
    (live / "SingletonLock").symlink_to(f"host-{os.getpid()}")  # a browser runs on it
    other.mkdir()  # never locked, made long ago
    os.utime(other, (time.time() - FRESH_S - 5,) * 2)
    assert sorted(remove_stale_profiles(str(tmp_path))) == sorted([str(stale), str(other)])
    assert live.exists() and fresh.exists() and (tmp_path / "elsewhere").exists()
