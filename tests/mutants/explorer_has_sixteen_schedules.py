"""The explorer has a fixed table of 16 schedules: schedules(n) gives at most 16 names.

An explorer with a fixed table of preset seeds hands out what it has when asked
for more. It breaks EXPLORER-NAMES-1: "schedules(n) MUST return a list of
exactly n distinct strings [...] for every n from 0 to 64"; "it MUST NOT return
fewer names than asked".
"""

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
