"""YAML read safely for Maestro flows (design §14, issue 25): pyyaml's safe parser only, nothing
constructed but strings, numbers, booleans, lists and maps, and bounded — the text's size, its
nesting depth (checked on the event stream, before anything recursive runs, and again as aliases
expand: a chain of aliases nests deeper than its text), and the number of values it expands to
through anchors and aliases (a "billion laughs" document stops after ``MAX_VALUES``, in time
linear in that bound). A key written twice in one map is refused (YAML says keys are unique; a
parser that keeps the last drops the others silently). Every value keeps its line and column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from replay.errors import InvalidArgs, Location

MAX_BYTES = 1024 * 1024  # a flow is a few KB; Maestro's largest conformance flow is far below
MAX_DEPTH = 64  # nesting of lists and maps
MAX_VALUES = 20_000  # values after alias expansion (a 100-command flow has ~1,000)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built with it: the same rules, faster
STANDARD = "tag:yaml.org,2002:"
SCALARS = {"str", "int", "float", "bool", "null"}


@dataclass(frozen=True)
class Y:
    """One YAML value and where it starts: ``value`` is a ``str`` (any scalar, as written), a list of
    ``Y`` or a dict of key → ``Y``; ``kind`` the scalar's resolved type (``str``, ``int``, ``bool``…)."""

    value: Any
    line: int
    column: int
    kind: str = "str"

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list)

    @property
    def is_scalar(self) -> bool:
        return isinstance(self.value, str)

    def truthy(self) -> bool | None:
        """A YAML boolean's value (``true``/``false``, ``yes``/``no``, ``on``/``off``), else None."""
        if self.kind != "bool":
            return None
        return self.value.lower() in ("true", "yes", "on")


def load_documents(text: str, path: str) -> list[Y]:
    """Every document of ``text`` (``path`` for messages), or ``InvalidArgs`` at its line and column."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise InvalidArgs(f"{path}: the flow is over {MAX_BYTES // 1024} KiB", hint="is it a Maestro flow?")
    try:
        _check_depth(text, path)
        nodes = list(yaml.compose_all(text, Loader=LOADER))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark is not None else Location(path)
        raise InvalidArgs(f"not valid YAML: {exc.problem or exc.context}", location=where) from None
    except yaml.YAMLError as exc:
        raise InvalidArgs(f"not valid YAML: {exc}", location=Location(path)) from None
    budget = [MAX_VALUES]
    return [_value(node, path, budget, 0) for node in nodes if node is not None]


def _check_depth(text: str, path: str) -> None:
    depth = 0
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise InvalidArgs(
                    f"the YAML nests deeper than {MAX_DEPTH} levels",
                    hint="a Maestro flow is a list of commands",
                    location=Location(path, mark.line + 1, mark.column + 1) if mark else Location(path),
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _value(node: yaml.Node, path: str, budget: list[int], depth: int) -> Y:
    budget[0] -= 1
    where = (node.start_mark.line + 1, node.start_mark.column + 1)
    if budget[0] < 0:
        raise InvalidArgs(
            f"the YAML expands to more than {MAX_VALUES} values (anchors and aliases)",
            hint="a flow that repeats itself through aliases this much is refused",
            location=Location(path, *where),
        )
    if depth > MAX_DEPTH:
        raise InvalidArgs(
            f"the YAML nests deeper than {MAX_DEPTH} levels once its aliases are expanded",
            hint="a Maestro flow is a list of commands",
            location=Location(path, *where),
        )
    tag = node.tag or ""
    if isinstance(node, yaml.ScalarNode):
        kind = tag[len(STANDARD) :] if tag.startswith(STANDARD) else ""
        if kind not in SCALARS and kind != "timestamp":
            _refuse_tag(tag, path, where)
        return Y(str(node.value), *where, kind="str" if kind == "timestamp" else kind)
    if isinstance(node, yaml.SequenceNode):
        if tag != STANDARD + "seq":
            _refuse_tag(tag, path, where)
        return Y([_value(item, path, budget, depth + 1) for item in node.value], *where)
    if tag != STANDARD + "map":
        _refuse_tag(tag, path, where)
    out: dict[str, Y] = {}
    for key_node, value_node in node.value:
        key = _value(key_node, path, budget, depth + 1)
        if not key.is_scalar:
            raise InvalidArgs("a map key must be a plain word", location=Location(path, key.line, key.column))
        if key.value in out:
            first = out[key.value]
            raise InvalidArgs(
                f"the key {key.value!r} is written twice in one map (first at line {first.line})",
                hint="keep one of them: YAML keys are unique",
                location=Location(path, key.line, key.column),
            )
        out[key.value] = _value(value_node, path, budget, depth + 1)
    return Y(out, *where)


def _refuse_tag(tag: str, path: str, where: tuple[int, int]) -> None:
    raise InvalidArgs(
        f"the YAML tag {tag!r} is not allowed: a flow holds strings, numbers, booleans, lists and maps only",
        hint="remove the tag",
        location=Location(path, *where),
    )
