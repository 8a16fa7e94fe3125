"""The hostile-input probe: bad inputs to every command, each judged clean or not (SPEC §12).

    scripts/probe            # set up, then print the table that docs/reliability.md records

Each probe runs the `replay` command a user types against a real daemon, a real Chromium and the
fixture apps. A probe is **clean** when it ends within its time limit with a documented exit code,
an error line ``CODE: message`` (a ``file:line`` where the input has one) and no traceback or
``INTERNAL`` error — or, for an input that is valid after all, succeeds. Anything else is listed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fixtures.serve import serve  # noqa: E402

REPLAY = str(Path(sys.executable).with_name("replay"))
DOCUMENTED_EXITS = {0, 1, 2, 3, 4}
HEAL_EXITS = frozenset({0, 1, 2, 4, 5, 6})  # replay heal: 5 healed pending review, 6 escalated
# `error: [where: ]CODE: message`, or click's own usage error (exit 2)
ERROR_LINE = re.compile(r"^(?:error: (?:.+?: )?[A-Z][A-Z_]+: |Error: )", re.M)


FIFO = None  # in Probe.files: a named pipe nobody writes to


@dataclass(frozen=True)
class Link:
    """In Probe.files: a symbolic link to ``target``."""

    target: str


@dataclass
class Probe:
    area: str
    what: str
    argv: list[str]
    files: dict[str, str | bytes | Link | None] | None = None
    timeout: float = 30.0
    ok_exit: frozenset[int] = frozenset(DOCUMENTED_EXITS)
    env: dict[str, str] | None = None  # over the probe's environment (a daemon's settings, another home)
    refuse: bool = False  # the input must be refused: accepting it is a defect ("wrongly accepted")
    hides: str | None = None  # a secret the output must never show ("leaked")
    lints: str | None = None  # a script the command writes, which must then lint


@dataclass
class Outcome:
    probe: Probe
    exit: int | None
    verdict: str  # clean | traceback | internal | no error line | hang | undocumented exit
    detail: str


def _bad_scripts() -> list[tuple[str, str | bytes]]:
    """(what, text) of scripts `lint`, `digest`, `fmt` and `run` must refuse cleanly."""
    head = "context platform=web\n"
    return [
        ("empty file", ""),
        ("only a comment", "# nothing\n"),
        ("unknown command", head + "clik id=a\n"),
        ("unterminated quote", head + 'click "Save\n'),
        ("unterminated single quote", head + "click 'Save\n"),
        ("bad escape", head + 'fill id=a "\\q"\n'),
        ("lone surrogate escape", head + 'fill id=a "\\ud800x"\n'),
        ("invalid UTF-8 bytes", b"context platform=web\nopen http://x/\xff\xfe\n"),
        ("NUL byte", head + "open http://x/\x00\n"),
        ("BOM then text", "\ufeff" + head + "open http://x/\n"),
        ("CRLF line ends", head.replace("\n", "\r\n") + "open http://x/\r\n"),
        ("unknown context key", "context platform=web colour=red\n"),
        ("duplicate context key", "context platform=web platform=web\n"),
        ("unknown platform", "context platform=amiga\n"),
        ("huge context timeout", "context platform=web timeout=99999999999999999999\n"),
        ("zero context timeout", "context platform=web timeout=0\n"),
        ("negative context timeout", "context platform=web timeout=-5\n"),
        ("retries 4", "context platform=web retries=4\n"),
        ("retries of 30 digits", "context platform=web retries=" + "0" * 29 + "1\n"),
        ("context after an action", head + "open http://x/\ncontext platform=web\n"),
        ("env after an action", head + "open http://x/\nenv A=1\n"),
        ("env lower-case key", head + "env a=1\n"),
        ("env reserved prefix", head + "env REPLAY_X=1\n"),
        ("env without value", head + "env A\n"),
        ("unresolved variable", head + "open ${NOPE}\n"),
        ("unterminated variable", head + "open ${NOPE\n"),
        ("empty variable name", head + "open ${}\n"),
        ("wait of 400 digits", head + "wait " + "9" * 400 + "\n"),
        ("wait of 5,000 digits", head + "wait " + "9" * 5000 + "\n"),
        ("wait over an hour", head + "wait 3600001\n"),
        ("wait negative", head + "wait -1\n"),
        ("wait text with 400-digit ms", head + 'wait text "x" ' + "9" * 400 + "\n"),
        ("ref of 5,000 digits", head + "click @e" + "1" * 5000 + "\n"),
        ("ref @e0", head + "click @e0\n"),
        ("ref in a script", head + "click @e3\n"),
        ("empty selector value", head + 'click label=""\n'),
        ("bad regex", head + 'click label~="("\n'),
        ("regex of 600 nested groups", head + "click 'label~=\"" + "(" * 600 + "a" + ")" * 600 + "\"'\n"),
        ("nth not a number", head + "click role=button nth=x\n"),
        ("nth of 20 digits", head + "click role=button nth=" + "9" * 20 + "\n"),
        ("has-text with ~=", head + 'click has-text~="x"\n'),
        ("boolean key with a value", head + "click role=button enabled=maybe\n"),
        ("dangling >>", head + "click role=list >>\n"),
        ("leading >>", head + "click >> role=button\n"),
        ("dangling ||", head + "click id=a ||\n"),
        ("20,000 alternatives", head + "click " + " || ".join(f"id=a{i}" for i in range(20000)) + "\n"),
        ("annotation nested 1,500 deep", head + "# replay:target-v1 " + "[" * 1500 + "]" * 1500 + "\nclick id=a\n"),
        ("annotation not JSON", head + "# replay:target-v1 {nope\nclick id=a\n"),
        ("annotation not an object", head + "# replay:target-v1 [1]\nclick id=a\n"),
        ("annotation without a step", head + '# replay:target-v1 {"role":"button"}\n'),
        ("annotation before open", head + '# replay:target-v1 {"role":"button"}\nopen http://x/\n'),
        ("annotation bad types", head + '# replay:target-v1 {"role":1,"rect":"x"}\nclick id=a\n'),
        ("annotation of 2 MB", head + '# replay:target-v1 {"label":"' + "x" * 2_000_000 + '"}\nclick id=a\n'),
        ("flag before the target", head + "click --record id=a\n"),
        ("unknown flag", head + "click id=a --frobnicate\n"),
        ("--record on a click", head + "click id=a --record\n"),
        ("press an unknown key", head + "press Hyper+Q\n"),
        ("scroll nowhere", head + "scroll sideways\n"),
        ("select without a value", head + "select id=a\n"),
        ("fill without text", head + "fill id=a\n"),
        ("is of an unknown predicate", head + "is purple id=a\n"),
        ("get of an unknown kind", head + "get colour id=a\n"),
        ("find of nothing", head + "find\n"),
        ("one line of 1 MB", head + "open http://x/" + "a" * 1_000_000 + "\n"),
        ("100,000 lines", head + "open http://x/\n" + "back\n" * 100_000),
        # the 2026-12 audit's
        ("a regex that would take 24 GB", head + 'click label~="a{1000000000}"\n'),
        ("a regex of nested counts", head + 'click label~="((a{100}){100}){100}"\n'),
        (
            "annotation label of half a surrogate pair",
            head + '# replay:target-v1 {"role":"button","label":"\\ud800"}\nclick id=a\n',
        ),
        ("nth of 7 digits", head + "click role=button nth=1234567\n"),
        ("single-quoted value holding a double quote", head + "open http://x/\nclick label='say \"hi\"'\n"),
        ("scroll by -1", head + "scroll down -1\n"),
        ("snapshot -d abc", head + "snapshot -d abc\n"),
    ]


def probes(url: str) -> list[Probe]:
    out: list[Probe] = []
    for what, text in _bad_scripts():
        files = {"bad.ad": text}
        for cmd in ("lint", "digest"):
            out.append(Probe(cmd, what, [cmd, "bad.ad"], files))
        out.append(Probe("fmt", what, ["fmt", "--check", "bad.ad"], files))
    ok = {"ok.ad": f"open {url}/shop/index.html\n"}
    surrogate = {"s.ad": f'open {url}/shop/checkout.html\nfill id=name "\\ud800x"\n'}
    for cmd in (["lint"], ["digest"], ["fmt"], ["run"], ["verify"], ["heal", "--agent", "builtin"], ["test"]):
        out.append(Probe(cmd[0], "a FIFO nobody writes", [*cmd, "fifo.ad"], {"fifo.ad": FIFO}, timeout=20))
        out.append(Probe(cmd[0], "a device (/dev/zero)", [*cmd, "/dev/zero"], timeout=20))
    out += [
        Probe(
            "fmt", "through a symlink", ["fmt", "link.ad"], {"real.ad": "open  http://x/\n", "link.ad": Link("real.ad")}
        ),
        Probe("fmt", "--check with --stdout", ["fmt", "--check", "--stdout", "ok.ad"], ok),
        Probe("run", "--plan-digest without --from", ["run", "ok.ad", "--plan-digest", "abc"], ok),
        Probe(
            "test",
            "a slug folder the user owns",
            ["test", "src.ad", "--artifacts-dir", "."],
            {**{"src.ad": ok["ok.ad"]}, "src/keep.txt": "mine"},
        ),
        Probe("test", "--junit /dev/full", ["test", "ok.ad", "--junit", "/dev/full", "--trace", "off"], ok),
        Probe("test", "--html that is a file", ["test", "ok.ad", "--html", "ok.ad"], ok),
        Probe(
            "test",
            "** through a symlink loop",
            ["test", "loop/**/*.ad"],
            {"loop/a.ad": ok["ok.ad"], "loop/up": Link("..")},
        ),
        Probe(
            "heal",
            "--artifacts-dir that is a file",
            ["heal", "ok.ad", "--artifacts-dir", "ok.ad"],
            ok,
            ok_exit=HEAL_EXITS,
        ),
        Probe("heal", "--budget-usd nan", ["heal", "ok.ad", "--budget-usd", "nan"], ok, ok_exit=HEAL_EXITS),
        Probe(
            "daemon",
            "REPLAY_IDLE_TIMEOUT=abc",
            ["open", f"{url}/shop/index.html"],
            env={"REPLAY_HOME": "/tmp/rp-idle-abc", "REPLAY_IDLE_TIMEOUT": "abc"},
        ),
        Probe(
            "daemon", "REPLAY_HOME that is a file", ["snapshot"], {"home-file": ""}, env={"REPLAY_HOME": "home-file"}
        ),
        Probe("daemon", "REPLAY_HOME over 107 bytes", ["snapshot"], env={"REPLAY_HOME": "/tmp/" + "h" * 120}),
        Probe(
            "daemon",
            "a REPLAY_CHROMIUM that is not there",
            ["open", f"{url}/shop/index.html"],
            env={"REPLAY_HOME": "/tmp/rp-nochrome", "REPLAY_CHROMIUM": "/no/such/chrome"},
        ),
        Probe(
            "daemon",
            "--headed with no display",
            ["open", f"{url}/shop/index.html", "--headed"],
            env={"REPLAY_HOME": "/tmp/rp-nodisplay", "DISPLAY": "", "WAYLAND_DISPLAY": ""},
        ),
        Probe("lint", "a file that does not exist", ["lint", "nope.ad"]),
        Probe("lint", "a directory", ["lint", "."]),
        Probe("run", "a file that does not exist", ["run", "nope.ad"]),
        Probe("run", "--from 0", ["run", "ok.ad", "--from", "0"], ok),
        Probe("run", "--from past the end", ["run", "ok.ad", "--from", "99"], ok),
        Probe("run", "--timeout 0", ["run", "ok.ad", "--timeout", "0"], ok),
        Probe("run", "--timeout of 30 digits", ["run", "ok.ad", "--timeout", "9" * 30], {"ok.ad": "open x\n"}),
        Probe("run", "-e without =", ["run", "ok.ad", "-e", "NOPE"], ok),
        Probe(
            "run",
            "-e of 70 KB",
            ["run", "ok.ad", "-e", "A=" + "x" * 70_000],
            ok,
        ),
        Probe("run", "a bad session name", ["run", "ok.ad", "--session", "../x"], {"ok.ad": "open x\n"}),
        Probe(
            "run", "an unreachable URL", ["run", "u.ad", "--timeout", "2000"], {"u.ad": "open http://127.0.0.1:9/\n"}
        ),
        Probe("run", "fill with a lone surrogate", ["run", "s.ad"], surrogate),
        Probe("test", "--from", ["test", ".", "--from", "2"]),
        Probe("test", "a bad shard", ["test", ".", "--shard", "3/2"]),
        Probe("test", "nothing to run", ["test", "nowhere/*.ad"]),
        Probe("heal", "an unknown agent", ["heal", "ok.ad", "--agent", "/no/such/agent"], ok, ok_exit=HEAL_EXITS),
        # the 2026-12-04 audit's (issue 46)
        Probe("run", "-e lower=1", ["run", "ok.ad", "-e", "lower=1"], ok, refuse=True),
        Probe("run", "-e lower=1 --json", ["run", "ok.ad", "-e", "lower=1", "--json"], ok, refuse=True),
        Probe("verify", "-e lower=1", ["verify", "ok.ad", "-e", "lower=1"], ok, refuse=True),
        Probe("run", "--timeout -5 --json", ["run", "ok.ad", "--timeout", "-5", "--json"], ok, refuse=True),
    ]
    out += trust_probes(url)
    session = ["--session", "probe"]
    live: list[tuple[str, list[str]]] = [
        ("click a ref of 5,000 digits", ["click", "@e" + "1" * 5000]),
        ("click a stale ref", ["click", "@e999"]),
        ("click nothing", ["click", "id=nope", "--timeout", "300"]),
        ("a regex that backtracks forever", ["click", 'label~="(a|aa)+$"', "--timeout", "300"]),
        ("the issue's regex", ["click", 'label~="(.|.|.)*!"', "--timeout", "100"]),
        (
            "fill with a lone surrogate",
            ["fill", "id=name", "\udcff".encode("utf-8", "surrogateescape").decode("utf-8", "replace")],
        ),
        ("fill of 70 KB", ["fill", "id=name", "x" * 70_000]),
        ("wait of 400 digits", ["wait", "9" * 400]),
        ("wait 2147483647", ["wait", "2147483647"]),
        ("screenshot over an existing file", ["screenshot", "exists.png"]),
        ("screenshot as .ad", ["screenshot", "x.ad"]),
        ("screenshot in /proc", ["screenshot", "/proc/nope/x.png"]),
        ("screenshot relative", ["screenshot", "shots/rel.png"]),
        ("get of a missing element", ["get", "text", "id=nope", "--timeout", "300"]),
        ("is with a bad predicate", ["is", "purple", "id=name"]),
        ("press an unknown key", ["press", "Hyper+Q"]),
        ("select on a textbox", ["select", "id=name", "x", "--timeout", "500"]),
        ("snapshot with an unknown scope", ["snapshot", "-s", "id=nope"]),
        ("scroll by NaN", ["scroll", "down", "nan"]),
        ("--timeout over an hour", ["click", "id=name", "--timeout", "3600001"]),
        ("close with a bad --save-script dir", ["close", "--save-script", "/proc/nope/x.ad"]),
        # the 2026-12 audit's
        ("select an option that is not there", ["select", "id=country", "Atlantis", "--timeout", "500"]),
        ("get text of @e0, the document", ["get", "text", "@e0"]),
        ("snapshot -s ''", ["snapshot", "-s", ""]),
        ("snapshot -d abc", ["snapshot", "-d", "abc"]),
        ("scroll by -1", ["scroll", "down", "-1"]),
        ("nth of 7 digits", ["click", "role=button nth=1234567"]),
        ("a regex that would take 24 GB", ["click", 'label~="a{1000000000}"']),
        ("close --save-script on a session that does not record", ["close", "--save-script", "x.ad"]),
        # the 2026-12-04 audit's (issue 46)
        ("tab -1", ["tab", "-1"]),
        ("tab 0", ["tab", "0"]),
        ("upload /dev/zero", ["upload", "id=receipt", "/dev/zero"]),
        ("tab new javascript:", ["tab", "new", "javascript:alert(1)"]),
    ]
    # area "secret", not "session": the session is not reopened in between (the field keeps its text)
    out.append(Probe("secret", "fill a password", ["fill", "id=password", SECRET, *session], timeout=60))
    for what in ("value", "attrs"):  # issue 32: whoever holds the session reads no secret back
        argv = ["get", what, "id=password", *session]
        out.append(Probe("secret", f"get {what} of a password field", argv, timeout=60, hides=SECRET))
    for what, argv in live:
        out.append(Probe("session", what, [*argv, *session], {"exists.png": b"mine"}, timeout=60))
    out += [
        Probe("session", "a command on no session", ["snapshot", "--session", "nobody"]),
        Probe("session", "a bad session name", ["snapshot", "--session", "a/b"]),
        Probe("session", "open a non-URL", ["open", "not a url", "--session", "probe2"]),
        Probe("session", "open with invalid UTF-8", ["open", "http://x/\udcff", "--session", "probe3"]),
        # a page whose script never yields, in a session of its own
        Probe("busy", "open a page that will freeze", ["open", f"{url}/hostile/busy.html", "--session", "busy"]),
        Probe("busy", "the click that freezes it", ["click", "id=freeze", "--timeout", "500", "--session", "busy"]),
        Probe("busy", "snapshot of the frozen page", ["snapshot", "--timeout", "500", "--session", "busy"]),
        Probe("busy", "get text, after", ["get", "text", "id=status", "--timeout", "500", "--session", "busy"]),
        Probe("busy", "close it", ["close", "--session", "busy"]),
    ]
    return out + merge_probes()


def merge_probes() -> list[Probe]:
    """Issue 58's: the night's report trusts no shard — its depth, a shard given twice, a record that names
    no script — and a recording from a device file. (What a shard's paths may reach is the unit tests'
    to show: the report writes it to files, not to the console a probe reads.)"""
    deep = "[" * 100_000 + "]" * 100_000

    def shard(name: str, **record: object) -> dict[str, str | bytes | Link | None]:
        return {f"{name}/results.json": json.dumps({"results": [{"path": "a.ad", "status": "passed", **record}]})}

    out = [
        Probe("merge", "results.json 100,000 brackets deep", ["report", "merge", "deep"], {"deep/results.json": deep}),
        Probe("merge", "the same shard twice", ["report", "merge", "one", "one"], shard("one"), refuse=True),
        Probe("merge", "a record whose path is null", ["report", "merge", "nul"], shard("nul", path=None), refuse=True),
        Probe("merge", "a baseline 100,000 brackets deep", ["report", "merge", "one2", "--baseline", "deep.json"],
              {**shard("one2"), "deep.json": deep}),
        Probe("record", "record a device (/dev/zero) from step 1", ["record", "/dev/zero", "--from", "1"], refuse=True),
    ]  # fmt: skip
    return out


SECRET = "Probe-Secret-2291"
LEDGER_HOME = "/tmp/rp-ledger-abc"  # (absolute: main() stops a daemon a probe started there)
APP = "appId: com.example.app"
HOSTILE_FLOWS: list[tuple[str, str, bool]] = [  # what, the YAML, must it be refused
    ("appId with a line break", 'appId: "com.example.app\\nopen http://evil.example/"\n---\n- launchApp\n', True),
    ("appId with shell words", f'{APP}\n---\n- launchApp: "com.example.app;touch X"\n', True),
    ("openLink with a line break", f'{APP}\n---\n- openLink: "myapp://x\\nopen http://evil.example/"\n', True),
    ("swipe duration with a line break", f'{APP}\n---\n- swipe:\n    direction: UP\n    duration: "4\\nback"\n', True),
    ("tags with a line break", f'{APP}\ntags: ["a\\nopen http://evil.example/"]\n---\n- back\n', False),
    (
        "runFlow env value with a quote",
        f"{APP}\n---\n- runFlow:\n    env: {{R: 'a\" id=\"x'}}\n    commands: [tapOn: ${{R}}]\n",
        False,
    ),
    ("repeat times ²", f'{APP}\n---\n- repeat:\n    times: "²"\n    commands: [back]\n', True),
    ("eraseText ٣", f"{APP}\n---\n- eraseText: ٣\n", True),
    ("index ²", f"{APP}\n---\n- tapOn:\n    text: A\n    index: ²\n", True),
    ("an unbalanced regex", f"{APP}\n---\n- tapOn: 'Save (draft'\n", True),
    ("a key written twice", f"{APP}\n---\n- tapOn:\n    text: A\n    text: B\n", True),
    ("runFlow ../x.yaml", f"{APP}\n---\n- runFlow: ../outside.yaml\n", True),
    ("runFlow of an absolute path", f"{APP}\n---\n- runFlow: /etc/passwd\n", True),
    ("a long-press on web", "url: http://127.0.0.1/\n---\n- longPressOn:\n    point: 1,2\n", True),
]


def _child_of(depth: int) -> str:
    selector = "text: A"
    for _ in range(depth):
        selector = f"text: A\n    childOf:\n      {selector.replace(chr(10), chr(10) + '  ')}"
    return f"{APP}\n---\n- tapOn:\n    {selector}\n"


def _agent(result: str) -> str:
    return f"import sys\nsys.stdin.read()\nsys.stdout.buffer.write({result!r}.encode('utf-8', 'surrogateescape'))\n"


def trust_probes(url: str) -> list[Probe]:
    """Issue 32's classes: values that would become commands or reach the device's shell, secrets that
    would be read back or leave in notes, an agent that is not to be trusted, a shared home."""
    out = []
    flows = [*HOSTILE_FLOWS, ("childOf 20 deep", _child_of(20), True)]
    chain = "\n".join(["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 400)])
    flows.append(("an alias chain 400 deep", chain + "\n", True))
    outside = {"outside.yaml": f"{APP}\nenv:\n  K: {SECRET}\n---\n- inputText: ${{K}}\n"}
    for what, text, refuse in flows:
        files = {"in/flow.yaml": text, **outside}
        argv = ["import", "in/flow.yaml", "-o", "imported.ad"]
        out.append(Probe("import", what, argv, files, refuse=refuse, hides=SECRET, lints="imported.ad"))
    for what, line in [
        ("open an app id with shell words", 'open "com.example.shop;touch X"'),
        ("open an empty app id", 'open ""'),
        ("press 1e308 5", "press 1e308 5"),
        ("press nan 5", "press nan 5"),
        ("press inf% 5", "press inf% 5"),
    ]:
        files = {"device.ad": f"context platform=android\n{line}\n"}
        out.append(Probe("android", what, ["lint", "device.ad"], files, refuse=True))
    out.append(
        Probe(
            "android",
            "open an app id with shell words",
            ["open", "--platform", "android", "com.x;touch X"],
            refuse=True,
        )
    )
    flow = (Path(ROOT) / "fixtures" / "flows" / "checkout.ad").read_text()
    drift = ["-e", f"SHOP={url}/drift/renamed", "--timeout", "1500", "--deadline", "20"]
    for what, result in [
        ("an agent that prints Latin-1", '{"status": "done", "notes": ["caf\udce9"]}\n'),
        ("an agent whose cost is abc", '{"status": "done", "cost_usd": "abc"}\n'),
        ("an agent whose cost is NaN", '{"status": "done", "cost_usd": NaN}\n'),
        ("an agent whose cost is -1", '{"status": "done", "cost_usd": -1}\n'),
        ("an agent that tells the password", '{"status": "done", "notes": ["typed correct-horse-battery"]}\n'),
        ("an agent of 10 MB of notes", '{"status": "done", "notes": ["' + "x" * 10_000_000 + '"]}\n'),
    ]:
        files = {"checkout.ad": flow, "agent.py": _agent(result)}
        argv = ["heal", "checkout.ad", *drift, "--agent", f"{sys.executable} agent.py"]
        out.append(Probe("heal", what, argv, files, timeout=90, ok_exit=HEAL_EXITS, hides="correct-horse-battery"))
    agent = {"checkout.ad": flow, "agent.py": _agent('{"status": "done", "conversation_id": "c1"}\n')}
    ledger = {f"{LEDGER_HOME}/heal-ledger.json": '{"c1": {"turns": "abc"}, "c2": 7}', **agent}
    argv = ["heal", "checkout.ad", *drift, "--agent", f"{sys.executable} agent.py"]
    out.append(
        Probe("heal", "a heal ledger whose turns are abc", argv, ledger, 90, HEAL_EXITS, {"REPLAY_HOME": LEDGER_HOME})
    )
    out.append(
        Probe(
            "daemon",
            "REPLAY_HOME a shared folder (1777)",
            ["snapshot"],
            env={"REPLAY_HOME": SHARED_HOME},
            refuse=True,
        )
    )
    return out


SHARED_HOME = "/tmp/rp-shared-1777"


def judge(p: Probe, proc: subprocess.CompletedProcess[str] | None) -> Outcome:
    if proc is None:
        return Outcome(p, None, "hang", f"no answer in {p.timeout:.0f} s")
    err = proc.stderr
    if "Traceback (most recent call last)" in err:
        return Outcome(p, proc.returncode, "traceback", err.strip().splitlines()[-1][:120])
    if "INTERNAL" in err:
        return Outcome(p, proc.returncode, "internal", err.strip().splitlines()[0][:120])
    if p.hides is not None and p.hides in proc.stdout + err:
        return Outcome(p, proc.returncode, "leaked", f"the output shows {p.hides!r}")
    if p.refuse and proc.returncode == 0:
        return Outcome(p, 0, "wrongly accepted", (proc.stdout.strip() or "(accepted)").splitlines()[0][:110])
    if proc.returncode not in p.ok_exit:
        return Outcome(p, proc.returncode, "undocumented exit", err.strip()[:120])
    if p.ok_exit is HEAL_EXITS and proc.returncode in (5, 6) and proc.stdout.strip():  # healed or escalated, said
        said = [line for line in proc.stdout.splitlines() if line.startswith(("escalated", "healed", "rejected"))]
        return Outcome(p, proc.returncode, "clean", (said or proc.stdout.strip().splitlines())[-1][:110])
    if proc.returncode == 3 and "DIVERGENCE" in proc.stdout:  # a divergence report, on stdout
        return Outcome(p, 3, "clean", proc.stdout.strip().splitlines()[0][:110])
    if proc.returncode != 0 and not ERROR_LINE.search(err):
        return Outcome(p, proc.returncode, "no error line", err.strip()[:120])
    said = err.strip() or proc.stdout.strip()
    first = said.splitlines()[0] if said else "(accepted)"
    return Outcome(p, proc.returncode, "clean", first[:110])


def run_probe(p: Probe, cwd: Path, env: dict[str, str]) -> Outcome:
    for name, content in (p.files or {}).items():
        path = cwd / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        path.unlink(missing_ok=True)
        if content is FIFO:
            os.mkfifo(path)
        elif isinstance(content, Link):
            path.symlink_to(content.target)
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    try:
        proc = subprocess.run(
            [REPLAY, *p.argv],
            cwd=cwd,
            env={**env, **(p.env or {})},
            capture_output=True,
            text=True,
            errors="replace",
            timeout=p.timeout,
        )
    except subprocess.TimeoutExpired:
        return judge(p, None)
    outcome = judge(p, proc)
    if outcome.verdict == "clean" and p.lints is not None and proc.returncode == 0:
        check = subprocess.run([REPLAY, "lint", p.lints], cwd=cwd, env=env, capture_output=True, text=True)
        if check.returncode != 0:
            return Outcome(p, 0, "wrote a script that does not lint", check.stderr.strip()[:110])
    for name in [p.lints] if p.lints else []:
        (cwd / name).unlink(missing_ok=True)
    return outcome


def main() -> int:
    os.makedirs(SHARED_HOME, exist_ok=True)
    os.chmod(SHARED_HOME, 0o1777)
    home = tempfile.mkdtemp(prefix="rp-", dir="/tmp")
    env = {**os.environ, "REPLAY_HOME": home, "REPLAY_DAEMON_LINGER": "60"}
    outcomes: list[Outcome] = []
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            cwd = Path(work)
            start = [REPLAY, "open", f"{url}/shop/checkout.html", "--session", "probe"]
            subprocess.run(start, env=env, cwd=cwd, check=True, capture_output=True)
            for p in probes(url):
                outcomes.append(run_probe(p, cwd, env))
                if p.area == "session":  # a probe may close or crash the session: have it again
                    try:
                        subprocess.run(start, env=env, cwd=cwd, capture_output=True, timeout=60)
                    except subprocess.TimeoutExpired:  # e.g. a session an abandoned client still locks
                        outcomes.append(Outcome(Probe("session", f"open after: {p.what}", []), None, "hang", ""))
            # the daemon is still there and answers another session at once
            alive = subprocess.run([REPLAY, "snapshot", "--session", "probe"], env=env, cwd=cwd, capture_output=True)
            outcomes.append(
                Outcome(
                    Probe("session", "the daemon answers after all of it", []),
                    alive.returncode,
                    "clean" if alive.returncode == 0 else "lost",
                    "",
                )
            )
    finally:
        subprocess.run([REPLAY, "daemon", "stop"], env=env, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
        for other in {p.env["REPLAY_HOME"] for p in probes("") if p.env and "REPLAY_HOME" in p.env}:
            if os.path.isabs(other) and os.path.isdir(other):  # a daemon a probe started there
                subprocess.run([REPLAY, "daemon", "stop"], env={**env, "REPLAY_HOME": other}, capture_output=True)
                shutil.rmtree(other, ignore_errors=True)
    clean = [o for o in outcomes if o.verdict == "clean"]
    print(f"# Hostile-input probe: {len(outcomes)} tried, {len(clean)} clean, {len(outcomes) - len(clean)} not\n")
    print("| area | tried | clean | not clean |")
    print("|---|---:|---:|---:|")
    for area in dict.fromkeys(o.probe.area for o in outcomes):
        mine = [o for o in outcomes if o.probe.area == area]
        ok = sum(o.verdict == "clean" for o in mine)
        print(f"| `{area}` | {len(mine)} | {ok} | {len(mine) - ok} |")
    print()
    print("| area | input | exit | verdict | first line |")
    print("|---|---|---:|---|---|")
    for o in outcomes:
        line = o.detail.replace("|", "\\|")
        print(f"| {o.probe.area} | {o.probe.what} | {o.exit if o.exit is not None else '—'} | {o.verdict} | {line} |")
    return 0 if len(clean) == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
