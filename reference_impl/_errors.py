"""The errors a wait can raise on its own account, and the warning for a failure nobody saw."""

from __future__ import annotations

import warnings


class DeadlockError(RuntimeError):
    """A task waited, directly or through other tasks, on its own future."""


class UnretrievedExceptionWarning(RuntimeWarning):
    """A failed future was garbage-collected without its exception ever being waited."""


class UnretrievedGuard:
    """Warns on collection unless the failure was retrieved.

    Only failed tasks carry one, so successful tasks pay nothing for the check
    (the same trick as asyncio's former ``_TracebackLogger``).
    """

    __slots__ = ("exception", "retrieved", "task")

    def __init__(self, exception: BaseException, task: str) -> None:
        self.exception = exception
        self.task = task
        self.retrieved = False

    def __del__(self) -> None:
        # Nothing here may raise: an error in __del__ is only printed, and the
        # warning it replaced, the one trace of the failure, would be lost.
        if not self.retrieved:
            warnings.warn(
                f"forked task {self.task} raised {describe_exception(self.exception)}, "
                "but no wait() ever retrieved the exception",
                UnretrievedExceptionWarning,
                stacklevel=1,
            )


def describe_exception(exception: BaseException) -> str:
    """``repr(exception)``, or its type's name when its ``__repr__`` raises."""
    try:
        return repr(exception)
    except Exception:  # noqa: BLE001 - a user's broken __repr__ must not hide the failure
        return f"{type(exception).__qualname__} (whose repr() raised)"


def describe_callable(func: object) -> str:
    """A short human name for error messages (``<function f>``, ``<Mod object>``).

    Never raises for what the object does: it is called while a task's own
    failure is being recorded, and a proxy's ``__getattr__`` may raise anything.
    """
    try:
        name = getattr(func, "__qualname__", None)
    except Exception:  # noqa: BLE001 - a broken __getattr__ must not replace the task's error
        name = None
    if isinstance(name, str):
        return f"<function {name}>"
    return f"<{type(func).__qualname__} object>"
