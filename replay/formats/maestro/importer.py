"""`replay import`: a Maestro flow (YAML) as a reviewable `.ad` script (design §14, issue 25).

Translation happens here, once, never silently at replay: what has no `.ad` equivalent is refused
with the YAML file, line and column, the command's name and why — every problem of the flow at
once, and nothing written. ``runFlow`` files are read relative to the flow that names them (a
cycle is refused), ``repeat.times`` is expanded (bounded), ``when.platform`` is decided here,
``${NAME}`` stays a variable: the flow's ``env`` becomes `env` lines (the CLI's ``-e`` still
overrides them, as Maestro's does), a ``runFlow``'s ``env`` is its sub-flow's values.
"""

from __future__ import annotations

import os

from replay.errors import InvalidArgs, Location, ReplayError, ScriptErrors
from replay.formats.maestro.commands import HANDLERS, Flow
from replay.formats.maestro.select import Refusal, app_shape, checked_text, quote, substituted
from replay.formats.maestro.yaml_safe import Y, load_documents
from replay.keys import valid_key
from replay.platforms import ANDROID, WEB
from replay.script.text import normalize
from replay.scrubbing import printable

MAX_STEPS = 5_000  # `.ad` lines one import may write (repeats and sub-flows expanded)
MAX_LINE = 4_096  # characters of one written line (a selector's alternatives are bounded before)
CONFIG_KEYS = ("appId", "url", "name", "tags", "env", "onFlowStart", "onFlowComplete")
REFUSED = {
    "retry": "replay re-runs a failed script from the suite (--retries), not a block",
    "runScript": "JavaScript does not run in replay",
    "evalScript": "JavaScript does not run in replay",
    "assertTrue": "a JavaScript condition: JavaScript does not run in replay",
    "copyTextFrom": "replay has no clipboard",
    "pasteText": "replay has no clipboard",
    "setClipboard": "replay has no clipboard",
}


