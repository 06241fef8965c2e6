"""A task that waits on its own future, through a cycle of tasks, blocks: no cycle check."""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from reference_impl._core import Core
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="WAIT-SELF-1",
    granted="A task that waits on its own future, directly or through a cycle of tasks of any "
    "length, each waiting on the next, SHOULD fail with a RuntimeError (or a subclass) instead "
    "of blocking forever",
    may_fail={"WAIT-SELF-1": "its cycles block until the example's deadline, as TorchScript's"},
    hangs="WAIT-SELF-1's example and probe wait out their deadlines",
)


def _reaches(self: Any, target: Any) -> bool:
    return False  # the reference's walk of the waits, never taken


def adapter() -> Adapter:
    Core._reaches = _reaches  # type: ignore[method-assign]
    return variant("cycles-not-detected")
