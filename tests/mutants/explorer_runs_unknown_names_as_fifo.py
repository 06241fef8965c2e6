"""The explorer's use() runs a name it does not know as fifo instead of refusing it.

A lookup with a default: ``--schedule`` with a mistyped name replays fifo and
says nothing.

It breaks EXPLORER-USE-1: "For a name it cannot run, use MUST raise an Exception
when called or when its block is entered".
"""

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, parse_schedule, use_schedule
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-USE-1")


@contextmanager
def use(name: str) -> Iterator[None]:
    try:
        parse_schedule(name)
    except ValueError:
        name = "fifo"  # the mutation: an unknown name is not refused
    with use_schedule(name):
        yield


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("explorer-runs-unknown-names-as-fifo", explorer=explorer)
