"""A fork/join pool sized for a two-core machine: two workers, however tasks block.

The independent fork/join implementation's default parallelism is the number
of cores a developer measured on, hard-coded. Tasks that block outside
``fw.wait`` (on an event, a barrier, a join) hold their worker and get no
compensating one, so tasks queued behind them do not start.

It breaks ASYNC-STARTS-1 ("a forked task MUST start without anyone waiting on
it"), ASYNC-CONCURRENT-1 and LIFECYCLE-CALLERS-1 (six callers' tasks meeting
at one barrier); SCRIPT-IGNORE-1 too in one run of two (an ignored function
joins a thread that waits on a future queued behind its own task).
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "ASYNC-STARTS-1",
    "ASYNC-CONCURRENT-1",
    "LIFECYCLE-CALLERS-1",
    maybe={"SCRIPT-IGNORE-1": "its probe's task joins a thread waiting on a task queued behind"},
)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "pool.py",
        old="    return max(8, os.cpu_count() or 1)",
        new="    return 2",
    ),
)
adapter = VARIANT.adapter
