"""Where tensors, forks and waits report to a trace being recorded, if one is.

A context variable holds the recorder of the graph the running code belongs to:
a trace sets it for the traced call, and each fork recorded sets its subgraph's
recorder in the copy of the context its task runs in. Code outside any trace
sees None and records nothing.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .future import Future


class Recorder(Protocol):
    """What a graph being recorded is told."""

    def operation(self, kind: str, operands: tuple[object, ...], result: object) -> None: ...

    def fork(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        start: Callable[[Callable[[], Any]], Future[Any]],
    ) -> Future[Any]: ...

    def waited(self, fut: Future[Any], value: object) -> None: ...


current: contextvars.ContextVar[Recorder | None] = contextvars.ContextVar(
    "forkjoin_trace_recorder", default=None
)
