"""The explorer has a fixed table of 16 schedules: schedules(n) gives at most 16 names."""

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules, use_schedule
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "EXPLORER-NAMES-1",
    extras={
        "DET-SCHEDULE-REPLAY-1": "its probe asks for 64 names and gets 16",
    },
)


def schedules(count: int) -> list[str]:
    return default_schedules(min(count, 16))  # the mutation: silently fewer than asked


def adapter() -> Adapter:
    explorer = Explorer(schedules=schedules, use=use_schedule)
    return mutant("explorer-has-sixteen-schedules", explorer=explorer)
