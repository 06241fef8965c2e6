"""The explorer's use() restores the schedule in force only when its block ends normally.

No ``try``/``finally``: a block left by an exception leaves its schedule
selected, so every top-level scripted call made after it, outside any block,
still runs one task at a time under that schedule.

It breaks EXPLORER-USE-1: "Plain-Python forks and scripted calls outside the
block are not affected, also after a block left by an exception".
"""

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, parse_schedule
from reference_impl.schedules import explorer as _explorer
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "EXPLORER-USE-1",
    maybe={
        "WAIT-FROM-PYTHON-1": "the schedule its probe leaves selected runs the later "
        "examples' scripted calls one task at a time: a caller and its task never meet, "
        "unless those examples run in a fresh executor (measured passing on the whole spec)",
    },
)


@contextmanager
def use(name: str) -> Iterator[None]:
    parse_schedule(name)
    outer = _explorer._default_schedule[0]
    _explorer._default_schedule[0] = name
    yield  # the mutation: not in a try, so an exception skips the restore
    _explorer._default_schedule[0] = outer


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("explorer-keeps-schedule-after-error", explorer=explorer)
