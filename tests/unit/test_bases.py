"""The bases of identity as registered implementations of one protocol (replay.tree.bases; docs/design.md
§5): every basis the evidence can name has one, registered in order and checked as it registers, and
verification asks it rather than branching on its name."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import ClassVar

import pytest

from replay.script.evidence import ATTRIBUTE, BASES, KEY_TEXT, Basis
from replay.tree import bases
from replay.tree.bases import REGISTERED, Stage, Way


def test_every_basis_the_evidence_can_name_has_one_registered_implementation() -> None:
    assert set(REGISTERED) == set(BASES) and all(isinstance(w, Way) for w in REGISTERED.values())


def test_the_bases_are_registered_in_the_order_recording_tries_them() -> None:
    stages = [w.stage for w in REGISTERED.values()]
    assert stages == sorted(stages) and list(REGISTERED)[:2] == [Basis.KEY_TEXT, Basis.STRUCTURAL]


def test_no_two_bases_own_one_evidence_field() -> None:
    owned = [f for w in REGISTERED.values() for f in w.fields]
    assert len(owned) == len(set(owned)) and "css_class" in REGISTERED[ATTRIBUTE].fields


class _Probe(Way):
    name: ClassVar[Basis] = KEY_TEXT
    fields: ClassVar[tuple[str, ...]] = ()
    stage: ClassVar[Stage] = Stage.OWN


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({}, "registered twice"),
        ({"fields": ("no_such_field",)}, "no evidence field no_such_field"),
        ({"fields": ("css_class",)}, "fields another basis owns: css_class (attribute)"),
        ({"stage": Stage.OWN}, "registered after stage PLACE"),
    ],
)
def test_a_basis_that_breaks_a_rule_is_refused_as_it_registers(
    changes: dict[str, object], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = type("Probe", (_Probe,), changes)()
    if changes:  # (its name not taken yet, so that the rule under test is the one that refuses it)
        monkeypatch.setattr(bases, "REGISTERED", {k: w for k, w in REGISTERED.items() if k != KEY_TEXT})
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        bases.register(probe)


def test_verification_names_no_basis_it_asks_the_registered_one() -> None:
    source = Path(bases.__file__).parent.parent / "identity.py"
    names = {n.id for n in ast.walk(ast.parse(source.read_text(encoding="utf-8"))) if isinstance(n, ast.Name)}
    assert not names & {"KEY_TEXT", "STRUCTURAL", "ATTRIBUTE", "NEIGHBOUR", "POSITION"}


def test_the_ranking_and_the_healers_checks_read_no_payload_they_ask_the_registered_basis() -> None:
    package = Path(bases.__file__).parent.parent.parent
    for source in (package / "tree" / "suggest.py", package / "engine" / "heal_choice.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        read = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not names & {"KEY_TEXT", "STRUCTURAL", "ATTRIBUTE", "NEIGHBOUR", "POSITION"}, source
        assert not read & {"css_class", "nameless_order", "look_alikes"}, source


def test_a_nameless_controls_class_token_ranks_as_an_id_and_is_what_the_healer_says_it_shares() -> None:
    from replay.engine.heal_choice import shared
    from replay.tree.identity import record_evidence
    from replay.tree.suggest import components

    from .treebuild import N, capture

    taken = capture(N("main")(N("toolbar")(N("button", cls="ql-bold"), N("button", cls="ql-italic"))))
    bold, italic = [n for n in taken.nodes if n.role == "button"]
    ev = record_evidence(taken, bold)
    assert ev.basis == ATTRIBUTE and ev.css_class == "ql-bold"
    assert components(taken, bold, ev)["id"] == 1.0 and components(taken, italic, ev)["id"] == 0.0
    assert shared(ev, bold) == ("class", "ql-bold") and shared(ev, italic) is None


def test_a_node_that_does_not_carry_its_basis_is_told_what_its_basis_recorded() -> None:
    from replay.script.selector import parse_selector
    from replay.tree.identity import record_evidence, verify
    from replay.tree.verdict import DivergenceKind

    from .treebuild import N, capture

    def rows(*names: str) -> object:
        return capture(N("main")(N("list", label="People")(*(N("listitem")(N("generic", text=t)) for t in names))))

    recorded = rows("Bob", "Ann")
    bob = [n for n in recorded.nodes if n.role == "listitem"][0]  # type: ignore[attr-defined]
    ev = record_evidence(recorded, bob)  # type: ignore[arg-type]
    assert ev.basis == KEY_TEXT and ev.key_text == "Bob"
    v = verify(rows("Rob", "Ann"), parse_selector('role=list label="People" >> role=listitem nth=0'), ev)  # type: ignore[arg-type]
    assert v.kind == DivergenceKind.IDENTITY_MISMATCH and "key text: recorded 'Bob', found 'Rob'" in v.mismatches
