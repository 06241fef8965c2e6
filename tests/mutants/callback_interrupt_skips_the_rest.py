"""A done callback raising a BaseException (KeyboardInterrupt) keeps the later ones from running.

The completer runs the callbacks in a loop that catches ``Exception`` only:
a ``KeyboardInterrupt`` or ``SystemExit`` leaves the loop at once.

Most callback loops are written so, to let Ctrl-C through. It breaks
FUTURE-ADD-DONE-CALLBACK-1: "An exception the callback raises, any BaseException
included, MUST NOT [...] keep the other callbacks from running".
"""

from typing import Any, TypeVar

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl import _callbacks
from reference_impl._core import _DONE
from tests.mutants._base import AnyFuture, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-ADD-DONE-CALLBACK-1")

T = TypeVar("T")


class Future(ref.Future[T], metaclass=AnyFuture):
    __slots__ = ()

    def _end(self, value: Any, exception: BaseException | None) -> None:
        if exception is None:
            self._value = value
        else:
            self._exception, self._traceback, self._guard = exception, exception.__traceback__, None
        self._state = _DONE
        if self._waker is not None:
            self._waker.release()
        callbacks = self._callbacks
        while callbacks:
            entry = callbacks.pop(0)
            try:
                _callbacks.invoke(self, entry)
            except Exception:  # noqa: BLE001 - the mutation: a BaseException escapes the loop
                continue


def adapter() -> Adapter:
    return mutant("callback-interrupt-skips-the-rest", Future=Future)
