"""A new backend is one package under ``replay/drivers/`` and one line in the factory list: a toy
backend, with an option of its own, added to a copy of the package (nothing else edited), runs a
script through the CLI, MCP and the pytest plugin — each given the toy's own option."""

from __future__ import annotations

import asyncio
import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from .conftest import private_home, stop_daemon

ROOT = Path(__file__).resolve().parents[2]

# the toy: one screen whose button greets with the toy's own option, `greeting`
TOY = '''"""A toy backend: one screen; its button says the greeting the session was made with."""

from replay.options import Option

OPTIONS = (Option("greeting", default="Hello", metavar="WORD", help="toy: how the button greets."),)


def new_backend(options, *, recording):
    return ToyBackend(options["greeting"])


class ToyBackend:
    def __init__(self, greeting):
        self.greeting, self.up = greeting, False

    async def start(self):
        self.up = True

    def alive(self):
        return self.up

    async def new_driver(self):
        return ToyDriver(self.greeting)

    async def stop(self):
        self.up = False


class ToyDriver:
    def __init__(self, greeting):
        self.greeting, self.greeted, self.closed, self.url = greeting, False, False, "toy://blank"

    async def capture(self, generation, keep=None):
        from replay.tree.model import build_capture

        said = f" text='{self.greeting}, world'" if self.greeted else ""
        xml = (
            "<node i='0' role='document' tag='html' x='0' y='0' w='400' h='300' f='3' label='Toy'>"
            "<node i='1' role='button' tag='button' x='10' y='10' w='80' h='30' f='323' label='Greet' text='Greet'>"
            f"</node><node i='2' role='paragraph' tag='p' x='10' y='50' w='200' h='20' f='67'{said}></node></node>"
        )
        raw = {"generation": generation, "url": self.url, "title": "Toy", "viewport": [400, 300], "xml": xml}
        return build_capture(raw, "/")

    async def act(self, generation, index, gesture, timeout_ms):
        from replay.drivers.base import Click

        if isinstance(gesture, Click) and index == 1:
            self.greeted = True
        return None

    async def locate(self, generation, index, in_generation):
        return index

    async def is_attached(self, generation, index):
        return True

    async def navigate(self, request, timeout_ms):
        self.url, self.greeted = request.target, False

    async def history(self, direction, timeout_ms):
        pass

    async def keyboard(self, kind, text):
        pass

    async def scroll(self, direction, amount):
        pass

    async def wait(self, ms):
        pass

    async def screenshot(self, path, full_page):
        open(path, "wb").close()

    def location(self):
        return self.url

    def shared_screen(self):
        return None

    def alive(self):
        return not self.closed

    async def close(self):
        self.closed = True
'''

FLOW = """context platform=toy
open toy://home
click "Greet"
is visible "Hi, world"
"""


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A copy of the package with the toy backend added; an environment that runs that copy."""
    base = tmp_path_factory.mktemp("toy")
    src = base / "src"
    shutil.copytree(ROOT / "replay", src / "replay", ignore=shutil.ignore_patterns("__pycache__"))
    (src / "replay" / "drivers" / "toy").mkdir()
    (src / "replay" / "drivers" / "toy" / "__init__.py").write_text(TOY, encoding="utf-8")
    platforms = src / "replay" / "platforms.py"
    text = platforms.read_text(encoding="utf-8")
    platforms.write_text(text.replace("BACKENDS = {\n", 'BACKENDS = {\n    "toy": "replay.drivers.toy",\n'))
    (base / "flow.ad").write_text(FLOW, encoding="utf-8")
    with private_home() as home:
        env = {**os.environ, "PYTHONPATH": str(src), "REPLAY_HOME": home, "REPLAY_DAEMON_LINGER": "60"}
        for inherited in ("REPLAY_SESSION", "PYTEST_XDIST_WORKER"):  # (the plugin's daemon: workers/pytest-main)
            env.pop(inherited, None)
        try:
            yield base, env
        finally:
            stop_daemon(os.path.join(home, "workers", "pytest-main"))


def replay(base: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "replay", *args], env=env, cwd=base, capture_output=True, text=True, timeout=60
    )


def test_the_toy_backend_is_its_package_and_one_factory_line(toy: Any) -> None:
    base, _ = toy
    copied = base / "src" / "replay"
    changed = [
        str(p.relative_to(copied))
        for p in sorted(copied.rglob("*.py"))
        if not (ROOT / "replay" / p.relative_to(copied)).exists()
        or p.read_bytes() != (ROOT / "replay" / p.relative_to(copied)).read_bytes()
    ]
    assert changed == ["drivers/toy/__init__.py", "platforms.py"]
    before = (ROOT / "replay" / "platforms.py").read_text().splitlines()
    after = (copied / "platforms.py").read_text().splitlines()
    added = [line for line in difflib.ndiff(before, after) if line[:1] in "+-"]
    assert added == ['+     "toy": "replay.drivers.toy",']


def test_a_script_runs_on_the_toy_backend_through_the_cli_with_its_own_option(toy: Any) -> None:
    base, env = toy
    done = replay(base, env, "run", "flow.ad", "--greeting", "Hi", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    other = replay(base, env, "run", "flow.ad", "--greeting", "Bye")  # the option reaches the backend
    assert other.returncode != 0 and "Hi, world" in other.stdout + other.stderr
    assert "--greeting WORD" in replay(base, env, "run", "--help").stdout


def test_a_script_runs_on_the_toy_backend_through_mcp_with_its_own_option(toy: Any) -> None:
    base, env = toy
    params = StdioServerParameters(command=sys.executable, args=["-m", "replay", "mcp"], env=env, cwd=str(base))

    async def go() -> tuple[Any, Any, Any]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            tools = {t.name: t for t in (await s.list_tools()).tools}
            passed = await s.call_tool("replay_run", {"path": str(base / "flow.ad"), "greeting": "Hi"})
            failed = await s.call_tool("replay_run", {"path": str(base / "flow.ad"), "greeting": "Bye"})
            return tools["replay_run"].input_schema, passed, failed

    schema, passed, failed = asyncio.run(go())
    assert "greeting" in schema["properties"]
    assert passed.is_error is False, passed.content
    assert failed.is_error is True


def test_a_script_runs_on_the_toy_backend_through_the_pytest_plugin_with_its_own_option(toy: Any) -> None:
    base, env = toy
    pytest_args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "flow.ad", "-m", "toy"]
    passed = subprocess.run(
        [*pytest_args, "--replay-greeting", "Hi"], env=env, cwd=base, capture_output=True, text=True, timeout=120
    )
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout + passed.stderr
    failed = subprocess.run(
        [*pytest_args, "--replay-greeting", "Bye"], env=env, cwd=base, capture_output=True, text=True, timeout=120
    )
    assert failed.returncode == 1 and "1 failed" in failed.stdout, failed.stdout + failed.stderr
