from __future__ import annotations

import json

import pytest

from replay.errors import InvalidArgs
from replay.script.evidence import (
    MAX_PAYLOAD_BYTES,
    Ancestor,
    Rect,
    Region,
    TargetEvidence,
    decode,
    encode,
    match_annotation,
)

FULL = (
    '{"id":"place-order","role":"button","label":"Place order","ancestry":[{"role":"form","label":"Checkout"},'
    '{"role":"main"}],"sibling":3,"viewportOrder":0,"scrollRegion":{"role":"main"},'
    '"rect":{"x":40,"y":612,"width":160,"height":40},"verification":"verified"}'
)


def test_full_payload_decodes_every_field() -> None:
    ev = decode(FULL)
    assert ev == TargetEvidence(
        role="button",
        id="place-order",
        label="Place order",
        ancestry=(Ancestor("form", "Checkout"), Ancestor("main")),
        sibling=3,
        viewport_order=0,
        scroll_region=Region("main"),
        rect=Rect(40, 612, 160, 40),
    )


def test_keys_in_any_order_and_unknown_keys_are_ignored() -> None:
    obj = json.loads(FULL)
    shuffled = dict(reversed(list(obj.items())))
    shuffled["futureKey"] = {"anything": [1, 2]}
    assert decode(json.dumps(shuffled)) == decode(FULL)


def test_canonical_write_round_trips() -> None:
    ev = decode(FULL)
    assert encode(ev) == FULL
    assert decode(encode(ev)) == ev


def test_labels_are_nfc_trimmed_and_whitespace_collapsed() -> None:
    ev = decode('{"role":"button","label":"  Cafe\\u0301   au  lait ","verification":"verified"}')
    assert ev.label == "Café au lait"


def test_empty_string_means_absent() -> None:
    ev = decode('{"role":"button","label":"Go","id":"","verification":"verified"}')
    assert ev.id is None


def test_verification_defaults_to_verified() -> None:
    assert decode('{"role":"button","label":"Go"}').verified


@pytest.mark.parametrize(
    "payload, message",
    [
        ("{not json", "malformed JSON"),
        ("[1]", "must be a JSON object"),
        ('{"role":1,"label":"x"}', "'role' must be a string"),
        ('{"role":"button","label":"x","sibling":-1}', "non-negative integer"),
        ('{"role":"button","label":"x","sibling":true}', "non-negative integer"),
        ('{"role":"button","label":"x","ancestry":{}}', "must be a list"),
        ('{"role":"button","label":"x","ancestry":[{"label":"no role"}]}', "needs a 'role'"),
        ('{"role":"button","label":"x","rect":{"x":1,"y":2,"width":"3","height":4}}', "finite number"),
        ('{"role":"button","label":"x","verification":"maybe"}', "'verification'"),
        ('{"label":"x"}', "needs 'role'"),
        ('{"role":"button"}', "needs 'role' and an 'id', a 'label', an 'anchor'"),
    ],
)
def test_malformed_or_badly_typed_payload_is_invalid_args(payload: str, message: str) -> None:
    with pytest.raises(InvalidArgs, match=message):
        decode(payload)


def test_string_over_256_utf8_bytes_is_rejected_by_the_parser() -> None:
    with pytest.raises(InvalidArgs, match="256"):
        decode(json.dumps({"role": "button", "label": "é" * 129}))


def test_more_than_eight_ancestry_entries_is_rejected() -> None:
    with pytest.raises(InvalidArgs, match="more than 8"):
        decode(json.dumps({"role": "button", "label": "x", "ancestry": [{"role": "group"}] * 9}))


def test_payload_over_4kib_is_rejected() -> None:
    with pytest.raises(InvalidArgs, match="larger than"):
        decode(json.dumps({"role": "button", "label": "x", "pad": "a" * MAX_PAYLOAD_BYTES}))


def test_writer_drops_ancestry_from_the_root_side_to_fit() -> None:
    # quotes are escaped in JSON, so each label costs about twice its 250 bytes
    ancestry = tuple(Ancestor("group", f"{i}" + '"' * 250) for i in range(8))
    ev = TargetEvidence(role="button", label="Go", ancestry=ancestry)
    out = decode(encode(ev))
    assert len(encode(ev).encode()) <= MAX_PAYLOAD_BYTES
    assert 0 < len(out.ancestry) < 8
    assert out.ancestry == ancestry[: len(out.ancestry)]  # nearest entries kept
    assert out.verified


def test_writer_marks_unverifiable_when_identity_cannot_fit() -> None:
    ev = TargetEvidence(role="button", label="x" * 300)
    out = decode(encode(ev))
    assert out.verification == "unverifiable"
    assert out.label is None


def test_writer_caps_ancestry_at_eight_entries() -> None:
    ev = TargetEvidence(role="button", label="Go", ancestry=tuple(Ancestor("group") for _ in range(12)))
    assert len(decode(encode(ev)).ancestry) == 8


def test_writer_never_emits_verified_without_identity() -> None:
    assert decode(encode(TargetEvidence(role="button"))).verification == "unverifiable"


def test_both_annotation_prefixes_are_read() -> None:
    assert match_annotation('# replay:target-v1 {"a":1}') == '{"a":1}'
    assert match_annotation('# agent-device:target-v1 {"a":1}') == '{"a":1}'
    assert match_annotation("# replay:target-v1x {}") is None
    assert match_annotation("# a plain comment") is None


def test_a_form_controls_name_and_input_type_are_recorded_and_round_trip() -> None:
    from replay.tree.identity import record_evidence

    from .treebuild import N, capture

    cap = capture(N("form", label="Sign in")(N("textbox", label="Email", name="user[email]", type="email")))
    ev = record_evidence(cap, cap.nodes[2])
    assert (ev.name, ev.input_type) == ("user[email]", "email")
    assert '"name":"user[email]","type":"email"' in encode(ev) and decode(encode(ev)) == ev


def test_an_attribute_basis_round_trips_with_its_class_and_needs_one_to_verify() -> None:
    from replay.script.evidence import decode, encode

    ev = decode('{"role":"button","basis":"attribute","class":"ql-bold"}')
    assert ev.basis == "attribute" and ev.css_class == "ql-bold" and ev.identifiable
    assert decode(encode(ev)) == ev
    with pytest.raises(InvalidArgs, match="or a 'class'"):
        decode('{"role":"button","basis":"attribute"}')


def test_a_dom_id_is_written_as_such_and_read_back() -> None:
    ev = decode('{"id":"new-todo","domId":true,"role":"textbox","label":"New"}')
    assert ev.dom_id and '"domId":true' in encode(ev) and decode(encode(ev)) == ev
    assert not decode('{"role":"textbox","label":"New","domId":true}').dom_id  # (no id: nothing to say)
    with pytest.raises(InvalidArgs, match="domId"):
        decode('{"id":"x","domId":"yes","role":"textbox"}')
