"""forkwait reference implementation: fork, wait, Future, script (and friends).

The behaviour every conforming implementation shares is written down in the
forkwait spec; this package is one implementation of it, kept small and typed.
"""

from reference_impl._api import collect_all, fork, wait, wait_all
from reference_impl._errors import DeadlockError, UnretrievedExceptionWarning
from reference_impl._future import Future
from reference_impl._pool import ENV_NUM_THREADS, get_num_threads, set_num_threads
from reference_impl._schedule import (
    ENV_SCHEDULE,
    default_schedules,
    parse_schedule,
    run_scheduled,
    use_schedule,
)
from reference_impl._script import Module, ModuleList, ScriptModule, ignore, script
from reference_impl._tensor import Tensor, TracerWarning, tensor
from reference_impl._trace import GraphNode, TracedFunction, TracingError, graph_nodes, trace

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
