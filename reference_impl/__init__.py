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
    the machinery under every future: the one definition of running a task
    (``Core._run_if_pending``, used by every path), completing a promise, and
    waiting without deadlocks.
``_callbacks``
    ``then``, ``add_done_callback`` and what ``collect_all`` builds on.
``_pool``, ``_workers``
    the process-wide worker pool, its lifecycle, and how its workers are woken.
``_script``
    ``script``, ``Module``, ``ModuleList``, ``ignore``.
``_errors``, ``_state``
    the errors and warning; each thread's execution state.
``_rooms``
    the hook by which the optional rooms below plug into the core, which
    imports neither.

The rooms:

``schedules/``
    controlled schedules: scripted calls run one task at a time in a
    replayable order a policy picks (``run_scheduled``, ``use_schedule``).
``tracing/``
    ``trace``: forks and waits recorded as a graph, and the ``tensor`` type.
"""

from reference_impl._api import collect_all, fork, wait, wait_all
from reference_impl._errors import DeadlockError, UnretrievedExceptionWarning
from reference_impl._future import Future
from reference_impl._pool import ENV_NUM_THREADS, get_num_threads, set_num_threads
from reference_impl._script import Module, ModuleList, ScriptModule, ignore, script
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
