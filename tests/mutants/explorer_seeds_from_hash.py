"""The explorer seeds a schedule from hash(name), which differs from one interpreter to the next.

Within one process a name always gives the same interleaving, and distinct
names distinct ones; a new process (another string hash seed) gives others,
so the replay command does not replay.

It breaks DET-SCHEDULE-REPLAY-1: "A program run twice under one name MUST
interleave its tasks the same way both times, also when the two runs are in two
processes".
"""

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, parse_schedule, use_schedule
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("DET-SCHEDULE-REPLAY-1")


@contextmanager
def use(name: str) -> Iterator[None]:
    parse_schedule(name)  # a name the reference cannot run is refused, as there
    with use_schedule(f"random:{hash(name) % 1_000_003}"):  # the mutation: salted per process
        yield


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("explorer-seeds-from-hash", explorer=explorer)
