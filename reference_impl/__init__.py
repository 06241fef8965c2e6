"""forkwait reference implementation: fork, wait, Future, script (and friends).

The behaviour every conforming implementation shares is written down in the
forkwait spec; this package is one implementation of it, kept small and typed,
to be read beside the spec. Read the core top to bottom in this order:

``_api``
    ``fork``, ``wait``, ``collect_all``, ``wait_all``: where every program starts.
``_future``
    :class:`Future`'s public API, and how a task's future is made (queued, or
    run at once in plain Python).
``_core``
    the machinery under every future: the kinds of future (``Kind``), the one
    definition of running a task (``Core._run_if_pending``, used by every
    path), completing a promise, and waiting without deadlocks.
``_callbacks``
    ``then``, ``add_done_callback`` and what ``collect_all`` builds on.
``_pool``
    the process-wide worker pool: made on first use, its size, its lifecycle
    at exit and across ``os.fork``.
``_workers``
    the pool itself: its queue, its workers and how they are woken, the sizes
    it accepts.
``_script``
    ``script``, ``Module``, ``ModuleList``, ``ignore``.
``_errors``
    the errors and the warning for a failure nobody retrieved.
``_thread_state``
    each thread's execution state (scripted or not, the task it runs, the
    interceptor set on it).
``_interceptors``
    the hook by which the optional extensions below plug into the core, which
    imports neither: while one is set on a thread, ``fork`` and ``wait`` hand
    over to it.

The extensions:

``schedules/``
    controlled schedules: scripted calls run one task at a time, each on a
    greenlet carrier of the calling thread, in a replayable order a policy
    picks (``run_scheduled``, ``use_schedule``).
``tracing/``
    ``trace``: forks and waits recorded as a graph, and the ``tensor`` type.
"""

from reference_impl._api import collect_all, fork, wait, wait_all
from reference_impl._errors import DeadlockError, UnretrievedExceptionWarning
from reference_impl._future import Future
from reference_impl._pool import get_num_threads, set_num_threads
from reference_impl._script import Module, ModuleList, ScriptModule, ignore, script
from reference_impl._workers import ENV_NUM_THREADS
from reference_impl.schedules import (
    ENV_SCHEDULE,
    default_schedules,
    parse_schedule,
    run_scheduled,
    use_schedule,
)
from reference_impl.tracing import (
    GraphNode,
    Tensor,
    TracedFunction,
    TracerWarning,
    TracingError,
    graph_nodes,
    tensor,
    trace,
)

__version__ = "0.1.0"

__all__ = [
    "ENV_NUM_THREADS",
    "ENV_SCHEDULE",
    "DeadlockError",
    "Future",
    "GraphNode",
    "Module",
    "ModuleList",
    "ScriptModule",
    "Tensor",
    "TracedFunction",
    "TracerWarning",
    "TracingError",
    "UnretrievedExceptionWarning",
    "__version__",
    "collect_all",
    "default_schedules",
    "fork",
    "get_num_threads",
    "graph_nodes",
    "ignore",
    "parse_schedule",
    "run_scheduled",
    "script",
    "set_num_threads",
    "tensor",
    "trace",
    "use_schedule",
    "wait",
    "wait_all",
]
