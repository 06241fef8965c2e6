"""A spare worker that leaves forgets the tasks still queued in its own deque.

The independent fork/join implementation's idle spare leaves once more
threads than the parallelism are free; this variant leaves without checking
that its own deque is empty, and the pool no longer scans a departed worker's
deque, so those tasks never run and their waiters hang.

It breaks NEST-LEVELS-1 ("A task blocked in fw.wait on the future of a task
MUST NOT keep that task from running") and FORK-CALLS-1 in whichever example
the lost task belongs to.
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract("NEST-LEVELS-1", slow=True)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "pool.py",
        old="                    if self._surplus() > 0 and not worker.tasks:",
        new="                    if self._surplus() > 0:",
    ),
)
adapter = VARIANT.adapter
