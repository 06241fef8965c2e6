"""A schedule is seeded once per use() block, not per top-level scripted call.

The independent fork/join implementation's explorer makes the schedule's
policy (and its random generator) when the block is entered; every call in
the block draws from where the previous one stopped.

It breaks EXPLORER-USE-1 ("Each top-level call starts the schedule afresh: a
seeded schedule is seeded per call, not once per block").
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("EXPLORER-USE-1")

VARIANT = Variant(
    "forkjoin",
    Edit(
        "schedule.py",
        old=("    token = _chosen.set(name)\n    try:"),
        new=(
            "    token = _chosen.set(name)\n"
            "    _policies[name] = Policy(name)  # the block's schedule, "
            "ready for its calls\n"
            "    try:"
        ),
    ),
    Edit(
        "schedule.py",
        old="    return Controller(Policy(name)).run(lambda: fn(*args, **kwargs))",
        new=(
            "    return Controller(_policies[name]).run(lambda: fn(*args, **kwargs))\n"
            "\n"
            "\n"
            "_policies: dict[str, Policy] = {}"
        ),
    ),
)
adapter = VARIANT.adapter
