"""threadper's scheduled call lets its never-waited tasks run to the end only when it returns.

A variant of the independent thread-per-task implementation: a top-level
scripted call under a controlled schedule hands the baton to its remaining
tasks before it returns (so that nothing of one run leaks into the next), but
the variant does so after a normal return only: a call that raises leaves the
schedule with its other tasks waiting for a baton nobody will pass, and they
never run. It breaks EXPLORER-FINISHES-1 ("Tasks the call forks and never
waits ... MUST still run, to completion, before the top-level call returns or
raises").
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "EXPLORER-FINISHES-1",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "NEST-LEVELS-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "scripting.py",
        old="""    try:
        return func(*args, **kwargs)
    finally:
        schedule.drain(main)
        schedules.set_participant(None)
""",
        new="""    try:
        result = func(*args, **kwargs)
    except BaseException:
        schedules.set_participant(None)
        raise
    schedule.drain(main)
    schedules.set_participant(None)
    return result
""",
    ),
)
adapter = VARIANT.adapter
