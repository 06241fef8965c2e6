"""A wait on a future of then or collect_all does not start the queued tasks behind it.

The independent fork/join implementation hands the still-queued task a
blocked worker waits on to a free or new worker; this variant finds that task
only for forked futures, not through the futures ``then`` and ``collect_all``
are made from. Once the spares run out, workers blocked on such futures wait
on tasks queued in their own deques.

It breaks FUTURE-THEN-1 ("A task blocked waiting on the new future MUST NOT
keep the task of fut from running, however many tasks wait so").
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("FUTURE-THEN-1", slow=True)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "future.py",
        old="            stack.extend(fut._sources)\n",
        new="",
    ),
)
adapter = VARIANT.adapter
