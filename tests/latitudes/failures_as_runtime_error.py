"""wait raises a task's failure as a new RuntimeError holding its type and message, no chain.

TorchScript's way: its interpreter does not carry Python exception types across
threads, so every wait on a failed task builds a new ``RuntimeError`` whose text
holds the original's type and message. A call whose keywords the function does
not take is refused by ``fork`` itself, as a compiler refuses it when compiling
(KWARGS-UNKNOWN-1's MAY): the ``TypeError`` that rule asks for is raised before
any task exists, since a failing task's ``TypeError`` would reach ``wait`` as a
``RuntimeError``.
"""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from reference_impl._core import PROMISE, Core
from tests.latitudes._variant import Latitude, variant
from tests.latitudes.keywords_checked_at_fork import fork

LATITUDE = Latitude(
    where="ERR-TYPE-KEPT-1, ERR-CHAIN-KEPT-1, ERR-WAIT-AGAIN-1",
    granted="The exception wait raises SHOULD be of the type the task raised (ERR-TYPE-KEPT-1); "
    "SHOULD keep the task's exception chain (ERR-CHAIN-KEPT-1); 'Whether each wait raises "
    "the very same exception object is left open' (ERR-WAIT-AGAIN-1)",
    may_fail={
        "ERR-TYPE-KEPT-1": "every failure of a task reaches wait as a RuntimeError",
        "ERR-CHAIN-KEPT-1": "the RuntimeError has no __cause__",
    },
    shows="""
def fails() -> int:
    raise KeyError("k")

try:
    fw.wait(fw.fork(fails))
except Exception as error:
    print(type(error).__name__)
""",
)

_reference_outcome = Core._outcome


def _outcome(self: Any) -> Any:
    """A task's failure as a new RuntimeError; a created future's failure as it was set."""
    if self._exception is None or self._kind is PROMISE:
        return _reference_outcome(self)
    try:
        return _reference_outcome(self)
    except BaseException as error:  # noqa: BLE001 - every failure, as TorchScript's
        raise RuntimeError(f"{type(error).__name__}: {error}") from None


def adapter() -> Adapter:
    Core._outcome = _outcome  # type: ignore[method-assign]
    return variant("failures-as-runtime-error", fork=fork)
