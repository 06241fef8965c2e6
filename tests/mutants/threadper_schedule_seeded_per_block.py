"""threadper seeds a random schedule once per ``use`` block, not once per top-level call.

A variant of the independent thread-per-task implementation: ``use(name)``
builds the schedule's policy (a seeded random generator) when the block is
entered, and every top-level scripted call in the block draws from it, so a
second call of one program in the block continues the first call's draws and
interleaves differently. It breaks EXPLORER-USE-1 ("Each top-level call starts
the schedule afresh: a seeded schedule is seeded per call, not once per
block").
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "EXPLORER-USE-1",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "EXPLORER-FINISHES-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "NEST-LEVELS-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "schedules.py",
        old="    return _using(parse(name))\n",
        new="    policy = parse(name)()\n    return _using(lambda: policy)\n",
    ),
)
adapter = VARIANT.adapter
