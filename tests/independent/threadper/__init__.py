"""fork/wait with a thread per task, written from the spec's text alone.

Every ``fork`` starts a ``threading.Thread`` for its task (:mod:`.tasks`); a
semaphore bounds how many tasks compute at once, and a task blocked in a wait
gives its slot back (:mod:`.slots`, :mod:`.waiting`). Futures are built on
``threading.Condition`` (:mod:`.futures`); ``script`` and ``ignore`` are
wrappers that mark where a call stands (:mod:`.scripting`). Besides: cycles of
waits raise (:mod:`.deadlock`), controlled schedules pass a baton between the
tasks' threads (:mod:`.schedules`), and ``trace`` records forks and waits by
running the code on tensors (:mod:`.tensors`, :mod:`.tracing`, :mod:`.graph`,
:mod:`.replay`). :mod:`.adapter` hands it to the conformance suite.
"""

from .adapter import adapter
from .combine import collect_all, wait_all
from .deadlock import DeadlockError
from .futures import Future, wait
from .graph import GraphNode, graph_nodes
from .modules import Module, ModuleList
from .scripting import ignore, script
from .tasks import fork
from .tensors import Tensor, tensor
from .tracing import TracedFunction, TracingError, trace

__all__ = [
    "DeadlockError",
    "Future",
    "GraphNode",
    "Module",
    "ModuleList",
    "Tensor",
    "TracedFunction",
    "TracingError",
    "adapter",
    "collect_all",
    "fork",
    "graph_nodes",
    "ignore",
    "script",
    "tensor",
    "trace",
    "wait",
    "wait_all",
]
