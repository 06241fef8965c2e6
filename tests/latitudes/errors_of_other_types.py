"""Every error the text lets an implementation choose is of another type than the reference's.

``set_exception`` refuses a bad argument with ``AssertionError`` and a
``BaseException`` that is not an ``Exception`` too (torch 2.13's way); ``value()``
on a future not done raises an ``Exception`` that is no ``RuntimeError``;
completing a done future and closing a cycle of waits raise subclasses of
``RuntimeError``; a trace that cannot be made raises a plain ``Exception``; and
the ``TypeError`` of ``fork``, ``wait``, ``collect_all`` and ``wait_all`` is a
subclass of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _core
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-SET-EXCEPTION-1, FUTURE-VALUE-NOT-DONE-1, FUTURE-SET-ONCE-1, WAIT-SELF-1, "
    "TRACE-NO-DATA-1, TRACE-INPUTS-1",
    granted="Which exception a bad argument gets is left open ... So is a BaseException that "
    "is not an Exception (FUTURE-SET-EXCEPTION-1); MUST raise an Exception "
    "(FUTURE-VALUE-NOT-DONE-1); RuntimeError (or a subclass) (FUTURE-SET-ONCE-1, WAIT-SELF-1); "
    "an exception (of any type) (TRACE-NO-DATA-1, TRACE-INPUTS-1)",
    shows="""
try:
    fw.Future().value()
except Exception as error:
    print(type(error).__name__)
""",
)


class NotDone(Exception):
    """value() on a future that is not done."""


class CompletedTwice(RuntimeError):
    """set_result or set_exception on a done future."""


class Cycle(RuntimeError):
    """A wait that closes a cycle of waits."""


class NotTraceable(Exception):
    """A program trace cannot record."""


class Refused(TypeError):
    """A value given where a future was expected, or where a callable was."""


def _retyped(func: Callable[..., Any], types: dict[type, type]) -> Callable[..., Any]:
    """``func``, whose exceptions of the keys' types are raised as the values' types."""

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except Exception as error:
            for old, new in types.items():
                if isinstance(error, old):
                    raise new(str(error)) from error
            raise

    return call


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if not callable(func):
        raise Refused(f"fork() needs a callable, got {type(func).__name__}")
    return ref.fork(func, *args, **kwargs)


def wait(future: Any, /) -> Any:
    if not isinstance(future, ref.Future):
        raise Refused(f"wait() needs a future, got {type(future).__name__}")
    return ref.wait(future)


def collect_all(futures: list[Any], /) -> Any:
    return _retyped(ref.collect_all, {TypeError: Refused})(futures)


def wait_all(futures: list[Any], /) -> list[Any]:
    if not all(isinstance(future, ref.Future) for future in futures):
        raise Refused("wait_all() needs a list of futures")
    return ref.wait_all(futures)


def trace(func: Any, example_inputs: Any, /) -> Any:
    return _retyped(ref.trace, {ref.TracingError: NotTraceable, TypeError: NotTraceable})(
        func, example_inputs
    )


def _set_exception(self: Any, exception: Any) -> None:
    if not isinstance(exception, Exception):  # torch 2.13: "... not an Exception"
        raise AssertionError(f"{exception!r} is of type {type(exception)}, not an Exception")
    self._set(None, exception)


def _value(self: Any) -> Any:
    if not self.done():
        raise NotDone("value() of a future that is not done")
    return self._outcome()


def _set(self: Any, value: Any, exception: Any) -> None:
    try:
        _reference_set(self, value, exception)
    except RuntimeError as error:
        raise CompletedTwice(str(error)) from None


_reference_set = ref.Future._set


def adapter() -> Adapter:
    ref.Future.set_exception = _set_exception  # type: ignore[method-assign]
    ref.Future.value = _value  # type: ignore[method-assign]
    ref.Future._set = _set  # type: ignore[method-assign]
    setattr(_core, "DeadlockError", Cycle)  # noqa: B010 - the cycle check raises it by this name
    return variant(
        "errors-of-other-types",
        fork=fork, wait=wait, collect_all=collect_all, wait_all=wait_all, trace=trace,
    )  # fmt: skip
