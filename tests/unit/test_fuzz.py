"""A fuzzer over the script grammar: whatever bytes a user or an agent sends, the parser, the
selector and annotation decoders, `digest` and `fmt` end in a result or a documented error —
never another exception — in time linear in the input (SPEC §12)."""

from __future__ import annotations

import gc
import json
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import ALL_ERRORS, Location, ReplayError
from replay.script import parse
from replay.script.evidence import decode
from replay.script.formatter import format_script
from replay.script.parser import parse_action
from replay.script.plan import build_plan
from replay.script.selector import parse_selector

DOCUMENTED = tuple(ALL_ERRORS)
WHERE = Location("fuzz.ad", 1)

# pieces that reach the grammar's corners: quotes, escapes, brackets, operators, refs, numbers
PIECES = st.sampled_from(
    [
        '"',
        "'",
        "\\",
        "\\u",
        "\\ud800",
        "${",
        "}",
        "${A:-",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        "||",
        ">>",
        "=",
        "~=",
        "has-text=",
        "nth=",
        "@e",
        "@e0",
        "@e1",
        "9" * 30,
        "-",
        "--",
        "--timeout",
        "#",
        "# replay:target-v1 ",
        "context ",
        "env ",
        "open ",
        "click ",
        "fill ",
        "wait ",
        "is ",
        "find ",
        "role=",
        "label=",
        "id=",
        " ",
        "\t",
        "\n",
        "é",
        "\x00",
        "\u202e",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=40).map("".join)


def _documented(call: object) -> None:
    try:
        call()  # type: ignore[operator]
    except DOCUMENTED:
        pass
    except ReplayError as err:  # a ScriptErrors carries documented codes
        assert err.code in {e.code for e in DOCUMENTED}, err


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_any_script_text_parses_or_fails_with_a_documented_error(text: str) -> None:
    def lint_digest_fmt() -> None:
        script = parse(text, "fuzz.ad")
        build_plan(script)
        format_script(script)

    _documented(lint_digest_fmt)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_any_action_line_parses_or_fails_with_a_documented_error(line: str) -> None:
    _documented(lambda: parse_action(line, WHERE))


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_any_selector_parses_or_fails_with_a_documented_error(text: str) -> None:
    _documented(lambda: parse_selector(text))


KEYS = st.sampled_from(["role", "label", "id", "ancestry", "rect", "page", "verification", "anchor", "x", "y"])
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5)),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(KEYS, kids, max_size=5)),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_annotation_payload_decodes_or_fails_with_a_documented_error(data: object) -> None:
    _documented(lambda: decode(json.dumps(data), WHERE))


def _seconds(line: str) -> float:
    """CPU seconds of this process (another process on a loaded machine does not count), no GC pause."""
    gc.disable()
    t = time.process_time()
    try:
        parse_action(line, WHERE)
    except ReplayError:
        pass
    finally:
        elapsed = time.process_time() - t
        gc.enable()
    return elapsed


def test_parsing_is_linear_in_the_length_of_a_line() -> None:
    shapes = {
        "alternatives": lambda n: "click " + " || ".join(f"id=a{i}" for i in range(n)),
        "scopes": lambda n: "click " + " >> ".join("role=listitem" for _ in range(n)),
        "quotes": lambda n: 'fill id=x "' + '\\"' * n + '"',
        "brackets": lambda n: "click " + "(" * n,
    }
    for name, make in shapes.items():
        _seconds(make(200))  # warm
        small = min(_seconds(make(1000)) for _ in range(3))
        large = min(_seconds(make(4000)) for _ in range(3))
        assert large / max(small, 1e-6) < 8, f"{name}: 4× the input took {large / small:.1f}× the time"
