"""threadper's task threads catch ``Exception`` only: a task's ``BaseException`` ends its thread.

A variant of the independent thread-per-task implementation: the task's
thread catches what the call raises with ``except Exception``, the usual
spelling, so a ``KeyboardInterrupt``, ``SystemExit`` or a ``BaseException`` of
the task's own escapes the thread, which ends without completing the future
or giving back its slot: ``wait`` blocks forever. It breaks
ERR-BASE-EXCEPTION-1 ("MUST fail its future like any other failure").
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "ERR-BASE-EXCEPTION-1",
    extras={
        "ERR-WAIT-AGAIN-1": "its probe 2 waits again on tasks that raised BaseExceptions: "
        "their futures never complete",
        "FUTURE-DONE-FAILED-1": "its probe 2 polls done() on tasks that raised "
        "BaseExceptions: their futures stay not done",
    },
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "FUTURE-COLLECT-ALL-FAIL-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "FORK-RETURNS-FUTURE-1": "runs in an executor after examples whose dead task threads "
        "kept their running slots: once every slot is held, no task starts (measured once)",
    },
    slow=True,
)

VARIANT = Variant(
    "threadper",
    Edit(
        "tasks.py",
        old="    except BaseException as raised:  # noqa: BLE001",
        new="    except Exception as raised:  # noqa: BLE001",
    ),
)
adapter = VARIANT.adapter
