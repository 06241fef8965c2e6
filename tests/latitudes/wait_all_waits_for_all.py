"""wait_all waits for every future, then raises the first failure in list order."""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-WAIT-ALL-FIRST-1",
    granted="While some of them are still running, wait_all MAY raise as soon as one of them "
    "fails ..., or MAY wait for all of them and then raise the first failure in list order.",
    reaches=("wait_all",),
    shows="""
import threading

release = threading.Event()

@fw.ignore
def held(x: int) -> int:
    release.wait(5)
    return x

def fails(x: int) -> int:
    raise ValueError("failed")

@fw.script
def start() -> list[fw.Future[int]]:
    return [fw.fork(fails, 0), fw.fork(held, 1)]

futures = start()
threading.Timer(0.2, release.set).start()
try:
    fw.wait_all(futures)
except ValueError:
    print("the held one done:", futures[1].done())
""",
)


def wait_all(futures: list[Any], /) -> list[Any]:
    """Every future done first (``collect_all`` keeps failures); then the values, in order."""
    collected = ref.wait(ref.collect_all(futures))
    return [ref.wait(future) for future in collected]  # the first failure in list order


def adapter() -> Adapter:
    return variant("wait-all-waits-for-all", wait_all=wait_all)
