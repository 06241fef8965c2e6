"""threadper's ``then`` fails its future on a callback's ``Exception`` only.

A variant of the independent thread-per-task implementation: the wrapper that
runs a ``then`` callback catches ``Exception``, so a callback that raises
``KeyboardInterrupt`` or a ``BaseException`` of its own leaves the future
``then`` returned never completed, and the error is raised to whoever
completed the source future (or by ``then`` on a done one). It breaks
FUTURE-THEN-ERROR-1 ("This holds for any ``BaseException`` the callback
raises ... it MUST NOT be raised to the code that completed the future").
"""

from tests.mutants import _reasons as reasons
from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "FUTURE-THEN-ERROR-1",
    maybe={
        "ERR-NESTED-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "NEST-LEVELS-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
        "WAIT-SAME-OBJECT-1": reasons.THREAD_PER_TASK_UNDER_LOAD,
    },
)

VARIANT = Variant(
    "threadper",
    Edit(
        "futures.py",
        old="            except BaseException as error:  # noqa: BLE001 - a callback's failure",
        new="            except Exception as error:  # noqa: BLE001 - a callback's failure",
    ),
)
adapter = VARIANT.adapter
