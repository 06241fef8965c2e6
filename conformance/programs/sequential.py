"""The meaning the spec gives a generated program: ``fork`` as a direct call.

DET-PURE-1 says a program of pure tasks gives the result of plain Python;
ERR-AT-WAIT-1 that a task's exception surfaces at ``wait``. So the meaning of
a program is what it does when ``fork`` calls its function on the spot and
keeps the outcome for ``wait``, ``script`` and ``ignore`` change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class SequentialFuture:
    """The kept outcome of one call."""

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        self.value = value
        self.error = error


class SequentialFw:
    """The names a generated program uses, with their sequential meaning."""

    Future = SequentialFuture

    @staticmethod
    def fork(func: Callable[..., Any], *args: Any, **kwargs: Any) -> SequentialFuture:
        try:
            return SequentialFuture(func(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - kept for wait, as the spec's fork keeps it
            return SequentialFuture(error=exc)

    @staticmethod
    def wait(future: SequentialFuture) -> Any:
        if future.error is not None:
            raise future.error
        return future.value

    @staticmethod
    def script(func: Callable[..., Any]) -> Callable[..., Any]:
        return func

    @staticmethod
    def ignore(func: Callable[..., Any]) -> Callable[..., Any]:
        return func


__all__ = ["SequentialFuture", "SequentialFw"]
