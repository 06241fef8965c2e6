"""A task's context is copied when a worker starts it, from the worker, not at fork.

The independent fork/join implementation's task runs in
``contextvars.copy_context()`` taken on the worker thread: it sees the
worker's (empty) context instead of the forking code's.

It breaks CONTEXT-INHERITED-1 ("a task MUST run in a copy of the context of the
code that forked it"), CONTEXT-SNAPSHOT-1 and CONTEXT-ISOLATED-1.
"""

from tests.mutants._contract import contract
from tests.mutants._variants import Edit, Variant

CONTRACT = contract(
    "CONTEXT-INHERITED-1",
    "CONTEXT-SNAPSHOT-1",
    "CONTEXT-ISOLATED-1",
    extras={"CONTEXT-CALLS-1": "its probes read, in tasks forked later, what a scripted call set"},
)

VARIANT = Variant(
    "forkjoin",
    Edit(
        "pool.py",
        old="        self.context.run(self.body)",
        new="        contextvars.copy_context().run(self.body)",
    ),
)
adapter = VARIANT.adapter
