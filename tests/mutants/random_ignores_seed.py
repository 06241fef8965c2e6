"""The explorer's random:SEED schedules ignore their seed: every one is random:0.

A schedule parser that checks the name's form but drops its number, so every
random schedule gets the default seed. It breaks DET-SCHEDULE-REPLAY-1: "the n
names MUST give n distinct interleavings".
"""

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, use_schedule
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "DET-SCHEDULE-REPLAY-1",
    extras={
        "EXPLORER-USE-1": reasons.COUNTS_INTERLEAVINGS,
    },
)


@contextmanager
def use(name: str) -> Iterator[None]:
    seeded = name.startswith("random:")
    with use_schedule("random:0" if seeded else name):  # the mutation
        yield


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("random-ignores-seed", explorer=explorer)
