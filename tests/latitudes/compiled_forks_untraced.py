"""While tracing, compiled code runs its forks on the spot: the trace holds no fork or wait
node for them, only their operations, recorded where they run."""

from __future__ import annotations

import functools
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import Scope, active_scope
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="TRACE-ONE-NODE-PER-FORK-1",
    granted="What runs inside a function or module compiled by fw.script, when the traced code "
    "calls or forks it, is compiled code: for the forks and waits that code runs, the trace "
    "MAY hold fork and wait nodes, or none.",
    profiles=frozenset({"trace"}),
    shows="""
def double(x):
    return x * 2

compiled = fw.script(lambda x: fw.wait(fw.fork(double, x)))

def run(x):
    return compiled(x) + 1

print([n.kind for n in fw.graph_nodes(fw.trace(run, fw.tensor(1)))])
""",
)

#: how many compiled calls, made while tracing, this thread is inside
_inside = threading.local()

_reference_fork = Scope.fork
_reference_wait = Scope.wait


class _Inlined(ref.Future[Any]):
    """The future of a fork compiled code made while tracing: run on the spot, not recorded."""

    __slots__ = ()


def _fork(self: Scope, func: Any, args: Any, kwargs: Any) -> Any:
    if not getattr(_inside, "depth", 0):
        return _reference_fork(self, func, args, kwargs)
    future: _Inlined = _Inlined()
    try:
        result = func(*args, **kwargs)  # its operations are recorded here, as the call's own
    except Exception as error:  # noqa: BLE001 - kept for wait, as a fork keeps it
        future.set_exception(error)
    else:
        future.set_result(result)
    return future


def _wait(self: Scope, future: Any) -> Any:
    if isinstance(future, _Inlined):
        return future.value()
    return _reference_wait(self, future)


def _as_compiled(call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, as compiled code while a trace is recorded."""
    if active_scope() is None:
        return call(*args, **kwargs)
    _inside.depth = getattr(_inside, "depth", 0) + 1
    try:
        return call(*args, **kwargs)
    finally:
        _inside.depth -= 1


class _CompiledModule(ref.ScriptModule):
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return _as_compiled(super().forward, *args, **kwargs)


def script(obj: Any, *, schedule: str | None = None) -> Any:
    """The reference's script; what it compiles runs as compiled code under a trace."""
    scripted = ref.script(obj, schedule=schedule)
    if isinstance(obj, ref.ScriptModule):
        return scripted
    if isinstance(scripted, ref.ScriptModule):
        return _CompiledModule(obj, schedule)

    @functools.wraps(obj)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return _as_compiled(scripted, *args, **kwargs)

    return compiled


def adapter() -> Adapter:
    Scope.fork = _fork  # type: ignore[method-assign]  # the executor's process only
    Scope.wait = _wait  # type: ignore[method-assign]
    return variant("compiled-forks-untraced", profiles=LATITUDE.profiles, script=script)
