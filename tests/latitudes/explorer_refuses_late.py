"""The explorer refuses more than 64 schedule names, and a name it cannot run only when its
block is entered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import reference_impl as ref
from conformance.adapter import Adapter, Explorer
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="EXPLORER-NAMES-1, EXPLORER-USE-1",
    granted="For a larger n it MUST either return exactly n distinct names or raise an "
    "Exception (EXPLORER-NAMES-1); For a name it cannot run, use MUST raise an Exception when "
    "called or when its block is entered (EXPLORER-USE-1)",
    schedules=True,
    reaches=("selected().explorer", ":explore:"),
    shows="""
try:
    print(len(explorer.schedules(100)))
except Exception:
    print("refused")
""",
)


def schedules(n: int) -> list[str]:
    if n > 64:
        raise ValueError(f"this explorer gives at most 64 schedules, not {n}")
    return ref.default_schedules(n)


@contextmanager
def use(name: str) -> Iterator[None]:
    with ref.use_schedule(name):  # called here, inside the block: a bad name raises on entry
        yield


def adapter() -> Adapter:
    base = variant("explorer-refuses-late")
    return Adapter(
        name=base.name, version=base.version, fw=base.fw, profiles=base.profiles,
        explorer=Explorer(schedules=schedules, use=use),
    )  # fmt: skip
