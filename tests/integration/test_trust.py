"""Issue 32's rules on the real parts: no secret read back, no imported value become a command, no
unverified heal under the verified name (a real daemon, real Chromium, the CLI)."""

from __future__ import annotations

from .conftest import Cli

SECRET = "PwSecret-4410"


def test_get_value_of_a_password_field_reads_the_mask_never_the_typed_secret(cli: Cli, web: str) -> None:
    s = ("--session", "pw")
    cli("open", f"{web}/shop/checkout.html", *s)
    cli("fill", "id=password", SECRET, *s)
    value = cli("get", "value", "id=password", *s, "--json").stdout
    attrs = cli("get", "attrs", "id=password", *s).stdout
    cli("fill", "id=name", "Ada", *s)
    name = cli("get", "value", "id=name", *s, "--json").stdout  # other fields read as they are
    cli("close", *s)
    assert "•••" in value and SECRET not in value + attrs
    assert '"value": "Ada"' in name
