"""The explorer's use() checks a name's form, and leaves its numbers to the first call.

A pattern for the names it knows (``fifo``, ``lifo``, ``random:SEED``,
``pct:SEED:DEPTH``) refuses a mistyped name at once, but a name of a known form
whose numbers the schedule cannot take (a PCT depth below 1, or more change
points than its horizon holds) is only refused when the first scripted call in
the block builds the schedule. It breaks EXPLORER-USE-1: "For a name it cannot
run, use MUST raise an Exception when called or when its block is entered".
"""

import re
from collections.abc import Iterator
from contextlib import contextmanager

from conformance.adapter import Adapter, Explorer
from reference_impl import default_schedules
from reference_impl.schedules import explorer as schedules
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-USE-1")

_FORM = re.compile(r"fifo|lifo|random:-?[0-9]+|pct:-?[0-9]+(:-?[0-9]+)?")


@contextmanager
def use(name: str) -> Iterator[None]:
    if not _FORM.fullmatch(name):
        raise ValueError(f"bad schedule {name!r}")
    outer = schedules._default_schedule[0]
    schedules._default_schedule[0] = name  # the mutation: its numbers are not checked here
    try:
        yield
    finally:
        schedules._default_schedule[0] = outer


def adapter() -> Adapter:
    explorer = Explorer(schedules=default_schedules, use=use)
    return mutant("explorer-checks-only-the-form", explorer=explorer)
