"""The explorer names random schedules by 16-bit seeds drawn without a check for repeats.

``fifo``, ``lifo``, then ``random:SEED`` with each seed drawn from a seeded
generator as a 16-bit number: two seeds coincide once a few hundred are drawn
(the first repeat comes at the 288th name), so ``schedules(300)`` gives 300
names of which only 299 differ. It breaks EXPLORER-NAMES-1: "For a larger n it
MUST either return exactly n distinct names or raise an Exception".
"""

import random

from conformance.adapter import Adapter, Explorer
from reference_impl import use_schedule
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-NAMES-1")


def schedules(count: int) -> list[str]:
    if count < 0:
        raise ValueError(f"schedules() needs a count of 0 or more, got {count}")
    seeds = random.Random(0)
    names = ["fifo", "lifo", *(f"random:{seeds.getrandbits(16)}" for _ in range(count))]
    return names[:count]  # the mutation: no check that the names differ


def adapter() -> Adapter:
    explorer = Explorer(schedules=schedules, use=use_schedule)
    return mutant("explorer-seeds-collide", explorer=explorer)
