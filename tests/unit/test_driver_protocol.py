"""The Driver seam: the web driver and the test double implement every operation the engine uses."""

from __future__ import annotations

import inspect

import pytest

from replay.drivers.base import Driver
from replay.drivers.web import WebDriver

from ..fakes.driver import FakeDriver

OPERATIONS = sorted(n for n, v in vars(Driver).items() if callable(v) and not n.startswith("_"))


def test_the_protocol_names_every_operation_the_engine_needs() -> None:
    assert OPERATIONS == [
        "act",
        "capture",
        "close",
        "history",
        "is_attached",
        "keyboard",
        "locate",
        "location",
        "navigate",
        "screenshot",
        "scroll",
        "trace_start",
        "trace_stop",
        "wait",
    ]


@pytest.mark.parametrize("implementation", [WebDriver, FakeDriver])
def test_a_driver_implements_every_operation_with_the_protocols_signature(implementation: type) -> None:
    for name in OPERATIONS:
        want = inspect.signature(getattr(Driver, name))
        have = inspect.signature(getattr(implementation, name))
        assert list(have.parameters) == list(want.parameters), (implementation.__name__, name)
        assert inspect.iscoroutinefunction(getattr(implementation, name)) == inspect.iscoroutinefunction(
            getattr(Driver, name)
        ), (implementation.__name__, name)
