"""A failed future nobody waits on is dropped silently: no warning when it is collected."""

from __future__ import annotations

from conformance.adapter import Adapter
from reference_impl import _core
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="errors.rst, Failures nobody retrieves",
    granted="An implementation MAY report this (the reference implementation warns with "
    "UnretrievedExceptionWarning ...) or drop it silently (TorchScript does)",
    shows="""
import gc
import warnings

def fails() -> int:
    raise ValueError("nobody waits")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fw.fork(fails)
    gc.collect()
print(len(caught))
""",
)


class Silent:
    """Stands for the reference's guard: remembers nothing, reports nothing."""

    __slots__ = ("retrieved",)

    def __init__(self, exception: BaseException, task: str) -> None:
        self.retrieved = False


def adapter() -> Adapter:
    setattr(_core, "UnretrievedGuard", Silent)  # noqa: B010 - _core makes guards by this name
    return variant("unretrieved-failures-silent")
