"""fork checks the call's arguments against the function's signature, and raises TypeError."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="KWARGS-UNKNOWN-1",
    granted="An implementation MAY check the call when forking (as a compiler checks it "
    "when compiling); one that runs the call later reports the error through the future.",
    shows="""
def one(a: int) -> int:
    return a

try:
    fw.fork(one, b=1)
    print("fork returned")
except TypeError:
    print("fork raised")
""",
)


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork, refusing at once a call the signature does not accept."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):  # no signature to check (some builtins)
        signature = None
    if signature is not None:
        signature.bind(*args, **kwargs)  # TypeError: as the call would raise it
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return variant("keywords-checked-at-fork", fork=fork)
