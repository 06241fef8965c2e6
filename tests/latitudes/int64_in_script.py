"""Integers in scripted code are exactly 64 bits wide: what a scripted call or a task forked
by scripted code returns wraps around at 2**63, as TorchScript's ``int`` does."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="SCRIPT-SAME-RESULT-1",
    granted="Integers in scripted code are at least 64 bits wide, as TorchScript's int is.",
    shows="""
def big(x: int) -> int:
    return x * 2**62

print(fw.script(big)(4))
""",
)

_RANGE = 2**64


def wrapped(value: Any) -> Any:
    """``value`` with every int outside int64 wrapped into it; the same object if none is."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -(2**63) <= value < 2**63:
            return value
        return (value + 2**63) % _RANGE - 2**63
    if isinstance(value, list | tuple):
        items = [wrapped(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)(items) if isinstance(value, list) else tuple(items)
    return value


def _int64(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        return wrapped(func(*args, **kwargs))

    return call


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    thread = local.state
    if thread.scripted and thread.scope is None and callable(func):
        func = _int64(func)
    return ref.fork(func, *args, **kwargs)


def script(obj: Any, /) -> Any:
    compiled = ref.script(obj)
    if isinstance(obj, ref.Module):
        compiled._forward = _int64(compiled._forward)
        return compiled
    return _int64(compiled)


def adapter() -> Adapter:
    return variant("int64-in-script", fork=fork, script=script)
