"""Hypothesis strategies that build random scripts as models, for round-trip properties."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from replay.errors import ReplayError
from replay.script.ast import Action, Annotation, Blank, Comment, Context, Env, Item, Script, Target
from replay.script.evidence import Ancestor, Rect, Region, TargetEvidence, decode, encode
from replay.script.selector import BOOL_KEYS, HAS_TEXT, NTH, TEXT_KEYS, Alternative, Selector, Term, normalize_text
from replay.script.variables import parse_template

# any Unicode except surrogates (not encodable in a UTF-8 file)
CHARS = st.characters(blacklist_categories=("Cs",))
TRICKY = st.sampled_from(
    ['"', "'", "\\", " ", "  ", "\t", "\n", "||", "=", "~=", "#", "@e1", "--x", "é", "👋", "\u0301"]
)


def plain_text(min_size: int = 0) -> st.SearchStrategy[str]:
    piece = st.one_of(st.text(CHARS, max_size=6), TRICKY)
    return st.lists(piece, min_size=0, max_size=6).map("".join).filter(lambda s: "${" not in s and len(s) >= min_size)


def templated_text(min_size: int = 0) -> st.SearchStrategy[str]:
    ref = st.builds(
        lambda name, default: "${" + name + (":-" + default if default is not None else "") + "}",
        st.from_regex(r"[A-Z][A-Z0-9_]{0,6}", fullmatch=True),
        st.one_of(st.none(), plain_text().filter(lambda s: "}" not in s)),
    )
    # pieces can meet in a "${" no reference opens ("$" then "{"): not a script's text, so not a model
    return (
        st.lists(st.one_of(plain_text(), ref), max_size=3)
        .map("".join)
        .filter(lambda s: len(s) >= min_size and _templates_parse(s))
    )


def _templates_parse(text: str) -> bool:
    try:
        parse_template(text)
    except ReplayError:
        return False
    return True


def nonblank(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return strategy.filter(lambda s: s.strip() != "")


def terms() -> st.SearchStrategy[tuple[Term, ...]]:
    text_term = st.builds(
        lambda key, op, value: Term(key, op, re.escape(value) if op == "~=" else value),
        st.sampled_from(TEXT_KEYS),
        st.sampled_from(["=", "~="]),
        nonblank(plain_text(1)),
    )
    has_text = nonblank(plain_text(1)).map(lambda v: Term(HAS_TEXT, "=", v))
    nth = st.integers(-3, 30).map(lambda n: Term(NTH, "=", str(n)))
    bool_term = st.builds(Term, st.sampled_from(BOOL_KEYS), st.just("="), st.booleans())
    return st.lists(
        st.one_of(text_term, has_text, nth, bool_term), min_size=1, max_size=3, unique_by=lambda t: t.key
    ).map(tuple)


def selectors() -> st.SearchStrategy[Selector]:
    bare = nonblank(plain_text(1)).map(lambda s: Alternative(bare=normalize_text(s)))
    link = st.one_of(bare, terms().map(lambda ts: Alternative(terms=ts)))
    chain = st.lists(link, min_size=1, max_size=3).map(
        lambda links: Alternative(links[-1].terms, links[-1].bare, tuple(links[:-1]))
    )
    return st.lists(chain, min_size=1, max_size=3).map(lambda alts: Selector(tuple(alts)))


def targets(rest: bool) -> st.SearchStrategy[Target]:
    ref = st.integers(1, 999).map(lambda n: f"@e{n}")
    hint = st.one_of(st.none(), plain_text()) if rest else st.none()
    return st.one_of(
        st.builds(lambda r, h: Target(ref=r, hint=h), ref, hint),
        selectors().map(lambda s: Target(selector=s)),
    )


def evidence() -> st.SearchStrategy[TargetEvidence]:
    label = st.one_of(st.none(), plain_text())
    raw = st.builds(
        TargetEvidence,
        role=st.sampled_from(["button", "textbox", "link", "checkbox"]),
        id=st.one_of(st.none(), plain_text()),
        label=label,
        ancestry=st.lists(st.builds(Ancestor, st.sampled_from(["form", "main", "dialog"]), label), max_size=9).map(
            tuple
        ),
        sibling=st.one_of(st.none(), st.integers(0, 50)),
        viewport_order=st.one_of(st.none(), st.integers(0, 50)),
        scroll_region=st.one_of(st.none(), st.builds(Region, st.just("main"), label)),
        rect=st.one_of(
            st.none(),
            st.builds(Rect, st.integers(0, 2000), st.integers(0, 2000), st.integers(0, 500), st.integers(0, 500)),
        ),
        verification=st.sampled_from(["verified", "unverifiable"]),
    )
    # canonical evidence is what the writer produces
    return raw.map(lambda ev: decode(encode(ev)))


def _action(command: str, form: str, params: list[tuple[str, object]], flags: tuple = ()) -> st.SearchStrategy[Action]:
    return st.just(Action(0, command, form, tuple(params), flags))


def actions() -> st.SearchStrategy[Action]:
    text = templated_text()
    number = st.integers(0, 100000).map(str)
    rest_cmd = st.sampled_from(["click", "dblclick", "hover", "check", "uncheck"])
    return st.one_of(
        st.builds(lambda u: Action(0, "open", "url", (("url", u),)), nonblank(text)),
        st.builds(lambda c, t: Action(0, c, "target", (("target", t),)), rest_cmd, targets(True)),
        st.builds(lambda t, s: Action(0, "fill", "target", (("target", t), ("text", s))), targets(False), text),
        st.builds(lambda s: Action(0, "type", "text", (("text", s),)), text),
        st.builds(
            lambda k: Action(0, "press", "key", (("key", k),)),
            st.sampled_from(["Enter", "Tab", "Control+A", "a", "F5"]),
        ),
        st.builds(lambda t, v: Action(0, "select", "target", (("target", t), ("value", v))), targets(False), text),
        st.builds(
            lambda d, a: Action(0, "scroll", "direction", (("direction", d),) + ((("amount", a),) if a else ())),
            st.sampled_from(["up", "down", "left", "right"]),
            st.one_of(st.none(), number),
        ),
        st.builds(lambda ms: Action(0, "wait", "ms", (("ms", ms),)), number),
        st.builds(
            lambda s, ms: Action(0, "wait", "text", (("kw", "text"), ("text", s)) + ((("ms", ms),) if ms else ())),
            text,
            st.one_of(st.none(), number),
        ),
        st.builds(lambda t: Action(0, "wait", "target", (("target", t),)), targets(False)),
        st.builds(
            lambda p, t: Action(0, "is", "state", (("predicate", p), ("target", t))),
            st.sampled_from(["visible", "hidden", "exists", "absent", "enabled", "disabled", "checked"]),
            targets(True),
        ),
        st.builds(
            lambda t, v: Action(0, "is", "text", (("predicate", "text"), ("target", t), ("value", v))),
            targets(False),
            text,
        ),
        st.builds(
            lambda w, t: Action(0, "get", "read", (("what", w), ("target", t))),
            st.sampled_from(["text", "value", "attrs"]),
            targets(True),
        ),
        st.builds(
            lambda i, s: Action(0, "snapshot", "none", (), (("-i", True),) * i + ((("-s", s),) if s else ())),
            st.integers(0, 1),
            st.one_of(st.none(), nonblank(plain_text(1))),
        ),
        st.sampled_from([Action(0, c, "none", ()) for c in ("back", "forward", "reload", "close")]),
    )


def _element(action: Action) -> bool:
    return isinstance(action.param("target"), Target)


# built once: constructing strategies inside every draw costs more than drawing from them
ACTIONS = actions()
EVIDENCE = evidence()
PLAIN = plain_text()
ENV_KEYS = st.lists(
    st.from_regex(r"[A-Z][A-Z0-9_]{0,5}", fullmatch=True).filter(lambda k: not k.startswith(("REPLAY_", "AD_"))),
    max_size=3,
    unique=True,
)


@st.composite
def scripts(draw: st.DrawFn) -> Script:
    items: list[Item] = []
    context: dict[str, str] = {}
    env: dict[str, str] = {}

    def n() -> int:
        return len(items) + 1

    if draw(st.booleans()):
        pairs = (("platform", "web"),) + (
            (("timeout", str(draw(st.integers(1, 99999)))),) if draw(st.booleans()) else ()
        )
        context.update(pairs)
        items.append(Context(n(), pairs))
    for key in draw(ENV_KEYS):
        value = draw(PLAIN)
        env[key] = value
        items.append(Env(n(), key, value))
    for action in draw(st.lists(ACTIONS, min_size=1, max_size=12)):
        kind = draw(st.sampled_from(["plain", "comment", "blank"]))
        if kind == "comment":
            items.append(Comment(n(), ("# " + draw(PLAIN).replace("\n", " ").replace("\r", " ")).strip()))
        elif kind == "blank":
            items.append(Blank(n()))
        annotation = None
        if _element(action) and draw(st.booleans()):
            annotation = draw(EVIDENCE)
            items.append(Annotation(n(), annotation))
        items.append(Action(n(), action.command, action.form, action.params, action.flags, annotation))
    return Script("gen.ad", tuple(items), context, env)
