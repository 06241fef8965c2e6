"""While tracing, a fork made in a helper the traced code calls is inlined: no fork node.

A tracer that tells the traced code from compiled code it calls by the frame a
fork is made in: a fork becomes a fork node only when it is made in the traced
function's own body or in the body of a function it forked. A fork made
anywhere else, in a plain helper they call or in a module's ``forward``, is
taken for a fork of compiled code, which the rule leaves open, and runs on the
spot, its operations recorded where it runs. It breaks
TRACE-ONE-NODE-PER-FORK-1: "A trace MUST hold one fork node for every fork the
traced code ran [...] The traced code is func and all that runs as Python under
it: the bodies it forks, and the functions and modules these call, to any
depth".
"""

import sys
from types import CodeType
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.scope import Scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-ONE-NODE-PER-FORK-1")

#: the code of every traced function and forked body: forks made there are recorded
_traced_code: set[CodeType] = set()

_reference_fork = Scope.fork
_reference_wait = Scope.wait


def _code_of(func: Any) -> CodeType | None:
    target = func.forward if isinstance(func, ref.Module) else func
    code = getattr(getattr(target, "__func__", target), "__code__", None)
    return code if isinstance(code, CodeType) else None


class _Inlined(ref.Future[Any]):
    """The future of a fork run on the spot: done, and never recorded."""

    __slots__ = ()


#: the code of a comprehension, which runs in a frame of its own inside its function's
_COMPREHENSIONS = ("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")


def _forking_code() -> CodeType:
    """The code of the function that called ``fw.fork`` (a comprehension's, its function's)."""
    frame = sys._getframe(3)  # above _forking_code, Scope.fork and fw.fork
    while frame.f_code.co_name in _COMPREHENSIONS and frame.f_back is not None:
        frame = frame.f_back
    return frame.f_code


def _fork(self: Scope, func: Any, args: Any, kwargs: Any) -> Any:
    if _forking_code() not in _traced_code:
        future: _Inlined = _Inlined()  # the mutation: a helper's fork is taken for compiled code's
        try:
            result = func(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - kept for wait, as a fork keeps it
            future.set_exception(error)
        else:
            future.set_result(result)
        return future
    code = _code_of(func)
    if code is not None:
        _traced_code.add(code)
    return _reference_fork(self, func, args, kwargs)


def _wait(self: Scope, future: Any) -> Any:
    if isinstance(future, _Inlined):
        return future.value()
    return _reference_wait(self, future)


def trace(func: Any, example_inputs: Any) -> Any:
    code = _code_of(func)
    if code is not None:
        _traced_code.add(code)
    return ref.trace(func, example_inputs)


def adapter() -> Adapter:
    Scope.fork = _fork  # type: ignore[method-assign]  # the executor's process only
    Scope.wait = _wait  # type: ignore[method-assign]
    return mutant("trace-forks-in-helpers-inlined", trace=trace)
