"""The explorer's use() ends its block by clearing the schedule, not restoring the outer one.

A ``use`` block inside another: once the inner block ends, the rest of the
outer block runs its top-level scripted calls on the thread pool, under no
schedule at all.

It breaks EXPLORER-USE-1: "Blocks nest: when an inner block ends, the outer
block's schedule is in force again".
"""

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, parse_schedule
from reference_impl.schedules import explorer as _explorer
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-USE-1")


@contextmanager
def use(name: str) -> Iterator[None]:
    parse_schedule(name)
    _explorer._default_schedule[0] = name
    try:
        yield
    finally:
        _explorer._default_schedule[0] = None  # the mutation: the outer block's is lost


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("explorer-nested-use-resets", explorer=explorer)