class Importer:
    """Translates one top-level flow and the sub-flows it runs."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []
        self.problems: list[ReplayError] = []
        self.platform = ANDROID
        self.app: str | None = None
        self.reading: list[str] = []  # the runFlow files open now (a cycle is refused)
        self.closed = False
        self.steps = 0
        self.config_env: dict[str, str] = {}  # the config's env: what repeat.times may name
        self.origins: list[Location | None] = []  # each written line's YAML place (None: a comment)

    # the flow --------------------------------------------------------------------------------

    def translate(self, text: str | None = None) -> str:
        """The `.ad` text, or ``ScriptErrors`` holding every problem (nothing is written)."""
        docs = self._documents(self.path, text)
        config, commands = (docs[0], docs[1]) if len(docs) >= 2 else (None, docs[0] if docs else None)
        header = [f"# imported from {os.path.basename(self.path)} (Maestro) by `replay import`: review it"]
        env_lines: list[str] = []
        if config is not None:
            header, env_lines = self._config(config, header)
        flow = Flow(self.path)
        if config is not None and "onFlowStart" in config.value:
            self._commands(config.value["onFlowStart"], flow)
        if commands is not None:
            self._commands(commands, flow)
        if config is not None and "onFlowComplete" in config.value:
            self.comment("onFlowComplete (Maestro runs it after a failure too; replay, after success only)")
            self._commands(config.value["onFlowComplete"], flow)
        if self.problems:
            raise ScriptErrors(self.problems)
        context = [
            f"context platform={self.platform}" + (f" app={self.app}" if self.app and self.platform == ANDROID else "")
        ]
        text = "\n".join(header + context + env_lines + self.lines) + "\n"
        self._plan(text, len(header) + len(context) + len(env_lines))
        return text

    def _plan(self, text: str, first: int) -> None:
        """The written script read back and planned as `replay run` would, before anything is
        published: a problem is refused at the YAML line of the command that wrote its line."""
        from replay.script.parser import parse_collect
        from replay.script.plan import plan_problems

        script, errors = parse_collect(text, self.path)
        if script is not None:
            errors += plan_problems(script)[1]
        for err in errors:
            line = err.location.line if err.location is not None else None
            where = (
                self.origins[line - first - 1] if line is not None and 0 < line - first <= len(self.origins) else None
            )
            self.problems.append(
                InvalidArgs(
                    f"the imported step would not run: {err.message}",
                    hint=err.hint or "see docs/maestro.md",
                    location=where or Location(self.path),
                )
            )
        if self.problems:
            raise ScriptErrors(self.problems)

    def _documents(self, path: str, text: str | None) -> list[Y]:
        from replay.script.loader import read_text

        source = read_text(path, what="Maestro flow") if text is None else text
        docs = load_documents(source, path)
        if not docs or len(docs) > 2:
            raise InvalidArgs(
                f"{path}: a Maestro flow is a config document, `---`, then a list of commands",
                hint="see docs/maestro.md",
                location=Location(path, 1),
            )
        return docs

    def _config(self, config: Y, header: list[str]) -> tuple[list[str], list[str]]:
        if not config.is_map:
            self._refuse(self.path, config, "the config document must be a map (appId, env, …)")
            return header, []
        env_lines = []
        for key, value in config.value.items():
            if key not in CONFIG_KEYS:
                self._refuse(self.path, value, f"config {key}: not a field replay imports")
        try:
            if "url" in config.value:
                self.platform, self.app = WEB, checked_text(config.value["url"], "url")
            if "appId" in config.value:
                self.app = app_shape(config.value["appId"], checked_text(config.value["appId"], "appId"), "appId")
        except Refusal as r:
            self._refuse(self.path, r.at, r.message, r.hint)
        if "name" in config.value:
            header.append(f"# name: {comment_text(config.value['name'])}")
        if "tags" in config.value and config.value["tags"].is_list:
            header.append("# tags: " + ", ".join(comment_text(t) for t in config.value["tags"].value))
        env = config.value.get("env")
        if env is not None and env.is_map:
            for name, value in env.value.items():
                try:
                    text = checked_text(value, f"env {name}")
                    env_lines.append(f"env {_env_name(name, value)}={quote(text)}")
                    self.config_env[name] = text
                except Refusal as r:
                    self._refuse(self.path, r.at, r.message, r.hint)
        return header, env_lines

    def _commands(self, commands: Y, flow: Flow) -> None:
        if not commands.is_list:
            self._refuse(flow.path, commands, "the commands must be a list")
            return
        for item in commands.value:
            try:
                self._command(substituted(item, flow.values), flow)
            except Refusal as r:
                self._refuse(flow.path, r.at, r.message, r.hint)

    def _command(self, item: Y, flow: Flow) -> None:
        if item.is_scalar:
            name, arg = item.value, None
        elif item.is_map and len(item.value) == 1:
            name, arg = next(iter(item.value.items()))
        else:
            raise Refusal(item, "a command is a name, or a map of one name to its arguments")
        if self.closed:
            raise Refusal(item, f"{name} after stopApp: replay has no command that stops an app and goes on")
        if name in REFUSED:
            raise Refusal(item, f"{name}: {REFUSED[name]}")
        handler = HANDLERS.get(name)
        if handler is None:
            raise Refusal(item, f"{name}: not a Maestro command replay imports", hint="see docs/maestro.md")
        try:
            handler(self, item, arg, flow)
        except Refusal as r:
            if not r.message.startswith(name):
                r.message = f"{name} {r.message}" if ":" in r.message.split()[0] else f"{name}: {r.message}"
            raise

    # writing --------------------------------------------------------------------------------

    def emit(self, at: Y, line: str, flow: Flow, notes: list[str] | None = None) -> None:
        """One `.ad` line for the command at ``at``, its values already quoted or shape-checked (the
        whole script is read back and planned once it is written, each problem said at ``at``)."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise Refusal(at, f"the flow expands to more than {MAX_STEPS} steps (repeat, runFlow)")
        if len(line) > MAX_LINE:
            raise Refusal(at, f"the translation is a line of over {MAX_LINE} characters")
        if "\n" in line or "\r" in line:
            raise Refusal(at, "a value holds a line break: it would write more than one line")
        for note in notes or []:
            self.note(note)
        self.lines.append(line)
        self.origins.append(Location(flow.path, at.line, at.column))

    def note(self, text: str) -> None:
        """A ``# maestro:`` comment line (never a step, whatever the YAML held)."""
        self.comment(f"maestro: {text}")

    def comment(self, text: str) -> None:
        """A comment line: one line, control characters escaped."""
        self.lines.append(f"# {printable(' '.join(text.split()))}")
        self.origins.append(None)

    def _refuse(self, path: str, at: Y, message: str, hint: str | None = None) -> None:
        self.problems.append(
            InvalidArgs(message, hint=hint or "see docs/maestro.md", location=Location(path, at.line, at.column))
        )


def _env_name(name: str, at: Y) -> str:
    if not valid_key(name):
        raise Refusal(at, f"env {name}: `.ad` variable names are [A-Z][A-Z0-9_]*, not REPLAY_ or AD_", hint="rename it")
    return name


def comment_text(y: Y) -> str:
    """A config value shown in a header comment: one line, control characters escaped."""
    return printable(normalize(str(y.value if y.is_scalar else "")) or "")


def import_flow(path: str, text: str | None = None) -> str:
    """The `.ad` script of the Maestro flow at ``path`` (``text``: its content, if already read)."""
    return Importer(path).translate(text)
