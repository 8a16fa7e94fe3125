"""The recorder as a trust boundary (SPEC §16, issue 45): nobody else drives its browser, no page
script writes, stops or blinds its script, and a fast person on a busy machine records exactly what
they typed. Real daemon, real Chromium on a pipe, replay's relay, a test person's trusted input."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Cli, pid_alive, wait_until
from .recording import Recording, replays_clean

pytestmark = pytest.mark.xdist_group("recorder-boundary")
PASSWORD = "Kp7-60ms-48213"
KEY_MS = 60  # a person typing at normal speed, with no pause after a click or a Tab


@contextlib.contextmanager
def busy_cpus(seconds: float = 90.0) -> Iterator[None]:
    """Both CPUs busy beside the test (bounded: each hog ends by itself after ``seconds``)."""
    hog = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for proc in hogs:
            proc.kill()
            proc.wait()


def _listening_inodes() -> set[str]:
    """The socket inodes of TCP listeners (IPv4 and IPv6)."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                cols = row.split()
                if cols[3] == "0A":  # LISTEN
                    found.add(cols[9])
        continue
    return found


def _listeners_of(pids: set[int]) -> list[int]:
    """Which of ``pids`` hold a listening TCP socket."""
    inodes = _listening_inodes()
    holding = []
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:[") and link[8:-1] in inodes:
                        holding.append(pid)
    return holding


def _browser_pids() -> set[int]:
    """Every Chromium process on the machine (by its command line)."""
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                if b"chrom" in cmdline.split(b"\0")[0]:
                    pids.add(int(entry))
    return pids


def _recording_browsers_of(home: str) -> set[int]:
    """The recording browsers (on a pipe) that the daemon of ``home`` started (by process ancestry)."""
    pid_file = Path(home) / "daemon.pid"
    daemon = int(pid_file.read_text()) if pid_file.exists() else -1
    mine = set()
    for pid in _browser_pids():
        with contextlib.suppress(OSError):
            if b"--remote-debugging-pipe" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            ancestor = pid
            while ancestor > 1 and ancestor != daemon:
                ancestor = int(Path(f"/proc/{ancestor}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if ancestor == daemon:
                mine.add(pid)
    return mine


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_no_recording_browser_listens_on_tcp_and_the_relay_serves_nothing_but_its_token(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, _ = recorder(f"{web}/pantry/index.html", "no-port")
    pipe_browsers = {
        p for p in _browser_pids() if b"--remote-debugging-pipe" in Path(f"/proc/{p}/cmdline").read_bytes()
    }
    assert pipe_browsers, "the recording's browser runs on a pipe"
    assert not [p for p in _browser_pids() if b"--remote-debugging-port" in Path(f"/proc/{p}/cmdline").read_bytes()]
    assert _listeners_of(_browser_pids()) == []
    relay = rec.endpoint.replace("ws://", "http://")
    base = relay.rsplit("/", 1)[0]
    for path in ("/json/version", "/json/list", "/json", "/json/new?file:///etc/passwd", "/"):
        assert _get(base + path) == 404, path
    assert _get(relay) == 404  # the token's path itself: a WebSocket, or nothing
    guessed = rec.endpoint[:-1] + ("0" if rec.endpoint[-1] != "0" else "1")
    from playwright.sync_api import Error

    with pytest.raises(Error):
        rec.pw.chromium.connect_over_cdp(guessed, timeout=5000)
    rec.stop()


def test_the_relay_refuses_a_pages_connection_and_a_frame_past_the_daemons_limit_and_serves_on(
    cli: Cli, web: str, recorder: Any
) -> None:
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    from replay.drivers.web.relay import MAX_FRAME
    from replay.session.protocol import MAX_MESSAGE

    assert MAX_FRAME == MAX_MESSAGE
    rec, out = recorder(f"{web}/hostile/recorder.html", "relay-limits")
    with pytest.raises(InvalidStatus):  # a page's script may know the token no more than its Origin hides
        connect(rec.endpoint, origin="http://evil.example", open_timeout=5)  # type: ignore[arg-type]
    with connect(rec.endpoint, max_size=None, open_timeout=5) as big:
        with pytest.raises(ConnectionClosed):
            big.send('{"id":1,"method":"Browser.getVersion","params":{"x":"' + "a" * (MAX_FRAME + 1) + '"}}')
            big.recv(timeout=10)
    rec.click("#save")  # the daemon and the recording go on
    (saved,) = rec.steps()
    assert "Save" in saved["line"]
    rec.stop()


@pytest.mark.own_daemon
def test_a_recording_browser_dies_with_its_daemon(cli: Cli, web: str, recorder: Any) -> None:
    recorder(f"{web}/pantry/index.html", "dies-with-daemon")
    browsers = _recording_browsers_of(cli.home)
    assert browsers, "the recording's browser runs on a pipe, under the daemon"
    daemon = int((Path(cli.home) / "daemon.pid").read_text())
    for pid in browsers:  # a browser that reads nothing (the audit's: busy with a 64 MiB frame) notices no EOF
        os.kill(pid, signal.SIGSTOP)
    os.kill(daemon, signal.SIGKILL)  # the audit's wedged daemon, killed: nothing of it may run on
    try:
        assert wait_until(lambda: not any(pid_alive(pid) for pid in browsers), timeout=10.0), browsers
    finally:
        for pid in browsers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user needs root (the token check covers it)")
def test_another_user_finds_no_endpoint_that_drives_the_recording(cli: Cli, web: str, recorder: Any) -> None:
    rec, _ = recorder(f"{web}/pantry/index.html", "other-user")
    base = rec.endpoint.replace("ws://", "http://").rsplit("/", 1)[0]
    probe = (
        "import glob, re, sys, urllib.request, urllib.error\n"
        "ports = set()\n"
        "for table in ('/proc/net/tcp', '/proc/net/tcp6'):\n"
        "    for row in open(table).read().splitlines()[1:]:\n"
        "        c = row.split()\n"
        "        if c[3] == '0A': ports.add(int(c[1].rsplit(':', 1)[1], 16))\n"
        "opened = []\n"
        "for port in sorted(ports):\n"
        "    for path in ('/json/version', '/json/list'):\n"
        "        try:\n"
        "            body = urllib.request.urlopen(f'http://127.0.0.1:{port}{path}', timeout=2).read()\n"
        "            if b'webSocketDebuggerUrl' in body or b'Browser' in body: opened.append((port, path))\n"
        "        except Exception: pass\n"
        f"try: urllib.request.urlopen('{base}/json/version', timeout=2)\n"
        "except urllib.error.HTTPError as e: print('relay', e.code)\n"
        "print('opened', opened)\n"
    )
    done = subprocess.run(
        ["/usr/bin/python3", "-c", probe], user=65534, group=65534, capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert done.returncode == 0, done.stderr
    assert "relay 404" in done.stdout and "opened []" in done.stdout, done.stdout
    rec.stop()


def test_each_recording_has_a_browser_of_its_own(cli: Cli, web: str, recorder: Any) -> None:
    first, _ = recorder(f"{web}/pantry/index.html", "own-1")
    second, _ = recorder(f"{web}/shop/index.html", "own-2", pw=first.pw)
    assert first.endpoint != second.endpoint
    seen = [p.url for c in second.browser.contexts for p in c.pages]
    assert seen == [f"{web}/shop/index.html"], seen
    second.stop()
    first.stop()


def test_no_page_script_adds_changes_stops_or_blinds_a_recording(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/hostile/recorder.html", "hostile")
    rec.page.evaluate("forge()")  # synthetic clicks, a value set by script, a synthetic change, a forged Stop
    rec.click("#name")
    rec.steps()
    rec.type("Ada")
    rec.click("#save")
    steps = rec.steps(2)
    assert [s["command"] for s in steps] == ["fill", "click"], steps
    assert '"Ada"' in steps[0]["line"] and "Save" in steps[1]["line"]
    assert "Saved Ada" in steps[1].get("effect", ""), steps[1]
    stolen = rec.page.evaluate("window.stolen")
    assert not [s for s in stolen if '"seq"' in s or "token" in s.lower() or '"path"' in s], stolen
    assert rec.stop()["script"] == str(out)
    script = out.read_text()
    assert "Delete" not in script and '"X"' not in script and "upload" not in script
    replays_clean(cli, out)


def test_what_the_person_typed_is_written_and_a_value_the_page_put_there_is_said(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/hostile/recorder.html", "chosen")
    rec.click("#nick")
    rec.steps()
    rec.type("hi")  # the page then sets "PAGE-CHOSEN-89" and blurs the field
    (filled,) = rec.steps()
    assert filled["line"].endswith('"hi"'), filled
    assert "PAGE-CHOSEN-89" in filled.get("warning", ""), filled
    rec.stop()
    assert "PAGE-CHOSEN" not in out.read_text()


def _fast_sign_in(rec: Recording, to_password: str) -> None:
    """A person signing in at ``KEY_MS`` a key, with no pause after a click or a Tab."""
    rec.click("#email")
    rec.page.keyboard.type("ada@example.com", delay=KEY_MS)
    if to_password == "tab":
        rec.page.keyboard.press("Tab")
    else:
        rec.click("#password")
    rec.page.keyboard.type(PASSWORD, delay=KEY_MS)
    rec.page.keyboard.press("Enter")


@pytest.mark.parametrize("to_password", ["tab", "click"])
def test_a_fast_typist_on_busy_cpus_records_exactly_the_fields_and_values_typed(
    cli: Cli, web: str, recorder: Any, to_password: str
) -> None:
    rec, out = recorder(f"{web}/banking/v1/login.html", f"typist-{to_password}")
    with busy_cpus():
        _fast_sign_in(rec, to_password)
        events = []
        while not any(e["event"] == "step" and e["command"] == "press" and "Enter" in e["line"] for e in events):
            event = rec.next_event()
            assert event["event"] in ("step", "variable"), event
            events.append(event)
    stopped = rec.stop()
    lines = [e["line"] for e in events if e["event"] == "step"]
    fills = [line for line in lines if line.startswith("fill ")]
    assert len(fills) == 2, lines
    assert 'id=\\"email\\"' in fills[0] and fills[0].endswith('"ada@example.com"'), lines
    assert 'id=\\"password\\"' in fills[1] and fills[1].endswith('"${PASSWORD}"'), lines
    assert not [line for line in lines if line.startswith("press ") and not line.endswith(("Tab", "Enter"))], lines
    assert stopped["variables"] == ["PASSWORD"]
    digits = "".join(ch for ch in PASSWORD if ch.isdigit())
    for path in [*Path(cli.home).rglob("*"), *Path(cli.cwd).rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            assert PASSWORD.encode() not in data and digits.encode() not in data, path
    replays_clean(cli, out, "-e", f"PASSWORD={PASSWORD}")


def test_a_secret_stays_secret_is_never_a_reserved_name_and_no_echo_of_it_is_written(
    cli: Cli, web: str, recorder: Any
) -> None:
    secret = "Qx8vRt-9Kw2"
    rec, out = recorder(f"{web}/hostile/signin.html", "echoes")
    rec.click("#user")
    rec.type("ada")
    rec.click("#key")  # a password field (labelled "Replay session")…
    rec.steps(3)
    rec.click("#show")  # …shown as text before anything is typed in it
    rec.steps()
    rec.click("#key")
    rec.steps()
    rec.type(secret)
    with rec.page.expect_event("dialog") as shown:  # the app echoes it: its start in a dialog, …
        rec.click("#go")
    shown.value.accept()  # (the person answers it in the browser)
    rec.steps(3)  # the fill, the click and the dialog's answer (…upper-cased and reversed on the page)
    stopped = rec.stop()
    assert stopped["variables"] == ["SECRET_REPLAY_SESSION"], stopped
    script = out.read_text()
    assert '"${SECRET_REPLAY_SESSION}"' in script
    said = json.dumps(rec.seen, ensure_ascii=False)  # every event of `--json`, as the terminal shows them too
    for form in (secret, secret.upper(), secret[::-1]):
        for i in range(len(form) - 3):
            assert form[i : i + 4].casefold() not in script.casefold(), form[i : i + 4]
            assert form[i : i + 4].casefold() not in said.casefold(), (form[i : i + 4], said)
    replays_clean(cli, out, "-e", f"SECRET_REPLAY_SESSION={secret}")


@pytest.mark.own_daemon
def test_a_storm_of_dialogs_never_wedges_the_recorder_and_an_open_dialog_is_no_answer(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/hostile/recorder.html", "storm")
    rec.page.on("dialog", lambda shown: None)  # (the person leaves it open: Playwright would dismiss it)
    rec.click("#storm")  # alert after alert, for ever; nobody answers the one showing at the stop
    (clicked,) = rec.steps()
    assert "Storm" in clicked["line"]
    started = time.monotonic()
    stopped = rec.stop(let_go=False)  # (the test's connection would dismiss the dialog as it goes)
    assert time.monotonic() - started < 10, "Ctrl+C publishes within 10 s whatever the page does"
    rec.let_go()
    assert stopped["script"] == str(out)
    assert not [line for line in out.read_text().splitlines() if line.startswith("alert ")]
    started = time.monotonic()
    assert cli("daemon", "stop", ok=None).returncode == 0
    assert time.monotonic() - started < 10


def test_three_alerts_in_a_row_are_three_answers_in_their_order(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/hostile/recorder.html", "three")
    with rec.page.expect_event("dialog") as first:
        rec.click("#three")
    dialog = first.value
    for n in (1, 2):  # the person reads each and presses OK, the next one showing at once
        assert dialog.message == f"Step {n}"
        with rec.page.expect_event("dialog") as following:
            dialog.accept()
        dialog = following.value
    assert dialog.message == "Step 3"
    dialog.accept()
    clicked, *answered = rec.steps(4)
    assert "Three notes" in clicked["line"]
    assert [a["line"] for a in answered] == [f'alert accept --message "Step {n}"' for n in (1, 2, 3)], answered
    rec.stop()
    replays_clean(cli, out)


def test_a_recording_that_could_not_be_written_or_started_is_refused_before_its_browser_opens(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    from replay.client import Client
    from replay.errors import InvalidArgs

    taken = tmp_path / "taken.ad"
    taken.write_text("kept\n")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    flow = tmp_path / "flow.ad"
    flow.write_text(f"context platform=web\nopen {web}/pantry/index.html\nclose\n")
    url = f"{web}/pantry/index.html"
    before = _recording_browsers_of(cli.home)
    refusals = [
        (["-o", str(taken)], 4, "TARGET_EXISTS"),
        (["-o", str(tmp_path)], 4, "TARGET_EXISTS"),  # a folder
        (["-o", "/dev/full"], 4, "TARGET_EXISTS"),
    ]
    if os.geteuid() != 0:  # (root writes anywhere)
        refusals.append((["-o", str(locked / "out.ad")], 1, "cannot write"))
    for args, code, said in refusals:
        done = cli("record", url, "--headless", "--session", "refused", *args, ok=None)
        assert done.returncode == code and said in done.stderr, (args, done.stderr)
        assert "--save-script" not in done.stderr and "Traceback" not in done.stderr
    done = cli("record", str(flow), "--from", "0", "--headless", "--session", "refused", ok=None)
    assert done.returncode == 2 and "--from 0" in done.stderr, done.stderr
    with pytest.raises(InvalidArgs):
        Client("refused", home=cli.home).record(url, headless=True, flow=str(flow))  # a raw request with both
    assert taken.read_text() == "kept\n"
    assert "refused" not in cli("session", "list").stdout
    assert _recording_browsers_of(cli.home) == before, "none of them left a browser behind"


def test_a_recording_in_which_a_gesture_was_refused_says_so_in_its_exit_code(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/hostile/recorder.html", "refused-gesture")
    rec.click("#fleeting")  # gone before replay can perform the click
    refused = rec.next_event()
    assert refused["event"] == "refused" and "--timeout" not in str(refused.get("hint")), refused
    rec.click("#save")
    (saved,) = rec.steps()
    assert "Save" in saved["line"]
    rec.stop()
    assert rec.proc.returncode == 1
    assert "Fleeting" not in out.read_text()


def test_a_card_security_code_and_a_masked_pin_are_written_as_variables(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/hostile/card.html", "card")
    for field, typed in (("#name", "Ada Lovelace"), ("#csc", "8317"), ("#pin", "2046")):
        rec.click(field)
        rec.type(typed)
    rec.click("#pay")
    stopped = rec.stop()  # at once: what is still held behind a gesture is performed before the script is written
    assert stopped["variables"] == ["PIN", "SECURITY_CODE"], stopped
    script = out.read_text()
    assert '"Ada Lovelace"' in script and "8317" not in script and "2046" not in script
    replays_clean(cli, out, "-e", "SECURITY_CODE=8317", "-e", "PIN=2046")
